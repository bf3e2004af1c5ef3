/* test_corpora.c — the shared corpora (../shared/corpora): every *.json file
 * and every line of nostr_relay.ndjson parses, and writing it minified or
 * pretty then parsing again gives an equal document; every proper prefix of
 * github_events.json fails cleanly; and a few thousand random byte
 * mutations (fixed seed) of the corpora and of their subtrees end in either
 * success or a clean error, never a crash, an over-read or an offset out of
 * bounds. Every input sits in a buffer of exactly its own size; the reader
 * kernels (jet_kernel_set) take turns. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "internal.h"
#include "jet.h"

#define LENIENT                                                                       \
    (JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_ALLOW_NAN_INF | \
     JET_READ_ALLOW_INVALID_UTF8)

/* Sanitizer builds run fewer mutations (the checks are the same). */
#if defined(__SANITIZE_ADDRESS__)
#define JET_TEST_SLOW 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JET_TEST_SLOW 1
#endif
#endif
/* Mutation counts are multiplied by MUT_SCALE / 2. */
#ifdef JET_TEST_SLOW
#define MUT_SCALE 1
#else
#define MUT_SCALE 2
#endif
#define SCALED(n) ((n) * MUT_SCALE / 2)

/* ---- helpers ------------------------------------------------------------- */

/* Reader kernels this CPU has; prefixes and mutations take them in turn. */
static const char *kernels[8];
static size_t n_kernels;

static void find_kernels(void) {
    static const char *const names[] = {"scalar", "swar", "sse2", "avx2", "neon"};
    const char *initial = jet_kernel_name();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (jet_kernel_set(names[i])) kernels[n_kernels++] = names[i];
    CHECK(n_kernels >= 1 && jet_kernel_set(initial));
}

/* Selects kernel number i (mod the count); returns its name. */
static const char *next_kernel(size_t i) {
    const char *k = n_kernels ? kernels[i % n_kernels] : "default";
    if (n_kernels) jet_kernel_set(k);
    return k;
}

/* xorshift64*: a fixed, portable sequence. */
static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);
static uint64_t rng(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(0x2545F4914F6CDD1D);
}
static size_t rng_below(size_t n) { return n ? (size_t)(rng() % n) : 0; }

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static jet_read_opts mkopts(jet_read_flags flags) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    return o;
}

static bool clean_error(const jet_error *err, size_t len) {
    return err->code != JET_OK && err->code < JET_ERR__COUNT && err->offset <= len &&
           err->line >= 1 && err->column >= 1 && err->msg != NULL && err->msg[0] != '\0';
}

/* Writes `v` with `wflags`, parses the text (exactly sized) with `rflags`
 * and checks equality. Returns false when any step fails. */
static bool round_trip(const char *what, const jet_val *v, jet_write_flags wflags,
                       jet_read_flags rflags) {
    size_t n = 0;
    jet_error err;
    char *text = jet_val_write(v, wflags, NULL, &n, &err);
    CHECK_MSG(text != NULL, "%s: write (flags %#x) failed: %s", what, (unsigned)wflags,
              text ? "" : err.msg);
    if (!text) return false;
    char *exact = check_dup_exact(text, n);
    free(text);
    jet_read_opts o = mkopts(rflags);
    jet_doc *back = jet_read(exact, n, &o, NULL, &err);
    free(exact);
    CHECK_MSG(back != NULL, "%s: written text (flags %#x) does not parse: %s at %zu", what,
              (unsigned)wflags, back ? "" : err.msg, back ? (size_t)0 : err.offset);
    bool ok = back != NULL;
    if (back) {
        ok = jet_val_equal(v, jet_doc_root(back));
        CHECK_MSG(ok, "%s: round trip (flags %#x) differs", what, (unsigned)wflags);
        jet_doc_free(back);
    }
    return ok;
}

/* ---- corpora ------------------------------------------------------------- */

typedef struct corpus {
    char name[256];
    char *data; /* exactly len bytes */
    size_t len;
} corpus;

static corpus corpora[16];
static size_t n_corpora;
static corpus *github;
static char *ndjson;
static size_t ndjson_len;

static char *load_exact(const char *dir, const char *name, size_t *len) {
    char path[4600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *raw = check_read_file(path, len);
    if (!raw) return NULL;
    char *b = check_dup_exact(raw, *len);
    free(raw);
    return b;
}

static int cmp_corpus(const void *a, const void *b) {
    return strcmp(((const corpus *)a)->name, ((const corpus *)b)->name);
}

static void load_corpora(void) {
    char dir_path[4096];
    snprintf(dir_path, sizeof dir_path, "%s/corpora", check_shared_dir());
    DIR *dir = opendir(dir_path);
    CHECK_MSG(dir != NULL, "cannot open %s", dir_path);
    if (!dir) return;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t nl = strlen(e->d_name);
        if (nl < 6 || nl >= sizeof corpora[0].name || strcmp(e->d_name + nl - 5, ".json") != 0)
            continue;
        if (n_corpora == sizeof corpora / sizeof corpora[0]) break;
        corpus *c = &corpora[n_corpora];
        memcpy(c->name, e->d_name, nl + 1);
        c->data = load_exact(dir_path, c->name, &c->len);
        CHECK_MSG(c->data != NULL, "cannot read %s", c->name);
        if (c->data) n_corpora++;
    }
    closedir(dir);
    qsort(corpora, n_corpora, sizeof corpora[0], cmp_corpus);
    for (size_t i = 0; i < n_corpora; i++)
        if (strcmp(corpora[i].name, "github_events.json") == 0) github = &corpora[i];
    CHECK_MSG(n_corpora >= 4, "only %zu corpora", n_corpora);
    CHECK_MSG(github != NULL, "github_events.json missing");
    ndjson = load_exact(dir_path, "nostr_relay.ndjson", &ndjson_len);
    CHECK_MSG(ndjson != NULL, "nostr_relay.ndjson missing");
}

/* ---- whole documents: parse, write, parse ---------------------------------- */

static void check_document(const char *what, const char *data, size_t len, jet_parser *p) {
    char *exact = check_dup_exact(data, len);
    jet_error err;
    jet_doc *d = jet_read(exact, len, NULL, NULL, &err);
    CHECK_MSG(d != NULL, "%s: %s at %zu (%zu:%zu)", what, d ? "" : err.msg,
              d ? (size_t)0 : err.offset, d ? (size_t)0 : err.line, d ? (size_t)0 : err.column);
    if (!d) {
        free(exact);
        return;
    }
    jet_val *root = jet_doc_root(d);
    CHECK(root != NULL && jet_doc_read_size(d) == len && jet_is_container(root));
    /* the reusable parser gives an equal document, with every kernel */
    const char *initial = jet_kernel_name();
    for (size_t k = 0; k < n_kernels; k++) {
        next_kernel(k);
        jet_doc *pd = jet_parser_parse(p, exact, len, NULL, &err);
        CHECK_MSG(pd && jet_val_equal(root, jet_doc_root(pd)) &&
                      jet_doc_val_count(pd) == jet_doc_val_count(d),
                  "%s: parser result differs with kernel %s", what, kernels[k]);
    }
    jet_kernel_set(initial);
    CHECK_MSG(memcmp(exact, data, len) == 0, "%s: input modified", what);
    free(exact);
    /* minified, pretty (2 and 4), ASCII-only: each parses back equal */
    round_trip(what, root, JET_WRITE_NOFLAG, 0);
    round_trip(what, root, JET_WRITE_PRETTY_2, 0);
    round_trip(what, root, JET_WRITE_PRETTY, 0);
    round_trip(what, root, JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES, 0);
    /* writing is a fixed point: minify(parse(minify(x))) == minify(x) */
    size_t n1 = 0, n2 = 0;
    char *m1 = jet_val_write(root, 0, NULL, &n1, NULL);
    jet_doc *d2 = m1 ? jet_read(m1, n1, NULL, NULL, NULL) : NULL;
    char *m2 = d2 ? jet_val_write(jet_doc_root(d2), 0, NULL, &n2, NULL) : NULL;
    CHECK_MSG(m1 && m2 && n1 == n2 && memcmp(m1, m2, n1) == 0, "%s: minified text not stable",
              what);
    /* the minified text is never longer than the source */
    CHECK_MSG(m1 && n1 <= len, "%s: minified %zu > source %zu", what, n1, len);
    free(m1);
    free(m2);
    jet_doc_free(d2);
    jet_doc_free(d);
}

static void test_documents(void) {
    jet_parser *p = jet_parser_new(NULL);
    CHECK(p != NULL);
    if (!p) return;
    for (size_t i = 0; i < n_corpora; i++)
        check_document(corpora[i].name, corpora[i].data, corpora[i].len, p);

    /* nostr_relay.ndjson: one document per line ... */
    size_t lines = 0;
    jet_doc *line_docs[64];
    size_t line_start[64];
    for (size_t pos = 0; ndjson && pos < ndjson_len;) {
        const char *nl = memchr(ndjson + pos, '\n', ndjson_len - pos);
        size_t end = nl ? (size_t)(nl - ndjson) : ndjson_len;
        if (end > pos) {
            char what[64];
            snprintf(what, sizeof what, "nostr_relay.ndjson line %zu", lines + 1);
            check_document(what, ndjson + pos, end - pos, p);
            if (lines < 64) {
                line_docs[lines] = jet_read(ndjson + pos, end - pos, NULL, NULL, NULL);
                line_start[lines] = pos;
            }
            lines++;
        }
        pos = end + 1;
    }
    CHECK_MSG(lines == 35, "ndjson lines: %zu", lines);
    /* ... the whole file is not one document: the second line is trailing content ... */
    if (ndjson && lines > 1) {
        jet_error err;
        jet_doc *d = jet_read(ndjson, ndjson_len, NULL, NULL, &err);
        CHECK_MSG(d == NULL && err.code == JET_ERR_TRAILING_CONTENT &&
                      err.offset == line_start[1] && err.line == 2 && err.column == 1,
                  "ndjson as one document: %s at %zu", d ? "JET_OK" : jet_code_name(err.code),
                  err.offset);
        jet_doc_free(d);
    }
    /* ... but a stream of values with JET_READ_STOP_WHEN_DONE */
    if (ndjson) {
        jet_read_opts o = mkopts(JET_READ_STOP_WHEN_DONE);
        size_t pos = 0, k = 0;
        for (;;) {
            while (pos < ndjson_len && (ndjson[pos] == '\n' || ndjson[pos] == ' ')) pos++;
            if (pos >= ndjson_len) break;
            jet_error err;
            jet_doc *d = jet_parser_parse(p, ndjson + pos, ndjson_len - pos, &o, &err);
            CHECK_MSG(d != NULL, "ndjson stream value %zu: %s", k, d ? "" : err.msg);
            if (!d) break;
            if (k < lines && k < 64) {
                CHECK_MSG(pos == line_start[k] && line_docs[k] &&
                              jet_val_equal(jet_doc_root(d), jet_doc_root(line_docs[k])),
                          "ndjson stream value %zu differs from line %zu", k, k + 1);
            }
            pos += jet_doc_read_size(d);
            k++;
        }
        CHECK_MSG(k == lines, "ndjson stream: %zu values, %zu lines", k, lines);
    }
    for (size_t i = 0; i < lines && i < 64; i++) jet_doc_free(line_docs[i]);
    jet_parser_free(p);
}

/* ---- prefixes of github_events.json ----------------------------------------- */

static void test_prefixes(void) {
    if (!github) return;
    const char *json = github->data;
    size_t n = github->len;
    /* where the root value ends: any prefix at least that long is valid */
    jet_read_opts stop = mkopts(JET_READ_STOP_WHEN_DONE);
    jet_doc *sd = jet_read(json, n, &stop, NULL, NULL);
    CHECK(sd != NULL);
    size_t root_end = sd ? jet_doc_read_size(sd) : n;
    jet_doc_free(sd);
    CHECK_MSG(root_end < n && root_end + 1 == n && json[n - 1] == '\n',
              "github_events.json: root ends at %zu of %zu", root_end, n);

    jet_parser *p = jet_parser_new(NULL);
    if (!p) return;
    size_t bad = 0, n_ok = 0, n_trunc = 0, n_empty = 0;
    /* longest first: the parser's arenas then fit every later prefix, and
     * the run spends its time parsing rather than reallocating */
    const char *initial = jet_kernel_name();
    for (size_t k = n; k-- > 0;) {
        const char *kern = next_kernel(k);
        char *buf = check_dup_exact(json, k);
        jet_error err;
        memset(&err, 0, sizeof err);
        bool one_shot = k % 251 == 0; /* now and then the allocating path */
        jet_doc *d = one_shot ? jet_read(buf, k, NULL, NULL, &err)
                              : jet_parser_parse(p, buf, k, NULL, &err);
        bool parsed = d != NULL;
        if (one_shot) jet_doc_free(d);
        if (parsed) n_ok++;
        bool ok;
        if (k >= root_end) {
            ok = parsed;
        } else if (parsed) {
            ok = false;
        } else {
            ok = clean_error(&err, k);
            if (ok) {
                switch (err.code) {
                case JET_ERR_TRUNCATED:
                    ok = err.offset == k;
                    n_trunc++;
                    break;
                case JET_ERR_EMPTY:
                    ok = err.offset == k;
                    n_empty++;
                    break;
                default:
                    ok = false;
                    break;
                }
            }
        }
        if (!ok && bad++ < 10)
            CHECK_MSG(ok, "github_events.json prefix %zu (kernel %s): %s at %zu (%s)", k, kern,
                      parsed ? "JET_OK" : jet_code_name(err.code), err.offset,
                      parsed ? "" : (err.msg ? err.msg : "?"));
        else
            CHECK(ok);
        free(buf);
    }
    jet_parser_free(p);
    jet_kernel_set(initial);
    CHECK_MSG(n_ok == n - root_end, "prefixes accepted: %zu", n_ok);
    /* a cut inside a multi-byte character or a surrogate pair is truncation
     * too, so every too-short prefix reports JET_ERR_TRUNCATED */
    CHECK(n_empty == 1 && n_trunc + n_empty == root_end);
    printf("github_events.json: %zu prefixes: %zu truncated, %zu empty, %zu valid\n", n, n_trunc,
           n_empty, n_ok);
}

/* ---- mutations ------------------------------------------------------------- */

static const char structural[] = "{}[]:,\"\\ \n/*0-.eE+tfnu1x";

static size_t mut_total, mut_ok, mut_err;

/* Mutates 1..4 bytes of buf (len >= 1), parses it strictly or leniently,
 * checks the outcome, then restores the bytes. */
static void mutate_once(const char *what, char *buf, size_t len, jet_parser *p, bool round) {
    size_t pos[4];
    unsigned char old[4];
    size_t count = 1 + rng_below(4);
    for (size_t i = 0; i < count; i++) {
        pos[i] = rng_below(len);
        old[i] = (unsigned char)buf[pos[i]];
    }
    for (size_t i = 0; i < count; i++) {
        uint64_t r = rng();
        buf[pos[i]] = (r & 1) ? (char)(unsigned char)(r >> 8)
                              : structural[(r >> 8) % (sizeof structural - 1)];
    }
    jet_read_flags flags = (rng() & 3) == 0 ? LENIENT : 0;
    jet_read_opts o = mkopts(flags);
    jet_error err;
    memset(&err, 0, sizeof err);
    const char *kern = next_kernel(mut_total);
    jet_doc *d = jet_parser_parse(p, buf, len, &o, &err);
    mut_total++;
    if (d) {
        mut_ok++;
        CHECK_MSG(jet_doc_root(d) != NULL && jet_doc_read_size(d) == len,
                  "%s (kernel %s): mutation OK but read %zu of %zu", what, kern,
                  jet_doc_read_size(d), len);
        if (round) {
            jet_write_flags wf = (flags & JET_READ_ALLOW_NAN_INF) ? JET_WRITE_ALLOW_NAN_INF : 0;
            round_trip(what, jet_doc_root(d), wf, flags);
        }
    } else {
        mut_err++;
        CHECK_MSG(clean_error(&err, len),
                  "%s (kernel %s): mutation gave %s at %zu of %zu (%zu:%zu)", what, kern, jet_code_name(err.code), err.offset, len, err.line, err.column);
    }
    /* restore in reverse, so repeated positions get their first byte back */
    for (size_t i = count; i-- > 0;) buf[pos[i]] = (char)old[i];
}

/* Appends the containers among the children of `v` (and, while `depth`
 * allows, among theirs) to out[0..cap). */
static void collect_subtrees(const jet_val *v, int depth, const jet_val **out, size_t *n,
                             size_t cap) {
    jet_val *kids[2048];
    size_t nk = 0;
    if (jet_is_arr(v)) {
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; nk < 2048 && (e = jet_arr_iter_next(&it));) kids[nk++] = e;
    } else if (jet_is_obj(v)) {
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; nk < 2048 && (k = jet_obj_iter_next(&it));)
            kids[nk++] = jet_obj_iter_value(k);
    }
    for (size_t i = 0; i < nk && *n < cap; i++) {
        if (!jet_is_container(kids[i])) continue;
        out[(*n)++] = kids[i];
        if (depth > 1) collect_subtrees(kids[i], depth - 1, out, n, cap);
    }
}

static void test_mutations(void) {
    jet_parser *p = jet_parser_new(NULL);
    if (!p) return;
    const char *initial = jet_kernel_name();
    for (size_t ci = 0; ci < n_corpora; ci++) {
        corpus *c = &corpora[ci];
        /* whole-file mutations: fewer for the big files */
        size_t whole = SCALED(c->len > (1u << 20) ? 40 : c->len > (1u << 18) ? 100 : 300);
        char *buf = check_dup_exact(c->data, c->len);
        for (size_t i = 0; i < whole; i++)
            mutate_once(c->name, buf, c->len, p, c->len < (1u << 18) || (i % 8) == 0);
        CHECK_MSG(memcmp(buf, c->data, c->len) == 0, "%s: not restored", c->name);
        free(buf);

        /* subtree mutations: small documents cut from the corpus */
        jet_doc *d = jet_read(c->data, c->len, NULL, NULL, NULL);
        if (!d) continue;
        static const jet_val *subs[4096];
        size_t ns = 0;
        collect_subtrees(jet_doc_root(d), 2, subs, &ns, sizeof subs / sizeof subs[0]);
        CHECK_MSG(ns > 0, "%s: no subtrees", c->name);
        size_t rounds = SCALED(500);
        for (size_t i = 0; ns && i < rounds; i++) {
            const jet_val *v = subs[rng_below(ns)];
            jet_write_flags wf = (i & 1) ? JET_WRITE_PRETTY_2 : 0;
            size_t n = 0;
            char *text = jet_val_write(v, wf, NULL, &n, NULL);
            CHECK(text != NULL);
            if (!text) continue;
            /* keep the mutated documents small */
            if (n > 16384) n = 16384;
            char *sb = check_dup_exact(text, n);
            free(text);
            mutate_once(c->name, sb, n, p, true);
            free(sb);
        }
        jet_doc_free(d);
    }

    /* each ndjson line, mutated */
    for (size_t pos = 0; ndjson && pos < ndjson_len;) {
        const char *nl = memchr(ndjson + pos, '\n', ndjson_len - pos);
        size_t end = nl ? (size_t)(nl - ndjson) : ndjson_len;
        if (end > pos) {
            char *lb = check_dup_exact(ndjson + pos, end - pos);
            for (size_t i = 0; i < SCALED(40); i++)
                mutate_once("nostr_relay.ndjson", lb, end - pos, p, true);
            free(lb);
        }
        pos = end + 1;
    }
    jet_parser_free(p);
    jet_kernel_set(initial);
    printf("mutations: %zu (%zu parsed, %zu rejected)\n", mut_total, mut_ok, mut_err);
    CHECK(mut_total >= SCALED(3800) && mut_err > mut_total / 2 && mut_ok > 0);
}

int main(void) {
    double t0 = now_s();
    find_kernels();
    load_corpora();
    test_documents();
    double t1 = now_s();
    test_prefixes();
    double t2 = now_s();
    test_mutations();
    double t3 = now_s();
    printf("times: documents %.2fs, prefixes %.2fs, mutations %.2fs\n", t1 - t0, t2 - t1,
           t3 - t2);
    for (size_t i = 0; i < n_corpora; i++) free(corpora[i].data);
    free(ndjson);
    /* the index route accepted every document the one-pass reader did */
    CHECK_MSG(jet__index_rereads() == 0, "%zu documents re-read after the index route rejected them",
              jet__index_rereads());
    return CHECK_DONE("test_corpora");
}
