/* accessor_probe.h — calls every accessor of jet.h on one value and records
 * the answers. test_accessors.c includes it with the inline accessors,
 * accessors_extern.c with JET_NO_INLINE (the library's exported copies), and
 * compares the two records value by value. */
#ifndef JET_TEST_ACCESSOR_PROBE_H
#define JET_TEST_ACCESSOR_PROBE_H

#include <string.h>

#include "jet.h"

typedef struct probe {
    int type;
    unsigned kind;
    size_t len, arr_size, obj_size;
    bool is[15];
    bool b, eq, eqn;
    uint64_t u;
    int64_t i;
    double f64, num;
    const char *str;
    const jet_val *next, *first, *iter[4], *keys[4], *vals[4];
} probe;

static inline void probe_value(const jet_val *v, probe *p) {
    memset(p, 0, sizeof *p);
    p->type = (int)jet_get_type(v);
    p->kind = jet_get_kind(v);
    p->len = jet_get_len(v);
    p->arr_size = jet_arr_size(v);
    p->obj_size = jet_obj_size(v);
    p->is[0] = jet_is_null(v), p->is[1] = jet_is_bool(v), p->is[2] = jet_is_true(v);
    p->is[3] = jet_is_false(v), p->is[4] = jet_is_num(v), p->is[5] = jet_is_uint(v);
    p->is[6] = jet_is_sint(v), p->is[7] = jet_is_int(v), p->is[8] = jet_is_f64(v);
    p->is[9] = jet_is_str(v), p->is[10] = jet_is_raw(v), p->is[11] = jet_is_arr(v);
    p->is[12] = jet_is_obj(v), p->is[13] = jet_is_container(v);
    p->b = jet_get_bool(v);
    p->u = jet_get_uint(v);
    p->i = jet_get_sint(v);
    p->f64 = jet_get_f64(v);
    p->num = jet_get_num(v);
    p->str = jet_get_str(v);
    p->eq = jet_equals_str(v, "é");
    p->eqn = jet_equals_strn(v, "ab", 2);
    if (!v) return;
    p->next = jet_next(v);
    p->first = jet_arr_first(v);
    if (jet_is_arr(v)) {
        jet_arr_iter it = jet_arr_iter_init(v);
        for (int n = 0; n < 4; n++) p->iter[n] = jet_arr_iter_next(&it);
    }
    if (jet_is_obj(v)) {
        jet_obj_iter it = jet_obj_iter_init(v);
        for (int n = 0; n < 4; n++) {
            p->keys[n] = jet_obj_iter_next(&it);
            if (p->keys[n]) p->vals[n] = jet_obj_iter_value(p->keys[n]);
        }
    }
}

#endif
