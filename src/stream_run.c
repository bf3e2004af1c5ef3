/*
 * stream_run.c — jet_stream_run (jet.h section 16): the documents of a
 * stream processed on worker threads, results delivered in input order.
 *
 * The caller's thread reads and splits (memchr per NDJSON line: cheap next
 * to parsing) and copies each batch's documents into the batch, so the
 * stream's chunk buffer can move on; workers take whole batches, in order,
 * from a ring of 2 per worker; the caller's thread delivers the ring's
 * oldest batch once it is done. The ring bounds the memory, and a batch
 * is the unit of locking (one lock round trip per batch, not per document).
 */
#include "internal.h"

#include "errors.h"
#include "stream.h"

#if JET_HAVE_PTHREADS
#include <pthread.h>
#include <unistd.h>
#endif

enum { BATCH_FREE, BATCH_READY, BATCH_BUSY, BATCH_DONE };

typedef struct run_doc {
    const char *json;      /* the span in the caller's buffer, or NULL: */
    size_t at, len;        /* the document's bytes in the batch's input */
    size_t out_at, out_len; /* its result in the batch's output */
    uint64_t offset, line, column, index;
    bool failed;
    jet_error err; /* absolute positions */
} run_doc;

typedef struct run_batch {
    int state;
    jet_buf in, out;
    size_t bytes; /* of the documents: the batch is full at batch_bytes */
    run_doc *docs;
    size_t ndocs, cap_docs;
    jet_arena arena;
} run_batch;

struct run_state;

typedef struct run_worker {
    struct run_state *run;
    jet_parser *parser;
    jet_od *od;
    unsigned id;
#if JET_HAVE_PTHREADS
    pthread_t thread;
#endif
} run_worker;

typedef struct run_state {
    jet_stream *s;
    jet_stream_work_fn work;
    jet_stream_deliver_fn deliver;
    void *ctx;
    size_t batch_bytes, chunk_bytes;
    jet_stream_read_fn read;
    void *read_ctx;
    bool input_done;
    bool read_was_short;
    run_batch *ring;
    size_t nring;
    uint64_t filled, taken, delivered; /* batch sequence numbers */
    bool quit;
    bool any_failed;  /* a document failed (delivered) */
#if JET_HAVE_PTHREADS
    pthread_mutex_t lock;
    pthread_cond_t work_ready, batch_done;
#endif
} run_state;

unsigned jet_cpu_count(void) {
#if JET_HAVE_PTHREADS && defined(_SC_NPROCESSORS_ONLN)
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 && n < 4096 ? (unsigned)n : 1;
#else
    return 1;
#endif
}

bool jet_buf_append(jet_buf *b, const void *p, size_t n) {
    if (!b || (!p && n)) return false;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n) cap = cap > SIZE_MAX / 2 ? b->len + n : cap * 2;
        char *grown = (char *)jet__realloc(&b->alloc, b->data, b->cap, cap);
        if (!grown) return false;
        b->data = grown;
        b->cap = cap;
    }
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    return true;
}

static run_doc *run_add_doc(run_state *r, run_batch *b) {
    if (b->ndocs == b->cap_docs) {
        size_t cap = b->cap_docs ? b->cap_docs * 2 : 256;
        run_doc *grown = (run_doc *)jet__realloc(&r->s->alloc, b->docs,
                                                 b->cap_docs * sizeof(run_doc), cap * sizeof(run_doc));
        if (!grown) return NULL;
        b->docs = grown;
        b->cap_docs = cap;
    }
    run_doc *d = &b->docs[b->ndocs++];
    memset(d, 0, sizeof *d);
    return d;
}

/* A failure of the run itself (memory, input), delivered in order as the
 * batch's last document. */
static void run_fail_batch(run_state *r, run_batch *b, jet__err kind) {
    run_doc *d = run_add_doc(r, b);
    if (!d && b->ndocs) d = &b->docs[b->ndocs - 1]; /* no room: overwrite the last */
    jet__error_kind(&r->s->err, kind, (size_t)(r->s->base + r->s->pos));
    r->s->stopped = true;
    if (d) {
        d->failed = true;
        d->err = r->s->err;
    }
    r->input_done = true;
}

/* Fills batch `b` with the next documents (the caller's thread). */
static void run_fill(run_state *r, run_batch *b) {
    jet_stream *s = r->s;
    b->in.len = 0;
    b->bytes = 0;
    b->ndocs = 0;
    while (!r->input_done && b->bytes < r->batch_bytes) {
        jet_stream_doc sd;
        jet_stream_status st = jet_stream_next(s, &sd);
        if (st == JET_STREAM_DOC) {
            run_doc *d = run_add_doc(r, b);
            if (!d) {
                run_fail_batch(r, b, JET_E_MEMORY);
                return;
            }
            d->at = b->in.len;
            d->len = sd.len;
            d->offset = sd.offset;
            d->line = sd.line;
            d->column = sd.column;
            d->index = sd.index;
            b->bytes += sd.len + 1;
            /* A buffer of the caller's stays put: no copy. Chunks move. */
            if (!s->chunked) {
                d->json = sd.json;
                continue;
            }
            if (!jet_buf_append(&b->in, sd.json, sd.len)) {
                b->ndocs--;
                run_fail_batch(r, b, JET_E_MEMORY);
                return;
            }
        } else if (st == JET_STREAM_MORE) {
            /* Input that trickles (a pipe, a socket: the last read was
             * short) would block the next read: first hand on what is
             * here, and let earlier batches be delivered. */
            if (r->read_was_short && (b->ndocs || r->filled > r->delivered)) return;
            if (!r->read) {
                jet_stream_finish(s); /* chunks fed before the run were all */
                continue;
            }
            /* read straight into the stream's buffer */
            char *space = jet__stream_feed_space(s, r->chunk_bytes);
            if (!space) {
                run_fail_batch(r, b, JET_E_MEMORY);
                return;
            }
            size_t got = r->read(r->read_ctx, space, r->chunk_bytes);
            r->read_was_short = got < r->chunk_bytes;
            if (got == SIZE_MAX) {
                run_fail_batch(r, b, JET_E_STREAM_READ);
                return;
            }
            if (got > r->chunk_bytes) got = r->chunk_bytes;
            if (got == 0) jet_stream_finish(s);
            else jet__stream_feed_commit(s, got);
        } else if (st == JET_STREAM_END) {
            r->input_done = true;
        } else { /* an error of the splitter (a byte order mark) */
            run_doc *d = run_add_doc(r, b);
            if (!d) {
                run_fail_batch(r, b, JET_E_MEMORY);
                return;
            }
            d->failed = true;
            d->err = s->err;
            d->offset = s->err.offset;
            d->line = s->err.line;
            d->column = s->err.column;
            if (s->stopped) r->input_done = true;
        }
    }
}

/* Keeps an error's JSON Pointer past the cursor's next document. */
static void run_keep_path(run_batch *b, jet_error *err) {
    if (!err->path) return;
    size_t n = strlen(err->path);
    char *copy = (char *)jet_arena_alloc(&b->arena, n + 1, 1);
    if (copy) memcpy(copy, err->path, n + 1);
    err->path = copy;
}

/* Runs the work on every document of a batch (a worker). */
static void run_process(run_state *r, run_worker *w, run_batch *b) {
    b->out.len = 0;
    jet_arena_reset(&b->arena);
    jet_stream_worker sw = {w->parser, w->od, &b->arena, &b->out, w->id};
    for (size_t i = 0; i < b->ndocs; i++) {
        run_doc *d = &b->docs[i];
        if (d->failed) continue;
        jet_stream_doc sd = {d->json ? d->json : b->in.data + d->at, d->len, d->offset, d->line,
                             d->column, d->index};
        size_t before = b->out.len;
        bool ok;
        memset(&d->err, 0, sizeof d->err);
        if (r->work) {
            ok = r->work(r->ctx, &sw, &sd, &d->err);
            if (!ok && !d->err.msg) jet__error_set(&d->err, d->err.code ? d->err.code : JET_ERR_INVALID_ARG, 0, NULL);
        } else {
            ok = jet_od_validate(w->od, sd.json, sd.len, &r->s->ropts);
            if (!ok) d->err = *jet_od_error(w->od);
        }
        if (!ok) {
            d->failed = true;
            jet_stream_fail(NULL, &sd, &d->err);
            run_keep_path(b, &d->err);
            b->out.len = before;
        }
        d->out_at = before;
        d->out_len = b->out.len - before;
    }
}

/* Delivers a done batch in order (the caller's thread). False: stop. */
static bool run_deliver(run_state *r, run_batch *b) {
    for (size_t i = 0; i < b->ndocs; i++) {
        const run_doc *d = &b->docs[i];
        jet_stream_doc sd = {d->json ? d->json : b->in.data ? b->in.data + d->at : NULL, d->len,
                             d->offset, d->line, d->column, d->index};
        const char *out = b->out.data ? b->out.data + d->out_at : "";
        if (d->failed) {
            r->any_failed = true;
            r->s->err = d->err;
            r->s->err.path = NULL; /* it lives in the batch's arena */
        }
        bool go_on = r->deliver ? r->deliver(r->ctx, &sd, out, d->out_len, d->failed ? &d->err : NULL) : true;
        if (!go_on) {
            if (!d->failed) jet__error_set(&r->s->err, JET_ERR_INVALID_ARG, (size_t)d->offset, "stopped by the caller");
            return false;
        }
        if (d->failed && !(r->s->flags & JET_STREAM_SKIP_ERRORS)) {
            r->s->stopped = true;
            return false;
        }
    }
    return true;
}

static bool run_worker_init(run_state *r, run_worker *w, unsigned id) {
    w->run = r;
    w->id = id;
    w->parser = jet_parser_new(&r->s->alloc);
    w->od = jet_od_new(&r->s->alloc);
    return w->parser && w->od;
}

static void run_worker_free(run_worker *w) {
    jet_parser_free(w->parser);
    jet_od_free(w->od);
}

#if JET_HAVE_PTHREADS
static void *run_worker_main(void *arg) {
    run_worker *w = (run_worker *)arg;
    run_state *r = w->run;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (!r->quit && r->taken == r->filled) pthread_cond_wait(&r->work_ready, &r->lock);
        if (r->quit) break;
        run_batch *b = &r->ring[r->taken++ % r->nring];
        b->state = BATCH_BUSY;
        pthread_mutex_unlock(&r->lock);
        run_process(r, w, b);
        pthread_mutex_lock(&r->lock);
        b->state = BATCH_DONE;
        pthread_cond_signal(&r->batch_done);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* The caller's side with `n` workers running. */
static bool run_threaded(run_state *r) {
    bool ok = true;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        run_batch *oldest = &r->ring[r->delivered % r->nring];
        if (r->delivered < r->filled && oldest->state == BATCH_DONE) {
            pthread_mutex_unlock(&r->lock);
            bool go_on = run_deliver(r, oldest);
            pthread_mutex_lock(&r->lock);
            oldest->state = BATCH_FREE;
            r->delivered++;
            if (!go_on) {
                ok = false;
                break;
            }
            continue;
        }
        if (r->input_done && r->delivered == r->filled) break;
        run_batch *next = &r->ring[r->filled % r->nring];
        if (!r->input_done && next->state == BATCH_FREE) {
            pthread_mutex_unlock(&r->lock);
            run_fill(r, next);
            pthread_mutex_lock(&r->lock);
            if (next->ndocs) {
                next->state = BATCH_READY;
                r->filled++;
                pthread_cond_signal(&r->work_ready);
            } else if (!r->input_done && r->delivered < r->filled &&
                       r->ring[r->delivered % r->nring].state != BATCH_DONE) {
                /* input paused (see run_fill): wait for the batches in flight */
                pthread_cond_wait(&r->batch_done, &r->lock);
            }
            continue;
        }
        pthread_cond_wait(&r->batch_done, &r->lock);
    }
    r->quit = true;
    pthread_cond_broadcast(&r->work_ready);
    pthread_mutex_unlock(&r->lock);
    return ok;
}
#endif

/* Everything on the caller's thread: one batch at a time. */
static bool run_inline(run_state *r, run_worker *w) {
    run_batch *b = &r->ring[0];
    while (!r->input_done) {
        run_fill(r, b);
        if (!b->ndocs) continue;
        run_process(r, w, b);
        if (!run_deliver(r, b)) return false;
    }
    return true;
}

bool jet_stream_run(jet_stream *s, const jet_stream_run_opts *ro, jet_stream_work_fn work,
                    jet_stream_deliver_fn deliver, void *ctx) {
    if (!s) return false;
    jet_stream_run_opts defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!ro) ro = &defaults;
    run_state r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.work = work;
    r.deliver = deliver;
    r.ctx = ctx;
    r.batch_bytes = ro->batch_bytes ? ro->batch_bytes : (size_t)1 << 20;
    r.chunk_bytes = ro->chunk_bytes ? ro->chunk_bytes : (size_t)256 << 10;
    r.read = ro->read;
    r.read_ctx = ro->read_ctx;
    unsigned threads = ro->threads ? ro->threads : jet_cpu_count();
    if (threads > 256) threads = 256;
#if !JET_HAVE_PTHREADS
    threads = 1;
#endif
    r.nring = threads == 1 ? 1 : (size_t)threads * 2;
    const jet_alloc *a = &s->alloc;
    r.ring = (run_batch *)jet__malloc(a, r.nring * sizeof(run_batch));
    run_worker *workers = (run_worker *)jet__malloc(a, threads * sizeof(run_worker));
    bool ok = r.ring && workers;
    unsigned started = 0, ready = 0;
    if (ok) {
        memset(r.ring, 0, r.nring * sizeof(run_batch));
        memset(workers, 0, threads * sizeof(run_worker));
        for (size_t i = 0; i < r.nring; i++) {
            jet_buf_init(&r.ring[i].in, a);
            jet_buf_init(&r.ring[i].out, a);
            jet_arena_init(&r.ring[i].arena, a);
        }
        for (; ready < threads; ready++)
            if (!run_worker_init(&r, &workers[ready], ready)) break;
        ok = ready == threads;
    }
    if (!ok) {
        jet__error_kind(&s->err, JET_E_MEMORY, 0);
        s->stopped = true;
    } else if (threads == 1) {
        ok = run_inline(&r, &workers[0]);
    } else {
#if JET_HAVE_PTHREADS
        pthread_mutex_init(&r.lock, NULL);
        pthread_cond_init(&r.work_ready, NULL);
        pthread_cond_init(&r.batch_done, NULL);
        for (; started < threads; started++)
            if (pthread_create(&workers[started].thread, NULL, run_worker_main, &workers[started]) != 0)
                break;
        if (started == 0) {
            ok = run_inline(&r, &workers[0]);
        } else {
            ok = run_threaded(&r);
            for (unsigned i = 0; i < started; i++) pthread_join(workers[i].thread, NULL);
        }
        pthread_cond_destroy(&r.batch_done);
        pthread_cond_destroy(&r.work_ready);
        pthread_mutex_destroy(&r.lock);
#endif
    }
    (void)started;
    if (workers)
        for (unsigned i = 0; i < ready; i++) run_worker_free(&workers[i]);
    if (r.ring)
        for (size_t i = 0; i < r.nring; i++) {
            jet_buf_free(&r.ring[i].in);
            jet_buf_free(&r.ring[i].out);
            jet_arena_free(&r.ring[i].arena);
            jet__free(a, r.ring[i].docs);
        }
    jet__free(a, r.ring);
    jet__free(a, workers);
    return ok && !s->stopped && !r.any_failed;
}
