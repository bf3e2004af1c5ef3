/* fuzz_roundtrip.c — libFuzzer target: parse → write → parse → write.
 *
 *   cmake -S . -B build-fuzz -DJET_BUILD_FUZZ=ON -DCMAKE_C_COMPILER=clang
 *   cmake --build build-fuzz --target fuzz_roundtrip
 *   build-fuzz/fuzz/fuzz_roundtrip -max_total_time=60
 *
 * Each input is parsed twice from an exact-size heap copy (no NUL, no
 * padding, so ASan catches any over-read): with strict defaults and with
 * every lenient reader flag. When a parse succeeds:
 *   - the minified output must parse back (same flags) to an equal tree,
 *     and writing that tree again must give the same bytes;
 *   - pretty output (indent 1..15 from the input) and ASCII / escaped-slash
 *     output must parse back to an equal tree (ASCII is lossy only for
 *     invalid UTF-8, accepted under the lenient flags: then it must still
 *     parse), and pretty output re-minified must equal the minified text;
 *   - the fingerprints of both trees match and are self-consistent.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, jet_read_flags rf, jet_write_flags wf) {
    fprintf(stderr, "fuzz_roundtrip: %s (read flags %#x, write flags %#x)\n", what,
            (unsigned)rf, (unsigned)wf);
    abort();
}

static jet_doc *reparse(const char *text, size_t len, const jet_read_opts *o) {
    /* exact-size copy: the writer's NUL must not be needed */
    char *copy = (char *)malloc(len ? len : 1);
    if (!copy) return NULL;
    memcpy(copy, text, len);
    jet_doc *d = jet_read(copy, len, o, NULL, NULL);
    free(copy);
    return d;
}

static void check_stats(const jet_val *a, const jet_val *b, jet_read_flags rf) {
    jet_stats sa, sb;
    jet_val_stats(a, &sa);
    jet_val_stats(b, &sb);
    if (memcmp(&sa, &sb, sizeof sa) != 0) fail("fingerprints differ after round trip", rf, 0);
    if (sa.numbers != sa.integers + sa.doubles) fail("numbers != integers + doubles", rf, 0);
}

static void one(const char *json, size_t len, jet_read_flags rf, unsigned indent) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = rf;
    jet_doc *d = jet_read(json, len, &o, NULL, NULL);
    if (!d) return;
    const jet_val *root = jet_doc_root(d);
    jet_write_flags base = (rf & JET_READ_ALLOW_NAN_INF) ? JET_WRITE_ALLOW_NAN_INF : 0;

    /* minified: exact round trip */
    size_t n1, n2;
    jet_error err;
    char *w1 = jet_doc_write(d, base, NULL, &n1, &err);
    if (!w1) fail("minified write failed", rf, base);
    if (w1[n1] != '\0' || strlen(w1) > n1) fail("bad length / terminator", rf, base);
    jet_doc *d2 = reparse(w1, n1, &o);
    if (!d2) fail("minified output does not parse", rf, base);
    if (!jet_val_equal(root, jet_doc_root(d2))) fail("minified round trip not equal", rf, base);
    char *w2 = jet_doc_write(d2, base, NULL, &n2, NULL);
    if (!w2 || n1 != n2 || memcmp(w1, w2, n1) != 0) fail("second write differs", rf, base);
    check_stats(root, jet_doc_root(d2), rf);
    free(w2);
    jet_doc_free(d2);

    /* other formats */
    const jet_write_flags variants[3] = {
        base | JET_WRITE_INDENT(indent) | JET_WRITE_NEWLINE_AT_END,
        base | JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES,
        base | JET_WRITE_ASCII | JET_WRITE_INDENT(indent),
    };
    for (int i = 0; i < 3; i++) {
        jet_write_flags wf = variants[i];
        size_t n;
        char *w = jet_doc_write(d, wf, NULL, &n, &err);
        /* ASCII mode refuses invalid UTF-8 (only readable with
         * ALLOW_INVALID_UTF8) rather than change it; replaced on request,
         * it is the one lossy case. Output made without the replacement
         * is never lossy. */
        bool lossy = false;
        if (!w && err.code == JET_ERR_UTF8 && (wf & JET_WRITE_ASCII) &&
            (rf & JET_READ_ALLOW_INVALID_UTF8)) {
            wf |= JET_WRITE_REPLACE_INVALID_UTF8;
            w = jet_doc_write(d, wf, NULL, &n, NULL);
            lossy = true;
        }
        if (!w) fail("write failed", rf, wf);
        jet_doc *dv = reparse(w, n, &o);
        if (!dv) fail("output does not parse", rf, wf);
        if (!lossy && !jet_val_equal(root, jet_doc_root(dv))) fail("round trip not equal", rf, wf);
        if (!lossy) {
            /* re-minified without ASCII must give the original minified text */
            size_t nm;
            char *m = jet_doc_write(dv, base, NULL, &nm, NULL);
            if (!m || nm != n1 || memcmp(m, w1, n1) != 0) fail("re-minified text differs", rf, wf);
            free(m);
        }
        if (wf & JET_WRITE_ASCII)
            for (size_t k = 0; k < n; k++)
                if ((unsigned char)w[k] >= 0x80) fail("non-ASCII byte in ASCII output", rf, wf);
        jet_doc_free(dv);
        free(w);
    }
    free(w1);
    jet_doc_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > (1u << 20)) return 0;
    char *json = (char *)malloc(size ? size : 1);
    if (!json) return 0;
    memcpy(json, data, size);
    unsigned indent = 1u + (unsigned)(size % 15u);
    one(json, size, JET_READ_NOFLAG, indent);
    one(json, size,
        JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS | JET_READ_ALLOW_NAN_INF |
            JET_READ_ALLOW_INVALID_UTF8 | JET_READ_BIGNUM_AS_RAW,
        indent);
    one(json, size, JET_READ_NUMBER_AS_RAW | JET_READ_ALLOW_NAN_INF, indent);
    free(json);
    return 0;
}
