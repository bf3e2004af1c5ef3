/*
 * od_walk.c — the cursor's strict skip (jet.h section 12): what the cursor
 * and typed decoding skip is checked as the DOM reader checks it, by a walk
 * over the tokens of the structural index stage 1 has already built (no
 * second pass over the bytes). A skipped string costs its two quotes (and
 * a look at its escapes when the backslash bitmap has one), a number or a
 * literal a check of its few bytes, a container one bit per level in
 * od->kinds (or, for the containers typed decoding skips, a call a level
 * of the light walk). JET_READ_LAZY skips by brackets instead (od_iter.c).
 */
#include "ondemand.h"

#include "bits.h"
#include "grammar.h"
#include "num.h"

#include <string.h>

bool jet__od_kinds_set(jet_od *od, uint32_t level, bool obj) {
    size_t w = level >> 6;
    if (JET_UNLIKELY(w >= od->kinds_cap)) {
        size_t cap = od->kinds_cap ? od->kinds_cap * 2 : 4;
        while (cap <= w) cap *= 2;
        uint64_t *k = (uint64_t *)jet__realloc(&od->alloc, od->kinds, od->kinds_cap * sizeof *k,
                                               cap * sizeof *k);
        if (!k) return jet__od_err(od, JET_E_MEMORY, od->pos);
        od->kinds = k;
        od->kinds_cap = cap;
    }
    uint64_t b = UINT64_C(1) << (level & 63);
    od->kinds[w] = obj ? (od->kinds[w] | b) : (od->kinds[w] & ~b);
    return true;
}

bool jet__od_invalid(jet_od *od, size_t off) {
    if (od->failed) return false;
    /* the DOM reader says what the input's first error is; should it
     * accept (it never does where the walk rejects), the walk's verdict */
    if (!jet__od_validate_all(od, &od->opts, false)) return false;
    return jet__od_err(od, JET_E_INVALID_JSON, off);
}

/* Digits from json[i]: the offset of the first non-digit (or n). */
static JET_ALWAYS_INLINE size_t walk_digits(const char *j, size_t i, size_t n) {
    while (n - i >= 8) {
        unsigned run = jet__swar_digit_run(jet__load_le64(j + i) - JET_SWAR_ZEROS);
        i += run;
        if (run < 8) return i;
    }
    while (i < n && jet__is_digit(j[i])) i++;
    return i;
}

/* The end of the number or literal at p when it is one the DOM reader
 * accepts, else SIZE_MAX; whether it is glued to the next token is the
 * caller's check. Plain numbers (no exponent, an integer part that cannot
 * overflow a double) by their grammar alone; the others, NaN and Infinity
 * under their flag, through the number parser, whose range check the DOM
 * reader applies. */
static JET_NOINLINE size_t walk_scalar_parse(jet_od *od, size_t p);

static JET_ALWAYS_INLINE size_t walk_scalar_end(jet_od *od, size_t p) {
    const char *j = od->json;
    const size_t n = od->len;
    if (JET_LIKELY(n - p >= 5)) {
        /* the literals as a word (a bad one fails as a number below) */
        uint32_t w4 = jet__load_le32(j + p);
        if (w4 == jet__load_le32("true") || w4 == jet__load_le32("null")) return p + 4;
        if (w4 == jet__load_le32("fals") && j[p + 4] == 'e') return p + 5;
    } else if (n - p == 4) {
        uint32_t w4 = jet__load_le32(j + p);
        if (w4 == jet__load_le32("true") || w4 == jet__load_le32("null")) return p + 4;
    }
    char c = j[p];
    size_t i = p + (c == '-');
    if (JET_UNLIKELY(i >= n)) return SIZE_MAX;
    if (j[i] == '0') {
        i++;
    } else if (JET_LIKELY(jet__is_digit(j[i]))) {
        i = walk_digits(j, i + 1, n);
        if (JET_UNLIKELY(i - p > 300)) goto parse; /* may overflow a double */
    } else {
        goto parse; /* not a number, or NaN and Infinity */
    }
    if (i < n && j[i] == '.') {
        size_t f = i + 1;
        i = walk_digits(j, f, n);
        if (JET_UNLIKELY(i == f)) return SIZE_MAX;
    }
    if (JET_UNLIKELY(i < n && (j[i] | 0x20) == 'e')) goto parse;
    return i;
parse:
    return walk_scalar_parse(od, p);
}

/* The numbers the grammar alone cannot judge (an exponent, a long integer
 * part, NaN and Infinity): through the number parser. */
static JET_NOINLINE size_t walk_scalar_parse(jet_od *od, size_t p) {
    const char *j = od->json;
    const size_t n = od->len;
    char c = j[p];
    if (!jet__gram_value_start(c, (od->flags & JET_READ_ALLOW_NAN_INF) != 0)) return SIZE_MAX;
    jet_num num;
    jet_code code = JET_OK;
    const char *err_at = j + p;
    jet_read_flags f = od->flags & (JET_READ_ALLOW_NAN_INF | JET_READ_BIGNUM_AS_RAW | JET_READ_NUMBER_AS_RAW);
    const char *end = jet_num_parse(j + p, j + n, f, &num, &code, &err_at);
    return end ? (size_t)(end - j) : SIZE_MAX;
}

size_t jet__od_scalar_end(jet_od *od, size_t p) { return walk_scalar_end(od, p); }

/* The kind of the container at depth d (d >= 1): 1 for an object. */
static JET_ALWAYS_INLINE bool walk_kind(const jet_od *od, uint32_t d) {
    return (od->kinds[(d - 1) >> 6] >> ((d - 1) & 63)) & 1;
}

/* Takes the next token into p (jet__od_toks_take on the walk's local
 * stream); the input's end is the walk's error, so no token needs a bounds
 * check of its own. */
#define WALK_TAKE(p)                                                                \
    do {                                                                            \
        while (JET_UNLIKELY(!bits)) {                                               \
            tb += 64;                                                               \
            if (JET_UNLIKELY(++w >= direct)) {                                      \
                if (w >= od->words) goto fail_end;                                  \
                bits = jet__od_mword(od, w); /* through the window */               \
                continue;                                                           \
            }                                                                       \
            bits = marks[w];                                                        \
        }                                                                           \
        (p) = tb + jet__ctz64_offset(bits);                                         \
        bits &= bits - 1;                                                           \
    } while (0)

/* The stream's state back into t, where the walk ends or stops. */
#define WALK_SAVE()                                                                 \
    do {                                                                            \
        t->bits = bits;                                                             \
        t->w = w;                                                                   \
        t->base = tb;                                                               \
    } while (0)

/* After a key's closing quote: its ':', then the value's first token into p. */
#define WALK_COLON_VALUE(p)                                                         \
    do {                                                                            \
        size_t colon_;                                                              \
        WALK_TAKE(colon_);                                                          \
        if (JET_UNLIKELY(j[colon_] != ':')) {                                       \
            bad = colon_;                                                           \
            goto fail;                                                              \
        }                                                                           \
        WALK_TAKE(p);                                                               \
    } while (0)

/* After a number or literal that ends at e: the next token into p, not glued
 * to it (it starts at e, or whitespace follows the scalar, and then no
 * unmarked byte can before the next token). */
#define WALK_AFTER_SCALAR(e, p)                                                     \
    do {                                                                            \
        WALK_TAKE(p);                                                               \
        if (JET_UNLIKELY((p) != (e))) {                                             \
            char g_ = j[e];                                                         \
            if (!jet__gram_blank(g_)) {                                             \
                bad = (e);                                                          \
                goto fail;                                                          \
            }                                                                       \
        }                                                                           \
    } while (0)

/* Records the kind of the container at depth `level` + 1 (inline when the
 * bits have room). */
static JET_ALWAYS_INLINE bool walk_kind_set(jet_od *od, uint32_t level, bool obj) {
    if (JET_UNLIKELY((level >> 6) >= od->kinds_cap)) return jet__od_kinds_set(od, level, obj);
    uint64_t bit = UINT64_C(1) << (level & 63);
    od->kinds[level >> 6] = obj ? od->kinds[level >> 6] | bit : od->kinds[level >> 6] & ~bit;
    return true;
}

/* The walk proper, on a token stream of its own (kept in registers). With
 * keys (then depth == base + 1 and in_obj: the rest of an object) the
 * object's own level has a loop of its own: every key there tested, its
 * separators those of an object, its kind never stored nor read; a
 * container value there is walked by the general loop with base one
 * deeper, which comes back to that loop when the value ends. */
static JET_ALWAYS_INLINE bool walk(jet_od *od, jet_od_toks *t, size_t p, int at, uint32_t depth,
                                   uint32_t base, bool in_obj, const jet_od_keys *keys,
                                   size_t *key_at) {
    const char *j = od->json;
    const size_t n = od->len;
    const uint64_t *marks = t->marks;
    const size_t direct = t->direct;
    uint64_t bits = t->bits;
    size_t w = t->w, tb = t->base;
    size_t bad;
    char c;
    if (JET_UNLIKELY(p >= n)) goto fail_end;
    if (keys) {
        const uint64_t key_lens = keys->lens;
        base = depth; /* the general loop: a value at the object's level */
        if (at == JET_OD_AT_VALUE) goto own_value;
        for (;;) {
            /* the token after a member's value */
            c = j[p];
            if (c == ',') {
                WALK_TAKE(p);
            } else if (JET_LIKELY(c == '}')) {
                goto own_close;
            } else {
                bad = p;
                goto fail;
            }
            /* a member's key at p, its ':' and its value */
            if (JET_UNLIKELY(j[p] != '"')) {
                if ((od->flags & JET_READ_ALLOW_TRAILING_COMMAS) && j[p] == '}') goto own_close;
                bad = p;
                goto fail;
            }
            {
                size_t q;
                WALK_TAKE(q);
                if (JET_UNLIKELY(key_lens) &&
                    ((((key_lens >> (q - p - 1 < 63 ? q - p - 1 : 63)) & 1) &&
                      keys->declared(keys->ctx, j + p + 1, q - p - 1, j + n)) ||
                     ((p < tb || w >= direct || od->bs[w]) && jet__od_has_backslash(od, p + 1, q)))) {
                    *key_at = p; /* a key the caller looks at */
                    WALK_SAVE();
                    return false;
                }
                WALK_COLON_VALUE(p);
            }
        own_value:
            c = j[p];
            if (c == '"') {
                size_t q;
                WALK_TAKE(q); /* its escapes: once for the whole walk */
                (void)q;
                WALK_TAKE(p);
            } else if (c == '{' || c == '[') {
                goto value; /* back at own_after when it ends */
            } else {
                size_t e = walk_scalar_end(od, p);
                if (JET_UNLIKELY(e == SIZE_MAX)) {
                    bad = p;
                    goto fail;
                }
                WALK_AFTER_SCALAR(e, p);
            }
            continue;
        own_after:
            WALK_TAKE(p);
        }
    own_close:
        /* the object closed at p */
        WALK_SAVE();
        return true;
    }
    /* the innermost level's kind, read again when a container in it closes */
    if (depth > base && !walk_kind_set(od, depth - 1, in_obj)) return false;
    if (at == JET_OD_AT_FIRST) goto first;
    if (at == JET_OD_AT_SEP) goto sep;
    if (at == JET_OD_AT_KEY) goto key;
    for (;;) {
        /* a value at p */
        c = j[p];
    value:
        if (c == '"') {
            size_t q;
            WALK_TAKE(q); /* its escapes: once for the whole walk */
            (void)q;
        } else if (c == '{' || c == '[') {
            if (JET_UNLIKELY(depth >= od->max_depth)) {
                bad = p;
                goto fail;
            }
            WALK_TAKE(p);
            /* an empty one ends here: no kind to record */
            if (j[p] == (char)(c + 2)) goto after;
            in_obj = c == '{';
            if (!walk_kind_set(od, depth, in_obj)) return false;
            depth++;
            if (!in_obj) continue;
            goto key;
        first:
            /* the first token inside a container */
            if (j[p] == (in_obj ? '}' : ']')) goto close;
            if (!in_obj) continue;
            goto key;
        } else {
            /* a number or literal, not glued to what follows: the next
             * token starts where it ends, or whitespace follows it (and
             * then no unmarked byte can before the next token) */
            size_t e = walk_scalar_end(od, p);
            if (JET_UNLIKELY(e == SIZE_MAX)) {
                /* an array's close after a ',' */
                if ((od->flags & JET_READ_ALLOW_TRAILING_COMMAS) && c == ']' && !in_obj && depth > base)
                    goto close;
                bad = p;
                goto fail;
            }
            if (depth == base) {
                if (JET_UNLIKELY(!jet__od_token_end_ok(od, e))) {
                    bad = e;
                    goto fail;
                }
                goto done;
            }
            WALK_AFTER_SCALAR(e, p);
            goto sep;
        }
    after:
        /* a value ended */
        if (depth == base) {
            if (keys) goto own_after;
        done:
            WALK_SAVE();
            return true;
        }
        WALK_TAKE(p);
    sep:
        c = j[p];
        if (c == ',') {
            WALK_TAKE(p); /* (a trailing comma's close: found where it fails) */
            if (!in_obj) continue;
            goto key;
        }
        if (JET_UNLIKELY(c != (in_obj ? '}' : ']'))) {
            bad = p;
            goto fail;
        }
    close:
        /* the container closed at p */
        depth--;
        if (depth > base) in_obj = walk_kind(od, depth);
        goto after;
    key:
        /* a member's key at p, its ':' and its value */
        if (JET_UNLIKELY(j[p] != '"')) {
            if ((od->flags & JET_READ_ALLOW_TRAILING_COMMAS) && j[p] == '}')
                goto close; /* after a ',' */
            bad = p;
            goto fail;
        }
        {
            size_t q;
            WALK_TAKE(q);
            (void)q;
            WALK_COLON_VALUE(p);
        }
    }
fail_end:
    bad = n;
fail:
    return jet__od_invalid(od, bad);
}

/* The first backslash in json[a..b), or b: a span the walk passed, often
 * many words long, whose words are read without the window's checks when
 * the index holds them directly. */
static JET_ALWAYS_INLINE size_t walk_span_backslash(jet_od *od, size_t a, size_t b) {
    if (a >= b) return b;
    size_t w = a >> 6, wb = (b - 1) >> 6;
    if (wb >= od->direct) return jet__od_has_backslash(od, a, b) ? a : b;
    const uint64_t *bs = od->bs;
    uint64_t m = bs[w] & (~UINT64_C(0) << (a & 63));
    while (!m) {
        if (++w > wb) return b;
        m = bs[w];
    }
    size_t k = (w << 6) + jet__ctz64_offset(m);
    return k < b ? k : b;
}

/* The walk, then the escapes of every string walked, in one pass over the
 * backslash bitmap from p to the next token (or to the key stopped at):
 * every backslash there is in a string, and an escape never ends one. */
static JET_ALWAYS_INLINE bool walk_checked(jet_od *od, jet_od_toks *t, size_t p, int at, uint32_t depth,
                                           uint32_t base, bool in_obj, const jet_od_keys *keys,
                                           size_t *key_at) {
    bool ok = walk(od, t, p, at, depth, base, in_obj, keys, key_at);
    if (!ok && (od->failed || !key_at)) return false;
    jet_od_toks next = *t;
    size_t end = ok ? jet__od_toks_take(&next, od->len) : *key_at;
    if (ok && key_at) *key_at = end; /* the keyed walk's caller's next token */
    size_t bsl = walk_span_backslash(od, p, end);
    if (JET_UNLIKELY(bsl < end) && !jet__od_escapes_ok(od, bsl, end))
        return jet__od_invalid(od, p);
    return ok;
}

/* The walk compiled twice, each copy with its escape pass in the same
 * frame (no call between them): the usual one, which stops at no key,
 * without the test at every key, and typed decoding's. */
bool jet__od_walk_keys(jet_od *od, jet_od_toks *t, size_t p, int at, uint32_t depth, uint32_t base,
                       bool in_obj, const jet_od_keys *keys, size_t *key_at) {
    return walk_checked(od, t, p, at, depth, base, in_obj, keys, key_at);
}

bool jet__od_walk(jet_od *od, jet_od_toks *t, size_t p, int at, uint32_t depth, uint32_t base,
                  bool in_obj, const jet_od_keys *keys, size_t *key_at) {
    if (JET_UNLIKELY(keys != NULL)) return jet__od_walk_keys(od, t, p, at, depth, base, in_obj, keys, key_at);
    return walk_checked(od, t, p, at, depth, base, in_obj, NULL, NULL);
}

/* A light copy of the walk for typed decoding's skipped containers (most
 * are small: twitter's "metadata", users' "entities"): a container's kind
 * is where its code runs, one call a level, so nothing is stored in
 * od->kinds, and it has neither the walk's entry states nor its error
 * paths. It stops (false, no error recorded) at anything but valid JSON
 * without trailing commas, and deeper than `room` more levels; the walk
 * then judges the whole value again. It takes tokens from the position in
 * *s (t gives the bitmap) and leaves it after the container's close. */
typedef struct walk_pos {
    uint64_t bits;
    size_t w, base;
    size_t close; /* the last container's closing bracket */
} walk_pos;

static bool walk_light_obj(jet_od *od, const jet_od_toks *t, walk_pos *s, uint32_t room);
static bool walk_light_arr(jet_od *od, const jet_od_toks *t, walk_pos *s, uint32_t room);

/* One level of the light walk, compiled for each kind (obj constant). */
static JET_ALWAYS_INLINE bool walk_light_level(jet_od *od, const jet_od_toks *t, walk_pos *s, bool obj,
                                               uint32_t room) {
    const char *j = od->json;
    const uint64_t *marks = t->marks;
    const size_t direct = t->direct;
    uint64_t bits = s->bits;
    size_t w = s->w, tb = s->base;
    const char close = obj ? '}' : ']';
    size_t p, q;
    WALK_TAKE(p);
    if (j[p] == close) goto closed;
    for (;;) {
        if (obj) {
            /* a member's key at p, its ':' */
            if (JET_UNLIKELY(j[p] != '"')) return false;
            WALK_TAKE(q);
            WALK_TAKE(q);
            if (JET_UNLIKELY(j[q] != ':')) return false;
            WALK_TAKE(p);
        }
        char c = j[p];
        if (c == '"') {
            WALK_TAKE(q);
            WALK_TAKE(p);
        } else if ((c | 0x20) == '{') {
            if (JET_UNLIKELY(room == 0)) return false; /* the depth limit */
            WALK_TAKE(q);
            if (j[q] == (char)(c + 2)) { /* an empty one */
                WALK_TAKE(p);
            } else {
                /* the token after the open bracket given back */
                s->bits = bits | UINT64_C(1) << (q - tb);
                s->w = w;
                s->base = tb;
                if (!(c == '{' ? walk_light_obj(od, t, s, room - 1) : walk_light_arr(od, t, s, room - 1)))
                    return false;
                bits = s->bits;
                w = s->w;
                tb = s->base;
                WALK_TAKE(p);
            }
        } else {
            size_t e = walk_scalar_end(od, p);
            if (JET_UNLIKELY(e == SIZE_MAX)) return false;
            WALK_TAKE(p);
            if (p != e && !jet__gram_blank(j[e])) return false;
        }
        /* the token after a value */
        if (j[p] == ',') {
            WALK_TAKE(p);
            continue;
        }
        if (JET_LIKELY(j[p] == close)) break;
        return false;
    }
closed:
    s->bits = bits;
    s->w = w;
    s->base = tb;
    s->close = p;
    return true;
fail_end:
    return false;
}

static bool walk_light_obj(jet_od *od, const jet_od_toks *t, walk_pos *s, uint32_t room) {
    return walk_light_level(od, t, s, true, room);
}
static bool walk_light_arr(jet_od *od, const jet_od_toks *t, walk_pos *s, uint32_t room) {
    return walk_light_level(od, t, s, false, room);
}

/* A container value (first token v, just taken from t) at depth
 * od->depth: the strict skip of jet__od_toks_skip, by the light walk, then
 * the escapes of the strings it passed in one pass; by the walk when the
 * light one stops. */
bool jet__od_walk_value(jet_od *od, jet_od_toks *t, size_t v) {
    if (JET_LIKELY(od->depth < od->max_depth)) {
        uint32_t room = od->max_depth - od->depth - 1;
        walk_pos s = {t->bits, t->w, t->base, 0};
        room = room < 32 ? room : 32;
        /* the first level inline */
        if (od->json[v] == '{' ? walk_light_level(od, t, &s, true, room)
                               : walk_light_level(od, t, &s, false, room)) {
            size_t bsl = walk_span_backslash(od, v, s.close);
            if (JET_UNLIKELY(bsl < s.close) && !jet__od_escapes_ok(od, bsl, s.close))
                return jet__od_invalid(od, v);
            t->bits = s.bits;
            t->w = s.w;
            t->base = s.base;
            return true;
        }
        if (od->failed) return false;
    }
    return jet__od_walk(od, t, v, JET_OD_AT_VALUE, od->depth, od->depth, false, NULL, NULL);
}

/* Takes the next token into p for the rest walk below, which reads only
 * directly indexed words: past them (a window, the input's end) it hands
 * over to the keyed walk. */
#define REST_TAKE(p)                                                                \
    do {                                                                            \
        while (JET_UNLIKELY(!bits)) {                                               \
            tb += 64;                                                               \
            if (JET_UNLIKELY(++w >= direct)) goto general;                          \
            bits = marks[w];                                                        \
        }                                                                           \
        (p) = tb + jet__ctz64_offset(bits);                                         \
        bits &= bits - 1;                                                           \
    } while (0)

/* A value's glue check: the token after the scalar that ends at e starts at
 * p, or whitespace follows the scalar. */
#define REST_GLUED(e, p) ((p) != (e) && !jet__gram_blank(j[e]))

/* The rest walk's end at `end` (the token after the object when `whole`,
 * else the key it stopped at): that offset for the caller, then the escapes
 * of the span passed, as walk_checked checks them. Returns `whole`, or
 * false on a bad escape (recorded). */
static JET_ALWAYS_INLINE bool rest_end(jet_od *od, size_t from, size_t end, size_t *key_at, bool whole) {
    *key_at = end;
    size_t bsl = walk_span_backslash(od, from, end);
    if (JET_UNLIKELY(bsl < end) && !jet__od_escapes_ok(od, bsl, end)) return jet__od_invalid(od, from);
    return whole;
}

/* jet__od_walk_keys for the usual rest of an object, in one frame: the
 * object's own members by one loop, a container value by another (the
 * kinds of up to 64 levels in a register, nothing stored in od->kinds),
 * then the escapes of the span passed by one pass over the backslash
 * bitmap, as walk_checked does. At anything else (a bad token, a trailing
 * comma, the depth limit, a word not directly indexed) it hands the whole
 * rest, from p, to jet__od_walk_keys, so that every verdict and error is
 * the keyed walk's. */
bool jet__od_walk_rest(jet_od *od, jet_od_toks *t, size_t p, int at, const jet_od_keys *keys,
                       size_t *key_at) {
    const char *j = od->json;
    const uint64_t *marks = t->marks;
    const size_t direct = t->direct;
    uint64_t bits = t->bits;
    size_t w = t->w, tb = t->base;
    uint64_t kinds; /* bit i: the container i + 1 levels up is an object */
    uint32_t open;  /* containers open inside the object */
    size_t q, end;
    char c;
    const size_t from = p;
    if (JET_UNLIKELY(w >= direct || p >= od->len)) goto general;
    if (at == JET_OD_AT_VALUE) goto value;
    for (;;) {
        /* the token after a member's value */
        if (JET_UNLIKELY(j[p] != ',')) {
            if (JET_LIKELY(j[p] == '}')) break;
            goto general;
        }
        REST_TAKE(p);
        /* a member's key at p, its ':' and its value */
        if (JET_UNLIKELY(j[p] != '"')) goto general;
        REST_TAKE(q);
        if (JET_UNLIKELY(keys->lens) &&
            ((((keys->lens >> (q - p - 1 < 63 ? q - p - 1 : 63)) & 1) &&
              keys->declared(keys->ctx, j + p + 1, q - p - 1, j + od->len)) ||
             ((p < tb || od->bs[w]) && jet__od_has_backslash(od, p + 1, q)))) {
            end = p; /* a key the caller looks at (its closing quote taken) */
            goto stop;
        }
        REST_TAKE(q);
        if (JET_UNLIKELY(j[q] != ':')) goto general;
        REST_TAKE(p);
    value:
        c = j[p];
        if (c == '"') {
            REST_TAKE(q);
            REST_TAKE(p);
        } else if ((c | 0x20) == '{') {
            if (JET_UNLIKELY(od->depth >= od->max_depth)) goto general;
            REST_TAKE(p);
            if (j[p] == (char)(c + 2)) { /* an empty one */
                REST_TAKE(p);
                continue;
            }
            kinds = c == '{';
            open = 1;
            if (c == '{') goto inner_key;
            /* a value inside a container value at p */
            for (;;) {
                c = j[p];
                if (c == '"') {
                    REST_TAKE(q);
                    REST_TAKE(p);
                } else if ((c | 0x20) == '{') {
                    if (JET_UNLIKELY(od->depth + open >= od->max_depth || open >= 64)) goto general;
                    REST_TAKE(p);
                    if (j[p] == (char)(c + 2)) { /* an empty one */
                        REST_TAKE(p);
                    } else {
                        kinds = kinds << 1 | (c == '{');
                        open++;
                        if (c == '{') goto inner_key;
                        continue;
                    }
                } else {
                    size_t e = walk_scalar_end(od, p);
                    if (JET_UNLIKELY(e == SIZE_MAX)) goto general;
                    REST_TAKE(p);
                    if (JET_UNLIKELY(REST_GLUED(e, p))) goto general;
                }
                /* the token after it */
                while (j[p] != ',') {
                    if (JET_UNLIKELY(j[p] != ((kinds & 1) ? '}' : ']'))) goto general;
                    REST_TAKE(p);
                    kinds >>= 1;
                    if (--open == 0) goto closed;
                }
                REST_TAKE(p);
                if (!(kinds & 1)) continue;
            inner_key:
                /* a key inside, its ':' */
                if (JET_UNLIKELY(j[p] != '"')) goto general;
                REST_TAKE(q);
                REST_TAKE(q);
                if (JET_UNLIKELY(j[q] != ':')) goto general;
                REST_TAKE(p);
            }
        closed:;
        } else {
            size_t e = walk_scalar_end(od, p);
            if (JET_UNLIKELY(e == SIZE_MAX)) goto general;
            REST_TAKE(p);
            if (JET_UNLIKELY(REST_GLUED(e, p))) goto general;
        }
    }
    /* the object closed at p: the token after it for the caller */
    t->bits = bits;
    t->w = w;
    t->base = tb;
    if (JET_LIKELY(bits)) {
        end = tb + jet__ctz64_offset(bits);
    } else {
        jet_od_toks next = *t;
        end = jet__od_toks_take(&next, od->len);
    }
    return rest_end(od, from, end, key_at, true);
stop:
    t->bits = bits;
    t->w = w;
    t->base = tb;
    return rest_end(od, from, end, key_at, false);
general:
    return jet__od_walk_keys(od, t, from, at, od->depth, od->depth - 1, true, keys, key_at);
}
