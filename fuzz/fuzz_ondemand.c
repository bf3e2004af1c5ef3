/* fuzz_ondemand.c — libFuzzer target: the on-demand cursor (jet.h section
 * 12) over arbitrary bytes.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_ondemand
 *   build-fuzz/fuzz/fuzz_ondemand -max_total_time=60
 *
 * Each input sits in an exact-size heap copy (no NUL, no padding, so ASan
 * catches any over-read) and is read by one reused cursor:
 *   - a walk driven by the value types and by choices drawn from the input
 *     (every getter, skips, early exits from containers, finds of keys
 *     taken from the input), under a few flag sets: it must never crash,
 *     raw views stay inside the input, and every error has a code, a
 *     message, a path and an offset inside the input whose line:column
 *     match it;
 *   - when the DOM reader accepts the input: a walk of everything with the
 *     getter the DOM's type calls for must succeed and read the same values
 *     (in the default mode and with JET_READ_LAZY), and so must a walk
 *     that looks members up with jet_od_obj_find in a shuffled order, and
 *     the root skipped whole, strictly and lazily;
 *   - when the DOM rejects it: that full walk and the root's strict skip
 *     must fail, the walk with the DOM reader's code, the skip with its
 *     code and offset;
 *   - walk 2 runs strict for half the inputs, and with every extension the
 *     DOM reader has (comments, trailing commas, NaN/Infinity, invalid
 *     UTF-8) for the other half.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"
#include "internal.h" /* jet__od_window_set */
#include "ondemand.h" /* od->json: the text read (a copy when comments are blanked) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jet_od *od;
static const char *in; /* the current input and its size */
static size_t in_len;
static uint64_t rng;

static void fail(const char *what) {
    const jet_error *e = jet_od_error(od);
    fprintf(stderr, "fuzz_ondemand: %s (cursor: %s at %zu %zu:%zu, %s, path %s)\n", what,
            jet_code_name(e->code), e->offset, e->line, e->column, e->msg ? e->msg : "-",
            e->path ? e->path : "-");
    abort();
}

static unsigned pick(unsigned n) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (unsigned)((rng * 0x2545F4914F6CDD1Dull) >> 33) % n;
}

/* Every error: a code, a message, a path, an offset inside the input whose
 * line and column (code points) match it. */
static void check_error(void) {
    if (jet_od_ok(od)) return;
    const jet_error *e = jet_od_error(od);
    if (e->code == JET_OK || e->code >= JET_ERR__COUNT) fail("failure without an error code");
    if (!e->msg) fail("error without a message");
    if (e->offset > in_len) fail("error offset past the end of the input");
    if (e->path && e->path[0] && e->path[0] != '/') fail("error path is not a JSON Pointer");
    size_t line = 1, col = 1;
    for (size_t i = 0; i < e->offset; i++) {
        if (in[i] == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)in[i] & 0xC0) != 0x80) {
            col++;
        }
    }
    if (e->line != line || e->column != col) fail("error line:column do not match its offset");
}

static void check_view(jet_str s) {
    /* with comments allowed, views are into the cursor's blanked copy */
    const char *t = od->json;
    if (s.len && (s.ptr < in || s.ptr + s.len > in + in_len) && (s.ptr < t || s.ptr + s.len > t + in_len))
        fail("raw view outside the input");
}

/* ---- walk 1: driven by types and by choices from the input --------------- */

static void walk_any(jet_odv *v, unsigned depth);

static void walk_container(jet_odv *v, bool obj, unsigned depth) {
    jet_od_iter it;
    if (obj ? !jet_odv_obj(v, &it) : !jet_odv_arr(v, &it)) return;
    if (obj && pick(4) == 0) {
        /* look members up by name: names drawn from the input, or common ones */
        static const char *const names[] = {"a", "id", "", "b", "text", "0"};
        for (unsigned n = 1 + pick(4); n-- > 0;) {
            jet_odv m;
            const char *k;
            size_t kl;
            if (pick(2) && in_len) {
                size_t at = pick((unsigned)in_len);
                k = in + at;
                kl = pick(4);
                if (kl > in_len - at) kl = in_len - at;
            } else {
                k = names[pick(sizeof names / sizeof names[0])];
                kl = strlen(k);
            }
            if (jet_od_obj_find(&it, k, kl, &m)) walk_any(&m, depth + 1);
            if (!jet_od_ok(od)) return;
        }
        return;
    }
    jet_odv e;
    jet_str key;
    for (;;) {
        bool more = obj ? jet_od_obj_next(&it, &key, &e) : jet_od_arr_next(&it, &e);
        if (!more) return;
        switch (pick(8)) {
        case 0: return; /* early exit: the parent skips the rest */
        case 1: jet_odv_skip(&e); break;
        default: walk_any(&e, depth + 1); break;
        }
        if (!jet_od_ok(od)) return;
    }
}

static void walk_any(jet_odv *v, unsigned depth) {
    jet_str s;
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    float f;
    if (depth > 2000) return;
    switch (jet_odv_type(v)) {
    case JET_TYPE_OBJ:
        if (pick(6) == 0) {
            if (jet_odv_get_raw(v, &s)) check_view(s);
        } else {
            walk_container(v, true, depth);
        }
        return;
    case JET_TYPE_ARR:
        if (pick(6) == 0) {
            if (jet_odv_get_raw(v, &s)) check_view(s);
        } else {
            walk_container(v, false, depth);
        }
        return;
    default: break;
    }
    bool read = false;
    switch (pick(10)) {
    case 0: read = jet_odv_get_bool(v, &b); break;
    case 1: read = jet_odv_get_i64(v, &i); break;
    case 2: read = jet_odv_get_u64(v, &u); break;
    case 3: read = jet_odv_get_double(v, &d); break;
    case 4: read = jet_odv_get_float(v, &f); break;
    case 5: read = jet_odv_get_str(v, &s); break;
    case 6:
        read = jet_odv_get_raw(v, &s);
        if (read) check_view(s);
        break;
    case 7: read = jet_odv_is_null(v); break;
    case 8: read = jet_odv_skip(v); break;
    default: /* the getter the first byte calls for */
        switch (jet_odv_type(v)) {
        case JET_TYPE_STR: read = jet_odv_get_str(v, &s); break;
        case JET_TYPE_BOOL: read = jet_odv_get_bool(v, &b); break;
        case JET_TYPE_NULL: read = jet_odv_is_null(v); break;
        default: read = jet_odv_get_double(v, &d); break;
        }
        break;
    }
    /* a handle is read at most once */
    if (read && pick(16) == 0) {
        if (jet_odv_get_raw(v, &s)) fail("a handle read twice");
        if (jet_od_error(od)->code != JET_ERR_OUT_OF_ORDER) fail("second read: not JET_ERR_OUT_OF_ORDER");
    }
}

/* ---- walk 2: everything, checked against the DOM ------------------------- */

static bool has_duplicate_keys(const jet_val *obj) {
    jet_obj_iter a = jet_obj_iter_init(obj);
    for (jet_val *k; (k = jet_obj_iter_next(&a));) {
        jet_obj_iter b = a;
        for (jet_val *k2; (k2 = jet_obj_iter_next(&b));)
            if (jet_get_len(k) == jet_get_len(k2) &&
                memcmp(jet_get_str(k), jet_get_str(k2), jet_get_len(k)) == 0)
                return true;
    }
    return false;
}

/* Reads `v` with the getters the DOM value `d` calls for and compares; with
 * `by_find`, objects are read through jet_od_obj_find in a shuffled order.
 * Returns false on a cursor error; aborts on a difference. */
static bool same(jet_odv *v, const jet_val *d, bool by_find) {
    switch (jet_get_type(d)) {
    case JET_TYPE_OBJ: {
        jet_od_iter it;
        if (!jet_odv_obj(v, &it)) return false;
        size_t n = jet_obj_size(d);
        if (by_find && n <= 64 && !has_duplicate_keys(d)) {
            const jet_val *keys[64];
            jet_obj_iter oi = jet_obj_iter_init(d);
            size_t k = 0;
            for (jet_val *kv; (kv = jet_obj_iter_next(&oi));) keys[k++] = kv;
            for (size_t j = n; j > 1; j--) {
                size_t r = pick((unsigned)j);
                const jet_val *t = keys[j - 1];
                keys[j - 1] = keys[r];
                keys[r] = t;
            }
            for (k = 0; k < n; k++) {
                jet_odv m;
                if (!jet_od_obj_find(&it, jet_get_str(keys[k]), jet_get_len(keys[k]), &m)) {
                    if (jet_od_ok(od)) fail("jet_od_obj_find misses a member the DOM has");
                    return false;
                }
                if (!same(&m, jet_obj_iter_value(keys[k]), by_find)) return false;
            }
            jet_odv m;
            if (jet_od_obj_find(&it, "\xff", 1, &m)) fail("jet_od_obj_find finds a key that is not there");
            return jet_od_ok(od);
        }
        jet_obj_iter oi = jet_obj_iter_init(d);
        jet_str key;
        jet_odv m;
        for (jet_val *kv; (kv = jet_obj_iter_next(&oi));) {
            if (!jet_od_obj_next(&it, &key, &m)) {
                if (jet_od_ok(od)) fail("object ends early");
                return false;
            }
            if (key.len != jet_get_len(kv) || (key.len && memcmp(key.ptr, jet_get_str(kv), key.len)))
                fail("different key");
            if (!same(&m, jet_obj_iter_value(kv), by_find)) return false;
        }
        if (jet_od_obj_next(&it, &key, &m)) fail("object has more members than the DOM's");
        return jet_od_ok(od);
    }
    case JET_TYPE_ARR: {
        jet_od_iter it;
        if (!jet_odv_arr(v, &it)) return false;
        jet_arr_iter ai = jet_arr_iter_init(d);
        jet_odv e;
        for (jet_val *ev; (ev = jet_arr_iter_next(&ai));) {
            if (!jet_od_arr_next(&it, &e)) {
                if (jet_od_ok(od)) fail("array ends early");
                return false;
            }
            if (!same(&e, ev, by_find)) return false;
        }
        if (jet_od_arr_next(&it, &e)) fail("array has more elements than the DOM's");
        return jet_od_ok(od);
    }
    case JET_TYPE_STR: {
        jet_str s;
        if (!jet_odv_get_str(v, &s)) return false;
        if (s.len != jet_get_len(d) || (s.len && memcmp(s.ptr, jet_get_str(d), s.len)))
            fail("different string");
        return true;
    }
    case JET_TYPE_BOOL: {
        bool b;
        if (!jet_odv_get_bool(v, &b)) return false;
        if (b != jet_is_true(d)) fail("different bool");
        return true;
    }
    case JET_TYPE_NULL:
        if (!jet_odv_is_null(v)) {
            if (jet_od_ok(od)) fail("null not seen");
            return false;
        }
        return true;
    default:
        if (jet_is_uint(d)) {
            uint64_t u;
            if (!jet_odv_get_u64(v, &u)) return false;
            if (u != jet_get_uint(d)) fail("different uint64");
        } else if (jet_is_sint(d)) {
            int64_t i;
            if (!jet_odv_get_i64(v, &i)) return false;
            if (i != jet_get_sint(d)) fail("different int64");
        } else {
            double x;
            if (!jet_odv_get_double(v, &x)) return false;
            double y = jet_get_real(d);
            if (x != y && !(x != x && y != y)) fail("different double"); /* NaN equals NaN here */
        }
        return true;
    }
}

/* Reads everything with type-driven strict getters (no DOM). */
static bool read_all(jet_odv *v, size_t *values) {
    ++*values;
    switch (jet_odv_type(v)) {
    case JET_TYPE_OBJ: {
        jet_od_iter it;
        jet_str k;
        jet_odv m;
        if (!jet_odv_obj(v, &it)) return false;
        while (jet_od_obj_next(&it, &k, &m)) {
            ++*values;
            if (!read_all(&m, values)) return false;
        }
        return jet_od_ok(od);
    }
    case JET_TYPE_ARR: {
        jet_od_iter it;
        jet_odv e;
        if (!jet_odv_arr(v, &it)) return false;
        while (jet_od_arr_next(&it, &e))
            if (!read_all(&e, values)) return false;
        return jet_od_ok(od);
    }
    case JET_TYPE_STR: {
        jet_str s;
        return jet_odv_get_str(v, &s);
    }
    case JET_TYPE_BOOL: {
        bool b;
        return jet_odv_get_bool(v, &b);
    }
    case JET_TYPE_NULL: return jet_odv_is_null(v);
    default: {
        double d;
        return jet_odv_get_double(v, &d);
    }
    }
}

static bool start(jet_read_flags flags, jet_odv *root) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    bool ok = jet_od_start(od, in, in_len, &o, root);
    if (ok != jet_od_ok(od)) fail("jet_od_start's result and jet_od_ok disagree");
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 20)) return 0;
    if (!od) od = jet_od_new(NULL);
    if (!od) return 0;
    char *json = (char *)malloc(size ? size : 1);
    if (!json) return 0;
    memcpy(json, data, size);
    in = json;
    in_len = size;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 0x100000001b3ull;
    /* three inputs in four (up to 4 KiB: finds that go back rescan windows):
     * the cursor's index in windows of 2 x 1 to 2 x 4
     * words, so that values, strings and escapes cross window boundaries
     * and finds go back across them */
    size_t half = (h & 3) && size <= 4096 ? 1 + (size_t)((h >> 8) & 3) : 0;
    jet__od_window_set(half);
    jet_odv root;

    /* walk 1, under a few flag sets */
    static const jet_read_flags flag_sets[] = {
        0, JET_READ_LAZY, JET_READ_ALLOW_INVALID_UTF8 | JET_READ_ALLOW_NAN_INF,
        JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS};
    for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
        rng = h ^ (0x9E3779B97F4A7C15ull * (f + 1));
        if (!rng) rng = 1;
        root.od = od;
        root.pos = 0;
        root.depth = 0;
        if (start(flag_sets[f], &root)) walk_any(&root, 0);
        check_error();
        jet_od_finish(od);
        check_error();
        if (!jet_od_ok(od) && jet_odv_type(&root) != JET_TYPE_NONE) fail("type peek after an error");
    }

    /* walk 2, against the DOM */
    jet_read_opts lenient;
    memset(&lenient, 0, sizeof lenient);
    if ((h >> 20) & 1)
        lenient.flags = JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_ALLOW_NAN_INF |
                        JET_READ_ALLOW_INVALID_UTF8;
    const jet_read_flags lf = lenient.flags;
    jet_error derr;
    jet_doc *doc = jet_read(json, size, &lenient, NULL, &derr);
    size_t values = 0;
    bool all = start(lf, &root) && read_all(&root, &values) && jet_od_finish(od);
    check_error();
    if (!doc && !all && jet_od_error(od)->code != derr.code) fail("a full walk's error code differs from the DOM's");
    /* the strict skip (the default) of the whole root: the DOM's verdict,
     * and its error; the lazy one never rejects what the DOM accepts */
    bool all_v = start(lf, &root) && jet_odv_skip(&root) && jet_od_finish(od);
    check_error();
    if (!doc && !all_v &&
        (jet_od_error(od)->code != derr.code || jet_od_error(od)->offset != derr.offset))
        fail("the strict skip's error differs from the DOM's");
    bool all_lazy = start(lf | JET_READ_LAZY, &root) && jet_odv_skip(&root) && jet_od_finish(od);
    check_error();
    if (half) {
        /* through the window, the same errors as with the whole index:
         * code, offset and JSON Pointer (a full walk, the strict skip) */
        for (int walk = 0; walk < 2; walk++) {
            jet_code code[2];
            size_t off[2];
            static char path[2][16384]; /* a pointer of a 4 KiB input: at most 8 KiB */
            for (int k = 0; k < 2; k++) {
                jet__od_window_set(k ? 0 : half);
                size_t vals = 0;
                if (start(lf, &root) && (walk ? jet_odv_skip(&root) : read_all(&root, &vals))) jet_od_finish(od);
                const jet_error *e = jet_od_error(od);
                code[k] = e->code;
                off[k] = e->offset;
                snprintf(path[k], sizeof path[k], "%s", e->path ? e->path : "-");
            }
            if (code[0] != code[1] || off[0] != off[1] || strcmp(path[0], path[1]) != 0) {
                fprintf(stderr, "window: %s at %zu, path %s; whole index: %s at %zu, path %s\n",
                        jet_code_name(code[0]), off[0], path[0], jet_code_name(code[1]), off[1], path[1]);
                fail(walk ? "the strict skip's error through the window differs from the whole index's"
                          : "a full walk's error through the window differs from the whole index's");
            }
        }
        jet__od_window_set(half);
    }
    if (doc) {
        if (!all) fail("the DOM accepts what a full cursor walk rejects");
        if (!all_v) fail("the DOM accepts what the strict skip rejects");
        if (!all_lazy) fail("the DOM accepts what the lazy skip rejects");
        if (values != jet_doc_val_count(doc)) fail("value counts differ from the DOM's");
        const jet_val *r = jet_doc_root(doc);
        rng = h | 1;
        if (!(start(lf | JET_READ_LAZY, &root) && same(&root, r, false) && jet_od_finish(od)))
            fail("lazy walk differs from the DOM");
        if (!(start(lf, &root) && same(&root, r, false) && jet_od_finish(od)))
            fail("default walk differs from the DOM");
        if (!(start(lf, &root) && same(&root, r, true) && jet_od_finish(od)))
            fail("find walk differs from the DOM");
    } else {
        if (all) fail("a full cursor walk accepts what the DOM rejects");
        if (all_v) fail("the strict skip accepts what the DOM rejects");
    }
    jet_doc_free(doc);
    free(json);
    return 0;
}
