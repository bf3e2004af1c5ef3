/*
 * emit.h — the output primitives every writer shares (internal): the tree
 * writer (writer.c), the mutable writer (mut.c), the streaming writer
 * (stream_writer.c) and the typed encoder (encode.c).
 *
 * An emitter is a growable jet_buf with an optional stream behind it (a
 * FILE or a callback, fed whole JET_WRITER_CHUNK chunks). Writers keep the
 * write position in a local `char *out` and ask for room before writing:
 * jet__emit_room() is one compare in the common case; the growth and the
 * draining to a stream are out of line (emit.c). The put_* helpers write
 * into room already reserved and never check.
 *
 * Nesting is not checked here: the tree walkers cannot produce bad
 * nesting, and jet_writer checks its grammar before it calls these.
 */
#ifndef JET_EMIT_H
#define JET_EMIT_H

#include <math.h>

#include "errors.h"
#include "internal.h"
#include "num.h"
#include "num_print.h"

/* Input bytes of a string escaped per reservation (6 output bytes each at
 * worst): bounds the reservation for very long strings. */
#define JET__EMIT_STR_CHUNK 4096u
/* Room for any number, literal or bracket with its separator. */
#define JET__EMIT_SCALAR_ROOM 40u

typedef struct jet__emit {
    char *lim;          /* buf->data + buf->cap - 1: a byte kept for the NUL */
    jet_buf *buf;       /* the text; buf->len is set by jet__emit_commit */
    FILE *fp;           /* stream sinks (both NULL: the buffer is the output) */
    jet_write_fn fn;
    void *ctx;
    size_t flushed;     /* bytes handed to the stream so far */
    jet_code code;      /* why the last call failed */
    jet__wopt o;
} jet__emit;

/* Starts an emitter appending to `buf` (its data may be NULL); with `fp` or
 * `fn` set, whole chunks leave for that stream as the buffer fills. */
void jet__emit_init(jet__emit *e, jet_buf *buf, FILE *fp, jet_write_fn fn, void *ctx,
                    jet_write_flags flags);
/* Out of line: room for `need` bytes at `out` (NULL: no buffer yet; the
 * text before `out` kept, whole chunks of it drained to a stream first);
 * the new write position, or NULL with e->code set. */
char *jet__emit_grow(jet__emit *e, char *out, size_t need);
/* Room for `need` bytes at `out` (a position in the buffer): `out` itself,
 * or where the text moved to; NULL with e->code set when memory or the
 * stream failed. */
static JET_ALWAYS_INLINE char *jet__emit_room(jet__emit *e, char *out, size_t need) {
    if (JET_LIKELY((size_t)(e->lim - out) >= need)) return out;
    return jet__emit_grow(e, out, need);
}
/* The position after the text committed so far, with room for `need`
 * bytes (the first buffer allocated here, or a caller's buffer without
 * room for its NUL grown); NULL with e->code set. */
static inline char *jet__emit_start(jet__emit *e, size_t need) {
    if (!e->buf->data || e->buf->len >= e->buf->cap) return jet__emit_grow(e, NULL, need);
    return jet__emit_room(e, e->buf->data + e->buf->len, need);
}
/* Out of line: jet__emit_commit's stream half. */
bool jet__emit_drain(jet__emit *e, bool all);
/* Keeps the text up to `out`: sets buf->len and the NUL after it; with a
 * stream, hands it every whole chunk (`all`: everything). False with
 * e->code set when the stream failed. */
static JET_ALWAYS_INLINE bool jet__emit_commit(jet__emit *e, char *out, bool all) {
    if (!out) return true; /* nothing written, no buffer */
    jet_buf *b = e->buf;
    b->len = (size_t)(out - b->data);
    if (JET_UNLIKELY((e->fp || e->fn) && (all || b->len >= JET_WRITER_CHUNK)))
        return jet__emit_drain(e, all);
    *out = '\0';
    return true;
}
/* A message for e->code after a failed call. */
const char *jet__emit_message(const jet__emit *e);
/* Sets *err after a tree walk failed: why it refused a value (`status`:
 * JET__SCALAR_*), or, for JET__SCALAR_OK, e->code. */
void jet__emit_fail(const jet__emit *e, jet_error *err, int status);
/* Doubles a walk's stack of frames (`frame` bytes each; *stack == local:
 * the first one, on the C stack, is not freed). False with e->code set. */
bool jet__emit_stack_grow(jet__emit *e, void **stack, void *local, size_t *cap, size_t frame);

/* ---- strings ---- */

/* The quoted, escaped string s[0..n) after `out`; room is reserved here.
 * The new position, or NULL with e->code set: memory, the stream, or
 * JET_ERR_UTF8 (invalid UTF-8 in ASCII mode without replace_invalid; see
 * emit.c). Out of line: long strings and strings with bytes to escape. */
char *jet__emit_str_slow(jet__emit *e, char *out, const char *s, size_t n);

/* dst[0..n) = src[0..n) for w <= n <= 2w, in two overlapping moves of a
 * T (w = sizeof(T) bytes). */
#define JET__COPY_ENDS(T, dst, src, n)                 \
    do {                                               \
        T a_, b_;                                      \
        memcpy(&a_, (src), sizeof a_);                 \
        memcpy(&b_, (src) + (n) - sizeof b_, sizeof b_); \
        memcpy((dst), &a_, sizeof a_);                 \
        memcpy((dst) + (n) - sizeof b_, &b_, sizeof b_); \
    } while (0)
/* Copies n bytes with overlapping 4-, 8- or 16-byte moves (no call for the
 * strings of documents, mostly under 256 bytes): reads only src[0..n),
 * writes dst[0..n). */
static JET_ALWAYS_INLINE void jet__copy_small(char *dst, const char *src, size_t n) {
    if (n > 16) {
        if (n > 256) {
            memcpy(dst, src, n);
            return;
        }
        for (size_t k = 0; k + 16 < n; k += 16) memcpy(dst + k, src + k, 16);
        memcpy(dst + n - 16, src + n - 16, 16); /* overlaps the last move */
    } else if (n >= 8) {
        JET__COPY_ENDS(uint64_t, dst, src, n);
    } else if (n >= 4) {
        JET__COPY_ENDS(uint32_t, dst, src, n);
    } else if (n) {
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}

/* A string known to need no escaping (a reader's NOESC string in the
 * default mode), quoted, into room of n + 2 bytes. */
static JET_ALWAYS_INLINE char *jet__put_str_verbatim(char *out, const char *s, size_t n) {
    *out++ = '"';
    jet__copy_small(out, s, n);
    out += n;
    *out++ = '"';
    return out;
}

/* Any string, quoted and escaped under the emitter's flags. Short clean
 * strings (most keys) are copied in this inline loop; the rest go to
 * jet__emit_str_slow (NULL and e->code as there; in ASCII mode every
 * non-ASCII byte goes there). */
static JET_ALWAYS_INLINE char *jet__emit_str(jet__emit *e, char *out, const char *s, size_t n) {
    if (n < 16) {
        const uint8_t *tab = e->o.tab;
        size_t k = 0;
        while (k < n && !tab[(unsigned char)s[k]]) k++;
        if (k == n) {
            out = jet__emit_room(e, out, n + 2);
            return out ? jet__put_str_verbatim(out, s, n) : NULL;
        }
    }
    return jet__emit_str_slow(e, out, s, n);
}

/* ---- punctuation (room reserved by the caller) ---- */

/* The indents of pretty output are copied from here (no memset call per
 * line) up to its length. */
#define JET__SPACES_16 "                "
static const char jet__spaces[257] =
    JET__SPACES_16 JET__SPACES_16 JET__SPACES_16 JET__SPACES_16 JET__SPACES_16 JET__SPACES_16
    JET__SPACES_16 JET__SPACES_16 JET__SPACES_16 JET__SPACES_16 JET__SPACES_16 JET__SPACES_16
    JET__SPACES_16 JET__SPACES_16 JET__SPACES_16 JET__SPACES_16;

static JET_ALWAYS_INLINE char *jet__put_newline(char *out, size_t spaces) {
    *out++ = '\n';
    if (JET_LIKELY(spaces <= 256)) jet__copy_small(out, jet__spaces, spaces);
    else memset(out, ' ', spaces);
    return out + spaces;
}

/* A line break and `spaces` spaces (< 16) in one 16-byte store, for the
 * tree walks, which reserve the 15 bytes of slack this needs
 * (tree_walk.h's WALK_SEP_ROOM); deeper lines as jet__put_newline. */
static const char jet__line16[16] = {'\n', ' ', ' ', ' ', ' ', ' ', ' ', ' ',
                                     ' ',  ' ', ' ', ' ', ' ', ' ', ' ', ' '};
static JET_ALWAYS_INLINE char *jet__put_line16(char *out, size_t spaces) {
    if (JET_LIKELY(spaces < 16)) {
        memcpy(out, jet__line16, 16);
        return out + 1 + spaces;
    }
    return jet__put_newline(out, spaces);
}

/* "{}" or "[]". */
static JET_ALWAYS_INLINE char *jet__put_empty(char *out, bool obj) {
    out[0] = obj ? '{' : '[';
    out[1] = obj ? '}' : ']';
    return out + 2;
}

/* The bracket opening a non-empty container; when pretty, the line break
 * and `pad` spaces before its first child. */
static JET_ALWAYS_INLINE char *jet__put_open(char *out, bool obj, bool pretty, size_t pad) {
    *out++ = obj ? '{' : '[';
    return pretty ? jet__put_newline(out, pad) : out;
}

/* The comma between two children (and the next child's line break). */
static JET_ALWAYS_INLINE char *jet__put_comma(char *out, bool pretty, size_t pad) {
    *out++ = ',';
    return pretty ? jet__put_newline(out, pad) : out;
}

/* The bracket closing a non-empty container, on its own line when pretty
 * (`pad`: the container's own indent). */
static JET_ALWAYS_INLINE char *jet__put_close(char *out, bool obj, bool pretty, size_t pad) {
    if (pretty) out = jet__put_newline(out, pad);
    *out++ = obj ? '}' : ']';
    return out;
}

/* ":" or ": " after a key. */
static JET_ALWAYS_INLINE char *jet__put_colon(char *out, bool pretty) {
    out[0] = ':';
    out[1] = ' ';
    return out + 1 + (pretty ? 1 : 0);
}

/* ---- scalars (room reserved by the caller) ---- */

/* Integers, inline (num_print.h): no call below 10^16. */
static JET_ALWAYS_INLINE char *jet__put_uint(char *out, uint64_t u) {
    return jet__num_put_u64(out, u);
}

static JET_ALWAYS_INLINE char *jet__put_sint(char *out, int64_t i) {
    *out = '-';
    out += i < 0;
    return jet__num_put_u64(out, i < 0 ? UINT64_C(0) - (uint64_t)i : (uint64_t)i);
}

/* A literal of n <= 8 bytes (null, true, false). */
static JET_ALWAYS_INLINE char *jet__put_lit(char *out, const char *lit, size_t n) {
    memcpy(out, lit, n);
    return out + n;
}

/* Why a tree walk stopped (jet__emit_fail). */
enum { JET__SCALAR_OK, JET__SCALAR_NAN_INF, JET__SCALAR_BAD, JET__SCALAR_BAD_KEY };

/* Frames of a tree walk (tree_walk.h) kept on the C stack. */
#define JET__WALK_LOCAL_FRAMES 64u

#endif
