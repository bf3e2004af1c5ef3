/*
 * test_validate_memory.c — jet_validate never builds a document (issue 23,
 * defect 3): through a byte-counting jet_alloc, the most memory it holds at
 * once stays under a fixed amount for every shape of input (numbers,
 * strings with and without escapes, an unterminated string, deep nesting),
 * at 1 MiB and at 8 MiB. jet_od_validate, which indexes the input on an
 * error to name its JSON Pointer, stays under the cursor's bounded index
 * (1.5 MiB of windows) plus the same fixed amount.
 */
#include "check.h"

#include <jet.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each block carries its size in a header, so that frees can be counted. */
typedef struct bytes_counter {
    size_t live, peak;
} bytes_counter;

#define HEADER 16 /* keeps the blocks' alignment */

static void note(bytes_counter *c, size_t add, size_t sub) {
    c->live = c->live + add - sub;
    if (c->live > c->peak) c->peak = c->live;
}

static void *count_malloc(void *ctx, size_t size) {
    unsigned char *b = (unsigned char *)malloc(size + HEADER);
    if (!b) return NULL;
    memcpy(b, &size, sizeof size);
    note((bytes_counter *)ctx, size, 0);
    return b + HEADER;
}

static void count_free(void *ctx, void *ptr) {
    if (!ptr) return;
    unsigned char *b = (unsigned char *)ptr - HEADER;
    size_t size;
    memcpy(&size, b, sizeof size);
    note((bytes_counter *)ctx, 0, size);
    free(b);
}

static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)old_size;
    void *n = count_malloc(ctx, new_size);
    if (!n || !ptr) return n;
    unsigned char *b = (unsigned char *)ptr - HEADER;
    size_t size;
    memcpy(&size, b, sizeof size);
    memcpy(n, ptr, size < new_size ? size : new_size);
    count_free(ctx, ptr);
    return n;
}

/* ---- the shapes ---------------------------------------------------------- */

static char *repeat(const char *head, const char *unit, const char *tail, size_t size, size_t *len) {
    size_t h = strlen(head), u = strlen(unit), t = strlen(tail);
    size_t times = size > h + t ? (size - h - t) / u : 0;
    size_t n = h + times * u + t;
    char *s = (char *)malloc(n + 1);
    if (!s) exit(2);
    memcpy(s, head, h);
    for (size_t i = 0; i < times; i++) memcpy(s + h + i * u, unit, u);
    memcpy(s + h + times * u, tail, t);
    s[n] = 0;
    *len = n;
    return s;
}

typedef struct shape {
    const char *name;
    const char *head, *unit, *tail;
    bool valid;
} shape;

static const shape shapes[] = {
    {"number array", "[", "12345.678,", "1]", true},
    {"integers", "[", "1,22,333,", "4]", true},
    {"one huge string", "\"", "abcdefgh", "\"", true},
    {"strings with escapes", "[", "\"a\\nb\\u00e9\",", "\"\"]", true},
    {"huge string with escapes", "[\"", "ab\\n\\\"cd", "\"]", true},
    {"unterminated string", "[\"", "abcdefgh", "", false},
    {"unterminated string at the root", "\"", "abcdefgh", "", false},
    {"tiny values", "[", "0,", "0]", true},
    {"open brackets", "", "[", "", false},
    {"nested objects, bad at the end", "[", "{\"a\":[1,{\"b\":null}]},", "x]", false},
};

int main(void) {
    /* the parser, its stack of frames (16 bytes a level, 16 KiB at the
     * default depth limit) and the index route's window (32 KiB) */
    const size_t fixed = 256 * 1024;
    /* jet_od_validate on an error: the cursor's index, 3 bitmaps x 2 halves
     * of 32768 words (1.5 MiB), and its checkpoints and path */
    const size_t cursor_index = 1536 * 1024 + 64 * 1024;
    const size_t sizes[] = {(size_t)1 << 20, (size_t)8 << 20};
    size_t most = 0, most_od = 0; /* printed: the figures docs/validate.md gives */
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        for (size_t k = 0; k < 2; k++) {
            const shape *s = &shapes[i];
            size_t len;
            char *text = repeat(s->head, s->unit, s->tail, sizes[k], &len);
            bytes_counter c = {0, 0};
            jet_alloc a = {count_malloc, count_realloc, count_free, &c};
            jet_error err;
            bool ok = jet_validate(text, len, NULL, &a, &err);
            CHECK_MSG(ok == s->valid, "%s (%zu bytes): jet_validate %s (%s at %zu)", s->name, len,
                      ok ? "accepts" : "rejects", jet_code_name(err.code), err.offset);
            CHECK_MSG(c.peak <= fixed, "%s (%zu bytes): jet_validate held %zu bytes (%.2f per input byte)",
                      s->name, len, c.peak, (double)c.peak / (double)len);
            CHECK_MSG(c.live == 0, "%s: jet_validate left %zu bytes", s->name, c.live);
            if (c.peak > most) most = c.peak;

            bytes_counter oc = {0, 0};
            jet_alloc oa = {count_malloc, count_realloc, count_free, &oc};
            jet_od *od = jet_od_new(&oa);
            ok = jet_od_validate(od, text, len, NULL);
            CHECK_MSG(ok == s->valid, "%s (%zu bytes): jet_od_validate %s", s->name, len,
                      ok ? "accepts" : "rejects");
            size_t bound = s->valid ? fixed : fixed + cursor_index;
            CHECK_MSG(oc.peak <= bound, "%s (%zu bytes): jet_od_validate held %zu bytes (%.2f per input byte)",
                      s->name, len, oc.peak, (double)oc.peak / (double)len);
            if (oc.peak > most_od) most_od = oc.peak;
            jet_od_free(od);
            CHECK_MSG(oc.live == 0, "%s: jet_od_validate left %zu bytes", s->name, oc.live);
            free(text);
        }
    }
    printf("test_validate_memory: at most %zu bytes held by jet_validate, %zu by jet_od_validate\n", most,
           most_od);
    return CHECK_DONE("test_validate_memory");
}
