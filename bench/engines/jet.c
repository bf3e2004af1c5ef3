/* jet.c — the jet adapters (DOM: jet_parser_parse, reused parser):
 * "jet" with the kernel jet picks (or JET_KERNEL), and "jet-onepass" with the
 * portable one-pass reader ("scalar" kernel). The kernel is a process-wide
 * setting, so each call selects its adapter's kernel first (one atomic
 * store); the engines are interleaved. */
#include "engine.h"
#include "jet.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct jet_state {
    jet_parser *parser;
    char kernel[16];
} jet_state;

/* The kernel jet chose for this process, remembered before any adapter
 * changes it. */
static char default_kernel[16];

static void *jet_state_new(const char *kernel) {
    if (!default_kernel[0]) snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    jet_state *st = (jet_state *)calloc(1, sizeof *st);
    if (!st) return NULL;
    st->parser = jet_parser_new(NULL);
    if (!st->parser) {
        free(st);
        return NULL;
    }
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

static int jet_validate(void *st, const char *json, size_t len) {
    return jet_parser_parse(use(st), json, len, NULL, NULL) != NULL;
}

static uint64_t u64_of(const jet_val *v) { return jet_get_uint(v); }

static int jet_decode(void *st, const char *json, size_t len, jb_twitter *t) {
    jet_doc *doc = jet_parser_parse(use(st), json, len, NULL, NULL);
    if (!doc) return -1;
    const jet_val *statuses = jet_obj_get(jet_doc_root(doc), "statuses");
    if (!jet_is_arr(statuses)) return -1;
    jet_arr_iter it = jet_arr_iter_init(statuses);
    for (jet_val *s; (s = jet_arr_iter_next(&it));) {
        const jet_val *v;
        t->statuses++;
        t->id_sum += u64_of(jet_obj_get(s, "id"));
        if ((v = jet_obj_get(s, "text"))) t->text_bytes += jet_get_len(v);
        if ((v = jet_obj_get(s, "created_at"))) t->created_at_bytes += jet_get_len(v);
        t->retweet_sum += u64_of(jet_obj_get(s, "retweet_count"));
        t->favorite_sum += u64_of(jet_obj_get(s, "favorite_count"));
        const jet_val *u = jet_obj_get(s, "user");
        if (u) {
            t->user_id_sum += u64_of(jet_obj_get(u, "id"));
            if ((v = jet_obj_get(u, "screen_name"))) t->screen_name_bytes += jet_get_len(v);
            if ((v = jet_obj_get(u, "name"))) t->name_bytes += jet_get_len(v);
            t->followers_sum += u64_of(jet_obj_get(u, "followers_count"));
            t->friends_sum += u64_of(jet_obj_get(u, "friends_count"));
            t->verified += jet_is_true(jet_obj_get(u, "verified"));
        }
        const jet_val *ent = jet_obj_get(s, "entities");
        const jet_val *tags = ent ? jet_obj_get(ent, "hashtags") : NULL;
        if (jet_is_arr(tags)) {
            jet_arr_iter ht = jet_arr_iter_init(tags);
            for (jet_val *h; (h = jet_arr_iter_next(&ht));) {
                t->hashtags++;
                if ((v = jet_obj_get(h, "text"))) t->hashtag_bytes += jet_get_len(v);
            }
        }
    }
    return 0;
}

const jb_engine jb_engine_jet = {
    "jet", "jet " JET_VERSION_STRING,
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS | JB_CAP_REFERENCE,
    "reused jet_parser (document recycled by the next parse)",
    "jet_val_write, minified",
    "no validate API yet: a full DOM parse with a reused parser",
    "DOM parse, then jet_obj_get lookups",
    jet_create, jet_destroy, jet_parse, jet_free_doc, jet_stats_fn,
    jet_serialize, jet_free_text, jet_validate, jet_decode
};

const jb_engine jb_engine_jet_onepass = {
    "jet-onepass", "jet " JET_VERSION_STRING " (kernel: scalar)",
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    "reused jet_parser, portable one-pass reader (JET_KERNEL=scalar: no structural index)",
    "jet_val_write, minified (the document of the one-pass reader)",
    "no validate API yet: a full DOM parse with the one-pass reader",
    "DOM parse with the one-pass reader, then jet_obj_get lookups",
    jet_onepass_create, jet_destroy, jet_parse, jet_free_doc, jet_stats_fn,
    jet_serialize, jet_free_text, jet_validate, jet_decode
};
