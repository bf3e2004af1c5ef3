/*
 * od_start.c — the on-demand cursor's lifetime and its document's start and
 * finish (jet.h section 12): jet_od_start runs stage 1 (od_window.c) over
 * the input, blanking comments first where they are allowed, and
 * jet_od_finish checks that nothing follows the root value.
 */
#include "ondemand.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ========================================================================== */
/* Lifetime                                                                   */
/* ========================================================================== */

jet_od *jet_od_new(const jet_alloc *alloc) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_od *od = (jet_od *)jet__malloc(a, sizeof *od);
    if (!od) return NULL;
    memset(od, 0, sizeof *od);
    od->alloc = *a;
    jet_arena_init(&od->scratch, a);
    return od;
}

void jet_od_free(jet_od *od) {
    if (!od) return;
    jet__free(&od->alloc, od->marks);
    jet__free(&od->alloc, od->cps_raw);
    jet__free(&od->alloc, od->path);
    jet__free(&od->alloc, od->unesc);
    jet__free(&od->alloc, od->plain);
    jet__free(&od->alloc, od->kinds);
    jet_arena_free(&od->scratch);
    jet_parser_free(od->validator);
    jet__free(&od->alloc, od);
}

bool jet_od_ok(const jet_od *od) { return od && !od->failed; }

const jet_error *jet_od_error(const jet_od *od) { return &od->err; }

/* ========================================================================== */
/* Start and finish                                                           */
/* ========================================================================== */

/* A byte of a number's or a literal's token: not a bracket, a separator,
 * a quote, a blank or a '/' (a comment's, when the DOM reader judges an
 * input whose comments are not blanked yet: comment_error). */
static bool od_scalar_byte(char c) {
    switch (c) {
    case '[': case ']': case '{': case '}': case ',': case ':': case '"': case '/':
        return false;
    default:
        return !jet__gram_blank(c);
    }
}

/* Runs the DOM reader's grammar over the input, building nothing
 * (jet__validate): a full validation, and the source of precise errors for
 * what stage 1 only flags. `stop_when_done` keeps that flag; the cursor
 * itself reads the whole input. */
bool jet__od_validate_all(jet_od *od, const jet_read_opts *opts, bool stop_when_done) {
    if (!od->validator) {
        od->validator = jet_parser_new(&od->alloc);
        if (!od->validator) return jet__od_err(od, JET_E_MEMORY, 0);
    }
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    o.flags &= ~(JET_READ_VALIDATE_ALL | JET_READ_REJECT_UNKNOWN);
    if (!stop_when_done) o.flags &= ~JET_READ_STOP_WHEN_DONE;
    jet_error e;
    if (jet__validate(od->validator, od->json, od->len, &o, &e)) return true;
    if (!od->failed) od->err_is_dom = true; /* recorded below, not an error before it */
    /* The DOM reader names the byte where a number or a literal went
     * wrong, which can be the token glued after it (`[-]`, `[nul[`); the
     * pointer names the scalar, as the cursor's own errors do. */
    size_t value = e.offset;
    if (e.code == JET_ERR_NUMBER || e.code == JET_ERR_LITERAL)
        while (value > od->root && value <= od->len && od_scalar_byte(od->json[value - 1])) value--;
    if (value == e.offset) return jet__od_fail(od, e.code, e.offset, e.msg);
    return jet__od_fail_in(od, e.code, e.offset, value, e.msg);
}

/* The size of the index's windows (od_window.c), read as a document starts. */
static atomic_size_t od_half_words;

/* A power of two: word w's slot is w & (2 * half - 1). */
static size_t od_round_pow2(size_t h) {
    size_t p2 = 1;
    while (p2 < h) p2 <<= 1;
    return p2;
}

void jet__od_window_set(size_t half_words) {
    /* stored rounded (0 stays 0: the default again), so that a document's
     * start only reads it */
    atomic_store_explicit(&od_half_words, half_words ? od_round_pow2(half_words) : 0,
                          memory_order_relaxed);
}

/* The default, once: JET_OD_WINDOW (bytes of input per window), else 32768
 * words (2 MiB of input; the window's three bitmaps take 1.5 MiB). */
static JET_NOINLINE size_t od_window_default(void) {
    const char *env = getenv("JET_OD_WINDOW");
    unsigned long long bytes = env && *env ? strtoull(env, NULL, 10) : 0;
    size_t h = od_round_pow2(bytes ? (size_t)((bytes + 127) / 128) : 32768);
    atomic_store_explicit(&od_half_words, h, memory_order_relaxed);
    return h;
}

/* Words per half window: set by jet__od_window_set (tests), else the
 * default. */
static JET_ALWAYS_INLINE size_t od_window_half(void) {
    size_t h = atomic_load_explicit(&od_half_words, memory_order_relaxed);
    return JET_LIKELY(h) ? h : od_window_default();
}

/* The options of a start without any. */
static const jet_read_opts od_no_opts;

/* Forgets the previous document and error; the cursor stands nowhere yet. */
void jet__od_reset(jet_od *od, const char *json, size_t len, const jet_read_opts *opts) {
    od->failed = false;
    od->err_is_dom = false;
    memset(&od->err, 0, sizeof od->err);
    od->json = json;
    od->input = json;
    od->len = len;
    od->pos = 0;
    od->depth = 0;
    od->root = 0;
    od->words = 0;
    od->direct = 0;
    od->win_lo = 0;
    od->win_n = 0;
    od->cps_n = 0;
    const jet_read_opts *o = opts ? opts : &od_no_opts;
    od->opts = *o;
    od->flags = o->flags;
    od->lazy = (o->flags & JET_READ_LAZY) != 0;
    od->bad_window = false;
    od->max_depth = o->max_depth ? o->max_depth : JET_DEFAULT_MAX_DEPTH;
    if (od->scratch.chunks) jet_arena_reset(&od->scratch); /* rarely used: no call per document */
    od->unesc_len = 0;
}

/*
 * Comments (JET_READ_ALLOW_COMMENTS) are whitespace to the DOM reader, but
 * stage 1 does not know them: a quote or a bracket inside one would throw
 * the structural index off. An input that may have comments is read from a
 * copy of the same length with every comment's bytes turned into spaces
 * (newlines kept), so every offset, and so every error's position, is the
 * input's. A malformed comment makes the input invalid: the DOM reader then
 * says what its first error is (which may come before the comment).
 */
static bool comment_error(jet_od *od, jet__err kind, size_t off) {
    if (!jet__od_validate_all(od, &od->opts, false)) return false;
    return jet__od_err(od, kind, off); /* not reached: the DOM reader fails too */
}

static bool blank_comments(jet_od *od) {
    const char *in = od->json, *end = in + od->len;
    if (od->plain_cap < od->len) {
        jet__free(&od->alloc, od->plain);
        od->plain = (char *)jet__malloc(&od->alloc, od->len);
        od->plain_cap = od->plain ? od->len : 0;
        if (!od->plain) return jet__od_err(od, JET_E_MEMORY, 0);
    }
    memcpy(od->plain, in, od->len);
    char *out = od->plain;
    const char *p = in;
    while (p < end) {
        char c = *p;
        if (c == '"') { /* a string: to its closing quote */
            for (p++; p < end && *p != '"'; p++)
                if (*p == '\\' && p + 1 < end) p++;
            p++;
            continue;
        }
        if (c != '/') {
            p++;
            continue;
        }
        const char *start = p;
        if (end - p < 2) return comment_error(od, JET_E_COMMENT, (size_t)(p - in));
        if (p[1] == '/') {
            while (p < end && *p != '\n') p++;
        } else if (p[1] == '*') {
            p += 2;
            for (;;) {
                if (end - p < 2)
                    return comment_error(od, JET_E_COMMENT_BLOCK, (size_t)(start - in));
                if (p[0] == '*' && p[1] == '/') break;
                p++;
            }
            p += 2;
        } else {
            return comment_error(od, JET_E_BAD_SLASH, (size_t)(p - in));
        }
        for (const char *b = start; b < p; b++)
            if (*b != '\n') out[b - in] = ' ';
    }
    od->json = od->plain;
    return true;
}

bool jet_od_start(jet_od *od, const char *json, size_t len, const jet_read_opts *opts,
                  jet_odv *root) {
    if (!od) return false;
    jet__od_reset(od, json, len, opts);
    if (root) {
        root->od = od;
        root->pos = len;
        root->depth = 0;
    }
    if (!json && len) {
        od->len = 0;
        return jet__od_err(od, JET_E_NULL_INPUT, 0);
    }
    if (od->opts.max_size && len > od->opts.max_size)
        return jet__od_err(od, JET_E_SIZE_LIMIT, od->opts.max_size);
    if ((od->flags & JET_READ_ALLOW_COMMENTS) && len && memchr(json, '/', len)) {
        if (!blank_comments(od)) return false;
        json = od->json;
    }
    size_t words = JET_SCAN_WORDS(len);
    jet_kernel k = jet__kernel_now();
    /* The cursor needs an index: where the reader runs one pass (aarch64 by
     * default, or JET_KERNEL=scalar), the platform's vector index, else the
     * 64-bit-word one. */
    if (k == JET_KERNEL_SCALAR)
        k = jet__kernel_available(JET_KERNEL_NEON) ? JET_KERNEL_NEON : JET_KERNEL_SWAR;
    od->kernel = k;
    od->half = od_window_half();
    bool lax = (od->flags & JET_READ_ALLOW_INVALID_UTF8) != 0;
    if (words <= 2 * od->half) {
        /* one window holds the whole input: stage 1 in one call */
        /* a small document after a first one: the index is already there */
        if ((od->index_cap < 3 * words || !od->marks) && !jet__od_index_reserve(od, words)) return false;
        jet_scan_result res;
        bool scanned = len == 0 || jet__scan_ex(k, json, len, od->marks, od->bs, od->br, &res);
        od->words = len ? words : 0;
        od->win_n = od->words;
        od->mask = ~(size_t)0;
        od->direct = od->words;
        if (!scanned || (len && (res.ctrl_in_string || (!res.utf8_valid && !lax)))) {
            od->root = jet__od_next(od, 0); /* the error's path starts there */
            return jet__od_stage1_error(od);
        }
    } else {
        /* bounded windows: stage 1 runs again over an earlier window when
         * the cursor goes back there (out-of-order keys, error paths) */
        if (!jet__od_index_reserve(od, 2 * od->half)) return false;
        od->words = words;
        od->mask = 2 * od->half - 1;
        /* the root's offset before the token search below (the first byte
         * that is not blank starts the first token): a stage-1 error met in
         * a later window during that search names its path from there, as
         * with a whole index */
        const char *j = od->json;
        size_t r = 0;
        while (r < len && jet__gram_blank(j[r])) r++;
        od->root = r;
        if (!jet__od_load(od, 0)) return false;
    }
    od->pos = jet__od_next(od, 0);
    od->root = od->pos;
    if (od->pos >= len) return jet__od_err(od, JET_E_EMPTY, len);
    if (root) root->pos = od->pos;
    return true;
}

bool jet_od_finish(jet_od *od) {
    if (!od || od->failed) return false;
    if (od->depth > 0) {
        if (!jet__od_close_last(od, 0) && !jet__od_close_levels(od, 0)) return false;
    } else if (od->pos == od->root) {
        if (!jet__od_skip(od)) return false;
    }
    if (od->pos < od->len)
        return jet__od_err(od, JET_E_TRAILING_CONTENT, od->pos);
    return !od->failed; /* a window scanned on the way may have failed */
}

