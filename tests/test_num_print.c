/*
 * test_num_print.c — shortest double/float printing and integer printing
 * (src/num_print.c).
 *
 *   - exact outputs for the format examples of num.h;
 *   - round trip (print -> strtod/strtof and print -> jet_num_parse /
 *     jet_num_parse_f32 give the same bits) and format invariants for 10^6
 *     doubles and 10^6 floats: uniform bit patterns, values next to powers
 *     of ten, subnormals, integers, powers of two;
 *   - every one of the 10^6 doubles no longer than "%.17g", exactly as
 *     short as a slow reference search over 15/16/17 digits, with no
 *     shorter decimal reading back, and the closest of its length
 *     (check_f64_vs_libc);
 *   - shortest and closest: against a slow reference built on snprintf
 *     "%.{n}e" (n = 1..17, resp. 1..9) on a subset of 10^5 of each;
 *   - the float vectors of shared/numbers/ (f64 and f32 bits), if present;
 *   - integers against snprintf.
 *
 * JET_LONG_TESTS=1 in the environment (`make test-numbers-long`): 10^8
 * random doubles and 10^8 random floats for the round trip, 2 * 10^7
 * doubles against the C library as above, 10^7 of each through the 1..17
 * (1..9) digit search. JET_SHORT_TESTS=1 (CI's runs under an emulator):
 * a tenth of the random cases of `make test`.
 *
 * Standalone build (no library needed):
 *   gcc -std=c11 -O2 -Wall -Wextra -Wpedantic -Iinclude -Isrc -Itests \
 *       src/num_print.c src/num_parse.c tests/test_num_print.c -o /tmp/npr && /tmp/npr
 */
#include "check.h"
#include "num.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>

/* ------------------------------------------------------------------------ */
/* helpers                                                                   */
/* ------------------------------------------------------------------------ */

static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rng(void) { /* splitmix64 */
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t dbits(double d) {
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}
static double bitsd(uint64_t b) {
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}
static uint32_t fbits(float f) {
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}
static float bitsf(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

#define BUFSZ 64
#define SENTINEL 0x5a

/*
 * Checks the num.h format of `s` (a finite value) and returns the number of
 * significant digits, or -1 when the format is wrong. `sig` receives the
 * significant digits (no leading/trailing zeros), `lead_exp` the decimal
 * exponent of the leading digit.
 */
static int parse_format(const char *s, int neg, char *sig, int *lead_exp) {
    const char *p = s;
    if (neg) {
        if (*p != '-') return -1;
        p++;
    }
    if (*p < '0' || *p > '9') return -1;
    const char *e = strchr(p, 'e');
    const char *dot = strchr(p, '.');
    if (e) {
        /* d[.ddd]e(+|-)x: first digit non-zero, fraction without trailing
         * zeros, exponent without leading zeros */
        if (*p == '0') return -1;
        int n = 0;
        sig[n++] = *p++;
        if (*p == '.') {
            p++;
            if (p == e) return -1;
            while (p < e) {
                if (*p < '0' || *p > '9') return -1;
                sig[n++] = *p++;
            }
            if (sig[n - 1] == '0') return -1;
        }
        if (p != e) return -1;
        p++;
        if (*p != '+' && *p != '-') return -1;
        int esign = *p++ == '-' ? -1 : 1;
        if (*p < '1' || *p > '9') return -1;
        int x = 0;
        while (*p >= '0' && *p <= '9') x = x * 10 + (*p++ - '0');
        if (*p) return -1;
        x *= esign;
        if (x >= -6 && x < 21) return -1; /* should have been plain */
        sig[n] = 0;
        *lead_exp = x;
        return n;
    }
    if (!dot) return -1;
    /* plain: integer part, '.', fraction */
    const char *ip = p;
    while (*p >= '0' && *p <= '9') p++;
    size_t ilen = (size_t)(p - ip);
    if (p != dot || ilen == 0) return -1;
    if (ilen > 1 && ip[0] == '0') return -1;
    const char *fp = dot + 1;
    p = fp;
    while (*p >= '0' && *p <= '9') p++;
    if (*p || p == fp) return -1;
    size_t flen = (size_t)(p - fp);
    int n = 0;
    if (ip[0] != '0') {
        /* x = ilen - 1 in [0, 21) */
        if (ilen > 21) return -1;
        *lead_exp = (int)ilen - 1;
        for (size_t i = 0; i < ilen; i++) sig[n++] = ip[i];
        if (flen == 1 && fp[0] == '0') {
            /* integral value */
        } else {
            if (fp[flen - 1] == '0') return -1;
            for (size_t i = 0; i < flen; i++) sig[n++] = fp[i];
        }
        while (n > 0 && sig[n - 1] == '0') n--;
    } else {
        /* 0.000ddd with at most 5 zeros after the point (x >= -6) */
        size_t z = 0;
        while (z < flen && fp[z] == '0') z++;
        if (z == flen) return -1; /* "0.0" is only for zero */
        if (z > 5) return -1;
        if (fp[flen - 1] == '0') return -1;
        *lead_exp = -(int)z - 1;
        for (size_t i = z; i < flen; i++) sig[n++] = fp[i];
    }
    sig[n] = 0;
    return n;
}

/*
 * print -> parse with jet's own reader: the text (n bytes, at the start of a
 * BUFSZ-byte buffer) read back by jet_num_parse twice, once with `end` right
 * after it (the out-of-line careful path) and once with the buffer's end
 * (at least 64 bytes: the inline fast path where it applies); both must
 * consume it all and give a REAL with exactly these bits.
 */
static int jet_reads_back_f64(const char *buf, size_t n, uint64_t bits) {
    const char *ends[2] = {buf + n, buf + BUFSZ};
    for (int k = 0; k < 2; k++) {
        jet_num num;
        jet_code code;
        const char *at;
        const char *e = jet_num_parse(buf, ends[k], 0, &num, &code, &at);
        if (e != buf + n || num.kind != JET_NUM_REAL || num.v.u != bits) return 0;
    }
    return 1;
}

/* Prints d, checks buffer use, format and round trip (strtod and
 * jet_num_parse). Returns the number of significant digits (or -1), with
 * the digits in sig. */
static int check_f64(double d, char *sig, char *out) {
    char buf[BUFSZ];
    memset(buf, SENTINEL, sizeof buf);
    size_t n = jet_num_write_f64(d, buf);
    int ok = 1;
    if (n > JET_NUM_F64_MAX_CHARS || strlen(buf) != n) ok = 0;
    for (size_t i = JET_NUM_F64_MAX_CHARS + 1; i < BUFSZ; i++)
        if ((unsigned char)buf[i] != SENTINEL) ok = 0;
    int x = 0;
    int nd = ok ? parse_format(buf, (int)(dbits(d) >> 63), sig, &x) : -1;
    if (d == 0) { /* zero is the one finite value printed as "0.0" */
        nd = strcmp(buf, (dbits(d) >> 63) ? "-0.0" : "0.0") == 0 ? 1 : -1;
        strcpy(sig, "0");
    }
    double back = strtod(buf, NULL);
    int rt = dbits(back) == dbits(d);
    int jrt = ok && jet_reads_back_f64(buf, n, dbits(d));
    if (out) memcpy(out, buf, n + 1);
    if (!ok || nd < 1 || nd > 17 || !rt || !jrt) {
        CHECK_MSG(0, "f64 %016" PRIx64 " (%.17g) -> \"%s\" (len %zu, digits %d, "
                  "round trip %s, through jet_num_parse %s)", dbits(d), d, buf, n, nd,
                  rt ? "ok" : "BAD", jrt ? "ok" : "BAD");
        return -1;
    }
    check_passed_++;
    return nd;
}

static int check_f32(float f, char *sig, char *out) {
    char buf[BUFSZ];
    memset(buf, SENTINEL, sizeof buf);
    size_t n = jet_num_write_f32(f, buf);
    int ok = 1;
    if (n > JET_NUM_F64_MAX_CHARS || strlen(buf) != n) ok = 0;
    for (size_t i = JET_NUM_F64_MAX_CHARS + 1; i < BUFSZ; i++)
        if ((unsigned char)buf[i] != SENTINEL) ok = 0;
    int x = 0;
    int nd = ok ? parse_format(buf, (int)(fbits(f) >> 31), sig, &x) : -1;
    if (f == 0) {
        nd = strcmp(buf, (fbits(f) >> 31) ? "-0.0" : "0.0") == 0 ? 1 : -1;
        strcpy(sig, "0");
    }
    float back = strtof(buf, NULL);
    int rt = fbits(back) == fbits(f);
    int jrt = 0;
    if (ok) {
        float jf = 0;
        jet_code code;
        const char *at;
        const char *e = jet_num_parse_f32(buf, buf + n, &jf, &code, &at);
        jrt = e == buf + n && fbits(jf) == fbits(f);
    }
    if (out) memcpy(out, buf, n + 1);
    if (!ok || nd < 1 || nd > 9 || !rt || !jrt) {
        CHECK_MSG(0, "f32 %08" PRIx32 " (%.9g) -> \"%s\" (len %zu, digits %d, "
                  "round trip %s, through jet_num_parse_f32 %s)", fbits(f), (double)f, buf, n, nd,
                  rt ? "ok" : "BAD", jrt ? "ok" : "BAD");
        return -1;
    }
    check_passed_++;
    return nd;
}

/*
 * Slow reference: the fewest significant digits n (1..17, 1..9 for floats)
 * such that some n-digit decimal next to v reads back as v (see
 * nearby_reads_back below). *closest_ok tells whether the nearest n-digit
 * decimal itself reads back, in which case its digits are in `digits`.
 */
static int nearby_reads_back(double v, int n, int is_float, char *nearest, int *nearest_ok);
static int ref_shortest(double v, int is_float, char *digits, int *closest_ok) {
    int maxn = is_float ? 9 : 17;
    for (int n = 1; n <= maxn; n++)
        if (nearby_reads_back(v, n, is_float, digits, closest_ok)) return n;
    return maxn + 1;
}

static void check_shortest(double v, int is_float) {
    char sig[64], out[BUFSZ], ref[64];
    int nd = is_float ? check_f32((float)v, sig, out) : check_f64(v, sig, out);
    if (nd < 0) return;
    int closest_ok = 0;
    int rn = ref_shortest(v, is_float, ref, &closest_ok);
    if (nd != rn) {
        CHECK_MSG(0, "%s %.17g -> \"%s\": %d digits, shortest is %d",
                  is_float ? "f32" : "f64", v, out, nd, rn);
    } else if (closest_ok && strcmp(sig, ref) != 0) {
        CHECK_MSG(0, "%s %.17g -> \"%s\": digits %s, closest are %s",
                  is_float ? "f32" : "f64", v, out, sig, ref);
    } else {
        check_passed_++;
    }
}

/*
 * The checks every random double of `make test` goes through (on top of
 * check_f64's format and round trips), each against the C library:
 *
 *   - no longer than "%.17g": never more significant digits, and never more
 *     characters where both use the same notation (both exponent form, or
 *     both plain and not integral). Where they differ by design (num.h:
 *     integral values end in ".0"; plain notation for leading exponents in
 *     [-6, -5] and [17, 21) where %g switches to an exponent earlier), the
 *     digit count still decides and the cases are counted;
 *   - as short as the slow reference: the first n of 15, 16, 17 for which an
 *     n-digit decimal next to v (the nearest one, or one unit of the last
 *     digit either side: the rounding interval is lopsided at powers of two)
 *     reads back as v. jet must use exactly n digits when n is 16 or 17, at
 *     most 15 otherwise;
 *   - and for any length, that no decimal with one digit fewer reads back:
 *     if one did, so would one of the two of that length next to v (the
 *     rounding interval is convex and holds v), and those are among the
 *     three tried;
 *   - the closest: when the nearest decimal with jet's digit count reads
 *     back, jet's digits are its digits.
 */
static unsigned long g17_notation_differs, g17_integral;

/* Significant digits of a printf %e/%g number (leading and trailing zeros of
 * the mantissa not counted; 1 for zero); *has_exp: an exponent follows. */
static int sig_digits(const char *s, int *has_exp) {
    int n = 0, trailing = 0, started = 0;
    *has_exp = 0;
    for (; *s; s++) {
        if (*s == 'e') {
            *has_exp = 1;
            break;
        }
        if (*s < '0' || *s > '9' || (*s == '0' && !started)) continue;
        started = 1;
        n++;
        trailing = *s == '0' ? trailing + 1 : 0;
    }
    return n ? n - trailing : 1;
}

/* Whether an n-digit decimal next to v (the nearest; one unit of the last
 * digit below or above it) reads back as exactly v. With `nearest`, the
 * nearest one's digits, trailing zeros removed, and whether it reads back. */
static int nearby_reads_back(double v, int n, int is_float, char *nearest, int *nearest_ok) {
    char tmp[64], cand[64], digits[32];
    snprintf(tmp, sizeof tmp, "%.*e", n - 1, v);
    const char *p = tmp;
    int neg = *p == '-';
    p += neg;
    uint64_t m = 0;
    int nd = 0;
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') continue;
        m = m * 10 + (uint64_t)(*p - '0');
        digits[nd++] = *p;
    }
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = 0;
    int ex = atoi(p + 1) - (n - 1);
    int found = 0;
    for (int delta = 0; delta < 3; delta++) {
        uint64_t mm = delta == 0 ? m : delta == 1 ? m - 1 : m + 1;
        if (mm == 0) continue;
        snprintf(cand, sizeof cand, "%s%" PRIu64 "e%d", neg ? "-" : "", mm, ex);
        int rt = is_float ? fbits(strtof(cand, NULL)) == fbits((float)v)
                          : dbits(strtod(cand, NULL)) == dbits(v);
        found |= rt;
        if (delta == 0 && nearest_ok) *nearest_ok = rt;
    }
    if (nearest) strcpy(nearest, digits);
    return found;
}

static void check_f64_vs_libc(double d) {
    char sig[64], out[BUFSZ], g[40], near[32];
    int nd = check_f64(d, sig, out);
    if (nd < 0 || d == 0) return;
    /* against %.17g */
    int glen = snprintf(g, sizeof g, "%.17g", d), gexp;
    int gnd = sig_digits(g, &gexp);
    int jexp = strchr(out, 'e') != NULL;
    size_t olen = strlen(out);
    int integral = !jexp && olen >= 2 && strcmp(out + olen - 2, ".0") == 0;
    int ok = nd <= gnd;
    if (jexp == gexp && !integral) {
        ok &= olen <= (size_t)glen;
    } else if (integral && !gexp) {
        ok &= olen <= (size_t)glen + 2;
        g17_integral++;
    } else {
        g17_notation_differs++;
    }
    CHECK_MSG(ok, "f64 %s: \"%s\" is longer than %%.17g \"%s\"", g, out, g);
    /* which lengths have a decimal next to d that reads back (memoized) */
    signed char works[19];
    memset(works, -1, sizeof works);
    int near_ok = 0;
    works[nd] = (signed char)nearby_reads_back(d, nd, 0, near, &near_ok);
    if (nd > 1) works[nd - 1] = (signed char)nearby_reads_back(d, nd - 1, 0, NULL, NULL);
    /* the 15/16/17-digit reference */
    int ref = 15;
    for (; ref < 17; ref++) {
        if (works[ref] < 0) works[ref] = (signed char)nearby_reads_back(d, ref, 0, NULL, NULL);
        if (works[ref]) break;
    }
    CHECK_MSG(ref == 15 ? nd <= 15 : nd == ref, "f64 %s: \"%s\" has %d digits, the 15/16/17 reference %d",
              g, out, nd, ref);
    /* nothing shorter, and the closest of its length */
    CHECK_MSG(nd == 1 || !works[nd - 1], "f64 %s: \"%s\" has %d digits, %d would do", g, out, nd, nd - 1);
    CHECK_MSG(!near_ok || strcmp(sig, near) == 0, "f64 %s: \"%s\", the closest %d digits are %s", g, out,
              nd, near);
}

/* ------------------------------------------------------------------------ */
/* generators                                                                */
/* ------------------------------------------------------------------------ */

static double pow10_tab[308 + 324 + 1]; /* 10^k via strtod, k in [-324, 308] */

static double gen_f64(uint64_t i) {
    uint64_t r = rng();
    uint64_t sign = (r & 1) << 63;
    uint64_t b;
    switch (i % 5) {
    case 0: /* uniform over finite bit patterns */
        do b = rng(); while (((b >> 52) & 0x7ff) == 0x7ff);
        return bitsd(b);
    case 1: { /* next to a power of ten */
        int k = (int)((r >> 1) % (308 + 324 + 1));
        b = dbits(pow10_tab[k]);
        int step = (int)((r >> 12) % 9) - 4;
        b += (uint64_t)(int64_t)step;
        if (((b >> 52) & 0x7ff) == 0x7ff || b == 0) b = dbits(pow10_tab[k]);
        return bitsd(b | sign);
    }
    case 2: { /* subnormal, with any number of significant bits */
        unsigned sh = (unsigned)((r >> 1) % 52);
        b = (rng() & ((UINT64_C(1) << 52) - 1)) >> sh;
        if (b == 0) b = 1;
        return bitsd(b | sign);
    }
    case 3: { /* integers of every size */
        unsigned sh = (unsigned)((r >> 1) % 64);
        uint64_t u = rng() >> sh;
        if (u == 0) u = 1;
        double d = (double)u;
        return (r & 1) ? -d : d;
    }
    default: { /* powers of two and their neighbours */
        uint64_t e = 1 + (r >> 1) % 2046;
        b = e << 52;
        int step = (int)((r >> 13) % 5) - 2;
        b += (uint64_t)(int64_t)step;
        return bitsd(b | sign);
    }
    }
}

static float gen_f32(uint64_t i) {
    uint64_t r = rng();
    uint32_t sign = (uint32_t)(r & 1) << 31;
    uint32_t b;
    switch (i % 5) {
    case 0:
        do b = (uint32_t)rng(); while (((b >> 23) & 0xff) == 0xff);
        return bitsf(b);
    case 1: {
        int k = (int)((r >> 1) % (38 + 45 + 1)) - 45;
        char t[16];
        snprintf(t, sizeof t, "1e%d", k);
        b = fbits(strtof(t, NULL));
        int step = (int)((r >> 12) % 9) - 4;
        uint32_t nb = b + (uint32_t)step;
        if (((nb >> 23) & 0xff) != 0xff && nb != 0 && (nb >> 31) == (b >> 31)) b = nb;
        if (b == 0) b = 1;
        return bitsf(b | sign);
    }
    case 2: {
        unsigned sh = (unsigned)((r >> 1) % 23);
        b = ((uint32_t)rng() & ((UINT32_C(1) << 23) - 1)) >> sh;
        if (b == 0) b = 1;
        return bitsf(b | sign);
    }
    case 3: {
        unsigned sh = (unsigned)((r >> 1) % 64);
        uint64_t u = rng() >> sh;
        if (u == 0) u = 1;
        float f = (float)u;
        return (r & 1) ? -f : f;
    }
    default: {
        uint32_t e = 1 + (uint32_t)((r >> 1) % 254);
        b = e << 23;
        int step = (int)((r >> 13) % 5) - 2;
        b += (uint32_t)step;
        return bitsf(b | sign);
    }
    }
}

/* ------------------------------------------------------------------------ */
/* tests                                                                     */
/* ------------------------------------------------------------------------ */

static void expect_f64(double d, const char *want) {
    char buf[BUFSZ];
    size_t n = jet_num_write_f64(d, buf);
    CHECK_MSG(strcmp(buf, want) == 0 && n == strlen(want),
              "f64 %.17g: got \"%s\", want \"%s\"", d, buf, want);
}

static void expect_f32(float f, const char *want) {
    char buf[BUFSZ];
    size_t n = jet_num_write_f32(f, buf);
    CHECK_MSG(strcmp(buf, want) == 0 && n == strlen(want),
              "f32 %.9g: got \"%s\", want \"%s\"", (double)f, buf, want);
}

static void test_examples(void) {
    expect_f64(0.0, "0.0");
    expect_f64(-0.0, "-0.0");
    expect_f64(1.0, "1.0");
    expect_f64(-1.0, "-1.0");
    expect_f64(100.0, "100.0");
    expect_f64(123.5, "123.5");
    expect_f64(0.001, "0.001");
    expect_f64(1e21, "1e+21");
    expect_f64(1e20, "100000000000000000000.0");
    expect_f64(1.2345678901234568e20, "123456789012345680000.0");
    expect_f64(1.5e21, "1.5e+21");
    expect_f64(1e22, "1e+22");
    expect_f64(1e23, "1e+23");
    expect_f64(0.000001, "0.000001");
    expect_f64(0.0000012345, "0.0000012345");
    expect_f64(1e-7, "1e-7");
    expect_f64(1.5e-7, "1.5e-7");
    expect_f64(-1.5e-7, "-1.5e-7");
    expect_f64(5e-324, "5e-324");
    expect_f64(-5e-324, "-5e-324");
    expect_f64(1e-323, "1e-323");
    expect_f64(2.2250738585072014e-308, "2.2250738585072014e-308");
    expect_f64(2.225073858507201e-308, "2.225073858507201e-308");
    expect_f64(1.7976931348623157e308, "1.7976931348623157e+308");
    expect_f64(1.5e300, "1.5e+300");
    expect_f64(0.1, "0.1");
    expect_f64(0.2, "0.2");
    /* 0.1 + 0.2 in binary64, written out: with x87 excess precision
     * (FLT_EVAL_METHOD 2) the sum itself would round twice, to 0.3 */
    expect_f64(0x1.3333333333334p-2, "0.30000000000000004");
    expect_f64(1.0 / 3.0, "0.3333333333333333");
    expect_f64(2.0 / 3.0, "0.6666666666666666");
    expect_f64(9007199254740992.0, "9007199254740992.0");
    expect_f64(9007199254740993.0 * 2, "18014398509481984.0");
    expect_f64(1e16, "10000000000000000.0");
    expect_f64(123456789.0, "123456789.0");
    expect_f64(1234567.5, "1234567.5");
    expect_f64(12345678.5, "12345678.5");
    expect_f64(123456789.5, "123456789.5");
    expect_f64(1234567890123456.8, "1234567890123456.8");
    expect_f64(123456789012345.67, "123456789012345.67");
    expect_f64(0.12345678901234568, "0.12345678901234568");
    expect_f64(0.0000012345678901234567, "0.0000012345678901234567");
    expect_f64(1.2345678901234566e-7, "1.2345678901234566e-7");
    expect_f64(1.2345678901234568e+21, "1.2345678901234568e+21");
    expect_f64(12345678901234567000.0, "12345678901234567000.0");
    expect_f64(-65.613617, "-65.613617");
    expect_f64(43.420273000000009, "43.42027300000001");
    expect_f64(4.35, "4.35");
    expect_f64(1.0e15 + 0.3, "1000000000000000.2"); /* 1000000000000000.25 */
    expect_f64(2.0e-3, "0.002");
    expect_f64(1.0e-6 * 1.5, "0.0000015");
    expect_f64((double)NAN, "NaN");
    expect_f64(-(double)NAN, "NaN");
    expect_f64((double)INFINITY, "Infinity");
    expect_f64(-(double)INFINITY, "-Infinity");

    expect_f32(0.0f, "0.0");
    expect_f32(-0.0f, "-0.0");
    expect_f32(1.0f, "1.0");
    expect_f32(0.1f, "0.1");
    expect_f32(1.0f / 3.0f, "0.33333334");
    expect_f32(16777216.0f, "16777216.0");
    expect_f32(1e10f, "10000000000.0");
    expect_f32(3.4028235e38f, "3.4028235e+38");
    expect_f32(1.17549435e-38f, "1.1754944e-38");
    expect_f32(1.4e-45f, "1e-45");
    expect_f32(1e-7f, "1e-7");
    expect_f32(1e21f, "1e+21");
    expect_f32(-65.613617f, "-65.61362");
    expect_f32(NAN, "NaN");
    expect_f32(INFINITY, "Infinity");
    expect_f32(-INFINITY, "-Infinity");
}

static void expect_u64(uint64_t u) {
    char buf[BUFSZ], want[32];
    size_t n = jet_num_write_u64(u, buf);
    snprintf(want, sizeof want, "%" PRIu64, u);
    CHECK_MSG(strcmp(buf, want) == 0 && n == strlen(want),
              "u64 %s: got \"%s\"", want, buf);
}

static void expect_i64(int64_t i) {
    char buf[BUFSZ], want[32];
    size_t n = jet_num_write_i64(i, buf);
    snprintf(want, sizeof want, "%" PRId64, i);
    CHECK_MSG(strcmp(buf, want) == 0 && n == strlen(want),
              "i64 %s: got \"%s\"", want, buf);
}

static void test_integers(void) {
    char buf[BUFSZ];
    CHECK(jet_num_write_u64(0, buf) == 1 && strcmp(buf, "0") == 0);
    CHECK(jet_num_write_u64(UINT64_MAX, buf) == 20 &&
          strcmp(buf, "18446744073709551615") == 0);
    CHECK(jet_num_write_i64(INT64_MIN, buf) == 20 &&
          strcmp(buf, "-9223372036854775808") == 0);
    CHECK(jet_num_write_i64(INT64_MAX, buf) == 19 &&
          strcmp(buf, "9223372036854775807") == 0);
    CHECK(jet_num_write_i64(-1, buf) == 2 && strcmp(buf, "-1") == 0);
    CHECK(jet_num_write_i64(0, buf) == 1 && strcmp(buf, "0") == 0);
    uint64_t p = 1;
    for (int k = 0; k < 20; k++) {
        expect_u64(p);
        expect_u64(p - 1);
        expect_u64(p + 1);
        expect_i64((int64_t)(p >> 1));
        expect_i64(-(int64_t)(p >> 1));
        expect_i64(-(int64_t)(p >> 1) - 1);
        if (k < 19) p *= 10;
    }
    for (int k = 0; k < 64; k++) {
        expect_u64(UINT64_C(1) << k);
        expect_u64((UINT64_C(1) << k) - 1);
    }
    for (int i = 0; i < 200000; i++) {
        uint64_t u = rng() >> (rng() % 64);
        expect_u64(u);
        expect_i64((int64_t)u);
        expect_i64((int64_t)(UINT64_C(0) - u));
    }
}

/* Every finite f64/f32 of shared/numbers/ must round-trip. */
static void test_vectors(void) {
    static const char *files[] = {"freetype-2-7.txt", "google-wuffs.txt",
                                  "lemire-fast-float.txt", "more-test-cases.txt",
                                  "tencent-rapidjson.txt"};
    char path[1024], sig[64];
    unsigned long lines = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/numbers/%s", check_shared_dir(), files[i]);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        char line[4096];
        while (fgets(line, sizeof line, f)) {
            unsigned h16;
            uint32_t b32;
            uint64_t b64;
            if (sscanf(line, "%x %" SCNx32 " %" SCNx64, &h16, &b32, &b64) != 3) continue;
            lines++;
            if (((b64 >> 52) & 0x7ff) != 0x7ff) check_f64(bitsd(b64), sig, NULL);
            if (((b32 >> 23) & 0xff) != 0xff) check_f32(bitsf(b32), sig, NULL);
        }
        fclose(f);
    }
    if (lines == 0) printf("test_num_print: shared/numbers not found, vectors skipped\n");
}

static void test_random(unsigned long n_rt, unsigned long n_libc, unsigned long n_short) {
    char sig[64];
    for (int k = -324; k <= 308; k++) {
        char t[16];
        snprintf(t, sizeof t, "1e%d", k);
        pow10_tab[k + 324] = strtod(t, NULL);
        if (pow10_tab[k + 324] == 0) pow10_tab[k + 324] = 5e-324;
    }
    /* every power of two and every power of ten, plus all binade edges */
    for (int e = 1; e < 2047; e++) {
        check_shortest(bitsd((uint64_t)e << 52), 0);
        check_shortest(bitsd(((uint64_t)e << 52) - 1), 0);
        check_shortest(bitsd(((uint64_t)e << 52) + 1), 0);
    }
    for (int k = 0; k < 633; k++) check_shortest(pow10_tab[k], 0);
    for (uint32_t e = 1; e < 255; e++) {
        check_shortest((double)bitsf(e << 23), 1);
        check_shortest((double)bitsf((e << 23) - 1), 1);
        check_shortest((double)bitsf((e << 23) + 1), 1);
    }
    for (uint64_t i = 0; i < n_rt; i++) {
        double d = gen_f64(i);
        if (i < n_short) check_shortest(d, 0);
        if (i < n_libc)
            check_f64_vs_libc(d);
        else
            check_f64(d, sig, NULL);
    }
    printf("doubles: %lu round trips (strtod and jet_num_parse); %lu against %%.17g (%lu integral with "
           "\".0\", %lu in plain notation where %%.17g has an exponent) and the 15/16/17-digit "
           "reference; %lu through the 1..17-digit search\n",
           n_rt, n_libc, g17_integral, g17_notation_differs, n_short);
    for (uint64_t i = 0; i < n_rt; i++) {
        float f = gen_f32(i);
        if (i < n_short)
            check_shortest((double)f, 1);
        else
            check_f32(f, sig, NULL);
    }
    printf("floats: %lu round trips (strtof and jet_num_parse_f32), %lu through the 1..9-digit search\n",
           n_rt, n_short);
}

int main(void) {
    const char *lt = getenv("JET_LONG_TESTS");
    int long_mode = lt && *lt && strcmp(lt, "0") != 0;
    const char *st = getenv("JET_SHORT_TESTS");
    unsigned long scale = st && *st && strcmp(st, "0") != 0 ? 10 : 1;
    unsigned long n_rt = long_mode ? 100000000ul : 1000000ul / scale;
    unsigned long n_libc = long_mode ? 20000000ul : 1000000ul / scale;
    unsigned long n_short = long_mode ? 10000000ul : 100000ul / scale;
    test_examples();
    test_integers();
    test_vectors();
    test_random(n_rt, n_libc, n_short);
    return CHECK_DONE("test_num_print");
}
