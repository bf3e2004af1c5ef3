/* jsonc.c — the json-c adapter (json_tokener_parse_ex, reused strict tokener). */
#include "engine.h"

#include <json-c/json.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The handle of a document whose root is `null` (json-c returns NULL). */
static char jc_null_doc;

static void *jc_create(void) {
    json_tokener *tok = json_tokener_new();
    if (tok) json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
    return tok;
}
static void jc_destroy(void *st) { json_tokener_free((json_tokener *)st); }

static void *jc_parse(void *st, const char *json, size_t len) {
    json_tokener *tok = (json_tokener *)st;
    json_tokener_reset(tok);
    json_object *o = json_tokener_parse_ex(tok, json, (int)len);
    if (json_tokener_get_error(tok) != json_tokener_success) {
        if (o) json_object_put(o);
        return NULL;
    }
    size_t used = json_tokener_get_parse_end(tok);
    while (used < len && (json[used] == ' ' || json[used] == '\n' || json[used] == '\r' || json[used] == '\t')) used++;
    if (used != len) { json_object_put(o); return NULL; }
    /* A top-level `null` parses to a NULL object; keep a non-NULL handle. */
    return o ? (void *)o : (void *)&jc_null_doc;
}
static void jc_free_doc(void *st, void *doc) {
    (void)st;
    if (doc != (void *)&jc_null_doc) json_object_put((json_object *)doc);
}

static void walk(json_object *v, uint64_t depth, jb_stats *s) {
    switch (json_object_get_type(v)) {
    case json_type_object: {
        s->objects++;
        if (depth + 1 > s->max_depth) s->max_depth = depth + 1;
        json_object_object_foreach(v, key, child) {
            s->keys++;
            s->string_bytes += strlen(key);
            walk(child, depth + 1, s);
        }
        break;
    }
    case json_type_array: {
        s->arrays++;
        if (depth + 1 > s->max_depth) s->max_depth = depth + 1;
        size_t n = json_object_array_length(v);
        for (size_t i = 0; i < n; i++) walk(json_object_array_get_idx(v, i), depth + 1, s);
        break;
    }
    case json_type_string: s->strings++; s->string_bytes += (uint64_t)json_object_get_string_len(v); break;
    case json_type_int: s->numbers++; s->integers++; break;
    case json_type_double: s->numbers++; s->doubles++; break;
    case json_type_boolean: if (json_object_get_boolean(v)) s->trues++; else s->falses++; break;
    case json_type_null: s->nulls++; break;
    }
}

static int jc_stats(void *st, void *doc, jb_stats *out) {
    (void)st;
    jb_stats_zero(out);
    walk(doc == (void *)&jc_null_doc ? NULL : (json_object *)doc, 0, out);
    return 0;
}

/* json-c keeps the text inside the object's print buffer (rewritten by the
 * next call); the harness uses it before the next serialize or free_doc. */
static char *jc_serialize(void *st, void *doc, size_t *out_len) {
    (void)st;
    size_t n = 0;
    const char *s = json_object_to_json_string_length(
        doc == (void *)&jc_null_doc ? NULL : (json_object *)doc, JSON_C_TO_STRING_PLAIN, &n);
    if (s && out_len) *out_len = n;
    return (char *)(uintptr_t)s;
}
static void jc_free_text(void *st, char *text) { (void)st; (void)text; }

const jb_engine jb_engine_jsonc = {
    "json-c", "json-c " JSON_C_VERSION,
    JB_CAP_NUM_SPLIT,
    "reused strict json_tokener + json_object_put",
    "json_object_to_json_string_length(PLAIN) into the object's own print buffer; "
    "doubles are re-emitted from their kept source text (no double-to-text conversion)",
    NULL, NULL,
    jc_create, jc_destroy, jc_parse, jc_free_doc, jc_stats,
    jc_serialize, jc_free_text, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL,
    NULL, NULL /* ndjson */
};

/* ---- build and patch ---- */

static json_object *jc_rebuild(json_object *v) {
    switch (json_object_get_type(v)) {
    case json_type_object: {
        json_object *o = json_object_new_object();
        json_object_object_foreach(v, key, child) {
            if (!o) break;
            json_object *c = jc_rebuild(child);
            if ((child && !c) || json_object_object_add(o, key, c)) {
                json_object_put(o);
                return NULL;
            }
        }
        return o;
    }
    case json_type_array: {
        json_object *a = json_object_new_array();
        size_t n = json_object_array_length(v);
        for (size_t i = 0; a && i < n; i++) {
            json_object *e = json_object_array_get_idx(v, i);
            json_object *c = jc_rebuild(e);
            if ((e && !c) || json_object_array_add(a, c)) {
                json_object_put(a);
                return NULL;
            }
        }
        return a;
    }
    case json_type_string: return json_object_new_string_len(json_object_get_string(v), json_object_get_string_len(v));
    case json_type_int: return json_object_new_int64(json_object_get_int64(v));
    case json_type_double: return json_object_new_double(json_object_get_double(v));
    case json_type_boolean: return json_object_new_boolean(json_object_get_boolean(v));
    default: return NULL; /* null */
    }
}

/* The text is copied out of the object's print buffer before the object goes. */
static char *jc_text_copy(json_object *o, size_t *out_len) {
    size_t n = 0;
    const char *s = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &n);
    char *c = s ? (char *)malloc(n + 1) : NULL;
    if (!c) return NULL;
    memcpy(c, s, n + 1);
    if (out_len) *out_len = n;
    return c;
}
static void jc_free_copy(void *st, char *text) { (void)st; free(text); }

static char *jc_build(void *st, void *doc, size_t *out_len) {
    (void)st;
    json_object *b = jc_rebuild(doc == (void *)&jc_null_doc ? NULL : (json_object *)doc);
    char *s = jc_text_copy(b, out_len);
    json_object_put(b);
    return s;
}

static json_object *jc_value(const jb_patch_op *op) {
    return op->vkind == JB_PV_STR ? json_object_new_string(op->str) : json_object_new_int64(op->num);
}

static int jc_edit(json_object *root, const jb_patch_op *op) {
    json_object *node = root;
    int k = 0;
    for (; op->tok[k + 1]; k++) {
        if (json_object_is_type(node, json_type_array)) node = json_object_array_get_idx(node, (size_t)atol(op->tok[k]));
        else if (!json_object_object_get_ex(node, op->tok[k], &node)) return -1;
        if (!node) return -1;
    }
    const char *last = op->tok[k];
    bool arr = json_object_is_type(node, json_type_array);
    size_t idx = (size_t)atol(last);
    switch (op->op) {
    case JB_PATCH_ADD:
        if (arr) return strcmp(last, "-") ? -1 : json_object_array_add(node, jc_value(op));
        return json_object_object_add(node, last, jc_value(op));
    case JB_PATCH_REMOVE:
        if (arr) return idx < json_object_array_length(node) ? json_object_array_del_idx(node, idx, 1) : -1;
        if (!json_object_object_get_ex(node, last, NULL)) return -1;
        json_object_object_del(node, last);
        return 0;
    default:
        if (arr) return idx < json_object_array_length(node) ? json_object_array_put_idx(node, idx, jc_value(op)) : -1;
        if (!json_object_object_get_ex(node, last, NULL)) return -1;
        return json_object_object_add(node, last, jc_value(op));
    }
}

static char *jc_patch(void *st, const char *json, size_t len, const jb_patch_op *ops, size_t n,
                      const char *patch_json, size_t patch_len, size_t *out_len) {
    (void)patch_json;
    (void)patch_len;
    void *doc = jc_parse(st, json, len);
    if (!doc || doc == (void *)&jc_null_doc) return NULL;
    char *s = NULL;
    size_t i = 0;
    while (i < n && jc_edit((json_object *)doc, &ops[i]) == 0) i++;
    if (i == n) s = jc_text_copy((json_object *)doc, out_len);
    json_object_put((json_object *)doc);
    return s;
}

const jb_mut_ops jb_mut_jsonc = {
    &jb_engine_jsonc, jc_build, jc_patch, jc_free_copy,
    "json_object_new_* + json_object_object_add/array_add per value, then "
    "json_object_to_json_string_length(PLAIN) (+ a copy of the text out of the object)",
    "parse, then json_object_object_get_ex/array_get_idx along each path (split beforehand) and "
    "object_add/object_del, array_add/del_idx/put_idx, then to_json_string_length(PLAIN) (+ a copy)",
};
