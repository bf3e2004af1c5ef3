/*
 * num.h — internal interface of jet's number stage: exact decimal→binary
 * parsing (num_parse.c) and shortest binary→decimal printing (num_print.c).
 * Shared by the DOM reader, the on-demand cursor and the typed decoder.
 */
#ifndef JET_NUM_H
#define JET_NUM_H

#include "jet.h"

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
const char *jet_num_parse(const char *p, const char *end, jet_read_flags flags,
                          jet_num *out, jet_code *code, const char **err_at);

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
