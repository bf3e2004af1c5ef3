/* fuzz_kernels.c — libFuzzer target: every reader kernel agrees with the
 * one-pass "scalar" reader.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_kernels
 *   build-fuzz/fuzz/fuzz_kernels -max_total_time=60
 *
 * Each input (an exact-size heap copy: no NUL, no padding) is read by the
 * scalar reader and by every index kernel the CPU has, under two flag sets
 * chosen from the input's first byte, the second time with an index window
 * of 1 to 4 blocks (from the second byte), so that window boundaries fall
 * inside strings, escapes, numbers and UTF-8 sequences. The outcomes must be identical: the
 * same slots (tags, payloads, string bytes) when accepted, the same code,
 * offset, line, column and message when rejected, and no document re-read
 * by the one-pass reader after the index route rejected it (a silent
 * defect, see jet__index_rereads). Stage 1 on its own must
 * never read outside the input (ASan) and must agree between kernels
 * (bitmaps, counts, UTF-8 verdicts).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"
#include "oracle/doc_compare.h"
#include "scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const index_kernels[] = {"swar", "sse2", "avx2", "avx512", "neon"};

static jet_parser *parsers[2];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!parsers[0]) {
        parsers[0] = jet_parser_new(NULL);
        parsers[1] = jet_parser_new(NULL);
        if (!parsers[0] || !parsers[1]) abort();
    }
    char *in = (char *)malloc(size ? size : 1);
    if (!in) return 0;
    if (size) memcpy(in, data, size);

    /* Stage 1 alone: kernels agree on the bitmaps, in both layouts, and on
     * the copy. */
    size_t words = JET_SCAN_WORDS(size);
    uint64_t *ref = (uint64_t *)malloc(4 * (words + 1) * sizeof(uint64_t));
    uint64_t *got = (uint64_t *)malloc(4 * (words + 1) * sizeof(uint64_t));
    char *copy = (char *)malloc(size ? size : 1);
    if (ref && got && copy && size) {
        jet_scan_result rr, rx, rg;
        bool ok_ref = jet__scan(JET_KERNEL_SWAR, in, size, ref, NULL, &rr);
        bool okx_ref = jet__scan_ex(JET_KERNEL_SWAR, in, size, ref + words, ref + 2 * words,
                                    ref + 3 * words, &rx);
        if (okx_ref != ok_ref) abort();
        for (int k = JET_KERNEL_SSE2; k < JET_KERNEL__COUNT; k++) {
            if (!jet__kernel_available((jet_kernel)k)) continue;
            bool ok = jet__scan((jet_kernel)k, in, size, got, copy, &rg);
            if (ok != ok_ref) abort();
            if (ok && (rg.words != rr.words || rg.marks != rr.marks ||
                       rg.ctrl_in_string != rr.ctrl_in_string ||
                       rg.utf8_valid != rr.utf8_valid ||
                       memcmp(ref, got, words * sizeof(uint64_t)) != 0 ||
                       memcmp(copy, in, size) != 0)) {
                fprintf(stderr, "fuzz_kernels: stage 1 of %s differs from swar\n",
                        jet__kernel_name((jet_kernel)k));
                abort();
            }
            ok = jet__scan_ex((jet_kernel)k, in, size, got + words, got + 2 * words,
                              got + 3 * words, &rg);
            if (ok != ok_ref) abort();
            if (ok && memcmp(ref + words, got + words, 3 * words * sizeof(uint64_t)) != 0) {
                fprintf(stderr, "fuzz_kernels: stage 1 (cursor layout) of %s differs from swar\n",
                        jet__kernel_name((jet_kernel)k));
                abort();
            }
        }
    }
    free(copy);
    free(ref);
    free(got);

    /* The whole reader. */
    jet_read_flags sets[2] = {0, 0};
    if (size) {
        uint8_t c = data[0];
        if (c & 1) sets[1] |= JET_READ_ALLOW_TRAILING_COMMAS;
        if (c & 2) sets[1] |= JET_READ_ALLOW_NAN_INF;
        if (c & 4) sets[1] |= JET_READ_ALLOW_INVALID_UTF8;
        if (c & 8) sets[1] |= JET_READ_BIGNUM_AS_RAW;
        if (c & 16) sets[1] |= JET_READ_NUMBER_AS_RAW;
        if (c & 32) sets[1] |= JET_READ_ALLOW_COMMENTS;
    }
    for (int s = 0; s < 2; s++) {
        jet_read_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.flags = sets[s];
        if (s == 1 && size > 1) opts.max_depth = (uint32_t)(data[1] & 7); /* 0: default */
        jet__index_window_set(s == 1 && size > 1 ? 1 + ((size_t)data[1] >> 6) : 0);
        jet_error eref, eg;
        if (!jet_kernel_set("scalar")) abort();
        jet_doc *dref = jet_parser_parse(parsers[0], in, size, &opts, &eref);
        for (size_t k = 0; k < sizeof index_kernels / sizeof index_kernels[0]; k++) {
            if (!jet_kernel_set(index_kernels[k])) continue;
            size_t rereads = jet__index_rereads();
            jet_doc *dg = jet_parser_parse(parsers[1], in, size, &opts, &eg);
            if (jet__index_rereads() != rereads) {
                fprintf(stderr, "fuzz_kernels: kernel %s rejected a document the one-pass reader "
                                "accepts (flags %#x)\n",
                        index_kernels[k], (unsigned)opts.flags);
                abort();
            }
            doc_diff diff = {{index_kernels[k], "scalar reader"}, "", ""};
            if (!doc_same_outcome(dg, &eg, dref, &eref, DOC_SAME_SLOTS, &diff)) {
                fprintf(stderr, "fuzz_kernels: kernel %s differs from scalar (flags %#x) at '%s': %s\n",
                        index_kernels[k], (unsigned)opts.flags, diff.where, diff.why);
                abort();
            }
        }
    }
    jet__index_window_set(0);
    free(in);
    return 0;
}
