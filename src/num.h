/*
 * num.h — internal interface of jet's number stage: exact decimal→binary
 * parsing (num_parse.c) and shortest binary→decimal printing (num_print.c).
 * Shared by the DOM reader, the on-demand cursor and the typed decoder.
 */
#ifndef JET_NUM_H
#define JET_NUM_H

#include "jet.h"

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "bits.h"

#if JET_GNUC && !defined(_WIN32)
#define JET__NUM_HIDDEN __attribute__((visibility("hidden")))
#else
#define JET__NUM_HIDDEN
#endif

/* What jet_num_parse found. */
typedef enum jet_num_kind {
    JET_NUM_UINT = 0, /* non-negative integer that fits uint64: v.u       */
    JET_NUM_SINT = 1, /* negative integer that fits int64: v.i            */
    JET_NUM_REAL = 2, /* double, correctly rounded (round-half-even): v.d */
    JET_NUM_RAW = 3   /* keep as text (flags asked for it): no value      */
} jet_num_kind;

typedef struct jet_num {
    jet_num_kind kind;
    union {
        uint64_t u;
        int64_t i;
        double d;
    } v;
} jet_num;

/*
 * Parses one JSON number (RFC 8259 grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)
 * starting at `p` (p < end). Never reads at or past `end`. The caller has
 * already seen that *p is '-' or a digit (or 'N'/'I' under JET_READ_ALLOW_NAN_INF).
 *
 * `flags` are jet_read_flags; the ones that matter here:
 *   JET_READ_ALLOW_NAN_INF   "NaN", "Infinity", "-Infinity" accepted as REAL.
 *   JET_READ_BIGNUM_AS_RAW   integers outside int64/uint64, and numbers whose
 *                            magnitude overflows a double, give JET_NUM_RAW.
 *   JET_READ_NUMBER_AS_RAW   every valid number gives JET_NUM_RAW (grammar
 *                            still checked).
 * Without those flags: integers that do not fit become REAL (nearest double);
 * overflow (1e400, -1e400) is JET_ERR_NUMBER_RANGE; underflow rounds to
 * (signed) zero or a subnormal as correct rounding dictates.
 * Integers with a fraction or exponent ("1.0", "1e2") are REAL.
 * "-0" is REAL -0.0 (so it keeps its sign).
 *
 * On success returns the pointer just past the number and fills *out.
 * The number ends at the first byte that cannot continue it; the caller
 * checks what follows. On failure returns NULL, sets *code
 * (JET_ERR_NUMBER, JET_ERR_NUMBER_RANGE, JET_ERR_TRUNCATED when the input
 * ends where a digit is required, JET_ERR_LITERAL for a bad NaN/Infinity)
 * and *err_at to the offending byte (or `end`).
 */
const char *jet__num_parse(const char *p, const char *end, jet_read_flags flags,
                           jet_num *out, jet_code *code, const char **err_at) JET__NUM_HIDDEN;

/*
 * jet_num_parse is the out-of-line jet__num_parse behind an inline fast path
 * that finishes the most common numbers inside the caller (the DOM reader
 * calls it for every number): at least JET__NUM_ROOMY bytes readable from the
 * first byte, 1 to 7 integer digits, then either nothing more (an integer)
 * or a point and a fraction with at most 19 digits in all; an exponent after
 * those is finished out of line by jet__num_parse_exp. Everything else,
 * including every error, goes to jet__num_parse from the number's first
 * byte. The digits are read as whole little-endian words
 * (no check against `end` per word: the margin covers every read).
 *
 *   word x = 8 bytes at p; t = x - '0' in every byte. A byte is a digit when
 *   t <= 9: neither its own top bit nor that of t + 0x76 is set. Subtraction
 *   borrows and addition carries only move up, past the first non-digit
 *   byte, so the lowest flagged byte is exact and ctz/8 counts the digits.
 *
 *   With n integer digits and a point at byte n, the 8 bytes x[0..n) and
 *   p[n+1..9) are the first 8 digits of the number without its point: the
 *   two words are merged as text, before the '0' offset is taken off (the
 *   point's borrow would otherwise spoil the digit above it).
 *
 *   A word with k < 8 digits is masked to them and read as if zeros
 *   followed: the value is then w * 10^(8-k), and the decimal exponent
 *   counts the padding instead (the value of "1.5" is 15000000 * 10^-7).
 *   Two words so padded stay below 10^16, so no digit count is needed for
 *   the value, only for where the number ends. Digits 17 to 19 are taken one
 *   at a time.
 *
 *   The value w * 10^q (w < 10^19, -19 <= q <= -1): when w <= 2^53 one IEEE
 *   division by the exact 10^-q (Clinger); otherwise the first product of
 *   Eisel-Lemire with the truncated 10^q (never exact for q < 0, so no ties
 *   and a nonzero sticky part; the result is always a normal number), which
 *   decides unless the bits below its round bit are all ones (about 1 in 512),
 *   in which case jet__num_parse settles it.
 */
#if JET_GNUC && defined(__SIZEOF_INT128__) &&                                             \
    defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) &&                        \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(FLT_EVAL_METHOD) &&              \
    FLT_EVAL_METHOD == 0 && !defined(JET_NO_SWAR) && !defined(JET_NO_INT128) &&           \
    !defined(JET_NO_CLINGER) && !defined(JET_NUM_NO_INLINE)
#define JET__NUM_INLINE 1
#endif

/* 10^0 .. 10^22 as doubles (all exact). */
extern const double jet__num_pow10_f64[23] JET__NUM_HIDDEN;
/* For k = 1..19: the upper 64 bits of 10^-k normalized to bit 63 (the
 * first half of pow10_table.h's entry) and floor(-k * log2 10) + 1085. */
extern const uint64_t jet__num_pow10_neg_hi[20] JET__NUM_HIDDEN;
extern const int16_t jet__num_pow10_neg_be[20] JET__NUM_HIDDEN;

#ifdef JET__NUM_INLINE
/* The inline path's continuation for an exponent: `e` is at the 'e' or 'E'
 * after the digits of the number starting at `s`, whose mantissa is
 * w * 10^q (w < 10^19). Parses the exponent and finishes the number, or
 * hands the whole number to jet__num_parse. */
const char *jet__num_parse_exp(const char *s, const char *e, const char *end, uint64_t w, int q,
                               jet_read_flags flags, jet_num *out, jet_code *code,
                               const char **err_at) JET__NUM_HIDDEN;

#define JET__NUM_ROOMY 64
__extension__ typedef unsigned __int128 jet__num_u128;

/* Returns what the out-of-line parse `call` gives, made with the
 * temporaries n_, c_ and at_: copied to the caller's *out on success, to
 * *code and *err_at on failure. Were the caller's own passed on, their
 * addresses would escape and they would live in memory, so that every
 * number, even one the inline path finishes, went through the stack on its
 * way to the caller. */
#define JET__NUM_RETURN_VIA_TMP(call)                                          \
    do {                                                                       \
        jet_num n_;                                                            \
        jet_code c_ = JET_OK;                                                  \
        const char *at_ = NULL;                                                \
        const char *r_ = (call);                                               \
        if (r_) {                                                              \
            *out = n_;                                                         \
        } else {                                                               \
            *code = c_;                                                        \
            *err_at = at_;                                                     \
        }                                                                      \
        return r_;                                                             \
    } while (0)

/* roomy: JET__NUM_ROOMY bytes of input from p (jet_num_parse,
 * jet_num_parse_ex); fast: the caller asks for the inline path, roomy
 * included (jet_num_parse_ex's callers fold JET_READ_NUMBER_AS_RAW, which
 * excludes it, into their limit). */
static JET_ALWAYS_INLINE const char *
jet__num_parse_inline(const char *p, const char *end, jet_read_flags flags, jet_num *out,
                      jet_code *code, const char **err_at, bool fast) {
    if (JET_LIKELY(fast)) {
        const char *s = p;
        uint64_t neg = *p == '-';
        p += neg;
        uint64_t x = jet__load_le64(p);
        uint64_t t = x - JET_SWAR_ZEROS;
        uint64_t bad = jet__swar_nondigits(t);
        /* a digit first; "0" not followed by a digit */
        if (JET_UNLIKELY((bad & 0x80) || ((t & 0xFF) == 0 && !(bad & 0x8000))))
            goto general;
        if (bad == 0) {
            /* 8 digits or more: integers of up to 15 digits (ids, counts)
             * from a second word; longer ones, and fractions or exponents
             * after 8 integer digits, take the general path. */
            uint64_t t1 = jet__load_le64(p + 8) - JET_SWAR_ZEROS;
            uint64_t b1 = jet__swar_nondigits(t1);
            if (JET_UNLIKELY(b1 == 0)) goto general;
            unsigned n1 = jet__ctz64(b1) >> 3;
            const char *e1 = p + 8 + n1;
            if (JET_UNLIKELY(*e1 == '.')) goto general;
            uint64_t w = jet__swar_digits8(t) * jet__pow10_u64[n1] +
                         (n1 ? jet__swar_digits8((t1 << 1) << (63 - 8 * n1)) : 0);
            if (JET_UNLIKELY((*e1 | 0x20) == 'e'))
                JET__NUM_RETURN_VIA_TMP(jet__num_parse_exp(s, e1, end, w, 0, flags, &n_, &c_, &at_));
            if (!neg) {
                out->kind = JET_NUM_UINT;
                out->v.u = w;
                return e1;
            }
            out->kind = JET_NUM_SINT;
            out->v.i = -(int64_t)w;
            return e1;
        }
        unsigned n = jet__ctz64(bad) >> 3;
        const char *e;
        if (p[n] == '.') {
            uint64_t below = jet__swar_below(bad);
            uint64_t m = ((x & below) | (jet__load_le64(p + 1) & ~below)) - JET_SWAR_ZEROS;
            uint64_t mbad = jet__swar_nondigits(m);
            uint64_t w;
            int q;
            if (mbad) { /* up to 7 digits in all: "1.5", "12.25" */
                uint64_t keep = jet__swar_below(mbad);
                if (JET_UNLIKELY(keep == below)) goto general; /* no fraction digit */
                w = jet__swar_digits8(m & keep);
                q = (int)n - 8;
                e = p + 1 + (jet__ctz64(mbad) >> 3);
            } else {
                uint64_t t1 = jet__load_le64(p + 9) - JET_SWAR_ZEROS;
                uint64_t b1 = jet__swar_nondigits(t1);
                q = (int)n - 16;
                if (b1) { /* 9 to 15 digits */
                    w = jet__swar_digits8(m) * 100000000u + jet__swar_digits8(t1 & jet__swar_below(b1));
                    e = p + 9 + (jet__ctz64(b1) >> 3);
                } else { /* 16 digits, and up to 3 more one at a time */
                    w = jet__swar_digits8(m) * 100000000u + jet__swar_digits8(t1);
                    e = p + 17;
                    unsigned d = (unsigned char)(*e - '0');
                    if (d <= 9) {
                        w = w * 10 + d;
                        q--;
                        d = (unsigned char)(*++e - '0');
                        if (d <= 9) {
                            w = w * 10 + d;
                            q--;
                            d = (unsigned char)(*++e - '0');
                            if (d <= 9) {
                                w = w * 10 + d;
                                q--;
                                if ((unsigned char)(*++e - '0') <= 9) goto general; /* 20+ */
                            }
                        }
                    }
                }
            }
            if (JET_UNLIKELY((*e | 0x20) == 'e'))
                JET__NUM_RETURN_VIA_TMP(jet__num_parse_exp(s, e, end, w, q, flags, &n_, &c_, &at_));
            uint64_t bits;
            if (w <= (UINT64_C(1) << 53)) {
                double d = (double)(int64_t)w / jet__num_pow10_f64[-q];
                memcpy(&bits, &d, 8);
            } else {
                int lz = jet__clz64(w);
                jet__num_u128 pr = (jet__num_u128)(w << lz) * jet__num_pow10_neg_hi[-q];
                uint64_t hi = (uint64_t)(pr >> 64);
                if (JET_UNLIKELY((hi & 0x1FF) == 0x1FF)) goto general;
                unsigned upper = (unsigned)(hi >> 63);
                uint64_t mant = hi >> (9 + upper); /* mantissa and round bit */
                bits = ((uint64_t)(jet__num_pow10_neg_be[-q] - lz + (int)upper) << 52) + ((mant + 1) >> 1);
            }
            out->kind = JET_NUM_REAL;
            out->v.u = bits | neg << 63;
            return e;
        }
        e = p + n;
        uint64_t w = jet__swar_digits8((t << 1) << (63 - 8 * n)); /* digits to the top */
        if (JET_UNLIKELY((*e | 0x20) == 'e'))
            JET__NUM_RETURN_VIA_TMP(jet__num_parse_exp(s, e, end, w, 0, flags, &n_, &c_, &at_));
        if (!neg) {
            out->kind = JET_NUM_UINT;
            out->v.u = w;
            return e;
        }
        if (JET_UNLIKELY(w == 0)) goto general; /* "-0" is REAL */
        out->kind = JET_NUM_SINT;
        out->v.i = -(int64_t)w;
        return e;
    general:
        JET__NUM_RETURN_VIA_TMP(jet__num_parse(s, end, flags, &n_, &c_, &at_));
    }
    JET__NUM_RETURN_VIA_TMP(jet__num_parse(p, end, flags, &n_, &c_, &at_));
}

static JET_ALWAYS_INLINE const char *
jet_num_parse(const char *p, const char *end, jet_read_flags flags, jet_num *out, jet_code *code,
              const char **err_at) {
    return jet__num_parse_inline(p, end, flags, out, code, err_at,
                                 end - p >= JET__NUM_ROOMY && !(flags & JET_READ_NUMBER_AS_RAW));
}

/* The same, roomy_limit being the first position from which fewer than
 * JET__NUM_ROOMY bytes are input (the input's start when it is shorter, or
 * when flags have JET_READ_NUMBER_AS_RAW: jet_num_roomy_limit), precomputed
 * by a caller that keeps it in memory: one compare instead of three and a
 * flag test. */
static inline const char *jet_num_roomy_limit(const char *json, const char *end,
                                              jet_read_flags flags) {
    if ((flags & JET_READ_NUMBER_AS_RAW) || (size_t)(end - json) < JET__NUM_ROOMY) return json;
    return end - JET__NUM_ROOMY + 1;
}

static JET_ALWAYS_INLINE const char *
jet_num_parse_ex(const char *p, const char *end, const char *roomy_limit, jet_read_flags flags,
                 jet_num *out, jet_code *code, const char **err_at) {
    return jet__num_parse_inline(p, end, flags, out, code, err_at, p < roomy_limit);
}
#else
static inline const char *jet_num_parse(const char *p, const char *end, jet_read_flags flags,
                                        jet_num *out, jet_code *code, const char **err_at) {
    return jet__num_parse(p, end, flags, out, code, err_at);
}
static inline const char *jet_num_parse_ex(const char *p, const char *end, const char *roomy_limit,
                                           jet_read_flags flags, jet_num *out, jet_code *code,
                                           const char **err_at) {
    (void)roomy_limit;
    return jet__num_parse(p, end, flags, out, code, err_at);
}
static inline const char *jet_num_roomy_limit(const char *json, const char *end,
                                              jet_read_flags flags) {
    (void)end;
    (void)flags;
    return json;
}
#endif /* JET__NUM_INLINE */

/*
 * Same grammar, binary32 result correctly rounded directly from the decimal
 * (not through double). Integers are returned as float too. Overflow is
 * JET_ERR_NUMBER_RANGE. Used by typed decode.
 */
const char *jet_num_parse_f32(const char *p, const char *end, float *out,
                              jet_code *code, const char **err_at);

/* Largest output of the writers below, NUL not included. */
#define JET_NUM_F64_MAX_CHARS 26
#define JET_NUM_INT_MAX_CHARS 20

/*
 * Shortest decimal that reads back (round-half-even) to exactly `d`.
 * Format (stable, documented in docs/numbers.md):
 *   - finite values always contain '.' or 'e', so they read back as doubles;
 *   - decimal exponent of the leading digit in [-6, 21): plain notation,
 *     "0.001", "123.5", "1e+21" is the first exponent form, integral values
 *     print with ".0" ("100.0", "-0.0");
 *   - otherwise "d.ddde-7", "1e+21", "1.5e+300", "5e-324": mantissa digits with
 *     a '.' only if more than one digit, 'e', sign always, no leading zeros.
 *   - NaN -> "NaN", +inf -> "Infinity", -inf -> "-Infinity" (the caller decides
 *     whether those are allowed).
 * Writes into buf (at least JET_NUM_F64_MAX_CHARS+1 bytes), NUL-terminates,
 * returns the length.
 */
size_t jet_num_write_f64(double d, char *buf);
/* Same for binary32 (shortest that reads back as the same float). */
size_t jet_num_write_f32(float f, char *buf);
/* Integers, no division per digit. buf >= JET_NUM_INT_MAX_CHARS+1 bytes. */
size_t jet_num_write_u64(uint64_t u, char *buf);
size_t jet_num_write_i64(int64_t i, char *buf);

#endif /* JET_NUM_H */
