/*
 * scan.h — stage 1: the structural index (internal).
 *
 * jet__scan classifies the input 64 bytes at a time and writes one 64-bit
 * word per block whose set bits mark every byte the reader must look at:
 *   - the structural characters { } [ ] : , outside strings,
 *   - every unescaped quote (so a string's opening quote is followed in the
 *     index by its closing quote),
 *   - the first byte of every other run of non-whitespace bytes outside
 *     strings (numbers, literals, and anything invalid).
 * Whitespace is never marked. The reader (stage 2) validates everything
 * else; the index only tells it where to look, so that it no longer has to
 * scan for the next token one dependent step at a time. Stage 2 takes the
 * positions straight from the words (count trailing zeros, clear the lowest
 * bit): a bitmap costs one bit per input byte and no extraction pass, where
 * a list of 32-bit offsets costs up to 32 and a pass of its own.
 *
 * The classification is one generic routine (scan_generic.h) instantiated
 * for each kernel; every kernel yields the same index. It can run window by
 * window (jet__scan_window): the DOM reader indexes 256 KiB of input at a
 * time, so its index stays 32 KiB whatever the input's size. The on-demand
 * cursor, which moves backwards as well as forwards, indexes an input of up
 * to 4 MiB at once (jet__scan_ex) and a larger one in windows of 4 MiB that
 * it rescans from checkpoints of the scan state when it goes back
 * (od_window.c).
 */
#ifndef JET_SCAN_H
#define JET_SCAN_H

#include "internal.h"

#include <stdatomic.h>
#include <string.h>

typedef enum jet_kernel {
    JET_KERNEL_SCALAR = 0, /* no index: the one-pass reader */
    JET_KERNEL_SWAR = 1,   /* index built with 64-bit word tricks only */
    JET_KERNEL_SSE2 = 2,
    JET_KERNEL_AVX2 = 3,
    JET_KERNEL_NEON = 4,   /* aarch64 */
    JET_KERNEL_AVX512 = 5, /* x86-64 with AVX-512 F and BW */
    JET_KERNEL__COUNT
} jet_kernel;

/* The kernel chosen once per process: the best one the CPU supports, or the
 * one named by the environment variable JET_KERNEL (scalar, swar, sse2,
 * avx2, avx512, neon) when it is available. */
jet_kernel jet__kernel(void);
/* The same without a call once chosen (per document, small documents):
 * the choice, -1 until jet__kernel has made it. */
extern atomic_int jet__kernel_chosen;
static JET_ALWAYS_INLINE jet_kernel jet__kernel_now(void) {
    int k = atomic_load_explicit(&jet__kernel_chosen, memory_order_relaxed);
    return JET_LIKELY(k >= 0) ? (jet_kernel)k : jet__kernel();
}
const char *jet__kernel_name(jet_kernel k);
/* Whether kernel k can run on this CPU. */
bool jet__kernel_available(jet_kernel k);

typedef struct jet_scan_result {
    size_t words;         /* words written to each bitmap */
    size_t marks;         /* bits set in the structural bitmap */
    bool ctrl_in_string;  /* a control character inside a string (invalid) */
    bool utf8_valid;      /* every byte sequence is valid UTF-8 (all kernels check) */
} jet_scan_result;

/* Words of each bitmap for an input of len bytes. */
#define JET_SCAN_WORDS(len) (((len) + 63) / 64)

/*
 * Two layouts. The DOM reader's (jet__scan): one word per block holding
 * the marks above and also every backslash inside a string, so that the
 * mark after a string's opening quote is its closing quote exactly when
 * the string has no escape (stage 2 tests that one byte). The cursor's
 * (jet__scan_ex): the marks alone, the backslashes inside strings in a
 * bitmap of their own, and the brackets.
 */

/*
 * Indexes json[0..len) in the DOM layout into marks[0..JET_SCAN_WORDS(len))
 * and, when copy is not NULL, copies the input to copy[0..len) on the way
 * (the DOM reader's strings then need no copy of their own: read_indexed.c,
 * read_indexed_body; copy must not overlap json). Returns false when the
 * input ends inside a string (the reader reports that error). k must not
 * be JET_KERNEL_SCALAR.
 */
bool jet__scan(jet_kernel k, const char *json, size_t len, uint64_t *marks, char *copy,
               jet_scan_result *res);

/*
 * Indexes json[0..len) in the cursor's layout: `structural` the marks,
 * `backslashes` the backslashes inside strings, `brackets` the brackets
 * [ ] { } outside strings (a subset of the marks: skipping a container
 * then looks only at brackets), JET_SCAN_WORDS(len) words each, none NULL.
 * The cursor does not need the count of marks: res->marks is 0.
 */
bool jet__scan_ex(jet_kernel k, const char *json, size_t len, uint64_t *structural,
                  uint64_t *backslashes, uint64_t *brackets, jet_scan_result *res);

/*
 * Stage 1 resumed window by window, so that the reader's index need not
 * cover the whole input: the carries between blocks (inside a string, an
 * escape, a scalar run, the UTF-8 validator's last bytes) live in a
 * jet_scan_state. Begin with jet__scan_begin, then scan consecutive block
 * ranges in order.
 */
typedef struct jet_scan_state {
    _Alignas(64) unsigned char raw[256]; /* the kernel's carries (scan_generic.h) */
} jet_scan_state;

static inline void jet__scan_begin(jet_scan_state *st) { memset(st, 0, sizeof *st); }

/* Indexes blocks [first, first + n) of json[0..len) (the last partial block
 * padded internally): with brackets NULL, in the DOM layout into
 * structural[0..n) (backslashes unused), returning the marks set, and when
 * copy is not NULL the blocks' bytes copied to the same offsets of copy
 * (json's bytes alone: copy needs room for len bytes, not a padded block);
 * else in the cursor's layout into structural, backslashes and brackets,
 * returning 0 (copy must be NULL). */
size_t jet__scan_window(jet_kernel k, jet_scan_state *st, const char *json, size_t len,
                        size_t first, size_t n, uint64_t *structural, uint64_t *backslashes,
                        uint64_t *brackets, char *copy);

/* What the blocks scanned so far showed (ctrl_in_string, utf8; words and
 * marks are left alone). at_end: the whole input has been scanned, so a
 * string or a UTF-8 sequence still open is an error; returns false when the
 * input ended inside a string. */
bool jet__scan_status(jet_kernel k, const jet_scan_state *st, bool at_end, jet_scan_result *res);

#endif
