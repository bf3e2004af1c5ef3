/*
 * emit.c — the out-of-line half of the shared output primitives (emit.h):
 * the escaper, the flags resolved once per write, buffer growth and the
 * stream sinks.
 *
 * Invalid UTF-8 (only present when the document was read with
 * JET_READ_ALLOW_INVALID_UTF8):
 *   - default mode: written through unchanged (the output is then invalid
 *     UTF-8 too, exactly like the input was);
 *   - JET_WRITE_ASCII: a byte that does not start a well-formed sequence
 *     cannot be written as an escape without changing the data, so it is
 *     an error (JET_ERR_UTF8), or with JET_WRITE_REPLACE_INVALID_UTF8 it
 *     becomes \ufffd (one replacement per bad byte). The 3-byte WTF-8
 *     encoding of a lone surrogate (ED A0..BF xx), which the reader produces
 *     for an escaped lone surrogate, is written back as that escape (e.g.
 *     \udc80), so such strings round-trip.
 * The error costs nothing on the normal path: put_non_ascii, on an invalid
 * byte it may not replace, makes the output position NULL and returns the
 * end of the input, which ends escape_run's loops; jet__emit_str_slow then
 * sets e->code = JET_ERR_UTF8 (one test per string that goes there).
 */
#include <stdlib.h>

#include "emit.h"

#if JET_SCAN_SSE2
#include <emmintrin.h>
#endif

/* Escape table: 0 = copy, 'u' = \u00XX, 'U' = non-ASCII byte (ASCII mode
 * only), anything else = the letter after the backslash. Four variants so
 * that the per-byte path needs no flag tests. */
#define CTL_U8(b) [b] = 'u', [b + 1] = 'u', [b + 2] = 'u', [b + 3] = 'u', \
                  [b + 4] = 'u', [b + 5] = 'u', [b + 6] = 'u', [b + 7] = 'u'
#define ESC_BASE                                                           \
    CTL_U8(0x00), CTL_U8(0x10), CTL_U8(0x18), [0x0B] = 'u', [0x0E] = 'u',  \
        [0x0F] = 'u', [0x08] = 'b', [0x09] = 't', [0x0A] = 'n',            \
        [0x0C] = 'f', [0x0D] = 'r', ['"'] = '"', ['\\'] = '\\'
#define HI_U16(b) [b] = 'U', [b + 1] = 'U', [b + 2] = 'U', [b + 3] = 'U',   \
    [b + 4] = 'U', [b + 5] = 'U', [b + 6] = 'U', [b + 7] = 'U',             \
    [b + 8] = 'U', [b + 9] = 'U', [b + 10] = 'U', [b + 11] = 'U',           \
    [b + 12] = 'U', [b + 13] = 'U', [b + 14] = 'U', [b + 15] = 'U'
#define ESC_HIGH                                                           \
    HI_U16(0x80), HI_U16(0x90), HI_U16(0xA0), HI_U16(0xB0), HI_U16(0xC0),  \
        HI_U16(0xD0), HI_U16(0xE0), HI_U16(0xF0)

/* Initializers override earlier ones in the same list: CTL_U8(0x00) sets
 * 0x08..0x0D to 'u' and the named escapes that follow replace them. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#elif defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winitializer-overrides"
#endif
static const uint8_t esc_tabs[4][256] = {
    {ESC_BASE},
    {ESC_BASE, ['/'] = '/'},
    {ESC_BASE, ESC_HIGH},
    {ESC_BASE, ESC_HIGH, ['/'] = '/'},
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#elif defined(__clang__)
#pragma clang diagnostic pop
#endif

static const char hex_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                    '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

/* The 16-byte vector loop (JET_SCAN_SSE2) and the 8-byte word loop (SWAR)
 * both run where available: the words take what is left under 16 bytes. */
#if JET_GNUC && defined(__BYTE_ORDER__) && \
    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define JET_SWAR 1 /* 8 bytes at a time: bits.h's jet__swar_escape_flags */
#else
#define JET_SWAR 0
#endif

static inline char *put_u_escape(char *out, unsigned cp) {
    out[0] = '\\';
    out[1] = 'u';
    out[2] = hex_digits[(cp >> 12) & 15];
    out[3] = hex_digits[(cp >> 8) & 15];
    out[4] = hex_digits[(cp >> 4) & 15];
    out[5] = hex_digits[cp & 15];
    return out + 6;
}

/* ASCII mode: the non-ASCII byte at `p` (< e) starts a UTF-8 sequence;
 * writes its \u escape(s) and returns the position after the sequence.
 * An invalid byte becomes \ufffd with o->replace_invalid; else *outp is NULL
 * and `e` is returned, which ends escape_run's loops without a test per
 * byte (see the file comment). */
static const char *put_non_ascii(const char *p, const char *e, char **outp,
                                 const jet__wopt *o) {
    const unsigned char *s = (const unsigned char *)p;
    size_t avail = (size_t)(e - p);
    unsigned c = s[0], cp;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF) {
        if (avail < 2 || (s[1] & 0xC0) != 0x80) goto bad;
        cp = ((c & 0x1Fu) << 6) | (s[1] & 0x3Fu);
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        if (avail < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) goto bad;
        if (c == 0xE0 && s[1] < 0xA0) goto bad; /* overlong */
        /* 0xED 0xA0..0xBF: a WTF-8 surrogate, escaped as itself. */
        cp = ((c & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
        n = 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
        if (avail < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
            (s[3] & 0xC0) != 0x80)
            goto bad;
        if ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F)) goto bad;
        cp = ((c & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) |
             (s[3] & 0x3Fu);
        cp -= 0x10000;
        *outp = put_u_escape(put_u_escape(*outp, 0xD800 | (cp >> 10)),
                             0xDC00 | (cp & 0x3FF));
        return p + 4;
    } else {
        goto bad;
    }
    *outp = put_u_escape(*outp, cp);
    return p + n;
bad:
    if (!o->replace_invalid) {
        *outp = NULL;
        return e;
    }
    *outp = put_u_escape(*outp, 0xFFFD);
    return p + 1;
}

/* Writes the byte at p that the table flags (t: 'U' non-ASCII to escape,
 * 'u' a \u00XX escape, else the letter of a two-byte escape); returns the
 * byte after what it consumed (put_non_ascii's `e` and a NULL *outp at
 * invalid UTF-8 that is not replaced). */
static JET_ALWAYS_INLINE const char *put_flagged(const char *p, const char *e, char **outp,
                                                 uint8_t t, const jet__wopt *o) {
    if (t == 'U') return put_non_ascii(p, e, outp, o);
    if (t == 'u') {
        *outp = put_u_escape(*outp, (unsigned char)*p);
    } else {
        (*outp)[0] = '\\';
        (*outp)[1] = (char)t;
        *outp += 2;
    }
    return p + 1;
}

/* One word-at-a-time step of the escaper: copies `width` bytes from p to
 * out (speculatively: only those before the first byte to escape count)
 * and returns that byte's index, or `width` when there is none. 16 bytes
 * with SSE2, whose flags are exact; 8 in a 64-bit word, where only the
 * lowest flag is exact (jet__swar_escape_flags), which is the one used. */
static JET_ALWAYS_INLINE size_t escape_step(const char *p, char *out, const jet__wopt *o,
                                            size_t width) {
    (void)width;
#if JET_SCAN_SSE2
    if (width == 16) {
        const __m128i ctl_max = _mm_set1_epi8(0x1F);
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        _mm_storeu_si128((__m128i *)(void *)out, v);
        __m128i m = _mm_or_si128(
            _mm_cmpeq_epi8(_mm_max_epu8(v, ctl_max), ctl_max),
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                         _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
                                      _mm_cmpeq_epi8(v, _mm_set1_epi8((char)o->slash_pat)))));
        unsigned bits = (unsigned)(_mm_movemask_epi8(m) | (o->hi_mask ? _mm_movemask_epi8(v) : 0));
        return bits ? jet__ctz32(bits) : 16;
    }
#endif
#if JET_SWAR
    uint64_t x;
    memcpy(&x, p, 8);
    memcpy(out, &x, 8);
    uint64_t m = jet__swar_escape_flags(jet__le64_of_native(x, JET_BIG_ENDIAN), o->slash_pat,
                                        o->hi_mask);
    return m ? jet__swar_first_flagged(m) : 8;
#else
    (void)p, (void)out, (void)o;
    return 0;
#endif
}

/* Escapes the bytes from *pp up to `stop` (a multi-byte sequence that
 * starts before `stop` is finished, up to `e`) into `out`, which has room
 * for 6 bytes per input byte plus 16; advances *pp and returns the new
 * output position; NULL (and *pp unspecified) at invalid UTF-8 that ASCII
 * mode may not replace. Steps of `width` bytes (a constant) while they
 * fit. The distance to `stop` is compared signed: a sequence finished past
 * `stop`, or put_non_ascii's `e` after an invalid byte, leaves p > stop. */
static JET_ALWAYS_INLINE char *escape_words(char *out, const char **pp, const char *stop,
                                            const char *e, const jet__wopt *opts, size_t width) {
    const jet__wopt o = *opts; /* a local copy: stores through `out` cannot alias it */
    const char *p = *pp;
    while (stop - p >= (ptrdiff_t)width) {
        size_t k = escape_step(p, out, &o, width);
        p += k;
        out += k;
        /* `opts`, not &o: the copy's address does not escape to put_non_ascii,
         * so it can stay in registers */
        if (k < width) p = put_flagged(p, e, &out, o.tab[(unsigned char)*p], opts);
    }
    *pp = p;
    return out;
}

static inline char *escape_run(char *out, const char **pp, const char *stop, const char *e,
                               const jet__wopt *o) {
#if JET_SCAN_SSE2
    out = escape_words(out, pp, stop, e, o, 16);
#endif
#if JET_SWAR
    out = escape_words(out, pp, stop, e, o, 8);
#endif
    const char *p = *pp;
    const uint8_t *tab = o->tab;
    while (p < stop) {
        unsigned char c = (unsigned char)*p;
        uint8_t t = tab[c];
        if (JET_LIKELY(!t)) {
            *out++ = (char)c;
            p++;
        } else {
            p = put_flagged(p, e, &out, t, o);
        }
    }
    *pp = p;
    return out;
}

char *jet__escape_run(char *out, const char **pp, const char *stop, const char *end,
                      const jet__wopt *o) {
    return escape_run(out, pp, stop, end, o);
}

void jet__wopt_init(jet_write_flags flags, jet__wopt *o) {
    unsigned idx = ((flags & JET_WRITE_ASCII) ? 2u : 0u) |
                   ((flags & JET_WRITE_ESCAPE_SLASHES) ? 1u : 0u);
    o->tab = esc_tabs[idx];
#if JET_SWAR
    o->slash_pat = ONES_8 * (uint64_t)((flags & JET_WRITE_ESCAPE_SLASHES) ? '/' : '"');
    o->hi_mask = (flags & JET_WRITE_ASCII) ? HIGH_8 : 0;
#else
    o->slash_pat = 0;
    o->hi_mask = 0;
#endif
    o->indent = (flags >> 8) & 15u;
    o->ascii = (flags & JET_WRITE_ASCII) != 0;
    o->nan_inf = (flags & JET_WRITE_ALLOW_NAN_INF) != 0;
    o->replace_invalid = (flags & JET_WRITE_REPLACE_INVALID_UTF8) != 0;
    o->verbatim_ok = !(flags & (JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES));
}


/* ---------------------------------------------------------------------- */
/* The emitter                                                              */
/* ---------------------------------------------------------------------- */

void jet__emit_init(jet__emit *e, jet_buf *buf, FILE *fp, jet_write_fn fn, void *ctx,
                    jet_write_flags flags) {
    e->buf = buf;
    e->lim = buf->data ? buf->data + buf->cap - 1 : NULL;
    e->fp = fp;
    e->fn = fn;
    e->ctx = ctx;
    e->flushed = 0;
    e->code = JET_OK;
    jet__wopt_init(flags, &e->o);
}

const char *jet__emit_message(const jet__emit *e) {
    return e->code == JET_ERR_IO     ? "could not write the output"
           : e->code == JET_ERR_UTF8 ? JET__MSG_WRITE_BAD_UTF8
                                     : "out of memory";
}

void jet__emit_fail(const jet__emit *e, jet_error *err, int status) {
    switch (status) {
    case JET__SCALAR_NAN_INF:
        jet__error_set(err, JET_ERR_NAN_INF, 0,
                       "NaN or Infinity cannot be written without JET_WRITE_ALLOW_NAN_INF");
        break;
    case JET__SCALAR_BAD:
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "not a valid value in the tree");
        break;
    case JET__SCALAR_BAD_KEY:
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "object key is not a string");
        break;
    default:
        jet__error_set(err, e->code, 0, jet__emit_message(e));
    }
}

bool jet__emit_stack_grow(jet__emit *e, void **stack, void *local, size_t *cap, size_t frame) {
    size_t ncap = *cap * 2;
    if (ncap > SIZE_MAX / frame) goto oom;
    void *ns = jet__malloc(&e->buf->alloc, ncap * frame);
    if (!ns) goto oom;
    memcpy(ns, *stack, *cap * frame);
    if (*stack != local) jet__free(&e->buf->alloc, *stack);
    *stack = ns;
    *cap = ncap;
    return true;
oom:
    e->code = JET_ERR_MEMORY;
    return false;
}

static bool emit_deliver(jet__emit *e, const char *p, size_t n) {
    bool ok = e->fp ? fwrite(p, 1, n, e->fp) == n : e->fn(e->ctx, p, n);
    if (!ok) {
        e->code = JET_ERR_IO;
        return false;
    }
    e->flushed += n;
    return true;
}

/* Hands the stream the first `used` bytes of the buffer, whole chunks only
 * unless `all`; the bytes kept move to the front. The bytes kept, or
 * SIZE_MAX when the stream failed. */
static size_t emit_drain(jet__emit *e, size_t used, bool all) {
    char *d = e->buf->data;
    size_t done = 0;
    while (used - done >= JET_WRITER_CHUNK) {
        if (!emit_deliver(e, d + done, JET_WRITER_CHUNK)) return SIZE_MAX;
        done += JET_WRITER_CHUNK;
    }
    if (all && used > done) {
        if (!emit_deliver(e, d + done, used - done)) return SIZE_MAX;
        done = used;
    }
    if (done && used > done) memmove(d, d + done, used - done);
    return used - done;
}

char *jet__emit_grow(jet__emit *e, char *out, size_t need) {
    jet_buf *b = e->buf;
    size_t used = out ? (size_t)(out - b->data) : b->len;
    if ((e->fp || e->fn) && used >= JET_WRITER_CHUNK) {
        used = emit_drain(e, used, false);
        if (used == SIZE_MAX) return NULL;
        b->len = used;
        if (b->cap - 1 - used >= need) return b->data + used;
    }
    size_t want = used + need + 1;
    if (want < used) goto oom; /* overflow */
    size_t cap = b->cap ? b->cap : 256;
    while (cap < want) {
        if (cap > SIZE_MAX / 2) {
            cap = want;
            break;
        }
        cap *= 2;
    }
    char *nd = b->data ? (char *)jet__realloc(&b->alloc, b->data, b->cap, cap)
                       : (char *)jet__malloc(&b->alloc, cap);
    if (!nd) goto oom;
    b->data = nd;
    b->cap = cap;
    e->lim = nd + cap - 1;
    return nd + used;
oom:
    e->code = JET_ERR_MEMORY;
    return NULL;
}

bool jet__emit_drain(jet__emit *e, bool all) {
    jet_buf *b = e->buf;
    size_t kept = emit_drain(e, b->len, all);
    if (kept == SIZE_MAX) return false;
    b->len = kept;
    b->data[kept] = '\0';
    return true;
}

char *jet__emit_str_slow(jet__emit *e, char *out, const char *s, size_t n) {
    const char *p = s, *end = s + n;
    size_t k = n < JET__EMIT_STR_CHUNK ? n : JET__EMIT_STR_CHUNK;
    /* 6 bytes per input byte at worst, the quotes, and the few bytes a
     * multi-byte sequence may run past the chunk's end. */
    out = jet__emit_room(e, out, k * 6 + 18);
    if (!out) return NULL;
    *out++ = '"';
    while (p < end) {
        out = escape_run(out, &p, p + k, end, &e->o);
        if (p >= end) break; /* also after invalid UTF-8: out is NULL */
        k = (size_t)(end - p);
        if (k > JET__EMIT_STR_CHUNK) k = JET__EMIT_STR_CHUNK;
        out = jet__emit_room(e, out, k * 6 + 18);
        if (!out) return NULL;
    }
    if (JET_UNLIKELY(!out)) { /* invalid UTF-8 that ASCII mode may not replace */
        e->code = JET_ERR_UTF8;
        return NULL;
    }
    *out++ = '"';
    return out;
}
