/*
 * diff.c — jet_diff: a JSON Patch (RFC 6902) from one value to another.
 *
 * Small, not minimal: objects are compared by key, arrays by position once
 * their common prefix and suffix are set aside (so one insertion or removal
 * anywhere is one operation, not a cascade of replaces), everything else is
 * one "replace". No move/copy detection.
 *
 * The path of the value being compared is kept in one growable buffer:
 * each level appends "/token" (escaped per RFC 6901) and cuts it off again.
 */
#include <stdlib.h>

#include "internal.h"

typedef struct df {
    jet_mut_doc *doc;
    jet_mut_val *ops;
    char *path;
    size_t len, cap;
    jet_code code;
    const char *msg;
} df;

static bool df_fail(df *d, jet_code code, const char *msg) {
    if (d->code == JET_OK) {
        d->code = code;
        d->msg = msg;
    }
    return false;
}

static bool df_reserve(df *d, size_t more) {
    if (d->cap - d->len >= more) return true;
    size_t cap = d->cap ? d->cap : 64;
    while (cap - d->len < more) {
        if (cap > SIZE_MAX / 2) return df_fail(d, JET_ERR_MEMORY, "out of memory");
        cap *= 2;
    }
    char *np = (char *)realloc(d->path, cap);
    if (!np) return df_fail(d, JET_ERR_MEMORY, "out of memory");
    d->path = np;
    d->cap = cap;
    return true;
}

/* Appends "/" and the token, '~' as "~0" and '/' as "~1". */
static bool df_push_key(df *d, const char *key, size_t n) {
    if (n > (SIZE_MAX - 1) / 2 || !df_reserve(d, 2 * n + 1)) return df_fail(d, JET_ERR_MEMORY, "out of memory");
    char *p = d->path + d->len;
    *p++ = '/';
    for (size_t i = 0; i < n; i++) {
        if (key[i] == '~' || key[i] == '/') {
            *p++ = '~';
            *p++ = key[i] == '~' ? '0' : '1';
        } else {
            *p++ = key[i];
        }
    }
    d->len = (size_t)(p - d->path);
    return true;
}

static bool df_push_index(df *d, size_t idx) {
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + idx % 10);
        idx /= 10;
    } while (idx);
    if (!df_reserve(d, n + 1)) return false;
    d->path[d->len++] = '/';
    while (n) d->path[d->len++] = digits[--n];
    return true;
}

/* Appends {"op": op, "path": <current path>[, "value": copy of v]}. */
static bool df_emit(df *d, const char *op, const jet_val *v) {
    jet_mut_doc *doc = d->doc;
    jet_mut_val *o = jet_mut_obj(doc);
    jet_mut_val *name = jet_mut_str_ref(doc, op);
    jet_mut_val *path = jet_mut_strn(doc, d->len ? d->path : "", d->len);
    if (!o || !name || !path || !jet_mut_obj_addn(doc, o, "op", 2, name) ||
        !jet_mut_obj_addn(doc, o, "path", 4, path))
        return df_fail(d, JET_ERR_MEMORY, "out of memory");
    if (v) {
        jet_mut_val *copy = jet_val_to_mut(doc, v);
        if (!copy || !jet_mut_obj_addn(doc, o, "value", 5, copy))
            return df_fail(d, JET_ERR_MEMORY, "out of memory");
    }
    if (!jet_mut_arr_append(d->ops, o)) return df_fail(d, JET_ERR_MEMORY, "out of memory");
    return true;
}

static bool df_value(df *d, const jet_val *a, const jet_val *b, unsigned depth);

/* Whether some key of `obj` appears twice (found by jet_obj_findn as
 * another member than itself). O(members^2). */
static bool df_has_repeated_key(const jet_val *obj) {
    jet_obj_iter it = jet_obj_iter_init(obj);
    for (jet_val *k; (k = jet_obj_iter_next(&it));)
        if (jet_obj_findn(obj, jet_get_str(k), jet_get_len(k)) != k + 1) return true;
    return false;
}

static bool df_object(df *d, const jet_val *a, const jet_val *b, unsigned depth) {
    if (df_has_repeated_key(a) || df_has_repeated_key(b)) {
        if (jet_val_equal(a, b)) return true;
        return df_emit(d, "replace", b);
    }
    /* No key in common: one replace instead of a remove per member of a
     * and an add per member of b (when that is more than one operation). */
    size_t na = jet_obj_size(a), nb = jet_obj_size(b), common = 0;
    jet_obj_iter it = jet_obj_iter_init(a);
    for (jet_val *k; !common && (k = jet_obj_iter_next(&it));)
        if (jet_obj_findn(b, jet_get_str(k), jet_get_len(k))) common++;
    if (!common && na + nb > 1) return df_emit(d, "replace", b);
    size_t base = d->len;
    it = jet_obj_iter_init(a);
    for (jet_val *k; (k = jet_obj_iter_next(&it));) {
        const char *key = jet_get_str(k);
        size_t n = jet_get_len(k);
        const jet_val *vb = jet_obj_findn(b, key, n);
        if (!df_push_key(d, key, n)) return false;
        bool ok = vb ? df_value(d, k + 1, vb, depth + 1) : df_emit(d, "remove", NULL);
        d->len = base;
        if (!ok) return false;
    }
    it = jet_obj_iter_init(b);
    for (jet_val *k; (k = jet_obj_iter_next(&it));) {
        const char *key = jet_get_str(k);
        size_t n = jet_get_len(k);
        if (jet_obj_findn(a, key, n)) continue;
        if (!df_push_key(d, key, n)) return false;
        bool ok = df_emit(d, "add", k + 1);
        d->len = base;
        if (!ok) return false;
    }
    return true;
}

/* The elements of an array, in order, in a new array of pointers (NULL
 * for none; *ok false on OOM). */
static const jet_val **df_elements(df *d, const jet_val *arr, size_t n, bool *ok) {
    *ok = true;
    if (n == 0) return NULL;
    const jet_val **v = (const jet_val **)malloc(n * sizeof *v);
    if (!v) {
        *ok = df_fail(d, JET_ERR_MEMORY, "out of memory");
        return NULL;
    }
    jet_arr_iter it = jet_arr_iter_init(arr);
    for (size_t i = 0; i < n; i++) v[i] = jet_arr_iter_next(&it);
    return v;
}

static bool df_array(df *d, const jet_val *a, const jet_val *b, unsigned depth) {
    size_t na = jet_arr_size(a), nb = jet_arr_size(b);
    bool ok_a, ok_b;
    const jet_val **ea = df_elements(d, a, na, &ok_a);
    const jet_val **eb = df_elements(d, b, nb, &ok_b);
    bool ok = ok_a && ok_b;
    size_t base = d->len;
    if (ok) {
        size_t least = na < nb ? na : nb, pre = 0, suf = 0;
        while (pre < least && jet_val_equal(ea[pre], eb[pre])) pre++;
        while (suf < least - pre && jet_val_equal(ea[na - 1 - suf], eb[nb - 1 - suf])) suf++;
        size_t ma = na - pre - suf, mb = nb - pre - suf;
        size_t both = ma < mb ? ma : mb;
        /* Positions on both sides change in place; indices do not move. */
        for (size_t i = 0; ok && i < both; i++) {
            ok = df_push_index(d, pre + i) && df_value(d, ea[pre + i], eb[pre + i], depth + 1);
            d->len = base;
        }
        /* Then the surplus of a goes, last first, or b's surplus comes in. */
        for (size_t i = ma; ok && i > both; i--) {
            ok = df_push_index(d, pre + i - 1) && df_emit(d, "remove", NULL);
            d->len = base;
        }
        for (size_t i = both; ok && i < mb; i++) {
            ok = df_push_index(d, pre + i) && df_emit(d, "add", eb[pre + i]);
            d->len = base;
        }
    }
    free((void *)ea);
    free((void *)eb);
    return ok;
}

static bool df_value(df *d, const jet_val *a, const jet_val *b, unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH)
        return df_fail(d, JET_ERR_DEPTH_LIMIT, "values nested deeper than JET_MUT_MAX_DEPTH");
    if (jet_is_obj(a) && jet_is_obj(b)) return df_object(d, a, b, depth);
    if (jet_is_arr(a) && jet_is_arr(b)) return df_array(d, a, b, depth);
    if (jet_val_equal(a, b)) return true;
    return df_emit(d, "replace", b);
}

jet_mut_val *jet_diff(jet_mut_doc *out, const jet_val *a, const jet_val *b, jet_error *err) {
    if (!out || !a || !b) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, !out ? "no document" : "no value to compare");
        return NULL;
    }
    df d;
    memset(&d, 0, sizeof d);
    d.doc = out;
    d.ops = jet_mut_arr(out);
    if (!d.ops) {
        jet__error_set(err, JET_ERR_MEMORY, 0, "out of memory");
        return NULL;
    }
    bool ok = df_value(&d, a, b, 0);
    free(d.path);
    if (!ok) {
        jet__error_set(err, d.code, 0, d.msg);
        return NULL;
    }
    return d.ops;
}
