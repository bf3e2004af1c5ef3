/*
 * num_print.c — shortest binary -> decimal printing (binary64, binary32) and
 * integer printing. See num.h for the output format and docs/numbers.md
 * ("Printing") for the algorithm and the reasoning behind it.
 *
 * Floating point: Schubfach (R. Giulietti, "The Schubfach way to render
 * doubles"). For v = c * 2^q with rounding interval R = [c - 1/2, c + 1/2] *
 * 2^q (lower half-width 1/4 when c is the smallest significand of a binade),
 * pick k = floor(log10(width of R)) so that R scaled by 10^-k has width in
 * [1, 10). Then R * 10^-k holds at most one multiple of 10 and at least one of
 * the two integers next to v * 10^-k; comparing the (round-to-odd) scaled
 * endpoints against those few candidates gives the shortest decimal and,
 * among the shortest, the closest one (ties to even).
 *
 * The scaled values are cp * 10^-k with cp = 4 * c (+ -2, -1, +2 for the
 * endpoints), computed as the floor of cp * g / 2^129 plus a sticky bit,
 * where g is the 128-bit power of ten from pow10_table.h rounded up (exact
 * when 10^-k fits in 128 bits). The extra two bits of cp make every
 * comparison against a multiple of 4 exact.
 */
#include "num_print.h"

/* ------------------------------------------------------------------------ */
/* Integers                                                                  */
/* ------------------------------------------------------------------------ */

char *jet__num_put_u64_long(char *p, uint64_t u) {
    /* 17..20 digits: a head of 1..4, then 16 */
    uint64_t head = u / UINT64_C(10000000000000000);
    u -= head * UINT64_C(10000000000000000);
    uint32_t h = (uint32_t)head;
    if (h >= 1000) {
        uint32_t h1 = h / 100;
        memcpy(p, np_digits2 + 2 * h1, 2);
        memcpy(p + 2, np_digits2 + 2 * (h - h1 * 100), 2);
        p += 4;
    } else if (h >= 100) {
        uint32_t h1 = h / 100;
        p[0] = (char)('0' + h1);
        memcpy(p + 1, np_digits2 + 2 * (h - h1 * 100), 2);
        p += 3;
    } else if (h >= 10) {
        memcpy(p, np_digits2 + 2 * h, 2);
        p += 2;
    } else {
        p[0] = (char)('0' + h);
        p += 1;
    }
    /* buf holds >= 21 bytes: the 8-byte stores stay inside it */
    np_store16(p, u, 16);
    return p + 16;
}

size_t jet_num_write_u64(uint64_t u, char *buf) {
    char *p = jet__num_put_u64(buf, u);
    *p = '\0';
    return (size_t)(p - buf);
}

size_t jet_num_write_i64(int64_t i, char *buf) {
    if (i < 0) {
        buf[0] = '-';
        return 1 + jet_num_write_u64(UINT64_C(0) - (uint64_t)i, buf + 1);
    }
    return jet_num_write_u64((uint64_t)i, buf);
}

/* ------------------------------------------------------------------------ */
/* Public writers                                                            */
/* ------------------------------------------------------------------------ */

static size_t np_special(char *buf, int neg, int nan) {
    const char *s = nan ? "NaN" : neg ? "-Infinity" : "Infinity";
    size_t n = strlen(s);
    memcpy(buf, s, n + 1);
    return n;
}

size_t jet_num_write_f64(double v, char *buf) {
    uint64_t bits = jet__f64_bits(v);
    if (JET_UNLIKELY(!jet__f64_bits_finite(bits)))
        return np_special(buf, (int)(bits >> 63), (bits << 12) != 0);
    char *p = jet__num_put_f64(buf, bits);
    *p = '\0';
    return (size_t)(p - buf);
}

size_t jet_num_write_f32(float f, char *buf) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    uint32_t t = bits & ((UINT32_C(1) << 23) - 1);
    unsigned be = (bits >> 23) & 0xffu;
    int neg = (int)(bits >> 31);
    if (JET_UNLIKELY(be == 0xffu)) return np_special(buf, neg, t != 0);

    char *p = buf;
    *p = '-';
    p += neg;
    if (JET_UNLIKELY(be == 0 && t == 0)) {
        memcpy(p, "0.0", 4);
        return (size_t)(p - buf) + 3;
    }
    uint32_t c;
    int q;
    if (be != 0) {
        c = t | (UINT32_C(1) << 23);
        q = (int)be - 150;
    } else {
        c = t;
        q = -149;
    }
    uint64_t d;
    int k, n;
    if ((unsigned)-q <= 23u && (c & ((UINT32_C(1) << -q) - 1)) == 0) {
        k = 0;
        d = np_strip_zeros(c >> -q, &k);
        n = np_count_digits(d);
    } else {
        d = np_shortest32(c, q, t == 0 && be > 1, &k, &n);
    }
    p = np_format(p, d, k, n);
    *p = '\0';
    return (size_t)(p - buf);
}
