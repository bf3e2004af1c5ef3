/*
 * doc.c — read-only access to documents: root, sizes, indexed and keyed
 * lookup, deep equality.
 */
#include <string.h>

#include "internal.h"

jet_val *jet_doc_root(const jet_doc *doc) {
    return (doc && doc->val_count) ? doc->vals : NULL;
}

size_t jet_doc_read_size(const jet_doc *doc) { return doc ? doc->read_size : 0; }

size_t jet_doc_val_count(const jet_doc *doc) { return doc ? doc->val_count : 0; }

jet_val *jet_arr_get(const jet_val *arr, size_t idx) {
    size_t n = jet_arr_size(arr);
    if (idx >= n) return NULL;
    const jet_val *v = arr + 1;
    /* A container spanning exactly n + 1 slots holds only scalars. */
    if (arr->uni.ofs == n + 1) return (jet_val *)(v + idx);
    while (idx--) v = jet_next(v);
    return (jet_val *)v;
}

jet_val *jet_obj_getn(const jet_val *obj, const char *key, size_t key_len) {
    size_t n = jet_obj_size(obj);
    if (!key && key_len) return NULL;
    const jet_val *k = obj + 1;
    for (; n; n--) {
        if (jet_get_len(k) == key_len && memcmp(k->uni.str, key, key_len) == 0)
            return (jet_val *)(k + 1);
        k = jet_next(k + 1);
    }
    return NULL;
}

jet_val *jet_obj_get(const jet_val *obj, const char *key) {
    return key ? jet_obj_getn(obj, key, strlen(key)) : NULL;
}

bool jet_val_equal(const jet_val *a, const jet_val *b) {
    if (!a || !b) return a == b;
    /* Containers are compared slot by slot: both are laid out in document
     * order, so equal trees have equal slot sequences up to the string
     * pointers and the NOESC flag. */
    size_t n = jet_is_container(a) ? a->uni.ofs : 1;
    size_t m = jet_is_container(b) ? b->uni.ofs : 1;
    if (n != m) return false;
    for (size_t i = 0; i < n; i++) {
        const jet_val *x = a + i, *y = b + i;
        uint64_t tx = x->tag & ~JET_TAG_STR_NOESC, ty = y->tag & ~JET_TAG_STR_NOESC;
        if (tx != ty) return false;
        switch (jet_get_type(x)) {
        case JET_TYPE_STR:
        case JET_TYPE_RAW:
            if (memcmp(x->uni.str, y->uni.str, jet_get_len(x)) != 0) return false;
            break;
        case JET_TYPE_NUM:
            /* bitwise: -0.0 differs from 0.0, a NaN equals the same NaN */
            if (x->uni.u != y->uni.u) return false;
            break;
        case JET_TYPE_ARR:
        case JET_TYPE_OBJ:
            if (x->uni.ofs != y->uni.ofs) return false;
            break;
        default:
            break;
        }
    }
    return true;
}
