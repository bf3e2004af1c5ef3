/*
 * read_onepass.c — the one-pass DOM reader: JSON text → flat array of
 * jet_val, reading every byte once, with no index.
 *
 * An explicit stack (no recursion, so the depth limit is a setting and not
 * the C stack), values appended in document order into the document's value
 * arena and string bytes unescaped straight into its string arena. The state
 * machine is written with gotos so that each state knows what it expects
 * next and the common path is a short, predictable sequence of compares.
 *
 * Reading never goes past `end`: every dereference is guarded by a length
 * check, and the block loads of the string scanners only happen when that
 * many bytes remain. This reader is the reference: it reads what the index
 * route (read_indexed.c) does not take, and every input that route rejects,
 * and its errors are the ones reported (parser.c chooses the route).
 *
 * Sections: UTF-8 · strings · comments · the state machine.
 */
#include <string.h>

#include "read_common.h"
#include "grammar.h"
#include "scan.h"
#include "utf8.h"

#if JET_SCAN_SSE2
#include <emmintrin.h>
#endif

/* ========================================================================== */
/* Whitespace table and failures                                              */
/* ========================================================================== */

/* JSON whitespace: space, tab, LF, CR. */
static const uint8_t ws_table[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
};

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
 * Whether the little-endian word w (the byte at p in its low bits) starts
 * with two valid three-byte UTF-8 sequences: 1110xxxx 10xxxxxx 10xxxxxx
 * twice, neither overlong (E0 followed by 80..9F) nor a UTF-16 surrogate
 * (ED followed by A0..BF). With that pattern a sequence is invalid exactly
 * when its lead's low nibble, xored with 0xD where bit 5 of the second byte
 * is set, is zero: both nibbles are tested at once, bit 4 of nibble + 0xF
 * being set for a nonzero one (CJK text: two characters per step).
 */
static inline bool utf8_two_3byte(uint64_t w) {
    if ((w & UINT64_C(0x0000C0C0F0C0C0F0)) != UINT64_C(0x00008080E08080E0)) return false;
    uint64_t flip = ((w >> 13) & UINT64_C(0x01000001)) * 0x0D;
    uint64_t nib = (w ^ flip) & UINT64_C(0x0F00000F);
    return ((nib + UINT64_C(0x0F00000F)) & UINT64_C(0x10000010)) == UINT64_C(0x10000010);
}

#if JET_SCAN_SSE2
/* The bytes of the whole three-byte sequences in a prefix of k bytes
 * (k up to 14 is read: a block of 15 good bytes steps by 15 itself). */
static const uint8_t whole_3byte[17] = {0, 0, 0, 3, 3, 3, 6, 6, 6, 9, 9, 9, 12, 12, 12, 15, 15};
#else
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
#endif

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

/* The string scan's vector constants: the reader sets them up once, behind
 * an empty asm, so that they stay in registers instead of being loaded
 * again for every string. */
#if JET_SCAN_SSE2
typedef struct string_consts {
    __m128i two, space, backslash;
} string_consts;
static JET_ALWAYS_INLINE string_consts string_consts_make(void) {
    string_consts k = {_mm_set1_epi8(2), _mm_set1_epi8(0x20), _mm_set1_epi8('\\')};
#if JET_GNUC
    __asm__("" : "+x"(k.two), "+x"(k.space), "+x"(k.backslash));
#endif
    return k;
}
#else
typedef struct string_consts {
    char unused;
} string_consts;
static JET_ALWAYS_INLINE string_consts string_consts_make(void) {
    string_consts k = {0};
    return k;
}
#endif

/*
 * Scans the string whose opening quote precedes `p`, copying the unescaped
 * bytes to `dst`. Block stores of 8 or 16 bytes happen only when that many
 * input bytes remain, and the output never runs ahead of the input, so they
 * stay inside the string arena (see jet__parse). On success returns the byte after the
 * closing quote, sets *out_len and *kind (the slot's tag less the length:
 * JET_TYPE_STR, with JET_TAG_STR_NOESC when there was no escape; held as
 * tag bits, not a bool, so that put_string's tag is one shift and one or);
 * NULL on error. Validating
 * (`write` false: dst is NULL), the string is only checked, nothing stored.
 * lim8, lim16: room_limit for 8 and 16 (the reader's, kept in its frame).
 */
static JET_ALWAYS_INLINE const char *read_string(reader *r, const char *p, const char *end,
                                                 const char *lim8, const char *lim16,
                                                 const string_consts *k16, char *dst,
                                                 size_t *out_len, uint64_t *kind, const bool write) {
    char *d0 = dst;
    uint64_t str_kind = (uint64_t)JET_TYPE_STR | JET_TAG_STR_NOESC;
    (void)lim16;
    (void)k16;
    for (;;) {
#if JET_SCAN_SSE2
        /* Fast path: 16 bytes at a time while no byte needs attention. A
         * signed compare passes the bytes that are neither control
         * characters nor non-ASCII, and after an xor with 2 not '"' either
         * (0x22 becomes 0x20, no other byte does); the plain bytes are those
         * and not '\\'. Fewer than 16 bytes from the end of the input, the
         * byte loop below takes over. */
        while (HAS_ROOM(p, lim16)) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
            if (write) _mm_storeu_si128((__m128i *)(void *)dst, x);
            __m128i ok = _mm_cmpgt_epi8(_mm_xor_si128(x, k16->two), k16->space);
            ok = _mm_andnot_si128(_mm_cmpeq_epi8(x, k16->backslash), ok);
            unsigned m = (unsigned)_mm_movemask_epi8(ok) ^ 0xFFFFu;
            if (m) {
                size_t k = jet__ctz64_offset(m); /* no sign extension (bits.h) */
                p += k;
                if (write) dst += k;
                goto special;
            }
            p += 16;
            if (write) dst += 16;
        }
#else
        /* 8 bytes at a time while no byte needs attention. */
        while (HAS_ROOM(p, lim8)) {
            uint64_t x = jet__load_le64(p);
            if (write) memcpy(dst, p, 8);
            uint64_t m = string_special_mask(x);
            if (m) {
                unsigned k = jet__ctz64_offset(m) >> 3;
                p += k;
                if (write) dst += k;
                goto special;
            }
            p += 8;
            if (write) dst += 8;
        }
#endif
        /* Tail: byte at a time. */
        for (;;) {
            if (JET_UNLIKELY(p >= end))
                return fail(r, JET_E_END_IN_STRING, end);
            unsigned char c = (unsigned char)*p;
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
            if (write) *dst++ = (char)c;
            p++;
        }
    special:;
        unsigned char c = (unsigned char)*p;
        if (c == '"') {
            if (write) {
                *dst = '\0';
                *out_len = (size_t)(dst - d0);
            }
            *kind = str_kind;
            return p + 1;
        }
        if (c >= 0x80) {
            /* Non-ASCII: validate whole sequences while they run on. CJK
             * runs go five sequences per 16-byte block (SSE2), then two per
             * 8-byte word; two- and
             * three-byte sequences (Latin, CJK) are checked from one 32-bit
             * load and stored with one 4-byte store; everything else (4-byte
             * sequences, errors, the last bytes of the input) goes through
             * utf8_seq_len. dst has room: it never runs ahead of p. */
            do {
#if JET_SCAN_SSE2
                /* Up to five three-byte sequences per 16-byte block (CJK
                 * runs), as utf8_two_3byte checks two: a byte passes when it
                 * has its place's pattern (lead 1110xxxx at 0, 3, .., 15,
                 * 10xxxxxx between) and, for a lead, is not E0 followed by
                 * 80..9F (overlong) nor ED followed by A0..BF (surrogate).
                 * Xoring 0x0D into leads whose second byte is below A0 turns
                 * both bad cases, and only them, into ED. The sequences up
                 * to the first byte that fails are taken. Entered at a
                 * three-byte lead only: other text (Latin, emoji) would pay
                 * for a block that fails at once. */
                const __m128i lead_mask = _mm_setr_epi8(
                    (char)0xF0, (char)0xC0, (char)0xC0, (char)0xF0, (char)0xC0, (char)0xC0,
                    (char)0xF0, (char)0xC0, (char)0xC0, (char)0xF0, (char)0xC0, (char)0xC0,
                    (char)0xF0, (char)0xC0, (char)0xC0, (char)0xF0);
                const __m128i lead_bits = _mm_setr_epi8(
                    (char)0xE0, (char)0x80, (char)0x80, (char)0xE0, (char)0x80, (char)0x80,
                    (char)0xE0, (char)0x80, (char)0x80, (char)0xE0, (char)0x80, (char)0x80,
                    (char)0xE0, (char)0x80, (char)0x80, (char)0xE0);
                while (((unsigned char)*p & 0xF0) == 0xE0 && HAS_ROOM(p, lim16)) {
                    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
                    if (write) _mm_storeu_si128((__m128i *)(void *)dst, x);
                    __m128i shape = _mm_cmpeq_epi8(_mm_and_si128(x, lead_mask), lead_bits);
                    __m128i low2 = _mm_cmpgt_epi8(_mm_set1_epi8((char)0xA0), _mm_srli_si128(x, 1));
                    __m128i lead = _mm_xor_si128(x, _mm_and_si128(low2, _mm_set1_epi8(0x0D)));
                    __m128i bad = _mm_cmpeq_epi8(lead, _mm_set1_epi8((char)0xED));
                    unsigned ok = (unsigned)_mm_movemask_epi8(_mm_andnot_si128(bad, shape));
                    if ((ok & 0x7FFFu) != 0x7FFFu) {
                        size_t n = whole_3byte[jet__ctz64_offset(~ok)];
                        p += n;
                        if (write) dst += n;
                        break;
                    }
                    /* a constant step while the run goes on: the next load
                     * then waits for no compare (a step from the table
                     * would chain every block to the last; perf-log.md) */
                    p += 15;
                    if (write) dst += 15;
                }
#endif
                while (HAS_ROOM(p, lim8)) {
                    uint64_t w = jet__load_le64(p);
                    if (!utf8_two_3byte(w)) break;
                    if (write) memcpy(dst, p, 8);
                    p += 6;
                    if (write) dst += 6;
                }
                if ((unsigned char)*p < 0x80) break; /* after a step: p < end */
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
                            if (write) memcpy(dst, p, 4);
                            p += 3;
                            if (write) dst += 3;
                            continue;
                        }
                    } else if ((w & 0xC0E0u) == 0x80C0u && (w & 0x1Eu) != 0) {
                        /* 110xxxxx 10xxxxxx with a lead of C2 or more */
                        if (write) memcpy(dst, p, 4);
                        p += 2;
                        if (write) dst += 2;
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
                if (write) {
                    memcpy(dst, p, n);
                    dst += n;
                }
                p += n;
            } while (p < end && (unsigned char)*p >= 0x80);
            continue;
        }
        if (c == '\\') {
            str_kind = (uint64_t)JET_TYPE_STR;
            if (JET_UNLIKELY(end - p < 2))
                return fail(r, JET_E_END_IN_ESCAPE, end);
            unsigned char e = (unsigned char)p[1];
            if (e != 'u') {
                uint8_t v = escape_table[e];
                if (JET_UNLIKELY(!v))
                    return fail(r, JET_E_ESCAPE_CHAR, p + 1);
                if (write) *dst++ = (char)v;
                p += 2;
                continue;
            }
            /* a run of \u escapes (text written in ASCII) is decoded
             * without going back to the block scan between them */
            for (;;) {
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
                if (write) dst = jet__utf8_put(dst, (uint32_t)cp);
                if (end - p < 2 || p[0] != '\\' || p[1] != 'u') break;
            }
            continue;
        }
        /* c < 0x20 */
        return fail(r, JET_E_STRING_CONTROL, p);
    }
}

/* ========================================================================== */
/* Comments                                                                   */
/* ========================================================================== */

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

/*
 * Skips a run of spaces (the indentation after a newline) 8 bytes per step:
 * a space byte flips no bit of x ^ 0x20..20, so the lowest set bit of that
 * word is in the first byte that is not a space. True when it stopped at
 * that byte (*pp < end); false when fewer than 8 bytes were left
 * (lim8: room_limit for 8), the rest being skip_ws's.
 */
static JET_ALWAYS_INLINE bool skip_indent(const char **pp, const char *lim8) {
    const char *p = *pp;
    while (HAS_ROOM(p, lim8)) {
        uint64_t y = jet__load_le64(p) ^ (ONES_8 * ' ');
        if (y) {
            *pp = p + (jet__ctz64_offset(y) >> 3);
            return true;
        }
        p += 8;
    }
    *pp = p;
    return false;
}

/*
 * Skips whitespace as skip_ws does, first taking the layout that
 * pretty-printed JSON puts between tokens: a newline and its indentation.
 * What else there is (CR, tabs, blank lines, the last 8 bytes) goes on
 * byte by byte in skip_ws.
 */
static JET_ALWAYS_INLINE const char *skip_layout(const char *p, const char *end, const char *lim8) {
    if (JET_LIKELY(HAS_ROOM(p, lim8))) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') {
            p++;
            if (skip_indent(&p, lim8) && (unsigned char)*p > ' ') return p;
        } else if (c > ' ') {
            return p;
        }
    }
    return skip_ws(p, end);
}

/* Skips whitespace (and comments when enabled). Jumps to `failed` when a
 * comment is malformed. Evaluates to nothing; updates p. (A macro: as an
 * inline function returning false on a bad comment, about 1% more
 * instructions on canada.json, callgrind.) */
#define SKIP_WS()                                                            \
    do {                                                                     \
        p = skip_layout(p, end, lim8);                                       \
        if (JET_UNLIKELY(comments) && p < end && *p == '/') {                \
            p = skip_comments(r, p);                                         \
            if (!p) goto failed;                                             \
        }                                                                    \
    } while (0)

/* Fills a string slot (the bytes are already in the string arena at s). */
static inline void put_string(jet_val *v, char *s, size_t len, uint64_t kind) {
    v->tag = kind | ((uint64_t)len << JET_TAG_LEN_SHIFT);
    v->uni.str = s;
}

/* The one-pass reader's: a raw number's text [p, q) is copied to the
 * string arena at s. Returns the new end of the string arena. */
static inline char *put_number(jet_val *v, char *s, const char *p, const char *q,
                               const jet_num *num) {
    size_t len = (size_t)(q - p);
    if (num->kind == JET_NUM_RAW) memcpy(s, p, len);
    return put_number_at(v, len, s, num) ? s + len + 1 : s;
}

/* Makes room for one more value slot; jumps to `failed` when the slots
 * cannot grow. (A macro: as an inline function, 0.65% more instructions on
 * canada.json, callgrind.) */
#define RESERVE_SLOT()                                                       \
    do {                                                                     \
        if (build && JET_UNLIKELY(v == vend)) {                              \
            if (!grow_slots(doc, st, fp, &v, 1)) {                           \
                fail(r, JET_E_MEMORY, p);                                    \
                goto failed;                                                 \
            }                                                                \
            vend = doc->vals + doc->val_cap;                                 \
        }                                                                    \
    } while (0)

/* The state machine; building the document into r->doc, or validating
 * (build false): every slot is r->sink, no string or number is stored, and
 * the document is not touched beyond the stack. */
static JET_ALWAYS_INLINE bool read_root_body(reader *r, jet_stack *st, uint32_t max_depth,
                                             const bool build) {
    jet_doc *doc = r->doc;
    const char *p = r->json;
    const char *end = r->end;
    const char *lim8 = room_limit(p, end, 8); /* as in read_indexed_body */
    const char *lim16 = room_limit(p, end, 16);
    const string_consts k16 = string_consts_make();
    const char *lim_roomy = jet_num_roomy_limit(p, end, r->flags);
    const bool comments = (r->flags & JET_READ_ALLOW_COMMENTS) != 0;
    const bool trailing_commas = (r->flags & JET_READ_ALLOW_TRAILING_COMMAS) != 0;
    const jet_read_flags flags = r->flags;
    jet_val *v = build ? doc->vals : &r->sink;
    jet_val *vend = build ? doc->vals + doc->val_cap : NULL;
    char *s = build ? doc->strs : NULL;
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
        uint64_t kind = JET_TYPE_STR;
        const char *q = read_string(r, p + 1, end, lim8, lim16, &k16, s, &len, &kind, build);
        if (!q) goto failed;
        if (build) {
            put_string(v, s, len, kind);
            s += len + 1;
            v++;
        }
        p = q;
        goto after_value;
    }
    case '[':
    case '{': {
        if (JET_UNLIKELY(fp->meta == FRAME_SENTINEL)) {
            int room = jet__frames_room(&doc->alloc, st, &fp, max_depth);
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
        if (build) v++;
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
        if (build) {
            s = put_number(v, s, p, q, &num);
            v++;
        }
        p = q;
        goto after_value;
    }
    default:
        fail(r, JET_E_EXPECTED_VALUE, p);
        goto failed;
    }

literal_done:
    v->uni.u = 0;
    if (build) v++;
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
    uint64_t kind = JET_TYPE_STR;
    const char *q = read_string(r, p + 1, end, lim8, lim16, &k16, s, &len, &kind, build);
    if (!q) goto failed;
    if (build) {
        put_string(v, s, len, kind);
        s += len + 1;
        v++;
    }
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
    /* "key": value, the pretty-printed layout: one space */
    if (JET_LIKELY(HAS_ROOM(p, lim8))) {
        unsigned char c = (unsigned char)*p;
        if (JET_LIKELY(c == ' ')) c = (unsigned char)*++p;
        if (JET_LIKELY(c > ' ' && c != '/')) goto value;
    }
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
    /* pretty-printed: a newline and the indentation, then the token */
    if (JET_LIKELY(HAS_ROOM(p, lim8))) {
        if (*p == '\n') {
            p++;
            if (!skip_indent(&p, lim8)) goto comma_layout;
        }
        if (JET_LIKELY((unsigned char)*p > ' ' && *p != '/')) goto after_comma_token;
    }
comma_layout:
    {
        SKIP_WS();
        if (JET_UNLIKELY(p >= end)) {
            fail(r, IN_OBJ ? JET_E_END_IN_OBJECT : JET_E_END_IN_ARRAY, p);
            goto failed;
        }
    }
after_comma_token:
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
    if (build) doc->val_count = (size_t)(v - doc->vals);
    if (!(flags & JET_READ_STOP_WHEN_DONE)) {
        SKIP_WS();
        if (p < end) {
            fail(r, JET_E_TRAILING_CONTENT, p);
            goto failed;
        }
    }
    if (build) doc->read_size = (size_t)(p - r->json);
    return true;

failed:
    if (r->code == JET_OK) fail(r, JET_E_INVALID_JSON, p);
    if (build) doc->val_count = 0;
    return false;
}

static JET_NOINLINE bool read_root(reader *r, jet_stack *st, uint32_t max_depth) {
    return read_root_body(r, st, max_depth, true);
}

static JET_NOINLINE bool validate_root(reader *r, jet_stack *st, uint32_t max_depth) {
    return read_root_body(r, st, max_depth, false);
}

/* Reads through a copy of the context in a local, whose state the compiler
 * then knows (no error recorded yet): it specializes read_root for it, as it
 * did when parser.c's jet__parse called read_root in the same file
 * (measured: reading through the caller's pointer cost 1.3% more
 * instructions on canada.json). */
bool jet__read_root(reader *r, jet_stack *st, uint32_t max_depth) {
    reader local = *r;
    local.code = JET_OK;
    bool ok = read_root(&local, st, max_depth);
    *r = local;
    return ok;
}

bool jet__validate_root(reader *r, jet_stack *st, uint32_t max_depth) {
    reader local = *r;
    local.code = JET_OK;
    bool ok = validate_root(&local, st, max_depth);
    *r = local;
    return ok;
}
