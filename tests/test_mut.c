/* test_mut.c — mutable documents: creating values, arrays and objects,
 * iteration, copies to and from the immutable form, equality, writing
 * (byte-identical to jet_val_write), JSON Pointer edits, allocator use. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

/* Writes v minified (or with flags) into a static buffer for comparisons. */
static const char *wr(const jet_mut_val *v, jet_write_flags flags) {
    static char buf[4096];
    size_t n = 0;
    jet_error e;
    char *s = jet_mut_val_write(v, flags, NULL, &n, &e);
    if (!s) {
        snprintf(buf, sizeof buf, "<error %s: %s>", jet_code_name(e.code), e.msg);
        return buf;
    }
    snprintf(buf, sizeof buf, "%s", s);
    free(s);
    return buf;
}

#define CHECK_TEXT(v, want) CHECK_MSG(strcmp(wr((v), 0), (want)) == 0, "got %s, want %s", wr((v), 0), (want))

static jet_doc *rd(const char *json) {
    jet_error e;
    jet_doc *d = jet_read(json, strlen(json), NULL, NULL, &e);
    if (!d) fprintf(stderr, "test_mut: cannot read %s: %s\n", json, e.msg);
    return d;
}

static void test_scalars(void) {
    jet_mut_doc *doc = jet_mut_doc_new(NULL);
    CHECK(doc && !jet_mut_doc_root(doc));
    jet_mut_val *n = jet_mut_null(doc), *t = jet_mut_bool(doc, true), *f = jet_mut_bool(doc, false);
    CHECK(jet_mut_get_type(n) == JET_TYPE_NULL);
    CHECK(jet_mut_get_type(t) == JET_TYPE_BOOL && jet_mut_get_bool(t) && !jet_mut_get_bool(f));
    CHECK_TEXT(n, "null");
    CHECK_TEXT(t, "true");
    CHECK_TEXT(f, "false");
    jet_mut_val *u = jet_mut_uint(doc, UINT64_MAX);
    CHECK(jet_mut_get_kind(u) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_UINT) && jet_mut_get_uint(u) == UINT64_MAX);
    CHECK_TEXT(u, "18446744073709551615");
    jet_mut_val *s = jet_mut_sint(doc, INT64_MIN);
    CHECK(jet_mut_get_kind(s) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_SINT) && jet_mut_get_sint(s) == INT64_MIN);
    CHECK_TEXT(s, "-9223372036854775808");
    /* a non-negative sint is a uint, as the reader makes it */
    jet_mut_val *s5 = jet_mut_sint(doc, 5);
    CHECK(jet_mut_get_kind(s5) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_UINT) && jet_mut_get_uint(s5) == 5);
    CHECK(jet_mut_equal(s5, jet_mut_uint(doc, 5)));
    jet_mut_val *d = jet_mut_f64(doc, 1.5);
    CHECK(jet_mut_get_f64(d) == 1.5 && jet_mut_get_num(d) == 1.5 && jet_mut_get_num(s) == (double)INT64_MIN);
    CHECK(jet_mut_get_num(u) == (double)UINT64_MAX && jet_mut_get_f64(u) == 0.0 && jet_mut_get_uint(d) == 0);
    CHECK_TEXT(d, "1.5");
    CHECK_TEXT(jet_mut_f64(doc, -0.0), "-0.0");
    jet_error e;
    CHECK(!jet_mut_val_write(jet_mut_f64(doc, NAN), 0, NULL, NULL, &e) && e.code == JET_ERR_NAN_INF);
    CHECK(strcmp(wr(jet_mut_f64(doc, INFINITY), JET_WRITE_ALLOW_NAN_INF), "Infinity") == 0);
    jet_mut_val *raw = jet_mut_raw(doc, "123456789012345678901234567890", 30);
    CHECK(jet_mut_get_type(raw) == JET_TYPE_RAW && jet_mut_get_len(raw) == 30);
    CHECK_TEXT(raw, "123456789012345678901234567890");
    /* strings: copied (NUL-terminated) or borrowed */
    char buf[8] = "a\"b\n";
    jet_mut_val *c = jet_mut_str(doc, buf), *r = jet_mut_strn_ref(doc, buf, 4);
    CHECK(jet_mut_get_len(c) == 4 && jet_mut_get_str(c) != buf && jet_mut_get_str(c)[4] == '\0');
    CHECK(jet_mut_get_str(r) == buf && jet_mut_equals_strn(r, "a\"b\n", 4));
    CHECK_TEXT(c, "\"a\\\"b\\n\"");
    buf[0] = 'z'; /* the borrowed string sees the change, the copy does not */
    CHECK_TEXT(r, "\"z\\\"b\\n\"");
    CHECK_TEXT(c, "\"a\\\"b\\n\"");
    CHECK(jet_mut_get_str(jet_mut_str_ref(doc, "x"))[0] == 'x');
    jet_mut_val *z = jet_mut_strn(doc, "a\0b", 3);
    CHECK(jet_mut_get_len(z) == 3);
    CHECK_TEXT(z, "\"a\\u0000b\"");
    CHECK(jet_mut_get_str(jet_mut_strn(doc, NULL, 0)) != NULL);
    CHECK(!jet_mut_strn(doc, NULL, 1) && !jet_mut_str(doc, NULL) && !jet_mut_null(NULL));
    /* NULL values read as nothing */
    CHECK(jet_mut_get_type(NULL) == JET_TYPE_NONE && jet_mut_get_len(NULL) == 0 && !jet_mut_get_str(NULL));
    CHECK(!jet_mut_equals_strn(n, "", 0) && jet_mut_equals_strn(jet_mut_strn(doc, "", 0), "", 0));
    jet_mut_doc_free(doc);
    jet_mut_doc_free(NULL);
}

static void test_arrays(void) {
    jet_mut_doc *doc = jet_mut_doc_new(NULL);
    jet_mut_val *a = jet_mut_arr(doc);
    jet_mut_doc_set_root(doc, a);
    CHECK(jet_mut_doc_root(doc) == a && jet_mut_arr_size(a) == 0 && !jet_mut_arr_at(a, 0));
    CHECK_TEXT(a, "[]");
    CHECK(!jet_mut_arr_remove(a, 0) && !jet_mut_arr_set(a, 0, jet_mut_null(doc)));
    CHECK(jet_mut_arr_append(a, jet_mut_uint(doc, 2)));
    CHECK(jet_mut_arr_append(a, jet_mut_uint(doc, 4)));
    CHECK(jet_mut_arr_prepend(a, jet_mut_uint(doc, 1)));
    CHECK(jet_mut_arr_insert(a, jet_mut_uint(doc, 3), 2));
    CHECK(jet_mut_arr_insert(a, jet_mut_uint(doc, 5), 4));
    CHECK(jet_mut_arr_insert(a, jet_mut_uint(doc, 0), 0));
    CHECK(!jet_mut_arr_insert(a, jet_mut_uint(doc, 9), 7));
    CHECK(!jet_mut_arr_append(a, NULL) && !jet_mut_arr_append(jet_mut_obj(doc), jet_mut_null(doc)));
    CHECK_TEXT(a, "[0,1,2,3,4,5]");
    CHECK(jet_mut_arr_size(a) == 6 && jet_mut_get_len(a) == 6);
    for (size_t i = 0; i < 6; i++) CHECK(jet_mut_get_uint(jet_mut_arr_at(a, i)) == i);
    CHECK(!jet_mut_arr_at(a, 6) && !jet_mut_arr_at(NULL, 0));
    jet_mut_val *old = jet_mut_arr_set(a, 5, jet_mut_str(doc, "five"));
    CHECK(jet_mut_get_uint(old) == 5);
    old = jet_mut_arr_set(a, 0, jet_mut_str(doc, "zero"));
    CHECK(jet_mut_get_uint(old) == 0);
    CHECK_TEXT(a, "[\"zero\",1,2,3,4,\"five\"]");
    CHECK(jet_mut_get_uint(jet_mut_arr_remove(a, 2)) == 2);
    CHECK(jet_mut_equals_strn(jet_mut_arr_remove(a, 4), "five", 4));
    CHECK(jet_mut_equals_strn(jet_mut_arr_remove(a, 0), "zero", 4));
    CHECK_TEXT(a, "[1,3,4]");
    /* setting the element that is there already changes nothing */
    jet_mut_val *one = jet_mut_arr_at(a, 0);
    CHECK(jet_mut_arr_set(a, 0, one) == one);
    CHECK_TEXT(a, "[1,3,4]");
    /* a removed value can be linked again */
    CHECK(jet_mut_arr_append(a, old));
    CHECK_TEXT(a, "[1,3,4,0]");
    jet_mut_arr_iter it = jet_mut_arr_iter_init(a);
    uint64_t want[] = {1, 3, 4, 0}, k = 0;
    for (jet_mut_val *v; (v = jet_mut_arr_iter_next(&it)); k++) CHECK(jet_mut_get_uint(v) == want[k]);
    CHECK(k == 4 && !jet_mut_arr_iter_next(&it));
    it = jet_mut_arr_iter_init(jet_mut_null(doc));
    CHECK(!jet_mut_arr_iter_next(&it));
    while (jet_mut_arr_size(a)) jet_mut_arr_remove(a, jet_mut_arr_size(a) - 1);
    CHECK_TEXT(a, "[]");
    /* one element: set and remove */
    jet_mut_arr_append(a, jet_mut_null(doc));
    jet_mut_arr_set(a, 0, jet_mut_bool(doc, true));
    CHECK_TEXT(a, "[true]");
    jet_mut_arr_remove(a, 0);
    jet_mut_arr_prepend(a, jet_mut_uint(doc, 7));
    CHECK_TEXT(a, "[7]");
    /* nested, pretty output as the immutable writer */
    jet_mut_val *inner = jet_mut_arr(doc);
    jet_mut_arr_append(inner, jet_mut_obj(doc));
    jet_mut_arr_append(a, inner);
    CHECK(strcmp(wr(a, JET_WRITE_PRETTY_2), "[\n  7,\n  [\n    {}\n  ]\n]") == 0);
    jet_mut_doc_free(doc);
}

static void test_objects(void) {
    jet_mut_doc *doc = jet_mut_doc_new(NULL);
    jet_mut_val *o = jet_mut_obj(doc);
    CHECK(jet_mut_obj_size(o) == 0 && !jet_mut_obj_find(o, "a") && !jet_mut_obj_remove(o, "a"));
    CHECK_TEXT(o, "{}");
    CHECK(jet_mut_obj_add(o, jet_mut_str(doc, "a"), jet_mut_uint(doc, 1)));
    CHECK(jet_mut_obj_addn(doc, o, "b", 1, jet_mut_uint(doc, 2)));
    CHECK(jet_mut_obj_add(o, jet_mut_str(doc, "c"), jet_mut_uint(doc, 3)));
    CHECK(!jet_mut_obj_add(o, jet_mut_uint(doc, 1), jet_mut_uint(doc, 3)));
    CHECK(!jet_mut_obj_add(jet_mut_arr(doc), jet_mut_str(doc, "x"), jet_mut_uint(doc, 3)));
    CHECK(!jet_mut_obj_add(o, jet_mut_str(doc, "x"), NULL));
    CHECK_TEXT(o, "{\"a\":1,\"b\":2,\"c\":3}");
    CHECK(jet_mut_obj_size(o) == 3 && jet_mut_get_uint(jet_mut_obj_find(o, "b")) == 2);
    CHECK(!jet_mut_obj_find(o, "d") && !jet_mut_obj_findn(o, "ab", 1 + 1) && jet_mut_obj_findn(o, "ab", 1));
    /* duplicates: add keeps both, find/set/remove act on the first */
    CHECK(jet_mut_obj_add(o, jet_mut_str(doc, "a"), jet_mut_uint(doc, 4)));
    CHECK_TEXT(o, "{\"a\":1,\"b\":2,\"c\":3,\"a\":4}");
    CHECK(jet_mut_get_uint(jet_mut_obj_find(o, "a")) == 1);
    CHECK(jet_mut_obj_set(o, jet_mut_str(doc, "a"), jet_mut_uint(doc, 10)));
    CHECK_TEXT(o, "{\"a\":10,\"b\":2,\"c\":3,\"a\":4}");
    CHECK(jet_mut_obj_set(o, jet_mut_str(doc, "b"), jet_mut_obj_find(o, "b"))); /* the same value */
    CHECK_TEXT(o, "{\"a\":10,\"b\":2,\"c\":3,\"a\":4}");
    CHECK(jet_mut_obj_setn(doc, o, "c", 1, jet_mut_str(doc, "three")));
    CHECK(jet_mut_obj_setn(doc, o, "d", 1, jet_mut_null(doc)));
    CHECK(jet_mut_obj_set(o, jet_mut_str(doc, "e"), jet_mut_bool(doc, false)));
    CHECK_TEXT(o, "{\"a\":10,\"b\":2,\"c\":\"three\",\"a\":4,\"d\":null,\"e\":false}");
    CHECK(jet_mut_get_uint(jet_mut_obj_remove(o, "a")) == 10);
    CHECK_TEXT(o, "{\"b\":2,\"c\":\"three\",\"a\":4,\"d\":null,\"e\":false}");
    CHECK(jet_mut_get_type(jet_mut_obj_remove(o, "e")) == JET_TYPE_BOOL); /* the last member */
    CHECK(jet_mut_get_uint(jet_mut_obj_remove(o, "b")) == 2);           /* the first */
    CHECK_TEXT(o, "{\"c\":\"three\",\"a\":4,\"d\":null}");
    CHECK(jet_mut_obj_add(o, jet_mut_str(doc, "f"), jet_mut_uint(doc, 6))); /* after removing the last */
    CHECK(jet_mut_obj_renamen(doc, o, "a", 1, "a~/b", 4));
    CHECK(!jet_mut_obj_renamen(doc, o, "zz", 2, "y", 1));
    CHECK_TEXT(o, "{\"c\":\"three\",\"a~/b\":4,\"d\":null,\"f\":6}");
    const char *keys[] = {"c", "a~/b", "d", "f"};
    jet_mut_obj_iter it = jet_mut_obj_iter_init(o);
    size_t k = 0;
    for (jet_mut_val *key; (key = jet_mut_obj_iter_next(&it)); k++) {
        CHECK(jet_mut_equals_strn(key, keys[k], strlen(keys[k])));
        CHECK(jet_mut_obj_iter_value(key) == jet_mut_obj_findn(o, keys[k], strlen(keys[k])));
    }
    CHECK(k == 4 && !jet_mut_obj_iter_next(&it) && !jet_mut_obj_iter_value(NULL));
    while (jet_mut_obj_size(o)) {
        jet_mut_obj_iter first = jet_mut_obj_iter_init(o);
        jet_mut_val *key = jet_mut_obj_iter_next(&first);
        CHECK(jet_mut_obj_removen(o, jet_mut_get_str(key), jet_mut_get_len(key)));
    }
    CHECK_TEXT(o, "{}");
    CHECK(jet_mut_obj_addn(doc, o, "only", 4, jet_mut_null(doc)));
    CHECK(jet_mut_obj_setn(doc, o, "only", 4, jet_mut_uint(doc, 1)));
    CHECK_TEXT(o, "{\"only\":1}");
    CHECK(strcmp(wr(o, JET_WRITE_PRETTY), "{\n    \"only\": 1\n}") == 0);
    jet_mut_doc_free(doc);
}

/* Every corpus-like sample converts to mutable and back, equal in every
 * way, and both writers give the same bytes under several flags. */
static void test_roundtrip(void) {
    static const char *const samples[] = {
        "null", "true", "0", "-1", "1.5e300", "\"x\\u00e9\\ud83d\\ude00/\"", "[]", "{}",
        "[1,[2,[3,{\"a\":[{}]}]],\"s\",-0.0,18446744073709551615,-9223372036854775808]",
        "{\"a\":{\"b\":{\"c\":[true,false,null]}},\"\":\"\",\"dup\":1,\"dup\":2}",
        "{\"k\\n\\\"\":\"v\\t\\u0001\",\"url\":\"http://x/y\"}",
    };
    const jet_write_flags flags[] = {0, JET_WRITE_PRETTY, JET_WRITE_INDENT(1) | JET_WRITE_ASCII,
                                     JET_WRITE_ESCAPE_SLASHES | JET_WRITE_NEWLINE_AT_END};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        jet_doc *d = rd(samples[i]);
        if (!d) {
            CHECK(0);
            continue;
        }
        jet_mut_doc *m = jet_doc_to_mut(d, NULL);
        CHECK(m != NULL);
        jet_mut_val *root = jet_mut_doc_root(m);
        CHECK_MSG(jet_mut_val_equal_val(root, jet_doc_root(d)), "sample %zu", i);
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
            size_t n1, n2;
            char *a = jet_val_write(jet_doc_root(d), flags[f], NULL, &n1, NULL);
            char *b = jet_mut_doc_write(m, flags[f], NULL, &n2, NULL);
            CHECK_MSG(a && b && n1 == n2 && memcmp(a, b, n1) == 0, "sample %zu flags %u", i, (unsigned)flags[f]);
            free(a);
            free(b);
        }
        jet_error e;
        jet_doc *back = jet_mut_to_doc(root, NULL, &e);
        CHECK(back && jet_val_equal(jet_doc_root(back), jet_doc_root(d)));
        CHECK(back && jet_doc_val_count(back) == jet_doc_val_count(d));
        if (back && jet_is_str(jet_doc_root(back)))
            CHECK(jet_get_str(jet_doc_root(back))[jet_get_len(jet_doc_root(back))] == '\0');
        jet_mut_doc *c = jet_mut_doc_copy(m, NULL);
        CHECK(c && jet_mut_equal(jet_mut_doc_root(c), root) && jet_mut_equal_json(jet_mut_doc_root(c), root));
        CHECK(c && jet_mut_doc_root(c) != root);
        jet_mut_val *vc = jet_mut_val_copy(m, root);
        CHECK(jet_mut_equal(vc, root));
        jet_doc_free(back);
        jet_mut_doc_free(c);
        jet_mut_doc_free(m);
        jet_doc_free(d);
    }
    /* jet_val_to_mut of an inner value; the source may be freed after */
    jet_doc *d = rd("{\"x\":[1,{\"y\":\"z\"}]}");
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_mut_val *x = jet_val_to_mut(m, jet_obj_find(jet_doc_root(d), "x"));
    jet_doc_free(d);
    CHECK_TEXT(x, "[1,{\"y\":\"z\"}]");
    CHECK(!jet_val_to_mut(m, NULL) && !jet_val_to_mut(NULL, NULL) && !jet_doc_to_mut(NULL, NULL));
    CHECK(!jet_mut_to_doc(NULL, NULL, NULL) && !jet_mut_doc_write(m, 0, NULL, NULL, NULL));
    CHECK(!jet_mut_doc_copy(NULL, NULL));
    /* an empty document copies to an empty document */
    jet_mut_doc *c = jet_mut_doc_copy(m, NULL);
    CHECK(c && !jet_mut_doc_root(c));
    jet_mut_doc_free(c);
    jet_mut_doc_free(m);
}

static void test_equality(void) {
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_doc *d1 = rd("{\"a\":1,\"b\":[1.0,2]}"), *d2 = rd("{\"b\":[1,2.0],\"a\":1e0}");
    jet_doc *d3 = rd("{\"a\":1,\"b\":[1.0,2,3]}"), *d4 = rd("{\"a\":1,\"a\":1}"), *d5 = rd("{\"a\":1,\"b\":1}");
    jet_mut_val *a = jet_val_to_mut(m, jet_doc_root(d1)), *b = jet_val_to_mut(m, jet_doc_root(d2));
    jet_mut_val *c = jet_val_to_mut(m, jet_doc_root(d3));
    CHECK(!jet_mut_equal(a, b) && jet_mut_equal_json(a, b) && jet_mut_equal_json(b, a));
    CHECK(!jet_mut_equal_json(a, c) && !jet_mut_equal_json(c, a));
    CHECK(jet_mut_equal(a, a) && jet_mut_equal(NULL, NULL) && !jet_mut_equal(a, NULL));
    CHECK(jet_mut_val_equal_val(a, jet_doc_root(d1)) && !jet_mut_val_equal_val(a, jet_doc_root(d2)));
    CHECK(!jet_mut_val_equal_val(a, jet_doc_root(d3)) && !jet_mut_val_equal_val(NULL, jet_doc_root(d1)));
    CHECK(jet_mut_val_equal_val(NULL, NULL));
    jet_mut_val *dup = jet_val_to_mut(m, jet_doc_root(d4)), *ab = jet_val_to_mut(m, jet_doc_root(d5));
    CHECK(!jet_mut_equal_json(dup, ab) && !jet_mut_equal_json(ab, dup));
    /* numbers by value across kinds */
    CHECK(jet_mut_equal_json(jet_mut_sint(m, -3), jet_mut_f64(m, -3.0)));
    CHECK(jet_mut_equal_json(jet_mut_f64(m, 5.0), jet_mut_uint(m, 5)));
    CHECK(!jet_mut_equal_json(jet_mut_f64(m, 5.5), jet_mut_uint(m, 5)));
    CHECK(!jet_mut_equal_json(jet_mut_f64(m, 1e300), jet_mut_uint(m, 5)));
    CHECK(!jet_mut_equal_json(jet_mut_f64(m, NAN), jet_mut_uint(m, 0)));
    CHECK(!jet_mut_equal_json(jet_mut_sint(m, -1), jet_mut_uint(m, UINT64_MAX)));
    CHECK(!jet_mut_equal_json(jet_mut_str(m, "1"), jet_mut_uint(m, 1)));
    CHECK(jet_mut_equal_json(jet_mut_raw(m, "1e999", 5), jet_mut_raw(m, "1e999", 5)));
    /* ordered equality distinguishes the kinds */
    CHECK(!jet_mut_equal(jet_mut_f64(m, 1.0), jet_mut_uint(m, 1)));
    CHECK(!jet_mut_equal(jet_mut_f64(m, 0.0), jet_mut_f64(m, -0.0)));
    CHECK(jet_mut_equal(jet_mut_str(m, "ab"), jet_mut_str_ref(m, "ab")));
    jet_doc_free(d1);
    jet_doc_free(d2);
    jet_doc_free(d3);
    jet_doc_free(d4);
    jet_doc_free(d5);
    jet_mut_doc_free(m);
}

/* A cycle or too deep a tree: the walks stop instead of overflowing. */
static void test_depth(void) {
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_mut_val *a = jet_mut_arr(m), *cur = a;
    for (unsigned i = 0; i < JET_MUT_MAX_DEPTH + 5; i++) {
        jet_mut_val *n = jet_mut_arr(m);
        jet_mut_arr_append(cur, n);
        cur = n;
    }
    jet_error e;
    CHECK(!jet_mut_val_write(a, 0, NULL, NULL, &e) && e.code == JET_ERR_DEPTH_LIMIT);
    CHECK(!jet_mut_to_doc(a, NULL, &e) && e.code == JET_ERR_DEPTH_LIMIT);
    CHECK(!jet_mut_val_copy(m, a) && !jet_mut_equal(a, a) && !jet_mut_equal_json(a, a));
    jet_mut_val *self = jet_mut_arr(m);
    jet_mut_arr_append(self, self);
    CHECK(!jet_mut_val_write(self, 0, NULL, NULL, &e) && e.code == JET_ERR_DEPTH_LIMIT);
    jet_mut_doc_free(m);
}

/* Allocator accounting: everything goes through the hook, all of it back. */
typedef struct counting {
    long live;
    long calls;
    long fail_at; /* fail the nth allocation (0: never) */
} counting;
static void *c_malloc(void *ctx, size_t n) {
    counting *c = (counting *)ctx;
    if (c->fail_at && ++c->calls == c->fail_at) return NULL;
    c->live++;
    return malloc(n);
}
static void *c_realloc(void *ctx, void *p, size_t o, size_t n) {
    (void)ctx;
    (void)o;
    return realloc(p, n);
}
static void c_free(void *ctx, void *p) {
    if (p) ((counting *)ctx)->live--;
    free(p);
}

static void test_alloc(void) {
    counting cnt = {0, 0, 0};
    jet_alloc al = {c_malloc, c_realloc, c_free, &cnt};
    jet_mut_doc *m = jet_mut_doc_new(&al);
    jet_mut_val *a = jet_mut_arr(m);
    jet_mut_doc_set_root(m, a);
    for (int i = 0; i < 2000; i++) jet_mut_arr_append(a, jet_mut_str(m, "a string of some length"));
    CHECK(cnt.live > 2); /* the document and several arena chunks */
    size_t n;
    char *s = jet_mut_doc_write(m, 0, &al, &n, NULL);
    CHECK(s && n == 2 + 2000 * 26 - 1);
    al.free(al.ctx, s);
    jet_doc *d = jet_mut_to_doc(a, &al, NULL);
    CHECK(d && jet_arr_size(jet_doc_root(d)) == 2000);
    jet_doc_free(d);
    jet_mut_doc_free(m);
    CHECK_MSG(cnt.live == 0, "%ld allocations not freed", cnt.live);
    /* out of memory at each step of a small build: NULL, nothing leaks */
    for (long k = 1; k < 6; k++) {
        counting f = {0, 0, k};
        jet_alloc fa = {c_malloc, c_realloc, c_free, &f};
        jet_mut_doc *fm = jet_mut_doc_new(&fa);
        if (fm) {
            jet_mut_val *o = jet_mut_obj(fm);
            if (o) jet_mut_obj_addn(fm, o, "k", 1, jet_mut_uint(fm, 1));
            jet_mut_doc_set_root(fm, o);
            jet_error e;
            char *t = o ? jet_mut_doc_write(fm, 0, &fa, NULL, &e) : NULL;
            if (t) fa.free(fa.ctx, t);
            else if (o) CHECK(e.code == JET_ERR_MEMORY);
        }
        jet_mut_doc_free(fm);
        CHECK(f.live == 0);
    }
}

static void test_pointer(void) {
    jet_doc *d = rd("{\"foo\":[\"bar\",\"baz\"],\"\":0,\"a/b\":1,\"c%d\":2,\"e^f\":3,\"g|h\":4,"
                    "\"i\\\\j\":5,\"k\\\"l\":6,\" \":7,\"m~n\":8}");
    jet_mut_doc *m = jet_doc_to_mut(d, NULL);
    jet_mut_val *root = jet_mut_doc_root(m);
    jet_error e;
    /* RFC 6901 section 5 */
    CHECK(jet_mut_ptr_find(root, "", &e) == root);
    CHECK_TEXT(jet_mut_ptr_find(root, "/foo", &e), "[\"bar\",\"baz\"]");
    CHECK_TEXT(jet_mut_ptr_find(root, "/foo/0", &e), "\"bar\"");
    CHECK_TEXT(jet_mut_ptr_find(root, "/", &e), "0");
    CHECK_TEXT(jet_mut_ptr_find(root, "/a~1b", &e), "1");
    CHECK_TEXT(jet_mut_ptr_find(root, "/c%d", &e), "2");
    CHECK_TEXT(jet_mut_ptr_find(root, "/e^f", &e), "3");
    CHECK_TEXT(jet_mut_ptr_find(root, "/g|h", &e), "4");
    CHECK_TEXT(jet_mut_ptr_find(root, "/i\\j", &e), "5");
    CHECK_TEXT(jet_mut_ptr_find(root, "/k\"l", &e), "6");
    CHECK_TEXT(jet_mut_ptr_find(root, "/ ", &e), "7");
    CHECK_TEXT(jet_mut_ptr_find(root, "/m~0n", &e), "8");
    /* the same answers as the immutable pointer, error for error */
    static const char *const ptrs[] = {"/foo/2", "/foo/-", "/foo/01", "/foo/x", "/x/y", "/foo/0/z",
                                       "x", "/~2", "/a~", "/foo/1", "/foo/18446744073709551616"};
    for (size_t i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++) {
        jet_error e1, e2;
        jet_val *v = jet_ptr_find(jet_doc_root(d), ptrs[i], &e1);
        jet_mut_val *mv = jet_mut_ptr_find(root, ptrs[i], &e2);
        CHECK_MSG(!v == !mv, "%s", ptrs[i]);
        if (v) CHECK(jet_mut_val_equal_val(mv, v));
        else CHECK_MSG(e1.code == e2.code && e1.offset == e2.offset && strcmp(e1.msg, e2.msg) == 0, "%s", ptrs[i]);
    }
    CHECK(!jet_mut_ptr_find(NULL, "", &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_mut_ptr_find(root, NULL, &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_mut_ptr_findn(root, NULL, 1, &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(jet_mut_ptr_findn(root, NULL, 0, &e) == root);
    /* add */
    CHECK(jet_mut_ptr_add(m, "/foo/-", jet_mut_str(m, "end"), &e));
    CHECK(jet_mut_ptr_add(m, "/foo/0", jet_mut_str(m, "start"), &e));
    CHECK(jet_mut_ptr_add(m, "/foo/4", jet_mut_str(m, "end2"), &e));
    CHECK_TEXT(jet_mut_ptr_find(root, "/foo", &e), "[\"start\",\"bar\",\"baz\",\"end\",\"end2\"]");
    CHECK(!jet_mut_ptr_add(m, "/foo/6", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND && e.offset == 4);
    CHECK(!jet_mut_ptr_add(m, "/foo/x", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_add(m, "/nope/x", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND && e.offset == 0);
    CHECK(!jet_mut_ptr_add(m, "/ /x", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND && e.offset == 2);
    CHECK(!jet_mut_ptr_add(m, "nope", jet_mut_null(m), &e) && e.code == JET_ERR_POINTER);
    CHECK(!jet_mut_ptr_add(m, "/x", NULL, &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_mut_ptr_add(NULL, "/x", jet_mut_null(m), &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(jet_mut_ptr_add(m, "/new~1key~0", jet_mut_uint(m, 9), &e));
    CHECK(jet_mut_get_uint(jet_mut_obj_find(root, "new/key~")) == 9);
    CHECK(jet_mut_ptr_add(m, "/a~1b", jet_mut_uint(m, 10), &e)); /* replaces */
    CHECK(jet_mut_get_uint(jet_mut_obj_find(root, "a/b")) == 10 && jet_mut_obj_size(root) == 11);
    /* replace */
    jet_mut_val *old = jet_mut_ptr_replace(m, "/foo/1", jet_mut_str(m, "BAR"), &e);
    CHECK(jet_mut_equals_strn(old, "bar", 3));
    CHECK(jet_mut_get_uint(jet_mut_ptr_replace(m, "/", jet_mut_uint(m, 100), &e)) == 0);
    CHECK(!jet_mut_ptr_replace(m, "/foo/5", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_replace(m, "/foo/-", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_replace(m, "/zz", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_replace(m, "/ /0", jet_mut_null(m), &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_replace(m, "/zz", NULL, &e) && !jet_mut_ptr_replace(m, NULL, jet_mut_null(m), &e));
    /* remove */
    CHECK(jet_mut_equals_strn(jet_mut_ptr_remove(m, "/foo/0", &e), "start", 5));
    CHECK(jet_mut_get_uint(jet_mut_ptr_remove(m, "/m~0n", &e)) == 8);
    CHECK(!jet_mut_ptr_remove(m, "/m~0n", &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_remove(m, "/foo/-", &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_remove(m, "/foo/9", &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_remove(m, NULL, &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK_TEXT(root, "{\"foo\":[\"BAR\",\"baz\",\"end\",\"end2\"],\"\":100,\"a/b\":10,\"c%d\":2,\"e^f\":3,"
                     "\"g|h\":4,\"i\\\\j\":5,\"k\\\"l\":6,\" \":7,\"new/key~\":9}");
    /* the n forms read exactly len bytes of the pointer */
    CHECK(jet_mut_ptr_addn(m, "/foo/0/more", 6, jet_mut_uint(m, 1), &e));
    CHECK(jet_mut_get_uint(jet_mut_ptr_replacen(m, "/foo/0!", 6, jet_mut_uint(m, 2), &e)) == 1);
    CHECK(jet_mut_get_uint(jet_mut_ptr_removen(m, "/foo/0/x", 6, &e)) == 2);
    CHECK(!jet_mut_ptr_removen(m, "/foo/9", 6, &e) && e.code == JET_ERR_NOT_FOUND && e.offset == 4);
    CHECK(!jet_mut_ptr_addn(m, NULL, 1, jet_mut_null(m), &e) && e.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_mut_ptr_replacen(m, "/~", 2, jet_mut_null(m), &e) && e.code == JET_ERR_POINTER && e.offset == 1);
    CHECK_TEXT(jet_mut_ptr_find(root, "/foo", &e), "[\"BAR\",\"baz\",\"end\",\"end2\"]");
    /* the root */
    jet_mut_val *r2 = jet_mut_arr(m);
    CHECK(jet_mut_ptr_replace(m, "", r2, &e) == root && jet_mut_doc_root(m) == r2);
    CHECK(jet_mut_ptr_add(m, "", root, &e) && jet_mut_doc_root(m) == root);
    CHECK(jet_mut_ptr_remove(m, "", &e) == root && !jet_mut_doc_root(m));
    CHECK(!jet_mut_ptr_remove(m, "", &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_replace(m, "", root, &e) && e.code == JET_ERR_NOT_FOUND);
    CHECK(!jet_mut_ptr_add(m, "/x", root, &e) && e.code == JET_ERR_INVALID_ARG);
    jet_mut_doc_free(m);
    jet_doc_free(d);
}

int main(void) {
    test_scalars();
    test_arrays();
    test_objects();
    test_roundtrip();
    test_equality();
    test_depth();
    test_alloc();
    test_pointer();
    return CHECK_DONE("test_mut");
}
