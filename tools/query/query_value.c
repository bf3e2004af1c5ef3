/*
 * query_value.c — the values of `jet query`: construction, iteration over
 * both representations (an input document's jet_val tree, zero-copy, and
 * containers built by the filter), jq's total order, and output through
 * jet's writer. Numbers read from the input keep their text and are printed
 * as read; numbers computed by the filter are int64 when exact, else
 * doubles printed shortest-roundtrip.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "query.h"

qv qv_null(void) {
    qv v;
    memset(&v, 0, sizeof v);
    v.type = QT_NULL;
    return v;
}

qv qv_bool(bool b) {
    qv v = qv_null();
    v.type = b ? QT_TRUE : QT_FALSE;
    return v;
}

qv qv_int(int64_t i) {
    qv v = qv_null();
    v.type = QT_NUM;
    v.rep = QR_INT;
    v.u.i = i;
    return v;
}

qv qv_dbl(double d) {
    qv v = qv_null();
    v.type = QT_NUM;
    v.rep = QR_DBL;
    v.u.d = d;
    return v;
}

qv qv_str(const char *s, size_t len) {
    qv v = qv_null();
    v.type = QT_STR;
    v.len = len;
    v.u.s = s;
    return v;
}

qv qv_num_text(const char *s, size_t len) {
    qv v = qv_str(s, len);
    v.type = QT_NUM;
    v.rep = QR_TEXT;
    return v;
}

qv qv_from_jet(const jet_val *j) {
    qv v = qv_null();
    switch (jet_get_type(j)) {
    case JET_TYPE_BOOL: return qv_bool(jet_is_true(j));
    case JET_TYPE_RAW: return qv_num_text(jet_get_str(j), jet_get_len(j));
    case JET_TYPE_NUM: /* read without JET_READ_NUMBER_AS_RAW */
        if (jet_is_uint(j) && jet_get_uint(j) > (uint64_t)INT64_MAX) return qv_dbl((double)jet_get_uint(j));
        return jet_is_int(j) ? qv_int(jet_get_sint(j)) : qv_dbl(jet_get_f64(j));
    case JET_TYPE_STR: return qv_str(jet_get_str(j), jet_get_len(j));
    case JET_TYPE_ARR:
    case JET_TYPE_OBJ:
        v.type = jet_is_arr(j) ? QT_ARR : QT_OBJ;
        v.rep = QR_DOC;
        v.len = jet_get_len(j);
        v.u.doc = j;
        return v;
    default: return v;
    }
}

/* ---- memory and errors of a run ---- */

void *qrun_alloc(qrun *r, size_t size) {
    if (r->failed) return NULL;
    if (r->max_bytes && size > r->max_bytes - (r->used < r->max_bytes ? r->used : r->max_bytes)) {
        qrun_fail(r, "out of memory (the query's limit of %zu bytes)", r->max_bytes);
        return NULL;
    }
    void *p = jet_arena_alloc(&r->arena, size ? size : 1, 16);
    if (!p) {
        qrun_fail(r, "out of memory");
        return NULL;
    }
    r->used += size;
    return p;
}

bool qrun_vfail(qrun *r, const char *fmt, va_list ap) {
    if (r->failed) return false;
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    r->failed = true;
    return false;
}

bool qrun_fail(qrun *r, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    qrun_vfail(r, fmt, ap);
    va_end(ap);
    return false;
}

bool qbuf_push(qbuf *b, const char *s, size_t n) {
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2) return false;
            cap *= 2;
        }
        char *d = (char *)realloc(b->data, cap);
        if (!d) return false;
        b->data = d;
        b->cap = cap;
    }
    if (n) memcpy(b->data + b->len, s, n);
    b->len += n;
    return true;
}

void qbuf_free(qbuf *b) {
    free(b->data);
    memset(b, 0, sizeof *b);
}

/* ---- numbers ---- */

/* A number's value: an int64, a uint64 above INT64_MAX, or a double. */
typedef enum { QN_I64, QN_U64, QN_DBL } qnum_kind;
typedef struct qnum {
    qnum_kind kind;
    int64_t i;
    uint64_t u;
    double d;
} qnum;

static qnum qv_number(qv v) {
    qnum n;
    memset(&n, 0, sizeof n);
    n.kind = QN_DBL;
    if (v.rep == QR_INT) {
        n.kind = QN_I64;
        n.i = v.u.i;
    } else if (v.rep == QR_DBL) {
        n.d = v.u.d;
    } else if (v.rep == QR_TEXT && v.len) {
        jet_num num;
        jet_code code = JET_OK;
        const char *at = NULL;
        const char *end = jet__num_parse(v.u.s, v.u.s + v.len, 0, &num, &code, &at);
        if (!end) {
            /* only a magnitude past a double's range gets here (the text
             * was checked): jq's stand-in is the largest double */
            n.d = v.u.s[0] == '-' ? -DBL_MAX : DBL_MAX;
        } else if (num.kind == JET_NUM_UINT && num.v.u <= (uint64_t)INT64_MAX) {
            n.kind = QN_I64;
            n.i = (int64_t)num.v.u;
        } else if (num.kind == JET_NUM_UINT) {
            n.kind = QN_U64;
            n.u = num.v.u;
        } else if (num.kind == JET_NUM_SINT) {
            n.kind = QN_I64;
            n.i = num.v.i;
        } else {
            n.d = num.v.d;
        }
    }
    return n;
}

double qv_num_f64(qv v) {
    qnum n = qv_number(v);
    return n.kind == QN_I64 ? (double)n.i : n.kind == QN_U64 ? (double)n.u : n.d;
}

bool qv_num_i64(qv v, int64_t *out) {
    qnum n = qv_number(v);
    if (n.kind != QN_I64) return false;
    *out = n.i;
    return true;
}

static int cmp_num(qv a, qv b) {
    qnum x = qv_number(a), y = qv_number(b);
    if (x.kind != QN_DBL && y.kind != QN_DBL) {
        /* both integers: exact (a uint64 above INT64_MAX beats any int64) */
        if (x.kind == QN_U64 || y.kind == QN_U64) {
            if (x.kind != y.kind) return x.kind == QN_U64 ? 1 : -1;
            return x.u < y.u ? -1 : x.u > y.u;
        }
        return x.i < y.i ? -1 : x.i > y.i;
    }
    double p = x.kind == QN_I64 ? (double)x.i : x.kind == QN_U64 ? (double)x.u : x.d;
    double q = y.kind == QN_I64 ? (double)y.i : y.kind == QN_U64 ? (double)y.u : y.d;
    return p < q ? -1 : p > q;
}

/* ---- containers ---- */

void qiter_init(qiter *it, qv container) {
    it->of = container;
    it->i = 0;
    it->cur = container.rep == QR_DOC ? container.u.doc + 1 : NULL;
}

bool qiter_next(qiter *it, qv *key, qv *val) {
    if (it->i >= it->of.len) return false;
    if (it->of.rep == QR_DOC) {
        if (it->of.type == QT_OBJ) {
            if (key) *key = qv_from_jet(it->cur);
            *val = qv_from_jet(it->cur + 1);
            it->cur = jet_next(it->cur + 1);
        } else {
            *val = qv_from_jet(it->cur);
            it->cur = jet_next(it->cur);
        }
    } else if (it->of.type == QT_OBJ) {
        if (key) *key = it->of.u.items[2 * it->i];
        *val = it->of.u.items[2 * it->i + 1];
    } else {
        *val = it->of.u.items[it->i];
    }
    it->i++;
    return true;
}

size_t qv_count(qv v) {
    return v.type == QT_ARR || v.type == QT_OBJ ? v.len : 0;
}

qv qv_obj_get(qv obj, const char *key, size_t len) {
    if (obj.rep == QR_DOC) {
        const jet_val *m = jet_obj_findn(obj.u.doc, key, len);
        return m ? qv_from_jet(m) : qv_null();
    }
    for (size_t i = 0; i < obj.len; i++) {
        qv k = obj.u.items[2 * i];
        if (k.len == len && memcmp(k.u.s, key, len) == 0) return obj.u.items[2 * i + 1];
    }
    return qv_null();
}

qv qv_arr_get(qv arr, size_t i) {
    if (i >= arr.len) return qv_null();
    return arr.rep == QR_DOC ? qv_from_jet(jet_arr_at(arr.u.doc, i)) : arr.u.items[i];
}

const char *qv_type_name(qv v) {
    static const char *const names[] = {"null", "boolean", "boolean", "number",
                                        "string", "array", "object"};
    return names[v.type];
}

bool qv_truthy(qv v) {
    return v.type != QT_NULL && v.type != QT_FALSE;
}

/* ---- jq's order ---- */

static int cmp_bytes(const char *a, size_t na, const char *b, size_t nb) {
    int c = memcmp(a, b, na < nb ? na : nb);
    if (c) return c < 0 ? -1 : 1;
    return na < nb ? -1 : na > nb;
}

static int cmp_key_ptrs(const void *x, const void *y) {
    const qv *a = *(const qv *const *)x, *b = *(const qv *const *)y;
    return cmp_bytes(a->u.s, a->len, b->u.s, b->len);
}

/* The keys of an object, sorted; NULL for an empty object or on OOM. The
 * pointers are into `keys` (len qv, filled here). */
static const qv **sorted_keys(qv obj, qv *keys) {
    if (!obj.len) return NULL;
    const qv **order = (const qv **)malloc(obj.len * sizeof *order);
    if (!order) return NULL;
    qiter it;
    qiter_init(&it, obj);
    qv val;
    for (size_t i = 0; i < obj.len && qiter_next(&it, &keys[i], &val); i++) order[i] = &keys[i];
    qsort((void *)order, obj.len, sizeof *order, cmp_key_ptrs);
    return order;
}

/* Objects: their sorted key lists first, then the values key by key. */
static int cmp_obj(qv a, qv b) {
    qv *ka = (qv *)malloc((a.len + b.len + 1) * sizeof *ka);
    if (!ka) return 0;
    qv *kb = ka + a.len;
    const qv **oa = sorted_keys(a, ka), **ob = sorted_keys(b, kb);
    int c = 0;
    if ((a.len && !oa) || (b.len && !ob)) goto done; /* OOM: unordered */
    for (size_t i = 0; i < a.len && i < b.len && !c; i++)
        c = cmp_bytes(oa[i]->u.s, oa[i]->len, ob[i]->u.s, ob[i]->len);
    if (!c) c = a.len < b.len ? -1 : a.len > b.len;
    for (size_t i = 0; i < a.len && !c; i++)
        c = qv_compare(qv_obj_get(a, oa[i]->u.s, oa[i]->len), qv_obj_get(b, oa[i]->u.s, oa[i]->len));
done:
    free((void *)oa);
    free((void *)ob);
    free(ka);
    return c;
}

int qv_compare(qv a, qv b) {
    if (a.type != b.type) return a.type < b.type ? -1 : 1;
    switch (a.type) {
    case QT_NUM: return cmp_num(a, b);
    case QT_STR: return cmp_bytes(a.u.s, a.len, b.u.s, b.len);
    case QT_ARR: {
        qiter x, y;
        qiter_init(&x, a);
        qiter_init(&y, b);
        qv p, q;
        for (;;) {
            bool hp = qiter_next(&x, NULL, &p), hq = qiter_next(&y, NULL, &q);
            if (!hp || !hq) return hp == hq ? 0 : hp ? 1 : -1;
            int c = qv_compare(p, q);
            if (c) return c;
        }
    }
    case QT_OBJ: return cmp_obj(a, b);
    default: return 0;
    }
}

/* ---- output ---- */

/* A computed double as jq prints it, except for shortest round-trip
 * digits: integral values below 1e17 as integers, NaN as null, the
 * infinities as the largest double. */
static bool write_dbl(jet_writer *w, double d) {
    if (d != d) return jet_writer_null(w);
    if (isinf(d)) d = d < 0 ? -DBL_MAX : DBL_MAX;
    if (d == 0 && signbit(d)) return jet_writer_raw(w, "-0", 2);
    if (d == floor(d) && fabs(d) < 1e17) return jet_writer_sint(w, (int64_t)d);
    return jet_writer_f64(w, d);
}

static bool write_jet(jet_writer *w, const jet_val *v) {
    switch (jet_get_type(v)) {
    case JET_TYPE_ARR: {
        if (!jet_writer_arr_begin(w)) return false;
        jet_arr_iter it = jet_arr_iter_init(v);
        for (const jet_val *e; (e = jet_arr_iter_next(&it));)
            if (!write_jet(w, e)) return false;
        return jet_writer_arr_end(w);
    }
    case JET_TYPE_OBJ: {
        if (!jet_writer_obj_begin(w)) return false;
        jet_obj_iter it = jet_obj_iter_init(v);
        for (const jet_val *k; (k = jet_obj_iter_next(&it));)
            if (!jet_writer_keyn(w, jet_get_str(k), jet_get_len(k)) || !write_jet(w, k + 1))
                return false;
        return jet_writer_obj_end(w);
    }
    default: return qv_write(w, qv_from_jet(v));
    }
}

bool qv_write(jet_writer *w, qv v) {
    switch (v.type) {
    case QT_NULL: return jet_writer_null(w);
    case QT_FALSE: return jet_writer_bool(w, false);
    case QT_TRUE: return jet_writer_bool(w, true);
    case QT_NUM:
        if (v.rep == QR_TEXT) return jet_writer_raw(w, v.u.s, v.len);
        if (v.rep == QR_INT) return jet_writer_sint(w, v.u.i);
        return write_dbl(w, v.u.d);
    case QT_STR: return jet_writer_strn(w, v.u.s, v.len);
    default: break;
    }
    if (v.rep == QR_DOC) return write_jet(w, v.u.doc);
    bool obj = v.type == QT_OBJ;
    if (!(obj ? jet_writer_obj_begin(w) : jet_writer_arr_begin(w))) return false;
    for (size_t i = 0; i < v.len; i++) {
        if (obj) {
            qv k = v.u.items[2 * i];
            if (!jet_writer_keyn(w, k.u.s, k.len) || !qv_write(w, v.u.items[2 * i + 1])) return false;
        } else if (!qv_write(w, v.u.items[i])) {
            return false;
        }
    }
    return obj ? jet_writer_obj_end(w) : jet_writer_arr_end(w);
}

bool qv_to_json(jet_buf *out, qv v) {
    jet_writer w;
    jet_writer_init_buf(&w, out, JET_WRITE_NOFLAG);
    qv_write(&w, v);
    return jet_writer_finish(&w);
}
