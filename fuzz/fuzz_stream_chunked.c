/* fuzz_stream_chunked.c — libFuzzer target for chunked input: the same
 * bytes fed to jet_stream in chunks (sizes drawn from the input) must give
 * exactly what one buffer gives, document by document and error by error;
 * and jet_stream_run (one thread, its read callback serving the chunks)
 * must deliver the same documents in the same order.
 *
 *   cmake --build build-fuzz --target fuzz_stream_chunked
 *   build-fuzz/fuzz/fuzz_stream_chunked -max_total_time=60
 *
 * Input: a flag byte (as fuzz_stream), a chunk-size seed byte, the stream.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"
#include "stream_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* chunk sizes 1..32 from a small generator seeded by the input */
static size_t next_chunk(uint32_t *state) {
    *state = *state * 1103515245u + 12345u;
    return 1 + ((*state >> 16) & 31);
}

typedef struct feeder {
    const char *in;
    size_t len, at;
    uint32_t state;
} feeder;

static size_t feed_read(void *ctx, char *buf, size_t cap) {
    feeder *f = (feeder *)ctx;
    size_t n = next_chunk(&f->state);
    if (n > cap) n = cap;
    if (n > f->len - f->at) n = f->len - f->at;
    memcpy(buf, f->in + f->at, n);
    f->at += n;
    return n;
}

typedef struct run_ctx {
    stream_log log;
    jet_read_opts ro;
} run_ctx;

static bool count_work(void *ctx, jet_stream_worker *w, const jet_stream_doc *d, jet_error *err) {
    const run_ctx *r = (const run_ctx *)ctx;
    jet_doc *doc = jet_parser_parse(w->parser, d->json, d->len, &r->ro, err);
    if (!doc) return false;
    size_t vals = jet_doc_val_count(doc);
    return jet_buf_append(w->out, &vals, sizeof vals);
}

static bool log_deliver(void *ctx, const jet_stream_doc *d, const char *res, size_t n,
                        const jet_error *err) {
    run_ctx *r = (run_ctx *)ctx;
    char line[160];
    int k;
    if (err) {
        k = snprintf(line, sizeof line, "error %d @%zu %zu:%zu\n", (int)err->code, err->offset, err->line,
                     err->column);
    } else {
        size_t vals = 0;
        if (n == sizeof vals) memcpy(&vals, res, n);
        k = snprintf(line, sizeof line, "doc %llu @%llu %llu:%llu len %zu vals %zu\n",
                     (unsigned long long)d->index, (unsigned long long)d->offset,
                     (unsigned long long)d->line, (unsigned long long)d->column, d->len, vals);
    }
    stream_log_add(&r->log, line, k);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static jet_parser *parser;
    if (!parser) parser = jet_parser_new(NULL);
    if (!parser || size < 2) return 0;
    jet_stream_flags sf;
    jet_read_opts ro;
    stream_log_flags(data[0], &sf, &ro);
    uint32_t seed = data[1];
    size_t len = size - 2;
    const char *in = (const char *)data + 2;

    stream_log whole = {0, 0, 0}, chunked = {0, 0, 0};
    jet_stream *s = jet_stream_new(sf, &ro, NULL);
    jet_stream_set_buffer(s, in, len);
    for (size_t calls = 0; calls <= len + 2; calls++) {
        jet_stream_doc d;
        jet_doc *doc = NULL;
        jet_stream_status st = jet_stream_next_dom(s, parser, &doc, &d);
        if (st == JET_STREAM_END) break;
        stream_log_line(&whole, st, &d, doc, s);
        if (st == JET_STREAM_ERROR && !(sf & JET_STREAM_SKIP_ERRORS)) break;
    }
    jet_stream_free(s);

    s = jet_stream_new(sf, &ro, NULL);
    uint32_t state = seed;
    size_t fed = 0;
    for (size_t calls = 0; calls <= 4 * len + 8; calls++) {
        jet_stream_doc d;
        jet_doc *doc = NULL;
        jet_stream_status st = jet_stream_next_dom(s, parser, &doc, &d);
        if (st == JET_STREAM_END) break;
        if (st == JET_STREAM_MORE) {
            if (fed == len) {
                jet_stream_finish(s);
            } else {
                size_t n = next_chunk(&state);
                if (n > len - fed) n = len - fed;
                char *c = (char *)malloc(n); /* exact size: ASan sees overreads */
                if (!c) abort();
                memcpy(c, in + fed, n);
                if (!jet_stream_feed(s, c, n)) abort();
                free(c);
                fed += n;
            }
            continue;
        }
        stream_log_line(&chunked, st, &d, doc, s);
        if (st == JET_STREAM_ERROR && !(sf & JET_STREAM_SKIP_ERRORS)) break;
    }
    jet_stream_free(s);
    if (whole.len != chunked.len || (whole.len && memcmp(whole.p, chunked.p, whole.len) != 0)) abort();

    /* the runner, one thread, fed by its read callback */
    run_ctx rc = {{0, 0, 0}, ro};
    s = jet_stream_new(sf, &ro, NULL);
    feeder f = {in, len, 0, seed};
    jet_stream_run_opts opts = {1, 1 + (size_t)(seed & 63), feed_read, &f, 64};
    jet_stream_run(s, &opts, count_work, log_deliver, &rc);
    jet_stream_free(s);
    if (whole.len != rc.log.len || (whole.len && memcmp(whole.p, rc.log.p, whole.len) != 0)) abort();
    free(whole.p);
    free(chunked.p);
    free(rc.log.p);
    return 0;
}
