/* jet_typed.c — the "jet-typed" adapter: jet's typed binding (jet.h
 * section 13) with the field tables of examples/schemas.h, in its default
 * strict mode (every skipped member checked as valid JSON); "jet-typed-lazy"
 * the same with JET_READ_LAZY (brackets only, simdjson On-Demand's rule). A reused jet_od
 * and jet_arena (reset per operation: steady state allocates nothing);
 * jet_decode for whole documents, jet_odv_decode for a value met through the
 * cursor, jet_encode into a reused jet_buf. Strings are jet_str views (input
 * or the cursor's scratch). Only the typed-decoding operations. */
#include "engine.h"
#include "jet.h"
#include "jet_common.h"
#include "nostr_sum.h"
#include "schemas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct typed_state {
    jet_od *od;
    jet_arena arena;
    jet_buf out;
    jet_read_opts opts; /* jet-typed: the defaults; jet-typed-lazy: JET_READ_LAZY */
    char err[256];      /* why the last call failed */
} typed_state;

/* Records an error of jet_decode/jet_encode (err) or of the cursor. */
static int typed_fail(typed_state *s, const char *what, const jet_error *err) {
    jb_jet_describe(s->err, sizeof s->err, what, err ? err : jet_od_error(s->od));
    return -1;
}

/* The same naming the message (only on failure: no formatting per message
 * in the timed loop). */
static int typed_fail_msg(typed_state *s, size_t i, const jet_error *err) {
    char w[32];
    snprintf(w, sizeof w, "message %zu", i + 1);
    return typed_fail(s, w, err);
}

static const char *typed_last_error(void *st) {
    typed_state *s = (typed_state *)st;
    return s->err[0] ? s->err : NULL;
}

static void *typed_create(void) {
    jb_jet_default_kernel();
    /* The tables' key maps, built once here rather than in a timed call. */
    if (!jet_struct_prepare(&tw_timeline_type) || !jet_struct_prepare(&nostr_short_type) ||
        !jet_struct_prepare(&nostr_event_type) || !jet_struct_prepare(&nostr_message_type) ||
        !jet_struct_prepare(&api_response_type))
        return NULL;
    typed_state *s = (typed_state *)calloc(1, sizeof *s);
    if (!s) return NULL;
    s->od = jet_od_new(NULL);
    if (!s->od) {
        free(s);
        return NULL;
    }
    jet_arena_init(&s->arena, NULL);
    jet_buf_init(&s->out, NULL);
    return s;
}

/* jet-typed-lazy: skipped members checked for their brackets only */
static void *typed_create_lazy(void) {
    typed_state *s = (typed_state *)typed_create();
    if (s) s->opts.flags = JET_READ_LAZY;
    return s;
}

static void typed_destroy(void *st) {
    typed_state *s = (typed_state *)st;
    jet_od_free(s->od);
    jet_arena_free(&s->arena);
    jet_buf_free(&s->out);
    free(s);
}

/* decode: the TwTimeline, then the TwitterStats summed from it (a loop
 * over the decoded structs, inside the timed region). */
static int typed_decode(void *st, const char *json, size_t len, jb_twitter *t) {
    typed_state *s = (typed_state *)st;
    TwTimeline tl;
    jet_error err;
    jb_jet_default_kernel();
    jet_arena_reset(&s->arena);
    if (!jet_decode(s->od, json, len, &tw_timeline_type, &tl, &s->arena, &s->opts, &err))
        return typed_fail(s, "document", &err);
    for (size_t i = 0; i < tl.status_count; i++) {
        const TwStatus *x = &tl.statuses[i];
        t->statuses++;
        t->id_sum += x->id;
        t->text_bytes += x->text.len;
        t->created_at_bytes += x->created_at.len;
        t->retweet_sum += x->retweet_count;
        t->favorite_sum += x->favorite_count;
        t->user_id_sum += x->user.id;
        t->screen_name_bytes += x->user.screen_name.len;
        t->name_bytes += x->user.name.len;
        t->followers_sum += x->user.followers_count;
        t->friends_sum += x->user.friends_count;
        t->verified += x->user.verified;
        t->hashtags += x->entities.hashtag_count;
        for (size_t k = 0; k < x->entities.hashtag_count; k++) t->hashtag_bytes += x->entities.hashtags[k].text.len;
    }
    return 0;
}

/* nostr-short/-full: the cursor up to the event, then jet_odv_decode;
 * nostr-envelope: jet_decode of the whole message as NostrMessage. */
static int typed_nostr(void *st, int variant, const char *const *lines, const size_t *lens, size_t n,
                       jb_nostr *out) {
    typed_state *s = (typed_state *)st;
    jb_jet_default_kernel();
    for (size_t i = 0; i < n; i++) {
        /* the arena holds the decoded tags: reset where a message uses it */
        if (variant != JB_NOSTR_SHORT) jet_arena_reset(&s->arena);
        if (variant == JB_NOSTR_ENVELOPE) {
            NostrMessage m;
            jet_error err;
            if (!jet_decode(s->od, lines[i], lens[i], &nostr_message_type, &m, &s->arena, &s->opts, &err))
                return typed_fail_msg(s, i, &err);
            out->messages++;
            if (!jb_nostr_add_envelope(out, &m.env)) return typed_fail_msg(s, i, NULL);
            continue;
        }
        jet_odv root, v;
        jet_od_iter a;
        jet_str tag;
        if (!jet_od_start(s->od, lines[i], lens[i], &s->opts, &root) || !jet_odv_arr(&root, &a) ||
            !jet_od_arr_next(&a, &v) || !jet_odv_get_str(&v, &tag))
            return typed_fail_msg(s, i, NULL);
        out->messages++;
        if (tag.len != 5 || memcmp(tag.ptr, "EVENT", 5) != 0) {
            if (!jet_od_finish(s->od)) return typed_fail_msg(s, i, NULL);
            continue;
        }
        if (!jet_od_arr_next(&a, &v) || !jet_od_arr_next(&a, &v)) return typed_fail_msg(s, i, NULL);
        if (variant == JB_NOSTR_SHORT) {
            NostrShortEvent e;
            if (!jet_odv_decode(&v, &nostr_short_type, &e, NULL) || !jet_od_finish(s->od)) return typed_fail_msg(s, i, NULL);
            jb_nostr_add_short(out, &e);
        } else {
            NostrEvent e;
            if (!jet_odv_decode(&v, &nostr_event_type, &e, &s->arena) || !jet_od_finish(s->od))
                return typed_fail_msg(s, i, NULL);
            jb_nostr_add_event(out, &e);
        }
    }
    return 0;
}

static int typed_api_read(void *st, const char *json, size_t len, ApiResponse *r) {
    typed_state *s = (typed_state *)st;
    jet_error err;
    jb_jet_default_kernel();
    jet_arena_reset(&s->arena);
    if (!jet_decode(s->od, json, len, &api_response_type, r, &s->arena, &s->opts, &err))
        return typed_fail(s, "document", &err);
    return 0;
}

static const char *typed_api_write(void *st, const ApiResponse *in, size_t *out_len) {
    typed_state *s = (typed_state *)st;
    jet_error err;
    s->out.len = 0;
    if (!jet_encode(&s->out, &api_response_type, in, JET_WRITE_NOFLAG, &err)) {
        typed_fail(s, "jet_encode", &err);
        return NULL;
    }
    *out_len = s->out.len;
    return s->out.data;
}

const jb_engine jb_engine_jet_typed = {
    "jet-typed", "jet " JET_VERSION_STRING " (typed binding)",
    JB_CAP_NUL_STRINGS,
    NULL, NULL, NULL,
    "jet_decode into TwTimeline (reused jet_od and jet_arena), then TwitterStats summed from the structs",
    typed_create, typed_destroy, NULL, NULL, NULL,
    NULL, NULL, NULL, typed_decode,
    typed_nostr, typed_api_read, typed_api_write,
    "cursor to the event, then jet_odv_decode(nostr_short_type); jet_od_finish",
    "cursor to the event, then jet_odv_decode(nostr_event_type), tags from the reused jet_arena; jet_od_finish",
    "jet_decode(nostr_message_type): the union over the first element",
    "jet_decode(api_response_type): strings as views, arrays from a reused jet_arena",
    "jet_encode(api_response_type) into a reused jet_buf",
    typed_last_error,
    NULL, NULL /* ndjson */
};

const jb_engine jb_engine_jet_typed_lazy = {
    "jet-typed-lazy", "jet " JET_VERSION_STRING " (typed binding, JET_READ_LAZY)",
    JB_CAP_NUL_STRINGS,
    NULL, NULL, NULL,
    "jet_decode into TwTimeline with JET_READ_LAZY (skipped members: brackets only)",
    typed_create_lazy, typed_destroy, NULL, NULL, NULL,
    NULL, NULL, NULL, typed_decode,
    typed_nostr, typed_api_read, NULL,
    "as jet-typed, JET_READ_LAZY",
    "as jet-typed, JET_READ_LAZY",
    "as jet-typed, JET_READ_LAZY",
    "as jet-typed, JET_READ_LAZY",
    NULL,
    typed_last_error,
    NULL, NULL /* ndjson */
};
