/* stream_log.h — what a jet_stream yields, as comparable text (the stream
 * fuzz targets): one line per document (index, offset, line:column,
 * length, and the DOM's size) or per error (code, offset, line:column). */
#ifndef JET_FUZZ_STREAM_LOG_H
#define JET_FUZZ_STREAM_LOG_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

typedef struct stream_log {
    char *p;
    size_t len, cap;
} stream_log;

static inline void stream_log_add(stream_log *l, const char *line, int n) {
    if (n <= 0) return;
    if (l->len + (size_t)n + 1 > l->cap) {
        l->cap = (l->len + (size_t)n + 1) * 2;
        char *g = (char *)realloc(l->p, l->cap);
        if (!g) abort();
        l->p = g;
    }
    memcpy(l->p + l->len, line, (size_t)n + 1);
    l->len += (size_t)n;
}

static inline void stream_log_line(stream_log *l, jet_stream_status st, const jet_stream_doc *d,
                                   const jet_doc *doc, const jet_stream *s) {
    char line[256];
    int n;
    if (st == JET_STREAM_DOC)
        n = snprintf(line, sizeof line, "doc %llu @%llu %llu:%llu len %zu vals %zu\n",
                     (unsigned long long)d->index, (unsigned long long)d->offset,
                     (unsigned long long)d->line, (unsigned long long)d->column, d->len,
                     doc ? jet_doc_val_count(doc) : 0);
    else
        n = snprintf(line, sizeof line, "error %d @%zu %zu:%zu\n", (int)jet_stream_error(s)->code,
                     jet_stream_error(s)->offset, jet_stream_error(s)->line,
                     jet_stream_error(s)->column);
    stream_log_add(l, line, n);
}

/* The stream flags and read flags of a fuzz input's first byte. */
static inline void stream_log_flags(unsigned char f, jet_stream_flags *sf, jet_read_opts *ro) {
    memset(ro, 0, sizeof *ro);
    *sf = 0;
    if (f & 1) *sf |= JET_STREAM_NDJSON;
    if (f & 2) *sf |= JET_STREAM_SKIP_ERRORS;
    if (f & 4) *sf |= JET_STREAM_ALLOW_BOM;
    if (f & 8) ro->flags |= JET_READ_ALLOW_COMMENTS;
    if (f & 16) ro->flags |= JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_ALLOW_NAN_INF;
}

#endif
