/*
 * test_validate.c — jet_od_validate accepts exactly what the DOM reader
 * accepts: every file of JSONTestSuite, the corpora, every prefix and many
 * byte mutations of a document, deep nesting and the depth limit, with each
 * kernel and with the reader flags that change the grammar; and it reports
 * clear errors and allocates nothing on reuse.
 */
#define _DEFAULT_SOURCE 1 /* dirent */
#include "check.h"

#include <jet.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jet_od *od;
static jet_parser *parser;
static char default_kernel[16]; /* restored after each loop over kernels */

/* Both verdicts on one input (exactly `len` malloc'd bytes, so that ASan
 * sees any read past the end). */
static void agree(const char *what, const char *json, size_t len, const jet_read_opts *opts) {
    char *copy = (char *)malloc(len ? len : 1);
    if (!copy) return;
    memcpy(copy, json, len);
    jet_error derr;
    bool dom = jet_parser_parse(parser, copy, len, opts, &derr) != NULL;
    bool val = jet_od_validate(od, copy, len, opts);
    const jet_error *e = jet_od_error(od);
    CHECK_MSG(dom == val, "%s: DOM %s, validate %s (%s at %zu: %s)", what, dom ? "accepts" : "rejects",
              val ? "accepts" : "rejects", jet_code_name(e->code), e->offset, e->msg ? e->msg : "");
    if (!val) {
        CHECK_MSG(e->code != JET_OK && e->msg && e->offset <= len && e->line >= 1 && e->column >= 1,
                  "%s: incomplete error (%s at %zu, %zu:%zu)", what, jet_code_name(e->code), e->offset,
                  e->line, e->column);
    } else {
        CHECK_MSG(e->code == JET_OK, "%s: accepted with an error recorded", what);
    }
    free(copy);
}

static const char *const kernels[] = {"scalar", "swar", "sse2", "avx2", "avx512", "neon"};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

static void test_suite(void) {
    char dir_path[1024];
    snprintf(dir_path, sizeof dir_path, "%s/conformance/JSONTestSuite/test_parsing", check_shared_dir());
    DIR *dir = opendir(dir_path);
    CHECK_MSG(dir != NULL, "cannot open %s", dir_path);
    if (!dir) return;
    size_t files = 0;
    jet_read_opts lenient;
    memset(&lenient, 0, sizeof lenient);
    lenient.flags = JET_READ_ALLOW_INVALID_UTF8 | JET_READ_ALLOW_NAN_INF | JET_READ_BIGNUM_AS_RAW;
    for (struct dirent *de; (de = readdir(dir));) {
        size_t nl = strlen(de->d_name);
        if (nl < 5 || strcmp(de->d_name + nl - 5, ".json") != 0) continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir_path, de->d_name);
        size_t len;
        char *text = check_read_file(path, &len);
        if (!text) continue;
        files++;
        for (size_t k = 0; k < N_KERNELS; k++) {
            if (!jet_kernel_set(kernels[k])) continue;
            char what[1200];
            snprintf(what, sizeof what, "%s [%s]", de->d_name, kernels[k]);
            agree(what, text, len, NULL);
            snprintf(what, sizeof what, "%s [%s, lenient flags]", de->d_name, kernels[k]);
            agree(what, text, len, &lenient);
        }
        jet_kernel_set(default_kernel);
        /* y_ files: accepted; n_ files: rejected (the DOM's verdicts, which
         * test_conformance checks, are the reference here) */
        bool val = jet_od_validate(od, text, len, NULL);
        if (de->d_name[0] == 'y') CHECK_MSG(val, "%s rejected", de->d_name);
        if (de->d_name[0] == 'n') CHECK_MSG(!val, "%s accepted", de->d_name);
        free(text);
    }
    closedir(dir);
    CHECK_MSG(files > 300, "only %zu suite files", files);
}

static void test_corpora(void) {
    static const char *const names[] = {"twitter.json", "citm_catalog.json", "canada.json", "github_events.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), names[i]);
        size_t len;
        char *text = check_read_file(path, &len);
        CHECK_MSG(text != NULL, "cannot read %s", path);
        if (!text) continue;
        for (size_t k = 0; k < N_KERNELS; k++) {
            if (!jet_kernel_set(kernels[k])) continue;
            char what[256];
            snprintf(what, sizeof what, "%s [%s]", names[i], kernels[k]);
            agree(what, text, len, NULL);
            CHECK_MSG(jet_od_validate(od, text, len, NULL), "%s rejected", what);
        }
        free(text);
    }
    jet_kernel_set(default_kernel);
}

/* Every prefix and a few thousand single-byte changes of one document. */
static void test_damage(void) {
    const char *doc =
        "{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\n\"], \"b\": {\"c\": {}, \"d\": []},\n"
        " \"e\": \"caf\xc3\xa9 \xf0\x9f\x98\x80\", \"f\": [[[]], {\"g\": 0}], \"h\": 12345678901234567890}";
    size_t len = strlen(doc);
    for (size_t cut = 0; cut < len; cut++) {
        char what[64];
        snprintf(what, sizeof what, "prefix %zu", cut);
        agree(what, doc, cut, NULL);
    }
    static const char repl[] = "{}[],:\"\\ 0-.eEtfn\x01\x80\xc3x";
    char *m = (char *)malloc(len);
    if (!m) return;
    for (size_t i = 0; i < len; i++)
        for (size_t r = 0; r < sizeof repl - 1; r++) {
            memcpy(m, doc, len);
            m[i] = repl[r];
            char what[64];
            snprintf(what, sizeof what, "byte %zu -> 0x%02x", i, (unsigned)(unsigned char)repl[r]);
            agree(what, m, len, NULL);
        }
    free(m);
}

static void test_depth_and_flags(void) {
    /* nesting to the limit and one past it */
    size_t d = 300;
    char *deep = (char *)malloc(2 * d + 1);
    if (!deep) return;
    for (size_t i = 0; i < d; i++) {
        deep[i] = '[';
        deep[2 * d - 1 - i] = ']';
    }
    jet_read_opts lim;
    memset(&lim, 0, sizeof lim);
    lim.max_depth = (uint32_t)d;
    agree("depth at the limit", deep, 2 * d, &lim);
    CHECK(jet_od_validate(od, deep, 2 * d, &lim));
    lim.max_depth = (uint32_t)d - 1;
    agree("depth past the limit", deep, 2 * d, &lim);
    CHECK(!jet_od_validate(od, deep, 2 * d, &lim) && jet_od_error(od)->code == JET_ERR_DEPTH_LIMIT);
    /* objects nested in arrays and back, beyond 64 levels (the kinds of
     * open containers span several words) */
    size_t n = 0;
    char *mix = (char *)malloc(8 * 200 + 16);
    if (mix) {
        for (size_t i = 0; i < 200; i++) {
            if (i & 1) {
                memcpy(mix + n, "{\"k\":", 5);
                n += 5;
            } else {
                mix[n++] = '[';
            }
        }
        mix[n++] = '1';
        for (size_t i = 200; i-- > 0;) mix[n++] = (i & 1) ? '}' : ']';
        agree("200 levels, alternating", mix, n, NULL);
        CHECK(jet_od_validate(od, mix, n, NULL));
        mix[n - 3] = mix[n - 3] == '}' ? ']' : '}'; /* one bracket of the wrong kind */
        agree("200 levels, one wrong bracket", mix, n, NULL);
        CHECK(!jet_od_validate(od, mix, n, NULL));
        free(mix);
    }
    free(deep);
    /* flags the grammar depends on */
    static const struct {
        const char *json;
        jet_read_flags flags;
    } cases[] = {
        {"[NaN, Infinity, -Infinity]", JET_READ_ALLOW_NAN_INF},
        {"[NaN]", 0},
        {"[1e400]", 0},
        {"[1e400]", JET_READ_BIGNUM_AS_RAW},
        {"[\"\\ud800\"]", 0},
        {"[\"\\ud800\"]", JET_READ_ALLOW_INVALID_UTF8},
        {"[\"\xff\"]", 0},
        {"[\"\xff\"]", JET_READ_ALLOW_INVALID_UTF8},
        {"[1, 2, ] // c", JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_ALLOW_COMMENTS},
        {"[1, 2, ]", 0},
        {"/* c */ {\"a\": 1}", JET_READ_ALLOW_COMMENTS},
        {"{\"a\": 1} xyz", JET_READ_STOP_WHEN_DONE},
        {"{\"a\": 1} xyz", 0},
        {"", 0},
        {"   ", 0},
        {"\"lonely\"", 0},
        {"-0", 0},
        {"01", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jet_read_opts o;
        memset(&o, 0, sizeof o);
        o.flags = cases[i].flags;
        char what[96];
        snprintf(what, sizeof what, "flags case %zu", i);
        agree(what, cases[i].json, strlen(cases[i].json), &o);
    }
    /* error details */
    const char *bad = "{\"a\": [1, 2}\n";
    CHECK(!jet_od_validate(od, bad, strlen(bad), NULL));
    const jet_error *e = jet_od_error(od);
    CHECK_MSG(e->code == JET_ERR_UNEXPECTED_CHAR && e->offset == 11 && e->line == 1 && e->column == 12,
              "got %s at %zu (%zu:%zu)", jet_code_name(e->code), e->offset, e->line, e->column);
    jet_error oe;
    CHECK(!jet_validate(bad, strlen(bad), NULL, NULL, &oe) && oe.code == JET_ERR_UNEXPECTED_CHAR &&
          oe.offset == 11 && oe.path == NULL);
    CHECK(jet_validate("[]", 2, NULL, NULL, NULL));
}

/* Validating again allocates nothing. */
static void test_no_allocation_on_reuse(void) {
    check_counter c = {0, 0, 0, 0};
    jet_alloc a = CHECK_COUNTER_ALLOC(&c);
    jet_od *o = jet_od_new(&a);
    CHECK(o != NULL);
    if (!o) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/corpora/twitter.json", check_shared_dir());
    size_t len;
    char *text = check_read_file(path, &len);
    if (text) {
        CHECK(jet_od_validate(o, text, len, NULL));
        long before = c.mallocs + c.reallocs;
        CHECK(jet_od_validate(o, text, len, NULL));
        CHECK_MSG(c.mallocs + c.reallocs == before, "second validation allocated %ld times",
                  c.mallocs + c.reallocs - before);
        free(text);
    }
    jet_od_free(o);
    CHECK_MSG(c.live == 0, "the cursor left %ld blocks", c.live);
}

int main(void) {
    snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    od = jet_od_new(NULL);
    parser = jet_parser_new(NULL);
    CHECK(od && parser);
    if (!od || !parser) return CHECK_DONE("test_validate");
    test_suite();
    test_corpora();
    test_damage();
    test_depth_and_flags();
    test_no_allocation_on_reuse();
    jet_od_free(od);
    jet_parser_free(parser);
    return CHECK_DONE("test_validate");
}
