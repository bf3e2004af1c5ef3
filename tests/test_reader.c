/* test_reader.c — the DOM reader: every value type and accessor, numbers at
 * the int64/uint64/double boundaries, strings with escapes and embedded NUL,
 * arrays and objects, a table of malformed inputs (code, offset, line,
 * column and message of each distinct error path), depth and size limits,
 * the lenient flags, truncated prefixes in exactly-sized buffers, input
 * immutability, parser reuse without allocation, allocator balance and
 * allocation failures, and jet_val_equal; all of it once per reader kernel
 * (jet_kernel_set). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h"
#include "jet.h"

/* A string literal as (pointer, length), so that embedded NULs count. */
#define LIT(s) (s), (sizeof(s) - 1)

/* ---- helpers ------------------------------------------------------------ */

/* Reader kernels this CPU has (jet_kernel_set); the parts of the test that
 * exercise the parser's own paths run once per kernel. */
static const char *kernels[8];
static size_t n_kernels;
static const char *cur_kernel = "default";

static void find_kernels(void) {
    static const char *const names[] = {"scalar", "swar", "sse2", "avx2", "neon"};
    const char *initial = jet_kernel_name();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (jet_kernel_set(names[i])) kernels[n_kernels++] = names[i];
    CHECK(n_kernels >= 2 && strcmp(kernels[0], "scalar") == 0);
    CHECK(jet_kernel_set(initial));
    CHECK(!jet_kernel_set("no-such-kernel") && !jet_kernel_set(NULL));
    CHECK(strcmp(jet_kernel_name(), initial) == 0);
}

static void use_kernel(const char *name) {
    CHECK(jet_kernel_set(name));
    CHECK(strcmp(jet_kernel_name(), name) == 0);
    cur_kernel = name;
}

static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static jet_read_opts mkopts(jet_read_flags flags, uint32_t max_depth, size_t max_size) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.max_depth = max_depth;
    o.max_size = max_size;
    return o;
}

/*
 * Reads `len` bytes from an exactly-sized private copy with jet_read and the
 * given options, checks that the copy was not modified, then frees the copy
 * before returning (so the document must not point into the input).
 * Returns the document (caller frees) or NULL with *err filled.
 */
static jet_doc *read_opts(const char *json, size_t len, const jet_read_opts *o, jet_error *err,
                          int line) {
    char *buf = check_dup_exact(json, len);
    memset(err, 0, sizeof *err);
    jet_doc *d = jet_read(buf, len, o, NULL, err);
    CHECK_MSG(len == 0 || memcmp(buf, json, len) == 0, "line %d: input modified", line);
    free(buf);
    return d;
}

static jet_doc *read_flags(const char *json, size_t len, jet_read_flags flags, jet_error *err,
                           int line) {
    jet_read_opts o = mkopts(flags, 0, 0);
    return read_opts(json, len, &o, err, line);
}

/* Parses and requires success. */
static jet_doc *ok_doc(const char *json, size_t len, jet_read_flags flags, int line) {
    jet_error err;
    jet_doc *d = read_flags(json, len, flags, &err, line);
    CHECK_MSG(d != NULL, "line %d: parse of [%.*s] failed: %s at %zu", line, (int)len, json,
              d ? "" : (err.msg ? err.msg : "?"), d ? (size_t)0 : err.offset);
    if (d) CHECK_MSG(jet_doc_root(d) != NULL, "line %d: no root", line);
    return d;
}
#define OK_DOC(s, flags) ok_doc(LIT(s), (flags), __LINE__)

/* Minified text of a value (caller frees), NULL on failure. */
static char *minify(const jet_val *v, jet_write_flags flags, size_t *len) {
    jet_error err;
    char *out = jet_val_write(v, flags, NULL, len, &err);
    CHECK_MSG(out != NULL, "write failed: %s", out ? "" : (err.msg ? err.msg : "?"));
    return out;
}

/* The document of `json` written back minified must equal `want`. */
static void expect_text(const char *json, size_t len, jet_read_flags flags, const char *want,
                        int line) {
    jet_doc *d = ok_doc(json, len, flags, line);
    if (!d) return;
    size_t n = 0;
    jet_write_flags wf = (flags & JET_READ_ALLOW_NAN_INF) ? JET_WRITE_ALLOW_NAN_INF : 0;
    char *out = minify(jet_doc_root(d), wf, &n);
    if (out) {
        CHECK_MSG(n == strlen(want) && memcmp(out, want, n) == 0,
                  "line %d: [%.*s] -> [%s] want [%s]", line, (int)len, json, out, want);
        free(out);
    }
    jet_doc_free(d);
}
#define EXPECT_TEXT(s, flags, want) expect_text(LIT(s), (flags), (want), __LINE__)

/* ---- scalars ------------------------------------------------------------ */

static void test_literals(void) {
    jet_doc *d = OK_DOC("null", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_get_type(r) == JET_TYPE_NULL);
        CHECK(jet_is_null(r) && !jet_is_bool(r) && !jet_is_num(r) && !jet_is_str(r));
        CHECK(!jet_is_container(r) && !jet_is_raw(r));
        CHECK(jet_get_len(r) == 0);
        CHECK(jet_get_str(r) == NULL && jet_get_uint(r) == 0 && jet_get_num(r) == 0.0);
        CHECK(jet_doc_val_count(d) == 1 && jet_doc_read_size(d) == 4);
        jet_doc_free(d);
    }
    d = OK_DOC(" \t\r\ntrue\n ", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_is_bool(r) && jet_is_true(r) && !jet_is_false(r) && jet_get_bool(r));
        CHECK(jet_get_kind(r) == (JET_TYPE_BOOL | JET_SUBTYPE_TRUE));
        CHECK(jet_doc_read_size(d) == 10);
        jet_doc_free(d);
    }
    d = OK_DOC("false", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_is_bool(r) && jet_is_false(r) && !jet_is_true(r) && !jet_get_bool(r));
        CHECK(jet_get_kind(r) == (JET_TYPE_BOOL | JET_SUBTYPE_FALSE));
        jet_doc_free(d);
    }
    /* NULL value pointers are JET_TYPE_NONE everywhere */
    CHECK(jet_get_type(NULL) == JET_TYPE_NONE && jet_get_kind(NULL) == 0);
    CHECK(jet_get_len(NULL) == 0 && !jet_is_null(NULL) && !jet_get_bool(NULL));
    CHECK(jet_get_str(NULL) == NULL && jet_arr_size(NULL) == 0 && jet_obj_size(NULL) == 0);
    CHECK(jet_doc_root(NULL) == NULL && jet_doc_read_size(NULL) == 0 &&
          jet_doc_val_count(NULL) == 0);
    jet_doc_free(NULL);
}

/* Integer expectations: the root of `json` is a UINT/SINT with this value. */
static void expect_uint(const char *json, uint64_t want, int line) {
    jet_doc *d = ok_doc(json, strlen(json), 0, line);
    if (!d) return;
    jet_val *r = jet_doc_root(d);
    CHECK_MSG(jet_is_uint(r) && !jet_is_sint(r) && jet_is_int(r) && !jet_is_real(r),
              "line %d: [%s] kind %u", line, json, (unsigned)jet_get_kind(r));
    CHECK_MSG(jet_get_uint(r) == want, "line %d: [%s] got %llu", line, json,
              (unsigned long long)jet_get_uint(r));
    CHECK_MSG(jet_get_num(r) == (double)want, "line %d: get_num", line);
    jet_doc_free(d);
}
static void expect_sint(const char *json, int64_t want, int line) {
    jet_doc *d = ok_doc(json, strlen(json), 0, line);
    if (!d) return;
    jet_val *r = jet_doc_root(d);
    CHECK_MSG(jet_is_sint(r) && !jet_is_uint(r) && jet_is_int(r) && !jet_is_real(r),
              "line %d: [%s] kind %u", line, json, (unsigned)jet_get_kind(r));
    CHECK_MSG(jet_get_sint(r) == want, "line %d: [%s] got %lld", line, json,
              (long long)jet_get_sint(r));
    CHECK_MSG(jet_get_num(r) == (double)want, "line %d: get_num", line);
    jet_doc_free(d);
}
/* The root is a REAL with exactly these bits. */
static void expect_real(const char *json, jet_read_flags flags, double want, int line) {
    jet_doc *d = ok_doc(json, strlen(json), flags, line);
    if (!d) return;
    jet_val *r = jet_doc_root(d);
    CHECK_MSG(jet_is_real(r) && jet_is_num(r) && !jet_is_int(r), "line %d: [%s] kind %u", line,
              json, (unsigned)jet_get_kind(r));
    CHECK_MSG(dbits(jet_get_real(r)) == dbits(want), "line %d: [%s] got %.17g want %.17g", line,
              json, jet_get_real(r), want);
    CHECK_MSG(dbits(jet_get_num(r)) == dbits(want), "line %d: get_num", line);
    CHECK(jet_get_uint(r) == 0 && jet_get_sint(r) == 0);
    jet_doc_free(d);
}
/* The root is RAW with the given text. */
static void expect_raw(const char *json, jet_read_flags flags, const char *want, int line) {
    jet_doc *d = ok_doc(json, strlen(json), flags, line);
    if (!d) return;
    jet_val *r = jet_doc_root(d);
    CHECK_MSG(jet_is_raw(r) && !jet_is_num(r) && !jet_is_str(r), "line %d: [%s] kind %u", line,
              json, (unsigned)jet_get_kind(r));
    CHECK_MSG(jet_get_len(r) == strlen(want) && jet_get_str(r) &&
                  strcmp(jet_get_str(r), want) == 0,
              "line %d: raw [%s] want [%s]", line, jet_get_str(r) ? jet_get_str(r) : "(null)",
              want);
    jet_doc_free(d);
}
/* Parsing fails with this code at this offset. */
static void expect_fail(const char *json, size_t len, jet_read_flags flags, jet_code code,
                        size_t offset, int line) {
    jet_error err;
    jet_doc *d = read_flags(json, len, flags, &err, line);
    CHECK_MSG(d == NULL && err.code == code && err.offset == offset,
              "line %d: [%.*s] got %s at %zu, want %s at %zu", line, (int)len, json,
              d ? "JET_OK" : jet_code_name(err.code), err.offset, jet_code_name(code), offset);
    jet_doc_free(d);
}
#define EXPECT_UINT(s, v) expect_uint((s), (v), __LINE__)
#define EXPECT_SINT(s, v) expect_sint((s), (v), __LINE__)
#define EXPECT_REAL(s, f, v) expect_real((s), (f), (v), __LINE__)
#define EXPECT_RAW(s, f, t) expect_raw((s), (f), (t), __LINE__)
#define EXPECT_FAIL(s, f, c, o) expect_fail(LIT(s), (f), (c), (o), __LINE__)

static void test_numbers(void) {
    EXPECT_UINT("0", 0);
    EXPECT_UINT("1", 1);
    EXPECT_UINT("  42  ", 42);
    EXPECT_UINT("9223372036854775807", UINT64_C(9223372036854775807));
    EXPECT_UINT("9223372036854775808", UINT64_C(9223372036854775808));
    EXPECT_UINT("10000000000000000000", UINT64_C(10000000000000000000));
    EXPECT_UINT("18446744073709551615", UINT64_MAX);
    EXPECT_SINT("-1", -1);
    EXPECT_SINT("-9223372036854775807", -INT64_MAX);
    EXPECT_SINT("-9223372036854775808", INT64_MIN);

    /* a UINT above INT64_MAX wraps through jet_get_sint */
    {
        jet_doc *d = OK_DOC("18446744073709551615", 0);
        if (d) {
            CHECK(jet_get_sint(jet_doc_root(d)) == -1);
            jet_doc_free(d);
        }
        d = OK_DOC("-2", 0);
        if (d) {
            CHECK(jet_get_uint(jet_doc_root(d)) == (uint64_t)-2);
            jet_doc_free(d);
        }
    }

    /* integers that do not fit become the nearest double */
    EXPECT_REAL("18446744073709551616", 0, 18446744073709551616.0);
    EXPECT_REAL("-9223372036854775809", 0, -9223372036854775808.0);
    EXPECT_REAL("100000000000000000000000", 0, 1e23);
    EXPECT_REAL("-100000000000000000000000", 0, -1e23);
    /* ... or raw text with JET_READ_BIGNUM_AS_RAW (fitting ones stay exact) */
    EXPECT_RAW("18446744073709551616", JET_READ_BIGNUM_AS_RAW, "18446744073709551616");
    EXPECT_RAW("-9223372036854775809", JET_READ_BIGNUM_AS_RAW, "-9223372036854775809");
    EXPECT_RAW("123456789012345678901234567890", JET_READ_BIGNUM_AS_RAW,
               "123456789012345678901234567890");
    {
        jet_doc *d = OK_DOC("[18446744073709551615,-9223372036854775808,1.5]",
                            JET_READ_BIGNUM_AS_RAW);
        if (d) {
            jet_val *r = jet_doc_root(d);
            CHECK(jet_is_uint(jet_arr_get(r, 0)) && jet_get_uint(jet_arr_get(r, 0)) == UINT64_MAX);
            CHECK(jet_is_sint(jet_arr_get(r, 1)) && jet_get_sint(jet_arr_get(r, 1)) == INT64_MIN);
            CHECK(jet_is_real(jet_arr_get(r, 2)) && jet_get_real(jet_arr_get(r, 2)) == 1.5);
            jet_doc_free(d);
        }
    }

    /* reals */
    EXPECT_REAL("0.0", 0, 0.0);
    EXPECT_REAL("-0", 0, -0.0);
    EXPECT_REAL("-0.0", 0, -0.0);
    EXPECT_REAL("-0e10", 0, -0.0);
    EXPECT_REAL("1.0", 0, 1.0);
    EXPECT_REAL("1e2", 0, 100.0);
    EXPECT_REAL("1E+2", 0, 100.0);
    EXPECT_REAL("25e-1", 0, 2.5);
    EXPECT_REAL("0.1", 0, 0.1);
    EXPECT_REAL("-123.456e-7", 0, -123.456e-7);
    EXPECT_REAL("1.7976931348623157e308", 0, 1.7976931348623157e308);
    EXPECT_REAL("2.2250738585072014e-308", 0, 2.2250738585072014e-308);
    EXPECT_REAL("4.9406564584124654e-324", 0, 4.9406564584124654e-324);
    {
        jet_doc *d = OK_DOC("-0", 0);
        if (d) {
            CHECK(signbit(jet_get_real(jet_doc_root(d))));
            jet_doc_free(d);
        }
    }
    /* underflow rounds to a signed zero, overflow is an error ... */
    EXPECT_REAL("1e-400", 0, 0.0);
    EXPECT_REAL("-1e-400", 0, -0.0);
    EXPECT_REAL("123e-10000000", 0, 0.0);
    EXPECT_FAIL("1e400", 0, JET_ERR_NUMBER_RANGE, 0);
    EXPECT_FAIL("-1e400", 0, JET_ERR_NUMBER_RANGE, 0);
    EXPECT_FAIL("[0, 1.5e999]", 0, JET_ERR_NUMBER_RANGE, 4);
    /* ... unless JET_READ_BIGNUM_AS_RAW keeps the text */
    EXPECT_RAW("1e400", JET_READ_BIGNUM_AS_RAW, "1e400");
    EXPECT_RAW("-1.5E+999", JET_READ_BIGNUM_AS_RAW, "-1.5E+999");
    EXPECT_REAL("1e-400", JET_READ_BIGNUM_AS_RAW, 0.0);
    {
        /* a 400-digit integer overflows a double too */
        char big[402];
        big[0] = '1';
        memset(big + 1, '0', 400);
        big[401] = '\0';
        expect_fail(big, 401, 0, JET_ERR_NUMBER_RANGE, 0, __LINE__);
        EXPECT_RAW(big, JET_READ_BIGNUM_AS_RAW, big);
    }

    /* JET_READ_NUMBER_AS_RAW: every number is its text */
    {
        jet_doc *d = OK_DOC("[0,-1,2.50,1e400,18446744073709551616,-0]", JET_READ_NUMBER_AS_RAW);
        if (d) {
            static const char *const want[] = {"0", "-1", "2.50", "1e400", "18446744073709551616",
                                               "-0"};
            jet_val *r = jet_doc_root(d);
            CHECK(jet_arr_size(r) == 6);
            for (size_t i = 0; i < 6; i++) {
                jet_val *e = jet_arr_get(r, i);
                CHECK_MSG(jet_is_raw(e) && jet_get_len(e) == strlen(want[i]) &&
                              strcmp(jet_get_str(e), want[i]) == 0,
                          "raw %zu", i);
            }
            jet_doc_free(d);
        }
        /* the grammar is still checked */
        EXPECT_FAIL("01", JET_READ_NUMBER_AS_RAW, JET_ERR_NUMBER, 1);
        EXPECT_FAIL("[1.]", JET_READ_NUMBER_AS_RAW, JET_ERR_NUMBER, 3);
    }

    /* a number is followed by whatever the structure allows */
    {
        jet_doc *d = OK_DOC("[1,-2,3.5,4e1,-0]", 0);
        if (d) {
            jet_val *r = jet_doc_root(d);
            CHECK(jet_arr_size(r) == 5);
            CHECK(jet_get_uint(jet_arr_get(r, 0)) == 1);
            CHECK(jet_get_sint(jet_arr_get(r, 1)) == -2);
            CHECK(jet_get_real(jet_arr_get(r, 2)) == 3.5);
            CHECK(jet_get_real(jet_arr_get(r, 3)) == 40.0);
            CHECK(dbits(jet_get_real(jet_arr_get(r, 4))) == dbits(-0.0));
            jet_doc_free(d);
        }
    }
}

/* ---- strings ------------------------------------------------------------ */

/* The root of `json` is a string with exactly these bytes. */
static void expect_str(const char *json, size_t len, jet_read_flags flags, const char *want,
                       size_t want_len, int line) {
    jet_doc *d = ok_doc(json, len, flags, line);
    if (!d) return;
    jet_val *r = jet_doc_root(d);
    CHECK_MSG(jet_is_str(r), "line %d: not a string", line);
    const char *s = jet_get_str(r);
    CHECK_MSG(s && jet_get_len(r) == want_len && memcmp(s, want, want_len) == 0,
              "line %d: string of %zu bytes, want %zu", line, jet_get_len(r), want_len);
    CHECK_MSG(s && s[jet_get_len(r)] == '\0', "line %d: not NUL-terminated", line);
    CHECK(jet_equals_strn(r, want, want_len));
    /* the NOESC flag tells whether the source had a backslash */
    bool had_escape = memchr(json, '\\', len) != NULL;
    CHECK_MSG(((r->tag & JET_TAG_STR_NOESC) != 0) == !had_escape, "line %d: NOESC flag", line);
    jet_doc_free(d);
}
#define EXPECT_STR(s, f, w) expect_str(LIT(s), (f), LIT(w), __LINE__)

/* One piece placed at every position of a 48-byte string of 'a's, so that
 * it lands at every offset of the 8- and 16-byte scanning blocks and near
 * the end of the input: valid pieces must read back as `out`, invalid ones
 * fail with `code` at the piece's first byte (plus `at`). */
typedef struct piece {
    const char *in;
    const char *out; /* NULL: invalid */
    jet_code code;
    size_t at;
} piece;

static void test_string_positions(void) {
    static const piece pieces[] = {
        {"\\t", "\t", JET_OK, 0},
        {"\\u00e9", "\xC3\xA9", JET_OK, 0},
        {"\\ud83d\\ude00", "\xF0\x9F\x98\x80", JET_OK, 0},
        {"\xC3\xBC", "\xC3\xBC", JET_OK, 0},
        {"\xC2\x80", "\xC2\x80", JET_OK, 0},
        {"\xE2\x82\xAC", "\xE2\x82\xAC", JET_OK, 0},
        {"\xE0\xA0\x80", "\xE0\xA0\x80", JET_OK, 0},
        {"\xED\x9F\xBF", "\xED\x9F\xBF", JET_OK, 0},
        {"\xEF\xBF\xBF", "\xEF\xBF\xBF", JET_OK, 0},
        {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80", JET_OK, 0},
        {"\xF4\x8F\xBF\xBF", "\xF4\x8F\xBF\xBF", JET_OK, 0},
        {"\xC3\xA9\xE2\x82\xAC\xC3\xA9", "\xC3\xA9\xE2\x82\xAC\xC3\xA9", JET_OK, 0},
        {"\x7F", "\x7F", JET_OK, 0},
        {"\x01", NULL, JET_ERR_STRING_CONTROL, 0},
        {"\x1F", NULL, JET_ERR_STRING_CONTROL, 0},
        {"\xC3\xA9\n", NULL, JET_ERR_STRING_CONTROL, 2},
        {"\\q", NULL, JET_ERR_STRING_ESCAPE, 1},
        {"\\uD800", NULL, JET_ERR_SURROGATE, 0},
        {"\x80", NULL, JET_ERR_UTF8, 0},
        {"\xC1\xBF", NULL, JET_ERR_UTF8, 0},
        {"\xC3z", NULL, JET_ERR_UTF8, 0},
        {"\xE0\x80\x80", NULL, JET_ERR_UTF8, 0},
        {"\xE0\x9F\xBF", NULL, JET_ERR_UTF8, 0},
        {"\xED\xA0\x80", NULL, JET_ERR_UTF8, 0},
        {"\xED\xBF\xBF", NULL, JET_ERR_UTF8, 0},
        {"\xE2\x82z", NULL, JET_ERR_UTF8, 0},
        {"\xE2z\x82", NULL, JET_ERR_UTF8, 0},
        {"\xF0\x8F\xBF\xBF", NULL, JET_ERR_UTF8, 0},
        {"\xF4\x90\x80\x80", NULL, JET_ERR_UTF8, 0},
        {"\xF0\x9F\x98z", NULL, JET_ERR_UTF8, 0},
        {"\xF8\x80\x80\x80\x80", NULL, JET_ERR_UTF8, 0},
        {"\xC3\xA9\xC3", NULL, JET_ERR_UTF8, 2},
        {"\xE2\x82\xAC\x80", NULL, JET_ERR_UTF8, 3},
    };
    enum { LEN = 48 };
    char json[LEN + 32], want[LEN + 32];
    for (size_t pi = 0; pi < sizeof pieces / sizeof pieces[0]; pi++) {
        const piece *pc = &pieces[pi];
        size_t in_len = strlen(pc->in);
        for (size_t pos = 0; pos <= LEN; pos++) {
            size_t n = 0, w = 0;
            json[n++] = '"';
            for (size_t i = 0; i < pos; i++) json[n++] = want[w++] = (char)('a' + (i % 26));
            memcpy(json + n, pc->in, in_len);
            n += in_len;
            if (pc->out) {
                memcpy(want + w, pc->out, strlen(pc->out));
                w += strlen(pc->out);
            }
            for (size_t i = pos; i < LEN; i++) json[n++] = want[w++] = (char)('A' + (i % 26));
            json[n++] = '"';
            if (pc->out) {
                expect_str(json, n, 0, want, w, (int)(pi * 1000 + pos));
            } else {
                jet_error err;
                jet_doc *d = read_flags(json, n, 0, &err, (int)pi);
                CHECK_MSG(d == NULL && err.code == pc->code && err.offset == 1 + pos + pc->at,
                          "%s: piece %zu at %zu: got %s at %zu, want %s at %zu", cur_kernel,
                          pi, pos,
                          d ? "JET_OK" : jet_code_name(err.code), err.offset,
                          jet_code_name(pc->code), 1 + pos + pc->at);
                jet_doc_free(d);
            }
        }
    }
    /* the closing quote at every position, and the input ending there */
    for (size_t pos = 0; pos <= LEN; pos++) {
        size_t n = 0;
        json[n++] = '"';
        for (size_t i = 0; i < pos; i++) json[n++] = want[i] = (char)('a' + (i % 26));
        json[n++] = '"';
        expect_str(json, n, 0, want, pos, (int)pos);
        jet_error err;
        jet_doc *d = read_flags(json, n - 1, 0, &err, (int)pos);
        CHECK_MSG(d == NULL && err.code == JET_ERR_TRUNCATED && err.offset == n - 1,
                  "unterminated string of %zu", pos);
        jet_doc_free(d);
    }
}

/* The offset of the lead byte of the first sequence that is not valid
 * UTF-8 (RFC 3629) in [p, p + len), or len when all is valid. */
static size_t utf8_first_invalid(const unsigned char *p, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i], lo = 0x80, hi = 0xBF;
        size_t n;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) n = 2;
        else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        else return i;
        if (len - i < n || p[i + 1] < lo || p[i + 1] > hi) return i;
        for (size_t k = 2; k < n; k++)
            if ((p[i + k] & 0xC0) != 0x80) return i;
        i += n;
    }
    return len;
}

/* Runs of three-byte sequences (CJK text), which the one-pass reader checks
 * two per step: every lead E0..EF with every second byte and a few third
 * bytes, as the first to the fourth sequence of a run of valid ones, after 0
 * to 2 ASCII bytes, against the byte-wise reference (verdict and offset),
 * parsed and validated. */
static void test_utf8_runs(void) {
    static const unsigned char thirds[] = {0x80, 0xBF, 0x41, 0xC0};
    unsigned char json[64];
    unsigned long wrong = 0;
    for (unsigned lead = 0xE0; lead <= 0xEF; lead++)
        for (unsigned second = 0x20; second <= 0xFF; second++) {
            if (second == '"' || second == '\\') continue;
            for (size_t t = 0; t < sizeof thirds; t++)
                for (size_t before = 0; before < 4; before++)
                    for (size_t ascii = 0; ascii < 3; ascii++) {
                        size_t n = 0;
                        json[n++] = '"';
                        for (size_t i = 0; i < ascii; i++) json[n++] = 'a';
                        for (size_t i = 0; i < before; i++) {
                            json[n++] = 0xE3; /* U+3042 */
                            json[n++] = 0x81;
                            json[n++] = 0x82;
                        }
                        json[n++] = (unsigned char)lead;
                        json[n++] = (unsigned char)second;
                        json[n++] = thirds[t];
                        for (size_t i = 0; i < 4; i++) {
                            json[n++] = 0xE6; /* U+6F22 */
                            json[n++] = 0xBC;
                            json[n++] = 0xA2;
                        }
                        json[n++] = 'z';
                        json[n++] = '"';
                        size_t bad = 1 + utf8_first_invalid(json + 1, n - 2);
                        bool valid = bad == n - 1;
                        jet_error err, verr;
                        jet_doc *d = read_flags((const char *)json, n, 0, &err, __LINE__);
                        bool ok = valid ? d != NULL && jet_get_len(jet_doc_root(d)) == n - 2
                                        : d == NULL && err.code == JET_ERR_UTF8 && err.offset == bad;
                        bool v_ok = jet_validate((const char *)json, n, NULL, NULL, &verr);
                        ok = ok && (valid ? v_ok : !v_ok && verr.code == JET_ERR_UTF8 && verr.offset == bad);
                        if (!ok && wrong++ < 5)
                            CHECK_MSG(false, "%s: %02X %02X %02X after %zu sequences: %s at %zu, want %s at %zu",
                                      cur_kernel, lead, second, thirds[t], before,
                                      d ? "accepted" : jet_code_name(err.code), d ? 0 : err.offset,
                                      valid ? "valid" : "JET_ERR_UTF8", bad);
                        jet_doc_free(d);
                    }
        }
    CHECK_MSG(wrong == 0, "%s: %lu three-byte runs read wrongly", cur_kernel, wrong);
}

static void test_strings(void) {
    EXPECT_STR("\"\"", 0, "");
    EXPECT_STR("\"a\"", 0, "a");
    EXPECT_STR("\"hello, world\"", 0, "hello, world");
    EXPECT_STR("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", 0, "\"\\/\b\f\n\r\t");
    EXPECT_STR("\"\\u0041\\u00e9\\u00E9\\u20ac\\uFFFF\"", 0,
               "A\xC3\xA9\xC3\xA9\xE2\x82\xAC\xEF\xBF\xBF");
    EXPECT_STR("\"\\ud83d\\ude00\\uD834\\uDD1E\"", 0, "\xF0\x9F\x98\x80\xF0\x9D\x84\x9E");
    EXPECT_STR("\"\\uDBFF\\uDFFF\"", 0, "\xF4\x8F\xBF\xBF");
    EXPECT_STR("\"\\u0000\"", 0, "\0");
    EXPECT_STR("\"a\\u0000b\\u0000\"", 0, "a\0b\0");
    /* raw UTF-8 passes through: 2-, 3- and 4-byte sequences, boundaries */
    EXPECT_STR("\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"", 0,
               "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    EXPECT_STR("\"\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBF\"", 0,
               "\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBF");
    EXPECT_STR("\"\xF0\x90\x80\x80\xF4\x8F\xBF\xBF\"", 0, "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF");
    /* DEL and other printable ASCII need no escape */
    EXPECT_STR("\"\x7F~ '\"", 0, "\x7F~ '");
    /* long strings: escapes and UTF-8 at every position of the 8-byte blocks */
    EXPECT_STR("\"0123456789abcdef\\n0123456\\u00e9789abcdef\xC3\xA9x\"", 0,
               "0123456789abcdef\n0123456\xC3\xA9" "789abcdef\xC3\xA9x");
    test_string_positions();
    test_utf8_runs();
    /* jet_equals_str / strn */
    {
        jet_doc *d = OK_DOC("[\"abc\",\"a\\u0000c\",1]", 0);
        if (d) {
            jet_val *r = jet_doc_root(d);
            jet_val *a = jet_arr_get(r, 0), *b = jet_arr_get(r, 1), *c = jet_arr_get(r, 2);
            CHECK(jet_equals_str(a, "abc") && !jet_equals_str(a, "ab"));
            CHECK(!jet_equals_str(a, "abcd"));
            CHECK(!jet_equals_str(a, NULL));
            CHECK(jet_equals_strn(b, "a\0c", 3) && !jet_equals_str(b, "a"));
            CHECK(jet_get_len(b) == 3 && strlen(jet_get_str(b)) == 1);
            CHECK(!jet_equals_str(c, "1") && jet_get_str(c) == NULL);
            /* a string written back escapes the NUL */
            size_t n;
            char *out = minify(b, 0, &n);
            if (out) {
                CHECK_MSG(strcmp(out, "\"a\\u0000c\"") == 0, "got %s", out);
                free(out);
            }
            jet_doc_free(d);
        }
    }
}

/* ---- arrays and objects ------------------------------------------------- */

static void test_arrays(void) {
    jet_doc *d = OK_DOC("[]", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_is_arr(r) && jet_is_container(r) && !jet_is_obj(r));
        CHECK(jet_arr_size(r) == 0 && jet_get_len(r) == 0);
        CHECK(jet_arr_first(r) == NULL && jet_arr_get(r, 0) == NULL);
        jet_arr_iter it = jet_arr_iter_init(r);
        CHECK(jet_arr_iter_next(&it) == NULL);
        CHECK(jet_doc_val_count(d) == 1);
        jet_doc_free(d);
    }
    /* scalars only: O(1) indexing path */
    d = OK_DOC("[10, 11 ,12,\n13\t,\"s\",null,true,false,-1,0.5]", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_arr_size(r) == 10 && jet_doc_val_count(d) == 11);
        for (uint64_t i = 0; i < 4; i++) CHECK(jet_get_uint(jet_arr_get(r, (size_t)i)) == 10 + i);
        CHECK(jet_equals_str(jet_arr_get(r, 4), "s"));
        CHECK(jet_is_null(jet_arr_get(r, 5)));
        CHECK(jet_is_true(jet_arr_get(r, 6)) && jet_is_false(jet_arr_get(r, 7)));
        CHECK(jet_get_sint(jet_arr_get(r, 8)) == -1 && jet_get_real(jet_arr_get(r, 9)) == 0.5);
        CHECK(jet_arr_get(r, 10) == NULL && jet_arr_get(r, SIZE_MAX) == NULL);
        CHECK(jet_arr_first(r) == jet_arr_get(r, 0));
        jet_doc_free(d);
    }
    /* nested: linear indexing path, iteration, jet_next */
    d = OK_DOC("[1,[2,[3,[]]],{\"a\":[4,5],\"b\":{}},\"x\",[[],{}],6]", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_arr_size(r) == 6);
        CHECK(jet_get_uint(jet_arr_get(r, 0)) == 1);
        jet_val *e1 = jet_arr_get(r, 1);
        CHECK(jet_is_arr(e1) && jet_arr_size(e1) == 2);
        CHECK(jet_get_uint(jet_arr_get(e1, 0)) == 2);
        jet_val *e11 = jet_arr_get(e1, 1);
        CHECK(jet_arr_size(e11) == 2 && jet_get_uint(jet_arr_get(e11, 0)) == 3);
        CHECK(jet_is_arr(jet_arr_get(e11, 1)) && jet_arr_size(jet_arr_get(e11, 1)) == 0);
        jet_val *e2 = jet_arr_get(r, 2);
        CHECK(jet_is_obj(e2) && jet_obj_size(e2) == 2);
        CHECK(jet_equals_str(jet_arr_get(r, 3), "x"));
        jet_val *e4 = jet_arr_get(r, 4);
        CHECK(jet_arr_size(e4) == 2 && jet_is_arr(jet_arr_get(e4, 0)) &&
              jet_is_obj(jet_arr_get(e4, 1)));
        CHECK(jet_get_uint(jet_arr_get(r, 5)) == 6);
        CHECK(jet_arr_get(r, 6) == NULL);
        /* iteration visits the same values as indexing, in order */
        jet_arr_iter it = jet_arr_iter_init(r);
        size_t i = 0;
        for (jet_val *v; (v = jet_arr_iter_next(&it)); i++) CHECK(v == jet_arr_get(r, i));
        CHECK(i == 6);
        /* jet_next skips whole containers; the root spans every slot */
        CHECK(jet_next(jet_arr_get(r, 1)) == jet_arr_get(r, 2));
        CHECK(jet_next(r) == jet_doc_root(d) + jet_doc_val_count(d));
        /* 1 + (1) + (1+1+1+1+1) + (1 + 1+1+2 + 1+1) + 1 + (1+1+1) + 1 */
        CHECK(jet_doc_val_count(d) == 19);
        /* type mismatches */
        CHECK(jet_arr_size(e2) == 0 && jet_arr_get(e2, 0) == NULL && jet_arr_first(e2) == NULL);
        CHECK(jet_arr_get(jet_arr_get(r, 0), 0) == NULL);
        jet_doc_free(d);
    }
    /* a long array (grows the value arena well past its first guess) */
    {
        size_t n = 20000;
        char *s = (char *)check_xmalloc(n * 2 + 1);
        size_t k = 0;
        s[k++] = '[';
        for (size_t i = 0; i < n; i++) {
            s[k++] = (char)('0' + (i % 10));
            s[k++] = i + 1 < n ? ',' : ']';
        }
        jet_doc *big = ok_doc(s, k, 0, __LINE__);
        if (big) {
            jet_val *r = jet_doc_root(big);
            CHECK(jet_arr_size(r) == n && jet_doc_val_count(big) == n + 1);
            bool all = true;
            for (size_t i = 0; i < n; i++) all = all && jet_get_uint(jet_arr_get(r, i)) == i % 10;
            CHECK(all);
            jet_doc_free(big);
        }
        free(s);
    }
}

static void test_objects(void) {
    jet_doc *d = OK_DOC("{}", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_is_obj(r) && jet_is_container(r) && !jet_is_arr(r) && jet_obj_size(r) == 0);
        CHECK(jet_obj_get(r, "") == NULL && jet_obj_get(r, "a") == NULL);
        jet_obj_iter it = jet_obj_iter_init(r);
        CHECK(jet_obj_iter_next(&it) == NULL);
        jet_doc_free(d);
    }
    d = OK_DOC("{\"zeta\":1, \"alpha\" : [true] ,\"\":\"empty\",\"a\\nb\":{\"in\":null},"
               "\"a\\u0000b\":2,\"\\u00e9t\\u00e9\":3,\"zeta\":4,\"q\\\"\":5}",
               0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        CHECK(jet_obj_size(r) == 8 && jet_get_len(r) == 8);
        /* document order, duplicates kept */
        static const char *const keys[] = {"zeta", "alpha", "", "a\nb", "a\0b", "\xC3\xA9t\xC3\xA9",
                                           "zeta", "q\""};
        static const size_t klen[] = {4, 5, 0, 3, 3, 5, 4, 2};
        jet_obj_iter it = jet_obj_iter_init(r);
        size_t i = 0;
        for (jet_val *k; (k = jet_obj_iter_next(&it)); i++) {
            CHECK_MSG(i < 8 && jet_is_str(k) && jet_equals_strn(k, keys[i], klen[i]), "key %zu", i);
            CHECK(jet_obj_iter_value(k) == k + 1);
            CHECK(jet_obj_getn(r, keys[i], klen[i]) != NULL);
        }
        CHECK(i == 8);
        /* lookup: the first member wins, escapes are compared unescaped */
        CHECK(jet_get_uint(jet_obj_get(r, "zeta")) == 1);
        jet_val *alpha = jet_obj_get(r, "alpha");
        CHECK(jet_is_arr(alpha) && jet_is_true(jet_arr_get(alpha, 0)));
        CHECK(jet_equals_str(jet_obj_get(r, ""), "empty"));
        jet_val *inner = jet_obj_get(r, "a\nb");
        CHECK(jet_is_obj(inner) && jet_is_null(jet_obj_get(inner, "in")));
        CHECK(jet_get_uint(jet_obj_getn(r, "a\0b", 3)) == 2);
        CHECK(jet_obj_get(r, "a") == NULL);
        CHECK(jet_get_uint(jet_obj_get(r, "\xC3\xA9t\xC3\xA9")) == 3);
        CHECK(jet_get_uint(jet_obj_get(r, "q\"")) == 5);
        CHECK(jet_obj_get(r, "a\\nb") == NULL && jet_obj_get(r, "zet") == NULL);
        CHECK(jet_obj_get(r, "zetaa") == NULL && jet_obj_get(r, NULL) == NULL);
        CHECK(jet_obj_getn(r, NULL, 1) == NULL);
        /* the value after "in" is not a key at the top level */
        CHECK(jet_obj_get(r, "in") == NULL);
        /* non-objects */
        CHECK(jet_obj_get(jet_obj_get(r, "alpha"), "zeta") == NULL);
        CHECK(jet_obj_size(jet_obj_get(r, "alpha")) == 0);
        jet_doc_free(d);
    }
    /* deep object nesting: iteration skips whole subtrees */
    d = OK_DOC("{\"a\":{\"b\":{\"c\":[1,{\"d\":2}]}},\"e\":[{\"f\":[]}],\"g\":3}", 0);
    if (d) {
        jet_val *r = jet_doc_root(d);
        jet_obj_iter it = jet_obj_iter_init(r);
        jet_val *k = jet_obj_iter_next(&it);
        CHECK(jet_equals_str(k, "a"));
        k = jet_obj_iter_next(&it);
        CHECK(jet_equals_str(k, "e"));
        k = jet_obj_iter_next(&it);
        CHECK(jet_equals_str(k, "g") && jet_get_uint(jet_obj_iter_value(k)) == 3);
        CHECK(jet_obj_iter_next(&it) == NULL);
        jet_val *c = jet_obj_get(jet_obj_get(jet_obj_get(r, "a"), "b"), "c");
        CHECK(jet_arr_size(c) == 2 && jet_get_uint(jet_obj_get(jet_arr_get(c, 1), "d")) == 2);
        jet_doc_free(d);
    }
}

/* ---- error table ---------------------------------------------------------- */

typedef struct err_case {
    const char *json;
    size_t len;
    jet_read_flags flags;
    uint32_t max_depth;
    size_t max_size;
    jet_code code;
    size_t offset, line, column;
    const char *msg;
} err_case;

#define ERR(s, fl, c, off, ln, col, m) {LIT(s), (fl), 0, 0, (c), (off), (ln), (col), (m)}

/* Messages, written out once. */
#define M_EMPTY "no value in the input"
#define M_VALUE "expected a value"
#define M_END_ARR "unexpected end of input in array"
#define M_END_OBJ "unexpected end of input in object"
#define M_END_KEY "unexpected end of input after object key"
#define M_END_COLON "unexpected end of input after ':'"
#define M_END_STR "unexpected end of input in string"
#define M_END_ESC "unexpected end of input in string escape"
#define M_END_U "unexpected end of input in \\u escape"
#define M_END_NUM "unexpected end of input in number"
#define M_END_LIT "unexpected end of input in literal"
#define M_LIT "invalid literal (expected true, false or null)"
#define M_NANINF_LIT "invalid literal"
#define M_NUM "invalid number"
#define M_RANGE "number out of range for a double"
#define M_ARR_SEP "expected ',' or ']' after array element"
#define M_OBJ_SEP "expected ',' or '}' after object member"
#define M_KEY_OR_CLOSE "expected '\"' to start an object key or '}'"
#define M_KEY "expected '\"' to start an object key"
#define M_COLON "expected ':' after object key"
#define M_TC_OBJ "trailing comma before '}'"
#define M_TC_ARR "trailing comma before ']'"
#define M_TRAIL "unexpected content after the document"
#define M_CTRL "control character in string must be escaped"
#define M_ESC "invalid escape character in string"
#define M_HEX "\\u escape needs 4 hex digits"
#define M_HIGH "high surrogate \\u escape not followed by a low surrogate"
#define M_LOW "lone low surrogate \\u escape"
#define M_UTF8 "invalid UTF-8 byte sequence in string"
#define M_COMMENT "unterminated comment"
#define M_BLOCK "unterminated /* comment"
#define M_SLASH "'/' does not start a comment"
#define M_DEPTH "nesting deeper than the depth limit"
#define M_SIZE "input larger than the size limit"

#define C_ JET_READ_ALLOW_COMMENTS
#define TC_ JET_READ_ALLOW_TRAILING_COMMAS
#define NI_ JET_READ_ALLOW_NAN_INF
#define U8_ JET_READ_ALLOW_INVALID_UTF8

static const err_case err_cases[] = {
    /* empty input */
    ERR("", 0, JET_ERR_EMPTY, 0, 1, 1, M_EMPTY),
    ERR("  \n\t ", 0, JET_ERR_EMPTY, 5, 2, 3, M_EMPTY),
    ERR("/* only */ // a comment", C_, JET_ERR_EMPTY, 23, 1, 24, M_EMPTY),

    /* truncated at each kind of place */
    ERR("[", 0, JET_ERR_TRUNCATED, 1, 1, 2, M_END_ARR),
    ERR("[ \n ", 0, JET_ERR_TRUNCATED, 4, 2, 2, M_END_ARR),
    ERR("[1", 0, JET_ERR_TRUNCATED, 2, 1, 3, M_END_ARR),
    ERR("[1 ", 0, JET_ERR_TRUNCATED, 3, 1, 4, M_END_ARR),
    ERR("[1,", 0, JET_ERR_TRUNCATED, 3, 1, 4, M_END_ARR),
    ERR("[1, ", 0, JET_ERR_TRUNCATED, 4, 1, 5, M_END_ARR),
    ERR("[[]", 0, JET_ERR_TRUNCATED, 3, 1, 4, M_END_ARR),
    ERR("{", 0, JET_ERR_TRUNCATED, 1, 1, 2, M_END_OBJ),
    ERR("{ ", 0, JET_ERR_TRUNCATED, 2, 1, 3, M_END_OBJ),
    ERR("{\"a\"", 0, JET_ERR_TRUNCATED, 4, 1, 5, M_END_KEY),
    ERR("{\"a\" ", 0, JET_ERR_TRUNCATED, 5, 1, 6, M_END_KEY),
    ERR("{\"a\":", 0, JET_ERR_TRUNCATED, 5, 1, 6, M_END_COLON),
    ERR("{\"a\" : ", 0, JET_ERR_TRUNCATED, 7, 1, 8, M_END_COLON),
    ERR("{\"a\":1", 0, JET_ERR_TRUNCATED, 6, 1, 7, M_END_OBJ),
    ERR("{\"a\":{}", 0, JET_ERR_TRUNCATED, 7, 1, 8, M_END_OBJ),
    ERR("{\"a\":1,", 0, JET_ERR_TRUNCATED, 7, 1, 8, M_END_OBJ),
    ERR("{\"a\":1, ", 0, JET_ERR_TRUNCATED, 8, 1, 9, M_END_OBJ),
    ERR("[{\"a\":[1,{}]}", 0, JET_ERR_TRUNCATED, 13, 1, 14, M_END_ARR),
    ERR("\"", 0, JET_ERR_TRUNCATED, 1, 1, 2, M_END_STR),
    ERR("\"abc", 0, JET_ERR_TRUNCATED, 4, 1, 5, M_END_STR),
    ERR("[\"abcdefghijklmnop", 0, JET_ERR_TRUNCATED, 18, 1, 19, M_END_STR),
    ERR("{\"ke", 0, JET_ERR_TRUNCATED, 4, 1, 5, M_END_STR),
    ERR("\"\xC3\xA9", 0, JET_ERR_TRUNCATED, 3, 1, 3, M_END_STR),
    ERR("\"ab\\", 0, JET_ERR_TRUNCATED, 4, 1, 5, M_END_ESC),
    ERR("\"\\u", 0, JET_ERR_TRUNCATED, 3, 1, 4, M_END_U),
    ERR("\"\\u12", 0, JET_ERR_TRUNCATED, 5, 1, 6, M_END_U),
    ERR("\"\\u123", 0, JET_ERR_TRUNCATED, 6, 1, 7, M_END_U),
    ERR("\"\\u1234", 0, JET_ERR_TRUNCATED, 7, 1, 8, M_END_STR),
    ERR("-", 0, JET_ERR_TRUNCATED, 1, 1, 2, M_END_NUM),
    ERR("[-", 0, JET_ERR_TRUNCATED, 2, 1, 3, M_END_NUM),
    ERR("1.", 0, JET_ERR_TRUNCATED, 2, 1, 3, M_END_NUM),
    ERR("1e", 0, JET_ERR_TRUNCATED, 2, 1, 3, M_END_NUM),
    ERR("1E-", 0, JET_ERR_TRUNCATED, 3, 1, 4, M_END_NUM),
    ERR("[0.5e+", 0, JET_ERR_TRUNCATED, 6, 1, 7, M_END_NUM),
    ERR("t", 0, JET_ERR_TRUNCATED, 1, 1, 2, M_END_LIT),
    ERR("tru", 0, JET_ERR_TRUNCATED, 3, 1, 4, M_END_LIT),
    ERR("fals", 0, JET_ERR_TRUNCATED, 4, 1, 5, M_END_LIT),
    ERR("[nul", 0, JET_ERR_TRUNCATED, 4, 1, 5, M_END_LIT),

    /* bad literals: the first byte that differs */
    ERR("tru e", 0, JET_ERR_LITERAL, 3, 1, 4, M_LIT),
    ERR("trUe", 0, JET_ERR_LITERAL, 2, 1, 3, M_LIT),
    ERR("fAlse", 0, JET_ERR_LITERAL, 1, 1, 2, M_LIT),
    ERR("falsy", 0, JET_ERR_LITERAL, 4, 1, 5, M_LIT),
    ERR("[nil]", 0, JET_ERR_LITERAL, 2, 1, 3, M_LIT),
    ERR("nan", 0, JET_ERR_LITERAL, 1, 1, 2, M_LIT),
    ERR("{\"a\":nulL}", 0, JET_ERR_LITERAL, 8, 1, 9, M_LIT),
    ERR("Nope", 0, JET_ERR_LITERAL, 1, 1, 2, M_LIT),
    /* NaN / Infinity are not JSON: the error is at the literal's first byte
     * (not past its end) */
    ERR("NaN", 0, JET_ERR_LITERAL, 0, 1, 1, M_LIT),
    ERR("[Infinity]", 0, JET_ERR_LITERAL, 1, 1, 2, M_LIT),
    ERR("-Infinity", 0, JET_ERR_NUMBER, 1, 1, 2, M_NUM),

    /* values that cannot start */
    ERR("]", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR("}", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR(":", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR("'a'", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR("+1", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR(".5", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR("[,1]", 0, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_VALUE),
    ERR("[1,,2]", 0, JET_ERR_UNEXPECTED_CHAR, 3, 1, 4, M_VALUE),
    ERR("{\"a\":}", 0, JET_ERR_UNEXPECTED_CHAR, 5, 1, 6, M_VALUE),
    ERR("[\x01]", 0, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_VALUE),
    ERR("\xEF\xBB\xBF{}", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR("[\f]", 0, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_VALUE),
    ERR("/", 0, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),
    ERR("[1,/**/2]", 0, JET_ERR_UNEXPECTED_CHAR, 3, 1, 4, M_VALUE),

    /* numbers */
    ERR("01", 0, JET_ERR_NUMBER, 1, 1, 2, M_NUM),
    ERR("-01", 0, JET_ERR_NUMBER, 2, 1, 3, M_NUM),
    ERR("-00", 0, JET_ERR_NUMBER, 2, 1, 3, M_NUM),
    ERR("0x10", 0, JET_ERR_TRAILING_CONTENT, 1, 1, 2, M_TRAIL),
    ERR("[00]", 0, JET_ERR_NUMBER, 2, 1, 3, M_NUM),
    ERR("-x", 0, JET_ERR_NUMBER, 1, 1, 2, M_NUM),
    ERR("--1", 0, JET_ERR_NUMBER, 1, 1, 2, M_NUM),
    ERR("[-]", 0, JET_ERR_NUMBER, 2, 1, 3, M_NUM),
    ERR("1.e5", 0, JET_ERR_NUMBER, 2, 1, 3, M_NUM),
    ERR("1.x", 0, JET_ERR_NUMBER, 2, 1, 3, M_NUM),
    ERR("1ex", 0, JET_ERR_NUMBER, 2, 1, 3, M_NUM),
    ERR("[1e+x]", 0, JET_ERR_NUMBER, 4, 1, 5, M_NUM),
    ERR("1e400", 0, JET_ERR_NUMBER_RANGE, 0, 1, 1, M_RANGE),
    ERR("[\n -1.5e309]", 0, JET_ERR_NUMBER_RANGE, 3, 2, 2, M_RANGE),
    ERR("{\"a\":1.5e999}", 0, JET_ERR_NUMBER_RANGE, 5, 1, 6, M_RANGE),

    /* structure */
    ERR("[1 2]", 0, JET_ERR_UNEXPECTED_CHAR, 3, 1, 4, M_ARR_SEP),
    ERR("[1}", 0, JET_ERR_UNEXPECTED_CHAR, 2, 1, 3, M_ARR_SEP),
    ERR("[1:2]", 0, JET_ERR_UNEXPECTED_CHAR, 2, 1, 3, M_ARR_SEP),
    ERR("[\"a\"\"b\"]", 0, JET_ERR_UNEXPECTED_CHAR, 4, 1, 5, M_ARR_SEP),
    ERR("[1true]", 0, JET_ERR_UNEXPECTED_CHAR, 2, 1, 3, M_ARR_SEP),
    ERR("[1.5.3]", 0, JET_ERR_UNEXPECTED_CHAR, 4, 1, 5, M_ARR_SEP),
    ERR("{\"a\":1 \"b\":2}", 0, JET_ERR_UNEXPECTED_CHAR, 7, 1, 8, M_OBJ_SEP),
    ERR("{\"a\":1]", 0, JET_ERR_UNEXPECTED_CHAR, 6, 1, 7, M_OBJ_SEP),
    ERR("{\"a\":1:}", 0, JET_ERR_UNEXPECTED_CHAR, 6, 1, 7, M_OBJ_SEP),
    ERR("{1:2}", 0, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_KEY_OR_CLOSE),
    ERR("{,}", 0, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_KEY_OR_CLOSE),
    ERR("{ 'a':1}", 0, JET_ERR_UNEXPECTED_CHAR, 2, 1, 3, M_KEY_OR_CLOSE),
    ERR("{]", 0, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_KEY_OR_CLOSE),
    ERR("{\"a\":1,2}", 0, JET_ERR_UNEXPECTED_CHAR, 7, 1, 8, M_KEY),
    ERR("{\"a\":1, a:2}", 0, JET_ERR_UNEXPECTED_CHAR, 8, 1, 9, M_KEY),
    ERR("{\"a\":1,}", 0, JET_ERR_UNEXPECTED_CHAR, 7, 1, 8, M_TC_OBJ),
    ERR("{\"a\":1, }", 0, JET_ERR_UNEXPECTED_CHAR, 8, 1, 9, M_TC_OBJ),
    ERR("[1,]", 0, JET_ERR_UNEXPECTED_CHAR, 3, 1, 4, M_TC_ARR),
    ERR("[1,\n]", 0, JET_ERR_UNEXPECTED_CHAR, 4, 2, 1, M_TC_ARR),
    ERR("{\"a\" 1}", 0, JET_ERR_UNEXPECTED_CHAR, 5, 1, 6, M_COLON),
    ERR("{\"a\",1}", 0, JET_ERR_UNEXPECTED_CHAR, 4, 1, 5, M_COLON),
    ERR("{\"a\"=1}", 0, JET_ERR_UNEXPECTED_CHAR, 4, 1, 5, M_COLON),
    ERR("{\"a\"::1}", 0, JET_ERR_UNEXPECTED_CHAR, 5, 1, 6, M_VALUE),

    /* trailing content */
    ERR("1 2", 0, JET_ERR_TRAILING_CONTENT, 2, 1, 3, M_TRAIL),
    ERR("1x", 0, JET_ERR_TRAILING_CONTENT, 1, 1, 2, M_TRAIL),
    ERR("nullx", 0, JET_ERR_TRAILING_CONTENT, 4, 1, 5, M_TRAIL),
    ERR("\"a\" \"b\"", 0, JET_ERR_TRAILING_CONTENT, 4, 1, 5, M_TRAIL),
    ERR("[] []", 0, JET_ERR_TRAILING_CONTENT, 3, 1, 4, M_TRAIL),
    ERR("{}}", 0, JET_ERR_TRAILING_CONTENT, 2, 1, 3, M_TRAIL),
    ERR("[1]]", 0, JET_ERR_TRAILING_CONTENT, 3, 1, 4, M_TRAIL),
    ERR("[1]\n\n  ,", 0, JET_ERR_TRAILING_CONTENT, 7, 3, 3, M_TRAIL),
    ERR("[1] /", 0, JET_ERR_TRAILING_CONTENT, 4, 1, 5, M_TRAIL),
    ERR("[1] \x00", 0, JET_ERR_TRAILING_CONTENT, 4, 1, 5, M_TRAIL),

    /* strings: control characters, escapes, surrogates */
    ERR("\"a\x01\"", 0, JET_ERR_STRING_CONTROL, 2, 1, 3, M_CTRL),
    ERR("\"\t\"", 0, JET_ERR_STRING_CONTROL, 1, 1, 2, M_CTRL),
    ERR("\"line\nbreak\"", 0, JET_ERR_STRING_CONTROL, 5, 1, 6, M_CTRL),
    ERR("\"nul\x00\"", 0, JET_ERR_STRING_CONTROL, 4, 1, 5, M_CTRL),
    ERR("\"0123456789abcdef\x1F\"", 0, JET_ERR_STRING_CONTROL, 17, 1, 18, M_CTRL),
    ERR("{\"k\x1F\":1}", 0, JET_ERR_STRING_CONTROL, 3, 1, 4, M_CTRL),
    ERR("\"\\x\"", 0, JET_ERR_STRING_ESCAPE, 2, 1, 3, M_ESC),
    ERR("\"\\'\"", 0, JET_ERR_STRING_ESCAPE, 2, 1, 3, M_ESC),
    ERR("\"\\U0041\"", 0, JET_ERR_STRING_ESCAPE, 2, 1, 3, M_ESC),
    ERR("\"\\0\"", 0, JET_ERR_STRING_ESCAPE, 2, 1, 3, M_ESC),
    ERR("\"\\\xC3\xA9\"", 0, JET_ERR_STRING_ESCAPE, 2, 1, 3, M_ESC),
    ERR("\"\\u12G4\"", 0, JET_ERR_STRING_ESCAPE, 3, 1, 4, M_HEX),
    /* a \u escape cut short by the closing quote is malformed, not truncated */
    ERR("\"\\u12\"", 0, JET_ERR_STRING_ESCAPE, 3, 1, 4, M_HEX),
    ERR("\"\\u\"", 0, JET_ERR_STRING_ESCAPE, 3, 1, 4, M_HEX),
    ERR("[\"\\u 123\"]", 0, JET_ERR_STRING_ESCAPE, 4, 1, 5, M_HEX),
    ERR("\"\\u00e\"", 0, JET_ERR_STRING_ESCAPE, 3, 1, 4, M_HEX),
    ERR("\"\\uD800\"", 0, JET_ERR_SURROGATE, 1, 1, 2, M_HIGH),
    ERR("\"x\\uD800y\"", 0, JET_ERR_SURROGATE, 2, 1, 3, M_HIGH),
    ERR("\"\\uDBFF\\u0041\"", 0, JET_ERR_SURROGATE, 1, 1, 2, M_HIGH),
    ERR("\"\\uD800\\uD800\"", 0, JET_ERR_SURROGATE, 1, 1, 2, M_HIGH),
    ERR("\"\\uD800\\n\"", 0, JET_ERR_SURROGATE, 1, 1, 2, M_HIGH),
    ERR("\"\\uDC00\"", 0, JET_ERR_SURROGATE, 1, 1, 2, M_LOW),
    ERR("\"ab\\uDFFF\"", 0, JET_ERR_SURROGATE, 3, 1, 4, M_LOW),
    ERR("\"\\uDC00\\uD800\"", 0, JET_ERR_SURROGATE, 1, 1, 2, M_LOW),
    ERR("{\"\\uDE00\":1}", 0, JET_ERR_SURROGATE, 2, 1, 3, M_LOW),

    /* invalid UTF-8 inside strings */
    ERR("\"\x80\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),              /* lone continuation */
    ERR("\"\xBF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),
    ERR("\"\xC0\x80\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),          /* overlong NUL */
    ERR("\"\xC1\xBF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),          /* overlong 2-byte */
    ERR("\"\xE0\x80\xAF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),      /* overlong 3-byte */
    ERR("\"\xE0\x9F\xBF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),
    ERR("\"\xF0\x80\x80\xAF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),  /* overlong 4-byte */
    ERR("\"\xF0\x8F\xBF\xBF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),
    ERR("\"\xED\xA0\x80\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),      /* U+D800 encoded */
    ERR("\"\xED\xBF\xBF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),      /* U+DFFF encoded */
    ERR("\"\xF4\x90\x80\x80\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),  /* U+110000 */
    ERR("\"\xF5\x80\x80\x80\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),
    ERR("\"\xF8\x88\x80\x80\x80\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),
    ERR("\"\xFF\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),
    ERR("\"\xC3\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),              /* truncated 2-byte */
    ERR("\"\xE2\x82\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),          /* truncated 3-byte */
    ERR("\"\xF0\x9F\x98\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),      /* truncated 4-byte */
    ERR("\"\xE2\x82x\"", 0, JET_ERR_UTF8, 1, 1, 2, M_UTF8),
    ERR("\"\xC3\xA9\xA9\"", 0, JET_ERR_UTF8, 3, 1, 3, M_UTF8),      /* extra continuation */
    ERR("\"0123456789\xC3\xA9x\xFE\"", 0, JET_ERR_UTF8, 14, 1, 14, M_UTF8),
    ERR("{\"\xFF\":1}", 0, JET_ERR_UTF8, 2, 1, 3, M_UTF8),
    ERR("[\xFF]", 0, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_VALUE),    /* outside strings */

    /* line and column (code points, 1-based) */
    ERR("[\n  1,\n  2\n  3\n]", 0, JET_ERR_UNEXPECTED_CHAR, 13, 4, 3, M_ARR_SEP),
    ERR("[\"\xC3\xA9\", x]", 0, JET_ERR_UNEXPECTED_CHAR, 7, 1, 7, M_VALUE),
    ERR("[\"\xF0\x9F\x98\x80\xE2\x82\xAC\",\r\n 2 3]", 0, JET_ERR_UNEXPECTED_CHAR, 16, 2, 4,
        M_ARR_SEP),
    ERR("{\"a\":\n{\"b\":\n\"\xC3\xA9\xC3\xA9\x01\"}}", 0, JET_ERR_STRING_CONTROL, 17, 3, 4,
        M_CTRL),

    /* comments (flag on) */
    ERR("/", C_, JET_ERR_COMMENT, 0, 1, 1, M_COMMENT),
    ERR("[1]/", C_, JET_ERR_COMMENT, 3, 1, 4, M_COMMENT),
    ERR("[1,/", C_, JET_ERR_COMMENT, 3, 1, 4, M_COMMENT),
    ERR("/* x", C_, JET_ERR_COMMENT, 0, 1, 1, M_BLOCK),
    ERR("/*/ 1", C_, JET_ERR_COMMENT, 0, 1, 1, M_BLOCK),
    ERR("/**", C_, JET_ERR_COMMENT, 0, 1, 1, M_BLOCK),
    ERR("[1, /* a */ 2 /* b *", C_, JET_ERR_COMMENT, 14, 1, 15, M_BLOCK),
    ERR("{\"a\"\n/*", C_, JET_ERR_COMMENT, 5, 2, 1, M_BLOCK),
    ERR("/x", C_, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_SLASH),
    ERR("[1 /x]", C_, JET_ERR_UNEXPECTED_CHAR, 3, 1, 4, M_SLASH),
    ERR("{\"a\":/ 1}", C_, JET_ERR_UNEXPECTED_CHAR, 5, 1, 6, M_SLASH),
    ERR("[1] // c\n2", C_, JET_ERR_TRAILING_CONTENT, 9, 2, 1, M_TRAIL),
    ERR("[1, // c", C_, JET_ERR_TRUNCATED, 8, 1, 9, M_END_ARR),
    ERR("# hash", C_, JET_ERR_UNEXPECTED_CHAR, 0, 1, 1, M_VALUE),

    /* trailing commas (flag on): one comma only, and never alone */
    ERR("[1,,]", TC_, JET_ERR_UNEXPECTED_CHAR, 3, 1, 4, M_VALUE),
    ERR("[,]", TC_, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_VALUE),
    ERR("{,}", TC_, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_KEY_OR_CLOSE),
    ERR("{\"a\":1,,}", TC_, JET_ERR_UNEXPECTED_CHAR, 7, 1, 8, M_KEY),
    ERR("[1],", TC_, JET_ERR_TRAILING_CONTENT, 3, 1, 4, M_TRAIL),
    ERR("[1,", TC_, JET_ERR_TRUNCATED, 3, 1, 4, M_END_ARR),

    /* NaN / Infinity (flag on) */
    ERR("NaX", NI_, JET_ERR_LITERAL, 2, 1, 3, M_NANINF_LIT),
    ERR("[Infinitx]", NI_, JET_ERR_LITERAL, 8, 1, 9, M_NANINF_LIT),
    ERR("Na", NI_, JET_ERR_TRUNCATED, 2, 1, 3, M_END_NUM),
    ERR("-Inf", NI_, JET_ERR_TRUNCATED, 4, 1, 5, M_END_NUM),
    ERR("-NaN", NI_, JET_ERR_NUMBER, 1, 1, 2, M_NUM),
    ERR("[inf]", NI_, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_VALUE),
    ERR("nan", NI_, JET_ERR_LITERAL, 1, 1, 2, M_LIT),
    ERR("NaN1", NI_, JET_ERR_TRAILING_CONTENT, 3, 1, 4, M_TRAIL),

    /* invalid UTF-8 allowed: control characters and bad escapes still fail */
    ERR("\"\xFF\x01\"", U8_, JET_ERR_STRING_CONTROL, 2, 1, 3, M_CTRL),
    ERR("\"\\uD800\\x\"", U8_, JET_ERR_STRING_ESCAPE, 8, 1, 9, M_ESC),
    ERR("\"\\uD800\\u12\"", U8_, JET_ERR_STRING_ESCAPE, 9, 1, 10, M_HEX),
    ERR("\"\xC3", U8_, JET_ERR_TRUNCATED, 2, 1, 3, M_END_STR),
    ERR("[\xFF]", U8_, JET_ERR_UNEXPECTED_CHAR, 1, 1, 2, M_VALUE),
};

static void check_err(const err_case *c, size_t idx) {
    jet_read_opts o = mkopts(c->flags, c->max_depth, c->max_size);
    jet_error err;
    jet_doc *d = read_opts(c->json, c->len, &o, &err, (int)idx);
    bool ok = d == NULL && err.code == c->code && err.offset == c->offset && err.line == c->line &&
              err.column == c->column && err.msg && strcmp(err.msg, c->msg) == 0;
    CHECK_MSG(ok,
              "%s: case %zu [%.*s]: got %s at %zu (%zu:%zu) \"%s\"; want %s at %zu (%zu:%zu) "
              "\"%s\"",
              cur_kernel, idx, (int)c->len, c->json, d ? "JET_OK" : jet_code_name(err.code),
              err.offset, err.line, err.column, d ? "" : (err.msg ? err.msg : "(null)"),
              jet_code_name(c->code), c->offset, c->line, c->column, c->msg);
    jet_doc_free(d);
    /* the same failure through a parser */
    jet_parser *p = jet_parser_new(NULL);
    if (p) {
        char *buf = check_dup_exact(c->json, c->len);
        jet_error e2;
        memset(&e2, 0, sizeof e2);
        jet_doc *pd = jet_parser_parse(p, buf, c->len, &o, &e2);
        CHECK_MSG(pd == NULL && e2.code == c->code && e2.offset == c->offset &&
                      e2.line == c->line && e2.column == c->column,
                  "%s: case %zu via parser", cur_kernel, idx);
        free(buf);
        jet_parser_free(p);
    }
    /* without an error struct: still a failure */
    char *buf = check_dup_exact(c->json, c->len);
    jet_doc *nd = jet_read(buf, c->len, &o, NULL, NULL);
    CHECK_MSG(nd == NULL, "case %zu without err", idx);
    jet_doc_free(nd);
    free(buf);
}

static void test_error_table(void) {
    size_t n = sizeof err_cases / sizeof err_cases[0];
    for (size_t i = 0; i < n; i++) check_err(&err_cases[i], i);
    /* each code names itself */
    CHECK(strcmp(jet_code_name(JET_ERR_TRUNCATED), "JET_ERR_TRUNCATED") == 0);
    CHECK(strcmp(jet_code_name(JET_ERR_NUMBER_RANGE), "JET_ERR_NUMBER_RANGE") == 0);
    CHECK(strcmp(jet_code_name(JET_OK), "JET_OK") == 0);
}

/* ---- depth and size limits ------------------------------------------------ */

/* Whether level `i` of `n` nested levels is an object (`{"k":...}`): every
 * odd level when `objects`, except the innermost, which is always `[]`. */
static bool obj_level(size_t i, size_t n, bool objects) {
    return objects && (i & 1) && i + 1 < n;
}

/* `n` nested containers, the innermost empty. Caller frees. */
static char *nested(size_t n, bool objects, size_t *len) {
    char *s = (char *)check_xmalloc(n * 6 + 2);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (obj_level(i, n, objects)) {
            memcpy(s + k, "{\"k\":", 5);
            k += 5;
        } else {
            s[k++] = '[';
        }
    }
    for (size_t i = n; i-- > 0;) s[k++] = obj_level(i, n, objects) ? '}' : ']';
    *len = k;
    return s;
}

/* Offset of opener number `m` (0-based) in nested(n, objects), and the
 * number of keys in the first `m` levels. */
static size_t opener_offset(size_t m, size_t n, bool objects, size_t *keys) {
    size_t off = 0, nk = 0;
    for (size_t i = 0; i < m; i++) {
        bool o = obj_level(i, n, objects);
        off += o ? 5 : 1;
        nk += o;
    }
    if (keys) *keys = nk;
    return off;
}

static void expect_depth(size_t n, bool objects, uint32_t max_depth, int line) {
    size_t len;
    char *s = nested(n, objects, &len);
    jet_read_opts o = mkopts(0, max_depth, 0);
    jet_error err;
    jet_doc *d = read_opts(s, len, &o, &err, line);
    size_t limit = max_depth ? max_depth : JET_DEFAULT_MAX_DEPTH;
    if (n <= limit) {
        CHECK_MSG(d != NULL, "line %d: depth %zu (limit %zu) rejected: %s", line, n, limit,
                  d ? "" : err.msg);
        if (d) {
            /* walk down to the innermost container */
            jet_val *v = jet_doc_root(d);
            size_t depth = 0;
            while (jet_is_container(v)) {
                depth++;
                v = jet_is_arr(v) ? jet_arr_get(v, 0) : jet_obj_get(v, "k");
            }
            size_t keys;
            opener_offset(n, n, objects, &keys);
            CHECK_MSG(depth == n && jet_doc_val_count(d) == n + keys,
                      "line %d: depth %zu", line, depth);
        }
    } else {
        size_t off = opener_offset(limit, n, objects, NULL);
        CHECK_MSG(d == NULL && err.code == JET_ERR_DEPTH_LIMIT && err.offset == off &&
                      err.line == 1 && err.column == off + 1 && err.msg &&
                      strcmp(err.msg, M_DEPTH) == 0,
                  "line %d: depth %zu (limit %zu): got %s at %zu want offset %zu", line, n, limit,
                  d ? "JET_OK" : jet_code_name(err.code), err.offset, off);
    }
    jet_doc_free(d);
    free(s);
}

static void test_limits(void) {
    /* the default is exactly 1024 levels: 1024 nested containers are fine */
    CHECK(JET_DEFAULT_MAX_DEPTH == 1024);
    expect_depth(1023, false, 0, __LINE__);
    expect_depth(1024, false, 0, __LINE__);
    expect_depth(1025, false, 0, __LINE__);
    expect_depth(1024, true, 0, __LINE__);
    expect_depth(1025, true, 0, __LINE__);
    expect_depth(5000, false, 0, __LINE__);
    /* explicit limits */
    expect_depth(1, false, 1, __LINE__);
    expect_depth(2, false, 1, __LINE__);
    expect_depth(2, true, 2, __LINE__);
    expect_depth(3, true, 2, __LINE__);
    expect_depth(3, false, 2, __LINE__);
    expect_depth(64, false, 64, __LINE__);
    expect_depth(65, false, 64, __LINE__);
    expect_depth(500, true, 499, __LINE__);
    expect_depth(2000, false, 2000, __LINE__);
    expect_depth(2001, false, 2000, __LINE__);
    expect_depth(100000, false, 100000, __LINE__);
    /* scalars and empty input do not count as nesting */
    {
        jet_read_opts o = mkopts(0, 1, 0);
        jet_error err;
        jet_doc *d = read_opts(LIT("[1,{}]"), &o, &err, __LINE__);
        CHECK_MSG(d == NULL && err.code == JET_ERR_DEPTH_LIMIT && err.offset == 3, "got %s",
                  jet_code_name(err.code));
        jet_doc_free(d);
        d = read_opts(LIT("[1,\"[\",2]"), &o, &err, __LINE__);
        CHECK(d != NULL);
        jet_doc_free(d);
        d = read_opts(LIT("\"{[\""), &o, &err, __LINE__);
        CHECK(d != NULL);
        jet_doc_free(d);
    }
    /* siblings at the limit are fine */
    {
        jet_read_opts o = mkopts(0, 2, 0);
        jet_error err;
        jet_doc *d = read_opts(LIT("[[],[1],{\"a\":2},[[]]]"), &o, &err, __LINE__);
        CHECK(d == NULL && err.code == JET_ERR_DEPTH_LIMIT && err.offset == 17);
        jet_doc_free(d);
        d = read_opts(LIT("[[],[1],{\"a\":2},[3]]"), &o, &err, __LINE__);
        CHECK(d != NULL);
        jet_doc_free(d);
    }

    /* max_size: the input length itself is limited (offset = the limit) */
    static const err_case size_cases[] = {
        {LIT("[1,2]"), 0, 0, 4, JET_ERR_SIZE_LIMIT, 4, 1, 5, M_SIZE},
        {LIT("[1,2]"), 0, 0, 1, JET_ERR_SIZE_LIMIT, 1, 1, 2, M_SIZE},
        {LIT("[\n1,\n2]"), 0, 0, 5, JET_ERR_SIZE_LIMIT, 5, 3, 1, M_SIZE},
        {LIT("\"\xC3\xA9\xC3\xA9\""), 0, 0, 5, JET_ERR_SIZE_LIMIT, 5, 1, 4, M_SIZE},
        /* the limit is checked before anything else */
        {LIT("[1 2] "), 0, 0, 5, JET_ERR_SIZE_LIMIT, 5, 1, 6, M_SIZE},
    };
    for (size_t i = 0; i < sizeof size_cases / sizeof size_cases[0]; i++)
        check_err(&size_cases[i], 100 + i);
    {
        jet_read_opts o = mkopts(0, 0, 5);
        jet_error err;
        jet_doc *d = read_opts(LIT("[1,2]"), &o, &err, __LINE__);
        CHECK(d != NULL);
        jet_doc_free(d);
        o.max_size = 0; /* no limit */
        d = read_opts(LIT("[1,2]"), &o, &err, __LINE__);
        CHECK(d != NULL);
        jet_doc_free(d);
    }
}

/* ---- lenient flags -------------------------------------------------------- */

static void test_flags(void) {
    /* comments */
    EXPECT_TEXT("/* a */ [1, // one\n 2 /* two */, /**/3]// end", C_, "[1,2,3]");
    EXPECT_TEXT("//x\n{\"a\"/*1*/:/*2*/1/*3*/,/*4*/\"b\"//\n:[]}", C_, "{\"a\":1,\"b\":[]}");
    EXPECT_TEXT("[1,/***/2,/* * / */3]", C_, "[1,2,3]");
    EXPECT_TEXT("1// no newline at the end", C_, "1");
    EXPECT_TEXT("\"/* not a comment */\"", C_, "\"/* not a comment */\"");
    EXPECT_TEXT("[\"//\"]", C_, "[\"//\"]");
    EXPECT_TEXT("/**//**/[]/**/", C_, "[]");
    EXPECT_FAIL("/* a */ []", 0, JET_ERR_UNEXPECTED_CHAR, 0);
    EXPECT_FAIL("[] // a", 0, JET_ERR_TRAILING_CONTENT, 3);

    /* trailing commas */
    EXPECT_TEXT("[1,]", TC_, "[1]");
    EXPECT_TEXT("[1 , ]", TC_, "[1]");
    EXPECT_TEXT("{\"a\":1,}", TC_, "{\"a\":1}");
    EXPECT_TEXT("[[1,],{\"x\":[],},]", TC_, "[[1],{\"x\":[]}]");
    EXPECT_TEXT("[]", TC_, "[]");
    EXPECT_TEXT("[1, /*c*/ ]", TC_ | C_, "[1]");
    {
        jet_doc *d = OK_DOC("[1,2,]", TC_);
        if (d) {
            CHECK(jet_arr_size(jet_doc_root(d)) == 2);
            jet_doc_free(d);
        }
    }

    /* NaN and infinities */
    {
        jet_doc *d = OK_DOC("[NaN, Infinity, -Infinity, 1]", NI_);
        if (d) {
            jet_val *r = jet_doc_root(d);
            CHECK(jet_arr_size(r) == 4);
            CHECK(jet_is_real(jet_arr_get(r, 0)) && isnan(jet_get_real(jet_arr_get(r, 0))));
            CHECK(jet_is_real(jet_arr_get(r, 1)) && jet_get_real(jet_arr_get(r, 1)) == INFINITY);
            CHECK(jet_is_real(jet_arr_get(r, 2)) && jet_get_real(jet_arr_get(r, 2)) == -INFINITY);
            CHECK(jet_get_uint(jet_arr_get(r, 3)) == 1);
            jet_doc_free(d);
        }
        EXPECT_REAL("Infinity", NI_, INFINITY);
        EXPECT_REAL("-Infinity", NI_, -INFINITY);
        EXPECT_TEXT("{\"n\":NaN}", NI_, "{\"n\":NaN}");
        /* the flag does not turn overflow into infinity */
        EXPECT_FAIL("1e400", NI_, JET_ERR_NUMBER_RANGE, 0);
    }

    /* invalid UTF-8 passed through; lone surrogates as WTF-8 */
    EXPECT_STR("\"\xFF\"", U8_, "\xFF");
    EXPECT_STR("\"a\x80" "b\xC0\xAF\xED\xA0\x80\xF4\x90\x80\x80\"", U8_,
               "a\x80" "b\xC0\xAF\xED\xA0\x80\xF4\x90\x80\x80");
    EXPECT_STR("\"\xE2\x82\"", U8_, "\xE2\x82");
    EXPECT_STR("\"\xC3\xA9\"", U8_, "\xC3\xA9");
    EXPECT_STR("\"\\uD800\"", U8_, "\xED\xA0\x80");
    EXPECT_STR("\"\\uDC00x\"", U8_, "\xED\xB0\x80x");
    EXPECT_STR("\"\\uD800\\uD800\"", U8_, "\xED\xA0\x80\xED\xA0\x80");
    EXPECT_STR("\"\\uDFFF\\uDBFF\"", U8_, "\xED\xBF\xBF\xED\xAF\xBF");
    EXPECT_STR("\"\\uD83D\\uDE00\"", U8_, "\xF0\x9F\x98\x80");
    EXPECT_STR("\"\\uD800\\u0041\"", U8_, "\xED\xA0\x80" "A");
    EXPECT_STR("\"\\uD800\"", U8_ | C_ | TC_ | NI_, "\xED\xA0\x80");
    {
        jet_doc *d = OK_DOC("{\"\xFE\":\"\\uDEAD\"}", U8_);
        if (d) {
            jet_val *r = jet_doc_root(d);
            CHECK(jet_equals_str(jet_obj_get(r, "\xFE"), "\xED\xBA\xAD"));
            jet_doc_free(d);
        }
    }

    /* STOP_WHEN_DONE: the first value, and how many bytes it took */
    {
        static const struct {
            const char *json;
            size_t read;
        } stops[] = {
            {"[1,2] xyz", 5}, {"{} {}", 2},       {"1 2", 1},        {"  true  false", 6},
            {"12", 2},        {"\"a\"\"b\"", 3},   {"[1]", 3},        {"null,", 4},
            {"123abc", 3},    {"{\"a\":[]}]]]", 8}, {" \n[] \n", 4},
        };
        for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
            jet_error err;
            jet_doc *d = read_flags(stops[i].json, strlen(stops[i].json), JET_READ_STOP_WHEN_DONE,
                                    &err, (int)i);
            CHECK_MSG(d && jet_doc_read_size(d) == stops[i].read, "stop %zu [%s]: read %zu", i,
                      stops[i].json, d ? jet_doc_read_size(d) : (size_t)0);
            jet_doc_free(d);
        }
        /* without the flag, read_size is the whole input */
        jet_doc *d = OK_DOC(" [1] \n", 0);
        if (d) {
            CHECK(jet_doc_read_size(d) == 6);
            jet_doc_free(d);
        }
        /* still an error when the first value is bad or missing */
        EXPECT_FAIL("[1,", JET_READ_STOP_WHEN_DONE, JET_ERR_TRUNCATED, 3);
        EXPECT_FAIL("  ", JET_READ_STOP_WHEN_DONE, JET_ERR_EMPTY, 2);
        EXPECT_FAIL("[1 2] 3", JET_READ_STOP_WHEN_DONE, JET_ERR_UNEXPECTED_CHAR, 3);
        /* a stream of values, one after the other */
        static const char stream[] = "{\"a\":1} [2]\n\"three\"\t4 null";
        size_t pos = 0, count = 0, len = sizeof stream - 1;
        jet_parser *p = jet_parser_new(NULL);
        jet_read_opts o = mkopts(JET_READ_STOP_WHEN_DONE, 0, 0);
        while (p) {
            while (pos < len && (stream[pos] == ' ' || stream[pos] == '\n' || stream[pos] == '\t'))
                pos++;
            if (pos >= len) break;
            jet_doc *sd = jet_parser_parse(p, stream + pos, len - pos, &o, NULL);
            CHECK(sd != NULL);
            if (!sd) break;
            count++;
            pos += jet_doc_read_size(sd);
        }
        CHECK_MSG(count == 5, "stream values %zu", count);
        jet_parser_free(p);
    }
}

/* ---- truncated prefixes ----------------------------------------------------- */

/* Every proper prefix of `json` (whose root is a container or string, so
 * that no proper prefix is a document) fails cleanly. When `ascii` the
 * failure must be JET_ERR_TRUNCATED at the end of the prefix (or EMPTY for
 * the empty prefix); otherwise any failure at an offset within it. The whole
 * input must parse. */
static void check_prefixes(const char *json, size_t len, jet_read_flags flags, bool ascii,
                           int line) {
    jet_read_opts o = mkopts(flags, 0, 0);
    jet_parser *p = jet_parser_new(NULL);
    if (!p) return;
    size_t bad = 0;
    for (size_t k = 0; k <= len; k++) {
        char *buf = check_dup_exact(json, k);
        jet_error err;
        memset(&err, 0, sizeof err);
        jet_doc *d = jet_read(buf, k, &o, NULL, &err);
        jet_error err2;
        memset(&err2, 0, sizeof err2);
        jet_doc *pd = jet_parser_parse(p, buf, k, &o, &err2);
        free(buf);
        if (k == len) {
            CHECK_MSG(d != NULL && pd != NULL, "line %d: whole input rejected: %s at %zu", line,
                      err.msg ? err.msg : "", err.offset);
            jet_doc_free(d);
            continue;
        }
        bool ok = d == NULL && pd == NULL && err.code != JET_OK && err.offset <= k &&
                  err.msg != NULL && err2.code == err.code && err2.offset == err.offset;
        if (ok && ascii) {
            if (k == 0)
                ok = err.code == JET_ERR_EMPTY;
            else
                ok = (err.code == JET_ERR_TRUNCATED || err.code == JET_ERR_COMMENT ||
                      err.code == JET_ERR_EMPTY) &&
                     (err.offset == k || err.code == JET_ERR_COMMENT);
        }
        if (!ok && bad++ < 5)
            CHECK_MSG(ok, "%s: line %d: prefix %zu [%.*s]: got %s at %zu", cur_kernel, line, k,
                      (int)k, json,
                      d ? "JET_OK" : jet_code_name(err.code), err.offset);
        else
            CHECK(ok);
        jet_doc_free(d);
    }
    jet_parser_free(p);
}
#define CHECK_PREFIXES(s, f, ascii) check_prefixes(LIT(s), (f), (ascii), __LINE__)

/* Pretty-printed layouts, which the one-pass reader skips a newline and 8
 * spaces at a time: indentation of 0 to 19 spaces, then nothing, a tab, a
 * CR LF and more spaces, a blank line or one more space, between every two
 * tokens. Each document reads as its minified form; each proper prefix
 * fails at its end; a control byte put after any layout is the error, at
 * its own offset. */
static void test_layouts(void) {
    static const char *const tails[] = {"", "\t", "\r\n  ", "\n", " "};
    static const char *const tokens[] = {"{", "\"a\": [", "1,", "true", "],", "\"b\":  {", "}", "}"};
    enum { NT = sizeof tokens / sizeof tokens[0] };
    char json[512], bad[512];
    for (size_t k = 0; k < 20; k++)
        for (size_t t = 0; t < sizeof tails / sizeof tails[0]; t++) {
            size_t n = 0, at[NT];
            for (size_t i = 0; i < NT; i++) {
                if (i) {
                    json[n++] = '\n';
                    for (size_t j = 0; j < k; j++) json[n++] = ' ';
                    memcpy(json + n, tails[t], strlen(tails[t]));
                    n += strlen(tails[t]);
                }
                at[i] = n;
                memcpy(json + n, tokens[i], strlen(tokens[i]));
                n += strlen(tokens[i]);
            }
            expect_text(json, n, 0, "{\"a\":[1,true],\"b\":{}}", (int)(k * 10 + t));
            check_prefixes(json, n, 0, true, (int)(k * 10 + t));
            for (size_t i = 1; i < NT; i++) {
                memcpy(bad, json, at[i]);
                bad[at[i]] = '\x01';
                memcpy(bad + at[i] + 1, json + at[i], n - at[i]);
                jet_error err;
                jet_doc *d = read_flags(bad, n + 1, 0, &err, __LINE__);
                CHECK_MSG(d == NULL && err.offset == at[i], "%s: indent %zu, tail %zu, token %zu: %s at %zu, want %zu",
                          cur_kernel, k, t, i, d ? "accepted" : jet_code_name(err.code), d ? 0 : err.offset,
                          at[i]);
                jet_doc_free(d);
            }
        }
}

static void test_prefixes(void) {
    CHECK_PREFIXES("{\"a\":[1,-2.5e+3,0.25E-2,true,false,null,[],{}],\"b\\n\":\"x\\u00e9\\\"y\","
                   "\"c\" : { \"d\" : [ ] } ,\"e\":{},\"f\":-0,\"g\":18446744073709551616}",
                   0, true);
    CHECK_PREFIXES("[\n  \"long string with no escapes at all, more than 8 bytes\",\n"
                   "  12345678901234,\n  {\"k\": \"\\t\\r\\b\\f\\/\\\\\"}\n]",
                   0, true);
    CHECK_PREFIXES("\"a string root with \\\" and \\u0041\"", 0, true);
    CHECK_PREFIXES("[[[[[[[[[[1]]]]]]]]]]", 0, true);
    CHECK_PREFIXES("/* c */ [1, // x\n 2 /* y */, 3]", C_, true);
    CHECK_PREFIXES("[1,2,{\"a\":3,},]", TC_, true);
    CHECK_PREFIXES("[NaN,-Infinity,Infinity,1e5]", NI_, true);
    CHECK_PREFIXES("[18446744073709551616,1e400,-1.5]", JET_READ_BIGNUM_AS_RAW, true);
    CHECK_PREFIXES("[18446744073709551616,1e400,-1.5]", JET_READ_NUMBER_AS_RAW, true);
    /* non-ASCII and surrogate pairs: prefixes may end inside a sequence */
    CHECK_PREFIXES("[\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\",{\"\xC3\xBC\":\"\\ud83d\\ude00\"}]",
                   0, false);
    CHECK_PREFIXES("[\"\xFF\\uD800\xC3\"]", U8_, false);
    test_layouts();
}

/* ---- the input is only read --------------------------------------------- */

static void test_input_untouched(void) {
    /* read_opts already compares each input with a copy after the parse;
     * here the same with the input that reuse, escapes and failures touch */
    static const char *const inputs[] = {
        "{\"a\\n\\u00e9\":[\"x\\\"y\",1.5e3,true]}",
        "\"\\ud83d\\ude00\\u0000\"",
        "[1,2,3,\"\xC3\xA9\",{\"\":null}]",
        "[1,2,3,\"\xFF\"]",
        "{\"a\":1,}",
        "[\"\\uD800\"]",
    };
    jet_parser *p = jet_parser_new(NULL);
    for (size_t i = 0; p && i < sizeof inputs / sizeof inputs[0]; i++) {
        size_t len = strlen(inputs[i]);
        char *buf = check_dup_exact(inputs[i], len);
        for (jet_read_flags f = 0; f <= (JET_READ_ALLOW_INVALID_UTF8 | TC_); f += TC_) {
            jet_read_opts o = mkopts(f, 0, 0);
            (void)jet_parser_parse(p, buf, len, &o, NULL);
            CHECK_MSG(memcmp(buf, inputs[i], len) == 0, "input %zu modified", i);
        }
        free(buf);
    }
    jet_parser_free(p);
}

/* ---- allocators ------------------------------------------------------------ */

/* Each block carries its size in a header, so that frees and reallocs can
 * be checked against what was handed out. */
typedef union block_hdr {
    size_t size;
    max_align_t align;
} block_hdr;

typedef struct counter {
    size_t mallocs, reallocs, frees;
    size_t live_blocks, live_bytes;
    size_t bad_old_size; /* realloc told a wrong old size */
    long budget;         /* allocations still allowed; negative: no limit */
    size_t refused;
} counter;

static bool counter_take(counter *c) {
    if (c->budget == 0) {
        c->refused++;
        return false;
    }
    if (c->budget > 0) c->budget--;
    return true;
}

static void *c_malloc(void *ctx, size_t size) {
    counter *c = (counter *)ctx;
    if (!counter_take(c)) return NULL;
    block_hdr *h = (block_hdr *)malloc(sizeof(block_hdr) + size);
    if (!h) return NULL;
    h->size = size;
    c->mallocs++;
    c->live_blocks++;
    c->live_bytes += size;
    return h + 1;
}

static void *c_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    counter *c = (counter *)ctx;
    if (!counter_take(c)) return NULL;
    block_hdr *h = (block_hdr *)ptr - 1;
    if (h->size != old_size) c->bad_old_size++;
    size_t had = h->size;
    block_hdr *n = (block_hdr *)realloc(h, sizeof(block_hdr) + new_size);
    if (!n) return NULL;
    n->size = new_size;
    c->reallocs++;
    c->live_bytes = c->live_bytes - had + new_size;
    return n + 1;
}

static void c_free(void *ctx, void *ptr) {
    counter *c = (counter *)ctx;
    if (!ptr) return;
    block_hdr *h = (block_hdr *)ptr - 1;
    c->frees++;
    c->live_blocks--;
    c->live_bytes -= h->size;
    free(h);
}

static jet_alloc counting_alloc(counter *c, long budget) {
    memset(c, 0, sizeof *c);
    c->budget = budget;
    jet_alloc a = {c_malloc, c_realloc, c_free, c};
    return a;
}

/* A document that needs several allocations of each kind: deep enough to
 * grow the parser's stack, with far more values per byte than the value
 * arena's first guess. */
static char *alloc_doc(size_t *len) {
    size_t depth = 150, elems = 3000;
    char *s = (char *)check_xmalloc(depth * 2 + elems * 2 + 64);
    size_t k = 0;
    for (size_t i = 0; i < depth; i++) s[k++] = '[';
    memcpy(s + k, "\"str\\u00e9\",", 12);
    k += 12;
    for (size_t i = 0; i < elems; i++) {
        s[k++] = (char)('0' + (i % 10));
        s[k++] = ',';
    }
    memcpy(s + k, "{\"k\":null}", 10);
    k += 10;
    for (size_t i = 0; i < depth; i++) s[k++] = ']';
    *len = k;
    return s;
}

/* alloc_doc's document, level by level: the slots grew while 150
 * containers were open, so every size and every skip must have followed. */
static void check_alloc_doc(jet_doc *d) {
    jet_val *root = jet_doc_root(d), *v = root;
    bool nested = true;
    for (int i = 1; i < 150; i++) {
        nested = nested && jet_is_arr(v) && jet_arr_size(v) == 1;
        v = jet_arr_get(v, 0);
    }
    CHECK(nested && v != NULL);
    if (!v) return;
    CHECK(jet_arr_size(v) == 3002);
    CHECK(strcmp(jet_get_str(jet_arr_get(v, 0)), "str\xc3\xa9") == 0);
    bool digits = true;
    for (size_t i = 0; i < 3000; i++) digits = digits && jet_get_uint(jet_arr_get(v, i + 1)) == i % 10;
    CHECK(digits);
    jet_val *last = jet_arr_get(v, 3001);
    CHECK(jet_is_obj(last) && jet_is_null(jet_obj_get(last, "k")));
    CHECK(jet_next(root) == root + jet_doc_val_count(d));
}

static void test_parser_reuse(void) {
    size_t len;
    char *big = alloc_doc(&len);
    static const char small[] = "{\"a\":[1,2,{\"b\":\"c\"}]}";
    counter c;
    jet_alloc a = counting_alloc(&c, -1);
    jet_parser *p = jet_parser_new(&a);
    CHECK(p != NULL);
    if (!p) {
        free(big);
        return;
    }
    jet_error err;
    jet_doc *d1 = jet_parser_parse(p, big, len, NULL, &err);
    CHECK(d1 != NULL);
    size_t vc = jet_doc_val_count(d1);
    CHECK(vc > 3000);
    if (d1) check_alloc_doc(d1);
    size_t allocs = c.mallocs + c.reallocs;
    CHECK(allocs > 1);
    /* the same input again: no allocation at all, same document */
    jet_doc *d2 = jet_parser_parse(p, big, len, NULL, &err);
    CHECK(d2 != NULL && jet_doc_val_count(d2) == vc);
    CHECK_MSG(c.mallocs + c.reallocs == allocs, "second parse allocated %zu times",
              c.mallocs + c.reallocs - allocs);
    /* a smaller input: none either */
    jet_doc *d3 = jet_parser_parse(p, small, sizeof small - 1, NULL, &err);
    CHECK(d3 != NULL && jet_obj_size(jet_doc_root(d3)) == 1);
    CHECK_MSG(c.mallocs + c.reallocs == allocs, "smaller parse allocated");
    /* a failing parse, then the big one once more: still none */
    CHECK(jet_parser_parse(p, "[1,", 3, NULL, &err) == NULL && err.code == JET_ERR_TRUNCATED);
    jet_doc *d4 = jet_parser_parse(p, big, len, NULL, &err);
    CHECK(d4 != NULL && jet_doc_val_count(d4) == vc);
    CHECK(c.mallocs + c.reallocs == allocs);
    /* many reparses in a row, alternating inputs */
    for (int i = 0; i < 50; i++) {
        jet_doc *dd = (i & 1) ? jet_parser_parse(p, small, sizeof small - 1, NULL, NULL)
                              : jet_parser_parse(p, big, len, NULL, NULL);
        CHECK(dd != NULL);
    }
    CHECK(c.mallocs + c.reallocs == allocs);
    /* the parser's document survives jet_doc_free (a no-op) */
    d4 = jet_parser_parse(p, big, len, NULL, &err);
    jet_doc_free(d4);
    CHECK(d4 != NULL && jet_doc_root(d4) != NULL && jet_doc_val_count(d4) == vc);
    CHECK(c.bad_old_size == 0);
    jet_parser_free(p);
    CHECK_MSG(c.live_blocks == 0 && c.live_bytes == 0, "parser leaked %zu blocks, %zu bytes",
              c.live_blocks, c.live_bytes);
    CHECK(c.frees == c.mallocs);
    jet_parser_free(NULL);
    {
        jet_error e;
        memset(&e, 0, sizeof e);
        CHECK(jet_parser_parse(NULL, "1", 1, NULL, &e) == NULL && e.code == JET_ERR_INVALID_ARG);
    }
    free(big);
}

static void test_alloc_balance(void) {
    size_t len;
    char *big = alloc_doc(&len);
    static const char *const docs[] = {"[]", "\"x\"", "{\"a\":[1,\"b\",{\"c\":null}]}", "[1,2,",
                                       "{\"a\" 1}", ""};
    for (size_t i = 0; i <= sizeof docs / sizeof docs[0]; i++) {
        const char *s = i < sizeof docs / sizeof docs[0] ? docs[i] : big;
        size_t n = i < sizeof docs / sizeof docs[0] ? strlen(s) : len;
        counter c;
        jet_alloc a = counting_alloc(&c, -1);
        jet_error err;
        jet_doc *d = jet_read(s, n, NULL, &a, &err);
        if (d) CHECK(c.live_blocks > 0);
        jet_doc_free(d);
        CHECK_MSG(c.live_blocks == 0 && c.live_bytes == 0 && c.bad_old_size == 0,
                  "doc %zu: %zu blocks, %zu bytes left", i, c.live_blocks, c.live_bytes);
    }
    free(big);
}

static void test_alloc_failures(void) {
    size_t len;
    char *big = alloc_doc(&len);
    jet_error err;
    /* jet_read: fail at each allocation in turn until one parse succeeds */
    bool succeeded = false;
    for (long n = 0; n <= 64 && !succeeded; n++) {
        counter c;
        jet_alloc a = counting_alloc(&c, n);
        memset(&err, 0, sizeof err);
        jet_doc *d = jet_read(big, len, NULL, &a, &err);
        if (d) {
            /* (a refused allocation may still end in success when the
             * reader has a way around it; either outcome is clean) */
            succeeded = true;
            jet_doc_free(d);
        } else {
            CHECK_MSG(err.code == JET_ERR_MEMORY && err.msg != NULL, "budget %ld: %s", n,
                      jet_code_name(err.code));
        }
        CHECK_MSG(c.live_blocks == 0 && c.live_bytes == 0, "budget %ld: leaked %zu blocks", n,
                  c.live_blocks);
        CHECK(c.bad_old_size == 0);
    }
    CHECK_MSG(succeeded, "jet_read never succeeded within 64 allocations");

    /* a parser: creation may fail; a parse may fail and the parser recovers */
    succeeded = false;
    for (long n = 0; n <= 64 && !succeeded; n++) {
        counter c;
        jet_alloc a = counting_alloc(&c, n);
        jet_parser *p = jet_parser_new(&a);
        if (!p) {
            CHECK(n == 0 && c.live_blocks == 0);
            continue;
        }
        memset(&err, 0, sizeof err);
        jet_doc *d = jet_parser_parse(p, big, len, NULL, &err);
        if (d) {
            succeeded = true;
        } else {
            CHECK_MSG(err.code == JET_ERR_MEMORY, "parser budget %ld: %s", n,
                      jet_code_name(err.code));
            /* give it memory again: the same parser now succeeds */
            c.budget = -1;
            d = jet_parser_parse(p, big, len, NULL, &err);
            CHECK_MSG(d != NULL && jet_doc_val_count(d) > 3000, "parser budget %ld: no recovery",
                      n);
        }
        jet_parser_free(p);
        CHECK_MSG(c.live_blocks == 0 && c.live_bytes == 0, "parser budget %ld: leaked %zu blocks",
                  n, c.live_blocks);
    }
    CHECK(succeeded);

    /* jet_read_file with a failing allocator (buffer growth, then the parse) */
    {
        char path[4096];
        snprintf(path, sizeof path, "%s/corpora/github_events.json", check_shared_dir());
        bool file_ok = false;
        for (long n = 0; n <= 64 && !file_ok; n++) {
            counter c;
            jet_alloc a = counting_alloc(&c, n);
            memset(&err, 0, sizeof err);
            jet_doc *d = jet_read_file(path, NULL, &a, &err);
            if (d) {
                file_ok = true;
                jet_doc_free(d);
            } else {
                CHECK_MSG(err.code == JET_ERR_MEMORY, "file budget %ld: %s", n,
                          jet_code_name(err.code));
            }
            CHECK_MSG(c.live_blocks == 0, "file budget %ld: leaked %zu blocks", n, c.live_blocks);
        }
        CHECK_MSG(file_ok, "jet_read_file never succeeded (%s)", path);
        /* a file larger than the first 64 KiB read buffer: growing the
         * buffer can fail too, and that is JET_ERR_MEMORY, not JET_ERR_IO */
        snprintf(path, sizeof path, "%s/corpora/twitter.json", check_shared_dir());
        file_ok = false;
        for (long n = 0; n <= 64 && !file_ok; n++) {
            counter c;
            jet_alloc a = counting_alloc(&c, n);
            memset(&err, 0, sizeof err);
            jet_doc *d = jet_read_file(path, NULL, &a, &err);
            if (d) {
                file_ok = true;
                jet_doc_free(d);
            } else {
                CHECK_MSG(err.code == JET_ERR_MEMORY, "file budget %ld: %s (%s)", n,
                          jet_code_name(err.code), err.msg ? err.msg : "");
            }
            CHECK_MSG(c.live_blocks == 0, "file budget %ld: leaked %zu blocks", n, c.live_blocks);
        }
        CHECK_MSG(file_ok, "jet_read_file never succeeded (%s)", path);
    }
    free(big);
}

/* ---- files and arguments ---------------------------------------------------- */

static void test_files_and_args(void) {
    char path[4096];
    snprintf(path, sizeof path, "%s/corpora/github_events.json", check_shared_dir());
    size_t len = 0;
    char *text = check_read_file(path, &len);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    jet_error err;
    jet_doc *f = jet_read_file(path, NULL, NULL, &err);
    CHECK_MSG(f != NULL, "jet_read_file: %s", f ? "" : err.msg);
    if (text && f) {
        jet_doc *m = jet_read(text, len, NULL, NULL, &err);
        CHECK(m != NULL && jet_val_equal(jet_doc_root(f), jet_doc_root(m)));
        CHECK(jet_doc_read_size(f) == len);
        jet_doc_free(m);
    }
    jet_doc_free(f);
    free(text);
    memset(&err, 0, sizeof err);
    CHECK(jet_read_file("/nonexistent/dir/none.json", NULL, NULL, &err) == NULL &&
          err.code == JET_ERR_IO);
    CHECK(jet_read_file(NULL, NULL, NULL, &err) == NULL && err.code == JET_ERR_INVALID_ARG);
    /* an empty file holds no value; a directory cannot be read */
    memset(&err, 0, sizeof err);
    CHECK(jet_read_file("/dev/null", NULL, NULL, &err) == NULL && err.code == JET_ERR_EMPTY);
    memset(&err, 0, sizeof err);
    CHECK_MSG(jet_read_file(check_shared_dir(), NULL, NULL, &err) == NULL &&
                  err.code == JET_ERR_IO,
              "directory: %s", jet_code_name(err.code));
    /* NULL input with a length is an argument error; NULL with 0 is empty */
    memset(&err, 0, sizeof err);
    CHECK(jet_read(NULL, 5, NULL, NULL, &err) == NULL && err.code == JET_ERR_INVALID_ARG &&
          err.msg != NULL);
    CHECK(jet_read(NULL, 0, NULL, NULL, &err) == NULL && err.code == JET_ERR_EMPTY &&
          err.offset == 0);
}

/* ---- deep equality ------------------------------------------------------------ */

static void expect_equal(const char *a, const char *b, jet_read_flags flags, bool want, int line) {
    jet_doc *da = ok_doc(a, strlen(a), flags, line);
    jet_doc *db = ok_doc(b, strlen(b), flags, line);
    if (da && db) {
        CHECK_MSG(jet_val_equal(jet_doc_root(da), jet_doc_root(db)) == want,
                  "line %d: [%s] vs [%s] want %s", line, a, b, want ? "equal" : "different");
        CHECK_MSG(jet_val_equal(jet_doc_root(db), jet_doc_root(da)) == want,
                  "line %d: not symmetric", line);
        CHECK(jet_val_equal(jet_doc_root(da), jet_doc_root(da)));
    }
    jet_doc_free(da);
    jet_doc_free(db);
}
#define EQUAL(a, b) expect_equal((a), (b), 0, true, __LINE__)
#define DIFFERENT(a, b) expect_equal((a), (b), 0, false, __LINE__)

static void test_equal(void) {
    EQUAL("null", " null ");
    EQUAL("[1, 2, {\"a\" : [true, false]}]", "[1,2,{\"a\":[true,false]}]");
    EQUAL("\"abc\"", "\"\\u0061b\\u0063\"");
    EQUAL("{\"\\n\":\"\\/\"}", "{\"\\u000a\":\"/\"}");
    EQUAL("\"\\ud83d\\ude00\"", "\"\xF0\x9F\x98\x80\"");
    EQUAL("1.5", "15e-1");
    EQUAL("100", "100");
    EQUAL("[]", "[ ]");
    EQUAL("{}", "{ }");
    EQUAL("\"a\\u0000b\"", "\"a\\u0000b\"");
    DIFFERENT("\"a\\u0000b\"", "\"a\\u0000c\"");
    DIFFERENT("\"ab\"", "\"abc\"");
    DIFFERENT("\"\"", "null");
    DIFFERENT("0", "0.0");
    DIFFERENT("0.0", "-0.0");
    DIFFERENT("-0", "0");
    DIFFERENT("1", "-1");
    DIFFERENT("1", "1.0");
    DIFFERENT("true", "false");
    DIFFERENT("null", "false");
    DIFFERENT("[1,2]", "[2,1]");
    DIFFERENT("[1,2]", "[1,2,3]");
    DIFFERENT("[[1],2]", "[[1,2]]");
    DIFFERENT("[]", "{}");
    DIFFERENT("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}");
    DIFFERENT("{\"a\":1}", "{\"b\":1}");
    DIFFERENT("{\"a\":1}", "{\"a\":2}");
    DIFFERENT("{\"a\":[]}", "{\"a\":{}}");
    DIFFERENT("\"1\"", "1");
    expect_equal("[NaN]", "[NaN]", NI_, true, __LINE__);
    expect_equal("Infinity", "-Infinity", NI_, false, __LINE__);
    expect_equal("18446744073709551616", "18446744073709551616", JET_READ_BIGNUM_AS_RAW, true,
                 __LINE__);
    expect_equal("18446744073709551616", "18446744073709551617", JET_READ_BIGNUM_AS_RAW, false,
                 __LINE__);
    CHECK(jet_val_equal(NULL, NULL));
    /* subtrees of different documents, and NULL against a value */
    jet_doc *a = OK_DOC("{\"x\":[1,{\"y\":\"z\"}],\"w\":0}", 0);
    jet_doc *b = OK_DOC("[[1,{\"y\":\"z\"}], 0]", 0);
    if (a && b) {
        jet_val *ra = jet_doc_root(a), *rb = jet_doc_root(b);
        CHECK(jet_val_equal(jet_obj_get(ra, "x"), jet_arr_get(rb, 0)));
        CHECK(jet_val_equal(jet_obj_get(ra, "w"), jet_arr_get(rb, 1)));
        CHECK(!jet_val_equal(ra, rb));
        CHECK(!jet_val_equal(ra, NULL) && !jet_val_equal(NULL, rb));
    }
    jet_doc_free(a);
    jet_doc_free(b);
}

int main(void) {
    find_kernels();
    const char *initial = jet_kernel_name();
    for (size_t k = 0; k < n_kernels; k++) {
        use_kernel(kernels[k]);
        test_literals();
        test_numbers();
        test_strings();
        test_arrays();
        test_objects();
        test_error_table();
        test_limits();
        test_flags();
        test_prefixes();
        test_input_untouched();
        test_parser_reuse();
        test_alloc_balance();
        test_alloc_failures();
        test_equal();
    }
    use_kernel(initial);
    test_files_and_args();
    /* the index route accepted every document the one-pass reader did */
    CHECK_MSG(jet__index_rereads() == 0, "%zu documents re-read after the index route rejected them",
              jet__index_rereads());
    return CHECK_DONE("test_reader");
}
