/*
 * arena.c — the bump allocator behind typed decoding (jet.h section 11).
 *
 * Chunks double in size so that a document of any size needs O(log n) of
 * them; reset merges them into one chunk of their total size, which is big
 * enough for the next document of the same shape: steady-state decoding
 * allocates nothing.
 */
#include "internal.h"

struct jet_arena_chunk {
    struct jet_arena_chunk *next;
    size_t size; /* usable bytes after the header */
};

/* The header is padded to 64 bytes so that the usable space starts aligned
 * for any alignment jet_arena_alloc accepts. */
#define CHUNK_HEADER 64u
#define FIRST_CHUNK 4096u

void jet_arena_init(jet_arena *a, const jet_alloc *alloc) {
    a->alloc = *jet__alloc_or_default(alloc);
    a->chunks = NULL;
    a->cur = a->end = NULL;
}

static JET_NOINLINE void *arena_grow(jet_arena *a, size_t size, size_t align) {
    size_t want = a->chunks ? a->chunks->size * 2 : FIRST_CHUNK;
    if (want < size + align) want = size + align;
    if (want > SIZE_MAX - CHUNK_HEADER) return NULL;
    struct jet_arena_chunk *c = jet__malloc(&a->alloc, CHUNK_HEADER + want);
    if (!c) return NULL;
    c->next = a->chunks;
    c->size = want;
    a->chunks = c;
    a->cur = (char *)c + CHUNK_HEADER;
    a->end = a->cur + want;
    uintptr_t p = ((uintptr_t)a->cur + (align - 1)) & ~(uintptr_t)(align - 1);
    a->cur = (char *)p + size;
    return (void *)p;
}

void *jet_arena_alloc(jet_arena *a, size_t size, size_t align) {
    if (!a || align == 0 || (align & (align - 1)) || align > 64) return NULL;
    if (a->cur) {
        uintptr_t p = ((uintptr_t)a->cur + (align - 1)) & ~(uintptr_t)(align - 1);
        if (p <= (uintptr_t)a->end && size <= (size_t)((uintptr_t)a->end - p)) {
            a->cur = (char *)p + size;
            return (void *)p;
        }
    }
    return arena_grow(a, size, align);
}

/* Merges several chunks into one (jet_arena_reset's rare case; out of line
 * so that the usual reset of one chunk saves no registers). */
static JET_NOINLINE struct jet_arena_chunk *arena_merge(jet_arena *a) {
    struct jet_arena_chunk *keep = a->chunks;
    /* Several chunks: the last document needed their sum, so the next
     * one gets that much in one piece (allocated now, not while it is
     * decoded). If that fails, keep the largest (the newest). */
    size_t total = 0;
    for (struct jet_arena_chunk *c = keep; c; c = c->next) total += c->size;
    struct jet_arena_chunk *one = NULL;
    if (total <= SIZE_MAX - CHUNK_HEADER) one = jet__malloc(&a->alloc, CHUNK_HEADER + total);
    struct jet_arena_chunk *c = one ? keep : keep->next;
    while (c) {
        struct jet_arena_chunk *n = c->next;
        jet__free(&a->alloc, c);
        c = n;
    }
    if (one) {
        one->size = total;
        keep = one;
    }
    keep->next = NULL;
    a->chunks = keep;
    return keep;
}

void jet_arena_reset(jet_arena *a) {
    if (!a || !a->chunks) return;
    struct jet_arena_chunk *keep = a->chunks;
    if (JET_UNLIKELY(keep->next)) keep = arena_merge(a);
    a->cur = (char *)keep + CHUNK_HEADER;
    a->end = a->cur + keep->size;
}

void jet_arena_free(jet_arena *a) {
    if (!a) return;
    struct jet_arena_chunk *c = a->chunks;
    while (c) {
        struct jet_arena_chunk *n = c->next;
        jet__free(&a->alloc, c);
        c = n;
    }
    a->chunks = NULL;
    a->cur = a->end = NULL;
}
