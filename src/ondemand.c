/*
 * ondemand.c — the on-demand cursor (jet.h section 12).
 *
 * jet_od_start runs stage 1 (scan.c) over the input; everything after that
 * walks the structural bitmap. The cursor keeps one position and one depth:
 * a value handle is valid while the cursor stands on its first byte, and an
 * iterator asks the cursor to come back to its level (jet__od_settle) before
 * each step, skipping whatever the caller left unread. Skipping counts
 * brackets over the marked bytes only, so a skipped string costs two bits and
 * a skipped number one, whatever their length.
 *
 * Errors are sticky and carry a JSON Pointer, computed only when an error
 * happens by walking the document again from the root to the offset.
 */
#include "ondemand.h"

#include "grammar.h"
#include "num.h"
#include "scan.h"
#include "utf8.h"

#include <limits.h>
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
/* Errors and their JSON Pointer                                              */
/* ========================================================================== */

static bool path_reserve(jet_od *od, size_t need) {
    if (need <= od->path_cap) return true;
    size_t cap = od->path_cap ? od->path_cap : 64;
    while (cap < need) cap *= 2;
    char *p = (char *)jet__realloc(&od->alloc, od->path, od->path_cap, cap);
    if (!p) return false;
    od->path = p;
    od->path_cap = cap;
    return true;
}

/* Appends "/" and a reference token (RFC 6901: '~' -> "~0", '/' -> "~1"). */
static void path_push_key(jet_od *od, size_t *n, const char *k, size_t len) {
    if (!path_reserve(od, *n + 2 * len + 2)) return;
    od->path[(*n)++] = '/';
    for (size_t i = 0; i < len; i++) {
        if (k[i] == '~' || k[i] == '/') {
            od->path[(*n)++] = '~';
            od->path[(*n)++] = k[i] == '~' ? '0' : '1';
        } else {
            od->path[(*n)++] = k[i];
        }
    }
    od->path[*n] = 0;
}

static void path_push_index(jet_od *od, size_t *n, size_t idx) {
    char tmp[24];
    size_t t = 0;
    do {
        tmp[t++] = (char)('0' + idx % 10);
        idx /= 10;
    } while (idx);
    if (!path_reserve(od, *n + t + 2)) return;
    od->path[(*n)++] = '/';
    while (t) od->path[(*n)++] = tmp[--t];
    od->path[*n] = 0;
}

/* Offset of the token after the value starting at q (od->len if none). */
static size_t value_end(jet_od *od, size_t q) {
    char c = od->json[q];
    if (c == '{' || c == '[') {
        size_t e = jet__od_close(od, jet__od_next(od, q + 1), 1);
        return e == JET_OD_UNCLOSED ? od->len : jet__od_next(od, e);
    }
    if (c == '"') {
        size_t close = jet__od_next(od, q + 1);
        return close >= od->len ? od->len : jet__od_next(od, close + 1);
    }
    return jet__od_next(od, q + 1);
}

static bool unescape(jet_od *od, const char *s, size_t n, char *dst, size_t *out_len,
                     bool record);

/*
 * Builds the JSON Pointer of the innermost value around `target` by walking
 * from the root; stops where the structure is broken (the pointer then names
 * the deepest value known to hold the offset). Returns the bracket that
 * opens the container holding that value ('[' or '{'; 0 at the root).
 */
static char build_path(jet_od *od, size_t target) {
    size_t n = 0;
    char holder = 0;
    if (!path_reserve(od, 64)) return 0;
    od->path[0] = 0;
    size_t p = od->root;
    const char *j = od->json;
    for (uint32_t guard = 0; p < od->len && p != target && guard < od->max_depth + 1; guard++) {
        char c = j[p];
        if (c != '{' && c != '[') break;
        bool obj = c == '{';
        size_t q = jet__od_next(od, p + 1), idx = 0;
        bool down = false;
        while (q < od->len && q <= target) {
            char d = j[q];
            if (d == '}' || d == ']') break;
            if (idx > 0) {
                if (d != ',') break;
                q = jet__od_next(od, q + 1);
                if (q >= od->len) break;
            }
            size_t from = q, ks = 0, ke = 0;
            if (obj) {
                if (j[q] != '"') break;
                ks = q;
                ke = jet__od_next(od, q + 1);
                if (ke >= od->len) break;
                size_t colon = jet__od_next(od, ke + 1);
                if (colon >= od->len || j[colon] != ':') break;
                q = jet__od_next(od, colon + 1);
                if (q >= od->len) break;
            }
            size_t vend = value_end(od, q);
            if (target >= from && target < vend) {
                if (obj) {
                    size_t kl = ke - ks - 1;
                    if (jet__od_has_backslash(od, ks + 1, ke)) {
                        char *tmp = (char *)jet__malloc(&od->alloc, kl + 1);
                        size_t ul = 0;
                        if (tmp && unescape(od, j + ks + 1, kl, tmp, &ul, false))
                            path_push_key(od, &n, tmp, ul);
                        else
                            path_push_key(od, &n, j + ks + 1, kl);
                        jet__free(&od->alloc, tmp);
                    } else {
                        path_push_key(od, &n, j + ks + 1, kl);
                    }
                } else {
                    path_push_index(od, &n, idx);
                }
                if (target < q) return c; /* inside the key itself */
                holder = c;
                p = q;
                down = true;
                break;
            }
            q = vend;
            idx++;
        }
        if (!down) break;
    }
    return holder;
}

/* Records an error of kind `kind`, or (kind JET_E__COUNT) of `code` and
 * `msg`, with the path of the value at `value`. */
static bool fail_in(jet_od *od, jet__err kind, size_t off, size_t value, jet_code code, const char *msg) {
    if (od->failed) return false;
    od->failed = true;
    if (off > od->len) off = od->len;
    char holder = build_path(od, value);
    if (kind == JET_E_AFTER_VALUE) /* a byte glued to a scalar: the separator */
        kind = holder == '{' ? JET_E_EXPECTED_OBJECT_SEP /* its container wants, */
               : holder == '[' ? JET_E_EXPECTED_ARRAY_SEP /* as the DOM reader */
                               : JET_E_TRAILING_CONTENT;  /* says */
    if (kind != JET_E__COUNT) {
        code = jet__errs[kind].code;
        msg = jet__errs[kind].msg;
    }
    jet__error_at(&od->err, code, od->input, od->len, off, msg);
    od->err.path = od->path ? od->path : "";
    return false;
}

bool jet__od_fail(jet_od *od, jet_code code, size_t off, const char *msg) {
    return fail_in(od, JET_E__COUNT, off, off, code, msg);
}

bool jet__od_err_in(jet_od *od, jet__err kind, size_t off, size_t value) {
    return fail_in(od, kind, off, value, JET_OK, NULL);
}

bool jet__od_err(jet_od *od, jet__err kind, size_t off) {
    return fail_in(od, kind, off, off, JET_OK, NULL);
}

bool jet__od_fail_missing(jet_od *od, size_t obj_pos, const char *key, size_t key_len) {
    if (od->failed) return false;
    jet__od_err(od, JET_E_MISSING_FIELD, obj_pos);
    size_t n = od->path ? strlen(od->path) : 0;
    path_push_key(od, &n, key, key_len);
    od->err.path = od->path ? od->path : "";
    return false;
}

/* ========================================================================== */
/* Strings                                                                    */
/* ========================================================================== */

/* Decodes the escape at p (a backslash, p < e) into *dp; returns the byte
 * after it, or NULL (error recorded when asked). */
static const char *one_escape(jet_od *od, const char *p, const char *e, char **dp, bool record) {
    char *d = *dp;
#define OD_BAD(kind, at)                                                              \
    do {                                                                              \
        if (record) jet__od_err(od, kind, (size_t)((at) - od->json));                 \
        return NULL;                                                                  \
    } while (0)
    if (e - p < 2) OD_BAD(JET_E_ESCAPE_CHAR, p);
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
        if (e - p < 6) OD_BAD(JET_E_U_ESCAPE_HEX, p + 2);
        int32_t cp = jet__hex4(p + 2);
        if (cp < 0) OD_BAD(JET_E_U_ESCAPE_HEX, p + 2);
        const char *after = p + 6;
        if (cp >= 0xD800 && cp <= 0xDFFF && jet__pair_surrogate(&after, e, &cp)) {
            *dp = jet__utf8_put(d, (uint32_t)cp);
            return after;
        }
        if (cp >= 0xD800 && cp <= 0xDFFF && !(od->flags & JET_READ_ALLOW_INVALID_UTF8))
            OD_BAD(cp <= 0xDBFF ? JET_E_SURROGATE_HIGH : JET_E_SURROGATE_LOW, p);
        *dp = jet__utf8_put(d, (uint32_t)cp); /* WTF-8 for a lone surrogate when allowed */
        return p + 6;
    }
    default: OD_BAD(JET_E_ESCAPE_CHAR, p + 1);
    }
#undef OD_BAD
    *dp = d;
    return p + 2;
}

/* Unescapes the string body s[0..n) (no quotes; stage 1 guarantees no
 * unescaped quote inside, and has validated the UTF-8 or it is allowed
 * invalid) into dst (room for n bytes): the runs between backslashes are
 * copied whole. Stage 1 marked every backslash inside strings; an escaped
 * one is consumed by the escape before it and skipped here. */
static bool unescape(jet_od *od, const char *s, size_t n, char *dst, size_t *out_len,
                     bool record) {
    const char *p = s, *e = s + n;
    char *d = dst;
    size_t a = (size_t)(s - od->json), b = a + n;
    size_t w = a >> 6, wl = (b - 1) >> 6;
    uint64_t bits = jet__od_bword(od, w) & (~UINT64_C(0) << (a & 63));
    for (;;) {
        while (!bits) {
            if (++w > wl) goto tail;
            bits = jet__od_bword(od, w);
        }
        size_t k = (w << 6) + jet__ctz64(bits);
        bits &= bits - 1;
        if (k >= b) break;
        const char *bsl = od->json + k;
        if (bsl < p) continue;
        memcpy(d, p, (size_t)(bsl - p));
        d += bsl - p;
        p = one_escape(od, bsl, e, &d, record);
        if (!p) return false;
    }
tail:
    memcpy(d, p, (size_t)(e - p));
    d += e - p;
    *out_len = (size_t)(d - dst);
    return true;
}

/* Body of the string at quote p, closing quote at q, into *out. */
static bool string_body(jet_od *od, size_t p, size_t q, jet_str *out) {
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
    if (!unescape(od, s, n, d, &ul, true)) return false;
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
    if (!string_body(od, p, q, out)) return false;
    od->pos = jet__od_next(od, q + 1);
    return true;
}

bool jet__od_key(jet_od *od, size_t p, jet_str *key, size_t *val) {
    size_t q = jet__od_next(od, p + 1);
    if (JET_UNLIKELY(q >= od->len))
        return jet__od_err(od, JET_E_END_IN_STRING, od->len);
    if (!string_body(od, p, q, key)) return false;
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

/* ========================================================================== */
/* Skipping                                                                   */
/* ========================================================================== */

/* +1 for an opening bracket, -1 for a closing one. */
static const int8_t bracket_delta[256] = {['{'] = 1, ['['] = 1, ['}'] = -1, [']'] = -1};

/*
 * Walks the bracket bitmap (only brackets outside strings have a bit), one
 * table lookup and add per bracket. Only the balance is checked here: a
 * bracket of the wrong kind inside a skipped value is found by
 * JET_READ_VALIDATE_ALL, as the other errors of untouched parts are.
 */
size_t jet__od_close(jet_od *od, size_t off, uint32_t levels) {
    size_t w = off >> 6;
    if (w >= od->words) return JET_OD_UNCLOSED;
    const unsigned char *j = (const unsigned char *)od->json;
    uint64_t bits = jet__od_rword(od, w) & (~UINT64_C(0) << (off & 63));
    int64_t depth = (int64_t)levels;
    for (;;) {
        while (bits) {
            size_t i = (w << 6) + jet__ctz64(bits);
            bits &= bits - 1;
            depth += bracket_delta[j[i]];
            if (JET_UNLIKELY(depth == 0)) return i + 1;
        }
        if (JET_UNLIKELY(++w >= od->direct)) {
            if (w >= od->words) return JET_OD_UNCLOSED;
            bits = jet__od_word_far(od, 2, w);
        } else {
            bits = od->br[w];
        }
    }
}

bool jet__od_close_fail(jet_od *od) {
    return jet__od_err(od, JET_E_END_IN_CONTAINER, od->len);
}

bool jet__od_skip(jet_od *od) {
    size_t p = od->pos;
    if (JET_UNLIKELY(p >= od->len))
        return jet__od_err(od, JET_E_END_BEFORE_VALUE, od->len);
    char c = od->json[p];
    if (c == '{' || c == '[') {
        size_t e = jet__od_close(od, jet__od_next(od, p + 1), 1);
        if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
        od->pos = jet__od_next(od, e);
        return true;
    }
    if (c == '"') {
        size_t q = jet__od_next(od, p + 1);
        if (JET_UNLIKELY(q >= od->len))
            return jet__od_err(od, JET_E_END_IN_STRING, od->len);
        od->pos = jet__od_next(od, q + 1);
        return true;
    }
    od->pos = jet__od_next(od, p + 1);
    return true;
}

bool jet__od_settle(jet_od_iter *it) {
    jet_od *od = it->od;
    if (JET_UNLIKELY(od->depth != it->depth)) {
        if (od->depth < it->depth)
            return jet__od_err(od, JET_E_ITER_LEFT, od->pos);
        size_t e = jet__od_close(od, od->pos, od->depth - it->depth);
        if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
        od->pos = jet__od_next(od, e);
        od->depth = it->depth;
        return true;
    }
    if (od->pos == it->pending) return jet__od_skip(od); /* returned but not read */
    return true;
}

/* ========================================================================== */
/* Start and finish                                                           */
/* ========================================================================== */

/* Runs the DOM reader over the input: a full validation, and the source of
 * precise errors for what stage 1 only flags. `stop_when_done` keeps that
 * flag (jet_od_validate's callers may ask for it); the cursor itself reads
 * the whole input. */
static bool validate_all(jet_od *od, const jet_read_opts *opts, bool stop_when_done) {
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
    if (jet_parser_parse(od->validator, od->json, od->len, &o, &e)) return true;
    return jet__od_fail(od, e.code, e.offset, e.msg);
}

/* ========================================================================== */
/* The index in bounded windows                                               */
/* ========================================================================== */

/*
 * An input of more than two halves (4 MiB by default) is indexed a window
 * of two halves at a time, so that the cursor's bitmaps stay 3 * 2 * half
 * words whatever the input's size. Moving forward past the window slides it
 * by one half (the half left behind stays for short looks back, such as a
 * key looked up again from its object's start); any other move rescans the
 * two halves around the word wanted from the checkpoint of stage 1's state
 * taken when the first scan passed there. A window's verdict (string not
 * closed, control character, invalid UTF-8) is taken as it is scanned.
 */
static atomic_size_t od_half_words;

void jet__od_window_set(size_t half_words) {
    atomic_store_explicit(&od_half_words, half_words, memory_order_relaxed);
}

/* Words per half window: set by jet__od_window_set (tests), else
 * JET_OD_WINDOW (bytes of input per window) read once, else 32768 words
 * (2 MiB of input; the window's three bitmaps take 1.5 MiB). */
static size_t od_window_half(void) {
    size_t h = atomic_load_explicit(&od_half_words, memory_order_relaxed);
    if (h & (h - 1)) { /* set by a test: rounded up to a power of two too */
        size_t p2 = 1;
        while (p2 < h) p2 <<= 1;
        h = p2;
    }
    if (!h) {
        const char *env = getenv("JET_OD_WINDOW");
        unsigned long long bytes = env && *env ? strtoull(env, NULL, 10) : 0;
        h = bytes ? (size_t)((bytes + 127) / 128) : 32768;
        size_t p2 = 1; /* a power of two: word w's slot is w & (2 * half - 1) */
        while (p2 < h) p2 <<= 1;
        h = p2;
        atomic_store_explicit(&od_half_words, h, memory_order_relaxed);
    }
    return h;
}

/* Room for three bitmaps of `words` words. */
static bool index_reserve(jet_od *od, size_t words) {
    if (od->index_cap < 3 * words || !od->marks) {
        size_t cap = words ? words : 1;
        jet__free(&od->alloc, od->marks);
        od->marks = (uint64_t *)jet__malloc(&od->alloc, 3 * cap * sizeof(uint64_t));
        od->index_cap = od->marks ? 3 * cap : 0;
        if (!od->marks) return jet__od_err(od, JET_E_MEMORY, 0);
    }
    size_t cap = od->index_cap / 3;
    od->bs = od->marks + cap;
    od->br = od->marks + 2 * cap;
    return true;
}

/* Checkpoint k (64-aligned inside cps_raw). */
static jet_scan_state *checkpoint(jet_od *od, size_t k) {
    uintptr_t a = (uintptr_t)od->cps_raw;
    unsigned char *base = od->cps_raw + ((64 - (a & 63)) & 63);
    return (jet_scan_state *)(void *)(base + k * sizeof(jet_scan_state));
}

/* Records checkpoint k = cps_n (the state at word k * half). */
static bool checkpoint_push(jet_od *od, const jet_scan_state *st) {
    if (od->cps_n == od->cps_cap) {
        size_t cap = od->cps_cap ? 2 * od->cps_cap : 16;
        unsigned char *raw = (unsigned char *)jet__malloc(&od->alloc, cap * sizeof *st + 64);
        if (!raw) return jet__od_err(od, JET_E_MEMORY, 0);
        unsigned char *old = od->cps_raw;
        const jet_scan_state *from = old ? checkpoint(od, 0) : NULL;
        od->cps_raw = raw;
        od->cps_cap = cap;
        if (od->cps_n) memcpy(checkpoint(od, 0), from, od->cps_n * sizeof *st);
        jet__free(&od->alloc, old);
    }
    memcpy(checkpoint(od, od->cps_n), st, sizeof *st);
    od->cps_n++;
    return true;
}

static bool validate_all(jet_od *od, const jet_read_opts *opts, bool stop_when_done);

/* Stage 1 found an error (the DOM reader says what and where), or the index
 * could not grow (already recorded): the cursor has no tokens from now on. */
static bool stage1_error(jet_od *od) {
    od->words = 0;
    od->direct = 0;
    od->win_n = 0;
    if (od->failed) return false;
    if (!validate_all(od, &od->opts, false)) return false;
    return jet__od_err(od, JET_E_INVALID_JSON, 0);
}

/* Scans halves [h, h + n) into their slots of the ring (half k's words at
 * (k & 1) * half), from checkpoint h, adding the checkpoints the scan
 * passes for the first time. False on a stage-1 error (recorded). */
static bool scan_halves(jet_od *od, size_t h, size_t n) {
    jet_scan_state st;
    memcpy(&st, checkpoint(od, h), sizeof st);
    bool lax = (od->flags & JET_READ_ALLOW_INVALID_UTF8) != 0;
    for (size_t i = 0; i < n; i++, h++) {
        size_t first = h * od->half;
        if (first >= od->words) break;
        size_t cnt = od->words - first < od->half ? od->words - first : od->half;
        size_t at = (h & 1) * od->half;
        jet__scan_window(od->kernel, &st, od->json, od->len, first, cnt, od->marks + at,
                         od->bs + at, od->br + at, NULL);
        bool at_end = first + cnt == od->words;
        jet_scan_result res;
        if (!jet__scan_status(od->kernel, &st, at_end, &res) || res.ctrl_in_string ||
            (!res.utf8_valid && !lax))
            return stage1_error(od);
        if (!at_end && h + 1 == od->cps_n && !checkpoint_push(od, &st)) return stage1_error(od);
    }
    return true;
}

bool jet__od_load(jet_od *od, size_t w) {
    if (w >= od->words) return false;
    size_t half = od->half, hw = w / half;
    if (!od->cps_n) {
        jet_scan_state zero;
        jet__scan_begin(&zero);
        if (!checkpoint_push(od, &zero)) return stage1_error(od);
    }
    size_t lo_half = od->win_lo / half;
    if (od->win_n == 2 * half && hw == lo_half + 2 && hw < od->cps_n) {
        /* the next half: it takes the slots of the lowest one */
        od->win_n = 0; /* nothing valid while rescanning */
        if (!scan_halves(od, hw, 1)) return false;
        od->win_lo = (hw - 1) * half;
    } else {
        /* anywhere else: forward, w in the upper half; backward, the lower */
        size_t lo = hw > 0 && w >= od->win_lo ? hw - 1 : hw;
        od->win_n = 0;
        /* the checkpoint of half lo: scan the halves before it first when
         * the move skips ahead of everything scanned so far */
        while (od->cps_n <= lo)
            if (!scan_halves(od, od->cps_n - 1, 1)) return false;
        if (!scan_halves(od, lo, 2)) return false;
        od->win_lo = lo * half;
    }
    size_t left = od->words - od->win_lo;
    od->win_n = left < 2 * half ? left : 2 * half;
    return true;
}

uint64_t jet__od_word_far(jet_od *od, int map, size_t w) {
    if ((size_t)(w - od->win_lo) >= od->win_n && !jet__od_load(od, w)) return 0;
    const uint64_t *m = map == 0 ? od->marks : map == 1 ? od->bs : od->br;
    return m[w & od->mask];
}

size_t jet__od_next_far(jet_od *od, size_t off) {
    size_t w = off >> 6;
    if (w >= od->words) return od->len;
    uint64_t bits = jet__od_word_far(od, 0, w) & (~UINT64_C(0) << (off & 63));
    while (!bits) {
        if (++w >= od->words) return od->len;
        bits = jet__od_word_far(od, 0, w);
    }
    return (w << 6) + jet__ctz64(bits);
}

/* Forgets the previous document and error; the cursor stands nowhere yet. */
static void reset(jet_od *od, const char *json, size_t len, const jet_read_opts *opts) {
    od->failed = false;
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
    memset(&od->opts, 0, sizeof od->opts);
    if (opts) od->opts = *opts;
    od->flags = opts ? opts->flags : 0;
    od->max_depth = (opts && opts->max_depth) ? opts->max_depth : JET_DEFAULT_MAX_DEPTH;
    jet_arena_reset(&od->scratch);
    od->unesc_len = 0;
}

bool jet__od_validate_dom(jet_od *od, const char *json, size_t len, const jet_read_opts *opts) {
    reset(od, json, len, opts);
    bool ok = validate_all(od, opts, true);
    od->pos = len; /* no document to walk */
    return ok;
}

bool jet__od_validate_indexed(jet_od *od, const char *json, size_t len, const jet_read_opts *opts) {
    if (!od->validator) {
        od->validator = jet_parser_new(&od->alloc);
        if (!od->validator) return false;
    }
    if (!jet__validate_indexed(od->validator, json, len, opts)) return false;
    reset(od, json, len, opts);
    od->pos = len; /* no document to walk */
    return true;
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
    if (!validate_all(od, &od->opts, false)) return false;
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
    reset(od, json, len, opts);
    if (root) {
        root->od = od;
        root->pos = len;
        root->depth = 0;
    }
    if (!json && len) {
        od->len = 0;
        return jet__od_err(od, JET_E_NULL_INPUT, 0);
    }
    if (opts && opts->max_size && len > opts->max_size)
        return jet__od_err(od, JET_E_SIZE_LIMIT, opts->max_size);
    if ((od->flags & JET_READ_ALLOW_COMMENTS) && len && memchr(json, '/', len)) {
        if (!blank_comments(od)) return false;
        json = od->json;
    }
    size_t words = JET_SCAN_WORDS(len);
    jet_kernel k = jet__kernel();
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
        if (!index_reserve(od, words)) return false;
        jet_scan_result res;
        bool scanned = len == 0 || jet__scan_ex(k, json, len, od->marks, od->bs, od->br, &res);
        if (!scanned || (len && (res.ctrl_in_string || (!res.utf8_valid && !lax))))
            return stage1_error(od);
        od->words = len ? words : 0;
        od->win_n = od->words;
        od->mask = ~(size_t)0;
        od->direct = od->words;
    } else {
        /* bounded windows: stage 1 runs again over an earlier window when
         * the cursor goes back there (out-of-order keys, error paths) */
        if (!index_reserve(od, 2 * od->half)) return false;
        od->words = words;
        od->mask = 2 * od->half - 1;
        if (!jet__od_load(od, 0)) return false;
    }
    od->pos = jet__od_next(od, 0);
    od->root = od->pos;
    if (od->pos >= len) return jet__od_err(od, JET_E_EMPTY, len);
    if ((od->flags & JET_READ_VALIDATE_ALL) && !validate_all(od, opts, false)) return false;
    if (root) root->pos = od->pos;
    return true;
}

bool jet_od_finish(jet_od *od) {
    if (!od || od->failed) return false;
    if (od->depth > 0) {
        size_t e = jet__od_close(od, od->pos, od->depth);
        if (e == JET_OD_UNCLOSED) return jet__od_close_fail(od);
        od->pos = jet__od_next(od, e);
        od->depth = 0;
    } else if (od->pos == od->root) {
        if (!jet__od_skip(od)) return false;
    }
    if (od->pos < od->len)
        return jet__od_err(od, JET_E_TRAILING_CONTENT, od->pos);
    return !od->failed; /* a window scanned on the way may have failed */
}

/* ========================================================================== */
/* Values                                                                     */
/* ========================================================================== */

/* The handle must be where the cursor stands. */
static JET_ALWAYS_INLINE bool here(const jet_odv *v) {
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

static bool type_error(jet_od *od, size_t p, jet__err want) {
    return jet__od_type_error(od, p, want);
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
    if (!here(v)) return false;
    if (v->od->json[v->pos] != 'n') return false;
    return literal(v->od, v->pos, "null", 4) && !v->od->failed;
}

bool jet_odv_get_bool(jet_odv *v, bool *out) {
    if (!here(v)) return false;
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
    return type_error(od, v->pos, JET_E_WANT_BOOL);
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
        return type_error(od, p, JET_E_WANT_NUMBER); /* a malformed value says so */
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
    if (!here(v)) return false;
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
            return type_error(od, v->pos, JET_E_WANT_INTEGER);
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
    uint64_t mag;
    bool neg;
    size_t at = v->pos;
    if (!integer(v, &mag, &neg, JET_E_RANGE_UINT64)) return false;
    if (JET_UNLIKELY(neg && mag)) return jet__od_err(v->od, JET_E_RANGE_UINT64, at);
    *out = mag;
    return !v->od->failed;
}

bool jet_odv_get_i64(jet_odv *v, int64_t *out) {
    uint64_t mag;
    bool neg;
    size_t at = v->pos;
    if (!integer(v, &mag, &neg, JET_E_RANGE_INT64)) return false;
    if (JET_UNLIKELY(mag > (uint64_t)INT64_MAX + neg)) return jet__od_err(v->od, JET_E_RANGE_INT64, at);
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return !v->od->failed;
}

bool jet_odv_get_double(jet_odv *v, double *out) {
    if (!here(v)) return false;
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
    if (!here(v)) return false;
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

bool jet_odv_get_str(jet_odv *v, jet_str *out) {
    if (!here(v)) return false;
    jet_od *od = v->od;
    if (JET_UNLIKELY(od->json[v->pos] != '"')) return type_error(od, v->pos, JET_E_WANT_STRING);
    return jet__od_string(od, v->pos, out) && !od->failed;
}

bool jet_odv_skip(jet_odv *v) {
    if (!here(v)) return false;
    return jet__od_skip(v->od) && !v->od->failed;
}

bool jet_odv_get_raw(jet_odv *v, jet_str *out) {
    if (!here(v)) return false;
    jet_od *od = v->od;
    size_t p = v->pos, e;
    char c = od->json[p];
    if (c == '{' || c == '[') {
        e = jet__od_close(od, jet__od_next(od, p + 1), 1);
        if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
        od->pos = jet__od_next(od, e);
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
    if (!here(v)) return false;
    jet_od *od = v->od;
    if (JET_UNLIKELY(od->json[v->pos] != open)) return type_error(od, v->pos, want);
    if (JET_UNLIKELY(od->depth >= od->max_depth))
        return jet__od_err(od, JET_E_DEPTH_LIMIT, v->pos);
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

bool jet_od_arr_next(jet_od_iter *it, jet_odv *elem) {
    jet_od *od = it->od;
    if (JET_UNLIKELY(it->done || od->failed)) return false;
    if (JET_UNLIKELY(!jet__od_settle(it))) return false;
    size_t p = od->pos;
    if (JET_UNLIKELY(p >= od->len))
        return jet__od_err(od, JET_E_END_IN_ARRAY, od->len);
    char c = od->json[p];
    if (c == ']') return leave(it, p);
    if (it->count) {
        if (JET_UNLIKELY(c != ','))
            return jet__od_err(od, JET_E_EXPECTED_ARRAY_SEP, p);
        p = jet__od_next(od, p + 1);
        if (JET_UNLIKELY(p >= od->len))
            return jet__od_err(od, JET_E_END_IN_ARRAY, od->len);
        c = od->json[p];
        if (JET_UNLIKELY(jet__gram_not_value(c))) {
            jet__err k = jet__gram_after_comma(od->flags, c, ']');
            return k == JET_E_OK ? leave(it, p) : jet__od_err(od, k, p);
        }
    } else if (JET_UNLIKELY(jet__gram_not_value(c))) {
        return jet__od_err(od, JET_E_EXPECTED_VALUE, p);
    }
    it->count++;
    it->pending = p;
    od->pos = p;
    elem->od = od;
    elem->pos = p;
    elem->depth = it->depth;
    return !od->failed;
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
    if (JET_UNLIKELY(!jet__od_settle(it))) return false;
    size_t kp = 0, vp = 0;
    if (!member(it, &kp)) return false;
    if (!jet__od_key(od, kp, key, &vp)) return false;
    it->count++;
    it->pending = vp;
    od->pos = vp;
    val->od = od;
    val->pos = vp;
    val->depth = it->depth;
    return !od->failed;
}

/* Compares the key at quote p (closing quote q) with k[0..n). */
static bool key_equals(jet_od *od, size_t p, size_t q, const char *k, size_t n) {
    size_t raw = q - p - 1;
    if (JET_LIKELY(!jet__od_has_backslash(od, p + 1, q)))
        return raw == n && memcmp(od->json + p + 1, k, n) == 0;
    if (raw < n) return false; /* escapes only shrink */
    jet_str s;
    if (!string_body(od, p, q, &s)) return false;
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
    if (JET_UNLIKELY(!jet__od_settle(it))) return false;
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
        c = j[v];
        if (c == '{' || c == '[') {
            size_t e = jet__od_close(od, v + 1, 1);
            if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
            jet__od_toks_seek(od, &t, e);
        } else if (c == '"') {
            jet__od_toks_take(&t, n);
        }
        p = jet__od_toks_take(&t, n);
    }
}

bool jet_od_obj_get(jet_od_iter *it, const char *key, jet_odv *val) {
    size_t n = strlen(key);
    if (jet_od_obj_find(it, key, n, val)) return true;
    if (it->od->failed) return false;
    return jet__od_fail_missing(it->od, it->start, key, n);
}
