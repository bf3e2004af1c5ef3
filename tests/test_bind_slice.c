/*
 * test_bind_slice — the typed layer's two options for bindings (bindings/d):
 * string members laid out as D slices (JET_FIELD_STR_SLICE: len, then ptr)
 * for decoding and encoding, in fields, array elements, map keys, defaults
 * and raw members; JET_FIELD_PRESENCE_INVERTED (D's Nullable);
 * JET_UNION_TAG_U8 (D's SumType); and
 * JET_READ_STABLE_STRINGS, which puts strings that had
 * escapes into the arena instead of the cursor's scratch.
 */
#include <stdint.h>
#include <string.h>

#include <jet.h>

#include "check.h"

typedef struct Slice {
    size_t len;
    const char *ptr;
} Slice;

typedef struct Pair {
    Slice key;
    int32_t value;
} Pair;

typedef struct Rec {
    Slice name;      /* JET_K_STR */
    Slice copy;      /* JET_K_STR_COPY */
    Slice raw;       /* JET_K_RAW */
    Slice dflt;      /* default, absent from the input */
    Slice opt;       /* optional, absent: ptr stays NULL, not written */
    Slice *tags;     /* array of slices */
    size_t tag_count;
    Pair *pairs;     /* map with slice keys */
    size_t pair_count;
} Rec;

#define SL(T, m, key, kind, flags) \
    JET_FIELD_FULL(T, m, key, NULL, kind, (flags) | JET_FIELD_STR_SLICE, JET_NO_OFFSET, JET_NO_OFFSET, NULL)

static const jet_field pair_fields[] = {
    SL(Pair, key, NULL, JET_K_STR, 0),
    JET_F_SINT(Pair, value, NULL),
};
static jet_struct pair_type = JET_STRUCT(Pair, pair_fields);
static const jet_field tag_elem = {NULL, NULL, JET_K_STR, JET_FIELD_STR_SLICE, 0, (uint32_t)sizeof(Slice),
                                   JET_NO_OFFSET, JET_NO_OFFSET, NULL, {0}};
static const jet_field rec_fields[] = {
    SL(Rec, name, "name", JET_K_STR, 0),
    SL(Rec, copy, "copy", JET_K_STR_COPY, 0),
    SL(Rec, raw, "raw", JET_K_RAW, 0),
    {"dflt", NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_DEFAULT | JET_FIELD_STR_SLICE,
     (uint32_t)offsetof(Rec, dflt), (uint32_t)sizeof(Slice), JET_NO_OFFSET, JET_NO_OFFSET, NULL,
     {.s = "def"}},
    SL(Rec, opt, "opt", JET_K_STR, JET_FIELD_OPTIONAL),
    JET_F_ARRAY(Rec, tags, tag_count, "tags", tag_elem),
    JET_F_MAP(Rec, pairs, pair_count, "pairs", pair_type),
};
static jet_struct rec_type = JET_STRUCT(Rec, rec_fields);

/* D's Nullable!int: the value, then `_isNull` (true when absent). */
typedef struct NullableInt {
    int32_t value;
    bool is_null;
} NullableInt;
typedef struct Opt {
    NullableInt a; /* optional and nullable */
    NullableInt b; /* optional only: absent is left out when encoding */
} Opt;
static const jet_field opt_fields[] = {
    JET_FIELD_FULL(Opt, a.value, "a", NULL, JET_K_SINT,
                   JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE | JET_FIELD_PRESENCE_INVERTED, JET_NO_OFFSET,
                   (uint32_t)offsetof(Opt, a.is_null), NULL),
    JET_FIELD_FULL(Opt, b.value, "b", NULL, JET_K_SINT, JET_FIELD_OPTIONAL | JET_FIELD_PRESENCE_INVERTED,
                   JET_NO_OFFSET, (uint32_t)offsetof(Opt, b.is_null), NULL),
};
static jet_struct opt_type = JET_STRUCT(Opt, opt_fields);

/* D's SumType!(Circle, Square): the payloads, then a one-byte tag, then
 * padding (here `guard`). */
typedef struct Circle { double r; } Circle;
typedef struct Square { double side; } Square;
typedef struct Shape {
    union { Circle circle; Square square; } as;
    uint8_t tag;
    uint8_t guard[7];
} Shape;
typedef struct Drawing { Shape shape; } Drawing;
static const jet_field circle_fields[] = {JET_F_F64(Circle, r, "r")};
static jet_struct circle_type = JET_STRUCT(Circle, circle_fields);
static const jet_field square_fields[] = {JET_F_F64(Square, side, "side")};
static jet_struct square_type = JET_STRUCT(Square, square_fields);
static const char *const shape_names[] = {"circle", "square"};
static jet_struct *const shape_variants[] = {&circle_type, &square_type};
static const jet_union shape_union = {JET_UNION_INTERNAL | JET_UNION_TAG_U8, "kind",
                                      (uint32_t)offsetof(Shape, tag), 0, 2, shape_names, shape_variants};
static const jet_field drawing_fields[] = {JET_F_UNION(Drawing, shape, "shape", shape_union)};
static jet_struct drawing_type = JET_STRUCT(Drawing, drawing_fields);

static bool slice_is(Slice s, const char *want) {
    return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

static bool inside(const char *p, const char *buf, size_t len) {
    return (uintptr_t)p >= (uintptr_t)buf && (uintptr_t)p <= (uintptr_t)buf + len;
}

int main(void) {
    static const char json[] =
        "{\"name\":\"a\\nb\",\"copy\":\"cc\",\"raw\":[1, 2],\"tags\":[\"x\",\"y\\u0041\"],"
        "\"pairs\":{\"k\\u00e9\":1,\"j\":2}}";
    const size_t len = sizeof json - 1;
    jet_od *od = jet_od_new(NULL);
    jet_arena arena;
    jet_arena_init(&arena, NULL);
    jet_error err;
    Rec r;

    /* Slices, without stable strings: escaped strings in the scratch. */
    CHECK(jet_decode(od, json, len, &rec_type, &r, &arena, NULL, &err));
    CHECK(slice_is(r.name, "a\nb"));
    CHECK(!inside(r.name.ptr, json, len));
    CHECK(slice_is(r.copy, "cc") && !inside(r.copy.ptr, json, len));
    CHECK(slice_is(r.raw, "[1, 2]") && inside(r.raw.ptr, json, len));
    CHECK(slice_is(r.dflt, "def"));
    CHECK(r.opt.ptr == NULL && r.opt.len == 0);
    CHECK(r.tag_count == 2 && slice_is(r.tags[0], "x") && slice_is(r.tags[1], "yA"));
    CHECK(inside(r.tags[0].ptr, json, len));
    CHECK(r.pair_count == 2 && slice_is(r.pairs[0].key, "k\xc3\xa9") && r.pairs[0].value == 1 &&
          slice_is(r.pairs[1].key, "j") && r.pairs[1].value == 2);

    /* Encoding reads the same layout. */
    jet_buf out;
    jet_buf_init(&out, NULL);
    CHECK(jet_encode(&out, &rec_type, &r, 0, &err));
    CHECK_MSG(out.data && strcmp(out.data, "{\"name\":\"a\\nb\",\"copy\":\"cc\",\"raw\":[1, 2],"
                                           "\"dflt\":\"def\",\"tags\":[\"x\",\"yA\"],"
                                           "\"pairs\":{\"k\xc3\xa9\":1,\"j\":2}}") == 0,
              "%s", out.data ? out.data : "(null)");

    /* Stable strings: every escaped string leaves the scratch for the arena
     * (the scratch is reused by the next document); unescaped ones stay
     * views into the input. */
    jet_read_opts opts = {JET_READ_STABLE_STRINGS, 0, 0};
    jet_arena_reset(&arena);
    CHECK(jet_decode(od, json, len, &rec_type, &r, &arena, &opts, &err));
    Rec first = r;
    static const char other[] = "{\"name\":\"zz\\tzz\",\"copy\":\"\",\"raw\":0,\"tags\":[\"\\u0042\"],\"pairs\":{}}";
    Rec r2;
    CHECK(jet_decode(od, other, sizeof other - 1, &rec_type, &r2, &arena, &opts, &err));
    CHECK(slice_is(first.name, "a\nb") && !inside(first.name.ptr, json, len));
    CHECK(slice_is(first.tags[1], "yA") && slice_is(first.tags[0], "x") &&
          inside(first.tags[0].ptr, json, len));
    CHECK(slice_is(first.pairs[0].key, "k\xc3\xa9"));
    CHECK(slice_is(r2.name, "zz\tzz") && r2.tag_count == 1 && slice_is(r2.tags[0], "B"));

    /* Comments blanked in the cursor's copy: with stable strings, every
     * string (views included) is copied out of that copy. */
    static const char commented[] = "{\"name\":\"nm\",/* c */\"copy\":\"\",\"raw\":[3],\"tags\":[\"t\"],\"pairs\":{\"k\":1}}";
    jet_read_opts copts = {JET_READ_STABLE_STRINGS | JET_READ_ALLOW_COMMENTS, 0, 0};
    CHECK(jet_decode(od, commented, sizeof commented - 1, &rec_type, &r, &arena, &copts, &err));
    Rec kept = r;
    static const char overwrite[] = "{\"name\":\"ZZ\",/* c */\"copy\":\"\",\"raw\":[4],\"tags\":[\"U\"],\"pairs\":{\"Q\":1}}";
    CHECK(jet_decode(od, overwrite, sizeof overwrite - 1, &rec_type, &r, &arena, &copts, &err));
    CHECK(slice_is(kept.name, "nm") && slice_is(kept.raw, "[3]") && kept.tag_count == 1 &&
          slice_is(kept.tags[0], "t") && slice_is(kept.pairs[0].key, "k"));

    /* Inverted presence: absent and null set the flag, a value clears it. */
    Opt o;
    CHECK(jet_decode(od, "{}", 2, &opt_type, &o, NULL, NULL, &err));
    CHECK(o.a.is_null && o.b.is_null && o.a.value == 0);
    CHECK(jet_decode(od, "{\"a\":null,\"b\":7}", 16, &opt_type, &o, NULL, NULL, &err));
    CHECK(o.a.is_null && !o.b.is_null && o.b.value == 7);
    CHECK(jet_decode(od, "{\"a\":5}", 7, &opt_type, &o, NULL, NULL, &err));
    CHECK(!o.a.is_null && o.a.value == 5 && o.b.is_null);
    out.len = 0;
    CHECK(jet_encode(&out, &opt_type, &o, 0, &err) && strcmp(out.data, "{\"a\":5}") == 0);
    o.a.is_null = true;
    o.b.is_null = false;
    o.b.value = 7;
    out.len = 0;
    CHECK(jet_encode(&out, &opt_type, &o, 0, &err) && strcmp(out.data, "{\"a\":null,\"b\":7}") == 0);

    /* A one-byte union tag (JET_UNION_TAG_U8), read and written as such. */
    static const char shape_json[] = "{\"shape\":{\"kind\":\"square\",\"side\":2.5}}";
    Drawing dr;
    CHECK(jet_decode(od, shape_json, sizeof shape_json - 1, &drawing_type, &dr, NULL, NULL, &err));
    CHECK(dr.shape.tag == 1 && dr.shape.as.square.side == 2.5);
    memset(dr.shape.guard, 0xAB, sizeof dr.shape.guard);
    out.len = 0;
    CHECK(jet_encode(&out, &drawing_type, &dr, 0, &err) && strcmp(out.data, shape_json) == 0);
    static const char circle_json[] = "{\"shape\":{\"r\":1.0,\"kind\":\"circle\"}}";
    CHECK(jet_decode(od, circle_json, sizeof circle_json - 1, &drawing_type, &dr, NULL, NULL, &err));
    CHECK(dr.shape.tag == 0 && dr.shape.as.circle.r == 1.0);

    jet_buf_free(&out);
    jet_arena_free(&arena);
    jet_od_free(od);
    return CHECK_DONE("test_bind_slice");
}
