/*
 * od_error.c — the on-demand cursor's errors (jet.h section 12).
 *
 * Errors are sticky and carry a JSON Pointer, computed only when an error
 * happens by walking the document's tokens again from the root to the
 * offset, once (linear in the input, issue 23).
 */
#include "ondemand.h"

#include <string.h>

/* ========================================================================== */
/* Errors and their JSON Pointer                                              */
/* ========================================================================== */

static bool path_reserve(jet_od *od, size_t need) {
    if (need <= od->path_cap) return true;
    size_t cap = od->path_cap ? od->path_cap : 64;
    while (cap < need) cap *= 2;
    char *p = (char *)jet__realloc(&od->alloc, od->path, od->path_cap, cap);
    if (!p) return false;
    od->path = p;
    od->path_cap = cap;
    return true;
}

/* Appends "/" and a reference token (RFC 6901: '~' -> "~0", '/' -> "~1"). */
static bool path_push_key(jet_od *od, size_t *n, const char *k, size_t len) {
    if (!path_reserve(od, *n + 2 * len + 2)) return false;
    od->path[(*n)++] = '/';
    for (size_t i = 0; i < len; i++) {
        if (k[i] == '~' || k[i] == '/') {
            od->path[(*n)++] = '~';
            od->path[(*n)++] = k[i] == '~' ? '0' : '1';
        } else {
            od->path[(*n)++] = k[i];
        }
    }
    od->path[*n] = 0;
    return true;
}

static bool path_push_index(jet_od *od, size_t *n, size_t idx) {
    char tmp[24];
    size_t t = 0;
    do {
        tmp[t++] = (char)('0' + idx % 10);
        idx /= 10;
    } while (idx);
    if (!path_reserve(od, *n + t + 2)) return false;
    od->path[(*n)++] = '/';
    while (t) od->path[(*n)++] = tmp[--t];
    od->path[*n] = 0;
    return true;
}

/* Levels the error's JSON Pointer names at most: an error deeper than this
 * is named by the value at this depth that holds it (a prefix), so that the
 * pointer's memory stays bounded whatever max_depth allows. */
#define PATH_LEVELS_MAX 4096u

/* The kinds of the containers open on the pointer's walk, one bit per level
 * (1: object) in od->kinds. */
static bool path_kind_set(jet_od *od, uint32_t level, bool obj) {
    size_t w = level >> 6;
    if (w >= od->kinds_cap) {
        size_t cap = od->kinds_cap ? od->kinds_cap * 2 : 4;
        while (cap <= w) cap *= 2;
        uint64_t *k = (uint64_t *)jet__realloc(&od->alloc, od->kinds, od->kinds_cap * sizeof *k,
                                               cap * sizeof *k);
        if (!k) return false;
        od->kinds = k;
        od->kinds_cap = cap;
    }
    uint64_t b = UINT64_C(1) << (level & 63);
    od->kinds[w] = obj ? (od->kinds[w] | b) : (od->kinds[w] & ~b);
    return true;
}

static bool path_kind_obj(const jet_od *od, uint32_t level) {
    return (od->kinds[level >> 6] >> (level & 63)) & 1;
}

/* Removes the pointer's last reference token: it starts at the last '/'
 * (a '/' in a key is written "~1"). */
static void path_pop(jet_od *od, size_t *n) {
    while (*n && od->path[--*n] != '/') {
    }
    od->path[*n] = 0;
}

/* Adds one to the array index that ends the pointer. */
static bool path_next_index(jet_od *od, size_t *n) {
    size_t i = *n;
    while (od->path[i - 1] == '9') od->path[--i] = '0';
    if (od->path[i - 1] != '/') {
        od->path[i - 1]++;
        return true;
    }
    /* all nines: one digit more, a 1 and zeros */
    if (!path_reserve(od, *n + 2)) return false;
    od->path[i] = '1';
    od->path[(*n)++] = '0';
    od->path[*n] = 0;
    return true;
}

/* Appends the key whose quotes are at ks and ke, unescaped when it has a
 * backslash (into *tmp, grown to *tmp_cap as needed). */
static bool path_push_key_at(jet_od *od, size_t *n, size_t ks, size_t ke, char **tmp, size_t *tmp_cap) {
    const char *k = od->json + ks + 1;
    size_t kl = ke - ks - 1;
    if (!jet__od_has_backslash(od, ks + 1, ke)) return path_push_key(od, n, k, kl);
    if (*tmp_cap < kl + 1) {
        char *t = (char *)jet__realloc(&od->alloc, *tmp, *tmp_cap, kl + 1);
        if (!t) return false;
        *tmp = t;
        *tmp_cap = kl + 1;
    }
    size_t ul = 0;
    if (jet__od_unescape(od, k, kl, *tmp, &ul, false)) return path_push_key(od, n, *tmp, ul);
    return path_push_key(od, n, k, kl);
}

/*
 * Builds the JSON Pointer of the innermost value around `target` in one
 * walk over the tokens from the root up to `target`, so that its cost is
 * linear in the input however deep the value and however much follows it.
 * A member's extent runs from its key (or its value, in an array) to the
 * token after its value; a container ends at its first closing bracket not
 * matched by count (either kind). Where the grammar of a container breaks,
 * its inside no longer counts for the pointer (only its brackets, to find
 * its end): the pointer then names the deepest value known to hold the
 * offset. An offset at the input's end is in no member (the pointer is the
 * root's, ""). The pointer is a stack: each open container's member is its
 * last reference token. Returns the bracket that opens the container
 * holding the value named ('[' or '{'; 0 at the root).
 */
static char build_path(jet_od *od, size_t target) {
    size_t n = 0;
    if (!path_reserve(od, 64)) return 0;
    od->path[0] = 0;
    const char *j = od->json;
    const size_t len = od->len;
    size_t p = od->root;
    if (target >= len || p >= len || p >= target || (j[p] != '[' && j[p] != '{')) return 0;
    uint32_t limit = od->max_depth < PATH_LEVELS_MAX ? od->max_depth + 1 : PATH_LEVELS_MAX;
    uint32_t lv = 0;    /* containers open whose members are followed */
    bool seg = false;   /* the innermost one's member is in the pointer */
    size_t frozen = 0;  /* brackets open in a container whose grammar broke */
    char *tmp = NULL;   /* unescaped keys */
    size_t tmp_cap = 0;
    jet_od_toks t;
    jet__od_toks_seek(od, &t, p);
    p = jet__od_toks_take(&t, len);
    if (p >= len || !path_kind_set(od, 0, j[p] == '{')) goto done; /* no index (stage 1 failed) */
    lv = 1;
    p = jet__od_toks_take(&t, len);
    /* the first token inside the innermost container */
    if (p > target) goto done;
    if (j[p] == ']' || j[p] == '}') goto close;
    if (path_kind_obj(od, lv - 1)) goto key;
value:
    /* an array's element at p (<= target) */
    if (!(seg ? path_next_index(od, &n) : path_push_index(od, &n, 0))) goto done;
    seg = true;
value_at:
    /* the value of the innermost container's member (in the pointer) at p */
    if (p == target) goto done;
    switch (j[p]) {
    case '[':
    case '{':
        if (lv >= limit) {
            frozen = 1;
            goto frozen_next;
        }
        if (!path_kind_set(od, lv, j[p] == '{')) goto done;
        lv++;
        seg = false;
        p = jet__od_toks_take(&t, len);
        if (p > target) goto done;
        if (j[p] == ']' || j[p] == '}') goto close;
        if (path_kind_obj(od, lv - 1)) goto key;
        goto value;
    case ']':
    case '}':
        /* a closing bracket where a value belongs: a member when the
         * offset is before the next token, else its container's end */
        p = jet__od_toks_take(&t, len);
        if (p > target) goto done;
        path_pop(od, &n);
        if (--lv == 0) goto done;
        seg = true;
        goto after_at;
    case '"':
        jet__od_toks_take(&t, len); /* its closing quote */
        break;
    default: /* any other token is one token */
        break;
    }
after:
    p = jet__od_toks_take(&t, len);
after_at:
    /* after the value of the innermost container's member */
    if (p > target) goto done;
    if (j[p] == ',') {
        p = jet__od_toks_take(&t, len);
        if (p > target) {
            path_pop(od, &n); /* between two members */
            seg = false;
            goto done;
        }
        if (!path_kind_obj(od, lv - 1)) goto value;
        goto key;
    }
    if (j[p] == ']' || j[p] == '}') goto close;
    goto broken;
key: {
    /* an object's member at p (<= target): its key, ':' and its value */
    size_t ks = p;
    if (j[ks] != '"') goto broken;
    size_t ke = jet__od_toks_take(&t, len);
    p = ke < len ? jet__od_toks_take(&t, len) : len;
    if (p >= len || j[p] != ':') goto broken;
    p = jet__od_toks_take(&t, len);
    if (p >= len) goto broken;
    if (seg) path_pop(od, &n);
    if (!path_push_key_at(od, &n, ks, ke, &tmp, &tmp_cap)) goto done;
    seg = true;
    if (target < p) goto done; /* in the key, or before the value */
    goto value_at;
}
close:
    /* the innermost container closes at p (<= target) */
    if (seg) path_pop(od, &n);
    if (--lv == 0) goto done;
    seg = true; /* the enclosing member: the container just closed */
    goto after;
broken:
    /* the innermost container's grammar broke at p (<= target or the end):
     * count its brackets from p to find where it ends */
    if (seg) path_pop(od, &n);
    lv--;
    seg = lv > 0;
    frozen = 1;
    goto frozen_at;
frozen_next:
    p = jet__od_toks_take(&t, len);
frozen_at:
    if (p > target) goto done;
    if (j[p] == '[' || j[p] == '{') {
        frozen++;
    } else if ((j[p] == ']' || j[p] == '}') && --frozen == 0) {
        if (lv == 0) goto done;
        seg = true;
        goto after;
    }
    goto frozen_next;
done:
    jet__free(&od->alloc, tmp);
    od->path_work += (p < len ? p : len) - od->root;
    {
        size_t named = lv ? lv - 1 + seg : 0; /* reference tokens in the pointer */
        return named ? (path_kind_obj(od, (uint32_t)named - 1) ? '{' : '[') : 0;
    }
}

/* Records an error of kind `kind`, or (kind JET_E__COUNT) of `code` and
 * `msg`, with the path of the value at `value`. */
static bool fail_in(jet_od *od, jet__err kind, size_t off, size_t value, jet_code code, const char *msg) {
    if (od->failed) return false;
    od->failed = true;
    if (off > od->len) off = od->len;
    char holder = build_path(od, value);
    if (kind == JET_E_AFTER_VALUE) /* a byte glued to a scalar: the separator */
        kind = holder == '{' ? JET_E_EXPECTED_OBJECT_SEP /* its container wants, */
               : holder == '[' ? JET_E_EXPECTED_ARRAY_SEP /* as the DOM reader */
                               : JET_E_TRAILING_CONTENT;  /* says */
    if (kind != JET_E__COUNT) {
        code = jet__errs[kind].code;
        msg = jet__errs[kind].msg;
    }
    jet__error_at(&od->err, code, od->input, od->len, off, msg);
    od->err.path = od->path ? od->path : "";
    return false;
}

size_t jet__od_path_work(const jet_od *od) { return od->path_work; }

bool jet__od_fail(jet_od *od, jet_code code, size_t off, const char *msg) {
    /* an input that ends early: the path of what its last byte is in */
    size_t value = off >= od->len && od->len ? od->len - 1 : off;
    return fail_in(od, JET_E__COUNT, off, value, code, msg);
}

bool jet__od_fail_in(jet_od *od, jet_code code, size_t off, size_t value, const char *msg) {
    return fail_in(od, JET_E__COUNT, off, value, code, msg);
}

bool jet__od_err_in(jet_od *od, jet__err kind, size_t off, size_t value) {
    return fail_in(od, kind, off, value, JET_OK, NULL);
}

bool jet__od_err(jet_od *od, jet__err kind, size_t off) {
    return fail_in(od, kind, off, off, JET_OK, NULL);
}

bool jet__od_fail_missing(jet_od *od, size_t obj_pos, const char *key, size_t key_len) {
    if (od->failed) return false;
    jet__od_err(od, JET_E_MISSING_FIELD, obj_pos);
    size_t n = od->path ? strlen(od->path) : 0;
    path_push_key(od, &n, key, key_len);
    od->err.path = od->path ? od->path : "";
    return false;
}

