/* selftest.c — checks the harness's own verification: deliberately broken
 * adapters (wrapping a real engine) must be caught and excluded from timing,
 * and faithful ones must pass. */
#include "bench.h"

#include <stdlib.h>
#include <string.h>

static const jb_engine *W; /* the wrapped, real engine */

static void *w_create(void) { return W->create ? W->create() : NULL; }
static void w_destroy(void *st) { if (W->destroy) W->destroy(st); }
static void *w_parse(void *st, const char *j, size_t n) { return W->parse(st, j, n); }
static void w_free_doc(void *st, void *doc) { if (W->free_doc) W->free_doc(st, doc); }
static int w_stats(void *st, void *doc, jb_stats *o) { return W->stats(st, doc, o); }
static char *w_serialize(void *st, void *doc, size_t *n) { return W->serialize(st, doc, n); }
static void w_free_text(void *st, char *t) { if (W->free_text) W->free_text(st, t); }
static int w_validate(void *st, const char *j, size_t n) {
    if (W->validate) return W->validate(st, j, n);
    void *doc = W->parse(st, j, n);
    if (doc && W->free_doc) W->free_doc(st, doc);
    return doc != NULL;
}

/* The breakages. */
static int b_stats_off_by_one(void *st, void *doc, jb_stats *o) {
    int rc = W->stats(st, doc, o);
    o->strings++;
    return rc;
}
static int b_stats_no_split(void *st, void *doc, jb_stats *o) {
    int rc = W->stats(st, doc, o);
    o->doubles += o->integers; /* like cJSON: every number a double */
    o->integers = 0;
    return rc;
}
static int b_stats_lose_bytes(void *st, void *doc, jb_stats *o) {
    int rc = W->stats(st, doc, o);
    o->string_bytes -= o->string_bytes > 0;
    return rc;
}
static void *b_parse_reject(void *st, const char *j, size_t n) { (void)st; (void)j; (void)n; return NULL; }
static void *b_parse_first_half(void *st, const char *j, size_t n) {
    /* Parses a different document: a reused-buffer bug in disguise. */
    void *doc = W->parse(st, "[1,\"x\",{}]", 10);
    (void)j; (void)n;
    return doc;
}
static char *b_serialize_wrap(void *st, void *doc, size_t *n) {
    size_t m = 0;
    char *t = W->serialize(st, doc, &m);
    if (!t) return NULL;
    char *out = malloc(m + 3);
    if (out) {
        out[0] = '[';
        memcpy(out + 1, t, m);
        out[m + 1] = ']';
        out[m + 2] = 0;
        *n = m + 2;
    }
    if (W->free_text) W->free_text(st, t);
    return out;
}
static void b_free_text(void *st, char *t) { (void)st; free(t); }
static int b_validate_yes(void *st, const char *j, size_t n) { (void)st; (void)j; (void)n; return 1; }

typedef struct st_case {
    jb_engine e;
    int op;
    bool must_pass;
} st_case;

int jb_self_test(jb_run *r, int ds) {
    /* Wrap an engine that itself verifies on this dataset (parse and
     * serialize), preferring the reference engines: a broken jet must not
     * make the self-test blame the harness. */
    W = NULL;
    for (int pass = 0; pass < 2 && !W; pass++)
        for (int i = 0; jb_engines[i] && !W; i++) {
            const jb_engine *e = jb_engines[i];
            unsigned need = pass == 0 ? JB_CAP_REFERENCE : JB_CAP_NUM_SPLIT;
            if (!(e->caps & need) || !e->serialize || !e->parse || !e->stats) continue;
            bool good = true;
            for (int op = OP_PARSE; op <= OP_SERIALIZE && good; op++) {
                jb_cell c;
                memset(&c, 0, sizeof c);
                c.eng = e;
                c.op = op;
                c.ds = ds;
                jb_verify_cell(r, &c);
                good = c.state == CELL_OK;
                if (c.doc && e->free_doc) e->free_doc(c.st, c.doc);
                if (c.st && e->destroy) e->destroy(c.st);
            }
            if (good) W = e;
        }
    if (!W) {
        printf("self-test: no engine that verifies on %s to wrap: skipped\n", r->ds[ds].name);
        return 0;
    }
    const unsigned full = JB_CAP_NUM_SPLIT | JB_CAP_SELFTEST;
    jb_engine base = {"selftest-control", "self-test", full, NULL, NULL, NULL, NULL,
                      w_create, w_destroy, w_parse, w_free_doc, w_stats,
                      w_serialize, w_free_text, w_validate, NULL};
    st_case cases[16];
    int n = 0;
#define CASE(nm, op_, pass, field, fn) \
    do { cases[n].e = base; cases[n].e.name = nm; cases[n].e.field = fn; cases[n].op = op_; cases[n].must_pass = pass; n++; } while (0)
    CASE("selftest-control", OP_PARSE, true, stats, w_stats);
    CASE("selftest-control", OP_SERIALIZE, true, stats, w_stats);
    CASE("selftest-control", OP_VALIDATE, true, stats, w_stats);
    CASE("broken-strings+1", OP_PARSE, false, stats, b_stats_off_by_one);
    CASE("broken-string-bytes", OP_PARSE, false, stats, b_stats_lose_bytes);
    CASE("broken-rejects", OP_PARSE, false, parse, b_parse_reject);
    CASE("broken-wrong-doc", OP_PARSE, false, parse, b_parse_first_half);
    CASE("broken-serialize", OP_SERIALIZE, false, serialize, b_serialize_wrap);
    CASE("broken-validate", OP_VALIDATE, false, validate, b_validate_yes);
    /* Number classification: a doubles-only engine passes when it declares
     * it (no JB_CAP_NUM_SPLIT) and fails when it claims the split. */
    CASE("nosplit-declared", OP_PARSE, true, stats, b_stats_no_split);
    cases[n - 1].e.caps = JB_CAP_SELFTEST;
    CASE("nosplit-claimed", OP_PARSE, false, stats, b_stats_no_split);
#undef CASE
    cases[7].e.free_text = b_free_text;

    int bad = 0;
    for (int i = 0; i < n; i++) {
        jb_cell c;
        memset(&c, 0, sizeof c);
        c.eng = &cases[i].e;
        c.op = cases[i].op;
        c.ds = ds;
        c.state = CELL_PENDING;
        jb_verify_cell(r, &c);
        bool passed = c.state == CELL_OK;
        bool good = passed == cases[i].must_pass;
        if (good) r->selftest_passed++; else { r->selftest_failed++; bad++; }
        if (!good || r->opt.verbose)
            printf("self-test %s: %s %s %s -> %s%s%s\n", good ? "ok" : "FAILED", c.eng->name, jb_op_names[c.op],
                   r->ds[ds].name, passed ? "verified" : "rejected", passed ? "" : ": ", passed ? "" : c.note);
        if (c.doc && c.eng->free_doc) c.eng->free_doc(c.st, c.doc);
        if (c.st && c.eng->destroy) c.eng->destroy(c.st);
    }
    printf("self-test (wrapping %s on %s): %d of %d checks as expected%s\n", W->name, r->ds[ds].name, n - bad, n,
           bad ? " -- THE HARNESS'S VERIFICATION IS BROKEN" : "");
    return bad ? 1 : 0;
}
