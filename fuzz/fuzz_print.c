/*
 * fuzz_print.c — libFuzzer target for src/num_print.c.
 *
 * The first 8 bytes are a binary64 bit pattern, the next 4 (or the first 4
 * when the input is shorter than 12 bytes) a binary32 bit pattern, and the
 * first 8 bytes also feed the integer writers. Each value is printed and
 * checked:
 *   - the result reads back (strtod / strtof) to the same bits;
 *   - finite values contain '.' or 'e'; NaN and the infinities print as
 *     "NaN", "Infinity", "-Infinity";
 *   - the returned length is strlen() and within JET_NUM_F64_MAX_CHARS;
 *   - at most 17 (binary64) / 9 (binary32) significant digits;
 *   - integers read back with strtoull / strtoll.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *       src/num_print.c fuzz/fuzz_print.c -o fuzz_print && ./fuzz_print
 */
#include "num.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int sig_digits(const char *s) {
    int n = 0, started = 0, trailing = 0;
    for (; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9') continue;
        if (*s != '0') started = 1;
        if (!started) continue;
        n++;
        trailing = *s == '0' ? trailing + 1 : 0;
    }
    return n - trailing;
}

static void check_text(const char *buf, size_t n, int finite, int maxdig) {
    if (n > JET_NUM_F64_MAX_CHARS || strlen(buf) != n) abort();
    if (finite) {
        if (!strchr(buf, '.') && !strchr(buf, 'e')) abort();
        if (sig_digits(buf) > maxdig) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char buf[JET_NUM_F64_MAX_CHARS + 1];
    if (size >= 8) {
        uint64_t b;
        double d;
        memcpy(&b, data, 8);
        memcpy(&d, &b, 8);
        size_t n = jet_num_write_f64(d, buf);
        int finite = ((b >> 52) & 0x7ff) != 0x7ff;
        check_text(buf, n, finite, 17);
        if (finite || (b & ((UINT64_C(1) << 52) - 1)) == 0) {
            double back = strtod(buf, NULL);
            uint64_t bb;
            memcpy(&bb, &back, 8);
            if (bb != b) abort();
        } else if (strcmp(buf, "NaN") != 0) {
            abort();
        }

        char ibuf[JET_NUM_INT_MAX_CHARS + 1];
        n = jet_num_write_u64(b, ibuf);
        if (n != strlen(ibuf) || n > JET_NUM_INT_MAX_CHARS) abort();
        if (strtoull(ibuf, NULL, 10) != b) abort();
        int64_t i;
        memcpy(&i, &b, 8);
        n = jet_num_write_i64(i, ibuf);
        if (n != strlen(ibuf) || n > JET_NUM_INT_MAX_CHARS) abort();
        if (strtoll(ibuf, NULL, 10) != i) abort();
    }
    if (size >= 4) {
        uint32_t b;
        float f;
        memcpy(&b, data + (size >= 12 ? 8 : 0), 4);
        memcpy(&f, &b, 4);
        size_t n = jet_num_write_f32(f, buf);
        int finite = ((b >> 23) & 0xff) != 0xff;
        check_text(buf, n, finite, 9);
        if (finite || (b & ((UINT32_C(1) << 23) - 1)) == 0) {
            float back = strtof(buf, NULL);
            uint32_t bb;
            memcpy(&bb, &back, 4);
            if (bb != b) abort();
        } else if (strcmp(buf, "NaN") != 0) {
            abort();
        }
    }
    return 0;
}
