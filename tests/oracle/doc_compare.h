/* doc_compare.h — the document comparison of the tests, fuzzers and bench:
 * two jet DOMs, value by value, with the JSON Pointer of the first
 * difference. One function; `how` selects what counts as equal:
 *
 *   DOC_SAME_SLOTS      identical slot for slot: tags (the no-escape flag
 *                       and lengths included), payloads, string bytes with
 *                       their terminator, slot count and read size. What
 *                       every reader kernel must build compared with the
 *                       scalar reader (test_kernels, fuzz_kernels).
 *   0                   equal values as jet_val_equal defines them (doubles
 *                       bitwise, the order of members and elements kept).
 *   DOC_NULL_IS_ABSENT  as 0, but an object member whose value is null
 *                       counts as absent (an Option's None written as null
 *                       or left out: the bench's api-write check).
 *
 * Header-only, C.
 */
#ifndef JET_ORACLE_DOC_COMPARE_H
#define JET_ORACLE_DOC_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

enum { DOC_SAME_SLOTS = 1u, DOC_NULL_IS_ABSENT = 2u };

typedef struct doc_diff {
    const char *names[2]; /* in: what to call the documents; NULL: "first", "second" */
    char where[256];      /* out: JSON Pointer of the first difference ("" for the root) */
    char why[256];        /* out: what differs there */
} doc_diff;

/* Appends one reference token (escaped: ~0, ~1) to diff->where, from `at`;
 * returns the new end. */
static inline size_t doc_diff_push_(doc_diff *d, size_t at, const char *s, size_t n) {
    size_t cap = sizeof d->where;
    if (at + 1 >= cap) return at;
    d->where[at++] = '/';
    for (size_t i = 0; i < n && at + 2 < cap; i++) {
        char c = s[i];
        if (c == '~' || c == '/') {
            d->where[at++] = '~';
            c = c == '~' ? '0' : '1';
        }
        d->where[at++] = c;
    }
    d->where[at] = '\0';
    return at;
}

static inline const char *doc_diff_name_(const doc_diff *d, int which) {
    return d->names[which] ? d->names[which] : which ? "second" : "first";
}

/* The first 40 bytes of a value's JSON text. */
static inline void doc_diff_show_(const jet_val *v, char *buf, size_t cap) {
    size_t n = 0;
    char *t = v ? jet_val_write(v, JET_WRITE_NOFLAG, NULL, &n, NULL) : NULL;
    snprintf(buf, cap, "%.*s%s", (int)(n > 40 ? 40 : n), t ? t : "(absent)", n > 40 ? "..." : "");
    free(t);
}

/* "A where the second has B"; the tags too when the texts read the same
 * (a flag or a subtype differs). */
static inline bool doc_diff_values_(doc_diff *d, const jet_val *a, const jet_val *b) {
    char sa[64], sb[64];
    doc_diff_show_(a, sa, sizeof sa);
    doc_diff_show_(b, sb, sizeof sb);
    if (strcmp(sa, sb) != 0)
        snprintf(d->why, sizeof d->why, "%s where the %s has %s", sa, doc_diff_name_(d, 1), sb);
    else
        snprintf(d->why, sizeof d->why, "%s with tag 0x%llx where the %s has tag 0x%llx", sa,
                 (unsigned long long)a->tag, doc_diff_name_(d, 1), (unsigned long long)b->tag);
    return false;
}

/* The next member whose value is not null. */
static inline jet_val *doc_next_nonnull_(jet_obj_iter *it) {
    jet_val *k;
    while ((k = jet_obj_iter_next(it)) && jet_is_null(jet_obj_iter_value(k))) {}
    return k;
}

/* With DOC_SAME_SLOTS, a container's span (checked after its contents,
 * where a difference is easier to read). */
static inline bool doc_compare_span_(const jet_val *a, const jet_val *b, bool slots, doc_diff *d) {
    if (!slots || a->uni.ofs == b->uni.ofs) return true;
    snprintf(d->why, sizeof d->why, "a container of %zu slots where the %s has %zu", (size_t)a->uni.ofs,
             doc_diff_name_(d, 1), (size_t)b->uni.ofs);
    return false;
}

static inline bool doc_compare_val_(const jet_val *a, const jet_val *b, unsigned how, doc_diff *d,
                                    size_t at) {
    bool slots = (how & DOC_SAME_SLOTS) != 0;
    if (!slots && (how & DOC_NULL_IS_ABSENT) && jet_is_obj(a) && jet_is_obj(b)) {
        jet_obj_iter ia = jet_obj_iter_init(a), ib = jet_obj_iter_init(b);
        for (;;) {
            jet_val *ka = doc_next_nonnull_(&ia), *kb = doc_next_nonnull_(&ib);
            if (!ka || !kb) {
                if (!ka && !kb) return true;
                jet_val *k = ka ? ka : kb;
                doc_diff_push_(d, at, jet_get_str(k), jet_get_len(k));
                snprintf(d->why, sizeof d->why, "member only in the %s", doc_diff_name_(d, ka ? 0 : 1));
                return false;
            }
            size_t at2 = doc_diff_push_(d, at, jet_get_str(ka), jet_get_len(ka));
            if (jet_get_len(ka) != jet_get_len(kb) ||
                memcmp(jet_get_str(ka), jet_get_str(kb), jet_get_len(ka)) != 0) {
                snprintf(d->why, sizeof d->why, "a different key where the %s has \"%s\"",
                         doc_diff_name_(d, 1), jet_get_str(kb));
                return false;
            }
            if (!doc_compare_val_(jet_obj_iter_value(ka), jet_obj_iter_value(kb), how, d, at2))
                return false;
        }
    }
    /* Tags: type, subtype, length (bytes, elements or members), and with
     * DOC_SAME_SLOTS the no-escape flag. */
    uint64_t ta = a->tag, tb = b->tag;
    if (!slots) {
        ta &= ~JET_TAG_STR_NOESC;
        tb &= ~JET_TAG_STR_NOESC;
    }
    if (jet_is_arr(a) && jet_is_arr(b) && jet_arr_size(a) != jet_arr_size(b)) {
        snprintf(d->why, sizeof d->why, "%zu elements where the %s has %zu", jet_arr_size(a),
                 doc_diff_name_(d, 1), jet_arr_size(b));
        return false;
    }
    if (ta != tb) return doc_diff_values_(d, a, b);
    switch (jet_get_type(a)) {
    case JET_TYPE_OBJ: {
        jet_obj_iter ia = jet_obj_iter_init(a), ib = jet_obj_iter_init(b);
        for (jet_val *ka, *kb; (ka = jet_obj_iter_next(&ia)) && (kb = jet_obj_iter_next(&ib));) {
            size_t at2 = doc_diff_push_(d, at, jet_get_str(ka), jet_get_len(ka));
            uint64_t mask = slots ? ~(uint64_t)0 : ~JET_TAG_STR_NOESC;
            if ((ka->tag & mask) != (kb->tag & mask) ||
                memcmp(jet_get_str(ka), jet_get_str(kb), jet_get_len(ka) + slots) != 0) {
                snprintf(d->why, sizeof d->why, "a different key where the %s has \"%s\"",
                         doc_diff_name_(d, 1), jet_get_str(kb));
                if (slots && jet_get_len(ka) == jet_get_len(kb) &&
                    memcmp(jet_get_str(ka), jet_get_str(kb), jet_get_len(ka)) == 0)
                    snprintf(d->why, sizeof d->why, "the key's tag 0x%llx where the %s has 0x%llx",
                             (unsigned long long)ka->tag, doc_diff_name_(d, 1),
                             (unsigned long long)kb->tag);
                return false;
            }
            if (!doc_compare_val_(ka + 1, kb + 1, how, d, at2)) return false;
        }
        return doc_compare_span_(a, b, slots, d);
    }
    case JET_TYPE_ARR: {
        jet_arr_iter ia = jet_arr_iter_init(a), ib = jet_arr_iter_init(b);
        size_t i = 0;
        for (jet_val *x, *y; (x = jet_arr_iter_next(&ia)) && (y = jet_arr_iter_next(&ib)); i++) {
            char idx[24];
            int n = snprintf(idx, sizeof idx, "%zu", i);
            size_t at2 = doc_diff_push_(d, at, idx, (size_t)n);
            if (!doc_compare_val_(x, y, how, d, at2)) return false;
        }
        return doc_compare_span_(a, b, slots, d);
    }
    case JET_TYPE_STR:
    case JET_TYPE_RAW:
        /* with DOC_SAME_SLOTS the terminator too */
        if (memcmp(a->uni.str, b->uni.str, jet_get_len(a) + slots) != 0) return doc_diff_values_(d, a, b);
        return true;
    default:
        /* numbers bitwise (-0.0 differs from 0.0, a NaN equals itself);
         * true, false and null carry no payload but the reader's, which
         * DOC_SAME_SLOTS compares too */
        if ((slots || jet_is_num(a)) && a->uni.u != b->uni.u) return doc_diff_values_(d, a, b);
        return true;
    }
}

/* true when `a` and `b` are equal in the sense of `how`; otherwise false,
 * with the place and the reason in *diff (which may be NULL). */
static inline bool doc_compare(const jet_doc *a, const jet_doc *b, unsigned how, doc_diff *diff) {
    doc_diff scratch;
    memset(&scratch, 0, sizeof scratch);
    doc_diff *d = diff ? diff : &scratch;
    d->where[0] = d->why[0] = '\0';
    if (!a || !b) {
        snprintf(d->why, sizeof d->why, "no %s document", doc_diff_name_(d, a ? 1 : 0));
        return false;
    }
    if (!doc_compare_val_(jet_doc_root(a), jet_doc_root(b), how, d, 0)) return false;
    /* (the walk has compared every slot of the root's span) */
    if ((how & DOC_SAME_SLOTS) && (jet_doc_val_count(a) != jet_doc_val_count(b) ||
                                   jet_doc_read_size(a) != jet_doc_read_size(b))) {
        snprintf(d->why, sizeof d->why, "%zu slots read from %zu bytes where the %s has %zu from %zu",
                 jet_doc_val_count(a), jet_doc_read_size(a), doc_diff_name_(d, 1),
                 jet_doc_val_count(b), jet_doc_read_size(b));
        return false;
    }
    return true;
}

/* Two failed reads failed the same way: code, offset, line, column and
 * message. */
static inline bool doc_same_error(const jet_error *a, const jet_error *b) {
    return a->code == b->code && a->offset == b->offset && a->line == b->line &&
           a->column == b->column && strcmp(a->msg ? a->msg : "", b->msg ? b->msg : "") == 0;
}

/* The outcomes of two reads, each a document or NULL with its error: both
 * documents, equal in the sense of `how`, or both failures alike. */
static inline bool doc_same_outcome(const jet_doc *a, const jet_error *ea, const jet_doc *b,
                                    const jet_error *eb, unsigned how, doc_diff *diff) {
    if (a && b) return doc_compare(a, b, how, diff);
    if (diff) {
        diff->where[0] = '\0';
        snprintf(diff->why, sizeof diff->why, "%s", a || b ? "one read failed, the other did not"
                                                          : "the reads failed differently");
    }
    return !a && !b && doc_same_error(ea, eb);
}

#endif
