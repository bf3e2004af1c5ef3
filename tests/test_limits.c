/*
 * test_limits.c — bounded memory on reading (issue 23, point 2):
 *   - jet_read_file enforces max_size while reading: /dev/zero, an endless
 *     pipe and regular files stop after max_size + 1 bytes with
 *     JET_ERR_SIZE_LIMIT; the memory used stays about max_size;
 *   - the DOM's bytes per input byte, by input shape, stay under the bounds
 *     docs/design.md states ("Memory per input byte").
 * Memory is measured through a counting jet_alloc (live bytes and their
 * peak). The counting allocator also refuses to hold more than a cap, so
 * that a regression fails the test instead of eating the machine's memory.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>

#include "check.h"
#include "jet.h"
#include "shuffle.h" /* sbuf */

#ifndef _WIN32
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

/* ---- a counting allocator: live bytes, their peak, and a cap ---- */

typedef struct counter {
    size_t live, peak, cap;
} counter;

/* Each block carries its size in a header, since free() is not told it. */
#define HDR 16u

static void *count_malloc(void *ctx, size_t size) {
    counter *c = (counter *)ctx;
    if (size > c->cap || c->live > c->cap - size) return NULL;
    unsigned char *p = (unsigned char *)malloc(size + HDR);
    if (!p) return NULL;
    memcpy(p, &size, sizeof size);
    c->live += size;
    if (c->live > c->peak) c->peak = c->live;
    return p + HDR;
}

static void count_free(void *ctx, void *ptr) {
    if (!ptr) return;
    counter *c = (counter *)ctx;
    unsigned char *p = (unsigned char *)ptr - HDR;
    size_t size;
    memcpy(&size, p, sizeof size);
    c->live -= size;
    free(p);
}

/* As a real realloc may: old and new block both live during the copy. */
static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)old_size;
    void *n = count_malloc(ctx, new_size);
    if (!n) return NULL;
    if (ptr) {
        size_t have;
        memcpy(&have, (unsigned char *)ptr - HDR, sizeof have);
        memcpy(n, ptr, have < new_size ? have : new_size);
        count_free(ctx, ptr);
    }
    return n;
}

static jet_alloc counting(counter *c, size_t cap) {
    memset(c, 0, sizeof *c);
    c->cap = cap;
    jet_alloc a = {count_malloc, count_realloc, count_free, c};
    return a;
}

#define MiB ((size_t)1 << 20)

/* ---- max_size while reading ---- */

/* Reads `path` with max_size `limit` through a counting allocator capped at
 * 16 MiB; expects JET_ERR_SIZE_LIMIT and a peak of about `limit`. */
static void expect_size_limit(const char *what, const char *path, size_t limit) {
    counter c;
    jet_alloc a = counting(&c, 16 * MiB);
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.max_size = limit;
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_doc *d = jet_read_file(path, &o, &a, &err);
    CHECK_MSG(d == NULL, "%s: read %s past max_size", what, path);
    CHECK_MSG(err.code == JET_ERR_SIZE_LIMIT, "%s: code %s (%s), want JET_ERR_SIZE_LIMIT", what,
              jet_code_name(err.code), err.msg ? err.msg : "");
    CHECK_MSG(err.offset == limit, "%s: offset %zu, want %zu", what, err.offset, limit);
    /* the buffer grows to max_size + 1 at most; during the last growth's
     * copy (this allocator copies, as a realloc may) the old block lives too */
    CHECK_MSG(c.peak <= 2 * (limit + 1), "%s: peak %zu bytes for max_size %zu", what,
              c.peak, limit);
    CHECK_MSG(c.live == 0, "%s: %zu bytes leaked", what, c.live);
    jet_doc_free(d);
}

static void test_dev_zero(void) {
#ifndef _WIN32
    FILE *f = fopen("/dev/zero", "rb");
    if (!f) return;
    fclose(f);
    expect_size_limit("/dev/zero", "/dev/zero", MiB);
    expect_size_limit("/dev/zero, small", "/dev/zero", 1000);
    expect_size_limit("/dev/zero, 1 byte", "/dev/zero", 1);
#endif
}

/* A child writes spaces into a pipe without end; the reader must stop. */
static void test_endless_pipe(void) {
#ifndef _WIN32
    int fds[2];
    if (pipe(fds) != 0) return;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        char chunk[4096];
        memset(chunk, ' ', sizeof chunk);
        for (;;)
            if (write(fds[1], chunk, sizeof chunk) < 0) _exit(0); /* EPIPE: reader done */
    }
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    expect_size_limit("endless pipe", path, 2 * MiB);
    close(fds[0]);
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
#endif
}

/* A regular file: max_size bytes read, max_size + 1 refused. */
static void test_regular_file(void) {
    char path[] = "test_limits.tmp.json";
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    const char text[] = "[1, 2, 3]    "; /* 13 bytes, valid JSON */
    fwrite(text, 1, sizeof text - 1, f);
    fclose(f);
    size_t n = sizeof text - 1;
    for (size_t limit = n - 1; limit <= n + 1; limit++) {
        jet_read_opts o;
        memset(&o, 0, sizeof o);
        o.max_size = limit;
        jet_error err;
        memset(&err, 0, sizeof err);
        jet_doc *d = jet_read_file(path, &o, NULL, &err);
        if (limit < n) {
            CHECK_MSG(!d && err.code == JET_ERR_SIZE_LIMIT, "file of %zu, max_size %zu: %s", n,
                      limit, jet_code_name(err.code));
        } else {
            CHECK_MSG(d && jet_arr_size(jet_doc_root(d)) == 3, "file of %zu, max_size %zu: %s",
                      n, limit, d ? "wrong value" : err.msg);
        }
        jet_doc_free(d);
    }
    remove(path);
}

/* ---- the DOM's bytes per input byte ---- */

/* Parses `json` through the counting allocator; checks that the peak during
 * jet_read and what the document keeps stay within `bound` bytes per input
 * byte (plus 64 KiB); prints both figures for docs/design.md. */
static void check_ratio(const char *shape, const char *json, size_t len, double bound) {
    counter c;
    jet_alloc a = counting(&c, (size_t)-1);
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_doc *d = jet_read(json, len, NULL, &a, &err);
    CHECK_MSG(d != NULL, "%s: %s", shape, d ? "" : err.msg);
    double peak = (double)c.peak / (double)len, kept = (double)c.live / (double)len;
    printf("  %-28s %9zu bytes: peak %.2f, kept %.2f bytes per input byte\n", shape, len, peak,
           kept);
    CHECK_MSG((double)c.peak <= bound * (double)len + 65536.0,
              "%s: peak %.2f bytes per input byte, documented at most %.2f", shape, peak, bound);
    jet_doc_free(d);
    CHECK_MSG(c.live == 0, "%s: %zu bytes left after jet_doc_free", shape, c.live);
}

/* An input of about 4 MiB: `open`, then `unit` repeated, then `close`. */
static void check_repeated(const char *shape, const char *open, const char *unit,
                           const char *close, double bound) {
    sbuf t = {NULL, 0, 0};
    sb_puts(&t, open);
    while (t.n < 4 * MiB) sb_puts(&t, unit);
    sb_puts(&t, close);
    check_ratio(shape, t.p, t.n, bound);
    sb_free(&t);
}

static void test_bytes_per_input_byte(void) {
    /* the string arena and the slot guess alone */
    check_repeated("long string", "[\"", "abcdefghijklmnopqrstuvwxyz012345", "\"]", 3.1);
    check_repeated("escaped strings", "[", "\"a\\n\\u00e9\\\"b\",", "\"\"]", 3.1);
    /* numbers of typical length, all different */
    sbuf t = {NULL, 0, 0};
    char buf[64];
    sb_puts(&t, "[");
    for (unsigned i = 0; t.n < 4 * MiB; i++) {
        snprintf(buf, sizeof buf, "%u.%03u,", i * 2654435761u % 100000u, i % 1000u);
        sb_puts(&t, buf);
    }
    sb_puts(&t, "0]");
    check_ratio("numbers (12.345,)", t.p, t.n, 3.1);
    sb_free(&t);
    /* the worst case: one value per two bytes */
    check_repeated("tiny values [0,0,...]", "[", "0,0,0,0,0,0,0,0,", "0]", 19.0);
    check_repeated("objects of short keys", "[", "{\"a\":1,\"b\":2,\"c\":true},", "{}]", 13.0);
    /* deep nesting: one frame per level (64 KiB of slack dominate) */
    for (int i = 0; i < 1000; i++) sb_puts(&t, "[");
    for (int i = 0; i < 1000; i++) sb_puts(&t, "]");
    check_ratio("1000 nested arrays", t.p, t.n, 30.0);
    sb_free(&t);

    /* the corpora */
    static const char *const corpora[] = {"twitter.json", "canada.json", "citm_catalog.json",
                                          "github_events.json"};
    static const double corpus_bound[] = {3.2, 3.2, 3.2, 3.2};
    for (size_t i = 0; i < sizeof corpora / sizeof *corpora; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), corpora[i]);
        size_t len = 0;
        char *json = check_read_file(path, &len);
        CHECK_MSG(json != NULL, "%s: not found (JET_SHARED_DIR)", path);
        if (!json) continue;
        check_ratio(corpora[i], json, len, corpus_bound[i]);
        free(json);
    }
}

int main(void) {
    test_dev_zero();
    test_endless_pipe();
    test_regular_file();
    printf("DOM memory per input byte (peak during jet_read, kept by the document):\n");
    test_bytes_per_input_byte();
    return CHECK_DONE("test_limits");
}
