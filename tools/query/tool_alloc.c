/*
 * tool_alloc.c — the jet tool's allocator for big blocks (tool_alloc.h).
 *
 * Every block has a 16-byte header before it: the length of its mapping,
 * or 0 for a block of the C library. A big block is mapped 2 MiB-aligned
 * (a larger anonymous mapping with its unaligned ends unmapped), so that
 * each of its 2 MiB pieces can be one huge page; on Linux a big block
 * grows with mremap (no copy of its bytes).
 */
#if !defined(_WIN32) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* mremap */
#endif
#include "tool_alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define TOOL_HAVE_MMAP 1
#else
#define TOOL_HAVE_MMAP 0
#endif

#define HEADER 16u
#define HUGE_PAGE ((size_t)2 << 20)
#define BIG_BLOCK HUGE_PAGE /* blocks of at least this many bytes are mapped */

static size_t block_mapped(const void *p) {
    size_t len;
    memcpy(&len, (const char *)p - HEADER, sizeof len);
    return len;
}

static void *block_at(char *base, size_t mapped) {
    memcpy(base, &mapped, sizeof mapped);
    return base + HEADER;
}

#if TOOL_HAVE_MMAP
/* n rounded up to a multiple of `to`; 0 when that overflows. */
static size_t round_up(size_t n, size_t to) {
    return n > SIZE_MAX - (to - 1) ? 0 : (n + to - 1) / to * to;
}

/* The advice is opt-in (JET_HUGEPAGES=1 in the environment): where freed
 * memory goes back to a hypervisor (virtio-balloon free page reporting,
 * e.g. Firecracker), a huge page taken more than a few seconds after the
 * last run freed its memory is backed again by the host, which cost 3x
 * the 4 KiB faults it saves (tool_alloc.h). */
static void advise_huge(void *p, size_t len) {
#ifdef MADV_HUGEPAGE
    const char *env = getenv("JET_HUGEPAGES");
    if (env && strcmp(env, "1") == 0) madvise(p, len, MADV_HUGEPAGE);
#else
    (void)p;
    (void)len;
#endif
}

/* A mapping of `len` bytes (a multiple of HUGE_PAGE) at a 2 MiB boundary. */
static char *map_aligned(size_t len) {
    size_t over = len + HUGE_PAGE;
    if (over < len) return NULL;
    char *p = (char *)mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    size_t head = (HUGE_PAGE - (size_t)((uintptr_t)p % HUGE_PAGE)) % HUGE_PAGE;
    if (head) munmap(p, head);
    if (HUGE_PAGE - head) munmap(p + head + len, HUGE_PAGE - head);
    advise_huge(p + head, len);
    return p + head;
}
#endif

static void *big_malloc(void *ctx, size_t size) {
    (void)ctx;
    if (size > SIZE_MAX - HEADER) return NULL;
#if TOOL_HAVE_MMAP
    if (size >= BIG_BLOCK) {
        size_t len = round_up(size + HEADER, HUGE_PAGE);
        char *p = len ? map_aligned(len) : NULL;
        return p ? block_at(p, len) : NULL;
    }
#endif
    char *p = (char *)malloc(size + HEADER);
    return p ? block_at(p, 0) : NULL;
}

static void big_free(void *ctx, void *ptr) {
    (void)ctx;
    if (!ptr) return;
    size_t mapped = block_mapped(ptr);
    char *base = (char *)ptr - HEADER;
#if TOOL_HAVE_MMAP
    if (mapped) {
        munmap(base, mapped);
        return;
    }
#endif
    free(base);
}

static void *big_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    if (!ptr) return big_malloc(ctx, new_size);
    if (new_size > SIZE_MAX - HEADER) return NULL;
    size_t mapped = block_mapped(ptr);
    char *base = (char *)ptr - HEADER;
    if (mapped && new_size + HEADER <= mapped) return ptr;
#if TOOL_HAVE_MMAP && defined(MREMAP_MAYMOVE)
    if (mapped) {
        size_t len = round_up(new_size + HEADER, HUGE_PAGE);
        char *p = len ? (char *)mremap(base, mapped, len, MREMAP_MAYMOVE) : (char *)MAP_FAILED;
        if (p == (char *)MAP_FAILED) return NULL;
        advise_huge(p, len);
        return block_at(p, len);
    }
#endif
    if (!mapped && new_size < BIG_BLOCK) {
        char *p = (char *)realloc(base, new_size + HEADER);
        return p ? p + HEADER : NULL;
    }
    /* between the two kinds: a new block and a copy */
    void *q = big_malloc(ctx, new_size);
    if (!q) return NULL;
    memcpy(q, ptr, old_size < new_size ? old_size : new_size);
    big_free(ctx, ptr);
    return q;
}

const jet_alloc *tool_alloc(void) {
    static const jet_alloc a = {big_malloc, big_realloc, big_free, NULL};
    return &a;
}

char *tool_read_all(FILE *f, size_t limit, size_t *len, bool *too_big) {
    const jet_alloc *a = tool_alloc();
    *len = 0;
    *too_big = false;
    size_t cap = (size_t)1 << 16, n = 0;
#if TOOL_HAVE_MMAP
    struct stat st;
    /* a regular file: its size (and one byte more, to see its end) at once */
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uint64_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 1;
#endif
    if (limit && cap > limit + 1) cap = limit + 1;
    char *buf = (char *)a->malloc(a->ctx, cap);
    while (buf) {
        if (n == cap) {
            /* one byte past the limit is enough to know it is passed */
            size_t want = cap <= SIZE_MAX / 2 ? cap * 2 : 0;
            if (limit && want > limit + 1) want = limit + 1;
            char *grown = want > cap ? (char *)a->realloc(a->ctx, buf, cap, want) : NULL;
            if (!grown) break;
            buf = grown;
            cap = want;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (limit && n > limit) {
            *too_big = true;
            break;
        }
        if (got == 0) {
            if (ferror(f)) break;
            *len = n;
            return buf;
        }
    }
    a->free(a->ctx, buf);
    return NULL;
}

#if TOOL_HAVE_MMAP
/* A mapped file that shrinks while it is read (a log rewritten, a file
 * truncated) turns the reads past its new end into SIGBUS: say so and
 * stop, as a read error would, instead of dying without a word. Only
 * async-signal-safe calls here. */
static const char *volatile mapped_path;

static void on_sigbus(int sig) {
    (void)sig;
    static const char head[] = "jet: ";
    static const char tail[] = ": the file changed size while it was being read\n";
    const char *name = mapped_path ? mapped_path : "input";
    ssize_t ignored = write(STDERR_FILENO, head, sizeof head - 1);
    ignored = write(STDERR_FILENO, name, strlen(name));
    ignored = write(STDERR_FILENO, tail, sizeof tail - 1);
    (void)ignored;
    _exit(2);
}

static void guard_mapping(const char *path) {
    mapped_path = path;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}
#endif

const char *tool_map_file(const char *path, size_t *len) {
#if TOOL_HAVE_MMAP
    if (strcmp(path, "-") == 0) return NULL;
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    struct stat st;
    void *p = MAP_FAILED;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uintmax_t)st.st_size <= (uintmax_t)SIZE_MAX) {
        int flags = MAP_PRIVATE;
#ifdef MAP_POPULATE
        flags |= MAP_POPULATE;
#endif
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, flags, fd, 0);
    }
    close(fd);
    if (p == MAP_FAILED) return NULL;
    guard_mapping(path);
    *len = (size_t)st.st_size;
    return (const char *)p;
#else
    (void)path;
    (void)len;
    return NULL;
#endif
}

void tool_unmap_file(const char *data, size_t len) {
#if TOOL_HAVE_MMAP
    if (data) munmap((void *)(uintptr_t)data, len);
#else
    (void)data;
    (void)len;
#endif
}
