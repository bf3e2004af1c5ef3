/*
 * mut.c — mutable documents (jet.h section 14): values from the document's
 * arena, arrays and objects as circular singly-linked lists (see mut.h),
 * deep copies to and from the immutable form, equality, writing, and JSON
 * Pointer edits.
 *
 * A container points at its last node, so appending and prepending are
 * O(1); everything by index or key walks the list from the first node.
 * The recursive walks (copies, equality, flattening) stop at
 * JET_MUT_MAX_DEPTH levels, which also ends a cycle made by inserting a
 * container into itself.
 */
#include <string.h>

#include "emit.h"
#include "errors.h"
#include "mut.h"

/* ---------------------------------------------------------------------- */
/* Document                                                                 */
/* ---------------------------------------------------------------------- */

jet_mut_doc *jet_mut_doc_new(const jet_alloc *alloc) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_mut_doc *doc = (jet_mut_doc *)jet__malloc(a, sizeof *doc);
    if (!doc) return NULL;
    jet_arena_init(&doc->arena, a);
    doc->root = NULL;
    return doc;
}

void jet_mut_doc_free(jet_mut_doc *doc) {
    if (!doc) return;
    jet_alloc a = doc->arena.alloc;
    jet_arena_free(&doc->arena);
    jet__free(&a, doc);
}

jet_mut_val *jet_mut_doc_root(const jet_mut_doc *doc) { return doc ? doc->root : NULL; }

void jet_mut_doc_set_root(jet_mut_doc *doc, jet_mut_val *root) {
    if (doc) doc->root = root;
}

static jet_mut_val *mut_node(jet_mut_doc *doc, uint64_t tag) {
    if (!doc) return NULL;
    jet_mut_val *v = (jet_mut_val *)jet_arena_alloc(&doc->arena, sizeof *v, _Alignof(jet_mut_val));
    if (!v) return NULL;
    v->tag = tag;
    v->uni.u = 0;
    v->next = NULL;
    return v;
}

/* `len` bytes copied into the arena with a NUL after them. */
static const char *mut_copy_bytes(jet_mut_doc *doc, const char *s, size_t len) {
    if (len == SIZE_MAX) return NULL;
    char *p = (char *)jet_arena_alloc(&doc->arena, len + 1, 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* ---------------------------------------------------------------------- */
/* Creating values                                                          */
/* ---------------------------------------------------------------------- */

jet_mut_val *jet_mut_null(jet_mut_doc *doc) { return mut_node(doc, JET_TYPE_NULL); }

jet_mut_val *jet_mut_bool(jet_mut_doc *doc, bool b) {
    return mut_node(doc, JET__MUT_TAG(JET_TYPE_BOOL, b ? JET_SUBTYPE_TRUE : JET_SUBTYPE_FALSE, 0));
}

jet_mut_val *jet_mut_uint(jet_mut_doc *doc, uint64_t u) {
    jet_mut_val *v = mut_node(doc, JET__MUT_TAG(JET_TYPE_NUM, JET_SUBTYPE_UINT, 0));
    if (v) v->uni.u = u;
    return v;
}

jet_mut_val *jet_mut_sint(jet_mut_doc *doc, int64_t i) {
    /* As the reader: a non-negative integer is a UINT, so that equal
     * numbers have equal tags whichever way they were made. */
    if (i >= 0) return jet_mut_uint(doc, (uint64_t)i);
    jet_mut_val *v = mut_node(doc, JET__MUT_TAG(JET_TYPE_NUM, JET_SUBTYPE_SINT, 0));
    if (v) v->uni.i = i;
    return v;
}

jet_mut_val *jet_mut_f64(jet_mut_doc *doc, double d) {
    jet_mut_val *v = mut_node(doc, JET__MUT_TAG(JET_TYPE_NUM, JET_SUBTYPE_F64, 0));
    if (v) v->uni.d = d;
    return v;
}

static jet_mut_val *mut_text(jet_mut_doc *doc, jet_type type, const char *s, size_t len, bool copy) {
    if (!doc || (!s && len) || len > (SIZE_MAX >> JET_TAG_LEN_SHIFT)) return NULL;
    const char *bytes = s ? s : "";
    if (copy && !(bytes = mut_copy_bytes(doc, bytes, len))) return NULL;
    jet_mut_val *v = mut_node(doc, JET__MUT_TAG(type, 0, len));
    if (v) v->uni.str = bytes;
    return v;
}

jet_mut_val *jet_mut_raw(jet_mut_doc *doc, const char *num, size_t len) {
    return mut_text(doc, JET_TYPE_RAW, num, len, true);
}
jet_mut_val *jet_mut_strn(jet_mut_doc *doc, const char *s, size_t len) {
    return mut_text(doc, JET_TYPE_STR, s, len, true);
}
jet_mut_val *jet_mut_str(jet_mut_doc *doc, const char *s) {
    return s ? jet_mut_strn(doc, s, strlen(s)) : NULL;
}
jet_mut_val *jet_mut_strn_ref(jet_mut_doc *doc, const char *s, size_t len) {
    return mut_text(doc, JET_TYPE_STR, s, len, false);
}
jet_mut_val *jet_mut_str_ref(jet_mut_doc *doc, const char *s) {
    return s ? jet_mut_strn_ref(doc, s, strlen(s)) : NULL;
}
jet_mut_val *jet_mut_arr(jet_mut_doc *doc) { return mut_node(doc, JET_TYPE_ARR); }
jet_mut_val *jet_mut_obj(jet_mut_doc *doc) { return mut_node(doc, JET_TYPE_OBJ); }

/* ---------------------------------------------------------------------- */
/* Reading values                                                           */
/* ---------------------------------------------------------------------- */

jet_type jet_mut_get_type(const jet_mut_val *v) { return v ? JET__MUT_TYPE(v) : JET_TYPE_NONE; }
uint8_t jet_mut_get_kind(const jet_mut_val *v) { return v ? (uint8_t)(v->tag & JET_TAG_KIND_MASK) : 0; }
size_t jet_mut_get_len(const jet_mut_val *v) { return v ? JET__MUT_LEN(v) : 0; }

bool jet_mut_get_bool(const jet_mut_val *v) {
    return jet_mut_get_kind(v) == JET_KIND_OF(JET_TYPE_BOOL, JET_SUBTYPE_TRUE);
}

static bool mut_is_int(const jet_mut_val *v) {
    uint8_t k = jet_mut_get_kind(v);
    return k == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_UINT) ||
           k == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_SINT);
}

uint64_t jet_mut_get_uint(const jet_mut_val *v) { return mut_is_int(v) ? v->uni.u : 0; }
int64_t jet_mut_get_sint(const jet_mut_val *v) { return mut_is_int(v) ? v->uni.i : 0; }

double jet_mut_get_f64(const jet_mut_val *v) {
    return jet_mut_get_kind(v) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_F64) ? v->uni.d : 0.0;
}

double jet_mut_get_num(const jet_mut_val *v) {
    switch (jet_mut_get_kind(v)) {
    case JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_UINT): return (double)v->uni.u;
    case JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_SINT): return (double)v->uni.i;
    case JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_F64): return v->uni.d;
    default: return 0.0;
    }
}

const char *jet_mut_get_str(const jet_mut_val *v) {
    jet_type t = jet_mut_get_type(v);
    return (t == JET_TYPE_STR || t == JET_TYPE_RAW) ? v->uni.str : NULL;
}

bool jet_mut_equals_strn(const jet_mut_val *v, const char *s, size_t len) {
    return jet_mut_get_type(v) == JET_TYPE_STR && JET__MUT_LEN(v) == len &&
           (len == 0 || memcmp(v->uni.str, s, len) == 0);
}

/* ---------------------------------------------------------------------- */
/* Arrays                                                                   */
/* ---------------------------------------------------------------------- */

static void mut_set_len(jet_mut_val *c, size_t n) {
    c->tag = (c->tag & ((1u << JET_TAG_LEN_SHIFT) - 1)) | ((uint64_t)n << JET_TAG_LEN_SHIFT);
}

static bool mut_is_arr(const jet_mut_val *v) { return jet_mut_get_type(v) == JET_TYPE_ARR; }
static bool mut_is_obj(const jet_mut_val *v) { return jet_mut_get_type(v) == JET_TYPE_OBJ; }

size_t jet_mut_arr_size(const jet_mut_val *arr) { return mut_is_arr(arr) ? JET__MUT_LEN(arr) : 0; }

/* The element before index `idx` (the last element for idx 0); the array
 * is not empty and idx < size. */
static jet_mut_val *arr_before(const jet_mut_val *arr, size_t idx) {
    jet_mut_val *p = arr->uni.last;
    while (idx--) p = p->next;
    return p;
}

jet_mut_val *jet_mut_arr_at(const jet_mut_val *arr, size_t idx) {
    size_t n = jet_mut_arr_size(arr);
    if (idx >= n) return NULL;
    if (idx == n - 1) return arr->uni.last;
    return arr_before(arr, idx)->next;
}

/* Links `v` after `prev` (NULL: as the first element); `last` moves when v
 * goes after the last element. */
static void arr_link(jet_mut_val *arr, jet_mut_val *prev, jet_mut_val *v, bool becomes_last) {
    jet_mut_val *last = arr->uni.last;
    if (!last) {
        v->next = v;
        arr->uni.last = v;
    } else {
        if (!prev) prev = last;
        v->next = prev->next;
        prev->next = v;
        if (becomes_last) arr->uni.last = v;
    }
    mut_set_len(arr, JET__MUT_LEN(arr) + 1);
}

bool jet_mut_arr_insert(jet_mut_val *arr, jet_mut_val *val, size_t idx) {
    size_t n = jet_mut_arr_size(arr);
    if (!mut_is_arr(arr) || !val || idx > n) return false;
    if (idx == n) arr_link(arr, NULL, val, true);
    else arr_link(arr, idx ? arr_before(arr, idx) : NULL, val, false);
    return true;
}

bool jet_mut_arr_append(jet_mut_val *arr, jet_mut_val *val) {
    if (!mut_is_arr(arr) || !val) return false;
    arr_link(arr, NULL, val, true);
    return true;
}

bool jet_mut_arr_prepend(jet_mut_val *arr, jet_mut_val *val) {
    if (!mut_is_arr(arr) || !val) return false;
    arr_link(arr, NULL, val, false);
    return true;
}

jet_mut_val *jet_mut_arr_set(jet_mut_val *arr, size_t idx, jet_mut_val *val) {
    size_t n = jet_mut_arr_size(arr);
    if (idx >= n || !val) return NULL;
    jet_mut_val *prev = arr_before(arr, idx), *old = prev->next;
    if (old == val) return old; /* already there: relinking would cut the list */
    if (old == prev) {
        val->next = val; /* the only element */
    } else {
        val->next = old->next;
        prev->next = val;
    }
    if (arr->uni.last == old) arr->uni.last = val;
    old->next = NULL;
    return old;
}

jet_mut_val *jet_mut_arr_remove(jet_mut_val *arr, size_t idx) {
    size_t n = jet_mut_arr_size(arr);
    if (idx >= n) return NULL;
    jet_mut_val *prev = arr_before(arr, idx), *old = prev->next;
    if (n == 1) {
        arr->uni.last = NULL;
    } else {
        prev->next = old->next;
        if (arr->uni.last == old) arr->uni.last = prev;
    }
    mut_set_len(arr, n - 1);
    old->next = NULL;
    return old;
}

jet_mut_arr_iter jet_mut_arr_iter_init(const jet_mut_val *arr) {
    jet_mut_arr_iter it;
    it.left = jet_mut_arr_size(arr);
    it.cur = it.left ? arr->uni.last->next : NULL;
    return it;
}

jet_mut_val *jet_mut_arr_iter_next(jet_mut_arr_iter *it) {
    if (!it || !it->left) return NULL;
    jet_mut_val *v = it->cur;
    it->left--;
    it->cur = v->next;
    return v;
}

/* ---------------------------------------------------------------------- */
/* Objects                                                                  */
/* ---------------------------------------------------------------------- */

size_t jet_mut_obj_size(const jet_mut_val *obj) { return mut_is_obj(obj) ? JET__MUT_LEN(obj) : 0; }

/* The first member whose key is key[0..len): its key node, and in *prev_key
 * the key before it (the last key when it is the first). NULL if none. */
static jet_mut_val *obj_find_key(const jet_mut_val *obj, const char *key, size_t len,
                                 jet_mut_val **prev_key) {
    size_t n = jet_mut_obj_size(obj);
    if (!n || (!key && len)) return NULL;
    jet_mut_val *pk = obj->uni.last;
    for (; n; n--) {
        jet_mut_val *k = pk->next->next;
        if (JET__MUT_LEN(k) == len && (len == 0 || memcmp(k->uni.str, key, len) == 0)) {
            if (prev_key) *prev_key = pk;
            return k;
        }
        pk = k;
    }
    return NULL;
}

jet_mut_val *jet_mut_obj_findn(const jet_mut_val *obj, const char *key, size_t len) {
    jet_mut_val *k = obj_find_key(obj, key, len, NULL);
    return k ? k->next : NULL;
}

jet_mut_val *jet_mut_obj_find(const jet_mut_val *obj, const char *key) {
    return key ? jet_mut_obj_findn(obj, key, strlen(key)) : NULL;
}

static bool obj_add_ok(const jet_mut_val *obj, const jet_mut_val *key, const jet_mut_val *val) {
    return mut_is_obj(obj) && jet_mut_get_type(key) == JET_TYPE_STR && val;
}

/* Appends key/val as the last member. */
static void obj_link_last(jet_mut_val *obj, jet_mut_val *key, jet_mut_val *val) {
    jet_mut_val *last = obj->uni.last;
    key->next = val;
    if (!last) {
        val->next = key;
    } else {
        jet_mut_val *last_val = last->next;
        val->next = last_val->next; /* the first key */
        last_val->next = key;
    }
    obj->uni.last = key;
    mut_set_len(obj, JET__MUT_LEN(obj) + 1);
}

bool jet_mut_obj_add(jet_mut_val *obj, jet_mut_val *key, jet_mut_val *val) {
    if (!obj_add_ok(obj, key, val)) return false;
    obj_link_last(obj, key, val);
    return true;
}

bool jet_mut_obj_addn(jet_mut_doc *doc, jet_mut_val *obj, const char *key, size_t len,
                      jet_mut_val *val) {
    if (!mut_is_obj(obj) || !val) return false;
    return jet_mut_obj_add(obj, jet_mut_strn(doc, key, len), val);
}

/* Replaces the value of member key `k` by `val`. */
static jet_mut_val *obj_replace_val(jet_mut_val *k, jet_mut_val *val) {
    jet_mut_val *old = k->next;
    if (old == val) return old; /* already there: relinking would cut the list */
    val->next = old->next;
    k->next = val;
    old->next = NULL;
    return old;
}

bool jet_mut_obj_set(jet_mut_val *obj, jet_mut_val *key, jet_mut_val *val) {
    if (!obj_add_ok(obj, key, val)) return false;
    jet_mut_val *k = obj_find_key(obj, key->uni.str, JET__MUT_LEN(key), NULL);
    if (k) obj_replace_val(k, val);
    else obj_link_last(obj, key, val);
    return true;
}

bool jet_mut_obj_setn(jet_mut_doc *doc, jet_mut_val *obj, const char *key, size_t len,
                      jet_mut_val *val) {
    if (!mut_is_obj(obj) || !val || (!key && len)) return false;
    jet_mut_val *k = obj_find_key(obj, key, len, NULL);
    if (k) {
        obj_replace_val(k, val);
        return true;
    }
    return jet_mut_obj_add(obj, jet_mut_strn(doc, key, len), val);
}

/* Unlinks member key `k` whose previous key is `pk`; returns its value. */
static jet_mut_val *obj_unlink(jet_mut_val *obj, jet_mut_val *pk, jet_mut_val *k) {
    jet_mut_val *v = k->next;
    size_t n = JET__MUT_LEN(obj);
    if (n == 1) {
        obj->uni.last = NULL;
    } else {
        pk->next->next = v->next; /* previous value -> next key */
        if (obj->uni.last == k) obj->uni.last = pk;
    }
    mut_set_len(obj, n - 1);
    k->next = NULL;
    v->next = NULL;
    return v;
}

jet_mut_val *jet_mut_obj_removen(jet_mut_val *obj, const char *key, size_t len) {
    jet_mut_val *pk = NULL, *k = obj_find_key(obj, key, len, &pk);
    return k ? obj_unlink(obj, pk, k) : NULL;
}

jet_mut_val *jet_mut_obj_remove(jet_mut_val *obj, const char *key) {
    return key ? jet_mut_obj_removen(obj, key, strlen(key)) : NULL;
}

bool jet_mut_obj_renamen(jet_mut_doc *doc, jet_mut_val *obj, const char *key, size_t len,
                         const char *new_key, size_t new_len) {
    jet_mut_val *k = obj_find_key(obj, key, len, NULL);
    if (!k || (!new_key && new_len) || !doc) return false;
    const char *s = mut_copy_bytes(doc, new_key ? new_key : "", new_len);
    if (!s) return false;
    k->uni.str = s;
    mut_set_len(k, new_len);
    return true;
}

jet_mut_obj_iter jet_mut_obj_iter_init(const jet_mut_val *obj) {
    jet_mut_obj_iter it;
    it.left = jet_mut_obj_size(obj);
    it.cur = it.left ? obj->uni.last->next->next : NULL;
    return it;
}

jet_mut_val *jet_mut_obj_iter_next(jet_mut_obj_iter *it) {
    if (!it || !it->left) return NULL;
    jet_mut_val *k = it->cur;
    it->left--;
    it->cur = k->next->next;
    return k;
}

jet_mut_val *jet_mut_obj_iter_value(const jet_mut_val *key) { return key ? key->next : NULL; }

/* ---------------------------------------------------------------------- */
/* Copies                                                                   */
/* ---------------------------------------------------------------------- */

static jet_mut_val *mut_copy_rec(jet_mut_doc *doc, const jet_mut_val *v, bool share,
                                 unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH) return NULL;
    jet_type t = JET__MUT_TYPE(v);
    if (t == JET_TYPE_STR || t == JET_TYPE_RAW) {
        if (share) {
            jet_mut_val *c = mut_node(doc, v->tag);
            if (c) c->uni.str = v->uni.str;
            return c;
        }
        return mut_text(doc, t, v->uni.str, JET__MUT_LEN(v), true);
    }
    jet_mut_val *c = mut_node(doc, (t == JET_TYPE_ARR || t == JET_TYPE_OBJ)
                                       ? (v->tag & JET_TAG_KIND_MASK) : v->tag);
    if (!c) return NULL;
    if (t == JET_TYPE_ARR) {
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val *e; (e = jet_mut_arr_iter_next(&it));) {
            jet_mut_val *ce = mut_copy_rec(doc, e, share, depth + 1);
            if (!ce) return NULL;
            arr_link(c, NULL, ce, true);
        }
    } else if (t == JET_TYPE_OBJ) {
        jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
            jet_mut_val *ck = mut_copy_rec(doc, k, share, depth + 1);
            jet_mut_val *cv = ck ? mut_copy_rec(doc, k->next, share, depth + 1) : NULL;
            if (!cv) return NULL;
            obj_link_last(c, ck, cv);
        }
    } else {
        c->uni.u = v->uni.u;
    }
    return c;
}

jet_mut_val *jet__mut_copy(jet_mut_doc *doc, const jet_mut_val *v, bool share_strings) {
    return (doc && v) ? mut_copy_rec(doc, v, share_strings, 0) : NULL;
}

jet_mut_val *jet_mut_val_copy(jet_mut_doc *doc, const jet_mut_val *v) {
    return jet__mut_copy(doc, v, false);
}

jet_mut_doc *jet_mut_doc_copy(const jet_mut_doc *doc, const jet_alloc *alloc) {
    if (!doc) return NULL;
    jet_mut_doc *c = jet_mut_doc_new(alloc);
    if (!c) return NULL;
    if (doc->root && !(c->root = jet__mut_copy(c, doc->root, false))) {
        jet_mut_doc_free(c);
        return NULL;
    }
    return c;
}

static jet_mut_val *val_to_mut_rec(jet_mut_doc *doc, const jet_val *v, bool share, unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH) return NULL;
    jet_type t = jet_get_type(v);
    switch (t) {
    case JET_TYPE_STR:
    case JET_TYPE_RAW: {
        jet_mut_val *c = mut_text(doc, t, v->uni.str, jet_get_len(v), !share);
        /* The reader's mark of a string without escapes lets the writer
         * copy it without a scan. */
        if (c) c->tag |= v->tag & JET_TAG_STR_NOESC;
        return c;
    }
    case JET_TYPE_ARR: {
        jet_mut_val *c = mut_node(doc, JET_TYPE_ARR);
        if (!c) return NULL;
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; (e = jet_arr_iter_next(&it));) {
            jet_mut_val *ce = val_to_mut_rec(doc, e, share, depth + 1);
            if (!ce) return NULL;
            arr_link(c, NULL, ce, true);
        }
        return c;
    }
    case JET_TYPE_OBJ: {
        jet_mut_val *c = mut_node(doc, JET_TYPE_OBJ);
        if (!c) return NULL;
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; (k = jet_obj_iter_next(&it));) {
            jet_mut_val *ck = val_to_mut_rec(doc, k, share, depth + 1);
            jet_mut_val *cv = ck ? val_to_mut_rec(doc, k + 1, share, depth + 1) : NULL;
            if (!cv) return NULL;
            obj_link_last(c, ck, cv);
        }
        return c;
    }
    case JET_TYPE_NULL:
    case JET_TYPE_BOOL:
    case JET_TYPE_NUM: {
        jet_mut_val *c = mut_node(doc, v->tag & JET_TAG_KIND_MASK);
        if (c) c->uni.u = v->uni.u;
        return c;
    }
    default:
        return NULL;
    }
}

jet_mut_val *jet__val_to_mut(jet_mut_doc *doc, const jet_val *val, bool share_strings) {
    return (doc && val) ? val_to_mut_rec(doc, val, share_strings, 0) : NULL;
}

jet_mut_val *jet_val_to_mut(jet_mut_doc *doc, const jet_val *val) {
    return jet__val_to_mut(doc, val, false);
}

jet_mut_doc *jet_doc_to_mut(const jet_doc *doc, const jet_alloc *alloc) {
    const jet_val *root = jet_doc_root(doc);
    if (!root) return NULL;
    jet_mut_doc *m = jet_mut_doc_new(alloc);
    if (!m) return NULL;
    if (!(m->root = jet_val_to_mut(m, root))) {
        jet_mut_doc_free(m);
        return NULL;
    }
    return m;
}

/* ---- to the flat, immutable layout ---- */

/* Slots (one per value, keys included) and string bytes (each + NUL) of
 * the tree; false when it nests too deep or its size overflows. */
static bool flat_size(const jet_mut_val *v, unsigned depth, size_t *slots, size_t *bytes) {
    if (depth > JET_MUT_MAX_DEPTH || *slots == SIZE_MAX / sizeof(jet_val)) return false;
    ++*slots;
    jet_type t = JET__MUT_TYPE(v);
    if (t == JET_TYPE_STR || t == JET_TYPE_RAW) {
        size_t n = JET__MUT_LEN(v) + 1;
        if (*bytes > SIZE_MAX - n) return false;
        *bytes += n;
    } else if (t == JET_TYPE_ARR) {
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val *e; (e = jet_mut_arr_iter_next(&it));)
            if (!flat_size(e, depth + 1, slots, bytes)) return false;
    } else if (t == JET_TYPE_OBJ) {
        jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));)
            if (!flat_size(k, depth + 1, slots, bytes) || !flat_size(k->next, depth + 1, slots, bytes))
                return false;
    }
    return true;
}

/* Writes the tree at *slot in document order; strings are copied to *strs
 * (advanced). Returns the next slot. */
static jet_val *flat_fill(const jet_mut_val *v, jet_val *slot, char **strs) {
    jet_type t = JET__MUT_TYPE(v);
    jet_val *out = slot++;
    out->tag = v->tag;
    if (t == JET_TYPE_STR || t == JET_TYPE_RAW) {
        size_t n = JET__MUT_LEN(v);
        if (n) memcpy(*strs, v->uni.str, n);
        (*strs)[n] = '\0';
        out->uni.str = *strs;
        *strs += n + 1;
    } else if (t == JET_TYPE_ARR) {
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val *e; (e = jet_mut_arr_iter_next(&it));) slot = flat_fill(e, slot, strs);
        out->uni.ofs = (size_t)(slot - out);
    } else if (t == JET_TYPE_OBJ) {
        jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
            slot = flat_fill(k, slot, strs);
            slot = flat_fill(k->next, slot, strs);
        }
        out->uni.ofs = (size_t)(slot - out);
    } else {
        out->uni.u = v->uni.u;
    }
    return slot;
}

jet_doc *jet_mut_to_doc(const jet_mut_val *root, const jet_alloc *alloc, jet_error *err) {
    size_t slots = 0, bytes = 0;
    if (!root) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "no value to copy");
        return NULL;
    }
    if (!flat_size(root, 0, &slots, &bytes)) {
        jet__error_kind(err, JET_E_MUT_DEPTH, 0);
        return NULL;
    }
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_doc *doc = (jet_doc *)jet__malloc(a, sizeof *doc);
    if (!doc) goto oom;
    memset(doc, 0, sizeof *doc);
    doc->alloc = *a;
    doc->vals = (jet_val *)jet__malloc(a, slots * sizeof(jet_val));
    doc->strs = (char *)jet__malloc(a, bytes);
    if (!doc->vals || !doc->strs) {
        jet_doc_free(doc);
        goto oom;
    }
    doc->val_cap = doc->val_count = slots;
    doc->str_cap = bytes;
    char *s = doc->strs;
    flat_fill(root, doc->vals, &s);
    return doc;
oom:
    jet__error_set(err, JET_ERR_MEMORY, 0, NULL);
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Writing                                                                  */
/* ---------------------------------------------------------------------- */

/* One open container of the walk: its child being written (an array's
 * element, an object's key) and the children left, shifted left by one,
 * with the low bit set for objects. */
typedef struct mut_wframe {
    size_t left;
    const jet_mut_val *child;
} mut_wframe;

/* The walk of writer.c over the sibling lists: the same template, so both
 * kinds of tree give the same bytes for equal values. A container's first
 * child follows its last (an object's: the last key's value); an object's
 * next key follows the current key's value. */
#define WALK_FN mut_write_tree
#define WALK_NODE jet_mut_val
#define WALK_FRAME mut_wframe
#define WALK_ENTER(f, v) \
    ((v) = (f)->child = ((f)->left & 1) ? (v)->uni.last->next->next : (v)->uni.last->next)
#define WALK_SIBLING(f, v) \
    ((v) = (f)->child = ((f)->left & 1) ? (f)->child->next->next : (f)->child->next)
#define WALK_PAST_LEAF(v) ((void)0)
#define WALK_PAST_EMPTY(v) ((void)0)
#define WALK_PAST_KEY(v) ((v) = (v)->next)
#define WALK_MAX_DEPTH JET_MUT_MAX_DEPTH
#define WALK_DEPTH_ERROR JET_E_MUT_DEPTH
#include "tree_walk.h"

char *jet_mut_val_write(const jet_mut_val *val, jet_write_flags flags, const jet_alloc *alloc,
                        size_t *out_len, jet_error *err) {
    if (out_len) *out_len = 0;
    if (!val) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "no value to write");
        return NULL;
    }
    jet_buf b;
    jet_buf_init(&b, alloc);
    jet__emit e;
    jet__emit_init(&e, &b, NULL, NULL, NULL, flags);
    char *out = jet__emit_start(&e, 4096);
    if (!out) goto fail;
    if (!(e.o.indent ? mut_write_tree(&e, &out, val, true, err)
                     : mut_write_tree(&e, &out, val, false, err))) {
        jet_buf_free(&b);
        return NULL;
    }
    if (flags & JET_WRITE_NEWLINE_AT_END) {
        out = jet__emit_room(&e, out, 1);
        if (!out) goto fail;
        *out++ = '\n';
    }
    jet__emit_commit(&e, out, false);
    if (out_len) *out_len = b.len;
    return b.data;
fail:
    jet__emit_fail(&e, err, JET__SCALAR_OK);
    jet_buf_free(&b);
    return NULL;
}

char *jet_mut_doc_write(const jet_mut_doc *doc, jet_write_flags flags, const jet_alloc *alloc,
                        size_t *out_len, jet_error *err) {
    if (!doc || !doc->root) {
        if (out_len) *out_len = 0;
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, doc ? "the document has no root" : "no document to write");
        return NULL;
    }
    return jet_mut_val_write(doc->root, flags, alloc, out_len, err);
}

/* ---------------------------------------------------------------------- */
/* Equality                                                                 */
/* ---------------------------------------------------------------------- */

static bool mut_eq_rec(const jet_mut_val *a, const jet_mut_val *b, unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH || ((a->tag ^ b->tag) & ~JET_TAG_STR_NOESC)) return false;
    switch (JET__MUT_TYPE(a)) {
    case JET_TYPE_STR:
    case JET_TYPE_RAW:
        return JET__MUT_LEN(a) == 0 || memcmp(a->uni.str, b->uni.str, JET__MUT_LEN(a)) == 0;
    case JET_TYPE_NUM:
        return a->uni.u == b->uni.u;
    case JET_TYPE_ARR:
    case JET_TYPE_OBJ: {
        /* Same length (in the tag): walk both lists; an object's list is
         * key, value, key, value... */
        size_t n = JET__MUT_LEN(a) * (JET__MUT_TYPE(a) == JET_TYPE_OBJ ? 2 : 1);
        if (!n) return true;
        const jet_mut_val *x = JET__MUT_TYPE(a) == JET_TYPE_OBJ ? a->uni.last->next->next : a->uni.last->next;
        const jet_mut_val *y = JET__MUT_TYPE(b) == JET_TYPE_OBJ ? b->uni.last->next->next : b->uni.last->next;
        for (; n; n--, x = x->next, y = y->next)
            if (!mut_eq_rec(x, y, depth + 1)) return false;
        return true;
    }
    default:
        return true;
    }
}

bool jet_mut_equal(const jet_mut_val *a, const jet_mut_val *b) {
    if (!a || !b) return a == b;
    return mut_eq_rec(a, b, 0);
}

static bool mut_eq_val_rec(const jet_mut_val *a, const jet_val *b, unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH || ((a->tag ^ b->tag) & ~JET_TAG_STR_NOESC)) return false;
    switch (JET__MUT_TYPE(a)) {
    case JET_TYPE_STR:
    case JET_TYPE_RAW:
        return JET__MUT_LEN(a) == 0 || memcmp(a->uni.str, b->uni.str, JET__MUT_LEN(a)) == 0;
    case JET_TYPE_NUM:
        return a->uni.u == b->uni.u;
    case JET_TYPE_ARR: {
        jet_mut_arr_iter it = jet_mut_arr_iter_init(a);
        const jet_val *y = b + 1;
        for (jet_mut_val *x; (x = jet_mut_arr_iter_next(&it)); y = jet_next(y))
            if (!mut_eq_val_rec(x, y, depth + 1)) return false;
        return true;
    }
    case JET_TYPE_OBJ: {
        jet_mut_obj_iter it = jet_mut_obj_iter_init(a);
        const jet_val *y = b + 1;
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it)); y = jet_next(y + 1))
            if (!mut_eq_val_rec(k, y, depth + 1) || !mut_eq_val_rec(k->next, y + 1, depth + 1))
                return false;
        return true;
    }
    default:
        return true;
    }
}

bool jet_mut_val_equal_val(const jet_mut_val *a, const jet_val *b) {
    if (!a || !b) return !a && !b;
    return mut_eq_val_rec(a, b, 0);
}

/* A double equal to an integer: integral, in range, the same value. */
static bool f64_equals_int(double d, const jet_mut_val *i) {
    if ((i->tag & JET_TAG_SUBTYPE_MASK) == JET_SUBTYPE_SINT)
        return d >= -9223372036854775808.0 && d < 0 && (double)(int64_t)d == d &&
               (int64_t)d == i->uni.i;
    return d >= 0 && d < 18446744073709551616.0 && (double)(uint64_t)d == d &&
           (uint64_t)d == i->uni.u;
}

static bool json_eq_rec(const jet_mut_val *a, const jet_mut_val *b, unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH) return false;
    jet_type t = JET__MUT_TYPE(a);
    if (t != JET__MUT_TYPE(b)) return false;
    switch (t) {
    case JET_TYPE_NUM: {
        uint64_t sa = a->tag & JET_TAG_SUBTYPE_MASK, sb = b->tag & JET_TAG_SUBTYPE_MASK;
        if (sa == sb) return sa == JET_SUBTYPE_F64 ? a->uni.d == b->uni.d : a->uni.u == b->uni.u;
        if (sa == JET_SUBTYPE_F64) return f64_equals_int(a->uni.d, b);
        if (sb == JET_SUBTYPE_F64) return f64_equals_int(b->uni.d, a);
        return false; /* a negative and a non-negative integer */
    }
    case JET_TYPE_ARR: {
        if (JET__MUT_LEN(a) != JET__MUT_LEN(b)) return false;
        jet_mut_arr_iter ia = jet_mut_arr_iter_init(a), ib = jet_mut_arr_iter_init(b);
        for (jet_mut_val *x; (x = jet_mut_arr_iter_next(&ia));)
            if (!json_eq_rec(x, jet_mut_arr_iter_next(&ib), depth + 1)) return false;
        return true;
    }
    case JET_TYPE_OBJ: {
        if (JET__MUT_LEN(a) != JET__MUT_LEN(b)) return false;
        /* The n-th member named k in a matches the n-th named k in b: one
         * to one, so with equal sizes the key sets are equal too, repeated
         * keys included. */
        jet_mut_obj_iter ia = jet_mut_obj_iter_init(a);
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&ia));) {
            const char *key = k->uni.str;
            size_t klen = JET__MUT_LEN(k), nth = 0;
            for (jet_mut_val *p = a->uni.last->next->next; p != k; p = p->next->next)
                nth += JET__MUT_LEN(p) == klen && (klen == 0 || memcmp(p->uni.str, key, klen) == 0);
            jet_mut_val *y = NULL;
            jet_mut_obj_iter ib = jet_mut_obj_iter_init(b);
            for (jet_mut_val *q; (q = jet_mut_obj_iter_next(&ib));) {
                if (JET__MUT_LEN(q) == klen && (klen == 0 || memcmp(q->uni.str, key, klen) == 0) &&
                    nth-- == 0) {
                    y = q->next;
                    break;
                }
            }
            if (!y || !json_eq_rec(k->next, y, depth + 1)) return false;
        }
        return true;
    }
    default:
        return mut_eq_rec(a, b, depth);
    }
}

bool jet_mut_equal_json(const jet_mut_val *a, const jet_mut_val *b) {
    if (!a || !b) return a == b;
    return json_eq_rec(a, b, 0);
}

/* ---------------------------------------------------------------------- */
/* JSON Pointer                                                             */
/* ---------------------------------------------------------------------- */

/* One reference token: tok[0..len) still escaped, `tildes` escapes in it,
 * `at` the offset of its '/' in the pointer. */
typedef struct mptr_tok {
    const char *tok;
    size_t len, tildes, at;
} mptr_tok;

static bool mptr_syntax(const char *ptr, size_t len, jet_error *err) {
    if (len && ptr[0] != '/') {
        jet__error_set(err, JET_ERR_POINTER, 0, "JSON Pointer must be empty or start with '/'");
        return false;
    }
    for (size_t i = 1; i < len; i++) {
        if (ptr[i] != '~') continue;
        if (i + 1 >= len || (ptr[i + 1] != '0' && ptr[i + 1] != '1')) {
            jet__error_set(err, JET_ERR_POINTER, i, "'~' must be followed by '0' or '1' in a JSON Pointer");
            return false;
        }
        i++;
    }
    return true;
}

/* The token starting at ptr[i] == '/'. */
static mptr_tok mptr_next(const char *ptr, size_t len, size_t i) {
    mptr_tok t = {ptr + i + 1, 0, 0, i};
    for (size_t j = i + 1; j < len && ptr[j] != '/'; j++) {
        t.tildes += ptr[j] == '~';
        t.len++;
    }
    return t;
}

/* The token's text equals the key k. */
static bool mptr_key_is(const jet_mut_val *k, const mptr_tok *t) {
    size_t klen = JET__MUT_LEN(k);
    if (klen != t->len - t->tildes) return false;
    const char *key = k->uni.str;
    if (!t->tildes) return klen == 0 || memcmp(key, t->tok, klen) == 0;
    for (size_t i = 0, j = 0; i < t->len; i++, j++) {
        char c = t->tok[i];
        if (c == '~') c = t->tok[++i] == '0' ? '~' : '/';
        if (key[j] != c) return false;
    }
    return true;
}

/* An array index: digits without a leading zero, in range of size_t. */
static bool mptr_index(const mptr_tok *t, size_t *idx) {
    if (t->len == 0 || (t->len > 1 && t->tok[0] == '0')) return false;
    size_t n = 0;
    for (size_t j = 0; j < t->len; j++) {
        unsigned d = (unsigned)(unsigned char)t->tok[j] - '0';
        if (d > 9 || n > (SIZE_MAX - d) / 10) return false;
        n = n * 10 + d;
    }
    *idx = n;
    return true;
}

static bool mptr_is_dash(const mptr_tok *t) { return t->len == 1 && t->tok[0] == '-'; }

/* The first member key matching the token, with its previous key. */
static jet_mut_val *mptr_member(const jet_mut_val *obj, const mptr_tok *t, jet_mut_val **prev_key) {
    size_t n = JET__MUT_LEN(obj);
    if (!n) return NULL;
    jet_mut_val *pk = obj->uni.last;
    for (; n; n--) {
        jet_mut_val *k = pk->next->next;
        if (mptr_key_is(k, t)) {
            if (prev_key) *prev_key = pk;
            return k;
        }
        pk = k;
    }
    return NULL;
}

/* The child the token names, or NULL with err set. */
static jet_mut_val *mptr_child(const jet_mut_val *cur, const mptr_tok *t, jet_error *err) {
    const char *why = "no member or element inside a string, number, boolean or null";
    jet_mut_val *next = NULL;
    if (mut_is_obj(cur)) {
        jet_mut_val *k = mptr_member(cur, t, NULL);
        if (k) next = k->next;
        why = "no member with this key";
    } else if (mut_is_arr(cur)) {
        size_t idx;
        bool ok = mptr_index(t, &idx);
        if (ok) next = jet_mut_arr_at(cur, idx);
        why = ok ? "array index out of range"
              : mptr_is_dash(t) ? "'-' names the element after the last, which does not exist"
                                : "not an array index (digits, no leading zero)";
    }
    if (!next) jet__error_set(err, JET_ERR_NOT_FOUND, t->at, why);
    return next;
}

/* Resolves every token but the last: *parent and *last. False with err set
 * (also for the empty pointer, which has no parent: the caller handles it). */
static bool mptr_parent(const jet_mut_val *root, const char *ptr, size_t len,
                        jet_mut_val **parent, mptr_tok *last, jet_error *err) {
    if (!root || (!ptr && len)) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL root or pointer");
        return false;
    }
    if (!mptr_syntax(ptr, len, err)) return false;
    const jet_mut_val *cur = root;
    size_t i = 0;
    for (;;) {
        mptr_tok t = mptr_next(ptr, len, i);
        i = t.at + 1 + t.len;
        if (i >= len) {
            *parent = (jet_mut_val *)(uintptr_t)cur;
            *last = t;
            return true;
        }
        if (!(cur = mptr_child(cur, &t, err))) return false;
    }
}

jet_mut_val *jet_mut_ptr_findn(const jet_mut_val *root, const char *ptr, size_t len,
                               jet_error *err) {
    if (root && len == 0) return (jet_mut_val *)(uintptr_t)root;
    jet_mut_val *parent;
    mptr_tok t;
    if (!mptr_parent(root, ptr, len, &parent, &t, err)) return NULL;
    return mptr_child(parent, &t, err);
}

jet_mut_val *jet_mut_ptr_find(const jet_mut_val *root, const char *ptr, jet_error *err) {
    if (!ptr) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL pointer text");
        return NULL;
    }
    return jet_mut_ptr_findn(root, ptr, strlen(ptr), err);
}

/* The token unescaped, as a new key string of the document. */
static jet_mut_val *mptr_key(jet_mut_doc *doc, const mptr_tok *t) {
    size_t n = t->len - t->tildes;
    char *s = (char *)jet_arena_alloc(&doc->arena, n + 1, 1);
    if (!s) return NULL;
    for (size_t i = 0, j = 0; i < t->len; i++, j++) {
        char c = t->tok[i];
        if (c == '~') c = t->tok[++i] == '0' ? '~' : '/';
        s[j] = c;
    }
    s[n] = '\0';
    return mut_text(doc, JET_TYPE_STR, s, n, false);
}

static bool mptr_args(const jet_mut_doc *doc, const char *ptr, size_t len, jet_error *err) {
    if (!doc || (!ptr && len)) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL document or pointer");
        return false;
    }
    return true;
}

bool jet_mut_ptr_addn(jet_mut_doc *doc, const char *ptr, size_t len, jet_mut_val *val,
                      jet_error *err) {
    if (!mptr_args(doc, ptr, len, err)) return false;
    if (!val) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL value");
        return false;
    }
    if (len == 0) {
        doc->root = val;
        return true;
    }
    jet_mut_val *parent;
    mptr_tok t;
    if (!mptr_parent(doc->root, ptr, len, &parent, &t, err)) return false;
    if (mut_is_obj(parent)) {
        jet_mut_val *k = mptr_member(parent, &t, NULL);
        if (k) {
            obj_replace_val(k, val);
            return true;
        }
        jet_mut_val *key = mptr_key(doc, &t);
        if (!key) {
            jet__error_set(err, JET_ERR_MEMORY, 0, NULL);
            return false;
        }
        obj_link_last(parent, key, val);
        return true;
    }
    if (mut_is_arr(parent)) {
        size_t idx;
        if (mptr_is_dash(&t)) idx = JET__MUT_LEN(parent);
        else if (!mptr_index(&t, &idx)) {
            jet__error_set(err, JET_ERR_NOT_FOUND, t.at, "not an array index (digits, no leading zero)");
            return false;
        }
        if (!jet_mut_arr_insert(parent, val, idx)) {
            jet__error_set(err, JET_ERR_NOT_FOUND, t.at, "array index past the end (add takes 0 to size, or '-')");
            return false;
        }
        return true;
    }
    jet__error_set(err, JET_ERR_NOT_FOUND, t.at, "no member or element inside a string, number, boolean or null");
    return false;
}

bool jet_mut_ptr_add(jet_mut_doc *doc, const char *ptr, jet_mut_val *val, jet_error *err) {
    if (!ptr) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL pointer text");
        return false;
    }
    return jet_mut_ptr_addn(doc, ptr, strlen(ptr), val, err);
}

jet_mut_val *jet_mut_ptr_replacen(jet_mut_doc *doc, const char *ptr, size_t len, jet_mut_val *val,
                                  jet_error *err) {
    if (!mptr_args(doc, ptr, len, err)) return NULL;
    if (!val) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL value");
        return NULL;
    }
    if (len == 0) {
        jet_mut_val *old = doc->root;
        if (!old) jet__error_set(err, JET_ERR_NOT_FOUND, 0, "the document has no root");
        else doc->root = val;
        return old;
    }
    jet_mut_val *parent;
    mptr_tok t;
    if (!mptr_parent(doc->root, ptr, len, &parent, &t, err)) return NULL;
    if (mut_is_obj(parent)) {
        jet_mut_val *k = mptr_member(parent, &t, NULL);
        if (k) return obj_replace_val(k, val);
    } else if (mut_is_arr(parent)) {
        size_t idx;
        if (mptr_index(&t, &idx) && idx < JET__MUT_LEN(parent)) return jet_mut_arr_set(parent, idx, val);
    }
    mptr_child(parent, &t, err); /* sets the reason */
    return NULL;
}

jet_mut_val *jet_mut_ptr_replace(jet_mut_doc *doc, const char *ptr, jet_mut_val *val,
                                 jet_error *err) {
    if (!ptr) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL pointer text");
        return NULL;
    }
    return jet_mut_ptr_replacen(doc, ptr, strlen(ptr), val, err);
}

jet_mut_val *jet_mut_ptr_removen(jet_mut_doc *doc, const char *ptr, size_t len, jet_error *err) {
    if (!mptr_args(doc, ptr, len, err)) return NULL;
    if (len == 0) {
        jet_mut_val *old = doc->root;
        if (!old) jet__error_set(err, JET_ERR_NOT_FOUND, 0, "the document has no root");
        doc->root = NULL;
        return old;
    }
    jet_mut_val *parent;
    mptr_tok t;
    if (!mptr_parent(doc->root, ptr, len, &parent, &t, err)) return NULL;
    if (mut_is_obj(parent)) {
        jet_mut_val *pk = NULL, *k = mptr_member(parent, &t, &pk);
        if (k) return obj_unlink(parent, pk, k);
    } else if (mut_is_arr(parent)) {
        size_t idx;
        if (mptr_index(&t, &idx) && idx < JET__MUT_LEN(parent)) return jet_mut_arr_remove(parent, idx);
    }
    mptr_child(parent, &t, err);
    return NULL;
}

jet_mut_val *jet_mut_ptr_remove(jet_mut_doc *doc, const char *ptr, jet_error *err) {
    if (!ptr) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL pointer text");
        return NULL;
    }
    return jet_mut_ptr_removen(doc, ptr, strlen(ptr), err);
}
