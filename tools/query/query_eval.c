/*
 * query_eval.c — the evaluator of `jet query`: walks the syntax tree with
 * jq's generator semantics. A filter yields zero or more outputs, each
 * handed to a continuation (qk) as soon as it is made; a continuation
 * returns false to stop (an error, recorded in the qrun, or a consumer
 * that has what it wanted), and the false travels back up. Values are
 * immutable and live in the run's arena until qrun_reset.
 *
 * The order of outputs is jq's: for `a OP b` the outer loop is b's
 * outputs, for `t[i]` the index's, for `{k: v, ...}` the first member's,
 * for "\(a)\(b)" the last interpolation's.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query_ast.h"

/* Deepest recursion of the evaluator (the tree's depth is bounded by the
 * parser; `..` and values built inside values add to it). */
#define QEVAL_MAX_DEPTH 3000

typedef struct qk {
    qemit_fn fn;
    void *ctx;
} qk;

static bool ev(qrun *r, const qnode *n, qv in, qk k);

static bool yield(qk k, qv v) {
    return k.fn(k.ctx, v);
}

static qk mk(qemit_fn fn, void *ctx) {
    qk k;
    k.fn = fn;
    k.ctx = ctx;
    return k;
}

/* The state of a continuation: the node whose outputs it makes, that
 * node's input, where its outputs go, and what enclosing loops chose
 * (an index, slice bounds, a right operand). */
typedef struct qctx {
    qrun *r;
    const qnode *n;
    qv in;
    qk k;
    qv x, y;
} qctx;

/* ---- errors: jq's messages ---- */

/* v as compact JSON, cut to 11 bytes and "..." past 14, as jq shows a
 * value in a message. */
static const char *dump(qv v, char *buf, size_t cap) {
    jet_buf b;
    jet_buf_init(&b, NULL);
    buf[0] = 0;
    if (qv_to_json(&b, v) && b.data) {
        size_t n = b.len;
        if (n > 14) {
            n = 11;
            while (n > 0 && ((unsigned char)b.data[n] & 0xC0) == 0x80) n--; /* whole characters */
            snprintf(buf, cap, "%.*s...", (int)n, b.data);
        } else {
            snprintf(buf, cap, "%.*s", (int)n, b.data);
        }
    }
    jet_buf_free(&b);
    return buf;
}

static bool fail_at(qrun *r, const qnode *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool fail_at(qrun *r, const qnode *n, const char *fmt, ...) {
    if (r->failed) return false;
    va_list ap;
    va_start(ap, fmt);
    qrun_vfail(r, fmt, ap);
    va_end(ap);
    r->err_pos = n->pos;
    return false;
}

/* After a failed step of node n: true (go on without a value) when n is
 * an optional suffix (.a? .[0]? .[]?), whose own error is dropped. */
static bool dropped(qrun *r, const qnode *n) {
    if (!n->opt || !r->failed) return false;
    r->failed = false;
    r->msg[0] = 0;
    return true;
}

/* "TYPE (VALUE)" */
#define TV(v, buf) qv_type_name(v), dump(v, buf, sizeof buf)

/* ---- building values in the run's arena ---- */

typedef struct qvec {
    qv *items;
    size_t n, cap;
} qvec;

static bool vec_push(qrun *r, qvec *v, qv x) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 8;
        qv *items = (qv *)qrun_alloc(r, cap * sizeof *items);
        if (!items) return false;
        if (v->n) memcpy(items, v->items, v->n * sizeof *items);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = x;
    return true;
}

static qv arr_of(qvec *v) {
    qv a = qv_null();
    a.type = QT_ARR;
    a.len = v->n;
    a.u.items = v->items;
    return a;
}

/* An object being built: key, value pairs with unique keys in insertion
 * order and, past a few members, an open-addressing index of the keys
 * (pair number + 1 per slot, 0 empty; in the run's arena) so that
 * building n members costs O(n), not O(n^2). */
typedef struct objb {
    qvec kv;
    size_t *index;
    size_t cap; /* slots, a power of two */
} objb;

#define OBJB_LINEAR 8 /* members looked up by a scan below this */

static size_t key_hash(const char *s, size_t n) {
    uint64_t h = UINT64_C(14695981039346656037); /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return (size_t)(h ^ (h >> 29));
}

static bool same_key(qv a, qv b) {
    return a.len == b.len && memcmp(a.u.s, b.u.s, a.len) == 0;
}

/* The slot of `key`: where it is, or the empty one where it would go. */
static size_t *objb_slot(const objb *o, qv key) {
    size_t mask = o->cap - 1;
    for (size_t i = key_hash(key.u.s, key.len) & mask;; i = (i + 1) & mask)
        if (!o->index[i] || same_key(o->kv.items[2 * (o->index[i] - 1)], key)) return &o->index[i];
}

static bool objb_reindex(qrun *r, objb *o, size_t members) {
    size_t cap = 32;
    while (cap < 2 * members) cap *= 2;
    o->index = (size_t *)qrun_alloc(r, cap * sizeof *o->index);
    if (!o->index) return false;
    memset(o->index, 0, cap * sizeof *o->index);
    o->cap = cap;
    for (size_t j = 0; j < o->kv.n / 2; j++) *objb_slot(o, o->kv.items[2 * j]) = j + 1;
    return true;
}

static bool obj_set(qrun *r, objb *o, qv key, qv val) {
    size_t n = o->kv.n / 2;
    if (n < OBJB_LINEAR) {
        for (size_t i = 0; i < o->kv.n; i += 2) {
            if (same_key(o->kv.items[i], key)) {
                o->kv.items[i + 1] = val;
                return true;
            }
        }
        return vec_push(r, &o->kv, key) && vec_push(r, &o->kv, val);
    }
    if ((!o->index || 2 * (n + 1) > o->cap) && !objb_reindex(r, o, n + 1)) return false;
    size_t *slot = objb_slot(o, key);
    if (*slot) {
        o->kv.items[2 * (*slot - 1) + 1] = val;
        return true;
    }
    *slot = n + 1;
    return vec_push(r, &o->kv, key) && vec_push(r, &o->kv, val);
}

static qv obj_of(objb *o) {
    qv v = qv_null();
    v.type = QT_OBJ;
    v.len = o->kv.n / 2;
    v.u.items = o->kv.items;
    return v;
}

/* obj's members added to o (later ones replace earlier values). */
static bool obj_copy(qrun *r, objb *o, qv obj) {
    qiter it;
    qiter_init(&it, obj);
    qv k, v;
    while (qiter_next(&it, &k, &v))
        if (!obj_set(r, o, k, v)) return false;
    return true;
}

static bool obj_has(qv obj, const char *key, size_t len) {
    if (obj.rep == QR_DOC) return jet_obj_findn(obj.u.doc, key, len) != NULL;
    for (size_t i = 0; i < obj.len; i++)
        if (obj.u.items[2 * i].len == len && memcmp(obj.u.items[2 * i].u.s, key, len) == 0)
            return true;
    return false;
}

static qv str_concat(qrun *r, const char *a, size_t na, const char *b, size_t nb) {
    char *s = (char *)qrun_alloc(r, na + nb + 1);
    if (!s) return qv_null();
    if (na) memcpy(s, a, na);
    if (nb) memcpy(s + na, b, nb);
    s[na + nb] = 0;
    return qv_str(s, na + nb);
}

/* The compact JSON text of v as a string value (tojson), or v itself when
 * it is a string and `keep_str` (tostring). */
static bool to_text(qrun *r, qv v, bool keep_str, qv *out) {
    if (keep_str && v.type == QT_STR) {
        *out = v;
        return true;
    }
    jet_buf b;
    jet_buf_init(&b, NULL);
    bool ok = qv_to_json(&b, v);
    if (ok) *out = str_concat(r, b.data ? b.data : "", b.len, "", 0);
    jet_buf_free(&b);
    return ok ? !r->failed : qrun_fail(r, "out of memory");
}

/* ---- numbers ---- */

static qv num_neg(qrun *r, qv v) {
    if (v.rep == QR_TEXT) { /* exact: the text with or without its sign */
        if (v.u.s[0] == '-') return qv_num_text(v.u.s + 1, v.len - 1);
        qv s = str_concat(r, "-", 1, v.u.s, v.len);
        return qv_num_text(s.u.s, s.len);
    }
    int64_t i;
    if (qv_num_i64(v, &i) && i != INT64_MIN && i != 0) return qv_int(-i);
    return qv_dbl(-qv_num_f64(v)); /* 0 gives -0, as jq prints it */
}

static qv num_arith(int op, qv a, qv b) {
    int64_t x, y;
    if (qv_num_i64(a, &x) && qv_num_i64(b, &y)) {
        /* exact while the result fits int64 */
        switch (op) {
        case QA_ADD:
            if ((y > 0 && x <= INT64_MAX - y) || (y <= 0 && x >= INT64_MIN - y)) return qv_int(x + y);
            break;
        case QA_SUB:
            if ((y < 0 && x <= INT64_MAX + y) || (y >= 0 && x >= INT64_MIN + y)) return qv_int(x - y);
            break;
        case QA_MUL: {
            int64_t lim = INT64_C(3037000499); /* floor(sqrt(INT64_MAX)) */
            if (x >= -lim && x <= lim && y >= -lim && y <= lim) return qv_int(x * y);
            break;
        }
        case QA_DIV:
            if (y != 0 && !(x == INT64_MIN && y == -1) && x % y == 0) return qv_int(x / y);
            break;
        default: break;
        }
    }
    double p = qv_num_f64(a), q = qv_num_f64(b);
    switch (op) {
    case QA_ADD: return qv_dbl(p + q);
    case QA_SUB: return qv_dbl(p - q);
    case QA_MUL: return qv_dbl(p * q);
    default: return qv_dbl(p / q);
    }
}

/* jq's %: both operands truncated to integers. */
static int64_t trunc_i64(double d) {
    if (d != d) return 0;
    if (d >= 9.2233720368547758e18) return INT64_MAX;
    if (d <= -9.2233720368547758e18) return INT64_MIN;
    return (int64_t)d;
}

static int64_t num_to_i64(qv v) {
    int64_t i;
    return qv_num_i64(v, &i) ? i : trunc_i64(qv_num_f64(v));
}

/* ---- operators ---- */

static bool arr_contains(qv arr, qv x) {
    qiter it;
    qiter_init(&it, arr);
    qv e;
    while (qiter_next(&it, NULL, &e))
        if (qv_compare(e, x) == 0) return true;
    return false;
}

/* Appends arr's elements to v, leaving out those equal to an element of
 * `minus` when it is given (jq's array subtraction). */
static bool push_elems(qrun *r, qvec *v, qv arr, const qv *minus) {
    qiter it;
    qiter_init(&it, arr);
    qv e;
    while (qiter_next(&it, NULL, &e))
        if (!(minus && arr_contains(*minus, e)) && !vec_push(r, v, e)) return false;
    return true;
}

/* jq's a * b on objects: b's members win, objects merged recursively. */
static bool deep_merge(qrun *r, qv a, qv b, qv *out) {
    objb o;
    memset(&o, 0, sizeof o);
    if (!obj_copy(r, &o, a)) return false;
    qiter it;
    qiter_init(&it, b);
    qv k, v;
    while (qiter_next(&it, &k, &v)) {
        qv old = qv_obj_get(a, k.u.s, k.len);
        if (old.type == QT_OBJ && v.type == QT_OBJ && !deep_merge(r, old, v, &v)) return false;
        if (!obj_set(r, &o, k, v)) return false;
    }
    *out = obj_of(&o);
    return true;
}

static bool binop(qrun *r, const qnode *n, qv a, qv b, qv *out) {
    char ba[32], bb[32];
    int op = n->sub;
    if (op >= QA_EQ) {
        int c = qv_compare(a, b);
        bool t = op == QA_EQ ? c == 0 : op == QA_NE ? c != 0 : op == QA_LT ? c < 0 :
                 op == QA_LE ? c <= 0 : op == QA_GT ? c > 0 : c >= 0;
        *out = qv_bool(t);
        return true;
    }
    if (a.type == QT_NUM && b.type == QT_NUM) {
        if (op == QA_DIV || op == QA_MOD) {
            bool zero = op == QA_DIV ? qv_num_f64(b) == 0 : num_to_i64(b) == 0;
            if (zero)
                return fail_at(r, n, "%s (%s) and %s (%s) cannot be divided%s because the divisor is zero",
                               TV(a, ba), TV(b, bb), op == QA_MOD ? " (remainder)" : "");
        }
        if (op == QA_MOD) {
            int64_t x = num_to_i64(a), y = num_to_i64(b);
            *out = qv_int(y == -1 ? 0 : x % y);
            return true;
        }
        *out = num_arith(op, a, b);
        return true;
    }
    switch (op) {
    case QA_ADD:
        if (a.type == QT_NULL) {
            *out = b;
            return true;
        }
        if (b.type == QT_NULL) {
            *out = a;
            return true;
        }
        if (a.type == QT_STR && b.type == QT_STR) {
            *out = str_concat(r, a.u.s, a.len, b.u.s, b.len);
            return !r->failed;
        }
        if (a.type == QT_ARR && b.type == QT_ARR) {
            qvec v = {NULL, 0, 0};
            if (!push_elems(r, &v, a, NULL) || !push_elems(r, &v, b, NULL)) return false;
            *out = arr_of(&v);
            return true;
        }
        if (a.type == QT_OBJ && b.type == QT_OBJ) {
            objb o;
            memset(&o, 0, sizeof o);
            if (!obj_copy(r, &o, a) || !obj_copy(r, &o, b)) return false;
            *out = obj_of(&o);
            return true;
        }
        return fail_at(r, n, "%s (%s) and %s (%s) cannot be added", TV(a, ba), TV(b, bb));
    case QA_SUB:
        if (a.type == QT_ARR && b.type == QT_ARR) {
            qvec v = {NULL, 0, 0};
            if (!push_elems(r, &v, a, &b)) return false;
            *out = arr_of(&v);
            return true;
        }
        return fail_at(r, n, "%s (%s) and %s (%s) cannot be subtracted", TV(a, ba), TV(b, bb));
    case QA_MUL:
        if (a.type == QT_OBJ && b.type == QT_OBJ) return deep_merge(r, a, b, out);
        if ((a.type == QT_STR && b.type == QT_NUM) || (a.type == QT_NUM && b.type == QT_STR)) {
            qv s = a.type == QT_STR ? a : b;
            double times = qv_num_f64(a.type == QT_STR ? b : a);
            if (!(times > 0)) {
                *out = qv_null(); /* jq: a string times 0 or less is null */
                return true;
            }
            if (!s.len) {
                *out = s;
                return true;
            }
            /* at most max_bytes (else 2^40), and what size_t can count
             * (32-bit targets) */
            double cap = r->max_bytes ? (double)r->max_bytes : 1099511627776.0;
            if (cap > (double)(SIZE_MAX / 2)) cap = (double)(SIZE_MAX / 2);
            double most = cap / (double)s.len;
            if (times > most) return fail_at(r, n, "string repeated too many times");
            size_t count = times < 1 ? 1 : (size_t)times;
            char *d = (char *)qrun_alloc(r, s.len * count + 1);
            if (!d) return false;
            for (size_t i = 0; i < count; i++) memcpy(d + i * s.len, s.u.s, s.len);
            d[s.len * count] = 0;
            *out = qv_str(d, s.len * count);
            return true;
        }
        return fail_at(r, n, "%s (%s) and %s (%s) cannot be multiplied", TV(a, ba), TV(b, bb));
    case QA_DIV:
        if (a.type == QT_STR && b.type == QT_STR) { /* split */
            qvec v = {NULL, 0, 0};
            if (a.len == 0) {
                *out = arr_of(&v);
                return true;
            }
            size_t start = 0;
            for (size_t i = 0; b.len && i + b.len <= a.len;) {
                if (memcmp(a.u.s + i, b.u.s, b.len) == 0) {
                    if (!vec_push(r, &v, qv_str(a.u.s + start, i - start))) return false;
                    i += b.len;
                    start = i;
                } else {
                    i++;
                }
            }
            if (!b.len) { /* jq: "abc" / "" splits into characters */
                for (size_t i = 0; i < a.len;) {
                    size_t j = i + 1;
                    while (j < a.len && ((unsigned char)a.u.s[j] & 0xC0) == 0x80) j++;
                    if (!vec_push(r, &v, qv_str(a.u.s + i, j - i))) return false;
                    i = j;
                }
            } else if (!vec_push(r, &v, qv_str(a.u.s + start, a.len - start))) {
                return false;
            }
            *out = arr_of(&v);
            return true;
        }
        return fail_at(r, n, "%s (%s) and %s (%s) cannot be divided", TV(a, ba), TV(b, bb));
    default:
        return fail_at(r, n, "%s (%s) and %s (%s) cannot be divided", TV(a, ba), TV(b, bb));
    }
}

/* ---- indexing ---- */

static bool index_key(qrun *r, const qnode *n, qv t, const char *key, size_t len, qv *out) {
    if (t.type == QT_OBJ) {
        *out = qv_obj_get(t, key, len);
        return true;
    }
    if (t.type == QT_NULL) {
        *out = qv_null();
        return true;
    }
    return fail_at(r, n, "Cannot index %s with \"%.*s\"", qv_type_name(t), (int)(len > 64 ? 64 : len),
                   key);
}

static bool index_value(qrun *r, const qnode *n, qv t, qv idx, qv *out) {
    if (idx.type == QT_STR) return index_key(r, n, t, idx.u.s, idx.len, out);
    if (t.type == QT_NULL && (idx.type == QT_NUM || idx.type == QT_NULL)) {
        *out = qv_null();
        return true;
    }
    if (t.type == QT_ARR && idx.type == QT_NUM) {
        double d = qv_num_f64(idx);
        if (d != floor(d)) { /* jq: a fractional index names nothing */
            *out = qv_null();
            return true;
        }
        if (d < 0) d += (double)t.len;
        *out = d >= 0 && d < (double)t.len ? qv_arr_get(t, (size_t)d) : qv_null();
        return true;
    }
    if (t.type == QT_ARR && idx.type == QT_ARR)
        return fail_at(r, n, "unsupported: indexing an array with an array (jq's indices)");
    return fail_at(r, n, "Cannot index %s with %s", qv_type_name(t), qv_type_name(idx));
}

/* Byte offset of code point `cp` in s (len bytes), or len. */
static size_t cp_offset(const char *s, size_t len, size_t cp) {
    size_t i = 0;
    for (; i < len && cp; cp--) {
        i++;
        while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
    }
    return i;
}

static size_t cp_count(const char *s, size_t len) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++) n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static bool slice(qrun *r, const qnode *n, qv t, qv from, qv to, qv *out) {
    if (t.type == QT_NULL) {
        *out = qv_null();
        return true;
    }
    if ((from.type != QT_NUM && from.type != QT_NULL) || (to.type != QT_NUM && to.type != QT_NULL))
        return fail_at(r, n, "Start and end indices of an array slice must be numbers");
    if (t.type != QT_ARR && t.type != QT_STR)
        return fail_at(r, n, "Cannot index %s with object", qv_type_name(t));
    size_t len = t.type == QT_ARR ? t.len : cp_count(t.u.s, t.len);
    double dl = (double)len;
    double s = from.type == QT_NULL ? 0 : floor(qv_num_f64(from));
    double e = to.type == QT_NULL ? dl : ceil(qv_num_f64(to));
    if (s < 0) s += dl;
    if (e < 0) e += dl;
    s = s < 0 ? 0 : s > dl ? dl : s;
    e = e < s ? s : e > dl ? dl : e;
    size_t a = (size_t)s, b = (size_t)e;
    if (t.type == QT_STR) {
        size_t x = cp_offset(t.u.s, t.len, a);
        size_t y = x + cp_offset(t.u.s + x, t.len - x, b - a);
        *out = qv_str(t.u.s + x, y - x);
        return true;
    }
    if (t.rep != QR_DOC) {
        qv v = t;
        v.u.items = b > a ? t.u.items + a : NULL; /* an empty array may have none */
        v.len = b - a;
        *out = v;
        return true;
    }
    qvec v = {NULL, 0, 0};
    qiter it;
    qiter_init(&it, t);
    qv e2;
    for (size_t i = 0; i < b && qiter_next(&it, NULL, &e2); i++)
        if (i >= a && !vec_push(r, &v, e2)) return false;
    *out = arr_of(&v);
    return true;
}

/* ---- the nodes ---- */

static bool then_emit(void *c, qv v) {
    qctx *t = (qctx *)c;
    return ev(t->r, t->n->b, v, t->k);
}

static bool field_emit(void *c, qv t) {
    qctx *f = (qctx *)c;
    qv out;
    if (!index_key(f->r, f->n, t, f->n->name, f->n->name_len, &out)) return dropped(f->r, f->n);
    return yield(f->k, out);
}

/* One value `t` of the subject: index or slice it with what the
 * enclosing loops chose (idx, or from:idx for a slice). */
static bool step_inner(void *c, qv t) {
    qctx *x = (qctx *)c;
    qv out;
    bool ok = x->n->op == Q_SLICE ? slice(x->r, x->n, t, x->y, x->x, &out)
                                  : index_value(x->r, x->n, t, x->x, &out);
    if (!ok) return dropped(x->r, x->n);
    return yield(x->k, out);
}

/* Runs the node's left operand / subject (n->a) on its input with `chosen`
 * (the index, the right operand) for the continuation `fn`. */
static bool run_a_with(void *c, qv chosen, qemit_fn fn) {
    qctx *x = (qctx *)c;
    qctx inner = *x;
    inner.x = chosen;
    return ev(x->r, x->n->a, x->in, mk(fn, &inner));
}

static bool index_outer(void *c, qv idx) {
    return run_a_with(c, idx, step_inner);
}

static bool slice_from(void *c, qv from) {
    qctx *x = (qctx *)c;
    qctx inner = *x;
    inner.y = from;
    return ev(x->r, x->n->a, x->in, mk(step_inner, &inner));
}

static bool slice_to(void *c, qv to) {
    qctx *x = (qctx *)c;
    qctx inner = *x;
    inner.x = to;
    if (!x->n->b) return slice_from(&inner, qv_null());
    return ev(x->r, x->n->b, x->in, mk(slice_from, &inner));
}

static bool iter_values(qrun *r, const qnode *n, qv t, qk k) {
    if (t.type != QT_ARR && t.type != QT_OBJ) {
        char b[32];
        fail_at(r, n, "Cannot iterate over %s (%s)", TV(t, b));
        return dropped(r, n);
    }
    qiter it;
    qiter_init(&it, t);
    qv v;
    while (qiter_next(&it, NULL, &v))
        if (!yield(k, v)) return false;
    return true;
}

static bool iter_emit(void *c, qv t) {
    qctx *f = (qctx *)c;
    return iter_values(f->r, f->n, t, f->k);
}

typedef struct try_ctx {
    qk k;
    bool downstream; /* the stop came from after the try: not ours to catch */
} try_ctx;

static bool try_emit(void *c, qv v) {
    try_ctx *t = (try_ctx *)c;
    if (yield(t->k, v)) return true;
    t->downstream = true;
    return false;
}

static bool arith_inner(void *c, qv lhs) {
    qctx *x = (qctx *)c;
    qv out;
    return binop(x->r, x->n, lhs, x->x, &out) && yield(x->k, out);
}

static bool arith_outer(void *c, qv rhs) {
    return run_a_with(c, rhs, arith_inner);
}

static bool neg_emit(void *c, qv v) {
    qctx *f = (qctx *)c;
    char b[32];
    if (v.type != QT_NUM) return fail_at(f->r, f->n, "%s (%s) cannot be negated", TV(v, b));
    qv out = num_neg(f->r, v);
    return !f->r->failed && yield(f->k, out);
}

static bool bool_emit(void *c, qv v) {
    qk *k = (qk *)c;
    return yield(*k, qv_bool(qv_truthy(v)));
}

static bool andor_emit(void *c, qv lhs) {
    qctx *x = (qctx *)c;
    bool is_and = x->n->op == Q_AND;
    if (qv_truthy(lhs) != is_and) return yield(x->k, qv_bool(!is_and));
    return ev(x->r, x->n->b, x->in, mk(bool_emit, &x->k));
}

typedef struct alt_ctx {
    qk k;
    bool any;
} alt_ctx;

static bool alt_emit(void *c, qv v) {
    alt_ctx *a = (alt_ctx *)c;
    if (!qv_truthy(v)) return true;
    a->any = true;
    return yield(a->k, v);
}

typedef struct collect_ctx {
    qrun *r;
    qvec v;
} collect_ctx;

static bool collect_emit(void *c, qv v) {
    collect_ctx *x = (collect_ctx *)c;
    return vec_push(x->r, &x->v, v);
}

/* Every output of n on `in`, as an array. */
static bool collect(qrun *r, const qnode *n, qv in, qv *out) {
    collect_ctx c;
    c.r = r;
    memset(&c.v, 0, sizeof c.v);
    if (!ev(r, n, in, mk(collect_emit, &c))) return false;
    *out = arr_of(&c.v);
    return true;
}

/* Object construction and string interpolation: the parts chosen so far
 * (key, value, key, value, ... or the texts), part i next. For
 * {k1: v1, k2: v2, ...}: member i's key and value outputs, then i + 1. */
typedef struct parts_ctx {
    qrun *r;
    const qnode *n;
    qv in;
    qk k;
    qv *parts;
    size_t i;
} parts_ctx;

static bool obj_members(parts_ctx *o, size_t i);

static bool obj_value(void *c, qv v) {
    parts_ctx *o = (parts_ctx *)c;
    o->parts[2 * o->i + 1] = v;
    return obj_members(o, o->i + 1);
}

static bool obj_key(void *c, qv key) {
    parts_ctx *o = (parts_ctx *)c;
    char b[32];
    if (key.type != QT_STR) return fail_at(o->r, o->n->list[2 * o->i], "Cannot use %s (%s) as object key", TV(key, b));
    o->parts[2 * o->i] = key;
    parts_ctx next = *o;
    return ev(o->r, o->n->list[2 * o->i + 1], o->in, mk(obj_value, &next));
}

static bool obj_members(parts_ctx *o, size_t i) {
    if (2 * i == o->n->n) {
        objb m;
        memset(&m, 0, sizeof m);
        for (size_t j = 0; j < i; j++)
            if (!obj_set(o->r, &m, o->parts[2 * j], o->parts[2 * j + 1])) return false;
        return yield(o->k, obj_of(&m));
    }
    parts_ctx next = *o;
    next.i = i;
    return ev(o->r, o->n->list[2 * i], o->in, mk(obj_key, &next));
}

/* "...\(a)...": the parts' texts, last interpolation outermost */

static bool fmt_parts(parts_ctx *f, size_t i);

static bool fmt_value(void *c, qv v) {
    parts_ctx *f = (parts_ctx *)c;
    if (!to_text(f->r, v, true, &f->parts[f->i])) return false;
    return fmt_parts(f, f->i);
}

/* Parts below i are still to be chosen. */
static bool fmt_parts(parts_ctx *f, size_t i) {
    while (i > 0 && (i - 1) % 2 == 0) { /* even parts are the literal pieces */
        i--;
        f->parts[i] = f->n->list[i]->lit;
    }
    if (i == 0) {
        size_t total = 0;
        for (size_t j = 0; j < f->n->n; j++) total += f->parts[j].len;
        char *s = (char *)qrun_alloc(f->r, total + 1);
        if (!s) return false;
        size_t at = 0;
        for (size_t j = 0; j < f->n->n; j++) {
            if (f->parts[j].len) memcpy(s + at, f->parts[j].u.s, f->parts[j].len);
            at += f->parts[j].len;
        }
        s[total] = 0;
        return yield(f->k, qv_str(s, total));
    }
    parts_ctx next = *f;
    next.i = i - 1;
    return ev(f->r, f->n->list[i - 1], f->in, mk(fmt_value, &next));
}

static bool if_emit(void *c, qv cond) {
    qctx *x = (qctx *)c;
    return ev(x->r, qv_truthy(cond) ? x->n->b : x->n->c, x->in, x->k);
}

static bool as_emit(void *c, qv v) {
    qctx *x = (qctx *)c;
    qv old = x->r->slots[x->n->slot];
    x->r->slots[x->n->slot] = v;
    bool ok = ev(x->r, x->n->b, x->in, x->k);
    x->r->slots[x->n->slot] = old;
    return ok;
}

static bool recurse(qrun *r, const qnode *n, qv v, qk k) {
    if (!yield(k, v)) return false;
    if (v.type != QT_ARR && v.type != QT_OBJ) return true;
    if (++r->depth > QEVAL_MAX_DEPTH) return fail_at(r, n, "values nested too deeply for ..");
    qiter it;
    qiter_init(&it, v);
    qv e;
    bool ok = true;
    while (ok && qiter_next(&it, NULL, &e)) ok = recurse(r, n, e, k);
    r->depth--;
    return ok;
}

/* ---- builtins ---- */

typedef struct sort_item {
    qv key, val;
    size_t at; /* original position: qsort is not stable */
} sort_item;

static int cmp_sort_items(const void *x, const void *y) {
    const sort_item *a = (const sort_item *)x, *b = (const sort_item *)y;
    int c = qv_compare(a->key, b->key);
    return c ? c : a->at < b->at ? -1 : a->at > b->at;
}

/* The elements of arr with their keys (f's outputs as an array, or the
 * element itself when f is NULL), stably sorted by key. */
static sort_item *sorted_items(qrun *r, const qnode *call, const qnode *f, qv arr,
                               const char *what) {
    char b[32];
    if (arr.type != QT_ARR) {
        fail_at(r, call, "%s (%s) cannot be %s, as it is not an array", TV(arr, b), what);
        return NULL;
    }
    sort_item *items = (sort_item *)qrun_alloc(r, (arr.len ? arr.len : 1) * sizeof *items);
    if (!items) return NULL;
    qiter it;
    qiter_init(&it, arr);
    qv e;
    for (size_t i = 0; qiter_next(&it, NULL, &e); i++) {
        items[i].val = e;
        items[i].at = i;
        if (!f) items[i].key = e;
        else if (!collect(r, f, e, &items[i].key)) return NULL;
    }
    if (arr.len > 1) qsort(items, arr.len, sizeof *items, cmp_sort_items);
    return items;
}

static bool keys_of(qrun *r, const qnode *n, qv v, bool sorted, qv *out) {
    char b[32];
    qvec keys = {NULL, 0, 0};
    if (v.type == QT_ARR) {
        for (size_t i = 0; i < v.len; i++)
            if (!vec_push(r, &keys, qv_int((int64_t)i))) return false;
    } else if (v.type == QT_OBJ) {
        qiter it;
        qiter_init(&it, v);
        qv k, val;
        while (qiter_next(&it, &k, &val))
            if (!vec_push(r, &keys, k)) return false;
        if (sorted) {
            qv a = arr_of(&keys);
            sort_item *items = sorted_items(r, n, NULL, a, "sorted");
            if (!items) return false;
            for (size_t i = 0; i < keys.n; i++) keys.items[i] = items[i].val;
        }
    } else {
        return fail_at(r, n, "%s (%s) has no keys", TV(v, b));
    }
    *out = arr_of(&keys);
    return true;
}

static bool has_emit(void *c, qv key) {
    qctx *h = (qctx *)c;
    qv in = h->in;
    bool found;
    if (in.type == QT_NULL) { /* jq: null has nothing */
        found = false;
    } else if (in.type == QT_OBJ && key.type == QT_STR) {
        found = obj_has(in, key.u.s, key.len);
    } else if (in.type == QT_ARR && key.type == QT_NUM) {
        double d = qv_num_f64(key);
        found = d >= 0 && d < (double)in.len;
    } else {
        return fail_at(h->r, h->n, "Cannot check whether %s has a %s key", qv_type_name(in),
                       qv_type_name(key));
    }
    return yield(h->k, qv_bool(found));
}

static bool select_emit(void *c, qv v) {
    qctx *s = (qctx *)c;
    return !qv_truthy(v) || yield(s->k, s->in);
}

typedef struct first_ctx {
    qv v;
    bool got;
    bool last; /* keep going, remember the latest */
} first_ctx;

static bool first_emit(void *c, qv v) {
    first_ctx *f = (first_ctx *)c;
    f->v = v;
    f->got = true;
    return f->last;
}

static bool length_of(qrun *r, const qnode *n, qv v, qv *out) {
    char b[32];
    switch (v.type) {
    case QT_NULL: *out = qv_int(0); return true;
    case QT_NUM:
        if (v.rep == QR_TEXT) *out = v.u.s[0] == '-' ? qv_num_text(v.u.s + 1, v.len - 1) : v;
        else *out = qv_num_f64(v) < 0 ? num_neg(r, v) : v;
        return true;
    case QT_STR: *out = qv_int((int64_t)cp_count(v.u.s, v.len)); return true;
    case QT_ARR:
    case QT_OBJ: *out = qv_int((int64_t)v.len); return true;
    default: return fail_at(r, n, "%s (%s) has no length", TV(v, b));
    }
}

/* tonumber: a string that is exactly one JSON number (surrounding
 * whitespace allowed), kept as its text. */
static bool to_number(qrun *r, const qnode *n, qv v, qv *out) {
    char b[32];
    if (v.type == QT_NUM) {
        *out = v;
        return true;
    }
    if (v.type != QT_STR) return fail_at(r, n, "%s (%s) cannot be parsed as a number", TV(v, b));
    const char *s = v.u.s, *e = v.u.s + v.len;
    while (s < e && q_is_ws(*s)) s++;
    while (e > s && q_is_ws(e[-1])) e--;
    jet_error err;
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = JET_READ_NUMBER_AS_RAW;
    jet_doc *d = s < e && (*s == '-' || (*s >= '0' && *s <= '9')) ? jet_read(s, (size_t)(e - s), &opts, NULL, &err) : NULL;
    bool ok = d && jet_is_raw(jet_doc_root(d));
    jet_doc_free(d);
    if (!ok) return fail_at(r, n, "Cannot parse '%.*s' as a number", (int)(v.len > 40 ? 40 : v.len), v.u.s);
    *out = qv_num_text(s, (size_t)(e - s));
    return true;
}

static bool ascii_case(qrun *r, const qnode *n, qv v, bool up, qv *out) {
    if (v.type != QT_STR) return fail_at(r, n, "%s input must be a string", up ? "ascii_upcase" : "ascii_downcase");
    char *s = (char *)qrun_alloc(r, v.len + 1);
    if (!s) return false;
    for (size_t i = 0; i < v.len; i++) {
        char c = v.u.s[i];
        if (up && c >= 'a' && c <= 'z') c = (char)(c - 32);
        if (!up && c >= 'A' && c <= 'Z') c = (char)(c + 32);
        s[i] = c;
    }
    s[v.len] = 0;
    *out = qv_str(s, v.len);
    return true;
}

static bool from_entries(qrun *r, const qnode *n, qv v, qv *out) {
    char b[32];
    if (v.type != QT_ARR && v.type != QT_OBJ) return fail_at(r, n, "Cannot iterate over %s (%s)", TV(v, b));
    objb o;
    memset(&o, 0, sizeof o);
    qiter it;
    qiter_init(&it, v);
    qv e;
    static const char *const key_names[] = {"key", "Key", "name", "Name"};
    while (qiter_next(&it, NULL, &e)) {
        qv key = qv_null(), val;
        for (size_t i = 0; i < 4; i++) {
            if (!index_key(r, n, e, key_names[i], strlen(key_names[i]), &key)) return false;
            if (qv_truthy(key)) break;
        }
        if (key.type != QT_STR) return fail_at(r, n, "Cannot use %s (%s) as object key", TV(key, b));
        bool has_value = e.type == QT_OBJ && obj_has(e, "value", 5);
        if (!index_key(r, n, e, has_value ? "value" : "Value", 5, &val)) return false;
        if (!obj_set(r, &o, key, val)) return false;
    }
    *out = obj_of(&o);
    return true;
}

static bool to_entries(qrun *r, const qnode *n, qv v, qv *out) {
    char b[32];
    if (v.type != QT_ARR && v.type != QT_OBJ) return fail_at(r, n, "%s (%s) has no keys", TV(v, b));
    qvec arr = {NULL, 0, 0};
    static const char key_text[] = "key", value_text[] = "value";
    qiter it;
    qiter_init(&it, v);
    qv k, val;
    for (size_t i = 0; qiter_next(&it, &k, &val); i++) { /* members in order, not looked up */
        qv *m = (qv *)qrun_alloc(r, 4 * sizeof *m);
        if (!m) return false;
        m[0] = qv_str(key_text, 3);
        m[1] = v.type == QT_ARR ? qv_int((int64_t)i) : k;
        m[2] = qv_str(value_text, 5);
        m[3] = val;
        qv entry = qv_null();
        entry.type = QT_OBJ;
        entry.len = 2;
        entry.u.items = m;
        if (!vec_push(r, &arr, entry)) return false;
    }
    *out = arr_of(&arr);
    return true;
}

static bool add_all(qrun *r, const qnode *n, qv v, qv *out) {
    char b[32];
    if (v.type != QT_ARR && v.type != QT_OBJ) return fail_at(r, n, "Cannot iterate over %s (%s)", TV(v, b));
    qv acc = qv_null(), e;
    qiter it;
    qiter_init(&it, v);
    qnode plus = *n;
    plus.sub = QA_ADD;
    /* strings, arrays and objects: built once, not copied at each step */
    bool strings = true, arrays = true, objects = true, any_obj = false;
    size_t total = 0;
    while (qiter_next(&it, NULL, &e)) {
        strings = strings && (e.type == QT_STR || e.type == QT_NULL);
        arrays = arrays && (e.type == QT_ARR || e.type == QT_NULL);
        objects = objects && (e.type == QT_OBJ || e.type == QT_NULL);
        any_obj = any_obj || e.type == QT_OBJ;
        total += e.len;
    }
    qiter_init(&it, v);
    if (v.len > 1 && objects && any_obj) {
        objb o;
        memset(&o, 0, sizeof o);
        while (qiter_next(&it, NULL, &e))
            if (e.type == QT_OBJ && !obj_copy(r, &o, e)) return false;
        *out = obj_of(&o);
        return true;
    }
    if (v.len > 1 && (strings || arrays)) {
        char *s = strings ? (char *)qrun_alloc(r, total + 1) : NULL;
        qvec items = {NULL, 0, 0};
        size_t at = 0;
        bool any = false;
        if (strings && !s) return false;
        while (qiter_next(&it, NULL, &e)) {
            if (e.type == QT_NULL) continue;
            any = true;
            if (strings) {
                if (e.len) memcpy(s + at, e.u.s, e.len);
                at += e.len;
                continue;
            }
            if (!push_elems(r, &items, e, NULL)) return false;
        }
        if (!any) *out = qv_null();
        else if (strings) s[at] = 0, *out = qv_str(s, at);
        else *out = arr_of(&items);
        return true;
    }
    while (qiter_next(&it, NULL, &e))
        if (!binop(r, &plus, acc, e, &acc)) return false;
    *out = acc;
    return true;
}

/* jq's join: elements as text (null as "", numbers and booleans as JSON),
 * separated by sep. */
static bool join_texts(qrun *r, const qnode *n, qv arr, qv sep, qv *out) {
    char b1[32], b2[32];
    if (arr.type != QT_ARR && arr.type != QT_OBJ) return fail_at(r, n, "Cannot iterate over %s (%s)", TV(arr, b1));
    if (sep.type != QT_STR && arr.len > 1)
        return fail_at(r, n, "string (\"\") and %s (%s) cannot be added", TV(sep, b1));
    qbuf text = {NULL, 0, 0};
    qiter it;
    qiter_init(&it, arr);
    qv e;
    bool ok = true;
    for (size_t i = 0; ok && qiter_next(&it, NULL, &e); i++) {
        if (i) ok = qbuf_push(&text, sep.u.s, sep.len);
        if (!ok || e.type == QT_NULL) continue;
        if (e.type == QT_ARR || e.type == QT_OBJ) {
            qbuf_free(&text);
            return fail_at(r, n, "string (\"...\") and %s (%s) cannot be added", TV(e, b2));
        }
        qv t;
        ok = to_text(r, e, true, &t) && qbuf_push(&text, t.u.s, t.len);
    }
    if (ok) *out = str_concat(r, text.data ? text.data : "", text.len, "", 0);
    qbuf_free(&text);
    return ok && !r->failed ? true : qrun_fail(r, "out of memory");
}

/* startswith, endswith, ltrimstr, rtrimstr, split: a string function of
 * the input and one argument value. */
static bool str_fn(qrun *r, const qnode *n, qv in, qv arg, qv *out) {
    bool both = in.type == QT_STR && arg.type == QT_STR;
    bool fits = both && arg.len <= in.len;
    switch ((qfn)n->sub) {
    case QF_STARTSWITH:
    case QF_ENDSWITH: {
        bool start = n->sub == QF_STARTSWITH;
        if (!both) return fail_at(r, n, "%s() requires string inputs", start ? "startswith" : "endswith");
        *out = qv_bool(fits && memcmp(start ? in.u.s : in.u.s + in.len - arg.len, arg.u.s, arg.len) == 0);
        return true;
    }
    case QF_LTRIMSTR:
        *out = fits && memcmp(in.u.s, arg.u.s, arg.len) == 0 ? qv_str(in.u.s + arg.len, in.len - arg.len) : in;
        return true;
    case QF_RTRIMSTR:
        *out = fits && memcmp(in.u.s + in.len - arg.len, arg.u.s, arg.len) == 0 ? qv_str(in.u.s, in.len - arg.len) : in;
        return true;
    default: { /* split */
        if (!both) return fail_at(r, n, "split input and separator must be strings");
        qnode div = *n;
        div.sub = QA_DIV;
        return binop(r, &div, in, arg, out);
    }
    }
}

typedef struct limit_ctx {
    qk k;
    int64_t left;
    bool downstream;
} limit_ctx;

static bool limit_emit(void *c, qv v) {
    limit_ctx *l = (limit_ctx *)c;
    if (!yield(l->k, v)) {
        l->downstream = true;
        return false;
    }
    return --l->left > 0;
}

/* A builtin; `state` is the evaluator's for n (its input and outputs). */
static bool call(qrun *r, const qnode *n, qv in, qk k, qctx *state) {
    qv out;
    const qnode *arg = n->n ? n->list[0] : NULL;
    switch ((qfn)n->sub) {
    case QF_EMPTY: return true;
    case QF_NOT: return yield(k, qv_bool(!qv_truthy(in)));
    case QF_LENGTH: return length_of(r, n, in, &out) && yield(k, out);
    case QF_TYPE: {
        const char *t = qv_type_name(in);
        return yield(k, qv_str(t, strlen(t)));
    }
    case QF_KEYS:
    case QF_KEYS_UNSORTED: return keys_of(r, n, in, n->sub == QF_KEYS, &out) && yield(k, out);
    case QF_HAS:
    case QF_SELECT: {
        return ev(r, arg, in, mk(n->sub == QF_HAS ? has_emit : select_emit, state));
    }
    case QF_VALUES: return in.type == QT_NULL || yield(k, in);
    case QF_MAP: {
        char b[32];
        if (in.type != QT_ARR && in.type != QT_OBJ)
            return fail_at(r, n, "Cannot iterate over %s (%s)", TV(in, b));
        collect_ctx c;
        c.r = r;
        memset(&c.v, 0, sizeof c.v);
        qiter it;
        qiter_init(&it, in);
        qv e;
        while (qiter_next(&it, NULL, &e))
            if (!ev(r, arg, e, mk(collect_emit, &c))) return false;
        return yield(k, arr_of(&c.v));
    }
    case QF_TO_ENTRIES: return to_entries(r, n, in, &out) && yield(k, out);
    case QF_FROM_ENTRIES: return from_entries(r, n, in, &out) && yield(k, out);
    case QF_FIRST:
    case QF_LAST: {
        qv idx = qv_int(n->sub == QF_FIRST ? 0 : -1);
        return index_value(r, n, in, idx, &out) && yield(k, out);
    }
    case QF_FIRST_OF:
    case QF_LAST_OF: {
        first_ctx f;
        f.got = false;
        f.last = n->sub == QF_LAST_OF;
        f.v = qv_null();
        bool ok = ev(r, arg, in, mk(first_emit, &f));
        if (!ok && (r->failed || !f.got)) return false;
        return !f.got || yield(k, f.v);
    }
    case QF_ADD: return add_all(r, n, in, &out) && yield(k, out);
    case QF_SORT:
    case QF_SORT_BY:
    case QF_UNIQUE:
    case QF_UNIQUE_BY:
    case QF_GROUP_BY: {
        bool by = n->sub == QF_SORT_BY || n->sub == QF_UNIQUE_BY || n->sub == QF_GROUP_BY;
        sort_item *items = sorted_items(r, n, by ? arg : NULL, in, n->sub == QF_GROUP_BY ? "grouped" : "sorted");
        if (!items) return false;
        qvec v = {NULL, 0, 0}, group = {NULL, 0, 0};
        for (size_t i = 0; i < in.len; i++) {
            bool same = i > 0 && qv_compare(items[i].key, items[i - 1].key) == 0;
            if (n->sub == QF_GROUP_BY) {
                if (i > 0 && !same) {
                    if (!vec_push(r, &v, arr_of(&group))) return false;
                    memset(&group, 0, sizeof group);
                }
                if (!vec_push(r, &group, items[i].val)) return false;
                continue;
            }
            if ((n->sub == QF_UNIQUE || n->sub == QF_UNIQUE_BY) && same) continue;
            if (!vec_push(r, &v, items[i].val)) return false;
        }
        if (group.n && !vec_push(r, &v, arr_of(&group))) return false;
        return yield(k, arr_of(&v));
    }
    case QF_MIN:
    case QF_MAX:
    case QF_MIN_BY:
    case QF_MAX_BY: {
        bool by = n->sub == QF_MIN_BY || n->sub == QF_MAX_BY;
        bool max = n->sub == QF_MAX || n->sub == QF_MAX_BY;
        sort_item *items = sorted_items(r, n, by ? arg : NULL, in, "sorted");
        if (!items) return false;
        if (!in.len) return yield(k, qv_null());
        /* jq: the last of equal maxima, the first of equal minima */
        return yield(k, items[max ? in.len - 1 : 0].val);
    }
    case QF_REVERSE: {
        if (in.type == QT_NULL) return yield(k, qv_null());
        if (in.type == QT_STR) {
            char *s = (char *)qrun_alloc(r, in.len + 1);
            if (!s) return false;
            for (size_t i = 0; i < in.len;) { /* by characters */
                size_t j = i + 1;
                while (j < in.len && ((unsigned char)in.u.s[j] & 0xC0) == 0x80) j++;
                memcpy(s + in.len - j, in.u.s + i, j - i);
                i = j;
            }
            s[in.len] = 0;
            return yield(k, qv_str(s, in.len));
        }
        if (in.type != QT_ARR) {
            char b[32];
            return fail_at(r, n, "Cannot reverse %s (%s)", TV(in, b));
        }
        qvec v = {NULL, 0, 0};
        if (!push_elems(r, &v, in, NULL)) return false;
        for (size_t i = 0; i < v.n / 2; i++) {
            qv t = v.items[i];
            v.items[i] = v.items[v.n - 1 - i];
            v.items[v.n - 1 - i] = t;
        }
        return yield(k, arr_of(&v));
    }
    case QF_TOSTRING:
    case QF_TOJSON: return to_text(r, in, n->sub == QF_TOSTRING, &out) && yield(k, out);
    case QF_TONUMBER: return to_number(r, n, in, &out) && yield(k, out);
    case QF_JOIN:
    case QF_SPLIT:
    case QF_STARTSWITH:
    case QF_ENDSWITH:
    case QF_LTRIMSTR:
    case QF_RTRIMSTR: {
        qv args;
        if (!collect(r, arg, in, &args)) return false;
        for (size_t i = 0; i < args.len; i++) {
            bool ok = n->sub == QF_JOIN ? join_texts(r, n, in, args.u.items[i], &out)
                                        : str_fn(r, n, in, args.u.items[i], &out);
            if (!ok || !yield(k, out)) return false;
        }
        return true;
    }
    case QF_ANY:
    case QF_ALL: {
        char b[32];
        if (in.type != QT_ARR && in.type != QT_OBJ)
            return fail_at(r, n, "Cannot iterate over %s (%s)", TV(in, b));
        bool want = n->sub == QF_ANY, found = false;
        qiter it;
        qiter_init(&it, in);
        qv e;
        while (!found && qiter_next(&it, NULL, &e)) found = qv_truthy(e) == want;
        return yield(k, qv_bool(found == want));
    }
    case QF_WITH_ENTRIES: {
        qv entries, mapped;
        collect_ctx c;
        c.r = r;
        memset(&c.v, 0, sizeof c.v);
        if (!to_entries(r, n, in, &entries)) return false;
        for (size_t i = 0; i < entries.len; i++)
            if (!ev(r, arg, entries.u.items[i], mk(collect_emit, &c))) return false;
        mapped = arr_of(&c.v);
        return from_entries(r, n, mapped, &out) && yield(k, out);
    }
    case QF_LIMIT: {
        qv counts;
        if (!collect(r, arg, in, &counts)) return false;
        for (size_t i = 0; i < counts.len; i++) {
            if (counts.u.items[i].type != QT_NUM) return fail_at(r, n, "Invalid limit: not a number");
            limit_ctx l;
            l.k = k;
            l.left = num_to_i64(counts.u.items[i]);
            l.downstream = false;
            if (l.left <= 0) continue; /* jq 1.7: nothing (1.6 gave one) */
            if (!ev(r, n->list[1], in, mk(limit_emit, &l)) && (l.downstream || r->failed)) return false;
        }
        return true;
    }
    case QF_ERROR:
    case QF_ERROR_OF: {
        qv msgs;
        if (n->sub == QF_ERROR) {
            msgs = qv_null();
            msgs.type = QT_ARR;
            msgs.len = 1;
            msgs.u.items = &in;
        } else if (!collect(r, arg, in, &msgs)) {
            return false;
        }
        if (!msgs.len) return true;
        qv m = msgs.u.items[0], t;
        if (m.type == QT_STR) return fail_at(r, n, "%.*s", (int)(m.len > 200 ? 200 : m.len), m.u.s);
        if (!to_text(r, m, false, &t)) return false;
        return fail_at(r, n, "(not a string): %.*s", (int)(t.len > 180 ? 180 : t.len), t.u.s);
    }
    case QF_ASCII_DOWNCASE:
    case QF_ASCII_UPCASE: return ascii_case(r, n, in, n->sub == QF_ASCII_UPCASE, &out) && yield(k, out);
    case QF_RANGE:
    case QF_RANGE2: {
        /* range(n) and range(from; upto) with number arguments: each pair
         * of argument outputs, the last argument's outermost */
        qv from = qv_int(0), upto;
        qv a0, a1;
        if (!collect(r, n->list[0], in, &a0)) return false;
        if (n->sub == QF_RANGE2 && !collect(r, n->list[1], in, &a1)) return false;
        qv outer = n->sub == QF_RANGE2 ? a1 : a0;
        for (size_t j = 0; j < outer.len; j++) {
            size_t inner_n = n->sub == QF_RANGE2 ? a0.len : 1;
            for (size_t i = 0; i < inner_n; i++) {
                if (n->sub == QF_RANGE2) from = a0.u.items[i];
                upto = outer.u.items[j];
                if (from.type != QT_NUM || upto.type != QT_NUM)
                    return fail_at(r, n, "Range bounds must be numeric");
                int64_t x, y;
                if (qv_num_i64(from, &x) && qv_num_i64(upto, &y)) {
                    for (int64_t v = x; v < y; v++) {
                        if (r->max_steps && ++r->steps > r->max_steps)
                            return fail_at(r, n, "the query's step limit was reached");
                        if (!yield(k, qv_int(v))) return false;
                    }
                } else {
                    double hi = qv_num_f64(upto);
                    for (double v = qv_num_f64(from); v < hi; v += 1) {
                        if (r->max_steps && ++r->steps > r->max_steps)
                            return fail_at(r, n, "the query's step limit was reached");
                        if (!yield(k, qv_dbl(v))) return false;
                    }
                }
            }
        }
        return true;
    }
    }
    return fail_at(r, n, "internal error: unknown builtin");
}

static bool ev(qrun *r, const qnode *n, qv in, qk k) {
    if (r->max_steps && ++r->steps > r->max_steps)
        return fail_at(r, n, "the query's step limit was reached");
    if (++r->depth > QEVAL_MAX_DEPTH) {
        r->depth--;
        return fail_at(r, n, "the query nests too deeply");
    }
    bool ok;
    qctx x;
    memset(&x, 0, sizeof x);
    x.r = r;
    x.n = n;
    x.in = in;
    x.k = k;
    switch ((qop)n->op) {
    case Q_IDENTITY: ok = yield(k, in); break;
    case Q_RECURSE: ok = recurse(r, n, in, k); break;
    case Q_FIELD:
        if (n->a->op == Q_IDENTITY) ok = field_emit(&x, in);
        else ok = ev(r, n->a, in, mk(field_emit, &x));
        break;
    case Q_INDEX: ok = ev(r, n->b, in, mk(index_outer, &x)); break;
    case Q_SLICE: ok = n->c ? ev(r, n->c, in, mk(slice_to, &x)) : slice_to(&x, qv_null()); break;
    case Q_ITER: ok = ev(r, n->a, in, mk(iter_emit, &x)); break;
    case Q_TRY: {
        try_ctx t;
        t.k = k;
        t.downstream = false;
        ok = ev(r, n->a, in, mk(try_emit, &t));
        if (!ok && !t.downstream && r->failed) { /* the body's own error: dropped */
            r->failed = false;
            r->msg[0] = 0;
            ok = true;
        }
        break;
    }
    case Q_PIPE: ok = ev(r, n->a, in, mk(then_emit, &x)); break;
    case Q_COMMA: ok = ev(r, n->a, in, k) && ev(r, n->b, in, k); break;
    case Q_LITERAL: ok = yield(k, n->lit); break;
    case Q_VAR: ok = yield(k, r->slots[n->slot]); break;
    case Q_NEG: ok = ev(r, n->a, in, mk(neg_emit, &x)); break;
    case Q_ARITH: ok = ev(r, n->b, in, mk(arith_outer, &x)); break;
    case Q_AND:
    case Q_OR: ok = ev(r, n->a, in, mk(andor_emit, &x)); break;
    case Q_ALT: {
        alt_ctx a;
        a.k = k;
        a.any = false;
        ok = ev(r, n->a, in, mk(alt_emit, &a));
        if (ok && !a.any) ok = ev(r, n->b, in, k);
        break;
    }
    case Q_ARRAY: {
        qv arr;
        qvec none = {NULL, 0, 0};
        if (!n->a) ok = yield(k, arr_of(&none));
        else ok = collect(r, n->a, in, &arr) && yield(k, arr);
        break;
    }
    case Q_OBJECT:
    case Q_FORMAT: {
        parts_ctx p;
        p.r = r;
        p.n = n;
        p.in = in;
        p.k = k;
        p.i = 0;
        p.parts = (qv *)qrun_alloc(r, (n->n ? n->n : 1) * sizeof *p.parts);
        ok = p.parts && (n->op == Q_OBJECT ? obj_members(&p, 0) : fmt_parts(&p, n->n));
        break;
    }
    case Q_CALL: ok = call(r, n, in, k, &x); break;
    case Q_IF: ok = ev(r, n->a, in, mk(if_emit, &x)); break;
    case Q_AS: ok = ev(r, n->a, in, mk(as_emit, &x)); break;
    default: ok = fail_at(r, n, "internal error: unknown node");
    }
    r->depth--;
    return ok;
}

void qrun_init(qrun *r) {
    memset(r, 0, sizeof *r);
    jet_arena_init(&r->arena, NULL);
}

void qrun_reset(qrun *r) {
    jet_arena_reset(&r->arena);
    r->used = 0;
    r->steps = 0;
    r->depth = 0;
    r->failed = false;
    r->msg[0] = 0;
    r->err_pos = 0;
}

void qrun_free(qrun *r) {
    jet_arena_free(&r->arena);
}

bool qrun_eval(qrun *r, const qprog *p, qv input, qemit_fn emit, void *ctx) {
    r->slots = (qv *)qrun_alloc(r, (p->nslots ? p->nslots : 1) * sizeof *r->slots);
    if (!r->slots) return false;
    for (size_t i = 0; i < p->nslots; i++) r->slots[i] = i < p->nvars && r->vars ? r->vars[i] : qv_null();
    return ev(r, p->root, input, mk(emit, ctx));
}
