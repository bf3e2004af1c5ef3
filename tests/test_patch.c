/* test_patch.c — JSON Patch (RFC 6902): the json-patch-tests suite
 * (../shared/conformance/json-patch-tests/tests.json), the RFC's Appendix A
 * examples, atomicity and error details; JSON Merge Patch (RFC 7386): the
 * RFC's Appendix A and the property apply(A, create(A, B)) == B on mutated
 * corpora. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

static jet_doc *rd(const char *json, size_t len) {
    jet_error e;
    jet_doc *d = jet_read(json, len, NULL, NULL, &e);
    if (!d) fprintf(stderr, "test_patch: cannot read %.60s: %s\n", json, e.msg);
    return d;
}

static jet_doc *rds(const char *json) { return rd(json, strlen(json)); }

/* Applies the patch text to the doc text: true on success; *out (when
 * non-NULL) gets the result written minified (caller frees). The document
 * must be unchanged after a failure. */
static bool run_patch(const char *doc_text, const char *patch_text, char **out, jet_patch_error *pe) {
    jet_doc *d = rds(doc_text), *p = rds(patch_text);
    if (!d || !p) {
        jet_doc_free(d);
        jet_doc_free(p);
        CHECK(0);
        return false;
    }
    jet_mut_doc *m = jet_doc_to_mut(d, NULL);
    char *before = jet_mut_doc_write(m, 0, NULL, NULL, NULL);
    bool ok = jet_patch_apply(m, jet_doc_root(p), pe);
    if (!ok) {
        char *after = jet_mut_doc_write(m, 0, NULL, NULL, NULL);
        CHECK_MSG(after && strcmp(before, after) == 0, "failed patch changed the document: %s", patch_text);
        CHECK(jet_mut_val_equal_val(jet_mut_doc_root(m), jet_doc_root(d)));
        free(after);
    }
    if (out) *out = ok ? jet_mut_doc_write(m, 0, NULL, NULL, NULL) : NULL;
    free(before);
    jet_mut_doc_free(m);
    jet_doc_free(d);
    jet_doc_free(p);
    return ok;
}

/* The result of the patch equals `want` as JSON (any member order). */
static void expect_patch(const char *doc, const char *patch, const char *want) {
    char *got = NULL;
    jet_patch_error pe;
    bool ok = run_patch(doc, patch, &got, &pe);
    CHECK_MSG(ok, "patch %s failed: op %zu: %s", patch, pe.index, pe.msg ? pe.msg : "?");
    if (ok) {
        jet_doc *g = rds(got), *w = rds(want);
        jet_mut_doc *mg = jet_doc_to_mut(g, NULL), *mw = jet_doc_to_mut(w, NULL);
        CHECK_MSG(jet_mut_equal_json(jet_mut_doc_root(mg), jet_mut_doc_root(mw)), "patch %s: got %s, want %s",
                  patch, got, want);
        jet_mut_doc_free(mg);
        jet_mut_doc_free(mw);
        jet_doc_free(g);
        jet_doc_free(w);
    }
    free(got);
}

static void expect_fail(const char *doc, const char *patch, jet_code code, size_t index) {
    jet_patch_error pe;
    bool ok = run_patch(doc, patch, NULL, &pe);
    CHECK_MSG(!ok, "patch %s should fail", patch);
    if (!ok)
        CHECK_MSG(pe.code == code && pe.index == index && pe.msg, "patch %s: %s at %zu (%s)", patch,
                  jet_code_name(pe.code), pe.index, pe.msg ? pe.msg : "?");
}

/* RFC 6902 Appendix A, from the RFC text. */
static void test_rfc6902(void) {
    expect_patch("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]",
                 "{\"baz\":\"qux\",\"foo\":\"bar\"}");                                               /* A.1 */
    expect_patch("{\"foo\":[\"bar\",\"baz\"]}", "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
                 "{\"foo\":[\"bar\",\"qux\",\"baz\"]}");                                            /* A.2 */
    expect_patch("{\"baz\":\"qux\",\"foo\":\"bar\"}", "[{\"op\":\"remove\",\"path\":\"/baz\"}]",
                 "{\"foo\":\"bar\"}");                                                              /* A.3 */
    expect_patch("{\"foo\":[\"bar\",\"qux\",\"baz\"]}", "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]",
                 "{\"foo\":[\"bar\",\"baz\"]}");                                                    /* A.4 */
    expect_patch("{\"baz\":\"qux\",\"foo\":\"bar\"}", "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
                 "{\"baz\":\"boo\",\"foo\":\"bar\"}");                                              /* A.5 */
    expect_patch("{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},\"qux\":{\"corge\":\"grault\"}}",
                 "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":\"/qux/thud\"}]",
                 "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\",\"thud\":\"fred\"}}");  /* A.6 */
    expect_patch("{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
                 "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]",
                 "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}");                                 /* A.7 */
    expect_patch("{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
                 "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},"
                 "{\"op\":\"test\",\"path\":\"/foo/1\",\"value\":2}]",
                 "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}");                                      /* A.8 */
    expect_fail("{\"baz\":\"qux\"}", "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]",
                JET_ERR_PATCH_TEST, 0);                                                             /* A.9 */
    expect_patch("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grandchild\":{}}}]",
                 "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}");                                /* A.10 */
    expect_patch("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"xyz\":123}]",
                 "{\"foo\":\"bar\",\"baz\":\"qux\"}");                                              /* A.11 */
    expect_fail("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]",
                JET_ERR_NOT_FOUND, 0);                                                              /* A.12 */
    /* A.13: a repeated "op" makes the operation invalid */
    expect_fail("{\"foo\":\"bar\"}", "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"op\":\"remove\"}]",
                JET_ERR_INVALID_ARG, 0);
    expect_patch("{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":10}]",
                 "{\"/\":9,\"~1\":10}");                                                            /* A.14 */
    expect_fail("{\"/\":9,\"~1\":10}", "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":\"10\"}]",
                JET_ERR_PATCH_TEST, 0);                                                             /* A.15 */
    expect_patch("{\"foo\":[\"bar\"]}", "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\",\"def\"]}]",
                 "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}");                                          /* A.16 */
}

/* Error details: index, op, path, code; and atomicity after earlier ops. */
static void test_errors(void) {
    const char *doc = "{\"a\":[1,2,3],\"b\":{\"c\":true}}";
    jet_patch_error pe;
    const char *patch = "[{\"op\":\"add\",\"path\":\"/x\",\"value\":1},{\"op\":\"remove\",\"path\":\"/a/0\"},"
                        "{\"op\":\"replace\",\"path\":\"/b/zz\",\"value\":2}]";
    CHECK(!run_patch(doc, patch, NULL, &pe));
    CHECK(pe.index == 2 && pe.op && strcmp(pe.op, "replace") == 0 && pe.code == JET_ERR_NOT_FOUND);
    CHECK(pe.path_len == 5 && pe.offset == 2); /* "/b/zz": the token "zz" names nothing */
    patch = "[{\"op\":\"move\",\"from\":\"/nope\",\"path\":\"/x\"}]";
    CHECK(!run_patch(doc, patch, NULL, &pe) && pe.code == JET_ERR_NOT_FOUND && pe.path_len == 5 &&
          strcmp(pe.op, "move") == 0); /* the failing pointer is "from" */
    expect_fail(doc, "{}", JET_ERR_TYPE, 0);
    expect_fail(doc, "[{\"op\":\"test\",\"path\":\"\",\"value\":{}}, 5]", JET_ERR_PATCH_TEST, 0);
    expect_fail(doc, "[{\"op\":\"test\",\"path\":\"/a\",\"value\":[1,2,3]}, 5]", JET_ERR_TYPE, 1);
    expect_fail(doc, "[{\"path\":\"/a\"}]", JET_ERR_MISSING_FIELD, 0);
    expect_fail(doc, "[{\"op\":1,\"path\":\"/a\"}]", JET_ERR_TYPE, 0);
    expect_fail(doc, "[{\"op\":\"spam\",\"path\":\"/a\"}]", JET_ERR_BAD_TAG, 0);
    expect_fail(doc, "[{\"op\":\"remove\",\"path\":5}]", JET_ERR_TYPE, 0);
    expect_fail(doc, "[{\"op\":\"copy\",\"from\":5,\"path\":\"/a\"}]", JET_ERR_TYPE, 0);
    expect_fail(doc, "[{\"op\":\"remove\",\"path\":\"a\"}]", JET_ERR_POINTER, 0);
    expect_fail(doc, "[{\"op\":\"remove\",\"path\":\"/~2\"}]", JET_ERR_POINTER, 0);
    expect_fail(doc, "[{\"op\":\"move\",\"from\":\"/b\",\"path\":\"/b/c/d\"}]", JET_ERR_INVALID_ARG, 0);
    expect_fail(doc, "[{\"op\":\"move\",\"from\":\"\",\"path\":\"/x\"}]", JET_ERR_INVALID_ARG, 0);
    expect_fail(doc, "[{\"op\":\"add\",\"path\":\"/a/5\",\"value\":1}]", JET_ERR_NOT_FOUND, 0);
    expect_fail(doc, "[{\"op\":\"add\",\"path\":\"/b/c/d\",\"value\":1}]", JET_ERR_NOT_FOUND, 0);
    /* many operations, the last failing: nothing of the others stays */
    expect_fail(doc,
                "[{\"op\":\"add\",\"path\":\"\",\"value\":[]},{\"op\":\"add\",\"path\":\"/-\",\"value\":1},"
                "{\"op\":\"copy\",\"from\":\"/0\",\"path\":\"/0\"},{\"op\":\"test\",\"path\":\"/1\",\"value\":2}]",
                JET_ERR_PATCH_TEST, 3);
    /* moves onto itself and whole-document operations */
    expect_patch(doc, "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a\"}]", doc);
    expect_patch(doc, "[{\"op\":\"move\",\"from\":\"/b/c\",\"path\":\"\"}]", "true");
    expect_patch(doc, "[{\"op\":\"replace\",\"path\":\"\",\"value\":[1]}]", "[1]");
    expect_patch(doc, "[{\"op\":\"copy\",\"from\":\"\",\"path\":\"/self\"}]",
                 "{\"a\":[1,2,3],\"b\":{\"c\":true},\"self\":{\"a\":[1,2,3],\"b\":{\"c\":true}}}");
    expect_patch(doc, "[{\"op\":\"move\",\"from\":\"/a/0\",\"path\":\"/a/-\"}]", "{\"a\":[2,3,1],\"b\":{\"c\":true}}");
    expect_patch(doc, "[{\"op\":\"test\",\"path\":\"/a/0\",\"value\":1.0}]", doc);
    expect_patch(doc, "[]", doc);
    /* an empty document: an "add" of the root gives it one */
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_doc *p = rds("[{\"op\":\"add\",\"path\":\"\",\"value\":{\"k\":\"v\"}},{\"op\":\"add\",\"path\":\"/n\",\"value\":1}]");
    CHECK(jet_patch_apply(m, jet_doc_root(p), &pe));
    char *s = jet_mut_doc_write(m, 0, NULL, NULL, NULL);
    CHECK(s && strcmp(s, "{\"k\":\"v\",\"n\":1}") == 0);
    free(s);
    jet_doc_free(p);
    p = rds("[{\"op\":\"remove\",\"path\":\"\"},{\"op\":\"add\",\"path\":\"/x\",\"value\":1}]");
    CHECK(!jet_patch_apply(m, jet_doc_root(p), &pe) && pe.index == 1 && pe.code == JET_ERR_INVALID_ARG);
    CHECK(jet_mut_doc_root(m) && jet_mut_obj_size(jet_mut_doc_root(m)) == 2);
    CHECK(!jet_patch_apply(NULL, jet_doc_root(p), &pe) && pe.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_patch_apply(m, NULL, NULL) && !jet_patch_apply_mut(m, NULL, &pe));
    jet_doc_free(p);
    /* the mutable form of a patch, from another document */
    jet_mut_doc *pm = jet_mut_doc_new(NULL);
    jet_mut_val *ops = jet_mut_arr(pm), *op = jet_mut_obj(pm);
    jet_mut_obj_addn(pm, op, "op", 2, jet_mut_str(pm, "add"));
    jet_mut_obj_addn(pm, op, "path", 4, jet_mut_str(pm, "/arr"));
    jet_mut_val *arr = jet_mut_arr(pm);
    jet_mut_arr_append(arr, jet_mut_str(pm, "copied"));
    jet_mut_obj_addn(pm, op, "value", 5, arr);
    jet_mut_arr_append(ops, op);
    CHECK(jet_patch_apply_mut(m, ops, &pe));
    jet_mut_doc_free(pm); /* the added value was copied */
    s = jet_mut_doc_write(m, 0, NULL, NULL, NULL);
    CHECK(s && strcmp(s, "{\"k\":\"v\",\"n\":1,\"arr\":[\"copied\"]}") == 0);
    free(s);
    jet_mut_doc_free(m);
}

/* Finds the value of `key` in the object `obj` (the immutable form). */
static const jet_val *member(const jet_val *obj, const char *key) { return jet_obj_find(obj, key); }

static void test_suite(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/conformance/json-patch-tests/tests.json", check_shared_dir());
    size_t len;
    char *text = check_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "test_patch: cannot read %s (set JET_SHARED_DIR)\n", path);
        CHECK(0);
        return;
    }
    jet_doc *suite = rd(text, len);
    CHECK(suite && jet_arr_size(jet_doc_root(suite)) > 0);
    size_t passed = 0, disabled = 0, failed = 0, index = 0;
    jet_arr_iter it = jet_arr_iter_init(jet_doc_root(suite));
    for (jet_val *rec; (rec = jet_arr_iter_next(&it)); index++) {
        if (jet_is_true(member(rec, "disabled"))) {
            disabled++;
            continue;
        }
        const jet_val *doc = member(rec, "doc"), *patch = member(rec, "patch");
        const jet_val *expected = member(rec, "expected"), *error = member(rec, "error");
        jet_mut_doc *m = jet_mut_doc_new(NULL);
        jet_mut_doc_set_root(m, jet_val_to_mut(m, doc));
        jet_patch_error pe;
        bool ok = jet_patch_apply(m, patch, &pe);
        bool good;
        if (error) {
            /* must fail, leaving the document as it was */
            good = !ok && pe.msg && jet_mut_val_equal_val(jet_mut_doc_root(m), doc);
        } else {
            good = ok;
            if (ok && expected) {
                jet_mut_doc *w = jet_mut_doc_new(NULL);
                good = jet_mut_equal_json(jet_mut_doc_root(m), jet_val_to_mut(w, expected));
                jet_mut_doc_free(w);
            }
        }
        if (good) passed++;
        else failed++;
        const jet_val *comment = member(rec, "comment");
        CHECK_MSG(good, "json-patch-tests record %zu (%s): %s", index,
                  comment ? jet_get_str(comment) : "no comment", ok ? "applied" : pe.msg);
        jet_mut_doc_free(m);
    }
    printf("json-patch-tests: %zu passed, %zu failed, %zu disabled (skipped)\n", passed, failed, disabled);
    CHECK(passed >= 90);
    jet_doc_free(suite);
    free(text);
}

/* ---- JSON Merge Patch ---- */

static void expect_merge(const char *target, const char *patch, const char *want) {
    jet_doc *t = rds(target), *p = rds(patch);
    jet_mut_doc *m = jet_doc_to_mut(t, NULL);
    jet_error e;
    CHECK(jet_merge_patch_apply(m, jet_doc_root(p), &e));
    char *got = jet_mut_doc_write(m, 0, NULL, NULL, NULL);
    CHECK_MSG(got && strcmp(got, want) == 0, "merge %s into %s: got %s, want %s", patch, target,
              got ? got : "(null)", want);
    free(got);
    jet_mut_doc_free(m);
    jet_doc_free(t);
    jet_doc_free(p);
}

static void test_rfc7386(void) {
    /* Appendix A, in order (member order: kept ones in place, new ones last) */
    expect_merge("{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}");
    expect_merge("{\"a\":\"b\"}", "{\"b\":\"c\"}", "{\"a\":\"b\",\"b\":\"c\"}");
    expect_merge("{\"a\":\"b\"}", "{\"a\":null}", "{}");
    expect_merge("{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}", "{\"b\":\"c\"}");
    expect_merge("{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}");
    expect_merge("{\"a\":\"c\"}", "{\"a\":[\"b\"]}", "{\"a\":[\"b\"]}");
    expect_merge("{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}", "{\"a\":{\"b\":\"d\"}}");
    expect_merge("{\"a\":[{\"b\":\"c\"}]}", "{\"a\":[1]}", "{\"a\":[1]}");
    expect_merge("[\"a\",\"b\"]", "[\"c\",\"d\"]", "[\"c\",\"d\"]");
    expect_merge("{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]");
    expect_merge("{\"a\":\"foo\"}", "null", "null");
    expect_merge("{\"a\":\"foo\"}", "\"bar\"", "\"bar\"");
    expect_merge("{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}");
    expect_merge("[1,2]", "{\"a\":\"b\",\"c\":null}", "{\"a\":\"b\"}");
    expect_merge("{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{\"a\":{\"bb\":{}}}");
    /* the RFC's section 3 example */
    expect_merge("{\"title\":\"Goodbye!\",\"author\":{\"givenName\":\"John\",\"familyName\":\"Doe\"},"
                 "\"tags\":[\"example\",\"sample\"],\"content\":\"This will be unchanged\"}",
                 "{\"title\":\"Hello!\",\"phoneNumber\":\"+01-123-456-7890\",\"author\":{\"familyName\":null},"
                 "\"tags\":[\"example\"]}",
                 "{\"title\":\"Hello!\",\"author\":{\"givenName\":\"John\"},\"tags\":[\"example\"],"
                 "\"content\":\"This will be unchanged\",\"phoneNumber\":\"+01-123-456-7890\"}");
    /* duplicates: null removes every member of the name */
    expect_merge("{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":null}", "{\"b\":2}");
    /* an empty document is a non-object target */
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_doc *p = rds("{\"a\":{\"b\":null,\"c\":1}}");
    CHECK(jet_merge_patch_apply(m, jet_doc_root(p), NULL));
    char *s = jet_mut_doc_write(m, 0, NULL, NULL, NULL);
    CHECK(s && strcmp(s, "{\"a\":{\"c\":1}}") == 0);
    free(s);
    jet_error e;
    CHECK(!jet_merge_patch_apply(NULL, jet_doc_root(p), &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_merge_patch_apply_mut(m, NULL, &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_merge_patch_create(m, NULL, NULL, &e) && e.code == JET_ERR_INVALID_ARG);
    jet_doc_free(p);
    jet_mut_doc_free(m);
}

/* A small deterministic PRNG (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 33) % (n ? n : 1);
}

/* Changes some members and elements of the tree at v (in m). */
static void mutate(jet_mut_doc *m, jet_mut_val *v, unsigned depth) {
    if (depth > 40) return;
    if (jet_mut_get_type(v) == JET_TYPE_OBJ) {
        size_t n = jet_mut_obj_size(v);
        if (n && rnd(4) == 0) {
            jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
            jet_mut_val *k = jet_mut_obj_iter_next(&it);
            for (uint32_t skip = rnd((uint32_t)n); skip; skip--) k = jet_mut_obj_iter_next(&it);
            jet_mut_obj_removen(v, jet_mut_get_str(k), jet_mut_get_len(k));
        }
        if (rnd(5) == 0) {
            char key[16];
            snprintf(key, sizeof key, "new%u", rnd(1000));
            jet_mut_obj_setn(m, v, key, strlen(key), rnd(2) ? jet_mut_uint(m, rnd(9)) : jet_mut_obj(m));
        }
        jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
            jet_mut_val *val = jet_mut_obj_iter_value(k);
            if (rnd(8) == 0)
                jet_mut_obj_setn(m, v, jet_mut_get_str(k), jet_mut_get_len(k), jet_mut_str(m, "changed"));
            else
                mutate(m, val, depth + 1);
        }
    } else if (jet_mut_get_type(v) == JET_TYPE_ARR) {
        size_t n = jet_mut_arr_size(v);
        if (n && rnd(6) == 0) jet_mut_arr_remove(v, rnd((uint32_t)n));
        if (rnd(6) == 0) jet_mut_arr_append(v, jet_mut_f64(m, 0.5));
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val *e; (e = jet_mut_arr_iter_next(&it));) mutate(m, e, depth + 1);
    }
}

/* Removes the null members of every object (a merge patch cannot make
 * them), leaving nulls in arrays. */
static void strip_nulls(jet_mut_val *v) {
    if (jet_mut_get_type(v) == JET_TYPE_OBJ) {
        bool again = true;
        while (again) {
            again = false;
            jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
            for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
                if (jet_mut_get_type(jet_mut_obj_iter_value(k)) == JET_TYPE_NULL) {
                    jet_mut_obj_removen(v, jet_mut_get_str(k), jet_mut_get_len(k));
                    again = true;
                    break;
                }
                strip_nulls(jet_mut_obj_iter_value(k));
            }
        }
    } else if (jet_mut_get_type(v) == JET_TYPE_ARR) {
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val *e; (e = jet_mut_arr_iter_next(&it));) strip_nulls(e);
    }
}

static void test_merge_property(void) {
    static const char *const files[] = {"github_events.json", "twitter.json", "citm_catalog.json"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), files[f]);
        size_t len;
        char *text = check_read_file(path, &len);
        if (!text) {
            fprintf(stderr, "test_patch: cannot read %s (set JET_SHARED_DIR)\n", path);
            CHECK(0);
            continue;
        }
        jet_doc *d = rd(text, len);
        for (int round = 0; round < 3 && d; round++) {
            jet_mut_doc *a = jet_doc_to_mut(d, NULL);
            jet_mut_doc *b = jet_mut_doc_copy(a, NULL);
            mutate(b, jet_mut_doc_root(b), 0);
            strip_nulls(jet_mut_doc_root(b));
            jet_mut_doc *pd = jet_mut_doc_new(NULL);
            jet_error e;
            jet_mut_val *patch = jet_merge_patch_create(pd, jet_mut_doc_root(a), jet_mut_doc_root(b), &e);
            CHECK(patch != NULL);
            CHECK(!jet_mut_equal_json(jet_mut_doc_root(a), jet_mut_doc_root(b))); /* B differs */
            CHECK(jet_merge_patch_apply_mut(a, patch, &e));
            CHECK_MSG(jet_mut_equal_json(jet_mut_doc_root(a), jet_mut_doc_root(b)),
                      "%s round %d: apply(A, create(A, B)) != B", files[f], round);
            /* between equal objects the patch is empty ({}); other roots
             * are replaced whole */
            jet_mut_val *none = jet_merge_patch_create(pd, jet_mut_doc_root(a), jet_mut_doc_root(b), &e);
            if (jet_mut_get_type(jet_mut_doc_root(b)) == JET_TYPE_OBJ)
                CHECK(jet_mut_get_type(none) == JET_TYPE_OBJ && jet_mut_obj_size(none) == 0);
            else
                CHECK(jet_mut_equal(none, jet_mut_doc_root(b)));
            jet_mut_doc_free(pd);
            jet_mut_doc_free(a);
            jet_mut_doc_free(b);
        }
        /* JSON Patch atomicity on a large document: a patch failing at its
         * last operation leaves it byte for byte as it was (object roots) */
        if (d && jet_is_obj(jet_doc_root(d))) {
            jet_mut_doc *a = jet_doc_to_mut(d, NULL);
            char *before = jet_mut_doc_write(a, 0, NULL, NULL, NULL);
            jet_doc *p = rds("[{\"op\":\"add\",\"path\":\"/jet-added\",\"value\":[1,2]},"
                             "{\"op\":\"remove\",\"path\":\"/jet-added/0\"},"
                             "{\"op\":\"copy\",\"from\":\"/jet-added\",\"path\":\"/jet-copy\"},"
                             "{\"op\":\"test\",\"path\":\"/jet-copy\",\"value\":[1]}]");
            jet_patch_error pe;
            CHECK(jet_patch_apply(a, jet_doc_root(p), &pe) == false && pe.index == 3);
            char *after = jet_mut_doc_write(a, 0, NULL, NULL, NULL);
            CHECK(before && after && strcmp(before, after) == 0);
            free(before);
            free(after);
            jet_doc_free(p);
            jet_mut_doc_free(a);
        }
        jet_doc_free(d);
        free(text);
    }
    /* merge create on small cases, including non-objects */
    static const char *const pairs[][2] = {
        {"{\"a\":1,\"b\":{\"c\":2,\"d\":3}}", "{\"b\":{\"c\":2,\"e\":[1]},\"f\":\"x\"}"},
        {"[1,2]", "{\"a\":1}"},
        {"{\"a\":1}", "[1]"},
        {"{\"a\":{\"b\":1}}", "{\"a\":5}"},
        {"{\"a\":5}", "{\"a\":{\"b\":1}}"},
        {"1", "null"},
        {"{\"a\":1.0}", "{\"a\":1}"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        jet_doc *da = rds(pairs[i][0]), *db = rds(pairs[i][1]);
        jet_mut_doc *a = jet_doc_to_mut(da, NULL), *b = jet_doc_to_mut(db, NULL);
        jet_mut_val *patch = jet_merge_patch_create(a, jet_mut_doc_root(a), jet_mut_doc_root(b), NULL);
        CHECK(jet_merge_patch_apply_mut(a, patch, NULL));
        CHECK_MSG(jet_mut_equal_json(jet_mut_doc_root(a), jet_mut_doc_root(b)), "merge create pair %zu", i);
        jet_mut_doc_free(a);
        jet_mut_doc_free(b);
        jet_doc_free(da);
        jet_doc_free(db);
    }
}

int main(void) {
    test_rfc6902();
    test_errors();
    test_suite();
    test_rfc7386();
    test_merge_property();
    return CHECK_DONE("test_patch");
}
