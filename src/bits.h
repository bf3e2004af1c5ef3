/*
 * bits.h — word-level helpers shared by the readers, the scanner, the
 * number code and the writer (internal): bit counts, little-endian loads,
 * byte-parallel (SWAR) constants and the 8-digits-at-once arithmetic.
 */
#ifndef JET_BITS_H
#define JET_BITS_H

#include "platform.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 0x01 and 0x80 in every byte of a word. */
#define ONES_8 UINT64_C(0x0101010101010101)
#define HIGH_8 UINT64_C(0x8080808080808080)

/* 8 and 4 bytes at p as little-endian integers (byte 0 in the low bits). */
#if JET_BIG_ENDIAN
#define JET__FROM_LE64(v) __builtin_bswap64(v)
#define JET__FROM_LE32(v) __builtin_bswap32(v)
#else
#define JET__FROM_LE64(v) (v)
#define JET__FROM_LE32(v) (v)
#endif
static JET_ALWAYS_INLINE uint64_t jet__load_le64(const char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return JET__FROM_LE64(v);
}
static JET_ALWAYS_INLINE uint32_t jet__load_le32(const char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return JET__FROM_LE32(v);
}

/* x with its bytes in reverse order. */
static JET_ALWAYS_INLINE uint64_t jet__bswap64(uint64_t x) {
#if JET_GNUC
    return __builtin_bswap64(x);
#else
    x = ((x & UINT64_C(0x00FF00FF00FF00FF)) << 8) | ((x >> 8) & UINT64_C(0x00FF00FF00FF00FF));
    x = ((x & UINT64_C(0x0000FFFF0000FFFF)) << 16) | ((x >> 16) & UINT64_C(0x0000FFFF0000FFFF));
    return (x << 32) | (x >> 32);
#endif
}

/* A word read with a native load (memcpy), as the little-endian word that
 * every SWAR routine works on. big_endian is JET_BIG_ENDIAN in the library,
 * a constant: nothing on little-endian hosts, a byte swap on big-endian
 * ones; tests/test_swar.c passes both values, so both orders are checked
 * on any host. */
static JET_ALWAYS_INLINE uint64_t jet__le64_of_native(uint64_t native, bool big_endian) {
    return big_endian ? jet__bswap64(native) : native;
}

/* ---- bit counts (x != 0 for ctz and clz) ---- */

static JET_ALWAYS_INLINE unsigned jet__ctz64(uint64_t x) {
#if JET_GNUC
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
#endif
}

static JET_ALWAYS_INLINE unsigned jet__ctz32(uint32_t x) {
#if JET_GNUC
    return (unsigned)__builtin_ctz(x);
#else
    return jet__ctz64(x);
#endif
}

/* jet__ctz64 widened to an offset. On x86-64 tzcnt (bsf before BMI: the
 * same for x != 0) whose 64-bit result is used as is: from __builtin_ctzll
 * gcc sign-extends the int it returns and clears the register first, two
 * more instructions per token in the readers' loops. */
static JET_ALWAYS_INLINE size_t jet__ctz64_offset(uint64_t x) {
#if JET_X86_64
    uint64_t n;
    __asm__("rep bsfq %1, %0" : "=r"(n) : "rm"(x) : "cc");
    return (size_t)n;
#else
    return (size_t)jet__ctz64(x);
#endif
}

static JET_ALWAYS_INLINE int jet__clz64(uint64_t x) {
#if JET_GNUC
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x >> 63)) { x <<= 1; n++; }
    return n;
#endif
}

static JET_ALWAYS_INLINE unsigned jet__popcount64(uint64_t x) {
#if JET_GNUC
    return (unsigned)__builtin_popcountll(x);
#else
    unsigned n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}

/* ---- string escapes ---- */

/*
 * The top bit of every byte of the little-endian word x that a string
 * writer escapes: below 0x20, '"', '\\', equal to slash_pat's bytes ('/'
 * in every byte, or '"' again when '/' stays as is) and, where hi_mask is
 * HIGH_8 (ASCII output), 0x80 and above. The "byte is zero" tests borrow
 * upward: a byte above a flagged one may be flagged too (' ' before '\n'
 * is), one below never is. Only the lowest flag is exact, so the first
 * byte to escape is jet__swar_first_flagged's, never the highest flag.
 */
static inline uint64_t jet__swar_escape_flags(uint64_t x, uint64_t slash_pat, uint64_t hi_mask) {
    uint64_t q = x ^ (ONES_8 * '"');
    uint64_t b = x ^ (ONES_8 * '\\');
    uint64_t s = x ^ slash_pat;
    uint64_t m = ((x - ONES_8 * 0x20) & ~x) /* byte < 0x20 */
                 | ((q - ONES_8) & ~q)    /* byte == '"' */
                 | ((b - ONES_8) & ~b)    /* byte == '\\' */
                 | ((s - ONES_8) & ~s)    /* byte == '/' (if asked) */
                 | (x & hi_mask);         /* byte >= 0x80 (ASCII mode) */
    return m & HIGH_8;
}

/* Index (in memory order) of the first byte that the non-zero flags of a
 * little-endian word mark: the lowest, the one flag sure to be exact. */
static inline unsigned jet__swar_first_flagged(uint64_t flags) { return jet__ctz64(flags) >> 3; }

/* ---- decimal digits ---- */

static inline bool jet__is_digit(char c) { return (unsigned char)(c - '0') < 10; }

/* 10^0 .. 10^19, every power that fits 64 bits. */
static const uint64_t jet__pow10_u64[20] = {
    UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
    UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000),
    UINT64_C(100000000), UINT64_C(1000000000), UINT64_C(10000000000),
    UINT64_C(100000000000), UINT64_C(1000000000000),
    UINT64_C(10000000000000), UINT64_C(100000000000000),
    UINT64_C(1000000000000000), UINT64_C(10000000000000000),
    UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
    UINT64_C(10000000000000000000),
};

/*
 * Eight digits at once, in a little-endian word t = bytes - '0' (each byte
 * minus 0x30, as one 64-bit subtraction; the first byte in the low bits).
 * A byte is a digit when it is 0..9 in t: neither its own top bit nor that
 * of t + 0x76 is set. Borrows and carries only travel upward, so they can
 * spoil the bytes above the first non-digit, never the bytes up to it: the
 * lowest flagged byte is exact, and ctz / 8 counts the leading digits.
 */
#define JET_SWAR_ZEROS UINT64_C(0x3030303030303030)

/* The top bit of every byte of t that is not a digit (and maybe of bytes
 * above such a byte, never below). */
static inline uint64_t jet__swar_nondigits(uint64_t t) {
    return ((t + UINT64_C(0x7676767676767676)) | t) & HIGH_8;
}

/* The bytes below the lowest flagged one (flags != 0): 0xFF each. */
static inline uint64_t jet__swar_below(uint64_t flags) {
    return ((flags & (0 - flags)) >> 7) - 1;
}

/* How many of the 8 bytes are leading digits (0..8). */
static inline unsigned jet__swar_digit_run(uint64_t t) {
    uint64_t bad = jet__swar_nondigits(t);
    return bad ? jet__ctz64(bad) >> 3 : 8;
}

/* Eight digit values 0..9 (the first in the low byte) as one number.
 * Step 1 forms two-digit pairs p0..p3 in bytes 0, 2, 4, 6 (each <= 99, no
 * carries). Step 2 uses two independent multiplies: bits 32..63 of
 * A*(100 + 10^6*2^32) hold p0*10^6 + p2*100 and those of B*(1 + 10^4*2^32)
 * hold p1*10^4 + p3 (A = p0, p2 in bytes 0 and 4; B = p1, p3); the low
 * halves stay below 2^32, so nothing carries into the sum. */
static inline uint64_t jet__swar_digits8(uint64_t t) {
    const uint64_t m = UINT64_C(0x000000FF000000FF);
    t = t * 10 + (t >> 8);
    uint64_t a = (t & m) * (100 + (UINT64_C(1000000) << 32));
    uint64_t b = ((t >> 16) & m) * (1 + (UINT64_C(10000) << 32));
    return (a + b) >> 32;
}

#endif
