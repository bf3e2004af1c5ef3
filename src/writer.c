/*
 * writer.c — serialization of a value tree to JSON text.
 *
 * Design (speed first):
 *   - The output primitives are emit.h's, shared with the mutable writer,
 *     jet_writer and jet_encode: one growable buffer whose room is checked
 *     once per value (or per 4 KiB chunk of a long string), never per byte.
 *   - The tree is walked iteratively with an explicit stack of open
 *     containers, so nesting depth is limited only by memory. The walk
 *     cannot nest wrongly, so it does none of jet_writer's grammar checks.
 *   - Strings the reader marked NOESC are copied without a scan in the
 *     default mode; others go through emit.c's escaper (16 or 8 bytes at a
 *     time).
 *   - Writing to a FILE streams through the emitter's buffer.
 */
#include <stdlib.h>

#include "emit.h"

/* Stack frames kept on the C stack before the heap is used. */
#define LOCAL_FRAMES 64u
/* Buffer size when streaming to a FILE. */
#define FP_BUF_SIZE 65536u

/* ---------------------------------------------------------------------- */
/* Tree walk                                                                */
/* ---------------------------------------------------------------------- */

/*
 * The walk. Frames hold the members/elements still to write, shifted left
 * by one, with the low bit set for objects. `pretty` is a compile-time
 * constant at both call sites so each variant is specialised. On success
 * *outp is the position after the text.
 */
static inline bool write_tree(jet__emit *e, char **outp, const jet_val *v, bool pretty,
                              jet_error *err) {
    size_t local[LOCAL_FRAMES];
    size_t *stack = local;
    size_t cap = LOCAL_FRAMES, depth = 0;
    const size_t indent = pretty ? e->o.indent : 0;
    char *out = *outp;
    int bad = JET__SCALAR_OK;

    for (;;) {
        /* ---- one value at v ---- */
        out = jet__emit_room(e, out, JET__EMIT_SCALAR_ROOM + depth * indent);
        if (!out) goto fail;
        uint64_t tag = v->tag;
        switch (tag & JET_TAG_TYPE_MASK) {
        case JET_TYPE_STR:
            out = jet__emit_str_tagged(e, out, tag, v->uni.str, 0);
            if (!out) goto fail;
            v++;
            break;
        case JET_TYPE_ARR:
        case JET_TYPE_OBJ: {
            bool obj = (tag & JET_TAG_TYPE_MASK) == JET_TYPE_OBJ;
            size_t n = (size_t)(tag >> JET_TAG_LEN_SHIFT);
            if (n == 0) {
                out = jet__put_empty(out, obj);
                v += v->uni.ofs ? v->uni.ofs : 1;
                break;
            }
            if (JET_UNLIKELY(depth == cap) &&
                !jet__emit_stack_grow(e, (void **)&stack, local, &cap, sizeof *stack))
                goto fail;
            stack[depth++] = (n << 1) | (size_t)obj;
            if (pretty) {
                out = jet__emit_room(e, out, JET__EMIT_SCALAR_ROOM + depth * indent);
                if (!out) goto fail;
            }
            out = jet__put_open(out, obj, pretty, depth * indent);
            v++;
            if (obj) goto key;
            continue;
        }
        default:
            bad = jet__put_scalar(&out, tag, v->uni.u, e);
            if (bad == JET__SCALAR_BIG) {
                out = jet__emit_text_val(e, out, tag, v->uni.str);
                if (!out) goto fail;
            } else if (bad != JET__SCALAR_OK) {
                goto fail;
            }
            v++;
        }

        /* ---- after a value: separators, keys and closing brackets ---- */
        for (;;) {
            if (depth == 0) goto done;
            size_t *top = &stack[depth - 1];
            *top -= 2;
            out = jet__emit_room(e, out, JET__EMIT_SCALAR_ROOM + depth * indent);
            if (!out) goto fail;
            if (*top >> 1) {
                out = jet__put_comma(out, pretty, depth * indent);
                if (*top & 1) goto key;
                break;
            }
            depth--;
            out = jet__put_close(out, *top & 1, pretty, depth * indent);
        }
        continue;

    key:
        if (JET_UNLIKELY(!jet_is_str(v))) {
            bad = JET__SCALAR_BAD_KEY;
            goto fail;
        }
        out = jet__emit_str_tagged(e, out, v->tag, v->uni.str, 2);
        if (!out) goto fail;
        out = jet__put_colon(out, pretty);
        v++;
    }

done:
    if (stack != local) jet__free(&e->buf->alloc, stack);
    *outp = out;
    return true;

fail:
    if (stack != local) jet__free(&e->buf->alloc, stack);
    jet__emit_fail(e, err, bad);
    return false;
}

/* Writes `val` after the emitter's text and commits it (to the stream too,
 * when there is one). */
static bool write_all(jet__emit *e, const jet_val *val, size_t hint, jet_write_flags flags,
                      jet_error *err) {
    char *out = jet__emit_room(e, jet__emit_pos(e), hint);
    if (!out) goto fail;
    bool ok = e->o.indent ? write_tree(e, &out, val, true, err)
                          : write_tree(e, &out, val, false, err);
    if (!ok) return false;
    if (flags & JET_WRITE_NEWLINE_AT_END) {
        out = jet__emit_room(e, out, 1);
        if (!out) goto fail;
        *out++ = '\n';
    }
    if (jet__emit_commit(e, out, e->fp != NULL)) return true;
fail:
    jet__emit_fail(e, err, JET__SCALAR_OK);
    return false;
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
    jet_buf b;
    jet_buf_init(&b, alloc);
    jet__emit e;
    jet__emit_init(&e, &b, NULL, NULL, NULL, flags);
    if (!write_all(&e, val, hint, flags, err)) {
        jet_buf_free(&b);
        return NULL;
    }
    if (out_len) *out_len = b.len;
    return b.data;
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
    jet_buf b;
    jet_buf_init(&b, alloc);
    jet__emit e;
    jet__emit_init(&e, &b, fp, NULL, NULL, flags);
    bool ok = write_all(&e, val, FP_BUF_SIZE - 1, flags, err);
    if (ok && fflush(fp) != 0) {
        jet__error_set(err, JET_ERR_IO, 0, "could not write the output");
        ok = false;
    }
    jet_buf_free(&b);
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
