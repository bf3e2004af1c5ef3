/*
 * test_flags.c — the reader extensions (JET_READ_ALLOW_COMMENTS,
 * _TRAILING_COMMAS, _NAN_INF, _INVALID_UTF8) through the cursor, the typed
 * decoder and the validators, each compared with the DOM reader on the same
 * document and flags, on every kernel this CPU runs.
 */
#include "check.h"

#include <jet.h>

#include "internal.h" /* jet__od_window_set */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *const kernels[] = {"scalar", "swar", "sse2", "avx2", "avx512", "neon"};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

/* ---- a canonical text of a value, from the DOM and from the cursor ------- */

typedef struct canon {
    char buf[4096];
    size_t n;
} canon;

static void put(canon *c, const char *s, size_t n) {
    size_t room = sizeof c->buf - 1 - c->n;
    if (n > room) n = room;
    memcpy(c->buf + c->n, s, n);
    c->n += n;
    c->buf[c->n] = 0;
}
static void put_num(canon *c, double d) {
    char t[40];
    int n = snprintf(t, sizeof t, "%.17g", d);
    put(c, t, (size_t)n);
}
static void put_str(canon *c, const char *s, size_t len) {
    char t[24];
    int n = snprintf(t, sizeof t, "s%zu:", len);
    put(c, t, (size_t)n);
    put(c, s, len);
}

static void dom_canon(canon *c, const jet_val *v) {
    switch (jet_get_type(v)) {
    case JET_TYPE_NULL: put(c, "n", 1); break;
    case JET_TYPE_BOOL: put(c, jet_is_true(v) ? "t" : "f", 1); break;
    case JET_TYPE_NUM: put_num(c, jet_get_num(v)); break;
    case JET_TYPE_STR: put_str(c, jet_get_str(v), jet_get_len(v)); break;
    case JET_TYPE_ARR: {
        put(c, "[", 1);
        jet_arr_iter it = jet_arr_iter_init(v);
        bool first = true;
        for (jet_val *e; (e = jet_arr_iter_next(&it));) {
            if (!first) put(c, ",", 1);
            first = false;
            dom_canon(c, e);
        }
        put(c, "]", 1);
        break;
    }
    case JET_TYPE_OBJ: {
        put(c, "{", 1);
        jet_obj_iter it = jet_obj_iter_init(v);
        bool first = true;
        for (jet_val *k; (k = jet_obj_iter_next(&it));) {
            if (!first) put(c, ",", 1);
            first = false;
            put_str(c, jet_get_str(k), jet_get_len(k));
            put(c, ":", 1);
            dom_canon(c, jet_obj_iter_value(k));
        }
        put(c, "}", 1);
        break;
    }
    default: put(c, "?", 1); break;
    }
}

/* Reads every value through the cursor; false on an error (in the od). */
static bool od_canon(canon *c, jet_odv *v) {
    switch (jet_odv_type(v)) {
    case JET_TYPE_NULL:
        put(c, "n", 1);
        return jet_odv_is_null(v);
    case JET_TYPE_BOOL: {
        bool b;
        if (!jet_odv_get_bool(v, &b)) return false;
        put(c, b ? "t" : "f", 1);
        return true;
    }
    case JET_TYPE_NUM: {
        double d;
        if (!jet_odv_get_double(v, &d)) return false;
        put_num(c, d);
        return true;
    }
    case JET_TYPE_STR: {
        jet_str s;
        if (!jet_odv_get_str(v, &s)) return false;
        put_str(c, s.ptr, s.len);
        return true;
    }
    case JET_TYPE_ARR: {
        jet_od_iter it;
        jet_odv e;
        if (!jet_odv_arr(v, &it)) return false;
        put(c, "[", 1);
        bool first = true;
        while (jet_od_arr_next(&it, &e)) {
            if (!first) put(c, ",", 1);
            first = false;
            if (!od_canon(c, &e)) return false;
        }
        put(c, "]", 1);
        return jet_od_ok(v->od);
    }
    case JET_TYPE_OBJ: {
        jet_od_iter it;
        jet_odv e;
        jet_str k;
        if (!jet_odv_obj(v, &it)) return false;
        put(c, "{", 1);
        bool first = true;
        while (jet_od_obj_next(&it, &k, &e)) {
            if (!first) put(c, ",", 1);
            first = false;
            put_str(c, k.ptr, k.len);
            put(c, ":", 1);
            if (!od_canon(c, &e)) return false;
        }
        put(c, "}", 1);
        return jet_od_ok(v->od);
    }
    default: return false;
    }
}

/* ---- the typed decoder's view: one schema the documents below fit -------- */

typedef struct Inner {
    int64_t x;
} Inner;
static const jet_field inner_fields[] = {JET_F_INT(Inner, x, "x")};
static jet_struct inner_type = JET_STRUCT(Inner, inner_fields);

typedef struct Doc {
    double d;
    int64_t *a;
    size_t a_count;
    jet_str *s;
    size_t s_count;
    bool t;
    Inner o;
    jet_str k;
} Doc;
static const jet_field i64_elem = JET_ELEM(int64_t, JET_K_INT, NULL);
static const jet_field str_elem = JET_ELEM(jet_str, JET_K_STR, NULL);
static const jet_field doc_fields[] = {
    JET_F_F64(Doc, d, "d"),
    JET_F_ARRAY(Doc, a, a_count, "a", i64_elem),
    JET_FIELD_FULL(Doc, s, "s", NULL, JET_K_ARRAY, JET_FIELD_OPTIONAL, (uint32_t)offsetof(Doc, s_count),
                   JET_NO_OFFSET, &str_elem),
    JET_F_BOOL(Doc, t, "t"),
    JET_F_STRUCT(Doc, o, "o", inner_type),
    JET_FIELD_F(Doc, k, "k", JET_K_STR, NULL, JET_FIELD_OPTIONAL),
};
static jet_struct doc_type = JET_STRUCT(Doc, doc_fields);

/* The decoded struct against the DOM's document (same fields). */
static bool same_as_dom(const Doc *x, const jet_val *root) {
    canon c = {{0}, 0}, want = {{0}, 0};
    jet_val *d = jet_obj_get(root, "d"), *a = jet_obj_get(root, "a"), *tv = jet_obj_get(root, "t");
    jet_val *o = jet_obj_get(root, "o"), *s = jet_obj_get(root, "s"), *k = jet_obj_get(root, "k");
    if (!d || !a || !tv || !o) return false;
    put_num(&want, jet_get_num(d));
    dom_canon(&want, a);
    if (s) dom_canon(&want, s);
    dom_canon(&want, tv);
    put_num(&want, jet_get_num(jet_obj_get(o, "x")));
    if (k) dom_canon(&want, k);
    put_num(&c, x->d);
    put(&c, "[", 1);
    for (size_t i = 0; i < x->a_count; i++) {
        if (i) put(&c, ",", 1);
        put_num(&c, (double)x->a[i]);
    }
    put(&c, "]", 1);
    if (s) {
        put(&c, "[", 1);
        for (size_t i = 0; i < x->s_count; i++) {
            if (i) put(&c, ",", 1);
            put_str(&c, x->s[i].ptr, x->s[i].len);
        }
        put(&c, "]", 1);
    }
    put(&c, x->t ? "t" : "f", 1);
    put_num(&c, (double)x->o.x);
    if (k) put_str(&c, x->k.ptr, x->k.len);
    return c.n == want.n && memcmp(c.buf, want.buf, c.n) == 0;
}

/* ---- the documents ------------------------------------------------------- */

typedef struct doc_case {
    jet_read_flags flags; /* the flag the case is about */
    const char *json;
    size_t len; /* 0: strlen */
} doc_case;

#define C JET_READ_ALLOW_COMMENTS
#define T JET_READ_ALLOW_TRAILING_COMMAS
#define N JET_READ_ALLOW_NAN_INF
#define U JET_READ_ALLOW_INVALID_UTF8
static const doc_case cases[] = {
    /* comments: accepted wherever whitespace may be, brackets and quotes
     * inside them are not structure, and comment marks inside strings are
     * text */
    {C, "/*a*/[1,/*\"x]*/2]//c", 0},
    {C, "{\"a\"/*:*/:1,//}\n\"b\":[/*[*/]}", 0},
    {C, "[1]/**/", 0},
    {C, "// lead\n{\"s\":\"//not a comment /* no */\"}", 0},
    {C, "[\"a\\\"/*\", /* \"} */ \"b\"]", 0},
    {C, "[true/**/,false//x\n,null/*{*/]", 0},
    {C, "{\"q\":[{\"r\":/*]}*/1}]/*}*/}", 0},
    {C, "[1,/*]", 0},
    {C, "[1]/", 0},
    {C, "[1/x]", 0},
    {C, "/* open", 0},
    {C, "{\"a\":1}/*", 0},
    {C, "[1 // no newline at the end", 0},
    {C, "/**/", 0},
    {C, "[1,/**/,2]", 0},
    /* trailing commas: one before a close, nothing else */
    {T, "[1,2,]", 0},
    {T, "{\"a\":1,}", 0},
    {T, "[[1,],{\"b\":[],},]", 0},
    {T, "{\"o\":{\"p\":{\"q\":[\"x\",\"y\",],},},}", 0},
    {T, "[,]", 0},
    {T, "{,}", 0},
    {T, "[1,,]", 0},
    {T, "{\"a\":1,,}", 0},
    {T, "[1,]2", 0},
    {T, "[1],", 0},
    {T, "{\"a\":1,]", 0},
    {T, "[1,}", 0},
    {T, "{\"a\",}", 0},
    /* NaN and the infinities */
    {N, "[NaN,Infinity,-Infinity,1.5]", 0},
    {N, "{\"d\":NaN}", 0},
    {N, "[nan]", 0},
    {N, "[-NaN]", 0},
    {N, "[Infinit]", 0},
    {N, "[+Infinity]", 0},
    {N, "[NaNx]", 0},
    /* invalid UTF-8 */
    {U, "[\"\xff\"]", 0},
    {U, "{\"\xc3\":1}", 0},
    {U, "[\"\xed\xa0\x80\"]", 0},
    {U, "[\"\\ud800\"]", 0},
    {U, "[\"\\udc00x\\ud83d\"]", 0},
    {U, "[\"\xc3\xa9\"]", 0},
    /* all at once */
    {C | T | N | U, "[1,/*c*/NaN,\"\xfe\",]", 0},
    {C | T | N, "{\"a\":[Infinity,/*,*/],//\n}", 0},
};

/* The same documents as typed decoding reads them (schema Doc). */
static const doc_case decode_cases[] = {
    {C, "{\"d\":1.5,/*\"a\":[9]*/\"a\":[1,2],\"t\":true,\"o\":{\"x\":3}}", 0},
    {C, "//x\n{\"skip\":{\"q\":\"/*\",/*}}*/\"r\":[/*]*/]},\"d\":2,\"a\":[],\"t\":false,\"o\":{\"x\":-1}}/**/", 0},
    {C, "{\"d\":1,\"a\":[1/*,2*/],\"t\":true,/*x*/\"o\":/*{*/{\"x\":4/**/}/**/}", 0},
    {C, "{\"d\":1,\"a\":[1],\"t\":true,\"o\":{\"x\":4}/*", 0},
    {C, "{\"d\":1,\"a\":[1],\"t\":true,\"o\":{\"x\":4}}/x", 0},
    {T, "{\"d\":1.5,\"a\":[1,2,],\"t\":true,\"o\":{\"x\":3,},}", 0},
    {T, "{\"skip\":{\"q\":[1,],},\"d\":2,\"a\":[],\"s\":[\"p\",\"q\",],\"t\":false,\"o\":{\"x\":-1},}", 0},
    {T, "{\"d\":1,\"a\":[1,,],\"t\":true,\"o\":{\"x\":4}}", 0},
    {T, "{\"d\":1,\"a\":[,],\"t\":true,\"o\":{\"x\":4}}", 0},
    {T, "{\"d\":1,\"a\":[1],\"t\":true,\"o\":{\"x\":4},,}", 0},
    {T, "{\"d\":1,\"a\":[1],\"t\":true,\"o\":{,}}", 0},
    {T, "{\"d\":1,\"a\":[1],\"s\":[\"x\",,],\"t\":true,\"o\":{\"x\":4}}", 0},
    {N, "{\"d\":NaN,\"a\":[1],\"t\":true,\"o\":{\"x\":4}}", 0},
    {N, "{\"d\":-Infinity,\"a\":[1],\"t\":true,\"o\":{\"x\":4}}", 0},
    {N, "{\"d\":Infinity,\"a\":[1],\"t\":true,\"o\":{\"x\":4},\"z\":NaN}", 0},
    {N, "{\"d\":nan,\"a\":[1],\"t\":true,\"o\":{\"x\":4}}", 0},
    {U, "{\"d\":1,\"a\":[1],\"t\":true,\"o\":{\"x\":4},\"k\":\"\xff\\ud800\"}", 0},
    {U, "{\"d\":1,\"a\":[1],\"t\":true,\"o\":{\"x\":4},\"s\":[\"\xc0\",\"ok\"]}", 0},
    {C | T | N, "{\"d\":NaN,//\n\"a\":[1,/*2*/],\"t\":true,\"o\":{\"x\":4,},}", 0},
};
#undef C
#undef T
#undef N
#undef U

static jet_parser *parser;
static jet_od *od;
static jet_arena arena;

/* The DOM reader's verdict and, when it accepts, the canonical text. */
static bool dom_read(const char *json, size_t len, jet_read_flags flags, canon *c, jet_error *err,
                     const jet_val **root) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    jet_doc *d = jet_parser_parse(parser, json, len, &o, err);
    if (!d) return false;
    *root = jet_doc_root(d);
    dom_canon(c, *root);
    return true;
}

static void check_cursor(const char *kernel, const doc_case *k, size_t len, jet_read_flags flags) {
    canon want = {{0}, 0}, got = {{0}, 0};
    jet_error derr;
    const jet_val *root = NULL;
    bool dom_ok = dom_read(k->json, len, flags, &want, &derr, &root);

    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    jet_odv r;
    bool ok = jet_od_start(od, k->json, len, &o, &r) && od_canon(&got, &r) && jet_od_finish(od);
    CHECK_MSG(ok == dom_ok, "%s flags %#x: cursor %s, DOM %s on %s (%s)", kernel, (unsigned)flags,
              ok ? "accepts" : "rejects", dom_ok ? "accepts" : "rejects", k->json,
              ok ? derr.msg : jet_od_error(od)->msg);
    if (ok && dom_ok)
        CHECK_MSG(got.n == want.n && memcmp(got.buf, want.buf, got.n) == 0,
                  "%s flags %#x: cursor read %s, DOM %s (%s)", kernel, (unsigned)flags, got.buf, want.buf,
                  k->json);
    if (!ok && !dom_ok)
        CHECK_MSG(jet_od_error(od)->code == derr.code && jet_od_error(od)->offset == derr.offset &&
                      strcmp(jet_od_error(od)->msg, derr.msg) == 0,
                  "%s flags %#x: cursor %s@%zu (%s), DOM %s@%zu (%s) on %s", kernel, (unsigned)flags,
                  jet_code_name(jet_od_error(od)->code), jet_od_error(od)->offset, jet_od_error(od)->msg,
                  jet_code_name(derr.code), derr.offset, derr.msg, k->json);

    /* the validators: the same verdict and code */
    bool vok = jet_od_validate(od, k->json, len, &o);
    CHECK_MSG(vok == dom_ok, "%s flags %#x: jet_od_validate %s %s", kernel, (unsigned)flags,
              vok ? "accepts" : "rejects", k->json);
    if (!vok && !dom_ok)
        CHECK_MSG(jet_od_error(od)->code == derr.code && jet_od_error(od)->offset == derr.offset &&
                      strcmp(jet_od_error(od)->msg, derr.msg) == 0,
                  "%s flags %#x: jet_od_validate %s@%zu (%s), DOM %s@%zu (%s) on %s", kernel, (unsigned)flags,
                  jet_code_name(jet_od_error(od)->code), jet_od_error(od)->offset, jet_od_error(od)->msg,
                  jet_code_name(derr.code), derr.offset, derr.msg, k->json);
    jet_error verr;
    CHECK(jet_validate(k->json, len, &o, NULL, &verr) == dom_ok);

    /* the cursor's strict skip (the default; JET_READ_VALIDATE_ALL is its
     * old name): the root skipped whole, the same verdict and error */
    for (int va = 0; va < 2; va++) {
        o.flags = flags | (va ? JET_READ_VALIDATE_ALL : 0);
        bool sok = jet_od_start(od, k->json, len, &o, &r) && jet_odv_skip(&r) && jet_od_finish(od);
        CHECK_MSG(sok == dom_ok, "%s flags %#x: strict skip %s %s", kernel, (unsigned)o.flags,
                  sok ? "accepts" : "rejects", k->json);
        if (!sok && !dom_ok)
            CHECK_MSG(jet_od_error(od)->code == derr.code && jet_od_error(od)->offset == derr.offset,
                      "%s flags %#x: strict skip %s@%zu, DOM %s@%zu on %s", kernel, (unsigned)o.flags,
                      jet_code_name(jet_od_error(od)->code), jet_od_error(od)->offset,
                      jet_code_name(derr.code), derr.offset, k->json);
    }
}

static void check_decode(const char *kernel, const doc_case *k, size_t len, jet_read_flags flags) {
    canon want = {{0}, 0};
    jet_error derr, err;
    const jet_val *root = NULL;
    bool dom_ok = dom_read(k->json, len, flags, &want, &derr, &root);
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    Doc x;
    jet_arena_reset(&arena);
    bool ok = jet_decode(od, k->json, len, &doc_type, &x, &arena, &o, &err);
    CHECK_MSG(ok == dom_ok, "%s flags %#x: jet_decode %s, DOM %s on %s (%s)", kernel, (unsigned)flags,
              ok ? "accepts" : "rejects", dom_ok ? "accepts" : "rejects", k->json, ok ? derr.msg : err.msg);
    if (ok && dom_ok) CHECK_MSG(same_as_dom(&x, root), "%s: decoded values differ on %s", kernel, k->json);
    if (!ok && !dom_ok)
        /* (the members the schema skips are checked strictly too: the same
         * first error as the DOM reader's) */
        CHECK_MSG(err.code == derr.code && err.offset == derr.offset && strcmp(err.msg, derr.msg) == 0,
                  "%s flags %#x: jet_decode %s@%zu (%s), DOM %s@%zu (%s) on %s", kernel, (unsigned)flags,
                  jet_code_name(err.code), err.offset, err.msg, jet_code_name(derr.code), derr.offset, derr.msg,
                  k->json);
}

/* Every prefix of a few documents, and each with one byte replaced by
 * characters that break the grammar: the validator and a full cursor walk
 * reject with the DOM reader's code, offset and message. */
static void check_broken(const char *kernel) {
    static const char *const docs[] = {
        "{\"a\": [1, -2.5e3, true, false, null], \"b\": {\"c\": \"x\\u00e9y\", \"d\": []}, \"e\": {}}",
        "[[], {}, [{\"k\": [null]}], \"s\", 0, 12, -0.5]",
    };
    static const char breakers[] = ",:[]{}\"x1-/ tn";
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        size_t n = strlen(docs[d]);
        char buf[256];
        for (size_t cut = 0; cut <= n; cut++) {
            for (size_t b = 0; b <= sizeof breakers - 1; b++) {
                size_t len = b ? n : cut;
                memcpy(buf, docs[d], n);
                if (b) {
                    if (cut == n) continue;
                    buf[cut] = breakers[b - 1];
                }
                jet_error derr;
                jet_doc *dd = jet_read(buf, len, NULL, NULL, &derr);
                bool vok = jet_od_validate(od, buf, len, NULL);
                const jet_error *ve = jet_od_error(od);
                CHECK_MSG(vok == (dd != NULL) && (vok || (ve->code == derr.code && ve->offset == derr.offset &&
                                                           strcmp(ve->msg, derr.msg) == 0)),
                          "%s: validate %.*s: %s@%zu (%s), DOM %s@%zu (%s)", kernel, (int)len, buf,
                          vok ? "ok" : jet_code_name(ve->code), ve->offset, vok ? "" : ve->msg,
                          dd ? "ok" : jet_code_name(derr.code), derr.offset, dd ? "" : derr.msg);
                canon got = {{0}, 0};
                jet_odv r;
                bool ok = jet_od_start(od, buf, len, NULL, &r) && od_canon(&got, &r) && jet_od_finish(od);
                const jet_error *oe = jet_od_error(od);
                CHECK_MSG(ok == (dd != NULL) && (ok || (oe->code == derr.code && oe->offset == derr.offset &&
                                                         strcmp(oe->msg, derr.msg) == 0)),
                          "%s: cursor %.*s: %s@%zu (%s), DOM %s@%zu (%s)", kernel, (int)len, buf,
                          ok ? "ok" : jet_code_name(oe->code), oe->offset, ok ? "" : oe->msg,
                          dd ? "ok" : jet_code_name(derr.code), derr.offset, dd ? "" : derr.msg);
                jet_doc_free(dd);
            }
        }
    }
}

int main(void) {
    parser = jet_parser_new(NULL);
    od = jet_od_new(NULL);
    jet_arena_init(&arena, NULL);
    CHECK(parser && od);
    size_t ran = 0;
    for (size_t kk = 0; kk < N_KERNELS; kk++) {
        if (!jet_kernel_set(kernels[kk])) continue;
        ran++;
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            const doc_case *k = &cases[i];
            size_t len = k->len ? k->len : strlen(k->json);
            /* with the flag, with every flag, and strict (where the DOM
             * reader rejects what the flag allows: so must the others) */
            check_cursor(kernels[kk], k, len, k->flags);
            check_cursor(kernels[kk], k, len,
                         JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_ALLOW_NAN_INF |
                             JET_READ_ALLOW_INVALID_UTF8);
            check_cursor(kernels[kk], k, len, 0);
        }
        for (size_t i = 0; i < sizeof decode_cases / sizeof decode_cases[0]; i++) {
            const doc_case *k = &decode_cases[i];
            size_t len = k->len ? k->len : strlen(k->json);
            check_decode(kernels[kk], k, len, k->flags);
            check_decode(kernels[kk], k, len, 0);
        }
        check_broken(kernels[kk]);
    }
    CHECK_MSG(ran >= 2, "only %zu kernels ran", ran);

    /* NaN is a number to the DOM reader, but not an integer: typed decoding
     * into an integer array says so */
    {
        const char *j = "{\"d\":1,\"a\":[NaN],\"t\":true,\"o\":{\"x\":4}}";
        jet_read_opts o;
        memset(&o, 0, sizeof o);
        o.flags = JET_READ_ALLOW_NAN_INF;
        Doc x;
        jet_error err;
        CHECK(!jet_decode(od, j, strlen(j), &doc_type, &x, &arena, &o, &err) && err.code == JET_ERR_TYPE &&
              strcmp(err.path, "/a/0") == 0);
    }

    /* A comment's bytes do not move anything: an error after one is at the
     * input's own offset, line and column (UTF-8 in the comment counted as
     * the DOM reader counts it). */
    {
        const char *j = "[1, /* \xc3\xa9\xc3\xa9 */ 2 3]";
        jet_read_opts o;
        memset(&o, 0, sizeof o);
        o.flags = JET_READ_ALLOW_COMMENTS;
        jet_error derr;
        CHECK(!jet_parser_parse(parser, j, strlen(j), &o, &derr));
        jet_odv r;
        jet_od_iter it;
        jet_odv e;
        CHECK(jet_od_start(od, j, strlen(j), &o, &r) && jet_odv_arr(&r, &it) && jet_od_arr_next(&it, &e));
        CHECK(jet_odv_skip(&e) && jet_od_arr_next(&it, &e) && jet_odv_skip(&e) && !jet_od_arr_next(&it, &e));
        const jet_error *oe = jet_od_error(od);
        CHECK_MSG(oe->code == derr.code && oe->offset == derr.offset && oe->line == derr.line &&
                      oe->column == derr.column,
                  "cursor %s@%zu (%zu:%zu), DOM %s@%zu (%zu:%zu)", jet_code_name(oe->code), oe->offset,
                  oe->line, oe->column, jet_code_name(derr.code), derr.offset, derr.line, derr.column);
    }
    /* an input indexed in windows (here of 512 bytes) reads its comments
     * the same way */
    jet__od_window_set(4);
    {
        size_t n = 200000;
        char *big = (char *)malloc(n + 64);
        size_t at = 0;
        big[at++] = '[';
        size_t elems = 0;
        while (at < n) {
            at += (size_t)sprintf(big + at, "%zu,/*]\"*/", elems++);
        }
        memcpy(big + at, "0,]", 3);
        at += 3;
        jet_read_opts o;
        memset(&o, 0, sizeof o);
        o.flags = JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS;
        jet_odv r, e;
        jet_od_iter it;
        size_t seen = 0;
        uint64_t u, sum = 0;
        CHECK(jet_od_start(od, big, at, &o, &r) && jet_odv_arr(&r, &it));
        while (jet_od_arr_next(&it, &e) && jet_odv_get_u64(&e, &u)) {
            seen++;
            sum += u;
        }
        CHECK_MSG(jet_od_finish(od) && seen == elems + 1 && sum == (uint64_t)elems * (elems - 1) / 2,
                  "seen %zu of %zu (%s)", seen, elems + 1, jet_od_error(od)->msg);
        free(big);
    }
    jet__od_window_set(0);
    jet_arena_free(&arena);
    jet_od_free(od);
    jet_parser_free(parser);
    return CHECK_DONE("test_flags");
}
