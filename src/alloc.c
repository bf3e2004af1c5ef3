/*
 * alloc.c — the allocator hook: the libc default and the thin wrappers the
 * rest of the library allocates through.
 */
#include <stdlib.h>

#include "internal.h"

static void *libc_malloc(void *ctx, size_t size) {
    (void)ctx;
    return malloc(size);
}

static void *libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size) {
    (void)ctx;
    (void)old_size;
    return realloc(ptr, new_size);
}

static void libc_free(void *ctx, void *ptr) {
    (void)ctx;
    free(ptr);
}

static const jet_alloc jet_libc_alloc = {libc_malloc, libc_realloc, libc_free, NULL};

const jet_alloc *jet_alloc_libc(void) { return &jet_libc_alloc; }

const jet_alloc *jet__alloc_or_default(const jet_alloc *a) {
    return a ? a : &jet_libc_alloc;
}

void *jet__malloc(const jet_alloc *a, size_t size) {
    return a->malloc(a->ctx, size ? size : 1);
}

void *jet__realloc(const jet_alloc *a, void *p, size_t old_size, size_t new_size) {
    if (!p) return a->malloc(a->ctx, new_size ? new_size : 1);
    return a->realloc(a->ctx, p, old_size, new_size ? new_size : 1);
}

void jet__free(const jet_alloc *a, void *p) {
    if (p) a->free(a->ctx, p);
}
