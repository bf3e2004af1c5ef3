/* test_strict.c — typed decoding and the cursor are strict by default
 * (issue 23, points 4 to 6): invalid JSON inside a member they skip is
 * rejected with the DOM reader's error on every kernel, and accepted by
 * JET_READ_LAZY where the brackets balance; the depth limit applies to
 * skipping in both modes; duplicate keys (an error by default, first-wins
 * and last-wins by flag); fixed-size strings with \u0000; range errors that
 * name the field's type; the field's JSON Pointer on every typed-decoding
 * error. */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "internal.h" /* jet__od_window_set */
#include "jet.h"
#include "schemas.h"

static jet_od *od;
static jet_arena arena;
static jet_error err;
static char *cur; /* exact-size copy of the last input */

static const char *ostr(const char *s) { return s ? s : "(null)"; }

static bool dec_n(jet_struct *t, void *out, const char *json, size_t len, jet_read_flags flags) {
    free(cur);
    cur = check_dup_exact(json, len);
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    memset(&err, 0, sizeof err);
    jet_arena_reset(&arena);
    return jet_decode(od, cur, len, t, out, &arena, &o, &err);
}
static bool dec(jet_struct *t, void *out, const char *json, jet_read_flags flags) {
    return dec_n(t, out, json, strlen(json), flags);
}

/* The cursor skipping the whole root (jet_od_finish on a document never
 * read). */
static bool skip_all(const char *json, size_t len, jet_read_flags flags) {
    free(cur);
    cur = check_dup_exact(json, len);
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    jet_odv root;
    return jet_od_start(od, cur, len, &o, &root) && jet_od_finish(od);
}

/* ---- invalid JSON in skipped members ------------------------------------ */

static const struct {
    const char *member; /* the value of "x", a member TwitterStats skips */
    bool balanced;      /* brackets balance: JET_READ_LAZY accepts */
} bad_members[] = {
    {"[@#$ nonsense 01 tru]", true}, /* the example */
    {"tru", true},
    {"nul", true},
    {"[true, fals]", true},
    {"01", true},
    {"-", true},
    {"1.", true},
    {"1e", true},
    {".5", true},
    {"+1", true},
    {"1e400", true}, /* the DOM reader's range error */
    {"[1 2]", true},
    {"{\"a\" 1}", true},
    {"{\"a\":1 \"b\":2}", true},
    {"{1:2}", true},
    {"[1,]", true},
    {"[,1]", true},
    {"{\"a\":1,}", true},
    {"[{]}", true}, /* mismatched, yet balanced by count */
    {"{\"a\":[1}]", true},
    {"\"\\x\"", true},
    {"\"\\u12\"", true},
    {"\"\\ud800\"", true},
    {"\"\\udc00x\"", true},
    /* the strict skip's quick paths: a scalar glued to what follows, an
     * escape after an escaped backslash, a \u with a bad hex digit */
    {"[truex]", true},
    {"[nulll, 1]", true},
    {"[1x]", true},
    {"falsey", true},
    {"\"\\\\\\x\"", true},
    {"\"\\u12G4\"", true},
    {"[\"\\n\", \"\\u00e9\\q\"]", true},
    {"[\"a\x01b\"]", false}, /* stage 1: control character */
    {"[\"\xff\"]", false},    /* stage 1: invalid UTF-8 */
    {"\"\xc3\x28\"", false},
    {"[1,2", false},
};

/* Members after the field read, bad at the object's own level (the strict
 * rest's own loop): a missing ',' after a container, a trailing ',', a key
 * without its ':', a key that is not a string, a ']' for the '}' */
static const char *const bad_rest[] = {
    "{\"statuses\":[],\"x\":1,\"y\":{\"a\":[]} \"z\":3}",
    "{\"statuses\":[],\"x\":1,\"y\":2,}",
    "{\"statuses\":[],\"x\":1,\"y\"}",
    "{\"statuses\":[],\"x\":1,2}",
    "{\"statuses\":[],\"x\":[1]]",
};

static const char *const kernels[] = {"scalar", "swar", "sse2", "avx2", "avx512", "neon"};

static void test_skipped_members(void) {
    char default_kernel[16];
    snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    char doc[256];
    for (size_t kk = 0; kk < sizeof kernels / sizeof kernels[0]; kk++) {
        if (!jet_kernel_set(kernels[kk])) continue;
        for (size_t i = 0; i < sizeof bad_members / sizeof bad_members[0]; i++) {
            const char *m = bad_members[i].member;
            /* before and after the field read, and deeper down */
            for (int where = 0; where < 3; where++) {
                int n = where == 0   ? snprintf(doc, sizeof doc, "{\"x\":%s,\"statuses\":[]}", m)
                        : where == 1 ? snprintf(doc, sizeof doc, "{\"statuses\":[],\"x\":%s}", m)
                                     : snprintf(doc, sizeof doc, "{\"a\":[1,{\"b\":%s}],\"statuses\":[]}", m);
                size_t len = (size_t)n;
                jet_error de;
                jet_doc *d = jet_read(doc, len, NULL, NULL, &de);
                CHECK_MSG(!d, "the DOM reader accepts %s", doc);
                jet_doc_free(d);
                TwTimeline tl;
                /* the default: rejected with the DOM reader's error */
                bool ok = dec_n(&tw_timeline_type, &tl, doc, len, 0);
                CHECK_MSG(!ok && err.code == de.code && err.offset == de.offset,
                          "%s: default decode of %s: %s at %zu (%s), DOM %s at %zu", kernels[kk], doc,
                          ok ? "accepted" : jet_code_name(err.code), err.offset, ostr(err.msg),
                          jet_code_name(de.code), de.offset);
                ok = skip_all(doc, len, 0);
                CHECK_MSG(!ok && jet_od_error(od)->code == de.code && jet_od_error(od)->offset == de.offset,
                          "%s: cursor finish of %s: %s at %zu, DOM %s at %zu", kernels[kk], doc,
                          ok ? "accepted" : jet_code_name(jet_od_error(od)->code),
                          jet_od_error(od)->offset, jet_code_name(de.code), de.offset);
                /* JET_READ_LAZY: brackets only */
                ok = dec_n(&tw_timeline_type, &tl, doc, len, JET_READ_LAZY);
                CHECK_MSG(ok == bad_members[i].balanced, "%s: lazy decode of %s: %s", kernels[kk], doc,
                          ok ? "accepted" : jet_code_name(err.code));
                ok = skip_all(doc, len, JET_READ_LAZY);
                CHECK_MSG(ok == bad_members[i].balanced, "%s: lazy cursor finish of %s: %s", kernels[kk],
                          doc, ok ? "accepted" : jet_code_name(jet_od_error(od)->code));
            }
        }
        for (size_t i = 0; i < sizeof bad_rest / sizeof bad_rest[0]; i++) {
            const char *rest_doc = bad_rest[i];
            jet_error de;
            jet_doc *d = jet_read(rest_doc, strlen(rest_doc), NULL, NULL, &de);
            CHECK_MSG(!d, "the DOM reader accepts %s", rest_doc);
            jet_doc_free(d);
            TwTimeline tl;
            bool ok = dec(&tw_timeline_type, &tl, rest_doc, 0);
            CHECK_MSG(!ok && err.code == de.code && err.offset == de.offset,
                      "%s: default decode of %s: %s at %zu, DOM %s at %zu", kernels[kk], rest_doc,
                      ok ? "accepted" : jet_code_name(err.code), err.offset, jet_code_name(de.code), de.offset);
        }
        /* valid skipped members stay accepted, with the extensions' flags */
        static const struct {
            const char *doc;
            jet_read_flags flags;
        } good[] = {
            {"{\"x\":[1,-0,0.5,-1.25e-3,1E+2,true,false,null,\"\\u00e9\\ud83d\\ude00\\n\"],\"statuses\":[]}", 0},
            {"{\"x\":{\"a\":{\"b\":[[],{}]},\"c\":\"\\\\\"},\"statuses\":[]}", 0},
            {"{\"x\":[\"\\\\\\\\\\/\\b\\f\\r\\t\\\"\\u0000\\uFFFF\", true ,null\t,false\n,0 ],\"statuses\":[]}", 0},
            {"{\"x\":[1,[2,],{\"a\":[],},],\"statuses\":[]}", JET_READ_ALLOW_TRAILING_COMMAS},
            {"{\"x\":[1,2,],\"statuses\":[]}", JET_READ_ALLOW_TRAILING_COMMAS},
            {"{\"x\":{\"a\":1,},\"statuses\":[],}", JET_READ_ALLOW_TRAILING_COMMAS},
            {"{\"x\":[NaN,-Infinity],\"statuses\":[]}", JET_READ_ALLOW_NAN_INF},
            {"{\"x\":1e400,\"statuses\":[]}", JET_READ_BIGNUM_AS_RAW},
            {"{\"x\":\"\\ud800\",\"statuses\":[]}", JET_READ_ALLOW_INVALID_UTF8},
            {"{\"x\":[1 /* c */, 2],\"statuses\":[]} // end", JET_READ_ALLOW_COMMENTS},
            {"{\"statuses\":[],\"x\":1 , \"y\" : [ ] ,\"z\":true,\"w\":{\"a\":-1.5e3},\"v\":\"\\n\"}", 0},
        };
        for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
            TwTimeline tl;
            CHECK_MSG(dec(&tw_timeline_type, &tl, good[i].doc, good[i].flags), "%s: %s: %s at %zu",
                      kernels[kk], good[i].doc, jet_code_name(err.code), err.offset);
            CHECK(skip_all(good[i].doc, strlen(good[i].doc), good[i].flags));
        }
    }
    jet_kernel_set(default_kernel);
}

/* ---- flat and small containers skipped (the light walk) ------------------- */

/* Typed decoding and the cursor on doc against the DOM reader, under
 * flags and a depth limit (0: the default): the same verdict, and the
 * same error (code, offset, line:column) when it rejects. */
static void check_like_dom(const char *kernel, const char *doc, jet_read_flags flags, uint32_t max_depth) {
    size_t len = strlen(doc);
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.max_depth = max_depth;
    jet_error de;
    memset(&de, 0, sizeof de);
    jet_doc *d = jet_read(doc, len, &o, NULL, &de);
    bool dom_ok = d != NULL;
    jet_doc_free(d);
    free(cur);
    cur = check_dup_exact(doc, len);
    memset(&err, 0, sizeof err);
    jet_arena_reset(&arena);
    TwTimeline tl;
    bool ok = jet_decode(od, cur, len, &tw_timeline_type, &tl, &arena, &o, &err);
    CHECK_MSG(ok == dom_ok && (ok || (err.code == de.code && err.offset == de.offset && err.line == de.line &&
                                      err.column == de.column)),
              "%s: decode of %s (flags %#x, depth %u): %s at %zu, DOM %s at %zu", kernel, doc, (unsigned)flags,
              (unsigned)max_depth, ok ? "accepted" : jet_code_name(err.code), err.offset,
              dom_ok ? "accepts" : jet_code_name(de.code), de.offset);
    jet_odv root;
    ok = jet_od_start(od, cur, len, &o, &root) && jet_od_finish(od);
    const jet_error *ce = jet_od_error(od);
    CHECK_MSG(ok == dom_ok && (ok || (ce->code == de.code && ce->offset == de.offset)),
              "%s: cursor finish of %s (flags %#x): %s at %zu, DOM %s at %zu", kernel, doc, (unsigned)flags,
              ok ? "accepted" : jet_code_name(ce->code), ce->offset, dom_ok ? "accepts" : jet_code_name(de.code),
              de.offset);
}

static void test_flat_containers(void) {
    char default_kernel[16];
    snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    /* an element, good or bad, at every position of a flat array, and a
     * member at every position of a flat object */
    static const char *const elems[] = {
        "1", "\"s\"", "true", "tru", "nul", "fals", "falsex", "01", "-", "1.", ".5", "+1", "1e400", "1e5",
        "-0.5E-2", "truex", "1x", "1\"a\"", "\"a\"1", "\"a\"\"b\"", "\"\\x\"", "\"\\u12G4\"", "\"\\ud800\"",
        "\"\\n\\u00e9\"", "", ":", "{", "}", "[", "]", "[1", "1 2", "[]]", "{}}", "[]", "{}", "[1,]", "{\"a\"}",
        "[1,2]", "{\"a\":1}", "[[]]", "[{}]", "{\"a\":[]}", "\"a\":1", "NaN", "[1 ,2 ]",
    };
    static const char *const members[] = {
        "\"k\":1", "\"s\":\"v\"", "\"a\" 1", "\"a\"::1", "1:2", "\"a\":", "\"a\":tru", "\"\\x\":1",
        "\"a\":\"\\x\"", "", "\"a\":1 \"b\":2", "\"a\":[1,]", "\"a\":{]", "\"a\":truex", "\"a\"\"b\":1",
        "\"a\":{}", "\"a\":[]", "\"a\":[1]", "\"a\":{\"b\":null}", "\"a\":1}", "\"a\":1]", "\"a\" : 2 ",
        "\"a\":1,", "\"a\"",
    };
    static const char *const fillers[] = {"1", "\"s\"", "null"};
    static const char *const mfillers[] = {"\"k\":1", "\"s\":\"v\"", "\"n\":null"};
    /* skipped by the member loop, inside a skipped container, and in the
     * rest after the field read */
    static const char *const frames[] = {
        "{\"x\":%s,\"statuses\":[]}",
        "{\"x\":[1,{\"b\":%s}],\"statuses\":[]}",
        "{\"statuses\":[],\"x\":%s}",
    };
    static const jet_read_flags flag_sets[] = {0, JET_READ_ALLOW_TRAILING_COMMAS};
    char box[128], doc[256];
    for (size_t kk = 0; kk < sizeof kernels / sizeof kernels[0]; kk++) {
        if (!jet_kernel_set(kernels[kk])) continue;
        for (int obj = 0; obj < 2; obj++) {
            size_t nb = obj ? sizeof members / sizeof members[0] : sizeof elems / sizeof elems[0];
            for (size_t b = 0; b < nb; b++) {
                const char *bad = obj ? members[b] : elems[b];
                const char *const *fill = obj ? mfillers : fillers;
                for (int at = 0; at < 3; at++) {
                    const char *part[3];
                    for (int i = 0; i < 3; i++) part[i] = i == at ? bad : fill[i];
                    snprintf(box, sizeof box, obj ? "{%s,%s,%s}" : "[%s,%s,%s]", part[0], part[1], part[2]);
                    for (size_t fr = 0; fr < sizeof frames / sizeof frames[0]; fr++) {
                        snprintf(doc, sizeof doc, frames[fr], box);
                        for (size_t fl = 0; fl < 2; fl++) check_like_dom(kernels[kk], doc, flag_sets[fl], 0);
                    }
                }
                /* alone, and as the container itself */
                snprintf(box, sizeof box, obj ? "{%s}" : "[%s]", bad);
                snprintf(doc, sizeof doc, frames[0], box);
                for (size_t fl = 0; fl < 2; fl++) check_like_dom(kernels[kk], doc, flag_sets[fl], 0);
                snprintf(doc, sizeof doc, frames[0], bad);
                for (size_t fl = 0; fl < 2; fl++) check_like_dom(kernels[kk], doc, flag_sets[fl], 0);
            }
        }
        /* trailing commas, with and without the flag */
        static const char *const trailing[] = {"[1,]", "[\"a\",]", "{\"a\":1,}", "[[1],]", "[{},]", "{\"a\":[],}",
                                               "[1,,]", "{\"a\":1,,}", "[,]", "{,}", "[[1,],2]"};
        for (size_t i = 0; i < sizeof trailing / sizeof trailing[0]; i++)
            for (size_t fr = 0; fr < sizeof frames / sizeof frames[0]; fr++) {
                snprintf(doc, sizeof doc, frames[fr], trailing[i]);
                for (size_t fl = 0; fl < 2; fl++) check_like_dom(kernels[kk], doc, flag_sets[fl], 0);
            }
        /* the depth limit at the skipped container's level and below it,
         * empty containers included */
        static const char *const deep[] = {"[1,2]", "{\"a\":1}", "[]", "{}", "[[1],[2]]", "[[],{}]",
                                           "{\"a\":{\"b\":[]}}", "{\"a\":{\"b\":[1]}}", "[[[[[[1]]]]]]",
                                           "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"};
        for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++)
            for (size_t fr = 0; fr < sizeof frames / sizeof frames[0]; fr++)
                for (uint32_t md = 1; md <= 40; md++) {
                    snprintf(doc, sizeof doc, frames[fr], deep[i]);
                    check_like_dom(kernels[kk], doc, 0, md);
                }
    }
    jet_kernel_set(default_kernel);
}

/* ---- the depth limit applies to skipping ---------------------------------- */

static void test_depth_bomb(void) {
    /* 10^7 '[' (the case) in a member skipped, and at the root */
    size_t n = 10 * 1000 * 1000;
    char *bomb = (char *)malloc(n + 64);
    CHECK(bomb != NULL);
    if (!bomb) return;
    memcpy(bomb, "{\"statuses\":[],\"x\":", 19);
    memset(bomb + 19, '[', n);
    size_t len = 19 + n;
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags f = lazy ? JET_READ_LAZY : 0;
        TwTimeline tl;
        jet_read_opts o;
        memset(&o, 0, sizeof o);
        o.flags = f;
        bool ok = jet_decode(od, bomb, len, &tw_timeline_type, &tl, &arena, &o, &err);
        CHECK_MSG(!ok && err.code == JET_ERR_DEPTH_LIMIT && err.offset == 19 + JET_DEFAULT_MAX_DEPTH - 1,
                  "bomb, lazy %d: %s at %zu", lazy, jet_code_name(err.code), err.offset);
        jet_odv root;
        ok = jet_od_start(od, bomb + 19, n, &o, &root) && jet_od_finish(od);
        CHECK_MSG(!ok && jet_od_error(od)->code == JET_ERR_DEPTH_LIMIT &&
                      jet_od_error(od)->offset == JET_DEFAULT_MAX_DEPTH,
                  "bomb at the root, lazy %d: %s at %zu", lazy, jet_code_name(jet_od_error(od)->code),
                  jet_od_error(od)->offset);
    }
    free(bomb);
    /* balanced, one level too deep (a smaller limit) */
    char doc[128];
    int k = snprintf(doc, sizeof doc, "{\"statuses\":[],\"x\":[[[[[1]]]]]}");
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_opts o;
        memset(&o, 0, sizeof o);
        o.flags = lazy ? JET_READ_LAZY : 0;
        o.max_depth = 5; /* root + 4 */
        TwTimeline tl;
        bool ok = jet_decode(od, doc, (size_t)k, &tw_timeline_type, &tl, &arena, &o, &err);
        CHECK_MSG(!ok && err.code == JET_ERR_DEPTH_LIMIT && err.offset == 23, "depth 6, lazy %d: %s at %zu",
                  lazy, jet_code_name(err.code), err.offset);
        o.max_depth = 6;
        ok = jet_decode(od, doc, (size_t)k, &tw_timeline_type, &tl, &arena, &o, &err);
        CHECK_MSG(ok, "depth 6 allowed, lazy %d: %s at %zu", lazy, jet_code_name(err.code), err.offset);
    }
}

/* ---- duplicate keys -------------------------------------------------------- */

typedef struct U8 {
    uint8_t a;
} U8;
static const jet_field u8_fields[] = {JET_F_UINT(U8, a, "a")};
static jet_struct u8_type = JET_STRUCT(U8, u8_fields);

typedef struct Two {
    int64_t n;
    U8 in;
    jet_str s;
} Two;
static const jet_field two_fields[] = {
    JET_F_SINT(Two, n, "n"),
    JET_F_STRUCT(Two, in, "in", u8_type),
    JET_FIELD_F(Two, s, "s", JET_K_STR, NULL, JET_FIELD_OPTIONAL),
};
static jet_struct two_type = JET_STRUCT(Two, two_fields);

static void test_duplicates(void) {
    U8 u;
    /* the default: an error naming the field and both offsets, with its path */
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"a\":300}", 0));
    CHECK_MSG(err.code == JET_ERR_DUPLICATE_KEY && err.offset == 7 && err.path && strcmp(err.path, "/a") == 0 &&
                  strstr(ostr(err.msg), "\"a\"") && strstr(ostr(err.msg), "1 and 7"),
              "%s at %zu path %s: %s", jet_code_name(err.code), err.offset, ostr(err.path), ostr(err.msg));
    CHECK(strcmp(jet_code_name(JET_ERR_DUPLICATE_KEY), "JET_ERR_DUPLICATE_KEY") == 0);
    /* after an unknown member, escaped, nested */
    CHECK(!dec(&two_type, &(Two){0}, "{\"n\":1,\"in\":{\"a\":1},\"z\":[1],\"\\u006e\":2}", 0) &&
          err.code == JET_ERR_DUPLICATE_KEY && err.offset == 28 && strstr(ostr(err.msg), "1 and 28"));
    CHECK(!dec(&two_type, &(Two){0}, "{\"n\":1,\"in\":{\"a\":1,\"a\":1}}", 0) &&
          err.code == JET_ERR_DUPLICATE_KEY && err.path && strcmp(err.path, "/in/a") == 0);
    /* after every field is in (the rest of the object is walked as a whole,
     * stopping at keys of a declared length), escaped, nested deeper (not a
     * duplicate), in a bad member after it (the DOM reader's error) */
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"b\":2,\"a\":3}", 0) && err.code == JET_ERR_DUPLICATE_KEY &&
          err.offset == 13 && strstr(ostr(err.msg), "1 and 13"));
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"b\":[1,{\"a\":2}],\"\\u0061\":3}", 0) &&
          err.code == JET_ERR_DUPLICATE_KEY && err.offset == 23);
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"b\":[1,{\"a\":2}],\"c\":{\"a\":[]}}", 0) && u.a == 1);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"b\":{\"c\":[{}]},\"d\":\"x\",\"a\":2}", 0) &&
          err.code == JET_ERR_DUPLICATE_KEY && err.offset == 30 && strstr(ostr(err.msg), "1 and 30"));
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"b\" 2}", 0) && err.code == JET_ERR_UNEXPECTED_CHAR && err.offset == 11);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"b\":}", 0) && err.code == JET_ERR_UNEXPECTED_CHAR && err.offset == 11);
    /* the walk stops at every escaped key and goes on from its value: twice
     * and done, twice then a key given again, twice then invalid JSON, a
     * bad ':' or value right after such a key */
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"\\u0062\":[2],\"c\":3,\"\\u0064\":{\"a\":4},\"e\":5}", 0) && u.a == 1);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"\\u0062\":[2],\"\\u0064\":{},\"a\":5}", 0) &&
          err.code == JET_ERR_DUPLICATE_KEY && err.offset == 32);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"\\u0062\":[2],\"\\u0064\":{},\"e\":nul}", 0) &&
          err.code == JET_ERR_LITERAL);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"\\u0062\" 2}", 0) && err.code == JET_ERR_UNEXPECTED_CHAR);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"\\u0062\":]}", 0) && err.code == JET_ERR_UNEXPECTED_CHAR);
    /* JET_READ_DUPLICATE_FIRST walks the rest without stopping, still strictly */
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"\\u0061\":[2],\"a\":{}}", JET_READ_DUPLICATE_FIRST) && u.a == 1);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"\\u0061\":[2],\"b\":[1,]}", JET_READ_DUPLICATE_FIRST) &&
          err.code == JET_ERR_UNEXPECTED_CHAR);
    /* JET_READ_LAZY skips the rest by brackets: the first wins there */
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"a\":300}", JET_READ_LAZY) && u.a == 1);
    CHECK(!dec(&two_type, &(Two){0}, "{\"n\":1,\"n\":2,\"in\":{\"a\":1}}", JET_READ_LAZY) &&
          err.code == JET_ERR_DUPLICATE_KEY);
    /* JET_READ_DUPLICATE_FIRST: the first value, the later one unchecked by
     * type (but still valid JSON) */
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"a\":300}", JET_READ_DUPLICATE_FIRST) && u.a == 1);
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"a\":\"x\"}", JET_READ_DUPLICATE_FIRST) && u.a == 1);
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"a\":tru}", JET_READ_DUPLICATE_FIRST) && err.code == JET_ERR_LITERAL);
    /* JET_READ_DUPLICATE_LAST: every occurrence type-checked, the last kept */
    CHECK(!dec(&u8_type, &u, "{\"a\":1,\"a\":300}", JET_READ_DUPLICATE_LAST) &&
          err.code == JET_ERR_NUMBER_RANGE && err.path && strcmp(err.path, "/a") == 0);
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"a\":2}", JET_READ_DUPLICATE_LAST) && u.a == 2);
    CHECK(dec(&u8_type, &u, "{\"a\":1,\"a\":2}", JET_READ_DUPLICATE_LAST | JET_READ_DUPLICATE_FIRST) &&
          u.a == 2);
    Two t;
    CHECK(dec(&two_type, &t, "{\"s\":\"x\",\"n\":1,\"in\":{\"a\":1},\"n\":-5,\"in\":{\"a\":7},\"s\":\"y\"}",
              JET_READ_DUPLICATE_LAST) &&
          t.n == -5 && t.in.a == 7 && t.s.len == 1 && t.s.ptr[0] == 'y');
    /* the cursor's DOM counterpart: jet_obj_get returns the first */
    jet_doc *d = jet_read("{\"a\":1,\"a\":2}", 13, NULL, NULL, NULL);
    CHECK(d && jet_get_uint(jet_obj_find(jet_doc_root(d), "a")) == 1);
    jet_doc_free(d);
}

/* ---- the rest of an object after the field read (jet__od_walk_rest) ------- */

/* A declared key given again in the rest: the duplicate's error (offset,
 * the field named), as the member loop gives it. */
static void check_rest_duplicate(const char *kernel, const char *doc, size_t second) {
    TwTimeline tl;
    bool ok = dec(&tw_timeline_type, &tl, doc, 0);
    CHECK_MSG(!ok && err.code == JET_ERR_DUPLICATE_KEY && err.offset == second && strstr(ostr(err.msg), "\"statuses\""),
              "%s: %s: %s at %zu (%s), want a duplicate at %zu", kernel, doc,
              ok ? "accepted" : jet_code_name(err.code), err.offset, ostr(err.msg), second);
}

static void test_rest_walk(void) {
    char default_kernel[16];
    snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    /* members, good and bad, at every position of the rest's own level */
    static const char *const members[] = {
        "\"k\":1", "\"s\":\"v\"", "\"a\" 1", "\"a\"::1", "1:2", "\"a\":", "\"a\":tru", "\"\\x\":1",
        "\"a\":\"\\x\"", "", "\"a\":1 \"b\":2", "\"a\":[1,]", "\"a\":{]", "\"a\":truex", "\"a\"\"b\":1",
        "\"a\":{}", "\"a\":[]", "\"a\":[1]", "\"a\":{\"b\":null}", "\"a\":1}", "\"a\":1]", "\"a\" : 2 ",
        "\"a\":1,", "\"a\"", "\"a\":[[1,{\"b\":[]}],{}]", "\"a\":[[1,{\"b\" []}]]", "\"a\":[[1],{\"b\":[}]]",
        "\"a\":{\"b\":{\"c\":[1 2]}}", "\"a\":{\"b\":{\"c\":\"\\q\"}}", "\"a\":{\"\\q\":1}", "\"a\":[\"\\u00zz\"]",
        "\"a\":[1]]", "\"a\":{\"b\":1}}", "\"a\":[{\"b\":1]}", "\"a\":-", "\"a\":[01]", "\"a\":[1e400]",
        "\"a\":{\"b\":[1,2],}", "\"a\":[[],[],]", "\"a\":NaN", "\"a\":{\"b\" 1 2}", "\"a\":[{\"b\" \"c\" 2}]",
    };
    static const char *const fill[] = {"\"k\":1", "\"s\":[\"v\",{\"w\":{}}]", "\"n\":null"};
    static const jet_read_flags flag_sets[] = {0, JET_READ_ALLOW_TRAILING_COMMAS};
    static const char pad[] = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
                              "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz";
    char doc[512];
    for (size_t kk = 0; kk < sizeof kernels / sizeof kernels[0]; kk++) {
        if (!jet_kernel_set(kernels[kk])) continue;
        for (size_t b = 0; b < sizeof members / sizeof members[0]; b++) {
            for (int at = 0; at < 3; at++) {
                const char *part[3];
                for (int i = 0; i < 3; i++) part[i] = i == at ? members[b] : fill[i];
                snprintf(doc, sizeof doc, "{\"statuses\":[],%s,%s,%s}", part[0], part[1], part[2]);
                for (size_t fl = 0; fl < 2; fl++) check_like_dom(kernels[kk], doc, flag_sets[fl], 0);
                /* two levels down in a container of the rest */
                snprintf(doc, sizeof doc, "{\"statuses\":[],\"x\":[1,{\"y\":[{%s,%s,%s}]}],\"z\":2}", part[0],
                         part[1], part[2]);
                for (size_t fl = 0; fl < 2; fl++) check_like_dom(kernels[kk], doc, flag_sets[fl], 0);
            }
            snprintf(doc, sizeof doc, "{\"statuses\":[],%s}", members[b]);
            for (size_t fl = 0; fl < 2; fl++) check_like_dom(kernels[kk], doc, flag_sets[fl], 0);
        }
        /* the declared key given again after nested containers, escaped or
         * not, and inside them (not a duplicate) */
        static const char *const before[] = {
            "", "\"x\":1,", "\"x\":[[1,{\"a\":[]}],{}],", "\"x\":{\"statuses\":[{\"statuses\":1}]},",
            "\"x\":\"\\n\",\"y\":{\"z\":[\"\\u00e9\"]},", "\"\\u0078\":[{}],",
        };
        static const char *const again[] = {"\"statuses\"", "\"\\u0073tatuses\"", "\"statuse\\u0073\""};
        for (size_t i = 0; i < sizeof before / sizeof before[0]; i++)
            for (size_t k = 0; k < sizeof again / sizeof again[0]; k++) {
                int n = snprintf(doc, sizeof doc, "{\"statuses\":[],%s", before[i]);
                snprintf(doc + n, sizeof doc - (size_t)n, "%s:[],\"w\":[1,{\"v\":\"\\t\"}]}", again[k]);
                check_rest_duplicate(kernels[kk], doc, (size_t)n);
                /* invalid JSON after it: the DOM reader's error first */
                snprintf(doc + n, sizeof doc - (size_t)n, "%s:[],\"w\":[1,]}", again[k]);
                check_like_dom(kernels[kk], doc, 0, 0);
                snprintf(doc + n, sizeof doc - (size_t)n, "%s]", again[k]);
                check_like_dom(kernels[kk], doc, 0, 0);
                /* not declared: a key of its length, nested ones */
                snprintf(doc + n, sizeof doc - (size_t)n, "\"statusez\":[],\"w\":{\"statuses\":[]}}");
                check_like_dom(kernels[kk], doc, 0, 0);
                TwTimeline tl;
                CHECK_MSG(dec(&tw_timeline_type, &tl, doc, 0), "%s: %s: %s", kernels[kk], doc,
                          jet_code_name(err.code));
            }
        /* escapes, good and bad, at every offset around the first word
         * boundaries, in the rest's own strings, keys and nested ones */
        static const char *const escapes[] = {"\\n", "\\\\", "\\u00e9", "\\x", "\\u12G4", "\\ud800", "\\\\\\q"};
        static const char *const spots[] = {
            "{\"statuses\":[],\"p\":\"%.*s%s\",\"q\":1}",          "{\"statuses\":[],\"p%.*s%s\":1,\"q\":1}",
            "{\"statuses\":[],\"p\":[\"%.*s%s\"],\"q\":1}",        "{\"statuses\":[],\"p\":{\"%.*s%s\":1},\"q\":1}",
            "{\"statuses\":[],\"p\":\"%.*s\",\"q\":\"%s\",\"r\":2}",
            "{\"statuses\":[],\"p\":\"%.*s%s\",\"\\u0071\":1,\"r\":[\"\\u0071\"]}",
        };
        for (size_t sp = 0; sp < sizeof spots / sizeof spots[0]; sp++)
            for (size_t e = 0; e < sizeof escapes / sizeof escapes[0]; e++)
                for (int np = 30; np < 140; np++) {
                    snprintf(doc, sizeof doc, spots[sp], np, pad, escapes[e]);
                    check_like_dom(kernels[kk], doc, 0, 0);
                }
        /* the depth limit at the rest's own level and below (a scalar
         * field, so that the rest's containers are the deepest values) */
        static const char *const deep[] = {"[]", "{}", "[1]", "{\"b\":[]}", "[[],{}]", "[[[1]]]", "{\"b\":{\"c\":[{}]}}"};
        for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++)
            for (uint32_t md = 1; md <= 6; md++) {
                snprintf(doc, sizeof doc, "{\"a\":1,\"b\":%s,\"c\":2}", deep[i]);
                jet_read_opts o;
                memset(&o, 0, sizeof o);
                o.max_depth = md;
                jet_error de;
                memset(&de, 0, sizeof de);
                jet_doc *d = jet_read(doc, strlen(doc), &o, NULL, &de);
                bool dom_ok = d != NULL;
                jet_doc_free(d);
                free(cur);
                cur = check_dup_exact(doc, strlen(doc));
                memset(&err, 0, sizeof err);
                U8 u;
                bool ok = jet_decode(od, cur, strlen(doc), &u8_type, &u, &arena, &o, &err);
                CHECK_MSG(ok == dom_ok && (ok || (err.code == de.code && err.offset == de.offset)),
                          "%s: %s at depth %u: %s at %zu, DOM %s at %zu", kernels[kk], doc, (unsigned)md,
                          ok ? "accepted" : jet_code_name(err.code), err.offset,
                          dom_ok ? "accepts" : jet_code_name(de.code), de.offset);
            }
        /* more levels than the rest walk keeps in a register (64): the
         * keyed walk takes them, valid or not at the bottom, mixed kinds */
        static const char *const bottoms[] = {"1", "tru", "[1,]", "{\"a\":1}", "{\"a\" 1}"};
        for (size_t bi = 0; bi < sizeof bottoms / sizeof bottoms[0]; bi++)
            for (int levels = 60; levels <= 70; levels += 5) {
                char tower[512];
                size_t n = (size_t)snprintf(tower, sizeof tower, "{\"statuses\":[],\"x\":");
                for (int l = 0; l < levels; l++) n += (size_t)snprintf(tower + n, sizeof tower - n, l % 3 ? "[" : "{\"k\":");
                n += (size_t)snprintf(tower + n, sizeof tower - n, "%s", bottoms[bi]);
                for (int l = levels - 1; l >= 0; l--) n += (size_t)snprintf(tower + n, sizeof tower - n, l % 3 ? "]" : "}");
                snprintf(tower + n, sizeof tower - n, ",\"y\":2}");
                check_like_dom(kernels[kk], tower, 0, 0);
                check_like_dom(kernels[kk], tower, 0, 200);
            }
    }
    jet_kernel_set(default_kernel);
    /* through a window of a few words (the walk hands over to the keyed
     * walk where a word is not directly indexed) */
    static const size_t halves[] = {1, 2, 4};
    char big[1024];
    for (size_t h = 0; h < sizeof halves / sizeof halves[0]; h++) {
        jet__od_window_set(halves[h]);
        for (size_t b = 0; b < sizeof members / sizeof members[0]; b++) {
            snprintf(big, sizeof big,
                     "{\"statuses\":[],\"a\":\"%s\",\"b\":[1,{\"c\":[\"%s\",2]}],%s,\"d\":{\"e\":[{},[]]},"
                     "\"f\":\"%s\"}",
                     pad, pad, members[b], pad);
            for (size_t fl = 0; fl < 2; fl++) check_like_dom("window", big, flag_sets[fl], 0);
        }
        snprintf(big, sizeof big, "{\"statuses\":[],\"a\":\"%s\",\"b\":[{\"c\":\"%s\"}],\"statuses\":[]}", pad, pad);
        check_rest_duplicate("window", big, strlen(big) - 14);
    }
    jet__od_window_set(0);
}

/* ---- fixed-size strings, range messages, paths ---------------------------- */

typedef struct Fix {
    char s[8];
} Fix;
static const jet_field fix_fields[] = {JET_FIELD(Fix, s, "s", JET_K_STR_FIXED, NULL)};
static jet_struct fix_type = JET_STRUCT(Fix, fix_fields);

typedef struct Ints {
    uint8_t u8;
    int8_t i8;
    uint16_t u16;
    int32_t i32;
    uint64_t u64;
} Ints;
static const jet_field ints_fields[] = {
    JET_FIELD_F(Ints, u8, "u8", JET_K_UINT, NULL, JET_FIELD_OPTIONAL),
    JET_FIELD_F(Ints, i8, "i8", JET_K_SINT, NULL, JET_FIELD_OPTIONAL),
    JET_FIELD_F(Ints, u16, "u16", JET_K_UINT, NULL, JET_FIELD_OPTIONAL),
    JET_FIELD_F(Ints, i32, "i32", JET_K_SINT, NULL, JET_FIELD_OPTIONAL),
    JET_FIELD_F(Ints, u64, "u64", JET_K_UINT, NULL, JET_FIELD_OPTIONAL),
};
static jet_struct ints_type = JET_STRUCT(Ints, ints_fields);

typedef struct Outer {
    Fix f;
} Outer;
static const jet_field outer_fields[] = {JET_F_STRUCT(Outer, f, "f", fix_type)};
static jet_struct outer_type = JET_STRUCT(Outer, outer_fields);

static void test_fixed_and_messages(void) {
    Fix f;
    CHECK(dec(&fix_type, &f, "{\"s\":\"ab\\u0000c\"}", 0) == false);
    CHECK_MSG(err.code == JET_ERR_TOO_LONG && err.path && strcmp(err.path, "/s") == 0 && strstr(ostr(err.msg), "u0000"),
              "%s %s %s", jet_code_name(err.code), ostr(err.path), ostr(err.msg));
    CHECK(dec(&fix_type, &f, "{\"s\":\"ab\\u00e9\"}", 0) && strcmp(f.s, "ab\xc3\xa9") == 0);
    /* range errors name the member's type and range, on both paths (the
     * word-at-a-time one needs 32 bytes after the number) */
    static const struct {
        const char *json;
        const char *msg;
        const char *path;
    } ranges[] = {
        {"{\"u8\":-1}", "-1 is out of range for uint8 (0..255)", "/u8"},
        {"{\"u8\":-1                                      }", "-1 is out of range for uint8 (0..255)", "/u8"},
        {"{\"u8\":256}", "256 is out of range for uint8 (0..255)", "/u8"},
        {"{\"u8\":256                                     }", "256 is out of range for uint8 (0..255)", "/u8"},
        {"{\"i8\":128}", "128 is out of range for int8 (-128..127)", "/i8"},
        {"{\"i8\":-129                                    }", "-129 is out of range for int8 (-128..127)", "/i8"},
        {"{\"u16\":-99999999999999999999}", "-99999999999999999999 is out of range for uint16 (0..65535)", "/u16"},
        {"{\"i32\":99999999999999999999}", "99999999999999999999 is out of range for int32 (-2147483648..2147483647)", "/i32"},
        {"{\"u64\":-1}", "-1 is out of range for uint64 (0..18446744073709551615)", "/u64"},
        {"{\"u64\":18446744073709551616}", "18446744073709551616 is out of range for uint64 (0..18446744073709551615)", "/u64"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        Ints x;
        bool ok = dec(&ints_type, &x, ranges[i].json, 0);
        CHECK_MSG(!ok && err.code == JET_ERR_NUMBER_RANGE && strcmp(ostr(err.msg), ranges[i].msg) == 0 &&
                      err.path && strcmp(err.path, ranges[i].path) == 0,
                  "%s: %s %s (path %s)", ranges[i].json, jet_code_name(err.code), ostr(err.msg), ostr(err.path));
    }
    Ints x;
    CHECK(dec(&ints_type, &x, "{\"u8\":-0,\"i8\":-128,\"u64\":18446744073709551615}", 0) && x.u8 == 0 &&
          x.i8 == -128 && x.u64 == UINT64_MAX);
    /* every typed-decoding error carries the field's path: UTF-8, control
     * characters, truncation (stage 1's errors) */
    static const struct {
        const char *json;
        jet_code code;
        const char *path;
    } paths[] = {
        {"{\"f\":{\"s\":\"a\xff\"}}", JET_ERR_UTF8, "/f/s"},
        {"{\"f\":{\"s\":\"a\x01\"}}", JET_ERR_STRING_CONTROL, "/f/s"},
        {"{\"f\":{\"s\":\"abc", JET_ERR_TRUNCATED, "/f/s"},
        {"{\"f\":{\"s\":\"a\\q\"}}", JET_ERR_STRING_ESCAPE, "/f/s"},
        {"{\"f\":{\"s\":\"abcdefghij\"}}", JET_ERR_TOO_LONG, "/f/s"},
        {"{\"f\":{\"s\":1}}", JET_ERR_TYPE, "/f/s"},
    };
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        Outer o;
        bool ok = dec(&outer_type, &o, paths[i].json, 0);
        CHECK_MSG(!ok && err.code == paths[i].code && err.path && strcmp(err.path, paths[i].path) == 0,
                  "%s: %s at %zu, path %s", paths[i].json, jet_code_name(err.code), err.offset, ostr(err.path));
    }
}

/* ---- JSONTestSuite: the strict skip and the DOM reader agree -------------- */

/* Every file of test_parsing, on every kernel: the cursor skipping the whole
 * document and jet_decode (TwitterStats: every member skipped but
 * "statuses") accept what the DOM reader accepts, and reject the rest with
 * its code and offset; JET_READ_LAZY never rejects what the DOM accepts. */
static void test_suite(void) {
    char dir_path[1024];
    snprintf(dir_path, sizeof dir_path, "%s/conformance/JSONTestSuite/test_parsing", check_shared_dir());
    DIR *dir = opendir(dir_path);
    CHECK_MSG(dir != NULL, "cannot open %s", dir_path);
    if (!dir) return;
    char default_kernel[16];
    snprintf(default_kernel, sizeof default_kernel, "%s", jet_kernel_name());
    size_t files = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        size_t nl = strlen(e->d_name);
        if (nl < 6 || strcmp(e->d_name + nl - 5, ".json") != 0) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        size_t len;
        char *text = check_read_file(path, &len);
        if (!text) continue;
        files++;
        for (size_t kk = 0; kk < sizeof kernels / sizeof kernels[0]; kk++) {
            if (!jet_kernel_set(kernels[kk])) continue;
            jet_error de;
            jet_doc *d = jet_read(text, len, NULL, NULL, &de);
            bool dom_ok = d != NULL;
            jet_doc_free(d);
            bool ok = skip_all(text, len, 0);
            const jet_error *oe = jet_od_error(od);
            CHECK_MSG(ok == dom_ok && (ok || (oe->code == de.code && oe->offset == de.offset)),
                      "%s, %s: strict skip %s (%s at %zu), DOM %s (%s at %zu)", kernels[kk], e->d_name,
                      ok ? "accepts" : "rejects", jet_code_name(oe->code), oe->offset,
                      dom_ok ? "accepts" : "rejects", jet_code_name(de.code), de.offset);
            ok = skip_all(text, len, JET_READ_LAZY);
            CHECK_MSG(ok || !dom_ok, "%s, %s: the lazy skip rejects a valid document", kernels[kk], e->d_name);
            /* typed decoding: an object without "statuses" is a missing
             * field; anything else must fail as the DOM reader does */
            TwTimeline tl;
            ok = dec_n(&tw_timeline_type, &tl, text, len, 0);
            if (!dom_ok)
                CHECK_MSG(!ok && err.code == de.code && err.offset == de.offset,
                          "%s, %s: decode %s at %zu, DOM %s at %zu", kernels[kk], e->d_name,
                          jet_code_name(err.code), err.offset, jet_code_name(de.code), de.offset);
            else
                CHECK_MSG(err.code != JET_ERR_UNEXPECTED_CHAR || ok, "%s, %s: decode %s at %zu (%s)", kernels[kk],
                          e->d_name, jet_code_name(err.code), err.offset, ostr(err.msg));
        }
        free(text);
    }
    closedir(dir);
    jet_kernel_set(default_kernel);
    CHECK_MSG(files > 300, "only %zu files", files);
}

int main(void) {
    od = jet_od_new(NULL);
    jet_arena_init(&arena, NULL);
    test_skipped_members();
    test_flat_containers();
    test_depth_bomb();
    test_duplicates();
    test_rest_walk();
    test_fixed_and_messages();
    test_suite();
    free(cur);
    jet_arena_free(&arena);
    jet_od_free(od);
    return CHECK_DONE("test_strict");
}
