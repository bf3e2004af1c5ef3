/*
 * num_parse.c — exact decimal → binary number parsing (see num.h and the
 * "Parsing" section of docs/numbers.md).
 *
 * Pipeline for one number:
 *   1. scan: grammar check + accumulate up to 19 digits in a uint64 (8-digit
 *      SWAR steps when 8 bytes remain, so we never read past `end`);
 *   2. integers that fit → UINT/SINT directly;
 *   3. Clinger: mantissa exactly representable and |exp10| <= 22 → one IEEE
 *      multiply/divide, correctly rounded by the hardware;
 *   4. Eisel–Lemire: 64×128-bit product with the normalized power of ten
 *      (pow10_table.h), with a provable "ambiguous" test;
 *   5. exact fallback (big integers) for the rare ambiguous products and for
 *      > 19 significant digits when truncation matters.
 * Steps 3–5 run for binary64 and, separately, for binary32 (no double
 * rounding).
 */
#include "num.h"

#include <float.h>
#include <string.h>

#include "pow10_table.h"

#if defined(__SIZEOF_INT128__) && !defined(JET_NO_INT128)
#define NP_HAVE_U128 1
__extension__ typedef __uint128_t np_u128;
#endif

/* SWAR digit parsing assumes the first byte lands in the low bits. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !defined(JET_NO_SWAR)
#define NP_SWAR 1
#endif

/* The Clinger fast path relies on each operation being rounded once to the
 * target type; with x87 excess precision that is not so, and the integer
 * paths (always exact) take over. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0 && !defined(JET_NO_CLINGER)
#define NP_CLINGER 1
#endif

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */
/* ------------------------------------------------------------------------ */

typedef struct np_u128s {
    uint64_t hi, lo;
} np_u128s;

static inline np_u128s np_mul64(uint64_t a, uint64_t b) {
    np_u128s r;
#ifdef NP_HAVE_U128
    np_u128 p = (np_u128)a * b;
    r.hi = (uint64_t)(p >> 64);
    r.lo = (uint64_t)p;
#else
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    r.lo = (mid << 32) | (p00 & 0xFFFFFFFFu);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
    return r;
}

/* floor(q * log2(10)) for |q| < 2^20ish, without shifting a negative value. */
static inline int np_floor_log2_pow10(int q) {
    int64_t t = (int64_t)q * 217706 + ((int64_t)1 << 40);
    return (int)(t >> 16) - (1 << 24);
}

#ifdef NP_SWAR
/* 8 bytes at p less '0' in every byte (see bits.h). */
static inline uint64_t np_word(const char *p) { return jet__load_le64(p) - JET_SWAR_ZEROS; }
#endif

/* Accumulates digits into *w (wrapping: callers re-derive when > 19).
 * With 8 readable bytes, a run shorter than 8 is taken in one step: the
 * digits are shifted to the top of the word, zeros fill in below. */
static inline const char *np_digits(const char *p, const char *end, uint64_t *w) {
    uint64_t x = *w;
#ifdef NP_SWAR
    while (end - p >= 8) {
        uint64_t v = np_word(p);
        unsigned n = jet__swar_digit_run(v);
        if (n == 8) {
            x = x * 100000000u + jet__swar_digits8(v);
            p += 8;
            continue;
        }
        if (n) {
            x = x * jet__pow10_u64[n] + jet__swar_digits8(v << (64 - 8 * n));
            p += n;
        }
        *w = x;
        return p;
    }
#endif
    while (p < end && jet__is_digit(*p)) {
        x = x * 10 + (uint64_t)(*p - '0');
        p++;
    }
    *w = x;
    return p;
}

/* ------------------------------------------------------------------------ */
/* Scanner                                                                  */
/* ------------------------------------------------------------------------ */

/* Where the digits are; only the cold paths need it as a struct. */
typedef struct np_dec {
    const char *ip; /* integer digits */
    const char *fp; /* fraction digits */
    size_t nint, nfrac;
    int64_t exp;    /* explicit exponent, saturated at +-2^50 */
} np_dec;

#define NP_EXP_SAT ((int64_t)1 << 50)

static inline const char *np_fail(jet_code c, const char *at, jet_code *code,
                                  const char **err_at) {
    *code = c;
    *err_at = at;
    return NULL;
}

/* Integer digits, *p known to be a digit; NULL on a leading zero ("01"). */
static inline const char *np_scan_int(const char *p, const char *end, uint64_t *w,
                                      jet_code *code, const char **err_at) {
    if (*p == '0') {
        p++;
        *w = 0;
        if (JET_UNLIKELY(p < end && jet__is_digit(*p))) return np_fail(JET_ERR_NUMBER, p, code, err_at);
        return p;
    }
    *w = 0;
    return np_digits(p, end, w);
}

/* Whether *p (p < end) continues a number after its integer digits. */
static inline int np_has_tail(const char *p, const char *end) {
    return p < end && (*p == '.' || (*p | 0x20) == 'e');
}

/* Fraction and/or exponent, *p being '.', 'e' or 'E'. Outputs go to the
 * caller's locals (always inlined, so they stay in registers). Returns the
 * end of the number or NULL (code/err_at set). */
static inline const char *np_scan_tail(const char *p, const char *end, uint64_t *w,
                                       const char **fp_out, size_t *nfrac_out, int64_t *exp_out,
                                       jet_code *code, const char **err_at) {
    const char *fp = p;
    size_t nfrac = 0;
    int64_t exp = 0;
    if (*p == '.') {
        p++;
        fp = p;
        p = np_digits(p, end, w);
        nfrac = (size_t)(p - fp);
        if (JET_UNLIKELY(nfrac == 0))
            return np_fail(p == end ? JET_ERR_TRUNCATED : JET_ERR_NUMBER, p, code, err_at);
    }
    if (p < end && (*p | 0x20) == 'e') {
        p++;
        int eneg = 0;
        if (p < end && (*p == '-' || *p == '+')) {
            eneg = *p == '-';
            p++;
        }
        if (JET_UNLIKELY(p == end)) return np_fail(JET_ERR_TRUNCATED, p, code, err_at);
        if (JET_UNLIKELY(!jet__is_digit(*p))) return np_fail(JET_ERR_NUMBER, p, code, err_at);
        int64_t e = 0;
        do {
            /* Saturate: beyond 2^50 every result is 0 or overflow anyway. */
            if (e < NP_EXP_SAT) e = e * 10 + (*p - '0');
            p++;
        } while (p < end && jet__is_digit(*p));
        exp = eneg ? -e : e;
    }
    *fp_out = fp;
    *nfrac_out = nfrac;
    *exp_out = exp;
    return p;
}

/* Walks the significant digits (leading zeros skipped) of int+frac. */
typedef struct np_digit_iter {
    const char *p, *pend; /* current range */
    const char *next;     /* the fraction range, once the integer one ends */
    size_t next_len;
} np_digit_iter;

static void np_iter_init(np_digit_iter *it, const np_dec *d) {
    it->p = d->ip;
    it->pend = d->ip + d->nint;
    it->next = d->fp;
    it->next_len = d->nfrac;
}

/* Next digit value, or -1 at the end. */
static int np_iter_next(np_digit_iter *it) {
    if (it->p == it->pend) {
        if (!it->next) return -1;
        it->p = it->next;
        it->pend = it->next + it->next_len;
        it->next = NULL;
        if (it->p == it->pend) return -1;
    }
    return *it->p++ - '0';
}

/* More than 19 digits: the first 19 significant digits, the decimal exponent
 * that goes with them, and whether a nonzero digit was dropped. */
static JET_NOINLINE void np_leading19(const np_dec *d, uint64_t *w, int64_t *q, int *trunc) {
    np_digit_iter it;
    np_iter_init(&it, d);
    int64_t skipped = 0, taken = 0;
    int c;
    while ((c = np_iter_next(&it)) == 0) skipped++;
    uint64_t x = 0;
    while (c >= 0 && taken < 19) {
        x = x * 10 + (uint64_t)c;
        taken++;
        c = np_iter_next(&it);
    }
    int t = 0;
    while (c >= 0) {
        if (c) {
            t = 1;
            break;
        }
        c = np_iter_next(&it);
    }
    *w = x;
    *q = d->exp + (int64_t)d->nint - skipped - taken;
    *trunc = t;
}

/* ------------------------------------------------------------------------ */
/* Exact fallback: big-integer comparison with the halfway point            */
/* ------------------------------------------------------------------------ */

/* Any halfway point between two doubles has at most 767 significant digits,
 * so the first 800 digits plus "is anything nonzero after them" decide. */
#define NP_MAX_DIGITS 800
#define NP_BIG_LIMBS 160 /* 5120 bits; the worst case needs about 2700 */

typedef struct np_big {
    int n; /* used limbs; l[n-1] != 0 unless n == 0 */
    uint32_t l[NP_BIG_LIMBS];
} np_big;

static void np_big_mul_small(np_big *a, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->l[i] * m + carry;
        a->l[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < NP_BIG_LIMBS) a->l[a->n++] = (uint32_t)carry;
}

static void np_big_add_small(np_big *a, uint32_t v) {
    uint64_t carry = v;
    for (int i = 0; carry && i < a->n; i++) {
        uint64_t t = (uint64_t)a->l[i] + carry;
        a->l[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && a->n < NP_BIG_LIMBS) a->l[a->n++] = (uint32_t)carry;
}

static void np_big_set_u64(np_big *a, uint64_t v) {
    a->n = 0;
    if (v) a->l[a->n++] = (uint32_t)v;
    if (v >> 32) a->l[a->n++] = (uint32_t)(v >> 32);
}

static void np_big_mul_pow5(np_big *a, int64_t n) {
    static const uint32_t p5[14] = {1, 5, 25, 125, 625, 3125, 15625, 78125, 390625,
                                    1953125, 9765625, 48828125, 244140625, 1220703125};
    while (n >= 13) {
        np_big_mul_small(a, p5[13]);
        n -= 13;
    }
    if (n > 0) np_big_mul_small(a, p5[n]);
}

static void np_big_shl(np_big *a, int64_t bits) {
    if (a->n == 0 || bits <= 0) return;
    int limbs = (int)(bits / 32), sh = (int)(bits % 32);
    if (a->n + limbs + 1 > NP_BIG_LIMBS) return; /* cannot happen (sized above) */
    if (sh) {
        uint32_t top = a->l[a->n - 1] >> (32 - sh);
        for (int i = a->n - 1; i > 0; i--) a->l[i] = (a->l[i] << sh) | (a->l[i - 1] >> (32 - sh));
        a->l[0] <<= sh;
        if (top) a->l[a->n++] = top;
    }
    if (limbs) {
        memmove(a->l + limbs, a->l, (size_t)a->n * sizeof a->l[0]);
        memset(a->l, 0, (size_t)limbs * sizeof a->l[0]);
        a->n += limbs;
    }
}

static int np_big_cmp(const np_big *a, const np_big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->l[i] != b->l[i]) return a->l[i] < b->l[i] ? -1 : 1;
    return 0;
}

typedef struct np_slow {
    np_big digits; /* D: first <= 800 significant digits */
    int64_t k;     /* value ~= D * 10^k */
    int tail;      /* nonzero digits after the first 800 */
    int mbits, bias;
} np_slow;

/* Sign of (D * 10^k + tail) - halfway(b) where halfway(b) is the midpoint
 * between the positive finite `bits` and the next representable value. */
static int np_cmp_half(const np_slow *s, uint64_t bits) {
    uint64_t be = bits >> s->mbits, f = bits & ((UINT64_C(1) << s->mbits) - 1);
    uint64_t m;
    int64_t e;
    if (be == 0) {
        m = f;
        e = 1 - s->bias - s->mbits;
    } else {
        m = f | (UINT64_C(1) << s->mbits);
        e = (int64_t)be - s->bias - s->mbits;
    }
    /* D*10^k vs (2m+1)*2^(e-1): fold 10^k = 5^k*2^k to keep numbers small. */
    np_big L = s->digits, R;
    np_big_set_u64(&R, 2 * m + 1);
    if (s->k >= 0) np_big_mul_pow5(&L, s->k);
    else np_big_mul_pow5(&R, -s->k);
    int64_t diff = (e - 1) - s->k;
    if (diff >= 0) np_big_shl(&R, diff);
    else np_big_shl(&L, -diff);
    int c = np_big_cmp(&L, &R);
    if (c == 0 && s->tail) c = 1;
    return c;
}

/* Correctly rounded magnitude bits, starting from an estimate `b` that is
 * within a couple of units of the answer. */
static JET_NOINLINE uint64_t np_slow_path(const np_dec *d, uint64_t b, int mbits, int bias) {
    np_slow s;
    s.mbits = mbits;
    s.bias = bias;
    s.digits.n = 0;
    s.tail = 0;
    np_digit_iter it;
    np_iter_init(&it, d);
    int64_t skipped = 0, taken = 0;
    int c;
    while ((c = np_iter_next(&it)) == 0) skipped++;
    uint32_t chunk = 0;
    int clen = 0;
    while (c >= 0 && taken < NP_MAX_DIGITS) {
        chunk = chunk * 10 + (uint32_t)c;
        taken++;
        if (++clen == 9) {
            np_big_mul_small(&s.digits, (uint32_t)jet__pow10_u64[9]);
            np_big_add_small(&s.digits, chunk);
            chunk = 0;
            clen = 0;
        }
        c = np_iter_next(&it);
    }
    if (clen) {
        np_big_mul_small(&s.digits, (uint32_t)jet__pow10_u64[clen]);
        np_big_add_small(&s.digits, chunk);
    }
    while (c >= 0) {
        if (c) {
            s.tail = 1;
            break;
        }
        c = np_iter_next(&it);
    }
    s.k = d->exp + (int64_t)d->nint - skipped - taken;
    if (s.digits.n == 0) return 0;

    uint64_t inf = (uint64_t)(2 * bias + 1) << mbits;
    if (b > inf) b = inf;
    /* Move up while the value is above the midpoint (ties go to even). */
    while (b < inf) {
        int r = np_cmp_half(&s, b);
        if (r > 0 || (r == 0 && (b & 1))) b++;
        else break;
    }
    /* Move down while the value is below the midpoint under b. */
    while (b > 0) {
        int r = np_cmp_half(&s, b - 1);
        if (r < 0 || (r == 0 && (b & 1))) b--;
        else break;
    }
    return b;
}

/* ------------------------------------------------------------------------ */
/* Eisel–Lemire                                                             */
/* ------------------------------------------------------------------------ */

/*
 * w != 0, q in [JET_POW10_MIN, JET_POW10_MAX]. Returns the magnitude bits of
 * the correctly rounded w * 10^q in a format with `mbits` explicit mantissa
 * bits and exponent bias `bias` (inf bits on overflow). Sets *amb when the
 * truncated product cannot decide; the returned bits are then an estimate
 * within one unit.
 *
 * Why the test is sound: with W = w normalized to bit 63 and T the table
 * entry (10^q = (T + delta) 2^e, 0 <= delta < 1, delta = 0 for 0 <= q <= 55),
 * the exact scaled value is X = W*T + W*delta with 0 <= W*delta < 2^64.
 * The 192-bit W*T is known from two 64x64 products (the second only when
 * needed). Adding W*delta can change the kept bits or the round bit only if
 * every bit between bit 64 and the round bit is one; when that is not so and
 * delta > 0, the bits below the round bit are certainly nonzero (no tie),
 * and when delta = 0 we know X exactly.
 */
static inline uint64_t np_eisel_lemire(uint64_t w, int q, int mbits, int bias, int *amb) {
    const int shift0 = 64 - mbits - 2; /* kept bits end here when bit 63 of hi is 0 */
    const uint64_t mask = (UINT64_C(1) << (shift0 - 1)) - 1; /* below the round bit */
    int lz = jet__clz64(w);
    w <<= lz;
    const uint64_t *t = jet__pow10_tab[q - JET_POW10_MIN];
    np_u128s f = np_mul64(w, t[0]);
    int exact = q >= 0 && q <= 55;
    uint64_t low = 0; /* bits 0..63 of W*T when exact */
    if (JET_UNLIKELY((f.hi & mask) == mask || exact)) {
        np_u128s s = np_mul64(w, t[1]);
        f.lo += s.hi;
        f.hi += f.lo < s.hi;
        low = s.lo;
        if (!exact && (f.hi & mask) == mask && f.lo == UINT64_MAX) *amb = 1;
    }
    int upper = (int)(f.hi >> 63);
    int64_t be = (int64_t)np_floor_log2_pow10(q) + 63 + upper - lz + bias;
    int shift = shift0 + upper;
    if (be <= 0) {
        /* Subnormal: fewer mantissa bits, the round bit moves up. */
        if (1 - be + shift > 64) return 0; /* below half the smallest subnormal */
        shift += (int)(1 - be);
        be = 0;
    }
    uint64_t m = shift == 64 ? 0 : f.hi >> shift;
    uint64_t round = (f.hi >> (shift - 1)) & 1;
    uint64_t sticky = 1;
    if (exact) sticky = ((f.hi & ((UINT64_C(1) << (shift - 1)) - 1)) | f.lo | low) != 0;
    m += round & (sticky | (m & 1));
    if (be == 0) return m; /* a carry into bit mbits encodes the smallest normal */
    if (m >> (mbits + 1)) {
        m >>= 1;
        be++;
    }
    if (be >= 2 * bias + 1) return (uint64_t)(2 * bias + 1) << mbits;
    return ((uint64_t)be << mbits) | (m & ((UINT64_C(1) << mbits) - 1));
}

/* ------------------------------------------------------------------------ */
/* Decimal → binary64 / binary32 magnitude bits                             */
/* ------------------------------------------------------------------------ */

#define NP_F64_INF UINT64_C(0x7FF0000000000000)
#define NP_F32_INF UINT64_C(0x7F800000)

#ifdef NP_CLINGER
static const double np_exact_pow10_f64[23] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
static const float np_exact_pow10_f32[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                             1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
#endif

/* Tables of num.h's inline fast path (also used below). For k = 0..19:
 * floor(-k * log2(10)) + 63 + 1023 - 1 (np_floor_log2_pow10 with a positive
 * shift operand), and for k = 1..19 the upper half of jet__pow10_tab's entry
 * for 10^-k (test_num_parse checks both against the generated table). */
#define NP_BE1(k) ((int)(((INT64_C(1) << 40) - (int64_t)(k) * 217706) >> 16) - (1 << 24) + 1085)
const int16_t jet__num_pow10_neg_be[20] = {
    NP_BE1(0),  NP_BE1(1),  NP_BE1(2),  NP_BE1(3),  NP_BE1(4),  NP_BE1(5),  NP_BE1(6),
    NP_BE1(7),  NP_BE1(8),  NP_BE1(9),  NP_BE1(10), NP_BE1(11), NP_BE1(12), NP_BE1(13),
    NP_BE1(14), NP_BE1(15), NP_BE1(16), NP_BE1(17), NP_BE1(18), NP_BE1(19)};
const uint64_t jet__num_pow10_neg_hi[20] = {
    0,
    UINT64_C(0xcccccccccccccccc), UINT64_C(0xa3d70a3d70a3d70a), UINT64_C(0x83126e978d4fdf3b),
    UINT64_C(0xd1b71758e219652b), UINT64_C(0xa7c5ac471b478423), UINT64_C(0x8637bd05af6c69b5),
    UINT64_C(0xd6bf94d5e57a42bc), UINT64_C(0xabcc77118461cefc), UINT64_C(0x89705f4136b4a597),
    UINT64_C(0xdbe6fecebdedd5be), UINT64_C(0xafebff0bcb24aafe), UINT64_C(0x8cbccc096f5088cb),
    UINT64_C(0xe12e13424bb40e13), UINT64_C(0xb424dc35095cd80f), UINT64_C(0x901d7cf73ab0acd9),
    UINT64_C(0xe69594bec44de15b), UINT64_C(0xb877aa3236a4b449), UINT64_C(0x9392ee8e921d5d07),
    UINT64_C(0xec1e4a7db69561a5)};
const double jet__num_pow10_f64[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Slow-but-general part: > 19 digits, out-of-range exponents, ambiguity.
 * Takes scalars so that the hot caller keeps its state in registers. */
static JET_NOINLINE uint64_t np_general(const char *ip, size_t nint, const char *fp, size_t nfrac,
                                       int64_t exp, uint64_t w, int64_t q, int ndig_ok,
                                       int mbits, int bias) {
    np_dec d;
    d.ip = ip;
    d.nint = nint;
    d.fp = fp;
    d.nfrac = nfrac;
    d.exp = exp;
    uint64_t inf = (uint64_t)(2 * bias + 1) << mbits;
    int trunc = 0;
    if (!ndig_ok) np_leading19(&d, &w, &q, &trunc);
    if (w == 0) return 0;
    if (q < JET_POW10_MIN) return 0; /* w < 2^64: below half the smallest subnormal */
    if (q > JET_POW10_MAX) return inf;
    int amb = 0;
    uint64_t b = np_eisel_lemire(w, (int)q, mbits, bias, &amb);
    if (trunc) {
        /* The value lies strictly between w*10^q and (w+1)*10^q. */
        uint64_t b2 = np_eisel_lemire(w + 1, (int)q, mbits, bias, &amb);
        if (b != b2) amb = 1;
    }
    if (!amb) return b;
    return np_slow_path(&d, b, mbits, bias);
}

/*
 * The common case of Eisel–Lemire, kept small for the hot path: the table
 * entry is inexact (q outside [0, 55], so the value is never a tie and the
 * sticky bits are nonzero), the first product decides (bits below the round
 * bit not all ones), and the result is normal. Rounding is then "add one at
 * the round bit", and adding the 54-bit mantissa to (be-1) << mbits lets a
 * mantissa carry bump the exponent by itself. Returns 0 when it cannot
 * decide (0 is never a valid answer here: w != 0 and the result is normal).
 */
static inline uint64_t np_el_fast(uint64_t w, int64_t q, int mbits, int bias) {
    const int shift0 = 64 - mbits - 2;
    const uint64_t mask = (UINT64_C(1) << (shift0 - 1)) - 1;
    if (!(w != 0 && q >= JET_POW10_MIN && q <= JET_POW10_MAX && (uint64_t)q > 55)) return 0;
    int lz = jet__clz64(w);
    np_u128s f = np_mul64(w << lz, jet__pow10_tab[q - JET_POW10_MIN][0]);
    if ((f.hi & mask) == mask) return 0;
    int upper = (int)(f.hi >> 63);
    int64_t be = (int64_t)np_floor_log2_pow10((int)q) + 63 + upper - lz + bias;
    if (be <= 0) return 0;
    uint64_t t = f.hi >> (shift0 - 1 + upper); /* mantissa and round bit */
    uint64_t bits = ((uint64_t)(be - 1) << mbits) + ((t + 1) >> 1);
    uint64_t inf = (uint64_t)(2 * bias + 1) << mbits;
    return bits < inf ? bits : inf;
}

/* Magnitude bits of the decimal; `w` holds the digits when nint+nfrac <= 19. */
static inline uint64_t np_to_f64_bits(const char *ip, size_t nint, const char *fp, size_t nfrac,
                                      int64_t exp, uint64_t w) {
    if (JET_LIKELY(nint + nfrac <= 19)) {
        int64_t q = exp - (int64_t)nfrac;
#ifdef NP_CLINGER
        if (w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
            double x = (double)w;
            x = q < 0 ? x / np_exact_pow10_f64[-q] : x * np_exact_pow10_f64[q];
            uint64_t bits;
            memcpy(&bits, &x, 8);
            return bits;
        }
#endif
        uint64_t b = np_el_fast(w, q, 52, 1023);
        if (JET_LIKELY(b)) return b;
        return np_general(ip, nint, fp, nfrac, exp, w, q, 1, 52, 1023);
    }
    return np_general(ip, nint, fp, nfrac, exp, 0, 0, 0, 52, 1023);
}

static inline uint64_t np_to_f32_bits(const char *ip, size_t nint, const char *fp, size_t nfrac,
                                      int64_t exp, uint64_t w) {
    if (JET_LIKELY(nint + nfrac <= 19)) {
        int64_t q = exp - (int64_t)nfrac;
#ifdef NP_CLINGER
        if (w <= (UINT64_C(1) << 24) && q >= -10 && q <= 10) {
            float x = (float)w;
            x = q < 0 ? x / np_exact_pow10_f32[-q] : x * np_exact_pow10_f32[q];
            uint32_t bits;
            memcpy(&bits, &x, 4);
            return bits;
        }
#endif
        uint64_t b = np_el_fast(w, q, 23, 127);
        if (JET_LIKELY(b)) return b;
        return np_general(ip, nint, fp, nfrac, exp, w, q, 1, 23, 127);
    }
    return np_general(ip, nint, fp, nfrac, exp, 0, 0, 0, 23, 127);
}

/* ------------------------------------------------------------------------ */
/* Public entry points                                                      */
/* ------------------------------------------------------------------------ */

/* Matches `lit` (after its first byte, already seen) for NaN/Infinity. */
static const char *np_literal(const char *p, const char *end, const char *lit, size_t n,
                              jet_code *code, const char **err_at) {
    for (size_t i = 0; i < n; i++, p++) {
        if (p == end) return np_fail(JET_ERR_TRUNCATED, p, code, err_at);
        if (*p != lit[i]) return np_fail(JET_ERR_LITERAL, p, code, err_at);
    }
    return p;
}

static JET_NOINLINE const char *np_not_digit(const char *p, const char *end, int neg,
                                            jet_read_flags flags, jet_num *out,
                                            jet_code *code, const char **err_at) {
    if (flags & JET_READ_ALLOW_NAN_INF) {
        uint64_t bits;
        const char *r;
        if (*p == 'I') {
            r = np_literal(p, end, "Infinity", 8, code, err_at);
            bits = NP_F64_INF;
        } else if (*p == 'N' && !neg) {
            r = np_literal(p, end, "NaN", 3, code, err_at);
            bits = UINT64_C(0x7FF8000000000000);
        } else {
            return np_fail(JET_ERR_NUMBER, p, code, err_at);
        }
        if (!r) return NULL;
        if (neg) bits |= UINT64_C(1) << 63;
        out->kind = JET_NUM_REAL;
        memcpy(&out->v.d, &bits, 8);
        return r;
    }
    return np_fail(JET_ERR_NUMBER, p, code, err_at);
}

/* Integer of 20 digits or more, or a negative one below INT64_MIN: the
 * uint64 value when it is a 20-digit one that fits. */
static JET_NOINLINE int np_big_int(const char *ip, size_t nint, int neg, uint64_t *u) {
    if (nint != 20 || neg) return 0;
    uint64_t x = 0;
    for (int i = 0; i < 19; i++) x = x * 10 + (uint64_t)(ip[i] - '0');
    unsigned last = (unsigned)(ip[19] - '0');
    if (x > (UINT64_MAX - last) / 10) return 0;
    *u = x * 10 + last;
    return 1;
}

/* The complete parser: every grammar case, error, flag and position,
 * reading byte by byte where fewer than 8 bytes remain. jet_num_parse runs
 * it for everything its fast path does not finish. */
static JET_NOINLINE const char *np_parse_careful(const char *p, const char *end, jet_read_flags flags,
                                                jet_num *out, jet_code *code, const char **err_at) {
    const char *start = p;
    if (JET_UNLIKELY(p >= end)) return np_fail(JET_ERR_TRUNCATED, end, code, err_at);
    int neg = *p == '-';
    p += neg;
    if (JET_UNLIKELY(p == end)) return np_fail(JET_ERR_TRUNCATED, p, code, err_at);
    if (JET_UNLIKELY(!jet__is_digit(*p))) return np_not_digit(p, end, neg, flags, out, code, err_at);
    const char *ip = p;
    uint64_t w;
    p = np_scan_int(p, end, &w, code, err_at);
    if (JET_UNLIKELY(!p)) return NULL;
    size_t nint = (size_t)(p - ip);
    if (!np_has_tail(p, end)) { /* integer syntax */
        if (JET_UNLIKELY(flags & JET_READ_NUMBER_AS_RAW)) goto raw;
        if (JET_LIKELY(nint <= 19)) {
            if (!neg) {
                out->kind = JET_NUM_UINT;
                out->v.u = w;
                return p;
            }
            if (w - 1 < (UINT64_C(1) << 63)) { /* 1 .. 2^63 */
                out->kind = JET_NUM_SINT;
                out->v.i = -(int64_t)(w - 1) - 1;
                return p;
            }
            /* -0 becomes REAL -0.0 below; so does anything below INT64_MIN. */
        } else {
            uint64_t u;
            if (np_big_int(ip, nint, neg, &u)) {
                out->kind = JET_NUM_UINT;
                out->v.u = u;
                return p;
            }
        }
        if ((w != 0 || nint != 1) && (flags & JET_READ_BIGNUM_AS_RAW)) goto raw;
        uint64_t bits = np_to_f64_bits(ip, nint, p, 0, 0, w);
        if (JET_UNLIKELY(bits == NP_F64_INF)) {
            if (flags & JET_READ_BIGNUM_AS_RAW) goto raw;
            return np_fail(JET_ERR_NUMBER_RANGE, start, code, err_at);
        }
        bits |= (uint64_t)neg << 63;
        out->kind = JET_NUM_REAL;
        memcpy(&out->v.d, &bits, 8);
        return p;
    }
    const char *fp;
    size_t nfrac;
    int64_t exp;
    p = np_scan_tail(p, end, &w, &fp, &nfrac, &exp, code, err_at);
    if (JET_UNLIKELY(!p)) return NULL;
    if (JET_UNLIKELY(flags & JET_READ_NUMBER_AS_RAW)) goto raw;
    {
        uint64_t bits = np_to_f64_bits(ip, nint, fp, nfrac, exp, w);
        if (JET_UNLIKELY(bits == NP_F64_INF)) {
            if (flags & JET_READ_BIGNUM_AS_RAW) goto raw;
            return np_fail(JET_ERR_NUMBER_RANGE, start, code, err_at);
        }
        bits |= (uint64_t)neg << 63;
        out->kind = JET_NUM_REAL;
        memcpy(&out->v.d, &bits, 8);
        return p;
    }
raw:
    out->kind = JET_NUM_RAW;
    out->v.u = 0;
    return p;
}

#ifdef NP_SWAR
/* ------------------------------------------------------------------------ */
/* Fast path: at least NP_ROOMY bytes readable from the number's first byte */
/* ------------------------------------------------------------------------ */

/*
 * Inside a document nearly every number has plenty of bytes after it, so the
 * fast path reads whole 8-byte words without checking `end` for each: from
 * the first byte, the sign (1), at most three words of integer digits (24),
 * the point (1), at most three words of fraction digits (24) and the byte
 * after them stay below NP_ROOMY. Whatever it does not finish (errors, 20 or
 * more digits, NaN/Infinity, "-0", the RAW flags, ambiguous products, values
 * out of range) goes to np_parse_careful from the number's first byte.
 */
#define NP_ROOMY 64

/*
 * A run of digits starting at p, at most `words` words long; *w = *w * 10^n +
 * the run's value (wrapping beyond 19 digits). Returns the end of the run, or
 * NULL when all the words were digits (the run may go on). A partial word of
 * n digits (0..7) is shifted so that its digits land at the top with zeros
 * below: by 64 - 8n, done as two shifts since a shift by 64 is undefined.
 */
static inline const char *np_run(const char *p, uint64_t *w, int words) {
    uint64_t x = *w;
    for (int i = 0; i < words; i++) {
        uint64_t v = np_word(p);
        uint64_t bad = jet__swar_nondigits(v);
        if (bad == 0) {
            x = x * 100000000u + jet__swar_digits8(v);
            p += 8;
            continue;
        }
        unsigned n = jet__ctz64(bad) >> 3;
        x = x * jet__pow10_u64[n] + jet__swar_digits8((v << 1) << (63 - 8 * n));
        *w = x;
        return p + n;
    }
    return NULL;
}

/*
 * Binary64 magnitude bits of w * 10^-nf for w < 10^19, 1 <= nf <= 19, or 0
 * when the short Eisel-Lemire product cannot decide (0 is the answer only
 * for w = 0, which Clinger's path takes). With q = -nf in [-19, -1] the table
 * entry is inexact (no ties, nonzero sticky bits) and, for w > 2^53, the
 * result is a normal number, so of np_el_fast only the "all ones" test is
 * left.
 */
static inline uint64_t np_frac_bits(uint64_t w, unsigned nf) {
#ifdef NP_CLINGER
    if (w <= (UINT64_C(1) << 53)) {
        double x = (double)(int64_t)w / np_exact_pow10_f64[nf];
        uint64_t bits;
        memcpy(&bits, &x, 8);
        return bits;
    }
#else
    if (w == 0) return 0;
#endif
    int lz = jet__clz64(w);
    np_u128s f = np_mul64(w << lz, jet__num_pow10_neg_hi[nf]);
    if (JET_UNLIKELY((f.hi & 0x1FF) == 0x1FF)) return 0; /* bits below the round bit */
    unsigned upper = (unsigned)(f.hi >> 63);
    uint64_t t = f.hi >> (9 + upper); /* mantissa and round bit */
    uint64_t be1 = (uint64_t)(jet__num_pow10_neg_be[nf] - lz + (int)upper);
    return (be1 << 52) + ((t + 1) >> 1);
}

/* Magnitude bits of w * 10^q (0 < w < 10^19, any q) when Clinger or the
 * short Eisel-Lemire settle it; 0 otherwise. */
static inline uint64_t np_exp_bits(uint64_t w, int64_t q) {
#ifdef NP_CLINGER
    if (w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
        double x = (double)(int64_t)w;
        x = q < 0 ? x / np_exact_pow10_f64[-q] : x * np_exact_pow10_f64[q];
        uint64_t bits;
        memcpy(&bits, &x, 8);
        return bits;
    }
#endif
    uint64_t b = np_el_fast(w, q, 52, 1023);
    return b == NP_F64_INF ? 0 : b;
}
#endif /* NP_SWAR */

const char *jet__num_parse(const char *p, const char *end, jet_read_flags flags,
                           jet_num *out, jet_code *code, const char **err_at) {
#ifdef NP_SWAR
    if (JET_LIKELY(end - p >= NP_ROOMY && !(flags & JET_READ_NUMBER_AS_RAW))) {
        const char *s = p;
        uint64_t neg = *p == '-';
        p += neg;
        uint64_t v = np_word(p);
        uint64_t bad = jet__swar_nondigits(v);
        /* not a digit (errors, NaN, Infinity), or a leading zero ("01") */
        if (JET_UNLIKELY((bad & 0x80) || ((v & 0xFF) == 0 && !(bad & 0x8000)))) goto careful;
        uint64_t w;
        unsigned nf;
        if (JET_LIKELY(bad != 0)) {
            unsigned n = jet__ctz64(bad) >> 3; /* 1..7 integer digits */
            if (p[n] == '.') {
                /* Drop the point: the integer digits, then the fraction's,
                 * in one word (bytes below n from v, the rest one byte on).
                 * Merged as text and only then offset: the point's borrow
                 * in np_word(p + 1) would spoil the digits above it. */
                uint64_t low = ((bad & (0 - bad)) >> 7) - 1;
                uint64_t next = jet__load_le64(p + 1);
                uint64_t m = (((v + JET_SWAR_ZEROS) & low) | (next & ~low)) -
                             JET_SWAR_ZEROS;
                uint64_t mbad = jet__swar_nondigits(m);
                unsigned nd;
                if (JET_LIKELY(mbad == 0)) {
                    w = jet__swar_digits8(m);
                    const char *r = np_run(p + 9, &w, 2);
                    if (JET_UNLIKELY(!r)) goto careful;
                    nd = 8 + (unsigned)(r - (p + 9));
                    p = r;
                } else {
                    nd = jet__ctz64(mbad) >> 3;
                    w = jet__swar_digits8((m << 1) << (63 - 8 * nd));
                    p += nd + 1;
                }
                nf = nd - n;
                if (JET_UNLIKELY(nf == 0 || nd > 19)) goto careful; /* "1." or "1.x"; long */
                if (JET_LIKELY((*p | 0x20) != 'e')) {
                    uint64_t bits = np_frac_bits(w, nf);
                    if (JET_UNLIKELY(bits == 0 && w != 0)) goto careful;
                    out->kind = JET_NUM_REAL;
                    out->v.u = bits | neg << 63;
                    return p;
                }
                goto exponent;
            }
            w = jet__swar_digits8((v << 1) << (63 - 8 * n));
            p += n;
        } else { /* 8 or more integer digits */
            w = jet__swar_digits8(v);
            const char *ip = p;
            p = np_run(p + 8, &w, 2);
            if (JET_UNLIKELY(!p || p - ip > 19)) goto careful;
            nf = 0;
            if (*p == '.') {
                const char *fp = p + 1;
                p = np_run(fp, &w, 3);
                if (JET_UNLIKELY(!p)) goto careful;
                nf = (unsigned)(p - fp);
                if (JET_UNLIKELY(nf == 0 || (size_t)(fp - ip) - 1 + nf > 19)) goto careful;
                if (JET_LIKELY((*p | 0x20) != 'e')) {
                    uint64_t bits = np_frac_bits(w, nf);
                    if (JET_UNLIKELY(bits == 0)) goto careful;
                    out->kind = JET_NUM_REAL;
                    out->v.u = bits | neg << 63;
                    return p;
                }
                goto exponent;
            }
        }
        /* integer digits only so far, at most 19 of them */
        if (JET_LIKELY((*p | 0x20) != 'e')) {
            if (!neg) {
                out->kind = JET_NUM_UINT;
                out->v.u = w;
                return p;
            }
            if (JET_UNLIKELY(w - 1 >= (UINT64_C(1) << 63))) goto careful; /* -0, below INT64_MIN */
            out->kind = JET_NUM_SINT;
            out->v.i = -(int64_t)(w - 1) - 1;
            return p;
        }
        nf = 0;
    exponent: {
        /* p is at 'e' or 'E', at most NP_ROOMY - 2 bytes into the number */
        const char *e = p + 1;
        int eneg = *e == '-';
        e += eneg | (*e == '+');
        if (JET_UNLIKELY(e == end || !jet__is_digit(*e))) goto careful;
        int64_t x = 0;
        do {
            if (x < NP_EXP_SAT) x = x * 10 + (*e - '0');
            e++;
        } while (e < end && jet__is_digit(*e));
        uint64_t bits = 0; /* zero times any power of ten */
        if (w != 0) {
            bits = np_exp_bits(w, (eneg ? -x : x) - (int64_t)nf);
            if (JET_UNLIKELY(bits == 0)) goto careful;
        }
        out->kind = JET_NUM_REAL;
        out->v.u = bits | neg << 63;
        return e;
    }
    careful:
        return np_parse_careful(s, end, flags, out, code, err_at);
    }
#endif
    return np_parse_careful(p, end, flags, out, code, err_at);
}

#ifdef JET__NUM_INLINE
/* See num.h. The mantissa came from the inline path (w < 10^19, zero
 * padding counted in q); only the exponent is left to read. */
const char *jet__num_parse_exp(const char *s, const char *e, const char *end, uint64_t w, int q,
                               jet_read_flags flags, jet_num *out, jet_code *code,
                               const char **err_at) {
    const char *p = e + 1;
    int eneg = 0;
    if (p < end && (*p == '-' || *p == '+')) {
        eneg = *p == '-';
        p++;
    }
    if (JET_UNLIKELY(p == end || !jet__is_digit(*p))) return np_parse_careful(s, end, flags, out, code, err_at);
    int64_t x = 0;
    do {
        if (x < NP_EXP_SAT) x = x * 10 + (*p - '0');
        p++;
    } while (p < end && jet__is_digit(*p));
    uint64_t bits = 0; /* zero times any power of ten */
    if (w != 0) {
        bits = np_exp_bits(w, (eneg ? -x : x) + q);
        if (JET_UNLIKELY(bits == 0)) return np_parse_careful(s, end, flags, out, code, err_at);
    }
    out->kind = JET_NUM_REAL;
    out->v.u = bits | (uint64_t)(*s == '-') << 63;
    return p;
}
#endif

const char *jet_num_parse_f32(const char *p, const char *end, float *out,
                              jet_code *code, const char **err_at) {
    const char *start = p;
    if (JET_UNLIKELY(p >= end)) return np_fail(JET_ERR_TRUNCATED, end, code, err_at);
    int neg = *p == '-';
    p += neg;
    if (JET_UNLIKELY(p == end)) return np_fail(JET_ERR_TRUNCATED, p, code, err_at);
    if (JET_UNLIKELY(!jet__is_digit(*p))) return np_fail(JET_ERR_NUMBER, p, code, err_at);
    const char *ip = p, *fp = p;
    uint64_t w;
    size_t nint, nfrac = 0;
    int64_t exp = 0;
    p = np_scan_int(p, end, &w, code, err_at);
    if (JET_UNLIKELY(!p)) return NULL;
    nint = (size_t)(p - ip);
    fp = p;
    if (np_has_tail(p, end)) {
        p = np_scan_tail(p, end, &w, &fp, &nfrac, &exp, code, err_at);
        if (JET_UNLIKELY(!p)) return NULL;
    }
    uint32_t bits = (uint32_t)np_to_f32_bits(ip, nint, fp, nfrac, exp, w);
    if (JET_UNLIKELY(bits == NP_F32_INF)) return np_fail(JET_ERR_NUMBER_RANGE, start, code, err_at);
    bits |= (uint32_t)neg << 31;
    memcpy(out, &bits, 4);
    return p;
}
