/* fuzz_bind.c — libFuzzer target: typed decoding and encoding (jet.h
 * section 13) over arbitrary bytes.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_bind
 *   build-fuzz/fuzz/fuzz_bind -max_total_time=60
 *
 * Each input, in an exact-size heap copy, is decoded with every example
 * schema (examples/schemas.h: TwitterStats, the nostr message union,
 * ApiResponse) and with the test suite's struct of every kind
 * (tests/kitchen.h), under the default flags (strict: an input the DOM
 * reader rejects must fail), JET_READ_LAZY (accepts at least as much, with
 * the same values) and JET_READ_REJECT_UNKNOWN. A failure must come with
 * an error code, a message and an offset inside the input. When a decode
 * succeeds, encoding must succeed; the text (in an exact-size copy) must
 * decode again to an equal value (tests/bind_eq.h), and encoding that must
 * give the same text; pretty and ASCII output must decode to it too. A
 * successful decode with the strict flags implies one with the default
 * flags, to the same value, and that the DOM reader accepts the input.
 * Positional structs and array unions decode as their general path does,
 * and every schema through the cursor's bounded window as with the whole
 * index (same_paths).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind_eq.h"
#include "jet.h"
#include "internal.h" /* jet__od_window_set */
#include "kitchen.h"
#include "schemas.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jet_od *od1, *od2, *od3;
static jet_arena arena;
static bool dom_ok; /* the DOM reader accepts the current input */

static void fail(const char *schema, const char *what, const jet_error *e) {
    fprintf(stderr, "fuzz_bind: %s: %s", schema, what);
    if (e)
        fprintf(stderr, " (%s at %zu, %s, path %s)", jet_code_name(e->code), e->offset,
                e->msg ? e->msg : "-", e->path ? e->path : "-");
    if (beq_where) fprintf(stderr, " [field %s]", beq_where);
    fputc('\n', stderr);
    abort();
}

static char *copy_exact(const char *s, size_t n) {
    char *c = (char *)malloc(n ? n : 1);
    if (c && n) memcpy(c, s, n);
    return c;
}

static bool decode(jet_od *od, jet_struct *t, void *out, const char *json, size_t len,
                   jet_read_flags flags, jet_error *e) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    memset(e, 0, sizeof *e);
    return jet_decode(od, json, len, t, out, &arena, &o, e);
}

/* Encodes `v`, decodes the text into `back` with od2, compares. */
static void round_trip(const char *name, jet_struct *t, const void *v, void *back,
                       jet_write_flags wf, bool again) {
    jet_buf b;
    jet_error e;
    jet_buf_init(&b, NULL);
    if (!jet_encode(&b, t, v, wf, &e)) fail(name, "encode failed", &e);
    if (b.data[b.len] != '\0') fail(name, "encoded text not terminated", NULL);
    char *text = copy_exact(b.data, b.len);
    if (!text) abort();
    if (!decode(od2, t, back, text, b.len, 0, &e)) {
        fprintf(stderr, "encoded: %.*s\n", (int)(b.len < 2000 ? b.len : 2000), b.data);
        fail(name, "encoded text does not decode", &e);
    }
    if (!bind_equal(t, v, back)) fail(name, "round trip changes the value", NULL);
    if (again) {
        /* the value read back encodes to the same text */
        jet_buf b2;
        jet_buf_init(&b2, NULL);
        if (!jet_encode(&b2, t, back, wf, &e)) fail(name, "second encode failed", &e);
        if (b2.len != b.len || memcmp(b2.data, b.data, b.len) != 0)
            fail(name, "second encoding differs", NULL);
        jet_buf_free(&b2);
    }
    free(text);
    jet_buf_free(&b);
}

static void one(const char *name, jet_struct *t, const char *json, size_t len, unsigned sel) {
    void *a = malloc(t->size), *b = malloc(t->size), *c = malloc(t->size);
    if (!a || !b || !c) abort();
    jet_error e, es;
    jet_arena_reset(&arena);
    bool ok = decode(od1, t, a, json, len, 0, &e);
    if (!ok && (e.code == JET_OK || !e.msg || e.offset > len)) fail(name, "bad error", &e);
    /* strict flags: success implies success in the default mode, same value */
    if (ok && !dom_ok) fail(name, "the default (strict) mode accepts what the DOM rejects", NULL);
    bool oks = decode(od3, t, c, json, len, JET_READ_REJECT_UNKNOWN, &es);
    if (!oks && (es.code == JET_OK || !es.msg || es.offset > len)) fail(name, "bad error (strict)", &es);
    if (oks && !ok) fail(name, "strict flags accept what the default rejects", &e);
    if (oks && !bind_equal(t, a, c)) fail(name, "strict decode gives a different value", NULL);
    bool okl = decode(od3, t, c, json, len, JET_READ_LAZY, &es);
    if (ok && !okl) fail(name, "JET_READ_LAZY rejects what the default accepts", &es);
    if (ok && okl && !bind_equal(t, a, c)) fail(name, "lazy decode gives a different value", NULL);
    if (ok) {
        round_trip(name, t, a, b, 0, true);
        static const jet_write_flags wfs[] = {JET_WRITE_INDENT(2), JET_WRITE_ASCII,
                                              JET_WRITE_ESCAPE_SLASHES | JET_WRITE_INDENT(7),
                                              JET_WRITE_NEWLINE_AT_END | JET_WRITE_ASCII};
        round_trip(name, t, a, b, wfs[sel % 4], false);
    }
    free(a);
    free(b);
    free(c);
}

/* Each schema decoded twice, strict and lazy, the second time another way
 * (`half` 0: positional structs and array unions by their general path,
 * the jet__bind_tuple_general_only hook; else with the cursor's index in
 * windows of 2 x `half` words against the whole index: its general paths,
 * window loads and error walks): the same verdict, value and error (code,
 * offset, message, JSON Pointer; lazy through the window, the verdict and
 * value only). */
static void same_paths(const char *name, jet_struct *t, const char *json, size_t len, size_t half) {
    static const jet_read_flags fls[] = {0, JET_READ_LAZY};
    void *a = malloc(t->size), *b = malloc(t->size);
    if (!a || !b) abort();
    for (size_t k = 0; k < sizeof fls / sizeof fls[0]; k++) {
        jet_error e1, e2;
        jet_arena_reset(&arena);
        if (half) jet__od_window_set(0);
        bool ok1 = decode(od1, t, a, json, len, fls[k], &e1);
        if (half)
            jet__od_window_set(half);
        else
            jet__bind_tuple_general_only(true);
        bool ok2 = decode(od2, t, b, json, len, fls[k], &e2);
        jet__bind_tuple_general_only(false);
        if (ok1 != ok2) fail(name, "the other path's verdict differs", ok1 ? &e2 : &e1);
        if (ok1 && !bind_equal(t, a, b)) fail(name, "the other path's value differs", NULL);
        /* (lazy through the window: a schema's error met before a window
         * whose stage 1 fails is the one reported, where the whole index
         * reports the DOM reader's; docs/typed.md) */
        bool errors_may_differ = half && (fls[k] & JET_READ_LAZY);
        if (!ok1 && !errors_may_differ &&
            (e1.code != e2.code || e1.offset != e2.offset || strcmp(e1.msg, e2.msg) != 0 ||
             !e1.path != !e2.path || (e1.path && strcmp(e1.path, e2.path) != 0))) {
            fprintf(stderr, "first path: %s at %zu, path %s\n", jet_code_name(e1.code), e1.offset,
                    e1.path ? e1.path : "-");
            fail(name, half ? "the windowed error differs" : "the general path's error differs", &e2);
        }
    }
    free(a);
    free(b);
}

/* jet_odv_decode on every element of an array root (nostr events). */
static void elements(const char *json, size_t len) {
    jet_odv root, v;
    jet_od_iter it;
    NostrEvent ev;
    if (!jet_od_start(od1, json, len, NULL, &root)) return;
    if (jet_odv_type(&root) != JET_TYPE_ARR || !jet_odv_arr(&root, &it)) return;
    while (jet_od_arr_next(&it, &v)) {
        if (jet_odv_type(&v) == JET_TYPE_OBJ) {
            if (!jet_odv_decode(&v, &nostr_event_type, &ev, &arena)) break;
        } else if (!jet_odv_skip(&v)) {
            break;
        }
    }
    jet_od_finish(od1);
    if (!jet_od_ok(od1)) {
        const jet_error *e = jet_od_error(od1);
        if (e->code == JET_OK || !e->msg || e->offset > len) fail("odv_decode", "bad error", e);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 18)) return 0;
    if (!od1) {
        od1 = jet_od_new(NULL);
        od2 = jet_od_new(NULL);
        od3 = jet_od_new(NULL);
        jet_arena_init(&arena, NULL);
    }
    if (!od1 || !od2 || !od3) return 0;
    char *json = copy_exact((const char *)data, size);
    if (!json) return 0;
    unsigned sel = size ? data[size - 1] : 0;
    /* the cursor's index in windows of 2 x 1 to 2 x 4 words for three
     * inputs in four (values cross window boundaries) */
    size_t half = (sel & 3) && size <= 4096 ? 1 + (size_t)((sel >> 2) & 3) : 0;
    jet__od_window_set(half);
    jet_doc *doc = jet_read(json, size, NULL, NULL, NULL);
    dom_ok = doc != NULL;
    jet_doc_free(doc);
    one("TwTimeline", &tw_timeline_type, json, size, sel);
    one("NostrMessage", &nostr_message_type, json, size, sel);
    one("ApiResponse", &api_response_type, json, size, sel);
    one("Kitchen", &kitchen_type, json, size, sel);
    one("Point", &point_type, json, size, sel);
    same_paths("NostrMessage", &nostr_message_type, json, size, 0);
    same_paths("Kitchen", &kitchen_type, json, size, 0);
    if (half) {
        same_paths("NostrMessage", &nostr_message_type, json, size, half);
        same_paths("Kitchen", &kitchen_type, json, size, half);
        same_paths("TwTimeline", &tw_timeline_type, json, size, half);
        same_paths("ApiResponse", &api_response_type, json, size, half);
    }
    elements(json, size);
    jet_arena_reset(&arena);
    free(json);
    return 0;
}
