/* check.h — the tiny test harness shared by every test program.
 * Each program ends with CHECK_DONE(), which prints
 * "<name>: N passed, M failed" and returns non-zero on any failure. */
#ifndef JET_TEST_CHECK_H
#define JET_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long check_passed_, check_failed_;

#define CHECK(cond) CHECK_MSG(cond, "%s", #cond)
#define CHECK_MSG(cond, ...)                                               \
    do {                                                                   \
        if (cond) {                                                        \
            check_passed_++;                                               \
        } else {                                                           \
            check_failed_++;                                               \
            if (check_failed_ <= 50) {                                     \
                fprintf(stderr, "%s:%d: FAILED: ", __FILE__, __LINE__);    \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)

#define CHECK_DONE(name)                                                   \
    (printf("%s: %lu passed, %lu failed\n", (name), check_passed_,         \
            check_failed_),                                                \
     check_failed_ ? 1 : 0)

/* Directory of the shared data (corpora, conformance, numbers):
 * $JET_SHARED_DIR, else the path baked in at build time. */
static inline const char *check_shared_dir(void) {
    const char *d = getenv("JET_SHARED_DIR");
#ifdef JET_SHARED_DIR_DEFAULT
    if (!d || !*d) d = JET_SHARED_DIR_DEFAULT;
#endif
    return (d && *d) ? d : "../shared";
}

/* Reads a whole file into a malloc'd buffer (not NUL-terminated beyond len;
 * one extra NUL is added for convenience). NULL when missing. */
static inline char *check_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = (char *)malloc((size_t)(n > 0 ? n : 0) + 1);
    if (!buf) { fclose(f); return NULL; }
    size_t got = fread(buf, 1, (size_t)(n > 0 ? n : 0), f);
    fclose(f);
    buf[got] = 0;
    *len = got;
    return buf;
}

/* malloc that ends the test program when memory runs out. */
static inline void *check_xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "test: out of memory\n");
        exit(2);
    }
    return p;
}

/* `len` bytes in a buffer of exactly `len` bytes (no terminator), so that
 * AddressSanitizer reports any read past the end. */
static inline char *check_dup_exact(const char *s, size_t len) {
    char *b = (char *)check_xmalloc(len);
    if (len)
        memcpy(b, s, len);
    else
        b[0] = '\0'; /* the one byte malloc(0) was rounded up to; never read */
    return b;
}

/* A counting allocator (jet_alloc callbacks; ctx: a check_counter), for
 * the "no allocation on reuse" and "nothing left behind" checks. */
typedef struct check_counter {
    long mallocs, reallocs, frees, live;
} check_counter;
static inline void *check_counter_malloc(void *ctx, size_t size) {
    check_counter *c = (check_counter *)ctx;
    c->mallocs++;
    c->live++;
    return malloc(size ? size : 1);
}
static inline void *check_counter_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    check_counter *c = (check_counter *)ctx;
    (void)old_size;
    c->reallocs++;
    if (!ptr) c->live++;
    return realloc(ptr, new_size ? new_size : 1);
}
static inline void check_counter_free(void *ctx, void *ptr) {
    check_counter *c = (check_counter *)ctx;
    if (!ptr) return;
    c->frees++;
    c->live--;
    free(ptr);
}
#define CHECK_COUNTER_ALLOC(c) \
    { check_counter_malloc, check_counter_realloc, check_counter_free, (c) }

#endif
