/* fuzz_diff.c — libFuzzer target for jet_diff.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_diff
 *   build-fuzz/fuzz/fuzz_diff -max_total_time=60
 *
 * Input: A NUL B (a plain JSON seed is A alone, and B is then A). Checks,
 * when both read: jet_diff(A, B) succeeds, its operations apply to A, and
 * the result equals B as JSON (jet_mut_equal_json); diff(A, A) is empty.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what) {
    fprintf(stderr, "fuzz_diff: %s\n", what);
    abort();
}

/* Exact-size heap copy so that ASan sees any read past the end. */
static jet_doc *read_part(const uint8_t *p, size_t n) {
    char *buf = (char *)malloc(n ? n : 1);
    if (!buf) abort();
    if (n) memcpy(buf, p, n);
    jet_doc *d = jet_read(buf, n, NULL, NULL, NULL);
    free(buf);
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *nul = (const uint8_t *)memchr(data, 0, size);
    size_t alen = nul ? (size_t)(nul - data) : size;
    jet_doc *a = read_part(data, alen);
    jet_doc *b = nul ? read_part(nul + 1, size - alen - 1) : NULL;
    const jet_val *ra = a ? jet_doc_root(a) : NULL;
    const jet_val *rb = nul ? (b ? jet_doc_root(b) : NULL) : ra;
    if (ra && rb) {
        jet_mut_doc *pd = jet_mut_doc_new(NULL);
        jet_error e;
        jet_mut_val *patch = jet_diff(pd, ra, rb, &e);
        if (!patch) fail("jet_diff failed");
        jet_mut_doc *m = jet_doc_to_mut(a, NULL);
        if (!m) fail("copy failed");
        jet_patch_error pe;
        if (!jet_patch_apply_mut(m, patch, &pe)) fail("the diff does not apply");
        jet_mut_val *want = jet_val_to_mut(m, rb);
        if (!want || !jet_mut_equal_json(jet_mut_doc_root(m), want))
            fail("patch(A, diff(A, B)) != B");
        jet_mut_val *none = jet_diff(pd, ra, ra, &e);
        if (!none || jet_mut_arr_size(none) != 0) fail("diff(A, A) is not empty");
        jet_mut_doc_free(m);
        jet_mut_doc_free(pd);
    }
    jet_doc_free(a);
    jet_doc_free(b);
    return 0;
}
