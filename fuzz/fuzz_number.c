/* fuzz_number.c — libFuzzer target for jet_num_parse / jet_num_parse_f32.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *       src/num_parse.c fuzz/fuzz_number.c -o fuzz_number -lm
 *   ./fuzz_number -max_total_time=30
 *
 * Each input is copied into a heap buffer of exactly its size (no NUL, no
 * padding) so ASan catches any read past `end`. Checks:
 *   - the same input followed by 64 commas (the inline fast path's margin)
 *     parses the same way;
 *   - acceptance, consumed length, error code and error position agree with
 *     an independent grammar scanner;
 *   - accepted values equal strtod/strtof (C locale) of the consumed text,
 *     bit for bit; integers equal strtoull/strtoll and have the right kind;
 *   - the RAW flags and ALLOW_NAN_INF behave consistently with the default.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *s, size_t n) {
    fprintf(stderr, "fuzz_number: %s on input \"%.*s\" (%zu bytes)\n", what, (int)(n > 300 ? 300 : n), s, n);
    abort();
}

static int dig(char c) { return c >= '0' && c <= '9'; }

/* Reference grammar: returns 1 and *len on success, else 0 with code/pos. */
static int ref_scan(const char *s, size_t n, size_t *len, jet_code *code, size_t *pos, int *is_int) {
    size_t i = 0;
    *is_int = 1;
#define REF_FAIL(c, at)  \
    do {                 \
        *code = (c);     \
        *pos = (at);     \
        return 0;        \
    } while (0)
    if (i < n && s[i] == '-') i++;
    if (i == n) REF_FAIL(JET_ERR_TRUNCATED, i);
    if (s[i] == '0') {
        i++;
        if (i < n && dig(s[i])) REF_FAIL(JET_ERR_NUMBER, i);
    } else if (dig(s[i])) {
        while (i < n && dig(s[i])) i++;
    } else {
        REF_FAIL(JET_ERR_NUMBER, i);
    }
    if (i < n && s[i] == '.') {
        *is_int = 0;
        i++;
        if (i == n) REF_FAIL(JET_ERR_TRUNCATED, i);
        if (!dig(s[i])) REF_FAIL(JET_ERR_NUMBER, i);
        while (i < n && dig(s[i])) i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        *is_int = 0;
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        if (i == n) REF_FAIL(JET_ERR_TRUNCATED, i);
        if (!dig(s[i])) REF_FAIL(JET_ERR_NUMBER, i);
        while (i < n && dig(s[i])) i++;
    }
    *len = i;
    return 1;
#undef REF_FAIL
}

static uint64_t dbits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
static uint32_t fbits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/*
 * jet_num_parse finishes most numbers on an inline fast path that reads
 * whole words when at least 64 bytes follow the number's first byte; an
 * input of exactly `size` bytes only reaches it when it is that long. So the
 * input is parsed again followed by 64 commas and must give the same
 * result, except that where the exact one ran into the end of the input
 * (JET_ERR_TRUNCATED at `size`) the padded one stops at the first comma.
 */
static void check_padded(const char *buf, size_t size, jet_read_flags flags, const char *r,
                         const jet_num *num, jet_code code, const char *err_at) {
    char *pad = (char *)malloc(size + 64);
    memcpy(pad, buf, size);
    memset(pad + size, ',', 64);
    jet_num n2;
    jet_code c2 = JET_OK;
    const char *at2 = NULL;
    const char *r2 = jet_num_parse(pad, pad + size + 64, flags, &n2, &c2, &at2);
    if (r) {
        if (!r2 || r2 - pad != r - buf || n2.kind != num->kind ||
            (num->kind != JET_NUM_RAW && n2.v.u != num->v.u))
            fail("padded input parsed differently", buf, size);
    } else if (code == JET_ERR_TRUNCATED && (size_t)(err_at - buf) == size) {
        if (r2 || (size_t)(at2 - pad) != size || c2 == JET_ERR_TRUNCATED)
            fail("padded truncated input: wrong error", buf, size);
    } else if (r2 || c2 != code || at2 - pad != err_at - buf) {
        fail("padded input: different error", buf, size);
    }
    free(pad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int init;
    if (!init) {
        setlocale(LC_ALL, "C");
        init = 1;
    }
    if (size == 0) return 0;
    char *buf = (char *)malloc(size);
    memcpy(buf, data, size);
    const char *end = buf + size;

    size_t rlen = 0, rpos = 0;
    jet_code rcode = JET_OK;
    int is_int = 0;
    int ref_ok = ref_scan(buf, size, &rlen, &rcode, &rpos, &is_int);

    jet_num num;
    jet_code code = JET_OK;
    const char *err_at = NULL;
    const char *r = jet_num_parse(buf, end, 0, &num, &code, &err_at);
    check_padded(buf, size, 0, r, &num, code, err_at);

    if (!ref_ok) {
        if (r) fail("accepted invalid number", buf, size);
        if (code != rcode || (size_t)(err_at - buf) != rpos) fail("wrong error code/position", buf, size);
        /* The other flags do not change the grammar. */
        if (jet_num_parse(buf, end, JET_READ_NUMBER_AS_RAW, &num, &code, &err_at)) fail("RAW accepted invalid", buf, size);
        float f;
        if (jet_num_parse_f32(buf, end, &f, &code, &err_at)) fail("f32 accepted invalid", buf, size);
        if (code != rcode || (size_t)(err_at - buf) != rpos) fail("f32 wrong error code/position", buf, size);
        free(buf);
        return 0;
    }

    /* NUL-terminated copy of the consumed text for the C library. */
    char *txt = (char *)malloc(rlen + 1);
    memcpy(txt, buf, rlen);
    txt[rlen] = 0;
    int neg = txt[0] == '-';

    double want = strtod(txt, NULL);
    if (!r) {
        if (code != JET_ERR_NUMBER_RANGE || err_at != buf || !isinf(want)) fail("valid number rejected", buf, size);
    } else {
        if ((size_t)(r - buf) != rlen) fail("wrong length", buf, size);
        switch (num.kind) {
        case JET_NUM_UINT: {
            errno = 0;
            unsigned long long u = strtoull(txt, NULL, 10);
            if (!is_int || neg || errno || u != num.v.u) fail("bad UINT", buf, size);
            break;
        }
        case JET_NUM_SINT: {
            errno = 0;
            long long i = strtoll(txt, NULL, 10);
            if (!is_int || !neg || errno || i != num.v.i || i == 0) fail("bad SINT", buf, size);
            break;
        }
        case JET_NUM_REAL: {
            if (dbits(num.v.d) != dbits(want)) fail("double mismatch with strtod", buf, size);
            if (is_int) {
                /* Only -0 and integers outside int64/uint64 become REAL. */
                errno = 0;
                if (neg) {
                    long long i = strtoll(txt, NULL, 10);
                    if (!errno && i != 0) fail("fitting SINT returned as REAL", buf, size);
                } else {
                    (void)strtoull(txt, NULL, 10);
                    if (!errno) fail("fitting UINT returned as REAL", buf, size);
                }
            }
            break;
        }
        default: fail("RAW without flags", buf, size);
        }
    }

    /* BIGNUM_AS_RAW: overflow and non-fitting integers become RAW. */
    jet_num n2;
    const char *r2 = jet_num_parse(buf, end, JET_READ_BIGNUM_AS_RAW, &n2, &code, &err_at);
    if (!r2 || (size_t)(r2 - buf) != rlen) fail("BIGNUM_AS_RAW rejected/length", buf, size);
    if (!r || (is_int && num.kind == JET_NUM_REAL && !(want == 0))) {
        if (n2.kind != JET_NUM_RAW) fail("BIGNUM_AS_RAW not RAW", buf, size);
    } else if (n2.kind != num.kind || n2.v.u != num.v.u) {
        fail("BIGNUM_AS_RAW changed a value", buf, size);
    }
    /* NUMBER_AS_RAW: same grammar, always RAW. */
    r2 = jet_num_parse(buf, end, JET_READ_NUMBER_AS_RAW, &n2, &code, &err_at);
    if (!r2 || (size_t)(r2 - buf) != rlen || n2.kind != JET_NUM_RAW) fail("NUMBER_AS_RAW", buf, size);
    /* ALLOW_NAN_INF changes nothing for ordinary numbers. */
    r2 = jet_num_parse(buf, end, JET_READ_ALLOW_NAN_INF, &n2, &code, &err_at);
    if ((r2 != NULL) != (r != NULL) || (r2 && (n2.kind != num.kind || n2.v.u != num.v.u)))
        fail("ALLOW_NAN_INF changed a value", buf, size);

    /* binary32, correctly rounded directly from the decimal. */
    float f, wantf = strtof(txt, NULL);
    const char *r3 = jet_num_parse_f32(buf, end, &f, &code, &err_at);
    if (!r3) {
        if (code != JET_ERR_NUMBER_RANGE || err_at != buf || !isinf(wantf)) fail("f32 valid number rejected", buf, size);
    } else {
        if ((size_t)(r3 - buf) != rlen) fail("f32 wrong length", buf, size);
        if (fbits(f) != fbits(wantf)) fail("float mismatch with strtof", buf, size);
    }

    free(txt);
    free(buf);
    return 0;
}
