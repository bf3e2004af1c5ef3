/*
 * test_regressions.c — every file of tests/regressions/ (inputs that once
 * crashed, hung or made two readers disagree) and the hostile inputs of
 * `scripts/fuzz-seeds.sh hostile` (deep nesting, 10 000-digit numbers, a
 * 1 MB string, long keys, ...) through every reader, strict and lenient:
 *   - the DOM reader, jet_validate and jet_od_validate give one verdict, and
 *     a rejection carries a complete error (code, offset within the input,
 *     line and column);
 *   - the cursor reading every value, with JET_READ_VALIDATE_ALL, agrees;
 *   - typed decoding (TwitterStats) does not crash, and with
 *     JET_READ_VALIDATE_ALL rejects what the DOM reader rejects;
 *   - an accepted document written (minified, pretty, ASCII) reads back
 *     equal.
 * POSIX only (directory listing, the seed script through the shell).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "jet.h"
#include "schemas.h"

#ifndef JET_SOURCE_DIR
#define JET_SOURCE_DIR "."
#endif

static jet_od *od;

/* Reads every value below v (so that the cursor checks all of it). */
static bool walk(jet_odv *v) {
    jet_od_iter it;
    jet_odv child;
    jet_str s;
    switch (jet_odv_type(v)) {
    case JET_TYPE_ARR:
        if (!jet_odv_arr(v, &it)) return false;
        while (jet_od_arr_next(&it, &child))
            if (!walk(&child)) return false;
        return jet_od_ok(od);
    case JET_TYPE_OBJ:
        if (!jet_odv_obj(v, &it)) return false;
        while (jet_od_obj_next(&it, &s, &child))
            if (!walk(&child)) return false;
        return jet_od_ok(od);
    case JET_TYPE_STR:
        return jet_odv_get_str(v, &s);
    case JET_TYPE_NUM:
    case JET_TYPE_RAW:
        return jet_odv_get_raw(v, &s);
    default:
        return jet_odv_skip(v);
    }
}

static bool cursor_reads_all(const char *json, size_t len, const jet_read_opts *o) {
    jet_odv root;
    return jet_od_start(od, json, len, o, &root) && walk(&root) && jet_od_finish(od);
}

static void round_trip(const char *what, const jet_doc *d, const jet_read_opts *o) {
    static const jet_write_flags flags[] = {0, JET_WRITE_PRETTY_2,
                                            JET_WRITE_ASCII | JET_WRITE_ESCAPE_SLASHES};
    bool nan_inf = o->flags & JET_READ_ALLOW_NAN_INF;
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
        jet_write_flags wf = flags[i] | (nan_inf ? JET_WRITE_ALLOW_NAN_INF : 0);
        jet_error err;
        memset(&err, 0, sizeof err);
        size_t n = 0;
        char *text = jet_doc_write(d, wf, NULL, &n, &err);
        /* ASCII mode refuses invalid UTF-8 (only read leniently) */
        if (!text && err.code == JET_ERR_UTF8 && (wf & JET_WRITE_ASCII) &&
            (o->flags & JET_READ_ALLOW_INVALID_UTF8))
            continue;
        CHECK_MSG(text != NULL, "%s: write %#x failed: %s", what, (unsigned)wf,
                  err.msg ? err.msg : "?");
        if (!text) continue;
        jet_doc *back = jet_read(text, n, o, NULL, &err);
        CHECK_MSG(back && jet_val_equal(jet_doc_root(d), jet_doc_root(back)),
                  "%s: written with %#x, it reads back %s", what, (unsigned)wf,
                  back ? "different" : err.msg);
        jet_doc_free(back);
        free(text);
    }
}

static void run_one(const char *what, const char *json, size_t len, const jet_read_opts *o,
                    const char *mode) {
    char name[600];
    snprintf(name, sizeof name, "%s (%s)", what, mode);
    jet_error derr, verr;
    memset(&derr, 0, sizeof derr);
    memset(&verr, 0, sizeof verr);
    jet_doc *d = jet_read(json, len, o, NULL, &derr);
    bool dom = d != NULL;
    if (!dom)
        CHECK_MSG(derr.code != JET_OK && derr.msg && derr.offset <= len && derr.line >= 1 &&
                      derr.column >= 1,
                  "%s: DOM error incomplete", name);

    bool val = jet_validate(json, len, o, NULL, &verr);
    CHECK_MSG(val == dom, "%s: jet_validate %s, the DOM reader %s", name,
              val ? "accepts" : "rejects", dom ? "accepts" : "rejects");
    if (!val)
        CHECK_MSG(verr.code != JET_OK && verr.msg && verr.offset <= len && verr.line >= 1,
                  "%s: jet_validate's error incomplete", name);
    bool odv = jet_od_validate(od, json, len, o);
    CHECK_MSG(odv == dom, "%s: jet_od_validate %s, the DOM reader %s", name,
              odv ? "accepts" : "rejects", dom ? "accepts" : "rejects");
    /* the verdicts agree; so must the kind of error */
    if (!dom && !val) CHECK_MSG(verr.code == derr.code, "%s: jet_validate says %s, the DOM "
                                "reader %s", name, jet_code_name(verr.code),
                                jet_code_name(derr.code));

    jet_read_opts all = *o;
    all.flags |= JET_READ_VALIDATE_ALL;
    bool cur = cursor_reads_all(json, len, &all);
    /* a number beyond a double's range is valid JSON that the DOM reader
     * cannot hold; the cursor reading it as raw text (walk) may accept it */
    bool range_only = !dom && derr.code == JET_ERR_NUMBER_RANGE;
    CHECK_MSG(cur == dom || (cur && range_only),
              "%s: the cursor (reading all, VALIDATE_ALL) %s, the DOM reader %s", name,
              cur ? "accepts" : "rejects", dom ? "accepts" : "rejects");
    if (dom) {
        cur = cursor_reads_all(json, len, o);
        CHECK_MSG(cur, "%s: the cursor reading every value rejects: %s", name,
                  jet_od_error(od)->msg);
    } else {
        (void)cursor_reads_all(json, len, o); /* no crash */
    }

    /* typed decoding: no crash; with VALIDATE_ALL no acceptance of what
     * the DOM reader rejects */
    jet_arena arena;
    jet_arena_init(&arena, NULL);
    TwTimeline tl;
    jet_error terr;
    (void)jet_decode(od, json, len, &tw_timeline_type, &tl, &arena, o, &terr);
    jet_arena_reset(&arena);
    bool typed = jet_decode(od, json, len, &tw_timeline_type, &tl, &arena, &all, &terr);
    CHECK_MSG(dom || !typed, "%s: typed decoding with VALIDATE_ALL accepts what the DOM reader "
              "rejects", name);
    jet_arena_free(&arena);

    if (d) round_trip(name, d, o);
    jet_doc_free(d);
}

static void run_file(const char *dir, const char *file) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    size_t len = 0;
    char *json = check_read_file(path, &len);
    CHECK_MSG(json != NULL, "cannot read %s", path);
    if (!json) return;
    jet_read_opts strict, lenient;
    memset(&strict, 0, sizeof strict);
    memset(&lenient, 0, sizeof lenient);
    lenient.flags = JET_READ_ALLOW_COMMENTS | JET_READ_ALLOW_TRAILING_COMMAS |
                    JET_READ_ALLOW_NAN_INF | JET_READ_ALLOW_INVALID_UTF8 | JET_READ_BIGNUM_AS_RAW;
    run_one(file, json, len, &strict, "strict");
    run_one(file, json, len, &lenient, "lenient");
    free(json);
}

/* Every regular file of `dir` but README.md, in name order; the count. */
static size_t run_dir(const char *dir) {
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    if (n < 0) return 0;
    size_t done = 0;
    for (int i = 0; i < n; i++) {
        const char *f = names[i]->d_name;
        if (f[0] != '.' && strcmp(f, "README.md") != 0) {
            run_file(dir, f);
            done++;
        }
        free(names[i]);
    }
    free(names);
    return done;
}

int main(void) {
    od = jet_od_new(NULL);
    if (!od) return 1;
    size_t n = run_dir(JET_SOURCE_DIR "/tests/regressions");
    CHECK_MSG(n >= 10, "only %zu files in tests/regressions", n);
    printf("tests/regressions: %zu inputs\n", n);

    char tmp[] = "/tmp/jet_test_regressions_XXXXXX";
    if (mkdtemp(tmp)) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "bash '%s/scripts/fuzz-seeds.sh' hostile '%s'", JET_SOURCE_DIR,
                 tmp);
        CHECK_MSG(system(cmd) == 0, "%s failed", cmd);
        size_t h = run_dir(tmp);
        CHECK_MSG(h >= 10, "only %zu hostile inputs", h);
        printf("hostile inputs: %zu\n", h);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
    }
    jet_od_free(od);
    return CHECK_DONE("test_regressions");
}
