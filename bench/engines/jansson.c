/* jansson.c — the Jansson adapter (json_loadb, a fresh tree per parse). */
#include "engine.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static void *ja_create(void) { static int dummy; return &dummy; }
static void ja_destroy(void *st) { (void)st; }

static void *ja_parse(void *st, const char *json, size_t len) {
    (void)st;
    /* json_loadb reads exactly len bytes; JSON_DECODE_ANY accepts a scalar
     * root as RFC 8259 does. */
    return json_loadb(json, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
}
static void ja_free_doc(void *st, void *doc) { (void)st; json_decref((json_t *)doc); }

static void walk(json_t *v, uint64_t depth, jb_stats *s) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        s->objects++;
        if (depth + 1 > s->max_depth) s->max_depth = depth + 1;
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            s->keys++;
            s->string_bytes += json_object_iter_key_len(it);
            walk(json_object_iter_value(it), depth + 1, s);
        }
        break;
    }
    case JSON_ARRAY: {
        s->arrays++;
        if (depth + 1 > s->max_depth) s->max_depth = depth + 1;
        size_t n = json_array_size(v);
        for (size_t i = 0; i < n; i++) walk(json_array_get(v, i), depth + 1, s);
        break;
    }
    case JSON_STRING: s->strings++; s->string_bytes += json_string_length(v); break;
    case JSON_INTEGER: s->numbers++; s->integers++; break;
    case JSON_REAL: s->numbers++; s->doubles++; break;
    case JSON_TRUE: s->trues++; break;
    case JSON_FALSE: s->falses++; break;
    case JSON_NULL: s->nulls++; break;
    }
}

static int ja_stats(void *st, void *doc, jb_stats *out) {
    (void)st;
    jb_stats_zero(out);
    walk((json_t *)doc, 0, out);
    return 0;
}

static char *ja_serialize(void *st, void *doc, size_t *out_len) {
    (void)st;
    char *s = json_dumps((const json_t *)doc, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
    if (s && out_len) *out_len = strlen(s);
    return s;
}
static void ja_free_text(void *st, char *text) { (void)st; free(text); }

const jb_engine jb_engine_jansson = {
    "jansson", "Jansson " JANSSON_VERSION,
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    "json_loadb + json_decref (objects are hash tables)",
    "json_dumps(JSON_COMPACT) + free",
    NULL, NULL,
    ja_create, ja_destroy, ja_parse, ja_free_doc, ja_stats,
    ja_serialize, ja_free_text, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL,
    NULL, NULL /* ndjson */
};
