/*
 * validate.c — accept/reject without building anything (jet.h section 12).
 *
 * The DOM reader's grammar runs with nothing stored (jet__validate): the
 * index route's stage 2 accepts, the one-pass reader takes what it does not
 * and reports every error, exactly as a parse would (same code, offset,
 * line and column, on every kernel). Memory: the parser's stack of frames
 * and the index route's window (32 KiB), whatever the input. Only on an
 * error does jet_od_validate index the input (the cursor's bounded
 * windows), to name the error's JSON Pointer.
 */
#include "ondemand.h"

#include <string.h>

/* The options as validation takes them: it is the full validation, and
 * there is no schema. */
static jet_read_opts validation_opts(const jet_read_opts *opts) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    o.flags &= ~(JET_READ_VALIDATE_ALL | JET_READ_REJECT_UNKNOWN);
    return o;
}

bool jet_od_validate(jet_od *od, const char *json, size_t len, const jet_read_opts *opts) {
    if (!od) return false;
    jet_read_opts o = validation_opts(opts);
    jet__od_reset(od, json, len, &o);
    if (!od->validator) {
        od->validator = jet_parser_new(&od->alloc);
        if (!od->validator) return jet__od_err(od, JET_E_MEMORY, 0);
    }
    jet_error e;
    bool ok = jet__validate(od->validator, json, len, &o, &e);
    if (!ok) {
        /* the error's JSON Pointer comes from the structural index (a
         * stage-1 error there is the same error, recorded by the start) */
        if (jet_od_start(od, json, len, &o, NULL)) jet__od_fail(od, e.code, e.offset, e.msg);
    }
    od->pos = od->len; /* no document to walk */
    od->depth = 0;
    return ok;
}

bool jet_validate(const char *json, size_t len, const jet_read_opts *opts, const jet_alloc *alloc,
                  jet_error *err) {
    /* no path is returned: no index, only the parser's stack */
    jet_parser *p = jet_parser_new(alloc);
    if (!p) {
        jet__error_kind(err, JET_E_MEMORY, 0);
        return false;
    }
    jet_read_opts o = validation_opts(opts);
    jet_error e;
    bool ok = jet__validate(p, json, len, &o, &e);
    if (!ok && err) {
        *err = e;
        err->path = NULL;
    }
    jet_parser_free(p);
    return ok;
}
