/*
 * writer.c — serialization of a value tree to JSON text.
 *
 * Design (speed first):
 *   - One growable output buffer; capacity is checked once per value (or per
 *     4 KiB chunk of a long string), never per byte.
 *   - The tree is walked iteratively with an explicit stack of open
 *     containers, so nesting depth is limited only by memory.
 *   - Strings are scanned 8 bytes at a time (SWAR) for bytes that need
 *     escaping; clean runs are copied with unaligned 8-byte stores. Strings
 *     the reader marked NOESC are copied without a scan in the default mode.
 *   - Writing to a FILE streams through a fixed-size buffer.
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
 */
#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "num.h"

/* Input bytes of a string handled per capacity check: bounds the worst-case
 * reservation (6 output bytes per input byte) for very long strings. */
#define STR_CHUNK 4096u
/* Room for any scalar or punctuation group (numbers need 27 bytes). */
#define SCALAR_ROOM 64u
/* Stack frames kept on the C stack before the heap is used. */
#define LOCAL_FRAMES 64u
/* Buffer size when streaming to a FILE. */
#define FP_BUF_SIZE 65536u

typedef struct wr {
    char *buf;          /* start of the buffer */
    char *end;          /* buf + cap - 1: one byte always kept for the NUL */
    size_t cap;
    const jet_alloc *al;
    FILE *fp;           /* streaming sink, or NULL for an in-memory result */
    jet_code code;      /* why the last grow failed */
} wr;

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

/* Per-write options, resolved once (jet__wopt, shared with encode.c). */
typedef jet__wopt wopt;

/* ---------------------------------------------------------------------- */
/* Buffer                                                                   */
/* ---------------------------------------------------------------------- */

static bool wr_init(wr *w, const jet_alloc *al, FILE *fp, size_t cap) {
    if (cap < 256) cap = 256;
    w->al = al;
    w->fp = fp;
    w->code = JET_OK;
    w->buf = (char *)jet__malloc(al, cap);
    if (!w->buf) {
        w->code = JET_ERR_MEMORY;
        return false;
    }
    w->cap = cap;
    w->end = w->buf + cap - 1;
    return true;
}

/* Makes room for `need` bytes at `out`; returns the (possibly moved) write
 * position, or NULL with w->code set. Kept out of line: it is the rare
 * path of every reservation. */
static JET_NOINLINE char *wr_grow(wr *w, char *out, size_t need) {
    size_t used = (size_t)(out - w->buf);
    if (w->fp) {
        /* Streaming: drain what is there, then the buffer is empty. */
        if (used && fwrite(w->buf, 1, used, w->fp) != used) {
            w->code = JET_ERR_IO;
            return NULL;
        }
        used = 0;
        out = w->buf;
        if ((size_t)(w->end - out) >= need) return out;
    }
    size_t want = used + need + 1;
    if (want < used) goto oom; /* overflow */
    size_t cap = w->cap;
    while (cap < want) {
        if (cap > SIZE_MAX / 2) {
            cap = want;
            break;
        }
        cap *= 2;
    }
    char *nb = (char *)jet__realloc(w->al, w->buf, w->cap, cap);
    if (!nb) goto oom;
    w->buf = nb;
    w->cap = cap;
    w->end = nb + cap - 1;
    return nb + used;
oom:
    w->code = JET_ERR_MEMORY;
    return NULL;
}

#define RESERVE(n)                                                         \
    do {                                                                   \
        if (JET_UNLIKELY((size_t)(w->end - out) < (size_t)(n))) {          \
            out = wr_grow(w, out, (n));                                    \
            if (!out) goto fail;                                           \
        }                                                                  \
    } while (0)

/* ---------------------------------------------------------------------- */
/* Strings                                                                  */
/* ---------------------------------------------------------------------- */

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
static const char *put_non_ascii(const char *p, const char *e, char **outp, const wopt *o) {
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
                                                 uint8_t t, const wopt *o) {
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

/* Escapes the bytes from *pp up to `stop` (a multi-byte sequence that
 * starts before `stop` is finished, up to `e`) into `out`, which has room
 * for 6 bytes per input byte plus 16; advances *pp and returns the new
 * output position; NULL (and *pp unspecified) at invalid UTF-8 that ASCII
 * mode may not replace. */
static inline char *escape_run(char *out, const char **pp, const char *stop, const char *e,
                               const wopt *o) {
    const char *p = *pp;
    const uint8_t *tab = o->tab;
#if JET_SWAR
    while (stop - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        memcpy(out, &x, 8); /* speculative: kept only up to the hit */
        uint64_t m = jet__swar_escape_flags(jet__le64_of_native(x, JET_BIG_ENDIAN), o->slash_pat,
                                            o->hi_mask);
        if (JET_LIKELY(!m)) {
            p += 8;
            out += 8;
            continue;
        }
        unsigned k = jet__swar_first_flagged(m);
        p += k;
        out += k;
        p = put_flagged(p, e, &out, tab[(unsigned char)*p], o);
    }
#endif
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

/* Writes the quoted, escaped string; returns the new position or NULL. */
static char *put_str(wr *w, char *out, const char *str, size_t len, const wopt *o) {
    const char *p = str, *e = str + len;
    bool first = true;
    for (;;) {
        size_t n = (size_t)(e - p);
        if (n > STR_CHUNK) n = STR_CHUNK;
        /* 6 bytes per input byte at worst, plus quotes and the few bytes a
         * multi-byte sequence may run past the chunk end. */
        RESERVE(n * 6 + 16);
        if (first) {
            *out++ = '"';
            first = false;
        }
        out = escape_run(out, &p, p + n, e, o);
        if (JET_UNLIKELY(!out)) {
            w->code = JET_ERR_UTF8;
            return NULL;
        }
        if (p >= e) break;
    }
    *out++ = '"';
    return out;
fail:
    return NULL;
}

/* A string value or key. One that was read without any backslash escape
 * (NOESC) holds no '"', '\\' or control byte (the reader rejects them
 * raw), so unless ASCII or '/' escaping is asked for it is copied as is. */
static inline char *put_str_val(wr *w, char *out, const jet_val *v, const wopt *o) {
    size_t n = jet_get_len(v);
    if ((v->tag & JET_TAG_STR_NOESC) && o->verbatim_ok) {
        RESERVE(n + 2);
        *out++ = '"';
        memcpy(out, v->uni.str, n);
        out += n;
        *out++ = '"';
        return out;
    }
    return put_str(w, out, v->uni.str, n, o);
fail:
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Tree walk                                                                */
/* ---------------------------------------------------------------------- */

static char *put_newline_indent(char *out, size_t spaces) {
    *out++ = '\n';
    memset(out, ' ', spaces);
    return out + spaces;
}

/*
 * The walk. Frames hold the members/elements still to write, shifted left
 * by one, with the low bit set for objects. `pretty` is a compile-time
 * constant at both call sites so each variant is specialised.
 */
static inline bool write_tree(wr *w, const jet_val *v, const wopt *o, bool pretty,
                              jet_error *err) {
    size_t local[LOCAL_FRAMES];
    size_t *stack = local;
    size_t cap = LOCAL_FRAMES, depth = 0;
    const size_t indent = pretty ? o->indent : 0;
    char *out = w->buf;
    const char *emsg = NULL;
    jet_code ecode = JET_OK;

    for (;;) {
        /* ---- one value at v ---- */
        RESERVE(SCALAR_ROOM + depth * indent);
        switch (jet_get_kind(v)) {
        case JET_TYPE_NUM | JET_SUBTYPE_UINT:
            out += jet_num_write_u64(v->uni.u, out);
            v++;
            break;
        case JET_TYPE_NUM | JET_SUBTYPE_SINT:
            out += jet_num_write_i64(v->uni.i, out);
            v++;
            break;
        case JET_TYPE_NUM | JET_SUBTYPE_REAL:
            if (JET_UNLIKELY(!isfinite(v->uni.d)) && !o->nan_inf) {
                ecode = JET_ERR_NAN_INF;
                emsg = "NaN or Infinity cannot be written without JET_WRITE_ALLOW_NAN_INF";
                goto fail_code;
            }
            out += jet_num_write_f64(v->uni.d, out);
            v++;
            break;
        case JET_TYPE_STR:
        str:
            out = put_str_val(w, out, v, o);
            if (!out) goto fail;
            v++;
            break;
        case JET_TYPE_RAW: {
            size_t n = jet_get_len(v);
            RESERVE(n);
            memcpy(out, v->uni.str, n);
            out += n;
            v++;
            break;
        }
        case JET_TYPE_NULL:
            memcpy(out, "null", 4);
            out += 4;
            v++;
            break;
        case JET_TYPE_BOOL | JET_SUBTYPE_TRUE:
            memcpy(out, "true", 4);
            out += 4;
            v++;
            break;
        case JET_TYPE_BOOL | JET_SUBTYPE_FALSE:
            memcpy(out, "false", 5);
            out += 5;
            v++;
            break;
        case JET_TYPE_ARR:
        case JET_TYPE_OBJ: {
            bool obj = jet_is_obj(v);
            size_t n = jet_get_len(v);
            if (n == 0) {
                out[0] = obj ? '{' : '[';
                out[1] = obj ? '}' : ']';
                out += 2;
                v += v->uni.ofs ? v->uni.ofs : 1;
                break;
            }
            if (JET_UNLIKELY(depth == cap)) {
                size_t ncap = cap * 2;
                size_t *ns = (size_t *)jet__malloc(w->al, ncap * sizeof *ns);
                if (!ns) {
                    w->code = JET_ERR_MEMORY;
                    goto fail;
                }
                memcpy(ns, stack, depth * sizeof *ns);
                if (stack != local) jet__free(w->al, stack);
                stack = ns;
                cap = ncap;
            }
            stack[depth++] = (n << 1) | (size_t)obj;
            *out++ = obj ? '{' : '[';
            if (pretty) {
                RESERVE(SCALAR_ROOM + depth * indent);
                out = put_newline_indent(out, depth * indent);
            }
            v++;
            if (obj) goto key;
            continue;
        }
        default:
            /* Strings carry no subtype today; accept any that appear. */
            if (jet_is_str(v)) goto str;
            ecode = JET_ERR_INVALID_ARG;
            emsg = "not a valid value in the tree";
            goto fail_code;
        }

        /* ---- after a value: separators, keys and closing brackets ---- */
        for (;;) {
            if (depth == 0) goto done;
            size_t *top = &stack[depth - 1];
            *top -= 2;
            if (*top >> 1) {
                RESERVE(SCALAR_ROOM + depth * indent);
                *out++ = ',';
                if (pretty) out = put_newline_indent(out, depth * indent);
                if (*top & 1) goto key;
                break;
            }
            bool obj = *top & 1;
            depth--;
            RESERVE(SCALAR_ROOM + depth * indent);
            if (pretty) out = put_newline_indent(out, depth * indent);
            *out++ = obj ? '}' : ']';
        }
        continue;

    key:
        if (JET_UNLIKELY(!jet_is_str(v))) {
            ecode = JET_ERR_INVALID_ARG;
            emsg = "object key is not a string";
            goto fail_code;
        }
        out = put_str_val(w, out, v, o);
        if (!out) goto fail;
        v++;
        RESERVE(2);
        *out++ = ':';
        if (pretty) *out++ = ' ';
    }

done:
    if (stack != local) jet__free(w->al, stack);
    w->end = out; /* hand the final position back through `end` */
    return true;

fail:
    ecode = w->code;
    emsg = ecode == JET_ERR_IO     ? "could not write the output"
           : ecode == JET_ERR_UTF8 ? JET__MSG_WRITE_BAD_UTF8
                                   : "out of memory";
fail_code:
    if (stack != local) jet__free(w->al, stack);
    jet__error_set(err, ecode, 0, emsg);
    return false;
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

/* Writes into w (already initialised); on success w->end is the position
 * just past the text and a NUL follows it. */
static bool write_all(wr *w, const jet_val *val, jet_write_flags flags, jet_error *err) {
    wopt o;
    jet__wopt_init(flags, &o);
    bool ok = o.indent ? write_tree(w, val, &o, true, err)
                       : write_tree(w, val, &o, false, err);
    if (!ok) return false;
    /* write_tree left the final position in w->end; one byte of the real
     * end was always kept free, so the newline needs its own check. */
    char *out = w->end;
    w->end = w->buf + w->cap - 1;
    if (flags & JET_WRITE_NEWLINE_AT_END) {
        if (w->end == out) {
            out = wr_grow(w, out, 1);
            if (!out) {
                jet__error_set(err, w->code, 0,
                               w->code == JET_ERR_IO ? "could not write the output"
                                                     : "out of memory");
                return false;
            }
        }
        *out++ = '\n';
    }
    *out = '\0';
    w->end = out;
    return true;
}

/* A first capacity guess: overestimating is cheap (untouched pages of a
 * large allocation cost nothing), underestimating costs copies. */
static size_t estimate(const jet_val *val, unsigned indent) {
    size_t slots = jet_is_container(val) ? val->uni.ofs : 1;
    if (jet_is_str(val) || jet_is_raw(val)) return jet_get_len(val) + 64;
    if (slots > SIZE_MAX / 64) return SIZE_MAX / 64;
    return slots * (16 + 2 * (size_t)indent) + 64;
}

static char *write_mem(const jet_val *val, jet_write_flags flags, const jet_alloc *alloc,
                       size_t *out_len, jet_error *err, size_t hint) {
    if (out_len) *out_len = 0;
    if (!val) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "no value to write");
        return NULL;
    }
    wr w;
    if (!wr_init(&w, jet__alloc_or_default(alloc), NULL, hint)) {
        jet__error_set(err, JET_ERR_MEMORY, 0, "out of memory");
        return NULL;
    }
    if (!write_all(&w, val, flags, err)) {
        jet__free(w.al, w.buf);
        return NULL;
    }
    if (out_len) *out_len = (size_t)(w.end - w.buf);
    return w.buf;
}

char *jet_val_write(const jet_val *val, jet_write_flags flags, const jet_alloc *alloc,
                    size_t *out_len, jet_error *err) {
    size_t hint = val ? estimate(val, (flags >> 8) & 15u) : 0;
    return write_mem(val, flags, alloc, out_len, err, hint);
}

char *jet_doc_write(const jet_doc *doc, jet_write_flags flags, const jet_alloc *alloc,
                    size_t *out_len, jet_error *err) {
    if (!doc) {
        if (out_len) *out_len = 0;
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "no document to write");
        return NULL;
    }
    const jet_val *root = jet_doc_root(doc);
    size_t hint = root ? estimate(root, (flags >> 8) & 15u) : 0;
    /* The input size is a good bound for minified output of a parsed doc. */
    size_t rs = jet_doc_read_size(doc);
    if (!((flags >> 8) & 15u) && rs && rs < hint) hint = rs + rs / 8 + 64;
    return write_mem(root, flags, alloc, out_len, err, hint);
}

bool jet_val_write_fp(FILE *fp, const jet_val *val, jet_write_flags flags,
                      const jet_alloc *alloc, jet_error *err) {
    if (!fp || !val) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, fp ? "no value to write" : "no stream");
        return false;
    }
    wr w;
    if (!wr_init(&w, jet__alloc_or_default(alloc), fp, FP_BUF_SIZE)) {
        jet__error_set(err, JET_ERR_MEMORY, 0, "out of memory");
        return false;
    }
    bool ok = write_all(&w, val, flags, err);
    if (ok) {
        size_t n = (size_t)(w.end - w.buf);
        if ((n && fwrite(w.buf, 1, n, fp) != n) || fflush(fp) != 0) {
            jet__error_set(err, JET_ERR_IO, 0, "could not write the output");
            ok = false;
        }
    }
    jet__free(w.al, w.buf);
    return ok;
}

bool jet_val_write_file(const char *path, const jet_val *val, jet_write_flags flags,
                        const jet_alloc *alloc, jet_error *err) {
    if (!path || !val) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, path ? "no value to write" : "no path");
        return false;
    }
    if (strcmp(path, "-") == 0) return jet_val_write_fp(stdout, val, flags, alloc, err);
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        jet__error_set(err, JET_ERR_IO, 0, "could not open the output file");
        return false;
    }
    bool ok = jet_val_write_fp(fp, val, flags, alloc, err);
    if (fclose(fp) != 0 && ok) {
        jet__error_set(err, JET_ERR_IO, 0, "could not write the output");
        ok = false;
    }
    return ok;
}
