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

/* ---- build and patch ---- */

static json_t *ja_rebuild(json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        json_t *o = json_object();
        for (void *it = json_object_iter(v); o && it; it = json_object_iter_next(v, it)) {
            json_t *c = ja_rebuild(json_object_iter_value(it));
            if (!c || json_object_setn_new_nocheck(o, json_object_iter_key(it), json_object_iter_key_len(it), c)) {
                json_decref(o);
                return NULL;
            }
        }
        return o;
    }
    case JSON_ARRAY: {
        json_t *a = json_array();
        size_t n = json_array_size(v);
        for (size_t i = 0; a && i < n; i++) {
            json_t *c = ja_rebuild(json_array_get(v, i));
            if (!c || json_array_append_new(a, c)) {
                json_decref(a);
                return NULL;
            }
        }
        return a;
    }
    case JSON_STRING: return json_stringn_nocheck(json_string_value(v), json_string_length(v));
    case JSON_INTEGER: return json_integer(json_integer_value(v));
    case JSON_REAL: return json_real(json_real_value(v));
    case JSON_TRUE: return json_true();
    case JSON_FALSE: return json_false();
    default: return json_null();
    }
}

static char *ja_build(void *st, void *doc, size_t *out_len) {
    json_t *b = ja_rebuild((json_t *)doc);
    if (!b) return NULL;
    char *s = ja_serialize(st, b, out_len);
    json_decref(b);
    return s;
}

static json_t *ja_value(const jb_patch_op *op) {
    return op->vkind == JB_PV_STR ? json_string(op->str) : json_integer(op->num);
}

static int ja_edit(json_t *root, const jb_patch_op *op) {
    json_t *node = root;
    int k = 0;
    for (; op->tok[k + 1]; k++) {
        node = json_is_array(node) ? json_array_get(node, (size_t)atol(op->tok[k]))
                                   : json_object_get(node, op->tok[k]);
        if (!node) return -1;
    }
    const char *last = op->tok[k];
    int arr = json_is_array(node);
    switch (op->op) {
    case JB_PATCH_ADD:
        if (arr) return strcmp(last, "-") ? -1 : json_array_append_new(node, ja_value(op));
        return json_object_set_new(node, last, ja_value(op));
    case JB_PATCH_REMOVE:
        return arr ? json_array_remove(node, (size_t)atol(last)) : json_object_del(node, last);
    default:
        if (arr) return json_array_set_new(node, (size_t)atol(last), ja_value(op));
        if (!json_object_get(node, last)) return -1;
        return json_object_set_new(node, last, ja_value(op));
    }
}

static char *ja_patch(void *st, const char *json, size_t len, const jb_patch_op *ops, size_t n,
                      const char *patch_json, size_t patch_len, size_t *out_len) {
    (void)patch_json;
    (void)patch_len;
    json_t *doc = (json_t *)ja_parse(st, json, len);
    if (!doc) return NULL;
    char *s = NULL;
    size_t i = 0;
    while (i < n && ja_edit(doc, &ops[i]) == 0) i++;
    if (i == n) s = ja_serialize(st, doc, out_len);
    json_decref(doc);
    return s;
}

const jb_mut_ops jb_mut_jansson = {
    &jb_engine_jansson, ja_build, ja_patch, ja_free_text,
    "json_object/json_array/json_*() per value (setn_new_nocheck, stringn_nocheck), then json_dumps(JSON_COMPACT)",
    "parse, then json_object_get/json_array_get along each path (split beforehand) and "
    "json_object_set_new/del, json_array_append_new/remove/set_new, then json_dumps(JSON_COMPACT)",
};
