/*
 * tool_alloc.h — the jet tool's allocator for big inputs and documents
 * (part of the tool, not of the library, whose default allocator stays the
 * C library's).
 *
 * Why: on a 200 MB document the tool's time was mostly the kernel's, one
 * page fault per 4 KiB of input buffer and DOM arena. Blocks of 2 MiB or
 * more are mapped here 2 MiB-aligned and marked MADV_HUGEPAGE, so that
 * where transparent huge pages are on ("always" or "madvise") they fault
 * once per 2 MiB. Smaller blocks are the C library's. Where mmap is not
 * available everything is the C library's.
 *
 * Caveat (measured on a Firecracker VM with free page reporting, 42 MB
 * document, jet query): runs a few seconds apart took 0.9-1.2 s against
 * 0.3-0.5 s without the advice (fresh huge pages are faulted in again by
 * the host), runs back to back 0.07-0.19 s against 0.25-0.35 s. The
 * environment variable JET_HUGEPAGES=0 turns the advice off.
 *
 * Memory from tool_alloc() is freed through it (jet_doc_free and the
 * parser do so by themselves). Thread-safe (no state of its own).
 */
#ifndef JET_TOOL_ALLOC_H
#define JET_TOOL_ALLOC_H

#include <stdio.h>

#include "jet.h"

const jet_alloc *tool_alloc(void);

/* Reads the rest of `f` whole into memory from tool_alloc() (one block
 * sized from fstat for a regular file, so no growth by copying). Stops and
 * returns NULL with *too_big set past `limit` bytes (0: no limit); NULL on
 * a read error or out of memory. *len is the byte count; free the result
 * with tool_alloc()->free. */
char *tool_read_all(FILE *f, size_t limit, size_t *len, bool *too_big);

#endif
