/* test_stats.c — structural fingerprints: exact values for small documents,
 * the formatted text, and self-consistency plus agreement with an
 * independent (recursive, iterator-based) count on every corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

static jet_doc *parse(const char *s, size_t len, jet_read_flags rf) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = rf;
    jet_error err;
    jet_doc *d = jet_read(s, len, &o, NULL, &err);
    CHECK_MSG(d != NULL, "parse failed: %s", d ? "" : err.msg);
    return d;
}

static void expect_fmt(const char *json, jet_read_flags rf, const char *want, int line) {
    jet_doc *d = parse(json, strlen(json), rf);
    if (!d) return;
    jet_stats s;
    jet_val_stats(jet_doc_root(d), &s);
    char buf[512];
    size_t n = jet_stats_format(&s, buf, sizeof buf);
    CHECK_MSG(n == strlen(want) && strcmp(buf, want) == 0, "line %d: %s\n got  %s\n want %s",
              line, json, buf, want);
    jet_doc_free(d);
}
#define EXPECT_FMT(json, rf, want) expect_fmt((json), (rf), (want), __LINE__)

static void test_small(void) {
    EXPECT_FMT("42", 0,
               "{\"objects\":0,\"arrays\":0,\"strings\":0,\"numbers\":1,\"integers\":1,"
               "\"doubles\":0,\"trues\":0,\"falses\":0,\"nulls\":0,\"keys\":0,"
               "\"max_depth\":0,\"string_bytes\":0}");
    EXPECT_FMT("[]", 0,
               "{\"objects\":0,\"arrays\":1,\"strings\":0,\"numbers\":0,\"integers\":0,"
               "\"doubles\":0,\"trues\":0,\"falses\":0,\"nulls\":0,\"keys\":0,"
               "\"max_depth\":1,\"string_bytes\":0}");
    EXPECT_FMT("\"h\\u00e9\"", 0,
               "{\"objects\":0,\"arrays\":0,\"strings\":1,\"numbers\":0,\"integers\":0,"
               "\"doubles\":0,\"trues\":0,\"falses\":0,\"nulls\":0,\"keys\":0,"
               "\"max_depth\":0,\"string_bytes\":3}");
    const char *doc = "{\"a\":[1,-2,3.5,\"s\",true,false,null,{\"b\":{}}],\"c\":\"de\"}";
    const char *want =
        "{\"objects\":3,\"arrays\":1,\"strings\":2,\"numbers\":3,\"integers\":2,"
        "\"doubles\":1,\"trues\":1,\"falses\":1,\"nulls\":1,\"keys\":3,"
        "\"max_depth\":4,\"string_bytes\":6}";
    EXPECT_FMT(doc, 0, want);
    /* raw numbers are classified by their text, so the fingerprint does
     * not depend on the number flags */
    EXPECT_FMT(doc, JET_READ_NUMBER_AS_RAW, want);
    EXPECT_FMT("[18446744073709551616,-9223372036854775809,1e400,18446744073709551615]",
               JET_READ_BIGNUM_AS_RAW,
               "{\"objects\":0,\"arrays\":1,\"strings\":0,\"numbers\":4,\"integers\":3,"
               "\"doubles\":1,\"trues\":0,\"falses\":0,\"nulls\":0,\"keys\":0,"
               "\"max_depth\":1,\"string_bytes\":0}");
    /* depth: siblings closing at once, and empty containers */
    EXPECT_FMT("[[[[]]],[[]],{\"k\":[{}]}]", 0,
               "{\"objects\":2,\"arrays\":7,\"strings\":0,\"numbers\":0,\"integers\":0,"
               "\"doubles\":0,\"trues\":0,\"falses\":0,\"nulls\":0,\"keys\":1,"
               "\"max_depth\":4,\"string_bytes\":1}");
    /* keys that look like strings are keys, string values are strings */
    EXPECT_FMT("{\"k\":\"v\",\"kk\":{\"x\":\"yy\"}}", 0,
               "{\"objects\":2,\"arrays\":0,\"strings\":2,\"numbers\":0,\"integers\":0,"
               "\"doubles\":0,\"trues\":0,\"falses\":0,\"nulls\":0,\"keys\":3,"
               "\"max_depth\":2,\"string_bytes\":7}");
}

static void test_format(void) {
    jet_stats s;
    memset(&s, 0xFF, sizeof s); /* every field UINT64_MAX */
    char buf[512];
    size_t n = jet_stats_format(&s, buf, sizeof buf);
    CHECK(n == strlen(buf));
    CHECK(strstr(buf, "\"string_bytes\":18446744073709551615}") != NULL);
    /* snprintf-like: returns the needed length, truncates, NUL-terminates */
    char small[10];
    size_t need = jet_stats_format(&s, small, sizeof small);
    CHECK(need == n);
    CHECK(strlen(small) == sizeof small - 1 && memcmp(small, buf, sizeof small - 1) == 0);
    CHECK(jet_stats_format(&s, NULL, 0) == n);
    /* the output parses as JSON with the twelve keys in order */
    jet_doc *d = parse(buf, n, 0);
    if (d) {
        static const char *keys[12] = {"objects", "arrays", "strings", "numbers",
                                       "integers", "doubles", "trues", "falses",
                                       "nulls", "keys", "max_depth", "string_bytes"};
        jet_val *r = jet_doc_root(d);
        CHECK(jet_obj_size(r) == 12);
        jet_obj_iter it = jet_obj_iter_init(r);
        int i = 0;
        for (jet_val *k; (k = jet_obj_iter_next(&it)); i++) {
            CHECK(i < 12 && jet_equals_str(k, keys[i]));
            CHECK(jet_is_uint(k + 1) && jet_get_uint(k + 1) == UINT64_MAX);
        }
        jet_doc_free(d);
    }
    /* NULL arguments */
    jet_val_stats(NULL, &s);
    CHECK(s.objects == 0 && s.max_depth == 0 && s.numbers == 0);
    jet_val_stats(NULL, NULL);
}

static void test_deep(void) {
    const size_t depth = 5000; /* beyond the local stack of the walk */
    char *s = malloc(depth * 2);
    for (size_t i = 0; i < depth; i++) {
        s[i] = '[';
        s[depth * 2 - 1 - i] = ']';
    }
    jet_read_opts o = {0, (uint32_t)depth, 0};
    jet_doc *d = jet_read(s, depth * 2, &o, NULL, NULL);
    CHECK(d != NULL);
    if (d) {
        jet_stats st;
        jet_val_stats(jet_doc_root(d), &st);
        CHECK(st.arrays == depth && st.max_depth == depth);
        /* a sub-value: depth counted from it */
        jet_val_stats(jet_arr_get(jet_doc_root(d), 0), &st);
        CHECK(st.arrays == depth - 1 && st.max_depth == depth - 1);
        jet_doc_free(d);
    }
    free(s);
}

/* Independent reference: recursive walk through the public iterators. */
static void ref_walk(const jet_val *v, uint64_t depth, jet_stats *s) {
    if (jet_is_container(v) && depth + 1 > s->max_depth) s->max_depth = depth + 1;
    switch (jet_get_type(v)) {
    case JET_TYPE_OBJ: {
        s->objects++;
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; (k = jet_obj_iter_next(&it));) {
            s->keys++;
            s->string_bytes += jet_get_len(k);
            ref_walk(k + 1, depth + 1, s);
        }
        break;
    }
    case JET_TYPE_ARR: {
        s->arrays++;
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; (e = jet_arr_iter_next(&it));) ref_walk(e, depth + 1, s);
        break;
    }
    case JET_TYPE_STR:
        s->strings++;
        s->string_bytes += jet_get_len(v);
        break;
    case JET_TYPE_NUM:
        s->numbers++;
        if (jet_is_real(v)) s->doubles++;
        else s->integers++;
        break;
    case JET_TYPE_BOOL:
        if (jet_is_true(v)) s->trues++;
        else s->falses++;
        break;
    case JET_TYPE_NULL:
        s->nulls++;
        break;
    default:
        break;
    }
}

static void test_corpora(void) {
    static const char *files[] = {"twitter.json", "citm_catalog.json", "canada.json",
                                  "github_events.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), files[i]);
        size_t len;
        char *json = check_read_file(path, &len);
        if (!json) {
            fprintf(stderr, "test_stats: %s missing, skipped\n", path);
            continue;
        }
        jet_doc *d = parse(json, len, 0);
        if (d) {
            jet_stats s, ref;
            memset(&ref, 0, sizeof ref);
            jet_val_stats(jet_doc_root(d), &s);
            ref_walk(jet_doc_root(d), 0, &ref);
            CHECK_MSG(memcmp(&s, &ref, sizeof s) == 0, "%s: stats differ from reference",
                      files[i]);
            CHECK(s.numbers == s.integers + s.doubles);
            uint64_t values = s.objects + s.arrays + s.strings + s.numbers + s.trues +
                              s.falses + s.nulls + s.keys;
            CHECK_MSG(values == jet_doc_val_count(d), "%s: %llu values vs %zu slots",
                      files[i], (unsigned long long)values, jet_doc_val_count(d));
            CHECK(s.max_depth >= 1);
            /* same fingerprint with every number kept raw */
            jet_doc *dr = parse(json, len, JET_READ_NUMBER_AS_RAW);
            if (dr) {
                jet_stats sr;
                jet_val_stats(jet_doc_root(dr), &sr);
                CHECK_MSG(memcmp(&s, &sr, sizeof s) == 0, "%s: raw fingerprint differs",
                          files[i]);
                jet_doc_free(dr);
            }
            char buf[512];
            jet_stats_format(&s, buf, sizeof buf);
            printf("%s: %s\n", files[i], buf);
            jet_doc_free(d);
        }
        free(json);
    }
}

int main(void) {
    test_small();
    test_format();
    test_deep();
    test_corpora();
    return CHECK_DONE("test_stats");
}
