/*
 * test_errors.c — one error per input (issue 23, defect 4): the DOM reader
 * (jet_parser_parse), jet_validate, jet_od_validate and jet_decode with
 * JET_READ_VALIDATE_ALL give the same verdict and, on a rejection, the same
 * code, offset, line and column, on every kernel this CPU runs, without
 * flags and with the grammar's extensions (comments and trailing commas;
 * invalid UTF-8, NaN/Infinity and big numbers as raw).
 *
 * Inputs: every JSONTestSuite file, every truncation of the small ones,
 * deterministic mutations of each (byte flips, deletions, insertions of
 * grammar bytes and NUL), and mutations and truncations of the first 4 KiB
 * of each corpus; plus the cases the issue names.
 */
#define _DEFAULT_SOURCE 1 /* dirent */
#include "check.h"

#include <jet.h>

#include "decode_target.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kernels[] = {"scalar", "swar", "sse2", "avx2", "avx512", "neon"};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

static jet_parser *parser;
static jet_od *od;
static const char *kernel = "";
/* the read flags of the run: none, then the grammar's extensions */
static const jet_read_flags flag_sets[] = {
    0,
    JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS,
    JET_READ_ALLOW_INVALID_UTF8 | JET_READ_ALLOW_NAN_INF | JET_READ_BIGNUM_AS_RAW,
};
static jet_read_flags flags;
static unsigned long compared;

/* Compares the four on one input (copied to exactly len bytes, so that
 * ASan sees any read past the end). */
static void agree(const char *what, const char *json, size_t len) {
    char *copy = (char *)malloc(len ? len : 1);
    if (!copy) return;
    memcpy(copy, json, len);
    compared++;
    jet_read_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.flags = flags;
    jet_error dom;
    memset(&dom, 0, sizeof dom);
    bool dom_ok = jet_parser_parse(parser, copy, len, &ro, &dom) != NULL;

    jet_error v;
    memset(&v, 0, sizeof v);
    bool v_ok = jet_validate(copy, len, &ro, NULL, &v);
    CHECK_MSG(v_ok == dom_ok && (dom_ok || same_error_place(&v, &dom)),
              "%s %#x, %s (%zu bytes): jet_validate %s %s@%zu %zu:%zu, DOM %s %s@%zu %zu:%zu", kernel, (unsigned)flags, what, len,
              v_ok ? "accepts" : "rejects", jet_code_name(v.code), v.offset, v.line, v.column,
              dom_ok ? "accepts" : "rejects", jet_code_name(dom.code), dom.offset, dom.line, dom.column);

    bool o_ok = jet_od_validate(od, copy, len, &ro);
    const jet_error *o = jet_od_error(od);
    CHECK_MSG(o_ok == dom_ok && (dom_ok || same_error_place(o, &dom)),
              "%s %#x, %s (%zu bytes): jet_od_validate %s %s@%zu %zu:%zu, DOM %s %s@%zu %zu:%zu", kernel, (unsigned)flags,
              what, len, o_ok ? "accepts" : "rejects", jet_code_name(o->code), o->offset, o->line, o->column,
              dom_ok ? "accepts" : "rejects", jet_code_name(dom.code), dom.offset, dom.line, dom.column);

    if (!dom_ok) {
        /* into a struct: an accepted input may still not be one, so only
         * rejections are compared */
        jet_read_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.flags = flags | JET_READ_VALIDATE_ALL;
        decode_target out;
        jet_error d;
        memset(&d, 0, sizeof d);
        bool d_ok = jet_decode(od, copy, len, &decode_target_type, &out, NULL, &opts, &d);
        CHECK_MSG(!d_ok && same_error_place(&d, &dom),
                  "%s %#x, %s (%zu bytes): jet_decode %s %s@%zu %zu:%zu, DOM %s@%zu %zu:%zu", kernel, (unsigned)flags, what, len,
                  d_ok ? "accepts" : "rejects", jet_code_name(d.code), d.offset, d.line, d.column,
                  jet_code_name(dom.code), dom.offset, dom.line, dom.column);
    }
    free(copy);
}

/* ---- inputs ---------------------------------------------------------------- */

typedef struct input {
    char name[96];
    char *text;
    size_t len;
    bool corpus; /* a corpus's first 4 KiB */
} input;

static input inputs[512];
static size_t n_inputs;

static void add_input(const char *name, char *text, size_t len, bool corpus) {
    if (n_inputs == sizeof inputs / sizeof inputs[0]) {
        free(text);
        return;
    }
    input *in = &inputs[n_inputs++];
    snprintf(in->name, sizeof in->name, "%s", name);
    in->text = text;
    in->len = len;
    in->corpus = corpus;
}

static void load_suite(void) {
    char dir_path[1024];
    snprintf(dir_path, sizeof dir_path, "%s/conformance/JSONTestSuite/test_parsing", check_shared_dir());
    DIR *dir = opendir(dir_path);
    CHECK_MSG(dir != NULL, "cannot open %s", dir_path);
    if (!dir) return;
    /* directory order varies: sort the names for a reproducible run */
    char(*names)[256] = (char(*)[256])malloc(1024 * 256);
    size_t n = 0;
    for (struct dirent *de; names && (de = readdir(dir)) && n < 1024;) {
        size_t nl = strlen(de->d_name);
        if (nl < 5 || nl >= 256 || strcmp(de->d_name + nl - 5, ".json") != 0) continue;
        memcpy(names[n++], de->d_name, nl + 1);
    }
    closedir(dir);
    qsort(names, n, 256, (int (*)(const void *, const void *))strcmp);
    for (size_t i = 0; i < n; i++) {
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir_path, names[i]);
        size_t len = 0;
        char *text = check_read_file(path, &len);
        if (text) add_input(names[i], text, len, false);
    }
    free(names);
    CHECK_MSG(n > 300, "only %zu JSONTestSuite files", n);
}

static void load_corpora(void) {
    static const char *const files[] = {"twitter.json", "citm_catalog.json", "canada.json",
                                        "github_events.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), files[i]);
        size_t len = 0;
        char *text = check_read_file(path, &len);
        CHECK_MSG(text != NULL, "cannot read %s", path);
        if (!text) continue;
        if (len > 4096) len = 4096; /* the first 4 KiB: cut, so already invalid */
        add_input(files[i], text, len, true);
    }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* mutations per input (a longer run: build with larger ones) */
#ifndef ERRORS_MUTATIONS_SMALL
#define ERRORS_MUTATIONS_SMALL 6
#endif
#ifndef ERRORS_MUTATIONS_CORPUS
#define ERRORS_MUTATIONS_CORPUS 400
#endif

static const char grammar_bytes[] = "[]{}\",:0-.eE\\"; /* and NUL */

/* One mutation of `in` into buf (room for len + 1); returns the length. */
static size_t mutate(const input *in, char *buf, char *what, size_t what_size) {
    size_t len = in->len;
    memcpy(buf, in->text, len);
    if (!len) return 0;
    size_t at = (size_t)(rng() % len);
    int op = (int)(rng() % 3);
    size_t pick = (size_t)(rng() % sizeof grammar_bytes); /* the last one is the NUL */
    char c = grammar_bytes[pick];
    if (op == 0) {
        buf[at] = (char)(buf[at] ^ (1u << (rng() % 8)));
        snprintf(what, what_size, "%.80s, bit flipped at %zu", in->name, at);
    } else if (op == 1) {
        memmove(buf + at, buf + at + 1, len - at - 1);
        len--;
        snprintf(what, what_size, "%.80s, byte %zu deleted", in->name, at);
    } else {
        memmove(buf + at + 1, buf + at, len - at);
        buf[at] = c;
        len++;
        snprintf(what, what_size, "%.80s, %#x inserted at %zu", in->name, (unsigned)(unsigned char)c, at);
    }
    return len;
}

static void run_kernel(void) {
    static const struct {
        const char *text;
        size_t len;
    } named[] = {
        {"[tru]", 5},       {"[-1.0.]", 7},   {"123\0", 4},     {"[1,2", 4},    {"{\"a\":tru}", 9},
        {"[nul", 4},        {"[fals ]", 7},   {"[1.]", 4},      {"[-]", 3},     {"[01]", 4},
        {"\"abc", 4},       {"[\"a\\x\"]", 7}, {"[\"\\u12\"]", 8}, {"{\"a\" 1}", 7}, {" ", 1},
        {"[1]x", 4},        {"[1 2]", 5},     {"{\"a\":1,}", 8}, {"[1,]", 4},    {"[\"\x01\"]", 5},
        /* fuzz_validate: a stage-1 error leaves no index, and the error's
         * pointer read the byte past the input */
        {"[\0\"\0\xe9\0\"\0]", 9},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) agree(named[i].text, named[i].text, named[i].len);
    char what[160];
    char *buf = (char *)malloc(8192 + 2);
    if (!buf) return;
    rng_state = 0x9E3779B97F4A7C15u;
    for (size_t i = 0; i < n_inputs; i++) {
        const input *in = &inputs[i];
        agree(in->name, in->text, in->len);
        bool corpus = in->corpus;
        /* truncations: every one of a small input, every 13th of a corpus */
        size_t step = corpus ? 13 : 1;
        if (in->len <= 512 || corpus)
            for (size_t cut = 0; cut < in->len; cut += step) {
                snprintf(what, sizeof what, "%.80s, cut at %zu", in->name, cut);
                agree(what, in->text, cut);
            }
        size_t mutations = corpus ? ERRORS_MUTATIONS_CORPUS : ERRORS_MUTATIONS_SMALL;
        for (size_t m = 0; m < mutations && in->len < 8192; m++) {
            size_t len = mutate(in, buf, what, sizeof what);
            agree(what, buf, len);
        }
    }
    free(buf);
}

int main(void) {
    parser = jet_parser_new(NULL);
    od = jet_od_new(NULL);
    CHECK(parser && od);
    if (!parser || !od) return CHECK_DONE("test_errors");
    char default_kernel[16];
    snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    load_suite();
    load_corpora();
    unsigned ran = 0;
    for (size_t k = 0; k < N_KERNELS; k++) {
        if (!jet_kernel_set(kernels[k])) continue;
        kernel = kernels[k];
        ran++;
        for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
            flags = flag_sets[f];
            run_kernel();
        }
    }
    jet_kernel_set(default_kernel);
    CHECK_MSG(ran >= 2, "only %u kernels", ran);
    printf("test_errors: %lu inputs compared on %u kernels\n", compared, ran);
    for (size_t i = 0; i < n_inputs; i++) free(inputs[i].text);
    jet_od_free(od);
    jet_parser_free(parser);
    return CHECK_DONE("test_errors");
}
