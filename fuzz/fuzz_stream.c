/* fuzz_stream.c — libFuzzer target for the document stream's splitter
 * (jet_stream over one buffer).
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_stream
 *   build-fuzz/fuzz/fuzz_stream -max_total_time=60
 *
 * Input: one flag byte (NDJSON or concatenated, skip, BOM, comments), then
 * the stream (an exact-size heap copy). Every document's span must lie in
 * the input after the previous one, its line:column must be the one
 * counted from the start, every error's position too, and every call must
 * make progress (the loop ends).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"
#include "stream_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* line:column of byte `to`, counting on from (line, col) at byte `from`. */
static void advance(const char *in, size_t from, size_t to, size_t *line, size_t *col) {
    for (size_t i = from; i < to; i++) {
        if (in[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)in[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static jet_parser *parser;
    if (!parser) parser = jet_parser_new(NULL);
    if (!parser || size == 0) return 0;
    jet_stream_flags sf;
    jet_read_opts ro;
    stream_log_flags(data[0], &sf, &ro);
    size_t len = size - 1;
    char *in = (char *)malloc(len ? len : 1);
    if (!in) return 0;
    if (len) memcpy(in, data + 1, len);
    jet_stream *s = jet_stream_new(sf, &ro, NULL);
    if (!s || !jet_stream_set_buffer(s, in, len)) abort();
    bool bom = len >= 3 && memcmp(in, "\xef\xbb\xbf", 3) == 0;
    /* the position bookkeeping of the check: byte `at` is line:col */
    size_t at = 0, line = 1, col = 1, end_prev = 0;
    if (bom) at = 3; /* the byte after a BOM is column 1 */
    /* the same for the errors' positions */
    size_t err_at = at, err_line = 1, err_col = 1;
    for (size_t calls = 0;; calls++) {
        if (calls > len + 2) abort(); /* no progress */
        jet_stream_doc d;
        jet_doc *doc = NULL;
        jet_stream_status st = jet_stream_next_dom(s, parser, &doc, &d);
        if (st == JET_STREAM_END) break;
        if (st == JET_STREAM_MORE) abort(); /* a whole buffer never asks for more */
        if (d.json) {
            /* the span: inside the input, after the previous one */
            if (d.json < in || d.json + d.len > in + len) abort();
            size_t off = (size_t)(d.json - in);
            if (off != d.offset || off < end_prev || off < at) abort();
            advance(in, at, off, &line, &col);
            at = off;
            if (d.line != line || d.column != col) abort();
            end_prev = off + d.len;
        }
        if (st == JET_STREAM_ERROR) {
            const jet_error *e = jet_stream_error(s);
            if (!e->msg || e->code == JET_OK || e->offset > len) abort();
            /* its line:column is the one counted from the start: counted
             * on from the previous error's (errors come in order; counting
             * each from byte 0 made a stream of many small errors
             * quadratic here and timed the fuzzer out) */
            size_t base = (bom && e->offset >= 3) ? 3 : 0; /* after a BOM: column 1 */
            if (err_at < base || e->offset < err_at) {
                err_at = base;
                err_line = err_col = 1;
            }
            advance(in, err_at, e->offset, &err_line, &err_col);
            err_at = e->offset;
            if (e->line != err_line || e->column != err_col) abort();
            if (!(sf & JET_STREAM_SKIP_ERRORS)) {
                if (jet_stream_next(s, &d) != JET_STREAM_ERROR) abort(); /* sticky */
                break;
            }
        } else if (!doc || jet_doc_root(doc) == NULL) {
            abort();
        }
    }
    jet_stream_free(s);
    free(in);
    return 0;
}
