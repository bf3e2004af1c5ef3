/*
 * od_value.c — the on-demand cursor's scalar getters (jet.h section 12): a
 * value handle is valid while the cursor stands on its first byte; a getter
 * checks and converts the value there and moves the cursor past it.
 */
#include "ondemand.h"

#include "grammar.h"
#include "num.h"

#include <string.h>

/* ========================================================================== */
/* Values                                                                     */
/* ========================================================================== */

jet_type jet_odv_type(const jet_odv *v) {
    if (!v || !v->od || v->od->failed || v->pos >= v->od->len) return JET_TYPE_NONE;
    switch (v->od->json[v->pos]) {
    case '{': return JET_TYPE_OBJ;
    case '[': return JET_TYPE_ARR;
    case '"': return JET_TYPE_STR;
    case 't':
    case 'f': return JET_TYPE_BOOL;
    case 'n': return JET_TYPE_NULL;
    default: return JET_TYPE_NUM;
    }
}

bool jet__od_check_scalar(jet_od *od, size_t p, size_t *end, jet__err glued) {
    const char *j = od->json;
    char c = j[p];
    const bool nan_inf = (od->flags & JET_READ_ALLOW_NAN_INF) != 0;
    if (c == 't' || c == 'f' || c == 'n' || (!nan_inf && (c == 'N' || c == 'I'))) {
        size_t n = c == 'f' ? 5 : 4;
        const char *lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
        if (c == 'N' || c == 'I' || od->len - p < n || memcmp(j + p, lit, n) != 0) {
            jet__err kind;
            size_t at = jet__gram_bad_literal(j + p, j + od->len, &kind);
            return jet__od_err_in(od, kind, p + at, p);
        }
        if (JET_UNLIKELY(!jet__od_token_end_ok(od, p + n))) return jet__od_err_in(od, glued, p + n, p);
        *end = p + n;
        return true;
    }
    if (c == '"' || c == '{' || c == '[' || !jet__gram_value_start(c, nan_inf))
        return jet__od_err(od, JET_E_EXPECTED_VALUE, p);
    jet_num num;
    jet_code code = JET_OK;
    const char *err_at = j + p;
    jet_read_flags f = od->flags & (JET_READ_ALLOW_NAN_INF | JET_READ_BIGNUM_AS_RAW | JET_READ_NUMBER_AS_RAW);
    const char *e = jet_num_parse(j + p, j + od->len, f, &num, &code, &err_at);
    if (!e) return jet__od_err_in(od, jet__err_of_number(code), (size_t)(err_at - j), p);
    size_t ep = (size_t)(e - j);
    if (!jet__od_token_end_ok(od, ep)) return jet__od_err_in(od, glued, ep, p);
    *end = ep;
    return true;
}

bool jet__od_type_error(jet_od *od, size_t p, jet__err want) {
    char c = od->json[p];
    size_t e;
    if (c != '"' && c != '{' && c != '[' && !jet__od_check_scalar(od, p, &e, jet__od_glued(od))) return false;
    return jet__od_err(od, want, p);
}

/* Checks the literal `lit` (n bytes) at p and moves past it. */
static bool literal(jet_od *od, size_t p, const char *lit, size_t n) {
    if (JET_UNLIKELY(od->len - p < n || memcmp(od->json + p, lit, n) != 0 ||
                     !jet__od_token_end_ok(od, p + n))) {
        size_t e;
        if (!jet__od_check_scalar(od, p, &e, jet__od_glued(od))) return false;
        return jet__od_err(od, JET_E_LITERAL_NAME, p); /* not reached: the check fails */
    }
    od->pos = jet__od_next(od, p + n);
    return true;
}

bool jet_odv_is_null(jet_odv *v) {
    if (!jet__odv_here(v)) return false;
    if (v->od->json[v->pos] != 'n') return false;
    return literal(v->od, v->pos, "null", 4) && !v->od->failed;
}

bool jet_odv_get_bool(jet_odv *v, bool *out) {
    if (!jet__odv_here(v)) return false;
    jet_od *od = v->od;
    char c = od->json[v->pos];
    if (c == 't') {
        if (!literal(od, v->pos, "true", 4)) return false;
        *out = true;
        return !od->failed;
    }
    if (c == 'f') {
        if (!literal(od, v->pos, "false", 5)) return false;
        *out = false;
        return !od->failed;
    }
    return jet__od_type_error(od, v->pos, JET_E_WANT_BOOL);
}

static bool is_value_start_of_number(char c) {
    return c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I';
}

/* Parses the number at the cursor into *num. */
static bool number(jet_od *od, size_t p, jet_read_flags extra, jet_num *num, size_t *end) {
    const char *s = od->json + p;
    char c = *s;
    if (JET_UNLIKELY(!is_value_start_of_number(c) ||
                     ((c == 'N' || c == 'I') && !(od->flags & JET_READ_ALLOW_NAN_INF))))
        return jet__od_type_error(od, p, JET_E_WANT_NUMBER); /* a malformed value says so */
    jet_code code = JET_OK;
    const char *err_at = s;
    jet_read_flags f = (od->flags & JET_READ_ALLOW_NAN_INF) | extra;
    const char *e = jet_num_parse(s, od->json + od->len, f, num, &code, &err_at);
    if (JET_UNLIKELY(!e)) return jet__od_err_in(od, jet__err_of_number(code), (size_t)(err_at - od->json), p);
    size_t ep = (size_t)(e - od->json);
    if (JET_UNLIKELY(!jet__od_token_end_ok(od, ep)))
        return jet__od_err_in(od, jet__od_glued(od), ep, p);
    *end = ep;
    return true;
}

/* Whether the number text at p..e has a fraction or an exponent. */
static bool has_frac_or_exp(const jet_od *od, size_t p, size_t e) {
    for (size_t i = p; i < e; i++) {
        char c = od->json[i];
        if (c == '.' || c == 'e' || c == 'E' || c == 'N' || c == 'I') return true;
    }
    return false;
}

/*
 * The integer at the handle as a magnitude and a sign, for the two integer
 * getters: plain integers through the word-at-a-time path, the rest through
 * the exact parser ("-0" is 0; a fraction or exponent is a type error; an
 * integer beyond 64 bits is the range error `range`). Moves the
 * cursor past it.
 */
static bool integer(jet_odv *v, uint64_t *mag, bool *neg, jet__err range) {
    if (!jet__odv_here(v)) return false;
    jet_od *od = v->od;
    const char *fe = jet__od_fast_int(od->json + v->pos, od->json + od->len, mag, neg);
    size_t e;
    if (JET_LIKELY(fe)) {
        e = (size_t)(fe - od->json);
        if (JET_UNLIKELY(!jet__od_token_end_ok(od, e)))
            return jet__od_err_in(od, jet__od_glued(od), e, v->pos);
    } else {
        jet_num n;
        if (!number(od, v->pos, 0, &n, &e)) return false;
        if (n.kind == JET_NUM_UINT) {
            *mag = n.v.u;
            *neg = false;
        } else if (n.kind == JET_NUM_SINT) {
            *mag = 0 - (uint64_t)n.v.i;
            *neg = true;
        } else if (has_frac_or_exp(od, v->pos, e)) {
            return jet__od_type_error(od, v->pos, JET_E_WANT_INTEGER);
        } else if (n.v.d == 0) { /* "-0" */
            *mag = 0;
            *neg = false;
        } else {
            return jet__od_err(od, range, v->pos);
        }
    }
    od->pos = jet__od_next(od, e);
    return true;
}

bool jet_odv_get_u64(jet_odv *v, uint64_t *out) {
    uint64_t mag = 0; /* set on every path that reads it (gcc's cross builds cannot tell) */
    bool neg = false;
    size_t at = v->pos;
    if (!integer(v, &mag, &neg, JET_E_RANGE_UINT64)) return false;
    if (JET_UNLIKELY(neg && mag)) return jet__od_err(v->od, JET_E_RANGE_UINT64, at);
    *out = mag;
    return !v->od->failed;
}

bool jet_odv_get_i64(jet_odv *v, int64_t *out) {
    uint64_t mag = 0; /* set on every path that reads it (gcc's cross builds cannot tell) */
    bool neg = false;
    size_t at = v->pos;
    if (!integer(v, &mag, &neg, JET_E_RANGE_INT64)) return false;
    if (JET_UNLIKELY(mag > (uint64_t)INT64_MAX + neg)) return jet__od_err(v->od, JET_E_RANGE_INT64, at);
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return !v->od->failed;
}

bool jet_odv_get_double(jet_odv *v, double *out) {
    if (!jet__odv_here(v)) return false;
    jet_od *od = v->od;
    jet_num n;
    size_t e;
    if (!number(od, v->pos, 0, &n, &e)) return false;
    switch (n.kind) {
    case JET_NUM_UINT: *out = (double)n.v.u; break;
    case JET_NUM_SINT: *out = (double)n.v.i; break;
    default: *out = n.v.d; break;
    }
    od->pos = jet__od_next(od, e);
    return !od->failed;
}

bool jet_odv_get_float(jet_odv *v, float *out) {
    if (!jet__odv_here(v)) return false;
    jet_od *od = v->od;
    jet_num n;
    size_t e;
    /* grammar and extent first, then the binary32 conversion from the text */
    if (!number(od, v->pos, JET_READ_NUMBER_AS_RAW, &n, &e)) return false;
    const char *s = od->json + v->pos;
    if (*s == 'N' || *s == 'I' || (*s == '-' && s[1] == 'I')) {
        if (!number(od, v->pos, 0, &n, &e)) return false;
        *out = (float)n.v.d;
    } else {
        jet_code code = JET_OK;
        const char *err_at = s;
        if (!jet_num_parse_f32(s, od->json + e, out, &code, &err_at))
            return jet__od_err_in(od, jet__err_of_number(code), (size_t)(err_at - od->json), v->pos);
    }
    od->pos = jet__od_next(od, e);
    return !od->failed;
}

/* jet_odv_get_str's general case: its errors, a string across words or with
 * a backslash. */
static JET_NOINLINE bool get_str_general(jet_odv *v, jet_str *out) {
    if (!jet__odv_here(v)) return false;
    jet_od *od = v->od;
    if (JET_UNLIKELY(od->json[v->pos] != '"')) return jet__od_type_error(od, v->pos, JET_E_WANT_STRING);
    return jet__od_string_fast(od, v->pos, out) && !od->failed;
}

bool jet_odv_get_str(jet_odv *v, jet_str *out) {
    jet_od *od = v->od;
    size_t p = v->pos;
    /* the usual string inline, with no register saved for the rest: where
     * the cursor stands, both quotes in one directly indexed word that has
     * no backslash */
    if (JET_LIKELY(!od->failed && p == od->pos && v->depth == od->depth && p < od->len &&
                   od->json[p] == '"')) {
        size_t q = jet__od_plain_string_end(od, p);
        if (JET_LIKELY(q != SIZE_MAX)) {
            out->ptr = od->json + p + 1;
            out->len = q - p - 1;
            od->pos = jet__od_next(od, q + 1);
            return !od->failed;
        }
    }
    return get_str_general(v, out);
}

bool jet_odv_skip(jet_odv *v) {
    if (!jet__odv_here(v)) return false;
    return jet__od_skip(v->od) && !v->od->failed;
}

bool jet_odv_get_raw(jet_odv *v, jet_str *out) {
    if (!jet__odv_here(v)) return false;
    jet_od *od = v->od;
    size_t p = v->pos, e;
    char c = od->json[p];
    if (c == '{' || c == '[') {
        if (!jet__od_skip(od)) return false;
        e = jet__od_prev(od, od->pos) + 1; /* past the closing bracket */
    } else if (c == '"') {
        jet_str s;
        /* past the closing quote, found before jet__od_string moves on (a
         * window scanned then may fail; it fails itself if there is none) */
        e = jet__od_next(od, p + 1) + 1;
        if (!jet__od_string(od, p, &s)) return false;
    } else if (c == 't' || c == 'f' || c == 'n') {
        size_t n = c == 'f' ? 5 : 4;
        if (!literal(od, p, c == 't' ? "true" : c == 'f' ? "false" : "null", n)) return false;
        e = p + n;
    } else {
        jet_num num;
        if (!number(od, p, JET_READ_NUMBER_AS_RAW, &num, &e)) return false;
        od->pos = jet__od_next(od, e);
    }
    out->ptr = od->json + p;
    out->len = e - p;
    return !od->failed;
}

