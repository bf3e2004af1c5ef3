/*
 * num_bench.c — jet-num-bench: number parsing and printing alone.
 *
 * Two sets of doubles:
 *   canada  every number of canada.json, parsed in place (the pointer into
 *           the document, `end` = the end of the document, as the DOM reader
 *           calls jet_num_parse);
 *   random  2^17 doubles uniform over the finite bit patterns, written as
 *           their shortest form, comma-separated in one buffer.
 * Parsing: jet_num_parse, strtod (C locale) and std::from_chars.
 * Printing: jet_num_write_f64, snprintf("%.17g"), std::to_chars (shortest)
 * and RapidJSON's Grisu2 dtoa (the routine behind its Writer).
 * Every engine's results are checked before timing (parse: the same bits as
 * strtod; print: reads back to the same bits). Timing interleaves the
 * engines, one pass over the set each, until every engine has had
 * --min-time-ms; the median pass is reported as ns per number and millions
 * of numbers per second.
 *
 *   build/bench/jet-num-bench [--min-time-ms 500] [--data canada.json] [--only parse|print]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "jb_config.h"
#include "num.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* num_bench_cxx.cpp */
int nbx_have_charconv(void);
const char *nbx_from_chars(const char *p, const char *end, double *out);
size_t nbx_to_chars(double d, char *buf, size_t cap);
int nbx_have_rapidjson(void);
size_t nbx_rapidjson_dtoa(double d, char *buf);

static volatile uint64_t nb_sink;

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t dbits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* ------------------------------------------------------------------ sets -- */

typedef struct nb_set {
    const char *name;
    char *text;      /* the buffer the numbers live in (NUL-terminated) */
    size_t text_len; /* without the NUL; parsers get end = text + text_len */
    size_t n;
    size_t *ofs;     /* start of each number in text */
    double *val;     /* the values (strtod's) */
} nb_set;

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return NULL; }
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) { fclose(f); return NULL; }
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); fclose(f); return NULL; }
    fclose(f);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "jet-num-bench: out of memory\n");
        exit(2);
    }
    return p;
}

/* Every number token of a JSON text (strings skipped). */
static int load_canada(nb_set *s, const char *path) {
    s->name = "canada";
    s->text = read_file(path, &s->text_len);
    if (!s->text) return 0;
    size_t cap = 1024;
    s->ofs = xmalloc(cap * sizeof *s->ofs);
    s->n = 0;
    int in_str = 0;
    for (size_t i = 0; i < s->text_len; i++) {
        char c = s->text[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') in_str = 0;
            continue;
        }
        if (c == '"') {
            in_str = 1;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (s->n == cap) {
                cap *= 2;
                size_t *t = realloc(s->ofs, cap * sizeof *s->ofs);
                if (!t) return 0;
                s->ofs = t;
            }
            s->ofs[s->n++] = i;
            while (i + 1 < s->text_len && strchr("0123456789+-.eE", s->text[i + 1])) i++;
        }
    }
    s->val = xmalloc(s->n * sizeof *s->val);
    for (size_t i = 0; i < s->n; i++) s->val[i] = strtod(s->text + s->ofs[i], NULL);
    return 1;
}

static uint64_t rng_state = UINT64_C(0x2545F4914F6CDD1D);
static uint64_t rng(void) { /* splitmix64 */
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void make_random(nb_set *s, size_t n) {
    s->name = "random";
    s->n = n;
    s->ofs = xmalloc(n * sizeof *s->ofs);
    s->val = xmalloc(n * sizeof *s->val);
    s->text = xmalloc(n * (JET_NUM_F64_MAX_CHARS + 1) + 1);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t b;
        do b = rng(); while (((b >> 52) & 0x7ff) == 0x7ff);
        memcpy(&s->val[i], &b, 8);
        s->ofs[i] = at;
        at += jet_num_write_f64(s->val[i], s->text + at);
        s->text[at++] = ',';
    }
    s->text[at] = '\0';
    s->text_len = at;
}

/* --------------------------------------------------------------- engines -- */

enum { E_JET_PARSE, E_STRTOD, E_FROM_CHARS, E_JET_PRINT, E_SNPRINTF, E_TO_CHARS, E_RJ_DTOA, E__COUNT };
static const char *const e_names[E__COUNT] = {
    "jet_num_parse", "strtod", "std::from_chars",
    "jet_num_write_f64", "snprintf %.17g", "std::to_chars", "rapidjson dtoa"};
static const int e_is_parse[E__COUNT] = {1, 1, 1, 0, 0, 0, 0};

static char out_buf[64];

/* One pass over the set; returns a checksum. */
static uint64_t run_pass(int e, const nb_set *s) {
    uint64_t acc = 0;
    const char *end = s->text + s->text_len;
    switch (e) {
    case E_JET_PARSE:
        for (size_t i = 0; i < s->n; i++) {
            jet_num num;
            jet_code code;
            const char *at;
            const char *q = jet_num_parse(s->text + s->ofs[i], end, 0, &num, &code, &at);
            if (q) acc += num.v.u + (uint64_t)(q - s->text); /* num is set only then */
        }
        break;
    case E_STRTOD:
        for (size_t i = 0; i < s->n; i++) {
            char *q;
            double d = strtod(s->text + s->ofs[i], &q);
            acc += dbits(d) + (uint64_t)(q - s->text);
        }
        break;
    case E_FROM_CHARS:
        for (size_t i = 0; i < s->n; i++) {
            double d = 0;
            const char *q = nbx_from_chars(s->text + s->ofs[i], end, &d);
            acc += dbits(d) + (uint64_t)(q - s->text);
        }
        break;
    case E_JET_PRINT:
        for (size_t i = 0; i < s->n; i++) acc += jet_num_write_f64(s->val[i], out_buf) + (uint8_t)out_buf[1];
        break;
    case E_SNPRINTF:
        for (size_t i = 0; i < s->n; i++)
            acc += (uint64_t)snprintf(out_buf, sizeof out_buf, "%.17g", s->val[i]) + (uint8_t)out_buf[1];
        break;
    case E_TO_CHARS:
        for (size_t i = 0; i < s->n; i++) acc += nbx_to_chars(s->val[i], out_buf, sizeof out_buf) + (uint8_t)out_buf[1];
        break;
    case E_RJ_DTOA:
        for (size_t i = 0; i < s->n; i++) acc += nbx_rapidjson_dtoa(s->val[i], out_buf) + (uint8_t)out_buf[1];
        break;
    default:
        break;
    }
    return acc;
}

/* Checks an engine's results on the whole set; 0 when they are right. */
static int verify(int e, const nb_set *s, char *why, size_t why_len) {
    const char *end = s->text + s->text_len;
    char buf[64];
    for (size_t i = 0; i < s->n; i++) {
        const char *src = s->text + s->ofs[i];
        double want = s->val[i], got = 0;
        switch (e) {
        case E_JET_PARSE: {
            jet_num num;
            jet_code code;
            const char *at;
            if (!jet_num_parse(src, end, 0, &num, &code, &at)) goto bad;
            got = num.kind == JET_NUM_REAL ? num.v.d : num.kind == JET_NUM_UINT ? (double)num.v.u
                                                                                : (double)num.v.i;
            break;
        }
        case E_STRTOD: got = strtod(src, NULL); break;
        case E_FROM_CHARS:
            if (!nbx_from_chars(src, end, &got)) goto bad;
            break;
        case E_JET_PRINT: jet_num_write_f64(want, buf); got = strtod(buf, NULL); break;
        case E_SNPRINTF: snprintf(buf, sizeof buf, "%.17g", want); got = strtod(buf, NULL); break;
        case E_TO_CHARS: buf[nbx_to_chars(want, buf, sizeof buf - 1)] = '\0'; got = strtod(buf, NULL); break;
        case E_RJ_DTOA: buf[nbx_rapidjson_dtoa(want, buf)] = '\0'; got = strtod(buf, NULL); break;
        default: break;
        }
        if (dbits(got) != dbits(want)) goto bad;
        continue;
    bad:
        snprintf(why, why_len, "number %zu (%.17g) wrong", i, want);
        return 1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ------------------------------------------------------------------ main -- */

int main(int argc, char **argv) {
    double min_ms = 500;
    const char *data = NULL, *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--min-time-ms") == 0 && i + 1 < argc) {
            min_ms = atof(argv[++i]);
        } else if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
            data = argv[++i];
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--min-time-ms MS] [--data canada.json] [--only parse|print]\n", argv[0]);
            return 2;
        }
    }
    char path[1024];
    if (!data) {
        const char *env = getenv("JET_SHARED_DIR");
        if (env && *env) snprintf(path, sizeof path, "%s/corpora/canada.json", env);
        else snprintf(path, sizeof path, "%s/canada.json", JB_CORPORA_DIR);
        data = path;
    }

    nb_set sets[2];
    int nsets = 0;
    if (load_canada(&sets[nsets], data)) nsets++;
    else printf("note: %s not found (--data FILE): canada skipped\n", data);
    make_random(&sets[nsets++], (size_t)1 << 17);

    int have[E__COUNT];
    for (int e = 0; e < E__COUNT; e++) {
        have[e] = 1;
        if (only && strcmp(only, e_is_parse[e] ? "parse" : "print") != 0) have[e] = 0;
    }
    if (!nbx_have_charconv()) have[E_FROM_CHARS] = have[E_TO_CHARS] = 0;
    if (!nbx_have_rapidjson()) have[E_RJ_DTOA] = 0;

    printf("jet-num-bench: %s, %s; median pass, interleaved, >= %.0f ms per cell\n", JB_COMPILER, JB_FLAGS,
           min_ms);
    for (int si = 0; si < nsets; si++) {
        nb_set *s = &sets[si];
        int ok[E__COUNT];
        for (int e = 0; e < E__COUNT; e++) {
            char why[128];
            ok[e] = have[e] && verify(e, s, why, sizeof why) == 0;
            if (have[e] && !ok[e]) printf("  %s on %s: verification failed (%s), not timed\n", e_names[e], s->name, why);
        }
        size_t cap = 4096, npass = 0;
        double *t[E__COUNT];
        for (int e = 0; e < E__COUNT; e++) t[e] = xmalloc(cap * sizeof(double));
        double total[E__COUNT] = {0};
        for (;;) {
            int more = 0;
            for (int e = 0; e < E__COUNT; e++)
                if (ok[e] && total[e] < min_ms * 1e6) more = 1;
            if ((!more && npass >= 5) || npass == cap) break;
            for (int e = 0; e < E__COUNT; e++) {
                if (!ok[e]) continue;
                double t0 = now_ns();
                nb_sink += run_pass(e, s);
                double dt = now_ns() - t0;
                t[e][npass] = dt;
                total[e] += dt;
            }
            npass++;
        }
        printf("\n%s: %zu numbers (%.1f bytes each on average in the text)\n", s->name, s->n,
               (double)s->text_len / (double)s->n);
        printf("    %-20s %9s %12s %10s\n", "", "ns/number", "Mnumbers/s", "x");
        double med[E__COUNT];
        for (int e = 0; e < E__COUNT; e++) {
            med[e] = 0;
            if (!ok[e]) continue;
            qsort(t[e], npass, sizeof(double), cmp_double);
            med[e] = t[e][npass / 2] / (double)s->n;
        }
        for (int kind = 0; kind < 2; kind++) {
            int r = kind == 0 ? E_STRTOD : E_SNPRINTF;
            printf("  %s\n", kind == 0 ? "parse (text -> double); x = speed relative to strtod"
                                       : "print (double -> shortest text); x = speed relative to snprintf %.17g");
            for (int e = 0; e < E__COUNT; e++) {
                if (!ok[e] || e_is_parse[e] != (kind == 0)) continue;
                printf("    %-20s %9.2f %12.1f", e_names[e], med[e], 1e3 / med[e]);
                if (ok[r]) printf(" %9.2fx", med[r] / med[e]);
                putchar('\n');
            }
        }
        for (int e = 0; e < E__COUNT; e++) free(t[e]);
    }
    for (int si = 0; si < nsets; si++) {
        free(sets[si].text);
        free(sets[si].ofs);
        free(sets[si].val);
    }
    return 0;
}
