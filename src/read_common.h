/*
 * read_common.h — what the two DOM readers share: the reader's context,
 * the open containers' frames, the value slots' growth, whitespace, number
 * slots and the room limits. The one-pass reader (read_onepass.c) and
 * stage 2 over the structural index (read_indexed.c) include it; parser.c
 * chooses between them.
 *
 * The readers' loops call these helpers per token: they are static inline
 * here (or macros, where they jump to the reader's `failed`) so that each
 * reader's loop compiles as it did when both lived in one file.
 */
#ifndef JET_READ_COMMON_H
#define JET_READ_COMMON_H

#include <string.h>

#include "internal.h"
#include "errors.h"
#include "num.h"

/* The byte a simple escape stands for; 0 for an invalid escape. */
static const uint8_t escape_table[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* ========================================================================== */
/* Parse context                                                              */
/* ========================================================================== */

typedef struct reader {
    const char *json; /* input start (for offsets) */
    const char *end;
    jet_doc *doc;
    jet_read_flags flags;
    /* failure details, filled once */
    jet_code code;
    const char *err_pos;
    jet__err err_kind;
    jet_val sink; /* validating, stage 2 writes every slot here */
} reader;

/* ========================================================================== */
/* Arena growth (parser.c)                                                    */
/* ========================================================================== */

/* Grows the value arena so that at least `need` more slots fit after `used`. */
bool jet__grow_vals(jet_doc *doc, size_t used, size_t need);
/* Grows the stack of frames to at least `need` frames. */
bool jet__grow_stack(const jet_alloc *a, jet_stack *st, size_t need);

/* ========================================================================== */
/* Open containers (both stages)                                              */
/* ========================================================================== */

/* Whether the innermost open container is an object (meta's low bit). */
#define IN_OBJ ((meta & 1) != 0)

/* Each open container has a frame on the stack: a pointer to its slot and
 * the enclosing container's `meta` (its elements so far << 1 | 1 when an
 * object). The innermost one's meta is a local; its slot is read from its
 * frame, fp[-1], when it closes. frames[0] stands for the document itself
 * (slot NULL), so the next free frame fp starts at frames + 1 and "no
 * container open" is fp[-1] holding NULL. Keeping neither the slot nor the
 * count and kind apart in locals leaves the readers' loops two registers
 * (measured: 0.5 to 2% fewer instructions for meta, up to 1% fewer for the
 * slot).
 * Pointers rather than indices, so that opening and closing load nothing
 * from the document: when the slots move (they grow), jet__grow_vals_rebase
 * fixes the frames' pointers. Shared by jet__read_root and read_indexed_body. */

/* A push meets a sentinel frame (meta = SIZE_MAX: no count comes near) at
 * the stack's last frame or at the depth limit, whichever comes first, so
 * that the test before a push reads the frame it will write, with no bound
 * to keep in a register. */
#define FRAME_SENTINEL SIZE_MAX

static inline void frames_mark(jet_stack *st, uint32_t max_depth) {
    size_t last = st->cap - 1;
    size_t limit = (size_t)max_depth + 1; /* the frame of container max_depth + 1 */
    st->frames[last < limit ? last : limit].meta = FRAME_SENTINEL;
}

/* The stack with the document's frame and room for a sentinel; false when
 * it cannot be allocated. Returns the first free frame in *fp. */
static inline bool frames_begin(const jet_alloc *a, jet_stack *st, uint32_t max_depth, jet_frame **fp) {
    if (st->cap < 3 && !jet__grow_stack(a, st, 3)) return false;
    st->frames[0].ctn.slot = NULL;
    frames_mark(st, max_depth);
    *fp = st->frames + 1;
    return true;
}

/* Called when the frame at *fp is a sentinel: 1 when a push may go on
 * (*fp updated), 0 at the depth limit, -1 when the stack cannot grow.
 * (parser.c: out of the readers' loops.) */
int jet__frames_room(const jet_alloc *a, jet_stack *st, jet_frame **fp, uint32_t max_depth);

/* Opens a container at slot v (the caller made room for the frame). */
static JET_ALWAYS_INLINE void enter_container(jet_frame **fp, size_t *meta, jet_val *v, bool obj) {
    (*fp)->ctn.slot = v;
    (*fp)->meta = *meta;
    (*fp)++;
    v->tag = obj ? JET_TYPE_OBJ : JET_TYPE_ARR;
    *meta = (size_t)obj;
}

/* Closes the innermost container, whose last child ends before slot v, and
 * makes the enclosing one innermost again. */
static JET_ALWAYS_INLINE void close_container(jet_frame **fp, size_t *meta, jet_val *v) {
    (*fp)--;
    jet_val *c = (*fp)->ctn.slot;
    c->tag |= (uint64_t)(*meta >> 1) << JET_TAG_LEN_SHIFT;
    c->uni.ofs = (size_t)(v - c);
    *meta = (*fp)->meta;
}

/* Whether a container is open (fp: the next free frame). */
#define IN_CONTAINER(fp) ((fp)[-1].ctn.slot != NULL)

/* Grows the slots to used + need, keeping the pointers saved in frames
 * [1, fp) valid (frames[0], the document's, holds NULL); returns the slots'
 * base, NULL when they could not grow. The caller rebases its own pointers
 * (taking their addresses here would keep them out of registers).
 * (parser.c: out of the readers' loops.) */
jet_val *jet__grow_vals_rebase(jet_doc *doc, size_t used, size_t need, jet_frame *frames,
                               jet_frame *fp);

/* jet__grow_vals_rebase for a reader's slot pointer *v, which it moves to
 * the grown slots; false when they cannot grow (the caller then fails). */
static JET_ALWAYS_INLINE bool grow_slots(jet_doc *doc, jet_stack *st, jet_frame *fp, jet_val **v,
                                         size_t need) {
    size_t used = (size_t)(*v - doc->vals);
    jet_val *base = jet__grow_vals_rebase(doc, used, need, st->frames, fp);
    if (!base) return false;
    *v = base + used;
    return true;
}

/* ========================================================================== */
/* Whitespace                                                                 */
/* ========================================================================== */

/*
 * Skips JSON whitespace. Pretty-printed documents spend most of their
 * whitespace in runs of spaces after a newline, so a run of spaces is skipped
 * 8 bytes at a time; other whitespace goes byte by byte. (A 16-byte vector
 * compare of all four whitespace bytes measured slower here: the position is
 * the parser's serial dependency, and predicted branches shorten it better
 * than a compare-movemask-count chain does.)
 */
static inline const char *skip_ws(const char *p, const char *end) {
    while (p < end) {
        unsigned char c = (unsigned char)*p;
        if (c == ' ') {
            if (end - p >= 8) {
                uint64_t y = jet__load_le64(p) ^ (ONES_8 * ' ');
                if (y) {
                    /* high bit of each byte that is not a space (no carries
                     * cross bytes: 0x7F + 0x7F < 0x100) */
                    uint64_t m = (((y & ~HIGH_8) + ~HIGH_8) | y) & HIGH_8;
                    p += jet__ctz64_offset(m) >> 3;
                } else {
                    p += 8;
                }
                continue;
            }
            p++;
        } else if (c == '\n' || c == '\r' || c == '\t') {
            p++;
        } else {
            break;
        }
    }
    return p;
}

/* Fills a number slot from its parse; a raw number's text, len bytes, is
 * at d, where it is NUL-terminated. Returns whether the number is raw. */
static inline bool put_number_at(jet_val *v, size_t len, char *d, const jet_num *num) {
    if (JET_LIKELY(num->kind != JET_NUM_RAW)) {
        v->tag = (uint64_t)JET_TYPE_NUM | ((uint64_t)num->kind << 3);
        v->uni.u = num->v.u;
        return false;
    }
    d[len] = '\0';
    v->tag = (uint64_t)JET_TYPE_RAW | ((uint64_t)len << JET_TAG_LEN_SHIFT);
    v->uni.str = d;
    return true;
}

/* The positions p with n bytes of input from p (end - p >= n) are those
 * below the limit returned (none when the input is shorter than n: json).
 * Readers compute it once: `HAS_ROOM(p, limit)` against a value kept in
 * memory is one instruction, `end - p >= n` three (measured: 0.4 to 1.3%
 * fewer instructions for a parse). */
static inline const char *room_limit(const char *json, const char *end, size_t n) {
    return (size_t)(end - json) >= n ? end - n + 1 : json;
}
#define HAS_ROOM(p, limit) ((p) < (limit))

/* Whether the n-byte literal lit (n <= 8) is at p; lim8: room_limit for 8.
 * (A macro: as an inline function, gcc compiled stage 2 to 4% more
 * instructions.) */
#define LITERAL_AT(p, lit, n) (!((!HAS_ROOM(p, lim8) && end - (p) < (n)) || memcmp(p, lit, n) != 0))

/* ========================================================================== */
/* The string arena's size                                                    */
/* ========================================================================== */

/* Stage 1's copy of a large input starts at the input's own address modulo
 * COPY_ALIGN in the string arena (copy_start, read_indexed.c, says why);
 * parser.c reserves the room for it. */
#define COPY_ALIGN 4096
#define COPY_ALIGN_MIN (64 * 1024)
/* The longest input whose arenas' sizes cannot overflow (reserve_strings
 * adds at most 16 + COPY_ALIGN). */
#define INPUT_LEN_MAX (SIZE_MAX - 2 * COPY_ALIGN)

/* ========================================================================== */
/* The readers (parser.c calls them)                                          */
/* ========================================================================== */

/* The one-pass reader (read_onepass.c): reads r's input into its document,
 * or records the first error in r and returns false. */
bool jet__read_root(reader *r, jet_stack *st, uint32_t max_depth);
/* The same grammar, errors and offsets, building nothing: the document is
 * not touched (only the stack of frames is used). */
bool jet__validate_root(reader *r, jet_stack *st, uint32_t max_depth);

/* The index route (read_indexed.c): stage 1 into the stack's index, then
 * stage 2; building a document, or only validating (build false). Returns
 * false when the index cannot be allocated or stage 2 did not accept the
 * input (jet__read_root then reads it and reports the error). */
bool jet__read_with_index(reader *r, jet_stack *st, uint32_t max_depth, size_t len, bool build);

#endif /* JET_READ_COMMON_H */
