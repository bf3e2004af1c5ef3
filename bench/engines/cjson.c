/* cjson.c — the cJSON adapter (cJSON_ParseWithLength, a fresh tree per parse). */
#include "engine.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#define JB_STR_(x) #x
#define JB_STR(x) JB_STR_(x)

static void *cj_create(void) { static int dummy; return &dummy; }
static void cj_destroy(void *st) { (void)st; }

static void *cj_parse(void *st, const char *json, size_t len) {
    (void)st;
    /* cJSON_ParseWithLength reads exactly len bytes: no copy needed. It
     * accepts trailing content after the root, so require the whole input. */
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(json, len, &end, 0);
    if (!root) return NULL;
    while (end < json + len && (*end == ' ' || *end == '\n' || *end == '\r' || *end == '\t')) end++;
    if (end != json + len) { cJSON_Delete(root); return NULL; }
    return root;
}
static void cj_free_doc(void *st, void *doc) { (void)st; cJSON_Delete((cJSON *)doc); }

static void walk(const cJSON *v, uint64_t depth, jb_stats *s) {
    if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
        if (cJSON_IsObject(v)) s->objects++; else s->arrays++;
        if (depth + 1 > s->max_depth) s->max_depth = depth + 1;
        for (const cJSON *c = v->child; c; c = c->next) {
            if (cJSON_IsObject(v)) {
                s->keys++;
                s->string_bytes += strlen(c->string);
            }
            walk(c, depth + 1, s);
        }
    } else if (cJSON_IsString(v)) {
        s->strings++;
        s->string_bytes += strlen(v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        s->numbers++;
        s->doubles++; /* cJSON keeps every number as a double */
    } else if (cJSON_IsTrue(v)) {
        s->trues++;
    } else if (cJSON_IsFalse(v)) {
        s->falses++;
    } else if (cJSON_IsNull(v)) {
        s->nulls++;
    }
}

static int cj_stats(void *st, void *doc, jb_stats *out) {
    (void)st;
    jb_stats_zero(out);
    walk((const cJSON *)doc, 0, out);
    return 0;
}

static char *cj_serialize(void *st, void *doc, size_t *out_len) {
    (void)st;
    char *s = cJSON_PrintUnformatted((const cJSON *)doc);
    if (s && out_len) *out_len = strlen(s);
    return s;
}
static void cj_free_text(void *st, char *text) { (void)st; cJSON_free(text); }

const jb_engine jb_engine_cjson = {
    "cjson", "cJSON " JB_STR(CJSON_VERSION_MAJOR) "." JB_STR(CJSON_VERSION_MINOR) "." JB_STR(CJSON_VERSION_PATCH),
    0,
    "cJSON_ParseWithLengthOpts + cJSON_Delete; numbers are doubles only",
    "cJSON_PrintUnformatted (+ cJSON_free)",
    NULL, NULL,
    cj_create, cj_destroy, cj_parse, cj_free_doc, cj_stats,
    cj_serialize, cj_free_text, NULL, NULL,
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL,
    NULL, NULL /* ndjson */
};
