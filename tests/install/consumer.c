/* consumer.c — a program outside the project that uses an installed jet:
 * tests/install/CMakeLists.txt builds it through find_package(jet), and
 * .ci/run builds it a second time through `pkg-config --cflags --libs jet`.
 * It reads a document, looks values up, writes the document and reads the
 * text back to an equal tree, and checks that the header and the library it
 * was linked with agree on the version. Exit status 0 when all holds. */
#include <jet.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    static const char json[] = "{ \"name\": \"jet\", \"xs\": [1, -2.5e-3, 1e300, true, null] }";
    int bad = 0;

    if (strcmp(jet_version(), JET_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: header %s, library %s\n", JET_VERSION_STRING, jet_version());
        bad = 1;
    }
    jet_error err;
    jet_doc *doc = jet_read(json, sizeof json - 1, NULL, NULL, &err);
    if (!doc) {
        fprintf(stderr, "consumer: read failed: %s\n", jet_code_name(err.code));
        return 1;
    }
    const jet_val *root = jet_doc_root(doc);
    if (jet_arr_size(jet_ptr_get(root, "/xs", NULL)) != 5 || !jet_ptr_get(root, "/name", NULL)) {
        fprintf(stderr, "consumer: pointer lookups failed\n");
        bad = 1;
    }
    size_t len = 0;
    char *out = jet_doc_write(doc, JET_WRITE_NOFLAG, NULL, &len, NULL);
    jet_doc *again = out ? jet_read(out, len, NULL, NULL, NULL) : NULL;
    if (!again || !jet_val_equal(root, jet_doc_root(again))) {
        fprintf(stderr, "consumer: [%s] does not read back to the same tree\n", out ? out : "");
        bad = 1;
    }
    printf("consumer: jet %s: %s\n", jet_version(), out ? out : "");
    jet_doc_free(again);
    free(out);
    jet_doc_free(doc);
    return bad;
}
