/* test_num_parse.c — exact number parsing: shared vectors (with a count of
 * the qualifying lines per file), edge cases, error positions, flags, and a
 * randomized comparison with strtod/strtof (test reference only; the library
 * never calls them). Every parse runs exactly sized and padded, so that both
 * the careful path and the inline fast path are covered (see parse_n).
 * JET_LONG_TESTS=1: 2 * 10^7 random cases and 5 * 10^6 round trips. */
#include <float.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "num.h"
#include "pow10_table.h"

/* ---- helpers ------------------------------------------------------------ */

static uint64_t dbits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
static uint32_t fbits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* Independent RFC 8259 number grammar check: 1 when all `n` bytes form one
 * JSON number. */
static int is_json_number(const char *s, size_t n) {
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    if (i >= n) return 0;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    } else {
        return 0;
    }
    if (i < n && s[i] == '.') {
        i++;
        size_t st = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == st) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t st = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == st) return 0;
    }
    return i == n;
}

/* Parse a copy of exactly `n` bytes (heap, no terminator: ASan sees overreads),
 * followed by `pad` bytes of `padc`. */
typedef struct res {
    const char *ret; /* NULL on error */
    size_t used;
    jet_num num;
    jet_code code;
    size_t err_ofs;
} res;

static res parse_pad(const char *s, size_t n, size_t pad, char padc, jet_read_flags flags) {
    char *buf = (char *)malloc(n + pad ? n + pad : 1);
    memcpy(buf, s, n);
    memset(buf + n, padc, pad);
    res r;
    memset(&r, 0, sizeof r);
    const char *err_at = NULL;
    r.code = JET_OK;
    r.ret = jet_num_parse(buf, buf + n + pad, flags, &r.num, &r.code, &err_at);
    if (r.ret) r.used = (size_t)(r.ret - buf);
    else r.err_ofs = (size_t)(err_at - buf);
    r.ret = r.ret ? s + r.used : NULL;
    free(buf);
    return r;
}

/*
 * jet_num_parse reads whole words without checking `end` when at least 64
 * bytes follow the number's first byte (its fast path), and goes byte by
 * byte otherwise. Every parse of the tests runs three ways: exactly `n`
 * bytes (the careful path for short inputs), then followed by commas so
 * that the buffer is exactly 64 bytes (the fast path at its smallest
 * margin: ASan catches any read beyond it) and 100 bytes. The padded runs
 * must agree with the exact one: same result, or, where the exact one hit
 * the end of the input (JET_ERR_TRUNCATED at n), an error at n.
 */
static unsigned long pad_checked;

static res parse_n(const char *s, size_t n, jet_read_flags flags) {
    res r = parse_pad(s, n, 0, 0, flags);
    size_t pads[2] = {n < 64 ? 64 - n : 1, 100};
    for (int k = 0; k < 2; k++) {
        res q = parse_pad(s, n, pads[k], ',', flags);
        int same;
        if (r.ret) {
            same = q.ret && q.used == r.used && q.num.kind == r.num.kind &&
                   (r.num.kind == JET_NUM_RAW || q.num.v.u == r.num.v.u);
        } else if (r.code == JET_ERR_TRUNCATED && r.err_ofs == n) {
            same = !q.ret && q.err_ofs == n && q.code != JET_ERR_TRUNCATED;
        } else {
            same = !q.ret && q.code == r.code && q.err_ofs == r.err_ofs;
        }
        if (!same)
            CHECK_MSG(0, "\"%.200s\" + %zu commas: got ret=%d used=%zu kind=%d %016" PRIx64
                         " code=%d at %zu; exact: ret=%d used=%zu kind=%d %016" PRIx64 " code=%d at %zu",
                      s, pads[k], q.ret != NULL, q.used, (int)q.num.kind, q.num.v.u, (int)q.code, q.err_ofs,
                      r.ret != NULL, r.used, (int)r.num.kind, r.num.v.u, (int)r.code, r.err_ofs);
        pad_checked++;
    }
    return r;
}
static res parse_s(const char *s, jet_read_flags flags) { return parse_n(s, strlen(s), flags); }

typedef struct res32 {
    int ok;
    size_t used;
    float f;
    jet_code code;
    size_t err_ofs;
} res32;

static res32 parse32_n(const char *s, size_t n) {
    char *buf = (char *)malloc(n ? n : 1);
    memcpy(buf, s, n);
    res32 r;
    memset(&r, 0, sizeof r);
    const char *err_at = NULL;
    const char *e = jet_num_parse_f32(buf, buf + n, &r.f, &r.code, &err_at);
    r.ok = e != NULL;
    if (e) r.used = (size_t)(e - buf);
    else r.err_ofs = (size_t)(err_at - buf);
    free(buf);
    return r;
}
static res32 parse32_s(const char *s) { return parse32_n(s, strlen(s)); }

/* The double a successful parse stands for. */
static double num_as_double(const jet_num *n) {
    switch (n->kind) {
    case JET_NUM_UINT: return (double)n->v.u;
    case JET_NUM_SINT: return (double)n->v.i;
    case JET_NUM_REAL: return n->v.d;
    default: return NAN;
    }
}

/* Expect a REAL with exactly these bits, whole input consumed. */
static void expect_real(const char *s, uint64_t bits) {
    res r = parse_s(s, 0);
    CHECK_MSG(r.ret && r.used == strlen(s) && r.num.kind == JET_NUM_REAL && dbits(r.num.v.d) == bits,
              "%s: got ret=%d kind=%d bits=%016" PRIx64 " want %016" PRIx64, s, r.ret != NULL,
              (int)r.num.kind, dbits(r.num.v.d), bits);
}
static void expect_f32(const char *s, uint32_t bits) {
    res32 r = parse32_s(s);
    CHECK_MSG(r.ok && r.used == strlen(s) && fbits(r.f) == bits, "f32 %s: got ok=%d %08" PRIx32 " want %08" PRIx32,
              s, r.ok, fbits(r.f), bits);
}
static void expect_err(const char *s, jet_read_flags flags, jet_code code, size_t ofs) {
    res r = parse_s(s, flags);
    CHECK_MSG(!r.ret && r.code == code && r.err_ofs == ofs, "%s: want error %d at %zu, got ret=%d code=%d at %zu", s,
              (int)code, ofs, r.ret != NULL, (int)r.code, r.err_ofs);
}
/* Accepted, but the number stops after `used` bytes. */
static void expect_stop(const char *s, size_t used) {
    res r = parse_s(s, 0);
    CHECK_MSG(r.ret && r.used == used, "%s: want stop at %zu, got ret=%d used=%zu", s, used, r.ret != NULL, r.used);
}

/* ---- shared vectors ----------------------------------------------------- */

static void test_vector_file(const char *dir, const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/numbers/%s", dir, name);
    size_t len;
    char *buf = check_read_file(path, &len);
    if (!buf) {
        printf("  %-24s missing (skipped)\n", name);
        return;
    }
    unsigned long qualified = 0, passed = 0, invalid = 0, rejected = 0;
    char *line = buf;
    while (line < buf + len) {
        char *nl = memchr(line, '\n', (size_t)(buf + len - line));
        char *lend = nl ? nl : buf + len;
        char *next = nl ? nl + 1 : buf + len;
        if (lend > line && lend[-1] == '\r') lend--;
        unsigned f16;
        uint32_t f32;
        uint64_t f64;
        int off = 0;
        char save = *lend;
        *lend = 0;
        if (sscanf(line, "%x %" SCNx32 " %" SCNx64 " %n", &f16, &f32, &f64, &off) == 3 && off > 0) {
            const char *s = line + off;
            size_t n = strlen(s);
            if (is_json_number(s, n)) {
                qualified++;
                int ok = 1;
                res r = parse_n(s, n, 0);
                if (f64 == UINT64_C(0x7FF0000000000000)) {
                    ok &= !r.ret && r.code == JET_ERR_NUMBER_RANGE;
                } else {
                    ok &= r.ret && r.used == n && r.num.kind != JET_NUM_RAW &&
                          dbits(num_as_double(&r.num)) == f64;
                }
                res32 r32 = parse32_n(s, n);
                if (f32 == UINT32_C(0x7F800000)) ok &= !r32.ok && r32.code == JET_ERR_NUMBER_RANGE;
                else ok &= r32.ok && r32.used == n && fbits(r32.f) == f32;
                CHECK_MSG(ok, "%s: \"%s\" want %016" PRIx64 "/%08" PRIx32 " got ret=%d kind=%d %016" PRIx64
                              " / ok=%d %08" PRIx32,
                          name, s, f64, f32, r.ret != NULL, (int)r.num.kind, dbits(num_as_double(&r.num)),
                          r32.ok, fbits(r32.f));
                passed += (unsigned long)ok;
            } else {
                invalid++;
                res r = parse_n(s, n, 0);
                int rej = !r.ret || r.used != n;
                res32 r32 = parse32_n(s, n);
                rej &= !r32.ok || r32.used != n;
                CHECK_MSG(rej, "%s: invalid \"%s\" was accepted", name, s);
                rejected += (unsigned long)rej;
            }
        }
        *lend = save;
        line = next;
    }
    printf("  %-24s %6lu qualified, %6lu passed; %5lu not JSON numbers, %5lu rejected\n", name, qualified,
           passed, invalid, rejected);
    free(buf);
}

static void test_vectors(void) {
    const char *dir = check_shared_dir();
    static const char *files[] = {"freetype-2-7.txt", "google-wuffs.txt", "lemire-fast-float.txt",
                                  "more-test-cases.txt", "tencent-rapidjson.txt"};
    printf("numbers vectors from %s/numbers:\n", dir);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) test_vector_file(dir, files[i]);
}

/* ---- hand-written edge cases -------------------------------------------- */

static void test_integers(void) {
    res r = parse_s("0", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_UINT && r.num.v.u == 0);
    r = parse_s("-0", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && dbits(r.num.v.d) == UINT64_C(0x8000000000000000));
    r = parse_s("123", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_UINT && r.num.v.u == 123);
    r = parse_s("-123", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_SINT && r.num.v.i == -123);
    r = parse_s("9999999999999999999", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_UINT && r.num.v.u == UINT64_C(9999999999999999999));
    r = parse_s("18446744073709551615", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_UINT && r.num.v.u == UINT64_MAX);
    r = parse_s("18446744073709551616", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == 18446744073709551616.0);
    r = parse_s("18446744073709551616", JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_RAW && r.used == 20);
    r = parse_s("18446744073709551615", JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_UINT && r.num.v.u == UINT64_MAX);
    r = parse_s("99999999999999999999", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == 1e20);
    r = parse_s("9223372036854775807", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_UINT && r.num.v.u == INT64_MAX);
    r = parse_s("-9223372036854775807", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_SINT && r.num.v.i == -INT64_MAX);
    r = parse_s("-9223372036854775808", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_SINT && r.num.v.i == INT64_MIN);
    r = parse_s("-9223372036854775809", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == -9223372036854775808.0);
    r = parse_s("-9223372036854775809", JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_RAW && r.used == 20);
    r = parse_s("-18446744073709551615", 0);
    /* (double): with FLT_EVAL_METHOD 2 (i386's x87) a constant keeps long
     * double precision, and this one is exact there, not in a double */
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == (double)-18446744073709551615.0);
    r = parse_s("-0", JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && dbits(r.num.v.d) == UINT64_C(0x8000000000000000));
    /* 2^64 + 2^11 + 1 is just above a halfway point between doubles */
    r = parse_s("18446744073709553665", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && dbits(r.num.v.d) == UINT64_C(0x43F0000000000001));
    r = parse_s("18446744073709553664", 0); /* exact tie: to even */
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && dbits(r.num.v.d) == UINT64_C(0x43F0000000000000));
    /* A 400-digit integer: REAL, or RAW. */
    char big[402];
    memset(big, '9', 400);
    big[400] = 0;
    r = parse_s(big, 0);
    CHECK(!r.ret && r.code == JET_ERR_NUMBER_RANGE);
    r = parse_s(big, JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_RAW && r.used == 400);
    big[0] = '1';
    memset(big + 1, '0', 300);
    big[301] = 0;
    r = parse_s(big, 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == (double)1e300);
    /* Fraction or exponent make it REAL. */
    r = parse_s("1.0", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == 1.0);
    r = parse_s("1e2", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == 100.0);
    r = parse_s("-1E+2", 0);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == -100.0);
}

static void test_reals(void) {
    expect_real("0.0", 0);
    expect_real("-0.0", UINT64_C(0x8000000000000000));
    expect_real("0e0", 0);
    expect_real("-0e-5", UINT64_C(0x8000000000000000));
    expect_real("0.000e999999999999999999999", 0);
    expect_real("1.5", dbits(1.5));
    expect_real("-65.613616999999977", dbits(-65.613616999999977));
    expect_real("0.1", dbits(0.1));
    expect_real("3.141592653589793", dbits(3.141592653589793));
    expect_real("1e22", dbits(1e22));
    expect_real("1e23", dbits(1e23));
    /* Subnormals and zero boundaries. */
    expect_real("4.9e-324", UINT64_C(1));
    expect_real("5e-324", UINT64_C(1));
    expect_real("2.4703282292062327e-324", 0); /* just below half the min subnormal */
    expect_real("2.4703282292062328e-324", UINT64_C(1));
    expect_real("2.47032822920623272088e-324", 0); /* 2^-1075 is 2.4703282292062327208828...e-324 */
    expect_real("-2.4703282292062328e-324", UINT64_C(0x8000000000000001));
    expect_real("1e-400", 0);
    expect_real("-1e-400", UINT64_C(0x8000000000000000));
    expect_real("1e-100000", 0);
    expect_real("1e-99999999999999999999999999", 0);
    expect_real("2.2250738585072011e-308", UINT64_C(0x000FFFFFFFFFFFFF));
    expect_real("2.2250738585072014e-308", UINT64_C(0x0010000000000000));
    expect_real("2.2250738585072012e-308", UINT64_C(0x0010000000000000));
    /* Largest normal and overflow. */
    expect_real("1.7976931348623157e308", UINT64_C(0x7FEFFFFFFFFFFFFF));
    expect_real("1.7976931348623158e308", UINT64_C(0x7FEFFFFFFFFFFFFF));
    expect_real("1.7976931348623158079e308", UINT64_C(0x7FEFFFFFFFFFFFFF)); /* just below halfway */
    expect_err("1.7976931348623159e308", 0, JET_ERR_NUMBER_RANGE, 0);
    expect_err("1.7976931348623158079372897140531e308", 0, JET_ERR_NUMBER_RANGE, 0); /* above halfway */
    expect_real("1.7976931348623158079372897140529e308", UINT64_C(0x7FEFFFFFFFFFFFFF)); /* below */
    expect_err("1e309", 0, JET_ERR_NUMBER_RANGE, 0);
    expect_err("1e400", 0, JET_ERR_NUMBER_RANGE, 0);
    expect_err("-1e400", 0, JET_ERR_NUMBER_RANGE, 0);
    expect_err("1e100000", 0, JET_ERR_NUMBER_RANGE, 0);
    expect_err("1e99999999999999999999999999", 0, JET_ERR_NUMBER_RANGE, 0);
    res r = parse_s("1e400", JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_RAW && r.used == 5);
    r = parse_s("-1e400", JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_RAW && r.used == 6);
    r = parse_s("1e300", JET_READ_BIGNUM_AS_RAW);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == (double)1e300);
    /* Halfway cases between doubles (ties to even), and just off them. */
    expect_real("9007199254740993.0", dbits(9007199254740992.0));
    expect_real("9007199254740995.0", dbits(9007199254740996.0));
    expect_real("9007199254740993.0000000000000000000000000001", dbits(9007199254740994.0));
    expect_real("9007199254740992.9999999999999999999999999999", dbits(9007199254740992.0));
    expect_real("4503599627370496.5", dbits(4503599627370496.0));
    expect_real("4503599627370497.5", dbits(4503599627370498.0));
    expect_real("1.00000000000000011102230246251565404236316680908203125", dbits(1.0));
    expect_real("1.00000000000000011102230246251565404236316680908203126", dbits(1.0000000000000002));
    expect_real("1.00000000000000011102230246251565404236316680908203124", dbits(1.0));
    expect_real("1.00000000000000033306690738754696212708950042724609375", dbits(1.0000000000000004));
    /* Exponent spelled with many digits / leading zeros in the exponent. */
    expect_real("1e0000000000000000000000000000000000001", dbits(10.0));
    expect_real("123456789012345678901234567890e-29", dbits(1.2345678901234567890123456789));
    /* Many leading zeros in the fraction. */
    expect_real("0.0000000000000000000000000000000000000000000000001", dbits(1e-49));
    /* Float direct rounding. */
    expect_f32("1.00000005960464477539062499", 0x3F800000u);
    expect_f32("1.000000059604644775390625", 0x3F800000u); /* tie to even */
    expect_f32("1.00000005960464477539062501", 0x3F800001u);
    expect_f32("3.4028235e38", 0x7F7FFFFFu);
    expect_f32("3.4028235677973366e38", 0x7F7FFFFFu);
    expect_f32("1.4e-45", 1u);
    expect_f32("7.006492321624085e-46", 0u);
    expect_f32("7.006492321624086e-46", 1u);
    expect_f32("-0", 0x80000000u);
    expect_f32("16777217", 0x4B800000u); /* 2^24+1 ties to 2^24 */
    expect_f32("16777219", 0x4B800002u);
    expect_f32("1e-50", 0u);
    expect_f32("0.1", fbits(0.1f));
    /* A famous double-rounding trap: rounding through double gives the wrong float. */
    expect_f32("1.00000005960464477550", 0x3F800001u);
    {
        res32 r32 = parse32_s("3.4028236e38");
        CHECK(!r32.ok && r32.code == JET_ERR_NUMBER_RANGE && r32.err_ofs == 0);
        r32 = parse32_s("1e39");
        CHECK(!r32.ok && r32.code == JET_ERR_NUMBER_RANGE);
        r32 = parse32_s("01");
        CHECK(!r32.ok && r32.code == JET_ERR_NUMBER && r32.err_ofs == 1);
        r32 = parse32_s("1.");
        CHECK(!r32.ok && r32.code == JET_ERR_TRUNCATED && r32.err_ofs == 2);
    }
    /* Long mantissas: 800 digits, and thousands. */
    {
        static char s[6000];
        /* 0.1 written with 800 significant digits of 1/10 → 0.1 */
        strcpy(s, "0.1");
        memset(s + 3, '0', 797);
        s[800] = 0;
        expect_real(s, dbits(0.1));
        /* 800 nines after "0." → rounds to 1.0 */
        s[0] = '0';
        s[1] = '.';
        memset(s + 2, '9', 800);
        s[802] = 0;
        expect_real(s, dbits(1.0));
        /* 1 followed by 3000 zeros then 1, exponent -3000 → just above 1 → 1.0 */
        s[0] = '1';
        memset(s + 1, '0', 3000);
        s[3001] = '1';
        s[3002] = 0;
        strcat(s, "e-3001");
        expect_real(s, dbits(1.0));
        /* Halfway 1 + 2^-53 followed by 4000 zeros then a 1 → rounds up. */
        const char *h = "1.00000000000000011102230246251565404236316680908203125";
        strcpy(s, h);
        size_t hl = strlen(h);
        memset(s + hl, '0', 4000);
        s[hl + 4000] = 0;
        expect_real(s, dbits(1.0));
        s[hl + 4000] = '1';
        s[hl + 4001] = 0;
        expect_real(s, dbits(1.0000000000000002));
    }
}

static void test_grammar_errors(void) {
    expect_err("-", 0, JET_ERR_TRUNCATED, 1);
    expect_err("-x", 0, JET_ERR_NUMBER, 1);
    expect_err("01", 0, JET_ERR_NUMBER, 1);
    expect_err("-01", 0, JET_ERR_NUMBER, 2);
    expect_err("00", 0, JET_ERR_NUMBER, 1);
    expect_err("1.", 0, JET_ERR_TRUNCATED, 2);
    expect_err("1.x", 0, JET_ERR_NUMBER, 2);
    expect_err("1.e5", 0, JET_ERR_NUMBER, 2);
    expect_err("1e", 0, JET_ERR_TRUNCATED, 2);
    expect_err("1E", 0, JET_ERR_TRUNCATED, 2);
    expect_err("1e+", 0, JET_ERR_TRUNCATED, 3);
    expect_err("1e-", 0, JET_ERR_TRUNCATED, 3);
    expect_err("1ex", 0, JET_ERR_NUMBER, 2);
    expect_err("1e+x", 0, JET_ERR_NUMBER, 3);
    expect_err("1e++1", 0, JET_ERR_NUMBER, 3);
    expect_err("+1", 0, JET_ERR_NUMBER, 0);
    expect_err(".5", 0, JET_ERR_NUMBER, 0);
    expect_err("-.5", 0, JET_ERR_NUMBER, 1);
    expect_err("inf", 0, JET_ERR_NUMBER, 0);
    expect_err("NaN", 0, JET_ERR_NUMBER, 0);
    expect_err("Infinity", 0, JET_ERR_NUMBER, 0);
    expect_err("-Infinity", 0, JET_ERR_NUMBER, 1);
    expect_err("1.5e", 0, JET_ERR_TRUNCATED, 4);
    expect_err("-0.", 0, JET_ERR_TRUNCATED, 3);
    expect_err("01", JET_READ_NUMBER_AS_RAW, JET_ERR_NUMBER, 1);
    expect_err("1.", JET_READ_NUMBER_AS_RAW, JET_ERR_TRUNCATED, 2);
    /* The number ends at the first byte that cannot continue it. */
    expect_stop("0x10", 1);
    expect_stop("1.5.3", 3);
    expect_stop("1e5.3", 3);
    expect_stop("-0-", 2);
    expect_stop("123abc", 3);
    expect_stop("1,2", 1);
    expect_stop("12345678901234567890123,", 23);
    expect_stop("0.123456789012345678901]", 23);
    expect_stop("1E+2e", 4);
    /* Empty input. */
    {
        const char *err_at = NULL;
        jet_code code = JET_OK;
        jet_num n;
        const char *s = "1";
        CHECK(!jet_num_parse(s, s, 0, &n, &code, &err_at) && code == JET_ERR_TRUNCATED && err_at == s);
    }
}

static void test_flags(void) {
    res r = parse_s("NaN", JET_READ_ALLOW_NAN_INF);
    CHECK(r.ret && r.used == 3 && r.num.kind == JET_NUM_REAL && isnan(r.num.v.d));
    r = parse_s("Infinity", JET_READ_ALLOW_NAN_INF);
    CHECK(r.ret && r.used == 8 && r.num.kind == JET_NUM_REAL && isinf(r.num.v.d) && r.num.v.d > 0);
    r = parse_s("-Infinity", JET_READ_ALLOW_NAN_INF);
    CHECK(r.ret && r.used == 9 && r.num.kind == JET_NUM_REAL && isinf(r.num.v.d) && r.num.v.d < 0);
    r = parse_s("Infinity]", JET_READ_ALLOW_NAN_INF);
    CHECK(r.ret && r.used == 8);
    expect_err("Infinit", JET_READ_ALLOW_NAN_INF, JET_ERR_TRUNCATED, 7);
    expect_err("Infinitx", JET_READ_ALLOW_NAN_INF, JET_ERR_LITERAL, 7);
    expect_err("Nab", JET_READ_ALLOW_NAN_INF, JET_ERR_LITERAL, 2);
    expect_err("-NaN", JET_READ_ALLOW_NAN_INF, JET_ERR_NUMBER, 1);
    expect_err("-Inf", JET_READ_ALLOW_NAN_INF, JET_ERR_TRUNCATED, 4);
    expect_err("inf", JET_READ_ALLOW_NAN_INF, JET_ERR_NUMBER, 0);
    r = parse_s("1.5", JET_READ_ALLOW_NAN_INF);
    CHECK(r.ret && r.num.kind == JET_NUM_REAL && r.num.v.d == 1.5);

    r = parse_s("123", JET_READ_NUMBER_AS_RAW);
    CHECK(r.ret && r.used == 3 && r.num.kind == JET_NUM_RAW);
    r = parse_s("-1.5e-3,", JET_READ_NUMBER_AS_RAW);
    CHECK(r.ret && r.used == 7 && r.num.kind == JET_NUM_RAW);
    r = parse_s("1e400", JET_READ_NUMBER_AS_RAW);
    CHECK(r.ret && r.used == 5 && r.num.kind == JET_NUM_RAW);
    r = parse_s("-0", JET_READ_NUMBER_AS_RAW);
    CHECK(r.ret && r.used == 2 && r.num.kind == JET_NUM_RAW);
}

/* ---- exact halfway points built with the C library ----------------------- */

/* Exact "%.800Le" of x split into a mantissa without trailing zeros and
 * the exponent digits. */
static void split_exact(char *mant, size_t mn, char *ex, size_t en, long double x) {
    char t[880];
    snprintf(t, sizeof t, "%.800Le", x);
    char *e = strchr(t, 'e');
    snprintf(ex, en, "%s", e + 1);
    char *z = e;
    while (z[-1] == '0') z--;
    if (z[-1] == '.') z++; /* keep "d.0" */
    *z = 0;
    snprintf(mant, mn, "%s", t);
}

/* Writes the exact decimal expansion of the midpoint between `d` and the next
 * double up (long double holds it exactly when it has >= 64 mantissa bits),
 * optionally nudged by a trailing digit. */
static void test_halfway(void) {
#if LDBL_MANT_DIG >= 64
    static char s[1200];
    uint64_t seed = 0x9E3779B97F4A7C15u;
    unsigned long n = 0;
    for (int i = 0; i < 3000; i++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        uint64_t bits = seed >> 1;
        if (i % 3 == 0) bits &= UINT64_C(0x000FFFFFFFFFFFFF); /* subnormals */
        if ((bits >> 52) >= 0x7FE) continue;
        double lo, hi;
        uint64_t hb = bits + 1;
        memcpy(&lo, &bits, 8);
        memcpy(&hi, &hb, 8);
        long double mid = ((long double)lo + (long double)hi) / 2;
        char mant[900], ex[40];
        split_exact(mant, sizeof mant, ex, sizeof ex, mid);
        uint64_t even = (bits & 1) ? hb : bits;
        snprintf(s, sizeof s, "%se%s", mant, ex); /* exact tie: to even */
        expect_real(s, even);
        snprintf(s, sizeof s, "%s1e%s", mant, ex); /* just above */
        expect_real(s, hb);
        size_t ml = strlen(mant);
        if (mant[ml - 1] > '0' && mant[ml - 1] <= '9') { /* just below */
            mant[ml - 1]--;
            snprintf(s, sizeof s, "%s9e%s", mant, ex);
            expect_real(s, bits);
        }
        n++;
    }
    printf("halfway doubles: %lu tested\n", n);
#endif
    /* Float halfway points are exact in double. */
    {
        static char fs[400];
        uint32_t fseed = 12345;
        unsigned long fn = 0;
        for (int i = 0; i < 3000; i++) {
            fseed = fseed * 1103515245u + 12345u;
            uint32_t bits = (fseed >> 1) ^ ((uint32_t)i << 20);
            bits &= 0x7FFFFFFFu;
            if (i % 3 == 0) bits &= 0x007FFFFFu;
            if ((bits >> 23) >= 0xFE) continue;
            float lo, hi;
            uint32_t hb = bits + 1;
            memcpy(&lo, &bits, 4);
            memcpy(&hi, &hb, 4);
            double mid = ((double)lo + (double)hi) / 2;
            snprintf(fs, sizeof fs, "%.200e", mid);
            char *e = strchr(fs, 'e');
            char expbuf[16];
            snprintf(expbuf, sizeof expbuf, "%s", e);
            char *z = e;
            while (z[-1] == '0') z--;
            if (z[-1] == '.') z++;
            strcpy(z, expbuf);
            expect_f32(fs, (bits & 1) ? hb : bits);
            e = strchr(fs, 'e');
            strcpy(e, "1");
            strcat(fs, expbuf);
            expect_f32(fs, hb);
            fn++;
        }
        printf("halfway floats: %lu tested\n", fn);
    }
}

/* ---- random comparison with strtod / strtof ----------------------------- */

static uint64_t rng_state = 0x243F6A8885A308D3u;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static unsigned rndn(unsigned n) { return (unsigned)(rnd() % n); }

static size_t random_number(char *s) {
    size_t i = 0;
    if (rndn(2)) s[i++] = '-';
    unsigned shape = rndn(10);
    unsigned nint, nfrac;
    if (shape < 6) { /* typical */
        nint = rndn(8);
        nfrac = rndn(20);
    } else if (shape < 9) { /* around 17-21 significant digits */
        nint = rndn(22);
        nfrac = rndn(22);
    } else { /* long */
        nint = rndn(60);
        nfrac = rndn(900);
    }
    if (nint == 0) {
        s[i++] = '0';
    } else {
        s[i++] = (char)('1' + rndn(9));
        for (unsigned k = 1; k < nint; k++) s[i++] = (char)('0' + rndn(10));
    }
    if (nfrac || (nint == 0 && rndn(2))) {
        if (!nfrac) nfrac = 1 + rndn(5);
        s[i++] = '.';
        unsigned zeros = rndn(4) == 0 ? rndn(30) : 0;
        for (unsigned k = 0; k < nfrac; k++) s[i++] = (char)(k < zeros ? '0' : '0' + rndn(10));
    }
    if (rndn(3)) {
        s[i++] = rndn(2) ? 'e' : 'E';
        unsigned sg = rndn(3);
        if (sg == 1) s[i++] = '-';
        if (sg == 2) s[i++] = '+';
        unsigned ex;
        unsigned esh = rndn(10);
        if (esh < 5) ex = rndn(30);
        else if (esh < 9) ex = rndn(360);
        else ex = rndn(2000);
        i += (size_t)sprintf(s + i, "%u", ex);
    }
    s[i] = 0;
    return i;
}

static void test_random(unsigned long n_random, unsigned long n_trips) {
    static char s[2048];
    unsigned long n = 0, bad = 0;
    for (unsigned long iter = 0; iter < n_random; iter++) {
        size_t len = random_number(s);
        double want = strtod(s, NULL);
        float wantf = strtof(s, NULL);
        res r = parse_n(s, len, 0);
        int ok;
        if (isinf(want)) ok = !r.ret && r.code == JET_ERR_NUMBER_RANGE;
        else ok = r.ret && r.used == len && r.num.kind != JET_NUM_RAW && dbits(num_as_double(&r.num)) == dbits(want);
        /* integers: the exact value must match too, not only its double */
        if (ok && r.ret && r.num.kind == JET_NUM_UINT) ok = strtoull(s, NULL, 10) == r.num.v.u;
        if (ok && r.ret && r.num.kind == JET_NUM_SINT) ok = strtoll(s, NULL, 10) == r.num.v.i;
        res32 r32 = parse32_n(s, len);
        if (isinf(wantf)) ok &= !r32.ok && r32.code == JET_ERR_NUMBER_RANGE;
        else ok &= r32.ok && r32.used == len && fbits(r32.f) == fbits(wantf);
        CHECK_MSG(ok, "random \"%.200s\": want %016" PRIx64 "/%08" PRIx32 " got %016" PRIx64 "/%08" PRIx32, s,
                  dbits(want), fbits(wantf), dbits(num_as_double(&r.num)), fbits(r32.f));
        bad += !ok;
        n++;
    }
    printf("random vs strtod/strtof: %lu cases, %lu mismatches\n", n, bad);

    /* Random bit patterns printed with 17 significant digits round-trip. */
    unsigned long rt = 0;
    for (unsigned long iter = 0; iter < n_trips; iter++) {
        uint64_t b = rnd();
        if ((b >> 52 & 0x7FF) == 0x7FF) continue;
        double d;
        memcpy(&d, &b, 8);
        int len = snprintf(s, sizeof s, "%.16e", d);
        res r = parse_n(s, (size_t)len, 0);
        CHECK_MSG(r.ret && r.num.kind == JET_NUM_REAL && dbits(r.num.v.d) == b, "round trip %s", s);
        uint32_t fb = (uint32_t)b;
        if ((fb >> 23 & 0xFF) == 0xFF) continue;
        float f;
        memcpy(&f, &fb, 4);
        len = snprintf(s, sizeof s, "%.8e", (double)f);
        res32 r32 = parse32_n(s, (size_t)len);
        CHECK_MSG(r32.ok && fbits(r32.f) == fb, "round trip f32 %s", s);
        rt++;
    }
    printf("round trips: %lu\n", rt);
    printf("padded re-parses (fast path) agreeing: %lu\n", pad_checked);
}

/* The small tables of num.h's inline path agree with the generated one. */
static void test_tables(void) {
    for (int k = 0; k <= 22; k++) {
        char t[8];
        snprintf(t, sizeof t, "1e%d", k);
        CHECK_MSG(jet__num_pow10_f64[k] == strtod(t, NULL), "jet__num_pow10_f64[%d]", k);
    }
    for (int k = 1; k <= 19; k++) {
        CHECK_MSG(jet__num_pow10_neg_hi[k] == jet__pow10_tab[-k - JET_POW10_MIN][0], "jet__num_pow10_neg_hi[%d]", k);
        /* floor(-k log2 10) = e with 2^e <= 10^-k < 2^(e+1) */
        double x = ldexp(1.0, jet__num_pow10_neg_be[k] - 1085);
        CHECK_MSG(x <= pow(10, -k) && pow(10, -k) < 2 * x, "jet__num_pow10_neg_be[%d]", k);
    }
}

int main(void) {
    setlocale(LC_ALL, "C");
    /* JET_LONG_TESTS=1 (`make test-numbers-long`): 100 times the random cases. */
    const char *lt = getenv("JET_LONG_TESTS");
    int long_mode = lt && *lt && strcmp(lt, "0") != 0;
    test_tables();
    test_vectors();
    test_integers();
    test_reals();
    test_grammar_errors();
    test_flags();
    test_halfway();
    test_random(long_mode ? 20000000ul : 200000ul, long_mode ? 5000000ul : 50000ul);
    return CHECK_DONE("test_num_parse");
}
