/* fuzz_query.c — `jet query`'s filter language (tools/query/): the input's
 * first line is a filter, the rest JSON documents. Compiles the filter and
 * runs it on each document with bounded steps, memory and output: no
 * crash, no leak, no sanitizer report, bounded time. */
#include <stdint.h>
#include <string.h>

#include "query.h"

/* Stops a run after this much output. */
#define FUZZ_MAX_OUTPUT (1u << 16)

static bool count_output(void *ctx, qv v) {
    size_t *total = (size_t *)ctx;
    jet_buf b;
    jet_buf_init(&b, NULL);
    bool ok = qv_to_json(&b, v);
    *total += b.len + 1;
    jet_buf_free(&b);
    return ok && *total < FUZZ_MAX_OUTPUT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *text = (const char *)data;
    const char *nl = (const char *)memchr(text, '\n', size);
    size_t flen = nl ? (size_t)(nl - text) : size;
    static const char *const names[] = {"x"};
    qerror err;
    qprog *p = qprog_compile(text, flen, names, 1, &err);
    if (!p) return 0;
    qrun r;
    qrun_init(&r);
    r.max_steps = 200000;
    r.max_bytes = (size_t)64 << 20;
    qv vars[1];
    vars[0] = qv_str("v", 1);
    r.vars = vars;
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = JET_READ_NUMBER_AS_RAW | JET_READ_STOP_WHEN_DONE;
    opts.max_depth = 256;
    size_t pos = nl ? flen + 1 : size;
    for (int docs = 0; pos < size && docs < 8; docs++) {
        jet_doc *d = jet_read(text + pos, size - pos, &opts, NULL, NULL);
        if (!d) break;
        size_t used = jet_doc_read_size(d);
        size_t total = 0;
        qrun_reset(&r);
        qrun_eval(&r, p, qv_from_jet(jet_doc_root(d)), count_output, &total);
        jet_doc_free(d);
        if (!used) break;
        pos += used;
    }
    qrun_free(&r);
    qprog_free(p);
    return 0;
}
