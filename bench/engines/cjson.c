/* cjson.c — the cJSON adapter (cJSON_ParseWithLength, a fresh tree per parse). */
#include "engine.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
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

/* ---- build and patch ---- */

static cJSON *cj_rebuild(const cJSON *v) {
    cJSON *out = NULL;
    if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
        bool obj = cJSON_IsObject(v);
        out = obj ? cJSON_CreateObject() : cJSON_CreateArray();
        for (const cJSON *c = v->child; out && c; c = c->next) {
            cJSON *n = cj_rebuild(c);
            if (!n) { cJSON_Delete(out); return NULL; }
            if (obj) cJSON_AddItemToObject(out, c->string, n);
            else cJSON_AddItemToArray(out, n);
        }
    } else if (cJSON_IsString(v)) {
        out = cJSON_CreateString(v->valuestring);
    } else if (cJSON_IsNumber(v)) {
        out = cJSON_CreateNumber(v->valuedouble);
    } else if (cJSON_IsBool(v)) {
        out = cJSON_CreateBool(cJSON_IsTrue(v));
    } else {
        out = cJSON_CreateNull();
    }
    return out;
}

static char *cj_build(void *st, void *doc, size_t *out_len) {
    cJSON *b = cj_rebuild((const cJSON *)doc);
    if (!b) return NULL;
    char *s = cj_serialize(st, b, out_len);
    cJSON_Delete(b);
    return s;
}

static cJSON *cj_value(const jb_patch_op *op) {
    return op->vkind == JB_PV_STR ? cJSON_CreateString(op->str) : cJSON_CreateNumber((double)op->num);
}

static bool cj_edit(cJSON *root, const jb_patch_op *op) {
    cJSON *node = root;
    int k = 0;
    for (; op->tok[k + 1]; k++) {
        node = cJSON_IsArray(node) ? cJSON_GetArrayItem(node, atoi(op->tok[k]))
                                   : cJSON_GetObjectItemCaseSensitive(node, op->tok[k]);
        if (!node) return false;
    }
    const char *last = op->tok[k];
    bool arr = cJSON_IsArray(node);
    switch (op->op) {
    case JB_PATCH_ADD:
        if (arr) return strcmp(last, "-") == 0 && cJSON_AddItemToArray(node, cj_value(op));
        return cJSON_AddItemToObject(node, last, cj_value(op));
    case JB_PATCH_REMOVE:
        if (arr) {
            int i = atoi(last);
            if (!cJSON_GetArrayItem(node, i)) return false;
            cJSON_DeleteItemFromArray(node, i);
            return true;
        }
        if (!cJSON_GetObjectItemCaseSensitive(node, last)) return false;
        cJSON_DeleteItemFromObjectCaseSensitive(node, last);
        return true;
    default:
        return arr ? cJSON_ReplaceItemInArray(node, atoi(last), cj_value(op))
                   : cJSON_ReplaceItemInObjectCaseSensitive(node, last, cj_value(op));
    }
}

static char *cj_patch(void *st, const char *json, size_t len, const jb_patch_op *ops, size_t n,
                      const char *patch_json, size_t patch_len, size_t *out_len) {
    (void)patch_json;
    (void)patch_len;
    cJSON *doc = (cJSON *)cj_parse(st, json, len);
    if (!doc) return NULL;
    char *s = NULL;
    size_t i = 0;
    while (i < n && cj_edit(doc, &ops[i])) i++;
    if (i == n) s = cj_serialize(st, doc, out_len);
    cJSON_Delete(doc);
    return s;
}

const jb_mut_ops jb_mut_cjson = {
    &jb_engine_cjson, cj_build, cj_patch, cj_free_text,
    "cJSON_Create* + cJSON_AddItemTo* per value, then cJSON_PrintUnformatted; numbers as doubles",
    "parse, then GetObjectItemCaseSensitive/GetArrayItem along each path (split beforehand) and "
    "AddItemTo*/DeleteItemFrom*/ReplaceItemIn*, then cJSON_PrintUnformatted",
};
