/* jet_ondemand.c — the "jet-ondemand" adapter: jet's on-demand cursor
 * (jet.h section 12), written by hand: a reused jet_od, fields requested
 * with jet_od_obj_get in the corpus's member order (jet_od_obj_find would
 * still find them in any other order, at the cost of a wrap-around), values
 * not asked for skipped (checked as valid JSON on the structural index; by
 * bracket matching only in "jet-ondemand-lazy", JET_READ_LAZY), and
 * jet_od_finish at the end of each document (what follows the last field
 * read is skipped and the document must end there). Strings are jet_str views into
 * the input (or the cursor's scratch when escaped), valid until the next
 * jet_od_start; arrays go to reused growable buffers whose pointers are set
 * once each array is complete. Only the typed-decoding operations. */
#include "engine.h"
#include "jet.h"
#include "jet_common.h"
#include "nostr_sum.h"
#include "schemas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable array, reused across calls (n = 0 keeps the capacity). */
typedef struct vec {
    void *p;
    size_t n, cap;
} vec;

static void *vec_push(vec *v, size_t esz) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 16;
        void *p = realloc(v->p, cap * esz);
        if (!p) return NULL;
        v->p = p;
        v->cap = cap;
    }
    return (char *)v->p + v->n++ * esz;
}

typedef struct od_state {
    jet_od *od;
    vec tags, strs, orders, items; /* NostrTag, jet_str, ApiOrder, ApiItem */
    jet_read_opts opts;            /* jet-ondemand-lazy: JET_READ_LAZY */
    char err[256];                 /* why the last call failed */
} od_state;

static void *ond_create(void) {
    jb_jet_default_kernel();
    od_state *s = (od_state *)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->od = jet_od_new(NULL);
    if (!s->od) {
        free(s);
        return NULL;
    }
    return s;
}

/* jet-ondemand-lazy: skipped values checked for their brackets only */
static void *ond_create_lazy(void) {
    od_state *s = (od_state *)ond_create();
    if (s) s->opts.flags = JET_READ_LAZY;
    return s;
}

static void ond_destroy(void *st) {
    od_state *s = (od_state *)st;
    jet_od_free(s->od);
    free(s->tags.p);
    free(s->strs.p);
    free(s->orders.p);
    free(s->items.p);
    free(s);
}

/* Records the cursor's error (or a shape this adapter rejected). */
static int ond_fail(od_state *s, const char *what) {
    jb_jet_describe(s->err, sizeof s->err, what, jet_od_error(s->od));
    return -1;
}

static const char *ond_last_error(void *st) {
    od_state *s = (od_state *)st;
    return s->err[0] ? s->err : NULL;
}

static bool str_is(jet_str s, const char *lit, size_t n) { return s.len == n && memcmp(s.ptr, lit, n) == 0; }

/* A member's value, read as one type (false on a missing member too: the
 * cursor records JET_ERR_MISSING_FIELD). */
static bool get_str(jet_od_iter *o, const char *key, jet_str *out) {
    jet_odv v;
    return jet_od_obj_get(o, key, &v) && jet_odv_get_str(&v, out);
}
static bool get_u64(jet_od_iter *o, const char *key, uint64_t *out) {
    jet_odv v;
    return jet_od_obj_get(o, key, &v) && jet_odv_get_u64(&v, out);
}
static bool get_i64(jet_od_iter *o, const char *key, int64_t *out) {
    jet_odv v;
    return jet_od_obj_get(o, key, &v) && jet_odv_get_i64(&v, out);
}
static bool get_i32(jet_od_iter *o, const char *key, int32_t *out) {
    int64_t x;
    if (!get_i64(o, key, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = (int32_t)x;
    return true;
}
static bool get_bool(jet_od_iter *o, const char *key, bool *out) {
    jet_odv v;
    return jet_od_obj_get(o, key, &v) && jet_odv_get_bool(&v, out);
}
static bool get_obj(jet_od_iter *o, const char *key, jet_od_iter *out) {
    jet_odv v;
    return jet_od_obj_get(o, key, &v) && jet_odv_obj(&v, out);
}
static bool get_arr(jet_od_iter *o, const char *key, jet_od_iter *out) {
    jet_odv v;
    return jet_od_obj_get(o, key, &v) && jet_odv_arr(&v, out);
}

/* ------------------------------------------------------------- decode -- */

static bool ond_decode_run(jet_od *od, const jet_read_opts *opts, const char *json, size_t len, jb_twitter *t) {
    jet_odv root, sv, hv;
    jet_od_iter ro, statuses, so, uo, eo, tags, ho;
    jet_str s;
    uint64_t u;
    bool b;
    if (!jet_od_start(od, json, len, opts, &root) || !jet_odv_obj(&root, &ro) || !get_arr(&ro, "statuses", &statuses))
        return false;
    while (jet_od_arr_next(&statuses, &sv)) {
        if (!jet_odv_obj(&sv, &so)) return false;
        t->statuses++;
        if (!get_str(&so, "created_at", &s)) return false;
        t->created_at_bytes += s.len;
        if (!get_u64(&so, "id", &u)) return false;
        t->id_sum += u;
        if (!get_str(&so, "text", &s)) return false;
        t->text_bytes += s.len;
        if (!get_obj(&so, "user", &uo) || !get_u64(&uo, "id", &u)) return false;
        t->user_id_sum += u;
        if (!get_str(&uo, "name", &s)) return false;
        t->name_bytes += s.len;
        if (!get_str(&uo, "screen_name", &s)) return false;
        t->screen_name_bytes += s.len;
        if (!get_u64(&uo, "followers_count", &u)) return false;
        t->followers_sum += u;
        if (!get_u64(&uo, "friends_count", &u)) return false;
        t->friends_sum += u;
        if (!get_bool(&uo, "verified", &b)) return false;
        t->verified += b;
        if (!get_u64(&so, "retweet_count", &u)) return false;
        t->retweet_sum += u;
        if (!get_u64(&so, "favorite_count", &u)) return false;
        t->favorite_sum += u;
        if (!get_obj(&so, "entities", &eo) || !get_arr(&eo, "hashtags", &tags)) return false;
        while (jet_od_arr_next(&tags, &hv)) {
            if (!jet_odv_obj(&hv, &ho) || !get_str(&ho, "text", &s)) return false;
            t->hashtags++;
            t->hashtag_bytes += s.len;
        }
    }
    return jet_od_finish(od);
}

static int ond_decode(void *st, const char *json, size_t len, jb_twitter *t) {
    jb_jet_default_kernel();
    if (ond_decode_run(((od_state *)st)->od, &((od_state *)st)->opts, json, len, t)) return 0;
    return ond_fail((od_state *)st, "document");
}

/* -------------------------------------------------------------- nostr -- */

static bool ond_short_event(jet_odv *v, NostrShortEvent *e) {
    jet_od_iter o;
    return jet_odv_obj(v, &o) && get_str(&o, "content", &e->content) && get_u64(&o, "created_at", &e->created_at) &&
           get_str(&o, "pubkey", &e->pubkey);
}

static bool ond_event(od_state *s, jet_odv *v, NostrEvent *e) {
    jet_od_iter o, tags, items;
    jet_odv tv, iv;
    uint64_t kind;
    if (!jet_odv_obj(v, &o) || !get_str(&o, "content", &e->content) || !get_u64(&o, "created_at", &e->created_at) ||
        !get_str(&o, "id", &e->id) || !get_u64(&o, "kind", &kind) || kind > UINT32_MAX ||
        !get_str(&o, "pubkey", &e->pubkey) || !get_str(&o, "sig", &e->sig) || !get_arr(&o, "tags", &tags))
        return false;
    e->kind = (uint32_t)kind;
    s->tags.n = s->strs.n = 0;
    while (jet_od_arr_next(&tags, &tv)) {
        NostrTag *t = (NostrTag *)vec_push(&s->tags, sizeof *t);
        if (!t || !jet_odv_arr(&tv, &items)) return false;
        t->count = 0;
        while (jet_od_arr_next(&items, &iv)) {
            jet_str *x = (jet_str *)vec_push(&s->strs, sizeof *x);
            if (!x || !jet_odv_get_str(&iv, x)) return false;
            t->count++;
        }
    }
    if (!jet_od_ok(s->od)) return false;
    NostrTag *t = (NostrTag *)s->tags.p;
    size_t off = 0;
    for (size_t i = 0; i < s->tags.n; i++) {
        t[i].items = (jet_str *)s->strs.p + off;
        off += t[i].count;
    }
    e->tags = t;
    e->tag_count = s->tags.n;
    return true;
}

/* One message: a tagged union over its first element (nostr-envelope), or
 * only EVENT's event recognized (nostr-short/-full). The caller finishes
 * the document. */
static bool ond_message(od_state *s, int variant, const char *line, size_t len, jb_nostr *out) {
    jet_odv root, v;
    jet_od_iter a;
    jet_str tag;
    if (!jet_od_start(s->od, line, len, &s->opts, &root) || !jet_odv_arr(&root, &a) || !jet_od_arr_next(&a, &v) ||
        !jet_odv_get_str(&v, &tag))
        return false;
    out->messages++;
    NostrEnvelope m;
    memset(&m, 0, sizeof m);
    if (str_is(tag, "EVENT", 5)) {
        m.type = NOSTR_EVENT;
        if (!jet_od_arr_next(&a, &v) || (variant == JB_NOSTR_ENVELOPE && !jet_odv_get_str(&v, &m.as.event.sub_id)) ||
            !jet_od_arr_next(&a, &v))
            return false;
        if (variant == JB_NOSTR_SHORT) {
            NostrShortEvent e;
            memset(&e, 0, sizeof e);
            if (!ond_short_event(&v, &e)) return false;
            jb_nostr_add_short(out, &e);
            return true;
        }
        if (!ond_event(s, &v, &m.as.event.event)) return false;
        if (variant == JB_NOSTR_FULL) jb_nostr_add_event(out, &m.as.event.event);
        else jb_nostr_add_envelope(out, &m);
        return true;
    }
    if (variant != JB_NOSTR_ENVELOPE) return true;
    if (str_is(tag, "EOSE", 4)) {
        m.type = NOSTR_EOSE;
        if (!jet_od_arr_next(&a, &v) || !jet_odv_get_str(&v, &m.as.eose.sub_id)) return false;
    } else if (str_is(tag, "OK", 2)) {
        m.type = NOSTR_OK; /* the message is optional: the corpus's OK has none */
        if (!jet_od_arr_next(&a, &v) || !jet_odv_get_str(&v, &m.as.ok.event_id) || !jet_od_arr_next(&a, &v) ||
            !jet_odv_get_bool(&v, &m.as.ok.accepted))
            return false;
        if (jet_od_arr_next(&a, &v) && !jet_odv_get_str(&v, &m.as.ok.message)) return false;
        if (!jet_od_ok(s->od)) return false;
    } else if (str_is(tag, "NOTICE", 6)) {
        m.type = NOSTR_NOTICE;
        if (!jet_od_arr_next(&a, &v) || !jet_odv_get_str(&v, &m.as.notice.message)) return false;
    } else {
        return false;
    }
    return jb_nostr_add_envelope(out, &m);
}

static int ond_nostr(void *st, int variant, const char *const *lines, const size_t *lens, size_t n, jb_nostr *out) {
    od_state *s = (od_state *)st;
    jb_jet_default_kernel();
    for (size_t i = 0; i < n; i++)
        if (!ond_message(s, variant, lines[i], lens[i], out) || !jet_od_finish(s->od)) {
            char w[32];
            snprintf(w, sizeof w, "message %zu", i + 1);
            return ond_fail(s, w);
        }
    return 0;
}

/* ----------------------------------------------------------- api-read -- */

/* An Option[String]: absent or null is None. */
static bool opt_str(jet_od_iter *o, const char *key, bool *has, jet_str *out) {
    jet_odv v;
    *has = false;
    if (!jet_od_obj_find(o, key, strlen(key), &v)) return jet_od_ok(o->od);
    if (jet_odv_is_null(&v)) return true;
    return (*has = jet_odv_get_str(&v, out));
}

static bool ond_user(od_state *s, jet_od_iter *uo, ApiUser *u) {
    jet_od_iter ad, tags;
    jet_odv v;
    if (!get_i64(uo, "id", &u->id) || !get_str(uo, "name", &u->name) || !get_str(uo, "email", &u->email) ||
        !get_i32(uo, "age", &u->age) || !get_bool(uo, "active", &u->active) || !get_obj(uo, "address", &ad) ||
        !get_str(&ad, "street", &u->address.street) || !get_str(&ad, "city", &u->address.city) ||
        !get_str(&ad, "state", &u->address.state) || !get_str(&ad, "zip", &u->address.zip) ||
        !get_str(&ad, "country", &u->address.country) || !get_arr(uo, "tags", &tags))
        return false;
    while (jet_od_arr_next(&tags, &v)) {
        jet_str *x = (jet_str *)vec_push(&s->strs, sizeof *x);
        if (!x || !jet_odv_get_str(&v, x)) return false;
    }
    u->tags = (jet_str *)s->strs.p;
    u->tag_count = s->strs.n;
    return jet_od_ok(s->od) && opt_str(uo, "phone", &u->has_phone, &u->phone) &&
           opt_str(uo, "bio", &u->has_bio, &u->bio);
}

/* circe's external encoding: {"Shipped": {...}}, exactly one member. */
static bool ond_status(jet_od_iter *o, ApiStatus *st) {
    jet_od_iter so, vo;
    jet_odv v;
    jet_str k;
    if (!get_obj(o, "status", &so) || !jet_od_obj_next(&so, &k, &v) || !jet_odv_obj(&v, &vo)) return false;
    if (str_is(k, "Delivered", 9)) {
        st->tag = API_DELIVERED;
        if (!get_i64(&vo, "deliveredAt", &st->as.delivered.deliveredAt)) return false;
    } else if (str_is(k, "Shipped", 7)) {
        st->tag = API_SHIPPED;
        if (!get_str(&vo, "trackingNumber", &st->as.shipped.trackingNumber) ||
            !get_str(&vo, "carrier", &st->as.shipped.carrier))
            return false;
    } else if (str_is(k, "Processing", 10)) {
        st->tag = API_PROCESSING;
        if (!get_i32(&vo, "estimatedDays", &st->as.processing.estimatedDays)) return false;
    } else {
        return false;
    }
    return !jet_od_obj_next(&so, &k, &v) && jet_od_ok(o->od);
}

static bool ond_api_read_run(od_state *s, const char *json, size_t len, ApiResponse *r) {
    jet_odv root, ov, iv;
    jet_od_iter ro, uo, orders, oo, items, io;
    memset(r, 0, sizeof *r);
    s->strs.n = s->orders.n = s->items.n = 0;
    if (!jet_od_start(s->od, json, len, &s->opts, &root) || !jet_odv_obj(&root, &ro) || !get_obj(&ro, "user", &uo) ||
        !ond_user(s, &uo, &r->user) || !get_arr(&ro, "orders", &orders))
        return false;
    while (jet_od_arr_next(&orders, &ov)) {
        ApiOrder *o = (ApiOrder *)vec_push(&s->orders, sizeof *o);
        if (!o || !jet_odv_obj(&ov, &oo)) return false;
        memset(o, 0, sizeof *o);
        if (!get_i64(&oo, "id", &o->id) || !get_arr(&oo, "items", &items)) return false;
        while (jet_od_arr_next(&items, &iv)) {
            ApiItem *it = (ApiItem *)vec_push(&s->items, sizeof *it);
            jet_odv pv;
            if (!it || !jet_odv_obj(&iv, &io) || !get_str(&io, "sku", &it->sku) || !get_str(&io, "name", &it->name) ||
                !get_i32(&io, "quantity", &it->quantity) || !jet_od_obj_get(&io, "price", &pv) ||
                !jet_odv_get_double(&pv, &it->price))
                return false;
            o->item_count++;
        }
        if (!ond_status(&oo, &o->status)) return false;
    }
    if (!get_str(&ro, "requestId", &r->requestId) || !get_i64(&ro, "timestamp", &r->timestamp)) return false;
    /* The arrays are complete: point into them. */
    ApiOrder *o = (ApiOrder *)s->orders.p;
    size_t off = 0;
    for (size_t i = 0; i < s->orders.n; i++) {
        o[i].items = (ApiItem *)s->items.p + off;
        off += o[i].item_count;
    }
    r->orders = o;
    r->order_count = s->orders.n;
    return jet_od_finish(s->od);
}

static int ond_api_read(void *st, const char *json, size_t len, ApiResponse *r) {
    jb_jet_default_kernel();
    if (ond_api_read_run((od_state *)st, json, len, r)) return 0;
    return ond_fail((od_state *)st, "document");
}

const jb_engine jb_engine_jet_ondemand = {
    "jet-ondemand", "jet " JET_VERSION_STRING " (on-demand cursor)",
    JB_CAP_NUL_STRINGS,
    NULL, NULL, NULL,
    "reused jet_od; jet_od_obj_get in member order, the rest skipped (checked as valid JSON)",
    ond_create, ond_destroy, NULL, NULL, NULL,
    NULL, NULL, NULL, ond_decode,
    ond_nostr, ond_api_read, NULL,
    "jet_od_start per message; EVENT's 3 fields by jet_od_obj_get, the rest skipped; jet_od_finish",
    "jet_od_start per message; every event field, tags into reused buffers",
    "jet_od_start per message; union by its first element",
    "reused jet_od; jet_od_obj_get in member order into ApiResponse (strings: views into the input or the "
    "cursor's scratch; arrays: reused buffers)",
    NULL,
    ond_last_error,
    NULL, NULL /* ndjson */
};

const jb_engine jb_engine_jet_ondemand_lazy = {
    "jet-ondemand-lazy", "jet " JET_VERSION_STRING " (on-demand cursor, JET_READ_LAZY)",
    JB_CAP_NUL_STRINGS,
    NULL, NULL, NULL,
    "as jet-ondemand, JET_READ_LAZY: the rest skipped by bracket matching",
    ond_create_lazy, ond_destroy, NULL, NULL, NULL,
    NULL, NULL, NULL, ond_decode,
    ond_nostr, ond_api_read, NULL,
    "as jet-ondemand, JET_READ_LAZY",
    "as jet-ondemand, JET_READ_LAZY",
    "as jet-ondemand, JET_READ_LAZY",
    "as jet-ondemand, JET_READ_LAZY",
    NULL,
    ond_last_error,
    NULL, NULL /* ndjson */
};
