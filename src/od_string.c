/*
 * od_string.c — the on-demand cursor's strings: keys and string values, returned
 * in place when they hold no escape, else unescaped into the cursor's buffer.
 */
#include "ondemand.h"

#include "emit.h" /* jet__copy_small */
#include "grammar.h"
#include "utf8.h"

#include <string.h>

/* ========================================================================== */
/* Strings                                                                    */
/* ========================================================================== */

/* A bad escape: of kind `kind` at `at`, recorded when asked; NULL. */
static const char *bad_escape(jet_od *od, bool record, jet__err kind, const char *at) {
    if (record) jet__od_err(od, kind, (size_t)(at - od->json));
    return NULL;
}

/* Decodes the escape at p (a backslash, p < e) into *dp; returns the byte
 * after it, or NULL (error recorded when asked). */
static const char *one_escape(jet_od *od, const char *p, const char *e, char **dp, bool record) {
    char *d = *dp;
    if (e - p < 2) return bad_escape(od, record, JET_E_ESCAPE_CHAR, p);
    switch (p[1]) {
    case '"': *d++ = '"'; break;
    case '\\': *d++ = '\\'; break;
    case '/': *d++ = '/'; break;
    case 'b': *d++ = '\b'; break;
    case 'f': *d++ = '\f'; break;
    case 'n': *d++ = '\n'; break;
    case 'r': *d++ = '\r'; break;
    case 't': *d++ = '\t'; break;
    case 'u': {
        if (e - p < 6) return bad_escape(od, record, JET_E_U_ESCAPE_HEX, p + 2);
        int32_t cp = jet__hex4(p + 2);
        if (cp < 0) return bad_escape(od, record, JET_E_U_ESCAPE_HEX, p + 2);
        const char *after = p + 6;
        if (cp >= 0xD800 && cp <= 0xDFFF && jet__pair_surrogate(&after, e, &cp)) {
            *dp = jet__utf8_put(d, (uint32_t)cp);
            return after;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF && !(od->flags & JET_READ_ALLOW_INVALID_UTF8))
            return bad_escape(od, record,
                              cp <= 0xDBFF ? JET_E_SURROGATE_HIGH : JET_E_SURROGATE_LOW, p);
        *dp = jet__utf8_put(d, (uint32_t)cp); /* WTF-8 for a lone surrogate when allowed */
        return p + 6;
    }
    default: return bad_escape(od, record, JET_E_ESCAPE_CHAR, p + 1);
    }
    *dp = d;
    return p + 2;
}

/* The escapes that stand for one byte (\" \\ \/ \b \f \n \r \t): that
 * byte, by the escape's letter; 0 for the others. */
static const unsigned char escape_plain[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* Unescapes the string body s[0..n) (no quotes; stage 1 guarantees no
 * unescaped quote inside, and has validated the UTF-8 or it is allowed
 * invalid) into dst (room for n bytes): the runs between backslashes are
 * copied whole. Stage 1 marked every backslash inside strings; an escaped
 * one is consumed by the escape before it and skipped here. */
bool jet__od_unescape(jet_od *od, const char *s, size_t n, char *dst, size_t *out_len,
                      bool record) {
    const char *p = s, *e = s + n;
    char *d = dst;
    char one[4]; /* dst NULL (only checking): each escape's bytes */
    size_t a = (size_t)(s - od->json), b = a + n;
    size_t w = a >> 6, wl = (b - 1) >> 6;
    /* the words read directly when the index holds them all (long spans of
     * the strict skip), else through the window */
    const uint64_t *direct = wl < od->direct ? od->bs : NULL;
    uint64_t bits = jet__od_bword(od, w) & (~UINT64_C(0) << (a & 63));
    for (;;) {
        while (!bits) {
            if (direct && wl - w >= 4 && !(direct[w + 1] | direct[w + 2] | direct[w + 3] | direct[w + 4])) {
                w += 4; /* a long span: four words without a backslash */
                continue;
            }
            if (++w > wl) goto tail;
            bits = direct ? direct[w] : jet__od_bword(od, w);
        }
        size_t k = (w << 6) + jet__ctz64_offset(bits);
        bits &= bits - 1;
        if (k >= b) break;
        const char *bsl = od->json + k;
        if (bsl < p) continue;
        if (dst) {
            /* the run before the escape: short in escape-dense text, so
             * copied without a call */
            jet__copy_small(d, p, (size_t)(bsl - p));
            d += bsl - p;
            /* the usual escapes by the table, inline */
            unsigned char one_byte = e - bsl >= 2 ? escape_plain[(unsigned char)bsl[1]] : 0;
            if (JET_LIKELY(one_byte)) {
                *d++ = (char)one_byte;
                p = bsl + 2;
                continue;
            }
        } else {
            /* only checking (the strict skip): the usual escapes by a
             * table, \u outside the surrogates by its hex */
            if (JET_LIKELY(e - bsl >= 2 && escape_plain[(unsigned char)bsl[1]])) {
                p = bsl + 2;
                continue;
            }
            if (e - bsl >= 6 && bsl[1] == 'u') {
                int32_t cp = jet__hex4(bsl + 2);
                if (cp >= 0 && (cp < 0xD800 || cp > 0xDFFF)) {
                    p = bsl + 6;
                    continue;
                }
            }
            d = one;
        }
        p = one_escape(od, bsl, e, &d, record);
        if (!p) return false;
    }
tail:
    if (!dst) return true;
    jet__copy_small(d, p, (size_t)(e - p));
    d += e - p;
    *out_len = (size_t)(d - dst);
    return true;
}

bool jet__od_escapes_ok(jet_od *od, size_t a, size_t b) {
    return jet__od_unescape(od, od->json + a, b - a, NULL, NULL, false);
}

/* Body of the string at quote p, closing quote at q, into *out. */
bool jet__od_string_body(jet_od *od, size_t p, size_t q, jet_str *out) {
    const char *s = od->json + p + 1;
    size_t n = q - p - 1;
    if (JET_LIKELY(!jet__od_has_backslash(od, p + 1, q))) {
        out->ptr = s;
        out->len = n;
        return true;
    }
    /* unescaped text is never longer than its source, and each string's
     * NUL is paid for by its backslash: strings read once fit in len bytes */
    char *d;
    bool in_unesc = true;
    if (JET_LIKELY(od->unesc_cap - od->unesc_len > n)) {
        d = od->unesc + od->unesc_len;
    } else if (od->unesc_len == 0) {
        size_t cap = od->len + 64;
        jet__free(&od->alloc, od->unesc);
        od->unesc = (char *)jet__malloc(&od->alloc, cap);
        od->unesc_cap = od->unesc ? cap : 0;
        if (!od->unesc) return jet__od_err(od, JET_E_MEMORY, p);
        d = od->unesc;
    } else {
        in_unesc = false;
        d = (char *)jet_arena_alloc(&od->scratch, n + 1, 1);
        if (!d) return jet__od_err(od, JET_E_MEMORY, p);
    }
    size_t ul;
    if (!jet__od_unescape(od, s, n, d, &ul, true)) return false;
    d[ul] = 0;
    if (in_unesc) od->unesc_len += ul + 1;
    out->ptr = d;
    out->len = ul;
    return true;
}

bool jet__od_string(jet_od *od, size_t p, jet_str *out) {
    size_t q = jet__od_next(od, p + 1);
    if (JET_UNLIKELY(q >= od->len))
        return jet__od_err(od, JET_E_END_IN_STRING, od->len);
    if (!jet__od_string_body(od, p, q, out)) return false;
    od->pos = jet__od_next(od, q + 1);
    return true;
}

bool jet__od_key(jet_od *od, size_t p, jet_str *key, size_t *val) {
    size_t q = jet__od_next(od, p + 1);
    if (JET_UNLIKELY(q >= od->len))
        return jet__od_err(od, JET_E_END_IN_STRING, od->len);
    if (!jet__od_string_body(od, p, q, key)) return false;
    size_t colon = jet__od_next(od, q + 1);
    if (JET_UNLIKELY(colon >= od->len))
        return jet__od_err(od, JET_E_END_AFTER_KEY, od->len);
    if (JET_UNLIKELY(od->json[colon] != ':'))
        return jet__od_err(od, JET_E_EXPECTED_COLON, colon);
    size_t v = jet__od_next(od, colon + 1);
    if (JET_UNLIKELY(v >= od->len))
        return jet__od_err(od, JET_E_END_AFTER_COLON, od->len);
    if (JET_UNLIKELY(jet__gram_not_value(od->json[v])))
        return jet__od_err(od, JET_E_EXPECTED_VALUE, v);
    *val = v;
    return true;
}

