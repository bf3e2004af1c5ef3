/*
 * num_print.h — the number printers' bodies (internal), inlined where a
 * writer prints many numbers: the tree walks (tree_walk.h, through emit.h)
 * call jet__num_put_f64 and jet__num_put_u64 without a call per number;
 * num_print.c wraps them as jet_num_write_* (num.h's contracts: a NUL
 * after the text). See num_print.c's comment for the algorithm.
 */
#ifndef JET_NUM_PRINT_H
#define JET_NUM_PRINT_H

#include <string.h>

#include "num.h"
#include "pow10_table.h"

/* ------------------------------------------------------------------------ */
/* 64 x 64 -> 128 bit multiplication                                         */
/* ------------------------------------------------------------------------ */

#if defined(__SIZEOF_INT128__) && !defined(JET_NUM_NO_INT128)
#define NP_HAVE_U128 1
__extension__ typedef unsigned __int128 np_u128;
/* Low 64 bits of a * b; the high 64 bits go to *hi. */
static inline uint64_t np_mul(uint64_t a, uint64_t b, uint64_t *hi) {
    np_u128 p = (np_u128)a * b;
    *hi = (uint64_t)(p >> 64);
    return (uint64_t)p;
}
#else
static inline uint64_t np_mul(uint64_t a, uint64_t b, uint64_t *hi) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32;
    uint64_t b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    /* middle column: at most 3 * (2^32 - 1) < 2^34, no overflow */
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return (mid << 32) | (uint32_t)p00;
}
#endif

/* ------------------------------------------------------------------------ */
/* Small integer helpers                                                     */
/* ------------------------------------------------------------------------ */

/* floor(a / 2^s) for any int32 a (no reliance on signed right shifts). */
static inline int np_floor_shift(int32_t a, unsigned s) {
    uint32_t biased = (uint32_t)a + UINT32_C(0x80000000);
    return (int)(biased >> s) - (int)(UINT32_C(1) << (31 - s));
}

/* floor(q * log10(2)), exact for |q| <= 1100 (checked against exact
 * rational arithmetic for every q in [-1100, 1000)). */
static inline int np_flog10_pow2(int q) {
    return np_floor_shift((int32_t)q * 315653, 20);
}

/* floor(q * log10(2) + log10(3/4)), same range. */
static inline int np_flog10_3q_pow2(int q) {
    return np_floor_shift((int32_t)q * 315653 - 130968, 20);
}

/* floor(p * log2(10)) for p in the table's range (see pow10_table.h). */
static inline int np_flog2_pow10(int p) {
    return np_floor_shift((int32_t)p * 217706, 16);
}

static inline uint64_t np_rotr(uint64_t x, unsigned r) {
    return (x >> r) | (x << (64 - r));
}

static const char np_digits2[200] = {
    '0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
    '1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
    '2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
    '3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
    '4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
    '5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
    '6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
    '7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
    '8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
    '9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9',
};

/* Number of decimal digits of d (1 for 0). */
static inline int np_count_digits(uint64_t d) {
    unsigned bits = 64u - (unsigned)jet__clz64(d | 1);
    /* 1233 / 4096 ~ log10(2): t = floor(log10(2^bits)) or one more */
    unsigned t = (bits * 1233u) >> 12;
    return (int)t + ((d | 1) >= jet__pow10_u64[t]);
}

/*
 * Digits are produced eight at a time. np_digits8(v) returns the 8 decimal
 * digits of v < 10^8 as ASCII bytes of one 64-bit word, the most significant
 * digit in the lowest byte, computed lane-parallel: v splits into two
 * 4-digit halves (32-bit lanes), each into two 2-digit quarters (16-bit
 * lanes), each into two digits (8-bit lanes). Every lane product stays inside
 * its lane: 9999 * 10486 < 2^27 and 99 * 103 < 2^14; x * 10486 >> 20 == x / 100
 * for x < 43690 and x * 103 >> 10 == x / 10 for x < 170.
 * np_put8 stores byte i of such a word at p[i] (one store on little-endian
 * machines). Shifting a word right by 8*z drops its first z digits and
 * leaves zero bytes at the top.
 */
#define NP_ASCII0 UINT64_C(0x3030303030303030)

/* The digit values (0..9 per byte, not yet ASCII): leading zeros of v are
 * the low zero bytes, so ctz counts them. */
static inline uint64_t np_digit_values8(uint32_t v) {
    uint64_t hi = v / 10000;
    uint64_t y = hi | ((uint64_t)(v - (uint32_t)hi * 10000) << 32);
    uint64_t q = ((y * 10486) >> 20) & UINT64_C(0x0000007f0000007f);
    y = q | ((y - q * 100) << 16);
    q = ((y * 103) >> 10) & UINT64_C(0x000f000f000f000f);
    return q | ((y - q * 10) << 8);
}

static inline uint64_t np_digits8(uint32_t v) { return np_digit_values8(v) + NP_ASCII0; }

/*
 * Two such words at once, np_digits8(a) in *wa and np_digits8(b) in *wb,
 * with SSE2 (every x86-64) where it is available: the same three levels,
 * but with all 16 digits in one 128-bit register. Level 1 splits a and b
 * (one per 64-bit lane) into 4-digit halves with a 32 x 32 -> 64 multiply
 * (x / 10^4 == x * 0xD1B71759 >> 45 for any 32-bit x); levels 2 and 3 work
 * on 16-bit lanes with "multiply, keep the high half": x / 100 == (x * 5243)
 * >> 19 for x < 43699, and x / 10 == (x * 6554) >> 16 for x < 16389.
 */
#if defined(__SSE2__) && !defined(JET_NUM_NO_SSE2) && !defined(JET_PORTABLE)
#include <emmintrin.h>
/* c, hidden from the optimizer: gcc turns _mm_mullo_epi16 by a known 100
 * or 10 into 7 or 4 shifts and adds; an opaque constant keeps it one
 * pmullw (about 9 instructions less per 16 digits). */
static JET_ALWAYS_INLINE __m128i np_opaque(__m128i c) {
#if JET_GNUC
    __asm__("" : "+x"(c));
#endif
    return c;
}
static inline void np_digits16(uint32_t a, uint32_t b, uint64_t *wa, uint64_t *wb) {
    __m128i v = _mm_unpacklo_epi64(_mm_cvtsi32_si128((int)a), _mm_cvtsi32_si128((int)b));
    __m128i hi = _mm_srli_epi64(_mm_mul_epu32(v, _mm_set1_epi32((int)0xD1B71759)), 45);
    __m128i lo = _mm_sub_epi32(v, _mm_mul_epu32(hi, _mm_set1_epi32(10000)));
    __m128i y = _mm_or_si128(hi, _mm_slli_epi64(lo, 32));      /* 32-bit lanes, each < 10^4 */
    __m128i q = _mm_srli_epi16(_mm_mulhi_epu16(y, _mm_set1_epi16(5243)), 3);
    y = _mm_or_si128(q, _mm_slli_epi32(_mm_sub_epi16(y, _mm_mullo_epi16(q, np_opaque(_mm_set1_epi16(100)))), 16));
    q = _mm_mulhi_epu16(y, _mm_set1_epi16(6554));               /* 16-bit lanes, each < 100 */
    y = _mm_or_si128(q, _mm_slli_epi16(_mm_sub_epi16(y, _mm_mullo_epi16(q, np_opaque(_mm_set1_epi16(10)))), 8));
    y = _mm_add_epi8(y, _mm_set1_epi8('0'));
    /* the low 64 bits, then the high 64 bits (SSE2 has no 64-bit extract) */
    uint64_t t[2];
    memcpy(t, &y, 16);
    *wa = t[0];
    *wb = t[1];
}
#else
static inline void np_digits16(uint32_t a, uint32_t b, uint64_t *wa, uint64_t *wb) {
    *wa = np_digits8(a);
    *wb = np_digits8(b);
}
#endif

static inline void np_put8(char *p, uint64_t w) {
#if (defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) &&          \
     __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) ||                             \
    defined(_M_X64) || defined(_M_IX86) || defined(_M_ARM64)
    memcpy(p, &w, 8);
#else
    for (int i = 0; i < 8; i++) p[i] = (char)(unsigned char)(w >> (8 * i));
#endif
}

/* Stores the n digits of d < 10^16 (n = its digit count) at p[0..n); bytes
 * p[n..max(n, 8)) get overwritten with junk. */
static inline void np_store16(char *p, uint64_t d, int n) {
    if (n <= 8) {
        np_put8(p, np_digits8((uint32_t)d) >> (8 * (8 - n)));
    } else {
        uint64_t hi = d / 100000000u;
        uint32_t lo = (uint32_t)(d - hi * 100000000u);
        uint64_t wh, wl;
        np_digits16((uint32_t)hi, lo, &wh, &wl);
        np_put8(p, wh >> (8 * (16 - n)));
        np_put8(p + n - 8, wl);
    }
}


/* ------------------------------------------------------------------------ */
/* Formatting of a decimal d * 10^e                                          */
/* ------------------------------------------------------------------------ */

/* Removes the trailing decimal zeros of d (d <= 10^18), adding them to *e.
 * Divisibility by 10^m: with y = d * 5^-m mod 2^64, d is a multiple of 10^m
 * iff rotr(y, m) <= floor((2^64 - 1) / 10^m), and then rotr(y, m) = d / 10^m
 * (Granlund-Montgomery exact division, the rotation folds in the 2^m test). */
static inline uint64_t np_strip_zeros(uint64_t d, int *e) {
    uint64_t r;
    int z = 0;
    r = np_rotr(d * UINT64_C(0xe4a4d1417cd9a041), 16);
    if (r <= UINT64_C(1844)) { d = r; z += 16; }
    r = np_rotr(d * UINT64_C(0xc767074b22e90e21), 8);
    if (r <= UINT64_C(184467440737)) { d = r; z += 8; }
    r = np_rotr(d * UINT64_C(0xd288ce703afb7e91), 4);
    if (r <= UINT64_C(1844674407370955)) { d = r; z += 4; }
    r = np_rotr(d * UINT64_C(0x8f5c28f5c28f5c29), 2);
    if (r <= UINT64_C(184467440737095516)) { d = r; z += 2; }
    r = np_rotr(d * UINT64_C(0xcccccccccccccccd), 1);
    if (r <= UINT64_C(1844674407370955161)) { d = r; z += 1; }
    *e += z;
    return d;
}

/*
 * Writes d * 10^e (0 < d < 10^17, no trailing zeros, n digits) at p in the
 * num.h format; returns the end. p is at most buf + 1 of a buffer of
 * JET_NUM_F64_MAX_CHARS + 1 = 27 bytes; every store below stays within
 * p[0..25] (noted as "last <= ..."). Bytes past the returned end may be
 * scribbled on; the caller writes the NUL there.
 *
 * d is first scaled to exactly 17 digits D = d * 10^(17 - n) (trailing zeros
 * are harmless padding), then cut into words: A = digits 0..7, B = 8..15,
 * and the single digit C = 16. Each layout is a few word stores; the '.' is
 * inserted by storing a word twice, the second time shifted past the point.
 * No digit is read back from memory (a load spanning several fresh stores
 * would stall on store forwarding).
 */
static JET_ALWAYS_INLINE char *np_format(char *p, uint64_t d, int e, int n) {
    int x = e + n - 1; /* decimal exponent of the leading digit */
    uint64_t dd = d * jet__pow10_u64[17 - n];
    uint64_t a9 = dd / 1000000000u;
    uint32_t r9 = (uint32_t)(dd - a9 * 1000000000u);
    uint32_t b8 = r9 / 10;
    uint64_t A, B;
    np_digits16((uint32_t)a9, b8, &A, &B);
    char C = (char)('0' + (r9 - b8 * 10));

    if ((unsigned)x < 21u) {
        if (n <= x + 1) { /* integral: digits, zeros, ".0"; last <= 24 */
            np_put8(p, A);
            np_put8(p + 8, B);
            p[16] = C;
            np_put8(p + 17, NP_ASCII0);
            p[x + 1] = '.';
            p[x + 2] = '0';
            return p + x + 3;
        }
        /* x <= 15 here: n - 1 > x */
        if (x < 8) { /* the point falls inside A; last <= 17 */
            np_put8(p, A);
            np_put8(p + x + 2, (A >> (8 * x)) >> 8); /* x + 1 may be 8 */
            p[x + 1] = '.';
            np_put8(p + 9, B);
            p[17] = C;
        } else { /* inside B; last <= 24 */
            np_put8(p, A);
            np_put8(p + 8, B);
            np_put8(p + x + 2, (B >> (8 * (x - 8))) >> 8);
            p[x + 1] = '.';
            p[17] = C;
        }
        return p + n + 1;
    }
    if (x < 0 && x >= -6) { /* 0.000ddd; last <= 23 */
        np_put8(p, UINT64_C(0x3030303030302e30)); /* "0.000000" */
        p += 1 - x;
        np_put8(p, A);
        np_put8(p + 8, B);
        p[16] = C;
        return p + n;
    }
    /* d.ddde+XX; last <= 17 */
    np_put8(p + 1, A);
    p[0] = (char)(unsigned char)A;
    p[1] = '.';
    np_put8(p + 9, B);
    p[17] = C;
    p += n + (n > 1);
    p[0] = 'e';
    p[1] = '+';
    if (x < 0) {
        p[1] = '-';
        x = -x;
    }
    p += 2;
    unsigned ux = (unsigned)x;
    if (ux >= 100) {
        unsigned h = ux / 100;
        p[0] = (char)('0' + h);
        memcpy(p + 1, np_digits2 + 2 * (ux - h * 100), 2);
        return p + 3;
    }
    if (ux >= 10) {
        memcpy(p, np_digits2 + 2 * ux, 2);
        return p + 2;
    }
    p[0] = (char)('0' + ux);
    return p + 1;
}

/* ------------------------------------------------------------------------ */
/* Schubfach core                                                            */
/* ------------------------------------------------------------------------ */

/* Candidate selection shared by both widths. vb, vbl, vbr are the round-to-
 * odd values of 4 * v * 10^-k and of the two interval ends; `out` is 1 when
 * the ends are excluded (odd significand). Returns d without trailing zeros,
 * adjusting *k so that the value is d * 10^k, and its digit count in *n.
 * `wide`: s is known to have 16 or 17 digits (binary64 normal numbers:
 * v * 10^-k lies in [c, 10c) or [4c/3, 40c/3) with 2^52 <= c < 2^53). */
static JET_ALWAYS_INLINE uint64_t np_select(uint64_t vb, uint64_t vbl, uint64_t vbr,
                                 unsigned out, int *k, int *n, int wide) {
    uint64_t s = vb >> 2;
    /* A multiple of 10 in the interval is the unique shortest candidate. */
    uint64_t s10 = s / 10;
    uint64_t sp10 = s10 * 10;
    uint64_t tp10 = sp10 + 10;
    int upin = vbl + out <= (sp10 << 2);
    int wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) {
        *k += 1;
        uint64_t d = np_strip_zeros(s10 + (uint64_t)wpin, k);
        *n = np_count_digits(d);
        return d;
    }
    /* Otherwise s or s + 1, whichever is in; the closer when both are.
     * Neither is a multiple of 10 here (that one would have been found
     * above), so there are no zeros to strip. */
    uint64_t t = s + 1;
    int uin = vbl + out <= (s << 2);
    int win = (t << 2) + out <= vbr;
    uint64_t mid = (s << 2) + 2; /* 4 * (s + 1/2) */
    int closer = vb < mid || (vb == mid && (s & 1) == 0);
    /* branch-free: which of the two wins is data-dependent */
    uint64_t d = s + (uint64_t)((uin & ((win ^ 1) | closer)) ^ 1);
    /* s + 1 = 10^16 would be a multiple of 10, handled above */
    *n = wide ? 16 + (d >= UINT64_C(10000000000000000)) : np_count_digits(d);
    return d;
}

/*
 * Round to odd of x = cp * g / 2^129 where g = (g_hi, g_lo) >= 2^127.
 * `keep_low` selects whether the lowest 64 bits of the product take part in
 * the sticky bit; `force` sets the sticky bit (x known not to be an integer).
 */
static inline uint64_t np_rop128(uint64_t g_hi, uint64_t g_lo, uint64_t cp,
                                 uint64_t keep_low, uint64_t force) {
#if defined(NP_HAVE_U128)
    np_u128 lo = (np_u128)cp * g_lo;
    /* cp * g_hi + high(lo) <= (2^64 - 1)^2 + 2^64 - 1 < 2^128 */
    np_u128 hi = (np_u128)cp * g_hi + (uint64_t)(lo >> 64);
    uint64_t top = (uint64_t)(hi >> 64), mid = (uint64_t)hi, b0 = (uint64_t)lo;
#else
    uint64_t a1, b1;
    uint64_t a0 = np_mul(cp, g_hi, &a1);
    uint64_t b0 = np_mul(cp, g_lo, &b1);
    uint64_t mid = a0 + b1;
    uint64_t top = a1 + (mid < a0);
#endif
    uint64_t rest = (top & 1) | mid | (b0 & keep_low) | force;
    return (top >> 1) | (rest != 0);
}

/* Adds a 128-bit (h, l) into the 256-bit accumulator r[0..3] at limb i. */
static inline void np_acc(uint64_t r[4], int i, uint64_t h, uint64_t l) {
    uint64_t s = r[i] + l;
    uint64_t c = s < l;
    r[i] = s;
    s = r[i + 1] + h;
    uint64_t c2 = s < h;
    s += c;
    c2 += s < c;
    r[i + 1] = s;
    for (int j = i + 2; j < 4 && c2; j++) {
        r[j] += c2;
        c2 = r[j] < c2;
    }
}

/*
 * Round to odd of x = (cp * 10^16) * g / 2^sh for the tiniest doubles, whose
 * 10^-k lies beyond the table (-k > JET_POW10_MAX): 10^-k = 10^16 * 10^(-k-16).
 * x is never an integer there, so the sticky bit is always set.
 * 177 <= sh <= 181.
 */
static JET_NOINLINE uint64_t np_rop_wide(uint64_t g_hi, uint64_t g_lo, uint64_t cp,
                            unsigned sh) {
    uint64_t m1;
    uint64_t m0 = np_mul(cp, UINT64_C(10000000000000000), &m1);
    uint64_t r[4] = {0, 0, 0, 0};
    uint64_t h, l;
    l = np_mul(m0, g_lo, &h);
    np_acc(r, 0, h, l);
    l = np_mul(m0, g_hi, &h);
    np_acc(r, 1, h, l);
    l = np_mul(m1, g_lo, &h);
    np_acc(r, 1, h, l);
    l = np_mul(m1, g_hi, &h);
    np_acc(r, 2, h, l);
    unsigned s = sh - 128; /* 49..53 */
    return (r[2] >> s) | (r[3] << (64 - s)) | 1;
}

/* Round to odd of x = cp * g / 2^65 for a 64-bit power of ten g (binary32,
 * and binary64 when 10^p fits in 64 bits). */
static JET_ALWAYS_INLINE uint64_t np_rop64(uint64_t g, uint64_t cp, uint64_t low_mask,
                                uint64_t force) {
    uint64_t hi;
    uint64_t lo = np_mul(cp, g, &hi);
    uint64_t rest = (hi & 1) | (lo & low_mask) | force;
    return (hi >> 1) | (rest != 0);
}

/* The interval's lower end *cbl for cb = 4c (half as far below when
 * `asym`), and k = floor(log10 of the interval's width) for c * 2^q. */
static JET_ALWAYS_INLINE int np_lower_end(uint64_t cb, int q, int asym, uint64_t *cbl) {
    if (!asym) {
        *cbl = cb - 2;
        return np_flog10_pow2(q);
    }
    *cbl = cb - 1;
    return np_flog10_3q_pow2(q);
}

/* Shortest decimal of c * 2^q (c > 0); returns d and sets *k, value d*10^k.
 * `asym`: c is the smallest significand of a normal binade above the first,
 * so the gap below is half the gap above. */
static JET_ALWAYS_INLINE uint64_t np_shortest64(uint64_t c, int q, int asym, int *kout,
                                     int *nout) {
    unsigned out = (unsigned)(c & 1);
    uint64_t cb = c << 2;
    uint64_t cbr = cb + 2;
    uint64_t cbl;
    int k = np_lower_end(cb, q, asym, &cbl);
    int p = -k;
    uint64_t vb, vbl, vbr;
    if ((unsigned)p <= 27u) {
        /* 10^p = 5^p * 2^p with 5^p < 2^64: the table's low half is zero and
         * one 64-bit product is exact (the common case: 2^-90 < v < 2^53). */
        uint64_t g = jet__pow10_tab[p - JET_POW10_MIN][0];
        unsigned sh = (unsigned)(q + np_flog2_pow10(p) + 2); /* 2..5 */
        vb = np_rop64(g, cb << sh, ~UINT64_C(0), 0);
        vbl = np_rop64(g, cbl << sh, ~UINT64_C(0), 0);
        vbr = np_rop64(g, cbr << sh, ~UINT64_C(0), 0);
    } else if (!JET_UNLIKELY(p > JET_POW10_MAX)) {
        const uint64_t *t = jet__pow10_tab[p - JET_POW10_MIN];
        /* 10^p is exact in the table for 0 <= p <= 55; otherwise the table
         * holds the floor and floor + 1 is a strict upper bound. */
        uint64_t inexact = (unsigned)p > 55u;
        uint64_t g_lo = t[1] + inexact;
        uint64_t g_hi = t[0] + (g_lo < inexact);
        unsigned sh = (unsigned)(q + np_flog2_pow10(p) + 2); /* 2..5 */
        /*
         * Sticky bit. Exact g: the whole product counts. 1 <= k <= 24:
         * x = N / 5^k may be an integer, and the excess of g over 10^p is
         * below cp < 2^58 < 2^64 units, so dropping the lowest 64 bits
         * keeps integers exact while any fraction (>= 5^-24 > 2^-64) still
         * shows. Elsewhere x is never an integer (5^25 > cp, or a power of
         * two beyond cp in the denominator): force the sticky bit.
         */
        uint64_t keep_low = inexact ? 0 : ~UINT64_C(0);
        uint64_t force = (p < -24) | (p > 55);
        vb = np_rop128(g_hi, g_lo, cb << sh, keep_low, force);
        vbl = np_rop128(g_hi, g_lo, cbl << sh, keep_low, force);
        vbr = np_rop128(g_hi, g_lo, cbr << sh, keep_low, force);
    } else {
        int p2 = p - 16;
        const uint64_t *t = jet__pow10_tab[p2 - JET_POW10_MIN];
        uint64_t g_lo = t[1] + 1;
        uint64_t g_hi = t[0] + (g_lo == 0);
        unsigned sh = (unsigned)(127 - (q + np_flog2_pow10(p2)));
        vb = np_rop_wide(g_hi, g_lo, cb, sh);
        vbl = np_rop_wide(g_hi, g_lo, cbl, sh);
        vbr = np_rop_wide(g_hi, g_lo, cbr, sh);
    }
    *kout = k;
    return np_select(vb, vbl, vbr, out, kout, nout, c >> 52 != 0);
}

static inline uint64_t np_shortest32(uint32_t c, int q, int asym, int *kout,
                                     int *nout) {
    unsigned out = c & 1;
    uint64_t cb = (uint64_t)c << 2;
    uint64_t cbr = cb + 2;
    uint64_t cbl;
    int k = np_lower_end(cb, q, asym, &cbl);
    int p = -k; /* -31 <= p <= 45: inside the table */
    const uint64_t *t = jet__pow10_tab[p - JET_POW10_MIN];
    /* The high half is exact for 0 <= p <= 27 (5^27 < 2^64). */
    uint64_t inexact = (unsigned)p > 27u;
    uint64_t g = t[0] + inexact;
    unsigned sh = (unsigned)(q + np_flog2_pow10(p) + 2); /* 2..5 */
    /*
     * Same sticky reasoning as binary64 with 64-bit g: the excess is below
     * cp < 2^29 units, so for 1 <= k <= 11 (5^12 > cp) the lowest 32 bits
     * are dropped and any fraction (>= 5^-11 > 2^-33) still shows;
     * elsewhere x is never an integer.
     */
    uint64_t low_mask = inexact ? ~UINT64_C(0) << 32 : ~UINT64_C(0);
    uint64_t force = (p < -11) | (p > 27);
    uint64_t vb = np_rop64(g, cb << sh, low_mask, force);
    uint64_t vbl = np_rop64(g, cbl << sh, low_mask, force);
    uint64_t vbr = np_rop64(g, cbr << sh, low_mask, force);
    *kout = k;
    return np_select(vb, vbl, vbr, out, kout, nout, 0);
}

/* ------------------------------------------------------------------------ */
/* Inline entry points (no NUL; bytes past the returned end may be           */
/* scribbled on, within the sizes of num.h's buffers)                        */
/* ------------------------------------------------------------------------ */

/* Out of line: the 17 to 20 digits of u >= 10^16 at p; returns the end. */
char *jet__num_put_u64_long(char *p, uint64_t u);

/* The decimal digits of u at p; returns the end. Room: 21 bytes. Up to 16
 * digits without a call or a digit count: the leading zeros of the digit
 * word are counted with ctz, and each 8-digit group is one store. */
static JET_ALWAYS_INLINE char *jet__num_put_u64(char *p, uint64_t u) {
    if (u < 10) {
        *p = (char)('0' + u);
        return p + 1;
    }
    if (u < 100000000u) {
        uint64_t w = np_digit_values8((uint32_t)u);
        unsigned z = jet__ctz64(w) >> 3; /* u >= 10: w != 0, z <= 6 */
        np_put8(p, (w + NP_ASCII0) >> (8 * z));
        return p + 8 - z;
    }
    if (JET_UNLIKELY(u >= UINT64_C(10000000000000000))) return jet__num_put_u64_long(p, u);
    uint64_t hi = u / 100000000u;
    uint32_t lo = (uint32_t)(u - hi * 100000000u);
    uint64_t wh, wl;
    np_digits16((uint32_t)hi, lo, &wh, &wl); /* one SSE2 pass for both */
    if (hi < 10) { /* 9 digits: ids, timestamps in seconds */
        *p++ = (char)('0' + hi);
    } else {
        unsigned z = jet__ctz64(wh - NP_ASCII0) >> 3;
        np_put8(p, wh >> (8 * z));
        p += 8 - z;
    }
    np_put8(p, wl);
    return p + 8;
}

/* The bits of a double, and whether they are a finite one (an integer
 * test: the value never goes through a floating-point register). */
static JET_ALWAYS_INLINE uint64_t jet__f64_bits(double v) {
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
}
static JET_ALWAYS_INLINE bool jet__f64_bits_finite(uint64_t bits) {
    return ((bits >> 52) & 0x7ffu) != 0x7ffu;
}

/* The shortest form of the finite double with these bits (num.h's format)
 * at p; returns the end. Room: JET_NUM_F64_MAX_CHARS + 1 bytes. */
static JET_ALWAYS_INLINE char *jet__num_put_f64(char *p, uint64_t bits) {
    uint64_t t = bits & ((UINT64_C(1) << 52) - 1);
    unsigned be = (unsigned)(bits >> 52) & 0x7ffu;
    *p = '-';
    p += bits >> 63;
    if (JET_UNLIKELY(be == 0 && t == 0)) {
        memcpy(p, "0.0", 4);
        return p + 3;
    }
    uint64_t c;
    int q;
    if (be != 0) {
        c = t | (UINT64_C(1) << 52);
        q = (int)be - 1075;
    } else {
        c = t;
        q = -1074;
    }
    uint64_t d;
    int k, n;
    /* An integer below 2^53 (its own shortest form): 0 <= -q <= ctz(c)
     * (c != 0, so ctz(c) <= 52; q > 0 wraps to a huge -q). */
    if ((unsigned)-q <= jet__ctz64(c)) {
        k = 0;
        d = np_strip_zeros(c >> -q, &k);
        n = np_count_digits(d);
    } else {
        d = np_shortest64(c, q, t == 0 && be > 1, &k, &n);
    }
    return np_format(p, d, k, n);
}

#endif
