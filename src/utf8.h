/*
 * utf8.h — UTF-8 and \u escapes (internal): the encoder of a code point,
 * the 4-hex-digit decoder and surrogate pairing of the string unescapers
 * (read_onepass.c, read_indexed.c, od_string.c), and the lookup tables of
 * the vector UTF-8 validators (scan.c).
 */
#ifndef JET_UTF8_H
#define JET_UTF8_H

#include "platform.h"

#include <stdbool.h>
#include <stdint.h>

/* Appends code point `cp` (< 0x110000; surrogates allowed for WTF-8) as UTF-8. */
static inline char *jet__utf8_put(char *dst, uint32_t cp) {
    if (cp < 0x80) {
        *dst++ = (char)cp;
    } else if (cp < 0x800) {
        *dst++ = (char)(0xC0 | (cp >> 6));
        *dst++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *dst++ = (char)(0xE0 | (cp >> 12));
        *dst++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *dst++ = (char)(0xF0 | (cp >> 18));
        *dst++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *dst++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = (char)(0x80 | (cp & 0x3F));
    }
    return dst;
}

/* Hex digit values (0 for a non-hex byte: jet__hex_ok tells them apart, so
 * that four digits are checked with one AND of four loads). */
static const uint8_t jet__hex_value[256] = {
    ['0'] = 0, ['1'] = 1, ['2'] = 2, ['3'] = 3, ['4'] = 4, ['5'] = 5,
    ['6'] = 6, ['7'] = 7, ['8'] = 8, ['9'] = 9,
    ['a'] = 10, ['b'] = 11, ['c'] = 12, ['d'] = 13, ['e'] = 14, ['f'] = 15,
    ['A'] = 10, ['B'] = 11, ['C'] = 12, ['D'] = 13, ['E'] = 14, ['F'] = 15,
};
static const uint8_t jet__hex_ok[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
    ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
};

/* The 4 hex digits at p (the caller checked that 4 bytes remain); -1 when
 * one is not hex. */
static inline int32_t jet__hex4(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    if (!(jet__hex_ok[p[0]] & jet__hex_ok[p[1]] & jet__hex_ok[p[2]] & jet__hex_ok[p[3]])) return -1;
    return (int32_t)((jet__hex_value[p[0]] << 12) | (jet__hex_value[p[1]] << 8) |
                     (jet__hex_value[p[2]] << 4) | jet__hex_value[p[3]]);
}

/* After a \u escape of a surrogate (*cp in D800..DFFF) that ends at *p:
 * when *cp is a high surrogate and a low surrogate escape follows before
 * lim, combines the pair into *cp, moves *p past it and returns true. */
static inline bool jet__pair_surrogate(const char **p, const char *lim, int32_t *cp) {
    const char *s = *p;
    if (*cp > 0xDBFF || lim - s < 6 || s[0] != '\\' || s[1] != 'u') return false;
    int32_t lo = jet__hex4(s + 2);
    if (lo < 0xDC00 || lo > 0xDFFF) return false;
    *cp = 0x10000 + (((*cp - 0xD800) << 10) | (lo - 0xDC00));
    *p = s + 6;
    return true;
}

/*
 * The three 16-entry tables of the vector UTF-8 validators (the lookup
 * method of Keiser and Lemire, "Validating UTF-8 in less than one
 * instruction per byte"; scan.c, utf8_avx2_chunk, explains it), as lists of
 * initializers: X(v) wraps each entry, so that one spelling serves both
 * byte arrays (X leaves v alone) and vector constants built from chars.
 * Entries are sets of error kinds:
 *   1 too short    2 too long    4 two continuations in a row
 *   8 overlong 3-byte form     16 surrogate     32 overlong 4-byte form
 *  64 above U+10FFFF          128 overlong 2-byte form
 * HI1: by the previous byte's high nibble; LO1: by its low nibble; HI2: by
 * this byte's high nibble.
 */
#define JET_UTF8_TAB_HI1(X)                                                            \
    X(2), X(2), X(2), X(2), X(2), X(2), X(2), X(2), X(4), X(4), X(4), X(4), X(1 | 128), \
        X(1), X(1 | 8 | 16), X(1 | 32 | 64)
#define JET_UTF8_TAB_LO1(X)                                                            \
    X(7 | 8 | 32 | 128), X(7 | 128), X(7), X(7), X(7 | 64), X(7), X(7), X(7), X(7), X(7), \
        X(7), X(7), X(7), X(7 | 16), X(7), X(7)
#define JET_UTF8_TAB_HI2(X)                                                            \
    X(1), X(1), X(1), X(1), X(1), X(1), X(1), X(1), X(2 | 4 | 8 | 32 | 128),             \
        X(2 | 4 | 8 | 64 | 128), X(2 | 4 | 16 | 64 | 128), X(2 | 4 | 16 | 64 | 128), X(1), \
        X(1), X(1), X(1)

#endif
