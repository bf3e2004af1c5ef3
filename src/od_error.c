/*
 * od_error.c — the on-demand cursor's errors (jet.h section 12).
 *
 * Errors are sticky and carry a JSON Pointer, computed only when an error
 * happens by walking the document again from the root to the offset.
 */
#include "ondemand.h"

#include <string.h>

/* ========================================================================== */
/* Errors and their JSON Pointer                                              */
/* ========================================================================== */

static bool path_reserve(jet_od *od, size_t need) {
    if (need <= od->path_cap) return true;
    size_t cap = od->path_cap ? od->path_cap : 64;
    while (cap < need) cap *= 2;
    char *p = (char *)jet__realloc(&od->alloc, od->path, od->path_cap, cap);
    if (!p) return false;
    od->path = p;
    od->path_cap = cap;
    return true;
}

/* Appends "/" and a reference token (RFC 6901: '~' -> "~0", '/' -> "~1"). */
static void path_push_key(jet_od *od, size_t *n, const char *k, size_t len) {
    if (!path_reserve(od, *n + 2 * len + 2)) return;
    od->path[(*n)++] = '/';
    for (size_t i = 0; i < len; i++) {
        if (k[i] == '~' || k[i] == '/') {
            od->path[(*n)++] = '~';
            od->path[(*n)++] = k[i] == '~' ? '0' : '1';
        } else {
            od->path[(*n)++] = k[i];
        }
    }
    od->path[*n] = 0;
}

static void path_push_index(jet_od *od, size_t *n, size_t idx) {
    char tmp[24];
    size_t t = 0;
    do {
        tmp[t++] = (char)('0' + idx % 10);
        idx /= 10;
    } while (idx);
    if (!path_reserve(od, *n + t + 2)) return;
    od->path[(*n)++] = '/';
    while (t) od->path[(*n)++] = tmp[--t];
    od->path[*n] = 0;
}

/* Offset of the token after the value starting at q (od->len if none). */
static size_t value_end(jet_od *od, size_t q) {
    char c = od->json[q];
    if (c == '{' || c == '[') {
        size_t e = jet__od_close(od, jet__od_next(od, q + 1), 1);
        return e == JET_OD_UNCLOSED ? od->len : jet__od_next(od, e);
    }
    if (c == '"') {
        size_t close = jet__od_next(od, q + 1);
        return close >= od->len ? od->len : jet__od_next(od, close + 1);
    }
    return jet__od_next(od, q + 1);
}

/*
 * Builds the JSON Pointer of the innermost value around `target` by walking
 * from the root; stops where the structure is broken (the pointer then names
 * the deepest value known to hold the offset). Returns the bracket that
 * opens the container holding that value ('[' or '{'; 0 at the root).
 */
static char build_path(jet_od *od, size_t target) {
    size_t n = 0;
    char holder = 0;
    if (!path_reserve(od, 64)) return 0;
    od->path[0] = 0;
    size_t p = od->root;
    const char *j = od->json;
    for (uint32_t guard = 0; p < od->len && p != target && guard < od->max_depth + 1; guard++) {
        char c = j[p];
        if (c != '{' && c != '[') break;
        bool obj = c == '{';
        size_t q = jet__od_next(od, p + 1), idx = 0;
        bool down = false;
        while (q < od->len && q <= target) {
            char d = j[q];
            if (d == '}' || d == ']') break;
            if (idx > 0) {
                if (d != ',') break;
                q = jet__od_next(od, q + 1);
                if (q >= od->len) break;
            }
            size_t from = q, ks = 0, ke = 0;
            if (obj) {
                if (j[q] != '"') break;
                ks = q;
                ke = jet__od_next(od, q + 1);
                if (ke >= od->len) break;
                size_t colon = jet__od_next(od, ke + 1);
                if (colon >= od->len || j[colon] != ':') break;
                q = jet__od_next(od, colon + 1);
                if (q >= od->len) break;
            }
            size_t vend = value_end(od, q);
            if (target >= from && target < vend) {
                if (obj) {
                    size_t kl = ke - ks - 1;
                    if (jet__od_has_backslash(od, ks + 1, ke)) {
                        char *tmp = (char *)jet__malloc(&od->alloc, kl + 1);
                        size_t ul = 0;
                        if (tmp && jet__od_unescape(od, j + ks + 1, kl, tmp, &ul, false))
                            path_push_key(od, &n, tmp, ul);
                        else
                            path_push_key(od, &n, j + ks + 1, kl);
                        jet__free(&od->alloc, tmp);
                    } else {
                        path_push_key(od, &n, j + ks + 1, kl);
                    }
                } else {
                    path_push_index(od, &n, idx);
                }
                if (target < q) return c; /* inside the key itself */
                holder = c;
                p = q;
                down = true;
                break;
            }
            q = vend;
            idx++;
        }
        if (!down) break;
    }
    return holder;
}

/* Records an error of kind `kind`, or (kind JET_E__COUNT) of `code` and
 * `msg`, with the path of the value at `value`. */
static bool fail_in(jet_od *od, jet__err kind, size_t off, size_t value, jet_code code, const char *msg) {
    if (od->failed) return false;
    od->failed = true;
    if (off > od->len) off = od->len;
    char holder = build_path(od, value);
    if (kind == JET_E_AFTER_VALUE) /* a byte glued to a scalar: the separator */
        kind = holder == '{' ? JET_E_EXPECTED_OBJECT_SEP /* its container wants, */
               : holder == '[' ? JET_E_EXPECTED_ARRAY_SEP /* as the DOM reader */
                               : JET_E_TRAILING_CONTENT;  /* says */
    if (kind != JET_E__COUNT) {
        code = jet__errs[kind].code;
        msg = jet__errs[kind].msg;
    }
    jet__error_at(&od->err, code, od->input, od->len, off, msg);
    od->err.path = od->path ? od->path : "";
    return false;
}

bool jet__od_fail(jet_od *od, jet_code code, size_t off, const char *msg) {
    /* an input that ends early: the path of what its last byte is in */
    size_t value = off >= od->len && od->len ? od->len - 1 : off;
    return fail_in(od, JET_E__COUNT, off, value, code, msg);
}

bool jet__od_err_in(jet_od *od, jet__err kind, size_t off, size_t value) {
    return fail_in(od, kind, off, value, JET_OK, NULL);
}

bool jet__od_err(jet_od *od, jet__err kind, size_t off) {
    return fail_in(od, kind, off, off, JET_OK, NULL);
}

bool jet__od_fail_missing(jet_od *od, size_t obj_pos, const char *key, size_t key_len) {
    if (od->failed) return false;
    jet__od_err(od, JET_E_MISSING_FIELD, obj_pos);
    size_t n = od->path ? strlen(od->path) : 0;
    path_push_key(od, &n, key, key_len);
    od->err.path = od->path ? od->path : "";
    return false;
}

