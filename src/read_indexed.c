/*
 * read_indexed.c — stage 2 of the index route: the DOM reader's states run
 * over the structural index that stage 1 (scan.c) builds, in bounded
 * windows, taking each next position from the index's bitmaps instead of
 * scanning. It only accepts: whatever it does not accept is read again by
 * the one-pass reader (read_onepass.c), which reports the error. Stage 1
 * also copies the input into the string arena, where stage 2 terminates
 * and decodes the strings in place.
 *
 * Sections: stage 2 over the structural index (windows, strings with
 * escapes, the state machine) · the route's entry (jet__read_with_index).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "read_common.h"
#include "scan.h"
#include "utf8.h"

#if JET_SCAN_SSE2
#include <emmintrin.h>
#endif

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

/* Stage 2's, whose input is copied into the string arena: a raw number's
 * text is there, at d, or is yet to come with the next window. It is
 * terminated in place (the byte after the number, a delimiter or the
 * input's end, is not part of any string), and *raw_end receives where. */
static inline void put_number_in_copy(jet_val *v, const char *p, const char *q, char *d,
                                      const jet_num *num, char **raw_end) {
    size_t len = (size_t)(q - p);
    if (put_number_at(v, len, d, num)) *raw_end = d + len;
}

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

/* Plain bytes after which the escape decoder stops scanning a block at a
 * time (indexed_escaped_string): the calls to memchr and memcpy cost about
 * what eight blocks do. */
#define LONG_PLAIN_RUN 64

/* Copies ESCAPE_BLOCK bytes from src to dst (both have the room; nothing
 * is copied when not `write`) and returns the offset of the first backslash
 * among them, SIZE_MAX when there is none. */
#if JET_SCAN_SSE2
#define ESCAPE_BLOCK 16
static inline size_t first_backslash_copied(const char *src, char *dst, const bool write) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)src);
    if (write) _mm_storeu_si128((__m128i *)(void *)dst, x);
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    return m ? (size_t)jet__ctz32(m) : SIZE_MAX;
}
#else
#define ESCAPE_BLOCK 8
static inline size_t first_backslash_copied(const char *src, char *dst, const bool write) {
    uint64_t x = jet__load_le64(src);
    if (write) memcpy(dst, src, 8);
    uint64_t b = x ^ (ONES_8 * '\\');
    uint64_t m = (b - ONES_8) & ~b & HIGH_8; /* the lowest flag is exact */
    return m ? jet__ctz64_offset(m) >> 3 : SIZE_MAX;
}
#endif

/* The escape at *srcp (a backslash before q; the escaped byte is before q,
 * stage 1 found q unescaped, a \u escape's digits may not be) decoded to
 * *dstp (`write`) or checked, with the \u escapes that follow it at once
 * (text written in ASCII); both pointers advanced. False on a bad escape. */
static JET_ALWAYS_INLINE bool decode_escape(const reader *r, const char **srcp, const char *q,
                                            char **dstp, const bool write) {
    const char *src = *srcp;
    char *dst = *dstp;
    if (src[1] != 'u') {
        uint8_t v = escape_table[(unsigned char)src[1]];
        if (!v) return false;
        if (write) *dst++ = (char)v;
        src += 2;
    } else {
        do {
            if (q - src < 6) return false;
            int32_t cp = jet__hex4(src + 2);
            if (cp < 0) return false;
            src += 6;
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                bool ok = jet__pair_surrogate(&src, q, &cp);
                if (!ok && !(r->flags & JET_READ_ALLOW_INVALID_UTF8)) return false;
            }
            if (write) dst = jet__utf8_put(dst, (uint32_t)cp);
        } while (src[0] == '\\' && src[1] == 'u'); /* src <= q, and q is a quote */
    }
    *srcp = src;
    if (write) *dstp = dst;
    return true;
}

/*
 * Decodes the string whose quotes are at p and q, which holds a backslash
 * (the first at `first`), into dst (where p + 1 goes; decoding starts at
 * the copy of `first`). Stage 1 has ruled out control characters in strings and checked
 * UTF-8 (or invalid UTF-8 is allowed and copied through, as read_string
 * does), and the end is known, so only backslashes need looking for: one
 * compare per 16 bytes where read_string tests for quotes, backslashes and
 * control bytes, and no end test per escape. The output is read_string's
 * (the one-pass reader's) byte for byte. Returns false on a bad escape:
 * the caller then re-reads with jet__read_root, which reports it. Block stores
 * stay inside the string arena as read_string's do. Validating (`write`
 * false, dst NULL), the escapes are only checked. Inlined into its two
 * callers (indexed_escaped_in_copy, string_escapes_ok), which are out of
 * stage 2's loop.
 */
static JET_ALWAYS_INLINE bool indexed_escaped_string(const reader *r, const char *p, const char *q,
                                                const char *first, char *dst, size_t *out_len,
                                                const bool write) {
    const char *end = r->end;
    char *d0 = dst;
    /* the bytes before the first backslash are already in place (building:
     * stage 1's copy) or not needed (validating) */
    const char *src = first;
    if (write) dst += first - (p + 1);
    for (;;) {
        /* the plain bytes up to the next backslash or q */
        while ((size_t)(end - src) >= ESCAPE_BLOCK) {
            size_t k = first_backslash_copied(src, dst, write);
            size_t left = (size_t)(q - src);
            if (k < left) {
                src += k;
                if (write) dst += k;
                goto escape;
            }
            if (left <= ESCAPE_BLOCK) {
                if (write) dst += left;
                goto done;
            }
            src += ESCAPE_BLOCK;
            if (write) dst += ESCAPE_BLOCK;
            if (left - ESCAPE_BLOCK > LONG_PLAIN_RUN) {
                /* long text: the rest of the run found by memchr (the C
                 * library's vector search) and moved with one memcpy,
                 * instead of a block at a time */
                left -= ESCAPE_BLOCK;
                const char *b = (const char *)memchr(src, '\\', left);
                size_t n = b ? (size_t)(b - src) : left;
                if (write) memcpy(dst, src, n);
                src += n;
                if (write) dst += n;
                if (b) goto escape;
                goto done;
            }
        }
        while (src < q && *src != '\\') {
            if (write) *dst++ = *src;
            src++;
        }
        if (src >= q) goto done;
    escape:
        if (!decode_escape(r, &src, q, &dst, write)) return false;
    }
done:
    if (write) {
        *dst = '\0';
        *out_len = (size_t)(dst - d0);
    }
    return true;
}

/* The most backslashes a string's escapes are decoded from as a list
 * (ESC_LIST_MAX, a power of two); a string with more searches the bitmap. */
#define ESC_LIST_MAX 64

/*
 * indexed_escaped_string with the plain runs between escapes found from
 * stage 1's marks instead of a scan: in the DOM layout every backslash in a
 * string is a mark, so the next mark at or after the end of an escape is
 * the next backslash, or q. Either from at[0..nb) (at not NULL), the
 * string's backslash marks in order, which stage 2 listed on its way to q
 * (at[0] is `first`), or, a string's first backslash being in the current
 * window (all of it is then: q is the window's latest mark), by a search of
 * the window's bitmap. The search starts where the escape just decoded
 * ends, so each escape waits for the one before it (decode, offset, word,
 * mask, count, and a loop over empty words whose length long text makes
 * random); from the list the escapes' runs overlap (long_strings parsed
 * 1.00-1.03 times simdjson DOM's speed with the search, 1.09-1.11 with the
 * list: docs/perf-log.md, 2026-12-03). Each run is moved with one
 * ESCAPE_BLOCK store when it fits one (up to ESCAPE_BLOCK - 1 bytes written
 * past it, fewer past q's copy: the caller puts those back), else one
 * memcpy. Long text with a few escapes costs a few instructions per escape,
 * not per byte.
 */
static JET_ALWAYS_INLINE bool escaped_by_marks(const reader *r, const index_window *iw,
                                               const char *p, const char *q, const char *first,
                                               const char *const *at, unsigned nb, char *dst,
                                               size_t *out_len, const bool write) {
    char *d0 = dst;
    const char *src = first;
    unsigned k = 1; /* the list's next */
    if (write) dst += first - (p + 1);
    for (;;) {
        if (!decode_escape(r, &src, q, &dst, write)) return false;
        const char *b;
        if (at) {
            while (JET_UNLIKELY(k < nb && at[k] < src)) k++; /* an escaped backslash's mark */
            b = k < nb ? at[k++] : q;
        } else {
            const char *base = iw->json + 64 * iw->first; /* the input byte of marks[0]'s bit 0 */
            size_t off = (size_t)(src - base);
            const uint64_t *w = iw->marks + off / 64;
            uint64_t bits = *w & (~(uint64_t)0 << (off % 64));
            while (!bits) bits = *++w; /* ends at q's mark at the latest */
            b = base + 64 * (size_t)(w - iw->marks) + jet__ctz64_offset(bits);
        }
        if (write) {
            size_t n = (size_t)(b - src);
            if (n <= ESCAPE_BLOCK && r->end - src >= ESCAPE_BLOCK)
                memcpy(dst, src, ESCAPE_BLOCK);
            else
                memcpy(dst, src, n);
            dst += n;
        }
        src = b;
        if (b == q) break;
    }
    if (write) {
        *dst = '\0';
        *out_len = (size_t)(dst - d0);
    }
    return true;
}

/* The string whose opening quote is at p and closing quote at q holds a
 * backslash, the first at `first`; its bytes are already in the string
 * arena at d (stage 1 copied the input there: d is the copy of p + 1).
 * Decodes it in place from its first backslash on (what comes before is
 * already where it belongs; long text with one late escape is not copied
 * twice), from the input (not the copy): the output never runs ahead of its
 * source, but the decoder's block stores may reach ESCAPE_BLOCK - 1 bytes
 * past the closing quote's copy, which belong to what follows and are put
 * back. Stage 1 found no control character in any string and either
 * validated the input's UTF-8 or invalid UTF-8 is allowed (then kept as
 * read_string would). at[0..nb): its backslashes as stage 2 listed them
 * (nb 0: more than ESC_LIST_MAX). Returns the slot's tag, 0 on failure. */
static JET_NOINLINE uint64_t indexed_escaped_in_copy(reader *r, const index_window *iw,
                                                     const char *p, const char *q,
                                                     const char *first, char *d,
                                                     const char *const *at, unsigned nb) {
    size_t len = 0;
    bool ok = nb ? escaped_by_marks(r, iw, p, q, first, at, nb, d, &len, true)
              : first >= iw->json + 64 * iw->first
                  ? escaped_by_marks(r, iw, p, q, first, NULL, 0, d, &len, true)
                  : indexed_escaped_string(r, p, q, first, d, &len, true);
    if (!ok) return 0;
    size_t after = (size_t)(r->end - q - 1);
    memcpy(d + (q - p), q + 1, after < ESCAPE_BLOCK - 1 ? after : ESCAPE_BLOCK - 1);
    return (uint64_t)JET_TYPE_STR | ((uint64_t)len << JET_TAG_LEN_SHIFT);
}

/* Validating: the escapes of the string whose quotes are at open and q,
 * which holds a backslash (the first at `first`; at[0..nb) as in
 * indexed_escaped_in_copy), are valid (checked, nothing written). */
static JET_NOINLINE bool string_escapes_ok(reader *r, const index_window *iw, const char *open,
                                           const char *q, const char *first,
                                           const char *const *at, unsigned nb) {
    return nb ? escaped_by_marks(r, iw, open, q, first, at, nb, NULL, NULL, false)
           : first >= iw->json + 64 * iw->first
               ? escaped_by_marks(r, iw, open, q, first, NULL, 0, NULL, NULL, false)
               : indexed_escaped_string(r, open, q, first, NULL, NULL, false);
}

/*
 * The reader's second stage when an index exists: the same states as
 * jet__read_root, but each next token comes from the index instead of a scan, so
 * the position no longer depends on the bytes just read. It only accepts:
 * any failure (including every syntax error) returns false and the caller
 * re-reads with jet__read_root, which reports the error with its exact place and
 * message. Comments and STOP_WHEN_DONE always take jet__read_root.
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
    if (build && doc->val_cap < iw->count && !jet__grow_vals(doc, 0, iw->count)) return false;
    /* Building, the string arena holds the input's copy (stage 1 made it,
     * jet__read_with_index): a string's bytes are already at the same offset
     * there, and it is NUL-terminated (and its escapes decoded) in place.
     * IN_COPY(x) is the copy of input byte x. Validating (build false),
     * every slot is one sink and nothing is copied or stored: a string's
     * escapes are only checked. */
    jet_val *v = build ? doc->vals : &r->sink;
    char *s = build ? iw->copy : NULL;
    const uintptr_t to_copy = (uintptr_t)s - (uintptr_t)json;
#define IN_COPY(x) ((char *)((uintptr_t)(x) + to_copy))
    size_t meta = 0; /* as in jet__read_root */
    jet_frame *fp;
    if (!frames_begin(&doc->alloc, st, max_depth, &fp)) return false;
    /* The window, in locals (stores into the document could alias iw). */
    const uint64_t *wp = iw->marks;          /* the word being consumed */
    const uint64_t *wend = wp + iw->n;       /* the window's end */
    uint64_t cur = *wp;      /* its positions not consumed yet */
    const char *base = json; /* the input byte of its bit 0 */
    const char *p = json;
    const char *esc_at[ESC_LIST_MAX]; /* an escaped string's backslashes (STRING_OR_FAIL) */

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
            /* its backslashes listed on the way to the closing quote (a  \
             * longer list is not used: the index is masked, no branch)  */ \
            const char *first_ = p; /* the string's first backslash */       \
            size_t nb_ = 0; /* (a size_t: no wrap on any input) */           \
            do {                                                             \
                esc_at[nb_++ & (ESC_LIST_MAX - 1)] = p;                      \
                NEXT_TOKEN();                                                \
            } while (*p != '"');                                             \
            unsigned listed_ = nb_ <= ESC_LIST_MAX ? (unsigned)nb_ : 0;      \
            if (build) {                                                     \
                char *d_ = IN_COPY((a) + 1);                                 \
                uint64_t tag_ = indexed_escaped_in_copy(r, iw, (a), p, first_, d_, esc_at, listed_); \
                if (!tag_) goto failed;                                      \
                v->tag = tag_;                                               \
                v->uni.str = d_;                                             \
                v++;                                                         \
            } else if (!string_escapes_ok(r, iw, (a), p, first_, esc_at, listed_)) { \
                goto failed;                                                 \
            }                                                                \
        }                                                                    \
    } while (0)

/* The number at p: q its end, its slot v filled (build); else `failed`.
 * (The number case and the array loop below share it.) */
#define NUMBER_OR_FAIL(q)                                                    \
    do {                                                                     \
        jet_num num_;                                                        \
        jet_code code_ = JET_OK;                                             \
        const char *at_ = p;                                                 \
        (q) = jet_num_parse_ex(p, end, lim_roomy, flags, &num_, &code_, &at_); \
        if (JET_UNLIKELY(!(q))) goto failed;                                 \
        if (build) {                                                         \
            put_number_in_copy(v, p, (q), IN_COPY(p), &num_, &iw->raw_end);  \
            v++;                                                             \
        }                                                                    \
    } while (0)

/* p = the next marked byte; fails at the end of the index. (STRING_OR_FAIL
 * and this are macros: they move stage 2's window locals, cur, wp, wend,
 * base, p and v, and jump to `failed`; LITERAL_AT above measured 4% more as
 * an inline function, and these were left as they are.) */
#define NEXT_TOKEN()                                                         \
    do {                                                                     \
        while (JET_UNLIKELY(!cur)) {                                         \
            if (JET_UNLIKELY(++wp >= wend)) {                                \
                if (next_window(iw) <= 0) goto failed;                       \
                if (build && doc->val_cap - (size_t)(v - doc->vals) < iw->count && \
                    !grow_slots(doc, st, fp, &v, iw->count))                 \
                    goto failed;                                             \
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
            jet__frames_room(&doc->alloc, st, &fp, max_depth) <= 0)
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
        const char *q;
        NUMBER_OR_FAIL(q);
        /* A number right before its comma (arrays of numbers, most
         * members): that comma is the next mark, so neither the glue
         * table nor after_value's test of the token is needed. */
        if (JET_LIKELY(q < end && *q == ',')) {
            meta += 2; /* as after_value */
            NEXT_TOKEN();
            goto after_comma;
        }
        if (q < end && !delim_table[(unsigned char)*q]) goto failed;
        goto after_value;
    }
    default:
        goto failed;
    }

array_number: {
    /* a number in an array, and the array's numbers after it: a loop with
     * no test of the container's kind (its tail repeats after_comma's array
     * branch: a jump there instead measured citm_catalog +1.7%, twitter
     * +0.8% under callgrind) */
    const char *q;
    NUMBER_OR_FAIL(q);
    if (JET_LIKELY(q < end && *q == ',')) {
        meta += 2; /* as after_value */
        NEXT_TOKEN();
        NEXT_TOKEN();
        if ((unsigned char)(*p - '0') < 10 || *p == '-') goto array_number;
        if (JET_UNLIKELY(*p == ']')) {
            if (trailing_commas) goto close;
            goto failed;
        }
        goto value;
    }
    if (q < end && !delim_table[(unsigned char)*q]) goto failed;
    goto after_value;
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
    after_comma:
        NEXT_TOKEN();
        if (IN_OBJ) {
            if (JET_LIKELY(*p == '"')) goto key;
            if (*p == '}' && trailing_commas) goto close;
            goto failed;
        }
        /* an array's next number without the switch */
        if ((unsigned char)(*p - '0') < 10 || *p == '-') goto array_number;
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
#undef NUMBER_OR_FAIL
#undef NEXT_TOKEN
#undef IN_COPY
}

static JET_NOINLINE bool read_indexed(reader *r, jet_stack *st, uint32_t max_depth,
                                      index_window *iw) {
    return read_indexed_body(r, st, max_depth, iw, true);
}

/* The same grammar, nothing built (jet__validate). */
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

/* ========================================================================== */
/* The route's entry                                                          */
/* ========================================================================== */

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
static char *copy_start(const jet_doc *doc, const char *json, size_t len) {
    if (len < COPY_ALIGN_MIN) return doc->strs;
    return doc->strs + (((uintptr_t)json - (uintptr_t)doc->strs) & (COPY_ALIGN - 1));
}

/* The index route, where index_route_applies: builds the index into the
 * parser's scratch and runs stage 2. Returns false when the index cannot be
 * allocated or stage 2 did not accept the input (jet__read_root then reads it). */
bool jet__read_with_index(reader *r, jet_stack *st, uint32_t max_depth, size_t len,
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
