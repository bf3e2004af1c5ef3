/* test_accessors.c — the exported accessors (src/accessors.c, reached with
 * JET_NO_INLINE) answer exactly as the inline ones of jet.h, on every value
 * of a document holding each type and subtype, and on NULL. */
#include "accessor_probe.h"
#include "check.h"

void probe_value_extern(const jet_val *v, probe *p);

static void compare(const jet_val *v, const char *what) {
    probe a, b;
    probe_value(v, &a);
    probe_value_extern(v, &b);
    CHECK_MSG(memcmp(&a, &b, sizeof a) == 0, "inline and exported accessors differ on %s", what);
}

int main(void) {
    static const char json[] =
        "{\"a\": [1, -2, 3.5, 18446744073709551615, -9223372036854775808, 1e300, -0.0],"
        " \"b\": {\"x\": true, \"y\": false, \"z\": null}, \"c\": \"\\u00e9\", \"d\": \"ab\","
        " \"e\": [], \"f\": {}, \"g\": [[1, [2]], {\"h\": [3]}, \"s\"]}";
    jet_error err;
    jet_doc *doc = jet_read(json, sizeof json - 1, NULL, NULL, &err);
    CHECK(doc != NULL);
    if (!doc) return CHECK_DONE("test_accessors");
    size_t count = jet_doc_val_count(doc);
    const jet_val *v = jet_doc_root(doc);
    for (size_t n = 0; n < count; n++) {
        char what[32];
        snprintf(what, sizeof what, "value %zu", n);
        compare(v + n, what);
    }
    compare(NULL, "NULL");
    /* big numbers kept as raw text: a RAW value */
    jet_read_opts opts = {JET_READ_BIGNUM_AS_RAW, 0, 0};
    jet_doc *raw = jet_read("[1e999]", 7, &opts, NULL, &err);
    CHECK(raw != NULL && jet_is_raw(jet_arr_first(jet_doc_root(raw))));
    if (raw) compare(jet_arr_first(jet_doc_root(raw)), "a raw number");
    /* the probe sees what it should: a sample of the answers, inline */
    probe p;
    probe_value(jet_obj_find(jet_doc_root(doc), "c"), &p);
    CHECK(p.eq && p.type == JET_TYPE_STR && p.len == 2);
    probe_value(jet_ptr_find(jet_doc_root(doc), "/a/3", NULL), &p);
    CHECK(p.is[5] && p.u == UINT64_MAX);
    probe_value(jet_ptr_find(jet_doc_root(doc), "/a/2", NULL), &p);
    CHECK(p.is[8] && p.f64 == 3.5 && p.num == 3.5);
    jet_doc_free(raw);
    jet_doc_free(doc);
    return CHECK_DONE("test_accessors");
}
