/* kitchen.h — a struct with a field of every jet_kind (section 13 of jet.h)
 * and its nested types: integers of every width, floats, the string kinds,
 * raw text, nested structs, arrays, arrays of arrays, fixed arrays, enums,
 * maps, unions in the three styles, a positional tuple, optional, nullable
 * and default members and an alias; with a sample document. Shared by
 * tests/test_bind.c and fuzz/fuzz_bind.c. */
#ifndef JET_TEST_KITCHEN_H
#define JET_TEST_KITCHEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"

/* Each user takes only some of the tables. */
#if defined(__GNUC__) || defined(__clang__)
#define KS static __attribute__((unused))
#else
#define KS static
#endif

typedef struct Inner {
    jet_str name;
    bool ok;
} Inner;
KS const jet_field inner_fields[] = {
    JET_F_STR(Inner, name, "name"),
    JET_F_BOOL(Inner, ok, "ok"),
};
KS jet_struct inner_type = JET_STRUCT(Inner, inner_fields);
KS const jet_field inner_elem = JET_ELEM(Inner, JET_K_STRUCT, &inner_type);
KS const jet_field i32_elem = JET_ELEM(int32_t, JET_K_INT, NULL);
KS const jet_field f64_elem = JET_ELEM(double, JET_K_F64, NULL);
KS const jet_field copy_elem = JET_ELEM(jet_str, JET_K_STR_COPY, NULL);

typedef struct IntRow {
    int32_t *v;
    size_t n;
} IntRow;
KS const jet_field row_elem = JET_ELEM_ARRAY(IntRow, v, n, i32_elem);

KS const char *const color_names[] = {"red", "green", "blue"};
KS const jet_enum color_enum = {color_names, 3};
KS const jet_field color_elem = JET_ELEM(uint8_t, JET_K_ENUM, &color_enum);

typedef struct Pair {
    jet_str key;
    int32_t value;
} Pair;
KS const jet_field pair_fields[] = {
    JET_F_STR(Pair, key, "key"),
    JET_F_INT(Pair, value, "value"),
};
KS jet_struct pair_type = JET_STRUCT(Pair, pair_fields);
typedef struct PairIn {
    jet_str key;
    Inner value;
} PairIn;
KS const jet_field pairin_fields[] = {
    JET_F_STR_COPY(PairIn, key, "key"),
    JET_F_STRUCT(PairIn, value, "value", inner_type),
};
KS jet_struct pairin_type = JET_STRUCT(PairIn, pairin_fields);

/* external union, with a variant without payload */
typedef struct Delivered {
    int64_t at;
} Delivered;
typedef struct Shipped {
    jet_str tracking, carrier;
} Shipped;
enum { ST_DELIVERED, ST_SHIPPED, ST_PENDING };
typedef struct Status {
    int32_t tag;
    union {
        Delivered d;
        Shipped s;
    } as;
} Status;
KS const jet_field delivered_fields[] = {JET_F_INT(Delivered, at, "at")};
KS jet_struct delivered_type = JET_STRUCT(Delivered, delivered_fields);
KS const jet_field shipped_fields[] = {
    JET_F_STR(Shipped, tracking, "tracking"),
    JET_F_STR(Shipped, carrier, "carrier"),
};
KS jet_struct shipped_type = JET_STRUCT(Shipped, shipped_fields);
KS const char *const status_names[] = {"Delivered", "Shipped", "Pending"};
KS jet_struct *const status_variants[] = {&delivered_type, &shipped_type, NULL};
KS const jet_union status_union = {JET_UNION_EXTERNAL, NULL, (uint32_t)offsetof(Status, tag),
                                       (uint32_t)offsetof(Status, as), 3, status_names,
                                       status_variants};

/* internal union: {"type": "circle", ...} */
typedef struct Circle {
    double r;
} Circle;
typedef struct Rect {
    double w, h;
} Rect;
enum { SH_CIRCLE, SH_RECT, SH_DOT };
typedef struct Shape {
    int32_t kind;
    union {
        Circle c;
        Rect r;
    } as;
} Shape;
KS const jet_field circle_fields[] = {JET_F_F64(Circle, r, "r")};
KS jet_struct circle_type = JET_STRUCT(Circle, circle_fields);
KS const jet_field rect_fields[] = {JET_F_F64(Rect, w, "w"), JET_F_F64(Rect, h, "h")};
KS jet_struct rect_type = JET_STRUCT(Rect, rect_fields);
KS const char *const shape_names[] = {"circle", "rect", "dot"};
KS jet_struct *const shape_variants[] = {&circle_type, &rect_type, NULL};
KS const jet_union shape_union = {JET_UNION_INTERNAL, "type", (uint32_t)offsetof(Shape, kind),
                                      (uint32_t)offsetof(Shape, as), 3, shape_names,
                                      shape_variants};

/* array union: ["move", 3, -4] */
typedef struct Move {
    int32_t x, y;
} Move;
typedef struct Say {
    jet_str text;
} Say;
enum { CMD_MOVE, CMD_SAY, CMD_STOP };
typedef struct Cmd {
    int32_t op;
    union {
        Move m;
        Say s;
    } as;
} Cmd;
KS const jet_field move_fields[] = {JET_F_INT(Move, x, NULL), JET_F_INT(Move, y, NULL)};
KS jet_struct move_type = JET_STRUCT_TUPLE(Move, move_fields);
KS const jet_field say_fields[] = {JET_F_STR(Say, text, NULL)};
KS jet_struct say_type = JET_STRUCT_TUPLE(Say, say_fields);
KS const char *const cmd_names[] = {"move", "say", "stop"};
KS jet_struct *const cmd_variants[] = {&move_type, &say_type, NULL};
KS const jet_union cmd_union = {JET_UNION_ARRAY, NULL, (uint32_t)offsetof(Cmd, op),
                                    (uint32_t)offsetof(Cmd, as), 3, cmd_names, cmd_variants};

/* positional tuple */
typedef struct Point {
    int32_t x, y;
    jet_str label;
} Point;
KS const jet_field point_fields[] = {
    JET_F_INT(Point, x, NULL),
    JET_F_INT(Point, y, NULL),
    JET_F_STR(Point, label, NULL),
};
KS jet_struct point_type = JET_STRUCT_TUPLE(Point, point_fields);

typedef struct Kitchen {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    jet_str s, sc;
    char fixed[8];
    jet_str raw;
    Inner inner;
    int32_t *nums;
    size_t num_count;
    jet_str *words;
    size_t word_count;
    Inner *inners;
    size_t inner_count;
    IntRow *rows;
    size_t row_count;
    int32_t triple[3];
    double upto[4];
    size_t upto_count;
    int32_t color;
    uint8_t *colors;
    size_t color_count;
    Pair *map;
    size_t map_count;
    PairIn *imap;
    size_t imap_count;
    Status status;
    Shape shape;
    Cmd cmd;
    Point pt;
    bool has_opt;
    int32_t opt;
    jet_str nick;
    bool has_nul;
    int64_t nul;
    jet_str note;
    int32_t retries;
    uint16_t port;
    double ratio;
    jet_str mode;
    jet_str user_name;
} Kitchen;

KS const jet_field kitchen_fields[] = {
    JET_F_BOOL(Kitchen, b, "b"),
    JET_F_INT(Kitchen, i8, "i8"),
    JET_F_INT(Kitchen, i16, "i16"),
    JET_F_INT(Kitchen, i32, "i32"),
    JET_F_INT(Kitchen, i64, "i64"),
    JET_F_UINT(Kitchen, u8, "u8"),
    JET_F_UINT(Kitchen, u16, "u16"),
    JET_F_UINT(Kitchen, u32, "u32"),
    JET_F_UINT(Kitchen, u64, "u64"),
    JET_F_F32(Kitchen, f32, "f32"),
    JET_F_F64(Kitchen, f64, "f64"),
    JET_F_STR(Kitchen, s, "s"),
    JET_F_STR_COPY(Kitchen, sc, "sc"),
    JET_F_STR_FIXED(Kitchen, fixed, "fixed"),
    JET_F_RAW(Kitchen, raw, "raw"),
    JET_F_STRUCT(Kitchen, inner, "inner", inner_type),
    JET_F_ARRAY(Kitchen, nums, num_count, "nums", i32_elem),
    JET_F_ARRAY(Kitchen, words, word_count, "words", copy_elem),
    JET_F_ARRAY(Kitchen, inners, inner_count, "inners", inner_elem),
    JET_F_ARRAY(Kitchen, rows, row_count, "rows", row_elem),
    JET_F_FIXED_ARRAY(Kitchen, triple, "triple", i32_elem),
    JET_F_FIXED_ARRAY_N(Kitchen, upto, upto_count, "upto", f64_elem),
    JET_F_ENUM(Kitchen, color, "color", color_enum),
    JET_F_ARRAY(Kitchen, colors, color_count, "colors", color_elem),
    JET_F_MAP(Kitchen, map, map_count, "map", pair_type),
    JET_F_MAP(Kitchen, imap, imap_count, "imap", pairin_type),
    JET_F_UNION(Kitchen, status, "status", status_union),
    JET_F_UNION(Kitchen, shape, "shape", shape_union),
    JET_F_UNION(Kitchen, cmd, "cmd", cmd_union),
    JET_F_STRUCT(Kitchen, pt, "pt", point_type),
    JET_F_OPT_HAS(Kitchen, opt, has_opt, "opt", JET_K_INT, NULL),
    JET_FIELD_F(Kitchen, nick, "nick", JET_K_STR, NULL, JET_FIELD_OPTIONAL),
    JET_FIELD_FULL(Kitchen, nul, "nul", NULL, JET_K_INT, JET_FIELD_NULLABLE, JET_NO_OFFSET,
                   (uint32_t)offsetof(Kitchen, has_nul), NULL),
    JET_FIELD_F(Kitchen, note, "note", JET_K_STR, NULL, JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE),
    JET_F_DEFAULT_INT(Kitchen, retries, "retries", -5),
    JET_F_DEFAULT_UINT(Kitchen, port, "port", 8080),
    JET_F_DEFAULT_F64(Kitchen, ratio, "ratio", 0.25),
    JET_F_DEFAULT_STR(Kitchen, mode, "mode", "fast"),
    JET_F_ALIAS(Kitchen, user_name, "userName", "user_name", JET_K_STR, NULL),
};
KS jet_struct kitchen_type = JET_STRUCT(Kitchen, kitchen_fields);

KS const char kitchen_json[] =
    "{\"b\":true,\"i8\":-128,\"i16\":32767,\"i32\":-2147483648,\"i64\":-9223372036854775808,"
    "\"u8\":255,\"u16\":65535,\"u32\":4294967295,\"u64\":18446744073709551615,"
    "\"f32\":1.00000005960464477550,\"f64\":-0.1,\"s\":\"a\\\"b\\\\c\\u00e9\",\"sc\":\"copy\\ttab\","
    "\"fixed\":\"1234567\",\"raw\":{\"x\": [1, 2.5, \"y\"]},\"inner\":{\"name\":\"in\",\"ok\":false},"
    "\"nums\":[1,-2,3],\"words\":[\"w1\",\"w\\n2\"],"
    "\"inners\":[{\"name\":\"a\",\"ok\":true},{\"ok\":false,\"name\":\"b\"}],"
    "\"rows\":[[1,2],[],[3]],\"triple\":[7,8,9],\"upto\":[0.5,1.5],\"color\":\"green\","
    "\"colors\":[\"blue\",\"red\",\"blue\"],\"map\":{\"k1\":1,\"k\\\"2\":-2},"
    "\"imap\":{\"x\\u0041\":{\"name\":\"n\",\"ok\":true}},"
    "\"status\":{\"Shipped\":{\"tracking\":\"1Z\",\"carrier\":\"UPS\"}},"
    "\"shape\":{\"r\":2.5,\"type\":\"circle\"},\"cmd\":[\"move\",3,-4],\"pt\":[1,2,\"p\"],"
    "\"opt\":5,\"nick\":\"nk\",\"nul\":null,\"note\":\"hello\",\"userName\":\"ada\"}";

#endif
