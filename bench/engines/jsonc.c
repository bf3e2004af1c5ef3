/* jsonc.c — the json-c adapter (json_tokener_parse_ex, reused strict tokener). */
#include "engine.h"

#include <json-c/json.h>
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
