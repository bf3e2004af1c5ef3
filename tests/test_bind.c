/* test_bind.c — typed binding (jet.h sections 11 and 13): decode and encode
 * of every jet_kind (integers of every width at their range limits, floats
 * correctly rounded, the string kinds, raw text, nested structs, arrays,
 * arrays of arrays, fixed arrays, enums, maps, unions in all three styles,
 * positional tuples, optional / nullable / default fields, aliases), the
 * unknown-field and missing-field policies with their JSON Pointer paths,
 * wrong types, truncated inputs, duplicate keys, key-order independence
 * (shuffled, pretty-printed copies), encode -> decode round trips, the
 * ApiResponse sample re-encoded byte for byte, the nostr messages, the
 * twitter.json checksum through jet_decode against the DOM's, the arena,
 * and allocation-free repeated decoding. */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_sample.h"
#include "bind_eq.h"
#include "check.h"
#include "internal.h" /* jet__od_window_set */
#include "jet.h"
#include "kitchen.h"
#include "oracle/twitter_stats.h"
#include "schemas.h"
#include "shuffle.h"

#define LIT(s) (s), (sizeof(s) - 1)

/* ---- helpers ------------------------------------------------------------ */

static jet_od *od;
static jet_arena arena;
static char *cur; /* exact-size copy of the last input of dec() */
static size_t cur_len;
static jet_error err;

static const char *ostr(const char *s) { return s ? s : "(null)"; }

/* Decodes an exact-size copy of the text (kept until the next call) with the
 * shared cursor and arena; the output is filled with garbage first so that
 * "decoding zeroes the struct" is checked everywhere. */
static bool dec_n(jet_struct *t, void *out, const char *json, size_t len, jet_read_flags flags) {
    free(cur);
    cur = check_dup_exact(json, len);
    cur_len = len;
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    memset(&err, 0, sizeof err);
    memset(out, 0xA5, t->size);
    return jet_decode(od, cur, len, t, out, &arena, &o, &err);
}
static bool dec(jet_struct *t, void *out, const char *json) {
    return dec_n(t, out, json, strlen(json), 0);
}

static bool path_is(const char *p) { return err.path && strcmp(err.path, p) == 0; }
static bool path_starts(const char *p) { return err.path && strncmp(err.path, p, strlen(p)) == 0; }

/* The error's line:column matches its offset in the current input. */
static bool err_position_ok(void) {
    if (err.offset > cur_len || !err.msg) return false;
    size_t l = 1, c = 1;
    for (size_t i = 0; i < err.offset; i++) {
        if (cur[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)cur[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    return err.line == l && err.column == c;
}

#define CHECK_DEC_ERR(ok_, code_, path_)                                                         \
    do {                                                                                          \
        bool dec_ok_ = (ok_);                                                                     \
        CHECK_MSG(!dec_ok_ && err.code == (code_) && path_is(path_) && err_position_ok(),         \
                  "expected %s at %s, got %d %s at %s (offset %zu %zu:%zu, %s)",                  \
                  jet_code_name(code_), (path_), (int)dec_ok_, jet_code_name(err.code),           \
                  ostr(err.path), err.offset, err.line, err.column, ostr(err.msg));               \
    } while (0)
#define CHECK_DEC_OK(ok_)                                                                  \
    CHECK_MSG((ok_), "decode failed: %s at %zu (%s), path %s", jet_code_name(err.code),    \
              err.offset, ostr(err.msg), ostr(err.path))

static bool str_is(jet_str s, const char *p, size_t n) {
    return s.ptr && s.len == n && (n == 0 || memcmp(s.ptr, p, n) == 0);
}
#define STR_IS(s, lit) str_is((s), LIT(lit))
static bool in_input(const char *p) { return p >= cur && p < cur + cur_len; }

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* Encodes into a fresh buffer; the caller frees it with jet_buf_free. */
static bool enc(jet_buf *b, jet_struct *t, const void *in, jet_write_flags flags, jet_error *e) {
    jet_buf_init(b, NULL);
    return jet_encode(b, t, in, flags, e);
}

static char *read_shared(const char *rel, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", check_shared_dir(), rel);
    char *s = check_read_file(path, len);
    if (!s) fprintf(stderr, "test_bind: cannot read %s (set JET_SHARED_DIR)\n", path);
    return s;
}

/* `src` with the first `from` replaced by `to`, in an exact-size buffer. */
static char *replace_once(const char *src, size_t len, const char *from, const char *to,
                          size_t *out_len) {
    const char *at = NULL;
    size_t fl = strlen(from), tl = strlen(to);
    for (size_t i = 0; i + fl <= len; i++)
        if (memcmp(src + i, from, fl) == 0) {
            at = src + i;
            break;
        }
    if (!at) {
        fprintf(stderr, "test_bind: \"%s\" not in the text\n", from);
        exit(2);
    }
    size_t pre = (size_t)(at - src), n = len - fl + tl;
    char *out = (char *)check_xmalloc(n);
    memcpy(out, src, pre);
    memcpy(out + pre, to, tl);
    memcpy(out + pre + tl, at + fl, len - pre - fl);
    *out_len = n;
    return out;
}

/* ---- one-field types ------------------------------------------------------ */

#define ONE_TYPE(T, CT, KIND)                                                   \
    typedef struct T {                                                          \
        CT v;                                                                   \
    } T;                                                                        \
    static const jet_field T##_fields[] = {JET_FIELD(T, v, "v", KIND, NULL)};   \
    static jet_struct T##_type = JET_STRUCT(T, T##_fields);

ONE_TYPE(OneBool, bool, JET_K_BOOL)
ONE_TYPE(OneI8, int8_t, JET_K_INT)
ONE_TYPE(OneI16, int16_t, JET_K_INT)
ONE_TYPE(OneI32, int32_t, JET_K_INT)
ONE_TYPE(OneI64, int64_t, JET_K_INT)
ONE_TYPE(OneU8, uint8_t, JET_K_UINT)
ONE_TYPE(OneU16, uint16_t, JET_K_UINT)
ONE_TYPE(OneU32, uint32_t, JET_K_UINT)
ONE_TYPE(OneU64, uint64_t, JET_K_UINT)
ONE_TYPE(OneF32, float, JET_K_F32)
ONE_TYPE(OneF64, double, JET_K_F64)
ONE_TYPE(OneStr, jet_str, JET_K_STR)
ONE_TYPE(OneCopy, jet_str, JET_K_STR_COPY)
typedef struct OneFixed {
    char v[8];
} OneFixed;
static const jet_field OneFixed_fields[] = {JET_F_STR_FIXED(OneFixed, v, "v")};
static jet_struct OneFixed_type = JET_STRUCT(OneFixed, OneFixed_fields);
ONE_TYPE(OneRaw, jet_str, JET_K_RAW)

/* A one-field struct's member as a 64-bit integer. */
static int64_t member_int(const void *p, size_t size, bool sgn) {
    switch (size) {
    case 1: return sgn ? (int64_t) * (const int8_t *)p : (int64_t) * (const uint8_t *)p;
    case 2: return sgn ? (int64_t) * (const int16_t *)p : (int64_t) * (const uint16_t *)p;
    case 4: return sgn ? (int64_t) * (const int32_t *)p : (int64_t) * (const uint32_t *)p;
    default: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    }
}

static void int_case(jet_struct *t, bool sgn, const char *text, jet_code code, int64_t want) {
    char json[96];
    snprintf(json, sizeof json, "{\"v\":%s}", text);
    uint64_t out[2];
    bool ok = dec(t, out, json);
    if (code == JET_OK) {
        int64_t got = ok ? member_int(out, t->fields[0].size, sgn) : 0;
        CHECK_MSG(ok && got == want, "%s %s: %d %lld (%s)", t->name, text, ok, (long long)got,
                  jet_code_name(err.code));
        /* and back */
        jet_buf b;
        bool e = ok && enc(&b, t, out, 0, NULL);
        CHECK_MSG(e && b.len == strlen(json) && memcmp(b.data, json, b.len) == 0,
                  "%s %s: encoded as %s", t->name, text, e ? b.data : "(failed)");
        if (ok) jet_buf_free(&b);
    } else {
        CHECK_MSG(!ok && err.code == code && path_is("/v") && err.offset >= 5 &&
                      err.offset < strlen(json) && err_position_ok(),
                  "%s %s: expected %s, got %d %s at %zu path %s", t->name, text,
                  jet_code_name(code), ok, jet_code_name(err.code), err.offset, ostr(err.path));
    }
}

static void test_scalars(void) {
    /* bool */
    OneBool ob;
    CHECK(dec(&OneBool_type, &ob, "{\"v\":true}") && ob.v);
    CHECK(dec(&OneBool_type, &ob, "{\"v\":false}") && !ob.v);
    CHECK_DEC_ERR(dec(&OneBool_type, &ob, "{\"v\":1}"), JET_ERR_TYPE, "/v");
    CHECK(err.offset == 5);
    CHECK_DEC_ERR(dec(&OneBool_type, &ob, "{\"v\":null}"), JET_ERR_TYPE, "/v");
    CHECK_DEC_ERR(dec(&OneBool_type, &ob, "{\"v\":\"true\"}"), JET_ERR_TYPE, "/v");

    /* integers of every width, at and beyond their limits */
    int_case(&OneI8_type, true, "127", JET_OK, 127);
    int_case(&OneI8_type, true, "-128", JET_OK, -128);
    int_case(&OneI8_type, true, "0", JET_OK, 0);
    int_case(&OneI8_type, true, "128", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI8_type, true, "-129", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI8_type, true, "1000", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI16_type, true, "32767", JET_OK, 32767);
    int_case(&OneI16_type, true, "-32768", JET_OK, -32768);
    int_case(&OneI16_type, true, "32768", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI16_type, true, "-32769", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI32_type, true, "2147483647", JET_OK, INT32_MAX);
    int_case(&OneI32_type, true, "-2147483648", JET_OK, INT32_MIN);
    int_case(&OneI32_type, true, "2147483648", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI32_type, true, "-2147483649", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI32_type, true, "4294967296", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI64_type, true, "9223372036854775807", JET_OK, INT64_MAX);
    int_case(&OneI64_type, true, "-9223372036854775808", JET_OK, INT64_MIN);
    int_case(&OneI64_type, true, "9223372036854775808", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI64_type, true, "-9223372036854775809", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI64_type, true, "18446744073709551616", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneU8_type, false, "255", JET_OK, 255);
    int_case(&OneU8_type, false, "0", JET_OK, 0);
    int_case(&OneU8_type, false, "256", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneU8_type, false, "-1", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneU16_type, false, "65535", JET_OK, 65535);
    int_case(&OneU16_type, false, "65536", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneU32_type, false, "4294967295", JET_OK, (int64_t)UINT32_MAX);
    int_case(&OneU32_type, false, "4294967296", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneU32_type, false, "-2147483648", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneU64_type, false, "18446744073709551615", JET_OK, (int64_t)UINT64_MAX);
    int_case(&OneU64_type, false, "9223372036854775808", JET_OK, INT64_MIN);
    int_case(&OneU64_type, false, "18446744073709551616", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneU64_type, false, "-1", JET_ERR_NUMBER_RANGE, 0);
    int_case(&OneI32_type, true, "1.5", JET_ERR_TYPE, 0);
    int_case(&OneI32_type, true, "1.0", JET_ERR_TYPE, 0);
    int_case(&OneI64_type, true, "1e2", JET_ERR_TYPE, 0);
    int_case(&OneU8_type, false, "2E0", JET_ERR_TYPE, 0);
    int_case(&OneI32_type, true, "\"1\"", JET_ERR_TYPE, 0);
    int_case(&OneI32_type, true, "true", JET_ERR_TYPE, 0);
    int_case(&OneU32_type, false, "null", JET_ERR_TYPE, 0);
    int_case(&OneU32_type, false, "[1]", JET_ERR_TYPE, 0);
    int_case(&OneI32_type, true, "01", JET_ERR_NUMBER, 0);
    int_case(&OneI32_type, true, "-", JET_ERR_NUMBER, 0);

    /* floats correctly rounded from the text; doubles */
    static const struct {
        const char *text;
        uint32_t bits;
    } f32s[] = {
        {"0", 0},
        {"-0.0", 0x80000000u},
        {"3", 0x40400000u},
        {"0.1", 0x3DCCCCCDu},
        {"1.00000005960464477550", 0x3F800001u}, /* via a double: 0x3F800000 */
        {"1.0000000596046448", 0x3F800001u},
        {"1.000000059604644775390625", 0x3F800000u},
        {"7.038531e-26", 0x15AE43FDu},
        {"16777217", 0x4B800000u},
        {"3.4028234663852886e38", 0x7F7FFFFFu},
        {"1.401298464324817e-45", 0x00000001u},
    };
    for (size_t i = 0; i < sizeof f32s / sizeof f32s[0]; i++) {
        char json[96];
        snprintf(json, sizeof json, "{\"v\":%s}", f32s[i].text);
        OneF32 o;
        bool ok = dec(&OneF32_type, &o, json);
        CHECK_MSG(ok && fbits(o.v) == f32s[i].bits, "F32 %s: %d %08x, want %08x", f32s[i].text, ok,
                  (unsigned)fbits(o.v), (unsigned)f32s[i].bits);
        /* whatever the text, it reads back to the same float */
        jet_buf b;
        OneF32 back;
        bool e = ok && enc(&b, &OneF32_type, &o, 0, NULL);
        CHECK_MSG(e && dec(&OneF32_type, &back, b.data) && fbits(back.v) == fbits(o.v),
                  "F32 %s: encoded %s does not read back", f32s[i].text, e ? b.data : "-");
        if (e) jet_buf_free(&b);
    }
    static const struct {
        const char *text;
        uint64_t bits;
    } f64s[] = {
        {"0", 0},
        {"-0.0", 0x8000000000000000ull},
        {"0.1", 0x3FB999999999999Aull},
        {"-2.5", 0xC004000000000000ull},
        {"1e-320", 0x00000000000007E8ull},
        {"12345678901234567890", 0x43E56A95319D63E1ull},
        {"1.7976931348623157e308", 0x7FEFFFFFFFFFFFFFull},
        {"9007199254740993", 0x4340000000000000ull},
    };
    for (size_t i = 0; i < sizeof f64s / sizeof f64s[0]; i++) {
        char json[96];
        snprintf(json, sizeof json, "{\"v\":%s}", f64s[i].text);
        OneF64 o;
        bool ok = dec(&OneF64_type, &o, json);
        CHECK_MSG(ok && dbits(o.v) == f64s[i].bits, "F64 %s: %d %016llx", f64s[i].text, ok,
                  (unsigned long long)dbits(o.v));
        jet_buf b;
        OneF64 back;
        bool e = ok && enc(&b, &OneF64_type, &o, 0, NULL);
        CHECK_MSG(e && dec(&OneF64_type, &back, b.data) && dbits(back.v) == dbits(o.v),
                  "F64 %s: encoded %s does not read back", f64s[i].text, e ? b.data : "-");
        if (e) jet_buf_free(&b);
    }
    {
        OneF64 o;
        CHECK_DEC_ERR(dec(&OneF64_type, &o, "{\"v\":1e400}"), JET_ERR_NUMBER_RANGE, "/v");
        CHECK_DEC_ERR(dec(&OneF64_type, &o, "{\"v\":\"1.5\"}"), JET_ERR_TYPE, "/v");
        OneF32 f;
        CHECK_DEC_ERR(dec(&OneF32_type, &f, "{\"v\":false}"), JET_ERR_TYPE, "/v");
    }

    /* strings: views, escapes unescaped */
    {
        OneStr s;
        CHECK(dec(&OneStr_type, &s, "{\"v\":\"abc\"}") && STR_IS(s.v, "abc") && s.v.ptr == cur + 6);
        CHECK(dec(&OneStr_type, &s, "{\"v\":\"\"}") && s.v.ptr != NULL && s.v.len == 0);
        CHECK(dec(&OneStr_type, &s, "{\"v\":\"a\\\"\\u00e9\\ud83d\\ude00\\n\"}") &&
              STR_IS(s.v, "a\"\xc3\xa9\xf0\x9f\x98\x80\n"));
        CHECK_DEC_ERR(dec(&OneStr_type, &s, "{\"v\":1}"), JET_ERR_TYPE, "/v");
        CHECK_DEC_ERR(dec(&OneStr_type, &s, "{\"v\":null}"), JET_ERR_TYPE, "/v");
        CHECK_DEC_ERR(dec(&OneStr_type, &s, "{\"v\":\"\\ud800\"}"), JET_ERR_SURROGATE, "/v");
        /* copies: in the arena, NUL-terminated, escaped or not */
        OneCopy c;
        CHECK(dec(&OneCopy_type, &c, "{\"v\":\"plain\"}") && STR_IS(c.v, "plain") &&
              !in_input(c.v.ptr) && c.v.ptr[c.v.len] == '\0');
        CHECK(dec(&OneCopy_type, &c, "{\"v\":\"t\\tab\\u0000z\"}") && STR_IS(c.v, "t\tab\0z") &&
              !in_input(c.v.ptr) && c.v.ptr[c.v.len] == '\0');
        CHECK(dec(&OneCopy_type, &c, "{\"v\":\"\"}") && c.v.ptr && c.v.len == 0 &&
              c.v.ptr[0] == '\0');
        CHECK_DEC_ERR(dec(&OneCopy_type, &c, "{\"v\":[]}"), JET_ERR_TYPE, "/v");
        /* a copy outlives the input and the cursor's next document */
        CHECK(dec(&OneCopy_type, &c, "{\"v\":\"survivor\\n\"}"));
        OneStr other;
        CHECK(dec(&OneStr_type, &other, "{\"v\":\"x\\ty\"}"));
        CHECK(STR_IS(c.v, "survivor\n"));
    }
    /* fixed buffers: fits, exactly N-1 bytes, too long */
    {
        OneFixed f;
        CHECK(dec(&OneFixed_type, &f, "{\"v\":\"\"}") && f.v[0] == '\0');
        CHECK(dec(&OneFixed_type, &f, "{\"v\":\"abc\"}") && strcmp(f.v, "abc") == 0);
        CHECK(dec(&OneFixed_type, &f, "{\"v\":\"1234567\"}") && strcmp(f.v, "1234567") == 0);
        CHECK(dec(&OneFixed_type, &f, "{\"v\":\"\\u00e9\\u00e9\\u00e9\"}") &&
              strcmp(f.v, "\xc3\xa9\xc3\xa9\xc3\xa9") == 0);
        CHECK_DEC_ERR(dec(&OneFixed_type, &f, "{\"v\":\"12345678\"}"), JET_ERR_TOO_LONG, "/v");
        CHECK_DEC_ERR(dec(&OneFixed_type, &f, "{\"v\":\"\\u00e9\\u00e9\\u00e9\\u00e9\"}"),
                      JET_ERR_TOO_LONG, "/v");
        CHECK_DEC_ERR(dec(&OneFixed_type, &f, "{\"v\":\"a very long string indeed\"}"),
                      JET_ERR_TOO_LONG, "/v");
        CHECK_DEC_ERR(dec(&OneFixed_type, &f, "{\"v\":7}"), JET_ERR_TYPE, "/v");
        memset(&f, 0, sizeof f);
        memcpy(f.v, "a\"b/", 5);
        jet_buf b;
        CHECK(enc(&b, &OneFixed_type, &f, 0, NULL) && strcmp(b.data, "{\"v\":\"a\\\"b/\"}") == 0);
        jet_buf_free(&b);
    }
    /* raw text of any value */
    {
        static const struct {
            const char *json, *raw;
        } raws[] = {
            {"{\"v\": {\"x\": [1, 2.5, \"y\"]} }", "{\"x\": [1, 2.5, \"y\"]}"},
            {"{\"v\":[ ]}", "[ ]"},
            {"{\"v\":\"s\\\"\"}", "\"s\\\"\""},
            {"{\"v\" :\n -12.5e3\n}", "-12.5e3"},
            {"{\"v\":true}", "true"},
            {"{\"v\":null}", "null"},
        };
        for (size_t i = 0; i < sizeof raws / sizeof raws[0]; i++) {
            OneRaw r;
            bool ok = dec(&OneRaw_type, &r, raws[i].json);
            CHECK_MSG(ok && str_is(r.v, raws[i].raw, strlen(raws[i].raw)) && in_input(r.v.ptr),
                      "RAW %s: %d %.*s", raws[i].json, ok, ok ? (int)r.v.len : 0,
                      ok ? r.v.ptr : "");
            /* written back verbatim */
            jet_buf b;
            char want[96];
            snprintf(want, sizeof want, "{\"v\":%s}", raws[i].raw);
            bool e = ok && enc(&b, &OneRaw_type, &r, 0, NULL);
            CHECK_MSG(e && strcmp(b.data, want) == 0, "RAW %s encoded as %s", raws[i].json,
                      e ? b.data : "-");
            if (e) jet_buf_free(&b);
        }
    }
}

/* ---- the kitchen sink: every kind in one struct (kitchen.h) ----------------- */

static void check_kitchen(const Kitchen *k) {
    CHECK(k->b && k->i8 == -128 && k->i16 == 32767 && k->i32 == INT32_MIN && k->i64 == INT64_MIN);
    CHECK(k->u8 == 255 && k->u16 == 65535 && k->u32 == UINT32_MAX && k->u64 == UINT64_MAX);
    CHECK(fbits(k->f32) == 0x3F800001u && k->f64 == (double)-0.1); /* x87 keeps constants long double */
    CHECK(STR_IS(k->s, "a\"b\\c\xc3\xa9") && STR_IS(k->sc, "copy\ttab") && k->sc.ptr[k->sc.len] == 0);
    CHECK(strcmp(k->fixed, "1234567") == 0);
    CHECK(STR_IS(k->raw, "{\"x\": [1, 2.5, \"y\"]}"));
    CHECK(STR_IS(k->inner.name, "in") && !k->inner.ok);
    CHECK(k->num_count == 3 && k->nums && k->nums[0] == 1 && k->nums[1] == -2 && k->nums[2] == 3);
    CHECK(k->word_count == 2 && k->words && STR_IS(k->words[0], "w1") &&
          STR_IS(k->words[1], "w\n2") && k->words[1].ptr[3] == '\0');
    CHECK(k->inner_count == 2 && k->inners && STR_IS(k->inners[0].name, "a") && k->inners[0].ok &&
          STR_IS(k->inners[1].name, "b") && !k->inners[1].ok);
    CHECK(k->row_count == 3 && k->rows && k->rows[0].n == 2 && k->rows[0].v[0] == 1 &&
          k->rows[0].v[1] == 2 && k->rows[1].n == 0 && k->rows[2].n == 1 && k->rows[2].v[0] == 3);
    CHECK(k->triple[0] == 7 && k->triple[1] == 8 && k->triple[2] == 9);
    CHECK(k->upto_count == 2 && k->upto[0] == 0.5 && k->upto[1] == 1.5);
    CHECK(k->color == 1);
    CHECK(k->color_count == 3 && k->colors && k->colors[0] == 2 && k->colors[1] == 0 &&
          k->colors[2] == 2);
    CHECK(k->map_count == 2 && k->map && STR_IS(k->map[0].key, "k1") && k->map[0].value == 1 &&
          STR_IS(k->map[1].key, "k\"2") && k->map[1].value == -2);
    CHECK(k->imap_count == 1 && k->imap && STR_IS(k->imap[0].key, "xA") &&
          k->imap[0].key.ptr[2] == '\0' && STR_IS(k->imap[0].value.name, "n") &&
          k->imap[0].value.ok);
    CHECK(k->status.tag == ST_SHIPPED && STR_IS(k->status.as.s.tracking, "1Z") &&
          STR_IS(k->status.as.s.carrier, "UPS"));
    CHECK(k->shape.kind == SH_CIRCLE && k->shape.as.c.r == 2.5);
    CHECK(k->cmd.op == CMD_MOVE && k->cmd.as.m.x == 3 && k->cmd.as.m.y == -4);
    CHECK(k->pt.x == 1 && k->pt.y == 2 && STR_IS(k->pt.label, "p"));
    CHECK(k->has_opt && k->opt == 5 && STR_IS(k->nick, "nk"));
    CHECK(!k->has_nul && k->nul == 0 && STR_IS(k->note, "hello"));
    CHECK(k->retries == -5 && k->port == 8080 && k->ratio == 0.25 && STR_IS(k->mode, "fast"));
    CHECK(STR_IS(k->user_name, "ada"));
}

static int cmp_key(const jet_str *a, const jet_str *b) {
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->ptr, b->ptr, n) : 0;
    return c ? c : (a->len > b->len) - (a->len < b->len);
}
static int cmp_pair(const void *a, const void *b) {
    return cmp_key(&((const Pair *)a)->key, &((const Pair *)b)->key);
}
static int cmp_pairin(const void *a, const void *b) {
    return cmp_key(&((const PairIn *)a)->key, &((const PairIn *)b)->key);
}
static void sort_pairs(Kitchen *k) {
    if (k->map_count) qsort(k->map, k->map_count, sizeof *k->map, cmp_pair);
    if (k->imap_count) qsort(k->imap, k->imap_count, sizeof *k->imap, cmp_pairin);
}

/* Decodes `json` with its own cursor (so that views stay valid). */
static bool dec_own(jet_od *o, jet_struct *t, void *out, const char *json, size_t len,
                    jet_read_flags flags, jet_error *e) {
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = flags;
    memset(out, 0x5A, t->size);
    return jet_decode(o, json, len, t, out, &arena, &opts, e);
}

/* encode -> decode gives an equal value; encoding that gives the same text;
 * and pretty / ASCII output decodes to it too. */
static void check_round_trip(const char *what, jet_struct *t, const void *v) {
    jet_buf b1, b2;
    jet_error e;
    bool ok = enc(&b1, t, v, 0, &e);
    CHECK_MSG(ok, "%s: encode failed: %s", what, ok ? "" : jet_code_name(e.code));
    if (!ok) return;
    CHECK_MSG(b1.data[b1.len] == '\0' && strlen(b1.data) <= b1.len, "%s: buffer not terminated", what);
    /* the output is JSON */
    jet_doc *d = jet_read(b1.data, b1.len, NULL, NULL, NULL);
    CHECK_MSG(d != NULL, "%s: encoded text does not parse: %s", what, b1.data);
    jet_od *o = jet_od_new(NULL);
    void *back = check_xmalloc(t->size), *back2 = check_xmalloc(t->size);
    char *text = check_dup_exact(b1.data, b1.len);
    ok = dec_own(o, t, back, text, b1.len, 0, &e);
    CHECK_MSG(ok, "%s: encoded text does not decode: %s at %zu (%s)\n  %s", what,
              jet_code_name(e.code), e.offset, ostr(e.path), b1.data);
    if (ok) {
        CHECK_MSG(bind_equal(t, v, back), "%s: round trip differs at %s\n  %s", what,
                  ostr(beq_where), b1.data);
        bool ok2 = enc(&b2, t, back, 0, &e);
        CHECK_MSG(ok2 && b2.len == b1.len && memcmp(b1.data, b2.data, b1.len) == 0,
                  "%s: second encoding differs:\n  %s\n  %s", what, b1.data, ok2 ? b2.data : "-");
        if (ok2) jet_buf_free(&b2);
    }
    /* pretty, ASCII, escaped slashes, newline at the end: same value */
    static const jet_write_flags variants[] = {
        JET_WRITE_INDENT(2), JET_WRITE_PRETTY | JET_WRITE_NEWLINE_AT_END,
        JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES, JET_WRITE_INDENT(15) | JET_WRITE_ASCII};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        jet_buf bv;
        bool okv = enc(&bv, t, v, variants[i], &e);
        CHECK_MSG(okv, "%s: encode with flags %#x failed", what, (unsigned)variants[i]);
        if (!okv) continue;
        jet_doc *dv = jet_read(bv.data, bv.len, NULL, NULL, NULL);
        CHECK_MSG(dv && d && jet_val_equal(jet_doc_root(d), jet_doc_root(dv)),
                  "%s: flags %#x give a different document:\n%s", what, (unsigned)variants[i],
                  bv.data);
        jet_doc_free(dv);
        char *tv = check_dup_exact(bv.data, bv.len);
        jet_od *o2 = jet_od_new(NULL);
        bool okd = dec_own(o2, t, back2, tv, bv.len, 0, &e);
        CHECK_MSG(okd && bind_equal(t, v, back2), "%s: flags %#x do not decode back (%s at %s)",
                  what, (unsigned)variants[i], okd ? "different" : jet_code_name(e.code),
                  okd ? ostr(beq_where) : ostr(e.path));
        if (variants[i] & JET_WRITE_ASCII) {
            size_t high = 0;
            for (size_t k = 0; k < bv.len; k++) high += (unsigned char)bv.data[k] >= 0x80;
            CHECK_MSG(high == 0, "%s: %zu non-ASCII bytes with JET_WRITE_ASCII", what, high);
        }
        if (variants[i] & JET_WRITE_NEWLINE_AT_END)
            CHECK(bv.len > 0 && bv.data[bv.len - 1] == '\n');
        else
            CHECK(bv.len > 0 && bv.data[bv.len - 1] != '\n');
        if (variants[i] & JET_WRITE_ESCAPE_SLASHES) {
            size_t bare = 0;
            for (size_t k = 0; k < bv.len; k++) bare += bv.data[k] == '/' && (!k || bv.data[k - 1] != '\\');
            CHECK_MSG(bare == 0, "%s: %zu unescaped '/' with JET_WRITE_ESCAPE_SLASHES", what, bare);
        }
        jet_od_free(o2);
        free(tv);
        jet_buf_free(&bv);
    }
    jet_doc_free(d);
    jet_od_free(o);
    free(text);
    free(back);
    free(back2);
    jet_buf_free(&b1);
}

static void test_kitchen(void) {
    Kitchen k;
    bool ok = dec_n(&kitchen_type, &k, LIT(kitchen_json), 0);
    CHECK_DEC_OK(ok);
    if (!ok) return;
    check_kitchen(&k);
    CHECK(in_input(k.s.ptr) == false); /* escaped: in the cursor's scratch */
    CHECK(in_input(k.inner.name.ptr) && in_input(k.raw.ptr));
    check_round_trip("Kitchen", &kitchen_type, &k);
    /* the same with every check enabled */
    Kitchen k2;
    jet_od *o = jet_od_new(NULL);
    jet_error e;
    ok = dec_own(o, &kitchen_type, &k2, kitchen_json, sizeof kitchen_json - 1,
                 JET_READ_VALIDATE_ALL | JET_READ_REJECT_UNKNOWN, &e);
    CHECK_MSG(ok && bind_equal(&kitchen_type, &k, &k2), "Kitchen, strict flags: %s at %s",
              ok ? "different" : jet_code_name(e.code), ok ? ostr(beq_where) : ostr(e.path));

    /* key order does not matter: a shuffled, pretty-printed copy */
    for (uint64_t seed = 1; seed <= 5; seed++) {
        size_t n = 0;
        char *sh = shuffle_doc(kitchen_json, sizeof kitchen_json - 1, seed * 0x9E3779B97F4A7C15ull, &n);
        CHECK(sh != NULL);
        if (!sh) continue;
        Kitchen ks;
        ok = dec_own(o, &kitchen_type, &ks, sh, n, JET_READ_REJECT_UNKNOWN, &e);
        CHECK_MSG(ok, "shuffled Kitchen (seed %llu): %s at %s", (unsigned long long)seed,
                  jet_code_name(e.code), ostr(e.path));
        if (ok) {
            /* the raw member is re-indented: compare it as JSON, the rest as values */
            jet_doc *ra = jet_read(k.raw.ptr, k.raw.len, NULL, NULL, NULL);
            jet_doc *rb = jet_read(ks.raw.ptr, ks.raw.len, NULL, NULL, NULL);
            CHECK(ra && rb && jet_val_equal(jet_doc_root(ra), jet_doc_root(rb)));
            jet_doc_free(ra);
            jet_doc_free(rb);
            ks.raw = k.raw;
            /* map pairs come in document order, which the shuffle changed */
            sort_pairs(&k);
            sort_pairs(&ks);
            CHECK_MSG(bind_equal(&kitchen_type, &k, &ks), "shuffled Kitchen (seed %llu) differs at %s",
                      (unsigned long long)seed, ostr(beq_where));
        }
        free(sh);
    }
    jet_od_free(o);

    /* the optional, nullable and default members the other way round */
    size_t n;
    char *v = replace_once(kitchen_json, sizeof kitchen_json - 1,
                           "\"opt\":5,\"nick\":\"nk\",\"nul\":null,\"note\":\"hello\",\"userName\":\"ada\"",
                           "\"nul\":-7,\"note\":null,\"retries\":3,\"port\":1,\"ratio\":-1.5,"
                           "\"mode\":\"slow\",\"user_name\":\"bob\"",
                           &n);
    ok = dec_n(&kitchen_type, &k, v, n, 0);
    CHECK_DEC_OK(ok);
    if (ok) {
        CHECK(!k.has_opt && k.opt == 0 && k.nick.ptr == NULL && k.nick.len == 0);
        CHECK(k.has_nul && k.nul == -7 && k.note.ptr == NULL);
        CHECK(k.retries == 3 && k.port == 1 && k.ratio == -1.5 && STR_IS(k.mode, "slow"));
        CHECK(STR_IS(k.user_name, "bob"));
        jet_buf b;
        jet_error e2;
        CHECK(enc(&b, &kitchen_type, &k, 0, &e2));
        /* absent optional members are left out; the alias is written under its key */
        jet_doc *d = jet_read(b.data, b.len, NULL, NULL, NULL);
        const jet_val *root = jet_doc_root(d);
        CHECK(d && !jet_obj_get(root, "opt") && !jet_obj_get(root, "nick"));
        CHECK(d && jet_get_sint(jet_obj_get(root, "nul")) == -7);
        CHECK(d && jet_equals_str(jet_obj_get(root, "userName"), "bob") &&
              !jet_obj_get(root, "user_name"));
        CHECK(d && jet_equals_str(jet_obj_get(root, "mode"), "slow"));
        jet_doc_free(d);
        jet_buf_free(&b);
        check_round_trip("Kitchen (variant)", &kitchen_type, &k);
    }
    free(v);
    /* a nullable member is still required */
    v = replace_once(kitchen_json, sizeof kitchen_json - 1, ",\"nul\":null", "", &n);
    CHECK_DEC_ERR(dec_n(&kitchen_type, &k, v, n, 0), JET_ERR_MISSING_FIELD, "/nul");
    free(v);
    /* a non-nullable one is not null */
    v = replace_once(kitchen_json, sizeof kitchen_json - 1, "\"opt\":5", "\"opt\":null", &n);
    CHECK_DEC_ERR(dec_n(&kitchen_type, &k, v, n, 0), JET_ERR_TYPE, "/opt");
    free(v);
}

/* ---- each composite kind on its own -------------------------------------- */

typedef struct Arrs {
    int32_t *nums;
    size_t num_count;
    IntRow *rows;
    size_t row_count;
} Arrs;
static const jet_field arrs_fields[] = {
    JET_F_ARRAY(Arrs, nums, num_count, "nums", i32_elem),
    JET_F_ARRAY(Arrs, rows, row_count, "rows", row_elem),
};
static jet_struct arrs_type = JET_STRUCT(Arrs, arrs_fields);

typedef struct Fixed {
    int32_t exact[3];
    int32_t upto[3];
    size_t upto_count;
} Fixed;
static const jet_field fixed_fields[] = {
    JET_F_FIXED_ARRAY(Fixed, exact, "exact", i32_elem),
    JET_F_FIXED_ARRAY_N(Fixed, upto, upto_count, "upto", i32_elem),
};
static jet_struct fixed_type = JET_STRUCT(Fixed, fixed_fields);

typedef struct Colors {
    int32_t c;
    uint8_t c8;
} Colors;
static const jet_field colors_fields[] = {
    JET_F_ENUM(Colors, c, "c", color_enum),
    JET_F_ENUM(Colors, c8, "c8", color_enum),
};
static jet_struct colors_type = JET_STRUCT(Colors, colors_fields);

typedef struct Maps {
    Pair *m;
    size_t n;
} Maps;
static const jet_field maps_fields[] = {JET_F_MAP(Maps, m, n, "m", pair_type)};
static jet_struct maps_type = JET_STRUCT(Maps, maps_fields);

typedef struct Unions {
    Status st;
    Shape sh;
    Cmd cmd;
} Unions;
static const jet_field unions_fields[] = {
    JET_F_UNION(Unions, st, "st", status_union),
    JET_F_UNION(Unions, sh, "sh", shape_union),
    JET_F_UNION(Unions, cmd, "cmd", cmd_union),
};
static jet_struct unions_type = JET_STRUCT(Unions, unions_fields);

typedef struct HasPoint {
    Point p;
} HasPoint;
static const jet_field has_point_fields[] = {JET_F_STRUCT(HasPoint, p, "p", point_type)};
static jet_struct has_point_type = JET_STRUCT(HasPoint, has_point_fields);

typedef struct Opts {
    int32_t a;
    jet_str s;
    bool has_x;
    int32_t x;
    bool has_n;
    jet_str n;
    uint64_t d;
} Opts;
static const jet_field opts_fields[] = {
    JET_FIELD_F(Opts, a, "a", JET_K_INT, NULL, JET_FIELD_OPTIONAL),
    JET_FIELD_F(Opts, s, "s", JET_K_STR, NULL, JET_FIELD_OPTIONAL),
    JET_F_OPT_HAS(Opts, x, has_x, "x", JET_K_INT, NULL),
    JET_FIELD_FULL(Opts, n, "n", NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE,
                   JET_NO_OFFSET, (uint32_t)offsetof(Opts, has_n), NULL),
    JET_F_DEFAULT_UINT(Opts, d, "d", 18446744073709551615ull),
};
static jet_struct opts_type = JET_STRUCT(Opts, opts_fields);

typedef struct Flag {
    bool on;
    jet_str who;
} Flag;
static const jet_field flag_fields[] = {
    {"on", NULL, JET_K_BOOL, JET_FIELD_OPTIONAL | JET_FIELD_DEFAULT, (uint32_t)offsetof(Flag, on),
     (uint32_t)sizeof(bool), JET_NO_OFFSET, JET_NO_OFFSET, NULL, {.u = 1}},
    JET_F_ALIAS(Flag, who, "who", "w", JET_K_STR, NULL),
};
static jet_struct flag_type = JET_STRUCT(Flag, flag_fields);

static void test_composites(void) {
    /* arrays, arrays of arrays */
    {
        Arrs a;
        CHECK(dec(&arrs_type, &a, "{\"nums\":[],\"rows\":[]}") && a.num_count == 0 && a.row_count == 0);
        CHECK(dec(&arrs_type, &a, "{\"rows\":[[],[5],[6,7,8]],\"nums\":[-1]}") && a.num_count == 1 &&
              a.nums[0] == -1 && a.row_count == 3 && a.rows[0].n == 0 && a.rows[1].n == 1 &&
              a.rows[1].v[0] == 5 && a.rows[2].n == 3 && a.rows[2].v[2] == 8);
        check_round_trip("Arrs", &arrs_type, &a);
        CHECK_DEC_ERR(dec(&arrs_type, &a, "{\"nums\":[1,\"x\"],\"rows\":[]}"), JET_ERR_TYPE, "/nums/1");
        CHECK_DEC_ERR(dec(&arrs_type, &a, "{\"nums\":[],\"rows\":[[1],[2,true]]}"), JET_ERR_TYPE,
                      "/rows/1/1");
        CHECK_DEC_ERR(dec(&arrs_type, &a, "{\"nums\":{},\"rows\":[]}"), JET_ERR_TYPE, "/nums");
        CHECK_DEC_ERR(dec(&arrs_type, &a, "{\"nums\":[],\"rows\":[3]}"), JET_ERR_TYPE, "/rows/0");
        CHECK_DEC_ERR(dec(&arrs_type, &a, "{\"nums\":[1 2],\"rows\":[]}"), JET_ERR_UNEXPECTED_CHAR,
                      err.path ? err.path : "?");
        CHECK(err.offset == 11);
        /* a large array (the arena grows) */
        sbuf t = {NULL, 0, 0};
        sb_puts(&t, "{\"rows\":[],\"nums\":[");
        for (int i = 0; i < 5000; i++) {
            char tmp[24];
            snprintf(tmp, sizeof tmp, "%s%d", i ? "," : "", i * 7 - 3);
            sb_puts(&t, tmp);
        }
        sb_puts(&t, "]}");
        bool ok = dec_n(&arrs_type, &a, t.p, t.n, 0);
        bool all = ok && a.num_count == 5000;
        for (int i = 0; all && i < 5000; i++) all = a.nums[i] == i * 7 - 3;
        CHECK(all);
        sb_free(&t);
    }
    /* fixed arrays: exact count, up to N with a count */
    {
        Fixed f;
        CHECK(dec(&fixed_type, &f, "{\"exact\":[1,2,3],\"upto\":[]}") && f.exact[0] == 1 &&
              f.exact[2] == 3 && f.upto_count == 0);
        CHECK(dec(&fixed_type, &f, "{\"exact\":[4,5,6],\"upto\":[9,8]}") && f.upto_count == 2 &&
              f.upto[0] == 9 && f.upto[1] == 8 && f.upto[2] == 0);
        check_round_trip("Fixed", &fixed_type, &f);
        CHECK(dec(&fixed_type, &f, "{\"exact\":[4,5,6],\"upto\":[1,2,3]}") && f.upto_count == 3);
        /* the path names the first element that does not fit */
        CHECK_DEC_ERR(dec(&fixed_type, &f, "{\"exact\":[1,2,3],\"upto\":[1,2,3,4]}"),
                      JET_ERR_TOO_LONG, "/upto/3");
        CHECK_DEC_ERR(dec(&fixed_type, &f, "{\"exact\":[1,2,3,4],\"upto\":[]}"), JET_ERR_TOO_LONG,
                      "/exact/3");
        CHECK(!dec(&fixed_type, &f, "{\"exact\":[1,2],\"upto\":[]}") && err.code != JET_OK &&
              path_starts("/exact"));
        CHECK_DEC_ERR(dec(&fixed_type, &f, "{\"exact\":[1,2,\"3\"],\"upto\":[]}"), JET_ERR_TYPE,
                      "/exact/2");
    }
    /* enums */
    {
        Colors c;
        CHECK(dec(&colors_type, &c, "{\"c\":\"blue\",\"c8\":\"red\"}") && c.c == 2 && c.c8 == 0);
        CHECK(dec(&colors_type, &c, "{\"c8\":\"green\",\"c\":\"green\"}") && c.c == 1 && c.c8 == 1);
        check_round_trip("Colors", &colors_type, &c);
        jet_buf b;
        CHECK(enc(&b, &colors_type, &c, 0, NULL) &&
              strcmp(b.data, "{\"c\":\"green\",\"c8\":\"green\"}") == 0);
        jet_buf_free(&b);
        CHECK_DEC_ERR(dec(&colors_type, &c, "{\"c\":\"purple\",\"c8\":\"red\"}"), JET_ERR_BAD_TAG, "/c");
        CHECK_DEC_ERR(dec(&colors_type, &c, "{\"c\":\"Red\",\"c8\":\"red\"}"), JET_ERR_BAD_TAG, "/c");
        CHECK_DEC_ERR(dec(&colors_type, &c, "{\"c\":\"red\",\"c8\":\"\"}"), JET_ERR_BAD_TAG, "/c8");
        CHECK_DEC_ERR(dec(&colors_type, &c, "{\"c\":1,\"c8\":\"red\"}"), JET_ERR_TYPE, "/c");
        /* out of range on the way out */
        c.c = 3;
        jet_error e;
        CHECK(!enc(&b, &colors_type, &c, 0, &e) && e.code != JET_OK);
        jet_buf_free(&b);
        c.c = -1;
        CHECK(!enc(&b, &colors_type, &c, 0, &e) && e.code != JET_OK);
        jet_buf_free(&b);
    }
    /* maps */
    {
        Maps m;
        CHECK(dec(&maps_type, &m, "{\"m\":{}}") && m.n == 0);
        CHECK(dec(&maps_type, &m, "{\"m\":{\"b\":2,\"a\":1,\"\\u00e9\":3,\"\":4}}") && m.n == 4 &&
              STR_IS(m.m[0].key, "b") && m.m[0].value == 2 && STR_IS(m.m[1].key, "a") &&
              STR_IS(m.m[2].key, "\xc3\xa9") && m.m[2].value == 3 && STR_IS(m.m[3].key, "") &&
              m.m[3].value == 4);
        check_round_trip("Maps", &maps_type, &m);
        jet_buf b;
        CHECK(enc(&b, &maps_type, &m, 0, NULL) &&
              strcmp(b.data, "{\"m\":{\"b\":2,\"a\":1,\"\xc3\xa9\":3,\"\":4}}") == 0);
        jet_buf_free(&b);
        CHECK_DEC_ERR(dec(&maps_type, &m, "{\"m\":{\"a\":1,\"b\":\"x\"}}"), JET_ERR_TYPE, "/m/b");
        CHECK_DEC_ERR(dec(&maps_type, &m, "{\"m\":[1]}"), JET_ERR_TYPE, "/m");
    }
    /* unions in the three styles */
    {
        Unions u;
        CHECK(dec(&unions_type, &u,
                  "{\"st\":{\"Delivered\":{\"at\":1700000000123}},\"sh\":{\"type\":\"rect\",\"w\":1.5,"
                  "\"h\":2},\"cmd\":[\"say\",\"hi\"]}") &&
              u.st.tag == ST_DELIVERED && u.st.as.d.at == 1700000000123 && u.sh.kind == SH_RECT &&
              u.sh.as.r.w == 1.5 && u.sh.as.r.h == 2 && u.cmd.op == CMD_SAY &&
              STR_IS(u.cmd.as.s.text, "hi"));
        check_round_trip("Unions 1", &unions_type, &u);
        /* the tag member anywhere; variants without payload */
        CHECK(dec(&unions_type, &u,
                  "{\"cmd\":[\"stop\"],\"st\":\"Pending\",\"sh\":{\"w\":3,\"h\":4,\"type\":\"rect\"}}") &&
              u.st.tag == ST_PENDING && u.sh.kind == SH_RECT && u.sh.as.r.w == 3 &&
              u.sh.as.r.h == 4 && u.cmd.op == CMD_STOP);
        check_round_trip("Unions 2", &unions_type, &u);
        jet_buf b;
        bool e = enc(&b, &unions_type, &u, 0, NULL);
        CHECK(e && strstr(b.data, "\"st\":\"Pending\"") != NULL &&
              strstr(b.data, "\"cmd\":[\"stop\"]") != NULL);
        if (e) {
            jet_doc *d = jet_read(b.data, b.len, NULL, NULL, NULL);
            const jet_val *sh = jet_obj_get(jet_doc_root(d), "sh");
            CHECK(jet_equals_str(jet_obj_get(sh, "type"), "rect") && jet_obj_size(sh) == 3);
            jet_doc_free(d);
        }
        jet_buf_free(&b);
        CHECK(dec(&unions_type, &u,
                  "{\"st\":{\"Shipped\":{\"carrier\":\"UPS\",\"tracking\":\"1Z\"}},\"sh\":{\"type\":"
                  "\"dot\"},\"cmd\":[\"move\",-1,2]}") &&
              u.st.tag == ST_SHIPPED && STR_IS(u.st.as.s.carrier, "UPS") && u.sh.kind == SH_DOT &&
              u.cmd.op == CMD_MOVE && u.cmd.as.m.x == -1 && u.cmd.as.m.y == 2);
        check_round_trip("Unions 3", &unions_type, &u);
        CHECK(dec_n(&unions_type, &u,
                    LIT("{\"st\":\"Pending\",\"sh\":{\"r\":1,\"type\":\"circle\"},\"cmd\":[\"stop\"]}"),
                    JET_READ_REJECT_UNKNOWN) &&
              u.sh.kind == SH_CIRCLE && u.sh.as.c.r == 1);
        /* unknown tags */
        CHECK(!dec(&unions_type, &u, "{\"st\":{\"Lost\":{}},\"sh\":{\"type\":\"dot\"},\"cmd\":[\"stop\"]}"));
        CHECK_MSG(err.code == JET_ERR_BAD_TAG && path_starts("/st"), "%s %s",
                  jet_code_name(err.code), ostr(err.path));
        CHECK(!dec(&unions_type, &u, "{\"st\":\"Lost\",\"sh\":{\"type\":\"dot\"},\"cmd\":[\"stop\"]}"));
        CHECK_MSG(err.code == JET_ERR_BAD_TAG && path_starts("/st"), "%s %s",
                  jet_code_name(err.code), ostr(err.path));
        CHECK(!dec(&unions_type, &u, "{\"st\":\"Pending\",\"sh\":{\"type\":\"oval\"},\"cmd\":[\"stop\"]}"));
        CHECK_MSG(err.code == JET_ERR_BAD_TAG && path_starts("/sh"), "%s %s",
                  jet_code_name(err.code), ostr(err.path));
        CHECK(!dec(&unions_type, &u, "{\"st\":\"Pending\",\"sh\":{\"type\":\"dot\"},\"cmd\":[\"jump\",1]}"));
        CHECK_MSG(err.code == JET_ERR_BAD_TAG && path_starts("/cmd"), "%s %s",
                  jet_code_name(err.code), ostr(err.path));
        /* the internal tag member missing; a wrong payload */
        CHECK(!dec(&unions_type, &u, "{\"st\":\"Pending\",\"sh\":{\"r\":1},\"cmd\":[\"stop\"]}") &&
              err.code != JET_OK && path_starts("/sh"));
        CHECK_DEC_ERR(dec(&unions_type, &u,
                          "{\"st\":{\"Delivered\":{\"at\":\"x\"}},\"sh\":{\"type\":\"dot\"},"
                          "\"cmd\":[\"stop\"]}"),
                      JET_ERR_TYPE, "/st/Delivered/at");
        CHECK_DEC_ERR(dec(&unions_type, &u,
                          "{\"st\":\"Pending\",\"sh\":{\"type\":\"dot\"},\"cmd\":[\"move\",1,\"2\"]}"),
                      JET_ERR_TYPE, "/cmd/2");
        /* an array union without its tag: valid JSON, so a type error, not a syntax one */
        CHECK_DEC_ERR(dec(&unions_type, &u, "{\"st\":\"Pending\",\"sh\":{\"type\":\"dot\"},\"cmd\":[]}"),
                      JET_ERR_TYPE, "/cmd");
        CHECK_DEC_ERR(dec(&unions_type, &u, "{\"st\":\"Pending\",\"sh\":{\"type\":\"dot\"},\"cmd\":[ ]}"),
                      JET_ERR_TYPE, "/cmd");
        CHECK_DEC_ERR(dec(&unions_type, &u, "{\"st\":\"Pending\",\"sh\":{\"type\":\"dot\"},\"cmd\":[,]}"),
                      JET_ERR_UNEXPECTED_CHAR, "/cmd/0");
        /* a tag out of range on the way out */
        CHECK(dec(&unions_type, &u, "{\"st\":\"Pending\",\"sh\":{\"type\":\"dot\"},\"cmd\":[\"stop\"]}"));
        u.st.tag = 3;
        jet_error e2;
        CHECK(!enc(&b, &unions_type, &u, 0, &e2) && e2.code != JET_OK);
        jet_buf_free(&b);
        u.st.tag = ST_PENDING;
        u.cmd.op = -1;
        CHECK(!enc(&b, &unions_type, &u, 0, &e2) && e2.code != JET_OK);
        jet_buf_free(&b);
    }
    /* positional tuples, nested and at the root */
    {
        HasPoint hp;
        CHECK(dec(&has_point_type, &hp, "{\"p\":[ 4 , -5 , \"lbl\" ]}") && hp.p.x == 4 &&
              hp.p.y == -5 && STR_IS(hp.p.label, "lbl"));
        jet_buf b;
        CHECK(enc(&b, &has_point_type, &hp, 0, NULL) &&
              strcmp(b.data, "{\"p\":[4,-5,\"lbl\"]}") == 0);
        jet_buf_free(&b);
        check_round_trip("HasPoint", &has_point_type, &hp);
        CHECK(!dec(&has_point_type, &hp, "{\"p\":[4,-5]}") && err.code != JET_OK &&
              path_starts("/p"));
        CHECK_DEC_ERR(dec(&has_point_type, &hp, "{\"p\":[4,\"x\",\"l\"]}"), JET_ERR_TYPE, "/p/1");
        CHECK_DEC_ERR(dec(&has_point_type, &hp, "{\"p\":{\"x\":4}}"), JET_ERR_TYPE, "/p");
        Point p;
        CHECK(dec(&point_type, &p, "[7,8,\"root\"]") && p.x == 7 && p.y == 8 &&
              STR_IS(p.label, "root"));
        CHECK(enc(&b, &point_type, &p, 0, NULL) && strcmp(b.data, "[7,8,\"root\"]") == 0);
        jet_buf_free(&b);
        CHECK_DEC_ERR(dec(&point_type, &p, "{\"x\":1}"), JET_ERR_TYPE, "");
    }
    /* optional fields: absent, present, null; defaults; zeroing */
    {
        Opts o;
        CHECK(dec(&opts_type, &o, "{}"));
        CHECK(o.a == 0 && o.s.ptr == NULL && o.s.len == 0 && !o.has_x && o.x == 0 && !o.has_n &&
              o.n.ptr == NULL && o.d == UINT64_MAX);
        jet_buf b;
        CHECK(enc(&b, &opts_type, &o, 0, NULL));
        jet_doc *d = jet_read(b.data, b.len, NULL, NULL, NULL);
        const jet_val *root = jet_doc_root(d);
        CHECK(d && !jet_obj_get(root, "s") && !jet_obj_get(root, "x") &&
              jet_get_uint(jet_obj_get(root, "d")) == UINT64_MAX);
        jet_doc_free(d);
        jet_buf_free(&b);
        check_round_trip("Opts (empty)", &opts_type, &o);
        CHECK(dec(&opts_type, &o, "{\"x\":0,\"a\":3,\"s\":\"\",\"n\":\"nn\",\"d\":0}") && o.has_x &&
              o.x == 0 && o.a == 3 && o.s.ptr && o.s.len == 0 && o.has_n && STR_IS(o.n, "nn") &&
              o.d == 0);
        check_round_trip("Opts (full)", &opts_type, &o);
        CHECK(dec(&opts_type, &o, "{\"n\":null}") && !o.has_n && o.n.ptr == NULL);
        check_round_trip("Opts (null)", &opts_type, &o);
        CHECK_DEC_ERR(dec(&opts_type, &o, "{\"x\":null}"), JET_ERR_TYPE, "/x");
        CHECK_DEC_ERR(dec(&opts_type, &o, "{\"a\":\"1\"}"), JET_ERR_TYPE, "/a");
        /* the root must be an object */
        CHECK_DEC_ERR(dec(&opts_type, &o, "[]"), JET_ERR_TYPE, "");
        CHECK_DEC_ERR(dec(&opts_type, &o, "null"), JET_ERR_TYPE, "");
        /* a boolean default; an alias */
        Flag f;
        CHECK(dec(&flag_type, &f, "{\"who\":\"x\"}") && f.on && STR_IS(f.who, "x"));
        CHECK(dec(&flag_type, &f, "{\"w\":\"y\",\"on\":false}") && !f.on && STR_IS(f.who, "y"));
        CHECK(enc(&b, &flag_type, &f, 0, NULL) && strcmp(b.data, "{\"on\":false,\"who\":\"y\"}") == 0);
        jet_buf_free(&b);
        CHECK_DEC_ERR(dec(&flag_type, &f, "{\"on\":true}"), JET_ERR_MISSING_FIELD, "/who");
    }
}

/* ---- the encoder on its own -------------------------------------------------- */

typedef struct Plain {
    bool b;
    int32_t i;
    uint64_t u;
    double d;
    jet_str s;
    char fx[6];
    jet_str r;
    int32_t color;
    Status st;
} Plain;
static const jet_field plain_fields[] = {
    JET_F_BOOL(Plain, b, "b"),       JET_F_INT(Plain, i, "i"),
    JET_F_UINT(Plain, u, "u"),       JET_F_F64(Plain, d, "d"),
    JET_F_STR(Plain, s, "s"),        JET_F_STR_FIXED(Plain, fx, "fx"),
    JET_F_RAW(Plain, r, "r"),        JET_F_ENUM(Plain, color, "color", color_enum),
    JET_F_UNION(Plain, st, "st", status_union),
};
static jet_struct plain_type = JET_STRUCT(Plain, plain_fields);

static void test_encode(void) {
    Plain p;
    memset(&p, 0, sizeof p);
    p.b = true;
    p.i = -7;
    p.u = UINT64_MAX;
    p.d = 2.0;
    p.s.ptr = "q\"\\\n/\xc3\xa9";
    p.s.len = 7;
    memcpy(p.fx, "abc", 4);
    p.r.ptr = "[1, 2]";
    p.r.len = 6;
    p.color = 2;
    p.st.tag = ST_SHIPPED;
    p.st.as.s.tracking.ptr = "T";
    p.st.as.s.tracking.len = 1;
    p.st.as.s.carrier.ptr = "C";
    p.st.as.s.carrier.len = 1;
    static const char want[] =
        "{\"b\":true,\"i\":-7,\"u\":18446744073709551615,\"d\":2.0,\"s\":\"q\\\"\\\\\\n/\xc3\xa9\","
        "\"fx\":\"abc\",\"r\":[1, 2],\"color\":\"blue\",\"st\":{\"Shipped\":{\"tracking\":\"T\","
        "\"carrier\":\"C\"}}}";
    jet_buf b;
    jet_error e;
    bool ok = enc(&b, &plain_type, &p, 0, &e);
    CHECK_MSG(ok && b.len == sizeof want - 1 && strcmp(b.data, want) == 0, "encoded:\n  %s\nwant\n  %s",
              ok ? b.data : jet_code_name(e.code), want);
    /* appending: a second encode goes after the first; len = 0 reuses */
    size_t first = b.len;
    CHECK(jet_encode(&b, &plain_type, &p, 0, &e) && b.len == 2 * first &&
          memcmp(b.data + first, want, first) == 0 && b.data[b.len] == '\0');
    b.len = 0;
    CHECK(jet_encode(&b, &plain_type, &p, JET_WRITE_NEWLINE_AT_END, &e) && b.len == first + 1 &&
          memcmp(b.data, want, first) == 0 && b.data[first] == '\n');
    b.len = 0;
    CHECK(jet_encode(&b, &plain_type, &p, JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES, &e) &&
          strstr(b.data, "\"q\\\"\\\\\\n\\/\\u00e9\"") != NULL);
    /* pretty output: the same document as the minified one */
    b.len = 0;
    CHECK(jet_encode(&b, &plain_type, &p, JET_WRITE_INDENT(3), &e) && strchr(b.data, '\n'));
    jet_doc *d1 = jet_read(want, sizeof want - 1, NULL, NULL, NULL);
    jet_doc *d2 = jet_read(b.data, b.len, NULL, NULL, NULL);
    CHECK(d1 && d2 && jet_val_equal(jet_doc_root(d1), jet_doc_root(d2)));
    CHECK(b.len > 4 && memcmp(b.data, "{\n   \"b\"", 8) == 0);
    jet_doc_free(d1);
    jet_doc_free(d2);
    /* non-finite doubles */
    p.d = NAN;
    b.len = 0;
    CHECK(!jet_encode(&b, &plain_type, &p, 0, &e) && e.code == JET_ERR_NAN_INF);
    b.len = 0;
    CHECK(jet_encode(&b, &plain_type, &p, JET_WRITE_ALLOW_NAN_INF, &e) &&
          strstr(b.data, "\"d\":NaN") != NULL);
    p.d = -INFINITY;
    b.len = 0;
    CHECK(!jet_encode(&b, &plain_type, &p, 0, &e) && e.code == JET_ERR_NAN_INF);
    b.len = 0;
    CHECK(jet_encode(&b, &plain_type, &p, JET_WRITE_ALLOW_NAN_INF, &e) &&
          strstr(b.data, "\"d\":-Infinity") != NULL);
    p.d = -0.0;
    b.len = 0;
    CHECK(jet_encode(&b, &plain_type, &p, 0, &e) && strstr(b.data, "\"d\":-0.0") != NULL);
    jet_buf_free(&b);
}

/* ---- policies ------------------------------------------------------------- */

/* An externally tagged union member whose variants have no payload
 * (skipped: any value) next to one with. */
typedef struct OmStatus {
    int32_t tag;
    union {
        ApiProcessing processing;
    } as;
} OmStatus;
typedef struct OrderMsg {
    int64_t id;
    OmStatus status;
} OrderMsg;
static const char *const om_status_names[] = {"Open", "Processing", "Closed", "Cancelled"};
static jet_struct *const om_status_variants[] = {NULL, &api_processing_type, NULL, NULL};
static const jet_union om_status_union = {JET_UNION_EXTERNAL, NULL, (uint32_t)offsetof(OmStatus, tag),
                                          (uint32_t)offsetof(OmStatus, as), 4, om_status_names,
                                          om_status_variants};
static const jet_field order_msg_fields[] = {
    JET_F_INT(OrderMsg, id, "id"),
    JET_F_UNION(OrderMsg, status, "status", om_status_union),
};
static jet_struct order_msg_type = JET_STRUCT(OrderMsg, order_msg_fields);

static void test_policies(void) {
    /* unknown members: skipped, or rejected with their path */
    Kitchen k;
    size_t n;
    char *v = replace_once(kitchen_json, sizeof kitchen_json - 1, "\"i16\":32767,",
                           "\"i16\":32767,\"zz\":[1,{\"q\":[2,\"]\"]}],", &n);
    CHECK_DEC_OK(dec_n(&kitchen_type, &k, v, n, 0));
    check_kitchen(&k);
    CHECK_DEC_ERR(dec_n(&kitchen_type, &k, v, n, JET_READ_REJECT_UNKNOWN), JET_ERR_UNKNOWN_FIELD,
                  "/zz");
    free(v);
    v = replace_once(kitchen_json, sizeof kitchen_json - 1, "{\"ok\":false,\"name\":\"b\"}",
                     "{\"ok\":false,\"x~/\":1,\"name\":\"b\"}", &n);
    CHECK_DEC_OK(dec_n(&kitchen_type, &k, v, n, 0));
    CHECK_DEC_ERR(dec_n(&kitchen_type, &k, v, n, JET_READ_REJECT_UNKNOWN), JET_ERR_UNKNOWN_FIELD,
                  "/inners/1/x~0~1");
    free(v);

    /* ApiResponse: missing, mistyped and unknown members, deep down */
    ApiResponse r;
    CHECK_DEC_OK(dec_n(&api_response_type, &r, api_sample_json, API_SAMPLE_LEN,
                       JET_READ_REJECT_UNKNOWN | JET_READ_VALIDATE_ALL));
    v = replace_once(api_sample_json, API_SAMPLE_LEN, ",\"zip\":\"SW1Y 4JH\"", "", &n);
    CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, 0), JET_ERR_MISSING_FIELD, "/user/address/zip");
    free(v);
    v = replace_once(api_sample_json, API_SAMPLE_LEN, ",\"price\":24.99}", "}", &n);
    CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, 0), JET_ERR_MISSING_FIELD,
                  "/orders/0/items/0/price");
    free(v);
    v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"requestId\":", "\"requestID\":", &n);
    CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, 0), JET_ERR_MISSING_FIELD, "/requestId");
    free(v);
    v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"age\":36", "\"age\":\"36\"", &n);
    CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, 0), JET_ERR_TYPE, "/user/age");
    free(v);
    v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"quantity\":2,", "\"quantity\":2.5,", &n);
    CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, 0), JET_ERR_TYPE, "/orders/0/items/0/quantity");
    free(v);
    v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"newsletter\"]", "\"newsletter\",7]", &n);
    CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, 0), JET_ERR_TYPE, "/user/tags/4");
    free(v);
    v = replace_once(api_sample_json, API_SAMPLE_LEN, "{\"id\":1002,", "{\"id\":1002,\"extra\":{},", &n);
    CHECK_DEC_OK(dec_n(&api_response_type, &r, v, n, 0));
    CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, JET_READ_REJECT_UNKNOWN),
                  JET_ERR_UNKNOWN_FIELD, "/orders/1/extra");
    free(v);
    v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"Shipped\"", "\"Lost\"", &n);
    CHECK(!dec_n(&api_response_type, &r, v, n, 0) && err.code == JET_ERR_BAD_TAG &&
          path_starts("/orders/1/status"));
    free(v);
    /* an externally tagged union as a member (the member loop's own path
     * for its tag): escaped and unknown tags, a second member, an empty
     * object, a payload of the wrong type, a variant without payload */
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags fl = lazy ? JET_READ_LAZY : 0;
        v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"Shipped\"", "\"Sh\\u0069pped\"", &n);
        CHECK_DEC_OK(dec_n(&api_response_type, &r, v, n, fl));
        CHECK(r.order_count == 3 && r.orders[1].status.tag == API_SHIPPED &&
              STR_IS(r.orders[1].status.as.shipped.carrier, "UPS") && r.orders[2].status.tag == API_PROCESSING &&
              r.orders[2].status.as.processing.estimatedDays == 3 && r.orders[0].status.tag == API_DELIVERED);
        free(v);
        v = replace_once(api_sample_json, API_SAMPLE_LEN, "{\"estimatedDays\":3}}", "{\"estimatedDays\":3},\"x\":1}",
                         &n);
        CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, fl), JET_ERR_UNEXPECTED_CHAR, "/orders/2/status/x");
        free(v);
        v = replace_once(api_sample_json, API_SAMPLE_LEN, "{\"Processing\":{\"estimatedDays\":3}}", "{}", &n);
        CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, fl), JET_ERR_BAD_TAG, "/orders/2/status");
        free(v);
        v = replace_once(api_sample_json, API_SAMPLE_LEN, "{\"estimatedDays\":3}", "3", &n);
        CHECK(!dec_n(&api_response_type, &r, v, n, fl) && err.code == JET_ERR_TYPE &&
              path_starts("/orders/2/status") && err_position_ok());
        free(v);
        v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"Processing\":{", "\"Processing\"{", &n);
        CHECK(!dec_n(&api_response_type, &r, v, n, fl) && err.code == JET_ERR_UNEXPECTED_CHAR &&
              err_position_ok());
        free(v);
        v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"Processing\":{\"estimatedDays\":3}", "\"Lost\":{}", &n);
        CHECK_DEC_ERR(dec_n(&api_response_type, &r, v, n, fl), JET_ERR_BAD_TAG, "/orders/2/status/Lost");
        free(v);
    }
    OrderMsg om;
    CHECK_DEC_OK(dec(&order_msg_type, &om, "{\"id\":5,\"status\":{\"Cancelled\":[1,{\"a\":[]}]}}"));
    CHECK(om.id == 5 && om.status.tag == 3);
    CHECK_DEC_OK(dec(&order_msg_type, &om, "{\"status\":{\"Processing\":{\"estimatedDays\":4}},\"id\":6}"));
    CHECK(om.id == 6 && om.status.tag == 1 && om.status.as.processing.estimatedDays == 4);
    CHECK_DEC_ERR(dec(&order_msg_type, &om, "{\"id\":5,\"status\":{\"Closed\":[1,}}"), JET_ERR_UNEXPECTED_CHAR,
                  "/status/Closed/1");
    CHECK_DEC_ERR(dec(&order_msg_type, &om, "{\"id\":5,\"status\":{\"Cancelled\":[1,{\"a\":[]}],\"y\":2}}"),
                  JET_ERR_UNEXPECTED_CHAR, "/status/y");
    /* a syntax error deep down, with its line and column */
    v = replace_once(api_sample_json, API_SAMPLE_LEN, "\"carrier\":\"UPS\"", "\"carrier\":\"UPS\"\n ]",
                     &n);
    CHECK(!dec_n(&api_response_type, &r, v, n, 0) && err.code == JET_ERR_UNEXPECTED_CHAR &&
          err.line == 2 && err.column == 2 && err_position_ok());
    free(v);

    /* duplicate keys: one rule for every kind (an error by default; the
     * flags' first and last wins; test_strict has the rest) */
    OneI32 oi;
    OneStr os;
    CHECK_DEC_ERR(dec(&OneI32_type, &oi, "{\"v\":1,\"v\":2}"), JET_ERR_DUPLICATE_KEY, "/v");
    CHECK_DEC_ERR(dec(&OneStr_type, &os, "{\"v\":\"first\",\"v\":\"second\"}"), JET_ERR_DUPLICATE_KEY, "/v");
    CHECK(dec_n(&OneI32_type, &oi, LIT("{\"v\":1,\"v\":2}"), JET_READ_DUPLICATE_FIRST) && oi.v == 1);
    CHECK(dec_n(&OneStr_type, &os, LIT("{\"v\":\"first\",\"v\":\"second\"}"), JET_READ_DUPLICATE_FIRST) &&
          STR_IS(os.v, "first"));
    CHECK(dec_n(&OneI32_type, &oi, LIT("{\"v\":1,\"v\":2}"), JET_READ_DUPLICATE_LAST) && oi.v == 2);
    CHECK(dec_n(&OneStr_type, &os, LIT("{\"v\":\"first\",\"v\":\"second\"}"), JET_READ_DUPLICATE_LAST) &&
          STR_IS(os.v, "second"));
    Maps m;
    CHECK(dec(&maps_type, &m, "{\"m\":{\"a\":1,\"a\":2}}") && (m.n == 1 || m.n == 2));
    printf("test_bind: a map with a duplicate key keeps %zu pair(s)\n", m.n);

    /* truncated: every prefix fails cleanly, with a position inside the prefix */
    static const struct {
        const char *name;
        jet_struct *type;
        const char *json;
        size_t len;
    } docs[] = {
        {"api_sample", &api_response_type, api_sample_json, API_SAMPLE_LEN},
        {"kitchen", &kitchen_type, kitchen_json, sizeof kitchen_json - 1},
    };
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        size_t accepted = 0, badpos = 0;
        void *out = check_xmalloc(docs[d].type->size);
        for (size_t len = 0; len < docs[d].len; len++) {
            if (dec_n(docs[d].type, out, docs[d].json, len, 0)) accepted++;
            else if (err.code == JET_OK || !err_position_ok()) badpos++;
            if (len % 7 == 0) { /* and with every check */
                if (dec_n(docs[d].type, out, docs[d].json, len,
                          JET_READ_VALIDATE_ALL | JET_READ_REJECT_UNKNOWN))
                    accepted++;
                else if (err.code == JET_OK || !err_position_ok())
                    badpos++;
            }
        }
        CHECK_MSG(accepted == 0 && badpos == 0, "%s: %zu prefixes accepted, %zu bad errors",
                  docs[d].name, accepted, badpos);
        CHECK(dec_n(docs[d].type, out, docs[d].json, docs[d].len, 0));
        free(out);
    }
    /* trailing content */
    OneI32 t;
    CHECK_DEC_ERR(dec(&OneI32_type, &t, "{\"v\":1} x"), JET_ERR_TRAILING_CONTENT, err.path ? err.path : "?");
    CHECK(err.offset == 8);
    CHECK(dec(&OneI32_type, &t, " {\"v\":1}\n\n") && t.v == 1);
    CHECK(!dec(&OneI32_type, &t, "") && err.code == JET_ERR_EMPTY);
    /* brackets that do not match, read or skipped */
    CHECK_DEC_ERR(dec(&OneI32_type, &t, "{\"v\":1]"), JET_ERR_UNEXPECTED_CHAR, "");
    CHECK(err.offset == 6);
    CHECK_DEC_ERR(dec(&OneI32_type, &t, "{\"v\":[1]}"), JET_ERR_TYPE, "/v");
    Arrs ar;
    CHECK_DEC_ERR(dec(&arrs_type, &ar, "{\"nums\":[1,2},\"rows\":[]}"), JET_ERR_UNEXPECTED_CHAR,
                  "/nums");
    CHECK_MSG(err.offset == 12, "offset %zu", err.offset);
    /* in a skipped member only VALIDATE_ALL promises to look */
    CHECK(!dec_n(&OneI32_type, &t, LIT("{\"zz\":{\"c\":[1,2}},\"v\":1}"), JET_READ_VALIDATE_ALL) &&
          err.code == JET_ERR_UNEXPECTED_CHAR);
    /* a malformed table */
    typedef struct Bad {
        char x[3];
    } Bad;
    static const jet_field bad_fields[] = {JET_F_INT(Bad, x, "x")};
    static jet_struct bad_type = JET_STRUCT(Bad, bad_fields);
    CHECK(!jet_struct_prepare(&bad_type));
    CHECK(!jet_struct_prepare(&bad_type)); /* and it stays malformed */
    Bad bad;
    CHECK(!dec(&bad_type, &bad, "{\"x\":1}") && err.code != JET_OK);
    CHECK(!dec(&bad_type, &bad, "{\"x\":1}") && err.code != JET_OK);
    CHECK(jet_struct_prepare(&kitchen_type) && jet_struct_prepare(&api_response_type) &&
          jet_struct_prepare(&nostr_message_type) && jet_struct_prepare(&tw_timeline_type));
}

/* ---- the example workloads ------------------------------------------------- */

static void test_api_sample(void) {
    ApiResponse r;
    bool ok = dec_n(&api_response_type, &r, api_sample_json, API_SAMPLE_LEN, 0);
    CHECK_DEC_OK(ok);
    if (!ok) return;
    CHECK(r.user.id == 123456789 && STR_IS(r.user.name, "Ada Lovelace") && r.user.age == 36 &&
          r.user.active && STR_IS(r.user.address.zip, "SW1Y 4JH") && r.user.tag_count == 4 &&
          STR_IS(r.user.tags[3], "newsletter") && r.user.has_phone &&
          STR_IS(r.user.phone, "+44 20 7946 0958") && !r.user.has_bio);
    CHECK(r.order_count == 3 && r.orders[0].item_count == 4 && r.orders[1].item_count == 3 &&
          r.orders[2].item_count == 3);
    CHECK(r.orders[0].items[1].price == 49.5 && STR_IS(r.orders[0].items[1].name, "USB-C Hub \"7-in-1\""));
    CHECK(r.orders[0].status.tag == API_DELIVERED &&
          r.orders[0].status.as.delivered.deliveredAt == 1700000000123);
    CHECK(r.orders[1].status.tag == API_SHIPPED &&
          STR_IS(r.orders[1].status.as.shipped.trackingNumber, "1Z999AA10123456784"));
    CHECK(r.orders[2].status.tag == API_PROCESSING &&
          r.orders[2].status.as.processing.estimatedDays == 3);
    CHECK(STR_IS(r.requestId, "req-7f3e2a9c-4b1d-4e8a-9c3f-2d6b8e1a5f70") &&
          r.timestamp == 1700000123456);
    /* re-encoded byte for byte */
    jet_buf b;
    jet_error e;
    ok = enc(&b, &api_response_type, &r, 0, &e);
    size_t at = 0;
    while (ok && at < b.len && at < API_SAMPLE_LEN && b.data[at] == api_sample_json[at]) at++;
    CHECK_MSG(ok && b.len == API_SAMPLE_LEN && at == API_SAMPLE_LEN,
              "ApiResponse re-encoded differs at byte %zu: ...%.40s", at, ok ? b.data + at : "-");
    if (ok) jet_buf_free(&b);
    check_round_trip("ApiResponse", &api_response_type, &r);
    /* shuffled and pretty-printed: the same value */
    jet_od *o = jet_od_new(NULL);
    for (uint64_t seed = 1; seed <= 8; seed++) {
        size_t n = 0;
        char *sh = shuffle_doc(api_sample_json, API_SAMPLE_LEN, seed * 0x2545F4914F6CDD1Dull, &n);
        ApiResponse rs;
        bool oks = sh && dec_own(o, &api_response_type, &rs, sh, n, JET_READ_REJECT_UNKNOWN, &e);
        CHECK_MSG(oks && bind_equal(&api_response_type, &r, &rs), "shuffled ApiResponse (seed %llu): %s",
                  (unsigned long long)seed, oks ? ostr(beq_where) : jet_code_name(e.code));
        free(sh);
    }
    jet_od_free(o);
}

static void test_nostr(void) {
    size_t len = 0;
    char *nd = read_shared("corpora/nostr_relay.ndjson", &len);
    CHECK(nd != NULL);
    if (!nd) return;
    size_t counts[4] = {0, 0, 0, 0}, lines = 0, other = 0, mismatch = 0;
    jet_od *o = jet_od_new(NULL);
    for (char *p = nd, *end = nd + len; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n) {
            lines++;
            NostrMessage msg;
            bool ok = dec_n(&nostr_message_type, &msg, p, n, 0);
            CHECK_MSG(ok, "nostr line %zu: %s at %zu (%s)", lines, jet_code_name(err.code),
                      err.offset, ostr(err.path));
            jet_doc *d = jet_read(p, n, NULL, NULL, NULL);
            const jet_val *root = jet_doc_root(d);
            if (ok && msg.env.type >= 0 && msg.env.type < 4) {
                counts[msg.env.type]++;
                if (!jet_equals_str(jet_arr_get(root, 0), nostr_envelope_names[msg.env.type]))
                    mismatch++;
            } else {
                other++;
            }
            if (ok && msg.env.type == NOSTR_EVENT) {
                const NostrEvent *ev = &msg.env.as.event.event;
                const jet_val *je = jet_arr_get(root, 2);
                size_t tags = jet_arr_size(jet_obj_get(je, "tags"));
                const jet_val *c = jet_obj_get(je, "content");
                bool same = jet_equals_strn(jet_obj_get(je, "id"), ev->id.ptr, ev->id.len) &&
                            jet_equals_strn(jet_obj_get(je, "sig"), ev->sig.ptr, ev->sig.len) &&
                            jet_equals_strn(c, ev->content.ptr, ev->content.len) &&
                            jet_get_uint(jet_obj_get(je, "kind")) == ev->kind &&
                            jet_get_uint(jet_obj_get(je, "created_at")) == ev->created_at &&
                            tags == ev->tag_count &&
                            jet_equals_strn(jet_arr_get(root, 1), msg.env.as.event.sub_id.ptr,
                                            msg.env.as.event.sub_id.len);
                for (size_t t = 0; same && t < tags; t++) {
                    const jet_val *jt = jet_arr_get(jet_obj_get(je, "tags"), t);
                    same = jet_arr_size(jt) == ev->tags[t].count;
                    for (size_t i = 0; same && i < ev->tags[t].count; i++)
                        same = jet_equals_strn(jet_arr_get(jt, i), ev->tags[t].items[i].ptr,
                                               ev->tags[t].items[i].len);
                }
                if (!same) mismatch++;
                /* encoded: every member of the event as in the input */
                jet_buf b;
                if (enc(&b, &nostr_message_type, &msg, 0, NULL)) {
                    jet_doc *d2 = jet_read(b.data, b.len, NULL, NULL, NULL);
                    const jet_val *e2 = jet_arr_get(jet_doc_root(d2), 2);
                    jet_obj_iter it = jet_obj_iter_init(je);
                    bool all = d2 && jet_arr_size(jet_doc_root(d2)) == 3 &&
                               jet_obj_size(e2) == jet_obj_size(je);
                    for (jet_val *k; all && (k = jet_obj_iter_next(&it));)
                        all = jet_val_equal(jet_obj_iter_value(k),
                                            jet_obj_getn(e2, jet_get_str(k), jet_get_len(k)));
                    if (!all) mismatch++;
                    jet_doc_free(d2);
                    jet_buf_free(&b);
                } else {
                    mismatch++;
                }
                /* jet_odv_decode on the event inside the message */
                jet_odv r, v;
                jet_od_iter it2;
                NostrEvent ev2;
                if (jet_od_start(o, cur, cur_len, NULL, &r) && jet_odv_arr(&r, &it2) &&
                    jet_od_arr_next(&it2, &v) && jet_odv_skip(&v) && jet_od_arr_next(&it2, &v) &&
                    jet_odv_skip(&v) && jet_od_arr_next(&it2, &v) &&
                    jet_odv_decode(&v, &nostr_event_type, &ev2, &arena) &&
                    !jet_od_arr_next(&it2, &v) && jet_od_finish(o)) {
                    if (!bind_equal(&nostr_event_type, ev, &ev2)) mismatch++;
                } else {
                    mismatch++;
                }
            } else if (ok && msg.env.type == NOSTR_OK) {
                if (msg.env.as.ok.accepted != jet_is_true(jet_arr_get(root, 2))) mismatch++;
            } else if (ok && msg.env.type == NOSTR_EOSE) {
                if (!jet_equals_strn(jet_arr_get(root, 1), msg.env.as.eose.sub_id.ptr,
                                     msg.env.as.eose.sub_id.len))
                    mismatch++;
            }
            if (ok) check_round_trip("nostr message", &nostr_message_type, &msg);
            jet_doc_free(d);
        }
        p += n + 1;
    }
    CHECK_MSG(lines == 35 && counts[NOSTR_EVENT] == 31 && counts[NOSTR_EOSE] == 2 &&
                  counts[NOSTR_OK] == 1 && counts[NOSTR_NOTICE] == 1 && other == 0,
              "nostr: %zu lines, EVENT %zu EOSE %zu OK %zu NOTICE %zu, other %zu", lines,
              counts[0], counts[1], counts[2], counts[3], other);
    CHECK_MSG(mismatch == 0, "nostr: %zu messages decoded differently from the DOM", mismatch);
    /* errors through jet_odv_decode go to the cursor */
    jet_odv r;
    NostrEvent ev;
    CHECK(jet_od_start(o, "\"str\"", 5, NULL, &r) && !jet_odv_decode(&r, &nostr_event_type, &ev, &arena) &&
          jet_od_error(o)->code == JET_ERR_TYPE);
    /* an unknown message type */
    NostrMessage msg;
    CHECK(!dec(&nostr_message_type, &msg, "[\"AUTH\",\"x\"]") && err.code == JET_ERR_BAD_TAG);
    CHECK(!dec(&nostr_message_type, &msg, "[\"EOSE\"]") && err.code != JET_OK);
    jet_od_free(o);
    free(nd);
}

static void tw_stats_decoded(const TwTimeline *tl, twitter_stats *t) {
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < tl->status_count; i++) {
        const TwStatus *s = &tl->statuses[i];
        t->statuses++;
        t->id_sum += s->id;
        t->text_bytes += s->text.len;
        t->created_at_bytes += s->created_at.len;
        t->retweet_sum += s->retweet_count;
        t->favorite_sum += s->favorite_count;
        t->user_id_sum += s->user.id;
        t->screen_name_bytes += s->user.screen_name.len;
        t->name_bytes += s->user.name.len;
        t->followers_sum += s->user.followers_count;
        t->friends_sum += s->user.friends_count;
        t->verified += s->user.verified;
        for (size_t h = 0; h < s->entities.hashtag_count; h++) {
            t->hashtags++;
            t->hashtag_bytes += s->entities.hashtags[h].text.len;
        }
    }
}

static void test_twitter(void) {
    size_t len = 0;
    char *raw = read_shared("corpora/twitter.json", &len);
    CHECK(raw != NULL);
    if (!raw) return;
    char *json = check_dup_exact(raw, len);
    free(raw);
    twitter_stats dom, got;
    CHECK(twitter_stats_of_text(json, len, &dom) && dom.statuses == 100 && dom.hashtags > 0);

    check_counter c;
    memset(&c, 0, sizeof c);
    jet_alloc a = CHECK_COUNTER_ALLOC(&c);
    jet_od *o = jet_od_new(&a);
    jet_arena ar;
    jet_arena_init(&ar, &a);
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    TwTimeline tl;
    jet_error e;
    bool ok = jet_decode(o, json, len, &tw_timeline_type, &tl, &ar, &opts, &e);
    CHECK_MSG(ok, "twitter: %s at %zu (%s), path %s", jet_code_name(e.code), e.offset, ostr(e.msg),
              ostr(e.path));
    if (ok) {
        tw_stats_decoded(&tl, &got);
        CHECK(memcmp(&dom, &got, sizeof dom) == 0);
    }
    /* again, after an arena reset: no allocation at all */
    jet_arena_reset(&ar);
    long before = c.mallocs + c.reallocs;
    TwTimeline tl2;
    ok = jet_decode(o, json, len, &tw_timeline_type, &tl2, &ar, &opts, &e);
    CHECK(ok);
    CHECK_MSG(c.mallocs + c.reallocs == before, "second decode allocated %ld times",
              c.mallocs + c.reallocs - before);
    if (ok) {
        tw_stats_decoded(&tl2, &got);
        CHECK(memcmp(&dom, &got, sizeof dom) == 0);
        check_round_trip("twitter", &tw_timeline_type, &tl2);
    }
    jet_arena_reset(&ar);
    before = c.mallocs + c.reallocs;
    ok = jet_decode(o, json, len, &tw_timeline_type, &tl2, &ar, &opts, &e);
    CHECK_MSG(ok && c.mallocs + c.reallocs == before, "third decode allocated %ld times",
              c.mallocs + c.reallocs - before);

    /* a shuffled, pretty-printed copy: the same sums and the same value */
    size_t shn = 0;
    char *sh = shuffle_doc(json, len, 0xC0FFEEull, &shn);
    CHECK(sh != NULL);
    if (sh) {
        jet_od *o2 = jet_od_new(NULL);
        TwTimeline ts;
        jet_arena_reset(&ar);
        ok = jet_decode(o, json, len, &tw_timeline_type, &tl, &ar, &opts, &e) &&
             jet_decode(o2, sh, shn, &tw_timeline_type, &ts, &ar, &opts, &e);
        CHECK_MSG(ok, "shuffled twitter: %s at %zu, path %s", jet_code_name(e.code), e.offset,
                  ostr(e.path));
        if (ok) {
            tw_stats_decoded(&ts, &got);
            CHECK(memcmp(&dom, &got, sizeof dom) == 0);
            CHECK_MSG(bind_equal(&tw_timeline_type, &tl, &ts), "shuffled twitter differs at %s",
                      ostr(beq_where));
        }
        jet_od_free(o2);
        free(sh);
    }
    jet_od_free(o);
    jet_arena_free(&ar);
    CHECK_MSG(c.live == 0, "%ld blocks left", c.live);
    free(json);
}

/* ---- arenas ---------------------------------------------------------------- */

static void test_arena(void) {
    check_counter c;
    memset(&c, 0, sizeof c);
    jet_alloc a = CHECK_COUNTER_ALLOC(&c);
    jet_arena ar;
    jet_arena_init(&ar, &a);
    CHECK(c.mallocs == 0);
    void *z = jet_arena_alloc(&ar, 0, 1);
    CHECK(z != NULL);
    size_t bad = 0;
    for (size_t align = 1; align <= 64; align *= 2)
        for (size_t size = 0; size < 40; size += 3) {
            unsigned char *p = (unsigned char *)jet_arena_alloc(&ar, size, align);
            if (!p || ((uintptr_t)p & (align - 1))) bad++;
            else memset(p, 0xEE, size);
        }
    CHECK(bad == 0);
    /* big blocks, many chunks; all memory usable */
    void *big = jet_arena_alloc(&ar, 100000, 16);
    CHECK(big != NULL);
    if (big) memset(big, 1, 100000);
    for (int i = 0; i < 1000; i++) {
        char *p = (char *)jet_arena_alloc(&ar, 257, 8);
        if (p) memset(p, i & 0xFF, 257);
        else bad++;
    }
    CHECK(bad == 0);
    long m = c.mallocs;
    jet_arena_reset(&ar);
    /* the reset merges the chunks into one (a single allocation), which then
     * serves small allocations without more */
    CHECK(c.mallocs <= m + 1);
    m = c.mallocs;
    for (int i = 0; i < 100; i++) CHECK(jet_arena_alloc(&ar, 64, 8) != NULL);
    CHECK(c.mallocs == m);
    jet_arena_free(&ar);
    CHECK(c.live == 0);
    /* reusable after free */
    CHECK(jet_arena_alloc(&ar, 10, 4) != NULL);
    jet_arena_free(&ar);
    CHECK(c.live == 0);
}

/* A nested object with a presence member (the member loop's direct path). */
typedef struct SdInner {
    int32_t x;
} SdInner;
typedef struct SdOuter {
    bool has_in;
    SdInner in;
    int32_t y;
} SdOuter;
static const jet_field sd_inner_fields[] = {JET_F_INT(SdInner, x, "x")};
static jet_struct sd_inner_type = JET_STRUCT(SdInner, sd_inner_fields);
static const jet_field sd_outer_fields[] = {
    JET_F_OPT_HAS(SdOuter, in, has_in, "in", JET_K_STRUCT, &sd_inner_type),
    JET_F_INT(SdOuter, y, "y"),
};
static jet_struct sd_outer_type = JET_STRUCT(SdOuter, sd_outer_fields);

/* Key orders learnt per cursor (bind.c's guesses in jet_od.orders): the
 * same cursor reads documents whose key order changes (declared, sorted,
 * reversed, with unknown keys between), leaves optional or required
 * fields out, gives a field twice, and interleaves more tables than the
 * cursor keeps guesses for (slots taken from each other, one nested in
 * another of the same slot): every result is the declared-order one. */
typedef struct KoPoint {
    int32_t a, b, c;
    jet_str d;
    bool has_e;
    int32_t e;
} KoPoint;
static const jet_field ko_fields[] = {
    JET_F_INT(KoPoint, a, "a"), JET_F_INT(KoPoint, b, "bb"), JET_F_INT(KoPoint, c, "ccc"),
    JET_F_STR(KoPoint, d, "dddd"), JET_F_OPT_HAS(KoPoint, e, has_e, "e", JET_K_INT, NULL)};
typedef struct KoPair {
    KoPoint p;
    int32_t n;
    KoPoint q;
} KoPair;
#define KO_TABLES 13
typedef struct KoInt {
    int32_t v;
} KoInt;
static jet_struct ko_types[KO_TABLES], ko_pair_types[KO_TABLES];
static jet_field ko_pair_fields[KO_TABLES][3];

static bool ko_is(const KoPoint *k, int32_t base, bool has_e) {
    return k->a == base && k->b == base + 1 && k->c == base + 2 && str_is(k->d, LIT("dv")) &&
           k->has_e == has_e && k->e == (has_e ? base + 4 : 0);
}

static void test_key_order(void) {
    static const jet_struct point_template = JET_STRUCT(KoPoint, ko_fields);
    for (int i = 0; i < KO_TABLES; i++) {
        ko_types[i] = point_template;
        const jet_field pair[3] = {JET_F_STRUCT(KoPair, p, "p", ko_types[i]), JET_F_INT(KoPair, n, "n"),
                                   JET_F_STRUCT(KoPair, q, "q", ko_types[i])};
        memcpy(ko_pair_fields[i], pair, sizeof pair);
        const jet_struct pt = JET_STRUCT(KoPair, pair);
        ko_pair_types[i] = pt;
        ko_pair_types[i].fields = ko_pair_fields[i];
    }
    /* one point in several orders: {base, base+1, base+2, "dv", base+4} */
    static const char *const orders[] = {
        "{\"a\":%d,\"bb\":%d,\"ccc\":%d,\"dddd\":\"dv\",\"e\":%d}",           /* declared */
        "{\"e\":%4$d,\"dddd\":\"dv\",\"ccc\":%3$d,\"bb\":%2$d,\"a\":%1$d}",   /* reversed */
        "{\"ccc\":%3$d,\"x\":0,\"a\":%1$d,\"e\":%4$d,\"bb\":%2$d,\"dddd\":\"dv\"}", /* unknown key */
        "{\"bb\":%2$d,\"dddd\":\"dv\",\"a\":%1$d,\"ccc\":%3$d}",               /* no e */
        "{\"a\":%d,\"bb\":%d,\"ccc\":%d,\"dddd\":\"dv\",\"e\":%d}",           /* declared again */
    };
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags fl = lazy ? JET_READ_LAZY : 0;
        for (int round = 0; round < 3; round++) {
            for (int o = 0; o < 5; o++) {
                for (int ti = 0; ti < KO_TABLES; ti++) {
                    int base = ti * 10 + o, po = (o + ti) % 5, qo = (o + 2 * ti + round) % 5;
                    char ps[128], qs[128], doc[320];
                    snprintf(ps, sizeof ps, orders[po], base, base + 1, base + 2, base + 4);
                    snprintf(qs, sizeof qs, orders[qo], base + 100, base + 101, base + 102, base + 104);
                    /* the pair's own keys change order with the round */
                    if (round == 1)
                        snprintf(doc, sizeof doc, "{\"q\":%s,\"p\":%s,\"n\":%d}", qs, ps, ti);
                    else
                        snprintf(doc, sizeof doc, "{\"n\":%d,\"p\":%s,\"q\":%s}", ti, ps, qs);
                    KoPair kp;
                    CHECK_DEC_OK(dec_n(&ko_pair_types[ti], &kp, doc, strlen(doc), fl));
                    CHECK_MSG(kp.n == ti && ko_is(&kp.p, base, po != 3) && ko_is(&kp.q, base + 100, qo != 3),
                              "table %d order %d/%d round %d: %s", ti, po, qo, round, doc);
                }
            }
        }
        /* after sorted orders were learnt: a field given twice, with each
         * policy, and a required one left out */
        static const char dup[] = "{\"ccc\":3,\"bb\":2,\"a\":1,\"dddd\":\"dv\",\"bb\":9}";
        KoPoint k;
        for (int r = 0; r < 2; r++) {
            CHECK_DEC_ERR(dec_n(&ko_types[0], &k, LIT(dup), fl), JET_ERR_DUPLICATE_KEY, "/bb");
            CHECK_DEC_OK(dec_n(&ko_types[0], &k, LIT(dup), fl | JET_READ_DUPLICATE_FIRST));
            CHECK(k.a == 1 && k.b == 2 && k.c == 3 && !k.has_e);
            CHECK_DEC_OK(dec_n(&ko_types[0], &k, LIT(dup), fl | JET_READ_DUPLICATE_LAST));
            CHECK(k.a == 1 && k.b == 9 && k.c == 3 && !k.has_e);
            CHECK_DEC_ERR(dec_n(&ko_types[0], &k, LIT("{\"ccc\":3,\"bb\":2,\"dddd\":\"dv\"}"), fl),
                          JET_ERR_MISSING_FIELD, "/a");
            /* an escaped key where the guess is */
            CHECK_DEC_OK(dec_n(&ko_types[0], &k, LIT("{\"ccc\":3,\"b\\u0062\":2,\"a\":1,\"dddd\":\"dv\"}"), fl));
            CHECK(k.a == 1 && k.b == 2 && k.c == 3);
        }
        /* a field given as often as the guesses go (a guess learnt at each
         * position): the duplicate policies still decide */
        char many[1024];
        size_t len = 0;
        len += (size_t)snprintf(many + len, sizeof many - len, "{\"a\":1,\"bb\":2,\"ccc\":3,\"dddd\":\"dv\"");
        for (int i = 0; i < 70; i++) len += (size_t)snprintf(many + len, sizeof many - len, ",\"a\":%d", i + 10);
        many[len++] = '}';
        for (int r = 0; r < 70; r++) {
            CHECK_DEC_OK(dec_n(&ko_types[1], &k, many, len, fl | JET_READ_DUPLICATE_LAST));
            CHECK(k.a == 79 && k.b == 2);
        }
        CHECK_DEC_OK(dec_n(&ko_types[1], &k, many, len, fl | JET_READ_DUPLICATE_FIRST));
        CHECK(k.a == 1 && k.b == 2);
        CHECK_DEC_ERR(dec_n(&ko_types[1], &k, many, len, fl), JET_ERR_DUPLICATE_KEY, "/a");
    }
    /* a table of more than 64 fields (searched linearly; fields seen past
     * the first 64 kept in memory): all in, one left out, one given twice */
    enum { BIG = 150 };
    static char big_keys[BIG][8];
    static jet_field big_fields[BIG];
    static int32_t big[BIG];
    for (int i = 0; i < BIG; i++) {
        snprintf(big_keys[i], sizeof big_keys[i], "k%d", i);
        const jet_field f = JET_FIELD(KoInt, v, NULL, JET_K_INT, NULL);
        big_fields[i] = f;
        big_fields[i].key = big_keys[i];
        big_fields[i].offset = (uint32_t)(i * sizeof(int32_t));
    }
    jet_struct big_type = {"big", (uint32_t)sizeof big, BIG, big_fields, 0, 0, 0, 0, 0, {0}, {0}, {0}, {0}, {0}, {0}, 0, 0};
    char doc[BIG * 16];
    for (int miss = -1; miss < BIG; miss += 37) {
        for (int twice = -1; twice < BIG; twice += 53) {
            size_t len = 0;
            doc[len++] = '{';
            for (int k = 0; k < BIG; k++) {
                int i = (k * 7 + 3) % BIG; /* 7 is prime to 150 */
                if (i == miss) continue;
                len += (size_t)snprintf(doc + len, sizeof doc - len, "%s\"k%d\":%d", len > 1 ? "," : "", i, i * 3);
                if (i == twice) len += (size_t)snprintf(doc + len, sizeof doc - len, ",\"k%d\":%d", i, i * 3);
            }
            doc[len++] = '}';
            bool ok = dec_n(&big_type, big, doc, len, 0);
            char path[16];
            snprintf(path, sizeof path, "/k%d", twice >= 0 ? twice : miss);
            if (twice >= 0)
                CHECK_DEC_ERR(ok, JET_ERR_DUPLICATE_KEY, path);
            else if (miss >= 0)
                CHECK_DEC_ERR(ok, JET_ERR_MISSING_FIELD, path);
            else
                CHECK_DEC_OK(ok);
            if (ok) {
                int wrong = 0;
                for (int i = 0; i < BIG; i++) wrong += big[i] != i * 3;
                CHECK(wrong == 0);
            }
        }
    }
}

/* The small-document paths: the key-order guess given up on a text ordered
 * otherwise (sorted keys) and kept for declared order, duplicates still
 * found either way; string-array elements written whole into arena memory
 * that held garbage; the cursor's string view and a lazy finish on the last
 * closing bracket. */
static void test_small_docs(void) {
    static const char sorted[] =
        "{\"content\":\"hi\",\"created_at\":7,\"id\":\"i\",\"kind\":1,\"pubkey\":\"p\",\"sig\":\"s\","
        "\"tags\":[[\"e\",\"a\\nb\"],[\"p\",\"x\",\"y\"],[]]}";
    static const char declared[] =
        "{\"id\":\"i\",\"pubkey\":\"p\",\"created_at\":7,\"kind\":1,\"tags\":[[\"t\"]],\"content\":\"hi\","
        "\"sig\":\"s\"}";
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags fl = lazy ? JET_READ_LAZY : 0;
        for (int round = 0; round < 2; round++) {
            /* the arena's memory full of garbage before the decode */
            jet_arena_reset(&arena);
            void *junk = jet_arena_alloc(&arena, 4096, 16);
            CHECK(junk != NULL);
            if (junk) memset(junk, 0xA5, 4096);
            jet_arena_reset(&arena);
            NostrEvent e;
            CHECK_DEC_OK(dec_n(&nostr_event_type, &e, LIT(sorted), fl));
            CHECK(STR_IS(e.id, "i") && STR_IS(e.pubkey, "p") && STR_IS(e.sig, "s") && STR_IS(e.content, "hi"));
            CHECK(e.created_at == 7 && e.kind == 1 && e.tag_count == 3);
            if (e.tag_count == 3) {
                CHECK(e.tags[0].count == 2 && STR_IS(e.tags[0].items[0], "e") &&
                      STR_IS(e.tags[0].items[1], "a\nb"));
                CHECK(e.tags[1].count == 3 && STR_IS(e.tags[1].items[2], "y"));
                CHECK(e.tags[2].count == 0 && e.tags[2].items == NULL);
            }
            CHECK_DEC_OK(dec_n(&nostr_event_type, &e, LIT(declared), fl));
            CHECK(STR_IS(e.id, "i") && STR_IS(e.sig, "s") && e.tag_count == 1 && e.tags[0].count == 1 &&
                  STR_IS(e.tags[0].items[0], "t"));
        }
        /* an escaped string member: unescaped from the quotes the loop found;
         * a bad escape is the string's error; stable strings leave the
         * cursor's scratch for the arena */
        static const char esc[] = "{\"content\":\"a\\u00e9\\tb\",\"created_at\":1,\"pubkey\":\"k\"}";
        static const char bad_esc[] = "{\"content\":\"a\\xb\",\"created_at\":1,\"pubkey\":\"k\"}";
        NostrShortEvent se;
        CHECK_DEC_OK(dec_n(&nostr_short_type, &se, LIT(esc), fl));
        CHECK(STR_IS(se.content, "a\xc3\xa9\tb") && !in_input(se.content.ptr) && STR_IS(se.pubkey, "k"));
        CHECK_DEC_OK(dec_n(&nostr_short_type, &se, LIT(esc), fl | JET_READ_STABLE_STRINGS));
        CHECK(STR_IS(se.content, "a\xc3\xa9\tb") && se.created_at == 1);
        jet_str stable = se.content;
        static const char other[] = "{\"content\":\"zz\\u00ffyyyy\",\"created_at\":1,\"pubkey\":\"k\"}";
        CHECK_DEC_OK(dec_n(&nostr_short_type, &se, LIT(other), fl)); /* the cursor's next document */
        CHECK(str_is(stable, LIT("a\xc3\xa9\tb")));
        CHECK_DEC_ERR(dec_n(&nostr_short_type, &se, LIT(bad_esc), fl), JET_ERR_STRING_ESCAPE, "/content");
        /* stage 1 fails (the string left open), so the DOM reader names the
         * first error, a number out of range, with its pointer; a range
         * error being also a schema's, jet_decode must not look again once
         * the index is dropped (it then reported the pointer "") */
        CHECK_DEC_ERR(dec_n(&nostr_short_type, &se, LIT("{\"content\":[1,1E999]}   \""), fl),
                      JET_ERR_NUMBER_RANGE, "/content/1");
        SdOuter so;
        CHECK_DEC_OK(dec_n(&sd_outer_type, &so, LIT("{\"y\":2,\"in\":{\"x\":5}}"), fl));
        CHECK(so.has_in && so.in.x == 5 && so.y == 2);
        CHECK_DEC_OK(dec_n(&sd_outer_type, &so, LIT("{\"y\":3}"), fl));
        CHECK(!so.has_in && so.in.x == 0 && so.y == 3);
        CHECK_DEC_ERR(dec_n(&sd_outer_type, &so, LIT("{\"in\":{\"x\":\"5\"},\"y\":1}"), fl), JET_ERR_TYPE,
                      "/in/x");
        /* a field given twice after the guess was given up (sorted order) */
        static const char dup[] = "{\"content\":\"a\",\"id\":\"i\",\"content\":\"b\"}";
        NostrEvent e;
        CHECK_DEC_ERR(dec_n(&nostr_event_type, &e, LIT(dup), fl), JET_ERR_DUPLICATE_KEY, "/content");
        /* the cursor: a string view, then a finish on the outer ']' */
        static const char msg[] = "[\"EVENT\",{\"content\":\"c\"}]";
        static const char trail[] = "[\"EVENT\",{\"content\":\"c\"}] x";
        for (int t = 0; t < 2; t++) {
            jet_read_opts o = {fl, 0, 0};
            jet_odv r, v;
            jet_od_iter it;
            jet_str tag = {NULL, 0};
            const char *in = t ? trail : msg;
            bool ok = jet_od_start(od, in, strlen(in), &o, &r) && jet_odv_arr(&r, &it) &&
                      jet_od_arr_next(&it, &v) && jet_odv_get_str(&v, &tag) && jet_od_arr_next(&it, &v);
            CHECK(ok && STR_IS(tag, "EVENT") && tag.ptr == in + 2);
            jet_od_iter ob;
            jet_str c = {NULL, 0};
            CHECK(ok && jet_odv_obj(&v, &ob) && jet_od_obj_find(&ob, "content", 7, &v) && jet_odv_get_str(&v, &c) &&
                  STR_IS(c, "c"));
            bool fin = jet_od_finish(od);
            CHECK(t ? !fin && jet_od_error(od)->code != JET_OK : fin);
        }
    }
}

/* The member loop's own paths: elements of arrays that are structs or
 * arrays (at an offset within their element), an object's first token and
 * its last member's '}', integers within 32 bytes of the input's end,
 * strings over several words with a backslash (declared and skipped), and
 * malformed objects, whose errors are those of the DOM reader. */
typedef struct MlTag {
    size_t n;
    jet_str *items; /* not first: the element's array is at an offset */
} MlTag;
typedef struct MlPoint {
    int32_t x, y;
} MlPoint;
typedef struct MlDoc {
    jet_str name;
    MlTag *tags;
    size_t tag_count;
    MlPoint *pts;
    size_t pt_count;
    uint8_t small;
    int64_t last;
    jet_str note; /* Option[String]: null or absent is None */
    bool has_note;
} MlDoc;
static const jet_field ml_point_fields[] = {JET_F_INT(MlPoint, x, "x"), JET_F_INT(MlPoint, y, "y")};
static jet_struct ml_point_type = JET_STRUCT(MlPoint, ml_point_fields);
static const jet_field ml_str_elem = JET_ELEM(jet_str, JET_K_STR, NULL);
static const jet_field ml_tag_elem = JET_ELEM_ARRAY(MlTag, items, n, ml_str_elem);
static const jet_field ml_point_elem = JET_ELEM(MlPoint, JET_K_STRUCT, &ml_point_type);
static const jet_field ml_doc_fields[] = {
    JET_F_STR(MlDoc, name, "name"),
    JET_F_ARRAY(MlDoc, tags, tag_count, "tags", ml_tag_elem),
    JET_F_ARRAY(MlDoc, pts, pt_count, "pts", ml_point_elem),
    JET_F_UINT(MlDoc, small, "small"),
    JET_F_INT(MlDoc, last, "last"),
    JET_FIELD_FULL(MlDoc, note, "note", NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE, JET_NO_OFFSET,
                   (uint32_t)offsetof(MlDoc, has_note), NULL),
};
static jet_struct ml_doc_type = JET_STRUCT(MlDoc, ml_doc_fields);

static void test_member_loop(void) {
    static const char full[] = "{\"name\":\"n\",\"tags\":[[\"a\",\"b\"],[],[\"c\"]],\"pts\":[{\"x\":1,\"y\":2},"
                               "{\"y\":4,\"x\":3}],\"small\":200,\"last\":-12345678901234}";
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags fl = lazy ? JET_READ_LAZY : 0;
        MlDoc m;
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT(full), fl));
        CHECK(STR_IS(m.name, "n") && m.small == 200 && m.last == -12345678901234LL);
        CHECK(m.tag_count == 3 && m.pt_count == 2);
        if (m.tag_count == 3) {
            CHECK(m.tags[0].n == 2 && STR_IS(m.tags[0].items[0], "a") && STR_IS(m.tags[0].items[1], "b"));
            CHECK(m.tags[1].n == 0 && m.tags[1].items == NULL);
            CHECK(m.tags[2].n == 1 && STR_IS(m.tags[2].items[0], "c"));
        }
        if (m.pt_count == 2) CHECK(m.pts[0].x == 1 && m.pts[0].y == 2 && m.pts[1].x == 3 && m.pts[1].y == 4);
        /* the last member's integer near the end: its range, its type, -0 */
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"last\":-0,\"small\":7}"), fl));
        CHECK(m.small == 7 && m.last == 0 && m.tags == NULL && m.pts == NULL);
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"last\":1,\"small\":256}"), fl),
                      JET_ERR_NUMBER_RANGE, "/small");
        CHECK(err.msg && strstr(err.msg, "256 is out of range for uint8"));
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":12345678901234567890}"), fl),
                      JET_ERR_NUMBER_RANGE, "/last");
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":1.5}"), fl),
                      JET_ERR_TYPE, "/last");
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":99 }"), fl));
        CHECK(m.last == 99);
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3}"), fl));
        CHECK(m.last == 3);
        /* empty objects: the outer one misses its fields, an element its own */
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{}"), fl), JET_ERR_MISSING_FIELD, "/name");
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{ }"), fl), JET_ERR_MISSING_FIELD, "/name");
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[{}],\"small\":1,\"last\":3}"), fl),
                      JET_ERR_MISSING_FIELD, "/pts/0/x");
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[{}],\"pts\":[],\"small\":1,\"last\":3}"), fl),
                      JET_ERR_TYPE, "/tags/0");
        /* long strings with a backslash in their last word */
        static const char long_esc[] =
            "{\"name\":\"0123456789012345678901234567890123456789012345678901234567890123456789\\n!\","
            "\"skip\":\"0123456789012345678901234567890123456789012345678901234567890123456789\\t\","
            "\"tags\":[],\"pts\":[],\"small\":1,\"last\":2 }";
        static const char long_bad[] =
            "{\"name\":\"n\",\"skip\":\"0123456789012345678901234567890123456789012345678901234567890123456789\\q\","
            "\"tags\":[],\"pts\":[],\"small\":1,\"last\":2}";
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT(long_esc), fl));
        CHECK(m.name.len == 72 && m.name.ptr[70] == '\n' && m.name.ptr[71] == '!' && m.last == 2);
        bool bad_ok = dec_n(&ml_doc_type, &m, LIT(long_bad), fl);
        CHECK(lazy ? bad_ok : !bad_ok && err.code == JET_ERR_STRING_ESCAPE);
        /* rows of strings (arrays of arrays): escapes, empty rows, a
         * trailing comma where allowed, a row that is not an array */
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[[],[\"a\\tb\",\"c\"],[]],\"pts\":[],\"small\":1,\"last\":3}"), fl));
        CHECK(m.tag_count == 3 && m.tags[0].n == 0 && m.tags[0].items == NULL && m.tags[1].n == 2 &&
              STR_IS(m.tags[1].items[0], "a\tb") && STR_IS(m.tags[1].items[1], "c") && m.tags[2].n == 0);
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[[\"a\",],[\"b\"],],\"pts\":[],\"small\":1,\"last\":3}"),
                           fl | JET_READ_ALLOW_TRAILING_COMMAS));
        CHECK(m.tag_count == 2 && m.tags[0].n == 1 && STR_IS(m.tags[0].items[0], "a") && m.tags[1].n == 1);
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[[\"a\"],\"x\"],\"pts\":[],\"small\":1,\"last\":3}"), fl),
                      JET_ERR_TYPE, "/tags/1");
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[[\"a\",1]],\"pts\":[],\"small\":1,\"last\":3}"), fl),
                      JET_ERR_TYPE, "/tags/0/1");
        CHECK_DEC_ERR(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[null],\"pts\":[],\"small\":1,\"last\":3}"), fl),
                      JET_ERR_TYPE, "/tags/0");
        {
            /* a row past the depth limit: its error, as decode_array gives it */
            static const char deep[] = "{\"name\":\"\",\"tags\":[[\"a\"]],\"pts\":[],\"small\":1,\"last\":3}";
            jet_read_opts o = {fl, 2, 0};
            jet_error e2;
            CHECK(!jet_decode(od, deep, sizeof deep - 1, &ml_doc_type, &m, &arena, &o, &e2) &&
                  e2.code == JET_ERR_DEPTH_LIMIT && e2.offset == 19);
            o.max_depth = 3;
            CHECK(jet_decode(od, deep, sizeof deep - 1, &ml_doc_type, &m, &arena, &o, &e2) && m.tag_count == 1);
        }
        /* null for a nullable field, at the end and before more members */
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3,\"note\":null}"), fl));
        CHECK(!m.has_note && m.note.ptr == NULL && m.note.len == 0 && m.last == 3);
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"note\":null ,\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3}"), fl));
        CHECK(!m.has_note && m.note.ptr == NULL && m.last == 3);
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"note\":\"x\",\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3}"), fl));
        CHECK(m.has_note && STR_IS(m.note, "x"));
        CHECK(!dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3,\"note\":nul}"), fl));
        CHECK(!dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3,\"note\":nullx}"), fl));
        /* glued integers, lazily too */
        CHECK(!dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1x,\"last\":3}"), fl));
        CHECK(!dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3x}"), fl));
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1\n,\"last\":3\t}"), fl));
        /* an escaped key while the order is guessed */
        CHECK_DEC_OK(dec_n(&ml_doc_type, &m, LIT("{\"n\\u0061me\":\"k\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3}"), fl));
        CHECK(STR_IS(m.name, "k") && m.last == 3);
    }
    /* malformed objects: the DOM reader's error, at its offset */
    static const char *const bad[] = {
        "{", "{1:2}", "{\"name\"}", "{\"name\":}", "{\"name\":\"\",}", "{\"name\":\"\"", "{\"name\":\"\" \"tags\":[]}",
        "{\"name\":\"\",\"tags\":[[\"a\",]],\"pts\":[],\"small\":1,\"last\":3}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[{\"x\":1,\"y\":2}}],\"small\":1,\"last\":3}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3,}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3 ]",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3}}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3,\"note\":nul}",
        "{\"note\":nulll,\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3}",
        "{\"note\":null",
        "{\"name\":\"\",\"tags\":[[\"a\" \"b\"]],\"pts\":[],\"small\":1,\"last\":3}",
        "{\"name\":\"\",\"tags\":[[\"a\"] [\"b\"]],\"pts\":[],\"small\":1,\"last\":3}",
        "{\"name\":\"\",\"tags\":[[\"a\",],[\"b\"]],\"pts\":[],\"small\":1,\"last\":3}",
        "{\"name\":\"\",\"tags\":[[\"a\"],],\"pts\":[],\"small\":1,\"last\":3}",
        "{\"name\":\"\",\"tags\":[[\"a\"",
        "{\"name\":\"\",\"tags\":[[\"a\"],",
        "{\"name\":\"\",\"tags\":[[\"a\\x\"]],\"pts\":[],\"small\":1,\"last\":3}",
        /* integers glued to what follows (the next token is not where they end) */
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1x,\"last\":3}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":12\"\",\"last\":3}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3a}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":3 a}",
        "{\"name\":\"\",\"tags\":[],\"pts\":[],\"small\":1,\"last\":345678901234567890123456789012345x}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        jet_error want;
        memset(&want, 0, sizeof want);
        CHECK(!jet_validate(bad[i], strlen(bad[i]), NULL, NULL, &want));
        MlDoc m;
        bool ok = dec_n(&ml_doc_type, &m, bad[i], strlen(bad[i]), 0);
        CHECK_MSG(!ok && err.code == want.code && err.offset == want.offset && err_position_ok(),
                  "%s: %s at %zu, want %s at %zu", bad[i], jet_code_name(err.code), err.offset,
                  jet_code_name(want.code), want.offset);
    }
}

/* Strings over several words read by the member loop (one loop over the
 * marks and backslashes of their words, and the words already found
 * without a backslash remembered for the next strings): every alignment,
 * lengths around the word size, a backslash in each position of a
 * declared string, a skipped one (strictly checked, bad escapes included)
 * and a key after them; over a whole index and over windows of a few
 * words. */
static void string_words(size_t window) {
    char doc[1024], want[256];
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags fl = lazy ? JET_READ_LAZY : 0;
        for (size_t shift = 0; shift < 64; shift += 7) {
            for (size_t len = 60; len < 200; len += 23) {
                for (size_t esc = 0; esc <= len; esc += 11) { /* esc == len: none */
                    /* name: len bytes, "\n" at esc; skip: the same text
                     * with "\q" there when bad; then an escaped key */
                    for (int bad = 0; bad < 2; bad++) {
                        char body[256], sbody[256];
                        size_t k = 0, sk = 0;
                        for (size_t i = 0; i < len; i++) {
                            if (i == esc) {
                                body[k++] = '\\', body[k++] = 'n';
                                sbody[sk++] = '\\', sbody[sk++] = bad ? 'q' : 't';
                            } else {
                                body[k++] = sbody[sk++] = (char)('a' + i % 26);
                            }
                        }
                        body[k] = sbody[sk] = 0;
                        int dn = snprintf(doc, sizeof doc,
                                          "{%*s\"skip\":\"%s\",\"name\":\"%s\",\"tags\":[],\"pts\":[],"
                                          "\"sm\\u0061ll\":1,\"last\":2}",
                                          (int)shift, "", sbody, body);
                        size_t w = 0;
                        for (size_t i = 0; i < len; i++) want[w++] = i == esc ? '\n' : (char)('a' + i % 26);
                        MlDoc m;
                        bool ok = dec_n(&ml_doc_type, &m, doc, (size_t)dn, fl);
                        if (bad && esc < len && !lazy) {
                            CHECK_MSG(!ok && err.code == JET_ERR_STRING_ESCAPE, "bad skip: %s", doc);
                            continue;
                        }
                        CHECK_MSG(ok && str_is(m.name, want, w) && m.small == 1 && m.last == 2,
                                  "%s (lazy %d, window %zu): %d %s", doc, lazy, window, (int)ok,
                                  jet_code_name(err.code));
                    }
                }
            }
        }
    }
}
static void test_string_words(void) {
    /* one window over the whole input (a direct index), then windows of
     * 2 x 1 and 2 x 4 words (the loop's general paths) */
    static const size_t halves[] = {0, 1, 4};
    for (size_t h = 0; h < sizeof halves / sizeof halves[0]; h++) {
        jet__od_window_set(halves[h]);
        string_words(halves[h]);
    }
    jet__od_window_set(0);
}

int main(void) {
    od = jet_od_new(NULL);
    CHECK(od != NULL);
    if (!od) return CHECK_DONE("test_bind");
    jet_arena_init(&arena, NULL);

    test_arena();
    test_scalars();
    test_kitchen();
    test_composites();
    test_encode();
    test_policies();
    test_api_sample();
    test_nostr();
    test_twitter();
    test_small_docs();
    test_key_order();
    test_member_loop();
    test_string_words();

    jet_arena_free(&arena);
    jet_od_free(od);
    free(cur);
    return CHECK_DONE("test_bind");
}
