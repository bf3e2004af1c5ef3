/*
 * patch.c — JSON Patch (RFC 6902) and JSON Merge Patch (RFC 7386) on
 * mutable documents (jet.h section 14).
 *
 * JSON Patch is atomic by copy and swap: the operations run on a copy of
 * the root made in the same arena (the string bytes are shared, not
 * copied), which replaces the root only when every operation succeeded.
 * That costs one copy of the tree's nodes per patch (O(nodes) time, 24
 * bytes a node of arena space that stays until the document is freed),
 * whatever the number of operations; an empty patch copies nothing.
 *
 * A merge patch cannot fail on well-formed input, so it is applied in
 * place: its depth is checked first, and only running out of memory can
 * stop it half-way.
 */
#include <string.h>

#include "errors.h"
#include "mut.h"

/* ---------------------------------------------------------------------- */
/* JSON Patch                                                               */
/* ---------------------------------------------------------------------- */

typedef enum patch_opcode { OP_ADD, OP_REMOVE, OP_REPLACE, OP_MOVE, OP_COPY, OP_TEST } patch_opcode;

static const char *const patch_op_names[] = {"add", "remove", "replace", "move", "copy", "test"};

static void patch_fail(jet_patch_error *err, jet__err kind) {
    if (!err) return;
    err->code = jet__errs[kind].code;
    err->msg = jet__errs[kind].msg;
    err->offset = 0;
}

/* A pointer function's failure, for the pointer `ptr` of the operation. */
static void patch_fail_ptr(jet_patch_error *err, const jet_error *e, const jet_mut_val *ptr) {
    if (!err) return;
    err->code = e->code;
    err->msg = e->msg;
    err->offset = e->offset;
    err->path = ptr->uni.str;
    err->path_len = JET__MUT_LEN(ptr);
}

/* A member that must be a string: NULL (with err set) when absent or not. */
static const jet_mut_val *patch_str_member(const jet_mut_val *op, const char *name,
                                           jet__err missing, jet__err wrong, jet_patch_error *err) {
    const jet_mut_val *v = jet_mut_obj_find(op, name);
    if (!v) patch_fail(err, missing);
    else if (JET__MUT_TYPE(v) != JET_TYPE_STR) patch_fail(err, wrong);
    else return v;
    return NULL;
}

/* Whether a member the operation reads appears twice (RFC 6902 A.13: such
 * an operation is not valid JSON for the RFC, so it is rejected rather than
 * read by its first member). */
static bool patch_repeats_member(const jet_mut_val *op) {
    static const char *const names[] = {"op", "path", "from", "value"};
    unsigned seen[4] = {0, 0, 0, 0};
    jet_mut_obj_iter it = jet_mut_obj_iter_init(op);
    for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));)
        for (unsigned i = 0; i < 4; i++)
            if (jet_mut_equals_strn(k, names[i], strlen(names[i])) && seen[i]++) return true;
    return false;
}

/* One operation on doc (whose root is the working copy). */
static bool patch_one(jet_mut_doc *doc, const jet_mut_val *op, jet_patch_error *err) {
    if (JET__MUT_TYPE(op) != JET_TYPE_OBJ) {
        patch_fail(err, JET_E_PATCH_OP_NOT_OBJECT);
        return false;
    }
    if (patch_repeats_member(op)) {
        patch_fail(err, JET_E_PATCH_REPEATED_MEMBER);
        return false;
    }
    const jet_mut_val *name = patch_str_member(op, "op", JET_E_PATCH_NO_OP, JET_E_PATCH_OP_TYPE, err);
    if (!name) return false;
    patch_opcode code = OP_ADD;
    bool known = false;
    for (unsigned i = 0; i < sizeof patch_op_names / sizeof patch_op_names[0]; i++) {
        if (jet_mut_equals_strn(name, patch_op_names[i], strlen(patch_op_names[i]))) {
            code = (patch_opcode)i;
            known = true;
            break;
        }
    }
    if (!known) {
        patch_fail(err, JET_E_PATCH_BAD_OP);
        return false;
    }
    if (err) err->op = patch_op_names[code];
    const jet_mut_val *path = patch_str_member(op, "path", JET_E_PATCH_NO_PATH, JET_E_PATCH_PATH_TYPE, err);
    if (!path) return false;
    if (err) {
        err->path = path->uni.str;
        err->path_len = JET__MUT_LEN(path);
    }
    const char *p = path->uni.str;
    size_t plen = JET__MUT_LEN(path);
    const jet_mut_val *value = NULL, *from = NULL;
    if (code == OP_ADD || code == OP_REPLACE || code == OP_TEST) {
        if (!(value = jet_mut_obj_find(op, "value"))) {
            patch_fail(err, JET_E_PATCH_NO_VALUE);
            return false;
        }
    } else if (code == OP_MOVE || code == OP_COPY) {
        from = patch_str_member(op, "from", JET_E_PATCH_NO_FROM, JET_E_PATCH_FROM_TYPE, err);
        if (!from) return false;
    }
    jet_error e = {JET_OK, 0, 0, 0, NULL, NULL};
    jet_mut_val *v;
    switch (code) {
    case OP_ADD:
    case OP_REPLACE:
        /* The patch may live in another document: its strings are copied. */
        if (!(v = jet__mut_copy(doc, value, false))) goto oom;
        if (code == OP_ADD ? jet_mut_ptr_addn(doc, p, plen, v, &e)
                           : jet_mut_ptr_replacen(doc, p, plen, v, &e) != NULL)
            return true;
        patch_fail_ptr(err, &e, path);
        return false;
    case OP_REMOVE:
        if (jet_mut_ptr_removen(doc, p, plen, &e)) return true;
        patch_fail_ptr(err, &e, path);
        return false;
    case OP_TEST:
        if (!(v = jet_mut_ptr_findn(doc->root, p, plen, &e))) {
            patch_fail_ptr(err, &e, path);
            return false;
        }
        if (jet_mut_equal_json(v, value)) return true;
        patch_fail(err, JET_E_PATCH_TEST);
        return false;
    case OP_MOVE:
    case OP_COPY: {
        const char *f = from->uni.str;
        size_t flen = JET__MUT_LEN(from);
        if (!(v = jet_mut_ptr_findn(doc->root, f, flen, &e))) {
            patch_fail_ptr(err, &e, from);
            return false;
        }
        if (code == OP_MOVE) {
            if (flen == plen && (flen == 0 || memcmp(f, p, flen) == 0)) return true;
            if (plen > flen && p[flen] == '/' && (flen == 0 || memcmp(f, p, flen) == 0)) {
                patch_fail(err, JET_E_PATCH_MOVE_INTO_CHILD);
                return false;
            }
            /* Checked first, so that the removal below cannot orphan it:
             * the target's parent must exist without the moved value. */
            v = jet_mut_ptr_removen(doc, f, flen, &e);
        } else {
            /* Within one document: the string bytes can be shared. */
            if (!(v = jet__mut_copy(doc, v, true))) goto oom;
        }
        if (jet_mut_ptr_addn(doc, p, plen, v, &e)) return true;
        patch_fail_ptr(err, &e, path);
        return false;
    }
    }
oom:
    patch_fail(err, JET_E_MEMORY);
    return false;
}

bool jet_patch_apply_mut(jet_mut_doc *doc, const jet_mut_val *patch, jet_patch_error *err) {
    if (err) memset(err, 0, sizeof *err);
    if (!doc || !patch) {
        patch_fail(err, JET_E_INVALID_ARG);
        return false;
    }
    if (JET__MUT_TYPE(patch) != JET_TYPE_ARR) {
        patch_fail(err, JET_E_PATCH_NOT_ARRAY);
        return false;
    }
    if (!JET__MUT_LEN(patch)) return true;
    jet_mut_val *saved = doc->root, *work = NULL;
    if (saved && !(work = jet__mut_copy(doc, saved, true))) {
        patch_fail(err, JET_E_MEMORY); /* or too deep: the copy stops at the same depth */
        return false;
    }
    doc->root = work;
    jet_mut_arr_iter it = jet_mut_arr_iter_init(patch);
    size_t index = 0;
    for (jet_mut_val *op; (op = jet_mut_arr_iter_next(&it)); index++) {
        if (!patch_one(doc, op, err)) {
            doc->root = saved; /* the copy is dropped: the document is as it was */
            if (err) err->index = index;
            return false;
        }
    }
    return true;
}

bool jet_patch_apply(jet_mut_doc *doc, const jet_val *patch, jet_patch_error *err) {
    if (err) memset(err, 0, sizeof *err);
    if (!doc || !patch) {
        patch_fail(err, JET_E_INVALID_ARG);
        return false;
    }
    /* A view of the patch whose strings point into the caller's document,
     * so that err->path stays valid after this call. */
    jet_mut_doc *view = jet_mut_doc_new(&doc->arena.alloc);
    jet_mut_val *p = view ? jet__val_to_mut(view, patch, true) : NULL;
    if (!p) {
        jet_mut_doc_free(view);
        patch_fail(err, JET_E_MEMORY);
        return false;
    }
    bool ok = jet_patch_apply_mut(doc, p, err);
    jet_mut_doc_free(view);
    return ok;
}

/* ---------------------------------------------------------------------- */
/* JSON Merge Patch                                                         */
/* ---------------------------------------------------------------------- */

/* The patch nests at most JET_MUT_MAX_DEPTH levels: then neither the merge
 * nor the copies it makes can stop for depth. */
static bool merge_depth_ok(const jet_mut_val *v, unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH) return false;
    if (JET__MUT_TYPE(v) == JET_TYPE_OBJ) {
        jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));)
            if (!merge_depth_ok(k->next, depth + 1)) return false;
    } else if (JET__MUT_TYPE(v) == JET_TYPE_ARR) {
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val *e; (e = jet_mut_arr_iter_next(&it));)
            if (!merge_depth_ok(e, depth + 1)) return false;
    }
    return true;
}

/* RFC 7386 section 2, MergePatch(target, patch): returns the new target
 * (`target` itself, changed in place, when both are objects). */
static jet_mut_val *merge_apply_rec(jet_mut_doc *doc, jet_mut_val *target,
                                    const jet_mut_val *patch) {
    if (JET__MUT_TYPE(patch) != JET_TYPE_OBJ) return jet__mut_copy(doc, patch, false);
    if (jet_mut_get_type(target) != JET_TYPE_OBJ && !(target = jet_mut_obj(doc))) return NULL;
    jet_mut_obj_iter it = jet_mut_obj_iter_init(patch);
    for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
        const char *key = k->uni.str;
        size_t klen = JET__MUT_LEN(k);
        const jet_mut_val *pv = k->next;
        if (JET__MUT_TYPE(pv) == JET_TYPE_NULL) {
            /* Every member of that name goes (there is one in valid JSON). */
            while (jet_mut_obj_removen(target, key, klen)) {
            }
            continue;
        }
        jet_mut_val *old = jet_mut_obj_findn(target, key, klen);
        jet_mut_val *nv = merge_apply_rec(doc, old, pv);
        if (!nv) return NULL;
        if (nv != old && !jet_mut_obj_setn(doc, target, key, klen, nv)) return NULL;
    }
    return target;
}

bool jet_merge_patch_apply_mut(jet_mut_doc *doc, const jet_mut_val *patch, jet_error *err) {
    if (!doc || !patch) {
        jet__error_kind(err, JET_E_INVALID_ARG, 0);
        return false;
    }
    if (!merge_depth_ok(patch, 0)) {
        jet__error_kind(err, JET_E_MUT_DEPTH, 0);
        return false;
    }
    jet_mut_val *root = merge_apply_rec(doc, doc->root, patch);
    if (!root) {
        jet__error_kind(err, JET_E_MEMORY, 0);
        return false;
    }
    doc->root = root;
    return true;
}

bool jet_merge_patch_apply(jet_mut_doc *doc, const jet_val *patch, jet_error *err) {
    if (!doc || !patch) {
        jet__error_kind(err, JET_E_INVALID_ARG, 0);
        return false;
    }
    jet_mut_doc *view = jet_mut_doc_new(&doc->arena.alloc);
    jet_mut_val *p = view ? jet__val_to_mut(view, patch, true) : NULL;
    bool ok = p && jet_merge_patch_apply_mut(doc, p, err);
    if (!p) jet__error_kind(err, view ? JET_E_MUT_DEPTH : JET_E_MEMORY, 0);
    jet_mut_doc_free(view);
    return ok;
}

static jet_mut_val *merge_create_rec(jet_mut_doc *out, const jet_mut_val *a, const jet_mut_val *b,
                                     unsigned depth) {
    if (depth > JET_MUT_MAX_DEPTH) return NULL;
    if (JET__MUT_TYPE(a) != JET_TYPE_OBJ || JET__MUT_TYPE(b) != JET_TYPE_OBJ)
        return jet__mut_copy(out, b, false);
    jet_mut_val *p = jet_mut_obj(out);
    if (!p) return NULL;
    jet_mut_obj_iter it = jet_mut_obj_iter_init(a);
    for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
        const char *key = k->uni.str;
        size_t klen = JET__MUT_LEN(k);
        if (jet_mut_obj_findn(b, key, klen) || jet_mut_obj_findn(p, key, klen)) continue;
        jet_mut_val *null = jet_mut_null(out);
        if (!null || !jet_mut_obj_addn(out, p, key, klen, null)) return NULL;
    }
    it = jet_mut_obj_iter_init(b);
    for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
        const char *key = k->uni.str;
        size_t klen = JET__MUT_LEN(k);
        const jet_mut_val *bv = k->next, *av = jet_mut_obj_findn(a, key, klen);
        if (jet_mut_obj_findn(p, key, klen)) continue; /* a repeated key of b */
        if (av && jet_mut_equal_json(av, bv)) continue;
        jet_mut_val *pv = av ? merge_create_rec(out, av, bv, depth + 1) : jet__mut_copy(out, bv, false);
        if (!pv || !jet_mut_obj_addn(out, p, key, klen, pv)) return NULL;
    }
    return p;
}

jet_mut_val *jet_merge_patch_create(jet_mut_doc *out, const jet_mut_val *a, const jet_mut_val *b,
                                    jet_error *err) {
    if (!out || !a || !b) {
        jet__error_kind(err, JET_E_INVALID_ARG, 0);
        return NULL;
    }
    jet_mut_val *p = merge_create_rec(out, a, b, 0);
    if (!p) jet__error_kind(err, JET_E_MEMORY, 0);
    return p;
}
