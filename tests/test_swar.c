/*
 * test_swar.c — the word-at-a-time (SWAR) routines of src/bits.h (and
 * jet__hex4 of src/utf8.h) against
 * byte-at-a-time references, on both byte orders on any host.
 *
 * Every SWAR routine works on little-endian words (the first byte in the
 * low bits); a word comes from jet__load_le64, or from a native load made
 * little-endian by jet__le64_of_native(x, JET_BIG_ENDIAN). The checks here
 * build each word twice, as a little-endian and as a big-endian host's
 * native load would see the same 8 bytes, and run the library's own inline
 * code on both with the byte order passed explicitly: a mistake that only
 * shows on one byte order (the writer once took the highest escape flag of
 * a big-endian word, which borrows make wrong) fails on x86-64 as well.
 * The end-to-end checks run the writer's escaper (jet__escape_run) on every
 * alignment against its own byte-at-a-time loop; on a big-endian host (the
 * s390x CI step) they test the real native loads.
 */
#include "bits.h"
#include "check.h"
#include "internal.h"
#include "utf8.h" /* jet__hex4 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { LITTLE, BIG };
static const char *const order_names[] = {"little-endian", "big-endian"};

/* The 8 bytes as the native load of a host of the given byte order. */
static uint64_t native_word(const unsigned char *b, int order) {
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) x |= (uint64_t)b[i] << (8 * (order == BIG ? 7 - i : i));
    return x;
}

/* xorshift64: reproducible pseudo-random bytes. */
static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Bytes next to the edges of every test the SWAR code makes. */
static const unsigned char edge_bytes[] = {0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, '"', '#',
                                           '.',  '/',  '0',  '5',  '9',  ':',  '[',  '\\', ']',
                                           'e',  0x7F, 0x80, 0xC3, 0xE2, 0xFF};
enum { EDGE_COUNT = sizeof edge_bytes };

static unsigned char random_byte(void) {
    uint64_t r = rng();
    return (r & 1) ? edge_bytes[(r >> 8) % EDGE_COUNT] : (unsigned char)(r >> 16);
}

/* ---- loads and byte order ---- */

static void test_loads(void) {
    static const char bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK(jet__load_le64(bytes) == UINT64_C(0x0807060504030201));
    CHECK(jet__load_le32(bytes) == UINT32_C(0x04030201));
    CHECK(jet__bswap64(UINT64_C(0x0102030405060708)) == UINT64_C(0x0807060504030201));
    uint64_t native;
    memcpy(&native, bytes, 8);
    CHECK_MSG(jet__le64_of_native(native, JET_BIG_ENDIAN) == jet__load_le64(bytes),
              "JET_BIG_ENDIAN (%d) is not this host's byte order", JET_BIG_ENDIAN);
    for (int order = LITTLE; order <= BIG; order++)
        CHECK_MSG(jet__le64_of_native(native_word((const unsigned char *)bytes, order),
                                      order == BIG) == UINT64_C(0x0807060504030201),
                  "%s native word not made little-endian", order_names[order]);
}

/* ---- the writer's escape scan ---- */

typedef struct escape_mode {
    jet_write_flags flags;
    bool slash, ascii;
} escape_mode;

static const escape_mode modes[] = {
    {0, false, false},
    {JET_WRITE_ESCAPE_SLASHES, true, false},
    {JET_WRITE_ASCII, false, true},
    {JET_WRITE_ESCAPE_SLASHES | JET_WRITE_ASCII, true, true},
};

static bool needs_escape(unsigned char c, const escape_mode *m) {
    return c < 0x20 || c == '"' || c == '\\' || (m->slash && c == '/') || (m->ascii && c >= 0x80);
}

/* The writer's word step (writer.c escape_run) on the 8 bytes, loaded as a
 * host of `order` would: the index of the first byte to escape, 8 if none. */
static unsigned escape_index_swar(const unsigned char *b, int order, const jet__wopt *o) {
    uint64_t le = jet__le64_of_native(native_word(b, order), order == BIG);
    uint64_t flags = jet__swar_escape_flags(le, o->slash_pat, o->hi_mask);
    return flags ? jet__swar_first_flagged(flags) : 8;
}

static unsigned escape_index_bytes(const unsigned char *b, const escape_mode *m) {
    unsigned i = 0;
    while (i < 8 && !needs_escape(b[i], m)) i++;
    return i;
}

static unsigned long escape_words_checked;

static void check_escape_word(const unsigned char *b, const escape_mode *m, const jet__wopt *o) {
    unsigned want = escape_index_bytes(b, m);
    for (int order = LITTLE; order <= BIG; order++) {
        unsigned got = escape_index_swar(b, order, o);
        CHECK_MSG(got == want,
                  "escape scan, %s, flags 0x%x: %02x %02x %02x %02x %02x %02x %02x %02x: "
                  "first escape at %u, byte-at-a-time says %u",
                  order_names[order], (unsigned)m->flags, b[0], b[1], b[2], b[3], b[4], b[5],
                  b[6], b[7], got, want);
        /* jet_encode's word test (encode.c esc8) asks only "any byte?", on
         * the native word without a byte swap: exact on either order */
        bool any = jet__swar_escape_flags(native_word(b, order), o->slash_pat, o->hi_mask) != 0;
        CHECK_MSG(any == (want < 8),
                  "encode's word test, %s, flags 0x%x: %02x %02x %02x %02x %02x %02x %02x %02x: "
                  "%s, byte-at-a-time says %s",
                  order_names[order], (unsigned)m->flags, b[0], b[1], b[2], b[3], b[4], b[5],
                  b[6], b[7], any ? "escape" : "none", want < 8 ? "escape" : "none");
    }
    escape_words_checked++;
}

static void test_escape_words(void) {
    for (size_t mi = 0; mi < sizeof modes / sizeof modes[0]; mi++) {
        const escape_mode *m = &modes[mi];
        jet__wopt o;
        jet__wopt_init(m->flags, &o);
        unsigned char b[8];
        /* every byte value at every position, in plain text */
        for (unsigned pos = 0; pos < 8; pos++)
            for (unsigned c = 0; c < 256; c++) {
                memset(b, 'a', 8);
                b[pos] = (unsigned char)c;
                check_escape_word(b, m, &o);
            }
        /* every pair of edge bytes at every pair of positions: a byte
         * before an escape, where borrows leave false flags (' ' '\n') */
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = i + 1; j < 8; j++)
                for (unsigned x = 0; x < EDGE_COUNT; x++)
                    for (unsigned y = 0; y < EDGE_COUNT; y++) {
                        memset(b, 'a', 8);
                        b[i] = edge_bytes[x];
                        b[j] = edge_bytes[y];
                        check_escape_word(b, m, &o);
                    }
        for (unsigned n = 0; n < 20000; n++) {
            for (unsigned k = 0; k < 8; k++) b[k] = random_byte();
            check_escape_word(b, m, &o);
        }
    }
    printf("test_swar: escape scan: %lu words, each on both byte orders\n",
           escape_words_checked);
}

/* The escaper itself on strings at every alignment, against its own loop
 * taken one byte at a time (stop = p + 1 never reaches the word step). */
static void check_escape_run(const char *s, size_t n, const escape_mode *m, const jet__wopt *o) {
    size_t room = 6 * n + 16;
    char *fast = (char *)malloc(room), *slow = (char *)malloc(room);
    if (!fast || !slow) abort();
    const char *p = s;
    char *fe = jet__escape_run(fast, &p, s + n, s + n, o);
    const char *fast_stop = p;
    char *se = slow;
    for (p = s; se && p < s + n;) se = jet__escape_run(se, &p, p + 1, s + n, o);
    if (!fe || !se) {
        /* invalid UTF-8 that ASCII mode may not replace: both refuse */
        CHECK_MSG(!fe && !se && o->ascii && !o->replace_invalid,
                  "escape_run, flags 0x%x, %zu bytes: the word step %s, byte-at-a-time %s",
                  (unsigned)m->flags, n, fe ? "went on" : "stopped", se ? "went on" : "stopped");
    } else {
        size_t fl = (size_t)(fe - fast), sl = (size_t)(se - slow);
        CHECK_MSG(fast_stop == s + n && fl == sl && memcmp(fast, slow, sl) == 0,
                  "escape_run, flags 0x%x, %zu bytes: \"%.*s\" instead of \"%.*s\"",
                  (unsigned)m->flags, n, (int)fl, fast, (int)sl, slow);
    }
    free(fast);
    free(slow);
}

static void test_escape_runs(void) {
    /* twitter.json's first victim: a space before an escape */
    static const char *const samples[] = {
        "@aym0566x \n\xe5\x90\x8d\xe5\x89\x8d:\xe5\x89\x8d\xe7\x94\xb0",
        "a b \t c \" d \\ e / f \x01 g\x7f\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 end",
        "        \n", "       \"", "      \\ ", "\x1f\x20\x21\x22\x5b\x5c\x5d\x2f\x2e",
    };
    char buf[64];
    for (size_t mi = 0; mi < 2 * sizeof modes / sizeof modes[0]; mi++) {
        /* each mode as it is, then with invalid UTF-8 replaced in ASCII mode
         * (else the run stops there: JET_ERR_UTF8 for the writers) */
        const escape_mode *m = &modes[mi % (sizeof modes / sizeof modes[0])];
        jet__wopt o;
        jet__wopt_init(m->flags | (mi >= sizeof modes / sizeof modes[0]
                                       ? JET_WRITE_REPLACE_INVALID_UTF8 : 0), &o);
        for (size_t si = 0; si < sizeof samples / sizeof samples[0]; si++) {
            size_t n = strlen(samples[si]);
            for (size_t off = 0; off < 8; off++) {
                memset(buf, 'x', sizeof buf);
                memcpy(buf + off, samples[si], n);
                check_escape_run(buf, off + n, m, &o);
            }
        }
        for (unsigned t = 0; t < 4000; t++) {
            size_t n = 1 + (size_t)(rng() % 40);
            for (size_t k = 0; k < n; k++) buf[k] = (char)random_byte();
            check_escape_run(buf, n, m, &o);
        }
    }
}

/* ---- decimal digits ---- */

static void check_digit_word(const unsigned char *b) {
    unsigned want = 0;
    while (want < 8 && b[want] >= '0' && b[want] <= '9') want++;
    uint64_t value = 0;
    for (unsigned i = 0; i < want; i++) value = value * 10 + (uint64_t)(b[i] - '0');
    for (int order = LITTLE; order <= BIG; order++) {
        uint64_t t = jet__le64_of_native(native_word(b, order), order == BIG) - JET_SWAR_ZEROS;
        unsigned run = jet__swar_digit_run(t);
        CHECK_MSG(run == want, "digit run, %s: \"%.8s\": %u digits, byte-at-a-time says %u",
                  order_names[order], (const char *)b, run, want);
        uint64_t bad = jet__swar_nondigits(t);
        if (want < 8) {
            /* the bytes below the first non-digit, and their value */
            uint64_t below = jet__swar_below(bad);
            CHECK(below == (want ? UINT64_MAX >> (64 - 8 * want) : 0));
            if (want) {
                uint64_t top = (t & below) << (64 - 8 * want); /* digits at the top, zeros below */
                CHECK_MSG(jet__swar_digits8(top) == value, "digits8, %s: \"%.8s\"",
                          order_names[order], (const char *)b);
            }
        } else {
            CHECK_MSG(bad == 0 && jet__swar_digits8(t) == value, "digits8, %s: \"%.8s\"",
                      order_names[order], (const char *)b);
        }
    }
    /* the loader the number readers use, on this host */
    CHECK(jet__swar_digit_run(jet__load_le64((const char *)b) - JET_SWAR_ZEROS) == want);
}

static void test_digits(void) {
    unsigned char b[8];
    for (unsigned pos = 0; pos < 8; pos++)
        for (unsigned c = 0; c < 256; c++) {
            memcpy(b, "12345678", 8);
            b[pos] = (unsigned char)c;
            check_digit_word(b);
        }
    for (unsigned n = 0; n < 20000; n++) {
        for (unsigned k = 0; k < 8; k++) {
            uint64_t r = rng();
            b[k] = (r & 3) ? (unsigned char)('0' + (r >> 8) % 10) : random_byte();
        }
        check_digit_word(b);
    }
}

/* jet__hex4 (src/utf8.h) against a digit-by-digit reference: every byte at
 * every position among valid digits, and random mixes of hex digits, their
 * neighbours ('/', ':', '@', 'G', '`', 'g') and any byte. */
static int32_t hex4_reference(const unsigned char *b) {
    int32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int c = b[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        v = v * 16 + d;
    }
    return v;
}

static void test_hex4(void) {
    static const char near_hex[] = "0123456789abcdefABCDEF/:@G`g";
    unsigned char b[4];
    for (unsigned pos = 0; pos < 4; pos++)
        for (unsigned c = 0; c < 256; c++) {
            memcpy(b, "09aF", 4);
            b[pos] = (unsigned char)c;
            CHECK(jet__hex4((const char *)b) == hex4_reference(b));
        }
    for (unsigned n = 0; n < 200000; n++) {
        for (unsigned k = 0; k < 4; k++) {
            uint64_t r = rng();
            b[k] = (r & 7) ? (unsigned char)near_hex[(r >> 8) % (sizeof near_hex - 1)] : random_byte();
        }
        CHECK(jet__hex4((const char *)b) == hex4_reference(b));
    }
}

int main(void) {
    test_loads();
    test_hex4();
    test_escape_words();
    test_escape_runs();
    test_digits();
    return CHECK_DONE("test_swar");
}
