/*
 * od_iter.c — walking the on-demand cursor's containers (jet.h section 12):
 * skipping values, array and object iterators, and key lookup.
 *
 * The cursor keeps one position and one depth: an iterator asks the cursor
 * to come back to its level (jet__od_settle) before each step, skipping
 * whatever the caller left unread. Skipping counts brackets over the marked
 * bytes only, so a skipped string costs two bits and a skipped number one,
 * whatever their length.
 */
#include "ondemand.h"

#include "grammar.h"

#include <string.h>

/* ========================================================================== */
/* Skipping                                                                   */
/* ========================================================================== */

/* +1 for an opening bracket, -1 for a closing one. */
static const int8_t bracket_delta[256] = {['{'] = 1, ['['] = 1, ['}'] = -1, [']'] = -1};

/*
 * Walks the bracket bitmap (only brackets outside strings have a bit), one
 * table lookup and add per bracket. Only the balance and the depth are
 * checked here (JET_READ_LAZY): the strict skip walks every token
 * (od_walk.c).
 */
size_t jet__od_close_deep(jet_od *od, size_t off, uint32_t levels, uint32_t depth) {
    size_t w = off >> 6;
    if (w >= od->words) return JET_OD_UNCLOSED;
    const unsigned char *j = (const unsigned char *)od->json;
    uint64_t bits = jet__od_rword(od, w) & (~UINT64_C(0) << (off & 63));
    /* the count may reach `room` (the depth limit, relative to the count)
     * and one test per bracket finds both its end and its overflow */
    uint64_t room = (uint64_t)od->max_depth + levels - (depth < od->max_depth ? depth : od->max_depth);
    int64_t count = (int64_t)levels;
    for (;;) {
        while (bits) {
            size_t i = (w << 6) + jet__ctz64(bits);
            bits &= bits - 1;
            count += bracket_delta[j[i]];
            if (JET_UNLIKELY((uint64_t)(count - 1) >= room)) {
                if (count == 0) return i + 1;
                jet__od_err(od, JET_E_DEPTH_LIMIT, i);
                return JET_OD_UNCLOSED;
            }
        }
        if (JET_UNLIKELY(++w >= od->direct)) {
            if (w >= od->words) return JET_OD_UNCLOSED;
            bits = jet__od_word_far(od, 2, w);
        } else {
            bits = od->br[w];
        }
    }
}

size_t jet__od_close(jet_od *od, size_t off, uint32_t levels) {
    return jet__od_close_deep(od, off, levels, levels);
}

bool jet__od_close_fail(jet_od *od) {
    if (od->failed) return false;
    return jet__od_err(od, JET_E_END_IN_CONTAINER, od->len);
}

size_t jet__od_prev(jet_od *od, size_t p) {
    if (p == 0 || p > od->len) return SIZE_MAX;
    size_t w = (p - 1) >> 6;
    uint64_t bits = jet__od_mword(od, w) & (~UINT64_C(0) >> (63 - ((p - 1) & 63)));
    while (!bits) {
        if (w == 0) return SIZE_MAX;
        bits = jet__od_mword(od, --w);
    }
    return (w << 6) + 63 - (size_t)jet__clz64(bits);
}

/* The strict skip of what is left of the od->depth - base containers the
 * cursor is in: what the cursor's position must be is told by the token
 * before it (a bracket: the first inside; ',' or ':': a value; else a
 * separator), the containers' kinds by those entered (enter). */
static JET_NOINLINE bool close_strict(jet_od *od, uint32_t base) {
    size_t p = od->pos;
    size_t prev = jet__od_prev(od, p);
    char pc = prev < od->len ? od->json[prev] : 0;
    int at = pc == '[' || pc == '{' ? JET_OD_AT_FIRST : pc == ',' || pc == ':' ? JET_OD_AT_VALUE
                                                                               : JET_OD_AT_SEP;
    bool in_obj = (od->kinds[(od->depth - 1) >> 6] >> ((od->depth - 1) & 63)) & 1;
    if (at == JET_OD_AT_SEP && od->depth == base + 1 && p < od->len &&
        od->json[p] == (in_obj ? '}' : ']')) {
        /* the usual case: the cursor on the last container's own close */
        od->pos = jet__od_next(od, p + 1);
        od->depth = base;
        return true;
    }
    if (at == JET_OD_AT_VALUE && pc == ',' && in_obj) at = JET_OD_AT_KEY;
    jet_od_toks t;
    jet__od_toks_seek(od, &t, p + 1);
    if (!jet__od_walk(od, &t, p, at, od->depth, base, in_obj, NULL, NULL)) return false;
    od->pos = jet__od_toks_take(&t, od->len);
    od->depth = base;
    return true;
}

bool jet__od_close_levels(jet_od *od, uint32_t base) {
    if (jet__od_close_last(od, base)) return true;
    if (!od->lazy) return close_strict(od, base);
    size_t e = jet__od_close_deep(od, od->pos, od->depth - base, od->depth);
    if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
    od->pos = jet__od_next(od, e);
    od->depth = base;
    return true;
}

/* Skips the string whose opening quote is at p, the cursor's position
 * (strictly, its escapes checked, unless JET_READ_LAZY). */
static JET_ALWAYS_INLINE bool iter_skip_string(jet_od *od, size_t p) {
    size_t q = jet__od_plain_string_end(od, p);
    if (JET_LIKELY(q != SIZE_MAX)) { /* no escape to check */
        od->pos = jet__od_next(od, q + 1);
        return true;
    }
    q = jet__od_next(od, p + 1);
    if (JET_UNLIKELY(q >= od->len))
        return jet__od_err(od, JET_E_END_IN_STRING, od->len);
    if (JET_UNLIKELY(!od->lazy && jet__od_has_backslash(od, p + 1, q) &&
                     !jet__od_escapes_ok(od, p + 1, q)))
        return jet__od_invalid(od, p);
    od->pos = jet__od_next(od, q + 1);
    return true;
}

bool jet__od_skip(jet_od *od) {
    size_t p = od->pos;
    if (JET_UNLIKELY(p >= od->len))
        return jet__od_err(od, JET_E_END_BEFORE_VALUE, od->len);
    char c = od->json[p];
    if (c == '"') return iter_skip_string(od, p);
    if (!od->lazy) {
        jet_od_toks t;
        jet__od_toks_seek(od, &t, p + 1);
        if (!jet__od_walk(od, &t, p, JET_OD_AT_VALUE, od->depth, od->depth, false, NULL, NULL)) return false;
        od->pos = jet__od_toks_take(&t, od->len);
        return true;
    }
    if (c == '{' || c == '[') {
        if (JET_UNLIKELY(od->depth >= od->max_depth))
            return jet__od_err(od, JET_E_DEPTH_LIMIT, p);
        size_t e = jet__od_close_deep(od, jet__od_next(od, p + 1), 1, od->depth + 1);
        if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
        od->pos = jet__od_next(od, e);
        return true;
    }
    od->pos = jet__od_next(od, p + 1);
    return true;
}

static JET_ALWAYS_INLINE bool iter_settle(jet_od_iter *it) {
    jet_od *od = it->od;
    if (JET_UNLIKELY(od->depth != it->depth)) {
        if (od->depth < it->depth)
            return jet__od_err(od, JET_E_ITER_LEFT, od->pos);
        return jet__od_close_levels(od, it->depth);
    }
    if (od->pos == it->pending) {
        /* returned but not read: most often a string (inline) */
        if (JET_LIKELY(od->pos < od->len && od->json[od->pos] == '"')) return iter_skip_string(od, od->pos);
        return jet__od_skip(od);
    }
    return true;
}

JET_NOINLINE bool jet__od_settle(jet_od_iter *it) { return iter_settle(it); }


/* ========================================================================== */
/* Arrays and objects                                                         */
/* ========================================================================== */

static bool enter(jet_odv *v, jet_od_iter *it, char open, jet__err want) {
    it->od = v->od;
    it->done = true;
    it->count = 0;
    it->start = v->pos;
    it->depth = v->depth + 1;
    it->pending = SIZE_MAX;
    if (!jet__odv_here(v)) return false;
    jet_od *od = v->od;
    if (JET_UNLIKELY(od->json[v->pos] != open)) return jet__od_type_error(od, v->pos, want);
    if (JET_UNLIKELY(od->depth >= od->max_depth))
        return jet__od_err(od, JET_E_DEPTH_LIMIT, v->pos);
    /* the kind, for a strict skip of what the caller leaves of it */
    if (JET_LIKELY((od->depth >> 6) < od->kinds_cap)) {
        uint64_t bit = UINT64_C(1) << (od->depth & 63);
        od->kinds[od->depth >> 6] = open == '{' ? od->kinds[od->depth >> 6] | bit
                                                : od->kinds[od->depth >> 6] & ~bit;
    } else if (!jet__od_kinds_set(od, od->depth, open == '{')) {
        return false;
    }
    od->depth++;
    od->pos = jet__od_next(od, v->pos + 1);
    it->done = false;
    return !od->failed;
}

bool jet_odv_arr(jet_odv *v, jet_od_iter *it) { return enter(v, it, '[', JET_E_WANT_ARRAY); }
bool jet_odv_obj(jet_odv *v, jet_od_iter *it) { return enter(v, it, '{', JET_E_WANT_OBJECT); }

/* Leaves the container whose closing bracket is at p. */
static JET_ALWAYS_INLINE bool leave(jet_od_iter *it, size_t p) {
    jet_od *od = it->od;
    od->pos = jet__od_next(od, p + 1);
    od->depth--;
    it->done = true;
    return false;
}

/* jet_od_arr_next's last steps, out of line: the usual step then makes
 * only tail calls and saves no registers. */
static JET_NOINLINE bool arr_leave(jet_od_iter *it, size_t p) { return leave(it, p); }

/* Hands out the iterator's next value, at p (checked), as *elem. */
static JET_ALWAYS_INLINE bool iter_take(jet_od_iter *it, jet_odv *elem, size_t p) {
    jet_od *od = it->od;
    it->count++;
    it->pending = p;
    od->pos = p;
    elem->od = od;
    elem->pos = p;
    elem->depth = it->depth;
    return true;
}

/* The element after a ',', whose next token is p. */
static JET_ALWAYS_INLINE bool arr_after_comma(jet_od_iter *it, jet_odv *elem, size_t p) {
    jet_od *od = it->od;
    if (JET_UNLIKELY(p >= od->len))
        return jet__od_err(od, JET_E_END_IN_ARRAY, od->len);
    char c = od->json[p];
    if (JET_UNLIKELY(jet__gram_not_value(c))) {
        jet__err k = jet__gram_after_comma(od->flags, c, ']');
        return k == JET_E_OK ? arr_leave(it, p) : jet__od_err(od, k, p);
    }
    return iter_take(it, elem, p);
}

/* The same when the token after the ',' at p is not in the comma's word
 * (or that word is read through the window). */
static JET_NOINLINE bool arr_after_comma_far(jet_od_iter *it, jet_odv *elem, size_t p) {
    jet_od *od = it->od;
    return arr_after_comma(it, elem, jet__od_next(od, p + 1)) && !od->failed;
}

/* The step of jet_od_arr_next, the cursor at the iterator's level with
 * nothing pending. */
static JET_ALWAYS_INLINE bool arr_step(jet_od_iter *it, jet_odv *elem) {
    jet_od *od = it->od;
    size_t p = od->pos;
    if (JET_UNLIKELY(p >= od->len))
        return jet__od_err(od, JET_E_END_IN_ARRAY, od->len);
    char c = od->json[p];
    if (c == ']') return arr_leave(it, p);
    if (it->count) {
        if (JET_UNLIKELY(c != ','))
            return jet__od_err(od, JET_E_EXPECTED_ARRAY_SEP, p);
        /* the next token in the comma's word, which the index holds */
        size_t w = (p + 1) >> 6;
        uint64_t bits = JET_LIKELY(w < od->direct) ? od->marks[w] & (~UINT64_C(0) << ((p + 1) & 63)) : 0;
        if (JET_UNLIKELY(!bits)) return arr_after_comma_far(it, elem, p);
        return arr_after_comma(it, elem, (w << 6) + jet__ctz64(bits));
    }
    if (JET_UNLIKELY(jet__gram_not_value(c)))
        return jet__od_err(od, JET_E_EXPECTED_VALUE, p);
    return iter_take(it, elem, p);
}

/* jet_od_arr_next after a settle: the general one. */
static JET_NOINLINE bool arr_next_settled(jet_od_iter *it, jet_odv *elem) {
    /* a window reached by the settle may have failed stage 1 */
    if (!jet__od_settle(it)) return false;
    return arr_step(it, elem) && !it->od->failed;
}

/* jet_od_arr_next when the cursor is not where the step starts: the
 * element returned last was not read, most often a string in one word
 * (skipped here without a call), else the general settle. */
static JET_NOINLINE bool arr_next_pending(jet_od_iter *it, jet_odv *elem) {
    jet_od *od = it->od;
    size_t p = od->pos;
    if (JET_LIKELY(od->depth == it->depth && p < od->len && od->json[p] == '"')) {
        size_t q = jet__od_plain_string_end(od, p);
        if (JET_LIKELY(q != SIZE_MAX)) {
            od->pos = jet__od_next(od, q + 1);
            return arr_step(it, elem) && !od->failed;
        }
    }
    return arr_next_settled(it, elem);
}

bool jet_od_arr_next(jet_od_iter *it, jet_odv *elem) {
    jet_od *od = it->od;
    if (JET_UNLIKELY(it->done || od->failed)) return false;
    /* out of line: the usual step then saves no registers */
    if (od->depth != it->depth || od->pos == it->pending) return arr_next_pending(it, elem);
    return arr_step(it, elem);
}

/* Steps to the next member; *kp receives the key's opening quote. Returns
 * false at the end (the container is left) or on error. */
static JET_ALWAYS_INLINE bool member(jet_od_iter *it, size_t *kp) {
    jet_od *od = it->od;
    size_t p = od->pos;
    if (JET_UNLIKELY(p >= od->len))
        return jet__od_err(od, JET_E_END_IN_OBJECT, od->len);
    char c = od->json[p];
    if (c == '}') return leave(it, p);
    if (it->count) {
        if (JET_UNLIKELY(c != ','))
            return jet__od_err(od, JET_E_EXPECTED_OBJECT_SEP, p);
        p = jet__od_next(od, p + 1);
        if (JET_UNLIKELY(p >= od->len))
            return jet__od_err(od, JET_E_END_IN_OBJECT, od->len);
        c = od->json[p];
        if (JET_UNLIKELY(c != '"')) {
            jet__err k = jet__gram_after_comma(od->flags, c, '}');
            return k == JET_E_OK ? leave(it, p) : jet__od_err(od, k, p);
        }
    } else if (JET_UNLIKELY(c != '"')) {
        return jet__od_err(od, JET_E_EXPECTED_KEY_OR_CLOSE, p);
    }
    *kp = p;
    return true;
}

bool jet_od_obj_next(jet_od_iter *it, jet_str *key, jet_odv *val) {
    jet_od *od = it->od;
    if (JET_UNLIKELY(it->done || od->failed)) return false;
    if (JET_UNLIKELY(!iter_settle(it))) return false;
    size_t kp = 0, vp = 0;
    if (!member(it, &kp)) return false;
    if (!jet__od_key(od, kp, key, &vp)) return false;
    iter_take(it, val, vp);
    return !od->failed;
}

/* Compares the key at quote p (closing quote q) with k[0..n). */
static bool key_equals(jet_od *od, size_t p, size_t q, const char *k, size_t n) {
    size_t raw = q - p - 1;
    if (JET_LIKELY(!jet__od_has_backslash(od, p + 1, q)))
        return raw == n && memcmp(od->json + p + 1, k, n) == 0;
    if (raw < n) return false; /* escapes only shrink */
    jet_str s;
    if (!jet__od_string_body(od, p, q, &s)) return false;
    return s.len == n && memcmp(s.ptr, k, n) == 0;
}

/*
 * Scans members from the cursor for `key`. The loop takes tokens from a
 * local stream (jet_od_toks) and skips values inline: a string is two
 * tokens, another scalar one, a container one bracket walk. Separators are
 * still checked; keys are compared raw (equal lengths only) unless they
 * contain a backslash.
 */
bool jet_od_obj_find(jet_od_iter *it, const char *key, size_t len, jet_odv *val) {
    jet_od *od = it->od;
    if (JET_UNLIKELY(it->done || od->failed)) return false;
    if (JET_UNLIKELY(!iter_settle(it))) return false;
    const char *j = od->json;
    const size_t n = od->len;
    const size_t from = od->pos;
    const uint32_t from_count = it->count;
    uint32_t count = from_count;
    bool wrapped = false;
    jet_od_toks t;
    jet__od_toks_seek(od, &t, from);
    size_t p = jet__od_toks_take(&t, n);
    for (;;) {
        if (JET_UNLIKELY(wrapped && p == from)) {
            /* back where we began: not there; the cursor stays put */
            it->count = from_count;
            od->pos = from;
            return false;
        }
        if (JET_UNLIKELY(p >= n))
            return jet__od_err(od, JET_E_END_IN_OBJECT, n);
        char c = j[p];
        if (c == '}') {
            if (from_count == 0 || wrapped) {
                /* every member seen */
                it->count = count;
                od->pos = p;
                return false;
            }
            /* rescan from the first member up to where we began */
            wrapped = true;
            count = 0;
            jet__od_toks_seek(od, &t, it->start + 1);
            p = jet__od_toks_take(&t, n);
            continue;
        }
        if (count) {
            if (JET_UNLIKELY(c != ','))
                return jet__od_err(od, JET_E_EXPECTED_OBJECT_SEP, p);
            p = jet__od_toks_take(&t, n);
            if (JET_UNLIKELY(p >= n))
                return jet__od_err(od, JET_E_END_IN_OBJECT, n);
            c = j[p];
            if (JET_UNLIKELY(c != '"')) {
                jet__err k = jet__gram_after_comma(od->flags, c, '}');
                if (k == JET_E_OK) continue; /* a trailing comma: the '}' is taken above */
                return jet__od_err(od, k, p);
            }
        } else if (JET_UNLIKELY(c != '"')) {
            return jet__od_err(od, JET_E_EXPECTED_KEY_OR_CLOSE, p);
        }
        size_t q = jet__od_toks_take(&t, n);     /* closing quote (stage 1 saw it) */
        size_t colon = jet__od_toks_take(&t, n);
        size_t v = jet__od_toks_take(&t, n);
        if (JET_UNLIKELY(v >= n || j[colon] != ':')) {
            jet_str k;
            size_t vv;
            jet__od_key(od, p, &k, &vv); /* reports the precise error */
            return jet__od_err(od, JET_E_END_AFTER_COLON, n);
        }
        count++;
        size_t raw = q - p - 1;
        bool eq = false;
        if (raw == len) {
            eq = memcmp(j + p + 1, key, len) == 0 && !jet__od_has_backslash(od, p + 1, q);
        } else if (JET_UNLIKELY(raw > len) && jet__od_has_backslash(od, p + 1, q)) {
            eq = key_equals(od, p, q, key, len);
            if (od->failed) return false;
        }
        if (eq) {
            char vc = j[v];
            if (JET_UNLIKELY(jet__gram_not_value(vc)))
                return jet__od_err(od, JET_E_EXPECTED_VALUE, v);
            it->count = count;
            it->pending = v;
            od->pos = v;
            val->od = od;
            val->pos = v;
            val->depth = it->depth;
            return !od->failed;
        }
        /* skip the value */
        if (!jet__od_toks_skip(od, &t, v, j[v])) return false;
        p = jet__od_toks_take(&t, n);
    }
}

bool jet_od_obj_get(jet_od_iter *it, const char *key, jet_odv *val) {
    size_t n = strlen(key);
    if (jet_od_obj_find(it, key, n, val)) return true;
    if (it->od->failed) return false;
    return jet__od_fail_missing(it->od, it->start, key, n);
}
