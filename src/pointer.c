/*
 * pointer.c — JSON Pointer (RFC 6901) evaluation over the flat DOM.
 *
 * The pointer text is validated as a whole first, so a malformed pointer is
 * always JET_ERR_POINTER (offset of the bad '~' or of the first byte),
 * whatever the document holds. Reference tokens are then matched without
 * unescaping into a buffer: keys are compared byte by byte against the
 * escaped token.
 *
 * Array tokens: "0" or digits without a leading zero select an element;
 * "-" (the element after the last), a leading zero, any other text, or an
 * index past the end is JET_ERR_NOT_FOUND (the pointer is well formed, it
 * just names nothing).
 *
 * Errors carry offsets into the pointer text, never into the document:
 * JET_ERR_NOT_FOUND points at the '/' that starts the token naming nothing
 * (the text before it resolves), and the message says which case it is.
 */
#include "internal.h"

/* Checks the syntax: empty, or '/'-separated tokens where '~' is always
 * followed by '0' or '1'. Returns the offset of the first error or len. */
static size_t ptr_check(const char *ptr, size_t len) {
    if (len == 0) return len;
    if (ptr[0] != '/') return 0;
    for (size_t i = 1; i < len; i++) {
        if (ptr[i] == '~') {
            if (i + 1 >= len || (ptr[i + 1] != '0' && ptr[i + 1] != '1')) return i;
            i++;
        }
    }
    return len;
}

/* true when the key (klen bytes) equals the escaped token tok[0..tlen). */
static bool key_matches(const char *key, size_t klen, const char *tok, size_t tlen,
                        size_t unesc_len, bool has_tilde) {
    if (klen != unesc_len) return false;
    if (!has_tilde) return memcmp(key, tok, tlen) == 0;
    size_t k = 0;
    for (size_t i = 0; i < tlen; i++, k++) {
        char c = tok[i];
        if (c == '~') c = tok[++i] == '0' ? '~' : '/';
        if (key[k] != c) return false;
    }
    return true;
}

/* Array element `idx`, or NULL. O(1) when every element is one slot. */
static jet_val *arr_at(const jet_val *arr, size_t idx) {
    size_t n = jet_get_len(arr);
    if (idx >= n) return NULL;
    if (arr->uni.ofs == n + 1) return (jet_val *)(arr + 1 + idx);
    const jet_val *v = arr + 1;
    while (idx--) v = jet_next(v);
    return (jet_val *)v;
}

jet_val *jet_ptr_getn(const jet_val *root, const char *ptr, size_t len, jet_error *err) {
    if (!root || (!ptr && len)) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL root or pointer");
        return NULL;
    }
    size_t bad = ptr_check(ptr, len);
    if (bad != len) {
        jet__error_set(err, JET_ERR_POINTER, bad,
                       bad == 0 ? "JSON Pointer must be empty or start with '/'"
                                : "'~' must be followed by '0' or '1' in a JSON Pointer");
        return NULL;
    }
    const jet_val *cur = root;
    size_t i = 0;
    while (i < len) {
        size_t start = ++i; /* skip '/' */
        size_t tildes = 0;
        while (i < len && ptr[i] != '/') {
            tildes += ptr[i] == '~';
            i++;
        }
        const char *tok = ptr + start;
        size_t tlen = i - start;
        const jet_val *next = NULL;
        const char *why = "no member or element inside a string, number, boolean or null";
        if (jet_is_obj(cur)) {
            why = "no member with this key";
            size_t ulen = tlen - tildes;
            jet_obj_iter it = jet_obj_iter_init(cur);
            for (jet_val *k; (k = jet_obj_iter_next(&it));) {
                if (key_matches(k->uni.str, jet_get_len(k), tok, tlen, ulen, tildes != 0)) {
                    next = k + 1;
                    break;
                }
            }
        } else if (jet_is_arr(cur)) {
            /* Digits only, no leading zero (except "0"); overflow → absent. */
            bool ok = tlen > 0 && (tlen == 1 || tok[0] != '0');
            size_t idx = 0;
            for (size_t j = 0; ok && j < tlen; j++) {
                unsigned d = (unsigned)(unsigned char)tok[j] - '0';
                if (d > 9 || idx > (SIZE_MAX - d) / 10) ok = false;
                else idx = idx * 10 + d;
            }
            if (ok) next = arr_at(cur, idx);
            why = ok ? "array index out of range"
                  : tlen == 1 && tok[0] == '-' ? "'-' names the element after the last, which does not exist"
                                              : "not an array index (digits, no leading zero)";
        }
        if (!next) {
            jet__error_set(err, JET_ERR_NOT_FOUND, start - 1, why);
            return NULL;
        }
        cur = next;
    }
    return (jet_val *)cur;
}

jet_val *jet_ptr_get(const jet_val *root, const char *ptr, jet_error *err) {
    if (!ptr) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0, "NULL pointer text");
        return NULL;
    }
    return jet_ptr_getn(root, ptr, strlen(ptr), err);
}
