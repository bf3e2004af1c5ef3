/* test_bind_members.c — the typed member loop's cases, each decoded twice:
 * as given (a small input is indexed whole, and the member loop's fast
 * paths read it) and behind 192 bytes of leading spaces with a cursor
 * window of 2 x 1 words (read through the window: the loop's general
 * paths). Both must give the same struct (bind_eq.h), or the same error
 * code, JSON Pointer and offset (less the padding). Cases: every member
 * kind at every position, unknown members of every kind between them, keys
 * out of declared order, keys and values with escapes, keys over 16 bytes,
 * strings over several words, integers at and past the limits of every
 * width and signedness, numbers and literals glued to what follows,
 * duplicates under each policy, separators out of place, and every
 * truncation of each document, strict and lazy. Explicit expectations
 * check a few of them against the values written. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_sample.h"
#include "bind_eq.h"
#include "check.h"
#include "internal.h" /* jet__od_window_set */
#include "jet.h"
#include "schemas.h"

#define LIT(s) (s), (sizeof(s) - 1)
#define PAD 192 /* over two half windows of one word: the input is read through the window */

typedef struct MlSlice {
    size_t len;
    const char *ptr;
} MlSlice;

typedef struct MlInner {
    int32_t a;
    jet_str s;
} MlInner;

typedef struct MlAll {
    jet_str s;
    MlSlice sl;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    bool b;
    jet_str opt;
    bool has_opt;
    jet_str nul;
    int32_t def;
    jet_str long_key;
    MlInner in;
    uint32_t *arr;
    size_t arr_n;
    double f;
} MlAll;

static const jet_field ml_inner_fields[] = {
    JET_F_SINT(MlInner, a, "a"),
    JET_F_STR(MlInner, s, "s"),
};
static jet_struct ml_inner_type = JET_STRUCT(MlInner, ml_inner_fields);
static const jet_field ml_u32_elem = JET_ELEM(uint32_t, JET_K_UINT, NULL);

static const jet_field ml_all_fields[] = {
    JET_F_STR(MlAll, s, "s"),
    JET_FIELD_FULL(MlAll, sl, "sl", NULL, JET_K_STR, JET_FIELD_STR_SLICE | JET_FIELD_OPTIONAL, JET_NO_OFFSET,
                   JET_NO_OFFSET, NULL),
    JET_F_UINT(MlAll, u8, "u8"),
    JET_F_UINT(MlAll, u16, "u16"),
    JET_F_UINT(MlAll, u32, "u32"),
    JET_F_UINT(MlAll, u64, "u64"),
    JET_F_SINT(MlAll, i8, "i8"),
    JET_F_SINT(MlAll, i16, "i16"),
    JET_F_SINT(MlAll, i32, "i32"),
    JET_F_SINT(MlAll, i64, "i64"),
    JET_F_BOOL(MlAll, b, "b"),
    JET_F_OPT_HAS(MlAll, opt, has_opt, "opt", JET_K_STR, NULL),
    JET_FIELD_FULL(MlAll, nul, "nul", NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE, JET_NO_OFFSET,
                   JET_NO_OFFSET, NULL),
    JET_F_DEFAULT_SINT(MlAll, def, "def", 77),
    JET_FIELD_FULL(MlAll, long_key, "a_key_of_more_than_16_bytes", NULL, JET_K_STR, JET_FIELD_OPTIONAL,
                   JET_NO_OFFSET, JET_NO_OFFSET, NULL),
    JET_FIELD_FULL(MlAll, in, "in", NULL, JET_K_STRUCT, JET_FIELD_OPTIONAL, JET_NO_OFFSET, JET_NO_OFFSET,
                   &ml_inner_type),
    JET_FIELD_FULL(MlAll, arr, "arr", NULL, JET_K_ARRAY, JET_FIELD_OPTIONAL, (uint32_t)offsetof(MlAll, arr_n),
                   JET_NO_OFFSET, &ml_u32_elem),
    JET_FIELD_FULL(MlAll, f, "f", NULL, JET_K_F64, JET_FIELD_OPTIONAL, JET_NO_OFFSET, JET_NO_OFFSET, NULL),
};
static jet_struct ml_all_type = JET_STRUCT(MlAll, ml_all_fields);

/* The members of a full MlAll, in declared order. */
static const char *const all_members[] = {
    "\"s\":\"plain\"",
    "\"sl\":\"slice\"",
    "\"u8\":255",
    "\"u16\":65535",
    "\"u32\":4294967295",
    "\"u64\":18446744073709551615",
    "\"i8\":-128",
    "\"i16\":32767",
    "\"i32\":-2147483648",
    "\"i64\":-9223372036854775808",
    "\"b\":true",
    "\"opt\":\"here\"",
    "\"nul\":null",
    "\"def\":-5",
    "\"a_key_of_more_than_16_bytes\":\"long\"",
    "\"in\":{\"a\":1,\"s\":\"x\"}",
    "\"arr\":[1,2,3]",
    "\"f\":1.5",
};
#define N_ALL (sizeof all_members / sizeof all_members[0])

/* Members no field has, of every kind. */
static const char *const unknown_members[] = {
    "\"zz\":\"str\"", "\"zz\":12", "\"zz\":-3", "\"zz\":true", "\"zz\":false", "\"zz\":null",
    "\"zz\":1.25",    "\"zz\":{\"s\":1}", "\"zz\":[1,\"s\"]", "\"zz\":\"a\\\"b\"",
    /* keys of a declared length (3 and 1 bytes, 27 bytes) that no field has */
    "\"u99\":1", "\"q\":\"s\"", "\"a_key_of_more_than_16_bytez\":2",
};
#define N_UNKNOWN (sizeof unknown_members / sizeof unknown_members[0])

static jet_od *od;
static jet_arena arena_a, arena_b;
static char buf[8192];

typedef struct outcome {
    bool ok;
    jet_code code;
    size_t offset;
    char path[256];
} outcome;

static outcome decode_into(jet_struct *t, void *out, const char *json, size_t len, jet_read_flags flags,
                           jet_arena *arena) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    jet_error e;
    memset(&e, 0, sizeof e);
    memset(out, 0xA5, t->size);
    jet_arena_reset(arena);
    outcome r;
    memset(&r, 0, sizeof r);
    r.ok = jet_decode(od, json, len, t, out, arena, &o, &e);
    r.code = e.code;
    r.offset = e.offset;
    if (!r.ok && e.path) snprintf(r.path, sizeof r.path, "%s", e.path);
    return r;
}

static char *text_a, *text_b; /* the two copies decoded last (kept: the results point into them) */

/* Decodes json[0..len) as given and padded behind the window (see the top)
 * and checks that both agree; `out` gets the first decoding. */
static outcome same(jet_struct *t, void *out, const char *json, size_t len, jet_read_flags flags) {
    static char out_b[sizeof(MlAll) + sizeof(NostrEvent) + sizeof(ApiResponse) + 256];
    free(text_a);
    free(text_b);
    text_a = (char *)malloc(len ? len : 1);
    text_b = (char *)malloc(len + PAD);
    if (!text_a || !text_b) {
        CHECK(false);
        outcome none;
        memset(&none, 0, sizeof none);
        return none;
    }
    memcpy(text_a, json, len);
    memset(text_b, ' ', PAD);
    memcpy(text_b + PAD, json, len);
    outcome a = decode_into(t, out, text_a, len, flags, &arena_a);
    jet__od_window_set(1);
    outcome b = decode_into(t, out_b, text_b, len + PAD, flags, &arena_b);
    jet__od_window_set(0);
    bool agree = a.ok == b.ok;
    if (agree && a.ok) {
        agree = bind_equal(t, out, out_b);
    } else if (agree) {
        agree = a.code == b.code && a.offset + PAD == b.offset && strcmp(a.path, b.path) == 0;
    }
    CHECK_MSG(agree, "flags %#x, %.*s: fast %d %s at %zu %s, general %d %s at %zu %s (%s)", (unsigned)flags,
              (int)(len > 300 ? 300 : len), json, (int)a.ok, jet_code_name(a.code), a.offset, a.path,
              (int)b.ok, jet_code_name(b.code), b.offset >= PAD ? b.offset - PAD : b.offset, b.path,
              a.ok && b.ok ? (beq_where ? beq_where : "?") : "");
    return a;
}

static const jet_read_flags modes[] = {
    0,
    JET_READ_LAZY,
    JET_READ_DUPLICATE_FIRST,
    JET_READ_DUPLICATE_LAST,
    JET_READ_LAZY | JET_READ_DUPLICATE_FIRST,
    JET_READ_LAZY | JET_READ_DUPLICATE_LAST,
    JET_READ_REJECT_UNKNOWN,
    JET_READ_STABLE_STRINGS,
    JET_READ_ALLOW_TRAILING_COMMAS,
};
#define N_MODES (sizeof modes / sizeof modes[0])

/* {m[order[0]],...}: the members listed in `order` (n of them). */
static size_t object_of(const char *const *m, const size_t *order, size_t n) {
    size_t at = 0;
    buf[at++] = '{';
    for (size_t i = 0; i < n; i++) {
        if (i) buf[at++] = ',';
        size_t l = strlen(m[order[i]]);
        memcpy(buf + at, m[order[i]], l);
        at += l;
    }
    buf[at++] = '}';
    buf[at] = 0;
    return at;
}

static void all_modes(jet_struct *t, void *out, size_t len) {
    for (size_t k = 0; k < N_MODES; k++) same(t, out, buf, len, modes[k]);
}

/* Every member at every position (rotations, and each rotation reversed),
 * with an unknown member of each kind at each position. */
static void test_positions(void) {
    MlAll m;
    size_t order[N_ALL + 1];
    for (size_t r = 0; r < N_ALL; r++) {
        for (int rev = 0; rev < 2; rev++) {
            for (size_t i = 0; i < N_ALL; i++) order[i] = rev ? (r + N_ALL - i) % N_ALL : (r + i) % N_ALL;
            size_t len = object_of(all_members, order, N_ALL);
            outcome o = same(&ml_all_type, &m, buf, len, 0);
            CHECK(o.ok);
            if (o.ok)
                CHECK(m.u8 == 255 && m.u16 == 65535 && m.u32 == UINT32_MAX && m.u64 == UINT64_MAX &&
                      m.i8 == INT8_MIN && m.i16 == INT16_MAX && m.i32 == INT32_MIN && m.i64 == INT64_MIN &&
                      m.b && m.has_opt && m.def == -5 && m.s.len == 5 && memcmp(m.s.ptr, "plain", 5) == 0 &&
                      m.sl.len == 5 && memcmp(m.sl.ptr, "slice", 5) == 0 && m.nul.ptr == NULL &&
                      m.long_key.len == 4 && m.in.a == 1 && m.arr_n == 3 && m.f == 1.5);
            all_modes(&ml_all_type, &m, len);
        }
    }
    /* an unknown member of each kind at each position of the declared order */
    const char *mixed[N_ALL + 1];
    for (size_t u = 0; u < N_UNKNOWN; u++) {
        for (size_t at = 0; at <= N_ALL; at++) {
            for (size_t i = 0, k = 0; i <= N_ALL; i++) mixed[i] = i == at ? unknown_members[u] : all_members[k++];
            for (size_t i = 0; i <= N_ALL; i++) order[i] = i;
            size_t len = object_of(mixed, order, N_ALL + 1);
            all_modes(&ml_all_type, &m, len);
        }
    }
    /* the fields left out one at a time (absent: defaults, presence) */
    for (size_t gone = 0; gone < N_ALL; gone++) {
        for (size_t i = 0, k = 0; i < N_ALL; i++)
            if (i != gone) order[k++] = i;
        size_t len = object_of(all_members, order, N_ALL - 1);
        outcome o = same(&ml_all_type, &m, buf, len, 0);
        if (gone == 13) CHECK(o.ok && m.def == 77);
        if (gone == 11) CHECK(o.ok && !m.has_opt);
        if (gone == 0) CHECK(!o.ok && o.code == JET_ERR_MISSING_FIELD);
        all_modes(&ml_all_type, &m, len);
    }
}

/* One member's value replaced: integers at and past every width's limits,
 * glued values, wrong types. */
static void test_values(void) {
    static const struct {
        size_t member;
        const char *text;
    } cases[] = {
        {2, "\"u8\":0"}, {2, "\"u8\":256"}, {2, "\"u8\":-1"}, {2, "\"u8\":-0"}, {2, "\"u8\":01"},
        {2, "\"u8\":1.0"}, {2, "\"u8\":1e2"}, {2, "\"u8\":\"1\""}, {2, "\"u8\":true"}, {2, "\"u8\":null"},
        {2, "\"u8\":-"}, {2, "\"u8\":1x"}, {2, "\"u8\":12 "}, {3, "\"u16\":65536"}, {3, "\"u16\":0"},
        {4, "\"u32\":4294967296"}, {5, "\"u64\":18446744073709551616"}, {5, "\"u64\":99999999999999999999"},
        {5, "\"u64\":1234567890123456789"}, {5, "\"u64\":12345678901234567"}, {5, "\"u64\":1234567890123456"},
        {5, "\"u64\":9223372036854775808"}, {6, "\"i8\":127"}, {6, "\"i8\":128"}, {6, "\"i8\":-129"},
        {6, "\"i8\":-0"}, {7, "\"i16\":-32768"}, {7, "\"i16\":32768"}, {7, "\"i16\":-32769"},
        {8, "\"i32\":2147483647"}, {8, "\"i32\":2147483648"}, {8, "\"i32\":-2147483649"},
        {9, "\"i64\":9223372036854775807"}, {9, "\"i64\":9223372036854775808"}, {9, "\"i64\":-9223372036854775809"},
        {9, "\"i64\":-12"}, {9, "\"i64\":--1"}, {9, "\"i64\":-a"}, {10, "\"b\":false"}, {10, "\"b\":truex"},
        {10, "\"b\":fals"}, {10, "\"b\":tru"}, {10, "\"b\":1"}, {10, "\"b\":null"}, {10, "\"b\":\"true\""},
        {10, "\"b\":true "}, {0, "\"s\":\"with \\\"escape\\\"\""}, {0, "\"s\":\"\\u00e9t\\u00e9\""},
        {0, "\"s\":1"}, {0, "\"s\":null"}, {0, "\"s\":\"\""}, {0, "\"\\u0073\":\"escaped key\""},
        {0, "\"s\":\"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789\""},
        {1, "\"sl\":\"a\\nb\""}, {11, "\"opt\":null"}, {12, "\"nul\":\"x\""}, {13, "\"def\":null"},
        {14, "\"a_key_of_more_than_16_bytes\":\"\\t\""}, {14, "\"a_key_of_more_than_16_bytez\":\"x\""},
        {15, "\"in\":null"}, {15, "\"in\":[]"}, {16, "\"arr\":{}"}, {16, "\"arr\":[1,-1]"},
        {17, "\"f\":1"}, {17, "\"f\":-0.0"}, {4, "\"u32\" : 7"}, {4, "\"u32\":7 "}, {4, " \"u32\":7"},
    };
    MlAll m;
    const char *members[N_ALL];
    size_t order[N_ALL];
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (size_t i = 0; i < N_ALL; i++) {
            members[i] = i == cases[c].member ? cases[c].text : all_members[i];
            order[i] = i;
        }
        /* the case first, in the middle and last */
        for (size_t rot = 0; rot < N_ALL; rot += N_ALL / 3) {
            for (size_t i = 0; i < N_ALL; i++) order[i] = (cases[c].member + rot + i) % N_ALL;
            size_t len = object_of(members, order, N_ALL);
            all_modes(&ml_all_type, &m, len);
        }
    }
    /* a few against the values written */
    size_t order_id[N_ALL];
    for (size_t i = 0; i < N_ALL; i++) {
        members[i] = all_members[i];
        order_id[i] = i;
    }
    members[2] = "\"u8\":256";
    outcome o = same(&ml_all_type, &m, buf, object_of(members, order_id, N_ALL), 0);
    CHECK(!o.ok && o.code == JET_ERR_NUMBER_RANGE && strcmp(o.path, "/u8") == 0);
    members[2] = "\"u8\":1x";
    o = same(&ml_all_type, &m, buf, object_of(members, order_id, N_ALL), 0);
    CHECK(!o.ok && strcmp(o.path, "/u8") == 0);
    members[2] = all_members[2];
    members[9] = "\"i64\":-12";
    members[0] = "\"s\":\"a\\\"b\"";
    o = same(&ml_all_type, &m, buf, object_of(members, order_id, N_ALL), 0);
    CHECK(o.ok && m.i64 == -12 && m.s.len == 3 && memcmp(m.s.ptr, "a\"b", 3) == 0);
}

/* Duplicates of each member at each distance, under each policy. */
static void test_duplicates(void) {
    static const char *const again[] = {
        "\"s\":\"second\"", "\"u8\":7", "\"i64\":5", "\"b\":false", "\"in\":{\"a\":2,\"s\":\"y\"}", "\"f\":2.5",
    };
    static const size_t first_of[] = {0, 2, 9, 10, 15, 17};
    MlAll m;
    const char *members[N_ALL + 1];
    size_t order[N_ALL + 1];
    for (size_t d = 0; d < sizeof again / sizeof again[0]; d++) {
        for (size_t at = first_of[d] + 1; at <= N_ALL; at++) {
            for (size_t i = 0, k = 0; i <= N_ALL; i++) {
                members[i] = i == at ? again[d] : all_members[k++];
                order[i] = i;
            }
            size_t len = object_of(members, order, N_ALL + 1);
            all_modes(&ml_all_type, &m, len);
            outcome o = same(&ml_all_type, &m, buf, len, JET_READ_DUPLICATE_LAST);
            if (d == 1) CHECK(o.ok && m.u8 == 7);
            o = same(&ml_all_type, &m, buf, len, JET_READ_DUPLICATE_FIRST);
            if (d == 1) CHECK(o.ok && m.u8 == 255);
            o = same(&ml_all_type, &m, buf, len, 0);
            CHECK(!o.ok && o.code == JET_ERR_DUPLICATE_KEY);
        }
    }
}

/* Separators and structure out of place. */
static void test_structure(void) {
    static const char *const docs[] = {
        "{\"s\":\"x\",\"u8\":1,}",
        "{\"s\":\"x\",,\"u8\":1}",
        "{\"s\":\"x\" \"u8\":1}",
        "{\"s\":\"x\";\"u8\":1}",
        "{\"s\":\"x\",\"u8\":1]",
        "{\"s\":\"x\",\"u8\"1}",
        "{\"s\":\"x\",\"u8\"::1}",
        "{\"s\":\"x\",u8:1}",
        "{\"s\":\"x\",\"u8\":1}}",
        "{\"s\":\"x\",\"u8\":1} x",
        "{\"s\":\"x\",\"u8\":}",
        "{\"s\":\"x\",\"u8\":,\"u16\":1}",
        "{ \"s\" : \"x\" , \"u8\" : 1 , \"u16\" : 2 }",
        "{\"s\":\"x\",\"zz\":{\"a\":[1,{\"b\":null}]},\"u8\":1}",
        "{\"s\":\"x\",\"zz\":[}",
        "{\"s\":\"x\",\"zz\":\"\\q\",\"u8\":1}",
        "{\"s\":\"x\",\"zz\":tru,\"u8\":1}",
        "{\"s\":\"x\",\"zz\":01,\"u8\":1}",
        "{\"s\":\"x\",\"zz\":nulll,\"u8\":1}",
        "{\"s\":\"x\",\"z\\u007a\":1,\"u8\":1}",
        "{}",
        "[]",
        "{\"s\"}",
    };
    MlAll m;
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        size_t len = strlen(docs[d]);
        memcpy(buf, docs[d], len + 1);
        all_modes(&ml_all_type, &m, len);
    }
}

/* Every truncation of each document, strict and lazy. */
static void truncations(jet_struct *t, void *out, const char *doc, size_t len) {
    for (size_t cut = 0; cut < len; cut++) {
        same(t, out, doc, cut, 0);
        same(t, out, doc, cut, JET_READ_LAZY);
    }
    outcome o = same(t, out, doc, len, 0);
    CHECK(o.ok);
    same(t, out, doc, len, JET_READ_LAZY);
}

static void test_truncations(void) {
    MlAll m;
    size_t order[N_ALL];
    for (size_t i = 0; i < N_ALL; i++) order[i] = (i * 7) % N_ALL; /* out of declared order */
    size_t len = object_of(all_members, order, N_ALL);
    char doc[sizeof buf];
    memcpy(doc, buf, len + 1);
    truncations(&ml_all_type, &m, doc, len);
    static const char mixed[] = "{\"s\":\"a\\u00e9\",\"zz\":[1,2],\"u8\":9,\"q\":true,\"u16\":300,\"i8\":-1,"
                                "\"b\":false,\"zzz\":null,\"i16\":-2,\"i32\":3,\"i64\":4,\"u32\":5,\"u64\":6}";
    truncations(&ml_all_type, &m, LIT(mixed));
    static NostrEvent ev;
    static const char nostr[] =
        "{\"content\":\"short\",\"created_at\":1681635441,\"id\":\"a9fd61adb1b4dfd3b18ac6b7f3291215e9e966ef2c72e"
        "cd8a2851dd1f039eac4\",\"kind\":1,\"pubkey\":\"0c9b1e9fef76c88b63f86645dc33bb7777f0259ec41e674b61f4fc553f"
        "6db0e0\",\"sig\":\"e2d82d680be293e14079e7b8b4eb9112c080244250a7ee0bee3a145d0f466dc8d2872bd46eeaf1f47920"
        "2cdff80bdfc74007cb04b9442b84cc02f9e3fe47e482\",\"tags\":[[\"t\",\"n575\"]]}";
    truncations(&nostr_event_type, &ev, LIT(nostr));
    static NostrShortEvent sev;
    truncations(&nostr_short_type, &sev, LIT(nostr));
    static ApiResponse api;
    truncations(&api_response_type, &api, api_sample_json, sizeof api_sample_json - 1);
}

int main(void) {
    od = jet_od_new(NULL);
    CHECK(od != NULL);
    if (!od) return CHECK_DONE("test_bind_members");
    jet_arena_init(&arena_a, NULL);
    jet_arena_init(&arena_b, NULL);

    test_positions();
    test_values();
    test_duplicates();
    test_structure();
    test_truncations();

    jet_arena_free(&arena_a);
    jet_arena_free(&arena_b);
    jet_od_free(od);
    free(text_a);
    free(text_b);
    return CHECK_DONE("test_bind_members");
}
