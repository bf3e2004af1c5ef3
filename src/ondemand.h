/*
 * ondemand.h — the on-demand cursor's state and the primitives that the
 * typed decoder (bind.c) shares with it (internal).
 *
 * The cursor walks stage 1's structural bitmap: every structural character,
 * every unescaped quote and the first byte of every other token has its bit
 * set, so "the next token after offset p" is one masked load and a count of
 * trailing zeros, and skipping a value is a walk over bits, not bytes.
 *
 * An input of up to two half windows (4 MiB by default) is indexed whole
 * and its words are read directly (`direct`); a larger one is indexed a
 * window at a time (jet__od_load), and every word is read through the
 * window, so the index stays bounded whatever the input's size. *
 * The cursor's files: od_start.c (lifetime, jet_od_start/finish),
 * od_window.c (the index and its windows), od_iter.c (skipping, iterators,
 * key lookup), od_value.c (scalar getters), od_string.c (strings and
 * unescaping), od_error.c (errors and their JSON Pointer).
 */
#ifndef JET_ONDEMAND_H
#define JET_ONDEMAND_H

#include "errors.h"
#include "grammar.h"
#include "internal.h"
#include "num.h"
#include "scan.h"

#define JET_OD_ORDERS 8 /* a power of two */

struct jet_od {
    jet_alloc alloc;
    const char *json;     /* the text read: the input, or `plain` */
    size_t len;
    const char *input;    /* the caller's input (errors' line:column) */
    char *plain;          /* the input with its comments blanked (when the */
    size_t plain_cap;     /* flag allows comments and it has any) */
    /* Stage 1's bitmaps for the window's words (word w at [w & mask]):
     * marks (the structural bitmap), backslashes inside strings, brackets
     * outside strings. Read them through jet__od_mword/_bword/_rword, which
     * bring a word outside the window in (jet__od_load). */
    uint64_t *marks;
    uint64_t *bs;
    uint64_t *br;
    size_t words;         /* words of each bitmap for the whole input */
    size_t direct;        /* words the fast paths index directly: all of them
                           * when one window holds the input, else none */
    size_t win_lo, win_n; /* the window: input words [win_lo, win_lo + win_n) */
    size_t mask;          /* word w's slot: w & mask (a ring of two halves) */
    size_t half;          /* a window is two halves of this many words */
    size_t index_cap;     /* words allocated (all three bitmaps) */
    jet_kernel kernel;    /* stage 1's kernel for this input */
    unsigned char *cps_raw; /* checkpoints (jet_scan_state, 64-aligned inside): */
    size_t cps_n, cps_cap;  /* cps k: stage 1's state at word k * half */
    jet_read_opts opts;   /* the options of jet_od_start (errors found late) */
    char *unesc;          /* unescaped strings: one buffer of at least len */
    size_t unesc_cap, unesc_len;
    jet_arena scratch;    /* overflow of unesc (strings unescaped twice) */
    jet_read_flags flags;
    uint32_t max_depth;
    bool failed;
    size_t pos;           /* offset of the next token to read */
    uint32_t depth;       /* containers entered and not yet left */
    size_t root;          /* offset of the root value */
    jet_error err;
    char *path;           /* the error's JSON Pointer */
    size_t path_cap;
    size_t path_work;     /* bytes the pointer's walks passed over (tests) */
    jet_parser *validator; /* its stack validates (jet__validate): jet_od_validate,
                            * precise stage-1 errors, the precise error of an
                            * invalid input */
    uint64_t *kinds;      /* container kinds, a bit per level (1: object): */
    size_t kinds_cap;     /* error paths, and the strict skip's */
    bool lazy;            /* JET_READ_LAZY: skipping checks brackets only */
    bool err_is_dom;      /* the error recorded is the DOM reader's (jet__od_validate_all) */
    bool bad_window;      /* stage 1 failed in the window being loaded */
    char msg[128];        /* a message naming values (typed decoding) */
    /* Typed decoding's key-order guesses (bind.c), learnt per cursor (a
     * struct's table is shared by threads, a cursor is not): for up to
     * JET_OD_ORDERS hashed tables, by the table's address, seq[m] is the
     * field matched after m others in the last object of that table,
     * declared order until a text shows another. Only guesses: each is
     * confirmed by the key's bytes. */
    struct {
        const void *type;
        uint8_t seq[64];
    } orders[JET_OD_ORDERS];
    bool orders_learnt;   /* an order other than declared has been met */
};

/*
 * Makes input word w (< words) part of the window, running stage 1 over the
 * window that holds it; false when w is past the input or stage 1 found an
 * error there (recorded; the cursor then has no more tokens).
 */
bool jet__od_load(jet_od *od, size_t w);

/* Room for the index's three bitmaps of `words` words each; false with the
 * error recorded. */
bool jet__od_index_reserve(jet_od *od, size_t words);

/* Stage 1 found an error (the DOM reader then says what and where), or the
 * index could not grow (already recorded): the cursor has no tokens from
 * now on. Returns false. */
bool jet__od_stage1_error(jet_od *od);

/* Word w of a bitmap (0: marks, 1: backslashes, 2: brackets) through the
 * window; 0 past the input or after a stage-1 error. */
uint64_t jet__od_word_far(jet_od *od, int map, size_t w);

/* The same with the fast paths inline: the word indexed directly when one
 * window holds the whole input, else at slot w & mask of the ring when it
 * is in the window. */
#define JET_OD_WORD(od, map, index, w)                                          \
    (JET_LIKELY((w) < (od)->direct)                  ? (od)->map[w]             \
     : JET_LIKELY((w) - (od)->win_lo < (od)->win_n) ? (od)->map[(w) & (od)->mask] \
                                                     : jet__od_word_far(od, index, w))
static JET_ALWAYS_INLINE uint64_t jet__od_mword(jet_od *od, size_t w) {
    return JET_OD_WORD(od, marks, 0, w);
}
static JET_ALWAYS_INLINE uint64_t jet__od_bword(jet_od *od, size_t w) {
    return JET_OD_WORD(od, bs, 1, w);
}
static JET_ALWAYS_INLINE uint64_t jet__od_rword(jet_od *od, size_t w) {
    return JET_OD_WORD(od, br, 2, w);
}

/* The token search of jet__od_next through the window (and at the end). */
size_t jet__od_next_far(jet_od *od, size_t off);

/* Offset of the first token at or after `off`; od->len when there is none. */
static JET_ALWAYS_INLINE size_t jet__od_next(jet_od *od, size_t off) {
    size_t w = off >> 6;
    if (JET_UNLIKELY(w >= od->direct)) return jet__od_next_far(od, off);
    uint64_t bits = od->marks[w] & (~UINT64_C(0) << (off & 63));
    while (!bits) {
        if (JET_UNLIKELY(++w >= od->direct)) /* past the last token of a whole index: no call */
            return od->direct == od->words ? od->len : jet__od_next_far(od, w << 6);
        bits = od->marks[w];
    }
    return (w << 6) + jet__ctz64(bits);
}

/*
 * A local token stream for tight loops: `bits` holds the marks of word `w`
 * not yet taken, so taking the next token is a count of trailing zeros and
 * a clear of the lowest bit, with a reload only at word boundaries.
 */
typedef struct jet_od_toks {
    jet_od *od;
    const uint64_t *marks;
    size_t w;
    size_t direct; /* od->direct: words read straight from marks */
    size_t base;   /* w * 64: the offset of the word's first byte */
    uint64_t bits;
} jet_od_toks;

/* Positions the stream so that the next token taken is the first at or
 * after `off`. */
static JET_ALWAYS_INLINE void jet__od_toks_seek(jet_od *od, jet_od_toks *t, size_t off) {
    t->od = od;
    t->marks = od->marks;
    t->direct = od->direct;
    t->w = off >> 6;
    t->base = off & ~(size_t)63;
    t->bits = t->w < od->words ? jet__od_mword(od, t->w) & (~UINT64_C(0) << (off & 63)) : 0;
}

/* Takes the next token's offset; `len` when there is none. (A windowed
 * input's words come through jet__od_mword, whose slow path takes od, not
 * t, so that t can live in registers.) */
static JET_ALWAYS_INLINE size_t jet__od_toks_take(jet_od_toks *t, size_t len) {
    while (JET_UNLIKELY(!t->bits)) {
        t->base += 64;
        if (JET_UNLIKELY(++t->w >= t->direct)) {
            if (t->w >= t->od->words) {
                t->w = t->od->words;
                return len;
            }
            t->bits = jet__od_mword(t->od, t->w); /* through the window */
            continue;
        }
        t->bits = t->marks[t->w];
    }
    size_t p = t->base + jet__ctz64_offset(t->bits);
    t->bits &= t->bits - 1;
    return p;
}

/* Whether a backslash lies in json[a..b). */
static JET_ALWAYS_INLINE bool jet__od_has_backslash(jet_od *od, size_t a, size_t b) {
    if (a >= b) return false;
    size_t wa = a >> 6, wb = (b - 1) >> 6;
    if (JET_LIKELY(wa == wb)) /* the usual short string: one word */
        return ((jet__od_bword(od, wa) >> (a & 63)) &
                (~UINT64_C(0) >> (63 - ((b - 1 - a) & 63)))) != 0;
    uint64_t lo = ~UINT64_C(0) << (a & 63);
    uint64_t hi = ~UINT64_C(0) >> (63 - ((b - 1) & 63));
    if (jet__od_bword(od, wa) & lo) return true;
    for (size_t w = wa + 1; w < wb; w++)
        if (jet__od_bword(od, w)) return true;
    return (jet__od_bword(od, wb) & hi) != 0;
}

/* The same for the string with quotes at p and q, q just taken from t: a
 * string within one word whose backslash word is empty (most strings) needs
 * no range arithmetic. */
static JET_ALWAYS_INLINE bool jet__od_toks_backslash(jet_od *od, const jet_od_toks *t,
                                                     size_t p, size_t q) {
    if (JET_LIKELY(p >= t->base && t->w < t->direct && !od->bs[t->w])) return false;
    return jet__od_has_backslash(od, p + 1, q);
}

/* The closing quote of the string whose opening quote is at p, when both
 * lie in one directly indexed word that holds no backslash (most strings):
 * a load of each bitmap, no range arithmetic. SIZE_MAX otherwise (the
 * caller then takes its general path). */
static JET_ALWAYS_INLINE size_t jet__od_plain_string_end(const jet_od *od, size_t p) {
    size_t w = p >> 6;
    if (JET_LIKELY(w < od->direct && !od->bs[w])) {
        uint64_t after = od->marks[w] & (~UINT64_C(0) << (p & 63) << 1); /* past the quote */
        if (JET_LIKELY(after)) return (w << 6) + jet__ctz64(after);
    }
    return SIZE_MAX;
}

/* Runs the DOM reader over the cursor's input (od_start.c): a full
 * validation, and the source of precise errors for what stage 1 only
 * flags. `stop_when_done` keeps that flag; the cursor reads the whole
 * input. False, with the error recorded, when the input is invalid. */
bool jet__od_validate_all(jet_od *od, const jet_read_opts *opts, bool stop_when_done);
/* Forgets the previous document and error, and takes json[0..len) with
 * opts as the next (jet_od_start's first step; nothing is scanned). */
void jet__od_reset(jet_od *od, const char *json, size_t len, const jet_read_opts *opts);
/* The bytes of input that building error paths walked over since the od
 * was made (test_linear checks that it stays linear in the input). */
size_t jet__od_path_work(const jet_od *od);
/* Records the first error (sticky), of kind `kind` (errors.h) at offset
 * `off`, with its line:column and JSON Pointer; always returns false. */
bool jet__od_err(jet_od *od, jet__err kind, size_t off);
/* The same with the JSON Pointer of the value starting at `value` (for an
 * error met inside it, e.g. at the end of a bad number). */
bool jet__od_err_in(jet_od *od, jet__err kind, size_t off, size_t value);
/* An error with its own code and message (one passed on from the DOM
 * reader, or a schema's). */
bool jet__od_fail(jet_od *od, jet_code code, size_t off, const char *msg);
/* The same, the pointer naming the value at `value`. */
bool jet__od_fail_in(jet_od *od, jet_code code, size_t off, size_t value, const char *msg);
/* The same for a required member `key` missing from the object at
 * `obj_pos`: the path names the member. */
bool jet__od_fail_missing(jet_od *od, size_t obj_pos, const char *key, size_t key_len);

/* Whether the value handle v is where the cursor stands, as it must be to
 * be read (else the error is recorded). */
static JET_ALWAYS_INLINE bool jet__odv_here(const jet_odv *v) {
    jet_od *od = v->od;
    if (JET_UNLIKELY(od->failed)) return false;
    if (JET_UNLIKELY(v->pos != od->pos || v->depth != od->depth)) {
        if (v->pos >= od->len)
            return jet__od_err(od, JET_E_END_BEFORE_VALUE, od->len);
        return jet__od_err(od, JET_E_OUT_OF_ORDER, v->pos);
    }
    if (JET_UNLIKELY(v->pos >= od->len))
        return jet__od_err(od, JET_E_END_BEFORE_VALUE, od->len);
    return true;
}
/* Offset just past the container whose contents start at `off`, `levels`
 * levels deep (1: the innermost); JET_OD_UNCLOSED when the input ends first
 * (brackets are counted, not matched by kind). */
#define JET_OD_UNCLOSED SIZE_MAX
size_t jet__od_close(jet_od *od, size_t off, uint32_t levels);
/* The same with the depth limit: the innermost level is at depth `depth`
 * (its container included); a bracket that would open a container deeper
 * than od->max_depth is the error JET_E_DEPTH_LIMIT (recorded), and the
 * result JET_OD_UNCLOSED. */
size_t jet__od_close_deep(jet_od *od, size_t off, uint32_t levels, uint32_t depth);
/* Records the error behind a JET_OD_UNCLOSED (unless one is recorded
 * already); returns false. */
bool jet__od_close_fail(jet_od *od);
/* Skips what is left of the containers the cursor is in down to depth
 * `base` (strictly, or by brackets under JET_READ_LAZY): the cursor then
 * stands after the last one's closing bracket. */
bool jet__od_close_levels(jet_od *od, uint32_t base);
/* The usual case of jet__od_close_levels, inline (true when it applies; the
 * cursor then stands after the close): one level left and the cursor on
 * its closing bracket. Under JET_READ_LAZY brackets are not matched by
 * kind; strictly the bracket must match and the byte before it must end a
 * value or be the container's open bracket (',' and ':' are tokens of
 * their own and no other token ends with one; whitespace or a control byte
 * there takes the general path, which asks the token before). */
static JET_ALWAYS_INLINE bool jet__od_close_last(jet_od *od, uint32_t base) {
    size_t p = od->pos;
    if (JET_UNLIKELY(od->depth != base + 1 || p >= od->len)) return false;
    char c = od->json[p];
    if (od->lazy) {
        if ((c | 0x20) != '}') return false; /* ']' or '}' */
    } else {
        char b = od->json[p - 1]; /* p > 0: a container is open */
        bool in_obj = (od->kinds[(od->depth - 1) >> 6] >> ((od->depth - 1) & 63)) & 1;
        if (c != (in_obj ? '}' : ']') || b == ',' || b == ':' || (unsigned char)b <= ' ')
            return false;
    }
    od->pos = jet__od_next(od, p + 1);
    od->depth = base;
    return true;
}
/* The offset of the last token before p; SIZE_MAX when there is none. */
size_t jet__od_prev(jet_od *od, size_t p);

/*
 * The strict skip (the default; JET_READ_LAZY skips by brackets): a walk
 * over the structural index checking the grammar as the DOM reader does,
 * the depth limit, escapes, numbers and literals (stage 1 has checked the
 * UTF-8 and control characters). On an error it records the DOM reader's
 * error for the input (the first in document order), so that every reader
 * reports the same. The walk starts at token p, just taken from t, which
 * is (JET_OD_AT_*) a value, the first token inside a container just
 * opened, or the token after a value; `depth` containers are open, whose
 * kinds are od->kinds' bits 0..depth-1, except the innermost one's, which
 * `in_obj` gives (and the walk records, but for the rest of an object
 * below). It returns true once a value ends at depth `base` (<= depth), t
 * then resuming after that value's last token. `keys` not NULL is for the
 * rest of an object only (depth == base + 1, in_obj, at JET_OD_AT_SEP or
 * JET_OD_AT_VALUE); the walk then also stops, returning false with no error
 * and *key_at set, at a key of that object that has an
 * escape, or whose length has its bit in keys->lens (jet_struct.map_lens)
 * and that keys->declared says is declared: typed decoding reports a
 * declared field given twice there. (Asking in the walk, not stopping at
 * every key of a declared key's length, saves an exit and a re-entry.)
 */
#define JET_OD_AT_VALUE 0
#define JET_OD_AT_FIRST 1
#define JET_OD_AT_SEP 2
#define JET_OD_AT_KEY 3 /* after a ',' in an object */
typedef struct jet_od_keys {
    uint64_t lens;
    /* whether key[0..len) (no escape; `end`: how far key may be read) is
     * one the caller declares */
    bool (*declared)(const void *ctx, const char *key, size_t len, const char *end);
    const void *ctx;
} jet_od_keys;
bool jet__od_walk(jet_od *od, jet_od_toks *t, size_t p, int at, uint32_t depth, uint32_t base,
                  bool in_obj, const jet_od_keys *keys, size_t *key_at);
/* The same with `keys` not NULL, without jet__od_walk's test of it (typed
 * decoding's skip of an object's rest); when it returns true, *key_at is
 * the offset of the token after the object (the input's length at its end). */
bool jet__od_walk_keys(jet_od *od, jet_od_toks *t, size_t p, int at, uint32_t depth, uint32_t base,
                       bool in_obj, const jet_od_keys *keys, size_t *key_at);
/* jet__od_walk_keys(od, t, p, at, od->depth, od->depth - 1, true, keys,
 * key_at) for the rest of an object, by a lighter walk where it can. */
bool jet__od_walk_rest(jet_od *od, jet_od_toks *t, size_t p, int at, const jet_od_keys *keys,
                       size_t *key_at);
/* The same for the container value whose first token v was just taken
 * from t, at depth od->depth (jet__od_toks_skip's). */
bool jet__od_walk_value(jet_od *od, jet_od_toks *t, size_t v);
/* Records the kind of the container at depth `level` + 1 (od->kinds bit
 * `level`), growing od->kinds; false on OOM (recorded). */
bool jet__od_kinds_set(jet_od *od, uint32_t level, bool obj);
/* Whether the string body json[a..b) has only valid escapes (no error
 * recorded; od_string.c). */
bool jet__od_escapes_ok(jet_od *od, size_t a, size_t b);
/* Records the DOM reader's error for the input, found invalid at `off` by
 * a strict walk; returns false. */
bool jet__od_invalid(jet_od *od, size_t off);
/* The end of the number or literal at p when it is valid, else SIZE_MAX
 * (the strict skip of a scalar; whether it is glued to what follows is the
 * caller's check); no error recorded. */
size_t jet__od_scalar_end(jet_od *od, size_t p);

/* Skipping the value whose first token, at v (its byte c), was just taken
 * from the stream t. The key lookup (jet_od_obj_find) and typed decoding
 * (bind.c) skip the members they do not want with these. */

/* A scalar: a string's closing quote is the next token (dropped without a
 * branch when it is in the current word); any other scalar has no more. */
static JET_ALWAYS_INLINE void jet__od_toks_skip_scalar(jet_od_toks *t, char c, size_t n) {
    uint64_t str = c == '"';
    if (JET_LIKELY(t->bits)) t->bits &= t->bits - str;
    else if (str) jet__od_toks_take(t, n);
}

/* A container: a walk over the bracket bitmap, after which t resumes at its
 * closing bracket. False (error recorded) when it is not closed or too
 * deep (od->depth containers around it). */
static JET_ALWAYS_INLINE bool jet__od_toks_skip_container(jet_od *od, jet_od_toks *t, size_t v) {
    size_t e = jet__od_close_deep(od, v + 1, 1, od->depth + 1);
    if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
    jet__od_toks_seek(od, t, e);
    return true;
}

static JET_ALWAYS_INLINE bool jet__od_token_end_ok(jet_od *od, size_t e);

/* Any value, first token v (byte c) just taken from t, at depth od->depth
 * (a member of the container the cursor is in): by brackets under
 * JET_READ_LAZY, else by the strict walk; a string without escapes costs
 * its closing quote either way. False with the error recorded. */
static JET_ALWAYS_INLINE bool jet__od_toks_skip(jet_od *od, jet_od_toks *t, size_t v, char c) {
    if (c == '"') {
        size_t q = jet__od_toks_take(t, od->len);
        if (JET_LIKELY(od->lazy || !jet__od_toks_backslash(od, t, v, q))) return true;
        return jet__od_escapes_ok(od, v + 1, q) || jet__od_invalid(od, v);
    }
    if (od->lazy) {
        if (JET_UNLIKELY(c == ',' || c == ':' || c == ']' || c == '}'))
            return jet__od_err(od, JET_E_EXPECTED_VALUE, v);
        if ((c | 0x20) != '{') return true; /* neither '{' nor '[' */
        return jet__od_toks_skip_container(od, t, v);
    }
    if ((c | 0x20) != '{') {
        /* not glued: the next token starts where it ends (else the byte
         * there is checked) */
        size_t e = jet__od_scalar_end(od, v);
        if (JET_LIKELY(e != SIZE_MAX) &&
            ((t->bits && t->base + jet__ctz64_offset(t->bits) == e) || jet__od_token_end_ok(od, e)))
            return true;
        return jet__od_invalid(od, v);
    }
    /* the walk gets a copy: t's own address never leaves the caller, which
     * can then keep its stream in registers (typed decoding: 2-4% fewer
     * instructions on small documents) */
    jet_od_toks w = *t;
    bool ok = jet__od_walk_value(od, &w, v);
    *t = w;
    return ok;
}

/* Reads the string whose opening quote is at `p` (the cursor's position):
 * a view or an unescaped copy in the scratch. Moves the cursor past it. */
bool jet__od_string(jet_od *od, size_t p, jet_str *out);
/* The body of the string whose quotes are at p and q into *out, unescaped
 * into the scratch when it holds a backslash; does not move the cursor. */
bool jet__od_string_body(jet_od *od, size_t p, size_t q, jet_str *out);
/* Unescapes the string body s[0..n) into dst (room for n bytes); false on a
 * bad escape, recorded as the cursor's error when `record`. With dst NULL
 * it only checks the escapes (out_len unused). */
bool jet__od_unescape(jet_od *od, const char *s, size_t n, char *dst, size_t *out_len,
                      bool record);
/* The key at `p` (an opening quote) into *key, and the offset of its value
 * (after the ':') into *val. Does not move the cursor. */
bool jet__od_key(jet_od *od, size_t p, jet_str *key, size_t *val);
/* Checks the scalar (number or literal) at p as the DOM reader does, with
 * the same error when it is malformed; a byte glued to its end is error
 * `glued` (the separator the context expects). *end: where it stops. */
bool jet__od_check_scalar(jet_od *od, size_t p, size_t *end, jet__err glued);
/* The error of a value at p that is not of the type wanted: its own syntax
 * error when it is malformed, else `want` (JET_ERR_TYPE). Returns false. */
bool jet__od_type_error(jet_od *od, size_t p, jet__err want);
/* The error of a byte glued to a scalar the cursor reads: trailing content
 * at the root, else the separator its container wants (found when the error
 * is recorded: JET_E_AFTER_VALUE stands for it until then). */
static JET_ALWAYS_INLINE jet__err jet__od_glued(const jet_od *od) {
    return od->depth ? JET_E_AFTER_VALUE : JET_E_TRAILING_CONTENT;
}
/* Skips the value at the cursor. */
bool jet__od_skip(jet_od *od);
/* Brings the cursor back to iterator `it`'s level: finishes a child the
 * caller entered, or skips the value last returned when it was not read
 * (the cursor then still stands on its first byte, which no separator
 * shares). */
bool jet__od_settle(jet_od_iter *it);
/* Checks that the scalar token ending at `e` is not glued to more text
 * ("12x", "truex"): the next byte is whitespace or starts a token. */
static JET_ALWAYS_INLINE bool jet__od_token_end_ok(jet_od *od, size_t e) {
    if (e >= od->len) return true;
    if (jet__gram_blank(od->json[e])) return true;
    return (jet__od_mword(od, e >> 6) >> (e & 63)) & 1;
}

/*
 * Plain integers (ids, counts): an optional '-' and up to 19 digits with no
 * fraction or exponent, read as whole words when at least 32 bytes remain.
 * Returns the end, or NULL to take the general path (which also reports
 * every error).
 */
static JET_ALWAYS_INLINE const char *jet__od_fast_int(const char *p, const char *end, uint64_t *mag,
                                              bool *neg) {
#ifdef JET__NUM_INLINE
    if (JET_UNLIKELY(end - p < 32)) return NULL;
    bool ng = *p == '-';
    p += ng;
    uint64_t t = jet__load_le64(p) - JET_SWAR_ZEROS;
    uint64_t bad = jet__swar_nondigits(t);
    /* a digit first; "0" not followed by a digit */
    if (JET_UNLIKELY((bad & 0x80) || ((t & 0xFF) == 0 && !(bad & 0x8000)))) return NULL;
    uint64_t w;
    const char *e;
    if (bad) {
        unsigned n = jet__ctz64(bad) >> 3;
        w = jet__swar_digits8(t << (64 - 8 * n));
        e = p + n;
    } else {
        uint64_t t1 = jet__load_le64(p + 8) - JET_SWAR_ZEROS;
        uint64_t b1 = jet__swar_nondigits(t1);
        if (b1) {
            unsigned n1 = jet__ctz64(b1) >> 3;
            w = jet__swar_digits8(t) * jet__pow10_u64[n1] + (n1 ? jet__swar_digits8((t1 << 1) << (63 - 8 * n1)) : 0);
            e = p + 8 + n1;
        } else {
            w = jet__swar_digits8(t) * 100000000u + jet__swar_digits8(t1);
            e = p + 16;
            for (int k = 0; k < 3; k++) {
                unsigned d = (unsigned char)(*e - '0');
                if (d > 9) break;
                w = w * 10 + d;
                e++;
            }
            if ((unsigned char)(*e - '0') <= 9) return NULL; /* 20 digits or more */
        }
    }
    char c = *e;
    if (JET_UNLIKELY(c == '.' || (c | 0x20) == 'e')) return NULL;
    *mag = w;
    *neg = ng;
    return e;
#else
    /* set although unread (NULL is returned): gcc's -Wmaybe-uninitialized
     * cannot see that in the builds without the SWAR path (s390x, i686) */
    (void)p;
    (void)end;
    *mag = 0;
    *neg = false;
    return NULL;
#endif
}

/* The string at quote p (the cursor's position) when it has no escape and
 * needs no UTF-8 check: a view, and the cursor moves past it. Otherwise the
 * general jet__od_string. */
static JET_ALWAYS_INLINE bool jet__od_string_fast(jet_od *od, size_t p, jet_str *out) {
    size_t q = jet__od_next(od, p + 1);
    if (JET_LIKELY(q < od->len && !jet__od_has_backslash(od, p + 1, q))) {
        out->ptr = od->json + p + 1;
        out->len = q - p - 1;
        od->pos = jet__od_next(od, q + 1);
        return true;
    }
    return jet__od_string(od, p, out);
}

#endif
