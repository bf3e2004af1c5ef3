/*
 * scan.h — stage 1: the structural index (internal).
 *
 * jet__scan classifies the input 64 bytes at a time and writes the offsets of
 * every byte the reader must look at, in order:
 *   - the structural characters { } [ ] : , outside strings,
 *   - every unescaped quote (so a string's opening quote is followed in the
 *     index by its closing quote),
 *   - the first byte of every other run of non-whitespace bytes outside
 *     strings (numbers, literals, and anything invalid).
 * Whitespace is never indexed. The reader (stage 2) validates everything
 * else; the index only tells it where to look, so that it no longer has to
 * scan for the next token one dependent step at a time.
 *
 * The classification is one generic routine (scan_generic.h) instantiated
 * for each kernel; every kernel yields the same index.
 */
#ifndef JET_SCAN_H
#define JET_SCAN_H

#include "internal.h"

typedef enum jet_kernel {
    JET_KERNEL_SCALAR = 0, /* no index: the one-pass reader */
    JET_KERNEL_SWAR = 1,   /* index built with 64-bit word tricks only */
    JET_KERNEL_SSE2 = 2,
    JET_KERNEL_AVX2 = 3,
    JET_KERNEL__COUNT
} jet_kernel;

/* The kernel chosen once per process: the best one the CPU supports, or the
 * one named by the environment variable JET_KERNEL (scalar, swar, sse2,
 * avx2) when it is available. */
jet_kernel jet__kernel(void);
const char *jet__kernel_name(jet_kernel k);
/* Whether kernel k can run on this CPU. */
bool jet__kernel_available(jet_kernel k);

/* Extra entries past the index's last one that jet__scan may write. */
#define JET_SCAN_SLACK 64

/* Largest input the index can address (offsets are 32-bit). */
#define JET_SCAN_MAX_LEN ((size_t)UINT32_MAX - 2 * JET_SCAN_SLACK)

/*
 * Writes the index of json[0..len) to out, which has room for
 * len + JET_SCAN_SLACK entries, and returns the number of entries; returns
 * SIZE_MAX when the input ends inside a string (the reader reports that
 * error). k must not be JET_KERNEL_SCALAR; len <= JET_SCAN_MAX_LEN.
 */
size_t jet__scan(jet_kernel k, const char *json, size_t len, uint32_t *out);

#endif
