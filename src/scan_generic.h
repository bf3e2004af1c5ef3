/*
 * scan_generic.h — the one implementation of stage 1, included by scan.c once
 * per kernel. The including file defines:
 *   SCAN_FN        name of the function to generate
 *   SCAN_ATTR      function attributes (the kernel's target)
 *   SCAN_CLASSIFY  (const char *p, scan_masks *m): classify 64 bytes at p
 *   SCAN_PREFIX_XOR(x): bit i of the result = xor of bits 0..i of x
 * and its UTF-8 validator (every kernel has one):
 *   SCAN_UTF8_STATE   the validator's state type
 *   SCAN_UTF8_BLOCK(state *, const char *p) (the state starts all zero),
 *   SCAN_UTF8_VALID(state *): true when every block seen was valid UTF-8
 *   SCAN_UTF8_SOUND(state *): the same, except that the last block may end
 *     inside a sequence (the input goes on)
 * and optionally SCAN_STATE_IN_MEMORY (below) and
 *   SCAN_PAD_TAIL(char pad[64], const char *src, size_t r): the r bytes at
 *     src (1 <= r <= 63), then spaces, into pad (64-byte aligned), reading
 *     nothing past src + r (a kernel with masked loads: the last partial
 *     block of every small document),
 *   SCAN_PLAIN(const SCAN_PREPARED *): true when the block holds no quote,
 *     no backslash and no byte below 0x20 (the fast path for long strings),
 *   with SCAN_PREPARED, a type for what the kernel computes once per block
 *   for both SCAN_PLAIN and SCAN_CLASSIFY, SCAN_PREPARE(const char *p,
 *   SCAN_PREPARED *) to compute it, and SCAN_CLASSIFY then taking
 *   (const SCAN_PREPARED *, scan_masks *).
 * It generates SCAN_FN (see jet__scan_window in scan.h), which resumes from
 * a jet_scan_state so that the reader can index its input window by window,
 * SCAN_FN##_status (jet__scan_status) and SCAN_FN##_all (jet__scan_ex: the
 * whole input at once).
 * Everything after the per-byte classification is 64-bit mask arithmetic
 * shared by all kernels (scan_escaped in scan.c).
 */

#ifndef SCAN_COPY
/* SCAN_COPY(dst, src): copies the 64-byte block (a kernel may define it
 * with its own vectors where the compiler's memcpy would split them) */
#define SCAN_COPY(dst, src) memcpy((dst), (src), 64)
#endif

#ifndef SCAN_UTF8_INIT
/* SCAN_UTF8_INIT(state *): zeroes the validator's state (a kernel may
 * define it with its own vectors) */
#define SCAN_UTF8_INIT(u) memset((u), 0, sizeof *(u))
#endif

#ifndef SCAN_STATE_IN_MEMORY
/* 1 where the kernel's registers cannot also hold the carries (AVX2: 16
 * vector registers, and the loop got 6% slower with them in registers) */
#define SCAN_STATE_IN_MEMORY 0
#endif

#define SCAN_JOIN2(a, b) a##b
#define SCAN_JOIN(a, b) SCAN_JOIN2(a, b)

/* One 64-byte block: the carries of the previous block in, its bitmaps
 * out. Inlined into the loop below and once more for the padded tail. */
#ifndef SCAN_UTF8_STATE
#error "every stage-1 kernel validates UTF-8: define SCAN_UTF8_STATE and the rest"
#endif

/* The scan state, zeroed field by field in SCAN_FN_all (no memset): a new
 * field needs its line there. */
typedef struct SCAN_JOIN(SCAN_FN, _state) {
    SCAN_UTF8_STATE u8;
    uint64_t ctrl_in_string;
    uint64_t in_string;    /* all ones while the previous block ended in a string */
    uint64_t escape_carry; /* 1 when the next block's first byte is escaped */
    uint64_t other_carry;  /* 1 when the previous block ended in a scalar run */
    size_t count;
} SCAN_JOIN(SCAN_FN, _state);

SCAN_ATTR static inline __attribute__((always_inline)) void SCAN_JOIN(SCAN_FN, _block)(
    SCAN_JOIN(SCAN_FN, _state) *s, const char *block, size_t i, uint64_t *out, uint64_t *bs_out,
    uint64_t *br_out, char *copy_out, const bool cursor, const bool copy) {
#ifdef SCAN_PLAIN
    SCAN_PREPARED pre;
    SCAN_PREPARE(block, &pre);
    /* Long text: a block inside a string (the previous one ended in it)
     * with no quote, backslash or control byte adds no mark and leaves the
     * carries as they are (but the escape's, whose escaped byte is plain:
     * cleared), so it costs only its UTF-8 check and its copy. */
    if (s->in_string && SCAN_PLAIN(&pre)) {
        SCAN_UTF8_BLOCK(&s->u8, block);
        if (copy) SCAN_COPY(copy_out, block);
        s->escape_carry = 0;
        if (cursor) {
            bs_out[i] = 0;
            br_out[i] = 0;
        }
        out[i] = 0;
        return;
    }
    scan_masks m;
    SCAN_CLASSIFY(&pre, &m);
#else
    scan_masks m;
    SCAN_CLASSIFY(block, &m);
#endif
    SCAN_UTF8_BLOCK(&s->u8, block);
    if (copy) SCAN_COPY(copy_out, block);
    uint64_t escaped = scan_escaped(m.backslash, &s->escape_carry);
    uint64_t quotes = m.quote & ~escaped;
    /* Inside-string mask: set from an opening quote up to, not including,
     * its closing quote. */
    uint64_t strings = SCAN_PREFIX_XOR(quotes) ^ s->in_string;
    s->in_string = (uint64_t)((int64_t)strings >> 63);
    uint64_t outside = ~strings;
    uint64_t ops = m.op & outside;
    uint64_t other = ~(m.delim | quotes) & outside;
    uint64_t starts = other & ~((other << 1) | s->other_carry);
    s->other_carry = other >> 63;
    uint64_t word = ops | quotes | starts;
    if (cursor) {
        bs_out[i] = m.backslash & strings;
        br_out[i] = m.bracket & outside;
    } else {
        word |= m.backslash & strings; /* the DOM layout (scan.h) */
    }
    s->ctrl_in_string |= m.ctrl & strings;
    out[i] = word;
    if (!cursor) s->count += jet__popcount64(word);
}

/* Blocks [first, end) of the input, the last partial block padded: the
 * loop specialized three times by SCAN_FN below, for the DOM reader (no
 * bracket bitmap; the marks counted; the input copied to `copy`, see
 * jet__scan_window), for validation (the same without the copy) and for the
 * cursor (the bracket bitmap; no count), so that none pays for another's
 * work. The padded tail is handled after the loop so that the loop calls
 * nothing and its constants stay in registers. */
SCAN_ATTR static inline __attribute__((always_inline)) void SCAN_JOIN(SCAN_FN, _loop)(
    SCAN_JOIN(SCAN_FN, _state) *state, const char *json, size_t len, size_t first, size_t end,
    uint64_t *out, uint64_t *bs_out, uint64_t *br_out, char *copy, const bool cursor) {
#if SCAN_STATE_IN_MEMORY
    SCAN_JOIN(SCAN_FN, _state) *s = state;
#else
    /* A local copy: the compiler keeps its fields in registers through the
     * loop (the caller's struct, too large to split, stays in memory: with
     * AVX-512, three vector stores and loads per block; parse 2 to 5%
     * faster without them) */
    SCAN_JOIN(SCAN_FN, _state) local = *state, *s = &local;
#endif
    size_t full = len / 64;
    size_t stop = end < full ? end : full;
    for (size_t i = first; i < stop; i++)
        SCAN_JOIN(SCAN_FN, _block)(s, json + 64 * i, i - first, out, bs_out, br_out,
                                   copy ? copy + 64 * i : NULL, cursor, copy != NULL);
    if (end > full && len % 64) {
        /* The last partial block, padded with spaces: whitespace adds
         * nothing to the index and ends any run. Its copy is the input's
         * bytes alone. */
        size_t r = len % 64;
#ifdef SCAN_PAD_TAIL
        _Alignas(64) char pad[64];
        const char *tail = pad;
        SCAN_PAD_TAIL(pad, json + 64 * full, r);
#else
        char pad[128];
        const char *tail = pad;
        if (len >= 64) {
            /* the input's last 64 bytes, then spaces: the block starts r
             * bytes before the spaces (fixed-size copies, no call; small
             * documents pay for this tail on every one) */
            memcpy(pad, json + len - 64, 64);
            memset(pad + 64, ' ', 64);
            tail = pad + 64 - r;
        } else {
            memset(pad, ' ', 64);
            memcpy(pad, json, r);
        }
#endif
        SCAN_JOIN(SCAN_FN, _block)(s, tail, full - first, out, bs_out, br_out, NULL, cursor, false);
        if (copy) memcpy(copy + 64 * full, json + 64 * full, len % 64);
    }
#if !SCAN_STATE_IN_MEMORY
    *state = local;
#endif
}

_Static_assert(sizeof(SCAN_JOIN(SCAN_FN, _state)) <= sizeof(((jet_scan_state *)0)->raw),
               "jet_scan_state too small for this kernel");

/* The state lives in the caller's jet_scan_state between calls (copied,
 * not aliased: the bytes have no declared type of their own). */
SCAN_ATTR static size_t SCAN_FN(jet_scan_state *st, const char *json, size_t len, size_t first,
                                size_t n, uint64_t *out, uint64_t *bs_out, uint64_t *br_out,
                                char *copy) {
    SCAN_JOIN(SCAN_FN, _state) s;
    memcpy(&s, st->raw, sizeof s);
    s.count = 0;
    if (br_out)
        SCAN_JOIN(SCAN_FN, _loop)(&s, json, len, first, first + n, out, bs_out, br_out, NULL, true);
    else if (copy)
        SCAN_JOIN(SCAN_FN, _loop)(&s, json, len, first, first + n, out, NULL, NULL, copy, false);
    else
        SCAN_JOIN(SCAN_FN, _loop)(&s, json, len, first, first + n, out, NULL, NULL, NULL, false);
    memcpy(st->raw, &s, sizeof s);
    return s.count;
}

/* The whole input in one call, the state on the stack (no copies: small
 * documents on demand pay for every one). */
SCAN_ATTR static bool SCAN_JOIN(SCAN_FN, _all)(const char *json, size_t len, uint64_t *out,
                                               uint64_t *bs_out, uint64_t *br_out, char *copy,
                                               jet_scan_result *res) {
    /* zeroed field by field: a memset of the whole state is a `rep stos`
     * of 20 words (AVX2), three vector stores of zeros four instructions */
    SCAN_JOIN(SCAN_FN, _state) s;
    SCAN_UTF8_INIT(&s.u8);
    s.ctrl_in_string = s.in_string = s.escape_carry = s.other_carry = 0;
    s.count = 0;
    size_t words = JET_SCAN_WORDS(len);
    if (br_out)
        SCAN_JOIN(SCAN_FN, _loop)(&s, json, len, 0, words, out, bs_out, br_out, NULL, true);
    else if (copy)
        SCAN_JOIN(SCAN_FN, _loop)(&s, json, len, 0, words, out, NULL, NULL, copy, false);
    else
        SCAN_JOIN(SCAN_FN, _loop)(&s, json, len, 0, words, out, NULL, NULL, NULL, false);
    res->words = words;
    res->marks = s.count;
    res->ctrl_in_string = s.ctrl_in_string != 0;
    res->utf8_valid = SCAN_UTF8_VALID(&s.u8);
    return !s.in_string;
}

SCAN_ATTR static bool SCAN_JOIN(SCAN_FN, _status)(const jet_scan_state *st, bool at_end,
                                                  jet_scan_result *res) {
    SCAN_JOIN(SCAN_FN, _state) s;
    memcpy(&s, st->raw, sizeof s);
    res->ctrl_in_string = s.ctrl_in_string != 0;
    res->utf8_valid = at_end ? SCAN_UTF8_VALID(&s.u8) : SCAN_UTF8_SOUND(&s.u8);
    return !(at_end && s.in_string);
}

#undef SCAN_JOIN
#undef SCAN_JOIN2
#undef SCAN_FN
#undef SCAN_ATTR
#undef SCAN_CLASSIFY
#undef SCAN_PREFIX_XOR
#undef SCAN_UTF8_STATE
#undef SCAN_UTF8_INIT
#undef SCAN_UTF8_BLOCK
#undef SCAN_UTF8_VALID
#undef SCAN_UTF8_SOUND
#undef SCAN_STATE_IN_MEMORY
#undef SCAN_COPY
#undef SCAN_PLAIN
#undef SCAN_PREPARED
#undef SCAN_PREPARE
#undef SCAN_PAD_TAIL
