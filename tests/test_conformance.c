/* test_conformance.c — JSONTestSuite (../shared/conformance/JSONTestSuite/
 * test_parsing): every y_ file accepted, every n_ file rejected cleanly,
 * every i_ file with the outcome of the table below, which must list exactly
 * the i_ files of the directory and agree with docs/conformance.md. Also the
 * lenient flags on the n_ files they are meant for, a parse → write → parse
 * round trip of every accepted file, and the same outcome from every reader
 * kernel. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

#define C_ JET_READ_ALLOW_COMMENTS
#define TC_ JET_READ_ALLOW_TRAILING_COMMAS
#define NI_ JET_READ_ALLOW_NAN_INF
#define U8_ JET_READ_ALLOW_INVALID_UTF8
#define LENIENT (C_ | TC_ | NI_ | U8_)

/* ---- the i_ table (keep in step with docs/conformance.md) ---------------- */

typedef struct i_case {
    const char *name;
    bool accept;
    jet_code code;  /* JET_OK when accepted */
    size_t offset;  /* error offset when rejected */
    bool seen;      /* found in the directory */
} i_case;

static i_case i_cases[] = {
    {"i_number_double_huge_neg_exp.json", true, JET_OK, 0, false},
    {"i_number_huge_exp.json", false, JET_ERR_NUMBER_RANGE, 1, false},
    {"i_number_neg_int_huge_exp.json", false, JET_ERR_NUMBER_RANGE, 1, false},
    {"i_number_pos_double_huge_exp.json", false, JET_ERR_NUMBER_RANGE, 1, false},
    {"i_number_real_neg_overflow.json", false, JET_ERR_NUMBER_RANGE, 1, false},
    {"i_number_real_pos_overflow.json", false, JET_ERR_NUMBER_RANGE, 1, false},
    {"i_number_real_underflow.json", true, JET_OK, 0, false},
    {"i_number_too_big_neg_int.json", true, JET_OK, 0, false},
    {"i_number_too_big_pos_int.json", true, JET_OK, 0, false},
    {"i_number_very_big_negative_int.json", true, JET_OK, 0, false},
    {"i_object_key_lone_2nd_surrogate.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_1st_surrogate_but_2nd_missing.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_1st_valid_surrogate_2nd_invalid.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_UTF-16LE_with_BOM.json", false, JET_ERR_UNEXPECTED_CHAR, 0, false},
    {"i_string_UTF-8_invalid_sequence.json", false, JET_ERR_UTF8, 7, false},
    {"i_string_UTF8_surrogate_U+D800.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_incomplete_surrogate_and_escape_valid.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_incomplete_surrogate_pair.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_incomplete_surrogates_escape_valid.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_invalid_lonely_surrogate.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_invalid_surrogate.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_invalid_utf-8.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_inverted_surrogates_U+1D11E.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_iso_latin_1.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_lone_second_surrogate.json", false, JET_ERR_SURROGATE, 2, false},
    {"i_string_lone_utf8_continuation_byte.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_not_in_unicode_range.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_overlong_sequence_2_bytes.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_overlong_sequence_6_bytes.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_overlong_sequence_6_bytes_null.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_truncated-utf-8.json", false, JET_ERR_UTF8, 2, false},
    {"i_string_utf16BE_no_BOM.json", false, JET_ERR_UNEXPECTED_CHAR, 0, false},
    {"i_string_utf16LE_no_BOM.json", false, JET_ERR_UNEXPECTED_CHAR, 1, false},
    {"i_structure_500_nested_arrays.json", true, JET_OK, 0, false},
    {"i_structure_UTF-8_BOM_empty_object.json", false, JET_ERR_UNEXPECTED_CHAR, 0, false},
};
#define N_I_CASES (sizeof i_cases / sizeof i_cases[0])

static i_case *find_i_case(const char *name) {
    for (size_t i = 0; i < N_I_CASES; i++)
        if (strcmp(i_cases[i].name, name) == 0) return &i_cases[i];
    return NULL;
}

/* n_ files accepted with all of LENIENT on (docs/conformance.md lists the
 * same ones; the test compares). */
static const char *const lenient_accepts[] = {
    "n_array_extra_comma.json",
    "n_array_number_and_comma.json",
    "n_object_trailing_comma.json",
    "n_object_lone_continuation_byte_in_key_and_trailing_comma.json",
    "n_number_NaN.json",
    "n_number_infinity.json",
    "n_number_minus_infinity.json",
    "n_object_trailing_comment.json",
    "n_object_trailing_comment_slash_open.json",
    "n_structure_object_with_comment.json",
};
#define N_LENIENT (sizeof lenient_accepts / sizeof lenient_accepts[0])

static bool in_lenient_accepts(const char *name) {
    for (size_t i = 0; i < N_LENIENT; i++)
        if (strcmp(lenient_accepts[i], name) == 0) return true;
    return false;
}

/* ---- files ------------------------------------------------------------------ */

static char dir_path[4096];

typedef struct file_data {
    char *data; /* exactly `len` bytes (malloc(len), at least 1) */
    size_t len;
} file_data;

/* Loads a test file into an exactly-sized buffer. */
static bool load(const char *name, file_data *out) {
    char path[4600];
    snprintf(path, sizeof path, "%s/%s", dir_path, name);
    size_t len = 0;
    char *raw = check_read_file(path, &len);
    if (!raw) return false;
    out->data = (char *)malloc(len ? len : 1);
    if (!out->data) {
        free(raw);
        return false;
    }
    if (len) memcpy(out->data, raw, len);
    out->len = len;
    free(raw);
    return true;
}

static jet_doc *parse(const file_data *f, jet_read_flags flags, uint32_t max_depth,
                      jet_error *err) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.max_depth = max_depth;
    memset(err, 0, sizeof *err);
    return jet_read(f->data, f->len, &o, NULL, err);
}

/* A rejection must be clean: a real code, an offset inside the input, a
 * position and a message. */
static bool clean_error(const jet_error *err, size_t len) {
    return err->code != JET_OK && err->code < JET_ERR__COUNT && err->offset <= len &&
           err->line >= 1 && err->column >= 1 && err->msg != NULL && err->msg[0] != '\0';
}

/* Writes the document with `wflags`, reads the text back with `rflags` and
 * checks that the result equals the original. */
static void round_trip(const char *name, const jet_doc *d, jet_write_flags wflags,
                       jet_read_flags rflags) {
    size_t n = 0;
    jet_error err;
    char *text = jet_val_write(jet_doc_root(d), wflags, NULL, &n, &err);
    CHECK_MSG(text != NULL, "%s: write failed: %s", name, text ? "" : err.msg);
    if (!text) return;
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = rflags;
    jet_doc *back = jet_read(text, n, &o, NULL, &err);
    CHECK_MSG(back != NULL, "%s: written text does not parse: %s at %zu", name,
              back ? "" : err.msg, back ? (size_t)0 : err.offset);
    if (back) {
        CHECK_MSG(jet_val_equal(jet_doc_root(d), jet_doc_root(back)), "%s: round trip differs",
                  name);
        jet_doc_free(back);
    }
    free(text);
}

static void round_trips(const char *name, const jet_doc *d, jet_read_flags rflags) {
    jet_write_flags nan = (rflags & NI_) ? JET_WRITE_ALLOW_NAN_INF : 0;
    round_trip(name, d, nan, rflags);
    round_trip(name, d, nan | JET_WRITE_PRETTY_2, rflags);
    round_trip(name, d, nan | JET_WRITE_PRETTY | JET_WRITE_ESCAPE_SLASHES, rflags);
    if (!(rflags & U8_)) round_trip(name, d, nan | JET_WRITE_ASCII, rflags);
}

/* ---- reader kernels ---------------------------------------------------------- */

static const char *kernels[8];
static size_t n_kernels;

static void find_kernels(void) {
    static const char *const names[] = {"scalar", "swar", "sse2", "avx2", "neon"};
    const char *initial = jet_kernel_name();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (jet_kernel_set(names[i])) kernels[n_kernels++] = names[i];
    CHECK(n_kernels >= 1 && jet_kernel_set(initial));
}

/* Every kernel gives the same outcome as the current one: an equal document,
 * or the same error at the same place with the same message. */
static void same_under_kernels(const char *name, const file_data *f, jet_read_flags flags) {
    const char *initial = jet_kernel_name();
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    jet_error ref_err;
    memset(&ref_err, 0, sizeof ref_err);
    jet_doc *ref = jet_read(f->data, f->len, &o, NULL, &ref_err);
    for (size_t k = 0; k < n_kernels; k++) {
        if (!jet_kernel_set(kernels[k])) continue;
        jet_error err;
        memset(&err, 0, sizeof err);
        jet_doc *d = jet_read(f->data, f->len, &o, NULL, &err);
        bool same = ref ? (d && jet_val_equal(jet_doc_root(ref), jet_doc_root(d)))
                        : (!d && err.code == ref_err.code && err.offset == ref_err.offset &&
                           err.msg && ref_err.msg && strcmp(err.msg, ref_err.msg) == 0);
        CHECK_MSG(same, "%s (flags %#x): kernel %s gives %s at %zu, kernel %s %s at %zu", name,
                  (unsigned)flags, kernels[k], d ? "JET_OK" : jet_code_name(err.code),
                  err.offset, initial, ref ? "JET_OK" : jet_code_name(ref_err.code),
                  ref_err.offset);
        jet_doc_free(d);
    }
    jet_kernel_set(initial);
    jet_doc_free(ref);
}

/* ---- per-file checks --------------------------------------------------------- */

static size_t n_y, n_n, n_i;

static void check_y(const char *name, const file_data *f) {
    jet_error err;
    jet_doc *d = parse(f, 0, 0, &err);
    CHECK_MSG(d != NULL, "%s: rejected: %s (%s at %zu)", name, d ? "" : jet_code_name(err.code),
              d ? "" : err.msg, d ? (size_t)0 : err.offset);
    if (!d) return;
    CHECK_MSG(jet_doc_root(d) != NULL && jet_doc_read_size(d) == f->len, "%s: read size", name);
    round_trips(name, d, 0);
    jet_doc_free(d);
    /* the lenient flags never reject valid JSON */
    d = parse(f, LENIENT | JET_READ_BIGNUM_AS_RAW, 0, &err);
    CHECK_MSG(d != NULL, "%s: rejected with lenient flags", name);
    jet_doc_free(d);
    n_y++;
}

static void check_n(const char *name, const file_data *f) {
    jet_error err;
    jet_doc *d = parse(f, 0, 0, &err);
    CHECK_MSG(d == NULL && clean_error(&err, f->len), "%s: %s (%s at %zu of %zu)", name,
              d ? "accepted" : "unclean error", jet_code_name(err.code), err.offset, f->len);
    jet_doc_free(d);
    /* with every lenient flag: only the listed files become valid */
    d = parse(f, LENIENT, 0, &err);
    if (in_lenient_accepts(name)) {
        CHECK_MSG(d != NULL, "%s: rejected with the lenient flags: %s", name,
                  d ? "" : err.msg);
        if (d) round_trips(name, d, LENIENT);
    } else {
        CHECK_MSG(d == NULL && clean_error(&err, f->len), "%s: %s with the lenient flags", name,
                  d ? "accepted" : "unclean error");
    }
    jet_doc_free(d);
    n_n++;
}

static void check_i(const char *name, const file_data *f) {
    i_case *c = find_i_case(name);
    CHECK_MSG(c != NULL, "%s: not in the i_ table (add it here and to docs/conformance.md)",
              name);
    if (!c) return;
    c->seen = true;
    jet_error err;
    jet_doc *d = parse(f, 0, 0, &err);
    if (c->accept) {
        CHECK_MSG(d != NULL, "%s: want accept, got %s (%s)", name,
                  d ? "" : jet_code_name(err.code), d ? "" : err.msg);
        if (d) round_trips(name, d, 0);
    } else {
        CHECK_MSG(d == NULL && err.code == c->code && err.offset == c->offset &&
                      clean_error(&err, f->len),
                  "%s: want %s at %zu, got %s at %zu", name, jet_code_name(c->code), c->offset,
                  d ? "JET_OK" : jet_code_name(err.code), err.offset);
    }
    jet_doc_free(d);
    /* the relaxations named in docs/conformance.md */
    bool utf16 = strstr(name, "UTF-16") || strstr(name, "utf16") || strstr(name, "BOM");
    if (strncmp(name, "i_string_", 9) == 0 || strncmp(name, "i_object_", 9) == 0) {
        d = parse(f, U8_, 0, &err);
        if (utf16)
            CHECK_MSG(d == NULL, "%s: accepted with ALLOW_INVALID_UTF8", name);
        else
            CHECK_MSG(d != NULL, "%s: rejected with ALLOW_INVALID_UTF8: %s", name,
                      d ? "" : err.msg);
        if (d) round_trips(name, d, U8_);
        jet_doc_free(d);
    }
    if (strncmp(name, "i_number_", 9) == 0) {
        d = parse(f, JET_READ_BIGNUM_AS_RAW, 0, &err);
        CHECK_MSG(d != NULL, "%s: rejected with BIGNUM_AS_RAW: %s", name, d ? "" : err.msg);
        if (d) {
            jet_val *e = jet_arr_get(jet_doc_root(d), 0);
            /* what overflowed or did not fit is raw text; the rest is a double */
            bool raw_expected = !c->accept || strstr(name, "_int") != NULL;
            CHECK_MSG(jet_is_raw(e) == raw_expected, "%s: raw %d", name, (int)jet_is_raw(e));
            if (jet_is_raw(e))
                CHECK_MSG(jet_get_len(e) + 2 == f->len - (f->data[f->len - 1] == '\n') &&
                              memcmp(jet_get_str(e), f->data + 1, jet_get_len(e)) == 0,
                          "%s: raw text", name);
            round_trips(name, d, JET_READ_BIGNUM_AS_RAW);
        }
        jet_doc_free(d);
    }
    n_i++;
}

/* ---- values of some accepted i_ files ---------------------------------------- */

static void check_i_values(void) {
    static const struct {
        const char *name;
        double want;
    } reals[] = {
        {"i_number_double_huge_neg_exp.json", 0.0},
        {"i_number_real_underflow.json", 0.0},
        {"i_number_too_big_pos_int.json", 1e20},
        {"i_number_too_big_neg_int.json", -123123123123123123123123123123.0},
        {"i_number_very_big_negative_int.json",
         -237462374673276894279832749832423479823246327846.0},
    };
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++) {
        file_data f;
        if (!load(reals[i].name, &f)) continue;
        jet_error err;
        jet_doc *d = parse(&f, 0, 0, &err);
        jet_val *e = d ? jet_arr_get(jet_doc_root(d), 0) : NULL;
        CHECK_MSG(jet_is_real(e) && jet_get_real(e) == reals[i].want, "%s: got %.17g",
                  reals[i].name, jet_get_real(e));
        /* underflow keeps the sign bit clear for positive inputs */
        if (reals[i].want == 0.0) CHECK(e && !signbit(jet_get_real(e)));
        jet_doc_free(d);
        free(f.data);
    }
    /* 500 levels: within the default limit, not within 499 */
    file_data f;
    if (load("i_structure_500_nested_arrays.json", &f)) {
        jet_error err;
        jet_doc *d = parse(&f, 0, 500, &err);
        CHECK(d != NULL);
        jet_doc_free(d);
        d = parse(&f, 0, 499, &err);
        CHECK(d == NULL && err.code == JET_ERR_DEPTH_LIMIT && err.offset == 499);
        jet_doc_free(d);
        free(f.data);
    }
}

/* ---- targeted lenient checks ---------------------------------------------------- */

static void expect_flagged(const char *name, jet_read_flags flags, const char *want_min,
                           jet_code want_code, size_t want_read) {
    file_data f = {NULL, 0};
    CHECK_MSG(load(name, &f), "%s: missing", name);
    if (!f.data) return;
    jet_error err;
    jet_doc *d = parse(&f, flags, 0, &err);
    if (want_min) {
        CHECK_MSG(d != NULL, "%s: rejected with flags %#x: %s", name, (unsigned)flags,
                  d ? "" : err.msg);
        if (d) {
            char *text = jet_doc_write(d, (flags & NI_) ? JET_WRITE_ALLOW_NAN_INF : 0, NULL,
                                       NULL, NULL);
            CHECK_MSG(text && strcmp(text, want_min) == 0, "%s: got %s want %s", name,
                      text ? text : "(null)", want_min);
            free(text);
            if (want_read) CHECK_MSG(jet_doc_read_size(d) == want_read, "%s: read %zu", name,
                                     jet_doc_read_size(d));
        }
    } else {
        CHECK_MSG(d == NULL && err.code == want_code && clean_error(&err, f.len),
                  "%s: want %s with flags %#x, got %s", name, jet_code_name(want_code),
                  (unsigned)flags, d ? "JET_OK" : jet_code_name(err.code));
    }
    jet_doc_free(d);
    free(f.data);
}

static void check_lenient_targets(void) {
    /* trailing commas */
    expect_flagged("n_object_trailing_comma.json", TC_, "{\"id\":0}", JET_OK, 0);
    expect_flagged("n_array_extra_comma.json", TC_, "[\"\"]", JET_OK, 0);
    expect_flagged("n_array_number_and_comma.json", TC_, "[1]", JET_OK, 0);
    expect_flagged("n_object_trailing_comma.json", LENIENT & ~TC_, NULL,
                   JET_ERR_UNEXPECTED_CHAR, 0);
    expect_flagged("n_array_double_extra_comma.json", TC_, NULL, JET_ERR_UNEXPECTED_CHAR, 0);
    expect_flagged("n_object_several_trailing_commas.json", TC_, NULL, JET_ERR_UNEXPECTED_CHAR,
                   0);
    expect_flagged("n_array_unclosed_trailing_comma.json", TC_, NULL, JET_ERR_TRUNCATED, 0);
    /* comments */
    expect_flagged("n_structure_object_with_comment.json", C_, "{\"a\":\"b\"}", JET_OK, 0);
    expect_flagged("n_object_trailing_comment.json", C_, "{\"a\":\"b\"}", JET_OK, 0);
    expect_flagged("n_object_trailing_comment_slash_open.json", C_, "{\"a\":\"b\"}", JET_OK, 0);
    expect_flagged("n_object_trailing_comment_open.json", C_, NULL, JET_ERR_COMMENT, 0);
    expect_flagged("n_object_trailing_comment_slash_open_incomplete.json", C_, NULL,
                   JET_ERR_COMMENT, 0);
    expect_flagged("n_structure_object_with_comment.json", LENIENT & ~C_, NULL,
                   JET_ERR_UNEXPECTED_CHAR, 0);
    /* NaN and infinities */
    expect_flagged("n_number_NaN.json", NI_, "[NaN]", JET_OK, 0);
    expect_flagged("n_number_infinity.json", NI_, "[Infinity]", JET_OK, 0);
    expect_flagged("n_number_minus_infinity.json", NI_, "[-Infinity]", JET_OK, 0);
    expect_flagged("n_number_-NaN.json", NI_, NULL, JET_ERR_NUMBER, 0);
    expect_flagged("n_number_Inf.json", NI_, NULL, JET_ERR_LITERAL, 0);
    expect_flagged("n_number_+Inf.json", NI_, NULL, JET_ERR_UNEXPECTED_CHAR, 0);
    /* invalid UTF-8 and lone surrogates */
    expect_flagged("n_object_lone_continuation_byte_in_key_and_trailing_comma.json", TC_ | U8_,
                   "{\"\xB9\":\"0\"}", JET_OK, 0);
    expect_flagged("i_string_lone_second_surrogate.json", U8_, "[\"\xED\xBE\xAA\"]", JET_OK, 0);
    expect_flagged("i_string_invalid_lonely_surrogate.json", U8_, "[\"\xED\xA0\x80\"]", JET_OK, 0);
    expect_flagged("i_string_iso_latin_1.json", U8_, "[\"\xE9\"]", JET_OK, 0);
    expect_flagged("n_string_incomplete_surrogate_escape_invalid.json", U8_, NULL,
                   JET_ERR_STRING_ESCAPE, 0);
    expect_flagged("n_structure_lone-invalid-utf-8.json", U8_, NULL, JET_ERR_UNEXPECTED_CHAR,
                   0);
    /* stop after the first value */
    expect_flagged("n_structure_double_array.json", JET_READ_STOP_WHEN_DONE, "[]", JET_OK, 2);
    expect_flagged("n_structure_trailing_#.json", JET_READ_STOP_WHEN_DONE, "{\"a\":\"b\"}",
                   JET_OK, 9);
    expect_flagged("n_array_comma_after_close.json", JET_READ_STOP_WHEN_DONE, "[\"\"]", JET_OK,
                   4);
    /* depth: 100000 open arrays hit the default limit at the 1025th */
    {
        file_data f;
        if (load("n_structure_100000_opening_arrays.json", &f)) {
            jet_error err;
            jet_doc *d = parse(&f, 0, 0, &err);
            CHECK_MSG(d == NULL && err.code == JET_ERR_DEPTH_LIMIT && err.offset == 1024,
                      "100000 arrays: %s at %zu", jet_code_name(err.code), err.offset);
            jet_doc_free(d);
            /* with room for all of them: the input simply ends */
            d = parse(&f, 0, 200000, &err);
            CHECK_MSG(d == NULL && err.code == JET_ERR_TRUNCATED && err.offset == f.len,
                      "100000 arrays, no limit: %s at %zu", jet_code_name(err.code),
                      err.offset);
            jet_doc_free(d);
            free(f.data);
        }
    }
}

/* ---- docs/conformance.md ---------------------------------------------------- */

/* Compares the i_ rows (name, outcome, code) and the n_ lenient rows of
 * docs/conformance.md with the tables above, in both directions. */
static void check_doc(void) {
#ifdef JET_SOURCE_DIR
    const char *path = JET_SOURCE_DIR "/docs/conformance.md";
#else
    const char *path = "docs/conformance.md";
#endif
    size_t len = 0;
    char *text = check_read_file(path, &len);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    if (!text) return;
    size_t i_rows = 0, n_rows = 0;
    bool i_listed[N_I_CASES];
    bool n_listed[N_LENIENT];
    memset(i_listed, 0, sizeof i_listed);
    memset(n_listed, 0, sizeof n_listed);
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (strncmp(line, "| `i_", 5) == 0 || strncmp(line, "| `n_", 5) == 0) {
            /* | `name` | outcome | `code` | reason |   or   | `name` | flags | */
            char name[256], outcome[64], code[64];
            name[0] = outcome[0] = code[0] = '\0';
            int got = sscanf(line, "| `%255[^`]` | %63s | `%63[^`]`", name, outcome, code);
            if (line[3] == 'i') {
                i_rows++;
                i_case *c = find_i_case(name);
                CHECK_MSG(got == 3 && c != NULL, "doc row for %s: not in the test's table", name);
                if (c && got == 3) {
                    i_listed[c - i_cases] = true;
                    bool acc = strcmp(outcome, "accept") == 0;
                    CHECK_MSG(acc || strcmp(outcome, "reject") == 0, "doc row %s: outcome %s",
                              name, outcome);
                    CHECK_MSG(acc == c->accept, "doc says %s for %s, test says %s", outcome,
                              name, c->accept ? "accept" : "reject");
                    CHECK_MSG(strcmp(code, jet_code_name(c->code)) == 0,
                              "doc says %s for %s, test says %s", code, name,
                              jet_code_name(c->code));
                }
            } else {
                n_rows++;
                bool found = false;
                for (size_t k = 0; k < N_LENIENT; k++)
                    if (strcmp(lenient_accepts[k], name) == 0) {
                        n_listed[k] = true;
                        found = true;
                    }
                CHECK_MSG(found, "doc lists %s as lenient-accepted; the test does not", name);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    CHECK_MSG(i_rows == N_I_CASES, "doc has %zu i_ rows, the test %zu", i_rows, (size_t)N_I_CASES);
    for (size_t k = 0; k < N_I_CASES; k++)
        CHECK_MSG(i_listed[k], "%s missing from docs/conformance.md", i_cases[k].name);
    CHECK_MSG(n_rows == N_LENIENT, "doc has %zu lenient n_ rows, the test %zu", n_rows,
              (size_t)N_LENIENT);
    for (size_t k = 0; k < N_LENIENT; k++)
        CHECK_MSG(n_listed[k], "%s missing from the lenient table of docs/conformance.md",
                  lenient_accepts[k]);
    free(text);
}

/* ---- main ------------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(void) {
    find_kernels();
    snprintf(dir_path, sizeof dir_path, "%s/conformance/JSONTestSuite/test_parsing",
             check_shared_dir());
    DIR *dir = opendir(dir_path);
    CHECK_MSG(dir != NULL, "cannot open %s", dir_path);
    if (!dir) return CHECK_DONE("test_conformance");
    size_t cap = 512, count = 0;
    char **names = (char **)malloc(cap * sizeof *names);
    for (struct dirent *e; names && (e = readdir(dir));) {
        if (e->d_name[0] == '.') continue;
        size_t nl = strlen(e->d_name);
        if (nl < 5 || strcmp(e->d_name + nl - 5, ".json") != 0) continue;
        if (count == cap) {
            cap *= 2;
            char **nn = (char **)realloc(names, cap * sizeof *names);
            if (!nn) break;
            names = nn;
        }
        names[count] = (char *)malloc(nl + 1);
        if (!names[count]) break;
        memcpy(names[count], e->d_name, nl + 1);
        count++;
    }
    closedir(dir);
    if (!names) return 2;
    qsort(names, count, sizeof *names, cmp_str);

    size_t other = 0;
    for (size_t i = 0; i < count; i++) {
        const char *name = names[i];
        file_data f = {NULL, 0};
        CHECK_MSG(load(name, &f), "cannot read %s", name);
        if (f.data == NULL) continue;
        char *copy = (char *)malloc(f.len ? f.len : 1);
        if (copy && f.len) memcpy(copy, f.data, f.len);
        same_under_kernels(name, &f, 0);
        same_under_kernels(name, &f, LENIENT);
        same_under_kernels(name, &f, JET_READ_BIGNUM_AS_RAW | TC_);
        if (name[0] == 'y' && name[1] == '_')
            check_y(name, &f);
        else if (name[0] == 'n' && name[1] == '_')
            check_n(name, &f);
        else if (name[0] == 'i' && name[1] == '_')
            check_i(name, &f);
        else
            other++;
        /* the input is never modified */
        CHECK_MSG(copy && (f.len == 0 || memcmp(copy, f.data, f.len) == 0), "%s: input modified",
                  name);
        free(copy);
        free(f.data);
        free(names[i]);
    }
    free(names);
    for (size_t k = 0; k < N_I_CASES; k++)
        CHECK_MSG(i_cases[k].seen, "%s: in the table but not in the directory", i_cases[k].name);
    CHECK_MSG(n_y == 95 && n_n == 188 && n_i == N_I_CASES && other == 0,
              "files: %zu y_, %zu n_, %zu i_, %zu other", n_y, n_n, n_i, other);
    check_i_values();
    check_lenient_targets();
    check_doc();
    return CHECK_DONE("test_conformance");
}
