/* test_writer.c — serialization: escapes, ASCII mode, pretty printing,
 * numbers, deep nesting, streams, allocators, and parse→write→parse round
 * trips over every shared corpus. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

/* ---- helpers ---------------------------------------------------------- */

#define TAG(kind, len) ((uint64_t)(kind) | ((uint64_t)(len) << JET_TAG_LEN_SHIFT))

static jet_val mk_str(const char *s, size_t len) {
    jet_val v;
    v.tag = TAG(JET_TYPE_STR, len);
    v.uni.str = s;
    return v;
}
static jet_val mk_real(double d) {
    jet_val v;
    v.tag = TAG(JET_TYPE_NUM | JET_SUBTYPE_REAL, 0);
    v.uni.d = d;
    return v;
}

/* Writes v with flags; checks success; returns the malloc'd text. */
static char *wr(const jet_val *v, jet_write_flags flags, size_t *len) {
    jet_error err;
    memset(&err, 0, sizeof err);
    size_t n = (size_t)-1;
    char *out = jet_val_write(v, flags, NULL, &n, &err);
    CHECK_MSG(out != NULL, "write failed: %s", err.msg ? err.msg : "?");
    if (out) CHECK(strlen(out) <= n && out[n] == '\0');
    if (len) *len = n;
    return out;
}

static void expect_write(const jet_val *v, jet_write_flags flags, const char *want,
                         size_t want_len, int line) {
    size_t n;
    char *out = wr(v, flags, &n);
    if (!out) return;
    CHECK_MSG(n == want_len && memcmp(out, want, n) == 0,
              "line %d: got [%.*s] want [%.*s]", line, (int)n, out, (int)want_len, want);
    free(out);
}
#define EXPECT_WRITE(v, flags, want) expect_write((v), (flags), (want), sizeof(want) - 1, __LINE__)

typedef struct str_holder {
    jet_str s;
} str_holder;
static jet_field str_field[] = {JET_F_STR(str_holder, s, "s")};
static jet_struct str_type = JET_STRUCT(str_holder, str_field);

/* A string holding invalid UTF-8: every writer refuses it in ASCII mode
 * (the data would change) with JET_ERR_UTF8 and writes nothing. */
static void expect_ascii_fails(const jet_val *v, int line) {
    jet_error err;
    memset(&err, 0, sizeof err);
    size_t n = 99;
    char *out = jet_val_write(v, JET_WRITE_ASCII, NULL, &n, &err);
    CHECK_MSG(!out && n == 0 && err.code == JET_ERR_UTF8 && err.msg && strstr(err.msg, "UTF-8"),
              "line %d: jet_val_write in ASCII mode: %s", line, out ? out : "no UTF-8 error");
    free(out);
    char *p = (char *)malloc(JET_PRINT_STR_SIZE(jet_get_len(v)));
    if (!p) return;
    CHECK_MSG(jet_print_str(p, jet_get_str(v), jet_get_len(v), JET_WRITE_ASCII) == 0 && !p[0],
              "line %d: jet_print_str in ASCII mode did not fail", line);
    CHECK_MSG(jet_print_str(p, jet_get_str(v), jet_get_len(v),
                            JET_WRITE_ASCII | JET_WRITE_REPLACE_INVALID_UTF8) > 2,
              "line %d: jet_print_str with the replacement failed", line);
    free(p);
    jet_buf b;
    jet_buf_init(&b, NULL);
    jet_writer w;
    jet_writer_init_buf(&w, &b, JET_WRITE_ASCII);
    CHECK_MSG(jet_writer_arr_begin(&w) && !jet_writer_strn(&w, jet_get_str(v), jet_get_len(v)) &&
                  jet_writer_error(&w)->code == JET_ERR_UTF8,
              "line %d: jet_writer in ASCII mode did not fail", line);
    jet_writer_finish(&w);
    jet_buf_free(&b);
    /* the mutable writer and jet_encode, through the same emitter */
    jet_mut_doc *md = jet_mut_doc_new(NULL);
    if (!md) return;
    jet_mut_doc_set_root(md, jet_mut_strn(md, jet_get_str(v), jet_get_len(v)));
    memset(&err, 0, sizeof err);
    out = jet_mut_doc_write(md, JET_WRITE_ASCII, NULL, &n, &err);
    CHECK_MSG(!out && err.code == JET_ERR_UTF8 && err.msg && strstr(err.msg, "UTF-8"),
              "line %d: jet_mut_doc_write in ASCII mode did not fail", line);
    free(out);
    out = jet_mut_doc_write(md, JET_WRITE_ASCII | JET_WRITE_REPLACE_INVALID_UTF8, NULL, &n, NULL);
    CHECK_MSG(out != NULL, "line %d: jet_mut_doc_write with the replacement failed", line);
    free(out);
    jet_mut_doc_free(md);
    str_holder sv;
    sv.s.ptr = jet_get_str(v);
    sv.s.len = jet_get_len(v);
    jet_buf_init(&b, NULL);
    memset(&err, 0, sizeof err);
    CHECK_MSG(!jet_encode(&b, &str_type, &sv, JET_WRITE_ASCII, &err) && err.code == JET_ERR_UTF8,
              "line %d: jet_encode in ASCII mode did not fail", line);
    b.len = 0;
    CHECK_MSG(jet_encode(&b, &str_type, &sv, JET_WRITE_ASCII | JET_WRITE_REPLACE_INVALID_UTF8, NULL),
              "line %d: jet_encode with the replacement failed", line);
    jet_buf_free(&b);
}

static jet_doc *parse(const char *s, size_t len, jet_read_flags rf, uint32_t depth) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = rf;
    o.max_depth = depth;
    jet_error err;
    jet_doc *d = jet_read(s, len, &o, NULL, &err);
    CHECK_MSG(d != NULL, "parse failed: %s at %zu", d ? "" : err.msg, d ? (size_t)0 : err.offset);
    return d;
}

/* Parse `json`, write with flags, compare. */
static void expect_rewrite(const char *json, jet_read_flags rf, jet_write_flags wf,
                           const char *want, int line) {
    jet_doc *d = parse(json, strlen(json), rf, 0);
    if (!d) return;
    size_t n;
    char *out = jet_doc_write(d, wf, NULL, &n, NULL);
    CHECK_MSG(out && n == strlen(want) && memcmp(out, want, n) == 0,
              "line %d: got [%s] want [%s]", line, out ? out : "(null)", want);
    free(out);
    jet_doc_free(d);
}
#define EXPECT_REWRITE(json, rf, wf, want) expect_rewrite((json), (rf), (wf), (want), __LINE__)

/* ---- a straightforward reference escaper (byte at a time) -------------- */

static size_t ref_u(char *o, unsigned cp) {
    static const char hx[] = "0123456789abcdef";
    o[0] = '\\';
    o[1] = 'u';
    o[2] = hx[(cp >> 12) & 15];
    o[3] = hx[(cp >> 8) & 15];
    o[4] = hx[(cp >> 4) & 15];
    o[5] = hx[cp & 15];
    return 6;
}

/* Length of a valid UTF-8 sequence at s (WTF-8 surrogates allowed), or 0. */
static size_t ref_seq(const unsigned char *s, size_t avail, unsigned *cp) {
    unsigned c = s[0];
    size_t n;
    unsigned v, min;
    if (c < 0x80) { *cp = c; return 1; }
    if (c < 0xC0) return 0;
    if (c < 0xE0) { n = 2; v = c & 0x1F; min = 0x80; }
    else if (c < 0xF0) { n = 3; v = c & 0x0F; min = 0x800; }
    else if (c < 0xF5) { n = 4; v = c & 0x07; min = 0x10000; }
    else return 0;
    if (avail < n) return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF) return 0;
    *cp = v;
    return n;
}

/* *bad counts the invalid bytes that ASCII mode replaces with \ufffd. */
static size_t ref_escape(const char *s, size_t len, bool ascii, bool slash, char *o,
                         size_t *bad) {
    size_t k = 0;
    *bad = 0;
    o[k++] = '"';
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || (slash && c == '/')) {
            o[k++] = '\\';
            o[k++] = (char)c;
            i++;
        } else if (c < 0x20) {
            const char *named = c == '\b' ? "b" : c == '\f' ? "f" : c == '\n' ? "n"
                              : c == '\r' ? "r" : c == '\t' ? "t" : NULL;
            if (named) {
                o[k++] = '\\';
                o[k++] = named[0];
            } else {
                k += ref_u(o + k, c);
            }
            i++;
        } else if (c >= 0x80 && ascii) {
            unsigned cp;
            size_t n = ref_seq((const unsigned char *)s + i, len - i, &cp);
            if (!n) {
                k += ref_u(o + k, 0xFFFD);
                ++*bad;
                i++;
            } else if (cp >= 0x10000) {
                cp -= 0x10000;
                k += ref_u(o + k, 0xD800 + (cp >> 10));
                k += ref_u(o + k, 0xDC00 + (cp & 0x3FF));
                i += n;
            } else {
                k += ref_u(o + k, cp);
                i += n;
            }
        } else {
            o[k++] = (char)c;
            i++;
        }
    }
    o[k++] = '"';
    return k;
}

/* ---- tests --------------------------------------------------------------- */

static void test_scalars(void) {
    jet_val v;
    v.tag = TAG(JET_TYPE_NULL, 0);
    EXPECT_WRITE(&v, 0, "null");
    v.tag = TAG(JET_TYPE_BOOL | JET_SUBTYPE_TRUE, 0);
    EXPECT_WRITE(&v, 0, "true");
    v.tag = TAG(JET_TYPE_BOOL | JET_SUBTYPE_FALSE, 0);
    EXPECT_WRITE(&v, JET_WRITE_PRETTY, "false");
    v.tag = TAG(JET_TYPE_NUM | JET_SUBTYPE_UINT, 0);
    v.uni.u = UINT64_MAX;
    EXPECT_WRITE(&v, 0, "18446744073709551615");
    v.uni.u = 0;
    EXPECT_WRITE(&v, 0, "0");
    v.tag = TAG(JET_TYPE_NUM | JET_SUBTYPE_SINT, 0);
    v.uni.i = INT64_MIN;
    EXPECT_WRITE(&v, 0, "-9223372036854775808");
    v.uni.i = -1;
    EXPECT_WRITE(&v, 0, "-1");
    v = mk_real(-0.0);
    EXPECT_WRITE(&v, 0, "-0.0");
    v = mk_real(0.0);
    EXPECT_WRITE(&v, 0, "0.0");
    v = mk_real(1.5);
    EXPECT_WRITE(&v, 0, "1.5");
    v = mk_real(0.1);
    EXPECT_WRITE(&v, 0, "0.1");
    v = mk_real(5e-324);
    EXPECT_WRITE(&v, 0, "5e-324");
    v.tag = TAG(JET_TYPE_RAW, 25);
    v.uni.str = "123456789012345678901e999";
    EXPECT_WRITE(&v, 0, "123456789012345678901e999");
    v.tag = TAG(JET_TYPE_NULL, 0);
    EXPECT_WRITE(&v, JET_WRITE_NEWLINE_AT_END, "null\n");
    EXPECT_WRITE(&v, JET_WRITE_NEWLINE_AT_END | JET_WRITE_PRETTY_2, "null\n");
}

static void test_nan_inf(void) {
    double vals[3] = {NAN, INFINITY, -INFINITY};
    const char *want[3] = {"NaN", "Infinity", "-Infinity"};
    for (int i = 0; i < 3; i++) {
        jet_val v = mk_real(vals[i]);
        jet_error err;
        memset(&err, 0, sizeof err);
        size_t n = 99;
        char *out = jet_val_write(&v, 0, NULL, &n, &err);
        CHECK(out == NULL);
        CHECK(err.code == JET_ERR_NAN_INF);
        CHECK(err.msg != NULL);
        CHECK(n == 0);
        out = jet_val_write(&v, JET_WRITE_ALLOW_NAN_INF, NULL, &n, &err);
        CHECK(out && strcmp(out, want[i]) == 0);
        free(out);
    }
    /* NaN deep inside a container: still an error, no leak (ASan). */
    jet_val arr[4];
    arr[0].tag = TAG(JET_TYPE_ARR, 3);
    arr[0].uni.ofs = 4;
    arr[1] = mk_real(1.0);
    arr[2] = mk_real(2.0);
    arr[3] = mk_real(NAN);
    jet_error err;
    CHECK(jet_val_write(arr, 0, NULL, NULL, &err) == NULL && err.code == JET_ERR_NAN_INF);
    EXPECT_WRITE(arr, JET_WRITE_ALLOW_NAN_INF, "[1.0,2.0,NaN]");
    /* parsed NaN/Infinity */
    EXPECT_REWRITE("[NaN,-Infinity,Infinity]", JET_READ_ALLOW_NAN_INF, JET_WRITE_ALLOW_NAN_INF,
                   "[NaN,-Infinity,Infinity]");
}

static void test_escapes(void) {
    char all[32 + 5];
    for (int i = 0; i < 32; i++) all[i] = (char)i;
    all[32] = '"';
    all[33] = '\\';
    all[34] = '/';
    all[35] = 0x7F;
    all[36] = 'x';
    jet_val v = mk_str(all, sizeof all);
    EXPECT_WRITE(&v, 0,
                 "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n"
                 "\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015"
                 "\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
                 "\\\"\\\\/\x7fx\"");
    EXPECT_WRITE(&v, JET_WRITE_ESCAPE_SLASHES,
                 "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n"
                 "\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015"
                 "\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
                 "\\\"\\\\\\/\x7fx\"");
    v = mk_str("", 0);
    EXPECT_WRITE(&v, 0, "\"\"");
    v = mk_str("a/b", 3);
    EXPECT_WRITE(&v, 0, "\"a/b\"");
    EXPECT_WRITE(&v, JET_WRITE_ESCAPE_SLASHES, "\"a\\/b\"");
    /* UTF-8 passes through by default */
    v = mk_str("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14);
    EXPECT_WRITE(&v, 0, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    /* ASCII mode */
    EXPECT_WRITE(&v, JET_WRITE_ASCII, "\"caf\\u00e9 \\u20ac \\ud83d\\ude00\"");
    v = mk_str("\xf4\x8f\xbf\xbf\xef\xbf\xbf\xc2\x80", 9);
    EXPECT_WRITE(&v, JET_WRITE_ASCII, "\"\\udbff\\udfff\\uffff\\u0080\"");
    /* Invalid UTF-8: through as-is by default; in ASCII mode an error, or
     * \ufffd per bad byte when asked (JET_WRITE_REPLACE_INVALID_UTF8) */
#define ASCII_REPLACE (JET_WRITE_ASCII | JET_WRITE_REPLACE_INVALID_UTF8)
    v = mk_str("a\xff" "b\xc0\x80" "c\xe2\x82" "d\xed\xa0\x80" "e\xf5", 14);
    EXPECT_WRITE(&v, 0, "\"a\xff" "b\xc0\x80" "c\xe2\x82" "d\xed\xa0\x80" "e\xf5\"");
    EXPECT_WRITE(&v, JET_WRITE_REPLACE_INVALID_UTF8,
                 "\"a\xff" "b\xc0\x80" "c\xe2\x82" "d\xed\xa0\x80" "e\xf5\"");
    EXPECT_WRITE(&v, ASCII_REPLACE,
                 "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffdd\\ud800e\\ufffd\"");
    expect_ascii_fails(&v, __LINE__);
    /* truncated sequence at the very end, and overlong / out-of-range */
    v = mk_str("\xf0\x9f\x98", 3);
    EXPECT_WRITE(&v, ASCII_REPLACE, "\"\\ufffd\\ufffd\\ufffd\"");
    expect_ascii_fails(&v, __LINE__);
    v = mk_str("\xe0\x80\x80\xf0\x80\x80\x80\xf4\x90\x80\x80", 11);
    EXPECT_WRITE(&v, ASCII_REPLACE,
                 "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
    expect_ascii_fails(&v, __LINE__);
    /* a lone surrogate's WTF-8 form is not invalid here: its escape */
    v = mk_str("\xed\xb2\x80", 3);
    EXPECT_WRITE(&v, JET_WRITE_ASCII, "\"\\udc80\"");
    /* NOESC strings (read without backslash escapes) take a copy path in
     * the default mode, but still honour ASCII and '/' escaping */
    v = mk_str("a/\xc3\xa9", 4);
    v.tag |= JET_TAG_STR_NOESC;
    EXPECT_WRITE(&v, 0, "\"a/\xc3\xa9\"");
    EXPECT_WRITE(&v, JET_WRITE_ESCAPE_SLASHES, "\"a\\/\xc3\xa9\"");
    EXPECT_WRITE(&v, JET_WRITE_ASCII, "\"a/\\u00e9\"");
    EXPECT_REWRITE("{\"a/\xc3\xa9\":\"b/\"}", 0, JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES,
                   "{\"a\\/\\u00e9\":\"b\\/\"}");
    /* Parsed escapes round-trip through the reader */
    EXPECT_REWRITE("\"\\u00e9\\ud83d\\ude00\\/\\b\"", 0, JET_WRITE_ASCII,
                   "\"\\u00e9\\ud83d\\ude00/\\b\"");
    EXPECT_REWRITE("\"\\ud800x\"", JET_READ_ALLOW_INVALID_UTF8, JET_WRITE_ASCII, "\"\\ud800x\"");
    /* Embedded NUL in keys and values */
    EXPECT_REWRITE("{\"a\\u0000b\":\"\\u0000\"}", 0, 0, "{\"a\\u0000b\":\"\\u0000\"}");
}

/* Random strings at every length/alignment against the reference escaper:
 * exercises the 8-byte scan, its tail, and the chunked long-string path. */
static void test_escape_random(void) {
    static const char alphabet[] = "abcxyz \"\\/\n\t\x01\x1f\x7f";
    static const char *multi[] = {"\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xff",
                                  "\xed\xa0\x80", "\xc3"};
    uint32_t seed = 12345;
    size_t cap = 20000;
    char *s = malloc(cap);
    char *ref = malloc(cap * 6 + 8);
    unsigned fails = 0;
    for (int iter = 0; iter < 600; iter++) {
        size_t len = 0;
        size_t target = iter < 500 ? (size_t)(iter % 70) : (size_t)(4000 + (iter - 500) * 97);
        int mode = iter % 4; /* 0: clean ASCII, 1: mixed, 2: mostly UTF-8, 3: escapes */
        while (len < target) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = (seed >> 16) & 0x7FFF;
            if (mode == 0 || (mode == 1 && r % 8)) {
                s[len++] = (char)('a' + r % 26);
            } else if (mode == 2 && r % 3) {
                const char *m = multi[r % 6];
                size_t ml = strlen(m);
                if (len + ml > target) break;
                memcpy(s + len, m, ml);
                len += ml;
            } else {
                s[len++] = alphabet[r % (sizeof alphabet - 1)];
            }
        }
        jet_val v = mk_str(s, len);
        for (int f = 0; f < 4; f++) {
            bool ascii = f & 2, slash = f & 1;
            jet_write_flags wf = (ascii ? JET_WRITE_ASCII : 0) |
                                 (slash ? JET_WRITE_ESCAPE_SLASHES : 0);
            size_t bad;
            size_t rn = ref_escape(s, len, ascii, slash, ref, &bad);
            size_t n;
            char *out = jet_val_write(&v, wf | JET_WRITE_REPLACE_INVALID_UTF8, NULL, &n, NULL);
            bool ok = out && n == rn && memcmp(out, ref, n) == 0;
            if (!ok && fails++ < 5)
                fprintf(stderr, "escape mismatch iter %d flags %d len %zu\n", iter, f, len);
            CHECK(ok);
            free(out);
            /* without the replacement, invalid UTF-8 fails ASCII mode */
            jet_error err;
            memset(&err, 0, sizeof err);
            out = jet_val_write(&v, wf, NULL, &n, &err);
            ok = bad ? !out && err.code == JET_ERR_UTF8 : out && n == rn && memcmp(out, ref, n) == 0;
            if (!ok && fails++ < 5)
                fprintf(stderr, "no-replace mismatch iter %d flags %d len %zu\n", iter, f, len);
            CHECK(ok);
            free(out);
        }
    }
    free(s);
    free(ref);
}

static void test_pretty(void) {
    const char *json = "{\"a\":[1,-2,{}],\"b\":{\"c\":null,\"d\":[]},\"e\":\"s\",\"f\":[[true]]}";
    EXPECT_REWRITE(json, 0, 0, json);
    EXPECT_REWRITE(json, 0, JET_WRITE_PRETTY_2,
                   "{\n"
                   "  \"a\": [\n"
                   "    1,\n"
                   "    -2,\n"
                   "    {}\n"
                   "  ],\n"
                   "  \"b\": {\n"
                   "    \"c\": null,\n"
                   "    \"d\": []\n"
                   "  },\n"
                   "  \"e\": \"s\",\n"
                   "  \"f\": [\n"
                   "    [\n"
                   "      true\n"
                   "    ]\n"
                   "  ]\n"
                   "}");
    EXPECT_REWRITE("[1,[2.5,{\"k\":false}]]", 0, JET_WRITE_PRETTY,
                   "[\n"
                   "    1,\n"
                   "    [\n"
                   "        2.5,\n"
                   "        {\n"
                   "            \"k\": false\n"
                   "        }\n"
                   "    ]\n"
                   "]");
    EXPECT_REWRITE("[]", 0, JET_WRITE_PRETTY, "[]");
    EXPECT_REWRITE("{}", 0, JET_WRITE_PRETTY | JET_WRITE_NEWLINE_AT_END, "{}\n");
    EXPECT_REWRITE("[{}]", 0, JET_WRITE_INDENT(1), "[\n {}\n]");
    EXPECT_REWRITE("{\"x\":[]}", 0, JET_WRITE_INDENT(15),
                   "{\n               \"x\": []\n}");
    EXPECT_REWRITE(" [ 1 , 2 ] ", 0, JET_WRITE_PRETTY_2 | JET_WRITE_NEWLINE_AT_END,
                   "[\n  1,\n  2\n]\n");
    /* writing a sub-value */
    jet_doc *d = parse(json, strlen(json), 0, 0);
    if (d) {
        jet_val *b = jet_obj_get(jet_doc_root(d), "b");
        EXPECT_WRITE(b, 0, "{\"c\":null,\"d\":[]}");
        jet_val *a = jet_obj_get(jet_doc_root(d), "a");
        EXPECT_WRITE(jet_arr_get(a, 2), 0, "{}");
        jet_doc_free(d);
    }
}

static void test_deep(void) {
    const size_t depth = 100000;
    char *s = malloc(depth * 2 + 1);
    for (size_t i = 0; i < depth; i++) {
        s[i] = '[';
        s[depth * 2 - 1 - i] = ']';
    }
    s[depth * 2] = 0;
    jet_doc *d = parse(s, depth * 2, 0, (uint32_t)depth + 1);
    if (d) {
        size_t n;
        char *out = jet_doc_write(d, 0, NULL, &n, NULL);
        CHECK(out && n == depth * 2 && memcmp(out, s, n) == 0);
        free(out);
        jet_doc_free(d);
    }
    /* deep objects, pretty printed (moderate depth: output is quadratic) */
    size_t od = 3000, k = 0;
    char *o = malloc(od * 6 + 8);
    for (size_t i = 0; i < od; i++) {
        memcpy(o + k, "{\"a\":", 5);
        k += 5;
    }
    o[k++] = '1';
    for (size_t i = 0; i < od; i++) o[k++] = '}';
    d = parse(o, k, 0, (uint32_t)od + 1);
    if (d) {
        size_t n;
        char *out = jet_doc_write(d, 0, NULL, &n, NULL);
        CHECK(out && n == k && memcmp(out, o, n) == 0);
        free(out);
        out = jet_doc_write(d, JET_WRITE_PRETTY_2, NULL, &n, NULL);
        CHECK(out != NULL);
        if (out) {
            jet_doc *d2 = parse(out, n, 0, (uint32_t)od + 1);
            CHECK(d2 && jet_val_equal(jet_doc_root(d), jet_doc_root(d2)));
            /* the innermost line */
            CHECK(n > od * 2 && memchr(out, '1', n) != NULL);
            /* every line indented by 2 per level: levels 0..od down, then
             * od-1..0 for the closing braces (indents past 256 spaces too) */
            size_t line = 0, bad = 0;
            for (const char *p = out, *end = out + n; p < end; line++) {
                size_t level = line <= od ? line : 2 * od - line, sp = 0;
                while (p + sp < end && p[sp] == ' ') sp++;
                if (sp != 2 * level) bad++;
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                p = nl ? nl + 1 : end;
            }
            CHECK_MSG(bad == 0 && line == 2 * od + 1, "%zu lines of %zu badly indented", bad, line);
            jet_doc_free(d2);
        }
        free(out);
        jet_doc_free(d);
    }
    free(o);
    free(s);
}

/* Counting allocator (balance check) and one that fails after N calls. */
typedef struct counting {
    long live;
    long calls;
    long fail_after; /* < 0: never */
} counting;
static void *c_malloc(void *ctx, size_t n) {
    counting *c = ctx;
    if (c->fail_after >= 0 && c->calls >= c->fail_after) return NULL;
    c->calls++;
    void *p = malloc(n);
    if (p) c->live++;
    return p;
}
static void *c_realloc(void *ctx, void *p, size_t old, size_t n) {
    counting *c = ctx;
    (void)old;
    if (c->fail_after >= 0 && c->calls >= c->fail_after) return NULL;
    c->calls++;
    return realloc(p, n);
}
static void c_free(void *ctx, void *p) {
    counting *c = ctx;
    if (p) c->live--;
    free(p);
}

static void test_alloc(void) {
    size_t len;
    char *json = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/corpora/twitter.json", check_shared_dir());
    json = check_read_file(path, &len);
    if (!json) {
        static const char small[] =
            "[\"x\",[1,2,[3,[4,[5]]]],{\"a\":\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"}]";
        len = sizeof small - 1;
        json = malloc(len + 1);
        memcpy(json, small, len + 1);
    }
    jet_doc *d = parse(json, len, 0, 0);
    if (d) {
        counting c = {0, 0, -1};
        jet_alloc a = {c_malloc, c_realloc, c_free, &c};
        size_t n1, n2;
        char *ref = jet_doc_write(d, JET_WRITE_PRETTY, NULL, &n1, NULL);
        char *out = jet_doc_write(d, JET_WRITE_PRETTY, &a, &n2, NULL);
        CHECK(ref && out && n1 == n2 && memcmp(ref, out, n1) == 0);
        CHECK(c.live == 1);
        a.free(a.ctx, out);
        CHECK(c.live == 0);
        long total = c.calls;
        CHECK(total >= 1);
        /* fail at every allocation step: clean error, nothing leaked */
        for (long k = 0; k < total; k++) {
            counting f = {0, 0, k};
            jet_alloc fa = {c_malloc, c_realloc, c_free, &f};
            jet_error err;
            memset(&err, 0, sizeof err);
            char *o = jet_doc_write(d, JET_WRITE_PRETTY, &fa, NULL, &err);
            CHECK(o == NULL && err.code == JET_ERR_MEMORY && f.live == 0);
        }
        free(ref);
        jet_doc_free(d);
    }
    free(json);
}

static void test_streams(void) {
    const char *json = "{\"k\":[1,2.5,\"\\u00e9\",null],\"big\":\"";
    size_t big = 200000; /* more than the stream buffer */
    size_t jl = strlen(json);
    char *s = malloc(jl + big + 3);
    memcpy(s, json, jl);
    for (size_t i = 0; i < big; i++) s[jl + i] = (char)('a' + i % 26);
    memcpy(s + jl + big, "\"}", 3);
    jet_doc *d = parse(s, jl + big + 2, 0, 0);
    if (!d) {
        free(s);
        return;
    }
    jet_write_flags flagsets[3] = {0, JET_WRITE_PRETTY_2 | JET_WRITE_NEWLINE_AT_END,
                                   JET_WRITE_ASCII};
    for (int i = 0; i < 3; i++) {
        size_t n;
        char *mem = jet_doc_write(d, flagsets[i], NULL, &n, NULL);
        FILE *f = tmpfile();
        CHECK(f != NULL);
        if (!f || !mem) {
            free(mem);
            continue;
        }
        jet_error err;
        CHECK(jet_val_write_fp(f, jet_doc_root(d), flagsets[i], NULL, &err));
        long sz = ftell(f);
        CHECK(sz == (long)n);
        rewind(f);
        char *back = malloc(n + 1);
        CHECK(fread(back, 1, n, f) == n && memcmp(back, mem, n) == 0);
        free(back);
        fclose(f);
        free(mem);
    }
    /* write_file */
    char path[64];
    snprintf(path, sizeof path, "/tmp/jet_test_writer_%ld.json", (long)rand());
    jet_error err;
    CHECK(jet_val_write_file(path, jet_doc_root(d), JET_WRITE_NEWLINE_AT_END, NULL, &err));
    jet_doc *d2 = jet_read_file(path, NULL, NULL, &err);
    CHECK(d2 && jet_val_equal(jet_doc_root(d), jet_doc_root(d2)));
    jet_doc_free(d2);
    remove(path);
    CHECK(!jet_val_write_file("/nonexistent-dir/x/y.json", jet_doc_root(d), 0, NULL, &err));
    CHECK(err.code == JET_ERR_IO);
    jet_doc_free(d);
    free(s);
}

static void test_args(void) {
    jet_error err;
    size_t n = 7;
    CHECK(jet_val_write(NULL, 0, NULL, &n, &err) == NULL && err.code == JET_ERR_INVALID_ARG);
    CHECK(n == 0);
    CHECK(jet_doc_write(NULL, 0, NULL, NULL, &err) == NULL && err.code == JET_ERR_INVALID_ARG);
    CHECK(jet_val_write(NULL, 0, NULL, NULL, NULL) == NULL);
    jet_val v;
    v.tag = TAG(JET_TYPE_NULL, 0);
    CHECK(!jet_val_write_fp(NULL, &v, 0, NULL, &err) && err.code == JET_ERR_INVALID_ARG);
    CHECK(!jet_val_write_file(NULL, &v, 0, NULL, &err) && err.code == JET_ERR_INVALID_ARG);
    v.tag = 0; /* JET_TYPE_NONE inside a tree */
    CHECK(jet_val_write(&v, 0, NULL, NULL, &err) == NULL && err.code == JET_ERR_INVALID_ARG);
    /* out_len may be NULL */
    v.tag = TAG(JET_TYPE_NULL, 0);
    char *o = jet_val_write(&v, 0, NULL, NULL, NULL);
    CHECK(o && strcmp(o, "null") == 0);
    free(o);
}

/* parse → write → parse must be equal; the second write byte-identical. */
static void roundtrip(const char *name, const char *json, size_t len, jet_read_flags rf) {
    jet_doc *d = parse(json, len, rf, 0);
    if (!d) {
        CHECK_MSG(0, "%s: parse failed", name);
        return;
    }
    static const jet_write_flags fl[] = {0, JET_WRITE_PRETTY_2, JET_WRITE_PRETTY,
                                         JET_WRITE_ASCII, JET_WRITE_ESCAPE_SLASHES,
                                         JET_WRITE_ASCII | JET_WRITE_INDENT(3) |
                                             JET_WRITE_NEWLINE_AT_END};
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++) {
        size_t n1 = 0, n2 = 0;
        char *w1 = jet_doc_write(d, fl[i], NULL, &n1, NULL);
        CHECK_MSG(w1 != NULL, "%s: write failed (flags %x)", name, (unsigned)fl[i]);
        if (!w1) continue;
        jet_doc *d2 = parse(w1, n1, rf, 0);
        CHECK_MSG(d2 && jet_val_equal(jet_doc_root(d), jet_doc_root(d2)),
                  "%s: reparse differs (flags %x)", name, (unsigned)fl[i]);
        if (d2) {
            char *w2 = jet_doc_write(d2, fl[i], NULL, &n2, NULL);
            CHECK_MSG(w2 && n1 == n2 && memcmp(w1, w2, n1) == 0,
                      "%s: second write differs (flags %x)", name, (unsigned)fl[i]);
            free(w2);
        }
        /* jet_val_write of the root gives the same bytes as jet_doc_write */
        size_t n3 = 0;
        char *w3 = jet_val_write(jet_doc_root(d), fl[i], NULL, &n3, NULL);
        CHECK(w3 && n3 == n1 && memcmp(w1, w3, n1) == 0);
        free(w3);
        if (fl[i] & JET_WRITE_ASCII) {
            bool ascii = true;
            for (size_t k = 0; k < n1; k++)
                if ((unsigned char)w1[k] >= 0x80) ascii = false;
            CHECK_MSG(ascii, "%s: non-ASCII byte in ASCII output", name);
        }
        if (fl[i] == 0) {
            /* minified: no whitespace outside strings */
            bool in = false, esc = false, ws = false;
            for (size_t k = 0; k < n1; k++) {
                char c = w1[k];
                if (in) {
                    if (esc) esc = false;
                    else if (c == '\\') esc = true;
                    else if (c == '"') in = false;
                } else if (c == '"') {
                    in = true;
                } else if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
                    ws = true;
                }
            }
            CHECK_MSG(!ws, "%s: whitespace in minified output", name);
        }
        jet_doc_free(d2);
        free(w1);
    }
    jet_doc_free(d);
}

static void test_corpora(void) {
    static const char *files[] = {"twitter.json", "citm_catalog.json", "canada.json",
                                  "github_events.json"};
    char path[1024];
    int found = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), files[i]);
        size_t len;
        char *json = check_read_file(path, &len);
        if (!json) {
            fprintf(stderr, "test_writer: %s missing, skipped\n", path);
            continue;
        }
        found++;
        roundtrip(files[i], json, len, 0);
        roundtrip(files[i], json, len, JET_READ_NUMBER_AS_RAW);
        free(json);
    }
    /* NDJSON: one document per line */
    snprintf(path, sizeof path, "%s/corpora/nostr_relay.ndjson", check_shared_dir());
    size_t len;
    char *nd = check_read_file(path, &len);
    if (nd) {
        found++;
        int lines = 0;
        for (char *p = nd, *e = nd + len; p < e;) {
            char *nl = memchr(p, '\n', (size_t)(e - p));
            size_t ll = nl ? (size_t)(nl - p) : (size_t)(e - p);
            if (ll) {
                roundtrip("nostr_relay.ndjson", p, ll, 0);
                lines++;
            }
            p += ll + 1;
        }
        CHECK(lines > 0);
        free(nd);
    }
    CHECK_MSG(found > 0, "no corpora found under %s", check_shared_dir());
}

int main(void) {
    test_scalars();
    test_nan_inf();
    test_escapes();
    test_escape_random();
    test_pretty();
    test_deep();
    test_alloc();
    test_streams();
    test_args();
    test_corpora();
    return CHECK_DONE("test_writer");
}
