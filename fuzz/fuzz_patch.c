/* fuzz_patch.c — libFuzzer target for the mutable document's JSON Patch and
 * JSON Merge Patch.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_patch
 *   build-fuzz/fuzz/fuzz_patch -max_total_time=60
 *
 * Input: A, or A NUL P, or A NUL P NUL B (NUL never occurs in JSON text, so
 * a plain JSON seed is A alone; P and B then default to A). A is the
 * document, P a JSON Patch (and a merge patch), B the merge target. Checks:
 *   - jet_patch_apply(A, P): no crash; on failure the document is exactly A
 *     (its text and its values) and the error has a code, a message and an
 *     index inside P; on success the result writes and reads back equal;
 *   - jet_merge_patch_apply(A, P): no crash, the result writes;
 *   - apply(A, create(A, B)) equals B (jet_mut_equal_json) whenever a merge
 *     patch can express B (no null members and no repeated keys in B's
 *     objects, no repeated keys in A's).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what) {
    fprintf(stderr, "fuzz_patch: %s\n", what);
    abort();
}

/* Exact-size heap copy so that ASan sees any read past the end. */
static jet_doc *read_part(const uint8_t *p, size_t n) {
    char *buf = (char *)malloc(n ? n : 1);
    if (!buf) abort();
    if (n) memcpy(buf, p, n);
    jet_doc *d = jet_read(buf, n, NULL, NULL, NULL);
    free(buf);
    return d;
}

/* Whether B has what a merge patch cannot make: null object members (when
 * `nulls`) or a key repeated in one object. */
static bool merge_unreachable(const jet_mut_val *v, bool nulls) {
    if (jet_mut_get_type(v) == JET_TYPE_ARR) {
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val *e; (e = jet_mut_arr_iter_next(&it));)
            if (merge_unreachable(e, nulls)) return true;
    } else if (jet_mut_get_type(v) == JET_TYPE_OBJ) {
        jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
        for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it));) {
            jet_mut_val *val = jet_mut_obj_iter_value(k);
            if (nulls && jet_mut_get_type(val) == JET_TYPE_NULL) return true;
            if (jet_mut_obj_findn(v, jet_mut_get_str(k), jet_mut_get_len(k)) != val) return true;
            if (merge_unreachable(val, nulls)) return true;
        }
    }
    return false;
}

/* The document's text (NULL when it has no root). */
static char *text_of(const jet_mut_doc *m, size_t *len) {
    jet_error e;
    char *s = jet_mut_doc_write(m, 0, NULL, len, &e);
    if (!s && jet_mut_doc_root(m)) fail("a document that cannot be written");
    return s;
}

/* The written text reads back as an equal value. */
static void check_roundtrip(const jet_mut_doc *m) {
    size_t n;
    char *s = text_of(m, &n);
    if (!s) return;
    jet_read_opts o = {0, 100000, 0};
    jet_doc *d = jet_read(s, n, &o, NULL, NULL);
    if (!d) fail("written text does not read back");
    if (!jet_mut_val_equal_val(jet_mut_doc_root(m), jet_doc_root(d))) fail("written text reads back different");
    jet_doc *flat = jet_mut_to_doc(jet_mut_doc_root(m), NULL, NULL);
    if (!flat || !jet_val_equal(jet_doc_root(flat), jet_doc_root(d))) fail("jet_mut_to_doc differs");
    jet_doc_free(flat);
    jet_doc_free(d);
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const uint8_t *parts[3] = {data, NULL, NULL};
    size_t lens[3] = {size, 0, 0};
    for (int i = 0; i < 2; i++) {
        const uint8_t *nul = (const uint8_t *)memchr(parts[i], 0, lens[i]);
        if (!nul) break;
        parts[i + 1] = nul + 1;
        lens[i + 1] = lens[i] - (size_t)(nul + 1 - parts[i]);
        lens[i] = (size_t)(nul - parts[i]);
    }
    if (!parts[1]) parts[1] = parts[0], lens[1] = lens[0];
    if (!parts[2]) parts[2] = parts[1], lens[2] = lens[1];
    jet_doc *a = read_part(parts[0], lens[0]);
    if (!a) return 0;
    jet_doc *p = read_part(parts[1], lens[1]);
    jet_doc *b = read_part(parts[2], lens[2]);

    /* JSON Patch. "copy" can double the document per operation: at most 8. */
    if (p && jet_arr_size(jet_doc_root(p)) <= 8) {
        jet_mut_doc *m = jet_doc_to_mut(a, NULL);
        if (!m) fail("jet_doc_to_mut");
        size_t n0;
        char *before = text_of(m, &n0);
        jet_patch_error pe;
        if (jet_patch_apply(m, jet_doc_root(p), &pe)) {
            check_roundtrip(m);
        } else {
            size_t n1;
            char *after = text_of(m, &n1);
            if (n0 != n1 || memcmp(before, after, n0) != 0) fail("failed patch changed the text");
            if (!jet_mut_val_equal_val(jet_mut_doc_root(m), jet_doc_root(a))) fail("failed patch changed values");
            if (pe.code == JET_OK || !pe.msg) fail("failure without code or message");
            if (jet_is_arr(jet_doc_root(p)) && pe.index >= jet_arr_size(jet_doc_root(p)))
                fail("error index outside the patch");
            free(after);
        }
        free(before);
        jet_mut_doc_free(m);
    }

    /* JSON Merge Patch: P applied to A. */
    if (p) {
        jet_mut_doc *m = jet_doc_to_mut(a, NULL);
        jet_error e;
        if (!jet_merge_patch_apply(m, jet_doc_root(p), &e)) fail("merge patch failed");
        check_roundtrip(m);
        jet_mut_doc_free(m);
    }

    /* apply(A, create(A, B)) == B */
    if (b) {
        jet_mut_doc *ma = jet_doc_to_mut(a, NULL), *mb = jet_doc_to_mut(b, NULL);
        jet_mut_doc *pd = jet_mut_doc_new(NULL);
        jet_error e;
        jet_mut_val *patch = jet_merge_patch_create(pd, jet_mut_doc_root(ma), jet_mut_doc_root(mb), &e);
        if (!patch) fail("merge patch create failed");
        if (!jet_merge_patch_apply_mut(ma, patch, &e)) fail("created merge patch failed");
        if (!merge_unreachable(jet_mut_doc_root(mb), true) &&
            !merge_unreachable(jet_val_to_mut(pd, jet_doc_root(a)), false) &&
            !jet_mut_equal_json(jet_mut_doc_root(ma), jet_mut_doc_root(mb)))
            fail("apply(A, create(A, B)) != B");
        check_roundtrip(ma);
        jet_mut_doc_free(pd);
        jet_mut_doc_free(ma);
        jet_mut_doc_free(mb);
    }
    jet_doc_free(a);
    jet_doc_free(p);
    jet_doc_free(b);
    return 0;
}
