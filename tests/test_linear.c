/*
 * test_linear.c — rejecting an input costs time linear in its size,
 * whatever the nesting and wherever the error (issue 23, defect 1).
 *
 * Each hostile shape is built at 1 MiB and at 8 MiB and rejected through
 * jet_od_validate (jet_validate's code), jet_od_start with
 * JET_READ_VALIDATE_ALL and jet_decode with JET_READ_VALIDATE_ALL. The work
 * is not timed: the cursor counts the bytes of input that building the
 * error's JSON Pointer walks over (jet__od_path_work), which is what grew
 * with depth times the remaining input when each enclosing container was
 * closed by a scan to its end. It must stay within a small multiple of the
 * input's size, and grow no faster than the input.
 */
#include "check.h"

#include <jet.h>

#include "decode_target.h"
#include "ondemand.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing buffer for the shapes. */
typedef struct text {
    char *p;
    size_t n, cap;
} text;

static void put(text *t, const char *s, size_t n) {
    if (t->n + n > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->n + n) cap *= 2;
        char *np = (char *)realloc(t->p, cap);
        if (!np) {
            fprintf(stderr, "test_linear: out of memory\n");
            exit(2);
        }
        t->p = np;
        t->cap = cap;
    }
    memcpy(t->p + t->n, s, n);
    t->n += n;
}

static void puts_n(text *t, const char *s, size_t times) {
    size_t n = strlen(s);
    for (size_t i = 0; i < times; i++) put(t, s, n);
}

/* `[` repeated: the depth limit, with the rest of the input unclosed. */
static text open_brackets(size_t size) {
    text t = {NULL, 0, 0};
    puts_n(&t, "[", size);
    return t;
}

/* One bad value at depth 1000, then small arrays up to `size`, then the
 * brackets that close the 1000 levels. */
static text deep_error_then_arrays(size_t size) {
    text t = {NULL, 0, 0};
    puts_n(&t, "[", 999);
    put(&t, "[tru]", 5);
    while (t.n + 1000 < size) put(&t, ",[1,2]", 6);
    puts_n(&t, "]", 999);
    return t;
}

/* Nested objects 1000 deep, a member of the wrong grammar at the bottom,
 * and members after it at every level (the shape of a typed input). */
static text nested_objects(size_t size) {
    text t = {NULL, 0, 0};
    puts_n(&t, "{\"a\":", 1000);
    put(&t, "01", 2);
    size_t per_level = size / 1000;
    char member[32];
    for (int level = 0; level < 1000; level++) {
        size_t start = t.n;
        for (unsigned k = 0; t.n - start < per_level; k++) {
            int n = snprintf(member, sizeof member, ",\"k%u\":[%u]", k, k);
            put(&t, member, (size_t)n);
        }
        put(&t, "}", 1);
    }
    return t;
}

typedef struct shape {
    const char *name;
    text (*make)(size_t size);
    jet_code code; /* the error expected */
    const char *path;
} shape;

/* The work of rejecting shape `s` at `size` bytes through `how`; 0 when it
 * was not rejected as expected (reported). */
static size_t work_of(const shape *s, size_t size, int how, size_t *len_out) {
    text t = s->make(size);
    *len_out = t.n;
    jet_od *od = jet_od_new(NULL);
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = JET_READ_VALIDATE_ALL;
    bool ok;
    const char *api;
    if (how == 0) {
        api = "jet_od_validate";
        ok = jet_od_validate(od, t.p, t.n, NULL);
    } else if (how == 1) {
        /* strict by default: skipping the root walks and checks it all */
        api = "jet_od_start + skip";
        jet_odv root;
        ok = jet_od_start(od, t.p, t.n, &opts, &root) && jet_odv_skip(&root) && jet_od_finish(od);
    } else {
        api = "jet_decode";
        decode_target out;
        jet_error err;
        ok = jet_decode(od, t.p, t.n, &decode_target_type, &out, NULL, &opts, &err);
    }
    const jet_error *e = jet_od_error(od);
    size_t work = jet__od_path_work(od);
    CHECK_MSG(!ok && e->code == s->code, "%s, %zu bytes, %s: %s at %zu, expected %s", s->name, t.n, api,
              ok ? "accepted" : jet_code_name(e->code), e->offset, jet_code_name(s->code));
    CHECK_MSG(e->path && strncmp(e->path, s->path, strlen(s->path)) == 0,
              "%s, %s: path %.60s, expected %.60s...", s->name, api, e->path ? e->path : "(null)", s->path);
    jet_od_free(od);
    free(t.p);
    return work;
}

int main(void) {
    const char *depth1000 = "/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"; /* the start of it */
    static const shape shapes[] = {
        {"open brackets", open_brackets, JET_ERR_DEPTH_LIMIT, "/0/0/0/0/0/0/0/0"},
        {"error at depth 1000, arrays after", deep_error_then_arrays, JET_ERR_LITERAL, NULL},
        {"nested objects", nested_objects, JET_ERR_NUMBER, "/a/a/a/a/a/a/a/a/a"},
    };
    const size_t small = (size_t)1 << 20, large = (size_t)8 << 20;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        shape s = shapes[i];
        if (!s.path) s.path = depth1000;
        for (int how = 0; how < 3; how++) {
            size_t len_small = 0, len_large = 0;
            size_t w_small = work_of(&s, small, how, &len_small);
            size_t w_large = work_of(&s, large, how, &len_large);
            /* within twice the input, and growing no faster than it */
            CHECK_MSG(w_small <= 2 * len_small + 4096 && w_large <= 2 * len_large + 4096,
                      "%s (api %d): the error's path walked %zu bytes of %zu, %zu of %zu", s.name, how,
                      w_small, len_small, w_large, len_large);
            CHECK_MSG((double)w_large <= 1.25 * (double)len_large / (double)len_small * (double)w_small + 65536.0,
                      "%s (api %d): work grows faster than the input: %zu -> %zu for %zu -> %zu bytes",
                      s.name, how, w_small, w_large, len_small, len_large);
        }
    }
    return CHECK_DONE("test_linear");
}
