/*
 * test_kernels.c — every reader kernel gives the same results.
 *
 * 1. Stage 1: each index kernel's output equals a byte-at-a-time reference
 *    indexer (random JSON-like inputs of every length around the 64-byte
 *    block size, and the corpora).
 * 2. Whole reader: for each kernel, the conformance files, the corpora,
 *    truncations and byte mutations of the corpora and random inputs give
 *    the same outcome as the one-pass "scalar" reader: the same document
 *    slot by slot, or the same error code, offset, line, column and message,
 *    under several flag combinations.
 * 3. No kernel reads past the input: documents of every length up to 300
 *    bytes that end where an inaccessible page begins (and start where one
 *    ends), read by the DOM reader, the validator and the cursor.
 */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <dirent.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "jet.h"
#include "oracle/doc_compare.h"
#include "scan.h"

static const char *const kernels[] = {"swar", "sse2", "avx2", "avx512", "neon"};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ---- 1. stage 1 against a reference ------------------------------------ */

static size_t reference_index(const char *json, size_t len, uint32_t *out) {
    size_t n = 0;
    bool escape_next = false, in_string = false, prev_other = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)json[i];
        bool escaped = escape_next;
        escape_next = (c == '\\' && !escaped);
        if (c == '"' && !escaped) {
            out[n++] = (uint32_t)i;
            in_string = !in_string;
            prev_other = false;
            continue;
        }
        if (in_string) continue;
        bool op = c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',';
        bool ws = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        if (op) out[n++] = (uint32_t)i;
        if (!op && !ws && !prev_other) out[n++] = (uint32_t)i;
        prev_other = !op && !ws;
    }
    return in_string ? SIZE_MAX : n;
}

/* Backslashes inside strings (as a bitmap, when it fits in `cap` words) and
 * whether a control character stands inside a string: the same string
 * tracking as reference_index. */
static bool reference_string_bytes(const char *json, size_t len, uint64_t *bs, size_t cap) {
    bool escape_next = false, in_string = false, ctrl = false;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)json[i];
        bool escaped = escape_next;
        escape_next = (c == '\\' && !escaped);
        if (c == '"' && !escaped) {
            in_string = !in_string;
            continue;
        }
        if (!in_string) continue;
        if (c < 0x20) ctrl = true;
        if (c == '\\' && i / 64 < cap) bs[i / 64] |= 1ull << (i % 64);
    }
    return ctrl;
}

/* RFC 3629 validity, byte by byte. */
static bool utf8_reference(const char *json, size_t len) {
    const unsigned char *p = (const unsigned char *)json, *end = p + len;
    while (p < end) {
        unsigned c = *p;
        size_t n;
        unsigned lo = 0x80, hi = 0xBF;
        if (c < 0x80) { p++; continue; }
        if (c >= 0xC2 && c <= 0xDF) n = 2;
        else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        else return false;
        if ((size_t)(end - p) < n) return false;
        if (p[1] < lo || p[1] > hi) return false;
        for (size_t i = 2; i < n; i++)
            if ((p[i] & 0xC0) != 0x80) return false;
        p += n;
    }
    return true;
}

static unsigned long scan_mismatch_reports;

static void check_scan(const char *json, size_t len, const char *what) {
    uint32_t *ref = (uint32_t *)malloc((len + 1) * sizeof(uint32_t));
    size_t words = JET_SCAN_WORDS(len);
    uint64_t *want = (uint64_t *)calloc(words + 1, sizeof(uint64_t));
    uint64_t *want_bs = (uint64_t *)calloc(words + 1, sizeof(uint64_t));
    uint64_t *want_br = (uint64_t *)calloc(words + 1, sizeof(uint64_t));
    uint64_t *got = (uint64_t *)malloc((words + 1) * sizeof(uint64_t));
    uint64_t *got_bs = (uint64_t *)malloc((words + 1) * sizeof(uint64_t));
    uint64_t *got_br = (uint64_t *)malloc((words + 1) * sizeof(uint64_t));
    char *copy = (char *)malloc(len + 1);
    size_t nref = reference_index(json, len, ref);
    if (nref != SIZE_MAX)
        for (size_t i = 0; i < nref; i++) {
            want[ref[i] / 64] |= 1ull << (ref[i] % 64);
            char c = json[ref[i]];
            if (c == '[' || c == ']' || c == '{' || c == '}')
                want_br[ref[i] / 64] |= 1ull << (ref[i] % 64);
        }
    bool want_ctrl = reference_string_bytes(json, len, want_bs, words + 1);
    /* the DOM layout: the marks and the backslashes inside strings */
    size_t nbs = 0;
    for (size_t w = 0; w < words; w++) nbs += (size_t)__builtin_popcountll(want_bs[w]);
    for (int k = JET_KERNEL_SWAR; k < JET_KERNEL__COUNT; k++) {
        if (!jet__kernel_available((jet_kernel)k)) continue;
        const char *name = jet__kernel_name((jet_kernel)k);
        jet_scan_result res;
        memset(&res, 0, sizeof res);
        memset(copy, 0, len + 1);
        bool done = jet__scan((jet_kernel)k, json, len, got, copy, &res);
        if (done) {
            bool valid = utf8_reference(json, len);
            CHECK_MSG(valid == res.utf8_valid,
                      "kernel %s: UTF-8 verdict %d, reference %d on %s (len %zu)", name,
                      (int)res.utf8_valid, (int)valid, what, len);
            CHECK_MSG(res.ctrl_in_string == want_ctrl, "kernel %s: control-in-string %d on %s",
                      name, (int)res.ctrl_in_string, what);
            CHECK_MSG(memcmp(copy, json, len) == 0 && copy[len] == 0,
                      "kernel %s: the copy differs from the input on %s", name, what);
        }
        bool same = nref == SIZE_MAX ? !done : done && res.words == words && res.marks == nref + nbs;
        for (size_t w = 0; same && done && w < words; w++) same = got[w] == (want[w] | want_bs[w]);
        CHECK_MSG(same, "stage 1 kernel %s differs from the reference on %s (len %zu)", name,
                  what, len);
        if (!same && scan_mismatch_reports++ < 3) {
            fprintf(stderr, "  input: ");
            fwrite(json, 1, len < 200 ? len : 200, stderr);
            fprintf(stderr, "\n  marks: ref %zu + %zu backslashes, got %zu\n", nref, nbs,
                    res.marks);
        }
        /* the cursor's layout: three bitmaps */
        memset(&res, 0, sizeof res);
        done = jet__scan_ex((jet_kernel)k, json, len, got, got_bs, got_br, &res);
        same = nref == SIZE_MAX ? !done
                                : done && res.words == words &&
                                      memcmp(got, want, words * sizeof(uint64_t)) == 0 &&
                                      memcmp(got_bs, want_bs, words * sizeof(uint64_t)) == 0 &&
                                      memcmp(got_br, want_br, words * sizeof(uint64_t)) == 0;
        CHECK_MSG(same, "stage 1 kernel %s (cursor layout) differs from the reference on %s",
                  name, what);
    }
    free(copy);
    free(got_br);
    free(got_bs);
    free(want_br);
    free(want_bs);
    free(ref);
    free(want);
    free(got);
}

/* Random text over an alphabet rich in the bytes stage 1 cares about. */
static size_t random_jsonish(char *buf, size_t len) {
    static const char alphabet[] = "\"\"\"\\\\\\{}[]:,  \t\n\r0123456789-.eEtrufalsn\x01\x7f\xc3\xa9\xe2\x82\xac\xf0";
    for (size_t i = 0; i < len; i++) buf[i] = alphabet[rng() % (sizeof alphabet - 1)];
    return len;
}

/* Appends code point cp as UTF-8. */
static size_t put_utf8(char *d, uint32_t cp) {
    if (cp < 0x80) { d[0] = (char)cp; return 1; }
    if (cp < 0x800) {
        d[0] = (char)(0xC0 | (cp >> 6));
        d[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (char)(0xE0 | (cp >> 12));
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | (cp >> 18));
    d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Every kernel's UTF-8 verdict against the reference: strings of code
 * points of every length class (the edges of each range among them) at
 * every offset around the 16-, 32- and 64-byte boundaries, then the same
 * with one byte replaced, often by a byte that starts or breaks a rule
 * (overlong leads, surrogates, past U+10FFFF, stray continuations). */
static void test_utf8_verdicts(void) {
    static const uint32_t edges[] = {0x7F,   0x80,   0x7FF,  0x800,   0xFFF,   0x1000,
                                     0xD7FF, 0xE000, 0xFFFD, 0xFFFF,  0x10000, 0x3FFFF,
                                     0x40000, 0xFFFFF, 0x100000, 0x10FFFF, 0xE9, 0x65E5};
    static const unsigned char breakers[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED,
                                             0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x9F, 0xA0, 0x8F, 0x90};
    char buf[400];
    for (int round = 0; round < 6000; round++) {
        size_t len = 0, target = 1 + rng() % 300;
        while (len + 4 < target) {
            unsigned r = (unsigned)(rng() % 8);
            uint32_t cp = r < 2 ? 0x20 + (uint32_t)(rng() % 0x5F)
                        : r < 5 ? edges[rng() % (sizeof edges / sizeof edges[0])]
                        : r == 5 ? 0x80 + (uint32_t)(rng() % 0x780)
                        : r == 6 ? 0x800 + (uint32_t)(rng() % 0xF800)
                                 : 0x10000 + (uint32_t)(rng() % 0x100000);
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
            len += put_utf8(buf + len, cp);
        }
        if (round % 2 && len) {
            size_t at = rng() % len;
            buf[at] = (char)(rng() % 3 ? breakers[rng() % sizeof breakers] : (unsigned char)rng());
        }
        char *in = check_dup_exact(buf, len);
        check_scan(in, len, "UTF-8 text");
        free(in);
    }
}

/* Blocks of ASCII between two blocks that are not: a vector validator may
 * leave its state as the last non-ASCII block set it (scan.c,
 * utf8_avx2_block), so the block after the gap must still be judged as
 * following ASCII (a continuation byte there is an error) and a sequence
 * left open before the gap must still be one. */
static void test_utf8_ascii_gap(void) {
    static const char *const ends[] = {"\xe2\x82\xac", "\xc3\xa9", "\xf0\x9f\x98\x80", "\xe2\x82",
                                       "\xc3", "\xf0\x9f\x98", "\xf0\x9f", "\xf0", "\xe2", "a"};
    static const char *const starts[] = {"\x80", "\xbf\x80", "\xa9", "\x82\xac", "\x9f\x98\x80",
                                         "\xe2\x82\xac", "\xc3\xa9", "\xf4\x8f\xbf\xbf", "b"};
    char buf[400];
    for (size_t e = 0; e < sizeof ends / sizeof ends[0]; e++)
        for (size_t st = 0; st < sizeof starts / sizeof starts[0]; st++)
            for (size_t gap = 1; gap <= 2; gap++)
                for (size_t shift = 0; shift < 4; shift++) {
                    size_t n = strlen(ends[e]), len = 0;
                    memcpy(buf, "\xc3\xa9", 2); /* the first block is not ASCII */
                    for (len = 2; len < 64 - n - shift; len++) buf[len] = 'x';
                    memcpy(buf + len, ends[e], n);
                    len += n;
                    while (len < 64 * (1 + gap)) buf[len++] = ' ';
                    memcpy(buf + len, starts[st], strlen(starts[st]));
                    len += strlen(starts[st]);
                    for (size_t i = 0; i < 1 + shift * 30; i++) buf[len++] = 'y';
                    char *in = check_dup_exact(buf, len);
                    check_scan(in, len, "UTF-8 around ASCII blocks");
                    free(in);
                }
}

static void test_stage1(char **corpus, size_t *corpus_len, int n_corpus) {
    char buf[300];
    for (int round = 0; round < 10000; round++) {
        size_t len = rng() % 260;
        random_jsonish(buf, len);
        char *in = check_dup_exact(buf, len);
        check_scan(in, len, "random input");
        free(in);
    }
    /* Long backslash runs and quotes across block boundaries. */
    for (size_t run = 0; run < 140; run++) {
        for (size_t lead = 0; lead < 3; lead++) {
            size_t len = 0;
            buf[len++] = '[';
            buf[len++] = '"';
            for (size_t i = 0; i < lead; i++) buf[len++] = 'a';
            for (size_t i = 0; i < run; i++) buf[len++] = '\\';
            buf[len++] = '"';
            buf[len++] = ',';
            buf[len++] = '"';
            buf[len++] = ']';
            char *in = check_dup_exact(buf, len);
            check_scan(in, len, "backslash run");
            free(in);
        }
    }
    /* UTF-8: runs of code points from every encoding length and its edges,
     * then the same with one byte replaced, truncated sequences included. */
    static const uint32_t edges[] = {0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xFFF, 0x1000, 0xD7FF,
                                     0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x3FFFF, 0x40000,
                                     0xFFFFF, 0x100000, 0x10FFFF};
    static const unsigned char bad_bytes[] = {0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED,
                                              0xEF, 0xF0, 0xF4, 0xF5, 0xFF, 0x20, 0x41};
    for (int round = 0; round < 6000; round++) {
        size_t len = 0;
        buf[len++] = '"';
        size_t target = 2 + rng() % 150;
        while (len < target) {
            uint32_t cp = edges[rng() % (sizeof edges / sizeof edges[0])];
            if (cp >= 0x80 && (rng() & 1)) cp += (uint32_t)(rng() % 64) - 32;
            if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xE000;
            if (cp > 0x10FFFF) cp = 0x10FFFF;
            if (cp < 0x80) {
                buf[len++] = (char)cp;
            } else if (cp < 0x800) {
                buf[len++] = (char)(0xC0 | (cp >> 6));
                buf[len++] = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                buf[len++] = (char)(0xE0 | (cp >> 12));
                buf[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                buf[len++] = (char)(0x80 | (cp & 0x3F));
            } else {
                buf[len++] = (char)(0xF0 | (cp >> 18));
                buf[len++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                buf[len++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                buf[len++] = (char)(0x80 | (cp & 0x3F));
            }
        }
        if (round & 1) buf[1 + rng() % (len - 1)] = (char)bad_bytes[rng() % sizeof bad_bytes];
        if (round % 3 == 0 && len > 3) len -= (size_t)(rng() % 3); /* cut a sequence short */
        buf[len++] = '"';
        char *in = check_dup_exact(buf, len);
        check_scan(in, len, "UTF-8 text");
        free(in);
    }
    for (int c = 0; c < n_corpus; c++) check_scan(corpus[c], corpus_len[c], "corpus");
}

/* ---- 2. the whole reader ------------------------------------------------ */

typedef struct outcome {
    bool ok;
    jet_error err;
    jet_doc *doc;
} outcome;

/* Two reusable parsers: the scalar reference and the kernel under test. */
static jet_parser *parsers[2];

static outcome parse_with(int which, const char *kernel, const char *json, size_t len,
                          const jet_read_opts *opts) {
    outcome o;
    memset(&o, 0, sizeof o);
    bool set = jet_kernel_set(kernel);
    CHECK_MSG(set, "kernel %s cannot be selected", kernel);
    o.doc = jet_parser_parse(parsers[which], json, len, opts, &o.err);
    o.ok = o.doc != NULL;
    return o;
}

static const jet_read_flags flag_sets[] = {
    0,
    JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_ALLOW_NAN_INF,
    JET_READ_ALLOW_INVALID_UTF8 | JET_READ_BIGNUM_AS_RAW,
    JET_READ_NUMBER_AS_RAW,
};

static unsigned long parse_mismatch_reports;

/* The comparison itself (tests/oracle/doc_compare.h): what each mode must
 * tell apart, or the kernel checks above would pass whatever they built. */
static void expect_compare(const char *a, const char *b, unsigned how, bool want,
                           const char *where, int line) {
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = JET_READ_ALLOW_NAN_INF;
    jet_doc *da = jet_read(a, strlen(a), &opts, NULL, NULL), *db = jet_read(b, strlen(b), &opts, NULL, NULL);
    doc_diff diff = {{NULL, NULL}, "", ""};
    bool got = doc_compare(da, db, how, &diff);
    CHECK_MSG(da && db && got == want && (want || strcmp(diff.where, where) == 0),
              "line %d: doc_compare(%s, %s, %u) = %d at '%s' (%s), want %d at '%s'", line, a, b, how,
              got, diff.where, diff.why, want, where);
    jet_doc_free(da);
    jet_doc_free(db);
}

static void test_doc_compare(void) {
    static const unsigned modes[] = {DOC_SAME_SLOTS, 0, DOC_NULL_IS_ABSENT};
    for (int m = 0; m < 3; m++) {
        unsigned how = modes[m];
        expect_compare("{\"a\":[1,2.5,\"x\"]}", "{\"a\":[1,2.5,\"x\"]}", how, true, "", __LINE__);
        expect_compare("{\"a\":[1,2.5,\"x\"]}", "{\"a\":[1,2.5,\"y\"]}", how, false, "/a/2", __LINE__);
        expect_compare("[1,[2,3]]", "[1,[2,3,4]]", how, false, "/1", __LINE__);
        expect_compare("{\"a/b\":{\"~\":0.0}}", "{\"a/b\":{\"~\":-0.0}}", how, false, "/a~1b/~0",
                       __LINE__);
        expect_compare("[NaN]", "[NaN]", how, true, "", __LINE__);
        expect_compare("[1]", "[1.0]", how, false, "/0", __LINE__);
        expect_compare("{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", how, false, "/a", __LINE__);
        expect_compare("[true]", "[false]", how, false, "/0", __LINE__);
        expect_compare("[\"ab\"]", "[\"a\"]", how, false, "/0", __LINE__);
    }
    /* the same value written with an escape: only the slots differ (the
     * no-escape flag) */
    expect_compare("[\"a\"]", "[\"\\u0061\"]", DOC_SAME_SLOTS, false, "/0", __LINE__);
    expect_compare("[\"a\"]", "[\"\\u0061\"]", 0, true, "", __LINE__);
    expect_compare("{\"a\":1}", "{\"\\u0061\":1}", DOC_SAME_SLOTS, false, "/a", __LINE__);
    expect_compare("{\"a\":1}", "{\"\\u0061\":1}", 0, true, "", __LINE__);
    /* a null member is a member, except with DOC_NULL_IS_ABSENT */
    expect_compare("{\"a\":null,\"b\":[{\"c\":null}]}", "{\"b\":[{}]}", DOC_NULL_IS_ABSENT, true, "",
                   __LINE__);
    expect_compare("{\"a\":null,\"b\":1}", "{\"b\":1}", 0, false, "", __LINE__);
    expect_compare("{\"a\":null,\"b\":1}", "{\"b\":1}", DOC_SAME_SLOTS, false, "", __LINE__);
    expect_compare("{\"b\":[{\"c\":1}]}", "{\"b\":[{}]}", DOC_NULL_IS_ABSENT, false, "/b/0/c", __LINE__);
    expect_compare("{\"b\":2}", "{\"c\":2}", DOC_NULL_IS_ABSENT, false, "/b", __LINE__);
    /* a failed read: the same error, or not */
    jet_error e1, e2;
    jet_doc *d1 = jet_read("[1,]", 4, NULL, NULL, &e1), *d2 = jet_read("[1,]", 4, NULL, NULL, &e2);
    CHECK(!d1 && !d2 && doc_same_outcome(d1, &e1, d2, &e2, DOC_SAME_SLOTS, NULL));
    d2 = jet_read("[1,2", 4, NULL, NULL, &e2);
    CHECK(!d2 && !doc_same_outcome(d1, &e1, d2, &e2, DOC_SAME_SLOTS, NULL));
    d2 = jet_read("[1]", 3, NULL, NULL, &e2);
    CHECK(d2 && !doc_same_outcome(d1, &e1, d2, &e2, DOC_SAME_SLOTS, NULL));
    jet_doc_free(d2);
}

static void check_parse(const char *json, size_t len, const char *what, bool all_flags) {
    size_t nflags = all_flags ? sizeof flag_sets / sizeof flag_sets[0] : 1;
    for (size_t f = 0; f < nflags; f++) {
        jet_read_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.flags = flag_sets[f];
        opts.max_depth = f == 3 ? 3 : 0; /* a tight limit in the last set */
        outcome ref = parse_with(0, "scalar", json, len, &opts);
        /* each kernel with the default index window, then with windows of
         * one and three blocks (every window boundary a token can meet) */
        static const size_t windows[] = {0, 1, 3};
        for (size_t kw = 0; kw < N_KERNELS * 3; kw++) {
            size_t k = kw / 3;
            if (!jet_kernel_set(kernels[k])) continue;
            jet__index_window_set(windows[kw % 3]);
            outcome got = parse_with(1, kernels[k], json, len, &opts);
            jet__index_window_set(0);
            doc_diff diff = {{kernels[k], "scalar reader"}, "", ""};
            bool same = doc_same_outcome(got.doc, &got.err, ref.doc, &ref.err, DOC_SAME_SLOTS, &diff);
            CHECK_MSG(same, "kernel %s (window %zu) differs from scalar on %s (len %zu, flags %zu) "
                      "at '%s': %s", kernels[k], windows[kw % 3], what, len, f, diff.where, diff.why);
            if (!same && parse_mismatch_reports++ < 3) {
                fprintf(stderr, "  scalar: %s %s at %zu; %s: %s %s at %zu\n",
                        ref.ok ? "ok" : "error", ref.ok ? "" : ref.err.msg, ref.err.offset,
                        kernels[k], got.ok ? "ok" : "error", got.ok ? "" : got.err.msg,
                        got.err.offset);
            }
        }
    }
}

static void check_parse_copy(const char *json, size_t len, const char *what, bool all_flags) {
    char *in = check_dup_exact(json, len);
    check_parse(in, len, what, all_flags);
    free(in);
}

/* jet_validate's verdict and error offset with each kernel against the
 * scalar reader's, under every flag set. */
static void check_validate_kernels(const char *json, size_t len, const char *what) {
    char *in = check_dup_exact(json, len);
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
        jet_read_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.flags = flag_sets[f];
        jet_error want_err, got_err;
        jet_kernel_set("scalar");
        bool want = jet_validate(in, len, &opts, NULL, &want_err);
        for (size_t k = 0; k < N_KERNELS; k++) {
            if (!jet_kernel_set(kernels[k])) continue;
            bool got = jet_validate(in, len, &opts, NULL, &got_err);
            CHECK_MSG(got == want && (want || got_err.offset == want_err.offset),
                      "jet_validate, kernel %s: %d (offset %zu), scalar %d (offset %zu) on %s (len %zu, "
                      "flags %zu)", kernels[k], (int)got, got ? 0 : got_err.offset, (int)want,
                      want ? 0 : want_err.offset, what, len, f);
        }
    }
    free(in);
}

static void test_conformance(const char *shared) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/conformance/JSONTestSuite/test_parsing", shared);
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s", dir);
    if (!d) return;
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *buf = check_read_file(path, &len);
        if (!buf) continue;
        check_parse_copy(buf, len, e->d_name, true);
        free(buf);
        files++;
    }
    closedir(d);
    CHECK_MSG(files > 300, "only %d conformance files read", files);
}

static void test_corpora(char **corpus, size_t *corpus_len, const char **names, int n) {
    for (int c = 0; c < n; c++) {
        check_parse_copy(corpus[c], corpus_len[c], names[c], true);
        /* Truncations: every length near the start and the end, a stride
         * in between. */
        size_t len = corpus_len[c];
        size_t stride = len / 60 + 1;
        for (size_t cut = 0; cut < len; cut += (cut < 300 || len - cut < 300) ? 1 : stride)
            check_parse_copy(corpus[c], cut, "a truncated corpus", false);
        /* Mutations: 1-3 bytes replaced by random or structural bytes. */
        static const char structural[] = "{}[]:,\"\\ 0a\x80";
        char *m = check_dup_exact(corpus[c], len);
        for (int round = 0; round < 60; round++) {
            memcpy(m, corpus[c], len);
            int changes = 1 + (int)(rng() % 3);
            for (int j = 0; j < changes; j++) {
                size_t at = (size_t)(rng() % len);
                m[at] = (rng() & 1) ? (char)(rng() & 0xFF)
                                    : structural[rng() % (sizeof structural - 1)];
            }
            check_parse(m, len, "a mutated corpus", false);
        }
        free(m);
    }
}

static void test_random_documents(void) {
    char buf[300];
    for (int round = 0; round < 8000; round++) {
        size_t len = rng() % 200;
        random_jsonish(buf, len);
        check_parse_copy(buf, len, "random input", round % 8 == 0);
    }
    /* Numeric arrays longer than 4 KiB, valid and broken: long numbers (16
     * to 18 digits a comma: the one-pass route of every kernel) and short
     * ones (about 6: the index route, its comma shortcut and its array
     * loop; see one_pass_suits). */
    for (int shape = 0; shape < 2; shape++) {
        static char big[6000];
        size_t len = 0;
        big[len++] = '[';
        while (len < sizeof big - 40) {
            int a = (int)(rng() % 1000), b = (int)(rng() % 1000);
            len += shape ? (size_t)snprintf(big + len, 40, "%d.%d,", a, b)
                         : (size_t)snprintf(big + len, 40, "-%d.%03d%06d%06d,", a, b, a * 997, b * 991);
        }
        big[len - 1] = ']';
        check_parse_copy(big, len, shape ? "numeric array (short)" : "numeric array (long)", true);
        big[len / 2] = 'x';
        check_parse_copy(big, len, shape ? "broken numeric array (short)" : "broken numeric array (long)", true);
    }
    /* Numbers before commas at every place around a word's end: glued to
     * a letter or a bracket, before an empty element or the input's end,
     * NaN and Infinity (accepted under one flag set), in an array at the
     * root, in an array inside an object, and as members' values; each
     * kernel's document and jet_validate's verdict against the scalar
     * reader's, under every flag set. */
    {
        static const char *const tails[] = {
            "1,2]", "1x,2]", "1.5e3x,2]", "-1,-2.5,3e2]", "1,]", "1,,2]", "1,-]", "1 ,2]",
            "1\n,2]", "1,\"a\",-2,[3],{\"b\":4}]", "1,2", "1,2x", "1,2,", "1,[2,3],-4]",
            "1,2]x", "1,true,null,-0,0.5]", "01,2]", "1,02]", "1.,2]", "-,2]",
            "NaN,-Infinity,1]", "1,NaN]", "-Infinity,2,Infinity]", "1,NaNx]",
        };
        static const char *const members[] = {
            "\"a\":1,\"b\":2}", "\"a\":1x,\"b\":2}", "\"a\":-1.5,\"b\":[1,2],\"c\":3e2}",
            "\"a\":1,}", "\"a\":1,,\"b\":2}", "\"a\":1,2}", "\"a\":1 ,\"b\":2}",
            "\"a\":NaN,\"b\":-Infinity}", "\"a\":1,\"b\":2",
        };
        for (int shape = 0; shape < 3; shape++) {
            const char *const *list = shape == 2 ? members : tails;
            size_t count = shape == 2 ? sizeof members / sizeof members[0] : sizeof tails / sizeof tails[0];
            for (size_t t = 0; t < count; t++) {
                for (size_t pad = 0; pad < 70; pad++) {
                    char doc[160];
                    size_t len = 0;
                    doc[len++] = shape == 0 ? '[' : '{';
                    if (shape == 1) {
                        memcpy(doc + len, "\"k\":[", 5);
                        len += 5;
                    }
                    for (size_t i = 0; i < pad; i++) doc[len++] = ' ';
                    size_t n = strlen(list[t]);
                    memcpy(doc + len, list[t], n);
                    len += n;
                    if (shape == 1) doc[len++] = '}';
                    check_parse_copy(doc, len, "numbers before commas", true);
                    check_validate_kernels(doc, len, "numbers before commas");
                }
            }
        }
    }
    /* Valid documents with strings that cross block boundaries. */
    for (size_t pad = 0; pad < 130; pad++) {
        size_t len = 0;
        buf[len++] = '[';
        for (size_t i = 0; i < pad; i++) buf[len++] = ' ';
        static const char tail[] = "\"x\\\"y\\\\\",\"\xc3\xa9\\u00e9\",true,-1.5e3,null,{\"k\":[]}]";
        memcpy(buf + len, tail, sizeof tail - 1);
        len += sizeof tail - 1;
        check_parse_copy(buf, len, "padded document", true);
    }
}

/* Long strings (issue 22): blocks wholly inside a string take stage 1's
 * fast path (no quote, backslash or control byte), and a long plain run
 * after a string's first escape is moved at once (LONG_PLAIN_RUN). Strings
 * of 0 to 700 bytes of ASCII or UTF-8 text, each with a few specials at
 * random places (every position in a block among them): escapes, a
 * surrogate pair, and in some documents a raw control byte, a lone quote or a bad
 * UTF-8 byte; stage 1 against the reference, every kernel's document
 * against the scalar reader's. */
static void test_long_strings(void) {
    static const char *const specials[] = {"\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00",
                                           "\\/", "\\\\\\\"", "\"", "\x01", "\xff", "\\u12"};
    static char buf[8192];
    for (int round = 0; round < 400; round++) {
        size_t len = 0;
        bool broken = round % 4 == 3; /* the last four specials break the document */
        buf[len++] = '[';
        for (int s = 0; s < 6 && len < sizeof buf - 1300; s++) {
            buf[len++] = '"';
            size_t n = rng() % 700;
            bool utf8 = rng() % 2;
            size_t nspecial = rng() % 4;
            size_t at[4];
            for (size_t k = 0; k < nspecial; k++) at[k] = n ? rng() % n : 0;
            for (size_t i = 0; i < n; i++) {
                for (size_t k = 0; k < nspecial; k++)
                    if (at[k] == i) {
                        size_t pick = rng() % (broken ? 11 : 7);
                        size_t sl = strlen(specials[pick]);
                        memcpy(buf + len, specials[pick], sl);
                        len += sl;
                    }
                if (utf8 && i % 7 == 3) {
                    memcpy(buf + len, "\xe2\x82\xac", 3); /* U+20AC */
                    len += 3;
                } else {
                    buf[len++] = (char)('a' + i % 26);
                }
            }
            buf[len++] = '"';
            buf[len++] = ',';
        }
        buf[len - 1] = ']';
        check_scan(buf, len, "long strings");
        check_parse_copy(buf, len, "long strings", round % 16 == 0);
    }
    /* One string with many escapes: stage 2 lists a string's backslashes
     * on the way to its closing quote and decodes from the list when they
     * are at most ESC_LIST_MAX (64), else from the bitmap. Counts around
     * that limit, then up to 300; escapes of every kind, among them `\\`
     * and surrogate pairs, whose second backslash's mark the decoder passes
     * over; runs of 0 to 40 plain bytes between them, one of them long in
     * some documents, and a broken escape in some. */
    for (int round = 0; round < 160; round++) {
        size_t len = 0;
        buf[len++] = '[';
        buf[len++] = '"';
        /* backslashes in the string (each one is a mark) */
        size_t count = round < 80 ? 56 + (size_t)round % 16 : rng() % 300, marks = 0;
        for (size_t e = 0; marks < count && len < sizeof buf - 600; e++) {
            size_t run = e == 20 && round % 3 == 0 ? 500 : rng() % 41;
            for (size_t i = 0; i < run; i++) buf[len++] = (char)('a' + i % 26);
            size_t pick = rng() % 7;
            if (marks + 3 > count) /* one mark at a time: the count exactly; */
                pick = round % 8 == 7 ? 10 : 0; /* broken near the end in some */
            size_t sl = strlen(specials[pick]);
            memcpy(buf + len, specials[pick], sl);
            len += sl;
            for (size_t i = 0; i < sl; i++) marks += specials[pick][i] == '\\';
        }
        buf[len++] = '"';
        buf[len++] = ']';
        check_parse_copy(buf, len, "many escapes", round % 16 == 0);
        check_validate_kernels(buf, len, "many escapes");
    }
}

/* The value slots grow while many containers are open: in the one-pass
 * reader when values outrun its first guess, in stage 2 when a window's
 * marks outrun the room left. A fresh parser each time (a reused one keeps
 * its room), windows of one and three blocks, a corpus and a deep dense
 * document; every kernel's document equal to the scalar reader's. */
static void test_growth_with_open_containers(char **corpus, size_t *corpus_len, int n) {
    size_t depth = 121, elems = 4000, k = 0; /* the innermost an array */
    char *deep = (char *)malloc(depth * 8 + elems * 12 + 64);
    if (!deep) return;
    for (size_t i = 0; i < depth; i++) k += (size_t)sprintf(deep + k, i % 2 ? "{\"k\":" : "[");
    for (size_t i = 0; i < elems; i++) k += (size_t)sprintf(deep + k, "%zu,[\"s\"],", i % 97);
    k += (size_t)sprintf(deep + k, "null");
    for (size_t i = depth; i-- > 0;) deep[k++] = i % 2 ? '}' : ']';
    const char *inputs[2] = {deep, n > 0 ? corpus[0] : deep};
    size_t lens[2] = {k, n > 0 ? corpus_len[0] : k};
    for (int in = 0; in < 2; in++) {
        jet_parser *ref_p = jet_parser_new(NULL);
        CHECK(jet_kernel_set("scalar"));
        jet_error e;
        jet_doc *ref = jet_parser_parse(ref_p, inputs[in], lens[in], NULL, &e);
        CHECK_MSG(ref != NULL, "growth input %d: %s", in, e.msg);
        static const size_t windows[] = {1, 3, 0};
        for (size_t kw = 0; ref && kw < N_KERNELS * 3; kw++) {
            if (!jet_kernel_set(kernels[kw / 3])) continue;
            jet__index_window_set(windows[kw % 3]);
            jet_parser *p = jet_parser_new(NULL);
            jet_doc *got = jet_parser_parse(p, inputs[in], lens[in], NULL, &e);
            doc_diff diff = {{kernels[kw / 3], "scalar reader"}, "", ""};
            CHECK_MSG(got && doc_compare(got, ref, DOC_SAME_SLOTS, &diff),
                      "kernel %s, window %zu: document differs after the slots grew (input %d) "
                      "at '%s': %s", kernels[kw / 3], windows[kw % 3], in, diff.where, diff.why);
            jet_parser_free(p);
            jet__index_window_set(0);
        }
        jet_parser_free(ref_p);
    }
    free(deep);
}

/* ---- 3. nothing read past the input ------------------------------------ */

/* Shapes cut to every length: valid or not, ending in a number, a string, a
 * literal, blanks, an escape, multi-byte UTF-8, or a bracket. */
static const char *const guard_shapes[] = {
    "[1,22,333,4444,-5.5e5,true,false,null,{\"k\":\"v\"},[],{}]",
    "{\"a\":\"text with \\\"escapes\\\" and \\u00e9\",\"b\":[0.5,\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]}",
    "   [   1  ,  2  ]    \n\t  ",
    "\"a long string of plain text that crosses the 64-byte block boundary at least once or twice\"",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "12345678901234567890.123456789e-12",
};

static void guard_read(char *at, size_t len, const char *what) {
    jet_error e;
    bool v = jet_validate(at, len, NULL, NULL, &e);
    jet_doc *d = jet_read(at, len, NULL, NULL, &e);
    CHECK_MSG(v == (d != NULL), "%s: validate %d, read %d (kernel %s, %zu bytes)", what, v, d != NULL,
              jet_kernel_name(), len);
    jet_doc_free(d);
    jet_od *od = jet_od_new(NULL);
    jet_odv root;
    bool c = od && jet_od_start(od, at, len, NULL, &root) && jet_odv_skip(&root) && jet_od_finish(od);
    CHECK_MSG(c == v, "%s: cursor %d, validate %d (kernel %s, %zu bytes)", what, c, v, jet_kernel_name(), len);
    jet_od_free(od);
}

static void test_guard_pages(void) {
    long ps = sysconf(_SC_PAGESIZE);
    size_t page = ps > 0 ? (size_t)ps : 4096;
    char *map = (char *)mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(map != MAP_FAILED);
    if (map == MAP_FAILED) return;
    /* page 0 and page 2 inaccessible: inputs end at page 2, or start at page 1's first byte */
    CHECK(mprotect(map, page, PROT_NONE) == 0 && mprotect(map + 2 * page, page, PROT_NONE) == 0);
    char *end = map + 2 * page, *start = map + page;
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0] + 1; k++) {
        if (!jet_kernel_set(k < N_KERNELS ? kernels[k] : "scalar")) continue;
        for (size_t sh = 0; sh < sizeof guard_shapes / sizeof guard_shapes[0]; sh++) {
            char text[400];
            size_t tl = 0;
            while (tl + strlen(guard_shapes[sh]) < 300) { /* the shape repeated to 300 bytes */
                memcpy(text + tl, guard_shapes[sh], strlen(guard_shapes[sh]));
                tl += strlen(guard_shapes[sh]);
            }
            for (size_t len = 0; len <= tl; len++) {
                memcpy(end - len, text, len);
                guard_read(end - len, len, "at a page's end");
                memcpy(start, text + tl - len, len);
                guard_read(start, len, "at a page's start");
            }
        }
    }
    jet_kernel_set("scalar");
    munmap(map, 3 * page);
}

int main(void) {
    const char *shared = check_shared_dir();
    static const char *names[] = {"twitter.json", "citm_catalog.json", "canada.json",
                                  "github_events.json"};
    char *corpus[4];
    size_t corpus_len[4];
    const char *found_names[4];
    int n = 0;
    for (int i = 0; i < 4; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/corpora/%s", shared, names[i]);
        size_t len = 0;
        char *buf = check_read_file(path, &len);
        CHECK_MSG(buf != NULL, "missing corpus %s", path);
        if (!buf) continue;
        corpus[n] = buf;
        corpus_len[n] = len;
        found_names[n] = names[i];
        n++;
    }
    parsers[0] = jet_parser_new(NULL);
    parsers[1] = jet_parser_new(NULL);
    int available = 0;
    for (size_t k = 0; k < N_KERNELS; k++) available += jet_kernel_set(kernels[k]);
    printf("test_kernels: %d index kernel(s) available besides scalar\n", available);
    CHECK(jet_kernel_set("scalar"));
    CHECK(!jet_kernel_set("no-such-kernel"));
    CHECK(!jet_kernel_set(NULL));
    CHECK(jet_kernel_set("swar") && strcmp(jet_kernel_name(), "swar") == 0);

    test_doc_compare();
    test_stage1(corpus, corpus_len, n);
    test_growth_with_open_containers(corpus, corpus_len, n);
    test_conformance(shared);
    test_corpora(corpus, corpus_len, found_names, n);
    test_random_documents();
    test_long_strings();
    test_utf8_verdicts();
    test_utf8_ascii_gap();
    test_guard_pages();

    for (int i = 0; i < n; i++) free(corpus[i]);
    jet_parser_free(parsers[0]);
    jet_parser_free(parsers[1]);
    /* the index route accepted every document the one-pass reader did */
    CHECK_MSG(jet__index_rereads() == 0, "%zu documents re-read after the index route rejected them",
              jet__index_rereads());
    return CHECK_DONE("test_kernels");
}
