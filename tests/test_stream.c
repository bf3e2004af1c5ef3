/* test_stream.c — document streams (jet.h section 16): NDJSON and
 * concatenated JSON over one buffer, absolute error positions, stop and
 * skip, the byte order mark, cursor and typed decoding per document,
 * chunked input (every chunk size 1..70 against the one-buffer result, a
 * large document fed in pieces, a 50 MB stream in random chunks under a
 * counting allocator with a bounded peak). The threaded runner is tested
 * in test_stream_threads.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"
#include "text_log.h"

/* ---- a log of what a stream yields, for comparisons ---- */

static void text_printf(text *t, const char *fmt, unsigned long long a, unsigned long long b,
                        unsigned long long c, unsigned long long d) {
    char buf[256];
    int n = snprintf(buf, sizeof buf, fmt, a, b, c, d);
    text_add(t, buf, (size_t)n);
}

/* One line per document: index, offset, line:column, then the minified
 * DOM, or the error (code, absolute offset, line:column). */
static void log_doc(text *t, jet_stream_status st, const jet_stream_doc *d, jet_doc *doc,
                    const jet_stream *s) {
    if (st == JET_STREAM_DOC) {
        text_printf(t, "#%llu @%llu %llu:%llu ", d->index, d->offset, d->line, d->column);
        size_t n = 0;
        char *w = jet_doc_write(doc, 0, NULL, &n, NULL);
        if (w) text_add(t, w, n);
        free(w);
        text_add(t, "\n", 1);
    } else {
        const jet_error *e = jet_stream_error(s);
        text_printf(t, "error %llu @%llu %llu:%llu\n", (unsigned long long)e->code,
                    (unsigned long long)e->offset, (unsigned long long)e->line,
                    (unsigned long long)e->column);
    }
}

/* The whole input at once. */
static char *run_buffer(const char *in, size_t len, jet_stream_flags flags, jet_read_flags rflags) {
    jet_read_opts ro = {rflags, 0, 0};
    jet_stream *s = jet_stream_new(flags, &ro, NULL);
    jet_parser *p = jet_parser_new(NULL);
    text t = {0, 0, 0};
    text_add(&t, "", 0);
    CHECK(jet_stream_set_buffer(s, in, len));
    for (int guard = 0; guard < 100000; guard++) {
        jet_stream_doc d;
        jet_doc *doc;
        jet_stream_status st = jet_stream_next_dom(s, p, &doc, &d);
        if (st == JET_STREAM_END) break;
        CHECK(st != JET_STREAM_MORE);
        if (st == JET_STREAM_MORE) break;
        log_doc(&t, st, &d, doc, s);
        if (st == JET_STREAM_ERROR && !(flags & JET_STREAM_SKIP_ERRORS)) {
            /* sticky */
            CHECK(jet_stream_next_dom(s, p, &doc, &d) == JET_STREAM_ERROR);
            break;
        }
    }
    jet_parser_free(p);
    jet_stream_free(s);
    return t.p;
}

/* The same input fed in chunks of `chunk` bytes (or of the sizes `sizes`
 * gives, cycling, when not NULL). */
static char *run_chunked(const char *in, size_t len, jet_stream_flags flags, jet_read_flags rflags,
                         size_t chunk) {
    jet_read_opts ro = {rflags, 0, 0};
    jet_stream *s = jet_stream_new(flags, &ro, NULL);
    jet_parser *p = jet_parser_new(NULL);
    text t = {0, 0, 0};
    text_add(&t, "", 0);
    size_t fed = 0;
    bool done = false;
    while (!done) {
        jet_stream_doc d;
        jet_doc *doc;
        jet_stream_status st = jet_stream_next_dom(s, p, &doc, &d);
        if (st == JET_STREAM_END) break;
        if (st == JET_STREAM_MORE) {
            if (fed == len) {
                jet_stream_finish(s);
            } else {
                size_t n = len - fed < chunk ? len - fed : chunk;
                /* an exact-size copy: ASan sees any read past the chunk */
                char *c = check_dup_exact(in + fed, n);
                CHECK(jet_stream_feed(s, c, n));
                free(c);
                fed += n;
            }
            continue;
        }
        log_doc(&t, st, &d, doc, s);
        if (st == JET_STREAM_ERROR && !(flags & JET_STREAM_SKIP_ERRORS)) done = true;
    }
    jet_parser_free(p);
    jet_stream_free(s);
    return t.p;
}

static void expect_log(const char *in, jet_stream_flags flags, const char *want) {
    char *got = run_buffer(in, strlen(in), flags, 0);
    CHECK_MSG(strcmp(got, want) == 0, "input %s\n--- got\n%s--- want\n%s", in, got, want);
    free(got);
}

static void test_ndjson_basic(void) {
    expect_log("{\"a\":1}\n[2, 3]\n\n  \t\n4\r\n\"x\"", JET_STREAM_NDJSON,
               "#0 @0 1:1 {\"a\":1}\n"
               "#1 @8 2:1 [2,3]\n"
               "#2 @20 5:1 4\n"
               "#3 @23 6:1 \"x\"\n");
    expect_log("", JET_STREAM_NDJSON, "");
    expect_log("\n\n \n", JET_STREAM_NDJSON, "");
    expect_log("1\n", JET_STREAM_NDJSON, "#0 @0 1:1 1\n");
    /* two values on one line: the parser refuses the line */
    expect_log("{}\n{} {}\n[]\n", JET_STREAM_NDJSON, "#0 @0 1:1 {}\nerror 8 @6 2:4\n");
    expect_log("{}\n{} {}\n[]\n", JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS,
               "#0 @0 1:1 {}\nerror 8 @6 2:4\n#2 @9 3:1 []\n");
    /* a pretty document is not NDJSON */
    expect_log("{\n\"a\": 1}\n", JET_STREAM_NDJSON, "error 6 @1 1:2\n");
}

static void test_concat_basic(void) {
    expect_log("{\"a\":1} [1,2]\n 3 \"s\\\"]\" true null{\"b\":{\"c\":[\"}\"]}}-1.5e3",
               JET_STREAM_CONCAT,
               "#0 @0 1:1 {\"a\":1}\n"
               "#1 @8 1:9 [1,2]\n"
               "#2 @15 2:2 3\n"
               "#3 @17 2:4 \"s\\\"]\"\n"
               "#4 @24 2:11 true\n"
               "#5 @29 2:16 null\n"
               "#6 @33 2:20 {\"b\":{\"c\":[\"}\"]}}\n"
               "#7 @50 2:37 -1500.0\n");
    /* pretty documents, one after the other */
    expect_log("{\n  \"a\": [\n    1\n  ]\n}\n{\n  \"b\": 2\n}\n", JET_STREAM_CONCAT,
               "#0 @0 1:1 {\"a\":[1]}\n#1 @23 6:1 {\"b\":2}\n");
    /* columns count code points */
    expect_log("\"\xc3\xa9\xe2\x82\xac\" 7", JET_STREAM_CONCAT,
               "#0 @0 1:1 \"\xc3\xa9\xe2\x82\xac\"\n#1 @8 1:6 7\n");
    /* errors: an error inside a document, a stray bracket, a truncated end */
    expect_log("{\"a\":1}\n  {\"b\": tru}\n[1]", JET_STREAM_CONCAT,
               "#0 @0 1:1 {\"a\":1}\nerror 9 @19 2:12\n");
    expect_log("{\"a\":1}\n  {\"b\": tru}\n[1]", JET_STREAM_CONCAT | JET_STREAM_SKIP_ERRORS,
               "#0 @0 1:1 {\"a\":1}\nerror 9 @19 2:12\n#2 @21 3:1 [1]\n");
    expect_log("1 ] 2", JET_STREAM_SKIP_ERRORS, "#0 @0 1:1 1\nerror 7 @2 1:3\n#2 @4 1:5 2\n");
    expect_log("[1, {\"a\": 2}", JET_STREAM_SKIP_ERRORS, "error 6 @12 1:13\n");
    expect_log("  \n ", JET_STREAM_CONCAT, "");
}

static void test_comments(void) {
    const char *in = "// head\n{\"a\": /* ] */ 1} /* x */ [2 // ]\n] // tail";
    char *got = run_buffer(in, strlen(in), JET_STREAM_CONCAT, JET_READ_ALLOW_COMMENTS);
    CHECK_MSG(strcmp(got, "#0 @8 2:1 {\"a\":1}\n#1 @33 2:26 [2]\n") == 0, "%s", got);
    free(got);
    in = "1 /* open";
    got = run_buffer(in, strlen(in), JET_STREAM_SKIP_ERRORS, JET_READ_ALLOW_COMMENTS);
    CHECK_MSG(strcmp(got, "#0 @0 1:1 1\nerror 16 @2 1:3\n") == 0, "%s", got);
    free(got);
}

static void test_bom(void) {
    const char *in = "\xef\xbb\xbf{\"a\":1}\n[]\n";
    expect_log(in, JET_STREAM_NDJSON, "error 7 @0 1:1\n");
    expect_log(in, JET_STREAM_NDJSON | JET_STREAM_ALLOW_BOM, "#0 @3 1:1 {\"a\":1}\n#1 @11 2:1 []\n");
    expect_log(in, JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS,
               "error 7 @0 1:1\n#0 @3 1:1 {\"a\":1}\n#1 @11 2:1 []\n");
    expect_log(in, JET_STREAM_ALLOW_BOM, "#0 @3 1:1 {\"a\":1}\n#1 @11 2:1 []\n");
    /* a BOM later on is not a BOM: an error of that document */
    expect_log("1\n\xef\xbb\xbf", JET_STREAM_NDJSON | JET_STREAM_ALLOW_BOM, "#0 @0 1:1 1\nerror 7 @2 2:1\n");
}

/* Absolute positions agree with the whole input's line:column. */
static void pos_of(const char *in, size_t off, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (in[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)in[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

static void test_cursor_and_decode(void) {
    typedef struct ev {
        uint64_t id;
        jet_str kind;
    } ev;
    static const jet_field ev_fields[] = {
        JET_F_UINT(ev, id, "id"),
        JET_F_STR(ev, kind, "kind"),
    };
    static jet_struct ev_type = JET_STRUCT(ev, ev_fields);
    const char *in = "{\"id\":1,\"kind\":\"a\"}\n{\"kind\":\"b\",\"id\":2}\n\n{\"id\":\"x\",\"kind\":\"c\"}\n"
                     "{\"id\":4,\"kind\":\"d\"}\n";
    jet_stream *s = jet_stream_new(JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS, NULL, NULL);
    jet_od *od = jet_od_new(NULL);
    jet_stream_set_buffer(s, in, strlen(in));
    jet_stream_doc d;
    uint64_t sum = 0;
    int errors = 0;
    char kinds[8] = {0};
    size_t nk = 0;
    while (jet_stream_next(s, &d) == JET_STREAM_DOC) {
        ev e;
        jet_error err;
        if (jet_decode(od, d.json, d.len, &ev_type, &e, NULL, NULL, &err)) {
            sum += e.id;
            if (nk < 7 && e.kind.len == 1) kinds[nk++] = e.kind.ptr[0];
        } else {
            errors++;
            jet_stream_fail(s, &d, &err);
            size_t line, col;
            pos_of(in, err.offset, &line, &col);
            CHECK(err.code == JET_ERR_TYPE);
            CHECK(err.offset == 47 && in[err.offset] == '"');
            CHECK(err.line == line && err.column == col && line == 4);
            CHECK(err.path && strcmp(err.path, "/id") == 0);
        }
    }
    CHECK(sum == 7 && errors == 1 && strcmp(kinds, "abd") == 0);
    /* the cursor itself */
    jet_stream_set_buffer(s, in, strlen(in));
    uint64_t ids = 0;
    while (jet_stream_next(s, &d) == JET_STREAM_DOC) {
        jet_odv root, v;
        jet_od_iter it;
        uint64_t id;
        if (jet_od_start(od, d.json, d.len, NULL, &root) && jet_odv_obj(&root, &it) &&
            jet_od_obj_find(&it, "id", 2, &v) && jet_odv_get_uint(&v, &id))
            ids += id;
    }
    CHECK(ids == 7);
    /* validation alone */
    jet_stream_set_buffer(s, in, strlen(in));
    int valid = 0;
    jet_stream_status st;
    while ((st = jet_stream_next_valid(s, od, &d)) != JET_STREAM_END) valid += st == JET_STREAM_DOC;
    CHECK(valid == 4);
    const char *bad = "[1]\n[1,]\n";
    jet_stream_set_buffer(s, bad, strlen(bad));
    CHECK(jet_stream_next_valid(s, od, &d) == JET_STREAM_DOC);
    CHECK(jet_stream_next_valid(s, od, &d) == JET_STREAM_ERROR);
    CHECK(jet_stream_error(s)->line == 2 && jet_stream_error(s)->column == 4 &&
          jet_stream_error(s)->offset == 7);
    jet_od_free(od);
    jet_stream_free(s);
}

/* Every chunk size 1..70 against the one-buffer result. */
static void test_chunk_sizes(void) {
    static const struct {
        const char *in;
        jet_stream_flags flags;
        jet_read_flags rflags;
    } cases[] = {
        {"{\"a\":1}\n[2, 3]\n\n  \t\n4\r\n\"x\"", JET_STREAM_NDJSON, 0},
        {"{\"a\":\"\\u00e9\\\"\"}\n{\"b\":[1,2,{\"c\":null}]}\n{bad}\n12345678901234567890\n",
         JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS, 0},
        {"\xef\xbb\xbf[1]\n[2]", JET_STREAM_NDJSON | JET_STREAM_ALLOW_BOM, 0},
        {"\xef\xbb\xbf[1]\n[2]", JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS, 0},
        {"{\"a\":1} [1,2]\n 3 \"s\\\"]\" true null{\"b\":{\"c\":[\"}\"]}}-1.5e3", JET_STREAM_CONCAT, 0},
        {"{\n  \"a\": [\n    1\n  ]\n}\n{\n  \"b\": \"\\\\\"\n}\n123 456\n\"\xc3\xa9\"7",
         JET_STREAM_CONCAT, 0},
        {"1 ] 2 {\"a\" 1} [3", JET_STREAM_SKIP_ERRORS, 0},
        {"// head\n{\"a\": /* ] */ 1} /* x */ [2 // ]\n] // tail", JET_STREAM_CONCAT,
         JET_READ_ALLOW_COMMENTS},
        {"1/**/2/*", JET_STREAM_SKIP_ERRORS, JET_READ_ALLOW_COMMENTS},
        /* found by fuzz_stream_chunked */
        {"3/ c\n{\" \"]1*\x05{\"a\" ]", JET_STREAM_SKIP_ERRORS, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t len = strlen(cases[c].in);
        char *want = run_buffer(cases[c].in, len, cases[c].flags, cases[c].rflags);
        CHECK(want[0] != 0);
        for (size_t chunk = 1; chunk <= 70; chunk++) {
            char *got = run_chunked(cases[c].in, len, cases[c].flags, cases[c].rflags, chunk);
            CHECK_MSG(strcmp(got, want) == 0, "case %zu chunk %zu\n--- got\n%s--- want\n%s", c, chunk,
                      got, want);
            free(got);
        }
        free(want);
    }
}

/* One large document fed in pieces: it comes out when its last byte
 * arrives (concatenated JSON needs no newline after a container). */
static void test_large_document_in_pieces(void) {
    size_t n = 200000, len = 0;
    char *big = (char *)check_xmalloc(n * 12 + 16);
    big[len++] = '[';
    for (size_t i = 0; i < n; i++) len += (size_t)sprintf(big + len, "%s%zu", i ? "," : "", i);
    big[len++] = ']';
    jet_stream *s = jet_stream_new(JET_STREAM_CONCAT, NULL, NULL);
    jet_parser *p = jet_parser_new(NULL);
    size_t fed = 0, step = 1;
    int docs = 0;
    while (fed < len) {
        size_t k = len - fed < step ? len - fed : step;
        CHECK(jet_stream_feed(s, big + fed, k));
        fed += k;
        step = step * 2 + 1;
        jet_doc *doc;
        jet_stream_status st;
        while ((st = jet_stream_next_dom(s, p, &doc, NULL)) == JET_STREAM_DOC) {
            docs++;
            CHECK(fed == len); /* not before its last byte */
            CHECK(jet_arr_size(jet_doc_root(doc)) == n);
        }
        CHECK(st == JET_STREAM_MORE);
    }
    CHECK(docs == 1);
    jet_stream_finish(s);
    CHECK(jet_stream_next(s, NULL) == JET_STREAM_END);
    CHECK(jet_stream_bytes_in(s) == len);
    /* feeding after the end is refused */
    CHECK(!jet_stream_feed(s, "1", 1) && jet_stream_error(s)->code == JET_ERR_INVALID_ARG);
    jet_parser_free(p);
    jet_stream_free(s);
    free(big);
}

/* ---- bounded memory: a 50 MB stream in random chunks ---- */

typedef struct peak_alloc {
    size_t live, peak;
} peak_alloc;
/* A size header in front of each block (16 bytes keeps the alignment). */
static void *peak_malloc(void *ctx, size_t n) {
    peak_alloc *a = (peak_alloc *)ctx;
    char *p = (char *)malloc(n + 16);
    if (!p) return NULL;
    memcpy(p, &n, sizeof n);
    a->live += n;
    if (a->live > a->peak) a->peak = a->live;
    return p + 16;
}
static void peak_free(void *ctx, void *ptr) {
    if (!ptr) return;
    peak_alloc *a = (peak_alloc *)ctx;
    char *p = (char *)ptr - 16;
    size_t n;
    memcpy(&n, p, sizeof n);
    a->live -= n;
    free(p);
}
static void *peak_realloc(void *ctx, void *ptr, size_t old_size, size_t n) {
    (void)old_size;
    void *q = peak_malloc(ctx, n);
    if (!q) return NULL;
    if (ptr) {
        size_t old;
        memcpy(&old, (char *)ptr - 16, sizeof old);
        memcpy(q, ptr, old < n ? old : n);
        peak_free(ctx, ptr);
    }
    return q;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void test_bounded_memory(void) {
    const char *short_tests = getenv("JET_SHORT_TESTS");
    size_t target = short_tests && *short_tests == '1' ? (size_t)5 << 20 : (size_t)50 << 20;
    /* documents of 20 bytes to ~6 KB; the chunk buffer of each feed is the
     * test's, not the stream's */
    char *chunk = (char *)check_xmalloc(4096);
    peak_alloc pa = {0, 0};
    jet_alloc a = {peak_malloc, peak_realloc, peak_free, &pa};
    jet_stream *s = jet_stream_new(JET_STREAM_NDJSON, NULL, &a);
    jet_parser *p = jet_parser_new(&a);
    size_t produced = 0, docs_made = 0, docs_seen = 0, largest = 0;
    uint64_t sum_made = 0, sum_seen = 0;
    /* the generator: a pending document text, handed out in chunks */
    char doc[8192];
    size_t doc_len = 0, doc_at = 0;
    bool ok = true;
    while (ok) {
        size_t want = 1 + (size_t)(rng() % 4096), got = 0;
        while (got < want && produced < target) {
            if (doc_at == doc_len) {
                size_t items = (size_t)(rng() % 700);
                uint64_t v = rng() % 1000000;
                doc_len = (size_t)sprintf(doc, "{\"id\":%llu,\"xs\":[", (unsigned long long)v);
                for (size_t i = 0; i < items; i++) doc_len += (size_t)sprintf(doc + doc_len, "%s%u", i ? "," : "", (unsigned)(i % 10));
                doc_len += (size_t)sprintf(doc + doc_len, "]}\n");
                if (doc_len > largest) largest = doc_len;
                doc_at = 0;
                docs_made++;
                sum_made += v;
            }
            size_t k = doc_len - doc_at < want - got ? doc_len - doc_at : want - got;
            if (k > target - produced) k = target - produced;
            memcpy(chunk + got, doc + doc_at, k);
            doc_at += k;
            got += k;
            produced += k;
        }
        if (got) ok = jet_stream_feed(s, chunk, got);
        else jet_stream_finish(s);
        jet_doc *d;
        jet_stream_status st;
        while ((st = jet_stream_next_dom(s, p, &d, NULL)) == JET_STREAM_DOC) {
            docs_seen++;
            sum_seen += jet_get_uint(jet_obj_find(jet_doc_root(d), "id"));
        }
        if (st != JET_STREAM_MORE) break;
    }
    CHECK(ok);
    /* the last document may be cut by the target size: an error then */
    size_t complete = doc_at == doc_len ? docs_made : docs_made - 1;
    CHECK_MSG(docs_seen == complete, "%zu of %zu", docs_seen, complete);
    CHECK(complete == docs_made ? sum_seen == sum_made : sum_seen < sum_made);
    /* the bound stated in docs/streams.md: 2 x (largest document + chunk)
     * for the stream, and the parser's arenas, about 5 x the largest
     * document: well under 256 KiB here for 50 MB of input */
    CHECK_MSG(pa.peak < (size_t)256 << 10, "peak %zu bytes, largest document %zu", pa.peak, largest);
    jet_parser_free(p);
    jet_stream_free(s);
    CHECK(pa.live == 0);
    free(chunk);
}

/* A line that never ends, under the size limit: chunked input fails it
 * when it passes max_size (as the parser would), so memory stays bounded;
 * with skip, NDJSON goes on at the next line. */
static void test_size_limit(void) {
    for (int skip = 0; skip < 2; skip++) {
        peak_alloc pa = {0, 0};
        jet_alloc a = {peak_malloc, peak_realloc, peak_free, &pa};
        jet_read_opts ro = {0, 0, 64};
        jet_stream *s = jet_stream_new(JET_STREAM_NDJSON | (skip ? JET_STREAM_SKIP_ERRORS : 0), &ro, &a);
        jet_parser *p = jet_parser_new(NULL);
        char chunk[16];
        const char *head = "{\"a\":1}\n[\"", *tail = "\"]\n[1]\n";
        size_t long_len = 100000, total = strlen(head) + long_len + strlen(tail), fed = 0;
        text log = {0, 0, 0};
        text_add(&log, "", 0);
        for (;;) {
            jet_stream_doc d;
            jet_doc *doc;
            jet_stream_status st = jet_stream_next_dom(s, p, &doc, &d);
            if (st == JET_STREAM_END) break;
            if (st == JET_STREAM_MORE) {
                if (fed == total) {
                    jet_stream_finish(s);
                    continue;
                }
                size_t n = 0;
                for (; n < sizeof chunk && fed < total; n++, fed++) {
                    size_t h = strlen(head);
                    chunk[n] = fed < h ? head[fed] : fed < h + long_len ? 'x' : tail[fed - h - long_len];
                }
                CHECK(jet_stream_feed(s, chunk, n));
                continue;
            }
            log_doc(&log, st, &d, doc, s);
            if (st == JET_STREAM_ERROR && !skip) break;
        }
        const char *want = skip ? "#0 @0 1:1 {\"a\":1}\nerror 3 @72 2:65\n#2 @100013 3:1 [1]\n"
                                : "#0 @0 1:1 {\"a\":1}\nerror 3 @72 2:65\n";
        CHECK_MSG(strcmp(log.p, want) == 0, "skip %d:\n%s", skip, log.p);
        CHECK_MSG(pa.peak < 8192, "peak %zu", pa.peak); /* the chunk buffer starts at 4 KiB */
        free(log.p);
        jet_parser_free(p);
        jet_stream_free(s);
    }
}

static void test_misuse(void) {
    CHECK(jet_stream_next(NULL, NULL) == JET_STREAM_ERROR);
    CHECK(jet_stream_error(NULL)->code == JET_ERR_INVALID_ARG);
    CHECK(!jet_stream_set_buffer(NULL, "", 0));
    jet_stream_free(NULL);
    jet_stream *s = jet_stream_new(0, NULL, NULL);
    CHECK(jet_stream_error(s)->code == JET_OK);
    CHECK(jet_stream_next(s, NULL) == JET_STREAM_MORE); /* nothing fed yet */
    CHECK(!jet_stream_set_buffer(s, NULL, 3));
    CHECK(jet_stream_set_buffer(s, "[1] [2]", 7));
    CHECK(!jet_stream_feed(s, "1", 1)); /* a whole buffer takes no chunks */
    jet_doc *doc;
    CHECK(jet_stream_next_dom(s, NULL, &doc, NULL) == JET_STREAM_ERROR);
    CHECK(jet_stream_set_buffer(s, NULL, 0)); /* back to chunked input */
    CHECK(jet_stream_feed(s, "[1] [", 5));
    jet_stream_doc d;
    CHECK(jet_stream_next(s, &d) == JET_STREAM_DOC && d.len == 3);
    CHECK(jet_stream_next(s, &d) == JET_STREAM_MORE);
    CHECK(jet_stream_feed(s, "2]", 2));
    CHECK(jet_stream_next(s, &d) == JET_STREAM_DOC && d.len == 3 && d.offset == 4 &&
          memcmp(d.json, "[2]", 3) == 0);
    jet_stream_free(s);
}

int main(void) {
    test_ndjson_basic();
    test_concat_basic();
    test_comments();
    test_bom();
    test_cursor_and_decode();
    test_chunk_sizes();
    test_large_document_in_pieces();
    test_bounded_memory();
    test_size_limit();
    test_misuse();
    return CHECK_DONE("test_stream");
}
