/*
 * stats.c — the structural fingerprint of a value tree.
 *
 * The DOM is flat and in document order, so every count is one linear pass
 * over the slots: keys are not told apart from string values slot by slot;
 * instead `keys` is the sum of the objects' member counts and `strings` is
 * the number of string slots minus `keys`. Only max_depth needs nesting:
 * it keeps a stack of the slot where each open container ends.
 *
 * RAW numbers (kept as text by JET_READ_BIGNUM_AS_RAW/NUMBER_AS_RAW) count
 * in `numbers` and also in `integers` when their text is an integer
 * (optional '-' and digits only) or else in `doubles`. So
 * numbers == integers + doubles always holds, and a document read with
 * JET_READ_NUMBER_AS_RAW has the same fingerprint as one read without it,
 * except for integers too large for 64 bits, which the default reader turns
 * into doubles.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "internal.h"

#define LOCAL_DEPTH 256u

static bool raw_is_integer(const jet_val *v) {
    const char *s = v->uni.str;
    size_t n = jet_get_len(v), i = 0;
    if (n && s[0] == '-') i = 1;
    if (i == n) return false;
    for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

void jet_val_stats(const jet_val *root, jet_stats *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!root || jet_get_type(root) == JET_TYPE_NONE) return;

    const jet_val *v = root;
    const jet_val *end = root + (jet_is_container(root) ? root->uni.ofs : 1);
    /* Ends of the open containers, innermost last. The stack grows with
     * malloc (this API has no allocator or error path); if that fails, the
     * container is not tracked and max_depth becomes a lower bound (the
     * counts stay exact). */
    const jet_val *local[LOCAL_DEPTH];
    const jet_val **stack = local;
    size_t cap = LOCAL_DEPTH, depth = 0;
    uint64_t str_slots = 0, max_depth = 0;

    for (; v < end; v++) {
        while (depth && stack[depth - 1] == v) depth--;
        switch (jet_get_type(v)) {
        case JET_TYPE_OBJ:
        case JET_TYPE_ARR: {
            if (jet_is_obj(v)) {
                out->objects++;
                out->keys += jet_get_len(v);
            } else {
                out->arrays++;
            }
            size_t d = depth + 1;
            if (d > max_depth) max_depth = d;
            if (depth == cap) {
                size_t ncap = cap * 2;
                const jet_val **ns = (const jet_val **)malloc(ncap * sizeof *ns);
                if (!ns) break; /* untracked: depth undercounts from here */
                memcpy(ns, stack, depth * sizeof *ns);
                if (stack != local) free((void *)stack);
                stack = ns;
                cap = ncap;
            }
            stack[depth++] = v + v->uni.ofs;
            break;
        }
        case JET_TYPE_STR:
            str_slots++;
            out->string_bytes += jet_get_len(v);
            break;
        case JET_TYPE_NUM:
            out->numbers++;
            if (jet_is_real(v)) out->doubles++;
            else out->integers++;
            break;
        case JET_TYPE_RAW:
            out->numbers++;
            if (raw_is_integer(v)) out->integers++;
            else out->doubles++;
            break;
        case JET_TYPE_BOOL:
            if (jet_is_true(v)) out->trues++;
            else out->falses++;
            break;
        case JET_TYPE_NULL:
            out->nulls++;
            break;
        default:
            break;
        }
    }
    if (stack != local) free((void *)stack);
    out->strings = str_slots - out->keys;
    out->max_depth = max_depth;
}

size_t jet_stats_format(const jet_stats *s, char *buf, size_t cap) {
    if (!s) return 0;
    char tmp[1];
    if (!buf || cap == 0) {
        buf = tmp;
        cap = 0;
    }
    int n = snprintf(buf, cap,
                     "{\"objects\":%" PRIu64 ",\"arrays\":%" PRIu64 ",\"strings\":%" PRIu64
                     ",\"numbers\":%" PRIu64 ",\"integers\":%" PRIu64 ",\"doubles\":%" PRIu64
                     ",\"trues\":%" PRIu64 ",\"falses\":%" PRIu64 ",\"nulls\":%" PRIu64
                     ",\"keys\":%" PRIu64 ",\"max_depth\":%" PRIu64
                     ",\"string_bytes\":%" PRIu64 "}",
                     s->objects, s->arrays, s->strings, s->numbers, s->integers, s->doubles,
                     s->trues, s->falses, s->nulls, s->keys, s->max_depth, s->string_bytes);
    return n < 0 ? 0 : (size_t)n;
}
