/* test_diff.c — jet_diff: hand cases (the operations it makes, paths
 * escaped per RFC 6901) and the property patch(A, diff(A, B)) == B on
 * random edits of every corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

static jet_doc *rds(const char *json) {
    jet_error e;
    jet_doc *d = jet_read(json, strlen(json), NULL, NULL, &e);
    CHECK_MSG(d != NULL, "read failed: %s: %s", json, e.msg);
    return d;
}

/* Applies `patch` to a mutable copy of `a` and says whether the result
 * equals `b` as JSON. */
static bool applies_to(const jet_val *a, const jet_mut_val *patch, const jet_val *b) {
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_mut_doc_set_root(m, jet_val_to_mut(m, a));
    jet_patch_error pe;
    memset(&pe, 0, sizeof pe);
    bool ok = jet_patch_apply_mut(m, patch, &pe);
    CHECK_MSG(ok, "patch failed at operation %zu: %s", pe.index, pe.msg);
    jet_mut_val *want = jet_val_to_mut(m, b);
    ok = ok && jet_mut_equal_json(jet_mut_doc_root(m), want);
    jet_mut_doc_free(m);
    return ok;
}

/* diff(A, B) written minified equals `want`, and it turns A into B. */
static void expect_diff(const char *a, const char *b, const char *want) {
    jet_doc *da = rds(a), *db = rds(b);
    if (!da || !db) goto out;
    jet_mut_doc *pd = jet_mut_doc_new(NULL);
    jet_error e;
    jet_mut_val *patch = jet_diff(pd, jet_doc_root(da), jet_doc_root(db), &e);
    CHECK(patch != NULL);
    char *got = patch ? jet_mut_val_write(patch, 0, NULL, NULL, NULL) : NULL;
    CHECK_MSG(got && strcmp(got, want) == 0, "diff(%s, %s) = %s, want %s", a, b, got ? got : "(none)", want);
    CHECK_MSG(patch && applies_to(jet_doc_root(da), patch, jet_doc_root(db)),
              "patch(%s, diff) != %s", a, b);
    free(got);
    jet_mut_doc_free(pd);
out:
    jet_doc_free(da);
    jet_doc_free(db);
}

static void test_hand(void) {
    expect_diff("{\"a\":1}", "{\"a\":1}", "[]");
    expect_diff("[1,[2,{}]]", "[1,[2,{}]]", "[]");
    expect_diff("1", "2", "[{\"op\":\"replace\",\"path\":\"\",\"value\":2}]");
    expect_diff("1", "1.0", "[{\"op\":\"replace\",\"path\":\"\",\"value\":1.0}]");
    expect_diff("{\"a\":1}", "[1]", "[{\"op\":\"replace\",\"path\":\"\",\"value\":[1]}]");
    expect_diff("{\"a\":1,\"b\":2}", "{\"a\":1,\"b\":3}",
                "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":3}]");
    expect_diff("{\"a\":1,\"b\":2}", "{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/b\"}]");
    expect_diff("{\"a\":1}", "{\"a\":1,\"c\":{\"d\":[]}}",
                "[{\"op\":\"add\",\"path\":\"/c\",\"value\":{\"d\":[]}}]");
    /* no key in common: one replace, not a remove and an add per member */
    expect_diff("{\"x\":{\"a\":1,\"b\":2}}", "{\"x\":{\"c\":3}}",
                "[{\"op\":\"replace\",\"path\":\"/x\",\"value\":{\"c\":3}}]");
    expect_diff("{\"x\":{\"a\":1,\"b\":2}}", "{\"x\":{}}",
                "[{\"op\":\"replace\",\"path\":\"/x\",\"value\":{}}]");
    expect_diff("{\"x\":{\"a\":1}}", "{\"x\":{}}", "[{\"op\":\"remove\",\"path\":\"/x/a\"}]");
    expect_diff("{}", "{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/a\",\"value\":1}]");
    /* member order is not a change */
    expect_diff("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", "[]");
    /* nested change: one replace deep down */
    expect_diff("{\"x\":{\"y\":[1,{\"z\":true}]}}", "{\"x\":{\"y\":[1,{\"z\":false}]}}",
                "[{\"op\":\"replace\",\"path\":\"/x/y/1/z\",\"value\":false}]");
    /* arrays: one insertion anywhere is one add */
    expect_diff("[1,2,3,4]", "[1,2,9,3,4]", "[{\"op\":\"add\",\"path\":\"/2\",\"value\":9}]");
    expect_diff("[1,2,3,4]", "[0,1,2,3,4]", "[{\"op\":\"add\",\"path\":\"/0\",\"value\":0}]");
    expect_diff("[1,2,3,4]", "[1,2,3,4,5]", "[{\"op\":\"add\",\"path\":\"/4\",\"value\":5}]");
    expect_diff("[]", "[1,2]", "[{\"op\":\"add\",\"path\":\"/0\",\"value\":1},"
                               "{\"op\":\"add\",\"path\":\"/1\",\"value\":2}]");
    /* one removal is one remove; several go from the last */
    expect_diff("[1,2,3,4]", "[1,3,4]", "[{\"op\":\"remove\",\"path\":\"/1\"}]");
    expect_diff("[1,2,3,4]", "[1,4]", "[{\"op\":\"remove\",\"path\":\"/2\"},"
                                      "{\"op\":\"remove\",\"path\":\"/1\"}]");
    /* a changed element in the middle: one replace (or a recursion) */
    expect_diff("[1,2,3]", "[1,7,3]", "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":7}]");
    expect_diff("[{\"a\":1},{\"a\":2}]", "[{\"a\":1},{\"a\":3}]",
                "[{\"op\":\"replace\",\"path\":\"/1/a\",\"value\":3}]");
    /* a change and an insertion: two operations */
    expect_diff("[1,2,3]", "[1,8,9,3]", "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":8},"
                                        "{\"op\":\"add\",\"path\":\"/2\",\"value\":9}]");
    /* paths escape '~' and '/' (RFC 6901) */
    expect_diff("{\"a/b\":1,\"m~n\":2}", "{\"a/b\":2,\"m~n\":2,\"~/\":[]}",
                "[{\"op\":\"replace\",\"path\":\"/a~1b\",\"value\":2},"
                "{\"op\":\"add\",\"path\":\"/~0~1\",\"value\":[]}]");
    expect_diff("{\"\":1}", "{\"\":2}", "[{\"op\":\"replace\",\"path\":\"/\",\"value\":2}]");
    /* a repeated key: the object is replaced whole */
    expect_diff("{\"a\":1,\"a\":2}", "{\"a\":1}",
                "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"a\":1}}]");
    expect_diff("{\"a\":1,\"a\":2}", "{\"a\":1,\"a\":2}", "[]");
    /* strings and numbers by kind and bits */
    expect_diff("[\"x\",0.0,-0.0]", "[\"x\",-0.0,-0.0]",
                "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":-0.0}]");

    /* errors */
    jet_error e;
    jet_doc *d = rds("[1]");
    jet_mut_doc *pd = jet_mut_doc_new(NULL);
    CHECK(!jet_diff(NULL, jet_doc_root(d), jet_doc_root(d), &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_diff(pd, NULL, jet_doc_root(d), &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_diff(pd, jet_doc_root(d), NULL, NULL));
    jet_mut_doc_free(pd);
    jet_doc_free(d);
}

/* ---- random edits ---- */

static uint64_t rng_state = 0x2545F4914F6CDD1Du;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 33) % (n ? n : 1);
}

static unsigned edit_serial;

/* A value that appears nowhere in the corpora. */
static jet_mut_val *fresh_value(jet_mut_doc *m) {
    char s[32];
    snprintf(s, sizeof s, "jet-edit-%u", ++edit_serial);
    switch (rnd(4)) {
    case 0: return jet_mut_str(m, s);
    case 1: return jet_mut_sint(m, -(int64_t)edit_serial - 1000000);
    case 2: {
        jet_mut_val *o = jet_mut_obj(m);
        jet_mut_obj_addn(m, o, s, strlen(s), jet_mut_arr(m));
        return o;
    }
    default: {
        jet_mut_val *a = jet_mut_arr(m);
        jet_mut_arr_append(a, jet_mut_str(m, s));
        return a;
    }
    }
}

/* A container of the tree at root, reached by a random descent. */
static jet_mut_val *random_container(jet_mut_val *root) {
    jet_mut_val *c = root;
    for (;;) {
        size_t n = jet_mut_get_len(c);
        if (n == 0 || rnd(3) == 0) return c;
        jet_mut_val *child;
        size_t i = rnd((uint32_t)n);
        if (jet_mut_get_type(c) == JET_TYPE_ARR) {
            child = jet_mut_arr_at(c, i);
        } else {
            jet_mut_obj_iter it = jet_mut_obj_iter_init(c);
            jet_mut_val *k = jet_mut_obj_iter_next(&it);
            while (i--) k = jet_mut_obj_iter_next(&it);
            child = jet_mut_obj_iter_value(k);
        }
        jet_type t = jet_mut_get_type(child);
        if (t != JET_TYPE_ARR && t != JET_TYPE_OBJ) return c;
        c = child;
    }
}

/* One edit of the container c. Returns whether it is a single change that
 * jet_diff must express as exactly one operation (insert, delete, change,
 * member add/remove); moves are not. */
static bool edit(jet_mut_doc *m, jet_mut_val *c) {
    size_t n = jet_mut_get_len(c);
    unsigned what = rnd(4);
    if (n == 0) what = 0;
    if (jet_mut_get_type(c) == JET_TYPE_ARR) {
        switch (what) {
        /* the index first: the same sequence whatever the compiler's
         * order of evaluating arguments */
        case 0: {
            size_t at = rnd((uint32_t)n + 1);
            jet_mut_arr_insert(c, fresh_value(m), at);
            return true;
        }
        case 1: jet_mut_arr_remove(c, rnd((uint32_t)n)); return true;
        case 2: {
            size_t at = rnd((uint32_t)n);
            jet_mut_arr_set(c, at, fresh_value(m));
            return true;
        }
        default: {
            jet_mut_val *v = jet_mut_arr_remove(c, rnd((uint32_t)n));
            jet_mut_arr_insert(c, v, rnd((uint32_t)n));
            return false;
        }
        }
    }
    jet_mut_obj_iter it = jet_mut_obj_iter_init(c);
    jet_mut_val *k = jet_mut_obj_iter_next(&it);
    for (uint32_t skip = n ? rnd((uint32_t)n) : 0; skip; skip--) k = jet_mut_obj_iter_next(&it);
    switch (what) {
    case 0: {
        /* new keys with the characters a pointer escapes */
        char key[40];
        snprintf(key, sizeof key, rnd(2) ? "new/%u~x" : "new%u", ++edit_serial);
        jet_mut_obj_addn(m, c, key, strlen(key), fresh_value(m));
        return true;
    }
    case 1: {
        /* the first member of that name (a repeated key stays repeated) */
        jet_mut_val *gone = jet_mut_obj_removen(c, jet_mut_get_str(k), jet_mut_get_len(k));
        (void)gone;
        return true;
    }
    case 2:
        jet_mut_obj_setn(m, c, jet_mut_get_str(k), jet_mut_get_len(k), fresh_value(m));
        return true;
    default: {
        /* the member moves to the end: no change as JSON */
        const char *name = jet_mut_get_str(k);
        size_t len = jet_mut_get_len(k);
        jet_mut_val *v = jet_mut_obj_removen(c, name, len);
        jet_mut_obj_addn(m, c, name, len, v);
        return false;
    }
    }
}

static size_t rounds_run;

static void property_rounds(const char *name, const jet_doc *d, int rounds) {
    for (int round = 0; round < rounds; round++) {
        jet_mut_doc *bm = jet_doc_to_mut(d, NULL);
        unsigned edits = 1 + rnd(5);
        bool single = edits == 1;
        for (unsigned i = 0; i < edits; i++)
            single = edit(bm, random_container(jet_mut_doc_root(bm))) && single;
        jet_error e;
        jet_doc *b = jet_mut_to_doc(jet_mut_doc_root(bm), NULL, &e);
        CHECK(b != NULL);
        jet_mut_doc *pd = jet_mut_doc_new(NULL);
        jet_mut_val *patch = b ? jet_diff(pd, jet_doc_root(d), jet_doc_root(b), &e) : NULL;
        CHECK(patch != NULL);
        if (patch) {
            CHECK_MSG(applies_to(jet_doc_root(d), patch, jet_doc_root(b)),
                      "%s round %d: patch(A, diff(A, B)) != B", name, round);
            if (single && jet_mut_arr_size(patch) > 1) {
                char *text = jet_mut_val_write(patch, 0, NULL, NULL, NULL);
                CHECK_MSG(0, "%s round %d: one edit, %zu operations: %.600s", name, round,
                          jet_mut_arr_size(patch), text ? text : "?");
                free(text);
            }
            /* and back: diff(B, A) turns B into A */
            jet_mut_val *back = jet_diff(pd, jet_doc_root(b), jet_doc_root(d), &e);
            CHECK(back && applies_to(jet_doc_root(b), back, jet_doc_root(d)));
        }
        rounds_run++;
        jet_mut_doc_free(pd);
        jet_doc_free(b);
        jet_mut_doc_free(bm);
    }
}

static void test_property(void) {
    static const struct { const char *file; int rounds; } corpora[] = {
        {"twitter.json", 80}, {"citm_catalog.json", 60}, {"github_events.json", 100},
        {"canada.json", 20}};
    for (size_t f = 0; f < sizeof corpora / sizeof corpora[0]; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), corpora[f].file);
        size_t len;
        char *text = check_read_file(path, &len);
        if (!text) {
            fprintf(stderr, "test_diff: cannot read %s (set JET_SHARED_DIR)\n", path);
            CHECK(0);
            continue;
        }
        jet_doc *d = jet_read(text, len, NULL, NULL, NULL);
        CHECK(d != NULL);
        if (d) {
            /* identical documents: an empty patch */
            jet_mut_doc *pd = jet_mut_doc_new(NULL);
            jet_mut_val *none = jet_diff(pd, jet_doc_root(d), jet_doc_root(d), NULL);
            CHECK(none && jet_mut_arr_size(none) == 0);
            jet_mut_doc_free(pd);
            property_rounds(corpora[f].file, d, corpora[f].rounds);
        }
        jet_doc_free(d);
        free(text);
    }
    /* the NDJSON corpus: pairs of its lines, each diff applies */
    char path[1024];
    snprintf(path, sizeof path, "%s/corpora/nostr_relay.ndjson", check_shared_dir());
    size_t len;
    char *text = check_read_file(path, &len);
    CHECK(text != NULL);
    if (!text) return;
    jet_doc *prev = NULL;
    size_t lines = 0;
    for (char *p = text, *end = text + len; p < end && lines < 200;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        jet_doc *cur = n ? jet_read(p, n, NULL, NULL, NULL) : NULL;
        if (cur && prev) {
            jet_mut_doc *pd = jet_mut_doc_new(NULL);
            jet_mut_val *patch = jet_diff(pd, jet_doc_root(prev), jet_doc_root(cur), NULL);
            CHECK(patch && applies_to(jet_doc_root(prev), patch, jet_doc_root(cur)));
            jet_mut_doc_free(pd);
            lines++;
        }
        if (cur) {
            if (lines % 10 == 0) property_rounds("nostr_relay.ndjson", cur, 1);
            jet_doc_free(prev);
            prev = cur;
        }
        p = nl ? nl + 1 : end;
    }
    jet_doc_free(prev);
    CHECK(lines > 10);
    free(text);
}

int main(void) {
    /* JET_TEST_SEED=N: other random rounds */
    const char *seed = getenv("JET_TEST_SEED");
    if (seed && *seed) rng_state = strtoull(seed, NULL, 10) | 1u;
    test_hand();
    test_property();
    printf("test_diff: %zu random rounds\n", rounds_run);
    return CHECK_DONE("test_diff");
}
