/*
 * scan.c — stage 1: the structural index, its kernels and their dispatch.
 *
 * Each kernel only classifies 64 bytes into four bit masks (quote,
 * backslash, whitespace, structural operator); scan_generic.h turns those
 * masks into the index with arithmetic shared by every kernel:
 *   - escaped bytes: a backslash that is not itself escaped escapes the next
 *     byte (scan_escaped);
 *   - string interiors: the prefix xor of the unescaped quotes, carried from
 *     block to block;
 *   - run starts: non-whitespace, non-operator bytes outside strings whose
 *     previous byte is not one of them.
 * The kernel is chosen once per process (CPUID on x86-64), or forced with
 * JET_KERNEL=scalar|swar|sse2|avx2 for tests and benchmarks.
 */
#include "scan.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(JET_PORTABLE)
#define JET_HAVE_X86_KERNELS 1
#include <immintrin.h>
#else
#define JET_HAVE_X86_KERNELS 0
#endif

typedef struct scan_masks {
    uint64_t quote;
    uint64_t backslash;
    uint64_t ws;
    uint64_t op;
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

/* Appends base + position of every set bit, in order. Writes in groups of
 * eight whatever the count (the extra entries are garbage inside the slack),
 * so the loop runs a predictable number of times. */
static inline uint32_t *scan_extract(uint32_t *o, uint64_t bits, uint32_t base) {
    unsigned n = (unsigned)__builtin_popcountll(bits);
    /* OR-ing bit 63 keeps ctz defined once bits runs out */
    for (unsigned k = 0; k < n; k += 8) {
        for (unsigned j = 0; j < 8; j++) {
            o[k + j] = base + (uint32_t)__builtin_ctzll(bits | (1ull << 63));
            bits &= bits - 1;
        }
    }
    return o + n;
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

#define ONES_8 0x0101010101010101ULL
#define HIGH_8 0x8080808080808080ULL

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
    uint64_t q = 0, b = 0, w = 0, o = 0;
    for (unsigned i = 0; i < 8; i++) {
        uint64_t x;
        memcpy(&x, p + 8 * i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        x = __builtin_bswap64(x);
#endif
        uint64_t x20 = x | (ONES_8 * 0x20);
        q |= swar_gather(swar_eq(x, '"')) << (8 * i);
        b |= swar_gather(swar_eq(x, '\\')) << (8 * i);
        w |= swar_gather(swar_eq(x, ' ') | swar_eq(x, '\n') | swar_eq(x, '\r') |
                         swar_eq(x, '\t')) << (8 * i);
        /* '[' | 0x20 == '{' and ']' | 0x20 == '}' */
        o |= swar_gather(swar_eq(x20, '{') | swar_eq(x20, '}') | swar_eq(x, ':') |
                         swar_eq(x, ',')) << (8 * i);
    }
    m->quote = q;
    m->backslash = b;
    m->ws = w;
    m->op = o;
}

#define SCAN_FN scan_swar
#define SCAN_ATTR
#define SCAN_CLASSIFY classify_swar
#define SCAN_PREFIX_XOR prefix_xor_shift
#include "scan_generic.h"

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

static inline void classify_sse2(const char *p, scan_masks *m) {
    __m128i x[4], q[4], b[4], w[4], o[4];
    for (int i = 0; i < 4; i++) {
        x[i] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
        __m128i x20 = _mm_or_si128(x[i], _mm_set1_epi8(0x20));
        q[i] = _mm_cmpeq_epi8(x[i], _mm_set1_epi8('"'));
        b[i] = _mm_cmpeq_epi8(x[i], _mm_set1_epi8('\\'));
        w[i] = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8(' ')),
                                         _mm_cmpeq_epi8(x[i], _mm_set1_epi8('\n'))),
                            _mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8('\r')),
                                         _mm_cmpeq_epi8(x[i], _mm_set1_epi8('\t'))));
        o[i] = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x20, _mm_set1_epi8('{')),
                                         _mm_cmpeq_epi8(x20, _mm_set1_epi8('}'))),
                            _mm_or_si128(_mm_cmpeq_epi8(x[i], _mm_set1_epi8(':')),
                                         _mm_cmpeq_epi8(x[i], _mm_set1_epi8(','))));
    }
    m->quote = sse2_mask(q[0], q[1], q[2], q[3]);
    m->backslash = sse2_mask(b[0], b[1], b[2], b[3]);
    m->ws = sse2_mask(w[0], w[1], w[2], w[3]);
    m->op = sse2_mask(o[0], o[1], o[2], o[3]);
}

#define SCAN_FN scan_sse2
#define SCAN_ATTR
#define SCAN_CLASSIFY classify_sse2
#define SCAN_PREFIX_XOR prefix_xor_shift
#include "scan_generic.h"

#define AVX2_ATTR __attribute__((target("avx2,bmi,bmi2,popcnt,pclmul")))

AVX2_ATTR static inline uint64_t avx2_mask(__m256i lo, __m256i hi) {
    return (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
           ((uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32);
}

/* Whitespace and operators through two 16-entry nibble tables (vpshufb):
 * a byte is in a class when the bits its low and high nibbles select
 * intersect. Classes: 1 ',' 2 ':' 4 '[' ']' '{' '}' 8 ' ' 16 '\t' '\n' '\r'. */
AVX2_ATTR static inline void classify_avx2(const char *p, scan_masks *m) {
    const __m256i lo_tab = _mm256_setr_epi8(
        8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 4, 1, 20, 0, 0,
        8, 0, 0, 0, 0, 0, 0, 0, 0, 16, 18, 4, 1, 20, 0, 0);
    const __m256i hi_tab = _mm256_setr_epi8(
        16, 0, 9, 2, 0, 4, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0,
        16, 0, 9, 2, 0, 4, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i x[2], q[2], b[2], w[2], o[2];
    for (int i = 0; i < 2; i++) {
        x[i] = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32 * i));
        __m256i lo = _mm256_shuffle_epi8(lo_tab, _mm256_and_si256(x[i], _mm256_set1_epi8(0x0F)));
        __m256i hi = _mm256_shuffle_epi8(
            hi_tab, _mm256_and_si256(_mm256_srli_epi16(x[i], 4), _mm256_set1_epi8(0x0F)));
        __m256i cls = _mm256_and_si256(lo, hi);
        q[i] = _mm256_cmpeq_epi8(x[i], _mm256_set1_epi8('"'));
        b[i] = _mm256_cmpeq_epi8(x[i], _mm256_set1_epi8('\\'));
        w[i] = _mm256_cmpgt_epi8(_mm256_and_si256(cls, _mm256_set1_epi8(24)), _mm256_setzero_si256());
        o[i] = _mm256_cmpgt_epi8(_mm256_and_si256(cls, _mm256_set1_epi8(7)), _mm256_setzero_si256());
    }
    m->quote = avx2_mask(q[0], q[1]);
    m->backslash = avx2_mask(b[0], b[1]);
    m->ws = avx2_mask(w[0], w[1]);
    m->op = avx2_mask(o[0], o[1]);
}

AVX2_ATTR static inline uint64_t prefix_xor_clmul(uint64_t x) {
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8((char)0xFF), 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

#define SCAN_FN scan_avx2
#define SCAN_ATTR AVX2_ATTR
#define SCAN_CLASSIFY classify_avx2
#define SCAN_PREFIX_XOR prefix_xor_clmul
#include "scan_generic.h"

#endif /* JET_HAVE_X86_KERNELS */

/* ========================================================================== */
/* Dispatch                                                                   */
/* ========================================================================== */

static const char *const kernel_names[JET_KERNEL__COUNT] = {"scalar", "swar", "sse2", "avx2"};

const char *jet__kernel_name(jet_kernel k) {
    return (unsigned)k < JET_KERNEL__COUNT ? kernel_names[k] : "unknown";
}

bool jet__kernel_available(jet_kernel k) {
    switch (k) {
    case JET_KERNEL_SCALAR:
    case JET_KERNEL_SWAR:
        return true;
#if JET_HAVE_X86_KERNELS
    case JET_KERNEL_SSE2:
        return true;
    case JET_KERNEL_AVX2:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt") &&
               __builtin_cpu_supports("pclmul");
#endif
    default:
        return false;
    }
}

static jet_kernel kernel_by_name(const char *name) {
    for (int k = 0; k < JET_KERNEL__COUNT; k++)
        if (strcmp(name, kernel_names[k]) == 0) return (jet_kernel)k;
    return JET_KERNEL__COUNT;
}

/*
 * The default is the one-pass reader: on the machines measured so far
 * (docs/design.md) it is faster than building the index and walking it, so
 * the index kernels run only when asked for (JET_KERNEL or jet_kernel_set)
 * until they win.
 */
static jet_kernel choose_kernel(void) {
    const char *env = getenv("JET_KERNEL");
    if (env && *env) {
        jet_kernel k = kernel_by_name(env);
        if (k != JET_KERNEL__COUNT && jet__kernel_available(k)) return k;
    }
    return JET_KERNEL_SCALAR;
}

/* -1: not chosen yet. Choosing twice from two threads is harmless: both
 * compute the same value. */
static atomic_int chosen_kernel = -1;

jet_kernel jet__kernel(void) {
    int k = atomic_load_explicit(&chosen_kernel, memory_order_relaxed);
    if (k < 0) {
        k = (int)choose_kernel();
        atomic_store_explicit(&chosen_kernel, k, memory_order_relaxed);
    }
    return (jet_kernel)k;
}

bool jet_kernel_set(const char *name) {
    jet_kernel k = name ? kernel_by_name(name) : JET_KERNEL__COUNT;
    if (k == JET_KERNEL__COUNT || !jet__kernel_available(k)) return false;
    atomic_store_explicit(&chosen_kernel, (int)k, memory_order_relaxed);
    return true;
}

size_t jet__scan(jet_kernel k, const char *json, size_t len, uint32_t *out) {
    switch (k) {
#if JET_HAVE_X86_KERNELS
    case JET_KERNEL_AVX2:
        return scan_avx2(json, len, out);
    case JET_KERNEL_SSE2:
        return scan_sse2(json, len, out);
#endif
    default:
        return scan_swar(json, len, out);
    }
}
