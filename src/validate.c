/*
 * validate.c — accept/reject without building anything (jet.h section 12).
 *
 * Stage 1 (through jet_od_start) has already rejected unterminated strings,
 * control characters in strings and, on the kernels that check it, invalid
 * UTF-8. What is left is the grammar, walked token by token over the
 * structural bitmap with the kinds of the open containers kept one bit per
 * level; strings with escapes, numbers and literals are checked as the DOM
 * reader checks them, so both accept exactly the same inputs.
 */
#include "ondemand.h"

#include "grammar.h"
#include "scan.h"

#include <string.h>

/* The kinds of open containers, one bit per level (1: object), in a word
 * array kept by the od (it grows with the depth, then is reused). */
static bool kinds_set(jet_od *od, uint32_t level, bool obj) { return jet__od_kinds_set(od, level, obj); }

static JET_ALWAYS_INLINE bool kinds_obj(const jet_od *od, uint32_t level) {
    return (od->kinds[level >> 6] >> (level & 63)) & 1;
}

/* The string whose quotes are at p and q: its escapes (stage 1 checked the
 * UTF-8). */
static JET_ALWAYS_INLINE bool check_string(jet_od *od, size_t p, size_t q) {
    if (JET_LIKELY(!jet__od_has_backslash(od, p + 1, q))) return true;
    jet_str s;
    size_t save = od->pos;
    bool ok = jet__od_string(od, p, &s); /* unescapes into the scratch */
    od->pos = save;
    return ok;
}

/* Checks a number or literal at p (the walk is at depth `depth`, in an
 * object when in_obj): a byte glued to its end is the separator error the
 * DOM reader gives there. */
static bool check_scalar(jet_od *od, size_t p, size_t *end, uint32_t depth, bool in_obj) {
    jet__err glued = depth == 0 ? JET_E_TRAILING_CONTENT : in_obj ? JET_E_EXPECTED_OBJECT_SEP : JET_E_EXPECTED_ARRAY_SEP;
    return jet__od_check_scalar(od, p, end, glued);
}

bool jet_od_validate(jet_od *od, const char *json, size_t len, const jet_read_opts *opts) {
    if (!od) return false;
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    o.flags &= ~(JET_READ_VALIDATE_ALL | JET_READ_REJECT_UNKNOWN); /* this is the full validation */
    if ((o.flags & (JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_STOP_WHEN_DONE)) ||
        jet__kernel() == JET_KERNEL_SCALAR || jet__mostly_digits(json, len)) {
        /* Extensions only the DOM reader knows, and the inputs it reads
         * faster in one pass than the index is walked (numeric documents,
         * or the scalar kernel chosen): the DOM reader validates, into its
         * reused arenas. */
        return jet__od_validate_dom(od, json, len, &o);
    }
    /* The DOM reader's stage 2 without the document accepts a valid input
     * with fewer instructions than the walk below (4.2 against 6.2 per byte
     * of twitter.json); the walk, which reports errors with their path,
     * runs only when it does not accept. */
    if (jet__od_validate_indexed(od, json, len, &o)) return true;
    jet_odv root;
    if (!jet_od_start(od, json, len, &o, &root)) return false;
    const char *j = od->json;
    const size_t n = od->len;
    uint32_t depth = 0;
    jet_od_toks t;
    jet__od_toks_seek(od, &t, od->pos);
    size_t p = jet__od_toks_take(&t, n);
    bool ok = false;
    for (;;) {
        /* a value at p */
        if (JET_UNLIKELY(p >= n)) {
            jet__od_err(od, JET_E_END_BEFORE_VALUE, n);
            break;
        }
        char c = j[p];
        if (c == '{' || c == '[') {
            if (JET_UNLIKELY(depth >= od->max_depth)) {
                jet__od_err(od, JET_E_DEPTH_LIMIT, p);
                break;
            }
            if (!kinds_set(od, depth, c == '{')) break;
            depth++;
            size_t q = jet__od_toks_take(&t, n);
            if (JET_UNLIKELY(q >= n)) {
                jet__od_err(od, c == '{' ? JET_E_END_IN_OBJECT : JET_E_END_IN_ARRAY, n);
                break;
            }
            if (j[q] == (c == '{' ? '}' : ']')) {
                depth--;
                p = q;
                goto after;
            }
            p = q;
            if (c == '[') continue;
            if (JET_UNLIKELY(j[p] != '"')) {
                jet__od_err(od, JET_E_EXPECTED_KEY_OR_CLOSE, p);
                break;
            }
            goto key;
        }
        if (c == '"') {
            size_t q = jet__od_toks_take(&t, n);
            if (!check_string(od, p, q)) break;
            p = q;
        } else if (JET_UNLIKELY(jet__gram_not_value(c))) {
            jet__od_err(od, JET_E_EXPECTED_VALUE, p);
            break;
        } else {
            size_t e;
            if (!check_scalar(od, p, &e, depth, depth && kinds_obj(od, depth - 1))) break;
        }
    after:
        /* after a value: the separator or the end of its container */
        p = jet__od_toks_take(&t, n);
        if (depth == 0) {
            if (p < n) {
                jet__od_err(od, JET_E_TRAILING_CONTENT, p);
                break;
            }
            ok = true;
            break;
        }
        if (JET_UNLIKELY(p >= n)) {
            jet__od_err(od, kinds_obj(od, depth - 1) ? JET_E_END_IN_OBJECT : JET_E_END_IN_ARRAY, n);
            break;
        }
        c = j[p];
        bool in_obj = kinds_obj(od, depth - 1);
        if (c == ',') {
            p = jet__od_toks_take(&t, n);
            /* (the walk runs without the trailing-comma flag) */
            if (JET_UNLIKELY(p >= n || j[p] == (in_obj ? '}' : ']'))) {
                if (p >= n)
                    jet__od_err(od, in_obj ? JET_E_END_IN_OBJECT : JET_E_END_IN_ARRAY, n);
                else
                    jet__od_err(od, jet__gram_after_comma(0, j[p], in_obj ? '}' : ']'), p);
                break;
            }
            if (!in_obj) continue;
            goto key;
        }
        if (c == (in_obj ? '}' : ']')) {
            depth--;
            goto after;
        }
        jet__od_err(od, in_obj ? JET_E_EXPECTED_OBJECT_SEP : JET_E_EXPECTED_ARRAY_SEP, p);
        break;
    key:
        /* an object member's key at p, then ':' and the value */
        if (JET_UNLIKELY(p >= n)) {
            jet__od_err(od, JET_E_END_IN_OBJECT, n);
            break;
        }
        if (JET_UNLIKELY(j[p] != '"')) {
            jet__od_err(od, JET_E_EXPECTED_KEY, p);
            break;
        }
        {
            size_t q = jet__od_toks_take(&t, n);
            if (!check_string(od, p, q)) break;
            size_t colon = jet__od_toks_take(&t, n);
            if (JET_UNLIKELY(colon >= n)) {
                jet__od_err(od, JET_E_END_AFTER_KEY, n);
                break;
            }
            if (JET_UNLIKELY(j[colon] != ':')) {
                jet__od_err(od, JET_E_EXPECTED_COLON, colon);
                break;
            }
            p = jet__od_toks_take(&t, n);
            if (JET_UNLIKELY(p >= n)) {
                jet__od_err(od, JET_E_END_AFTER_COLON, n);
                break;
            }
        }
    }
    od->pos = n;
    od->depth = 0;
    /* a window scanned on the way may have failed stage 1 (the walk then
     * saw the input end early) */
    return ok && !od->failed;
}

bool jet_validate(const char *json, size_t len, const jet_read_opts *opts, const jet_alloc *alloc,
                  jet_error *err) {
    jet_od *od = jet_od_new(alloc);
    if (!od) {
        jet__error_kind(err, JET_E_MEMORY, 0);
        return false;
    }
    bool ok = jet_od_validate(od, json, len, opts);
    if (!ok && err) {
        *err = od->err;
        err->path = NULL; /* it pointed into the od */
    }
    jet_od_free(od);
    return ok;
}
