/* header_use.c — a translation unit that is both C (C99 on) and C++ (C++11
 * on) and uses every kind of thing jet.h offers: the inline accessors and
 * iterators, declared functions, the old names (section 14), and the
 * field-table macros (from C++20 on in C++: their union defaults are
 * designated initializers). tests/header_compile.sh compiles it with every
 * standard and with JET_NO_INLINE, warnings as errors. It is compiled only,
 * never run. */
#include "jet.h"

typedef struct Inner {
    int32_t n;
} Inner;

typedef struct Outer {
    bool b;
    int64_t i;
    uint32_t u;
    float f32;
    double f64;
    jet_str s;
    char fixed[8];
    int color;
    Inner inner;
    uint16_t *nums;
    size_t num_count;
    bool has_opt;
    int32_t opt;
    int64_t def_i;
    uint64_t def_u;
    double def_d;
    jet_str def_s;
} Outer;

#if !defined(__cplusplus) || __cplusplus >= 202002L
static const jet_field inner_fields[] = {
    JET_F_SINT(Inner, n, "n"),
};
static jet_struct inner_type = JET_STRUCT(Inner, inner_fields);
static const char *const color_names[] = {"red", "green"};
static const jet_enum color_enum = {color_names, 2};
static const jet_field u16_elem = JET_ELEM(uint16_t, JET_K_UINT, NULL);
static const jet_field outer_fields[] = {
    JET_F_BOOL(Outer, b, "b"),
    JET_F_INT(Outer, i, "i"),
    JET_F_UINT(Outer, u, "u"),
    JET_F_F32(Outer, f32, "f32"),
    JET_F_F64(Outer, f64, "f64"),
    JET_F_STR(Outer, s, "s"),
    JET_F_STR_FIXED(Outer, fixed, "fixed"),
    JET_F_ENUM(Outer, color, "color", color_enum),
    JET_F_STRUCT(Outer, inner, "inner", inner_type),
    JET_F_ARRAY(Outer, nums, num_count, "nums", u16_elem),
    JET_F_OPT_HAS(Outer, opt, has_opt, "opt", JET_K_SINT, NULL),
    JET_F_DEFAULT_SINT(Outer, def_i, "def_i", -1),
    JET_F_DEFAULT_UINT(Outer, def_u, "def_u", 2),
    JET_F_DEFAULT_F64(Outer, def_d, "def_d", 0.5),
    JET_F_DEFAULT_STR(Outer, def_s, "def_s", "x"),
    JET_F_DEFAULT_INT(Outer, def_i, "def_i_old", 3),
};
static jet_struct outer_type = JET_STRUCT(Outer, outer_fields);
static jet_struct outer_tuple = JET_STRUCT_TUPLE(Outer, outer_fields);

int header_use_typed(jet_od *od, const char *json, size_t len, Outer *out, jet_arena *arena);
int header_use_typed(jet_od *od, const char *json, size_t len, Outer *out, jet_arena *arena) {
    jet_error err;
    jet_buf buf;
    int ok = jet_struct_prepare(&outer_type) && jet_struct_prepare(&outer_tuple) &&
             jet_decode(od, json, len, &outer_type, out, arena, NULL, &err);
    jet_buf_init(&buf, NULL);
    ok = ok && jet_encode(&buf, &outer_type, out, JET_WRITE_PRETTY, &err);
    jet_buf_free(&buf);
    return ok;
}
#endif

double header_use_dom(const jet_doc *doc);
double header_use_dom(const jet_doc *doc) {
    const jet_val *root = jet_doc_root(doc);
    double sum = 0;
    jet_obj_iter oit = jet_obj_iter_init(root);
    for (jet_val *k; (k = jet_obj_iter_next(&oit)) != NULL;) {
        const jet_val *v = jet_obj_iter_value(k);
        if (jet_is_uint(v)) sum += (double)jet_get_uint(v);
        if (jet_is_sint(v)) sum += (double)jet_get_sint(v);
        if (jet_is_f64(v) || jet_is_real(v)) sum += jet_get_f64(v) + jet_get_real(v);
        if (jet_is_int(v) || jet_is_num(v)) sum += jet_get_num(v);
        if (jet_get_kind(v) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_REAL)) sum += 1;
        if (jet_is_str(v) || jet_is_raw(v)) sum += (double)jet_get_len(v) + (jet_get_str(v) != NULL);
        if (jet_equals_str(k, "a") || jet_equals_strn(k, "b", 1)) sum += 1;
        if (jet_is_true(v) || jet_is_false(v) || jet_is_bool(v) || jet_get_bool(v)) sum += 1;
        if (jet_is_null(v) || jet_get_type(v) == JET_TYPE_NULL) sum += 1;
        if (jet_is_container(v) || jet_is_obj(v)) sum += (double)jet_obj_size(v);
        if (jet_is_arr(v)) {
            jet_arr_iter ait = jet_arr_iter_init(v);
            for (jet_val *e; (e = jet_arr_iter_next(&ait)) != NULL;) sum += jet_get_num(e);
            sum += (double)jet_arr_size(v) + (jet_arr_first(v) != NULL) + (jet_next(v) != NULL);
        }
    }
    sum += (jet_arr_at(root, 0) != NULL) + (jet_arr_get(root, 0) != NULL);
    sum += (jet_obj_find(root, "a") != NULL) + (jet_obj_get(root, "a") != NULL);
    sum += (jet_obj_findn(root, "a", 1) != NULL) + (jet_obj_getn(root, "a", 1) != NULL);
    sum += (jet_ptr_find(root, "/a", NULL) != NULL) + (jet_ptr_get(root, "/a", NULL) != NULL);
    sum += (jet_ptr_findn(root, "/a", 2, NULL) != NULL) + (jet_ptr_getn(root, "/a", 2, NULL) != NULL);
    return sum;
}

int header_use_cursor(jet_od *od, const char *json, size_t len);
int header_use_cursor(jet_od *od, const char *json, size_t len) {
    jet_odv root, v;
    jet_od_iter it;
    uint64_t u = 0;
    int64_t i = 0;
    double d = 0;
    float f = 0;
    if (!jet_od_start(od, json, len, NULL, &root) || !jet_odv_obj(&root, &it)) return 0;
    if (jet_od_obj_require(&it, "u", &v)) jet_odv_get_uint(&v, &u);
    if (jet_od_obj_get(&it, "u2", &v)) jet_odv_get_u64(&v, &u);
    if (jet_od_obj_find(&it, "i", 1, &v) && !jet_odv_get_sint(&v, &i)) jet_odv_get_i64(&v, &i);
    if (jet_od_obj_find(&it, "d", 1, &v) && !jet_odv_get_f64(&v, &d)) jet_odv_get_double(&v, &d);
    if (jet_od_obj_find(&it, "f", 1, &v) && !jet_odv_get_f32(&v, &f)) jet_odv_get_float(&v, &f);
    return jet_od_finish(od) && u + (uint64_t)i + (uint64_t)d + (uint64_t)f > 0;
}
