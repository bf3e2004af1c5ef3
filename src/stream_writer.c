/*
 * stream_writer.c — the streaming writer (jet_writer) and the public
 * printers (jet_print_*).
 *
 * The writer makes the same bytes as writer.c's tree walk: the escaping is
 * writer.c's own routine (jet__escape_run) and the numbers num_print.c's.
 * Pretty output puts the line break after an opening bracket only when the
 * first child arrives, so empty containers stay "{}" and "[]" as in the
 * tree writer.
 *
 * Nesting is one bit per open container (1: object) and a state saying
 * what may come next, so every call checks the grammar in O(1).
 */
#include <math.h>
#include <stdlib.h>

#include "internal.h"
#include "num.h"

/* Input bytes of a string escaped per reservation (6 output bytes each at
 * worst), as in writer.c. */
#define SW_STR_CHUNK 4096u

/* jet_writer.opts holds a jet__wopt (copied in and out: no aliasing). */
typedef char sw_opts_fit[sizeof(jet__wopt) <= sizeof(((jet_writer *)0)->opts) ? 1 : -1];

/* What may come next. */
enum {
    SW_ROOT,       /* the root value */
    SW_DONE,       /* nothing: the root is complete */
    SW_FIRST_ELEM, /* an element or ']' of an array with none yet */
    SW_NEXT_ELEM,  /* an element or ']' after an element */
    SW_FIRST_KEY,  /* a key or '}' of an object with no member yet */
    SW_NEXT_KEY,   /* a key or '}' after a member */
    SW_MEMBER_VAL  /* the value of the key just written */
};

/* ---------------------------------------------------------------------- */
/* Printers                                                                 */
/* ---------------------------------------------------------------------- */

size_t jet_print_f64(double d, char buf[JET_PRINT_NUM_SIZE]) {
    return jet_num_write_f64(d, buf);
}

size_t jet_print_f32(float f, char buf[JET_PRINT_NUM_SIZE]) {
    return jet_num_write_f32(f, buf);
}

size_t jet_print_uint(uint64_t u, char buf[JET_PRINT_NUM_SIZE]) {
    return jet_num_write_u64(u, buf);
}

size_t jet_print_sint(int64_t i, char buf[JET_PRINT_NUM_SIZE]) {
    return jet_num_write_i64(i, buf);
}

size_t jet_print_str(char *out, const char *s, size_t len, jet_write_flags flags) {
    jet__wopt o;
    jet__wopt_init(flags, &o);
    char *p = out;
    *p++ = '"';
    if (len) p = jet__escape_run(p, &s, s + len, s + len, &o);
    if (!p) { /* invalid UTF-8 in ASCII mode, not replaced */
        out[0] = '\0';
        return 0;
    }
    *p++ = '"';
    *p = '\0';
    return (size_t)(p - out);
}

/* ---------------------------------------------------------------------- */
/* Sink                                                                     */
/* ---------------------------------------------------------------------- */

static jet_buf *sw_buf(jet_writer *w) {
    return w->buf ? w->buf : &w->own;
}

static void sw_init(jet_writer *w, jet_buf *buf, FILE *fp, jet_write_fn fn, void *ctx,
                    jet_write_flags flags) {
    memset(w, 0, sizeof *w);
    w->buf = buf;
    jet_buf_init(&w->own, NULL);
    w->fp = fp;
    w->fn = fn;
    w->ctx = ctx;
    w->flags = flags;
    w->state = SW_ROOT;
    w->start = buf ? buf->len : 0;
    jet__wopt o;
    jet__wopt_init(flags, &o);
    memcpy(w->opts, &o, sizeof o);
    if (!buf && !fp && !fn) {
        w->err.code = JET_ERR_INVALID_ARG;
        w->err.msg = "no output for the writer";
    }
}

void jet_writer_init_buf(jet_writer *w, jet_buf *out, jet_write_flags flags) {
    if (!w) return;
    sw_init(w, out, NULL, NULL, NULL, flags);
}

void jet_writer_init_fp(jet_writer *w, FILE *fp, jet_write_flags flags) {
    if (!w) return;
    sw_init(w, NULL, fp, NULL, NULL, flags);
}

void jet_writer_init_cb(jet_writer *w, jet_write_fn fn, void *ctx, jet_write_flags flags) {
    if (!w) return;
    sw_init(w, NULL, NULL, fn, ctx, flags);
}

/* Bytes this writer has produced so far. */
static size_t sw_written(jet_writer *w) {
    return w->flushed + sw_buf(w)->len - w->start;
}

static bool sw_fail(jet_writer *w, jet_code code, const char *msg) {
    if (w->err.code == JET_OK) {
        w->err.code = code;
        w->err.msg = msg;
        w->err.offset = sw_written(w);
    }
    return false;
}

/* Room for `need` bytes (and the NUL) after buf->len; the write position,
 * or NULL with the error set. */
static JET_NOINLINE char *sw_grow(jet_writer *w, size_t need) {
    jet_buf *b = sw_buf(w);
    size_t want = b->len + need + 1;
    if (want < b->len) goto oom;
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
    return nd + b->len;
oom:
    sw_fail(w, JET_ERR_MEMORY, "out of memory");
    return NULL;
}

static inline char *sw_room(jet_writer *w, size_t need) {
    jet_buf *b = sw_buf(w);
    if (JET_LIKELY(b->data && b->cap - b->len > need)) return b->data + b->len;
    return sw_grow(w, need);
}

/* sw_room for a position `out` inside the buffer (the text before it kept). */
static char *sw_room_after(jet_writer *w, char *out, size_t need) {
    jet_buf *b = sw_buf(w);
    b->len = (size_t)(out - b->data);
    return sw_room(w, need);
}

static bool sw_deliver(jet_writer *w, const char *p, size_t n) {
    bool ok = w->fp ? fwrite(p, 1, n, w->fp) == n : w->fn(w->ctx, p, n);
    if (!ok) return sw_fail(w, JET_ERR_IO, "could not write the output");
    w->flushed += n;
    return true;
}

/* After each call: the text up to `out` is kept; a jet_buf is
 * NUL-terminated, a stream or callback gets every whole chunk. */
static bool sw_commit(jet_writer *w, char *out) {
    jet_buf *b = sw_buf(w);
    b->len = (size_t)(out - b->data);
    *out = '\0';
    if (w->buf || b->len < JET_WRITER_CHUNK) return true;
    size_t done = 0;
    while (b->len - done >= JET_WRITER_CHUNK) {
        if (!sw_deliver(w, b->data + done, JET_WRITER_CHUNK)) return false;
        done += JET_WRITER_CHUNK;
    }
    memmove(b->data, b->data + done, b->len - done);
    b->len -= done;
    return true;
}

/* ---------------------------------------------------------------------- */
/* Grammar                                                                  */
/* ---------------------------------------------------------------------- */

static unsigned sw_indent(const jet_writer *w) {
    return (w->flags >> 8) & 15u;
}

static bool sw_top_is_obj(const jet_writer *w) {
    uint32_t d = w->depth - 1;
    return (w->kinds[d / 64] >> (d % 64)) & 1u;
}

static char *sw_newline(char *out, size_t spaces) {
    *out++ = '\n';
    memset(out, ' ', spaces);
    return out + spaces;
}

/* Checks that a value may come now and writes what goes before it (comma,
 * line break, indent); the write position with room for `need` more bytes,
 * or NULL. */
static char *sw_before_value(jet_writer *w, size_t need) {
    if (!w) return NULL;
    if (w->err.code != JET_OK) return NULL;
    switch (w->state) {
    case SW_DONE:
        sw_fail(w, JET_ERR_TRAILING_CONTENT, "the document's root value is complete already");
        return NULL;
    case SW_FIRST_KEY:
    case SW_NEXT_KEY:
        sw_fail(w, JET_ERR_TYPE, "a value where an object key is expected");
        return NULL;
    default:
        break;
    }
    size_t pad = (size_t)w->depth * sw_indent(w);
    char *out = sw_room(w, need + pad + 2);
    if (!out) return NULL;
    if (w->state == SW_NEXT_ELEM) *out++ = ',';
    if (sw_indent(w) && (w->state == SW_NEXT_ELEM || w->state == SW_FIRST_ELEM))
        out = sw_newline(out, pad);
    return out;
}

static bool sw_after_value(jet_writer *w, char *out) {
    if (w->depth == 0) w->state = SW_DONE;
    else w->state = sw_top_is_obj(w) ? SW_NEXT_KEY : SW_NEXT_ELEM;
    return sw_commit(w, out);
}

/* Writes the quoted, escaped string after `out` (the room for its first
 * chunk is reserved by the caller's sw_room call of sw_str_room(len)). */
static size_t sw_str_room(size_t len) {
    return (len < SW_STR_CHUNK ? len : SW_STR_CHUNK) * 6 + 18;
}

static char *sw_put_str(jet_writer *w, char *out, const char *s, size_t len) {
    jet__wopt o;
    memcpy(&o, w->opts, sizeof o);
    const char *p = s, *e = s + len;
    *out++ = '"';
    if (len < 16) {
        /* Short strings (most keys): the table inline, no call. */
        while (p < e && !o.tab[(unsigned char)*p]) *out++ = *p++;
    }
    while (p < e) {
        size_t n = (size_t)(e - p);
        if (n > SW_STR_CHUNK) n = SW_STR_CHUNK;
        if (p != s) {
            out = sw_room_after(w, out, n * 6 + 18);
            if (!out) return NULL;
        }
        out = jet__escape_run(out, &p, p + n, e, &o);
        if (!out) {
            sw_fail(w, JET_ERR_UTF8, JET__MSG_WRITE_BAD_UTF8);
            return NULL;
        }
    }
    *out++ = '"';
    return out;
}

/* ---------------------------------------------------------------------- */
/* Calls                                                                    */
/* ---------------------------------------------------------------------- */

static bool sw_begin(jet_writer *w, bool obj) {
    if (w && w->err.code == JET_OK && w->depth >= JET_WRITER_MAX_DEPTH)
        return sw_fail(w, JET_ERR_DEPTH_LIMIT, "more than JET_WRITER_MAX_DEPTH open containers");
    char *out = sw_before_value(w, 1);
    if (!out) return false;
    *out++ = obj ? '{' : '[';
    uint32_t d = w->depth++;
    uint64_t bit = (uint64_t)1 << (d % 64);
    if (obj) w->kinds[d / 64] |= bit;
    else w->kinds[d / 64] &= ~bit;
    w->state = obj ? SW_FIRST_KEY : SW_FIRST_ELEM;
    return sw_commit(w, out);
}

static bool sw_end(jet_writer *w, bool obj) {
    if (!w || w->err.code != JET_OK) return false;
    if (w->depth == 0 || sw_top_is_obj(w) != obj)
        return sw_fail(w, JET_ERR_TYPE, obj ? "'}' without an open object"
                                            : "']' without an open array");
    if (w->state == SW_MEMBER_VAL)
        return sw_fail(w, JET_ERR_TYPE, "'}' after a key: the member has no value");
    bool empty = w->state == SW_FIRST_KEY || w->state == SW_FIRST_ELEM;
    w->depth--;
    size_t pad = (size_t)w->depth * sw_indent(w);
    char *out = sw_room(w, pad + 2);
    if (!out) return false;
    if (sw_indent(w) && !empty) out = sw_newline(out, pad);
    *out++ = obj ? '}' : ']';
    return sw_after_value(w, out);
}

bool jet_writer_obj_begin(jet_writer *w) { return sw_begin(w, true); }
bool jet_writer_arr_begin(jet_writer *w) { return sw_begin(w, false); }
bool jet_writer_obj_end(jet_writer *w) { return sw_end(w, true); }
bool jet_writer_arr_end(jet_writer *w) { return sw_end(w, false); }

bool jet_writer_keyn(jet_writer *w, const char *key, size_t len) {
    if (!w || w->err.code != JET_OK) return false;
    if (w->state != SW_FIRST_KEY && w->state != SW_NEXT_KEY)
        return sw_fail(w, JET_ERR_TYPE, w->state == SW_MEMBER_VAL
                                            ? "a key where the member's value is expected"
                                            : "a key outside an object");
    if (!key && len) return sw_fail(w, JET_ERR_INVALID_ARG, "no key");
    size_t pad = (size_t)w->depth * sw_indent(w);
    char *out = sw_room(w, pad + 2 + sw_str_room(len) + 2);
    if (!out) return false;
    if (w->state == SW_NEXT_KEY) *out++ = ',';
    if (sw_indent(w)) out = sw_newline(out, pad);
    out = sw_put_str(w, out, key, len);
    if (!out) return false;
    out = sw_room_after(w, out, 2);
    if (!out) return false;
    *out++ = ':';
    if (sw_indent(w)) *out++ = ' ';
    w->state = SW_MEMBER_VAL;
    return sw_commit(w, out);
}

bool jet_writer_key(jet_writer *w, const char *key) {
    return jet_writer_keyn(w, key, key ? strlen(key) : 0);
}

bool jet_writer_strn(jet_writer *w, const char *s, size_t len) {
    if (w && w->err.code == JET_OK && !s && len)
        return sw_fail(w, JET_ERR_INVALID_ARG, "no string");
    char *out = sw_before_value(w, sw_str_room(len));
    if (!out) return false;
    out = sw_put_str(w, out, s, len);
    return out && sw_after_value(w, out);
}

bool jet_writer_str(jet_writer *w, const char *s) {
    if (w && w->err.code == JET_OK && !s) return sw_fail(w, JET_ERR_INVALID_ARG, "no string");
    return jet_writer_strn(w, s, s ? strlen(s) : 0);
}

bool jet_writer_uint(jet_writer *w, uint64_t u) {
    char *out = sw_before_value(w, JET_PRINT_NUM_SIZE);
    if (!out) return false;
    out += jet_num_write_u64(u, out);
    return sw_after_value(w, out);
}

bool jet_writer_sint(jet_writer *w, int64_t i) {
    char *out = sw_before_value(w, JET_PRINT_NUM_SIZE);
    if (!out) return false;
    out += jet_num_write_i64(i, out);
    return sw_after_value(w, out);
}

static bool sw_finite_ok(jet_writer *w, bool finite) {
    if (!w || w->err.code != JET_OK) return false;
    if (finite || (w->flags & JET_WRITE_ALLOW_NAN_INF)) return true;
    return sw_fail(w, JET_ERR_NAN_INF,
                   "NaN or Infinity cannot be written without JET_WRITE_ALLOW_NAN_INF");
}

bool jet_writer_f64(jet_writer *w, double d) {
    if (!sw_finite_ok(w, isfinite(d))) return false;
    char *out = sw_before_value(w, JET_PRINT_NUM_SIZE);
    if (!out) return false;
    out += jet_num_write_f64(d, out);
    return sw_after_value(w, out);
}

bool jet_writer_f32(jet_writer *w, float f) {
    if (!sw_finite_ok(w, isfinite(f))) return false;
    char *out = sw_before_value(w, JET_PRINT_NUM_SIZE);
    if (!out) return false;
    out += jet_num_write_f32(f, out);
    return sw_after_value(w, out);
}

bool jet_writer_raw(jet_writer *w, const char *text, size_t len) {
    if (w && w->err.code == JET_OK && !text && len)
        return sw_fail(w, JET_ERR_INVALID_ARG, "no text");
    char *out = sw_before_value(w, len);
    if (!out) return false;
    if (len) memcpy(out, text, len);
    return sw_after_value(w, out + len);
}

bool jet_writer_null(jet_writer *w) {
    char *out = sw_before_value(w, 4);
    if (!out) return false;
    memcpy(out, "null", 4);
    return sw_after_value(w, out + 4);
}

bool jet_writer_bool(jet_writer *w, bool b) {
    char *out = sw_before_value(w, 5);
    if (!out) return false;
    memcpy(out, b ? "true" : "false", b ? 4 : 5);
    return sw_after_value(w, out + (b ? 4 : 5));
}

bool jet_writer_finish(jet_writer *w) {
    if (!w) return false;
    if (w->err.code == JET_OK && w->state != SW_DONE)
        sw_fail(w, JET_ERR_TRUNCATED, w->depth ? "containers are still open"
                                               : "no value was written");
    if (w->err.code == JET_OK && (w->flags & JET_WRITE_NEWLINE_AT_END)) {
        char *out = sw_room(w, 1);
        if (out) {
            *out++ = '\n';
            sw_commit(w, out);
        }
    }
    if (!w->buf) {
        jet_buf *b = &w->own;
        if (w->err.code == JET_OK && b->len) sw_deliver(w, b->data, b->len);
        b->len = 0;
        if (w->err.code == JET_OK && w->fp && fflush(w->fp) != 0)
            sw_fail(w, JET_ERR_IO, "could not write the output");
        jet_buf_free(b);
    }
    w->state = SW_DONE;
    return w->err.code == JET_OK;
}

const jet_error *jet_writer_error(const jet_writer *w) {
    return w ? &w->err : NULL;
}
