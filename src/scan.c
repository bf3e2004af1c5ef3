/*
 * scan.c — stage 1: the structural index, its kernels and their dispatch.
 *
 * Each kernel only classifies 64 bytes into bit masks (quote, backslash,
 * delimiter = whitespace or operator, operator, bracket, control byte);
 * scan_generic.h turns those masks into the index with arithmetic shared
 * by every kernel:
 *   - escaped bytes: a backslash that is not itself escaped escapes the next
 *     byte (scan_escaped);
 *   - string interiors: the prefix xor of the unescaped quotes, carried from
 *     block to block;
 *   - run starts: non-whitespace, non-operator bytes outside strings whose
 *     previous byte is not one of them.
 * The kernel is chosen once per process (CPUID on x86-64), or forced with
 * JET_KERNEL=scalar|swar|sse2|avx2|avx512|neon for tests and benchmarks.
 */
#include "scan.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

#define JET_HAVE_X86_KERNELS JET_SIMD_X86
#if JET_HAVE_X86_KERNELS
#include <immintrin.h>
#endif
#define JET_HAVE_NEON_KERNEL JET_SIMD_NEON
#if JET_HAVE_NEON_KERNEL
#include <arm_neon.h>
#endif

typedef struct scan_masks {
    uint64_t quote;
    uint64_t backslash;
    uint64_t delim; /* whitespace and operators: the bytes that end a scalar */
    uint64_t op;
    uint64_t bracket; /* [ ] { } (a subset of op) */
    uint64_t ctrl; /* bytes below 0x20 */
} scan_masks;

/* ========================================================================== */
/* Shared mask arithmetic                                                     */
/* ========================================================================== */

/*
 * Bytes escaped by a backslash (only non-backslash bytes matter: quotes).
 * A run of backslashes escapes the byte after it when its length is odd. Adding
 * a run's start bit to the mask carries through the run and lands on the byte
 * after it; that byte's distance from the start is odd when start and end
 * differ in parity. Runs starting at even and at odd positions are added
 * separately so that parities stay apart. *carry is 1 when the previous
 * block ended in an odd run (its first byte is escaped, and if that byte is a
 * backslash it escapes nothing); it receives the same for the next block: an
 * odd-started run that overflows the block has odd length.
 */
static inline uint64_t scan_escaped(uint64_t backslash, uint64_t *carry) {
    const uint64_t even = 0x5555555555555555ULL;
    if (JET_LIKELY(!(backslash | *carry))) return 0; /* most blocks */
    uint64_t bs = backslash & ~*carry;
    uint64_t starts = bs & ~(bs << 1);
    uint64_t even_ends = (bs + (starts & even)) & ~bs;
    uint64_t odd_sum;
    bool overflow = __builtin_add_overflow(bs, starts & ~even, &odd_sum);
    uint64_t odd_ends = odd_sum & ~bs;
    uint64_t escaped = (even_ends & ~even) | (odd_ends & even) | *carry;
    *carry = overflow;
    return escaped;
}

static inline uint64_t prefix_xor_shift(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* ========================================================================== */
/* Kernel: SWAR (portable, 64-bit words)                                      */
/* ========================================================================== */

/* High bit of every byte of x equal to c (exact: no borrows between bytes). */
static inline uint64_t swar_eq(uint64_t x, unsigned char c) {
    uint64_t y = x ^ (ONES_8 * c);
    return ~((((y & ~HIGH_8) + ~HIGH_8) | y)) & HIGH_8;
}

/* Gathers the high bit of each byte into 8 bits (byte i -> bit i). */
static inline uint64_t swar_gather(uint64_t hi) {
    return ((hi >> 7) * 0x0102040810204080ULL) >> 56;
}

static inline void classify_swar(const char *p, scan_masks *m) {
    uint64_t q = 0, b = 0, w = 0, o = 0, c = 0, k = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t x = jet__load_le64(p + 8 * i);
        uint64_t x20 = x | (ONES_8 * 0x20);
        q |= swar_gather(swar_eq(x, '"')) << (8 * i);
        b |= swar_gather(swar_eq(x, '\\')) << (8 * i);
        /* '[' | 0x20 == '{' and ']' | 0x20 == '}' */
        uint64_t br = swar_eq(x20, '{') | swar_eq(x20, '}');
        uint64_t op = br | swar_eq(x, ':') | swar_eq(x, ',');
        k |= swar_gather(br) << (8 * i);
        o |= swar_gather(op) << (8 * i);
        w |= swar_gather(op | swar_eq(x, ' ') | swar_eq(x, '\n') | swar_eq(x, '\r') |
                         swar_eq(x, '\t')) << (8 * i);
        /* below 0x20: a high bit that adding 0x60 to the low 7 bits leaves
         * clear (exact: no carries cross bytes) */
        c |= swar_gather(~(((x & ~HIGH_8) + ONES_8 * 0x60) | x) & HIGH_8) << (8 * i);
    }
    m->quote = q;
    m->backslash = b;
    m->delim = w;
    m->op = o;
    m->bracket = k;
    m->ctrl = c;
}

/*
 * UTF-8 validation for the SWAR kernel (64-bit words, no vectors): a
 * block without a high bit costs one OR of its eight words; the others are
 * walked a sequence at a time, ASCII runs skipped eight bytes at a time. A
 * sequence may continue into the next block: `need` continuation bytes are
 * still due, the first of them in [lo, hi]. The first error ends the work:
 * the input is invalid, wherever else it is.
 */
typedef struct utf8_scalar {
    uint32_t need;
    uint8_t lo, hi;
    bool error;
} utf8_scalar;

static JET_NOINLINE void utf8_scalar_walk(utf8_scalar *u, const unsigned char *p) {
    unsigned i = 0;
    for (; u->need; u->need--, i++) { /* the sequence the previous block left open */
        if (i == 64) return;
        if (p[i] < u->lo || p[i] > u->hi) goto bad;
        u->lo = 0x80;
        u->hi = 0xBF;
    }
    while (i < 64) {
        if (i <= 56) {
            uint64_t x;
            memcpy(&x, p + i, 8);
            if (!(x & HIGH_8)) {
                i += 8;
                continue;
            }
        }
        unsigned c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        if (i <= 60) {
            /* two- and three-byte sequences (Latin, CJK) from one 32-bit
             * load, as the one-pass reader checks them */
            uint32_t w = jet__load_le32((const char *)p + i);
            if ((w & 0xC0C0F0u) == 0x8080E0u) {
                /* E0 80..9F (overlong) and ED A0..BF (surrogates): bits 0
                 * and 27 of a table indexed by the lead's low nibble and
                 * bit 5 of the second byte */
                unsigned idx = ((w & 0x0Fu) << 1) | ((w >> 13) & 1u);
                if ((0x08000001u >> idx) & 1u) goto bad;
                i += 3;
                continue;
            }
            if ((w & 0xC0E0u) == 0x80C0u && (w & 0x1Eu) != 0) {
                i += 2;
                continue;
            }
        }
        unsigned n, lo = 0x80, hi = 0xBF;
        if (c < 0xC2) goto bad;
        else if (c < 0xE0) n = 1;
        else if (c < 0xF0) { n = 2; lo = c == 0xE0 ? 0xA0 : 0x80; hi = c == 0xED ? 0x9F : 0xBF; }
        else if (c < 0xF5) { n = 3; lo = c == 0xF0 ? 0x90 : 0x80; hi = c == 0xF4 ? 0x8F : 0xBF; }
        else goto bad;
        i++;
        for (; n; n--, i++) {
            if (i == 64) { /* continued in the next block */
                u->need = n;
                u->lo = (uint8_t)lo;
                u->hi = (uint8_t)hi;
                return;
            }
            if (p[i] < lo || p[i] > hi) goto bad;
            lo = 0x80;
            hi = 0xBF;
        }
    }
    return;
bad:
    u->error = true;
    u->need = 0;
}

static inline void utf8_scalar_block(utf8_scalar *u, const char *p) {
    uint64_t any = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t x;
        memcpy(&x, p + 8 * i, 8);
        any |= x;
    }
    if (JET_LIKELY(!(any & HIGH_8) && !u->need)) return; /* ASCII, nothing open */
    if (!u->error) utf8_scalar_walk(u, (const unsigned char *)p);
}

static inline bool utf8_scalar_valid(utf8_scalar *u) { return !u->error && !u->need; }
static inline bool utf8_scalar_sound(utf8_scalar *u) { return !u->error; }

#define SCAN_FN scan_swar
#define SCAN_ATTR
#define SCAN_CLASSIFY classify_swar
#define SCAN_PREFIX_XOR prefix_xor_shift
#define SCAN_UTF8_STATE utf8_scalar
#define SCAN_UTF8_BLOCK utf8_scalar_block
#define SCAN_UTF8_VALID utf8_scalar_valid
#define SCAN_UTF8_SOUND utf8_scalar_sound
#include "scan_generic.h"

/* ========================================================================== */
/* Byte classes by nibble lookup (AVX2, AVX-512, NEON)                        */
/* ========================================================================== */

#if JET_HAVE_X86_KERNELS || JET_HAVE_NEON_KERNEL
/* Two 16-entry tables, indexed by a byte's low and high nibble (PSHUFB,
 * TBL): the byte is in a class when the bits the two select intersect. The
 * bits are placed so that each class needs few instructions after the
 * lookup:
 *   0x80 control (00-1F): the sign bit, read as is by a byte-mask move
 *   0x40 ','  0x20 ':'  0x10 '[' ']' '{' '}': the operators are exactly the
 *        bytes above 0x0F as signed values (one compare, no mask)
 *   0x08 ' '  0x04 '\t' '\n' '\r' (control as well)
 *   0x01 '"'  0x02 '\\': with the control bit, the bytes that end a block's
 *        fast path in a string (SCAN_PLAIN) */
#define NIB_CTRL 0x80
#define NIB_OPS 0x70
#define NIB_BRACKET 0x10
#define NIB_DELIM 0x7C /* operators and whitespace */
#define NIB_STRING_END 0x83 /* control, quote, backslash */
static const uint8_t nib_lo[16] = {0x88, 0x80, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80,
                                   0x80, 0x84, 0xA4, 0x90, 0xC2, 0x94, 0x80, 0x80};
static const uint8_t nib_hi[16] = {0x84, 0x80, 0x49, 0x20, 0, 0x12, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0};
#endif

/* ========================================================================== */
/* Kernels: SSE2 and AVX2 (x86-64)                                            */
/* ========================================================================== */

#if JET_HAVE_X86_KERNELS

static inline uint64_t sse2_mask(__m128i a, __m128i b, __m128i c, __m128i d) {
    return (uint64_t)(unsigned)_mm_movemask_epi8(a) |
           ((uint64_t)(unsigned)_mm_movemask_epi8(b) << 16) |
           ((uint64_t)(unsigned)_mm_movemask_epi8(c) << 32) |
           ((uint64_t)(unsigned)_mm_movemask_epi8(d) << 48);
}

/* A block's bytes and the masks that the fast path's test (sse2_plain)
 * and classify_sse2 share: quote, backslash, control byte. */
typedef struct sse2_block {
    __m128i x[4];
    uint64_t quote, backslash, ctrl;
} sse2_block;

static inline void sse2_prepare(const char *p, sse2_block *blk) {
    __m128i q[4], b[4], c[4];
    for (int i = 0; i < 4; i++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
        blk->x[i] = x;
        q[i] = _mm_cmpeq_epi8(x, _mm_set1_epi8('"'));
        b[i] = _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'));
        c[i] = _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(0x1F)), x);
    }
    blk->quote = sse2_mask(q[0], q[1], q[2], q[3]);
    blk->backslash = sse2_mask(b[0], b[1], b[2], b[3]);
    blk->ctrl = sse2_mask(c[0], c[1], c[2], c[3]);
}

/* No quote, backslash or control byte (SCAN_PLAIN). */
static inline bool sse2_plain(const sse2_block *blk) {
    return !(blk->quote | blk->backslash | blk->ctrl);
}

static inline void classify_sse2(const sse2_block *blk, scan_masks *m) {
    const __m128i *x = blk->x;
    __m128i w[4], o[4], k[4];
    for (int i = 0; i < 4; i++) {
        __m128i x20 = _mm_or_si128(x[i], _mm_set1_epi8(0x20));
        w[i] = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8(' ')),
                                         _mm_cmpeq_epi8(x[i], _mm_set1_epi8('\n'))),
                            _mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8('\r')),
                                         _mm_cmpeq_epi8(x[i], _mm_set1_epi8('\t'))));
        k[i] = _mm_or_si128(_mm_cmpeq_epi8(x20, _mm_set1_epi8('{')),
                            _mm_cmpeq_epi8(x20, _mm_set1_epi8('}')));
        o[i] = _mm_or_si128(k[i], _mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8(':')),
                                               _mm_cmpeq_epi8(x[i], _mm_set1_epi8(','))));
    }
    m->quote = blk->quote;
    m->backslash = blk->backslash;
    m->delim = sse2_mask(_mm_or_si128(w[0], o[0]), _mm_or_si128(w[1], o[1]), _mm_or_si128(w[2], o[2]),
                         _mm_or_si128(w[3], o[3]));
    m->op = sse2_mask(o[0], o[1], o[2], o[3]);
    m->bracket = sse2_mask(k[0], k[1], k[2], k[3]);
    m->ctrl = blk->ctrl;
}

/*
 * UTF-8 validation with SSE2 alone, which has no byte shuffle for the lookup
 * method of the AVX2 kernel: each byte's class from unsigned range tests
 * (max/min and compare), then
 *   - every lead byte requires 1, 2 or 3 continuation bytes after it: the
 *     lead masks shifted by 1, 2 and 3 bytes (the previous chunk's bytes
 *     shifted in) must equal the continuation mask exactly;
 *   - C0, C1 and F5..FF never occur;
 *   - the byte after E0, ED, F0 and F4 has a narrower range (overlong
 *     forms, surrogates, above U+10FFFF).
 */
typedef struct utf8_sse2 {
    __m128i prev;       /* the previous 16 bytes */
    __m128i error;      /* any non-zero byte: invalid */
    __m128i incomplete; /* non-zero when prev ends inside a sequence */
} utf8_sse2;

/* x >= c, unsigned, as a byte mask */
#define SSE2_GE(x, c) _mm_cmpeq_epi8(_mm_max_epu8((x), _mm_set1_epi8((char)(c))), (x))
/* the bytes of cur moved k places up, the last k of prev shifted in */
#define SSE2_PREV(cur, prev, k) _mm_or_si128(_mm_slli_si128((cur), k), _mm_srli_si128((prev), 16 - (k)))

static inline void utf8_sse2_chunk(utf8_sse2 *u, __m128i cur) {
    __m128i prev = u->prev;
    __m128i ge_c0 = SSE2_GE(cur, 0xC0), ge_e0 = SSE2_GE(cur, 0xE0), ge_f0 = SSE2_GE(cur, 0xF0);
    __m128i pge_c0 = SSE2_GE(prev, 0xC0), pge_e0 = SSE2_GE(prev, 0xE0), pge_f0 = SSE2_GE(prev, 0xF0);
    __m128i cont = _mm_andnot_si128(ge_c0, _mm_cmplt_epi8(cur, _mm_setzero_si128()));
    __m128i required = _mm_or_si128(
        SSE2_PREV(ge_c0, pge_c0, 1),
        _mm_or_si128(SSE2_PREV(ge_e0, pge_e0, 2), SSE2_PREV(ge_f0, pge_f0, 3)));
    __m128i err = _mm_xor_si128(required, cont);
    /* C0, C1 (overlong two-byte forms) and F5..FF */
    err = _mm_or_si128(err, _mm_andnot_si128(SSE2_GE(cur, 0xC2), ge_c0));
    err = _mm_or_si128(err, SSE2_GE(cur, 0xF5));
    /* second bytes: E0 A0..BF, ED 80..9F, F0 90..BF, F4 80..8F */
    __m128i prev1 = SSE2_PREV(cur, prev, 1);
    __m128i lt_a0 = _mm_andnot_si128(SSE2_GE(cur, 0xA0), _mm_set1_epi8(-1));
    __m128i lt_90 = _mm_andnot_si128(SSE2_GE(cur, 0x90), _mm_set1_epi8(-1));
    err = _mm_or_si128(err, _mm_and_si128(_mm_cmpeq_epi8(prev1, _mm_set1_epi8((char)0xE0)), lt_a0));
    err = _mm_or_si128(err, _mm_andnot_si128(lt_a0, _mm_cmpeq_epi8(prev1, _mm_set1_epi8((char)0xED))));
    err = _mm_or_si128(err, _mm_and_si128(_mm_cmpeq_epi8(prev1, _mm_set1_epi8((char)0xF0)), lt_90));
    err = _mm_or_si128(err, _mm_andnot_si128(lt_90, _mm_cmpeq_epi8(prev1, _mm_set1_epi8((char)0xF4))));
    u->error = _mm_or_si128(u->error, err);
    u->prev = cur;
}

static inline void utf8_sse2_block(utf8_sse2 *u, const char *p) {
    __m128i x[4];
    for (int i = 0; i < 4; i++) x[i] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
    __m128i any = _mm_or_si128(_mm_or_si128(x[0], x[1]), _mm_or_si128(x[2], x[3]));
    if (!_mm_movemask_epi8(any)) {
        /* ASCII: only a sequence left open by the previous block is wrong */
        u->error = _mm_or_si128(u->error, u->incomplete);
        u->incomplete = _mm_setzero_si128();
        u->prev = x[3];
        return;
    }
    for (int i = 0; i < 4; i++) utf8_sse2_chunk(u, x[i]);
    /* a lead byte in the last three positions that its sequence overruns */
    u->incomplete = _mm_or_si128(
        _mm_srli_si128(SSE2_GE(x[3], 0xC0), 15),
        _mm_or_si128(_mm_srli_si128(SSE2_GE(x[3], 0xE0), 14), _mm_srli_si128(SSE2_GE(x[3], 0xF0), 13)));
}

static inline bool utf8_sse2_valid(utf8_sse2 *u) {
    __m128i e = _mm_or_si128(u->error, u->incomplete);
    return _mm_movemask_epi8(_mm_cmpeq_epi8(e, _mm_setzero_si128())) == 0xFFFF;
}

static inline bool utf8_sse2_sound(utf8_sse2 *u) {
    return _mm_movemask_epi8(_mm_cmpeq_epi8(u->error, _mm_setzero_si128())) == 0xFFFF;
}

#undef SSE2_GE
#undef SSE2_PREV

#define SCAN_FN scan_sse2
#define SCAN_ATTR
#define SCAN_PREPARED sse2_block
#define SCAN_PREPARE sse2_prepare
#define SCAN_PLAIN sse2_plain
#define SCAN_CLASSIFY classify_sse2
#define SCAN_PREFIX_XOR prefix_xor_shift
#define SCAN_UTF8_STATE utf8_sse2
#define SCAN_UTF8_BLOCK utf8_sse2_block
#define SCAN_UTF8_VALID utf8_sse2_valid
#define SCAN_UTF8_SOUND utf8_sse2_sound
#include "scan_generic.h"

#define AVX2_ATTR __attribute__((target("avx2,bmi,bmi2,popcnt,pclmul")))

/* A byte broadcast that the compiler cannot rebuild from an immediate:
 * without the empty asm, gcc re-broadcasts small constants in every loop
 * iteration (two vector uops each) instead of keeping them in registers,
 * which cost stage 1 about a fifth of its time. The asm is not volatile,
 * so the broadcast is still hoisted out of the loop. */
AVX2_ATTR static inline __m256i avx2_set1(char c) {
    /* the kernel's own constants from a table: one load each, where a
     * broadcast of an immediate is three instructions (a small document
     * pays for every one on each call) */
#define AVX2_X8(v) (v), (v), (v), (v), (v), (v), (v), (v)
#define AVX2_ROW(v) {AVX2_X8(v), AVX2_X8(v), AVX2_X8(v), AVX2_X8(v)}
    static const _Alignas(32) uint8_t rows[][32] = {AVX2_ROW(0x0F), AVX2_ROW('"'), AVX2_ROW('\\'),
                                                   AVX2_ROW(NIB_DELIM), AVX2_ROW(0xDF), AVX2_ROW(0xEF),
                                                   AVX2_ROW(0x04), AVX2_ROW(0xF4)};
#undef AVX2_ROW
#undef AVX2_X8
    int row;
    switch ((unsigned char)c) {
    case 0x0F: row = 0; break;
    case '"': row = 1; break;
    case '\\': row = 2; break;
    case NIB_DELIM: row = 3; break;
    case 0xDF: row = 4; break;
    case 0xEF: row = 5; break;
    case 0x04: row = 6; break;
    case 0xF4: row = 7; break;
    default: row = -1; break;
    }
    /* the empty asm hides the table's contents (gcc would broadcast them) */
    const uint8_t(*table)[32] = rows;
    __asm__("" : "+r"(table));
    __m256i v = row < 0 ? _mm256_set1_epi8(c)
                        : _mm256_load_si256((const __m256i *)(const void *)table[row]);
    __asm__("" : "+x"(v));
    return v;
}

AVX2_ATTR static inline uint64_t avx2_mask(__m256i lo, __m256i hi) {
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
           ((uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32);
}

/* A block's bytes and their nibble-table classes (see nib_lo): computed
 * once, for the fast path's test (avx2_plain) and then, where it fails,
 * for the masks (classify_avx2). */
typedef struct avx2_block {
    __m256i x[2], cls[2];
} avx2_block;

AVX2_ATTR static inline void avx2_prepare(const char *p, avx2_block *blk) {
    const __m256i lo_tab =
        _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)nib_lo));
    const __m256i hi_tab =
        _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)nib_hi));
    for (int i = 0; i < 2; i++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * i));
        __m256i lo = _mm256_shuffle_epi8(lo_tab, _mm256_and_si256(x, avx2_set1(0x0F)));
        __m256i hi = _mm256_shuffle_epi8(
            hi_tab, _mm256_and_si256(_mm256_srli_epi16(x, 4), avx2_set1(0x0F)));
        blk->x[i] = x;
        blk->cls[i] = _mm256_and_si256(lo, hi);
    }
}

/* No quote, backslash or control byte (SCAN_PLAIN). The test takes its
 * constant from memory: a register would have to be spilled for it, and a
 * broadcast costs three instructions (the empty asm hides the array's
 * contents, which gcc would otherwise turn back into a broadcast). */
static const uint8_t string_end_bits[32] = {
#define STRING_END_X4 NIB_STRING_END, NIB_STRING_END, NIB_STRING_END, NIB_STRING_END
    STRING_END_X4, STRING_END_X4, STRING_END_X4, STRING_END_X4,
    STRING_END_X4, STRING_END_X4, STRING_END_X4, STRING_END_X4,
#undef STRING_END_X4
};

AVX2_ATTR static inline bool avx2_plain(const avx2_block *blk) {
    const uint8_t *bits = string_end_bits;
    __asm__("" : "+r"(bits));
    return _mm256_testz_si256(_mm256_or_si256(blk->cls[0], blk->cls[1]),
                              _mm256_loadu_si256((const __m256i *)(const void *)bits)) != 0;
}

/* Whitespace and operators through the nibble tables (see nib_lo). */
AVX2_ATTR static inline void classify_avx2(const avx2_block *blk, scan_masks *m) {
    __m256i q[2], b[2], w[2], o[2];
    const __m256i *x = blk->x, *cls = blk->cls;
    for (int i = 0; i < 2; i++) {
        q[i] = _mm256_cmpeq_epi8(x[i], avx2_set1('"'));
        b[i] = _mm256_cmpeq_epi8(x[i], avx2_set1('\\'));
        w[i] = _mm256_cmpgt_epi8(_mm256_and_si256(cls[i], avx2_set1(NIB_DELIM)), _mm256_setzero_si256());
        o[i] = _mm256_cmpgt_epi8(cls[i], avx2_set1(0x0F));
    }
    m->quote = avx2_mask(q[0], q[1]);
    m->backslash = avx2_mask(b[0], b[1]);
    m->delim = avx2_mask(w[0], w[1]);
    m->op = avx2_mask(o[0], o[1]);
    /* bit 4 of each byte to bit 7 (a 16-bit shift: the bits crossing into
     * the next byte land below its bit 7) */
    m->bracket = avx2_mask(_mm256_slli_epi16(cls[0], 3), _mm256_slli_epi16(cls[1], 3));
    m->ctrl = avx2_mask(cls[0], cls[1]);
}

AVX2_ATTR static inline uint64_t prefix_xor_clmul(uint64_t x) {
    __m128i ones = _mm_set1_epi8((char)0xFF);
    __asm__("" : "+x"(ones)); /* kept in a register, as avx2_set1 below */
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), ones, 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

/*
 * UTF-8 validation, 32 bytes at a time (the lookup method of Keiser and
 * Lemire, "Validating UTF-8 in less than one instruction per byte"). Each
 * byte is judged with the byte before it: three 16-entry tables, indexed by
 * the previous byte's high and low nibbles and this byte's high nibble, each
 * give a set of error kinds the pair could belong to; the intersection is
 * the set that applies. Kinds (bits):
 *   1 too short: a lead byte not followed by a continuation byte
 *   2 too long: a continuation byte after an ASCII byte
 *   4 two continuations in a row: an error only where no 3- or 4-byte lead
 *     stands two or three bytes back (checked separately, then xor-ed)
 *   8 overlong 3-byte form (E0 80..9F)     16 surrogate (ED A0..BF)
 *  32 overlong 4-byte form (F0 80..8F)     64 above U+10FFFF (F4 90..BF)
 * 128 overlong 2-byte form (C0, C1)
 * Bytes F5..FF are never valid and are caught by one saturating subtract.
 */
typedef struct utf8_avx2 {
    __m256i prev;       /* the previous 32 bytes */
    __m256i error;      /* any non-zero byte: invalid */
    __m256i incomplete; /* non-zero when prev ends inside a sequence */
} utf8_avx2;

#define B8(x) ((char)(x))
#define AVX2_PREV(cur, prev, n) \
    _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (n))

AVX2_ATTR static inline void utf8_avx2_chunk(utf8_avx2 *u, __m256i cur) {
    const __m256i tab_hi1 = _mm256_setr_epi8(JET_UTF8_TAB_HI1(B8), JET_UTF8_TAB_HI1(B8));
    const __m256i tab_lo1 = _mm256_setr_epi8(JET_UTF8_TAB_LO1(B8), JET_UTF8_TAB_LO1(B8));
    const __m256i tab_hi2 = _mm256_setr_epi8(JET_UTF8_TAB_HI2(B8), JET_UTF8_TAB_HI2(B8));
    const __m256i nibble = avx2_set1(0x0F);
    __m256i prev1 = AVX2_PREV(cur, u->prev, 1);
    __m256i kinds = _mm256_and_si256(
        _mm256_and_si256(
            _mm256_shuffle_epi8(tab_hi1, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble)),
            _mm256_shuffle_epi8(tab_lo1, _mm256_and_si256(prev1, nibble))),
        _mm256_shuffle_epi8(tab_hi2, _mm256_and_si256(_mm256_srli_epi16(cur, 4), nibble)));
    /* where a 3-byte lead is two back or a 4-byte lead three back, this byte
     * must be a continuation following a continuation (kind 4) */
    __m256i lead_back = _mm256_or_si256(
        _mm256_subs_epu8(AVX2_PREV(cur, u->prev, 2), avx2_set1(B8(0xDF))),
        _mm256_subs_epu8(AVX2_PREV(cur, u->prev, 3), avx2_set1(B8(0xEF))));
    __m256i must = _mm256_andnot_si256(_mm256_cmpeq_epi8(lead_back, _mm256_setzero_si256()),
                                       avx2_set1(4));
    u->error = _mm256_or_si256(u->error, _mm256_xor_si256(kinds, must));
    u->error = _mm256_or_si256(u->error, _mm256_subs_epu8(cur, avx2_set1(B8(0xF4))));
    u->prev = cur;
}

AVX2_ATTR static inline void utf8_avx2_init(utf8_avx2 *u) {
    u->prev = u->error = u->incomplete = _mm256_setzero_si256();
}

AVX2_ATTR static inline void utf8_avx2_block(utf8_avx2 *u, const char *p) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    if (!_mm256_movemask_epi8(_mm256_or_si256(a, b))) {
        /* ASCII: only a sequence left open by the previous block is wrong.
         * prev and incomplete stay as they are (one instruction, not four):
         * where incomplete is not zero, error now is not either; where it
         * is, prev's last bytes open no sequence, so prev judges the next
         * block's first bytes as an ASCII block would (a continuation
         * byte there is an error either way). */
        u->error = _mm256_or_si256(u->error, u->incomplete);
        return;
    }
    utf8_avx2_chunk(u, a);
    utf8_avx2_chunk(u, b);
    /* a lead byte in the last three positions that its sequence overruns */
    const __m256i last = _mm256_setr_epi8(
        B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF),
        B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF),
        B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF),
        B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xFF), B8(0xEF), B8(0xDF), B8(0xBF));
    u->incomplete = _mm256_subs_epu8(b, last);
}

AVX2_ATTR static inline bool utf8_avx2_valid(utf8_avx2 *u) {
    __m256i e = _mm256_or_si256(u->error, u->incomplete);
    return _mm256_testz_si256(e, e) != 0;
}

AVX2_ATTR static inline bool utf8_avx2_sound(utf8_avx2 *u) {
    return _mm256_testz_si256(u->error, u->error) != 0;
}

/* gcc's memcpy of 64 bytes here is four 16-byte loads and stores (its
 * generic tuning splits unaligned 32-byte stores): the two 32-byte loads
 * that classify made, stored as they are. */
AVX2_ATTR static inline void avx2_copy64(char *dst, const char *src) {
    _mm256_storeu_si256((__m256i *)(void *)dst, _mm256_loadu_si256((const __m256i *)(const void *)src));
    _mm256_storeu_si256((__m256i *)(void *)(dst + 32),
                        _mm256_loadu_si256((const __m256i *)(const void *)(src + 32)));
}

#define SCAN_FN scan_avx2
#define SCAN_COPY avx2_copy64
#define SCAN_PREPARED avx2_block
#define SCAN_PREPARE avx2_prepare
#define SCAN_PLAIN avx2_plain
#define SCAN_STATE_IN_MEMORY 1
#define SCAN_ATTR AVX2_ATTR
#define SCAN_CLASSIFY classify_avx2
#define SCAN_PREFIX_XOR prefix_xor_clmul
#define SCAN_UTF8_STATE utf8_avx2
#define SCAN_UTF8_INIT utf8_avx2_init
#define SCAN_UTF8_BLOCK utf8_avx2_block
#define SCAN_UTF8_VALID utf8_avx2_valid
#define SCAN_UTF8_SOUND utf8_avx2_sound
#include "scan_generic.h"

/*
 * AVX-512 (F + BW): the whole 64-byte block in one register. Compares
 * yield the 64-bit masks directly; whitespace and operators come from the
 * same nibble tables as AVX2 (vpshufb works per 128-bit lane, so the tables
 * are repeated four times); UTF-8 validation is the AVX2 method on 64 bytes,
 * the bytes before each byte taken across lanes and blocks with one qword
 * align and a byte align per distance.
 */
#define AVX512_ATTR __attribute__((target("avx512f,avx512bw,bmi,bmi2,popcnt,pclmul")))

AVX512_ATTR static inline __m512i avx512_tab(const __m128i t) {
    __m512i v = _mm512_broadcast_i32x4(t);
    __asm__("" : "+v"(v)); /* as avx512_set1 below */
    return v;
}
/* As avx2_set1. */
AVX512_ATTR static inline __m512i avx512_set1(char c) {
    __m512i v = _mm512_set1_epi8(c);
    __asm__("" : "+v"(v));
    return v;
}

AVX512_ATTR static inline void classify_avx512(const char *p, scan_masks *m) {
    const __m512i lo_tab = avx512_tab(_mm_loadu_si128((const __m128i *)(const void *)nib_lo));
    const __m512i hi_tab = avx512_tab(_mm_loadu_si128((const __m128i *)(const void *)nib_hi));
    const __m512i nibble = avx512_set1(0x0F);
    __m512i x = _mm512_loadu_si512((const void *)p);
    __m512i cls = _mm512_and_si512(_mm512_shuffle_epi8(lo_tab, _mm512_and_si512(x, nibble)),
                                   _mm512_shuffle_epi8(hi_tab, _mm512_and_si512(_mm512_srli_epi16(x, 4), nibble)));
    m->quote = _mm512_cmpeq_epi8_mask(x, avx512_set1('"'));
    m->backslash = _mm512_cmpeq_epi8_mask(x, avx512_set1('\\'));
    m->delim = _mm512_test_epi8_mask(cls, avx512_set1(NIB_DELIM));
    m->op = _mm512_test_epi8_mask(cls, avx512_set1(NIB_OPS));
    m->bracket = _mm512_test_epi8_mask(cls, avx512_set1(NIB_BRACKET));
    m->ctrl = _mm512_movepi8_mask(cls);
}

typedef struct utf8_avx512 {
    __m512i prev, error, incomplete; /* as in utf8_avx2 */
} utf8_avx512;

/* Byte i of the result is byte i - n of the stream (cur preceded by prev):
 * `shifted` holds the stream 16 bytes back (prev's last lane, then cur's
 * first three), and a per-lane byte align finishes the shift. */
#define AVX512_PREV(cur, shifted, n) _mm512_alignr_epi8((cur), (shifted), 16 - (n))

AVX512_ATTR static inline void utf8_avx512_block(utf8_avx512 *u, const char *p) {
    __m512i cur = _mm512_loadu_si512((const void *)p);
    if (!_mm512_movepi8_mask(cur)) {
        u->error = _mm512_or_si512(u->error, u->incomplete);
        u->incomplete = _mm512_setzero_si512();
        u->prev = cur;
        return;
    }
    const __m512i tab_hi1 = avx512_tab(_mm_setr_epi8(JET_UTF8_TAB_HI1(B8)));
    const __m512i tab_lo1 = avx512_tab(_mm_setr_epi8(JET_UTF8_TAB_LO1(B8)));
    const __m512i tab_hi2 = avx512_tab(_mm_setr_epi8(JET_UTF8_TAB_HI2(B8)));
    const __m512i nibble = avx512_set1(0x0F);
    __m512i shifted = _mm512_alignr_epi64(cur, u->prev, 6);
    __m512i prev1 = AVX512_PREV(cur, shifted, 1);
    __m512i kinds = _mm512_and_si512(
        _mm512_and_si512(
            _mm512_shuffle_epi8(tab_hi1, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble)),
            _mm512_shuffle_epi8(tab_lo1, _mm512_and_si512(prev1, nibble))),
        _mm512_shuffle_epi8(tab_hi2, _mm512_and_si512(_mm512_srli_epi16(cur, 4), nibble)));
    __m512i lead_back = _mm512_or_si512(
        _mm512_subs_epu8(AVX512_PREV(cur, shifted, 2), avx512_set1(B8(0xDF))),
        _mm512_subs_epu8(AVX512_PREV(cur, shifted, 3), avx512_set1(B8(0xEF))));
    __m512i must = _mm512_maskz_mov_epi8(_mm512_test_epi8_mask(lead_back, lead_back), avx512_set1(4));
    u->error = _mm512_ternarylogic_epi32(u->error, kinds, must, 0xF6); /* error | (kinds ^ must) */
    u->error = _mm512_or_si512(u->error, _mm512_subs_epu8(cur, avx512_set1(B8(0xF4))));
    /* a lead byte in the last three positions that its sequence overruns */
    __m512i last = _mm512_mask_blend_epi8(UINT64_C(7) << 61, avx512_set1(B8(0xFF)),
                                          _mm512_set_epi8(B8(0xBF), B8(0xDF), B8(0xEF), 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                          0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    u->incomplete = _mm512_subs_epu8(cur, last);
    u->prev = cur;
}

AVX512_ATTR static inline bool utf8_avx512_valid(utf8_avx512 *u) {
    __m512i e = _mm512_or_si512(u->error, u->incomplete);
    return _mm512_test_epi8_mask(e, e) == 0;
}

AVX512_ATTR static inline bool utf8_avx512_sound(utf8_avx512 *u) {
    return _mm512_test_epi8_mask(u->error, u->error) == 0;
}

/* The input's last partial block padded with spaces by one masked load:
 * the bytes past the input are masked out, and a masked-out byte cannot
 * fault. (The generic tail, two copies through a 128-byte buffer, cost
 * about 12 instructions more per document: nostr-short, 35 messages,
 * 103 697 -> 103 292.) pad is 64-byte aligned. */
AVX512_ATTR static inline void avx512_pad_tail(char *pad, const char *src, size_t r) {
    __mmask64 keep = _bzhi_u64(~UINT64_C(0), (unsigned)r);
    _mm512_store_si512((void *)pad, _mm512_mask_loadu_epi8(avx512_set1(' '), keep, (const void *)src));
}

#define SCAN_FN scan_avx512
#define SCAN_ATTR AVX512_ATTR
#define SCAN_PAD_TAIL avx512_pad_tail
#define SCAN_CLASSIFY classify_avx512
#define SCAN_PREFIX_XOR prefix_xor_clmul
#define SCAN_UTF8_STATE utf8_avx512
#define SCAN_UTF8_BLOCK utf8_avx512_block
#define SCAN_UTF8_VALID utf8_avx512_valid
#define SCAN_UTF8_SOUND utf8_avx512_sound
#include "scan_generic.h"

#endif /* JET_HAVE_X86_KERNELS */


/* ========================================================================== */
/* Kernel: NEON (aarch64)                                                     */
/* ========================================================================== */

#if JET_HAVE_NEON_KERNEL

/* The top bit of each byte of four 16-byte compare results, gathered into
 * 64 bits (byte i of the block -> bit i): weight each lane by its bit, then
 * three rounds of pairwise adds fold 8 lanes into one byte. */
static inline uint64_t neon_mask(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d) {
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                        1, 2, 4, 8, 16, 32, 64, 128};
    const uint8x16_t w = vld1q_u8(weights);
    uint8x16_t ab = vpaddq_u8(vandq_u8(a, w), vandq_u8(b, w));
    uint8x16_t cd = vpaddq_u8(vandq_u8(c, w), vandq_u8(d, w));
    uint8x16_t abcd = vpaddq_u8(ab, cd);
    abcd = vpaddq_u8(abcd, abcd);
    return vgetq_lane_u64(vreinterpretq_u64_u8(abcd), 0);
}

/* A block's bytes and their nibble-table classes (see nib_lo; TBL instead
 * of PSHUFB), computed once for the fast path's test (neon_plain) and the
 * masks (classify_neon). */
typedef struct neon_block {
    uint8x16_t x[4], cls[4];
} neon_block;

static inline void neon_prepare(const char *p, neon_block *blk) {
    const uint8x16_t lo_tab = vld1q_u8(nib_lo), hi_tab = vld1q_u8(nib_hi);
    for (int i = 0; i < 4; i++) {
        uint8x16_t x = vld1q_u8((const uint8_t *)p + 16 * i);
        blk->x[i] = x;
        blk->cls[i] = vandq_u8(vqtbl1q_u8(lo_tab, vandq_u8(x, vdupq_n_u8(0x0F))),
                               vqtbl1q_u8(hi_tab, vshrq_n_u8(x, 4)));
    }
}

/* No quote, backslash or control byte (SCAN_PLAIN). */
static inline bool neon_plain(const neon_block *blk) {
    uint8x16_t any = vorrq_u8(vorrq_u8(blk->cls[0], blk->cls[1]), vorrq_u8(blk->cls[2], blk->cls[3]));
    return vmaxvq_u8(vandq_u8(any, vdupq_n_u8(NIB_STRING_END))) == 0;
}

/* Whitespace and operators by the nibble tables. */
static inline void classify_neon(const neon_block *blk, scan_masks *m) {
    uint8x16_t q[4], b[4], w[4], o[4], c[4], k[4];
    for (int i = 0; i < 4; i++) {
        uint8x16_t x = blk->x[i], cls = blk->cls[i];
        q[i] = vceqq_u8(x, vdupq_n_u8('"'));
        b[i] = vceqq_u8(x, vdupq_n_u8('\\'));
        w[i] = vtstq_u8(cls, vdupq_n_u8(NIB_DELIM));
        o[i] = vtstq_u8(cls, vdupq_n_u8(NIB_OPS));
        k[i] = vtstq_u8(cls, vdupq_n_u8(NIB_BRACKET));
        c[i] = vtstq_u8(cls, vdupq_n_u8(NIB_CTRL));
    }
    m->quote = neon_mask(q[0], q[1], q[2], q[3]);
    m->backslash = neon_mask(b[0], b[1], b[2], b[3]);
    m->delim = neon_mask(w[0], w[1], w[2], w[3]);
    m->op = neon_mask(o[0], o[1], o[2], o[3]);
    m->bracket = neon_mask(k[0], k[1], k[2], k[3]);
    m->ctrl = neon_mask(c[0], c[1], c[2], c[3]);
}

/* UTF-8 validation: the AVX2 method (see utf8_avx2_chunk) on 16-byte
 * chunks, TBL for the three nibble tables and EXT for the bytes before each
 * byte. */
#define NEON_U8(x) (x)

typedef struct utf8_neon {
    uint8x16_t prev, error, incomplete; /* as in utf8_avx2 */
} utf8_neon;

static inline void utf8_neon_chunk(utf8_neon *u, uint8x16_t cur) {
    static const uint8_t hi1[16] = {JET_UTF8_TAB_HI1(NEON_U8)};
    static const uint8_t lo1[16] = {JET_UTF8_TAB_LO1(NEON_U8)};
    static const uint8_t hi2[16] = {JET_UTF8_TAB_HI2(NEON_U8)};
    uint8x16_t prev1 = vextq_u8(u->prev, cur, 15);
    uint8x16_t kinds = vandq_u8(vandq_u8(vqtbl1q_u8(vld1q_u8(hi1), vshrq_n_u8(prev1, 4)),
                                         vqtbl1q_u8(vld1q_u8(lo1), vandq_u8(prev1, vdupq_n_u8(0x0F)))),
                                vqtbl1q_u8(vld1q_u8(hi2), vshrq_n_u8(cur, 4)));
    /* where a 3-byte lead is two back or a 4-byte lead three back, this byte
     * must be a continuation following a continuation (kind 4) */
    uint8x16_t lead_back = vorrq_u8(vqsubq_u8(vextq_u8(u->prev, cur, 14), vdupq_n_u8(0xDF)),
                                    vqsubq_u8(vextq_u8(u->prev, cur, 13), vdupq_n_u8(0xEF)));
    uint8x16_t must = vandq_u8(vtstq_u8(lead_back, lead_back), vdupq_n_u8(4));
    u->error = vorrq_u8(u->error, veorq_u8(kinds, must));
    u->error = vorrq_u8(u->error, vqsubq_u8(cur, vdupq_n_u8(0xF4)));
    u->prev = cur;
}

static inline void utf8_neon_block(utf8_neon *u, const char *p) {
    uint8x16_t x[4];
    for (int i = 0; i < 4; i++) x[i] = vld1q_u8((const uint8_t *)p + 16 * i);
    if (vmaxvq_u8(vorrq_u8(vorrq_u8(x[0], x[1]), vorrq_u8(x[2], x[3]))) < 0x80) {
        /* ASCII: only a sequence left open by the previous block is wrong */
        u->error = vorrq_u8(u->error, u->incomplete);
        u->incomplete = vdupq_n_u8(0);
        u->prev = x[3];
        return;
    }
    for (int i = 0; i < 4; i++) utf8_neon_chunk(u, x[i]);
    /* a lead byte in the last three positions that its sequence overruns */
    static const uint8_t last[16] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                     0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF};
    u->incomplete = vqsubq_u8(x[3], vld1q_u8(last));
}

static inline bool utf8_neon_valid(utf8_neon *u) {
    return vmaxvq_u8(vorrq_u8(u->error, u->incomplete)) == 0;
}

static inline bool utf8_neon_sound(utf8_neon *u) { return vmaxvq_u8(u->error) == 0; }

#define SCAN_FN scan_neon
#define SCAN_ATTR
#define SCAN_PREPARED neon_block
#define SCAN_PREPARE neon_prepare
#define SCAN_PLAIN neon_plain
#define SCAN_CLASSIFY classify_neon
#define SCAN_PREFIX_XOR prefix_xor_shift
#define SCAN_UTF8_STATE utf8_neon
#define SCAN_UTF8_BLOCK utf8_neon_block
#define SCAN_UTF8_VALID utf8_neon_valid
#define SCAN_UTF8_SOUND utf8_neon_sound
#include "scan_generic.h"

#endif /* JET_HAVE_NEON_KERNEL */

/* ========================================================================== */
/* Dispatch                                                                   */
/* ========================================================================== */

/* CPU features a kernel needs beyond its architecture's baseline. */
enum {
    CPU_AVX2 = 1 << 0,
    CPU_BMI = 1 << 1,
    CPU_BMI2 = 1 << 2,
    CPU_POPCNT = 1 << 3,
    CPU_PCLMUL = 1 << 4,
    CPU_AVX512F = 1 << 5,
    CPU_AVX512BW = 1 << 6,
};

/* Whether this CPU has every feature in `need`. (__builtin_cpu_supports
 * takes only a string literal: one test per feature.) */
static bool cpu_has(unsigned need) {
    if (!need) return true;
#if JET_HAVE_X86_KERNELS
    __builtin_cpu_init();
    return (!(need & CPU_AVX2) || __builtin_cpu_supports("avx2")) &&
           (!(need & CPU_BMI) || __builtin_cpu_supports("bmi")) &&
           (!(need & CPU_BMI2) || __builtin_cpu_supports("bmi2")) &&
           (!(need & CPU_POPCNT) || __builtin_cpu_supports("popcnt")) &&
           (!(need & CPU_PCLMUL) || __builtin_cpu_supports("pclmul")) &&
           (!(need & CPU_AVX512F) || __builtin_cpu_supports("avx512f")) &&
           (!(need & CPU_AVX512BW) || __builtin_cpu_supports("avx512bw"));
#else
    return false;
#endif
}

/*
 * One descriptor per kernel: everything the dispatch knows about it. A
 * kernel this build does not compile (another architecture, JET_PORTABLE)
 * has no entry points and is never available; the scalar kernel has none
 * either (it builds no index) and always is. `rank` orders the default
 * choice, the fastest measured on this project's corpora (docs/design.md):
 * the AVX-512 index where the CPU has it, then AVX2, then SSE2 (every
 * x86-64), else the one-pass reader, which beats an index built with 64-bit
 * words (0: chosen only by name).
 */
typedef struct kernel_desc {
    const char *name;
    unsigned cpu; /* CPU_* features required */
    bool compiled;
    int rank;
    size_t (*window)(jet_scan_state *st, const char *json, size_t len, size_t first, size_t n,
                     uint64_t *structural, uint64_t *backslashes, uint64_t *brackets, char *copy);
    bool (*status)(const jet_scan_state *st, bool at_end, jet_scan_result *res);
    bool (*all)(const char *json, size_t len, uint64_t *structural, uint64_t *backslashes,
                uint64_t *brackets, char *copy, jet_scan_result *res);
} kernel_desc;

/* The entry points scan_generic.h generated for kernel fn. */
#define KERNEL_ENTRIES(fn) true, .window = fn, .status = fn##_status, .all = fn##_all

#define AVX2_CPU (CPU_AVX2 | CPU_BMI | CPU_BMI2 | CPU_POPCNT | CPU_PCLMUL)
static const kernel_desc kernels[JET_KERNEL__COUNT] = {
    [JET_KERNEL_SCALAR] = {"scalar", 0, true, 1, NULL, NULL, NULL},
    [JET_KERNEL_SWAR] = {"swar", 0, KERNEL_ENTRIES(scan_swar)},
#if JET_HAVE_X86_KERNELS
    [JET_KERNEL_SSE2] = {"sse2", 0, KERNEL_ENTRIES(scan_sse2), .rank = 2},
    [JET_KERNEL_AVX2] = {"avx2", AVX2_CPU, KERNEL_ENTRIES(scan_avx2), .rank = 3},
    [JET_KERNEL_AVX512] = {"avx512", AVX2_CPU | CPU_AVX512F | CPU_AVX512BW,
                           KERNEL_ENTRIES(scan_avx512), .rank = 4},
#else
    [JET_KERNEL_SSE2] = {.name = "sse2"},
    [JET_KERNEL_AVX2] = {.name = "avx2"},
    [JET_KERNEL_AVX512] = {.name = "avx512"},
#endif
#if JET_HAVE_NEON_KERNEL
    [JET_KERNEL_NEON] = {"neon", 0, KERNEL_ENTRIES(scan_neon)},
#else
    [JET_KERNEL_NEON] = {.name = "neon"},
#endif
};
#undef AVX2_CPU
#undef KERNEL_ENTRIES

const char *jet__kernel_name(jet_kernel k) {
    return (unsigned)k < JET_KERNEL__COUNT ? kernels[k].name : "unknown";
}

bool jet__kernel_available(jet_kernel k) {
    return (unsigned)k < JET_KERNEL__COUNT && kernels[k].compiled && cpu_has(kernels[k].cpu);
}

static jet_kernel kernel_by_name(const char *name) {
    for (int k = 0; k < JET_KERNEL__COUNT; k++)
        if (strcmp(name, kernels[k].name) == 0) return (jet_kernel)k;
    return JET_KERNEL__COUNT;
}

/* The available kernel of highest rank, unless JET_KERNEL names another
 * available one. */
static jet_kernel choose_kernel(void) {
    const char *env = getenv("JET_KERNEL");
    if (env && *env) {
        jet_kernel k = kernel_by_name(env);
        if (k != JET_KERNEL__COUNT && jet__kernel_available(k)) return k;
    }
    jet_kernel best = JET_KERNEL_SCALAR;
    for (int k = 0; k < JET_KERNEL__COUNT; k++)
        if (kernels[k].rank > kernels[best].rank && jet__kernel_available((jet_kernel)k))
            best = (jet_kernel)k;
    return best;
}

/* -1: not chosen yet. Choosing twice from two threads is harmless: both
 * compute the same value. */
atomic_int jet__kernel_chosen = -1;

jet_kernel jet__kernel(void) {
    int k = atomic_load_explicit(&jet__kernel_chosen, memory_order_relaxed);
    if (k < 0) {
        k = (int)choose_kernel();
        atomic_store_explicit(&jet__kernel_chosen, k, memory_order_relaxed);
    }
    return (jet_kernel)k;
}

bool jet_kernel_set(const char *name) {
    jet_kernel k = name ? kernel_by_name(name) : JET_KERNEL__COUNT;
    if (k == JET_KERNEL__COUNT || !jet__kernel_available(k)) return false;
    atomic_store_explicit(&jet__kernel_chosen, (int)k, memory_order_relaxed);
    return true;
}

/* The descriptor of an indexing kernel: k's, or the SWAR kernel's for a
 * kernel that builds no index here. */
static const kernel_desc *index_kernel(jet_kernel k) {
    return (unsigned)k < JET_KERNEL__COUNT && kernels[k].window ? &kernels[k]
                                                                : &kernels[JET_KERNEL_SWAR];
}

size_t jet__scan_window(jet_kernel k, jet_scan_state *st, const char *json, size_t len,
                        size_t first, size_t n, uint64_t *structural, uint64_t *backslashes,
                        uint64_t *brackets, char *copy) {
    return index_kernel(k)->window(st, json, len, first, n, structural, backslashes, brackets, copy);
}

bool jet__scan_status(jet_kernel k, const jet_scan_state *st, bool at_end, jet_scan_result *res) {
    return index_kernel(k)->status(st, at_end, res);
}

static bool scan_all(jet_kernel k, const char *json, size_t len, uint64_t *structural,
                     uint64_t *backslashes, uint64_t *brackets, char *copy, jet_scan_result *res) {
    return index_kernel(k)->all(json, len, structural, backslashes, brackets, copy, res);
}

bool jet__scan_ex(jet_kernel k, const char *json, size_t len, uint64_t *structural,
                  uint64_t *backslashes, uint64_t *brackets, jet_scan_result *res) {
    /* a small document's one call: the x86 kernels' entries directly (a
     * tail call; through the table, 11 instructions more a document), the
     * others through the table */
#if JET_HAVE_X86_KERNELS
    if (JET_LIKELY(k == JET_KERNEL_AVX512))
        return scan_avx512_all(json, len, structural, backslashes, brackets, NULL, res);
    if (k == JET_KERNEL_AVX2)
        return scan_avx2_all(json, len, structural, backslashes, brackets, NULL, res);
#endif
    return scan_all(k, json, len, structural, backslashes, brackets, NULL, res);
}

bool jet__scan(jet_kernel k, const char *json, size_t len, uint64_t *marks, char *copy,
               jet_scan_result *res) {
    return scan_all(k, json, len, marks, NULL, NULL, copy, res);
}
