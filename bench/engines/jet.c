/* jet.c — the jet adapters (DOM: jet_parser_parse, reused parser):
 * "jet" with the kernel jet picks (or JET_KERNEL), and "jet-onepass" with the
 * portable one-pass reader ("scalar" kernel). The kernel is a process-wide
 * setting, so each call selects its adapter's kernel first (one atomic
 * store); the engines are interleaved. */
#include "engine.h"
#include "jet.h"
#include "jet_common.h"
#include "nostr_sum.h"
#include "schemas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jet_state {
    jet_parser *parser;
    jet_od *vod;     /* jet_od_validate's reused scratch */
    jet_arena arena; /* the decoded structs' arrays (nostr tags, ApiResponse) */
    jet_stream *stream; /* ndjson */
    char kernel[16];
    char err[256];   /* why the last typed decoding failed */
} jet_state;

/* The kernel jet chose for this process, remembered before any adapter
 * changes it. */
static char default_kernel[16];

static const char *default_kernel_name(void) {
    if (!default_kernel[0]) snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    return default_kernel;
}

void jb_jet_default_kernel(void) { jet_kernel_set(default_kernel_name()); }

void jb_jet_describe(char *buf, size_t cap, const char *what, const jet_error *e) {
    if (!e || e->code == JET_OK) {
        snprintf(buf, cap, "%s: not the expected shape", what);
        return;
    }
    snprintf(buf, cap, "%s: %s (%s) at byte %zu%s%s", what, jet_code_name(e->code), e->msg ? e->msg : "",
             e->offset, e->path ? ", path " : "", e->path ? e->path : "");
}

static void *jet_state_new(const char *kernel) {
    default_kernel_name();
    jet_state *st = (jet_state *)calloc(1, sizeof *st);
    if (!st) return NULL;
    st->parser = jet_parser_new(NULL);
    st->vod = jet_od_new(NULL);
    if (!st->parser || !st->vod) {
        jet_parser_free(st->parser);
        jet_od_free(st->vod);
        free(st);
        return NULL;
    }
    jet_arena_init(&st->arena, NULL);
    snprintf(st->kernel, sizeof st->kernel, "%s", kernel ? kernel : default_kernel);
    return st;
}

static jet_parser *use(void *st) {
    jet_state *s = (jet_state *)st;
    jet_kernel_set(s->kernel);
    return s->parser;
}

static void *jet_create(void) { return jet_state_new(NULL); }
static void *jet_onepass_create(void) { return jet_state_new("scalar"); }
static void jet_destroy(void *st) {
    jet_parser_free(((jet_state *)st)->parser);
    jet_od_free(((jet_state *)st)->vod);
    jet_arena_free(&((jet_state *)st)->arena);
    jet_stream_free(((jet_state *)st)->stream);
    free(st);
}

static void *jet_parse(void *st, const char *json, size_t len) {
    return jet_parser_parse(use(st), json, len, NULL, NULL);
}
/* The document belongs to the parser and is recycled by the next parse. */
static void jet_free_doc(void *st, void *doc) { (void)st; (void)doc; }

static int jet_stats_fn(void *st, void *doc, jb_stats *out) {
    (void)st;
    jet_stats s;
    jet_val_stats(jet_doc_root((jet_doc *)doc), &s);
    out->objects = s.objects; out->arrays = s.arrays; out->strings = s.strings;
    out->numbers = s.numbers; out->integers = s.integers; out->doubles = s.doubles;
    out->trues = s.trues; out->falses = s.falses; out->nulls = s.nulls;
    out->keys = s.keys; out->max_depth = s.max_depth; out->string_bytes = s.string_bytes;
    return 0;
}

static char *jet_serialize(void *st, void *doc, size_t *out_len) {
    (void)st;
    return jet_val_write(jet_doc_root((jet_doc *)doc), JET_WRITE_NOFLAG, NULL, out_len, NULL);
}
static void jet_free_text(void *st, char *text) { (void)st; free(text); }

/* jet: the validate-only entry point over the structural index;
 * jet-onepass: a DOM parse with the one-pass reader (it has no index). */
static int jet_validate_only(void *st, const char *json, size_t len) {
    jet_state *s = (jet_state *)st;
    (void)use(st);
    return jet_od_validate(s->vod, json, len, NULL);
}
static int jet_dom_validate(void *st, const char *json, size_t len) {
    return jet_parser_parse(use(st), json, len, NULL, NULL) != NULL;
}

/* The reference TwitterStats walk (tests/oracle/twitter_stats.h, which
 * the tests check the cursor and the typed decoders against), timed with
 * the parse: jet_obj_get lookups on the DOM. */
static int jet_dom_decode(void *st, const char *json, size_t len, jb_twitter *t) {
    jet_doc *doc = jet_parser_parse(use(st), json, len, NULL, NULL);
    return doc && twitter_stats_of(jet_doc_root(doc), t) ? 0 : -1;
}

/* ------------------------------------------------ typed decoding (DOM) -- */

/* The DOM route: parse, then fill the structs of examples/schemas.h with
 * jet_obj_get lookups; strings are views into the document (valid until the
 * parser's next parse), arrays come from the state's arena. */

static bool dom_str(const jet_val *v, jet_str *out) {
    if (!jet_is_str(v)) return false;
    out->ptr = jet_get_str(v);
    out->len = jet_get_len(v);
    return true;
}
static bool dom_u64(const jet_val *v, uint64_t *out) {
    if (!jet_is_uint(v)) return false;
    *out = jet_get_uint(v);
    return true;
}
static bool dom_i64(const jet_val *v, int64_t *out) {
    if (!jet_is_sint(v) && !(jet_is_uint(v) && jet_get_uint(v) <= (uint64_t)INT64_MAX)) return false;
    *out = jet_get_sint(v);
    return true;
}
static bool dom_i32(const jet_val *v, int32_t *out) {
    int64_t x;
    if (!dom_i64(v, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = (int32_t)x;
    return true;
}
static bool dom_bool(const jet_val *v, bool *out) {
    if (!jet_is_bool(v)) return false;
    *out = jet_get_bool(v);
    return true;
}
/* An Option[String]: absent or null is None. */
static bool dom_opt_str(const jet_val *v, bool *has, jet_str *out) {
    *has = false;
    if (!v || jet_is_null(v)) return true;
    return (*has = dom_str(v, out));
}

static bool dom_short_event(const jet_val *o, NostrShortEvent *e) {
    return jet_is_obj(o) && dom_u64(jet_obj_get(o, "created_at"), &e->created_at) &&
           dom_str(jet_obj_get(o, "content"), &e->content) && dom_str(jet_obj_get(o, "pubkey"), &e->pubkey);
}

static bool dom_event(jet_arena *a, const jet_val *o, NostrEvent *e) {
    uint64_t kind;
    if (!jet_is_obj(o) || !dom_str(jet_obj_get(o, "id"), &e->id) || !dom_str(jet_obj_get(o, "pubkey"), &e->pubkey) ||
        !dom_u64(jet_obj_get(o, "created_at"), &e->created_at) || !dom_u64(jet_obj_get(o, "kind"), &kind) ||
        kind > UINT32_MAX || !dom_str(jet_obj_get(o, "content"), &e->content) ||
        !dom_str(jet_obj_get(o, "sig"), &e->sig))
        return false;
    e->kind = (uint32_t)kind;
    const jet_val *tags = jet_obj_get(o, "tags");
    if (!jet_is_arr(tags)) return false;
    e->tag_count = jet_arr_size(tags);
    e->tags = (NostrTag *)jet_arena_alloc(a, e->tag_count * sizeof *e->tags, _Alignof(NostrTag));
    if (!e->tags) return false;
    jet_arr_iter it = jet_arr_iter_init(tags);
    NostrTag *t = e->tags;
    for (jet_val *tv; (tv = jet_arr_iter_next(&it)); t++) {
        if (!jet_is_arr(tv)) return false;
        t->count = jet_arr_size(tv);
        t->items = (jet_str *)jet_arena_alloc(a, t->count * sizeof *t->items, _Alignof(jet_str));
        if (!t->items) return false;
        jet_arr_iter ii = jet_arr_iter_init(tv);
        jet_str *s = t->items;
        for (jet_val *sv; (sv = jet_arr_iter_next(&ii)); s++)
            if (!dom_str(sv, s)) return false;
    }
    return true;
}

/* The envelope: a tagged union over the first element. */
static bool dom_envelope(jet_arena *a, const jet_val *msg, NostrEnvelope *m) {
    const jet_val *tag = jet_arr_first(msg);
    size_t n = jet_arr_size(msg);
    if (!jet_is_str(tag) || n < 2) return false;
    const jet_val *v1 = jet_next(tag), *v2 = n > 2 ? jet_next(v1) : NULL, *v3 = n > 3 ? jet_next(v2) : NULL;
    if (jet_equals_strn(tag, "EVENT", 5)) {
        m->type = NOSTR_EVENT;
        return dom_str(v1, &m->as.event.sub_id) && dom_event(a, v2, &m->as.event.event);
    }
    if (jet_equals_strn(tag, "EOSE", 4)) {
        m->type = NOSTR_EOSE;
        return dom_str(v1, &m->as.eose.sub_id);
    }
    if (jet_equals_strn(tag, "OK", 2)) {
        m->type = NOSTR_OK; /* the message is optional: the corpus's OK has none */
        return dom_str(v1, &m->as.ok.event_id) && dom_bool(v2, &m->as.ok.accepted) &&
               (!v3 || dom_str(v3, &m->as.ok.message));
    }
    if (jet_equals_strn(tag, "NOTICE", 6)) {
        m->type = NOSTR_NOTICE;
        return dom_str(v1, &m->as.notice.message);
    }
    return false;
}

/* Records why a typed decoding failed: the parse error (parsed again, only
 * now, to get it) when json is given, else a shape the adapter rejected. */
static int dom_fail(jet_state *s, size_t msg, const char *json, size_t len) {
    char w[48];
    if (msg == SIZE_MAX) snprintf(w, sizeof w, "document");
    else snprintf(w, sizeof w, "message %zu", msg + 1);
    jet_error err;
    memset(&err, 0, sizeof err);
    if (json) {
        jet_doc *doc = jet_read(json, len, NULL, NULL, &err);
        jet_doc_free(doc);
    }
    jb_jet_describe(s->err, sizeof s->err, w, &err);
    return -1;
}

static const char *jet_last_error(void *st) {
    jet_state *s = (jet_state *)st;
    return s->err[0] ? s->err : NULL;
}

static int jet_dom_nostr(void *st, int variant, const char *const *lines, const size_t *lens, size_t n,
                         jb_nostr *out) {
    jet_state *s = (jet_state *)st;
    jet_parser *p = use(st);
    for (size_t i = 0; i < n; i++) {
        jet_doc *doc = jet_parser_parse(p, lines[i], lens[i], NULL, NULL);
        if (!doc) return dom_fail(s, i, lines[i], lens[i]);
        const jet_val *msg = jet_doc_root(doc), *tag = jet_arr_first(msg);
        if (!jet_is_str(tag)) return dom_fail(s, i, NULL, 0);
        out->messages++;
        jet_arena_reset(&s->arena);
        if (variant == JB_NOSTR_ENVELOPE) {
            NostrEnvelope m;
            memset(&m, 0, sizeof m);
            if (!dom_envelope(&s->arena, msg, &m) || !jb_nostr_add_envelope(out, &m))
                return dom_fail(s, i, NULL, 0);
        } else if (jet_equals_strn(tag, "EVENT", 5)) {
            if (jet_arr_size(msg) < 3) return dom_fail(s, i, NULL, 0);
            const jet_val *ev = jet_next(jet_next(tag));
            if (variant == JB_NOSTR_SHORT) {
                NostrShortEvent e;
                memset(&e, 0, sizeof e);
                if (!dom_short_event(ev, &e)) return dom_fail(s, i, NULL, 0);
                jb_nostr_add_short(out, &e);
            } else {
                NostrEvent e;
                memset(&e, 0, sizeof e);
                if (!dom_event(&s->arena, ev, &e)) return dom_fail(s, i, NULL, 0);
                jb_nostr_add_event(out, &e);
            }
        }
    }
    return 0;
}

static bool dom_user(jet_arena *a, const jet_val *o, ApiUser *u) {
    const jet_val *ad = jet_obj_get(o, "address"), *tags = jet_obj_get(o, "tags");
    if (!jet_is_obj(o) || !dom_i64(jet_obj_get(o, "id"), &u->id) || !dom_str(jet_obj_get(o, "name"), &u->name) ||
        !dom_str(jet_obj_get(o, "email"), &u->email) || !dom_i32(jet_obj_get(o, "age"), &u->age) ||
        !dom_bool(jet_obj_get(o, "active"), &u->active) || !jet_is_obj(ad) ||
        !dom_str(jet_obj_get(ad, "street"), &u->address.street) || !dom_str(jet_obj_get(ad, "city"), &u->address.city) ||
        !dom_str(jet_obj_get(ad, "state"), &u->address.state) || !dom_str(jet_obj_get(ad, "zip"), &u->address.zip) ||
        !dom_str(jet_obj_get(ad, "country"), &u->address.country) || !jet_is_arr(tags) ||
        !dom_opt_str(jet_obj_get(o, "phone"), &u->has_phone, &u->phone) ||
        !dom_opt_str(jet_obj_get(o, "bio"), &u->has_bio, &u->bio))
        return false;
    u->tag_count = jet_arr_size(tags);
    u->tags = (jet_str *)jet_arena_alloc(a, u->tag_count * sizeof *u->tags, _Alignof(jet_str));
    if (!u->tags) return false;
    jet_arr_iter it = jet_arr_iter_init(tags);
    jet_str *t = u->tags;
    for (jet_val *v; (v = jet_arr_iter_next(&it)); t++)
        if (!dom_str(v, t)) return false;
    return true;
}

/* circe's external encoding: {"Shipped": {...}}. */
static bool dom_status(const jet_val *o, ApiStatus *st) {
    if (jet_obj_size(o) != 1) return false;
    jet_obj_iter it = jet_obj_iter_init(o);
    const jet_val *k = jet_obj_iter_next(&it), *v = jet_obj_iter_value(k);
    if (!jet_is_obj(v)) return false;
    if (jet_equals_strn(k, "Delivered", 9)) {
        st->tag = API_DELIVERED;
        return dom_i64(jet_obj_get(v, "deliveredAt"), &st->as.delivered.deliveredAt);
    }
    if (jet_equals_strn(k, "Shipped", 7)) {
        st->tag = API_SHIPPED;
        return dom_str(jet_obj_get(v, "trackingNumber"), &st->as.shipped.trackingNumber) &&
               dom_str(jet_obj_get(v, "carrier"), &st->as.shipped.carrier);
    }
    if (jet_equals_strn(k, "Processing", 10)) {
        st->tag = API_PROCESSING;
        return dom_i32(jet_obj_get(v, "estimatedDays"), &st->as.processing.estimatedDays);
    }
    return false;
}

static bool dom_order(jet_arena *a, const jet_val *o, ApiOrder *ord) {
    const jet_val *items = jet_obj_get(o, "items");
    if (!jet_is_obj(o) || !dom_i64(jet_obj_get(o, "id"), &ord->id) || !jet_is_arr(items)) return false;
    ord->item_count = jet_arr_size(items);
    ord->items = (ApiItem *)jet_arena_alloc(a, ord->item_count * sizeof *ord->items, _Alignof(ApiItem));
    if (!ord->items) return false;
    jet_arr_iter it = jet_arr_iter_init(items);
    ApiItem *item = ord->items;
    for (jet_val *v; (v = jet_arr_iter_next(&it)); item++) {
        const jet_val *price = jet_obj_get(v, "price");
        if (!jet_is_obj(v) || !dom_str(jet_obj_get(v, "sku"), &item->sku) ||
            !dom_str(jet_obj_get(v, "name"), &item->name) || !dom_i32(jet_obj_get(v, "quantity"), &item->quantity) ||
            !jet_is_num(price))
            return false;
        item->price = jet_get_num(price);
    }
    return dom_status(jet_obj_get(o, "status"), &ord->status);
}

static int jet_dom_api_read(void *st, const char *json, size_t len, ApiResponse *r) {
    jet_state *s = (jet_state *)st;
    memset(r, 0, sizeof *r);
    jet_arena_reset(&s->arena);
    jet_doc *doc = jet_parser_parse(use(st), json, len, NULL, NULL);
    if (!doc) return dom_fail(s, SIZE_MAX, json, len);
    const jet_val *root = jet_doc_root(doc), *orders = jet_obj_get(root, "orders");
    if (!dom_user(&s->arena, jet_obj_get(root, "user"), &r->user) || !jet_is_arr(orders))
        return dom_fail(s, SIZE_MAX, NULL, 0);
    r->order_count = jet_arr_size(orders);
    r->orders = (ApiOrder *)jet_arena_alloc(&s->arena, r->order_count * sizeof *r->orders, _Alignof(ApiOrder));
    if (!r->orders) return dom_fail(s, SIZE_MAX, NULL, 0);
    memset(r->orders, 0, r->order_count * sizeof *r->orders);
    jet_arr_iter it = jet_arr_iter_init(orders);
    ApiOrder *ord = r->orders;
    for (jet_val *v; (v = jet_arr_iter_next(&it)); ord++)
        if (!dom_order(&s->arena, v, ord)) return dom_fail(s, SIZE_MAX, NULL, 0);
    if (!dom_str(jet_obj_get(root, "requestId"), &r->requestId) || !dom_i64(jet_obj_get(root, "timestamp"), &r->timestamp))
        return dom_fail(s, SIZE_MAX, NULL, 0);
    return 0;
}

/* ndjson, one thread: jet_stream over the buffer (memchr per line), a DOM
 * per document with the state's reused parser. */
static int jet_ndjson(void *st, const char *buf, size_t len, jb_stats *out, size_t cap, size_t *n) {
    jet_state *s = (jet_state *)st;
    jet_parser *p = use(st);
    if (!s->stream && !(s->stream = jet_stream_new(JET_STREAM_NDJSON, NULL, NULL))) return 1;
    jet_stream_set_buffer(s->stream, buf, len);
    size_t k = 0;
    jet_doc *doc;
    jet_stream_status st_;
    while ((st_ = jet_stream_next_dom(s->stream, p, &doc, NULL)) == JET_STREAM_DOC) {
        if (out && k < cap) jet_stats_fn(st, doc, &out[k]);
        k++;
    }
    *n = k;
    if (st_ == JET_STREAM_END) return 0;
    jb_jet_describe(s->err, sizeof s->err, "ndjson", jet_stream_error(s->stream));
    return 1;
}

/* ndjson on every CPU (or $JB_THREADS): jet_stream_run, a DOM per document
 * on the workers; the fingerprints (verification only) travel in each
 * document's result. */
typedef struct jet_mt_run {
    jb_stats *out;
    size_t cap, n;
    bool verify; /* read by the workers, written before the run */
} jet_mt_run;

static bool jet_mt_work(void *ctx, jet_stream_worker *w, const jet_stream_doc *d, jet_error *err) {
    const jet_mt_run *run = (const jet_mt_run *)ctx;
    jet_doc *doc = jet_parser_parse(w->parser, d->json, d->len, NULL, err);
    if (!doc) return false;
    if (!run->verify) return true;
    jb_stats s;
    jet_stats_fn(NULL, doc, &s);
    return jet_buf_append(w->out, &s, sizeof s);
}

static bool jet_mt_deliver(void *ctx, const jet_stream_doc *d, const char *res, size_t n,
                           const jet_error *err) {
    jet_mt_run *run = (jet_mt_run *)ctx;
    (void)d;
    if (err) return false;
    if (run->verify && n == sizeof(jb_stats) && run->n < run->cap) memcpy(&run->out[run->n], res, n);
    run->n++;
    return true;
}

static unsigned jet_mt_threads(void) {
    const char *env = getenv("JB_THREADS");
    int n = env ? atoi(env) : 0;
    return n > 0 ? (unsigned)n : jet_cpu_count();
}

static int jet_mt_ndjson(void *st, const char *buf, size_t len, jb_stats *out, size_t cap, size_t *n) {
    jet_state *s = (jet_state *)st;
    use(st);
    if (!s->stream && !(s->stream = jet_stream_new(JET_STREAM_NDJSON, NULL, NULL))) return 1;
    jet_stream_set_buffer(s->stream, buf, len);
    jet_mt_run run = {out, cap, 0, out != NULL};
    jet_stream_run_opts ro = {jet_mt_threads(), 0, NULL, NULL, 0};
    bool ok = jet_stream_run(s->stream, &ro, jet_mt_work, jet_mt_deliver, &run);
    *n = run.n;
    if (ok) return 0;
    jb_jet_describe(s->err, sizeof s->err, "ndjson", jet_stream_error(s->stream));
    return 1;
}

const jb_engine jb_engine_jet = {
    "jet", "jet " JET_VERSION_STRING,
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS | JB_CAP_REFERENCE,
    "reused jet_parser (document recycled by the next parse)",
    "jet_val_write, minified",
    "jet_od_validate: stage 1, then the DOM reader's stage 2 building nothing (no document); reused jet_od",
    "DOM parse, then jet_obj_get lookups",
    jet_create, jet_destroy, jet_parse, jet_free_doc, jet_stats_fn,
    jet_serialize, jet_free_text, jet_validate_only, jet_dom_decode,
    jet_dom_nostr, jet_dom_api_read, NULL,
    "DOM parse per message, then jet_obj_get lookups (the DOM route)",
    "DOM parse per message, then jet_obj_get lookups; tags into a reused jet_arena",
    "DOM parse per message, union by its first element; tags into a reused jet_arena",
    "DOM parse, then jet_obj_get lookups into ApiResponse (strings: views into the document; arrays: a reused jet_arena)",
    NULL,
    jet_last_error,
    jet_ndjson,
    "jet_stream (NDJSON: memchr per line), a DOM per document, one reused jet_parser; one thread"
};

const jb_engine jb_engine_jet_onepass = {
    "jet-onepass", "jet " JET_VERSION_STRING " (kernel: scalar)",
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    "reused jet_parser, portable one-pass reader (JET_KERNEL=scalar: no structural index)",
    "jet_val_write, minified (the document of the one-pass reader)",
    "a full DOM parse with the one-pass reader (it has no index to validate over)",
    "DOM parse with the one-pass reader, then jet_obj_get lookups",
    jet_onepass_create, jet_destroy, jet_parse, jet_free_doc, jet_stats_fn,
    jet_serialize, jet_free_text, jet_dom_validate, jet_dom_decode,
    jet_dom_nostr, jet_dom_api_read, NULL,
    "DOM parse per message with the one-pass reader, then jet_obj_get lookups",
    "DOM parse per message with the one-pass reader, then jet_obj_get lookups; tags into a reused jet_arena",
    "DOM parse per message with the one-pass reader, union by its first element",
    "DOM parse with the one-pass reader, then jet_obj_get lookups into ApiResponse",
    NULL,
    jet_last_error,
    NULL, NULL /* ndjson */
};

/* ndjson only: the documents on every CPU ($JB_THREADS overrides). */
const jb_engine jb_engine_jet_threads = {
    "jet-threads", "jet " JET_VERSION_STRING " (jet_stream_run: $JB_THREADS or all CPUs)",
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    NULL, NULL, NULL, NULL,
    jet_create, jet_destroy, NULL, NULL, NULL,
    NULL, NULL, NULL, NULL,
    NULL, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL,
    jet_last_error,
    jet_mt_ndjson,
    "jet_stream_run: the caller's thread splits (memchr) into 1 MiB batches, worker threads "
    "parse (a DOM per document, a parser per worker), results in input order"
};

/* ---- build and patch (mutable documents) ---- */

/* A copy of `v` made value by value through the mutable API. */
static jet_mut_val *jet_rebuild(jet_mut_doc *m, const jet_val *v) {
    switch (jet_get_type(v)) {
    case JET_TYPE_OBJ: {
        jet_mut_val *o = jet_mut_obj(m);
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; o && (k = jet_obj_iter_next(&it));) {
            jet_mut_val *c = jet_rebuild(m, k + 1);
            if (!c || !jet_mut_obj_addn(m, o, jet_get_str(k), jet_get_len(k), c)) return NULL;
        }
        return o;
    }
    case JET_TYPE_ARR: {
        jet_mut_val *a = jet_mut_arr(m);
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; a && (e = jet_arr_iter_next(&it));) {
            jet_mut_val *c = jet_rebuild(m, e);
            if (!c || !jet_mut_arr_append(a, c)) return NULL;
        }
        return a;
    }
    case JET_TYPE_STR: return jet_mut_strn(m, jet_get_str(v), jet_get_len(v));
    case JET_TYPE_RAW: return jet_mut_raw(m, jet_get_str(v), jet_get_len(v));
    case JET_TYPE_NUM:
        if (jet_is_uint(v)) return jet_mut_uint(m, jet_get_uint(v));
        if (jet_is_sint(v)) return jet_mut_sint(m, jet_get_sint(v));
        return jet_mut_f64(m, jet_get_f64(v));
    case JET_TYPE_BOOL: return jet_mut_bool(m, jet_is_true(v));
    default: return jet_mut_null(m);
    }
}

static char *jet_build(void *st, void *doc, size_t *out_len) {
    (void)st;
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_mut_val *root = m ? jet_rebuild(m, jet_doc_root((jet_doc *)doc)) : NULL;
    char *s = NULL;
    if (root) {
        jet_mut_doc_set_root(m, root);
        s = jet_mut_doc_write(m, JET_WRITE_NOFLAG, NULL, out_len, NULL);
    }
    jet_mut_doc_free(m);
    return s;
}

/* jet applies the edits as what they are, an RFC 6902 document. */
static char *jet_mut_patch(void *st, const char *json, size_t len, const jb_patch_op *ops, size_t n,
                          const char *patch_json, size_t patch_len, size_t *out_len) {
    (void)ops;
    (void)n;
    jet_doc *d = jet_parser_parse(use(st), json, len, NULL, NULL);
    jet_doc *p = d ? jet_read(patch_json, patch_len, NULL, NULL, NULL) : NULL;
    jet_mut_doc *m = p ? jet_doc_to_mut(d, NULL) : NULL;
    char *s = NULL;
    if (m && jet_patch_apply(m, jet_doc_root(p), NULL))
        s = jet_mut_doc_write(m, JET_WRITE_NOFLAG, NULL, out_len, NULL);
    jet_mut_doc_free(m);
    jet_doc_free(p);
    return s;
}

const jb_mut_ops jb_mut_jet = {
    &jb_engine_jet, jet_build, jet_mut_patch, jet_free_text,
    "jet_mut_obj/arr + jet_mut_obj_addn/arr_append + jet_mut_strn (copied)/uint/sint/f64 per value, "
    "then jet_mut_doc_write",
    "reused jet_parser, jet_doc_to_mut (a copy), jet_read of the patch text, jet_patch_apply "
    "(RFC 6902, atomic: one more copy of the tree), then jet_mut_doc_write",
};
