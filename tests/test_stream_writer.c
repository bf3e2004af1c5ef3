/* test_stream_writer.c — the streaming writer (jet_writer) and the public
 * printers: every call, the grammar checks, the three sinks (chunk
 * boundaries of FILE and callback output), and byte identity with
 * jet_val_write() (and jet_mut_val_write() of the same values) for every
 * corpus replayed through the writer under several flag sets. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

static jet_doc *rd(const char *json, size_t len, jet_read_flags flags) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    jet_error e;
    jet_doc *d = jet_read(json, len, &o, NULL, &e);
    CHECK_MSG(d != NULL, "read failed: %s", e.msg);
    return d;
}

/* Replays the tree at v as writer calls. */
static bool replay(jet_writer *w, const jet_val *v) {
    switch (jet_get_type(v)) {
    case JET_TYPE_OBJ: {
        bool ok = jet_writer_obj_begin(w);
        jet_obj_iter it = jet_obj_iter_init(v);
        for (jet_val *k; ok && (k = jet_obj_iter_next(&it));)
            ok = jet_writer_keyn(w, jet_get_str(k), jet_get_len(k)) && replay(w, k + 1);
        return ok && jet_writer_obj_end(w);
    }
    case JET_TYPE_ARR: {
        bool ok = jet_writer_arr_begin(w);
        jet_arr_iter it = jet_arr_iter_init(v);
        for (jet_val *e; ok && (e = jet_arr_iter_next(&it));) ok = replay(w, e);
        return ok && jet_writer_arr_end(w);
    }
    case JET_TYPE_STR: return jet_writer_strn(w, jet_get_str(v), jet_get_len(v));
    case JET_TYPE_RAW: return jet_writer_raw(w, jet_get_str(v), jet_get_len(v));
    case JET_TYPE_NULL: return jet_writer_null(w);
    case JET_TYPE_BOOL: return jet_writer_bool(w, jet_is_true(v));
    case JET_TYPE_NUM:
        if (jet_is_uint(v)) return jet_writer_uint(w, jet_get_uint(v));
        if (jet_is_sint(v)) return jet_writer_sint(w, jet_get_sint(v));
        return jet_writer_f64(w, jet_get_f64(v));
    default: return false;
    }
}

/* Chunks received by the callback sink. */
typedef struct sink {
    jet_buf all;
    size_t chunks, short_chunks, last_len;
    bool fail_now;
} sink;

static bool sink_fn(void *ctx, const char *data, size_t len) {
    sink *s = (sink *)ctx;
    if (s->fail_now) return false;
    if (s->last_len && s->last_len != JET_WRITER_CHUNK) s->short_chunks++; /* one before was short */
    s->chunks++;
    s->last_len = len;
    jet_writer w;
    jet_writer_init_buf(&w, &s->all, 0); /* append raw bytes through the writer */
    jet_writer_raw(&w, data, len);
    return jet_writer_finish(&w);
}

/* jet_val_write and the three sinks agree byte for byte. */
static void expect_same(const jet_val *root, jet_write_flags flags, const char *what) {
    jet_error e;
    size_t want_len = 0;
    char *want = jet_val_write(root, flags, NULL, &want_len, &e);
    CHECK_MSG(want != NULL, "%s: jet_val_write failed", what);
    if (!want) return;

    jet_buf out;
    jet_buf_init(&out, NULL);
    jet_writer w;
    jet_writer_init_buf(&w, &out, flags);
    CHECK_MSG(replay(&w, root) && jet_writer_finish(&w), "%s flags %#x: writer failed: %s", what,
              (unsigned)flags, jet_writer_error(&w)->msg);
    CHECK_MSG(out.len == want_len && memcmp(out.data, want, want_len) == 0 &&
                  out.data[out.len] == '\0',
              "%s flags %#x: buffer text differs (%zu vs %zu bytes)", what, (unsigned)flags,
              out.len, want_len);
    jet_buf_free(&out);

    sink s;
    memset(&s, 0, sizeof s);
    jet_buf_init(&s.all, NULL);
    jet_writer_init_cb(&w, sink_fn, &s, flags);
    CHECK(replay(&w, root) && jet_writer_finish(&w));
    CHECK_MSG(s.all.len == want_len && memcmp(s.all.data, want, want_len) == 0,
              "%s flags %#x: callback text differs", what, (unsigned)flags);
    /* every chunk but the last is exactly JET_WRITER_CHUNK bytes */
    CHECK(s.short_chunks == 0 && s.chunks == (want_len + JET_WRITER_CHUNK - 1) / JET_WRITER_CHUNK);
    jet_buf_free(&s.all);

    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    if (fp) {
        jet_writer_init_fp(&w, fp, flags);
        CHECK(replay(&w, root) && jet_writer_finish(&w));
        long n = ftell(fp);
        CHECK_MSG(n == (long)want_len, "%s: FILE got %ld bytes, want %zu", what, n, want_len);
        char *back = (char *)check_xmalloc(want_len + 1);
        rewind(fp);
        CHECK(fread(back, 1, want_len, fp) == want_len && memcmp(back, want, want_len) == 0);
        free(back);
        fclose(fp);
    }

    /* the mutable tree of the same values: the same bytes */
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_mut_val *mv = m ? jet_val_to_mut(m, root) : NULL;
    size_t mut_len = 0;
    char *mut = mv ? jet_mut_val_write(mv, flags, NULL, &mut_len, &e) : NULL;
    CHECK_MSG(mut && mut_len == want_len && memcmp(mut, want, want_len) == 0 &&
                  mut[mut_len] == '\0',
              "%s flags %#x: mutable writer's text differs", what, (unsigned)flags);
    free(mut);
    jet_mut_doc_free(m);
    free(want);
}

static const jet_write_flags flag_sets[] = {
    0,
    JET_WRITE_PRETTY,
    JET_WRITE_INDENT(1) | JET_WRITE_NEWLINE_AT_END,
    JET_WRITE_PRETTY_2 | JET_WRITE_ASCII,
    JET_WRITE_ESCAPE_SLASHES | JET_WRITE_ASCII,
    JET_WRITE_INDENT(15) | JET_WRITE_ESCAPE_SLASHES,
};
#define NFLAGS (sizeof flag_sets / sizeof flag_sets[0])

static void expect_same_text(const char *json, jet_read_flags rflags) {
    jet_doc *d = rd(json, strlen(json), rflags);
    if (!d) return;
    /* invalid UTF-8 in ASCII mode is an error unless replaced */
    jet_write_flags extra = ((rflags & JET_READ_ALLOW_NAN_INF) ? JET_WRITE_ALLOW_NAN_INF : 0) |
                            ((rflags & JET_READ_ALLOW_INVALID_UTF8) ? JET_WRITE_REPLACE_INVALID_UTF8 : 0);
    for (size_t i = 0; i < NFLAGS; i++) expect_same(jet_doc_root(d), flag_sets[i] | extra, json);
    jet_doc_free(d);
}

static void test_identity_small(void) {
    expect_same_text("0", 0);
    expect_same_text("\"\"", 0);
    expect_same_text("[]", 0);
    expect_same_text("{}", 0);
    expect_same_text("[[],{},[[]],{\"a\":{}},{\"b\":[]}]", 0);
    expect_same_text("{\"a\":1,\"b\":[true,false,null,-5,18446744073709551615,-0.0,1e300,2.5],"
                     "\"c\":{\"d\":\"e/f\\\"g\\\\h\\u0001\\n\\t\"}}", 0);
    expect_same_text("[\"caf\\u00e9 \\ud83d\\ude00 \xe2\x82\xac\", \"/path/\"]", 0);
    expect_same_text("[NaN, Infinity, -Infinity, 1.5]", JET_READ_ALLOW_NAN_INF);
    expect_same_text("[123456789012345678901234567890, 1e999999]", JET_READ_BIGNUM_AS_RAW);
    expect_same_text("[\"\xff\xfe bad \xed\xa0\x80 utf8\"]", JET_READ_ALLOW_INVALID_UTF8);
    /* a long string crosses the 4 KiB string chunks and the sink chunks */
    size_t n = 20000;
    char *big = (char *)check_xmalloc(n + 64);
    size_t k = 0;
    big[k++] = '[';
    big[k++] = '"';
    for (size_t i = 0; i < n - 8; i++) big[k++] = (i % 97 == 0) ? '/' : (i % 131 == 0) ? ' ' : 'a';
    memcpy(big + k, "\\n\\u00e9\"]", 11);
    expect_same_text(big, 0);
    free(big);
    /* deeper than the walks' frames on the C stack (64): their heap stacks */
    size_t depth = 300;
    char *deep = (char *)check_xmalloc(depth * 12 + 16);
    k = 0;
    for (size_t i = 0; i < depth; i++) {
        memcpy(deep + k, i % 2 ? "{\"k\":" : "[1,", i % 2 ? 5 : 3);
        k += i % 2 ? 5 : 3;
    }
    deep[k++] = '0';
    for (size_t i = depth; i-- > 0;) deep[k++] = i % 2 ? '}' : ']';
    deep[k] = '\0';
    expect_same_text(deep, 0);
    free(deep);
}

static void test_identity_corpora(void) {
    static const char *const files[] = {"twitter.json", "citm_catalog.json", "canada.json",
                                        "github_events.json"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/corpora/%s", check_shared_dir(), files[f]);
        size_t len;
        char *text = check_read_file(path, &len);
        if (!text) {
            fprintf(stderr, "test_stream_writer: cannot read %s (set JET_SHARED_DIR)\n", path);
            CHECK(0);
            continue;
        }
        jet_doc *d = rd(text, len, 0);
        if (d) {
            expect_same(jet_doc_root(d), 0, files[f]);
            expect_same(jet_doc_root(d), JET_WRITE_PRETTY, files[f]);
            expect_same(jet_doc_root(d), JET_WRITE_PRETTY_2 | JET_WRITE_ASCII |
                                             JET_WRITE_ESCAPE_SLASHES, files[f]);
        }
        jet_doc_free(d);
        free(text);
    }
}

/* Runs the calls in `script` (one letter each) and returns the writer's
 * first error code (JET_OK when all passed and finish succeeded). */
static jet_code run_script(const char *script, jet_write_flags flags, char **text) {
    jet_buf out;
    jet_buf_init(&out, NULL);
    jet_writer w;
    jet_writer_init_buf(&w, &out, flags);
    bool ok = true;
    for (const char *c = script; *c; c++) {
        bool r;
        switch (*c) {
        case '{': r = jet_writer_obj_begin(&w); break;
        case '}': r = jet_writer_obj_end(&w); break;
        case '[': r = jet_writer_arr_begin(&w); break;
        case ']': r = jet_writer_arr_end(&w); break;
        case 'k': r = jet_writer_key(&w, "k"); break;
        case 's': r = jet_writer_str(&w, "s"); break;
        case 'u': r = jet_writer_uint(&w, 7); break;
        case 'i': r = jet_writer_sint(&w, -7); break;
        case 'd': r = jet_writer_f64(&w, 0.1); break;
        case 'f': r = jet_writer_f32(&w, 0.1f); break;
        case 'r': r = jet_writer_raw(&w, "1e5", 3); break;
        case 'n': r = jet_writer_null(&w); break;
        case 't': r = jet_writer_bool(&w, true); break;
        case 'F': r = jet_writer_bool(&w, false); break;
        case 'N': r = jet_writer_f64(&w, NAN); break;
        default: r = false; break;
        }
        /* once failed, every call fails */
        if (!ok) CHECK_MSG(!r, "%s: call '%c' after an error succeeded", script, *c);
        ok = ok && r;
    }
    bool fin = jet_writer_finish(&w);
    CHECK_MSG(fin == ok || !fin, "%s: finish", script);
    jet_code code = jet_writer_error(&w)->code;
    CHECK((code == JET_OK) == fin);
    if (text) {
        *text = (char *)check_xmalloc(out.len + 1);
        if (out.len) memcpy(*text, out.data, out.len);
        (*text)[out.len] = '\0';
    }
    jet_buf_free(&out);
    return code;
}

static void expect_text(const char *script, jet_write_flags flags, const char *want) {
    char *got = NULL;
    jet_code c = run_script(script, flags, &got);
    CHECK_MSG(c == JET_OK && strcmp(got, want) == 0, "%s: got [%s] (%s), want [%s]", script, got,
              jet_code_name(c), want);
    free(got);
}

static void test_calls(void) {
    expect_text("{ksk[uidfrntF]k{}k[]}", 0,
                "{\"k\":\"s\",\"k\":[7,-7,0.1,0.1,1e5,null,true,false],\"k\":{},\"k\":[]}");
    expect_text("{k[u{ks}]}", JET_WRITE_INDENT(2),
                "{\n  \"k\": [\n    7,\n    {\n      \"k\": \"s\"\n    }\n  ]\n}");
    expect_text("u", JET_WRITE_NEWLINE_AT_END, "7\n");
    expect_text("[]", JET_WRITE_PRETTY, "[]");
    expect_text("N", JET_WRITE_ALLOW_NAN_INF, "NaN");
    /* f32 prints the float's shortest form, not the double's */
    char *got = NULL;
    CHECK(run_script("f", 0, &got) == JET_OK && strcmp(got, "0.1") == 0);
    free(got);
    /* length forms keep NUL bytes */
    jet_buf out;
    jet_buf_init(&out, NULL);
    jet_writer w;
    jet_writer_init_buf(&w, &out, 0);
    CHECK(jet_writer_obj_begin(&w) && jet_writer_keyn(&w, "a\0b", 3) && jet_writer_strn(&w, "\0", 1) &&
          jet_writer_keyn(&w, NULL, 0) && jet_writer_strn(&w, NULL, 0) && jet_writer_obj_end(&w) &&
          jet_writer_finish(&w));
    CHECK(strcmp(out.data, "{\"a\\u0000b\":\"\\u0000\",\"\":\"\"}") == 0);
    /* a buffer that has text already is appended to */
    jet_writer_init_buf(&w, &out, 0);
    CHECK(jet_writer_sint(&w, INT64_MIN) && jet_writer_finish(&w));
    CHECK(strcmp(out.data, "{\"a\\u0000b\":\"\\u0000\",\"\":\"\"}-9223372036854775808") == 0);
    jet_buf_free(&out);
}

static void test_errors(void) {
    CHECK(run_script("[k", 0, NULL) == JET_ERR_TYPE);        /* key in an array */
    CHECK(run_script("k", 0, NULL) == JET_ERR_TYPE);         /* key at the root */
    CHECK(run_script("{u", 0, NULL) == JET_ERR_TYPE);        /* value where a key goes */
    CHECK(run_script("{ksu", 0, NULL) == JET_ERR_TYPE);      /* second value for a key */
    CHECK(run_script("{kk", 0, NULL) == JET_ERR_TYPE);       /* key after a key */
    CHECK(run_script("{k}", 0, NULL) == JET_ERR_TYPE);       /* member without a value */
    CHECK(run_script("{]", 0, NULL) == JET_ERR_TYPE);        /* end mismatch */
    CHECK(run_script("[}", 0, NULL) == JET_ERR_TYPE);
    CHECK(run_script("]", 0, NULL) == JET_ERR_TYPE);         /* end with nothing open */
    CHECK(run_script("[]]", 0, NULL) == JET_ERR_TYPE);
    CHECK(run_script("uu", 0, NULL) == JET_ERR_TRAILING_CONTENT); /* two roots */
    CHECK(run_script("[", 0, NULL) == JET_ERR_TRUNCATED);    /* finish with open containers */
    CHECK(run_script("{ks", 0, NULL) == JET_ERR_TRUNCATED);
    CHECK(run_script("", 0, NULL) == JET_ERR_TRUNCATED);     /* finish with nothing */
    CHECK(run_script("[N]", 0, NULL) == JET_ERR_NAN_INF);
    CHECK(run_script("[N", JET_WRITE_ALLOW_NAN_INF, NULL) == JET_ERR_TRUNCATED);
    /* the error is sticky and says where */
    jet_buf out;
    jet_buf_init(&out, NULL);
    jet_writer w;
    jet_writer_init_buf(&w, &out, 0);
    CHECK(jet_writer_arr_begin(&w) && jet_writer_uint(&w, 1));
    CHECK(!jet_writer_key(&w, "x"));
    const jet_error *e = jet_writer_error(&w);
    CHECK(e->code == JET_ERR_TYPE && e->offset == 2 && e->msg && strstr(e->msg, "key"));
    CHECK(!jet_writer_uint(&w, 2) && !jet_writer_arr_end(&w) && !jet_writer_finish(&w));
    CHECK(strcmp(out.data, "[1") == 0 && jet_writer_error(&w)->code == JET_ERR_TYPE);
    CHECK(!jet_writer_str(NULL, "x") && jet_writer_error(NULL) == NULL && !jet_writer_finish(NULL));
    /* NULL arguments */
    jet_writer_init_buf(&w, &out, 0);
    CHECK(!jet_writer_str(&w, NULL) && jet_writer_error(&w)->code == JET_ERR_INVALID_ARG);
    jet_writer_finish(&w);
    jet_writer_init_buf(&w, NULL, 0);
    CHECK(!jet_writer_null(&w) && jet_writer_error(&w)->code == JET_ERR_INVALID_ARG);
    jet_writer_finish(&w);
    jet_buf_free(&out);

    /* depth: JET_WRITER_MAX_DEPTH containers open, one more fails */
    jet_buf_init(&out, NULL);
    jet_writer_init_buf(&w, &out, 0);
    bool ok = true;
    for (unsigned i = 0; i < JET_WRITER_MAX_DEPTH; i++) ok = ok && (i % 2 ? jet_writer_arr_begin(&w)
                                                                         : (jet_writer_obj_begin(&w) &&
                                                                            jet_writer_key(&w, "")));
    CHECK(ok);
    CHECK(!jet_writer_arr_begin(&w) && jet_writer_error(&w)->code == JET_ERR_DEPTH_LIMIT);
    jet_writer_finish(&w);
    jet_writer_init_buf(&w, &out, 0);
    out.len = 0;
    ok = true;
    for (unsigned i = 0; i < JET_WRITER_MAX_DEPTH; i++) ok = ok && jet_writer_arr_begin(&w);
    for (unsigned i = 0; i < JET_WRITER_MAX_DEPTH; i++) ok = ok && jet_writer_arr_end(&w);
    CHECK(ok && jet_writer_finish(&w) && out.len == 2 * JET_WRITER_MAX_DEPTH);
    jet_buf_free(&out);

    /* a failing callback is an I/O error, delivered at the chunk boundary */
    sink s;
    memset(&s, 0, sizeof s);
    jet_buf_init(&s.all, NULL);
    s.fail_now = true;
    jet_writer_init_cb(&w, sink_fn, &s, 0);
    ok = jet_writer_arr_begin(&w);
    for (int i = 0; ok && i < 10000; i++) ok = jet_writer_uint(&w, 123456);
    CHECK(!ok && jet_writer_error(&w)->code == JET_ERR_IO && !jet_writer_finish(&w));
    jet_buf_free(&s.all);
    /* a short document through the callback: one chunk, at finish */
    memset(&s, 0, sizeof s);
    jet_buf_init(&s.all, NULL);
    jet_writer_init_cb(&w, sink_fn, &s, 0);
    CHECK(jet_writer_uint(&w, 5) && s.chunks == 0 && jet_writer_finish(&w) && s.chunks == 1 &&
          s.all.len == 1 && s.all.data[0] == '5');
    jet_buf_free(&s.all);
}

/* Appending to a caller's jet_buf that is full to its last byte (no room
 * for the NUL): the writer grows it instead of writing past it. */
static void test_full_buffer(void) {
    jet_buf b;
    jet_buf_init(&b, NULL);
    b.data = (char *)check_xmalloc(4);
    memcpy(b.data, "abcd", 4);
    b.len = b.cap = 4;
    jet_writer w;
    jet_writer_init_buf(&w, &b, 0);
    CHECK(jet_writer_uint(&w, 7) && jet_writer_finish(&w));
    CHECK(b.len == 5 && b.cap > 5 && memcmp(b.data, "abcd7", 6) == 0);
    jet_buf_free(&b);
}

/* ASCII mode, a string longer than the emitter's 4096-byte chunk with a
 * UTF-8 sequence cut by the chunk's end (finished past it: the escaper's
 * word loops must not take that for room left), then invalid UTF-8 after
 * it: the same text as jet_print_str (no chunks), and JET_ERR_UTF8 without
 * the replacement. */
static void test_long_ascii(void) {
    static char s[9000];
    char *o = (char *)check_xmalloc(JET_PRINT_STR_SIZE(sizeof s));
    for (size_t at = 4088; at < 4100; at++) {
        for (int bad = 0; bad < 2; bad++) {
            memset(s, 'a', sizeof s);
            memcpy(s + at, "\xf0\x9f\x98\x80", 4);
            if (bad) s[at + 4 + (at & 7) * 500] = '\xff';
            jet_write_flags f = JET_WRITE_ASCII | (bad == 1 && (at & 1) ? JET_WRITE_REPLACE_INVALID_UTF8 : 0);
            size_t n = jet_print_str(o, s, sizeof s, f);
            jet_buf b;
            jet_buf_init(&b, NULL);
            jet_writer w;
            jet_writer_init_buf(&w, &b, f);
            bool ok = jet_writer_strn(&w, s, sizeof s);
            if (bad && !(f & JET_WRITE_REPLACE_INVALID_UTF8)) {
                CHECK_MSG(n == 0 && !ok && jet_writer_error(&w)->code == JET_ERR_UTF8,
                          "long ASCII string, bad byte, sequence at %zu: not refused", at);
            } else {
                CHECK_MSG(n > sizeof s && ok && b.len == n && memcmp(b.data, o, n) == 0,
                          "long ASCII string, sequence at %zu: %zu bytes, jet_print_str %zu",
                          at, b.len, n);
            }
            jet_writer_finish(&w);
            jet_buf_free(&b);
        }
    }
    free(o);
}

static void test_printers(void) {
    char b[JET_PRINT_NUM_SIZE];
    CHECK(jet_print_f64(0.1, b) == 3 && strcmp(b, "0.1") == 0);
    CHECK(jet_print_f64(-0.0, b) == 4 && strcmp(b, "-0.0") == 0);
    CHECK(jet_print_f64(1e300, b) && strcmp(b, "1e+300") == 0);
    CHECK(jet_print_f64(-1.7976931348623157e308, b) && strcmp(b, "-1.7976931348623157e+308") == 0);
    CHECK(jet_print_f64(5e-324, b) && strcmp(b, "5e-324") == 0);
    CHECK(jet_print_f64(INFINITY, b) && strcmp(b, "Infinity") == 0);
    CHECK(jet_print_f32(0.1f, b) == 3 && strcmp(b, "0.1") == 0);
    CHECK(jet_print_f32(16777216.0f, b) && strcmp(b, "16777216.0") == 0);
    CHECK(jet_print_uint(UINT64_MAX, b) == 20 && strcmp(b, "18446744073709551615") == 0);
    CHECK(jet_print_uint(0, b) == 1 && strcmp(b, "0") == 0);
    CHECK(jet_print_sint(INT64_MIN, b) == 20 && strcmp(b, "-9223372036854775808") == 0);
    const char *s = "a/\"\\\x01\xc3\xa9\xf0\x9f\x98\x80";
    size_t n = strlen(s);
    char *o = (char *)check_xmalloc(JET_PRINT_STR_SIZE(n));
    CHECK(jet_print_str(o, s, n, 0) == strlen(o) &&
          strcmp(o, "\"a/\\\"\\\\\\u0001\xc3\xa9\xf0\x9f\x98\x80\"") == 0);
    CHECK(jet_print_str(o, s, n, JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES) &&
          strcmp(o, "\"a\\/\\\"\\\\\\u0001\\u00e9\\ud83d\\ude00\"") == 0);
    CHECK(jet_print_str(o, NULL, 0, 0) == 2 && strcmp(o, "\"\"") == 0);
    free(o);
}

int main(void) {
    test_printers();
    test_calls();
    test_errors();
    test_identity_small();
    test_identity_corpora();
    test_full_buffer();
    test_long_ascii();
    return CHECK_DONE("test_stream_writer");
}
