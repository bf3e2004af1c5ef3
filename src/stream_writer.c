/*
 * stream_writer.c — the streaming writer (jet_writer) and the public
 * printers (jet_print_*).
 *
 * The writer makes the same bytes as writer.c's tree walk: both write
 * through emit.h's primitives (buffer, sinks, escaper, numbers,
 * punctuation); this file adds the grammar checks. Pretty output puts the
 * line break after an opening bracket only when the first child arrives,
 * so empty containers stay "{}" and "[]" as in the tree writer.
 *
 * Nesting is one bit per open container (1: object) and a state saying
 * what may come next, so every call checks the grammar in O(1).
 */
#include <math.h>
#include <stdlib.h>

#include "emit.h"

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

/* The emitter of one call, over the writer's buffer and sink; `strings`:
 * the call writes a string (the escaper's options are copied in). */
static inline void sw_emit(jet_writer *w, jet__emit *e, bool strings) {
    e->buf = sw_buf(w);
    e->lim = e->buf->data ? e->buf->data + e->buf->cap - 1 : NULL;
    e->fp = w->fp;
    e->fn = w->fn;
    e->ctx = w->ctx;
    e->flushed = 0;
    e->code = JET_OK;
    if (strings) memcpy(&e->o, w->opts, sizeof e->o);
}

/* The emitter failed (memory, or the stream). */
static bool sw_emit_fail(jet_writer *w, const jet__emit *e) {
    w->flushed += e->flushed;
    return sw_fail(w, e->code, jet__emit_message(e));
}

/* After each call: the text up to `out` is kept; a jet_buf is
 * NUL-terminated, a stream or callback gets every whole chunk. */
static inline bool sw_commit(jet_writer *w, jet__emit *e, char *out) {
    if (!out) return sw_emit_fail(w, e);
    if (!jet__emit_commit(e, out, false)) return sw_emit_fail(w, e);
    w->flushed += e->flushed;
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

/* Checks that a value may come now, starts the call's emitter and writes
 * what goes before the value (comma, line break, indent); the write
 * position with room for `need` more bytes, or NULL. */
static inline char *sw_before_value(jet_writer *w, jet__emit *e, size_t need, bool strings) {
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
    sw_emit(w, e, strings);
    size_t pad = (size_t)w->depth * sw_indent(w);
    char *out = jet__emit_start(e, need + pad + 2);
    if (!out) {
        sw_emit_fail(w, e);
        return NULL;
    }
    bool pretty = sw_indent(w) != 0;
    if (w->state == SW_NEXT_ELEM) out = jet__put_comma(out, pretty, pad);
    else if (w->state == SW_FIRST_ELEM && pretty) out = jet__put_newline(out, pad);
    return out;
}

static inline bool sw_after_value(jet_writer *w, jet__emit *e, char *out) {
    if (w->depth == 0) w->state = SW_DONE;
    else w->state = sw_top_is_obj(w) ? SW_NEXT_KEY : SW_NEXT_ELEM;
    return sw_commit(w, e, out);
}

/* ---------------------------------------------------------------------- */
/* Calls                                                                    */
/* ---------------------------------------------------------------------- */

static bool sw_begin(jet_writer *w, bool obj) {
    if (w && w->err.code == JET_OK && w->depth >= JET_WRITER_MAX_DEPTH)
        return sw_fail(w, JET_ERR_DEPTH_LIMIT, "more than JET_WRITER_MAX_DEPTH open containers");
    jet__emit e;
    char *out = sw_before_value(w, &e, 1, false);
    if (!out) return false;
    *out++ = obj ? '{' : '[';
    uint32_t d = w->depth++;
    uint64_t bit = (uint64_t)1 << (d % 64);
    if (obj) w->kinds[d / 64] |= bit;
    else w->kinds[d / 64] &= ~bit;
    w->state = obj ? SW_FIRST_KEY : SW_FIRST_ELEM;
    return sw_commit(w, &e, out);
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
    jet__emit e;
    sw_emit(w, &e, false);
    char *out = jet__emit_start(&e, pad + 2);
    if (!out) return sw_emit_fail(w, &e);
    out = jet__put_close(out, obj, sw_indent(w) && !empty, pad);
    return sw_after_value(w, &e, out);
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
    bool pretty = sw_indent(w) != 0;
    jet__emit e;
    sw_emit(w, &e, true);
    char *out = jet__emit_start(&e, pad + 2);
    if (!out) return sw_emit_fail(w, &e);
    if (w->state == SW_NEXT_KEY) out = jet__put_comma(out, pretty, pad);
    else if (pretty) out = jet__put_newline(out, pad);
    out = jet__emit_str(&e, out, key, len);
    if (out) out = jet__emit_room(&e, out, 2);
    if (!out) return sw_emit_fail(w, &e);
    out = jet__put_colon(out, pretty);
    w->state = SW_MEMBER_VAL;
    return sw_commit(w, &e, out);
}

bool jet_writer_key(jet_writer *w, const char *key) {
    return jet_writer_keyn(w, key, key ? strlen(key) : 0);
}

bool jet_writer_strn(jet_writer *w, const char *s, size_t len) {
    if (w && w->err.code == JET_OK && !s && len)
        return sw_fail(w, JET_ERR_INVALID_ARG, "no string");
    jet__emit e;
    char *out = sw_before_value(w, &e, 0, true);
    if (!out) return false;
    return sw_after_value(w, &e, jet__emit_str(&e, out, s, len));
}

bool jet_writer_str(jet_writer *w, const char *s) {
    if (w && w->err.code == JET_OK && !s) return sw_fail(w, JET_ERR_INVALID_ARG, "no string");
    return jet_writer_strn(w, s, s ? strlen(s) : 0);
}

bool jet_writer_uint(jet_writer *w, uint64_t u) {
    jet__emit e;
    char *out = sw_before_value(w, &e, JET_PRINT_NUM_SIZE, false);
    if (!out) return false;
    out += jet_num_write_u64(u, out);
    return sw_after_value(w, &e, out);
}

bool jet_writer_sint(jet_writer *w, int64_t i) {
    jet__emit e;
    char *out = sw_before_value(w, &e, JET_PRINT_NUM_SIZE, false);
    if (!out) return false;
    out += jet_num_write_i64(i, out);
    return sw_after_value(w, &e, out);
}

static bool sw_finite_ok(jet_writer *w, bool finite) {
    if (!w || w->err.code != JET_OK) return false;
    if (finite || (w->flags & JET_WRITE_ALLOW_NAN_INF)) return true;
    return sw_fail(w, JET_ERR_NAN_INF,
                   "NaN or Infinity cannot be written without JET_WRITE_ALLOW_NAN_INF");
}

bool jet_writer_f64(jet_writer *w, double d) {
    if (!sw_finite_ok(w, isfinite(d))) return false;
    jet__emit e;
    char *out = sw_before_value(w, &e, JET_PRINT_NUM_SIZE, false);
    if (!out) return false;
    out += jet_num_write_f64(d, out);
    return sw_after_value(w, &e, out);
}

bool jet_writer_f32(jet_writer *w, float f) {
    if (!sw_finite_ok(w, isfinite(f))) return false;
    jet__emit e;
    char *out = sw_before_value(w, &e, JET_PRINT_NUM_SIZE, false);
    if (!out) return false;
    out += jet_num_write_f32(f, out);
    return sw_after_value(w, &e, out);
}

bool jet_writer_raw(jet_writer *w, const char *text, size_t len) {
    if (w && w->err.code == JET_OK && !text && len)
        return sw_fail(w, JET_ERR_INVALID_ARG, "no text");
    jet__emit e;
    char *out = sw_before_value(w, &e, len, false);
    if (!out) return false;
    if (len) memcpy(out, text, len);
    return sw_after_value(w, &e, out + len);
}

bool jet_writer_null(jet_writer *w) {
    jet__emit e;
    char *out = sw_before_value(w, &e, 4, false);
    if (!out) return false;
    memcpy(out, "null", 4);
    return sw_after_value(w, &e, out + 4);
}

bool jet_writer_bool(jet_writer *w, bool b) {
    jet__emit e;
    char *out = sw_before_value(w, &e, 5, false);
    if (!out) return false;
    memcpy(out, b ? "true" : "false", b ? 4 : 5);
    return sw_after_value(w, &e, out + (b ? 4 : 5));
}

bool jet_writer_finish(jet_writer *w) {
    if (!w) return false;
    if (w->err.code == JET_OK && w->state != SW_DONE)
        sw_fail(w, JET_ERR_TRUNCATED, w->depth ? "containers are still open"
                                               : "no value was written");
    jet__emit e;
    sw_emit(w, &e, false);
    if (w->err.code == JET_OK) {
        char *out = jet__emit_start(&e, 1);
        if (out && (w->flags & JET_WRITE_NEWLINE_AT_END)) *out++ = '\n';
        /* everything left goes to the stream */
        if (!out || !jet__emit_commit(&e, out, true)) sw_emit_fail(w, &e);
        else w->flushed += e.flushed;
        if (w->err.code == JET_OK && w->fp && fflush(w->fp) != 0)
            sw_fail(w, JET_ERR_IO, "could not write the output");
    }
    if (!w->buf) jet_buf_free(&w->own);
    w->state = SW_DONE;
    return w->err.code == JET_OK;
}

const jet_error *jet_writer_error(const jet_writer *w) {
    return w ? &w->err : NULL;
}
