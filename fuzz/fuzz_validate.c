/* fuzz_validate.c — libFuzzer target for jet_od_validate.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_validate
 *   build-fuzz/fuzz/fuzz_validate -max_total_time=60
 *
 * Input: one flag byte, then the document. The document (an exact-size heap
 * copy) is validated with jet_od_validate and jet_validate, and parsed by
 * the DOM reader under the same flags and a depth limit taken from the flag
 * byte, on a kernel chosen by the document's first byte; the verdicts must
 * agree, and a rejection must carry the DOM reader's error (code, offset,
 * line, column) in all three and in jet_decode with JET_READ_VALIDATE_ALL
 * (one error per input, issue 23).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"
#include "internal.h" /* jet__od_window_set */
#include "decode_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static jet_od *od;
    static jet_parser *parser;
    if (!od) od = jet_od_new(NULL);
    if (!parser) parser = jet_parser_new(NULL);
    if (!od || !parser || size == 0) return 0;
    uint8_t f = data[0];
    /* the cursor's index in windows of 2 x 1 to 2 x 4 words for three
     * inputs in four */
    jet__od_window_set(size > 1 && size <= 4096 && (data[1] & 3) ? 1 + (size_t)((data[1] >> 2) & 3)
                                                                  : 0);
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    if (f & 1) opts.flags |= JET_READ_ALLOW_NAN_INF;
    if (f & 2) opts.flags |= JET_READ_ALLOW_INVALID_UTF8;
    if (f & 4) opts.flags |= JET_READ_BIGNUM_AS_RAW;
    if (f & 8) opts.flags |= JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS;
    if (f & 16) opts.max_depth = 1u + (f >> 5);
    static const char *const kernels[] = {"scalar", "swar", "sse2", "avx2", "avx512", "neon"};
    static char default_kernel[16];
    if (!default_kernel[0]) strncpy(default_kernel, jet_kernel_name(), sizeof default_kernel - 1);
    if (size < 2 || !jet_kernel_set(kernels[(data[1] >> 4) % 6])) jet_kernel_set(default_kernel);
    size_t len = size - 1;
    char *doc = (char *)malloc(len ? len : 1);
    if (!doc) return 0;
    memcpy(doc, data + 1, len);
    jet_error de;
    memset(&de, 0, sizeof de);
    bool dom = jet_parser_parse(parser, doc, len, &opts, &de) != NULL;
    bool val = jet_od_validate(od, doc, len, &opts);
    if (dom != val) abort();
    const jet_error *e = jet_od_error(od);
    if (!val && (e->code == JET_OK || !e->msg || e->offset > len || e->line == 0 || e->column == 0)) abort();
    if (val && e->code != JET_OK) abort();
    if (!dom) {
        if (!same_error_place(e, &de)) abort();
        jet_error ve;
        if (jet_validate(doc, len, &opts, NULL, &ve) || !same_error_place(&ve, &de)) abort();
        jet_read_opts all = opts;
        all.flags |= JET_READ_VALIDATE_ALL;
        decode_target out;
        jet_error te;
        if (jet_decode(od, doc, len, &decode_target_type, &out, NULL, &all, &te) || !same_error_place(&te, &de)) abort();
    } else if (!jet_validate(doc, len, &opts, NULL, NULL)) {
        abort();
    }
    free(doc);
    return 0;
}
