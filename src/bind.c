/*
 * bind.c — typed decoding: JSON text into C structs described by field
 * tables (jet.h section 13), on top of the on-demand cursor.
 *
 * Each object is read in one pass. A member's key is matched to its field
 * first by position (the field that came next in the cursor's last object
 * of that struct, declared order at first: free when the input keeps an
 * order), then by a perfect hash over the
 * declared keys built once per table, and confirmed by comparing the bytes;
 * anything else is skipped by matching brackets. When every field of a
 * struct has been seen, the rest of the object is skipped the same way.
 */
#include "ondemand.h"
#include "grammar.h"

#include "num.h"

#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sched.h>
#endif

/* ========================================================================== */
/* Key maps                                                                   */
/* ========================================================================== */

#define MAP_HASH 1u
#define MAP_LINEAR 2u
#define MAX_FIELDS 256u

/*
 * Building the maps when several threads use a table for the first time at
 * once. A map is written once, by the first use, while other threads may be
 * decoding with the same table or with others that share nested structs
 * with it (jet_struct.map_ready holds a struct's PREP_* state):
 *
 * - Builds run one at a time, under build_lock. A build starts from one
 *   struct, enters every struct reachable from it that is not ready (each
 *   once: a struct reachable from itself is not entered again), writes
 *   their maps with plain stores and links them on build_list.
 * - Only when the whole build has succeeded is each entered struct marked
 *   PREP_READY, by a release store. So a struct is ready only once the maps
 *   of everything reachable from it are written, cycles included.
 * - Every decode starts with an acquire load of its root's state
 *   (prepare_struct): seeing PREP_READY makes every map reachable from the
 *   root visible, and the decode then reads them, map_state included, with
 *   plain loads (the hot path costs what it did), since nothing writes a
 *   ready map again.
 * - A build that meets a malformed struct marks PREP_BAD the structs it was
 *   inside of (they all reach it) and returns the others it entered to
 *   PREP_NONE (they may be valid: their next use builds them again). So
 *   every thread gets the same answer for a given table.
 *
 * map_ready is a plain uint32_t in jet.h, which stays C99 and C++ (no
 * _Atomic there), and is only ever accessed through load_ready and
 * store_ready as an atomic object: with GCC's and clang's __atomic
 * builtins, made for plain integers; elsewhere through a C11 atomic of the
 * same size.
 */
#define PREP_NONE 0u     /* not built (or a failed build passed through it) */
#define PREP_READY 1u    /* its map and those of all structs reachable from it are built */
#define PREP_BAD 2u      /* malformed, or reaches a malformed struct: decoding it fails */
#define PREP_BUILDING 3u /* entered by the build in progress */
#define PREP_FAILED 4u   /* entered by the build in progress, and malformed */

static atomic_flag build_lock = ATOMIC_FLAG_INIT;
static jet_struct *build_list; /* structs entered by the build in progress (under build_lock) */

/* A key's first 8 bytes as a little-endian word, zero-padded (`avail`:
 * bytes readable from k, at least n). */
static JET_ALWAYS_INLINE uint64_t key_head(const char *k, size_t n, size_t avail) {
    if (JET_LIKELY(avail >= 8)) {
        uint64_t h = jet__load_le64(k);
        return n >= 8 ? h : h & ((UINT64_C(1) << (8 * n)) - 1);
    }
    uint64_t h = 0;
    for (size_t i = 0; i < n && i < 8; i++) h |= (uint64_t)(unsigned char)k[i] << (8 * i);
    return h;
}

/* The hash's input: the first and (for keys over 8 bytes) the last 8 bytes
 * and the length; the same words then confirm the match. */
static JET_ALWAYS_INLINE uint64_t key_mix(uint64_t head, uint64_t tail, size_t n) {
    return head ^ (tail * UINT64_C(0x9E3779B97F4A7C15)) ^ ((uint64_t)n << 56);
}

static JET_ALWAYS_INLINE uint32_t load_ready(const jet_struct *t) {
#if defined(__GNUC__) || defined(__clang__)
    return __atomic_load_n(&t->map_ready, __ATOMIC_ACQUIRE);
#else
    _Static_assert(sizeof(_Atomic uint32_t) == sizeof(uint32_t), "atomic view of map_ready");
    return atomic_load_explicit((const _Atomic uint32_t *)&t->map_ready, memory_order_acquire);
#endif
}

static void store_ready(jet_struct *t, uint32_t ready) {
#if defined(__GNUC__) || defined(__clang__)
    __atomic_store_n(&t->map_ready, ready, __ATOMIC_RELEASE);
#else
    atomic_store_explicit((_Atomic uint32_t *)&t->map_ready, ready, memory_order_release);
#endif
}

/* A spin lock: builds are rare and short (one per table and process), and
 * a thread waiting for one gives its CPU away meanwhile (where the system
 * offers sched_yield). */
static void lock_builds(void) {
    while (atomic_flag_test_and_set_explicit(&build_lock, memory_order_acquire)) {
#if defined(__unix__) || defined(__APPLE__)
        sched_yield();
#endif
    }
}

static void unlock_builds(void) { atomic_flag_clear_explicit(&build_lock, memory_order_release); }

/* Tries multipliers until the declared keys (and aliases) land in distinct
 * slots of a table of 2^bits entries. A random multiplier places k keys in
 * 128 slots without a collision with probability about exp(-k^2/256): for
 * 40 keys one try in 500, hence the many tries (once per table, well under
 * a millisecond); past about 45 keys the table falls back to a linear
 * search. */
static bool build_hash(jet_struct *t, unsigned bits, uint8_t *slot, uint8_t *klen, uint8_t *alias,
                       uint64_t *mul_out) {
    uint64_t seed = UINT64_C(0x9E3779B97F4A7C15);
    for (int attempt = 0; attempt < 6000; attempt++) {
        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        uint64_t mul = seed | 1u;
        memset(slot, 0, 128);
        bool ok = true;
        for (uint32_t i = 0; i < t->count && ok; i++) {
            const jet_field *f = &t->fields[i];
            const char *names[2] = {f->key, f->alias};
            for (int a = 0; a < 2 && ok; a++) {
                if (!names[a]) continue;
                size_t n = strlen(names[a]);
                if (n > 255) return false; /* the table keeps lengths in a byte */
                uint64_t head = key_head(names[a], n, n), tail = 0;
                if (n > 8) tail = jet__load_le64(names[a] + n - 8);
                unsigned s = (unsigned)((key_mix(head, tail, n) * mul) >> (64 - bits));
                if (slot[s]) {
                    ok = false;
                } else {
                    slot[s] = (uint8_t)(i + 1);
                    klen[s] = (uint8_t)n;
                    alias[s] = (uint8_t)a;
                }
            }
        }
        if (ok) {
            *mul_out = mul;
            return true;
        }
    }
    return false;
}

static bool prepare_field(const jet_field *f);

/* Builds the map of t and of every struct reachable from it (under
 * build_lock; see above). */
static bool build_struct(jet_struct *t) {
    if (!t) return false;
    uint32_t ready = load_ready(t);
    if (ready == PREP_READY || ready == PREP_BUILDING) return true;
    if (ready != PREP_NONE) return false;
    t->map_next = build_list;
    build_list = t;
    store_ready(t, PREP_BUILDING);
    if (t->count > MAX_FIELDS || (t->count && !t->fields)) {
        store_ready(t, PREP_FAILED);
        return false;
    }
    for (uint32_t i = 0; i < t->count; i++)
        if (!prepare_field(&t->fields[i])) {
            store_ready(t, PREP_FAILED);
            return false;
        }
    uint32_t state = MAP_LINEAR;
    uint64_t mul = 0;
    uint8_t shift = 0;
    uint8_t slot[128], klen[128], alias[128];
    memset(slot, 0, sizeof slot);
    memset(klen, 0, sizeof klen);
    memset(alias, 0, sizeof alias);
    /* not hashed: positional tables and transparent wrappers (a field
     * without a key), which decode_struct tells from the others only when
     * a table is not hashed */
    bool wrapper = jet__struct_is_wrapper(t);
    if (!(t->flags & JET_STRUCT_POSITIONAL) && !wrapper && t->count > 0 && t->count <= 60) {
        for (unsigned bits = 4; bits <= 7 && state == MAP_LINEAR; bits++) {
            if ((1u << bits) < 2 * t->count) continue;
            if (build_hash(t, bits, slot, klen, alias, &mul)) {
                state = MAP_HASH;
                shift = (uint8_t)(64 - bits);
            }
        }
    }
    memcpy(t->map_slot, slot, sizeof slot);
    memcpy(t->map_klen, klen, sizeof klen);
    memcpy(t->map_alias, alias, sizeof alias);
    for (unsigned i = 0; i < 128; i++) {
        uint64_t head = 0, tail = 0;
        if (slot[i]) {
            const jet_field *f = &t->fields[slot[i] - 1];
            const char *name = alias[i] ? f->alias : f->key;
            size_t n = klen[i];
            head = key_head(name, n, n);
            if (n > 8) tail = jet__load_le64(name + n - 8);
        }
        t->map_head[i] = head;
        t->map_tail[i] = tail;
    }
    memset(t->map_kslot, 0, sizeof t->map_kslot);
    for (unsigned i = 0; i < 128 && state == MAP_HASH; i++)
        if (slot[i] && !alias[i]) t->map_kslot[slot[i] - 1] = (uint8_t)i;
    t->map_mul = mul;
    t->map_shift = shift;
    uint64_t lens = 0;
    for (uint32_t i = 0; i < t->count; i++) {
        const char *names[2] = {t->fields[i].key, t->fields[i].alias};
        for (int a = 0; a < 2; a++)
            if (names[a]) {
                size_t n = strlen(names[a]);
                lens |= UINT64_C(1) << (n < 63 ? n : 63);
            }
    }
    t->map_lens = lens;
    t->map_state = state;
    return true;
}

static bool int_size_ok(uint32_t s) { return s == 1 || s == 2 || s == 4 || s == 8; }

static bool prepare_field(const jet_field *f) {
    switch (f->kind) {
    case JET_K_BOOL: return f->size == sizeof(bool);
    case JET_K_INT:
    case JET_K_UINT:
    case JET_K_ENUM:
        if (!int_size_ok(f->size)) return false;
        if (f->kind == JET_K_ENUM) return f->sub != NULL;
        return true;
    case JET_K_F32: return f->size == sizeof(float);
    case JET_K_F64: return f->size == sizeof(double);
    case JET_K_STR:
    case JET_K_STR_COPY:
    case JET_K_RAW: return f->size == sizeof(jet_str);
    case JET_K_STR_FIXED: return f->size >= 1;
    case JET_K_STRUCT: return build_struct((jet_struct *)(uintptr_t)f->sub);
    case JET_K_ARRAY: {
        const jet_field *e = (const jet_field *)f->sub;
        return e && f->count_offset != JET_NO_OFFSET && e->size > 0 && prepare_field(e);
    }
    case JET_K_FIXED_ARRAY: {
        const jet_field *e = (const jet_field *)f->sub;
        return e && e->size > 0 && f->size >= e->size && prepare_field(e);
    }
    case JET_K_MAP: {
        jet_struct *pair = (jet_struct *)(uintptr_t)f->sub;
        if (!pair || pair->count != 2 || f->count_offset == JET_NO_OFFSET) return false;
        uint16_t kk = pair->fields[0].kind;
        if (kk != JET_K_STR && kk != JET_K_STR_COPY) return false;
        return build_struct(pair);
    }
    case JET_K_UNION: {
        const jet_union *u = (const jet_union *)f->sub;
        if (!u || !u->names || u->count == 0) return false;
        if ((u->style & JET_UNION_STYLE_MASK) == JET_UNION_INTERNAL && !u->tag_key) return false;
        for (uint32_t i = 0; i < u->count; i++)
            if (u->variants && u->variants[i] && !build_struct(u->variants[i])) return false;
        return true;
    }
    default: return false;
    }
}

/* One build from t, then the entered structs published: all ready, or
 * those that reach a malformed one bad and the rest back to PREP_NONE. */
static JET_NOINLINE bool prepare_struct_slow(jet_struct *t) {
    lock_builds();
    build_list = NULL;
    bool ok = build_struct(t);
    for (jet_struct *s = build_list, *next; s; s = next) {
        next = s->map_next;
        store_ready(s, ok ? PREP_READY : load_ready(s) == PREP_FAILED ? PREP_BAD : PREP_NONE);
    }
    build_list = NULL;
    unlock_builds();
    return ok;
}

/* Whether t's map, and those reachable from it, are ready to be read (built
 * now if needed); false for a malformed table. */
static JET_ALWAYS_INLINE bool prepare_struct(jet_struct *t) {
    if (!t) return false;
    uint32_t ready = load_ready(t);
    if (JET_LIKELY(ready == PREP_READY)) return true;
    if (ready == PREP_BAD) return false;
    return prepare_struct_slow(t);
}

bool jet_struct_prepare(jet_struct *type) { return prepare_struct(type); }


/* The field named k[0..n) in t, or -1. k holds no NUL byte (the caller
 * checks), so strncmp == 0 on the linear path proves the declared name has
 * at least n bytes and name[n] may be read. `end`: how far k may be read
 * (names of up to 16 bytes are compared as two words when 8 bytes can be
 * read from k). */
static JET_ALWAYS_INLINE int find_field(const jet_struct *t, const char *k, size_t n, const char *end) {
    /* most unknown keys differ in length from every declared one */
    if (!((t->map_lens >> (n < 63 ? n : 63)) & 1)) return -1;
    if (JET_LIKELY(t->map_state == MAP_HASH)) {
        uint64_t head = key_head(k, n, (size_t)(end - k)), tail = n > 8 ? jet__load_le64(k + n - 8) : 0;
        unsigned s = (unsigned)((key_mix(head, tail, n) * t->map_mul) >> t->map_shift);
        unsigned fi = t->map_slot[s];
        if (!fi || t->map_klen[s] != n || head != t->map_head[s]) return -1;
        if (JET_LIKELY(n <= 16)) return (n <= 8 || tail == t->map_tail[s]) ? (int)fi - 1 : -1;
        const jet_field *f = &t->fields[fi - 1];
        const char *name = t->map_alias[s] ? f->alias : f->key;
        return memcmp(name, k, n) == 0 ? (int)fi - 1 : -1;
    }
    for (uint32_t i = 0; i < t->count; i++) {
        const jet_field *f = &t->fields[i];
        if (f->key && strncmp(f->key, k, n) == 0 && f->key[n] == 0) return (int)i;
        if (f->alias && strncmp(f->alias, k, n) == 0 && f->alias[n] == 0) return (int)i;
    }
    return -1;
}

/* Whether k[0..n) is the key of field fi of a hashed table (the guess that
 * members come in declared order: one slot compared, no hash computed). */
static JET_ALWAYS_INLINE bool key_is(const jet_struct *t, uint32_t fi, const char *k, size_t n,
                                     const char *end) {
    unsigned s = t->map_kslot[fi];
    if (t->map_klen[s] != n || key_head(k, n, (size_t)(end - k)) != t->map_head[s]) return false;
    if (n <= 8) return true;
    if (n <= 16) return jet__load_le64(k + n - 8) == t->map_tail[s];
    return memcmp(t->fields[fi].key, k, n) == 0;
}

/* Declared order as key-order guesses (jet_od.orders): the m-th field
 * matched is field m (read only; a table whose keys come otherwise gets
 * guesses of its own). Index NO_GUESS holds none: where the member loop
 * stops guessing (it never gets there by hits: a hashed table has at most
 * 60 fields, and a guess is learnt below NO_GUESS only). */
#define NO_GUESS 63u
static const uint8_t declared_order[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 0xff};
#define NO_MORE_GUESSES (&declared_order[NO_GUESS])

/* The slot of hashed table t in the cursor's key-order guesses
 * (jet_od.orders), chosen by t's address. */
static JET_ALWAYS_INLINE size_t key_order_slot(const jet_struct *t) {
    return (size_t)(((uint64_t)(uintptr_t)t * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (JET_OD_ORDERS - 1);
}

/* The cursor's key-order guesses for hashed table t: declared order until
 * the cursor has met keys out of their table's order. */
static JET_ALWAYS_INLINE const uint8_t *key_order(jet_od *od, const jet_struct *t) {
    if (JET_LIKELY(!od->orders_learnt)) return declared_order;
    size_t slot = key_order_slot(t);
    if (JET_LIKELY(od->orders[slot].type == t)) return od->orders[slot].seq;
    return declared_order;
}

/* Field fi of hashed table t came where the guess at `guess` (in
 * declared_order, or in t's slot of jet_od.orders) was another: learnt, in
 * the cursor's guesses of t's own (a slot taken from another table drops
 * that table's), for its next object of t. The member loop then guesses no
 * more in this object: shuffled keys pay one failed guess an object, and a
 * text of one order of its own (sorted keys) is learnt in as many objects
 * as it has keys out of declared order. */
static JET_NOINLINE void learn_key(jet_od *od, const jet_struct *t, const uint8_t *guess, uint32_t fi) {
    size_t slot = key_order_slot(t);
    uintptr_t g = (uintptr_t)guess, in_declared = g - (uintptr_t)declared_order;
    size_t m = in_declared < sizeof declared_order ? in_declared : g - (uintptr_t)od->orders[slot].seq;
    if (m >= NO_GUESS) return;
    if (od->orders[slot].type != t) {
        od->orders[slot].type = t;
        memcpy(od->orders[slot].seq, declared_order, sizeof declared_order);
    }
    od->orders[slot].seq[m] = (uint8_t)fi;
    od->orders_learnt = true;
}

/* ========================================================================== */
/* Decoding                                                                   */
/* ========================================================================== */

/* What a second occurrence of a declared field does (JET_READ_DUPLICATE_*). */
#define DUP_ERROR 0
#define DUP_FIRST 1
#define DUP_LAST 2

typedef struct dec {
    jet_od *od;
    jet_arena *arena;
    bool reject_unknown;
    bool stable_strings; /* JET_READ_STABLE_STRINGS */
    uint8_t duplicates; /* DUP_* */
    bool rest_skippable; /* neither reject_unknown nor DUP_LAST: decode_struct's rest_skipped, set once */
} dec;

static bool decode_value(dec *d, const jet_field *f, char *base);
static bool decode_array(dec *d, const jet_field *f, char *base);

/* Tokens that cannot start a value (jet__gram_not_value's set, as a table
 * for the member loop). */
static const bool not_a_value[256] = {[','] = true, [':'] = true, [']'] = true, ['}'] = true};
static bool decode_struct(dec *d, jet_struct *t, char *base, const char *ignore_key);

static JET_ALWAYS_INLINE bool at_end(jet_od *od) {
    if (JET_LIKELY(od->pos < od->len)) return false;
    return !jet__od_err(od, JET_E_END_BEFORE_VALUE, od->len);
}

/* A value of the wrong type (or malformed: its own syntax error). */
static bool want(jet_od *od, jet__err what) {
    return jet__od_type_error(od, od->pos, what);
}

static void *arena_alloc(dec *d, size_t size, size_t align) {
    if (!d->arena) {
        jet__od_err(d->od, JET_E_NEEDS_ARENA, d->od->pos);
        return NULL;
    }
    void *p = jet_arena_alloc(d->arena, size, align);
    if (!p) jet__od_err(d->od, JET_E_MEMORY, d->od->pos);
    return p;
}

/* Stores the index of a union's variant in its tag member (an int32_t, or
 * a uint8_t with JET_UNION_TAG_U8). */
static void store_union_tag(const jet_union *u, char *m, uint32_t vi) {
    if (u->style & JET_UNION_TAG_U8) {
        m[u->tag_offset] = (char)(uint8_t)vi;
    } else {
        int32_t t32 = (int32_t)vi;
        memcpy(m + u->tag_offset, &t32, sizeof t32);
    }
}

/* Sets the presence member of field `f`, if it has one: true when
 * present, or with JET_FIELD_PRESENCE_INVERTED true when absent or null. */
static JET_ALWAYS_INLINE void mark_present(const jet_field *f, char *base, bool present) {
    if (f->present_offset != JET_NO_OFFSET)
        base[f->present_offset] = (char)(present != ((f->flags & JET_FIELD_PRESENCE_INVERTED) != 0));
}

/* Stores a string read for field `f` (a jet_str or, with
 * JET_FIELD_STR_SLICE, a D slice). With JET_READ_STABLE_STRINGS, a string
 * that was unescaped into the cursor's scratch (not a view into the text
 * read) is copied into the arena first, so it outlives the cursor's next
 * document. (The fast paths store views of unescaped strings directly; with
 * stable strings the text they point into is the caller's input, or its
 * copy in the arena: see keep_blanked_text.) */
static JET_ALWAYS_INLINE bool store_field_str(dec *d, const jet_field *f, char *dst, jet_str s) {
    if (JET_UNLIKELY(d->stable_strings)) {
        const jet_od *od = d->od;
        uintptr_t p = (uintptr_t)s.ptr, in = (uintptr_t)od->json;
        if (s.len && (p < in || p - in > od->len)) {
            char *c = (char *)arena_alloc(d, s.len + 1, 1);
            if (!c) return false;
            memcpy(c, s.ptr, s.len);
            c[s.len] = 0;
            s.ptr = c;
        }
    }
    jet__field_str_store(dst, f->flags, s);
    return true;
}

/* The range error of the integer at `at` for an integer member of `size`
 * bytes (signed unless `is_unsigned`): the message names the number, the
 * member's type and its range, e.g. "-1 is out of range for uint8
 * (0..255)" (in od->msg: valid until the next document). */
static JET_NOINLINE bool range_error(jet_od *od, size_t at, uint32_t size, bool is_unsigned) {
    size_t e = at;
    while (e < od->len && e - at < 41 && (jet__is_digit(od->json[e]) || od->json[e] == '-' ||
                                          od->json[e] == '+' || od->json[e] == '.' ||
                                          (od->json[e] | 0x20) == 'e'))
        e++;
    int shown = (int)(e - at > 40 ? 40 : e - at);
    unsigned bits = 8 * size;
    char range[48];
    if (is_unsigned)
        snprintf(range, sizeof range, "0..%llu", (unsigned long long)(UINT64_MAX >> (64 - bits)));
    else
        snprintf(range, sizeof range, "%lld..%lld", -(long long)(INT64_MAX >> (64 - bits)) - 1,
                 (long long)(INT64_MAX >> (64 - bits)));
    snprintf(od->msg, sizeof od->msg, "%.*s%s is out of range for %sint%u (%s)", shown, od->json + at,
             e - at > 40 ? "..." : "", is_unsigned ? "u" : "", bits, range);
    return jet__od_fail(od, JET_ERR_NUMBER_RANGE, at, od->msg);
}

/* After a getter failed on the integer at `at`: a range error (its value
 * beyond 64 bits, or negative for an unsigned one) says so for the
 * member's own type instead of the getter's 64-bit one. Returns false. */
static JET_NOINLINE bool name_range(jet_od *od, size_t at, uint32_t size, bool is_unsigned) {
    if (od->err.code != JET_ERR_NUMBER_RANGE) return false;
    od->failed = false; /* the same error, reworded */
    bool ok = range_error(od, at, size, is_unsigned);
    od->failed = true;
    return ok;
}

/* Stores v into an integer member of `size` bytes, checking the range. */
static bool store_int(jet_od *od, size_t at, void *dst, uint32_t size, int64_t v) {
    switch (size) {
    case 1:
        if (v < INT8_MIN || v > INT8_MAX) break;
        *(int8_t *)dst = (int8_t)v;
        return true;
    case 2:
        if (v < INT16_MIN || v > INT16_MAX) break;
        *(int16_t *)dst = (int16_t)v;
        return true;
    case 4:
        if (v < INT32_MIN || v > INT32_MAX) break;
        *(int32_t *)dst = (int32_t)v;
        return true;
    default: *(int64_t *)dst = v; return true;
    }
    return range_error(od, at, size, false);
}

static bool store_uint(jet_od *od, size_t at, void *dst, uint32_t size, uint64_t v) {
    switch (size) {
    case 1:
        if (v > UINT8_MAX) break;
        *(uint8_t *)dst = (uint8_t)v;
        return true;
    case 2:
        if (v > UINT16_MAX) break;
        *(uint16_t *)dst = (uint16_t)v;
        return true;
    case 4:
        if (v > UINT32_MAX) break;
        *(uint32_t *)dst = (uint32_t)v;
        return true;
    default: *(uint64_t *)dst = v; return true;
    }
    return range_error(od, at, size, true);
}

/* The value at the cursor through the public getters (which check the
 * handle against the cursor: always true here). */
static JET_ALWAYS_INLINE jet_odv cursor_value(dec *d) {
    jet_odv v;
    v.od = d->od;
    v.pos = d->od->pos;
    v.depth = d->od->depth;
    return v;
}

static bool decode_string_kind(dec *d, const jet_field *f, char *dst) {
    jet_od *od = d->od;
    if (JET_UNLIKELY(od->json[od->pos] != '"')) return want(od, JET_E_WANT_STRING);
    size_t at = od->pos;
    jet_str s;
    if (!jet__od_string(od, at, &s)) return false;
    if (f->kind == JET_K_STR) return store_field_str(d, f, dst, s);
    if (f->kind == JET_K_STR_FIXED) {
        if (s.len >= f->size)
            return jet__od_err(od, JET_E_FIXED_STRING_LONG, at);
        if (memchr(s.ptr, 0, s.len)) /* a \u0000 would cut the C string short */
            return jet__od_err(od, JET_E_FIXED_STRING_NUL, at);
        memcpy(dst, s.ptr, s.len);
        dst[s.len] = 0;
        return true;
    }
    char *c = (char *)arena_alloc(d, s.len + 1, 1);
    if (!c) return false;
    memcpy(c, s.ptr, s.len);
    c[s.len] = 0;
    jet_str copy = {c, s.len};
    jet__field_str_store(dst, f->flags, copy);
    return true;
}

static bool decode_enum(dec *d, const jet_field *f, char *dst) {
    jet_od *od = d->od;
    if (JET_UNLIKELY(od->json[od->pos] != '"')) return want(od, JET_E_WANT_ENUM_NAME);
    size_t at = od->pos;
    jet_str s;
    if (!jet__od_string(od, at, &s)) return false;
    const jet_enum *e = (const jet_enum *)f->sub;
    for (uint32_t i = 0; i < e->count; i++)
        if (strlen(e->names[i]) == s.len && memcmp(e->names[i], s.ptr, s.len) == 0)
            return store_int(od, at, dst, f->size, (int64_t)i);
    return jet__od_err(od, JET_E_NOT_ENUM_NAME, at);
}

/* Dynamic arrays and maps: elements go to a growing block of the arena
 * (each growth copies into a block twice the size; the old one stays in the
 * arena until reset). */
typedef struct grow {
    char *data;
    size_t count, cap, size;
} grow;

static JET_ALWAYS_INLINE char *grow_slot(dec *d, grow *g) {
    if (g->count == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 8;
        if (cap > SIZE_MAX / g->size) {
            jet__od_err(d->od, JET_E_ARRAY_TOO_LARGE, d->od->pos);
            return NULL;
        }
        char *n = (char *)arena_alloc(d, cap * g->size, 16);
        if (!n) return NULL;
        if (g->count) memcpy(n, g->data, g->count * g->size);
        g->data = n;
        g->cap = cap;
    }
    return g->data + g->count++ * g->size;
}

/* The next element's slot, zeroed (members the element leaves unset). */
static JET_ALWAYS_INLINE char *grow_next(dec *d, grow *g) {
    char *slot = grow_slot(d, g);
    if (slot) memset(slot, 0, g->size);
    return slot;
}

/* Stores the grown elements in the member f of base: the pointer (NULL when
 * there are none) and the count. */
static JET_ALWAYS_INLINE void grow_store(const jet_field *f, char *base, const grow *g) {
    void *ptr = g->count ? (void *)g->data : NULL;
    memcpy(base + f->offset, &ptr, sizeof ptr);
    memcpy(base + f->count_offset, &g->count, sizeof g->count);
}

/* Enters the container at the cursor (`open` is '[' or '{'). */
static JET_ALWAYS_INLINE bool open_container(jet_od *od, char open, jet__err what) {
    if (JET_UNLIKELY(od->json[od->pos] != open)) return want(od, what);
    if (JET_UNLIKELY(od->depth >= od->max_depth))
        return jet__od_err(od, JET_E_DEPTH_LIMIT, od->pos);
    od->depth++;
    od->pos = jet__od_next(od, od->pos + 1);
    return true;
}

/* After an element: ',' (true, cursor on the next element) or ']'
 * (false with *end set, container left). */
static JET_ALWAYS_INLINE bool next_element(jet_od *od, bool *end) {
    size_t p = od->pos;
    if (JET_UNLIKELY(p >= od->len)) {
        *end = false;
        return jet__od_err(od, JET_E_END_IN_ARRAY, od->len);
    }
    char c = od->json[p];
    if (c == ',') {
        od->pos = jet__od_next(od, p + 1);
        if (JET_UNLIKELY(od->pos >= od->len)) {
            *end = false;
            return jet__od_err(od, JET_E_END_IN_ARRAY, od->len);
        }
        c = od->json[od->pos];
        if (JET_UNLIKELY(jet__gram_not_value(c))) {
            jet__err k = jet__gram_after_comma(od->flags, c, ']');
            if (k == JET_E_OK) { /* a trailing comma */
                od->pos = jet__od_next(od, od->pos + 1);
                od->depth--;
                *end = true;
                return false;
            }
            *end = false;
            return jet__od_err(od, k, od->pos);
        }
        return true;
    }
    if (c == ']') {
        od->pos = jet__od_next(od, p + 1);
        od->depth--;
        *end = true;
        return false;
    }
    *end = false;
    return jet__od_err(od, JET_E_EXPECTED_ARRAY_SEP, p);
}

/* Whether the string with quotes at p and q (q just taken from t) has a
 * backslash: jet__od_toks_backslash, with strings over several words (ids,
 * keys, signatures of 64 and more bytes) first checked a word at a time
 * without masks. */
static JET_ALWAYS_INLINE bool str_backslash(jet_od *od, const jet_od_toks *t, size_t p, size_t q) {
    if (JET_LIKELY(t->w < t->direct)) { /* and so are the words before it */
        const uint64_t *bs = od->bs;
        uint64_t any = bs[t->w];
        for (size_t w = p >> 6; w < t->w; w++) any |= bs[w];
        if (JET_LIKELY(!any)) return false;
    }
    return jet__od_has_backslash(od, p + 1, q);
}

/* str_backslash for a loop whose strings come in order (the member loop):
 * *clean is a word index below which every backslash word from the
 * loop's first string on is known empty (and directly indexed), so a
 * string ending in a word already checked (most keys and short values
 * share their word with the string before) costs one compare; the
 * others check the words not yet seen and move *clean past them. */
static JET_ALWAYS_INLINE bool str_backslash_after(jet_od *od, const jet_od_toks *t, size_t *clean,
                                                  size_t p, size_t q) {
    if (JET_LIKELY(t->w < *clean)) return false;
    if (JET_LIKELY(t->w < t->direct)) {
        const uint64_t *bs = od->bs;
        uint64_t any = bs[t->w];
        size_t from = p >> 6 > *clean ? p >> 6 : *clean;
        for (size_t w = from; w < t->w; w++) any |= bs[w];
        if (JET_LIKELY(!any)) {
            *clean = t->w + 1;
            return false;
        }
    }
    return jet__od_has_backslash(od, p + 1, q);
}

/* jet__od_token_end_ok for a scalar that ends at e, its first token just
 * taken from t: the token after it is most often t's next, and then no
 * byte needs reading. */
static JET_ALWAYS_INLINE bool toks_end_ok(jet_od *od, const jet_od_toks *t, size_t e) {
    return (t->bits && t->base + jet__ctz64_offset(t->bits) == e) || jet__od_token_end_ok(od, e);
}

/* The closing quote of the string whose opening quote v was just taken
 * from t (n when there is none), with *esc set as str_backslash_after
 * answers for it: a string that runs past its word (ids, keys, signatures,
 * text) reads each word's marks and backslashes in one loop rather than
 * one for the quote and another for the check. */
static JET_ALWAYS_INLINE size_t take_string_end(jet_od *od, jet_od_toks *t, size_t *clean, size_t v,
                                                size_t n, bool *esc) {
    if (JET_LIKELY(t->bits) || JET_UNLIKELY(t->w >= t->direct)) {
        size_t q = jet__od_toks_take(t, n);
        *esc = q < n && str_backslash_after(od, t, clean, v, q);
        return q;
    }
    const uint64_t *bs = od->bs;
    size_t w = t->w;
    uint64_t any = w < *clean ? 0 : bs[w], bits;
    do {
        if (JET_UNLIKELY(++w >= t->direct)) { /* past the input (a direct index covers it) */
            t->w = w - 1;
            t->base = t->w << 6;
            *esc = false;
            return jet__od_toks_take(t, n);
        }
        bits = t->marks[w];
        any |= bs[w];
    } while (!bits);
    t->w = w;
    t->base = w << 6;
    t->bits = bits & (bits - 1);
    size_t q = t->base + jet__ctz64_offset(bits);
    if (JET_LIKELY(!any)) {
        *clean = w + 1;
        *esc = false;
    } else {
        *esc = jet__od_has_backslash(od, v + 1, q);
    }
    return q;
}

/* After an array's element, its separator from the stream tk: 1 with *v
 * on the next element; 0 at the array's end (left: depth restored, tk past
 * its ']'); -1 on an error (recorded). */
static JET_ALWAYS_INLINE int toks_next_element(jet_od *od, jet_od_toks *tk, size_t *v) {
    const char *j = od->json;
    const size_t n = od->len;
    size_t sep = jet__od_toks_take(tk, n);
    if (JET_UNLIKELY(sep >= n)) {
        jet__od_err(od, JET_E_END_IN_ARRAY, n);
        return -1;
    }
    if (j[sep] == ']') {
        od->depth--;
        return 0;
    }
    if (JET_UNLIKELY(j[sep] != ',')) {
        jet__od_err(od, JET_E_EXPECTED_ARRAY_SEP, sep);
        return -1;
    }
    size_t e = jet__od_toks_take(tk, n);
    if (JET_UNLIKELY(e >= n)) {
        jet__od_err(od, JET_E_END_IN_ARRAY, n);
        return -1;
    }
    char c = j[e];
    if (JET_UNLIKELY(jet__gram_not_value(c))) {
        jet__err k = jet__gram_after_comma(od->flags, c, ']');
        if (k != JET_E_OK) {
            jet__od_err(od, k, e);
            return -1;
        }
        od->depth--; /* a trailing comma: e is the ']' */
        return 0;
    }
    *v = e;
    return 1;
}

/* The elements of an array of strings (tags, names) from the stream tk,
 * the first at v (just taken): straight from the stream while they are
 * strings without escapes; any other element goes through decode_value.
 * Leaves the array, tk past its ']'. */
static JET_ALWAYS_INLINE bool str_elements(dec *d, const jet_field *e, grow *g, jet_od_toks *tk, size_t v) {
    jet_od *od = d->od;
    const char *j = od->json;
    const size_t n = od->len;
    /* an element that is a whole jet_str (or slice) is written whole by
     * every path that succeeds: no zeroing first */
    const bool whole = e->offset == 0 && e->size == sizeof(jet_str);
    for (;;) {
        char *slot = whole ? grow_slot(d, g) : grow_next(d, g);
        if (!slot) return false;
        size_t vq;
        if (JET_LIKELY(v < n && j[v] == '"' && (vq = jet__od_toks_take(tk, n)) < n &&
                       !str_backslash(od, tk, v, vq))) {
            jet_str sv = {j + v + 1, vq - v - 1};
            jet__field_str_store(slot + e->offset, e->flags, sv);
        } else {
            od->pos = v;
            if (at_end(od) || !decode_value(d, e, slot)) return false;
            jet__od_toks_seek(od, tk, od->pos);
        }
        int more = toks_next_element(od, tk, &v);
        if (more <= 0) return more == 0;
    }
}

/* Whether an array element of kind f is read by str_elements: a plain
 * string (no null, no presence member). */
static JET_ALWAYS_INLINE bool plain_str_elem(const jet_field *f) {
    return f->kind == JET_K_STR && !(f->flags & JET_FIELD_NULLABLE) && f->present_offset == JET_NO_OFFSET;
}

/* Arrays of strings, the cursor on the first element. */
static bool decode_str_elements(dec *d, const jet_field *e, grow *g) {
    jet_od *od = d->od;
    jet_od_toks tk;
    jet__od_toks_seek(od, &tk, od->pos);
    size_t v = jet__od_toks_take(&tk, od->len);
    if (!str_elements(d, e, g, &tk, v)) return false;
    od->pos = jet__od_toks_take(&tk, od->len);
    return true;
}

/* Arrays of arrays of strings (nostr tags), the cursor on the first
 * element (a row, described by e): one token stream for all the rows, each
 * row's strings read by str_elements; a row that is not an array (or past
 * the depth limit) goes through decode_value or decode_array. */
static bool decode_str_rows(dec *d, const jet_field *e, grow *rows) {
    jet_od *od = d->od;
    const char *j = od->json;
    const size_t n = od->len;
    const jet_field *se = (const jet_field *)e->sub;
    jet_od_toks tk;
    jet__od_toks_seek(od, &tk, od->pos);
    size_t v = jet__od_toks_take(&tk, n);
    for (;;) {
        char *slot = grow_next(d, rows);
        if (!slot) return false;
        if (JET_LIKELY(v < n && j[v] == '[' && od->depth < od->max_depth)) {
            /* decode_array's steps for the row */
            mark_present(e, slot, true);
            od->depth++;
            grow g = {NULL, 0, 0, se->size};
            size_t first = jet__od_toks_take(&tk, n);
            if (first < n && j[first] == ']')
                od->depth--;
            else if (!str_elements(d, se, &g, &tk, first))
                return false;
            grow_store(e, slot, &g);
        } else {
            od->pos = v;
            if (at_end(od)) return false;
            if (j[v] == '[') { /* at the depth limit: its error */
                mark_present(e, slot, true);
                if (!decode_array(d, e, slot)) return false;
            } else if (!decode_value(d, e, slot)) {
                return false;
            }
            jet__od_toks_seek(od, &tk, od->pos);
        }
        int more = toks_next_element(od, &tk, &v);
        if (more <= 0) {
            if (more == 0) od->pos = jet__od_toks_take(&tk, n);
            return more == 0;
        }
    }
}

/* decode_value for an array's element or a tuple's member (the cursor on
 * it): an object for a struct and an array for an array go straight to
 * decode_struct and decode_array (order items, nostr tags and events),
 * without decode_value's dispatch, which only adds the null case for
 * them. */
static JET_ALWAYS_INLINE bool decode_element(dec *d, const jet_field *e, char *base) {
    char c = d->od->json[d->od->pos];
    if (e->kind == JET_K_STRUCT && c == '{') {
        mark_present(e, base, true);
        return decode_struct(d, (jet_struct *)(uintptr_t)e->sub, base + e->offset, NULL);
    }
    if (e->kind == JET_K_ARRAY && c == '[') {
        mark_present(e, base, true);
        return decode_array(d, e, base);
    }
    return decode_value(d, e, base);
}

static bool decode_array(dec *d, const jet_field *f, char *base) {
    jet_od *od = d->od;
    const jet_field *e = (const jet_field *)f->sub;
    if (!open_container(od, '[', JET_E_WANT_ARRAY)) return false;
    grow g = {NULL, 0, 0, e->size};
    bool end = false;
    if (od->pos < od->len && od->json[od->pos] == ']') {
        od->pos = jet__od_next(od, od->pos + 1);
        od->depth--;
    } else if (plain_str_elem(e)) {
        if (!decode_str_elements(d, e, &g)) return false;
    } else if (e->kind == JET_K_ARRAY && plain_str_elem((const jet_field *)e->sub)) {
        if (!decode_str_rows(d, e, &g)) return false;
    } else {
        do {
            if (at_end(od)) return false;
            char *slot = grow_next(d, &g);
            if (!slot || !decode_element(d, e, slot)) return false;
        } while (next_element(od, &end));
        if (!end) return false;
    }
    grow_store(f, base, &g);
    return true;
}

static bool decode_fixed_array(dec *d, const jet_field *f, char *base) {
    jet_od *od = d->od;
    const jet_field *e = (const jet_field *)f->sub;
    size_t cap = f->size / e->size, n = 0;
    size_t at = od->pos;
    if (!open_container(od, '[', JET_E_WANT_ARRAY)) return false;
    bool end = false;
    if (od->pos < od->len && od->json[od->pos] == ']') {
        od->pos = jet__od_next(od, od->pos + 1);
        od->depth--;
    } else {
        do {
            if (at_end(od)) return false;
            if (n == cap)
                return jet__od_err(od, JET_E_FIXED_ARRAY_MORE, od->pos);
            if (!decode_value(d, e, base + f->offset + n * e->size)) return false;
            n++;
        } while (next_element(od, &end));
        if (!end) return false;
    }
    if (f->count_offset != JET_NO_OFFSET) {
        memcpy(base + f->count_offset, &n, sizeof n);
    } else if (n != cap) {
        return jet__od_err(od, JET_E_FIXED_ARRAY_FEWER, at);
    }
    return true;
}

/* Reads a member's key at the cursor (a quote): the raw key when it has no
 * escape, else the unescaped one; moves the cursor to the value. */
static JET_ALWAYS_INLINE bool read_key(jet_od *od, jet_str *key) {
    size_t v;
    if (!jet__od_key(od, od->pos, key, &v)) return false;
    od->pos = v;
    return true;
}

/* After a member: ',' (true, cursor on the next key) or '}' (false with
 * *end set, container left). */
static JET_ALWAYS_INLINE bool next_member(jet_od *od, bool *end) {
    size_t p = od->pos;
    *end = false;
    if (JET_UNLIKELY(p >= od->len))
        return jet__od_err(od, JET_E_END_IN_OBJECT, od->len);
    char c = od->json[p];
    if (c == ',') {
        od->pos = jet__od_next(od, p + 1);
        if (JET_UNLIKELY(od->pos >= od->len))
            return jet__od_err(od, JET_E_END_IN_OBJECT, od->len);
        c = od->json[od->pos];
        if (JET_UNLIKELY(c != '"')) {
            jet__err k = jet__gram_after_comma(od->flags, c, '}');
            if (k != JET_E_OK) return jet__od_err(od, k, od->pos);
            od->pos = jet__od_next(od, od->pos + 1); /* a trailing comma */
            od->depth--;
            *end = true;
            return false;
        }
        return true;
    }
    if (c == '}') {
        od->pos = jet__od_next(od, p + 1);
        od->depth--;
        *end = true;
        return false;
    }
    return jet__od_err(od, JET_E_EXPECTED_OBJECT_SEP, p);
}

/* Opens an object at the cursor; *empty when it is "{}" (already left). */
static JET_ALWAYS_INLINE bool open_object(jet_od *od, bool *empty) {
    if (!open_container(od, '{', JET_E_WANT_OBJECT)) return false;
    if (JET_UNLIKELY(od->pos >= od->len))
        return jet__od_err(od, JET_E_END_IN_OBJECT, od->len);
    char c = od->json[od->pos];
    if (c == '}') {
        od->pos = jet__od_next(od, od->pos + 1);
        od->depth--;
        *empty = true;
        return true;
    }
    if (JET_UNLIKELY(c != '"'))
        return jet__od_err(od, JET_E_EXPECTED_KEY_OR_CLOSE, od->pos);
    *empty = false;
    return true;
}

static bool decode_map(dec *d, const jet_field *f, char *base) {
    jet_od *od = d->od;
    jet_struct *pair = (jet_struct *)(uintptr_t)f->sub;
    const jet_field *kf = &pair->fields[0], *vf = &pair->fields[1];
    bool empty = false, end = false;
    if (!open_object(od, &empty)) return false;
    grow g = {NULL, 0, 0, pair->size};
    if (!empty) {
        do {
            jet_str key;
            if (!read_key(od, &key)) return false;
            char *slot = grow_next(d, &g);
            if (!slot) return false;
            if (kf->kind == JET_K_STR_COPY) {
                char *c = (char *)arena_alloc(d, key.len + 1, 1);
                if (!c) return false;
                memcpy(c, key.ptr, key.len);
                c[key.len] = 0;
                key.ptr = c;
            }
            if (!store_field_str(d, kf, slot + kf->offset, key)) return false;
            if (!decode_value(d, vf, slot)) return false;
        } while (next_member(od, &end));
        if (!end) return false;
    }
    grow_store(f, base, &g);
    return true;
}

/* Typed decoding's test hook (internal.h): true sends tuples and array
 * unions through their general path only, the reference the token-stream
 * paths are compared with. */
static bool tuple_general_only;
void jet__bind_tuple_general_only(bool on) { tuple_general_only = on; }

static void apply_default(const jet_field *f, char *base);

/* A positional struct's fields from element i on are absent (its array
 * ended, cursor past it): as decode_struct does for absent members, ones
 * with a default get it, optional ones are marked absent, and the first
 * required one is the error, named by its index in the array (i + first). */
static bool tuple_missing(jet_od *od, const jet_struct *t, char *base, uint32_t i, uint32_t first,
                          size_t at) {
    for (; i < t->count; i++) {
        const jet_field *f = &t->fields[i];
        if (f->flags & (JET_FIELD_OPTIONAL | JET_FIELD_DEFAULT)) {
            if (f->flags & JET_FIELD_DEFAULT) apply_default(f, base);
            mark_present(f, base, false);
            continue;
        }
        /* name the missing element by its index */
        char idx[24];
        int n = snprintf(idx, sizeof idx, "%lu", (unsigned long)i + first);
        return jet__od_fail_missing(od, at, idx, (size_t)n);
    }
    return true;
}

/* decode_tuple_rest from the token stream tk, v (< od->len) the first
 * token of element `first` (just taken; the array entered): a plain
 * string element (nostr's ids and messages) is stored straight from the
 * stream; any other element, and every error, goes through decode_element
 * with the cursor on it, as in the general loop. Leaves the array. */
static JET_ALWAYS_INLINE bool tuple_elements(dec *d, const jet_struct *t, char *base, uint32_t first,
                                             size_t at, jet_od_toks *tk, size_t v) {
    jet_od *od = d->od;
    const char *j = od->json;
    const size_t n = od->len;
    uint32_t i = 0;
    for (;;) {
        size_t q;
        if (JET_LIKELY(j[v] == '"' && i < t->count && plain_str_elem(&t->fields[i])) &&
            JET_LIKELY((q = jet__od_toks_take(tk, n)) < n && !str_backslash(od, tk, v, q))) {
            jet_str s = {j + v + 1, q - v - 1};
            jet__field_str_store(base + t->fields[i].offset, t->fields[i].flags, s);
        } else {
            od->pos = v;
            if (at_end(od)) return false;
            if (i == t->count) return jet__od_err(od, JET_E_TUPLE_MORE, v);
            if (!decode_element(d, &t->fields[i], base)) return false;
            jet__od_toks_seek(od, tk, od->pos);
        }
        i++;
        int more = toks_next_element(od, tk, &v);
        if (more < 0) return false;
        if (more == 0) break;
    }
    od->pos = jet__od_toks_take(tk, n);
    return JET_LIKELY(i == t->count) || tuple_missing(od, t, base, i, first, at);
}

/* Positional struct: fields from elements `first`.. of the array the
 * cursor is in (already entered, cursor on element `first` or at ']').
 * Leaves the array. */
static bool decode_tuple_rest(dec *d, jet_struct *t, char *base, uint32_t first, size_t at) {
    jet_od *od = d->od;
    uint32_t i = 0;
    bool end = false;
    if (od->pos < od->len && od->json[od->pos] == ']' && first == 0) {
        od->pos = jet__od_next(od, od->pos + 1);
        od->depth--;
        end = true;
    } else if (JET_LIKELY(od->pos < od->len && !tuple_general_only)) {
        jet_od_toks tk;
        jet__od_toks_seek(od, &tk, od->pos + 1);
        return tuple_elements(d, t, base, first, at, &tk, od->pos);
    } else {
        do {
            if (at_end(od)) return false;
            if (i == t->count)
                return jet__od_err(od, JET_E_TUPLE_MORE, od->pos);
            if (!decode_element(d, &t->fields[i], base)) return false;
            i++;
        } while (next_element(od, &end));
        if (!end) return false;
    }
    return tuple_missing(od, t, base, i, first, at);
}

/* The index of the variant named `tag` in u, or u->count. Names are short
 * and each is mostly refused at its first byte: compared inline, without a
 * strlen and a memcmp per name (a tag may hold a NUL: a name's end is
 * checked before its byte is compared). */
static uint32_t union_variant(const jet_union *u, jet_str tag) {
    uint32_t vi = 0;
    for (; vi < u->count; vi++) {
        const char *name = u->names[vi];
        size_t i = 0;
        while (i < tag.len && name[i] && name[i] == tag.ptr[i]) i++;
        if (i == tag.len && !name[i]) break;
    }
    return vi;
}

/* decode_union's array style from a token stream, for the usual message:
 * the union field f's text an array whose tag is a string without escapes
 * that names a variant with fields, then ',' and a value. The tag is stored
 * and the elements read by tuple_elements: 1 or 0 (decoded, or failed with
 * the error recorded). Anything else is -1 with nothing changed: the
 * general path (decode_value's) reads it and reports its errors. */
static JET_ALWAYS_INLINE int union_array_toks(dec *d, const jet_field *f, char *base) {
    jet_od *od = d->od;
    const jet_union *u = (const jet_union *)f->sub;
    const char *j = od->json;
    const size_t n = od->len, at = od->pos;
    if (JET_UNLIKELY((u->style & JET_UNION_STYLE_MASK) != JET_UNION_ARRAY || tuple_general_only ||
                     j[at] != '[' || od->depth >= od->max_depth))
        return -1;
    jet_od_toks tk;
    jet__od_toks_seek(od, &tk, at + 1);
    size_t tp = jet__od_toks_take(&tk, n);
    if (tp >= n || j[tp] != '"') return -1;
    size_t tq = jet__od_toks_take(&tk, n);
    if (tq >= n || str_backslash(od, &tk, tp, tq)) return -1;
    jet_str tag = {j + tp + 1, tq - tp - 1};
    uint32_t vi = union_variant(u, tag);
    if (vi == u->count || !u->variants || !u->variants[vi]) return -1;
    size_t sep = jet__od_toks_take(&tk, n);
    if (sep >= n || j[sep] != ',') return -1;
    size_t v = jet__od_toks_take(&tk, n);
    if (v >= n || not_a_value[(unsigned char)j[v]]) return -1;
    mark_present(f, base, true);
    char *m = base + f->offset;
    od->depth++;
    store_union_tag(u, m, vi);
    return tuple_elements(d, u->variants[vi], m + u->payload_offset, 1, at, &tk, v);
}

static bool decode_union(dec *d, const jet_field *f, char *base) {
    jet_od *od = d->od;
    const jet_union *u = (const jet_union *)f->sub;
    char *m = base + f->offset;
    size_t at = od->pos;
    char c = od->json[at];
    jet_str tag;
    uint32_t vi;
    if ((u->style & JET_UNION_STYLE_MASK) == JET_UNION_ARRAY) {
        int fast = union_array_toks(d, f, base);
        if (JET_LIKELY(fast >= 0)) return fast > 0;
        if (!open_container(od, '[', JET_E_WANT_UNION_ARRAY)) return false;
        if (at_end(od)) return false;
        if (od->json[od->pos] == ']') /* "[]": valid JSON without the tag */
            return jet__od_err(od, JET_E_WANT_UNION_TAG, od->pos);
        if (od->json[od->pos] != '"') return want(od, JET_E_WANT_UNION_TAG);
        size_t tp = od->pos;
        if (!jet__od_string(od, tp, &tag)) return false;
        vi = union_variant(u, tag);
        if (vi == u->count) return jet__od_err(od, JET_E_NOT_UNION_TAG, tp);
        store_union_tag(u, m, vi);
        jet_struct *vt = u->variants ? u->variants[vi] : NULL;
        bool end = false;
        if (!vt) {
            if (next_element(od, &end) || !end)
                return od->failed ? false
                                  : jet__od_err(od, JET_E_VARIANT_NO_ELEMENTS, od->pos);
            return true;
        }
        if (next_element(od, &end)) return decode_tuple_rest(d, vt, m + u->payload_offset, 1, at);
        if (!end) return false;
        /* ["TAG"] alone: every field must be optional (and is marked absent) */
        return tuple_missing(od, vt, m + u->payload_offset, 0, 1, at);
    }
    if ((u->style & JET_UNION_STYLE_MASK) == JET_UNION_EXTERNAL && c == '"') {
        /* a variant without payload as a bare string */
        if (!jet__od_string(od, at, &tag)) return false;
        vi = union_variant(u, tag);
        if (vi == u->count) return jet__od_err(od, JET_E_NOT_UNION_TAG, at);
        jet_struct *vt = u->variants ? u->variants[vi] : NULL;
        if (vt) {
            for (uint32_t i = 0; i < vt->count; i++)
                if (!(vt->fields[i].flags & JET_FIELD_OPTIONAL))
                    return jet__od_err(od, JET_E_VARIANT_NEEDS_OBJECT, at);
        }
        store_union_tag(u, m, vi);
        return true;
    }
    if ((u->style & JET_UNION_STYLE_MASK) == JET_UNION_EXTERNAL) {
        bool empty = false, end = false;
        if (!open_object(od, &empty)) return false;
        if (empty) return jet__od_err(od, JET_E_UNION_EMPTY, at);
        size_t kp = od->pos;
        if (!read_key(od, &tag)) return false;
        vi = union_variant(u, tag);
        if (vi == u->count) return jet__od_err(od, JET_E_NOT_UNION_TAG, kp);
        store_union_tag(u, m, vi);
        jet_struct *vt = u->variants ? u->variants[vi] : NULL;
        if (vt) {
            if (!decode_struct(d, vt, m + u->payload_offset, NULL)) return false;
        } else if (!jet__od_skip(od)) {
            return false;
        }
        if (next_member(od, &end))
            return jet__od_err(od, JET_E_UNION_ONE_MEMBER, od->pos);
        return end;
    }
    /* INTERNAL: find the tag member first, then read the object again as
     * the variant's struct, the tag member ignored. */
    if (c != '{') return want(od, JET_E_WANT_UNION_OBJECT);
    size_t tag_key_len = strlen(u->tag_key);
    jet_od_iter it;
    jet_odv v = cursor_value(d), tv;
    if (!jet_odv_obj(&v, &it)) return false;
    if (!jet_od_obj_find(&it, u->tag_key, tag_key_len, &tv)) {
        if (od->failed) return false;
        return jet__od_fail_missing(od, at, u->tag_key, tag_key_len);
    }
    size_t tp = tv.pos;
    if (!jet_odv_get_str(&tv, &tag)) return false;
    vi = union_variant(u, tag);
    if (vi == u->count) return jet__od_err(od, JET_E_NOT_UNION_TAG, tp);
    store_union_tag(u, m, vi);
    /* rewind to the object's start */
    od->pos = at;
    od->depth = it.depth - 1;
    jet_struct *vt = u->variants ? u->variants[vi] : NULL;
    if (vt) return decode_struct(d, vt, m + u->payload_offset, u->tag_key);
    return jet__od_skip(od);
}

/* A union member's object at the cursor ('{'): an externally tagged one
 * ({"Variant": payload}, ApiResponse's status) has its tag key taken from
 * a token stream of its own and its payload read straight into
 * decode_struct, without decode_union's key reader and checks; anything
 * else, or unusual (an escaped or unknown tag, a malformed member, the
 * depth limit), takes decode_value, which also reports every error. */
static JET_NOINLINE bool decode_union_object(dec *d, const jet_field *f, char *base) {
    jet_od *od = d->od;
    const jet_union *u = (const jet_union *)f->sub;
    const char *j = od->json;
    const size_t n = od->len, at = od->pos;
    if ((u->style & JET_UNION_STYLE_MASK) != JET_UNION_EXTERNAL || od->depth >= od->max_depth)
        return decode_value(d, f, base);
    jet_od_toks tk;
    jet__od_toks_seek(od, &tk, at + 1);
    size_t p = jet__od_toks_take(&tk, n);
    if (p >= n || j[p] != '"') return decode_value(d, f, base);
    size_t q = jet__od_toks_take(&tk, n), colon = jet__od_toks_take(&tk, n), v = jet__od_toks_take(&tk, n);
    if (v >= n || j[colon] != ':' || not_a_value[(unsigned char)j[v]] || str_backslash(od, &tk, p, q))
        return decode_value(d, f, base);
    jet_str tag = {j + p + 1, q - p - 1};
    uint32_t vi = union_variant(u, tag);
    if (vi == u->count) return decode_value(d, f, base);
    char *m = base + f->offset;
    mark_present(f, base, true);
    store_union_tag(u, m, vi);
    od->depth++;
    od->pos = v;
    jet_struct *vt = u->variants ? u->variants[vi] : NULL;
    if (vt) {
        if (!decode_struct(d, vt, m + u->payload_offset, NULL)) return false;
    } else if (!jet__od_skip(od)) {
        return false;
    }
    bool end = false;
    if (next_member(od, &end)) return jet__od_err(od, JET_E_UNION_ONE_MEMBER, od->pos);
    return end;
}

/* A declared field given twice in the object at `obj` (its second key at
 * `second`): the error names the field and both keys' offsets (the first
 * found again by a walk over the members before it, this once). */
static JET_NOINLINE bool duplicate_error(jet_od *od, const jet_struct *t, int fi, size_t obj, size_t second) {
    size_t first = second;
    jet_od_toks tk;
    jet__od_toks_seek(od, &tk, obj + 1);
    for (size_t p = jet__od_toks_take(&tk, od->len); p < second;) {
        jet_str k;
        size_t v;
        if (!jet__od_key(od, p, &k, &v)) return false;
        const char *nul = memchr(k.ptr, 0, k.len);
        if (!nul && find_field(t, k.ptr, k.len, k.ptr + k.len) == fi) {
            first = p;
            break;
        }
        jet__od_toks_seek(od, &tk, v + 1);
        if (!jet__od_toks_skip(od, &tk, v, od->json[v])) return false;
        jet__od_toks_take(&tk, od->len); /* the ',' */
        p = jet__od_toks_take(&tk, od->len);
    }
    const char *name = t->fields[fi].key ? t->fields[fi].key : "";
    snprintf(od->msg, sizeof od->msg, "field \"%.40s\" given twice in one object (keys at bytes %zu and %zu)",
             name, first, second);
    return jet__od_fail(od, JET_ERR_DUPLICATE_KEY, second, od->msg);
}

static JET_NOINLINE bool key_declared_slow(const jet_struct *t, const char *key, size_t len, const char *end) {
    return find_field(t, key, len, end) >= 0;
}

/* Whether key[0..len) is one of the struct ctx's fields (the strict walk
 * asks this at the unescaped keys of a declared key's length; they hold no
 * NUL, a control character stage 1 rejects in strings). */
static bool key_declared(const void *ctx, const char *key, size_t len, const char *end) {
    const jet_struct *t = (const jet_struct *)ctx;
    /* the hashed map's names of up to 16 bytes without a call (and without
     * the registers the linear search and memcmp would have saved) */
    if (JET_LIKELY(t->map_state == MAP_HASH && len <= 16)) return find_field(t, key, len, end) >= 0;
    return key_declared_slow(t, key, len, end);
}

/* What skip_rest_keys needs, kept in memory across skip_rest's walk (so
 * that skip_rest saves few registers). */
typedef struct rest_keys {
    jet_od_keys keys; /* keys.ctx: the struct */
    dec *d;
    size_t obj;
} rest_keys;

/* skip_rest's walk stopped at a declared (or escaped) key at `key`: a
 * field given again is an error; else the walk goes on from its value
 * (and may stop again). Apart, so that the usual skip, which never stops,
 * keeps a small frame. */
static JET_NOINLINE bool skip_rest_keys(const rest_keys *rk, jet_od_toks *tk, size_t key) {
    dec *d = rk->d;
    const jet_struct *t = (const jet_struct *)rk->keys.ctx;
    const jet_od_keys *keys = &rk->keys;
    size_t obj = rk->obj;
    jet_od *od = d->od;
    const char *j = od->json;
    const size_t n = od->len;
    for (;;) {
        if (od->failed) return false;
        /* the walk took the key's closing quote: its ':' and value next */
        size_t q = jet__od_next(od, key + 1), p;
        int fi;
        if (JET_LIKELY(!jet__od_has_backslash(od, key + 1, q))) {
            fi = find_field(t, j + key + 1, q - key - 1, j + n);
            size_t colon = jet__od_toks_take(tk, n);
            p = jet__od_toks_take(tk, n);
            if (JET_UNLIKELY(p >= n || j[colon] != ':' || jet__gram_not_value(j[p])))
                return jet__od_invalid(od, key);
        } else {
            jet_str k;
            if (!jet__od_key(od, key, &k, &p)) return false;
            fi = memchr(k.ptr, 0, k.len) ? -1 : find_field(t, k.ptr, k.len, k.ptr + k.len);
            jet__od_toks_seek(od, tk, p + 1); /* the value at p, then on */
        }
        if (fi >= 0) return duplicate_error(od, t, fi, obj, key);
        if (jet__od_walk_rest(od, tk, p, JET_OD_AT_VALUE, keys, &key))
            break;
    }
    od->pos = key; /* the token after the object */
    return true;
}

/* The strict skip of the rest of an object (from the ',' at sep) whose
 * fields are all in: a walk (od_walk.c) that stops at a declared key (or
 * an escaped one), where a field given again is an error (unless
 * JET_READ_DUPLICATE_FIRST); the cursor then stands after the '}'. */
static JET_NOINLINE bool skip_rest(dec *d, const jet_struct *t, jet_od_toks *tk, size_t sep, size_t obj) {
    jet_od *od = d->od;
    if (d->duplicates == DUP_FIRST) {
        if (!jet__od_walk(od, tk, sep, JET_OD_AT_SEP, od->depth, od->depth - 1, true, NULL, NULL))
            return false;
    } else {
        const rest_keys rk = {{t->map_lens, key_declared, t}, d, obj};
        size_t key = 0;
        if (!jet__od_walk_rest(od, tk, sep, JET_OD_AT_SEP, &rk.keys, &key))
            return skip_rest_keys(&rk, tk, key);
        od->pos = key; /* the token after the object */
        return true;
    }
    od->pos = jet__od_toks_take(tk, od->len);
    return true;
}

/* jet__od_fast_int for an integer within 32 bytes of the input's end (a
 * document's last member, such as a timestamp), which it leaves to the
 * general path: read from a copy padded with spaces. */
static JET_NOINLINE const char *fast_int_near_end(const char *j, size_t v, size_t n, uint64_t *mag,
                                                  bool *neg) {
    char pad[32];
    memset(pad, ' ', sizeof pad);
    memcpy(pad, j + v, n - v);
    const char *e = jet__od_fast_int(pad, pad + sizeof pad, mag, neg);
    return e ? j + v + (e - pad) : NULL;
}

/* Applies a field's default (JET_FIELD_DEFAULT) to its member. */
static void apply_default(const jet_field *f, char *base) {
    char *dst = base + f->offset;
    switch (f->kind) {
    case JET_K_BOOL: *(bool *)dst = f->def.i != 0; break;
    case JET_K_INT:
    case JET_K_ENUM:
        switch (f->size) {
        case 1: *(int8_t *)dst = (int8_t)f->def.i; break;
        case 2: *(int16_t *)dst = (int16_t)f->def.i; break;
        case 4: *(int32_t *)dst = (int32_t)f->def.i; break;
        default: *(int64_t *)dst = f->def.i; break;
        }
        break;
    case JET_K_UINT:
        switch (f->size) {
        case 1: *(uint8_t *)dst = (uint8_t)f->def.u; break;
        case 2: *(uint16_t *)dst = (uint16_t)f->def.u; break;
        case 4: *(uint32_t *)dst = (uint32_t)f->def.u; break;
        default: *(uint64_t *)dst = f->def.u; break;
        }
        break;
    case JET_K_F32: *(float *)dst = (float)f->def.d; break;
    case JET_K_F64: *(double *)dst = f->def.d; break;
    case JET_K_STR:
    case JET_K_STR_COPY:
    case JET_K_RAW:
        if (f->def.s) {
            jet_str s = {f->def.s, strlen(f->def.s)};
            jet__field_str_store(dst, f->flags, s);
        }
        break;
    case JET_K_STR_FIXED:
        if (f->def.s && strlen(f->def.s) < f->size) memcpy(dst, f->def.s, strlen(f->def.s) + 1);
        break;
    default: break;
    }
}

static bool decode_struct(dec *d, jet_struct *t, char *base, const char *ignore_key) {
    jet_od *od = d->od;
    const bool hashed = t->map_state == MAP_HASH; /* so neither positional nor a wrapper (build_struct) */
    if (JET_UNLIKELY(!hashed)) {
        if (t->flags & JET_STRUCT_POSITIONAL) {
            size_t at = od->pos;
            if (!open_container(od, '[', JET_E_WANT_TUPLE)) return false;
            return decode_tuple_rest(d, t, base, 0, at);
        }
        if (jet__struct_is_wrapper(t))
            return decode_value(d, &t->fields[0], base);
    }
    size_t at = od->pos;
    const char *j = od->json;
    const size_t n = od->len;
    /* open_object's steps, its first token taken from the member loop's
     * token stream rather than searched for twice */
    if (JET_UNLIKELY(j[at] != '{')) return want(od, JET_E_WANT_OBJECT);
    if (JET_UNLIKELY(od->depth >= od->max_depth)) return jet__od_err(od, JET_E_DEPTH_LIMIT, at);
    od->depth++;
    jet_od_toks tk;
    jet__od_toks_seek(od, &tk, at + 1);
    size_t p = jet__od_toks_take(&tk, n); /* the first key's quote, or '}' */
    if (JET_UNLIKELY(p >= n)) return jet__od_err(od, JET_E_END_IN_OBJECT, n);
    size_t bs_clean = p >> 6; /* str_backslash_after: no word checked yet */
    /* the fields seen: the first 64 in a word of their own (a register),
     * the rest of a table that large in memory */
    uint64_t seen = 0, seen_more[MAX_FIELDS / 64 - 1];
    if (JET_UNLIKELY(!hashed) && t->count > 64) memset(seen_more, 0, sizeof seen_more); /* else never read */
    uint32_t nseen = 0;
    /* the field expected next (*guess): the one matched after as many
     * fields in this cursor's last object of this table (declared order
     * at first); guesses below `guessed` are tried (none when the table
     * is not hashed) */
    const uint8_t *guess = NO_MORE_GUESSES;
    uint32_t guessed = 0;
    if (JET_LIKELY(hashed)) {
        guess = key_order(od, t);
        guessed = t->count;
    }
    const bool special = ignore_key != NULL || d->reject_unknown;
    if (j[p] == '}') { /* {} */
        od->pos = jet__od_toks_take(&tk, n);
        od->depth--;
    } else if (JET_UNLIKELY(j[p] != '"')) {
        od->pos = p;
        return jet__od_err(od, JET_E_EXPECTED_KEY_OR_CLOSE, p);
    } else {
        for (;;) {
            /* p: a key's opening quote; the closing quote, ':' and the
             * value's first byte are the next three tokens */
            size_t q = jet__od_toks_take(&tk, n);
            size_t colon = jet__od_toks_take(&tk, n);
            size_t v = jet__od_toks_take(&tk, n);
            if (JET_UNLIKELY(v >= n || j[colon] != ':')) {
                od->pos = p;
                jet_str k;
                size_t vv;
                jet__od_key(od, p, &k, &vv); /* reports the precise error */
                return jet__od_err(od, JET_E_END_IN_OBJECT, n);
            }
            int fi;
            if (JET_LIKELY(!str_backslash_after(od, &tk, &bs_clean, p, q))) {
                uint32_t expect = *guess;
                if (expect < guessed && key_is(t, expect, j + p + 1, q - p - 1, j + n)) {
                    fi = (int)expect;
                    guess++;
                } else {
                    fi = find_field(t, j + p + 1, q - p - 1, j + n);
                    /* a declared field other than the one guessed: the
                     * text has an order of its own (sorted keys, another
                     * writer's), learnt for the next object of t */
                    if (fi >= 0 && guess != NO_MORE_GUESSES) {
                        learn_key(od, t, guess, (uint32_t)fi);
                        guess = NO_MORE_GUESSES;
                    }
                }
            } else {
                jet_str k;
                size_t vv;
                if (!jet__od_key(od, p, &k, &vv)) return false;
                fi = memchr(k.ptr, 0, k.len) ? -1 : find_field(t, k.ptr, k.len, k.ptr + k.len);
                if (fi < 0 && ignore_key && strlen(ignore_key) == k.len && memcmp(ignore_key, k.ptr, k.len) == 0)
                    fi = -2;
                if (fi >= 0 && guess != NO_MORE_GUESSES) {
                    if ((uint32_t)fi != *guess) {
                        learn_key(od, t, guess, (uint32_t)fi);
                        guess = NO_MORE_GUESSES;
                    } else {
                        guess++;
                    }
                }
            }
            if (fi < 0) {
                if (JET_UNLIKELY(special) && fi == -1) {
                    if (ignore_key && strlen(ignore_key) == q - p - 1 &&
                        memcmp(ignore_key, j + p + 1, q - p - 1) == 0)
                        fi = -2; /* the tag of an internally tagged union */
                    else if (d->reject_unknown)
                        return jet__od_err(od, JET_E_UNKNOWN_FIELD, p);
                }
                char c = j[v];
                if (od->lazy) {
                    if (c == '"' && !tk.bits) {
                        /* a string past its word, its words' backslashes
                         * read on the way: a key after it then finds its
                         * word checked (str_backslash_after) */
                        bool esc;
                        take_string_end(od, &tk, &bs_clean, v, n, &esc);
                    } else if ((c | 0x20) != '{') { /* neither '{' nor '[' */
                        jet__od_toks_skip_scalar(&tk, c, n);
                        if (JET_UNLIKELY(not_a_value[(unsigned char)c]))
                            return jet__od_err(od, JET_E_EXPECTED_VALUE, v);
                    } else if (!jet__od_toks_skip_container(od, &tk, v)) {
                        return false;
                    }
                } else if (c == '"') {
                    /* jet__od_toks_skip's string, long ones (ids,
                     * signatures) read by take_string_end */
                    bool esc;
                    size_t sq = take_string_end(od, &tk, &bs_clean, v, n, &esc);
                    if (JET_UNLIKELY(esc) && !jet__od_escapes_ok(od, v + 1, sq))
                        return jet__od_invalid(od, v);
                } else if (!jet__od_toks_skip(od, &tk, v, c)) {
                    return false;
                }
            } else {
                const jet_field *f = &t->fields[fi];
                const unsigned ufi = (unsigned)fi;
                uint64_t bit = UINT64_C(1) << (ufi & 63);
                if (JET_UNLIKELY((ufi < 64 ? seen : seen_more[(ufi >> 6) - 1]) & bit)) {
                    if (d->duplicates == DUP_ERROR) return duplicate_error(od, t, fi, at, p);
                    if (d->duplicates == DUP_FIRST) {
                        od->pos = v;
                        if (!jet__od_toks_skip(od, &tk, v, j[v])) return false;
                        goto separator;
                    }
                    /* DUP_LAST: this value replaces the first one whole */
                    memset(base + f->offset, 0, f->size);
                    nseen--;
                }
                if (JET_LIKELY(ufi < 64))
                    seen |= bit;
                else
                    seen_more[(ufi >> 6) - 1] |= bit;
                nseen++;
                /* The common kinds straight from the token stream: a string
                 * without escapes, a plain integer, a boolean. Anything
                 * unusual (and every error) takes decode_value, which goes
                 * through the cursor's getters. These stay here, built on
                 * the cursor's primitives (jet__od_has_backslash,
                 * jet__od_fast_int, jet__od_token_end_ok): the getters
                 * check a handle and move od->pos, which this loop keeps in
                 * its token stream instead (measured: through decode_value,
                 * TwitterStats 4.8% and nostr 5.3% more instructions; the
                 * boolean as an ondemand.h helper reading od->json, nostr
                 * 0.4% more). */
                char vc = j[v];
                char *dst = base + f->offset;
                if (f->kind == JET_K_STR && vc == '"') {
                    bool esc;
                    size_t vq = take_string_end(od, &tk, &bs_clean, v, n, &esc);
                    if (JET_LIKELY(vq < n && !esc)) {
                        jet_str sv = {j + v + 1, vq - v - 1};
                        jet__field_str_store(dst, f->flags, sv);
                        mark_present(f, base, true);
                        goto next;
                    }
                    if (vq < n) { /* escaped: its quotes are known, no second search */
                        jet_str sv;
                        od->pos = v; /* (the arena's errors) */
                        if (!jet__od_string_body(od, v, vq, &sv) || !store_field_str(d, f, dst, sv))
                            return false;
                        mark_present(f, base, true);
                        goto next;
                    }
                } else if ((f->kind == JET_K_UINT || f->kind == JET_K_INT) && vc != 'n') {
                    uint64_t mag;
                    bool neg;
                    const char *fe = JET_LIKELY(n - v >= 32) ? jet__od_fast_int(j + v, j + n, &mag, &neg)
                                                             : fast_int_near_end(j, v, n, &mag, &neg);
                    if (JET_LIKELY(fe && toks_end_ok(od, &tk, (size_t)(fe - j)))) {
                        bool ok;
                        if (f->kind == JET_K_UINT)
                            ok = neg ? (mag ? range_error(od, v, f->size, true)
                                            : store_uint(od, v, dst, f->size, 0)) /* "-0" */
                                     : store_uint(od, v, dst, f->size, mag);
                        else if (JET_UNLIKELY(mag > (uint64_t)INT64_MAX + neg))
                            ok = range_error(od, v, f->size, false);
                        else
                            ok = store_int(od, v, dst, f->size, neg ? (int64_t)(0 - mag) : (int64_t)mag);
                        if (ok) {
                            mark_present(f, base, true);
                            goto next;
                        }
                        if (od->failed) return false;
                    }
                } else if (f->kind == JET_K_BOOL && (vc == 't' || vc == 'f')) {
                    /* the literal as a word, then the byte after it */
                    size_t ln = vc == 't' ? 4 : 5;
                    if (JET_LIKELY(n - v > ln)) {
                        uint32_t w4, lw;
                        memcpy(&w4, j + v + (ln - 4), 4);
                        memcpy(&lw, vc == 't' ? "true" : "alse", 4);
                        if (w4 == lw && jet__od_token_end_ok(od, v + ln)) {
                            *(bool *)dst = vc == 't';
                            mark_present(f, base, true);
                            goto next;
                        }
                    }
                } else if (f->kind == JET_K_STRUCT && vc == '{') {
                    /* a nested object: straight in, without decode_value's dispatch */
                    mark_present(f, base, true);
                    od->pos = v;
                    if (!decode_struct(d, (jet_struct *)(uintptr_t)f->sub, dst, NULL)) return false;
                    jet__od_toks_seek(od, &tk, od->pos);
                    goto next;
                } else if (f->kind == JET_K_ARRAY && vc == '[') {
                    /* an array: straight in, as a nested object */
                    mark_present(f, base, true);
                    od->pos = v;
                    if (!decode_array(d, f, base)) return false;
                    jet__od_toks_seek(od, &tk, od->pos);
                    goto next;
                } else if (f->kind == JET_K_UNION && vc == '{') {
                    od->pos = v;
                    if (!decode_union_object(d, f, base)) return false;
                    jet__od_toks_seek(od, &tk, od->pos);
                    goto next;
                } else if (f->kind == JET_K_F64 && vc != 'n') {
                    jet_num num;
                    jet_code code = JET_OK;
                    const char *err_at = j + v;
                    const char *fe = jet_num_parse(j + v, j + n, od->flags & JET_READ_ALLOW_NAN_INF, &num,
                                                   &code, &err_at);
                    if (JET_LIKELY(fe && toks_end_ok(od, &tk, (size_t)(fe - j)) &&
                                   (vc == '-' || (vc >= '0' && vc <= '9')))) {
                        double x = num.kind == JET_NUM_REAL   ? num.v.d
                                   : num.kind == JET_NUM_UINT ? (double)num.v.u
                                                              : (double)num.v.i;
                        memcpy(dst, &x, sizeof x);
                        mark_present(f, base, true);
                        goto next;
                    }
                }
                if (vc == 'n' && (f->flags & JET_FIELD_NULLABLE)) {
                    /* null for a nullable field (an absent Option):
                     * decode_value's case, the literal read as a word */
                    uint32_t w4;
                    if (JET_LIKELY(n - v >= 4) && (memcpy(&w4, j + v, 4), memcmp(&w4, "null", 4) == 0) &&
                        jet__od_token_end_ok(od, v + 4)) {
                        memset(dst, 0, f->size);
                        mark_present(f, base, false);
                        goto next;
                    }
                }
                od->pos = v;
                if (!decode_value(d, f, base)) return false;
                jet__od_toks_seek(od, &tk, od->pos);
            next:
                if (JET_UNLIKELY(nseen == t->count) && ignore_key == NULL && d->rest_skippable) {
                    /* every field is in, and a field given again would
                     * not count: after this member's separator, skip the
                     * rest of the object as a whole, strictly with its
                     * keys still checked for a field given again
                     * (skip_rest), under JET_READ_LAZY by brackets (a
                     * duplicate there is not seen: the first wins). This
                     * test and od->lazy are read where used, not kept
                     * from the entry (fewer values live in the loop) */
                    size_t sep = jet__od_toks_take(&tk, n);
                    if (sep < n && j[sep] == ',') {
                        if (od->lazy) {
                            size_t e = jet__od_close_deep(od, sep, 1, od->depth);
                            if (JET_UNLIKELY(e == JET_OD_UNCLOSED)) return jet__od_close_fail(od);
                            od->pos = jet__od_next(od, e);
                        } else {
                            jet_od_toks rest = tk; /* tk's address stays here (registers) */
                            if (od->pos < v) od->pos = v; /* past a nested value, else on the value */
                            if (!skip_rest(d, t, &rest, sep, at)) return false;
                        }
                        od->depth--;
                        return true;
                    }
                    if (JET_LIKELY(sep < n && j[sep] == '}')) { /* the last member */
                        od->pos = jet__od_toks_take(&tk, n);
                        od->depth--;
                        return true;
                    }
                    jet__od_toks_seek(od, &tk, sep);
                }
            }
        separator:;
            /* the separator and the token after it, taken together: the
             * next key's quote, or the token after the object's '}' */
            size_t sep = jet__od_toks_take(&tk, n);
            p = jet__od_toks_take(&tk, n);
            if (JET_LIKELY(p < n && j[sep] == ',' && j[p] == '"')) continue;
            if (JET_UNLIKELY(sep >= n))
                return jet__od_err(od, JET_E_END_IN_OBJECT, n);
            if (j[sep] == ',') {
                if (JET_UNLIKELY(p >= n))
                    return jet__od_err(od, JET_E_END_IN_OBJECT, n);
                jet__err k = jet__gram_after_comma(od->flags, j[p], '}');
                if (k != JET_E_OK) return jet__od_err(od, k, p);
                sep = p; /* a trailing comma: the '}' ends the object */
                p = jet__od_toks_take(&tk, n);
            }
            if (JET_UNLIKELY(j[sep] != '}'))
                return jet__od_err(od, JET_E_EXPECTED_OBJECT_SEP, sep);
            od->pos = p;
            od->depth--;
            break;
        }
    }
    if (nseen == t->count) return true;
    for (uint32_t i = 0; i < t->count; i++) {
        if ((i < 64 ? seen : seen_more[(i >> 6) - 1]) & (UINT64_C(1) << (i & 63))) continue;
        const jet_field *f = &t->fields[i];
        if (f->flags & JET_FIELD_DEFAULT) {
            apply_default(f, base);
            mark_present(f, base, false);
            continue;
        }
        if (f->flags & JET_FIELD_OPTIONAL) {
            mark_present(f, base, false);
            continue;
        }
        return jet__od_fail_missing(od, at, f->key ? f->key : "", f->key ? strlen(f->key) : 0);
    }
    return true;
}

/* Decodes the value at the cursor into the member of `base` that f
 * describes, moving the cursor past it. */
static JET_NOINLINE bool decode_value(dec *d, const jet_field *f, char *base) {
    jet_od *od = d->od;
    if (at_end(od)) return false;
    char *dst = base + f->offset;
    size_t at = od->pos;
    char c = od->json[at];
    if (c == 'n' && (f->flags & JET_FIELD_NULLABLE)) {
        jet_odv v = cursor_value(d);
        if (!jet_odv_is_null(&v)) return false;
        memset(dst, 0, f->size);
        mark_present(f, base, false);
        return true;
    }
    mark_present(f, base, true);
    switch (f->kind) {
    case JET_K_STR:
        if (JET_LIKELY(c == '"')) {
            jet_str s;
            if (!jet__od_string_fast(od, at, &s)) return false;
            return store_field_str(d, f, dst, s);
        }
        return want(od, JET_E_WANT_STRING);
    case JET_K_UINT: {
        jet_odv v = cursor_value(d);
        uint64_t x;
        if (!jet_odv_get_u64(&v, &x)) return name_range(od, at, f->size, true);
        return store_uint(od, at, dst, f->size, x);
    }
    case JET_K_INT: {
        jet_odv v = cursor_value(d);
        int64_t x;
        if (!jet_odv_get_i64(&v, &x)) return name_range(od, at, f->size, false);
        return store_int(od, at, dst, f->size, x);
    }
    case JET_K_BOOL: {
        jet_odv v = cursor_value(d);
        bool b;
        if (!jet_odv_get_bool(&v, &b)) return false;
        *(bool *)dst = b;
        return true;
    }
    case JET_K_F64: {
        jet_odv v = cursor_value(d);
        return jet_odv_get_double(&v, (double *)(void *)dst);
    }
    case JET_K_F32: {
        jet_odv v = cursor_value(d);
        return jet_odv_get_float(&v, (float *)(void *)dst);
    }
    case JET_K_STR_COPY:
    case JET_K_STR_FIXED: return decode_string_kind(d, f, dst);
    case JET_K_RAW: {
        jet_odv v = cursor_value(d);
        jet_str s;
        return jet_odv_get_raw(&v, &s) && store_field_str(d, f, dst, s);
    }
    case JET_K_STRUCT: return decode_struct(d, (jet_struct *)(uintptr_t)f->sub, dst, NULL);
    case JET_K_ARRAY: return decode_array(d, f, base);
    case JET_K_FIXED_ARRAY: return decode_fixed_array(d, f, base);
    case JET_K_ENUM: return decode_enum(d, f, dst);
    case JET_K_MAP: return decode_map(d, f, base);
    case JET_K_UNION: return decode_union(d, f, base);
    default: return jet__od_err(od, JET_E_SCHEMA_KIND, at);
    }
}

/* With JET_READ_STABLE_STRINGS, an input whose comments were blanked in the
 * cursor's scratch (od->plain) is read from a copy in the arena instead, so
 * that views into it outlive the cursor's next document like views into the
 * caller's input do. The text is the same, only its address changes. */
static bool keep_blanked_text(dec *d) {
    jet_od *od = d->od;
    if (!d->stable_strings || od->json != od->plain || !od->len) return true;
    char *copy = (char *)arena_alloc(d, od->len, 1);
    if (!copy) return false;
    memcpy(copy, od->json, od->len);
    od->json = copy;
    return true;
}

/* Decodes the value at the cursor (checked: the cursor stands on it, no
 * error yet, the table prepared) into out. */
static JET_ALWAYS_INLINE bool decode_root(jet_od *od, jet_struct *type, void *out, jet_arena *arena,
                                          bool whole_message) {
    memset(out, 0, type->size);
    dec d;
    d.od = od;
    d.arena = arena;
    jet_read_flags f = od->flags;
    if (JET_LIKELY(!(f & (JET_READ_REJECT_UNKNOWN | JET_READ_STABLE_STRINGS | JET_READ_DUPLICATE_FIRST |
                          JET_READ_DUPLICATE_LAST)))) {
        /* the defaults: constants, no flag tests */
        d.reject_unknown = false;
        d.stable_strings = false;
        d.duplicates = DUP_ERROR;
        d.rest_skippable = true;
    } else {
        d.reject_unknown = (f & JET_READ_REJECT_UNKNOWN) != 0;
        d.stable_strings = (f & JET_READ_STABLE_STRINGS) != 0;
        d.duplicates = (f & JET_READ_DUPLICATE_LAST)    ? DUP_LAST
                       : (f & JET_READ_DUPLICATE_FIRST) ? DUP_FIRST
                                                        : DUP_ERROR;
        d.rest_skippable = !(f & (JET_READ_REJECT_UNKNOWN | JET_READ_DUPLICATE_LAST));
    }
    if (at_end(od) || (d.stable_strings && !keep_blanked_text(&d))) return false;
    /* a whole message (jet_decode's) that is an array union (nostr's),
     * wrapped for the root's struct: read without the wrapper's and
     * decode_value's dispatch (not tested for jet_odv_decode's values) */
    if (whole_message && jet__struct_is_wrapper(type) && type->fields[0].kind == JET_K_UNION &&
        !(type->flags & JET_STRUCT_POSITIONAL)) {
        int fast = union_array_toks(&d, &type->fields[0], (char *)out);
        if (fast >= 0) return fast > 0 && !od->failed;
    }
    /* a window scanned on the way may have failed stage 1 */
    return decode_struct(&d, type, (char *)out, NULL) && !od->failed;
}

bool jet_odv_decode(jet_odv *v, jet_struct *type, void *out, jet_arena *arena) {
    if (!v || !v->od) return false;
    jet_od *od = v->od;
    if (od->failed) return false;
    if (!type || !out) return jet__od_err(od, JET_E_NULL_SCHEMA, v->pos);
    if (!prepare_struct(type)) return jet__od_err(od, JET_E_SCHEMA_MALFORMED, v->pos);
    if (v->pos != od->pos || v->depth != od->depth)
        return jet__od_err(od, JET_E_OUT_OF_ORDER, v->pos);
    return decode_root(od, type, out, arena, false);
}

bool jet_decode(jet_od *od, const char *json, size_t len, jet_struct *type, void *out,
                jet_arena *arena, const jet_read_opts *opts, jet_error *err) {
    bool ok = false;
    if (!od || !type || !out) {
        jet__error_kind(err, JET_E_NULL_DECODE_ARG, 0);
        return false;
    }
    jet_odv root;
    /* after a start the cursor stands on the root: jet_odv_decode's checks
     * of the handle are not needed */
    if (jet_od_start(od, json, len, opts, &root))
        ok = (prepare_struct(type) || jet__od_err(od, JET_E_SCHEMA_MALFORMED, root.pos)) &&
             decode_root(od, type, out, arena, true) && jet_od_finish(od);
    if (!ok && !od->lazy && !od->err_is_dom) {
        /* A schema's error (a type, a range, a field missing or repeated)
         * met before the input's own first error: an input that is not
         * valid JSON is reported as such, as the DOM reader reports it,
         * whatever the schema (this error path reads the input once more;
         * not when the error is already the DOM reader's, e.g. a number out
         * of range after stage 1 failed: its JSON Pointer came from the
         * index, which that failure then dropped). */
        jet_code c = od->err.code;
        if (c == JET_ERR_TYPE || c == JET_ERR_NUMBER_RANGE || c == JET_ERR_MISSING_FIELD ||
            c == JET_ERR_UNKNOWN_FIELD || c == JET_ERR_BAD_TAG || c == JET_ERR_TOO_LONG ||
            c == JET_ERR_DUPLICATE_KEY) {
            od->failed = false;
            if (jet__od_validate_all(od, &od->opts, false)) od->failed = true; /* valid: the schema's error stands */
        }
    }
    if (!ok && err) *err = od->err;
    return ok;
}
