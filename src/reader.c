/*
 * reader.c — the DOM reader: JSON text → flat array of jet_val.
 *
 * One pass over the input, an explicit stack (no recursion, so the depth
 * limit is a setting and not the C stack), values appended in document order
 * into the document's value arena and string bytes unescaped straight into its
 * string arena. The state machine is written with gotos so that each state
 * knows what it expects next and the common path is a short, predictable
 * sequence of compares.
 *
 * Reading never goes past `end`: every dereference is guarded by a length
 * check, and the block loads of the string scanners only happen when that
 * many bytes remain. Stage 2 (read_indexed) runs the same states over the
 * structural index of scan.c, taking each next position from its bitmaps
 * instead of scanning; whatever it does not accept is read again here.
 *
 * Sections: character tables · arena growth · UTF-8 · strings · comments ·
 * the state machine · entry points.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "errors.h"
#include "grammar.h"
#include "num.h"
#include "scan.h"
#include "utf8.h"

#if JET_SCAN_SSE2
#include <emmintrin.h>
#endif

/* ========================================================================== */
/* Character tables                                                           */
/* ========================================================================== */

/* JSON whitespace: space, tab, LF, CR. */
static const uint8_t ws_table[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
};

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

/* Records a failure (the first one wins) and returns NULL for chaining. */
static JET_NOINLINE const char *fail(reader *r, jet__err kind, const char *pos) {
    if (r->code == JET_OK) {
        r->code = jet__errs[kind].code;
        r->err_pos = pos;
        r->err_kind = kind;
    }
    return NULL;
}

/* ========================================================================== */
/* Arena growth                                                               */
/* ========================================================================== */

/* Grows the value arena so that at least `need` more slots fit after `used`. */
static JET_NOINLINE bool grow_vals(jet_doc *doc, size_t used, size_t need) {
    size_t cap = doc->val_cap;
    size_t want = used + need;
    size_t ncap = cap + cap / 2 + 64;
    if (ncap < want) ncap = want;
    if (ncap > SIZE_MAX / sizeof(jet_val)) return false;
    jet_val *v = (jet_val *)jet__realloc(&doc->alloc, doc->vals, cap * sizeof(jet_val),
                                         ncap * sizeof(jet_val));
    if (!v) return false;
    doc->vals = v;
    doc->val_cap = ncap;
    return true;
}

static JET_NOINLINE bool grow_stack(const jet_alloc *a, jet_stack *st, size_t need) {
    size_t ncap = st->cap ? st->cap * 2 : 64;
    while (ncap < need) ncap *= 2;
    jet_frame *f = (jet_frame *)jet__realloc(a, st->frames, st->cap * sizeof(jet_frame),
                                             ncap * sizeof(jet_frame));
    if (!f) return false;
    st->frames = f;
    st->cap = ncap;
    return true;
}

void jet__stack_free(const jet_alloc *a, jet_stack *stack) {
    jet__free(a, stack->frames);
    jet__free(a, stack->index);
    stack->frames = NULL;
    stack->cap = 0;
    stack->index = NULL;
    stack->index_cap = 0;
}

/* ========================================================================== */
/* UTF-8                                                                      */
/* ========================================================================== */

/*
 * Validates one multi-byte UTF-8 sequence whose lead byte is at `p`
 * (*p >= 0x80). Returns its length (2..4), or 0 when invalid: bad lead,
 * overlong form, UTF-16 surrogate (U+D800..DFFF), above U+10FFFF, or
 * truncated by `end`. Ranges per RFC 3629 section 4.
 */
static inline size_t utf8_seq_len(const unsigned char *p, const unsigned char *end) {
    unsigned c = p[0];
    size_t avail = (size_t)(end - p);
    if (c >= 0xC2 && c <= 0xDF) {
        if (avail < 2 || (p[1] & 0xC0) != 0x80) return 0;
        return 2;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        if (avail < 3) return 0;
        unsigned lo = 0x80, hi = 0xBF;
        if (c == 0xE0) lo = 0xA0;      /* overlong below U+0800 */
        else if (c == 0xED) hi = 0x9F; /* surrogates */
        if (p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80) return 0;
        return 3;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        if (avail < 4) return 0;
        unsigned lo = 0x80, hi = 0xBF;
        if (c == 0xF0) lo = 0x90;      /* overlong below U+10000 */
        else if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
        if (p[1] < lo || p[1] > hi || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
            return 0;
        return 4;
    }
    return 0;
}

/*
 * Whether the sequence at p (where utf8_seq_len failed) is a valid start
 * that the end of the input cuts short: then the input is truncated, not
 * wrong, which a caller reading a stream needs to tell apart.
 */
static JET_NOINLINE bool utf8_cut_by_end(const unsigned char *p, const unsigned char *end) {
    unsigned c = p[0];
    size_t need = (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3
                : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
    size_t avail = (size_t)(end - p);
    if (!need || avail >= need) return false;
    if (avail >= 2) {
        unsigned lo = 0x80, hi = 0xBF;
        if (c == 0xE0) lo = 0xA0;
        else if (c == 0xED) hi = 0x9F;
        else if (c == 0xF0) lo = 0x90;
        else if (c == 0xF4) hi = 0x8F;
        if (p[1] < lo || p[1] > hi) return false;
    }
    for (size_t i = 2; i < avail; i++)
        if ((p[i] & 0xC0) != 0x80) return false;
    return true;
}

/* ========================================================================== */
/* Strings                                                                    */
/* ========================================================================== */

/*
 * A mask with the high bit set in the first byte of `x` (in memory order) that
 * needs attention inside a string: '"', '\\', a control character (< 0x20) or
 * a non-ASCII byte. Bytes after the first flagged one may be flagged falsely
 * (borrow propagation); only the lowest flag is used.
 */
static inline uint64_t string_special_mask(uint64_t x) {
    uint64_t q = x ^ (ONES_8 * '"');
    uint64_t b = x ^ (ONES_8 * '\\');
    uint64_t zq = (q - ONES_8) & ~q;
    uint64_t zb = (b - ONES_8) & ~b;
    uint64_t lt = (x - ONES_8 * 0x20) & ~x;
    return (zq | zb | lt | x) & HIGH_8;
}

/* Whether the bytes from p to the end are a proper prefix of a low
 * surrogate escape (\uDC00..\uDFFF): a high surrogate whose partner the
 * end of the input cuts off. */
static JET_NOINLINE bool low_escape_cut_by_end(const char *p, const char *end) {
    size_t avail = (size_t)(end - p);
    if (avail >= 6) return false;
    if (avail > 0 && p[0] != '\\') return false;
    if (avail > 1 && p[1] != 'u') return false;
    if (avail > 2 && (p[2] | 0x20) != 'd') return false;
    if (avail > 3 && !(((p[3] | 0x20) >= 'c' && (p[3] | 0x20) <= 'f'))) return false;
    if (avail > 4 && !jet__hex_ok[(unsigned char)p[4]]) return false;
    return true;
}

/*
 * Scans the string whose opening quote precedes `p`, copying the unescaped
 * bytes to `dst`. Block stores of 8 or 16 bytes happen only when that many
 * input bytes remain, and the output never runs ahead of the input, so they
 * stay inside the string arena (see jet__parse). On success returns the byte after the
 * closing quote, sets *out_len and *noesc; NULL on error.
 */
static JET_ALWAYS_INLINE const char *read_string(reader *r, const char *p, char *dst,
                                      size_t *out_len, bool *noesc) {
    const char *end = r->end;
    char *d0 = dst;
    bool plain = true;
    for (;;) {
#if JET_SCAN_SSE2
        /* Fast path: 16 bytes at a time while no byte needs attention. A
         * signed compare with 0x20 flags both control characters and
         * non-ASCII bytes. */
        while ((size_t)(end - p) >= 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
            _mm_storeu_si128((__m128i *)(void *)dst, x);
            __m128i sp = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                      _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
            sp = _mm_or_si128(sp, _mm_cmplt_epi8(x, _mm_set1_epi8(0x20)));
            unsigned m = (unsigned)_mm_movemask_epi8(sp);
            if (m) {
                unsigned k = jet__ctz32(m);
                p += k;
                dst += k;
                goto special;
            }
            p += 16;
            dst += 16;
        }
#endif
        /* 8 bytes at a time while no byte needs attention. */
        while ((size_t)(end - p) >= 8) {
            uint64_t x = jet__load_le64(p);
            memcpy(dst, p, 8);
            uint64_t m = string_special_mask(x);
            if (m) {
                unsigned k = jet__ctz64_offset(m) >> 3;
                p += k;
                dst += k;
                goto special;
            }
            p += 8;
            dst += 8;
        }
        /* Tail: byte at a time. */
        for (;;) {
            if (JET_UNLIKELY(p >= end))
                return fail(r, JET_E_END_IN_STRING, end);
            unsigned char c = (unsigned char)*p;
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
            *dst++ = (char)c;
            p++;
        }
    special:;
        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            *dst = '\0';
            *out_len = (size_t)(dst - d0);
            *noesc = plain;
            return p + 1;
        }
        if (c >= 0x80) {
            /* Non-ASCII: validate whole sequences while they run on. Two- and
             * three-byte sequences (Latin, CJK) are checked from one 32-bit
             * load and stored with one 4-byte store; everything else (4-byte
             * sequences, errors, the last bytes of the input) goes through
             * utf8_seq_len. dst has room: it never runs ahead of p. */
            do {
                if (JET_LIKELY(end - p >= 4)) {
                    uint32_t w = jet__load_le32(p);
                    if ((w & 0xC0C0F0u) == 0x8080E0u) {
                        /* 1110xxxx 10xxxxxx 10xxxxxx. Invalid are E0 with a
                         * second byte below A0 (overlong, < U+0800) and ED
                         * with one from A0 (UTF-16 surrogates): bits 0 and 27
                         * of a table indexed by the lead's low nibble and
                         * bit 5 of the second byte. */
                        unsigned idx = ((w & 0x0Fu) << 1) | ((w >> 13) & 1u);
                        if (JET_LIKELY(!((0x08000001u >> idx) & 1u))) {
                            memcpy(dst, p, 4);
                            p += 3;
                            dst += 3;
                            continue;
                        }
                    } else if ((w & 0xC0E0u) == 0x80C0u && (w & 0x1Eu) != 0) {
                        /* 110xxxxx 10xxxxxx with a lead of C2 or more */
                        memcpy(dst, p, 4);
                        p += 2;
                        dst += 2;
                        continue;
                    }
                }
                size_t n = utf8_seq_len((const unsigned char *)p, (const unsigned char *)end);
                if (JET_UNLIKELY(n == 0)) {
                    if (utf8_cut_by_end((const unsigned char *)p, (const unsigned char *)end))
                        return fail(r, JET_E_END_IN_STRING, end);
                    if (!(r->flags & JET_READ_ALLOW_INVALID_UTF8))
                        return fail(r, JET_E_UTF8_STRING, p);
                    n = 1; /* copy the bad byte through */
                }
                memcpy(dst, p, n);
                p += n;
                dst += n;
            } while (p < end && (unsigned char)*p >= 0x80);
            continue;
        }
        if (c == '\\') {
            plain = false;
            if (JET_UNLIKELY(end - p < 2))
                return fail(r, JET_E_END_IN_ESCAPE, end);
            unsigned char e = (unsigned char)p[1];
            if (e != 'u') {
                uint8_t v = escape_table[e];
                if (JET_UNLIKELY(!v))
                    return fail(r, JET_E_ESCAPE_CHAR, p + 1);
                *dst++ = (char)v;
                p += 2;
                continue;
            }
            if (JET_UNLIKELY(end - p < 6)) {
                /* a non-hex byte before the end is the error, not the end */
                for (const char *h = p + 2; h < end; h++)
                    if (!jet__hex_ok[(unsigned char)*h])
                        return fail(r, JET_E_U_ESCAPE_HEX, p + 2);
                return fail(r, JET_E_END_IN_U_ESCAPE, end);
            }
            int32_t cp = jet__hex4(p + 2);
            if (JET_UNLIKELY(cp < 0))
                return fail(r, JET_E_U_ESCAPE_HEX, p + 2);
            p += 6;
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                bool ok = jet__pair_surrogate(&p, end, &cp);
                if (!ok && cp <= 0xDBFF && low_escape_cut_by_end(p, end))
                    return fail(r, JET_E_END_IN_U_ESCAPE, end);
                if (!ok && !(r->flags & JET_READ_ALLOW_INVALID_UTF8))
                    return fail(r, cp <= 0xDBFF ? JET_E_SURROGATE_HIGH : JET_E_SURROGATE_LOW, p - 6);
            }
            dst = jet__utf8_put(dst, (uint32_t)cp);
            continue;
        }
        /* c < 0x20 */
        return fail(r, JET_E_STRING_CONTROL, p);
    }
}

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
 * from the document: when the slots move (they grow), grow_vals_rebase
 * fixes the frames' pointers. Shared by read_root and read_indexed. */

/* A push meets a sentinel frame (meta = SIZE_MAX: no count comes near) at
 * the stack's last frame or at the depth limit, whichever comes first, so
 * that the test before a push reads the frame it will write, with no bound
 * to keep in a register. */
#define FRAME_SENTINEL SIZE_MAX

static void frames_mark(jet_stack *st, uint32_t max_depth) {
    size_t last = st->cap - 1;
    size_t limit = (size_t)max_depth + 1; /* the frame of container max_depth + 1 */
    st->frames[last < limit ? last : limit].meta = FRAME_SENTINEL;
}

/* The stack with the document's frame and room for a sentinel; false when
 * it cannot be allocated. Returns the first free frame in *fp. */
static bool frames_begin(const jet_alloc *a, jet_stack *st, uint32_t max_depth, jet_frame **fp) {
    if (st->cap < 3 && !grow_stack(a, st, 3)) return false;
    st->frames[0].ctn.slot = NULL;
    frames_mark(st, max_depth);
    *fp = st->frames + 1;
    return true;
}

/* Called when the frame at *fp is a sentinel: 1 when a push may go on
 * (*fp updated), 0 at the depth limit, -1 when the stack cannot grow. */
static JET_NOINLINE int frames_room(const jet_alloc *a, jet_stack *st, jet_frame **fp,
                                    uint32_t max_depth) {
    size_t at = (size_t)(*fp - st->frames); /* = the containers open + 1 */
    if (at > max_depth) return 0;
    if (at + 1 >= st->cap && !grow_stack(a, st, at + 2)) return -1;
    *fp = st->frames + at;
    frames_mark(st, max_depth);
    return 1;
}

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
 * (taking their addresses here would keep them out of registers). */
static JET_NOINLINE jet_val *grow_vals_rebase(jet_doc *doc, size_t used, size_t need,
                                              jet_frame *frames, jet_frame *fp) {
    jet_val *old = doc->vals;
    for (jet_frame *f = frames + 1; f < fp; f++) f->ctn.ofs = (size_t)(f->ctn.slot - old);
    bool ok = grow_vals(doc, used, need);
    jet_val *base = doc->vals; /* old when the growth failed */
    for (jet_frame *f = frames + 1; f < fp; f++) f->ctn.slot = base + f->ctn.ofs;
    return ok ? base : NULL;
}

/* grow_vals_rebase for a reader's v; goes to `failed` when the slots
 * cannot grow. */
#define GROW_SLOTS(need, on_failure)                                         \
    do {                                                                     \
        size_t used_ = (size_t)(v - doc->vals);                              \
        jet_val *base_ = grow_vals_rebase(doc, used_, (need), st->frames, fp); \
        if (!base_) {                                                        \
            on_failure;                                                      \
            goto failed;                                                     \
        }                                                                    \
        v = base_ + used_;                                                   \
    } while (0)

/* ========================================================================== */
/* Whitespace and comments                                                    */
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

/* Skips comments (and the whitespace between them) at p, which points at '/'.
 * Returns the first byte that is neither, or NULL on an unterminated or
 * malformed comment. */
static JET_NOINLINE const char *skip_comments(reader *r, const char *p) {
    const char *end = r->end;
    while (p < end) {
        if (ws_table[(unsigned char)*p]) {
            p++;
            continue;
        }
        if (*p != '/') return p;
        if (end - p < 2) return fail(r, JET_E_COMMENT, p);
        if (p[1] == '/') {
            p += 2;
            while (p < end && *p != '\n') p++;
        } else if (p[1] == '*') {
            const char *start = p;
            p += 2;
            for (;;) {
                if (end - p < 2) return fail(r, JET_E_COMMENT_BLOCK, start);
                if (p[0] == '*' && p[1] == '/') break;
                p++;
            }
            p += 2;
        } else {
            return fail(r, JET_E_BAD_SLASH, p);
        }
    }
    return p;
}

/* ========================================================================== */
/* The state machine                                                          */
/* ========================================================================== */

/* Skips whitespace (and comments when enabled). Jumps to `on_error` when a
 * comment is malformed. Evaluates to nothing; updates p. */
#define SKIP_WS()                                                            \
    do {                                                                     \
        p = skip_ws(p, end);                                                 \
        if (JET_UNLIKELY(comments) && p < end && *p == '/') {                \
            p = skip_comments(r, p);                                         \
            if (!p) goto failed;                                             \
        }                                                                    \
    } while (0)

/* Fills a string slot (the bytes are already in the string arena at s). */
static inline void put_string(jet_val *v, char *s, size_t len, bool noesc) {
    v->tag = (uint64_t)JET_TYPE_STR | ((uint64_t)len << JET_TAG_LEN_SHIFT) |
             (noesc ? JET_TAG_STR_NOESC : 0);
    v->uni.str = s;
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

/* The one-pass reader's: a raw number's text [p, q) is copied to the
 * string arena at s. Returns the new end of the string arena. */
static inline char *put_number(jet_val *v, char *s, const char *p, const char *q,
                               const jet_num *num) {
    size_t len = (size_t)(q - p);
    if (num->kind == JET_NUM_RAW) memcpy(s, p, len);
    return put_number_at(v, len, s, num) ? s + len + 1 : s;
}

/* Stage 2's, whose input is copied into the string arena: a raw number's
 * text is there, at d, or is yet to come with the next window. It is
 * terminated in place (the byte after the number, a delimiter or the
 * input's end, is not part of any string), and *raw_end receives where. */
static inline void put_number_in_copy(jet_val *v, const char *p, const char *q, char *d,
                                      const jet_num *num, char **raw_end) {
    size_t len = (size_t)(q - p);
    if (put_number_at(v, len, d, num)) *raw_end = d + len;
}

/* Makes room for one more value slot. */
#define RESERVE_SLOT()                                                       \
    do {                                                                     \
        if (JET_UNLIKELY(v == vend)) {                                       \
            GROW_SLOTS(1, fail(r, JET_E_MEMORY, p));      \
            vend = doc->vals + doc->val_cap;                                 \
        }                                                                    \
    } while (0)

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

static JET_NOINLINE bool read_root(reader *r, jet_stack *st, uint32_t max_depth) {
    jet_doc *doc = r->doc;
    const char *p = r->json;
    const char *end = r->end;
    const char *lim8 = room_limit(p, end, 8); /* as in read_indexed_body */
    const char *lim_roomy = jet_num_roomy_limit(p, end, r->flags);
    const bool comments = (r->flags & JET_READ_ALLOW_COMMENTS) != 0;
    const bool trailing_commas = (r->flags & JET_READ_ALLOW_TRAILING_COMMAS) != 0;
    const jet_read_flags flags = r->flags;
    jet_val *v = doc->vals;
    jet_val *vend = doc->vals + doc->val_cap;
    char *s = doc->strs;
    size_t meta = 0; /* the innermost container's elements << 1 | 1 when an object (IN_OBJ) */
    jet_frame *fp;   /* the next free frame */
    if (!frames_begin(&doc->alloc, st, max_depth, &fp)) {
        fail(r, JET_E_MEMORY, p);
        return false;
    }

    SKIP_WS();
    if (p >= end) {
        fail(r, JET_E_EMPTY, p);
        goto failed;
    }

value:
    /* p points at the first byte of a value (p < end is guaranteed). */
    RESERVE_SLOT();
    switch (*p) {
    case '"': {
        size_t len = 0;
        bool noesc = true;
        const char *q = read_string(r, p + 1, s, &len, &noesc);
        if (!q) goto failed;
        put_string(v, s, len, noesc);
        s += len + 1;
        v++;
        p = q;
        goto after_value;
    }
    case '[':
    case '{': {
        if (JET_UNLIKELY(fp->meta == FRAME_SENTINEL)) {
            int room = frames_room(&doc->alloc, st, &fp, max_depth);
            if (room <= 0) {
                if (room == 0)
                    fail(r, JET_E_DEPTH_LIMIT, p);
                else
                    fail(r, JET_E_MEMORY, p);
                goto failed;
            }
        }
        bool obj = (*p == '{');
        enter_container(&fp, &meta, v, obj);
        v++;
        p++;
        SKIP_WS();
        if (JET_UNLIKELY(p >= end)) {
            fail(r, obj ? JET_E_END_IN_OBJECT : JET_E_END_IN_ARRAY, p);
            goto failed;
        }
        if (obj) {
            if (*p == '"') goto key;
            if (*p == '}') goto close;
            fail(r, JET_E_EXPECTED_KEY_OR_CLOSE, p);
            goto failed;
        }
        if (*p == ']') goto close;
        goto value;
    }
    case 't':
        if (!LITERAL_AT(p, "true", 4)) goto bad_literal;
        v->tag = JET_TYPE_BOOL | JET_SUBTYPE_TRUE;
        p += 4;
        goto literal_done;
    case 'f':
        if (!LITERAL_AT(p, "false", 5)) goto bad_literal;
        v->tag = JET_TYPE_BOOL | JET_SUBTYPE_FALSE;
        p += 5;
        goto literal_done;
    case 'n':
        if (!LITERAL_AT(p, "null", 4)) goto bad_literal;
        v->tag = JET_TYPE_NULL;
        p += 4;
        goto literal_done;
    case 'N':
    case 'I':
        if (!(flags & JET_READ_ALLOW_NAN_INF)) goto bad_literal;
        /* fall through */
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': {
        jet_num num;
        jet_code code = JET_OK;
        const char *at = p;
        const char *q = jet_num_parse_ex(p, end, lim_roomy, flags, &num, &code, &at);
        if (JET_UNLIKELY(!q)) {
            fail(r, jet__err_of_number(code), at);
            goto failed;
        }
        s = put_number(v, s, p, q, &num);
        v++;
        p = q;
        goto after_value;
    }
    default:
        fail(r, JET_E_EXPECTED_VALUE, p);
        goto failed;
    }

literal_done:
    v->uni.u = 0;
    v++;
    goto after_value;

bad_literal: {
    jet__err kind;
    size_t at = jet__gram_bad_literal(p, end, &kind);
    fail(r, kind, p + at);
    goto failed;
}

key: {
    /* p points at the opening quote of a key. */
    RESERVE_SLOT();
    size_t len = 0;
    bool noesc = true;
    const char *q = read_string(r, p + 1, s, &len, &noesc);
    if (!q) goto failed;
    put_string(v, s, len, noesc);
    s += len + 1;
    v++;
    p = q;
    /* Fast path for the common "key":value and "key": value layouts. */
    if (JET_LIKELY(p < end && *p == ':')) {
        p++;
    } else {
        SKIP_WS();
        if (JET_UNLIKELY(p >= end)) {
            fail(r, JET_E_END_AFTER_KEY, p);
            goto failed;
        }
        if (JET_UNLIKELY(*p != ':')) {
            fail(r, JET_E_EXPECTED_COLON, p);
            goto failed;
        }
        p++;
    }
    if (JET_LIKELY(p < end && !ws_table[(unsigned char)*p] && *p != '/')) goto value;
    SKIP_WS();
    if (JET_UNLIKELY(p >= end)) {
        fail(r, JET_E_END_AFTER_COLON, p);
        goto failed;
    }
    goto value;
}

after_value:
    /* One value finished at the current level. */
    if (JET_UNLIKELY(!IN_CONTAINER(fp))) goto done;
    meta += 2; /* one more element */
    if (JET_LIKELY(p < end) && (*p == ',')) {
        p++;
        goto after_comma;
    }
    SKIP_WS();
    if (JET_UNLIKELY(p >= end)) {
        fail(r, IN_OBJ ? JET_E_END_IN_OBJECT : JET_E_END_IN_ARRAY, p);
        goto failed;
    }
    if (*p == ',') {
        p++;
        goto after_comma;
    }
    if (IN_OBJ) {
        if (JET_LIKELY(*p == '}')) goto close;
        fail(r, JET_E_EXPECTED_OBJECT_SEP, p);
        goto failed;
    }
    if (JET_LIKELY(*p == ']')) goto close;
    fail(r, JET_E_EXPECTED_ARRAY_SEP, p);
    goto failed;

after_comma:
    if (JET_UNLIKELY(p >= end) || ws_table[(unsigned char)*p] || *p == '/') {
        SKIP_WS();
        if (JET_UNLIKELY(p >= end)) {
            fail(r, IN_OBJ ? JET_E_END_IN_OBJECT : JET_E_END_IN_ARRAY, p);
            goto failed;
        }
    }
    if (IN_OBJ) {
        if (JET_LIKELY(*p == '"')) goto key;
        if (*p == '}' && trailing_commas) goto close;
        fail(r, *p == '}' ? JET_E_TRAILING_COMMA_OBJECT : JET_E_EXPECTED_KEY, p);
        goto failed;
    }
    if (JET_UNLIKELY(*p == ']')) {
        if (trailing_commas) goto close;
        fail(r, JET_E_TRAILING_COMMA_ARRAY, p);
        goto failed;
    }
    goto value;

close:
    /* p points at the closing bracket of the innermost container. */
    close_container(&fp, &meta, v);
    p++;
    goto after_value;

done:
    doc->val_count = (size_t)(v - doc->vals);
    if (!(flags & JET_READ_STOP_WHEN_DONE)) {
        SKIP_WS();
        if (p < end) {
            fail(r, JET_E_TRAILING_CONTENT, p);
            goto failed;
        }
    }
    doc->read_size = (size_t)(p - r->json);
    return true;

failed:
    if (r->code == JET_OK) fail(r, JET_E_INVALID_JSON, p);
    doc->val_count = 0;
    return false;
}

/* ========================================================================== */
/* Stage 2 over the structural index                                          */
/* ========================================================================== */

/* Bytes that may follow a number or a literal: whitespace, operators, a
 * quote. Stage 1 ends a run exactly there, so a scalar that stops anywhere
 * else (`12x`, `truex`) has bytes the index does not account for. */
static const uint8_t delim_table[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [','] = 1, [':'] = 1,
    ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1, ['"'] = 1,
};

/*
 * The index in bounded windows: stage 1 runs over `cap` words (64 bytes of
 * input each) at a time, and stage 2 asks for the next window when it has
 * used the marks of the current one, so the index costs cap words
 * whatever the input's size, and the bytes stage 2 reads were scanned
 * moments before. Every window's verdict (a control character in a string,
 * invalid UTF-8) is taken before stage 2 reads any of its tokens.
 */
typedef struct index_window {
    jet_kernel kernel;
    jet_scan_state scan;
    const char *json;
    size_t len;
    uint64_t *marks;               /* the window's words (the DOM layout, scan.h) */
    size_t cap;                    /* words per window */
    size_t first;                  /* the block (input word) of marks[0] */
    size_t n;                      /* words in this window */
    size_t total;                  /* words of the whole input */
    size_t count;                  /* marks in this window */
    char *copy;                    /* where stage 1 copies the input (NULL: no copy) */
    char *raw_end;                 /* the NUL after the last raw number (see next_window) */
    bool check_utf8;               /* invalid UTF-8 fails stage 2 */
} index_window;

/* Words per window: set by jet__index_window_set (tests), else
 * JET_INDEX_WINDOW (bytes, rounded up to 64) read once, else 4096 words
 * (256 KiB of input, a 32 KiB index). */
static atomic_size_t window_words;

void jet__index_window_set(size_t words) {
    atomic_store_explicit(&window_words, words, memory_order_relaxed);
}

static size_t index_window_words(void) {
    size_t w = atomic_load_explicit(&window_words, memory_order_relaxed);
    if (!w) {
        const char *env = getenv("JET_INDEX_WINDOW");
        unsigned long long bytes = env && *env ? strtoull(env, NULL, 10) : 0;
        w = bytes ? (size_t)((bytes + 63) / 64) : 4096;
        atomic_store_explicit(&window_words, w, memory_order_relaxed);
    }
    return w;
}

/* Scans the window after the current one: 1 when it was scanned and is
 * sound, 0 at the end of the input, -1 when stage 1 saw an error (the
 * caller then fails and the one-pass reader reports it). */
static int next_window(index_window *iw) {
    iw->first += iw->n;
    if (iw->first >= iw->total) {
        iw->n = 0;
        return 0;
    }
    size_t left = iw->total - iw->first;
    iw->n = left < iw->cap ? left : iw->cap;
    iw->count = jet__scan_window(iw->kernel, &iw->scan, iw->json, iw->len, iw->first, iw->n,
                                 iw->marks, NULL, NULL, iw->copy);
    /* A raw number that ends past the window it starts in was terminated
     * in the copy before this window's bytes reached it: again. */
    if (iw->raw_end) *iw->raw_end = '\0';
    jet_scan_result res;
    if (!jet__scan_status(iw->kernel, &iw->scan, iw->first + iw->n == iw->total, &res)) return -1;
    if (res.ctrl_in_string || (iw->check_utf8 && !res.utf8_valid)) return -1;
    return 1;
}

/* Copies ESCAPE_BLOCK bytes from src to dst (both have the room) and
 * returns the offset of the first backslash among them, SIZE_MAX when there
 * is none. */
#if JET_SCAN_SSE2
#define ESCAPE_BLOCK 16
static inline size_t first_backslash_copied(const char *src, char *dst) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)src);
    _mm_storeu_si128((__m128i *)(void *)dst, x);
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    return m ? (size_t)jet__ctz32(m) : SIZE_MAX;
}
#else
#define ESCAPE_BLOCK 8
static inline size_t first_backslash_copied(const char *src, char *dst) {
    uint64_t x = jet__load_le64(src);
    memcpy(dst, src, 8);
    uint64_t b = x ^ (ONES_8 * '\\');
    uint64_t m = (b - ONES_8) & ~b & HIGH_8; /* the lowest flag is exact */
    return m ? jet__ctz64_offset(m) >> 3 : SIZE_MAX;
}
#endif

/*
 * Decodes the string whose quotes are at p and q, which holds a backslash,
 * into dst. Stage 1 has ruled out control characters in strings and checked
 * UTF-8 (or invalid UTF-8 is allowed and copied through, as read_string
 * does), and the end is known, so only backslashes need looking for: one
 * compare per 16 bytes where read_string tests for quotes, backslashes and
 * control bytes, and no end test per escape. The output is read_string's
 * (the one-pass reader's) byte for byte. Returns false on a bad escape:
 * the caller then re-reads with read_root, which reports it. Block stores
 * stay inside the string arena as read_string's do. Inlined into its two
 * callers (indexed_escaped_in_copy, string_escapes_ok), which are out of
 * stage 2's loop.
 */
static JET_ALWAYS_INLINE bool indexed_escaped_string(const reader *r, const char *p, const char *q,
                                                char *dst, size_t *out_len) {
    const char *src = p + 1;
    const char *end = r->end;
    char *d0 = dst;
    for (;;) {
        /* the plain bytes up to the next backslash or q */
        while ((size_t)(end - src) >= ESCAPE_BLOCK) {
            size_t k = first_backslash_copied(src, dst);
            size_t left = (size_t)(q - src);
            if (k < left) {
                src += k;
                dst += k;
                goto escape;
            }
            if (left <= ESCAPE_BLOCK) {
                dst += left;
                goto done;
            }
            src += ESCAPE_BLOCK;
            dst += ESCAPE_BLOCK;
        }
        while (src < q && *src != '\\') *dst++ = *src++;
        if (src >= q) goto done;
    escape:
        /* a backslash at src: the escaped byte is before q (stage 1 found q
         * unescaped), a \u escape's digits may not be */
        if (src[1] != 'u') {
            uint8_t v = escape_table[(unsigned char)src[1]];
            if (!v) return false;
            *dst++ = (char)v;
            src += 2;
            continue;
        }
        if (q - src < 6) return false;
        int32_t cp = jet__hex4(src + 2);
        if (cp < 0) return false;
        src += 6;
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            bool ok = jet__pair_surrogate(&src, q, &cp);
            if (!ok && !(r->flags & JET_READ_ALLOW_INVALID_UTF8)) return false;
        }
        dst = jet__utf8_put(dst, (uint32_t)cp);
    }
done:
    *dst = '\0';
    *out_len = (size_t)(dst - d0);
    return true;
}

/* The string whose opening quote is at p and closing quote at q holds a
 * backslash; its bytes are already in the string arena at d (stage 1
 * copied the input there: d is the copy of p + 1). Decodes it in place,
 * from the input (not the copy): the output never runs ahead of its
 * source, but the decoder's block stores may reach ESCAPE_BLOCK - 1 bytes
 * past the closing quote's copy, which belong to what follows and are put
 * back. Stage 1 found no control character in any string and either
 * validated the input's UTF-8 or invalid UTF-8 is allowed (then kept as
 * read_string would). Returns the slot's tag, 0 on failure. */
static JET_NOINLINE uint64_t indexed_escaped_in_copy(reader *r, const char *p, const char *q,
                                                     char *d) {
    size_t len = 0;
    if (!indexed_escaped_string(r, p, q, d, &len)) return 0;
    size_t after = (size_t)(r->end - q - 1);
    memcpy(d + (q - p), q + 1, after < ESCAPE_BLOCK - 1 ? after : ESCAPE_BLOCK - 1);
    return (uint64_t)JET_TYPE_STR | ((uint64_t)len << JET_TAG_LEN_SHIFT);
}

/* Validating: the escapes of the string whose quotes are at open and q,
 * which holds a backslash, are valid (decoded into scratch). */
static JET_NOINLINE bool string_escapes_ok(reader *r, const char *open, const char *q,
                                           char *scratch) {
    size_t len = 0;
    return indexed_escaped_string(r, open, q, scratch, &len);
}

/*
 * The reader's second stage when an index exists: the same states as
 * read_root, but each next token comes from the index instead of a scan, so
 * the position no longer depends on the bytes just read. It only accepts:
 * any failure (including every syntax error) returns false and the caller
 * re-reads with read_root, which reports the error with its exact place and
 * message. Comments and STOP_WHEN_DONE always take read_root.
 */
static JET_ALWAYS_INLINE bool read_indexed_body(reader *r, jet_stack *st, uint32_t max_depth,
                                                index_window *iw, const bool build) {
    jet_doc *doc = r->doc;
    const char *json = r->json;
    const char *end = r->end;
    const char *lim8 = room_limit(json, end, 8); /* see room_limit */
    const char *lim_roomy = jet_num_roomy_limit(json, end, r->flags);
    const jet_read_flags flags = r->flags;
    const bool trailing_commas = (flags & JET_READ_ALLOW_TRAILING_COMMAS) != 0;
    /* Every value owns at least one mark, taken from the window where the
     * value starts: room for a window's marks when it is scanned means no
     * test per value. (Hostile input, `]]]]...`, has a mark per byte: the
     * room reserved, never touched, is then 16 bytes per byte of a window.) */
    if (build && doc->val_cap < iw->count && !grow_vals(doc, 0, iw->count)) return false;
    /* Building, the string arena holds the input's copy (stage 1 made it,
     * read_with_index): a string's bytes are already at the same offset
     * there, and it is NUL-terminated (and its escapes decoded) in place.
     * IN_COPY(x) is the copy of input byte x. Validating (build false),
     * every slot is one sink and nothing is copied: only a string with
     * escapes is decoded, into the string arena used as scratch. */
    jet_val *v = build ? doc->vals : &r->sink;
    char *s = build ? iw->copy : doc->strs;
    const uintptr_t to_copy = (uintptr_t)s - (uintptr_t)json;
#define IN_COPY(x) ((char *)((uintptr_t)(x) + to_copy))
    size_t meta = 0; /* as in read_root */
    jet_frame *fp;
    if (!frames_begin(&doc->alloc, st, max_depth, &fp)) return false;
    /* The window, in locals (stores into the document could alias iw). */
    const uint64_t *wp = iw->marks;          /* the word being consumed */
    const uint64_t *wend = wp + iw->n;       /* the window's end */
    uint64_t cur = *wp;      /* its positions not consumed yet */
    const char *base = json; /* the input byte of its bit 0 */
    const char *p = json;

/* The string opened at a, p its next mark: into slot v, terminated in the
 * string arena (build), or only its escapes checked (validating); else
 * `failed`. In the DOM layout (scan.h) a string's backslashes are marked:
 * the next mark is its closing quote exactly when it has no escape (most
 * strings: one compare), else the marks up to the closing quote are its
 * backslashes. */
#define STRING_OR_FAIL(a)                                                    \
    do {                                                                     \
        if (JET_LIKELY(*p == '"')) {                                         \
            if (build) {                                                     \
                /* the tag from the raw length + 1, which the address  \
                 * arithmetic has anyway: two instructions fewer */      \
                size_t n1_ = (size_t)(p - (a));                              \
                *IN_COPY(p) = '\0';                                          \
                v->tag = ((uint64_t)n1_ << JET_TAG_LEN_SHIFT) +              \
                         ((uint64_t)JET_TYPE_STR | JET_TAG_STR_NOESC) -      \
                         ((uint64_t)1 << JET_TAG_LEN_SHIFT);                 \
                v->uni.str = IN_COPY((a) + 1);                               \
                v++;                                                         \
            }                                                                \
        } else {                                                             \
            do NEXT_TOKEN();                                                 \
            while (*p != '"');                                               \
            if (build) {                                                     \
                char *d_ = IN_COPY((a) + 1);                                 \
                uint64_t tag_ = indexed_escaped_in_copy(r, (a), p, d_);     \
                if (!tag_) goto failed;                                      \
                v->tag = tag_;                                               \
                v->uni.str = d_;                                             \
                v++;                                                         \
            } else if (!string_escapes_ok(r, (a), p, s)) {                   \
                goto failed;                                                 \
            }                                                                \
        }                                                                    \
    } while (0)

/* p = the next marked byte; fails at the end of the index. */
#define NEXT_TOKEN()                                                         \
    do {                                                                     \
        while (JET_UNLIKELY(!cur)) {                                         \
            if (JET_UNLIKELY(++wp >= wend)) {                                \
                if (next_window(iw) <= 0) goto failed;                       \
                if (build && doc->val_cap - (size_t)(v - doc->vals) < iw->count) \
                    GROW_SLOTS(iw->count, (void)0);                          \
                wp = iw->marks;                                              \
                wend = wp + iw->n;                                           \
            }                                                                \
            cur = *wp;                                                       \
            base += 64;                                                      \
        }                                                                    \
        p = base + jet__ctz64_offset(cur);                                   \
        cur &= cur - 1;                                                      \
    } while (0)

    NEXT_TOKEN();
value:
    switch (*p) {
    case '"': {
        const char *open = p;
        NEXT_TOKEN(); /* the closing quote */
        STRING_OR_FAIL(open);
        goto after_value;
    }
    case '[':
    case '{': {
        if (JET_UNLIKELY(fp->meta == FRAME_SENTINEL) &&
            frames_room(&doc->alloc, st, &fp, max_depth) <= 0)
            goto failed;
        enter_container(&fp, &meta, v, *p == '{');
        if (build) v++;
        NEXT_TOKEN();
        if (IN_OBJ) {
            if (JET_LIKELY(*p == '"')) goto key;
            if (*p == '}') goto close;
            goto failed;
        }
        if (*p == ']') goto close;
        goto value;
    }
    case 't':
        if (!LITERAL_AT(p, "true", 4)) goto failed;
        v->tag = JET_TYPE_BOOL | JET_SUBTYPE_TRUE;
        p += 4;
        goto literal_done;
    case 'f':
        if (!LITERAL_AT(p, "false", 5)) goto failed;
        v->tag = JET_TYPE_BOOL | JET_SUBTYPE_FALSE;
        p += 5;
        goto literal_done;
    case 'n':
        if (!LITERAL_AT(p, "null", 4)) goto failed;
        v->tag = JET_TYPE_NULL;
        p += 4;
        goto literal_done;
    case 'N':
    case 'I':
        if (!(flags & JET_READ_ALLOW_NAN_INF)) goto failed;
        /* fall through */
    case '-':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': {
        jet_num num;
        jet_code code = JET_OK;
        const char *at = p;
        const char *q = jet_num_parse_ex(p, end, lim_roomy, flags, &num, &code, &at);
        if (JET_UNLIKELY(!q) || (q < end && !delim_table[(unsigned char)*q])) goto failed;
        if (build) {
            put_number_in_copy(v, p, q, IN_COPY(p), &num, &iw->raw_end);
            v++;
        }
        goto after_value;
    }
    default:
        goto failed;
    }

literal_done:
    if (p < end && !delim_table[(unsigned char)*p]) goto failed;
    v->uni.u = 0;
    if (build) v++;
    goto after_value;

key: {
    /* p points at the opening quote of a key; the next mark is its end. */
    const char *open = p;
    NEXT_TOKEN();
    STRING_OR_FAIL(open);
    NEXT_TOKEN();
    if (JET_UNLIKELY(*p != ':')) goto failed;
    NEXT_TOKEN();
    goto value;
}

after_value:
    /* always in a container: the root is one (index_route_applies), and
     * close tests whether it closed */
    meta += 2; /* one more element */
    NEXT_TOKEN();
    if (JET_LIKELY(*p == ',')) {
        NEXT_TOKEN();
        if (IN_OBJ) {
            if (JET_LIKELY(*p == '"')) goto key;
            if (*p == '}' && trailing_commas) goto close;
            goto failed;
        }
        if (JET_UNLIKELY(*p == ']')) {
            if (trailing_commas) goto close;
            goto failed;
        }
        goto value;
    }
    if (*p == (IN_OBJ ? '}' : ']')) goto close;
    goto failed;

close:
    close_container(&fp, &meta, v);
    if (JET_UNLIKELY(!IN_CONTAINER(fp))) goto done;
    goto after_value;

done:
    /* content after the document: none in this window nor in the rest */
    if (cur) goto failed;
    for (;;) {
        while (++wp < wend)
            if (*wp) goto failed;
        int more = next_window(iw);
        if (more < 0) goto failed;
        if (!more) break;
        wp = iw->marks;
        wend = wp + iw->n;
        if (*wp) goto failed;
    }
    if (build) {
        doc->val_count = (size_t)(v - doc->vals);
        doc->read_size = (size_t)(end - json);
    }
    return true;

failed:
    doc->val_count = 0;
    return false;
#undef STRING_OR_FAIL
#undef NEXT_TOKEN
#undef IN_COPY
}

static JET_NOINLINE bool read_indexed(reader *r, jet_stack *st, uint32_t max_depth,
                                      index_window *iw) {
    return read_indexed_body(r, st, max_depth, iw, true);
}

/* The same grammar, nothing built (jet__validate_indexed). */
static JET_NOINLINE bool validate_indexed(reader *r, jet_stack *st, uint32_t max_depth,
                                          index_window *iw) {
    return read_indexed_body(r, st, max_depth, iw, false);
}

#if JET_SCAN_SSE2
/* Both again for the CPUs that run the AVX2 and AVX-512 kernels, which are
 * only selected where BMI1 and BMI2 are present (jet__kernel_available):
 * each token taken from the index then clears its bit with one instruction
 * (blsr) instead of two, and shifts by a variable count need no count
 * register (shlx). */
#define JET_BMI_ATTR __attribute__((target("bmi,bmi2")))
static JET_NOINLINE JET_BMI_ATTR bool read_indexed_bmi(reader *r, jet_stack *st,
                                                       uint32_t max_depth, index_window *iw) {
    return read_indexed_body(r, st, max_depth, iw, true);
}

static JET_NOINLINE JET_BMI_ATTR bool validate_indexed_bmi(reader *r, jet_stack *st,
                                                           uint32_t max_depth, index_window *iw) {
    return read_indexed_body(r, st, max_depth, iw, false);
}
#endif

/*
 * Whether the input looks like a numeric array (canada.json's coordinates):
 * more than half of 512 bytes sampled from its middle are digits. There the
 * one-pass reader is faster (measured: about 20% on canada.json), because
 * each number is followed right away by its comma, which the one-pass
 * reader checks in place while the index spends a mark on it.
 */
bool jet__mostly_digits(const char *json, size_t len) {
    if (len < 4096) return false;
    const unsigned char *p = (const unsigned char *)json + len / 2 - 256;
    unsigned digits = 0;
    for (unsigned i = 0; i < 512; i++) digits += (unsigned)(p[i] - '0') < 10u;
    return digits > 256;
}

/* Whether the first byte after any leading whitespace opens a container. */
static bool root_is_container(const char *json, size_t len) {
    const char *p = skip_ws(json, json + len);
    return p < json + len && (*p == '[' || *p == '{');
}

/* Whether the index route reads this input: a kernel with an index, a
 * container at the root (stage 2 then tests for the document's end only
 * where a container closes, not after every value), and neither comments
 * nor STOP_WHEN_DONE (read_root's alone), nor an input of mostly digits
 * (canada: the one-pass reader is faster there). */
static JET_NOINLINE bool index_route_applies(const reader *r, size_t len) {
    return jet__kernel() != JET_KERNEL_SCALAR && root_is_container(r->json, len) &&
           !(r->flags & (JET_READ_ALLOW_COMMENTS | JET_READ_STOP_WHEN_DONE)) &&
           !jet__mostly_digits(r->json, len);
}

/* Documents that the index route rejected and read_root then accepted. The
 * route is meant to accept every document read_root accepts (it hands
 * errors over, not documents): each one counted is a defect that costs a
 * second read, and the tests check that none happens. */
static atomic_size_t index_rereads;

size_t jet__index_rereads(void) {
    return atomic_load_explicit(&index_rereads, memory_order_relaxed);
}

/*
 * Where stage 1's copy of the input starts in the string arena: at the
 * input's own address modulo 4096 once the input is large. The CPU matches
 * a load against the stores still pending by the low 12 bits of their
 * addresses, so a copy at another offset makes stage 1's load of one block
 * wait for its store of an earlier one whenever the two land on the same
 * bits (measured on citm_catalog: 5% slower with the copy 48 bytes past
 * the input modulo 4096); at the same offset each block's store meets only
 * the bytes its own loads already read.
 */
#define COPY_ALIGN 4096
#define COPY_ALIGN_MIN (64 * 1024)
/* The longest input whose arenas' sizes cannot overflow (reserve_strings
 * adds at most 16 + COPY_ALIGN). */
#define INPUT_LEN_MAX (SIZE_MAX - 2 * COPY_ALIGN)
static char *copy_start(const jet_doc *doc, const char *json, size_t len) {
    if (len < COPY_ALIGN_MIN) return doc->strs;
    return doc->strs + (((uintptr_t)json - (uintptr_t)doc->strs) & (COPY_ALIGN - 1));
}

/* The index route, where index_route_applies: builds the index into the
 * parser's scratch and runs stage 2. Returns false when the index cannot be
 * allocated or stage 2 did not accept the input (read_root then reads it). */
static bool read_with_index(reader *r, jet_stack *st, uint32_t max_depth, size_t len,
                            bool build) {
    jet_kernel k = jet__kernel();
    index_window iw;
    iw.kernel = k;
    iw.json = r->json;
    iw.len = len;
    iw.total = JET_SCAN_WORDS(len);
    size_t cap = index_window_words();
    iw.cap = iw.total < cap ? iw.total : cap;
    if (st->index_cap < iw.cap) {
        jet__free(&r->doc->alloc, st->index);
        st->index = (uint64_t *)jet__malloc(&r->doc->alloc, iw.cap * sizeof(uint64_t));
        st->index_cap = st->index ? iw.cap : 0;
        if (!st->index) return false;
    }
    iw.marks = st->index;
    iw.check_utf8 = !(r->flags & JET_READ_ALLOW_INVALID_UTF8);
    iw.first = 0;
    /* building, the string arena receives the input (read_indexed_body) */
    iw.copy = build ? copy_start(r->doc, r->json, len) : NULL;
    iw.raw_end = NULL;
    jet_scan_result res;
    if (iw.total <= iw.cap) {
        /* one window: the whole input in one call, no state kept */
        if (!jet__scan(k, r->json, len, iw.marks, iw.copy, &res)) return false;
        if (res.ctrl_in_string || (iw.check_utf8 && !res.utf8_valid)) return false;
        iw.n = iw.total;
        iw.count = res.marks;
    } else {
        iw.n = 0;
        jet__scan_begin(&iw.scan);
        if (next_window(&iw) <= 0) return false;
    }
#if JET_SCAN_SSE2
    if (k == JET_KERNEL_AVX2 || k == JET_KERNEL_AVX512)
        return build ? read_indexed_bmi(r, st, max_depth, &iw)
                     : validate_indexed_bmi(r, st, max_depth, &iw);
#endif
    return build ? read_indexed(r, st, max_depth, &iw) : validate_indexed(r, st, max_depth, &iw);
}

/* ========================================================================== */
/* Entry points                                                               */
/* ========================================================================== */

/* The string arena for an input of len bytes. Unescaped strings never
 * exceed their source text, each NUL terminator is paid for by a quote, and
 * a block store of n bytes (8, 16 or 32) happens only when n input bytes
 * remain past the source position, which the output never runs ahead of:
 * len + 16 suffices, and stage 1's copy needs the same from where it starts
 * (copy_start), up to COPY_ALIGN - 1 bytes in (len <= INPUT_LEN_MAX,
 * checked by the callers). */
static bool reserve_strings(jet_doc *doc, size_t len) {
    size_t need = len + 16 + (len >= COPY_ALIGN_MIN ? COPY_ALIGN : 0);
    if (doc->str_cap >= need) return true;
    jet__free(&doc->alloc, doc->strs);
    doc->strs = (char *)jet__malloc(&doc->alloc, need);
    doc->str_cap = doc->strs ? need : 0;
    return doc->strs != NULL;
}

static void reader_init(reader *r, jet_doc *doc, const char *json, size_t len,
                        jet_read_flags flags) {
    memset(r, 0, sizeof *r);
    r->json = json;
    r->end = json + len;
    r->doc = doc;
    r->flags = flags;
    r->code = JET_OK;
}

bool jet__parse(jet_doc *doc, jet_stack *stack, const char *json, size_t len,
                const jet_read_opts *opts, jet_error *err) {
    jet_read_flags flags = opts ? opts->flags : 0;
    uint32_t max_depth = (opts && opts->max_depth) ? opts->max_depth : JET_DEFAULT_MAX_DEPTH;
    doc->val_count = 0;
    doc->read_size = 0;
    if (!json && len) {
        jet__error_kind(err, JET_E_NULL_INPUT, 0);
        return false;
    }
    if (opts && opts->max_size && len > opts->max_size) {
        jet__error_kind_at(err, JET_E_SIZE_LIMIT, json, len, opts->max_size);
        return false;
    }
    if (len > INPUT_LEN_MAX || !reserve_strings(doc, len)) {
        jet__error_kind(err, len > INPUT_LEN_MAX ? JET_E_INPUT_TOO_LARGE : JET_E_MEMORY, 0);
        return false;
    }
    /* Value arena: a first guess from the input size (about one value per
     * 8 bytes on typical documents); grown during the parse if needed. */
    size_t val_guess = len / 8 + 16;
    if (doc->val_cap < val_guess && !grow_vals(doc, 0, val_guess)) {
        jet__error_kind(err, JET_E_MEMORY, 0);
        return false;
    }
    if (!json) json = ""; /* len is 0 here: no arithmetic on NULL */
    reader r;
    reader_init(&r, doc, json, len, flags);
    bool indexed = index_route_applies(&r, len);
    if (indexed && read_with_index(&r, stack, max_depth, len, true)) return true;
    r.code = JET_OK;
    if (read_root(&r, stack, max_depth)) {
        if (indexed) atomic_fetch_add_explicit(&index_rereads, 1, memory_order_relaxed);
        return true;
    }
    jet__error_kind_at(err, r.err_kind, json, len, (size_t)(r.err_pos - json));
    return false;
}

bool jet__validate_indexed(jet_parser *p, const char *json, size_t len, const jet_read_opts *opts) {
    jet_read_flags flags = opts ? opts->flags : 0;
    uint32_t max_depth = (opts && opts->max_depth) ? opts->max_depth : JET_DEFAULT_MAX_DEPTH;
    jet_doc *doc = &p->doc;
    doc->val_count = 0;
    doc->read_size = 0;
    if (!json || len == 0 || len > INPUT_LEN_MAX || (opts && opts->max_size && len > opts->max_size))
        return false;
    /* the string arena: scratch for the strings with escapes */
    if (!reserve_strings(doc, len)) return false;
    reader r;
    reader_init(&r, doc, json, len, flags);
    return index_route_applies(&r, len) && read_with_index(&r, &p->stack, max_depth, len, false);
}

jet_parser *jet_parser_new(const jet_alloc *alloc) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_parser *p = (jet_parser *)jet__malloc(a, sizeof(jet_parser));
    if (!p) return NULL;
    memset(p, 0, sizeof(*p));
    p->alloc = *a;
    p->doc.alloc = *a;
    p->doc.parser_owned = true;
    return p;
}

void jet_parser_free(jet_parser *parser) {
    if (!parser) return;
    jet_alloc a = parser->alloc;
    jet__free(&a, parser->doc.vals);
    jet__free(&a, parser->doc.strs);
    jet__stack_free(&a, &parser->stack);
    jet__free(&a, parser);
}

jet_doc *jet_parser_parse(jet_parser *parser, const char *json, size_t len,
                          const jet_read_opts *opts, jet_error *err) {
    if (!parser) {
        jet__error_kind(err, JET_E_NULL_PARSER, 0);
        return NULL;
    }
    if (!jet__parse(&parser->doc, &parser->stack, json, len, opts, err)) return NULL;
    return &parser->doc;
}

jet_doc *jet_read(const char *json, size_t len, const jet_read_opts *opts,
                  const jet_alloc *alloc, jet_error *err) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_doc *doc = (jet_doc *)jet__malloc(a, sizeof(jet_doc));
    if (!doc) {
        jet__error_kind(err, JET_E_MEMORY, 0);
        return NULL;
    }
    memset(doc, 0, sizeof(*doc));
    doc->alloc = *a;
    jet_stack stack = {NULL, 0, NULL, 0};
    bool ok = jet__parse(doc, &stack, json, len, opts, err);
    jet__stack_free(a, &stack);
    if (!ok) {
        jet_doc_free(doc);
        return NULL;
    }
    return doc;
}

void jet_doc_free(jet_doc *doc) {
    if (!doc || doc->parser_owned) return;
    jet_alloc a = doc->alloc;
    jet__free(&a, doc->vals);
    jet__free(&a, doc->strs);
    jet__free(&a, doc);
}

jet_doc *jet_read_file(const char *path, const jet_read_opts *opts,
                       const jet_alloc *alloc, jet_error *err) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    if (!path) {
        jet__error_kind(err, JET_E_NULL_PATH, 0);
        return NULL;
    }
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        jet__error_kind(err, JET_E_IO_OPEN, 0);
        return NULL;
    }
    /* Read in chunks: works for pipes and for files alike. */
    size_t cap = 1 << 16, len = 0;
    char *buf = (char *)jet__malloc(a, cap);
    bool out_of_memory = buf == NULL;
    bool io_ok = buf != NULL;
    while (io_ok) {
        if (len == cap) {
            size_t ncap = cap * 2;
            char *nb = (char *)jet__realloc(a, buf, cap, ncap);
            if (!nb) {
                out_of_memory = true;
                io_ok = false;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) io_ok = false;
            break;
        }
    }
    if (!is_stdin) fclose(f);
    if (!io_ok) {
        jet__free(a, buf);
        jet__error_kind(err, out_of_memory ? JET_E_MEMORY : JET_E_IO_READ, 0);
        return NULL;
    }
    jet_doc *doc = jet_read(buf, len, opts, a, err);
    jet__free(a, buf);
    return doc;
}
