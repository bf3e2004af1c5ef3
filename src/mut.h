/*
 * mut.h — the mutable document's nodes, shared by mut.c (values, lists,
 * pointers, copies, writing) and patch.c (JSON Patch, JSON Merge Patch).
 */
#ifndef JET_MUT_H
#define JET_MUT_H

#include "internal.h"

/*
 * One node: 24 bytes from the document's arena.
 *   tag  — as jet_val's: type, subtype, length (string/raw bytes, array
 *          elements, object members) from bit 8; JET_TAG_STR_NOESC kept
 *          from the reader on strings copied from a jet_val (the writer
 *          then copies them unscanned), ignored by comparisons.
 *   uni  — numbers; `str` for strings and raw numbers (copied: in the
 *          arena, NUL-terminated; borrowed: the caller's bytes); `last`
 *          for containers: the last element, or an object's last key
 *          (NULL when empty).
 *   next — the sibling list, circular: an array's last element points to
 *          its first; in an object a key points to its value and the value
 *          to the next key, the last value to the first key.
 */
struct jet_mut_val {
    uint64_t tag;
    union {
        uint64_t u;
        int64_t i;
        double d;
        const char *str;
        jet_mut_val *last;
    } uni;
    jet_mut_val *next;
};

struct jet_mut_doc {
    jet_arena arena;
    jet_mut_val *root;
};

#define JET__MUT_TAG(type, sub, len) \
    ((uint64_t)(type) | (uint64_t)(sub) | ((uint64_t)(len) << JET_TAG_LEN_SHIFT))
#define JET__MUT_TYPE(v) ((jet_type)((v)->tag & JET_TAG_TYPE_MASK))
#define JET__MUT_LEN(v) ((size_t)((v)->tag >> JET_TAG_LEN_SHIFT))

/* Deep copy of `v` into `doc`; strings are copied unless `share_strings`
 * (then the node points at the same bytes: only for copies within one
 * document, whose strings live as long). NULL on OOM or nesting deeper than
 * JET_MUT_MAX_DEPTH. */
jet_mut_val *jet__mut_copy(jet_mut_doc *doc, const jet_mut_val *v, bool share_strings);

/* The same from an immutable value; with `share_strings` the nodes point
 * at the jet_doc's strings (a temporary view of a patch, say). */
jet_mut_val *jet__val_to_mut(jet_mut_doc *doc, const jet_val *val, bool share_strings);

#endif
