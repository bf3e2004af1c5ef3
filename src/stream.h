/*
 * stream.h — the document stream's state (internal; stream.c splits,
 * stream_run.c runs the documents on threads).
 */
#ifndef JET_STREAM_H
#define JET_STREAM_H

#include "internal.h"

struct jet_stream {
    jet_alloc alloc;
    jet_stream_flags flags;
    jet_read_opts ropts;
    /* The input window: data[0..len) are the stream's bytes base.. */
    const char *data;
    size_t len;
    uint64_t base;
    char *own; /* the chunk buffer (chunked input) */
    size_t cap;
    bool chunked, finished;
    bool stopped;      /* an error without JET_STREAM_SKIP_ERRORS */
    bool bom_checked;
    bool discarding;   /* NDJSON: dropping an over-long line up to its '\n' */
    size_t pos;        /* where the next document (or the whitespace before it) starts */
    size_t scan;       /* the splitter has examined data[pos..scan) */
    size_t doc_start;  /* concatenated JSON: the document being delimited */
    size_t depth;      /* its open brackets */
    uint8_t state, comment_return; /* the splitter's state (stream.c) */
    /* line:column bookkeeping: byte `ck` (absolute) is on line `line`,
     * column `ck_col`; moved forward only, over bytes still held. */
    uint64_t line, ck, ck_col;
    uint64_t index;    /* documents returned so far */
    size_t largest;    /* the longest document parsed whole (stream_dom_whole's window) */
    uint64_t bytes_in;
    jet_error err;
};

/* Chunked input without a copy: room for `len` more bytes at the end of
 * the stream's buffer (consumed bytes dropped first), NULL on failure (the
 * error set as jet_stream_feed sets it); then the count actually written. */
char *jet__stream_feed_space(jet_stream *s, size_t len);
void jet__stream_feed_commit(jet_stream *s, size_t len);

#endif
