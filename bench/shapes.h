/* shapes.h — jet-bench's generated datasets of the shapes where jet was
 * measured to lose (docs/perf-log.md, issue 22): documents made of long text
 * strings, text dense with \u escapes, and long arrays of short numbers.
 * Each is derived deterministically from a corpus, so every run and every
 * machine times the same bytes:
 *   - shape_escaped:      the document re-emitted minified with every
 *                         non-ASCII character written as a \u escape;
 *   - shape_long_strings: records whose values are slices (40 to 4 000
 *                         bytes) of the corpus's own text, mixed UTF-8 and
 *                         ASCII-only, few numbers;
 *   - shape_mesh:         the corpus's numbers rounded to 3 decimals, in
 *                         arrays of 3 000 coordinates plus as many small
 *                         integer indices (3-D mesh data).
 * Uses jet's reader and streaming writer; returns a malloc'ed buffer of
 * exactly *out_len bytes, or NULL when the corpus cannot be read. */
#ifndef JET_BENCH_SHAPES_H
#define JET_BENCH_SHAPES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

#if defined(__GNUC__) || defined(__clang__)
#define SHAPE_FN static __attribute__((unused))
#else
#define SHAPE_FN static
#endif

/* The writer's buffer handed over as a plain malloc'ed block. */
static char *shape_take(jet_buf *b, size_t *out_len) {
    char *out = (char *)malloc(b->len ? b->len : 1);
    if (out) {
        memcpy(out, b->data, b->len);
        *out_len = b->len;
    }
    jet_buf_free(b);
    return out;
}

SHAPE_FN char *shape_escaped(const char *json, size_t len, size_t *out_len) {
    jet_doc *d = jet_read(json, len, NULL, NULL, NULL);
    if (!d) return NULL;
    char *out = jet_doc_write(d, JET_WRITE_ASCII, NULL, out_len, NULL);
    jet_doc_free(d);
    return out; /* jet_doc_write's default allocator is malloc */
}

/* ------------------------------------------------------------ long strings */

typedef struct shape_pool {
    char *p;
    size_t n, cap;
} shape_pool;

static void shape_pool_add(shape_pool *pool, const char *s, size_t n) {
    if (pool->n + n > pool->cap) {
        size_t cap = pool->cap ? pool->cap * 2 : 1 << 16;
        while (cap < pool->n + n) cap *= 2;
        char *p = (char *)realloc(pool->p, cap);
        if (!p) return;
        pool->p = p;
        pool->cap = cap;
    }
    memcpy(pool->p + pool->n, s, n);
    pool->n += n;
}

/* Every string value of 16 bytes or more, into the mixed pool, and into the
 * ASCII pool as well when it has no byte above 0x7F. */
static void shape_collect_text(const jet_val *v, shape_pool *mixed, shape_pool *ascii) {
    if (jet_is_str(v)) {
        size_t n = jet_get_len(v);
        const char *s = jet_get_str(v);
        if (n < 16) return;
        shape_pool_add(mixed, s, n);
        shape_pool_add(mixed, " ", 1);
        size_t i = 0;
        while (i < n && (unsigned char)s[i] < 0x80) i++;
        if (i == n) {
            shape_pool_add(ascii, s, n);
            shape_pool_add(ascii, " ", 1);
        }
    } else if (jet_is_arr(v)) {
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; (e = jet_arr_iter_next(&it));) shape_collect_text(e, mixed, ascii);
    } else if (jet_is_obj(v)) {
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; (k = jet_obj_iter_next(&it));) shape_collect_text(k + 1, mixed, ascii);
    }
}

static uint64_t shape_next(uint64_t *s) { /* xorshift64* */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static bool shape_is_continuation(const shape_pool *pool, size_t i) {
    return i < pool->n && ((unsigned char)pool->p[i] & 0xC0) == 0x80;
}

/* A slice of about `want` bytes starting at a pseudo-random place, both ends
 * on UTF-8 character boundaries. */
static void shape_write_slice(jet_writer *w, const shape_pool *pool, size_t want, uint64_t *rng) {
    if (want > pool->n) want = pool->n;
    size_t start = (size_t)(shape_next(rng) % (pool->n - want + 1));
    while (start > 0 && shape_is_continuation(pool, start)) start--;
    size_t end = start + want;
    if (end > pool->n) end = pool->n;
    while (end > start && shape_is_continuation(pool, end)) end--;
    jet_writer_strn(w, pool->p + start, end - start);
}

SHAPE_FN char *shape_long_strings(const char *json, size_t len, size_t *out_len) {
    jet_doc *d = jet_read(json, len, NULL, NULL, NULL);
    if (!d) return NULL;
    shape_pool mixed = {NULL, 0, 0}, ascii = {NULL, 0, 0};
    shape_collect_text(jet_doc_root(d), &mixed, &ascii);
    jet_doc_free(d);
    char *out = NULL;
    if (mixed.n >= 4096 && ascii.n >= 4096) {
        jet_buf b;
        jet_buf_init(&b, NULL);
        jet_writer w;
        jet_writer_init_buf(&w, &b, JET_WRITE_NOFLAG);
        uint64_t rng = 0x9E3779B97F4A7C15ull;
        jet_writer_arr_begin(&w);
        for (unsigned i = 0; i < 1200; i++) {
            jet_writer_obj_begin(&w);
            jet_writer_key(&w, "id");
            jet_writer_uint(&w, 1000 + i);
            jet_writer_key(&w, "title");
            shape_write_slice(&w, &ascii, 40 + shape_next(&rng) % 80, &rng);
            jet_writer_key(&w, "summary");
            shape_write_slice(&w, &mixed, 200 + shape_next(&rng) % 400, &rng);
            jet_writer_key(&w, "body");
            shape_write_slice(&w, (i & 1) ? &mixed : &ascii, 1000 + shape_next(&rng) % 3000, &rng);
            jet_writer_key(&w, "lang");
            jet_writer_str(&w, (i & 1) ? "mixed" : "ascii");
            jet_writer_obj_end(&w);
        }
        jet_writer_arr_end(&w);
        out = jet_writer_finish(&w) ? shape_take(&b, out_len) : (jet_buf_free(&b), NULL);
    }
    free(mixed.p);
    free(ascii.p);
    return out;
}

/* -------------------------------------------------------------------- mesh */

typedef struct shape_nums {
    double *v;
    size_t n, cap;
} shape_nums;

static void shape_collect_nums(const jet_val *v, shape_nums *nums) {
    if (jet_is_num(v)) {
        if (nums->n == nums->cap) {
            size_t cap = nums->cap ? nums->cap * 2 : 4096;
            double *p = (double *)realloc(nums->v, cap * sizeof *p);
            if (!p) return;
            nums->v = p;
            nums->cap = cap;
        }
        nums->v[nums->n++] = jet_get_num(v);
    } else if (jet_is_arr(v)) {
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; (e = jet_arr_iter_next(&it));) shape_collect_nums(e, nums);
    } else if (jet_is_obj(v)) {
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; (k = jet_obj_iter_next(&it));) shape_collect_nums(k + 1, nums);
    }
}

SHAPE_FN char *shape_mesh(const char *json, size_t len, size_t *out_len) {
    jet_doc *d = jet_read(json, len, NULL, NULL, NULL);
    if (!d) return NULL;
    shape_nums nums = {NULL, 0, 0};
    shape_collect_nums(jet_doc_root(d), &nums);
    jet_doc_free(d);
    enum { PER_MESH = 3000 };
    char *out = NULL;
    if (nums.n >= PER_MESH) {
        jet_buf b;
        jet_buf_init(&b, NULL);
        jet_writer w;
        jet_writer_init_buf(&w, &b, JET_WRITE_NOFLAG);
        jet_writer_obj_begin(&w);
        jet_writer_key(&w, "meshes");
        jet_writer_arr_begin(&w);
        for (size_t m = 0; m + PER_MESH <= nums.n; m += PER_MESH) {
            jet_writer_obj_begin(&w);
            jet_writer_key(&w, "id");
            jet_writer_uint(&w, m / PER_MESH);
            jet_writer_key(&w, "positions");
            jet_writer_arr_begin(&w);
            for (size_t i = 0; i < PER_MESH; i++) jet_writer_f64(&w, round(nums.v[m + i] * 1000.0) / 1000.0);
            jet_writer_arr_end(&w);
            jet_writer_key(&w, "indices");
            jet_writer_arr_begin(&w);
            for (size_t i = 0; i < PER_MESH; i++) jet_writer_uint(&w, (i / 3 + i % 3) % (PER_MESH / 3));
            jet_writer_arr_end(&w);
            jet_writer_obj_end(&w);
        }
        jet_writer_arr_end(&w);
        jet_writer_obj_end(&w);
        out = jet_writer_finish(&w) ? shape_take(&b, out_len) : (jet_buf_free(&b), NULL);
    }
    free(nums.v);
    return out;
}

#endif
