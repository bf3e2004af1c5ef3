/* test_pointer.c — JSON Pointer (RFC 6901): the examples of section 5,
 * array index rules, escapes, malformed pointers and error details. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

static const char rfc_doc[] =
    "{\n"
    "  \"foo\": [\"bar\", \"baz\"],\n"
    "  \"\": 0,\n"
    "  \"a/b\": 1,\n"
    "  \"c%d\": 2,\n"
    "  \"e^f\": 3,\n"
    "  \"g|h\": 4,\n"
    "  \"i\\\\j\": 5,\n"
    "  \"k\\\"l\": 6,\n"
    "  \" \": 7,\n"
    "  \"m~n\": 8\n"
    "}";

static jet_doc *parse(const char *s) {
    jet_error err;
    jet_doc *d = jet_read(s, strlen(s), NULL, NULL, &err);
    CHECK_MSG(d != NULL, "parse failed: %s", d ? "" : err.msg);
    return d;
}

/* Minified text of what `ptr` selects, or NULL (the caller frees). */
static char *at(const jet_val *root, const char *ptr, size_t len, jet_error *err) {
    jet_val *v = jet_ptr_getn(root, ptr, len, err);
    if (!v) return NULL;
    return jet_val_write(v, 0, NULL, NULL, NULL);
}

static void expect(const jet_val *root, const char *ptr, const char *want, int line) {
    jet_error err;
    memset(&err, 0, sizeof err);
    char *got = at(root, ptr, strlen(ptr), &err);
    CHECK_MSG(got && strcmp(got, want) == 0, "line %d: pointer [%s]: got [%s] want [%s] (%s)",
              line, ptr, got ? got : "(null)", want, got ? "" : (err.msg ? err.msg : "?"));
    free(got);
}
#define EXPECT(root, ptr, want) expect((root), (ptr), (want), __LINE__)

static void expect_err(const jet_val *root, const char *ptr, size_t len, jet_code code,
                       size_t offset, int line) {
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_val *v = jet_ptr_getn(root, ptr, len, &err);
    CHECK_MSG(v == NULL && err.code == code && err.offset == offset && err.msg != NULL,
              "line %d: pointer [%.*s]: got %s (%s) at %zu, want %s at %zu", line, (int)len,
              ptr, v ? "a value" : "NULL", jet_code_name(err.code), err.offset,
              jet_code_name(code), offset);
}
#define EXPECT_ERR(root, ptr, code, offset) \
    expect_err((root), (ptr), strlen(ptr), (code), (offset), __LINE__)

static void test_rfc(void) {
    jet_doc *d = parse(rfc_doc);
    if (!d) return;
    jet_val *r = jet_doc_root(d);
    /* Section 5, JSON string representation */
    CHECK(jet_ptr_get(r, "", NULL) == r);
    EXPECT(r, "/foo", "[\"bar\",\"baz\"]");
    EXPECT(r, "/foo/0", "\"bar\"");
    EXPECT(r, "/", "0");
    EXPECT(r, "/a~1b", "1");
    EXPECT(r, "/c%d", "2");
    EXPECT(r, "/e^f", "3");
    EXPECT(r, "/g|h", "4");
    EXPECT(r, "/i\\j", "5");
    EXPECT(r, "/k\"l", "6");
    EXPECT(r, "/ ", "7");
    EXPECT(r, "/m~0n", "8");
    EXPECT(r, "/foo/1", "\"baz\"");
    /* ~01 is "~1" (unescape ~0 first, not "/" ) */
    EXPECT_ERR(r, "/a~01b", JET_ERR_NOT_FOUND, 0);
    /* absent things */
    EXPECT_ERR(r, "/foo/2", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/-", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/01", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/00", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/+1", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/1a", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/ 1", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/99999999999999999999999999", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/foo/0/x", JET_ERR_NOT_FOUND, 6);
    EXPECT_ERR(r, "/nope", JET_ERR_NOT_FOUND, 0);
    EXPECT_ERR(r, "//", JET_ERR_NOT_FOUND, 1);
    EXPECT_ERR(r, "/a/b", JET_ERR_NOT_FOUND, 0);
    EXPECT_ERR(r, "/m~n", JET_ERR_POINTER, 2);
    EXPECT_ERR(r, "/m~0n/x", JET_ERR_NOT_FOUND, 5);
    /* malformed pointers: always JET_ERR_POINTER, even after a miss */
    EXPECT_ERR(r, "foo", JET_ERR_POINTER, 0);
    EXPECT_ERR(r, "#/foo", JET_ERR_POINTER, 0);
    EXPECT_ERR(r, "/~", JET_ERR_POINTER, 1);
    EXPECT_ERR(r, "/~2", JET_ERR_POINTER, 1);
    EXPECT_ERR(r, "/nope/~x", JET_ERR_POINTER, 6);
    EXPECT_ERR(r, "/foo/0~", JET_ERR_POINTER, 6);
    /* length-delimited: bytes past len are ignored, embedded NUL is a byte */
    jet_error err;
    CHECK(jet_ptr_getn(r, "/foo/1xyz", 6, &err) == jet_arr_get(jet_obj_get(r, "foo"), 1));
    CHECK(jet_ptr_getn(r, "/foo", 0, &err) == r);
    jet_doc_free(d);
}

static void test_nested(void) {
    jet_doc *d = parse("{\"a\":[{\"b\":[10,[20,21],{\"c\":\"d\"}]},[],{}],"
                       "\"\\u0000k\":1,\"dup\":1,\"dup\":2,\"x/y~z\":{\"\":true}}");
    if (!d) return;
    jet_val *r = jet_doc_root(d);
    EXPECT(r, "/a/0/b/0", "10");
    EXPECT(r, "/a/0/b/1/1", "21");
    EXPECT(r, "/a/0/b/2/c", "\"d\"");
    EXPECT(r, "/a/1", "[]");
    EXPECT(r, "/a/2", "{}");
    EXPECT_ERR(r, "/a/1/0", JET_ERR_NOT_FOUND, 4);
    EXPECT_ERR(r, "/a/3", JET_ERR_NOT_FOUND, 2);
    EXPECT(r, "/dup", "1"); /* first member wins, like jet_obj_get */
    EXPECT(r, "/x~1y~0z/", "true");
    jet_error err;
    char *got = at(r, "/\0k", 3, &err);
    CHECK(got && strcmp(got, "1") == 0);
    free(got);
    EXPECT_ERR(r, "/a/0/b/0/0", JET_ERR_NOT_FOUND, 8);
    jet_doc_free(d);

    /* a scalar root */
    d = parse("42");
    if (!d) return;
    r = jet_doc_root(d);
    EXPECT(r, "", "42");
    EXPECT_ERR(r, "/0", JET_ERR_NOT_FOUND, 0);
    jet_doc_free(d);

    /* arrays whose elements are all scalars (direct index) and mixed */
    d = parse("[[0,1,2,3,4,5,6,7,8,9,10,11],[[0],1,[2],3,{\"k\":4},5,6,7,8,9,10,11]]");
    if (!d) return;
    r = jet_doc_root(d);
    char p[32];
    for (int i = 0; i < 12; i++) {
        char want[8];
        snprintf(want, sizeof want, "%d", i);
        snprintf(p, sizeof p, "/0/%d", i);
        EXPECT(r, p, want);
        snprintf(p, sizeof p, "/1/%d", i);
        if (i % 2 == 0 && i < 3) {
            char w2[16];
            snprintf(w2, sizeof w2, "[%d]", i & 0xFF);
            EXPECT(r, p, w2);
        } else if (i == 4) {
            EXPECT(r, p, "{\"k\":4}");
        } else {
            EXPECT(r, p, want);
        }
    }
    EXPECT_ERR(r, "/1/12", JET_ERR_NOT_FOUND, 2);
    EXPECT_ERR(r, "/0/12", JET_ERR_NOT_FOUND, 2);
    jet_doc_free(d);
}

static void test_args(void) {
    jet_error err;
    jet_doc *d = parse("[1]");
    if (!d) return;
    CHECK(jet_ptr_get(NULL, "", &err) == NULL && err.code == JET_ERR_INVALID_ARG);
    CHECK(jet_ptr_get(jet_doc_root(d), NULL, &err) == NULL && err.code == JET_ERR_INVALID_ARG);
    CHECK(jet_ptr_getn(jet_doc_root(d), NULL, 0, &err) == jet_doc_root(d));
    CHECK(jet_ptr_get(jet_doc_root(d), "/0", NULL) == jet_arr_get(jet_doc_root(d), 0));
    CHECK(jet_ptr_get(jet_doc_root(d), "/1", NULL) == NULL);
    jet_doc_free(d);
}

/* Every member of a corpus is reachable by the pointer built from its path. */
static void test_corpus(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/corpora/twitter.json", check_shared_dir());
    size_t len;
    char *json = check_read_file(path, &len);
    if (!json) {
        fprintf(stderr, "test_pointer: %s missing, skipped\n", path);
        return;
    }
    jet_doc *d = jet_read(json, len, NULL, NULL, NULL);
    CHECK(d != NULL);
    if (d) {
        jet_val *r = jet_doc_root(d);
        jet_val *st = jet_ptr_get(r, "/statuses", NULL);
        CHECK(st == jet_obj_get(r, "statuses"));
        size_t n = jet_arr_size(st), ok = 0;
        for (size_t i = 0; i < n; i++) {
            char p[64];
            snprintf(p, sizeof p, "/statuses/%zu/user/id", i);
            jet_val *v = jet_ptr_get(r, p, NULL);
            ok += v == jet_obj_get(jet_obj_get(jet_arr_get(st, i), "user"), "id") && v;
        }
        CHECK(n > 0 && ok == n);
        jet_doc_free(d);
    }
    free(json);
}

int main(void) {
    test_rfc();
    test_nested();
    test_args();
    test_corpus();
    return CHECK_DONE("test_pointer");
}
