/* test_stream_threads.c — jet_stream_run: documents on 1..8 worker
 * threads, results in input order (compared with the serial stream),
 * chunked input through the read callback, typed decoding on the workers,
 * errors in stop and skip mode, a stop asked by the deliverer. Part of the
 * ThreadSanitizer step of CI (every test_*_threads.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"
#include "text_log.h"


static void text_error(text *t, uint64_t index, const jet_error *e) {
    char line[160];
    int n = snprintf(line, sizeof line, "#%llu error %d @%zu %zu:%zu\n", (unsigned long long)index,
                     (int)e->code, e->offset, e->line, e->column);
    text_add(t, line, (size_t)n);
}

/* work: the document minified (a DOM with the worker's parser). */
static bool work_minify(void *ctx, jet_stream_worker *w, const jet_stream_doc *d, jet_error *err) {
    (void)ctx;
    jet_doc *doc = jet_parser_parse(w->parser, d->json, d->len, NULL, err);
    if (!doc) return false;
    size_t n;
    char *s = jet_doc_write(doc, 0, NULL, &n, err);
    if (!s) return false;
    bool ok = jet_buf_append(w->out, s, n) && jet_buf_append(w->out, "\n", 1);
    free(s);
    return ok;
}

typedef struct collect {
    text t;
    uint64_t next_index; /* order check */
    bool in_order;
    size_t stop_after; /* deliver returns false after this many (0: never) */
    size_t delivered;
} collect;

static bool deliver_collect(void *ctx, const jet_stream_doc *d, const char *res, size_t n,
                            const jet_error *err) {
    collect *c = (collect *)ctx;
    if (d->index < c->next_index) c->in_order = false;
    c->next_index = d->index + 1;
    if (err) text_error(&c->t, d->index, err);
    else text_add(&c->t, res, n);
    c->delivered++;
    return !(c->stop_after && c->delivered >= c->stop_after);
}

/* The serial answer: the same log from jet_stream_next_dom. */
static char *serial(const char *in, size_t len, jet_stream_flags flags) {
    jet_stream *s = jet_stream_new(flags, NULL, NULL);
    jet_parser *p = jet_parser_new(NULL);
    jet_stream_set_buffer(s, in, len);
    text t = {0, 0, 0};
    text_add(&t, "", 0);
    jet_stream_doc d;
    jet_doc *doc;
    jet_stream_status st;
    while ((st = jet_stream_next_dom(s, p, &doc, &d)) != JET_STREAM_END) {
        if (st == JET_STREAM_ERROR) {
            text_error(&t, d.index, jet_stream_error(s));
            if (!(flags & JET_STREAM_SKIP_ERRORS)) break;
            continue;
        }
        size_t n;
        char *w = jet_doc_write(doc, 0, NULL, &n, NULL);
        text_add(&t, w, n);
        text_add(&t, "\n", 1);
        free(w);
    }
    jet_parser_free(p);
    jet_stream_free(s);
    return t.p;
}

typedef struct reader {
    const char *p;
    size_t len, at, step;
} reader;
static size_t read_pieces(void *ctx, char *buf, size_t cap) {
    reader *r = (reader *)ctx;
    size_t n = r->len - r->at;
    if (n > r->step) n = r->step;
    if (n > cap) n = cap;
    memcpy(buf, r->p + r->at, n);
    r->at += n;
    return n;
}

static char *make_input(size_t docs, bool with_errors, size_t *len) {
    text t = {0, 0, 0};
    text_add(&t, "", 0);
    for (size_t i = 0; i < docs; i++) {
        char line[256];
        int n;
        if (with_errors && i % 97 == 13)
            n = snprintf(line, sizeof line, "{\"id\":%zu,\"bad\":tru}\n", i);
        else if (i % 11 == 0)
            n = snprintf(line, sizeof line, "\n");
        else
            n = snprintf(line, sizeof line, "{\"id\":%zu,\"name\":\"n%zu\",\"xs\":[%zu,%zu.5]}\n", i, i,
                         i % 7, i % 3);
        text_add(&t, line, (size_t)n);
    }
    *len = t.len;
    return t.p;
}

static void test_order(void) {
    size_t len;
    char *in = make_input(3000, true, &len);
    char *want = serial(in, len, JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS);
    static const unsigned threads[] = {1, 2, 3, 4, 8};
    static const size_t batches[] = {1, 100, 4096, 0};
    for (size_t ti = 0; ti < sizeof threads / sizeof threads[0]; ti++)
        for (size_t bi = 0; bi < sizeof batches / sizeof batches[0]; bi++) {
            for (int chunked = 0; chunked < 2; chunked++) {
                jet_stream *s = jet_stream_new(JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS, NULL, NULL);
                reader r = {in, len, 0, 13};
                jet_stream_run_opts ro = {threads[ti], batches[bi], NULL, NULL, 0};
                if (chunked) {
                    ro.read = read_pieces;
                    ro.read_ctx = &r;
                    ro.chunk_bytes = 64;
                } else {
                    jet_stream_set_buffer(s, in, len);
                }
                collect c = {{0, 0, 0}, 0, true, 0, 0};
                text_add(&c.t, "", 0);
                bool ok = jet_stream_run(s, &ro, work_minify, deliver_collect, &c);
                CHECK(!ok); /* some documents failed */
                CHECK(c.in_order);
                CHECK_MSG(strcmp(c.t.p, want) == 0, "threads %u batch %zu chunked %d", threads[ti],
                          batches[bi], chunked);
                free(c.t.p);
                jet_stream_free(s);
            }
        }
    free(want);
    /* without errors the run succeeds; work NULL validates */
    free(in);
    in = make_input(2000, false, &len);
    jet_stream *s = jet_stream_new(JET_STREAM_NDJSON, NULL, NULL);
    jet_stream_set_buffer(s, in, len);
    collect c = {{0, 0, 0}, 0, true, 0, 0};
    text_add(&c.t, "", 0);
    jet_stream_run_opts ro = {4, 512, NULL, NULL, 0};
    CHECK(jet_stream_run(s, &ro, NULL, deliver_collect, &c));
    CHECK(c.delivered == 2000 - 182 && c.t.len == 0);
    free(c.t.p);
    jet_stream_free(s);
    free(in);
}

/* Typed decoding on the workers: the struct lives in the batch's arena. */
typedef struct item {
    uint64_t id;
    jet_str name;
} item;
static const jet_field item_fields[] = {
    JET_F_UINT(item, id, "id"),
    JET_F_STR(item, name, "name"),
};
static jet_struct item_type = JET_STRUCT(item, item_fields);

static bool work_decode(void *ctx, jet_stream_worker *w, const jet_stream_doc *d, jet_error *err) {
    (void)ctx;
    item *it = (item *)jet_arena_alloc(w->arena, sizeof(item), 8);
    if (!it) return false;
    if (!jet_decode(w->od, d->json, d->len, &item_type, it, w->arena, NULL, err)) return false;
    return jet_buf_append(w->out, (const char *)&it, sizeof it);
}

typedef struct sums {
    uint64_t ids, name_bytes, errors;
} sums;
static bool deliver_sum(void *ctx, const jet_stream_doc *d, const char *res, size_t n,
                        const jet_error *err) {
    sums *s = (sums *)ctx;
    (void)d;
    if (err) {
        s->errors++;
        return true;
    }
    item *it;
    if (n != sizeof it) return false;
    memcpy(&it, res, sizeof it);
    s->ids += it->id;
    s->name_bytes += it->name.len;
    return true;
}

static void test_typed(void) {
    size_t len;
    char *in = make_input(5000, true, &len);
    sums want = {0, 0, 0};
    for (size_t i = 0; i < 5000; i++) {
        if (i % 97 == 13) want.errors++;
        else if (i % 11 != 0) {
            char nm[32];
            want.ids += i;
            want.name_bytes += (uint64_t)snprintf(nm, sizeof nm, "n%zu", i);
        }
    }
    for (unsigned threads = 1; threads <= 4; threads++) {
        jet_stream *s = jet_stream_new(JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS, NULL, NULL);
        jet_stream_set_buffer(s, in, len);
        sums got = {0, 0, 0};
        jet_stream_run_opts ro = {threads, 2000, NULL, NULL, 0};
        CHECK(!jet_stream_run(s, &ro, work_decode, deliver_sum, &got));
        CHECK(got.ids == want.ids && got.name_bytes == want.name_bytes && got.errors == want.errors);
        jet_stream_free(s);
    }
    free(in);
}

static void test_stop(void) {
    size_t len;
    char *in = make_input(1000, true, &len);
    /* stop mode: the first error (document line 14) ends the run */
    for (unsigned threads = 1; threads <= 4; threads++) {
        jet_stream *s = jet_stream_new(JET_STREAM_NDJSON, NULL, NULL);
        jet_stream_set_buffer(s, in, len);
        collect c = {{0, 0, 0}, 0, true, 0, 0};
        text_add(&c.t, "", 0);
        jet_stream_run_opts ro = {threads, 64, NULL, NULL, 0};
        CHECK(!jet_stream_run(s, &ro, work_minify, deliver_collect, &c));
        const jet_error *e = jet_stream_error(s);
        CHECK(e->code == JET_ERR_LITERAL && e->line == 14);
        /* 11 documents (lines 1 and 12 are blank), then the error, last */
        const char *first = strstr(c.t.p, "error");
        CHECK(first && !strstr(first + 1, "error") && strchr(first, '\n')[1] == 0);
        CHECK(c.delivered == 12);
        free(c.t.p);
        jet_stream_free(s);
    }
    /* the deliverer stops the run */
    jet_stream *s = jet_stream_new(JET_STREAM_NDJSON | JET_STREAM_SKIP_ERRORS, NULL, NULL);
    jet_stream_set_buffer(s, in, len);
    collect c = {{0, 0, 0}, 0, true, 5, 0};
    text_add(&c.t, "", 0);
    jet_stream_run_opts ro = {3, 10, NULL, NULL, 0};
    CHECK(!jet_stream_run(s, &ro, work_minify, deliver_collect, &c));
    CHECK(c.delivered == 5);
    free(c.t.p);
    jet_stream_free(s);
    free(in);
    CHECK(jet_cpu_count() >= 1);
}

int main(void) {
    test_order();
    test_typed();
    test_stop();
    return CHECK_DONE("test_stream_threads");
}
