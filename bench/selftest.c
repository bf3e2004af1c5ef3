/* selftest.c — checks the harness's own verification: deliberately broken
 * adapters (wrapping a real engine) must be caught and excluded from timing,
 * and faithful ones must pass. */
#include "bench.h"

#include "schemas.h"

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

/* The nostr and api checks wrap engines of their own (those verifying on
 * nostr_relay and api_response). */
static const jb_engine *WN, *WR, *WW;

static void *wn_create(void) { return WN->create ? WN->create() : NULL; }
static void wn_destroy(void *st) { if (WN->destroy) WN->destroy(st); }
static int wn_nostr(void *st, int v, const char *const *l, const size_t *n, size_t k, jb_nostr *o) {
    return WN->nostr(st, v, l, n, k, o);
}
static int bn_nostr_lose_byte(void *st, int v, const char *const *l, const size_t *n, size_t k, jb_nostr *o) {
    int rc = WN->nostr(st, v, l, n, k, o);
    o->content_bytes -= o->content_bytes > 0;
    return rc;
}
static int bn_nostr_skip_last(void *st, int v, const char *const *l, const size_t *n, size_t k, jb_nostr *o) {
    return WN->nostr(st, v, l, n, k ? k - 1 : 0, o);
}

static void *wr_create(void) { return WR->create ? WR->create() : NULL; }
static void wr_destroy(void *st) { if (WR->destroy) WR->destroy(st); }
static int wr_api_read(void *st, const char *j, size_t n, struct ApiResponse *out) {
    return WR->api_read(st, j, n, out);
}
static int br_api_read_price(void *st, const char *j, size_t n, struct ApiResponse *out) {
    int rc = WR->api_read(st, j, n, out);
    /* One cent more on the last item of the last order. */
    if (rc == 0 && out->order_count && out->orders[out->order_count - 1].item_count) {
        ApiOrder *o = &out->orders[out->order_count - 1];
        o->items[o->item_count - 1].price += 0.01;
    }
    return rc;
}

static void *ww_create(void) { return WW->create ? WW->create() : NULL; }
static void ww_destroy(void *st) { if (WW->destroy) WW->destroy(st); }
static const char *ww_api_write(void *st, const struct ApiResponse *in, size_t *n) {
    return WW->api_write(st, in, n);
}
static const char *bw_api_write_digit(void *st, const struct ApiResponse *in, size_t *n) {
    /* The last digit of the text (the timestamp's) changed. */
    static char buf[1 << 14];
    const char *t = WW->api_write(st, in, n);
    if (!t || *n > sizeof buf) return NULL;
    memcpy(buf, t, *n);
    size_t k = *n;
    while (k > 0 && (buf[k - 1] < '0' || buf[k - 1] > '9')) k--;
    if (k > 0) buf[k - 1] = buf[k - 1] == '9' ? '0' : (char)(buf[k - 1] + 1);
    return buf;
}

/* decode: the TwitterStats checked against the reference. */
static const jb_engine *WD;

static void *wd_create(void) { return WD->create ? WD->create() : NULL; }
static void wd_destroy(void *st) { if (WD->destroy) WD->destroy(st); }
static int wd_decode(void *st, const char *j, size_t n, jb_twitter *o) { return WD->decode_twitter(st, j, n, o); }
static int bd_decode_hashtag_byte(void *st, const char *j, size_t n, jb_twitter *o) {
    int rc = WD->decode_twitter(st, j, n, o);
    o->hashtag_bytes -= o->hashtag_bytes > 0;
    return rc;
}

static bool has_decode(const jb_engine *e) { return e->decode_twitter != NULL; }
static bool has_nostr(const jb_engine *e) { return e->nostr != NULL; }
static bool has_api_read(const jb_engine *e) { return e->api_read != NULL; }
static bool has_api_write(const jb_engine *e) { return e->api_write != NULL; }

/* The first engine (reference engines first) that verifies `op` on `ds`. */
static const jb_engine *verifying_engine(jb_run *r, int ds, int op, bool (*has)(const jb_engine *)) {
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; jb_engines[i]; i++) {
            const jb_engine *e = jb_engines[i];
            if ((pass == 0) != ((e->caps & JB_CAP_REFERENCE) != 0) || !has(e)) continue;
            jb_cell c;
            memset(&c, 0, sizeof c);
            c.eng = e;
            c.op = op;
            c.ds = ds;
            jb_verify_cell(r, &c);
            if (c.st && e->destroy) e->destroy(c.st);
            if (c.state == CELL_OK) return e;
        }
    return NULL;
}

typedef struct st_case {
    jb_engine e;
    int op;
    bool must_pass;
} st_case;

/* Runs the cases; returns how many came out the wrong way. */
static int run_cases(jb_run *r, st_case *cases, int n, int ds) {
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
    return bad;
}

/* The typed-decoding ops: a checksum one byte short (TwitterStats, nostr),
 * a message left out, a price off by a cent, a digit changed in the written
 * text. */
static int self_test_typed(jb_run *r) {
    int tds = -1, nds = -1, ads = -1, bad = 0;
    for (int i = 0; i < r->nds; i++) {
        if (!r->ds[i].loaded) continue;
        if (r->ds[i].have_twitter_ref && tds < 0) tds = i;
        if (r->ds[i].kind == JB_DS_NOSTR && nds < 0) nds = i;
        if (r->ds[i].kind == JB_DS_API && ads < 0) ads = i;
    }
    const jb_engine none = {"selftest-control", "self-test", JB_CAP_SELFTEST, NULL, NULL, NULL, NULL,
                            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    st_case cases[8];
    int n = 0;
#define TCASE(nm, op_, pass, cr, de, field, fn) \
    do { cases[n].e = none; cases[n].e.name = nm; cases[n].e.create = cr; cases[n].e.destroy = de; \
         cases[n].e.field = fn; cases[n].op = op_; cases[n].must_pass = pass; n++; } while (0)
    /* (only when decode runs: the TwitterStats reference is established
     * for it) */
    WD = tds >= 0 ? verifying_engine(r, tds, OP_DECODE, has_decode) : NULL;
    if (WD) {
        TCASE("selftest-control", OP_DECODE, true, wd_create, wd_destroy, decode_twitter, wd_decode);
        TCASE("broken-decode-hashtag-byte", OP_DECODE, false, wd_create, wd_destroy, decode_twitter,
              bd_decode_hashtag_byte);
        int b = run_cases(r, cases, n, tds);
        bad += b;
        printf("self-test (wrapping %s on %s): %d of %d checks as expected%s\n", WD->name, r->ds[tds].name, n - b, n,
               b ? " -- THE HARNESS'S VERIFICATION IS BROKEN" : "");
        n = 0;
    } else if (tds >= 0) {
        printf("self-test: no engine that verifies decode on %s to wrap: skipped\n", r->ds[tds].name);
    }
    WN = nds >= 0 ? verifying_engine(r, nds, OP_NOSTR_FULL, has_nostr) : NULL;
    if (WN) {
        TCASE("selftest-control", OP_NOSTR_FULL, true, wn_create, wn_destroy, nostr, wn_nostr);
        TCASE("broken-nostr-content-byte", OP_NOSTR_FULL, false, wn_create, wn_destroy, nostr, bn_nostr_lose_byte);
        TCASE("broken-nostr-last-message", OP_NOSTR_ENVELOPE, false, wn_create, wn_destroy, nostr, bn_nostr_skip_last);
        int b = run_cases(r, cases, n, nds);
        bad += b;
        printf("self-test (wrapping %s on %s): %d of %d checks as expected%s\n", WN->name, r->ds[nds].name, n - b, n,
               b ? " -- THE HARNESS'S VERIFICATION IS BROKEN" : "");
    } else if (nds >= 0) {
        printf("self-test: no engine that verifies nostr-full on %s to wrap: skipped\n", r->ds[nds].name);
    }
    WR = ads >= 0 ? verifying_engine(r, ads, OP_API_READ, has_api_read) : NULL;
    WW = ads >= 0 ? verifying_engine(r, ads, OP_API_WRITE, has_api_write) : NULL;
    n = 0;
    if (WR) {
        TCASE("selftest-control", OP_API_READ, true, wr_create, wr_destroy, api_read, wr_api_read);
        TCASE("broken-api-price", OP_API_READ, false, wr_create, wr_destroy, api_read, br_api_read_price);
    }
    if (WW) {
        TCASE("selftest-control", OP_API_WRITE, true, ww_create, ww_destroy, api_write, ww_api_write);
        TCASE("broken-api-write-digit", OP_API_WRITE, false, ww_create, ww_destroy, api_write, bw_api_write_digit);
    }
#undef TCASE
    if (n) {
        int b = run_cases(r, cases, n, ads);
        bad += b;
        printf("self-test (wrapping %s%s%s on %s): %d of %d checks as expected%s\n", WR ? WR->name : "",
               WR && WW ? " and " : "", WW ? WW->name : "", r->ds[ads].name, n - b, n,
               b ? " -- THE HARNESS'S VERIFICATION IS BROKEN" : "");
    }
    if (ads >= 0 && !WR) printf("self-test: no engine that verifies api-read on %s to wrap: skipped\n", r->ds[ads].name);
    if (ads >= 0 && !WW) printf("self-test: no engine that verifies api-write on %s to wrap: skipped\n", r->ds[ads].name);
    return bad;
}

int jb_self_test(jb_run *r, int ds) {
    int typed_bad = self_test_typed(r);
    if (ds < 0) return typed_bad ? 1 : 0;
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
        return typed_bad ? 1 : 0;
    }
    const unsigned full = JB_CAP_NUM_SPLIT | JB_CAP_SELFTEST;
    jb_engine base = {"selftest-control", "self-test", full, NULL, NULL, NULL, NULL,
                      w_create, w_destroy, w_parse, w_free_doc, w_stats,
                      w_serialize, w_free_text, w_validate, NULL,
                      NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
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

    int bad = run_cases(r, cases, n, ds);
    printf("self-test (wrapping %s on %s): %d of %d checks as expected%s\n", W->name, r->ds[ds].name, n - bad, n,
           bad ? " -- THE HARNESS'S VERIFICATION IS BROKEN" : "");
    return bad || typed_bad ? 1 : 0;
}
