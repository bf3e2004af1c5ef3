/* shuffle.h — helpers shared by the cursor and binding tests and by
 * jet-bench: a growable byte buffer, a fixed-seed PRNG, and a writer that
 * re-emits a DOM value, pretty-printed or minified, with every object's
 * members in a shuffled order or in their own (what a key-order-independent
 * reader must read the same as the original). */
#ifndef JET_TEST_SHUFFLE_H
#define JET_TEST_SHUFFLE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

#if defined(__GNUC__) || defined(__clang__)
#define SHUF_FN static __attribute__((unused))
#else
#define SHUF_FN static
#endif

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

SHUF_FN void sb_put(sbuf *b, const void *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *p = (char *)realloc(b->p, cap);
        if (!p) {
            fprintf(stderr, "shuffle.h: out of memory\n");
            exit(2);
        }
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}
SHUF_FN void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
SHUF_FN void sb_putc(sbuf *b, char c) { sb_put(b, &c, 1); }
SHUF_FN void sb_free(sbuf *b) {
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* xorshift64*: a fixed-seed PRNG (the state must not be 0). */
SHUF_FN uint64_t rng_next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* shuffle_emit's options */
#define SHUF_PRETTY 1u     /* 2-space indent, " : " between key and value */
#define SHUF_KEEP_ORDER 2u /* members in document order (no shuffle) */

SHUF_FN void shuf_indent(sbuf *b, int depth, unsigned opts) {
    if (!(opts & SHUF_PRETTY)) return;
    sb_putc(b, '\n');
    for (int i = 0; i < depth; i++) sb_puts(b, "  ");
}

/* A scalar (or key) as the writer prints it. */
SHUF_FN void shuf_scalar(sbuf *b, const jet_val *v) {
    size_t n = 0;
    char *t = jet_val_write(v, JET_WRITE_NOFLAG, NULL, &n, NULL);
    if (!t) {
        fprintf(stderr, "shuffle.h: jet_val_write failed\n");
        exit(2);
    }
    sb_put(b, t, n);
    free(t);
}

/* Writes `v` (SHUF_PRETTY: 2 spaces, a space on both sides of ':') with
 * every object's members in an order drawn from `rng` (SHUF_KEEP_ORDER: in
 * their own); arrays keep theirs. */
SHUF_FN void shuffle_emit(sbuf *b, const jet_val *v, int depth, uint64_t *rng, unsigned opts) {
    const bool pretty = (opts & SHUF_PRETTY) != 0;
    if (jet_is_obj(v)) {
        size_t n = jet_obj_size(v);
        if (!n) {
            sb_puts(b, pretty ? "{ }" : "{}");
            return;
        }
        const jet_val **keys = (const jet_val **)malloc(n * sizeof *keys);
        if (!keys) {
            fprintf(stderr, "shuffle.h: out of memory\n");
            exit(2);
        }
        jet_obj_iter it = jet_obj_iter_init(v);
        size_t i = 0;
        for (jet_val *k; (k = jet_obj_iter_next(&it));) keys[i++] = k;
        for (i = n; i > 1 && !(opts & SHUF_KEEP_ORDER); i--) {
            size_t j = (size_t)(rng_next(rng) % i);
            const jet_val *t = keys[i - 1];
            keys[i - 1] = keys[j];
            keys[j] = t;
        }
        sb_putc(b, '{');
        for (i = 0; i < n; i++) {
            shuf_indent(b, depth + 1, opts);
            shuf_scalar(b, keys[i]);
            sb_puts(b, pretty ? " : " : ":");
            shuffle_emit(b, jet_obj_iter_value(keys[i]), depth + 1, rng, opts);
            if (i + 1 < n) sb_putc(b, ',');
        }
        shuf_indent(b, depth, opts);
        sb_putc(b, '}');
        free(keys);
    } else if (jet_is_arr(v)) {
        size_t left = jet_arr_size(v);
        if (!left) {
            sb_puts(b, pretty ? "[ ]" : "[]");
            return;
        }
        sb_putc(b, '[');
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; (e = jet_arr_iter_next(&it));) {
            shuf_indent(b, depth + 1, opts);
            shuffle_emit(b, e, depth + 1, rng, opts);
            if (--left) sb_putc(b, ',');
        }
        shuf_indent(b, depth, opts);
        sb_putc(b, ']');
    } else {
        shuf_scalar(b, v);
    }
}

/* The re-emitted text of a JSON document (see shuffle_emit) in a malloc'd
 * buffer of exactly its size (*out_len bytes); NULL when the text does not
 * parse. */
SHUF_FN char *shuffle_doc_ex(const char *json, size_t len, uint64_t seed, unsigned opts,
                             size_t *out_len) {
    jet_doc *d = jet_read(json, len, NULL, NULL, NULL);
    if (!d) return NULL;
    sbuf b = {NULL, 0, 0};
    uint64_t rng = seed ? seed : 1;
    shuffle_emit(&b, jet_doc_root(d), 0, &rng, opts);
    jet_doc_free(d);
    char *out = (char *)malloc(b.n ? b.n : 1);
    if (!out) {
        fprintf(stderr, "shuffle.h: out of memory\n");
        exit(2);
    }
    memcpy(out, b.p, b.n);
    *out_len = b.n;
    sb_free(&b);
    return out;
}

/* Shuffled and pretty-printed (the tests' key-order check). */
SHUF_FN char *shuffle_doc(const char *json, size_t len, uint64_t seed, size_t *out_len) {
    return shuffle_doc_ex(json, len, seed, SHUF_PRETTY, out_len);
}

#endif
