/*
 * tool_alloc.h — the jet tool's allocator for big inputs and documents
 * (part of the tool, not of the library, whose default allocator stays the
 * C library's).
 *
 * Why: on a 200 MB document the tool's time was mostly the kernel's, one
 * page fault per 4 KiB of input buffer and DOM arena. Blocks of 2 MiB or
 * more are mapped here 2 MiB-aligned (grown in place by mremap) and, with
 * JET_HUGEPAGES=1 in the environment, marked MADV_HUGEPAGE, so that where
 * transparent huge pages are on ("always" or "madvise") they fault once
 * per 2 MiB. Smaller blocks are the C library's. Where mmap is not
 * available everything is the C library's.
 *
 * Why opt-in (measured on a Firecracker VM with free page reporting,
 * 200 MB document, runs 4 s apart): jet query 1.9-2.3 s with the advice
 * against 0.7 s without, jet fmt --minify 3.0-3.3 s against 0.9-1.1 s
 * (fresh huge pages are backed again by the host); back to back, as a
 * benchmark runs them, the advice wins instead.
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

/* A regular, non-empty file mapped read-only whole (populated at once
 * where the system can: a page-cache mapping costs less than reading into
 * fresh memory, whose every page the kernel must zero and, on a VM, the
 * host back); NULL when `path` is not such a file or the mapping fails, in
 * which case the caller reads it instead. *len: its size. Unmap with
 * tool_unmap_file(data, len). Should the file shrink while mapped, the
 * reads past its new end raise SIGBUS: a handler installed here names the
 * file on stderr and exits with status 2 (`path` must outlive the use). */
const char *tool_map_file(const char *path, size_t *len);
void tool_unmap_file(const char *data, size_t len);

#endif
