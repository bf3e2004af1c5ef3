/* test_cli.c — drives the built `jet` tool (JET_BINARY_DIR/jet) through
 * the shell on temporary files: every command, --help, --version, stdin as
 * '-', exit codes, and the FILE:LINE:COL: message diagnostic. POSIX only. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "cli_harness.h"

#ifndef JET_BINARY_DIR
#define JET_BINARY_DIR "."
#endif

/* Runs `jet ARGS` inside the temp dir (optionally with stdin from a file). */
static result run(const char *args, const char *stdin_file) {
    char prog[600];
    snprintf(prog, sizeof prog, "'%s'", jet);
    return run_prog(prog, args, stdin_file);
}

static void expect(const char *args, const char *stdin_file, int rc, const char *out,
                   const char *err_has, int line) {
    result r = run(args, stdin_file);
    CHECK_MSG(r.rc == rc, "line %d: jet %s: exit %d, want %d (stderr: %s)", line, args, r.rc,
              rc, r.err);
    if (out)
        CHECK_MSG(strcmp(r.out, out) == 0, "line %d: jet %s: stdout [%s] want [%s]", line,
                  args, r.out, out);
    if (err_has)
        CHECK_MSG(strstr(r.err, err_has) != NULL, "line %d: jet %s: stderr [%s] lacks [%s]",
                  line, args, r.err, err_has);
    done(&r);
}
#define EXPECT(args, in, rc, out, err) expect((args), (in), (rc), (out), (err), __LINE__)

static void test_general(void) {
    result r = run("--version", NULL);
    CHECK(r.rc == 0 && strncmp(r.out, "jet 0.", 6) == 0 && strstr(r.out, "kernel") != NULL);
    done(&r);
    r = run("--help", NULL);
    CHECK(r.rc == 0 && strstr(r.out, "validate") && strstr(r.out, "fmt") &&
          strstr(r.out, "stats") && strstr(r.out, "get") && r.err[0] == 0);
    done(&r);
    static const char *cmds[4] = {"validate", "fmt", "stats", "get"};
    for (int i = 0; i < 4; i++) {
        char a[64];
        snprintf(a, sizeof a, "%s --help", cmds[i]);
        r = run(a, NULL);
        CHECK_MSG(r.rc == 0 && strstr(r.out, "usage: jet") && strstr(r.out, cmds[i]),
                  "jet %s: rc %d", a, r.rc);
        done(&r);
    }
    EXPECT("", NULL, 2, "", "usage");
    EXPECT("frobnicate", NULL, 2, "", "unknown command");
    EXPECT("fmt --bogus", NULL, 2, "", "unknown option");
    EXPECT("fmt --pretty=16 x.json", NULL, 2, "", "1..15");
    EXPECT("stats", NULL, 2, "", NULL);
    EXPECT("get ok.json", NULL, 2, "", NULL);
    EXPECT("validate", NULL, 2, "", NULL);
    EXPECT("validate --max-depth=x ok.json", NULL, 2, "", NULL);
}

static void test_validate(void) {
    EXPECT("validate ok.json", NULL, 0, "", NULL);
    EXPECT("validate ok.json ok.json", NULL, 0, "", NULL);
    EXPECT("validate -", "ok.json", 0, "", NULL);
    /* bad.json: line 3, column 9 is the stray ']' */
    EXPECT("validate bad.json", NULL, 1, "", "bad.json:3:10: ");
    EXPECT("validate ok.json bad.json ok.json", NULL, 1, "", "bad.json:3:10: ");
    EXPECT("validate missing.json", NULL, 1, "", "missing.json");
    result r = run("validate bad.json", NULL);
    /* exactly one line: FILE:LINE:COL: message */
    CHECK(strncmp(r.err, "bad.json:3:10: ", 15) == 0 && strlen(r.err) > 16 &&
          strchr(r.err, '\n') == r.err + strlen(r.err) - 1);
    done(&r);
    /* reader options */
    EXPECT("validate comments.json", NULL, 1, "", "comments.json:1:");
    EXPECT("validate --allow-comments --allow-trailing-commas comments.json", NULL, 0, "",
           NULL);
    EXPECT("validate nan.json", NULL, 1, "", "nan.json:1:");
    EXPECT("validate --allow-nan-inf nan.json", NULL, 0, "", NULL);
    EXPECT("validate deep.json", NULL, 0, "", NULL);
    EXPECT("validate --max-depth=3 deep.json", NULL, 1, "", "deep.json:1:4: ");
}

static void test_fmt(void) {
    EXPECT("fmt ok.json", NULL, 0,
           "{\n  \"a\": [\n    1,\n    2.5,\n    \"\xc3\xa9/\"\n  ],\n  \"b\": {},\n"
           "  \"c\": null\n}\n",
           NULL);
    EXPECT("fmt --pretty ok.json", NULL, 0,
           "{\n  \"a\": [\n    1,\n    2.5,\n    \"\xc3\xa9/\"\n  ],\n  \"b\": {},\n"
           "  \"c\": null\n}\n",
           NULL);
    EXPECT("fmt --pretty=4 ok.json", NULL, 0,
           "{\n    \"a\": [\n        1,\n        2.5,\n        \"\xc3\xa9/\"\n    ],\n"
           "    \"b\": {},\n    \"c\": null\n}\n",
           NULL);
    EXPECT("fmt --minify ok.json", NULL, 0,
           "{\"a\":[1,2.5,\"\xc3\xa9/\"],\"b\":{},\"c\":null}\n", NULL);
    EXPECT("fmt --minify --ascii --escape-slashes ok.json", NULL, 0,
           "{\"a\":[1,2.5,\"\\u00e9\\/\"],\"b\":{},\"c\":null}\n", NULL);
    EXPECT("fmt --minify -", "ok.json", 0,
           "{\"a\":[1,2.5,\"\xc3\xa9/\"],\"b\":{},\"c\":null}\n", NULL);
    EXPECT("fmt --minify", "ok.json", 0,
           "{\"a\":[1,2.5,\"\xc3\xa9/\"],\"b\":{},\"c\":null}\n", NULL);
    EXPECT("fmt --minify --allow-nan-inf nan.json", NULL, 0, "[NaN,-Infinity]\n", NULL);
    EXPECT("fmt --minify --allow-comments --allow-trailing-commas comments.json", NULL, 0,
           "[1,2]\n", NULL);
    EXPECT("fmt bad.json", NULL, 1, "", "bad.json:3:10: ");
    EXPECT("fmt -", "bad.json", 1, "", ":3:10: ");
    EXPECT("fmt ok.json ok.json", NULL, 2, "", NULL);
}

/* --max-size: checked while reading, on files, standard input and devices */
static void test_max_size(void) {
    EXPECT("validate --max-size 1M /dev/zero", NULL, 1, "", "/dev/zero: input larger than 1048576");
    EXPECT("validate --max-size=64k -", "/dev/zero", 1, "", "<stdin>: input larger than 65536");
    EXPECT("fmt --max-size=1 -", "/dev/zero", 1, "", "stopped reading (--max-size=1)");
    EXPECT("validate --max-size=4 ok.json", NULL, 1, "", "ok.json: input larger than 4 bytes");
    EXPECT("validate --max-size=1K ok.json", NULL, 0, "", NULL);
    EXPECT("validate --max-size 0 ok.json", NULL, 0, "", NULL);
    EXPECT("stats --max-size=1g ok.json", NULL, 0, NULL, NULL);
    EXPECT("get --max-size=8 ok.json /a", NULL, 1, "", "input larger than 8 bytes");
    EXPECT("validate --max-size=1x ok.json", NULL, 2, "", "bad --max-size");
    EXPECT("validate --max-size=99999999999999999999 ok.json", NULL, 2, "", "bad --max-size");
    EXPECT("validate --max-size", NULL, 2, "", "bad --max-size");
    result r = run("validate --help", NULL);
    CHECK(strstr(r.out, "--max-size=N") && strstr(r.out, "1G for"));
    done(&r);
}

/* Invalid UTF-8 is never changed silently: written back as it was, or
 * with --ascii an error at its FILE:LINE:COL unless --replace-invalid-utf8 */
static void test_invalid_utf8(void) {
    EXPECT("fmt --minify bad8.json", NULL, 1, "", "bad8.json:1:4: ");
    EXPECT("fmt --minify --allow-invalid-utf8 bad8.json", NULL, 0, "[\"a\xff" "b\"]\n", NULL);
    EXPECT("fmt --minify --allow-invalid-utf8 --ascii bad8.json", NULL, 1, "",
           "bad8.json:1:4: invalid UTF-8");
    EXPECT("fmt --minify --allow-invalid-utf8 --ascii -", "bad8.json", 1, "", "<stdin>:1:4: ");
    EXPECT("fmt --minify --allow-invalid-utf8 --ascii --replace-invalid-utf8 bad8.json", NULL, 0,
           "[\"a\\ufffdb\"]\n", NULL);
    EXPECT("patch --minify --allow-invalid-utf8 --ascii bad8.json empty_patch.json", NULL, 1, "",
           "bad8.json:1:4: ");
    EXPECT("patch --minify --allow-invalid-utf8 --ascii --replace-invalid-utf8 bad8.json "
           "empty_patch.json", NULL, 0, "[\"a\\ufffdb\"]\n", NULL);
    /* valid input is unaffected by the flags */
    EXPECT("fmt --minify --allow-invalid-utf8 --ascii ok.json", NULL, 0,
           "{\"a\":[1,2.5,\"\\u00e9/\"],\"b\":{},\"c\":null}\n", NULL);
    /* numbers that fit no int64, uint64 or double are written as they were
     * read, not rounded to a double (nor refused: 1e400) */
    EXPECT("fmt --minify -", "big.json", 0,
           "[123456789012345678901234567890,18446744073709551616,-9223372036854775809,1e400,"
           "1.5]\n", NULL);
    EXPECT("get big.json /0", NULL, 0, "123456789012345678901234567890\n", NULL);
    EXPECT("validate big.json", NULL, 1, "", "big.json:1:");
    /* an escaped lone surrogate round-trips with the replacement asked for */
    EXPECT("fmt --minify --allow-invalid-utf8 --ascii --replace-invalid-utf8 lone.json", NULL, 0,
           "[\"\\udc80\"]\n", NULL);
}

static void test_stats(void) {
    EXPECT("stats ok.json", NULL, 0,
           "{\"objects\":2,\"arrays\":1,\"strings\":1,\"numbers\":2,\"integers\":1,"
           "\"doubles\":1,\"trues\":0,\"falses\":0,\"nulls\":1,\"keys\":3,"
           "\"max_depth\":2,\"string_bytes\":6}\n",
           NULL);
    EXPECT("stats -", "ok.json", 0,
           "{\"objects\":2,\"arrays\":1,\"strings\":1,\"numbers\":2,\"integers\":1,"
           "\"doubles\":1,\"trues\":0,\"falses\":0,\"nulls\":1,\"keys\":3,"
           "\"max_depth\":2,\"string_bytes\":6}\n",
           NULL);
    EXPECT("stats bad.json", NULL, 1, "", "bad.json:3:10: ");
}

static void test_get(void) {
    EXPECT("get ok.json /a/1", NULL, 0, "2.5\n", NULL);
    EXPECT("get ok.json /a", NULL, 0, "[1,2.5,\"\xc3\xa9/\"]\n", NULL);
    EXPECT("get ok.json ''", NULL, 0, "{\"a\":[1,2.5,\"\xc3\xa9/\"],\"b\":{},\"c\":null}\n",
           NULL);
    EXPECT("get ok.json /c", NULL, 0, "null\n", NULL);
    EXPECT("get - /b", "ok.json", 0, "{}\n", NULL);
    EXPECT("get bad.json /a", NULL, 1, "", "bad.json:3:10: ");
}

/* A pointer that names nothing: the message names the token that failed and
 * the value it was applied to, as FILE: POINTER: why, never a line, column
 * or offset (those would be into the pointer text, read as the file's). */
static void expect_get_error(const char *ptr, const char *in, const char *want, int line) {
    char args[256];
    snprintf(args, sizeof args, "get %s '%s'", in ? "-" : "ok.json", ptr);
    result r = run(args, in);
    char full[512];
    snprintf(full, sizeof full, "jet: %s: %s: %s\n", in ? "<stdin>" : "ok.json", ptr, want);
    CHECK_MSG(r.rc == 1 && r.out_len == 0 && strcmp(r.err, full) == 0,
              "line %d: jet %s: exit %d, stderr [%s] want [%s]", line, args, r.rc, r.err, full);
    CHECK_MSG(!strstr(r.err, "offset") && !strstr(r.err, "ok.json:1") && !strstr(r.err, ":1:"),
              "line %d: jet %s: a position in the pointer given as the file's: [%s]", line, args,
              r.err);
    done(&r);
}
#define EXPECT_GET_ERROR(ptr, in, want) expect_get_error((ptr), (in), (want), __LINE__)

static void test_get_errors(void) {
    /* ok.json: {"a": [1, 2.5, "\xc3\xa9/"], "b": {}, "c": null} */
    EXPECT_GET_ERROR("/zz", NULL, "no member \"zz\" in the object at the root");
    EXPECT_GET_ERROR("/b/x/y", NULL, "no member \"x\" in the object at /b");
    EXPECT_GET_ERROR("/b/a~1b~0", NULL, "no member \"a/b~\" in the object at /b");
    EXPECT_GET_ERROR("/a/3", NULL, "index 3 out of range (array of 3) at /a");
    EXPECT_GET_ERROR("/a/99999999999999999999999", NULL,
                     "index 99999999999999999999999 out of range (array of 3) at /a");
    EXPECT_GET_ERROR("/a/3", "ok.json", "index 3 out of range (array of 3) at /a");
    EXPECT_GET_ERROR("/a/01", NULL,
                     "\"01\" is not an array index (digits, no leading zero) for the array at /a");
    EXPECT_GET_ERROR("/a/x", NULL,
                     "\"x\" is not an array index (digits, no leading zero) for the array at /a");
    EXPECT_GET_ERROR("/a/", NULL,
                     "\"\" is not an array index (digits, no leading zero) for the array at /a");
    EXPECT_GET_ERROR("/a/-", NULL,
                     "\"-\" names the element after the last of the array at /a (of 3), which get "
                     "cannot return");
    EXPECT_GET_ERROR("/a/0/k", NULL, "/a/0 is a number: no member or element \"k\" inside it");
    EXPECT_GET_ERROR("/a/2/0", NULL, "/a/2 is a string: no member or element \"0\" inside it");
    EXPECT_GET_ERROR("/c/x", NULL, "/c is null: no member or element \"x\" inside it");
    /* malformed pointers */
    EXPECT_GET_ERROR("a", NULL, "a JSON Pointer is empty or starts with '/'");
    EXPECT_GET_ERROR("/a~2", NULL,
                     "bad escape \"~2\" at byte 2 of the pointer ('~' must be followed by '0' for "
                     "'~' or '1' for '/')");
    EXPECT_GET_ERROR("/b/x~", NULL,
                     "bad escape \"~\" at byte 4 of the pointer ('~' must be followed by '0' for "
                     "'~' or '1' for '/')");
}

/* ---- patch, merge, diff ---- */

static char *read_in_dir(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return slurp(path, NULL);
}

/* Entries of the temp dir whose names start with '.' (temporary files of
 * -o / -i), "." and ".." aside. */
static int hidden_files(void) {
    DIR *d = opendir(dir);
    int n = 0;
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static const char edit_files[][16] = {"base.json", "target.json", "p.json", "badop.json",
                                      "notarr.json", "trunc.json", "m.json", "out.json",
                                      "edit.json"};

static void test_edit(void) {
    static const char target_min[] = "{\"a\":2,\"b\":[1,9,2,3],\"c/d\":null}\n";
    write_file("base.json", "{\"a\": 1, \"b\": [1, 2, 3]}");
    write_file("target.json", "{\"a\": 2, \"b\": [1, 9, 2, 3], \"c/d\": null}");
    write_file("p.json", "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":2},"
                         "{\"op\":\"add\",\"path\":\"/b/1\",\"value\":9},"
                         "{\"op\":\"add\",\"path\":\"/c~1d\",\"value\":null}]");
    write_file("badop.json", "[{\"op\":\"add\",\"path\":\"/x\",\"value\":1},"
                             "{\"op\":\"test\",\"path\":\"/a\",\"value\":5}]");
    write_file("notarr.json", "{\"op\":\"add\"}");
    write_file("trunc.json", "{\"a\": ");
    write_file("m.json", "{\"b\": null, \"c\": {\"d\": true}}");

    /* diff */
    EXPECT("diff --minify base.json target.json", NULL, 0,
           "[{\"op\":\"replace\",\"path\":\"/a\",\"value\":2},"
           "{\"op\":\"add\",\"path\":\"/b/1\",\"value\":9},"
           "{\"op\":\"add\",\"path\":\"/c~1d\",\"value\":null}]\n", "");
    EXPECT("diff base.json base.json", NULL, 0, "[]\n", "");
    EXPECT("diff base.json - ", "base.json", 0, "[]\n", "");
    EXPECT("diff --pretty=1 base.json target.json", NULL, 0, NULL, "");
    result r = run("diff base.json target.json", NULL);
    static const char pretty_start[] = "[\n  {\n    \"op\": \"replace\",\n";
    CHECK(r.rc == 0 && strncmp(r.out, pretty_start, sizeof pretty_start - 1) == 0);
    done(&r);
    EXPECT("diff base.json trunc.json", NULL, 1, "", "trunc.json:1:");
    EXPECT("diff trunc.json base.json", NULL, 1, "", "trunc.json:1:");
    EXPECT("diff base.json", NULL, 2, "", "expected");
    EXPECT("diff -i base.json target.json", NULL, 2, "", "unknown option");
    EXPECT("diff - -", "base.json", 2, "", "standard input");

    /* patch: the result, pretty by default */
    EXPECT("patch --minify base.json p.json", NULL, 0, target_min, "");
    EXPECT("patch base.json p.json", NULL, 0,
           "{\n  \"a\": 2,\n  \"b\": [\n    1,\n    9,\n    2,\n    3\n  ],\n"
           "  \"c/d\": null\n}\n", "");
    EXPECT("patch --minify - p.json", "base.json", 0, target_min, "");
    /* errors: exit 1, nothing on stdout, the failing operation on stderr */
    r = run("patch base.json badop.json", NULL);
    CHECK_MSG(r.rc == 1 && r.out_len == 0 &&
                  strncmp(r.err, "jet: badop.json: operation 1 (test) at \"/a\": ", 42) == 0,
              "patch failure: rc %d, stderr [%s]", r.rc, r.err);
    done(&r);
    EXPECT("patch base.json notarr.json", NULL, 1, "", "jet: notarr.json: ");
    EXPECT("patch base.json trunc.json", NULL, 1, "", "trunc.json:1:");
    EXPECT("patch trunc.json p.json", NULL, 1, "", "trunc.json:1:");
    EXPECT("patch missing.json p.json", NULL, 1, "", "missing.json");
    EXPECT("patch base.json", NULL, 2, "", "PATCHFILE");

    /* merge */
    EXPECT("merge --minify base.json m.json", NULL, 0, "{\"a\":1,\"c\":{\"d\":true}}\n", "");
    EXPECT("merge base.json trunc.json", NULL, 1, "", "trunc.json:1:");
    EXPECT("merge base.json", NULL, 2, "", "MERGEFILE");

    /* -o: the file gets the text, stdout nothing; a failure leaves the
     * target as it was; no temporary file is left either way */
    EXPECT("patch --minify -o out.json base.json p.json", NULL, 0, "", "");
    char *got = read_in_dir("out.json");
    CHECK(strcmp(got, target_min) == 0);
    free(got);
    EXPECT("patch -o out.json base.json badop.json", NULL, 1, "", "operation 1 (test)");
    EXPECT("merge --output=out.json base.json trunc.json", NULL, 1, "", "trunc.json:1:");
    got = read_in_dir("out.json");
    CHECK(strcmp(got, target_min) == 0);
    free(got);
    EXPECT("diff --minify -o out.json base.json base.json", NULL, 0, "", "");
    got = read_in_dir("out.json");
    CHECK(strcmp(got, "[]\n") == 0);
    free(got);
    CHECK(hidden_files() == 0);
    EXPECT("patch -o no-such-dir/out.json base.json p.json", NULL, 1, "", "could not write");
    EXPECT("patch -o", NULL, 2, "", "-o needs a FILE");
    CHECK(hidden_files() == 0);

    /* -i: the file is replaced by the result, keeping its mode */
    write_file("edit.json", "{\"a\": 1, \"b\": [1, 2, 3]}");
    char path[512];
    snprintf(path, sizeof path, "%s/edit.json", dir);
    CHECK(chmod(path, 0640) == 0);
    EXPECT("patch -i --minify edit.json p.json", NULL, 0, "", "");
    got = read_in_dir("edit.json");
    CHECK(strcmp(got, target_min) == 0);
    free(got);
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
    EXPECT("patch --in-place edit.json badop.json", NULL, 1, "", "operation 1 (test)");
    EXPECT("merge -i edit.json trunc.json", NULL, 1, "", "trunc.json:1:");
    got = read_in_dir("edit.json");
    CHECK(strcmp(got, target_min) == 0);
    free(got);
    EXPECT("merge -i --minify edit.json m.json", NULL, 0, "", "");
    got = read_in_dir("edit.json");
    CHECK(strcmp(got, "{\"a\":2,\"c/d\":null,\"c\":{\"d\":true}}\n") == 0);
    free(got);
    CHECK(hidden_files() == 0);
    EXPECT("patch -i -o out.json edit.json p.json", NULL, 2, "", "exclude");
    EXPECT("patch -i - p.json", "base.json", 2, "", "-i needs a FILE");

    static const char *cmds[3] = {"patch", "merge", "diff"};
    for (int i = 0; i < 3; i++) {
        char a[64];
        snprintf(a, sizeof a, "%s --help", cmds[i]);
        r = run(a, NULL);
        CHECK_MSG(r.rc == 0 && strstr(r.out, "usage: jet") && strstr(r.out, cmds[i]) &&
                      strstr(r.out, "--minify") && strstr(r.out, "-o FILE"),
                  "jet %s: rc %d", a, r.rc);
        done(&r);
    }
    r = run("--help", NULL);
    CHECK(strstr(r.out, "patch FILE PATCHFILE") && strstr(r.out, "merge FILE MERGEFILE") &&
          strstr(r.out, "diff A B"));
    done(&r);

    for (size_t i = 0; i < sizeof edit_files / sizeof edit_files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, edit_files[i]);
        remove(path);
    }
}

/* ---- streams: --ndjson, .ndjson/.jsonl, stdin, -j, streaming output ---- */

static void test_streams(void) {
    /* s.ndjson: line 4 is bad at column 10; lines 2 and 6 are blank */
    EXPECT("fmt s.ndjson", NULL, 1, "{\"a\":1}\n[1,2]\n", "s.ndjson:4:10: invalid literal");
    EXPECT("fmt --ndjson -", "s.ndjson", 1, "{\"a\":1}\n[1,2]\n", "<stdin>:4:10: ");
    EXPECT("fmt --ndjson --pretty - -j 1", "good.txt", 0,
           "{\n  \"a\": 1\n}\n{\n  \"a\": [\n    2\n  ]\n}\n\"x\"\n", NULL);
    EXPECT("fmt good.jsonl", NULL, 0, "{\"a\":1}\n{\"a\":[2]}\n\"x\"\n", NULL);
    EXPECT("fmt --minify good.txt", NULL, 1, "", "good.txt:2:1: unexpected content after the document");
    /* validate: the validator, every bad line reported, the run goes on */
    EXPECT("validate s.ndjson", NULL, 1, "", "s.ndjson:4:10: ");
    result r = run("validate --ndjson - -j 2", "s.ndjson");
    CHECK(r.rc == 1 && strstr(r.err, "<stdin>:4:10: ") && strstr(r.err, "<stdin>:7:4: ") &&
          r.out[0] == 0);
    done(&r);
    EXPECT("validate good.jsonl ok.json", NULL, 0, "", NULL);
    EXPECT("validate --ndjson ok.json", NULL, 1, "", "ok.json:1:");
    /* a byte order mark is an error */
    EXPECT("validate bom.ndjson", NULL, 1, "", "bom.ndjson:1:1: byte order mark");
    /* get, stats, patch, merge per document */
    EXPECT("get good.jsonl /a", NULL, 1, "1\n[2]\n", "good.jsonl:4: /a: ");
    EXPECT("stats good.jsonl", NULL, 0, NULL, NULL);
    r = run("stats good.jsonl", NULL);
    CHECK(r.rc == 0 && strncmp(r.out, "{\"objects\":1,", 13) == 0 && r.out_len > 100);
    size_t lines = 0;
    for (size_t i = 0; i < r.out_len; i++) lines += r.out[i] == '\n';
    CHECK(lines == 3);
    done(&r);
    write_file("p.json", "[{\"op\":\"add\",\"path\":\"/b\",\"value\":true}]");
    EXPECT("patch --minify objs.ndjson p.json", NULL, 0, "{\"a\":1,\"b\":true}\n{\"b\":true}\n", NULL);
    EXPECT("patch good.jsonl p.json", NULL, 1, "{\"a\":1,\"b\":true}\n{\"a\":[2],\"b\":true}\n",
           "jet: p.json: document at good.jsonl:4: operation 0 (add)");
    write_file("m.json", "{\"a\":null,\"c\":3}");
    EXPECT("merge objs.ndjson m.json", NULL, 0, "{\"c\":3}\n{\"c\":3}\n", NULL);
    EXPECT("patch -o x.json objs.ndjson p.json", NULL, 2, "", "--ndjson");
    EXPECT("diff --ndjson objs.ndjson objs.ndjson", NULL, 2, "", "--ndjson");
    EXPECT("fmt -j 0 s.ndjson", NULL, 2, "", "-j");
    EXPECT("fmt missing.ndjson", NULL, 1, "", "missing.ndjson: cannot open file");

    /* many documents: every thread count gives the same output, in order;
     * no progress line when stderr is not a terminal */
    char path[512];
    snprintf(path, sizeof path, "%s/big.ndjson", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    for (int i = 0; i < 40000; i++) fprintf(f, "{\"id\": %d, \"s\": \"%*d\", \"xs\": [%d, %d.5]}\n", i, i % 50, i, i % 7, i);
    fclose(f);
    result one = run("fmt big.ndjson -j 1", NULL);
    CHECK(one.rc == 0 && one.err[0] == 0);
    size_t n = 0;
    for (size_t i = 0; i < one.out_len; i++) n += one.out[i] == '\n';
    CHECK(n == 40000 && strncmp(one.out, "{\"id\":0,", 8) == 0);
    for (int j = 2; j <= 4; j++) {
        char args[64];
        snprintf(args, sizeof args, "fmt --jobs=%d big.ndjson", j);
        result many = run(args, NULL);
        CHECK_MSG(many.rc == 0 && many.out_len == one.out_len && memcmp(many.out, one.out, one.out_len) == 0 &&
                  many.err[0] == 0, "%s", args);
        done(&many);
    }
    done(&one);
    EXPECT("validate big.ndjson", NULL, 0, "", NULL);
    remove(path);

    /* streaming: the first document's output is out before the input ends
     * (the writer of the input waits, up to 20 s, to see it) */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f early.txt && (printf '{\"a\": 1}\\n'; i=0; "
             "while [ ! -s stream_out.txt ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; "
             "cp stream_out.txt early.txt; printf '[2]\\n') | '%s' fmt --ndjson -j 2 - >stream_out.txt",
             dir, jet);
    int st = system(cmd);
    CHECK(st == 0);
    snprintf(path, sizeof path, "%s/early.txt", dir);
    size_t elen = 0;
    char *early = slurp(path, &elen);
    CHECK_MSG(strcmp(early, "{\"a\":1}\n") == 0, "early output [%s]", early);
    free(early);
    snprintf(path, sizeof path, "%s/stream_out.txt", dir);
    char *all = slurp(path, NULL);
    CHECK(strcmp(all, "{\"a\":1}\n[2]\n") == 0);
    free(all);
}

int main(void) {
    snprintf(jet, sizeof jet, "%s/jet", JET_BINARY_DIR);
    if (access(jet, X_OK) != 0) {
        fprintf(stderr, "test_cli: %s not built\n", jet);
        CHECK_MSG(0, "missing %s", jet);
        return CHECK_DONE("test_cli");
    }
    /* mkdtemp wants six trailing X characters. */
    snprintf(dir, sizeof dir, "/tmp/jet_test_cli_");
    memset(dir + strlen(dir), 'X', 6);
    dir[strlen("/tmp/jet_test_cli_") + 6] = '\0';
    if (!mkdtemp(dir)) {
        CHECK_MSG(0, "mkdtemp failed");
        return CHECK_DONE("test_cli");
    }
    write_file("ok.json", "{\"a\": [1, 2.5, \"\xc3\xa9/\"],\n \"b\": {}, \"c\": null}");
    write_file("bad.json", "{\n  \"a\": [1,\n    2, 3]]\n}\n");
    write_file("comments.json", "// c\n[1, /* two */ 2,]\n");
    write_file("nan.json", "[NaN, -Infinity]");
    write_file("deep.json", "[[[[1]]]]");
    write_file("s.ndjson", "{\"a\": 1}\n\n[1, 2]\n{\"a\": tru}\n\"x\"\n \n[1,]\n");
    write_file("good.jsonl", "{\"a\": 1}\r\n{\"a\": [2]}\n\n\"x\"");
    write_file("good.txt", "{\"a\": 1}\r\n{\"a\": [2]}\n\n\"x\"");
    write_file("objs.ndjson", "{\"a\": 1}\n{}\n");
    write_file("bom.ndjson", "\xef\xbb\xbf{}\n");
    write_file("bad8.json", "[\"a\xff" "b\"]");
    write_file("lone.json", "[\"\\udc80\"]");
    write_file("empty_patch.json", "[]");
    write_file("big.json", "[123456789012345678901234567890, 18446744073709551616, "
                           "-9223372036854775809, 1e400, 1.50]");

    test_general();
    test_validate();
    test_fmt();
    test_stats();
    test_get();
    test_get_errors();
    test_edit();
    test_streams();
    test_max_size();
    test_invalid_utf8();

    static const char *files[] = {"ok.json", "bad.json", "comments.json", "nan.json",
                                  "deep.json", "out.txt", "err.txt", "s.ndjson", "good.jsonl",
                                  "good.txt", "objs.ndjson", "bom.ndjson", "p.json", "m.json",
                                  "early.txt", "stream_out.txt", "bad8.json", "lone.json",
                                  "empty_patch.json", "big.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        remove(path);
    }
    rmdir(dir);
    return CHECK_DONE("test_cli");
}
