/* test_ondemand.c — the on-demand cursor (jet.h section 12): every getter
 * (bool, integers at their range limits, doubles and correctly rounded
 * floats, strings with and without escapes, raw text, null), iteration of
 * arrays and objects (empty ones, early exit from a nested container, skip),
 * jet_od_obj_find in order, out of order and missing, jet_od_obj_get's
 * missing-member error, type errors with offset and JSON Pointer path,
 * out-of-order reads, sticky errors, syntax errors met while reading,
 * JET_READ_VALIDATE_ALL, jet_od_finish, truncated inputs (every prefix, in
 * exactly sized buffers), cursor reuse and allocation-free restarts, every
 * stage-1 kernel giving the same results, agreement with the DOM on the
 * corpora, and the twitter.json checksum (as in jet-bench) through the
 * cursor equal to the DOM's on the file and on a key-shuffled, pretty-printed
 * copy of it. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_sample.h"
#include "check.h"
#include "jet.h"
#include "ondemand.h"
#include "oracle/twitter_stats.h"
#include "shuffle.h"

/* A string literal as (pointer, length), so that embedded NULs count. */
#define LIT(s) (s), (sizeof(s) - 1)

/* ---- helpers ------------------------------------------------------------ */

static jet_od *od;      /* the cursor every test shares (reuse is part of it) */
static const char *cur; /* the current document, in a buffer of exactly its size */
static size_t cur_len;
static char *cur_copy;  /* what begin_n allocated for it (freed by the next call) */

static jet_read_opts mkopts(jet_read_flags flags) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    return o;
}

/* Starts `od` on an exact-size copy of the text (kept until the next call). */
static bool begin_n(const char *s, size_t len, jet_read_flags flags, jet_odv *root) {
    free(cur_copy);
    cur = cur_copy = check_dup_exact(s, len);
    cur_len = len;
    jet_read_opts o = mkopts(flags);
    return jet_od_start(od, cur, len, &o, root);
}
/* Starts `od` on text that already sits in a buffer of exactly its size
 * (and stays there until the next start). */
static bool begin_exact(const char *s, size_t len, jet_read_flags flags, jet_odv *root) {
    free(cur_copy);
    cur_copy = NULL;
    cur = s;
    cur_len = len;
    jet_read_opts o = mkopts(flags);
    return jet_od_start(od, cur, len, &o, root);
}
static bool begin(const char *s, jet_odv *root) { return begin_n(s, strlen(s), 0, root); }
static bool begin_f(const char *s, jet_read_flags flags, jet_odv *root) {
    return begin_n(s, strlen(s), flags, root);
}

static const jet_error *oerr(void) { return jet_od_error(od); }
static bool has_err(jet_code c) { return !jet_od_ok(od) && oerr()->code == c; }
static const char *ostr(const char *s) { return s ? s : "(null)"; }
static bool path_is(const char *p) { return oerr()->path && strcmp(oerr()->path, p) == 0; }

#define CHECK_ERR(c)                                                                          \
    CHECK_MSG(has_err(c), "expected %s, got %s at %zu (%s)", jet_code_name(c),                \
              jet_code_name(oerr()->code), oerr()->offset, ostr(oerr()->msg))
#define CHECK_OK()                                                                            \
    CHECK_MSG(jet_od_ok(od), "unexpected %s at %zu: %s (path %s)", jet_code_name(oerr()->code), \
              oerr()->offset, ostr(oerr()->msg), ostr(oerr()->path))
#define CHECK_PATH(p) \
    CHECK_MSG(path_is(p), "path: expected \"%s\", got \"%s\"", (p), ostr(oerr()->path))

/* Line and column (1-based, columns in code points) of byte `off`. */
static void line_col(const char *s, size_t n, size_t off, size_t *line, size_t *col) {
    size_t l = 1, c = 1;
    for (size_t i = 0; i < off && i < n; i++) {
        if (s[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* The error's offset is inside the current document and its line:column
 * matches that offset; the message is set. */
static bool err_position_ok(void) {
    const jet_error *e = oerr();
    if (e->offset > cur_len || !e->msg) return false;
    size_t l, c;
    line_col(cur, cur_len, e->offset, &l, &c);
    return e->line == l && e->column == c;
}
#define CHECK_POS()                                                                     \
    CHECK_MSG(err_position_ok(), "error position %zu (%zu:%zu) inconsistent, msg %s",   \
              oerr()->offset, oerr()->line, oerr()->column, ostr(oerr()->msg))

static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static bool str_is(jet_str s, const char *p, size_t n) {
    return s.len == n && (n == 0 || (s.ptr && memcmp(s.ptr, p, n) == 0));
}
#define STR_IS(s, lit) str_is((s), LIT(lit))

/* ---- canonical text -------------------------------------------------- */

/* A length-prefixed string: exact even with NULs and any bytes. */
static void sb_pstr(sbuf *b, char tag, const char *s, size_t n) {
    unsigned char tmp[1 + sizeof n];
    tmp[0] = (unsigned char)tag;
    memcpy(tmp + 1, &n, sizeof n);
    sb_put(b, tmp, sizeof tmp);
    sb_put(b, s, n);
}
/* A number by its bits (cheaper than printing it; the walks only compare). */
static void sb_num(sbuf *b, double d) {
    unsigned char tmp[9];
    tmp[0] = 'n';
    memcpy(tmp + 1, &d, 8);
    sb_put(b, tmp, sizeof tmp);
}

/* ---- canonical walks: the cursor and the DOM write the same text -------- */

/* Reads everything below `v` with the strict getters. false on any error
 * (or when the walk cannot go on). */
static bool od_emit(jet_odv *v, sbuf *b) {
    switch (jet_odv_type(v)) {
    case JET_TYPE_OBJ: {
        jet_od_iter it;
        if (!jet_odv_obj(v, &it)) return false;
        sb_putc(b, '{');
        jet_str k;
        jet_odv m;
        while (jet_od_obj_next(&it, &k, &m)) {
            sb_pstr(b, 'k', k.ptr, k.len);
            if (!od_emit(&m, b)) return false;
        }
        if (!jet_od_ok(od)) return false;
        sb_putc(b, '}');
        return true;
    }
    case JET_TYPE_ARR: {
        jet_od_iter it;
        if (!jet_odv_arr(v, &it)) return false;
        sb_putc(b, '[');
        jet_odv e;
        while (jet_od_arr_next(&it, &e))
            if (!od_emit(&e, b)) return false;
        if (!jet_od_ok(od)) return false;
        sb_putc(b, ']');
        return true;
    }
    case JET_TYPE_STR: {
        jet_str s;
        if (!jet_odv_get_str(v, &s)) return false;
        sb_pstr(b, 's', s.ptr, s.len);
        return true;
    }
    case JET_TYPE_BOOL: {
        bool x;
        if (!jet_odv_get_bool(v, &x)) return false;
        sb_putc(b, x ? 't' : 'f');
        return true;
    }
    case JET_TYPE_NULL:
        if (!jet_odv_is_null(v)) return false;
        sb_putc(b, 'z');
        return true;
    default: {
        /* numbers, and whatever does not start like a value: the strict
         * number getter must then report an error */
        double d;
        if (!jet_odv_get_double(v, &d)) return false;
        sb_num(b, d);
        return true;
    }
    }
}

static void dom_emit(const jet_val *v, sbuf *b) {
    switch (jet_get_type(v)) {
    case JET_TYPE_OBJ: {
        sb_putc(b, '{');
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; (k = jet_obj_iter_next(&it));) {
            sb_pstr(b, 'k', jet_get_str(k), jet_get_len(k));
            dom_emit(jet_obj_iter_value(k), b);
        }
        sb_putc(b, '}');
        break;
    }
    case JET_TYPE_ARR: {
        sb_putc(b, '[');
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; (e = jet_arr_iter_next(&it));) dom_emit(e, b);
        sb_putc(b, ']');
        break;
    }
    case JET_TYPE_STR: sb_pstr(b, 's', jet_get_str(v), jet_get_len(v)); break;
    case JET_TYPE_BOOL: sb_putc(b, jet_is_true(v) ? 't' : 'f'); break;
    case JET_TYPE_NULL: sb_putc(b, 'z'); break;
    default: sb_num(b, jet_get_num(v)); break;
    }
}

static size_t walk_content_end; /* where od_walk_doc's outcome begins in its buffer */

/* Walks the whole document (`exact`: already in a buffer of its size, else
 * copied into one) through the cursor and finishes it; appends the canonical
 * text, then the outcome (code, offset, line, column, path). */
static bool od_walk_doc_x(const char *json, size_t len, jet_read_flags flags, bool exact,
                          sbuf *b) {
    jet_odv root;
    bool st = exact ? begin_exact(json, len, flags, &root) : begin_n(json, len, flags, &root);
    if (st && od_emit(&root, b)) jet_od_finish(od);
    walk_content_end = b->n;
    if (!jet_od_ok(od) && oerr()->code == JET_OK) sb_puts(b, "<not ok with JET_OK>");
    char tmp[96];
    const jet_error *e = oerr();
    snprintf(tmp, sizeof tmp, "|%s@%zu:%zu:%zu:", jet_code_name(e->code), e->offset, e->line,
             e->column);
    sb_puts(b, tmp);
    if (!jet_od_ok(od)) sb_puts(b, ostr(e->path));
    return jet_od_ok(od);
}
static bool od_walk_doc(const char *json, size_t len, jet_read_flags flags, sbuf *b) {
    return od_walk_doc_x(json, len, flags, false, b);
}

/* The DOM's canonical text, or false when the DOM rejects the text. */
static bool dom_walk_doc(const char *json, size_t len, sbuf *b) {
    jet_doc *d = jet_read(json, len, NULL, NULL, NULL);
    if (!d) return false;
    dom_emit(jet_doc_root(d), b);
    jet_doc_free(d);
    return true;
}

/* The cursor reads the text as the DOM does (both accept; same content). */
static void check_agrees_with_dom(const char *what, const char *json, size_t len, bool exact) {
    sbuf a = {0}, d = {0};
    bool dom_ok = dom_walk_doc(json, len, &d);
    bool od_ok = od_walk_doc_x(json, len, 0, exact, &a);
    CHECK_MSG(dom_ok && od_ok, "%s: DOM %d, cursor %d (%s at %zu: %s)", what, dom_ok, od_ok,
              jet_code_name(oerr()->code), oerr()->offset, ostr(oerr()->msg));
    /* the cursor's text ends with its outcome "|JET_OK@..." */
    size_t an = walk_content_end;
    CHECK_MSG(dom_ok && od_ok && an == d.n && memcmp(a.p, d.p, d.n) == 0,
              "%s: cursor and DOM read different content (%zu vs %zu bytes)", what, an, d.n);
    /* and with JET_READ_VALIDATE_ALL */
    sbuf v = {0};
    bool va_ok = od_walk_doc_x(json, len, JET_READ_VALIDATE_ALL, exact, &v);
    CHECK_MSG(va_ok && v.n == a.n && memcmp(v.p, a.p, a.n) == 0, "%s: VALIDATE_ALL walk differs",
              what);
    sb_free(&a);
    sb_free(&d);
    sb_free(&v);
}

static char *read_shared(const char *rel, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", check_shared_dir(), rel);
    char *s = check_read_file(path, len);
    if (!s) fprintf(stderr, "test_ondemand: cannot read %s (set JET_SHARED_DIR)\n", path);
    return s;
}

/* ---- scalars ------------------------------------------------------------- */

static void check_i64(const char *txt, jet_code code, int64_t want) {
    jet_odv r;
    int64_t v = 77;
    bool st = begin(txt, &r);
    bool got = st && jet_odv_get_i64(&r, &v);
    if (code == JET_OK) {
        CHECK_MSG(got && v == want && jet_od_finish(od), "i64 %s: got %d %lld (%s)", txt, got,
                  (long long)v, jet_code_name(oerr()->code));
    } else {
        CHECK_MSG(st && !got && has_err(code), "i64 %s: expected %s, got %d %s", txt,
                  jet_code_name(code), got, jet_code_name(oerr()->code));
        CHECK_MSG(path_is("") && oerr()->offset <= cur_len, "i64 %s: path %s offset %zu", txt,
                  ostr(oerr()->path), oerr()->offset);
        CHECK_POS();
    }
}

static void check_u64(const char *txt, jet_code code, uint64_t want) {
    jet_odv r;
    uint64_t v = 77;
    bool st = begin(txt, &r);
    bool got = st && jet_odv_get_u64(&r, &v);
    if (code == JET_OK) {
        CHECK_MSG(got && v == want && jet_od_finish(od), "u64 %s: got %d %llu (%s)", txt, got,
                  (unsigned long long)v, jet_code_name(oerr()->code));
    } else {
        CHECK_MSG(st && !got && has_err(code), "u64 %s: expected %s, got %d %s", txt,
                  jet_code_name(code), got, jet_code_name(oerr()->code));
        CHECK_MSG(path_is("") && oerr()->offset <= cur_len, "u64 %s: path %s offset %zu", txt,
                  ostr(oerr()->path), oerr()->offset);
        CHECK_POS();
    }
}

static void check_double(const char *txt, uint64_t want) {
    jet_odv r;
    double v = 77;
    bool got = begin(txt, &r) && jet_odv_get_double(&r, &v);
    CHECK_MSG(got && dbits(v) == want && jet_od_finish(od),
              "double %s: got %d %.17g (%016llx, want %016llx) %s", txt, got, v,
              (unsigned long long)dbits(v), (unsigned long long)want,
              jet_code_name(oerr()->code));
}

static void check_float(const char *txt, uint32_t want) {
    jet_odv r;
    float v = 77;
    bool got = begin(txt, &r) && jet_odv_get_float(&r, &v);
    CHECK_MSG(got && fbits(v) == want && jet_od_finish(od), "float %s: got %d %.9g (%08x, want %08x)",
              txt, got, (double)v, (unsigned)fbits(v), (unsigned)want);
}

/* A string value: `want` (n bytes) after unescaping; `view` when it must be a
 * view into the input. */
static void check_str(const char *txt, const char *want, size_t n, bool view) {
    jet_odv r;
    jet_str s = {NULL, 0};
    bool got = begin(txt, &r) && jet_odv_get_str(&r, &s);
    CHECK_MSG(got && str_is(s, want, n), "str %s: got %d len %zu (%s)", txt, got, s.len,
              jet_code_name(oerr()->code));
    if (got && view)
        CHECK_MSG(s.ptr == cur + 1, "str %s: not a view into the input", txt);
    CHECK(jet_od_finish(od));
}

/* A string that is an error once read (not at start). */
static void check_str_err(const char *txt, jet_read_flags flags, jet_code code) {
    jet_odv r, e;
    jet_od_iter it;
    jet_str s;
    bool st = begin_n(txt, strlen(txt), flags, &r);
    CHECK_MSG(st, "start %s: %s", txt, jet_code_name(oerr()->code));
    bool got = st && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e) && jet_odv_get_str(&e, &s);
    CHECK_MSG(!got && has_err(code), "str %s: expected %s, got %s", txt, jet_code_name(code),
              jet_code_name(oerr()->code));
    CHECK_MSG(path_is("/0"), "str %s: path %s", txt, ostr(oerr()->path));
    CHECK_POS();
}

static void test_scalars(void) {
    jet_odv r;
    bool b = false;

    /* bool, null, and the type peek */
    CHECK(begin("true", &r) && jet_odv_type(&r) == JET_TYPE_BOOL && jet_odv_get_bool(&r, &b) && b);
    CHECK(jet_od_finish(od) && jet_od_ok(od) && oerr()->code == JET_OK);
    CHECK(begin(" \t\n false \r\n", &r) && jet_odv_get_bool(&r, &b) && !b && jet_od_finish(od));
    CHECK(begin("null", &r) && jet_odv_type(&r) == JET_TYPE_NULL && jet_odv_is_null(&r));
    CHECK(jet_od_finish(od));
    CHECK(begin("{}", &r) && jet_odv_type(&r) == JET_TYPE_OBJ);
    CHECK(begin("[]", &r) && jet_odv_type(&r) == JET_TYPE_ARR);
    CHECK(begin("\"x\"", &r) && jet_odv_type(&r) == JET_TYPE_STR);
    CHECK(begin("-1", &r) && jet_odv_type(&r) == JET_TYPE_NUM);
    CHECK(begin("7", &r) && jet_odv_type(&r) == JET_TYPE_NUM);
    CHECK(begin("false", &r) && jet_odv_type(&r) == JET_TYPE_BOOL);

    /* is_null on a non-null value: false, no error, the value still readable */
    {
        jet_od_iter it;
        jet_odv e0, e1, e2;
        int64_t i = 0;
        CHECK(begin("[null, 5, \"n\"]", &r) && jet_odv_arr(&r, &it));
        CHECK(jet_od_arr_next(&it, &e0) && jet_odv_is_null(&e0));
        CHECK(jet_od_arr_next(&it, &e1) && !jet_odv_is_null(&e1) && jet_od_ok(od));
        CHECK(jet_odv_get_i64(&e1, &i) && i == 5);
        CHECK(jet_od_arr_next(&it, &e2) && !jet_odv_is_null(&e2) && jet_od_ok(od));
        jet_str s;
        CHECK(jet_odv_get_str(&e2, &s) && STR_IS(s, "n"));
        CHECK(!jet_od_arr_next(&it, &e2) && jet_od_ok(od) && jet_od_finish(od));
    }

    /* integers */
    check_i64("0", JET_OK, 0);
    check_i64("-0", JET_OK, 0);
    check_i64("42", JET_OK, 42);
    check_i64("-42", JET_OK, -42);
    check_i64("9223372036854775807", JET_OK, INT64_MAX);
    check_i64("-9223372036854775808", JET_OK, INT64_MIN);
    check_i64(" 123 ", JET_OK, 123);
    check_i64("9223372036854775808", JET_ERR_NUMBER_RANGE, 0);
    check_i64("-9223372036854775809", JET_ERR_NUMBER_RANGE, 0);
    check_i64("18446744073709551616", JET_ERR_NUMBER_RANGE, 0);
    check_i64("100000000000000000000000", JET_ERR_NUMBER_RANGE, 0);
    check_i64("1.5", JET_ERR_TYPE, 0);
    check_i64("1.0", JET_ERR_TYPE, 0);
    check_i64("1e3", JET_ERR_TYPE, 0);
    check_i64("-2E+1", JET_ERR_TYPE, 0);
    check_u64("0", JET_OK, 0);
    check_u64("18446744073709551615", JET_OK, UINT64_MAX);
    check_u64("9223372036854775808", JET_OK, (uint64_t)INT64_MAX + 1);
    check_u64("18446744073709551616", JET_ERR_NUMBER_RANGE, 0);
    check_u64("99999999999999999999", JET_ERR_NUMBER_RANGE, 0);
    check_u64("-1", JET_ERR_NUMBER_RANGE, 0);
    check_u64("-9223372036854775808", JET_ERR_NUMBER_RANGE, 0);
    check_u64("2.5", JET_ERR_TYPE, 0);
    check_u64("1e0", JET_ERR_TYPE, 0);
    /* a different JSON type: the error is at the value itself */
    check_i64("\"5\"", JET_ERR_TYPE, 0);
    check_u64("true", JET_ERR_TYPE, 0);
    CHECK(begin("  \"5\"", &r) && !jet_odv_get_i64(&r, &(int64_t){0}));
    CHECK(has_err(JET_ERR_TYPE) && oerr()->offset == 2 && oerr()->column == 3 && path_is(""));
    /* malformed numbers are syntax errors, not type errors */
    check_i64("01", JET_ERR_NUMBER, 0);
    check_i64("-01", JET_ERR_NUMBER, 0);
    /* a number cut by the end of the input (as the DOM reports it) */
    check_i64("-", JET_ERR_TRUNCATED, 0);
    check_u64("1.", JET_ERR_TRUNCATED, 0);

    /* doubles: correctly rounded, any number */
    check_double("0", dbits(0.0));
    check_double("-0", dbits(-0.0));
    check_double("-0.0", dbits(-0.0));
    check_double("0.1", dbits(0.1));
    check_double("1.5", 0x3FF8000000000000ull);
    check_double("-2.5e-3", dbits(-2.5e-3));
    check_double("12345678901234567890", 0x43E56A95319D63E1ull);
    check_double("18446744073709551615", 0x43F0000000000000ull);
    check_double("-9223372036854775808", 0xC3E0000000000000ull);
    check_double("1.7976931348623157e308", 0x7FEFFFFFFFFFFFFFull);
    check_double("2.2250738585072011e-308", 0x000FFFFFFFFFFFFFull);
    check_double("4.9406564584124654e-324", 0x0000000000000001ull);
    check_double("2.4703282292062328e-324", 0x0000000000000001ull); /* just above half */
    check_double("1e-400", 0);
    check_double("9007199254740993", 0x4340000000000000ull);      /* 2^53 + 1: ties to even */
    check_double("9007199254740993.0000000001", 0x4340000000000001ull);
    check_double("123456789012345678901234567890e-10", dbits(12345678901234567890.123456789));
    {
        double d;
        CHECK(begin("1e400", &r) && !jet_odv_get_double(&r, &d) && has_err(JET_ERR_NUMBER_RANGE));
        CHECK(begin("-1e400", &r) && !jet_odv_get_double(&r, &d) && has_err(JET_ERR_NUMBER_RANGE));
        CHECK(begin("\"1\"", &r) && !jet_odv_get_double(&r, &d) && has_err(JET_ERR_TYPE));
        CHECK(oerr()->offset == 0 && path_is(""));
        CHECK(begin("[1]", &r) && !jet_odv_get_double(&r, &d) && has_err(JET_ERR_TYPE));
    }

    /* floats: correctly rounded from the text, not through a double */
    check_float("0", 0);
    check_float("-0.0", 0x80000000u);
    check_float("1", 0x3F800000u);
    check_float("0.1", 0x3DCCCCCDu);
    check_float("3.4028234663852886e38", 0x7F7FFFFFu);
    check_float("1.401298464324817e-45", 0x00000001u);
    check_float("16777217", 0x4B800000u);           /* 2^24 + 1: ties to even */
    check_float("16777219", 0x4B800002u);           /* ties to even, upwards */
    check_float("1.000000059604644775390625", 0x3F800000u); /* exact tie: even */
    /* just above the tie between 1 and the next float: a double in between
     * would round to the tie exactly and then to 1.0f */
    check_float("1.00000005960464477550", 0x3F800001u);
    check_float("1.0000000596046448", 0x3F800001u);
    check_float("1.0000000596046447", 0x3F800000u);
    check_float("7.038531e-26", 0x15AE43FDu);

    /* strings */
    check_str("\"\"", "", 0, false);
    check_str("\"abc\"", LIT("abc"), true);
    check_str("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", LIT("caf\xc3\xa9 \xf0\x9f\x98\x80"), true);
    check_str("\"a\\nb\\t\\\"q\\\"\\\\\\/\\b\\f\\r\"", LIT("a\nb\t\"q\"\\/\b\f\r"), false);
    check_str("\"\\u00e9\\u20AC\\u0041\"", LIT("\xc3\xa9\xe2\x82\xac" "A"), false);
    check_str("\"\\ud83d\\ude00!\"", LIT("\xf0\x9f\x98\x80!"), false);
    check_str("\"x\\uD834\\uDD1Ey\"", LIT("x\xf0\x9d\x84\x9ey"), false);
    check_str("\"nul\\u0000here\"", LIT("nul\0here"), false);
    check_str_err("[\"\\x\"]", 0, JET_ERR_STRING_ESCAPE);
    check_str_err("[\"\\u12g4\"]", 0, JET_ERR_STRING_ESCAPE);
    check_str_err("[\"\\ud800\"]", 0, JET_ERR_SURROGATE);
    check_str_err("[\"\\ud800\\u0041\"]", 0, JET_ERR_SURROGATE);
    check_str_err("[\"\\udc00x\"]", 0, JET_ERR_SURROGATE);
    /* escaped lone surrogates become WTF-8 with JET_READ_ALLOW_INVALID_UTF8 */
    {
        jet_od_iter it;
        jet_odv e;
        jet_str s;
        CHECK(begin_n(LIT("[\"\\ud800\"]"), JET_READ_ALLOW_INVALID_UTF8, &r) &&
              jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e) && jet_odv_get_str(&e, &s) &&
              STR_IS(s, "\xed\xa0\x80"));
        CHECK(jet_od_finish(od));
    }
    {
        jet_str s;
        CHECK(begin("17", &r) && !jet_odv_get_str(&r, &s) && has_err(JET_ERR_TYPE));
        CHECK(oerr()->offset == 0 && path_is(""));
        CHECK(begin("null", &r) && !jet_odv_get_bool(&r, &b) && has_err(JET_ERR_TYPE));
        CHECK(begin("0", &r) && !jet_odv_get_bool(&r, &b) && has_err(JET_ERR_TYPE));
        jet_od_iter it;
        CHECK(begin("{}", &r) && !jet_odv_arr(&r, &it) && has_err(JET_ERR_TYPE));
        CHECK(begin("[]", &r) && !jet_odv_obj(&r, &it) && has_err(JET_ERR_TYPE));
        CHECK(begin("\"{}\"", &r) && !jet_odv_obj(&r, &it) && has_err(JET_ERR_TYPE));
    }

    /* raw text: any value, without the whitespace around it, a view */
    {
        jet_str s;
        CHECK(begin("  { \"a\" : [1, 2] , \"b\":{}}  \n", &r) && jet_odv_get_raw(&r, &s) &&
              STR_IS(s, "{ \"a\" : [1, 2] , \"b\":{}}") && s.ptr == cur + 2);
        CHECK(jet_od_finish(od));
        CHECK(begin("-12.5e3", &r) && jet_odv_get_raw(&r, &s) && STR_IS(s, "-12.5e3"));
        CHECK(jet_od_finish(od));
        CHECK(begin(" \"x\\\"y\" ", &r) && jet_odv_get_raw(&r, &s) && STR_IS(s, "\"x\\\"y\""));
        CHECK(jet_od_finish(od));
        jet_od_iter it;
        jet_odv e;
        static const char *const want[] = {"1", "\"x]\"", "{\"k\":[]}", "true", "null",
                                           "[ [ ] , { } ]", "-0.5E-2"};
        CHECK(begin("[ 1 , \"x]\" ,{\"k\":[]},true,null,\n[ [ ] , { } ] ,-0.5E-2]", &r) &&
              jet_odv_arr(&r, &it));
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
            CHECK_MSG(jet_od_arr_next(&it, &e) && jet_odv_get_raw(&e, &s) &&
                          str_is(s, want[i], strlen(want[i])) && s.ptr >= cur &&
                          s.ptr + s.len <= cur + cur_len,
                      "raw element %zu", i);
        CHECK(!jet_od_arr_next(&it, &e) && jet_od_ok(od) && jet_od_finish(od));
    }
}

/* ---- iteration ------------------------------------------------------------ */

static void test_iteration(void) {
    jet_odv r, e, m, e2;
    jet_od_iter it, in, in2;
    jet_str k;
    int64_t i = 0;

    /* empty containers */
    CHECK(begin("[]", &r) && jet_odv_arr(&r, &it) && !jet_od_arr_next(&it, &e) && jet_od_ok(od));
    CHECK(!jet_od_arr_next(&it, &e) && jet_od_ok(od) && jet_od_finish(od));
    CHECK(begin(" { \n } ", &r) && jet_odv_obj(&r, &it) && !jet_od_obj_next(&it, &k, &m));
    CHECK(jet_od_ok(od) && jet_od_finish(od));
    CHECK(begin("[[],{},[[]],[{}],{\"a\":[]}]", &r) && jet_odv_arr(&r, &it));
    CHECK(jet_od_arr_next(&it, &e) && jet_odv_arr(&e, &in) && !jet_od_arr_next(&in, &e2));
    CHECK(jet_od_arr_next(&it, &e) && jet_odv_obj(&e, &in) && !jet_od_obj_next(&in, &k, &m));
    CHECK(jet_od_arr_next(&it, &e) && jet_odv_arr(&e, &in) && jet_od_arr_next(&in, &e2) &&
          jet_odv_arr(&e2, &in2) && !jet_od_arr_next(&in2, &e) && !jet_od_arr_next(&in, &e));
    CHECK(jet_od_arr_next(&it, &e) && jet_odv_arr(&e, &in) && jet_od_arr_next(&in, &e2) &&
          jet_odv_obj(&e2, &in2) && !jet_od_obj_next(&in2, &k, &m) && !jet_od_arr_next(&in, &e));
    CHECK(jet_od_arr_next(&it, &e) && jet_odv_obj(&e, &in) && jet_od_obj_next(&in, &k, &m) &&
          STR_IS(k, "a") && jet_odv_arr(&m, &in2) && !jet_od_arr_next(&in2, &e2) &&
          !jet_od_obj_next(&in, &k, &m));
    CHECK(!jet_od_arr_next(&it, &e) && jet_od_ok(od) && jet_od_finish(od));

    /* members in document order, keys unescaped */
    {
        CHECK(begin("{\"a\":1,\"b\":[true,false],\"c\":{\"d\":\"e\"},\"\":null,\"k\\\"\\u00e9\":2}",
                    &r) &&
              jet_odv_obj(&r, &it));
        bool b1 = false, b2 = true;
        jet_str s;
        CHECK(jet_od_obj_next(&it, &k, &m) && STR_IS(k, "a") && jet_odv_get_i64(&m, &i) && i == 1);
        CHECK(jet_od_obj_next(&it, &k, &m) && STR_IS(k, "b") && jet_odv_arr(&m, &in));
        CHECK(jet_od_arr_next(&in, &e) && jet_odv_get_bool(&e, &b1) && b1);
        CHECK(jet_od_arr_next(&in, &e) && jet_odv_get_bool(&e, &b2) && !b2);
        CHECK(!jet_od_arr_next(&in, &e) && jet_od_ok(od));
        CHECK(jet_od_obj_next(&it, &k, &m) && STR_IS(k, "c") && jet_odv_obj(&m, &in));
        CHECK(jet_od_obj_next(&in, &k, &m) && STR_IS(k, "d") && jet_odv_get_str(&m, &s) &&
              STR_IS(s, "e"));
        CHECK(!jet_od_obj_next(&in, &k, &m));
        CHECK(jet_od_obj_next(&it, &k, &m) && STR_IS(k, "") && jet_odv_is_null(&m));
        CHECK(jet_od_obj_next(&it, &k, &m) && STR_IS(k, "k\"\xc3\xa9") && jet_odv_get_i64(&m, &i) &&
              i == 2);
        CHECK(!jet_od_obj_next(&it, &k, &m) && jet_od_ok(od) && jet_od_finish(od));
    }

    /* early exit from nested containers, then the parent goes on */
    {
        CHECK(begin("[[1,2,3],{\"x\":[4,5],\"y\":6},7,[8,[9]],{\"z\":[10]},11]", &r) &&
              jet_odv_arr(&r, &it));
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_arr(&e, &in) && jet_od_arr_next(&in, &e2) &&
              jet_odv_get_i64(&e2, &i) && i == 1);
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_obj(&e, &in) && jet_od_obj_next(&in, &k, &m) &&
              STR_IS(k, "x") && jet_odv_arr(&m, &in2) && jet_od_arr_next(&in2, &e2) &&
              jet_odv_get_i64(&e2, &i) && i == 4);
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_i64(&e, &i) && i == 7);
        CHECK(jet_od_arr_next(&it, &e)); /* [8,[9]] left unread */
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_obj(&e, &in)); /* entered, nothing read */
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_i64(&e, &i) && i == 11);
        CHECK(!jet_od_arr_next(&it, &e) && jet_od_ok(od) && jet_od_finish(od));
    }
    {
        jet_od_iter a, bb;
        CHECK(begin("{\"a\":{\"b\":{\"c\":1,\"d\":[2,{\"e\":3}]},\"f\":4},\"g\":5}", &r) &&
              jet_odv_obj(&r, &it));
        CHECK(jet_od_obj_next(&it, &k, &m) && jet_odv_obj(&m, &a) && jet_od_obj_next(&a, &k, &m) &&
              STR_IS(k, "b") && jet_odv_obj(&m, &bb) && jet_od_obj_next(&bb, &k, &m) &&
              STR_IS(k, "c") && jet_odv_get_i64(&m, &i) && i == 1);
        CHECK(jet_od_obj_next(&it, &k, &m) && STR_IS(k, "g") && jet_odv_get_i64(&m, &i) && i == 5);
        CHECK(!jet_od_obj_next(&it, &k, &m) && jet_od_ok(od) && jet_od_finish(od));
    }
    {
        /* four levels down, one element each, then back to the top */
        jet_od_iter l1, l2, l3;
        CHECK(begin("[[[[1,2],3],4],5]", &r) && jet_odv_arr(&r, &it));
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_arr(&e, &l1) && jet_od_arr_next(&l1, &e) &&
              jet_odv_arr(&e, &l2) && jet_od_arr_next(&l2, &e) && jet_odv_arr(&e, &l3) &&
              jet_od_arr_next(&l3, &e) && jet_odv_get_i64(&e, &i) && i == 1);
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_i64(&e, &i) && i == 5);
        CHECK(!jet_od_arr_next(&it, &e) && jet_od_finish(od));
        /* resuming in the middle: back one level, not to the top */
        CHECK(begin("[[[[1,2],3],4],5]", &r) && jet_odv_arr(&r, &it));
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_arr(&e, &l1) && jet_od_arr_next(&l1, &e) &&
              jet_odv_arr(&e, &l2) && jet_od_arr_next(&l2, &e) && jet_odv_arr(&e, &l3) &&
              jet_od_arr_next(&l3, &e));
        CHECK(jet_od_arr_next(&l2, &e) && jet_odv_get_i64(&e, &i) && i == 3);
        CHECK(!jet_od_arr_next(&l2, &e) && jet_od_arr_next(&l1, &e) && jet_odv_get_i64(&e, &i) &&
              i == 4);
        CHECK(!jet_od_arr_next(&l1, &e) && jet_od_arr_next(&it, &e) && jet_odv_get_i64(&e, &i) &&
              i == 5);
        CHECK(jet_od_finish(od));
    }

    /* skipping: brackets and quotes inside strings do not count */
    {
        CHECK(begin("[1,{\"a\":[1,2,{}]},\"[{\\\"]\",[],null,{\"}\":\"]\"},\"\\\\\",true,42]", &r) &&
              jet_odv_arr(&r, &it));
        for (int n = 0; n < 8; n++) CHECK_MSG(jet_od_arr_next(&it, &e) && jet_odv_skip(&e), "skip %d", n);
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_i64(&e, &i) && i == 42);
        CHECK(!jet_od_arr_next(&it, &e) && jet_od_finish(od));
        CHECK(begin("{\"a\":[[[\"]]]\"]]],\"b\":2}", &r) && jet_odv_obj(&r, &it) &&
              jet_od_obj_next(&it, &k, &m) && jet_odv_skip(&m) && jet_od_obj_next(&it, &k, &m) &&
              STR_IS(k, "b") && jet_odv_get_i64(&m, &i) && i == 2 && jet_od_finish(od));
        /* skipping the root; finish then has nothing left */
        CHECK(begin(" [1,[2,[3]]] ", &r) && jet_odv_skip(&r) && jet_od_finish(od));
        /* leaving the root early: finish skips the rest */
        CHECK(begin("{\"a\":1,\"b\":[1,2,{\"c\":[]}]}", &r) && jet_odv_obj(&r, &it) &&
              jet_od_obj_next(&it, &k, &m) && jet_odv_get_i64(&m, &i) && i == 1 &&
              jet_od_finish(od));
        CHECK(begin("[1,2]", &r) && jet_od_finish(od)); /* root never touched */
    }

    /* many escaped strings read one after the other stay valid together */
    {
        sbuf t = {0};
        enum { N = 600 };
        sb_putc(&t, '[');
        for (int n = 0; n < N; n++) {
            char tmp[64];
            snprintf(tmp, sizeof tmp, "%s\"s\\u00e9%d\\n\"", n ? "," : "", n);
            sb_puts(&t, tmp);
        }
        sb_putc(&t, ']');
        static jet_str got[N];
        CHECK(begin_n(t.p, t.n, 0, &r) && jet_odv_arr(&r, &it));
        int n = 0;
        while (n < N && jet_od_arr_next(&it, &e) && jet_odv_get_str(&e, &got[n])) n++;
        CHECK(n == N && !jet_od_arr_next(&it, &e) && jet_od_finish(od));
        int bad = 0;
        for (int j = 0; j < n; j++) {
            char want[32];
            int wl = snprintf(want, sizeof want, "s\xc3\xa9%d\n", j);
            if (!str_is(got[j], want, (size_t)wl)) bad++;
        }
        CHECK_MSG(bad == 0, "%d escaped strings changed after later reads", bad);
        sb_free(&t);
    }
}

/* ---- find / get ----------------------------------------------------------- */

static void test_find(void) {
    jet_odv r, v, w;
    jet_od_iter it, in, in2;
    int64_t i = 0;
    static const char doc[] = "{\"a\":1,\"b\":2,\"c\":3,\"d\":{\"x\":[1],\"y\":9},\"e\":\"s\"}";

    /* in document order */
    CHECK(begin(doc, &r) && jet_odv_obj(&r, &it));
    CHECK(jet_od_obj_find(&it, LIT("a"), &v) && jet_odv_get_i64(&v, &i) && i == 1);
    CHECK(jet_od_obj_find(&it, LIT("b"), &v) && jet_odv_get_i64(&v, &i) && i == 2);
    CHECK(jet_od_obj_find(&it, LIT("d"), &v) && jet_odv_obj(&v, &in) &&
          jet_od_obj_find(&in, LIT("y"), &w) && jet_odv_get_i64(&w, &i) && i == 9);
    CHECK(jet_od_obj_find(&it, LIT("e"), &v) && jet_odv_skip(&v));
    CHECK(jet_od_ok(od) && jet_od_finish(od));

    /* out of order: wrap-around */
    CHECK(begin(doc, &r) && jet_odv_obj(&r, &it));
    CHECK(jet_od_obj_find(&it, LIT("c"), &v) && jet_odv_get_i64(&v, &i) && i == 3);
    CHECK(jet_od_obj_find(&it, LIT("a"), &v) && jet_odv_get_i64(&v, &i) && i == 1);
    CHECK(jet_od_obj_find(&it, LIT("e"), &v) && jet_odv_skip(&v));
    CHECK(jet_od_obj_find(&it, LIT("d"), &v) && jet_odv_obj(&v, &in));
    CHECK(jet_od_obj_find(&in, LIT("y"), &w) && jet_odv_get_i64(&w, &i) && i == 9);
    CHECK(jet_od_obj_find(&in, LIT("x"), &w) && jet_odv_arr(&w, &in2) && jet_od_arr_next(&in2, &w) &&
          jet_odv_get_i64(&w, &i) && i == 1 && !jet_od_arr_next(&in2, &w));
    CHECK(jet_od_ok(od) && jet_od_finish(od));
    /* the same member twice */
    CHECK(begin(doc, &r) && jet_odv_obj(&r, &it));
    CHECK(jet_od_obj_find(&it, LIT("b"), &v) && jet_odv_get_i64(&v, &i) && i == 2);
    CHECK(jet_od_obj_find(&it, LIT("b"), &v) && jet_odv_get_i64(&v, &i) && i == 2);
    CHECK(jet_od_ok(od) && jet_od_finish(od));

    /* missing: false without an error, and the object still usable */
    CHECK(begin(doc, &r) && jet_odv_obj(&r, &it));
    CHECK(jet_od_obj_find(&it, LIT("b"), &v) && jet_odv_get_i64(&v, &i) && i == 2);
    CHECK(!jet_od_obj_find(&it, LIT("nope"), &v) && jet_od_ok(od));
    CHECK(!jet_od_obj_find(&it, LIT("x"), &v) && jet_od_ok(od)); /* only one level */
    CHECK(!jet_od_obj_find(&it, LIT(""), &v) && jet_od_ok(od));
    CHECK(!jet_od_obj_find(&it, LIT("aa"), &v) && !jet_od_obj_find(&it, LIT("A"), &v));
    CHECK(jet_od_obj_find(&it, LIT("c"), &v) && jet_odv_get_i64(&v, &i) && i == 3);
    CHECK(jet_od_obj_find(&it, LIT("a"), &v) && jet_odv_get_i64(&v, &i) && i == 1);
    CHECK(jet_od_ok(od) && jet_od_finish(od));
    CHECK(begin("{}", &r) && jet_odv_obj(&r, &it) && !jet_od_obj_find(&it, LIT("a"), &v) &&
          jet_od_ok(od) && jet_od_finish(od));

    /* keys compared unescaped, by length (embedded NUL) */
    CHECK(begin("{\"a\\u0062\":1,\"x\\\"y\":2,\"n\\u0000m\":3,\"n\":4,\"\":5}", &r) &&
          jet_odv_obj(&r, &it));
    CHECK(jet_od_obj_find(&it, LIT("n"), &v) && jet_odv_get_i64(&v, &i) && i == 4);
    CHECK(jet_od_obj_find(&it, LIT("n\0m"), &v) && jet_odv_get_i64(&v, &i) && i == 3);
    CHECK(jet_od_obj_find(&it, LIT("ab"), &v) && jet_odv_get_i64(&v, &i) && i == 1);
    CHECK(jet_od_obj_find(&it, LIT(""), &v) && jet_odv_get_i64(&v, &i) && i == 5);
    CHECK(jet_od_obj_find(&it, LIT("x\"y"), &v) && jet_odv_get_i64(&v, &i) && i == 2);
    CHECK(!jet_od_obj_find(&it, LIT("a\\u0062"), &v) && jet_od_ok(od) && jet_od_finish(od));

    /* a key of the same name deeper down is not a match */
    CHECK(begin("{\"x\":{\"id\":1},\"y\":[{\"id\":2}],\"id\":3}", &r) && jet_odv_obj(&r, &it) &&
          jet_od_obj_find(&it, LIT("id"), &v) && jet_odv_get_i64(&v, &i) && i == 3);
    CHECK(jet_od_obj_find(&it, LIT("x"), &v) && jet_odv_obj(&v, &in) &&
          jet_od_obj_find(&in, LIT("id"), &w) && jet_odv_get_i64(&w, &i) && i == 1);
    CHECK(jet_od_finish(od));

    /* jet_od_obj_get: found, and missing as an error with the would-be path */
    CHECK(begin("{\"a\":{\"b\":1,\"c\":true}}", &r) && jet_odv_obj(&r, &it) &&
          jet_od_obj_get(&it, "a", &v) && jet_odv_obj(&v, &in));
    CHECK(jet_od_obj_get(&in, "c", &w) && jet_odv_get_bool(&w, &(bool){false}));
    CHECK(jet_od_obj_get(&in, "b", &w) && jet_odv_get_i64(&w, &i) && i == 1);
    CHECK(!jet_od_obj_get(&in, "zz", &w));
    CHECK_ERR(JET_ERR_MISSING_FIELD);
    CHECK_PATH("/a/zz");
    CHECK_POS();
    CHECK(begin("{\"a\":{\"b\":1}}", &r) && jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "a", &v) &&
          jet_odv_obj(&v, &in) && !jet_od_obj_get(&in, "x/y~z", &w));
    CHECK_ERR(JET_ERR_MISSING_FIELD);
    CHECK_PATH("/a/x~1y~0z");
    CHECK(begin("[{\"k\":1},{\"q\":2}]", &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &v) &&
          jet_odv_obj(&v, &in) && jet_od_obj_get(&in, "k", &w) && jet_odv_skip(&w) &&
          jet_od_arr_next(&it, &v) && jet_odv_obj(&v, &in) && !jet_od_obj_get(&in, "k", &w));
    CHECK_ERR(JET_ERR_MISSING_FIELD);
    CHECK_PATH("/1/k");
    CHECK(begin("{}", &r) && jet_odv_obj(&r, &it) && !jet_od_obj_get(&it, "", &v));
    CHECK_ERR(JET_ERR_MISSING_FIELD);
    CHECK_PATH("/");
}

/* ---- errors: types and paths, order, stickiness -------------------------- */

static void test_type_errors(void) {
    jet_odv r, v, w, x;
    jet_od_iter it, in, in2;
    int64_t i = 0;
    jet_str s;

    /* /a/2/b */
    static const char d1[] = "{\"a\":[0,1,{\"b\":\"x\"}]}";
    CHECK(begin(d1, &r) && jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "a", &v) &&
          jet_odv_arr(&v, &in));
    CHECK(jet_od_arr_next(&in, &w) && jet_odv_get_i64(&w, &i) && i == 0);
    CHECK(jet_od_arr_next(&in, &w) && jet_od_arr_next(&in, &w) && jet_odv_obj(&w, &in2) &&
          jet_od_obj_get(&in2, "b", &x));
    CHECK(!jet_odv_get_i64(&x, &i));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("/a/2/b");
    CHECK_MSG(oerr()->offset == 15 && oerr()->line == 1 && oerr()->column == 16,
              "offset %zu %zu:%zu", oerr()->offset, oerr()->line, oerr()->column);
    CHECK(oerr()->msg != NULL);

    /* keys with '/' and '~', on several lines with a two-byte character */
    static const char d2[] = "{\n  \"a/b\": {\n    \"m~n\": [true, \"\xc3\xa9\", 3]\n  }\n}";
    CHECK(begin(d2, &r) && jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "a/b", &v) &&
          jet_odv_obj(&v, &in) && jet_od_obj_get(&in, "m~n", &w) && jet_odv_arr(&w, &in2));
    CHECK(jet_od_arr_next(&in2, &x) && jet_odv_skip(&x) && jet_od_arr_next(&in2, &x) &&
          jet_odv_get_str(&x, &s) && STR_IS(s, "\xc3\xa9") && jet_od_arr_next(&in2, &x));
    CHECK(!jet_odv_get_str(&x, &s));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("/a~1b/m~0n/2");
    CHECK_MSG(oerr()->line == 3 && oerr()->column == 24 && cur[oerr()->offset] == '3',
              "%zu:%zu offset %zu", oerr()->line, oerr()->column, oerr()->offset);

    /* the root, a member of the root, empty keys, "~01" */
    CHECK(begin("[1]", &r) && !jet_odv_get_bool(&r, &(bool){false}));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("");
    CHECK(begin("{\"k\":\"v\"}", &r) && jet_odv_obj(&r, &it) && jet_od_obj_next(&it, &s, &v) &&
          !jet_odv_arr(&v, &in));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("/k");
    CHECK(oerr()->offset == 5);
    CHECK(begin("{\"\":{\"\":1}}", &r) && jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "", &v) &&
          jet_odv_obj(&v, &in) && jet_od_obj_get(&in, "", &w) && !jet_odv_get_str(&w, &s));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("//");
    CHECK(begin("{\"~01\":[null]}", &r) && jet_odv_obj(&r, &it) &&
          jet_od_obj_find(&it, LIT("~01"), &v) && jet_odv_arr(&v, &in) &&
          jet_od_arr_next(&in, &w) && !jet_odv_get_i64(&w, &i));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("/~001/0");
    /* a key written with escapes is named unescaped in the path */
    CHECK(begin("{\"\\u0061\\/\":[1,2,[true]]}", &r) && jet_odv_obj(&r, &it) &&
          jet_od_obj_next(&it, &s, &v) && jet_odv_arr(&v, &in) && jet_od_arr_next(&in, &w) &&
          jet_od_arr_next(&in, &w) && jet_od_arr_next(&in, &w) && jet_odv_arr(&w, &in2) &&
          jet_od_arr_next(&in2, &x) && !jet_odv_get_double(&x, &(double){0}));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("/a~1/2/0");
    /* array index with two digits */
    CHECK(begin("[0,1,2,3,4,5,6,7,8,9,10,\"eleven\"]", &r) && jet_odv_arr(&r, &it));
    for (int n = 0; n < 11; n++) CHECK(jet_od_arr_next(&it, &v) && jet_odv_skip(&v));
    CHECK(jet_od_arr_next(&it, &v) && !jet_odv_get_u64(&v, &(uint64_t){0}));
    CHECK_ERR(JET_ERR_TYPE);
    CHECK_PATH("/11");
}

static void test_out_of_order(void) {
    jet_odv r, va, vb, e0, e1;
    jet_od_iter it, in;
    jet_str k;
    int64_t i = 0;

    /* a member read after the cursor moved past it */
    CHECK(begin("{\"a\":1,\"b\":2}", &r) && jet_odv_obj(&r, &it) && jet_od_obj_next(&it, &k, &va) &&
          jet_od_obj_next(&it, &k, &vb) && jet_odv_get_i64(&vb, &i) && i == 2);
    CHECK(!jet_odv_get_i64(&va, &i));
    CHECK_ERR(JET_ERR_OUT_OF_ORDER);
    CHECK(oerr()->msg != NULL);
    /* without reading the later one first */
    CHECK(begin("{\"a\":1,\"b\":2}", &r) && jet_odv_obj(&r, &it) && jet_od_obj_next(&it, &k, &va) &&
          jet_od_obj_next(&it, &k, &vb) && !jet_odv_get_i64(&va, &i));
    CHECK_ERR(JET_ERR_OUT_OF_ORDER);
    /* a handle read twice */
    CHECK(begin("[5,6]", &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e0) &&
          jet_odv_get_i64(&e0, &i) && i == 5 && !jet_odv_get_i64(&e0, &i));
    CHECK_ERR(JET_ERR_OUT_OF_ORDER);
    CHECK(begin("[\"s\",6]", &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e0) &&
          jet_odv_get_str(&e0, &k) && !jet_odv_get_str(&e0, &k));
    CHECK_ERR(JET_ERR_OUT_OF_ORDER);
    /* a container entered after its next sibling was reached */
    CHECK(begin("[[1,2],3]", &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e0) &&
          jet_od_arr_next(&it, &e1) && !jet_odv_arr(&e0, &in));
    CHECK_ERR(JET_ERR_OUT_OF_ORDER);
    CHECK(begin("{\"o\":{\"x\":1},\"p\":2}", &r) && jet_odv_obj(&r, &it) &&
          jet_od_obj_next(&it, &k, &va) && jet_od_obj_find(&it, LIT("p"), &vb) &&
          jet_odv_get_i64(&vb, &i) && i == 2 && !jet_odv_obj(&va, &in));
    CHECK_ERR(JET_ERR_OUT_OF_ORDER);
    /* the root after it was skipped */
    CHECK(begin("[1]", &r) && jet_odv_skip(&r) && !jet_odv_arr(&r, &in));
    CHECK_ERR(JET_ERR_OUT_OF_ORDER);
}

static void test_sticky(void) {
    jet_odv r, e, e2;
    jet_od_iter it, in;
    int64_t i = 0;
    jet_str s;
    bool b;

    CHECK(begin("[1,\"x\",3,{\"a\":4},[5]]", &r) && jet_odv_arr(&r, &it));
    CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_i64(&e, &i) && i == 1);
    CHECK(jet_od_arr_next(&it, &e) && !jet_odv_get_i64(&e, &i));
    CHECK_ERR(JET_ERR_TYPE);
    jet_error first = *oerr();
    CHECK(first.path && strcmp(first.path, "/1") == 0 && first.offset == 3);
    /* every later call fails at once and keeps the first error */
    CHECK(!jet_od_arr_next(&it, &e2));
    CHECK(jet_odv_type(&e) == JET_TYPE_NONE && jet_odv_type(&r) == JET_TYPE_NONE);
    CHECK(!jet_odv_get_str(&e, &s) && !jet_odv_get_bool(&e, &b) && !jet_odv_is_null(&e));
    CHECK(!jet_odv_skip(&e) && !jet_odv_get_raw(&e, &s) && !jet_odv_arr(&e, &in));
    CHECK(!jet_od_finish(od) && !jet_od_ok(od));
    CHECK(oerr()->code == first.code && oerr()->offset == first.offset &&
          oerr()->line == first.line && oerr()->column == first.column);
    CHECK(path_is("/1"));
    /* a missing member is sticky too */
    CHECK(begin("{\"a\":1,\"b\":2}", &r) && jet_odv_obj(&r, &it) && !jet_od_obj_get(&it, "q", &e));
    CHECK(!jet_od_obj_find(&it, LIT("a"), &e) && !jet_od_obj_get(&it, "b", &e));
    CHECK_ERR(JET_ERR_MISSING_FIELD);
    CHECK_PATH("/q");
    /* the next document starts clean */
    CHECK(begin("{\"a\":1,\"b\":2}", &r) && jet_od_ok(od) && oerr()->code == JET_OK);
    CHECK(jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "b", &e) && jet_odv_get_i64(&e, &i) &&
          i == 2 && jet_od_finish(od));
}

/* ---- syntax errors met while reading -------------------------------------- */

typedef struct syntax_case {
    const char *json;
    jet_code code, alt;     /* alt: a second acceptable code, or JET_OK */
    size_t lo, hi;          /* the offset must lie in [lo, hi] */
    size_t line;            /* 0: not checked beyond consistency */
} syntax_case;

static const syntax_case syntax_cases[] = {
    {"[1 2]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 3, 3, 1},
    {"[1,,2]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 3, 3, 1},
    {"[1,]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 3, 3, 1},
    {"{\"a\" 1}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 5, 5, 1},
    {"{\"a\":1 \"b\":2}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 7, 7, 1},
    {"{\"a\":1,}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 7, 7, 1},
    {"{1:2}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 1, 1, 1},
    {"{\"a\":1;\"b\":2}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 6, 6, 1},
    {"[1:2]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 2, 2, 1},
    {"{\"a\":1,\"b\"}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 10, 10, 1},
    {"[tru]", JET_ERR_LITERAL, JET_OK, 1, 4, 1},
    {"[nul]", JET_ERR_LITERAL, JET_OK, 1, 4, 1},
    {"[falsy]", JET_ERR_LITERAL, JET_OK, 1, 5, 1},
    {"[truex]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 1, 5, 1},
    {"[nan]", JET_ERR_LITERAL, JET_OK, 1, 4, 1},
    {"[01]", JET_ERR_NUMBER, JET_OK, 1, 2, 1},
    {"[-01]", JET_ERR_NUMBER, JET_OK, 1, 3, 1},
    {"[1.]", JET_ERR_NUMBER, JET_OK, 1, 3, 1},
    {"[2.e5]", JET_ERR_NUMBER, JET_OK, 1, 3, 1},
    {"[-]", JET_ERR_NUMBER, JET_OK, 1, 2, 1},
    {"[1e]", JET_ERR_NUMBER, JET_OK, 1, 3, 1},
    {"[1.5e+]", JET_ERR_NUMBER, JET_OK, 1, 6, 1},
    {"[1.5x]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 1, 4, 1},
    {"[.5]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 1, 1, 1},
    {"[+1]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 1, 1, 1},
    {"{\"a\":[1,2],\"b\":{\"c\":[true,fals]}}", JET_ERR_LITERAL, JET_OK, 26, 30, 1},
    {"[\n  1,\n  tru\n]", JET_ERR_LITERAL, JET_OK, 9, 12, 3},
    {"{\n\"k\":\n  [1,\n   2\n   3]}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 21, 21, 5},
    {"[\"\xc3\xa9\xc3\xa9\", 1 2]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 11, 11, 1},
    {"{\"a\":[1]]", JET_ERR_UNEXPECTED_CHAR, JET_OK, 8, 8, 1},
    {"[1,2}", JET_ERR_UNEXPECTED_CHAR, JET_OK, 4, 4, 1},
};

static void test_syntax_errors(void) {
    jet_error derr;
    for (size_t c = 0; c < sizeof syntax_cases / sizeof syntax_cases[0]; c++) {
        const syntax_case *sc = &syntax_cases[c];
        sbuf b = {0};
        bool ok = od_walk_doc(sc->json, strlen(sc->json), 0, &b);
        const jet_error *e = oerr();
        bool code_ok = !ok && (e->code == sc->code || (sc->alt != JET_OK && e->code == sc->alt));
        CHECK_MSG(code_ok, "syntax case %zu %s: got %s at %zu (%s)", c, sc->json,
                  jet_code_name(e->code), e->offset, ostr(e->msg));
        CHECK_MSG(e->offset >= sc->lo && e->offset <= sc->hi,
                  "syntax case %zu %s: offset %zu not in [%zu, %zu]", c, sc->json, e->offset,
                  sc->lo, sc->hi);
        CHECK_MSG(err_position_ok() && (sc->line == 0 || e->line == sc->line),
                  "syntax case %zu %s: %zu:%zu for offset %zu", c, sc->json, e->line, e->column,
                  e->offset);
        CHECK_MSG(e->path != NULL, "syntax case %zu: no path", c);
        /* the cursor read every value: the DOM reader's code and offset */
        jet_doc *d = jet_read(sc->json, strlen(sc->json), NULL, NULL, &derr);
        CHECK_MSG(!d && derr.code == e->code && derr.offset == e->offset,
                  "syntax case %zu %s: cursor %s@%zu, DOM %s@%zu", c, sc->json, jet_code_name(e->code),
                  e->offset, jet_code_name(derr.code), derr.offset);
        jet_doc_free(d);
        sb_free(&b);
    }

    /* errors jet_od_start reports */
    jet_odv r;
    CHECK(!begin("", &r));
    CHECK_ERR(JET_ERR_EMPTY);
    CHECK(!begin(" \n\t ", &r));
    CHECK_ERR(JET_ERR_EMPTY);
    CHECK(!begin("[\"abc", &r) && !jet_od_ok(od) && oerr()->code != JET_OK);
    CHECK(!begin("{\"a\":\"b\x01\"}", &r));
    CHECK_ERR(JET_ERR_STRING_CONTROL);
    CHECK(oerr()->offset == 7);
    CHECK_POS();
    /* the DOM reader's extensions (every case: test_flags.c) */
    {
        sbuf b = {0}, want = {0};
        CHECK(od_walk_doc(LIT("[1,/*]*/2]//"), JET_READ_ALLOW_COMMENTS, &b) &&
              od_walk_doc(LIT("[1,2]"), 0, &want) && b.n == want.n && memcmp(b.p, want.p, b.n) == 0);
        b.n = want.n = 0;
        CHECK(od_walk_doc(LIT("{\"a\":[1,],}"), JET_READ_ALLOW_TRAILING_COMMAS, &b) &&
              od_walk_doc(LIT("{\"a\":[1]}"), 0, &want) && b.n == want.n && memcmp(b.p, want.p, b.n) == 0);
        b.n = 0;
        CHECK(!od_walk_doc(LIT("[1,/*]*/2]"), 0, &b));
        CHECK_ERR(JET_ERR_UNEXPECTED_CHAR);
        sb_free(&b);
        sb_free(&want);
    }
    /* the size limit */
    {
        jet_read_opts o = mkopts(0);
        o.max_size = 4;
        CHECK(!jet_od_start(od, "[1,2]", 5, &o, &r));
        CHECK_ERR(JET_ERR_SIZE_LIMIT);
        o.max_size = 5;
        CHECK(jet_od_start(od, "[1,2]", 5, &o, &r) && jet_od_finish(od));
    }
    /* the depth limit, wherever it is met */
    {
        jet_read_opts o = mkopts(0);
        o.max_depth = 3;
        sbuf b = {0};
        jet_odv rr;
        if (jet_od_start(od, "[[[[1]]]]", 9, &o, &rr)) od_emit(&rr, &b);
        CHECK_ERR(JET_ERR_DEPTH_LIMIT);
        b.n = 0;
        CHECK(jet_od_start(od, "[[[1]]]", 7, &o, &rr) && od_emit(&rr, &b) && jet_od_finish(od));
        sb_free(&b);
    }
    /* invalid UTF-8: an error once read (if not at start); allowed by the flag */
    {
        sbuf b = {0};
        CHECK(!od_walk_doc(LIT("[\"a\xff\"]"), 0, &b));
        CHECK_ERR(JET_ERR_UTF8);
        CHECK(!od_walk_doc(LIT("{\"\xc3\":1}"), 0, &b));
        CHECK_ERR(JET_ERR_UTF8);
        jet_od_iter it;
        jet_odv e;
        jet_str s;
        CHECK(begin_n(LIT("[\"a\xff\"]"), JET_READ_ALLOW_INVALID_UTF8, &r) &&
              jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e) && jet_odv_get_str(&e, &s) &&
              STR_IS(s, "a\xff") && jet_od_finish(od));
        sb_free(&b);
    }
    /* NaN and Infinity with the flag */
    {
        jet_od_iter it;
        jet_odv e;
        double d = 0;
        CHECK(begin_n(LIT("[NaN,-Infinity,Infinity]"), JET_READ_ALLOW_NAN_INF, &r) &&
              jet_odv_arr(&r, &it));
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_double(&e, &d) && isnan(d));
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_double(&e, &d) && isinf(d) && d < 0);
        CHECK(jet_od_arr_next(&it, &e) && jet_odv_get_double(&e, &d) && isinf(d) && d > 0);
        CHECK(jet_od_finish(od));
        CHECK(begin("[NaN]", &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e) &&
              !jet_odv_get_double(&e, &d) && !jet_od_ok(od));
    }
}

/* ---- strict by default, JET_READ_LAZY and jet_od_finish ----------------- */

static void test_validate_all(void) {
    static const char *const docs[] = {
        "{\"a\":1,\"b\":[1,2,tru]}",
        "{\"a\":1,\"b\":[1 2]}",
        "{\"a\":1,\"b\":{\"c\":01}}",
        "{\"a\":1,\"b\":\"\\x\"}",
        "{\"a\":1,\"b\":\"\\ud800\"}",
        "{\"a\":1,\"b\":{\"c\" 1}}",
        "{\"a\":1,\"b\":[1,]}",
        "{\"a\":1,\"b\":1e400}",
        "{\"a\":1,\"b\":[\"\xff\"]}",
    };
    for (size_t n = 0; n < sizeof docs / sizeof docs[0]; n++) {
        jet_odv r, v;
        jet_od_iter it;
        int64_t i = 0;
        const char *d = docs[n];
        jet_error de;
        jet_doc *dd = jet_read(d, strlen(d), NULL, NULL, &de);
        CHECK(!dd);
        jet_doc_free(dd);
        /* JET_READ_LAZY never reads "b": only its brackets are checked */
        if (n != 8) { /* invalid UTF-8 is seen by stage 1 */
            bool ok = begin_n(d, strlen(d), JET_READ_LAZY, &r) && jet_odv_obj(&r, &it) &&
                      jet_od_obj_get(&it, "a", &v) && jet_odv_get_i64(&v, &i) && i == 1 &&
                      jet_od_finish(od);
            CHECK_MSG(ok, "lazy mode, doc %zu: %s at %zu", n, jet_code_name(oerr()->code),
                      oerr()->offset);
        }
        /* the default (and JET_READ_VALIDATE_ALL, its old name): the skip
         * of "b" by jet_od_finish fails, with the DOM reader's error */
        for (int va = 0; va < 2; va++) {
            jet_read_flags f = va ? JET_READ_VALIDATE_ALL : 0;
            bool ok = begin_n(d, strlen(d), f, &r) && jet_odv_obj(&r, &it) &&
                      jet_od_obj_get(&it, "a", &v) && jet_odv_get_i64(&v, &i) && jet_od_finish(od);
            CHECK_MSG(!ok && !jet_od_ok(od) && oerr()->code == de.code && oerr()->offset == de.offset,
                      "strict, doc %zu: %s at %zu, DOM %s at %zu", n, jet_code_name(oerr()->code),
                      oerr()->offset, jet_code_name(de.code), de.offset);
            CHECK_POS();
        }
    }
    /* an unbalanced skipped part is an error in both modes */
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags f = lazy ? JET_READ_LAZY : 0;
        jet_odv r, v;
        jet_od_iter it;
        CHECK(begin_n(LIT("{\"a\":1,\"b\":[1,2}"), f, &r) && jet_odv_obj(&r, &it) &&
              jet_od_obj_get(&it, "a", &v) && jet_odv_skip(&v));
        CHECK(!jet_od_finish(od) && !jet_od_ok(od));
        CHECK(begin_n(LIT("{\"a\":1,\"b\":[[1,2]}"), f, &r) && jet_odv_obj(&r, &it) &&
              jet_od_obj_get(&it, "a", &v) && jet_odv_skip(&v));
        CHECK(!jet_od_finish(od) && !jet_od_ok(od));
    }
    /* brackets of the wrong kind in a skipped part: the lazy mode's business
     * (no crash); the default rejects them as the DOM reader does */
    {
        static const char *const mism[] = {
            "{\"a\":1,\"b\":[1,2},\"c\":3}",
            "{\"a\":1,\"b\":{\"c\":[1,2}},\"d\":3}",
            "{\"a\":1,\"b\":[{]},\"d\":3}",
            "{\"a\":1,\"b\":{]}",
        };
        for (size_t n = 0; n < sizeof mism / sizeof mism[0]; n++) {
            jet_odv r, v;
            jet_od_iter it;
            int64_t i = 0;
            bool ok = begin_n(mism[n], strlen(mism[n]), JET_READ_LAZY, &r) && jet_odv_obj(&r, &it) &&
                      jet_od_obj_get(&it, "a", &v) && jet_odv_get_i64(&v, &i);
            CHECK(ok);
            jet_od_finish(od);
            if (begin_n(mism[n], strlen(mism[n]), JET_READ_LAZY, &r) && jet_odv_obj(&r, &it) &&
                jet_od_obj_find(&it, LIT("d"), &v))
                jet_odv_get_i64(&v, &i);
            jet_od_finish(od);
            ok = begin(mism[n], &r) && jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "a", &v) &&
                 jet_odv_get_i64(&v, &i) && jet_od_finish(od);
            CHECK_MSG(!ok && oerr()->code == JET_ERR_UNEXPECTED_CHAR, "strict finish accepts %s", mism[n]);
            ok = begin(mism[n], &r) && jet_odv_obj(&r, &it) && jet_od_obj_find(&it, LIT("d"), &v);
            CHECK_MSG(!ok && oerr()->code == JET_ERR_UNEXPECTED_CHAR, "strict find accepts %s", mism[n]);
        }
        /* but a container that is read ends with its own bracket */
        jet_odv r;
        jet_od_iter it;
        jet_str k;
        jet_odv v;
        CHECK(begin("{\"a\":1]", &r) && jet_odv_obj(&r, &it) && jet_od_obj_next(&it, &k, &v) &&
              jet_odv_skip(&v) && !jet_od_obj_next(&it, &k, &v));
        CHECK_ERR(JET_ERR_UNEXPECTED_CHAR);
        CHECK(oerr()->offset == 6);
        CHECK(begin("[1,2}", &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &v) &&
              jet_odv_skip(&v) && jet_od_arr_next(&it, &v) && jet_odv_skip(&v) &&
              !jet_od_arr_next(&it, &v));
        CHECK_ERR(JET_ERR_UNEXPECTED_CHAR);
        CHECK(oerr()->offset == 4);
    }
    /* containers left early at every state (just entered, on a value, after
     * a value, on a key's value): the strict finish checks what is left */
    {
        static const struct {
            const char *json;
            int steps; /* 0: enter the inner container; 1: and take a member; 2: and read it */
            bool ok;
        } left[] = {
            {"{\"x\":{\"a\":1,\"b\":[1,2]}}", 0, true},
            {"{\"x\":{\"a\":1,\"b\":[1,2]}}", 1, true},
            {"{\"x\":{\"a\":1,\"b\":[1,2]}}", 2, true},
            {"{\"x\":{\"a\":1,\"b\":[1,2}}}", 2, false},
            {"{\"x\":{\"a\":1,\"b\" [1,2]}}", 2, false},
            {"{\"x\":{\"a\":1,\"b\":[1,tru]}}", 1, false},
            {"{\"x\":{\"a\":1,,\"b\":2}}", 2, false},
            {"{\"x\":{,\"a\":1}}", 0, false},
            {"{\"x\":[,1]}", 0, false},
            {"{\"x\":[1 2]}", 1, false},
        };
        for (size_t n = 0; n < sizeof left / sizeof left[0]; n++) {
            jet_odv r, x, v;
            jet_od_iter it, in;
            jet_str k;
            int64_t i;
            const char *d = left[n].json;
            bool ok = begin(d, &r) && jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "x", &x);
            bool obj = ok && d[5] == '{';
            ok = ok && (obj ? jet_odv_obj(&x, &in) : jet_odv_arr(&x, &in));
            if (ok && left[n].steps >= 1) ok = obj ? jet_od_obj_next(&in, &k, &v) : jet_od_arr_next(&in, &v);
            if (ok && left[n].steps >= 2) ok = jet_odv_get_i64(&v, &i);
            ok = jet_od_finish(od);
            CHECK_MSG(ok == left[n].ok, "left early %zu (%s): finish %d, %s at %zu", n, d, ok,
                      jet_code_name(oerr()->code), oerr()->offset);
            if (!ok) {
                jet_error de;
                CHECK(!jet_validate(d, strlen(d), NULL, NULL, &de) && de.code == oerr()->code &&
                      de.offset == oerr()->offset);
            }
        }
    }
    /* a valid document reads as usual with JET_READ_VALIDATE_ALL */
    {
        jet_odv r, v;
        jet_od_iter it;
        int64_t i = 0;
        CHECK(begin_n(LIT("{\"a\":1,\"b\":[1,2,{\"c\":null}]}"), JET_READ_VALIDATE_ALL, &r) &&
              jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "a", &v) && jet_odv_get_i64(&v, &i) &&
              i == 1 && jet_od_finish(od));
    }
}

static void test_finish(void) {
    jet_odv r, v;
    jet_od_iter it;
    int64_t i = 0;

    CHECK(begin("{\"a\":1} x", &r) && jet_odv_obj(&r, &it) && jet_od_obj_get(&it, "a", &v) &&
          jet_odv_get_i64(&v, &i));
    CHECK(!jet_od_finish(od));
    CHECK_ERR(JET_ERR_TRAILING_CONTENT);
    CHECK(oerr()->offset == 8);
    CHECK_POS();
    CHECK(begin("[1]]", &r) && !jet_od_finish(od));
    CHECK_ERR(JET_ERR_TRAILING_CONTENT);
    CHECK(oerr()->offset == 3);
    CHECK(begin("1 2", &r) && jet_odv_get_i64(&r, &i) && i == 1 && !jet_od_finish(od));
    CHECK_ERR(JET_ERR_TRAILING_CONTENT);
    CHECK(oerr()->offset == 2);
    CHECK(begin("{} {}", &r) && !jet_od_finish(od));
    CHECK_ERR(JET_ERR_TRAILING_CONTENT);
    CHECK(begin("\"s\"\n\n  ,", &r) && !jet_od_finish(od));
    CHECK_ERR(JET_ERR_TRAILING_CONTENT);
    CHECK(oerr()->line == 3 && oerr()->column == 3);
    /* only whitespace after: fine, read or not */
    CHECK(begin("{\"a\":1}  \n\t\r ", &r) && jet_od_finish(od) && jet_od_ok(od));
    CHECK(begin(" 7 ", &r) && jet_odv_get_i64(&r, &i) && i == 7 && jet_od_finish(od));
    CHECK(begin("[1,[2,3]]\n", &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &v) &&
          jet_od_finish(od));
    /* finish twice gives the same answer */
    CHECK(jet_od_finish(od) && jet_od_ok(od));

    /* the cursor on the root's own close (the inline path when the byte
     * before it ends a value or opens the container; whitespace, ',' or
     * ':' there take the walk): strict and lazy agree where the input is
     * valid; strictly, a close of the wrong kind is an error */
    jet_str s;
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags f = lazy ? JET_READ_LAZY : 0;
        CHECK(begin_f("[\"a\"]", f, &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &v) &&
              jet_odv_get_str(&v, &s) && STR_IS(s, "a") && jet_od_finish(od));
        CHECK(begin_f("[\"a\" \n]", f, &r) && jet_odv_arr(&r, &it) &&
              jet_od_arr_next(&it, &v) && jet_odv_get_str(&v, &s) && jet_od_finish(od));
        CHECK(begin_f("[]", f, &r) && jet_odv_arr(&r, &it) && jet_od_finish(od));
        CHECK(begin_f("{}", f, &r) && jet_odv_obj(&r, &it) && jet_od_finish(od));
        CHECK(begin_f("{\"a\":1}", f, &r) && jet_odv_obj(&r, &it) &&
              jet_od_obj_get(&it, "a", &v) && jet_odv_get_i64(&v, &i) && i == 1 && jet_od_finish(od));
        CHECK(begin_f("[1}", f, &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &v) &&
              jet_odv_get_i64(&v, &i));
        CHECK(jet_od_finish(od) == (lazy != 0)); /* brackets only are not matched by kind */
        CHECK(begin_f("{\"a\":[]]", f, &r) && jet_odv_obj(&r, &it) &&
              jet_od_obj_get(&it, "a", &v) && jet_odv_arr(&v, &it) && !jet_od_arr_next(&it, &v));
        CHECK(jet_od_finish(od) == (lazy != 0));
        /* a find that fails stops on the close after a trailing comma */
        CHECK(begin_f("{\"a\":1,}", f | JET_READ_ALLOW_TRAILING_COMMAS, &r) &&
              jet_odv_obj(&r, &it) && !jet_od_obj_find(&it, "zz", 2, &v) && jet_od_ok(od));
        CHECK(jet_od_finish(od));
    }
    CHECK(begin_f("{\"a\":1,}", 0, &r) && jet_odv_obj(&r, &it) &&
          jet_od_obj_get(&it, "a", &v) && !jet_od_finish(od) && !jet_od_ok(od)); /* trailing comma */
}

/* jet_odv_get_str's inline path (both quotes in one word with no backslash)
 * and its general one, over every position of the string in its word. */
static void test_get_str_positions(void) {
    static const char *const want[] = {
        "ab", "", "x\"y", "0123456789012345678901234567890123456789012345678901234567890123456789"};
    char doc[256];
    for (size_t pad = 0; pad < 80; pad++) {
        size_t n = 0;
        memset(doc, ' ', pad);
        n = pad;
        n += (size_t)snprintf(doc + n, sizeof doc - n, "[\"ab\",\"\",\"x\\\"y\",\"%s\"]", want[3]);
        jet_odv r, v;
        jet_od_iter it;
        jet_str s;
        CHECK(begin_n(doc, n, 0, &r) && jet_odv_arr(&r, &it));
        for (size_t k = 0; k < 4; k++)
            CHECK_MSG(jet_od_arr_next(&it, &v) && jet_odv_get_str(&v, &s) && s.len == strlen(want[k]) &&
                          memcmp(s.ptr, want[k], s.len) == 0,
                      "pad %zu, string %zu", pad, k);
        CHECK(!jet_od_arr_next(&it, &v) && jet_od_finish(od));
        /* read twice: out of order */
        CHECK(begin_n(doc, n, 0, &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &v) &&
              jet_odv_get_str(&v, &s) && !jet_odv_get_str(&v, &s));
        CHECK_ERR(JET_ERR_OUT_OF_ORDER);
    }
}

/* ---- truncated inputs ------------------------------------------------------ */

/* Reads the root's first member or element (all of it), then finishes. */
static void od_walk_first(jet_odv *r) {
    sbuf b = {0};
    jet_od_iter it;
    jet_odv v;
    jet_str k;
    switch (jet_odv_type(r)) {
    case JET_TYPE_OBJ:
        if (jet_odv_obj(r, &it) && jet_od_obj_next(&it, &k, &v)) od_emit(&v, &b);
        break;
    case JET_TYPE_ARR:
        if (jet_odv_arr(r, &it) && jet_od_arr_next(&it, &v)) od_emit(&v, &b);
        break;
    default: od_emit(r, &b); break;
    }
    jet_od_finish(od);
    sb_free(&b);
}

/* Looks the root's members up by name, last first (wrap-around each time). */
static void od_walk_find(jet_odv *r, const char *const *keys, size_t nkeys) {
    sbuf b = {0};
    jet_od_iter it;
    jet_odv v;
    if (jet_odv_type(r) == JET_TYPE_OBJ && jet_odv_obj(r, &it))
        for (size_t n = nkeys; n-- > 0;)
            if (jet_od_obj_find(&it, keys[n], strlen(keys[n]), &v)) od_emit(&v, &b);
    jet_od_finish(od);
    sb_free(&b);
}

static void check_prefixes(const char *name, const char *json, size_t len,
                           const char *const *keys, size_t nkeys) {
    /* the whole document reads fine every way */
    sbuf b = {0};
    CHECK_MSG(od_walk_doc(json, len, 0, &b), "%s: whole document fails: %s at %zu", name,
              jet_code_name(oerr()->code), oerr()->offset);
    sb_free(&b);
    jet_odv r;
    CHECK(begin_n(json, len, 0, &r));
    od_walk_first(&r);
    CHECK_OK();
    CHECK(begin_n(json, len, 0, &r));
    od_walk_find(&r, keys, nkeys);
    CHECK_OK();
    size_t bad_full = 0, bad_first = 0, bad_find = 0, bad_pos = 0;
    for (size_t n = 0; n < len; n++) {
        /* 1: everything read */
        b.n = 0;
        if (od_walk_doc(json, n, 0, &b)) bad_full++;
        if (!err_position_ok()) bad_pos++;
        sb_free(&b);
        /* 2: the first member, then finish (which skips the rest) */
        if (begin_n(json, n, 0, &r)) od_walk_first(&r);
        if (jet_od_ok(od)) bad_first++;
        if (!err_position_ok()) bad_pos++;
        /* 3: members by name, last first */
        if (begin_n(json, n, 0, &r)) od_walk_find(&r, keys, nkeys);
        if (jet_od_ok(od)) bad_find++;
        if (!err_position_ok()) bad_pos++;
    }
    CHECK_MSG(bad_full == 0 && bad_first == 0 && bad_find == 0,
              "%s: prefixes accepted: %zu (full walk), %zu (first member), %zu (find)", name,
              bad_full, bad_first, bad_find);
    CHECK_MSG(bad_pos == 0, "%s: %zu prefixes with an error position out of place", name, bad_pos);
}

static void test_truncated(void) {
    static const char d1[] =
        "{\"a\":[1,-2.5e3,\"x\\u00e9\\\"y\",true,false,null],\"b\":{\"c\":{}},"
        "\"d\":[[],[{}]],\"e\":\"\\ud83d\\ude00\",\"f\":12345678901234567890}";
    static const char *const k1[] = {"a", "b", "d", "e", "f"};
    check_prefixes("d1", LIT(d1), k1, 5);
    static const char d2[] = "{\n  \"k\" : [ 1 , 2 ] ,\n  \"s\" : \"v\" ,\n  \"t\" : true\n}";
    static const char *const k2[] = {"k", "s", "t"};
    check_prefixes("d2", LIT(d2), k2, 3);
    static const char d3[] = "[\"EVENT\",\"sub\",{\"id\":\"ab\",\"kind\":1,\"tags\":[[\"e\",\"x\"],"
                             "[\"p\"]],\"content\":\"caf\xc3\xa9\\n\"}]";
    check_prefixes("d3", LIT(d3), NULL, 0);
    static const char *const k4[] = {"user", "orders", "requestId", "timestamp"};
    check_prefixes("api_sample", api_sample_json, API_SAMPLE_LEN, k4, 4);
}

/* ---- kernels, the DOM, reuse, allocation ---------------------------------- */

typedef struct doc_ref {
    const char *name;
    char *text;
    size_t len;
} doc_ref;

/* Everything the cursor makes of the documents, as text: each walked whole,
 * then the root's members found in reverse order (every find goes back),
 * the syntax cases, and prefixes of the first document. */
static void walk_result(const char *json, size_t len, bool exact, sbuf *out) {
    size_t n0 = out->n;
    if (od_walk_doc_x(json, len, 0, exact, out)) return;
    /* a failed walk: only its outcome (how much was read before the error
     * depends on when stage 1 saw it: at the start, or window by window) */
    size_t k = out->n - walk_content_end;
    memmove(out->p + n0, out->p + walk_content_end, k);
    out->n = n0 + k;
    out->p[out->n] = '\0';
}

static void cursor_results(const doc_ref *docs, size_t ndocs, sbuf *out) {
    for (size_t d = 0; d < ndocs; d++) {
        sb_puts(out, docs[d].name);
        walk_result(docs[d].text, docs[d].len, true, out);
        jet_odv r;
        if (begin_exact(docs[d].text, docs[d].len, 0, &r)) {
            jet_od_iter it;
            jet_str key;
            jet_odv v;
            const char *keys[64];
            size_t nkeys = 0;
            if (jet_odv_type(&r) == JET_TYPE_OBJ && jet_odv_obj(&r, &it))
                while (nkeys < 64 && jet_od_obj_next(&it, &key, &v) && jet_odv_skip(&v)) {
                    char *kc = (char *)check_xmalloc(key.len + 1);
                    memcpy(kc, key.ptr, key.len);
                    kc[key.len] = '\0';
                    keys[nkeys++] = kc;
                }
            if (begin_exact(docs[d].text, docs[d].len, 0, &r)) od_walk_find(&r, keys, nkeys);
            char tmp[80];
            snprintf(tmp, sizeof tmp, "#%s@%zu", jet_code_name(oerr()->code), oerr()->offset);
            sb_puts(out, tmp);
            for (size_t n = 0; n < nkeys; n++) free((void *)keys[n]);
        }
    }
    for (size_t c = 0; c < sizeof syntax_cases / sizeof syntax_cases[0]; c++)
        walk_result(syntax_cases[c].json, strlen(syntax_cases[c].json), false, out);
    for (size_t c = 0; c < 12 && ndocs; c++) /* prefixes of the first document */
        walk_result(docs[0].text, docs[0].len * c / 12, false, out);
}

/* Where two result texts first differ. */
static size_t first_diff(const sbuf *a, const sbuf *b) {
    size_t at = 0;
    while (at < a->n && at < b->n && a->p[at] == b->p[at]) at++;
    return at;
}

static void test_kernels_and_dom(const doc_ref *docs, size_t ndocs) {
    static const char *const names[] = {"scalar", "swar", "sse2", "avx2", "avx512", "neon"};
    const char *initial = jet_kernel_name();
    sbuf ref = {0};
    const char *ref_kernel = NULL;
    size_t nk = 0;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (!jet_kernel_set(names[k])) continue;
        nk++;
        sbuf out = {0};
        cursor_results(docs, ndocs, &out);
        if (!ref_kernel) {
            ref = out;
            ref_kernel = names[k];
        } else {
            size_t at = first_diff(&ref, &out);
            CHECK_MSG(out.n == ref.n && at == ref.n,
                      "kernel %s differs from %s (at byte %zu of the results: ...%.60s)",
                      names[k], ref_kernel, at, at < out.n ? out.p + at : "");
            sb_free(&out);
        }
    }
    CHECK(nk >= 2);
    sb_free(&ref);
    CHECK(jet_kernel_set(initial));
    /* the cursor reads what the DOM reads */
    for (size_t d = 0; d < ndocs; d++)
        check_agrees_with_dom(docs[d].name, docs[d].text, docs[d].len, true);
}

static void test_reuse_and_alloc(void) {
    /* one cursor, many documents: every nostr message reads as the DOM reads it */
    size_t len = 0;
    char *nd = read_shared("corpora/nostr_relay.ndjson", &len);
    CHECK(nd != NULL);
    if (nd) {
        size_t lines = 0;
        for (char *p = nd, *end = nd + len; p < end;) {
            char *nl = memchr(p, '\n', (size_t)(end - p));
            size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
            if (n) {
                char name[32];
                snprintf(name, sizeof name, "nostr line %zu", lines + 1);
                check_agrees_with_dom(name, p, n, false);
                lines++;
            }
            p += n + 1;
        }
        CHECK_MSG(lines == 35, "nostr lines: %zu", lines);
        free(nd);
    }

    /* restarting on a document no larger than the last allocates nothing */
    check_counter c;
    memset(&c, 0, sizeof c);
    jet_alloc a = CHECK_COUNTER_ALLOC(&c);
    jet_od *saved = od;
    od = jet_od_new(&a);
    CHECK(od != NULL);
    if (od) {
        /* two documents of the same size, different content */
        char *doc1 = check_dup_exact(api_sample_json, API_SAMPLE_LEN);
        char *doc2 = check_dup_exact(api_sample_json, API_SAMPLE_LEN);
        for (size_t n = 0; n < API_SAMPLE_LEN; n++)
            if (doc2[n] >= '1' && doc2[n] <= '8') doc2[n]++;
        sbuf b1 = {0}, b2 = {0}, b3 = {0}, b4 = {0};
        CHECK(od_walk_doc(doc1, API_SAMPLE_LEN, 0, &b1));
        long m0 = c.mallocs + c.reallocs;
        CHECK(od_walk_doc(doc2, API_SAMPLE_LEN, 0, &b2));
        CHECK(od_walk_doc(doc1, API_SAMPLE_LEN, 0, &b3));
        CHECK(od_walk_doc(LIT("{\"a\":[\"\\u00e9\",1.5]}"), 0, &b4));
        CHECK_MSG(c.mallocs + c.reallocs == m0, "restarts allocated %ld times",
                  c.mallocs + c.reallocs - m0);
        CHECK(b1.n == b3.n && memcmp(b1.p, b3.p, b1.n) == 0);
        CHECK(!(b1.n == b2.n && memcmp(b1.p, b2.p, b1.n) == 0));
        /* the same with VALIDATE_ALL (its scratch is reused too) */
        CHECK(od_walk_doc(doc1, API_SAMPLE_LEN, JET_READ_VALIDATE_ALL, &b4));
        m0 = c.mallocs + c.reallocs;
        CHECK(od_walk_doc(doc2, API_SAMPLE_LEN, JET_READ_VALIDATE_ALL, &b4));
        CHECK(od_walk_doc(doc1, API_SAMPLE_LEN, JET_READ_VALIDATE_ALL, &b4));
        CHECK_MSG(c.mallocs + c.reallocs == m0, "VALIDATE_ALL restarts allocated %ld times",
                  c.mallocs + c.reallocs - m0);
        jet_od_free(od);
        CHECK_MSG(c.live == 0 && c.mallocs > 0, "cursor left %ld blocks (%ld mallocs)", c.live,
                  c.mallocs);
        free(doc1);
        free(doc2);
        sb_free(&b1);
        sb_free(&b2);
        sb_free(&b3);
        sb_free(&b4);
    }
    od = saved;
    jet_od_free(NULL);
}

/* ---- twitter.json checksum ------------------------------------------------- */

static void tw_print(const char *what, const twitter_stats *t) {
    fprintf(stderr,
            "  %s: statuses %llu ids %llu users %llu followers %llu friends %llu retweets %llu "
            "favorites %llu verified %llu text %llu screen %llu name %llu created %llu hashtags "
            "%llu/%llu\n",
            what, (unsigned long long)t->statuses, (unsigned long long)t->id_sum,
            (unsigned long long)t->user_id_sum, (unsigned long long)t->followers_sum,
            (unsigned long long)t->friends_sum, (unsigned long long)t->retweet_sum,
            (unsigned long long)t->favorite_sum, (unsigned long long)t->verified,
            (unsigned long long)t->text_bytes, (unsigned long long)t->screen_name_bytes,
            (unsigned long long)t->name_bytes, (unsigned long long)t->created_at_bytes,
            (unsigned long long)t->hashtags, (unsigned long long)t->hashtag_bytes);
}

static bool od_add_u64(jet_od_iter *it, const char *k, uint64_t *acc) {
    jet_odv v;
    uint64_t x;
    if (!jet_od_obj_get(it, k, &v) || !jet_odv_get_u64(&v, &x)) return false;
    *acc += x;
    return true;
}
static bool od_add_len(jet_od_iter *it, const char *k, uint64_t *acc) {
    jet_odv v;
    jet_str s;
    if (!jet_od_obj_get(it, k, &v) || !jet_odv_get_str(&v, &s)) return false;
    *acc += s.len;
    return true;
}

/* The checksum through the cursor, fields asked for in a fixed order that is
 * not the document's (so jet_od_obj_get wraps around). */
static bool tw_stats_od(const char *json, size_t len, twitter_stats *t) {
    memset(t, 0, sizeof *t);
    jet_odv root, v, st, hv;
    jet_od_iter rit, sit, s, u, e, hit, h;
    if (!jet_od_start(od, json, len, NULL, &root) || !jet_odv_obj(&root, &rit) ||
        !jet_od_obj_get(&rit, "statuses", &v) || !jet_odv_arr(&v, &sit))
        return false;
    while (jet_od_arr_next(&sit, &st)) {
        t->statuses++;
        bool verified = false;
        if (!jet_odv_obj(&st, &s) || !od_add_u64(&s, "id", &t->id_sum) ||
            !od_add_len(&s, "text", &t->text_bytes) ||
            !od_add_len(&s, "created_at", &t->created_at_bytes) ||
            !od_add_u64(&s, "retweet_count", &t->retweet_sum) ||
            !od_add_u64(&s, "favorite_count", &t->favorite_sum) ||
            !jet_od_obj_get(&s, "user", &v) || !jet_odv_obj(&v, &u) ||
            !od_add_u64(&u, "id", &t->user_id_sum) ||
            !od_add_len(&u, "screen_name", &t->screen_name_bytes) ||
            !od_add_len(&u, "name", &t->name_bytes) ||
            !od_add_u64(&u, "followers_count", &t->followers_sum) ||
            !od_add_u64(&u, "friends_count", &t->friends_sum) ||
            !jet_od_obj_get(&u, "verified", &v) || !jet_odv_get_bool(&v, &verified) ||
            !jet_od_obj_get(&s, "entities", &v) || !jet_odv_obj(&v, &e) ||
            !jet_od_obj_get(&e, "hashtags", &v) || !jet_odv_arr(&v, &hit))
            return false;
        t->verified += verified;
        while (jet_od_arr_next(&hit, &hv)) {
            t->hashtags++;
            if (!jet_odv_obj(&hv, &h) || !od_add_len(&h, "text", &t->hashtag_bytes)) return false;
        }
    }
    return jet_od_finish(od);
}

static bool tw_equal(const twitter_stats *a, const twitter_stats *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

/* The outcome at the end of a walk's text (which may hold NUL bytes). */
static const char *outcome_of(const sbuf *b) {
    for (size_t i = b->n; i-- > 0;)
        if (b->p[i] == '|') return b->p + i;
    return NULL;
}

/* A document of about n bytes whose last string holds `bad` (a stage-1
 * error late in the input). */
static char *late_error_doc(size_t n, const char *bad, size_t *len) {
    char *d = (char *)check_xmalloc(n + 64);
    size_t k = 0;
    d[k++] = '[';
    while (k + 16 < n) {
        memcpy(d + k, "\"abc\\n\", 12345,", 15);
        k += 15;
    }
    size_t bl = strlen(bad);
    memcpy(d + k, bad, bl);
    k += bl;
    if (bad[bl - 1] != '\\') d[k++] = ']'; /* else the input ends in the string */
    *len = k;
    return d;
}

/* The cursor over bounded windows (jet__od_window_set: two halves of a few
 * words instead of 2 MiB), so that every token, string, escape and
 * container meets a window boundary somewhere, and finds go back across
 * many windows: the same results as one window over the whole input. */
static void test_windows(const doc_ref *docs, size_t ndocs) {
    sbuf ref = {0};
    cursor_results(docs, ndocs, &ref);
    twitter_stats tw_ref;
    bool tw_ok = ndocs && strcmp(docs[0].name, "twitter.json") == 0 &&
                 tw_stats_od(docs[0].text, docs[0].len, &tw_ref);
    static const char *const bad[] = {"\"x\xff\"", "\"x\x01\"", "\"x\\"};
    sbuf bad_ref[3] = {{0}};
    size_t bad_len[3];
    char *bad_doc[3];
    for (int b = 0; b < 3; b++) {
        bad_doc[b] = late_error_doc(5000, bad[b], &bad_len[b]);
        CHECK(!od_walk_doc(bad_doc[b], bad_len[b], 0, &bad_ref[b]));
    }
    static const size_t halves[] = {1, 2, 4, 16, 64}; /* powers of two */
    for (size_t h = 0; h < sizeof halves / sizeof halves[0]; h++) {
        jet__od_window_set(halves[h]);
        sbuf out = {0};
        cursor_results(docs, ndocs, &out);
        size_t at = first_diff(&ref, &out);
        CHECK_MSG(out.n == ref.n && at == ref.n,
                  "windows of 2 x %zu words differ from one window (at byte %zu: ...%.60s vs %.60s)",
                  halves[h], at, at < out.n ? out.p + at : "", at < ref.n ? ref.p + at : "");
        sb_free(&out);
        if (tw_ok) {
            twitter_stats t;
            CHECK(tw_stats_od(docs[0].text, docs[0].len, &t) && tw_equal(&tw_ref, &t));
        }
        /* an error in a later window: found when the cursor gets there,
         * reported as from the start (code, offset, line, column, path) */
        for (int b = 0; b < 3; b++) {
            sbuf o = {0};
            CHECK(!od_walk_doc(bad_doc[b], bad_len[b], 0, &o));
            const char *want = outcome_of(&bad_ref[b]), *got = outcome_of(&o);
            CHECK_MSG(want && got && strcmp(want, got) == 0, "late error %d, 2 x %zu words: %s vs %s",
                      b, halves[h], got ? got : "", want ? want : "");
            sb_free(&o);
        }
        /* a call that meets the failing window returns false, whichever
         * it is; before it, every call succeeds with the cursor sound */
        for (int b = 0; b < 3; b++) {
            jet_odv r, e;
            jet_od_iter it;
            bool sound = true;
            unsigned k = 0;
            if (begin_exact(bad_doc[b], bad_len[b], 0, &r) && jet_odv_arr(&r, &it))
                while (jet_od_arr_next(&it, &e)) {
                    jet_str sv;
                    bool got = (k % 3 == 0)   ? jet_odv_skip(&e)
                               : (k % 3 == 1) ? jet_odv_get_raw(&e, &sv)
                                              : (jet_odv_type(&e) == JET_TYPE_STR
                                                     ? jet_odv_get_str(&e, &sv)
                                                     : jet_odv_skip(&e));
                    k++;
                    if (got && !jet_od_ok(od)) sound = false;
                    if (got && k % 3 == 2 && (sv.ptr < bad_doc[b] ||
                                              sv.ptr + sv.len > bad_doc[b] + bad_len[b]))
                        sound = false;
                }
            CHECK_MSG(sound && !jet_od_ok(od), "late error %d, 2 x %zu words: a call succeeded "
                      "after the failure (%u values)", b, halves[h], k);
        }
        /* the index stays within the window whatever the input's size */
        jet_od *fresh = jet_od_new(NULL);
        jet_odv r;
        if (fresh && ndocs && jet_od_start(fresh, docs[0].text, docs[0].len, NULL, &r)) {
            CHECK(jet_odv_skip(&r) && jet_od_finish(fresh));
            CHECK_MSG(fresh->index_cap <= 3 * 2 * halves[h], "index of %zu words for 2 x %zu",
                      fresh->index_cap, halves[h]);
        }
        jet_od_free(fresh);
    }
    jet__od_window_set(0);
    for (int b = 0; b < 3; b++) {
        sb_free(&bad_ref[b]);
        free(bad_doc[b]);
    }
    sb_free(&ref);
}

/* A number or a literal that goes wrong at the token glued after it
 * (`[-]`, `[1,nul[`): the DOM reader names that token's byte, the cursor
 * the scalar's own. Stage 1 failing further on (an unclosed string past
 * 300 blanks) makes the whole index report the DOM reader's error, while
 * through the window the cursor meets the scalar first: both must give the
 * same code, offset and JSON Pointer (the scalar's), for a full walk and
 * for the strict skip, and so must an input valid but for the scalar. */
static void test_glued_scalar_errors(void) {
    static const struct {
        const char *head;
        jet_code code;
        const char *path;
    } cases[] = {
        {"[-]", JET_ERR_NUMBER, "/0"},
        {"[-[[]", JET_ERR_NUMBER, "/0"},
        {"[1,nul[", JET_ERR_LITERAL, "/1"},
        {"{\"a\":-]", JET_ERR_NUMBER, "/a"},
        {"{\"a\":[2,tru}", JET_ERR_LITERAL, "/a/1"},
        {"{\"a\":{\"b\":1.e}}", JET_ERR_NUMBER, "/a/b"},
        {"[[0,01]]", JET_ERR_NUMBER, "/0/1"},
    };
    char doc[512];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t hl = strlen(cases[c].head);
        memcpy(doc, cases[c].head, hl);
        memset(doc + hl, ' ', 300);
        for (int late = 0; late < 2; late++) {
            size_t len = hl + 300;
            if (late) memcpy(doc + len - 2, "\"x", 2); /* a string left open */
            for (int walk = 0; walk < 2; walk++) {
                char seen[2][160];
                for (int w = 0; w < 2; w++) {
                    jet__od_window_set(w ? 1 : 0);
                    jet_odv r;
                    sbuf b = {0};
                    if (walk == 0)
                        od_walk_doc(doc, len, 0, &b);
                    else if (begin_n(doc, len, 0, &r) && jet_odv_skip(&r))
                        jet_od_finish(od);
                    sb_free(&b);
                    const jet_error *e = oerr();
                    snprintf(seen[w], sizeof seen[w], "%s@%zu %s", jet_code_name(e->code), e->offset,
                             ostr(e->path));
                    CHECK_MSG(!jet_od_ok(od) && e->code == cases[c].code && path_is(cases[c].path),
                              "glued %s (late %d, walk %d, window %d): %s", cases[c].head, late, walk,
                              w, seen[w]);
                }
                CHECK_MSG(strcmp(seen[0], seen[1]) == 0, "glued %s (late %d, walk %d): %s vs %s",
                          cases[c].head, late, walk, seen[0], seen[1]);
            }
        }
    }
    jet__od_window_set(0);
}

static void test_twitter(const char *json, size_t len) {
    twitter_stats dom, cur_sums;
    CHECK(twitter_stats_of_text(json, len, &dom));
    CHECK(dom.statuses == 100 && dom.hashtags > 0 && dom.text_bytes > 0 && dom.followers_sum > 0);
    bool ok = tw_stats_od(json, len, &cur_sums);
    CHECK_MSG(ok, "twitter via the cursor: %s at %zu (%s), path %s", jet_code_name(oerr()->code),
              oerr()->offset, ostr(oerr()->msg), ostr(oerr()->path));
    CHECK(tw_equal(&dom, &cur_sums));
    if (!tw_equal(&dom, &cur_sums)) {
        tw_print("DOM   ", &dom);
        tw_print("cursor", &cur_sums);
    }

    /* the same file with every object's members shuffled, pretty-printed */
    size_t shn = 0;
    char *sh = shuffle_doc(json, len, 0x9E3779B97F4A7C15ull, &shn);
    CHECK(sh != NULL);
    if (!sh) return;
    CHECK(shn > len);
    twitter_stats dom2, od2;
    CHECK(twitter_stats_of_text(sh, shn, &dom2) && tw_equal(&dom, &dom2));
    ok = tw_stats_od(sh, shn, &od2);
    CHECK_MSG(ok, "shuffled twitter via the cursor: %s at %zu (%s), path %s",
              jet_code_name(oerr()->code), oerr()->offset, ostr(oerr()->msg), ostr(oerr()->path));
    CHECK(tw_equal(&dom, &od2));
    if (!tw_equal(&dom, &od2)) tw_print("cursor (shuffled)", &od2);
    check_agrees_with_dom("shuffled twitter", sh, shn, true);
    free(sh);
}

int main(void) {
    od = jet_od_new(NULL);
    CHECK(od != NULL);
    if (!od) return CHECK_DONE("test_ondemand");
    CHECK(jet_od_ok(od) && oerr()->code == JET_OK);

    test_scalars();
    test_iteration();
    test_find();
    test_type_errors();
    test_out_of_order();
    test_sticky();
    test_syntax_errors();
    test_validate_all();
    test_finish();
    test_get_str_positions();
    test_truncated();
    test_glued_scalar_errors();

    static const char *const corpora[] = {"twitter.json", "citm_catalog.json",
                                          "github_events.json", "canada.json"};
    doc_ref docs[4];
    size_t ndocs = 0;
    for (size_t i = 0; i < 4; i++) {
        char rel[64];
        snprintf(rel, sizeof rel, "corpora/%s", corpora[i]);
        size_t len = 0;
        char *t = read_shared(rel, &len);
        CHECK(t != NULL);
        if (!t) continue;
        docs[ndocs].name = corpora[i];
        docs[ndocs].text = check_dup_exact(t, len);
        docs[ndocs].len = len;
        free(t);
        ndocs++;
    }
    test_kernels_and_dom(docs, ndocs);
    test_windows(docs, ndocs);
    test_reuse_and_alloc();
    if (ndocs && strcmp(docs[0].name, "twitter.json") == 0) test_twitter(docs[0].text, docs[0].len);
    for (size_t i = 0; i < ndocs; i++) free(docs[i].text);

    jet_od_free(od);
    free(cur_copy);
    return CHECK_DONE("test_ondemand");
}
