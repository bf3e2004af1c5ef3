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

/* Buffer size when streaming to a FILE. */
#define FP_BUF_SIZE 65536u

/* ---------------------------------------------------------------------- */
/* Tree walk                                                                */
/* ---------------------------------------------------------------------- */

/* The slots are in document order: a value's next sibling is the slot after
 * its subtree, so a frame needs only the count of children left, and the
 * walk only ever moves forward. */
typedef struct flat_frame {
    size_t left;
} flat_frame;

#define WALK_FN write_tree
#define WALK_NODE jet_val
#define WALK_FRAME flat_frame
#define WALK_ENTER(f, v) ((void)(f), (v)++)
#define WALK_SIBLING(f, v) ((void)(f))
#define WALK_PAST_LEAF(v) ((v)++)
#define WALK_PAST_EMPTY(v) ((v) += (v)->uni.ofs ? (v)->uni.ofs : 1)
#define WALK_PAST_KEY(v) ((v)++)
#define WALK_MAX_DEPTH SIZE_MAX
#define WALK_DEPTH_ERROR 0
#include "tree_walk.h"

/* Writes `val` after the emitter's text and commits it (to the stream too,
 * when there is one). */
static bool write_all(jet__emit *e, const jet_val *val, size_t hint, jet_write_flags flags,
                      jet_error *err) {
    char *out = jet__emit_start(e, hint);
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
