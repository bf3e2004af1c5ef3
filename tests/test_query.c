/* test_query.c — `jet query` (tools/query/, docs/query.md):
 *   1. tests/query_cases.txt: every construct of the subset against
 *      expected outputs written from jq's manual, run in-process;
 *   2. the command: output forms (pretty, -c, -r, -j, -s, -n, -a), --arg,
 *      --argjson, exit statuses, FILE:LINE:COL of documents, the NDJSON
 *      fast path against the general one, exact large numbers;
 *   2b. NDJSON through the stream: -j 1..4 give the same output and
 *      errors, lines longer than a read chunk, invalid JSON mid-stream,
 *      several inputs, a pipe's output before its input ends;
 *   3. when jq is on PATH: 300 generated filters (30 with
 *      JET_SHORT_TESTS=1; JET_TEST_SEED picks others) on 12 documents
 *      through both, stdout and whether an error was reported compared
 *      (inputs without large integers or floats that jq prints differently).
 * POSIX only (the command is driven through the shell). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "query.h"
#include "cli_harness.h"

#ifndef JET_BINARY_DIR
#define JET_BINARY_DIR "."
#endif
#ifndef JET_SOURCE_DIR
#define JET_SOURCE_DIR "."
#endif

/* ---- 1. the cases file, in-process ---- */

typedef struct outs {
    qbuf text; /* output lines, compact, each ending in '\n' */
} outs;

static bool collect_line(void *ctx, qv v) {
    outs *o = (outs *)ctx;
    jet_buf b;
    jet_buf_init(&b, NULL);
    bool ok = qv_to_json(&b, v) && qbuf_push(&o->text, b.data, b.len) && qbuf_push(&o->text, "\n", 1);
    jet_buf_free(&b);
    return ok;
}

/* Runs `filter` on each document of `input`; the outputs and, after a
 * runtime error, "error: MSG" or, when it does not compile,
 * "compile: LINE:COL: MSG", one per line. */
static char *run_filter(const char *filter, const char *input) {
    outs o;
    memset(&o, 0, sizeof o);
    qerror qe;
    qprog *p = qprog_compile(filter, strlen(filter), NULL, 0, &qe);
    char line[400];
    if (!p) {
        snprintf(line, sizeof line, "compile: %zu:%zu: %s\n", qe.line, qe.col, qe.msg);
        qbuf_push(&o.text, line, strlen(line));
    } else {
        qrun r;
        qrun_init(&r);
        r.max_steps = 10000000;
        jet_read_opts opts;
        memset(&opts, 0, sizeof opts);
        opts.flags = JET_READ_NUMBER_AS_RAW | JET_READ_STOP_WHEN_DONE;
        size_t len = strlen(input), pos = 0;
        while (pos < len) {
            while (pos < len && (input[pos] == ' ' || input[pos] == '\n')) pos++;
            if (pos >= len) break;
            jet_error err;
            jet_doc *d = jet_read(input + pos, len - pos, &opts, NULL, &err);
            CHECK(d != NULL);
            if (!d) break;
            pos += jet_doc_read_size(d);
            qrun_reset(&r);
            if (!qrun_eval(&r, p, qv_from_jet(jet_doc_root(d)), collect_line, &o) && r.failed) {
                snprintf(line, sizeof line, "error: %s\n", r.msg);
                qbuf_push(&o.text, line, strlen(line));
            }
            jet_doc_free(d);
        }
        qrun_free(&r);
        qprog_free(p);
    }
    qbuf_push(&o.text, "", 1);
    return o.text.data;
}

/* Does `got` match the expected lines? "error: X" / "compile: X" lines
 * match a line of the same kind that contains X. */
static bool outputs_match(const char *want, const char *got) {
    while (*want || *got) {
        const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
        if (!we || !ge) return false;
        size_t wl = (size_t)(we - want), gl = (size_t)(ge - got);
        bool kind = (wl > 7 && strncmp(want, "error: ", 7) == 0) ||
                    (wl > 9 && strncmp(want, "compile: ", 9) == 0);
        if (kind) {
            size_t pre = want[0] == 'e' ? 7 : 9;
            char needle[300];
            snprintf(needle, sizeof needle, "%.*s", (int)(wl - pre), want + pre);
            char hay[600];
            snprintf(hay, sizeof hay, "%.*s", (int)gl, got);
            if (strncmp(hay, want, pre) != 0 || !strstr(hay + pre, needle)) return false;
        } else if (wl != gl || memcmp(want, got, wl) != 0) {
            return false;
        }
        want = we + 1;
        got = ge + 1;
    }
    return true;
}

static void test_cases_file(void) {
    size_t len = 0;
    char *text = check_read_file(JET_SOURCE_DIR "/tests/query_cases.txt", &len);
    CHECK(text != NULL);
    if (!text) return;
    int cases = 0;
    char *p = text;
    while (*p) {
        char *eol = strchr(p, '\n');
        if (!eol) break;
        *eol = 0;
        if (strncmp(p, "filter:", 7) != 0) {
            p = eol + 1;
            continue;
        }
        const char *filter = p[7] == ' ' ? p + 8 : p + 7;
        char *in = eol + 1;
        char *in_eol = strchr(in, '\n');
        CHECK(in_eol && strncmp(in, "input: ", 7) == 0);
        if (!in_eol) break;
        *in_eol = 0;
        const char *input = in + 7;
        /* expected lines up to a blank line */
        char *want = in_eol + 1, *q = want;
        while (*q && *q != '\n') {
            char *e = strchr(q, '\n');
            q = e ? e + 1 : q + strlen(q);
        }
        char saved = *q;
        *q = 0;
        char *got = run_filter(filter, input);
        if (!outputs_match(want, got)) {
            fprintf(stderr, "query case failed: %s\n  input: %s\n  want:\n%s  got:\n%s", filter,
                    input, want, got);
            CHECK(false);
        }
        free(got);
        cases++;
        *q = saved;
        p = *q ? q + 1 : q;
    }
    CHECK(cases > 150);
    printf("query cases: %d\n", cases);
    free(text);
}

/* ---- 2. the command ---- */

static result run_jet(const char *args, const char *in) {
    char prog[600];
    snprintf(prog, sizeof prog, "'%s' query", jet);
    return run_prog(prog, args, in);
}

static void expect_run(const char *args, const char *in, int rc, const char *out, const char *err_part) {
    result r = run_jet(args, in);
    bool ok = r.rc == rc && (!out || strcmp(r.out, out) == 0) && (!err_part || strstr(r.err, err_part));
    if (!ok)
        fprintf(stderr, "jet query %s: rc %d (want %d)\n  out: [%s] want [%s]\n  err: [%s] want [%s]\n",
                args, r.rc, rc, r.out, out ? out : "*", r.err, err_part ? err_part : "*");
    CHECK(ok);
    done(&r);
}

static void test_command(void) {
    write_file("doc.json", "{\"a\":{\"b\":[1,2]},\"s\":\"h\\u00e9\",\"n\":12345678901234567890123.50}\n");
    write_file("multi.json", "{\"id\":1} {\"id\":2}\n[3]\n\"x\"");
    write_file("lines.ndjson", "{\"id\":1,\"s\":\"a\"}\n\n{\"id\":18446744073709551615,\"s\":\"b\\n\"}\n"
                               "{\"s\":{\"k\":[1]}}\n{\"x\":1}\nnull\n{\"id\":-0.5e3}");
    write_file("bad.json", "{\"a\":1}\n{\"a\":2,}\n");
    write_file("nums.json", "5\n\"a\"\n6\n");

    /* pretty by default (2 spaces), compact, raw, join */
    expect_run(".a doc.json", NULL, 0, "{\n  \"b\": [\n    1,\n    2\n  ]\n}\n", NULL);
    expect_run("-c .a doc.json", NULL, 0, "{\"b\":[1,2]}\n", NULL);
    expect_run("-c '[]' doc.json", NULL, 0, "[]\n", NULL);
    expect_run("'{}' doc.json", NULL, 0, "{}\n", NULL);
    expect_run(".s doc.json", NULL, 0, "\"h\xc3\xa9\"\n", NULL);
    expect_run("-r .s doc.json", NULL, 0, "h\xc3\xa9\n", NULL);
    expect_run("-a .s doc.json", NULL, 0, "\"h\\u00e9\"\n", NULL);
    expect_run("--join-output '.s, .a.b[0]' doc.json", NULL, 0, "h\xc3\xa9" "1", NULL);
    expect_run("-j 2 -c .a.b doc.json", NULL, 0, "[1,2]\n", NULL);
    expect_run("-j .a doc.json", NULL, 2, "", "-j needs a thread count");
    expect_run("-rc '.a.b, .s' doc.json", NULL, 0, "[1,2]\nh\xc3\xa9\n", NULL);
    /* numbers exactly as read */
    expect_run(".n doc.json", NULL, 0, "12345678901234567890123.50\n", NULL);
    /* several documents; stdin; slurp; null input */
    expect_run("-c .id multi.json", NULL, 5, "1\n2\n", "multi.json:2:1: query:1:1: Cannot index array with \"id\"");
    expect_run("-c '.id?' multi.json", NULL, 0, "1\n2\n", NULL);
    expect_run("-c '.[0]?' -", "multi.json", 0, "3\n", NULL);
    expect_run("-c -s 'length, map(type)' multi.json nums.json", NULL, 0,
               "7\n[\"object\",\"object\",\"array\",\"string\",\"number\",\"string\",\"number\"]\n", NULL);
    expect_run("-n -c '[1, \"a\"]'", NULL, 0, "[1,\"a\"]\n", NULL);
    /* --arg and --argjson */
    expect_run("-c --arg x hi --argjson y '{\"z\":[1]}' -n '[$x, $y.z[0]]'", NULL, 0, "[\"hi\",1]\n", NULL);
    expect_run("--argjson y '{' -n '$y'", NULL, 2, "", "--argjson y: invalid JSON");
    /* exit statuses: usage 2, compile 3 (with the filter position), runtime 5 */
    expect_run("", NULL, 2, "", "missing FILTER");
    expect_run("--frobnicate .", NULL, 2, "", "unknown option");
    expect_run("'.a | reduce .[] as $x (0; .)' doc.json", NULL, 3, "", "jet: query:1:6: unsupported: reduce");
    expect_run("'.a +' doc.json", NULL, 3, "", "query:1:5: syntax error");
    expect_run("'.[] + 1' nums.json", NULL, 5, "", "nums.json:1:1: query:1:2: Cannot iterate over number (5)");
    expect_run("'. + 1' nums.json", NULL, 5, "6\n7\n", "nums.json:2:1: query:1:3: string (\"a\") and number (1) cannot be added");
    /* invalid JSON: FILE:LINE:COL of the whole file, exit 2, outputs before it kept */
    expect_run("-c .a bad.json", NULL, 2, "1\n", "bad.json:2:8:");
    expect_run("-c .a missing.json", NULL, 2, "", "missing.json: could not read");
    expect_run("--help", NULL, 0, NULL, NULL);

    /* one document and a plain path with indexes: the cursor answers it
     * (what the general path `... | .` gives, jq's errors included) */
    write_file("arr.json", " [{\"id\":1},{\"id\":\"x\",\"s\":[true,null]},5,null]\n");
    static const char *const paths[] = {".[1].id", ".[0]", ".[1].s[0]", ".[1].s[1]", ".[9].id",
                                        ".[3].id", ".[2].id", ".[1].id.x", ".a", ".[1][0]"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char fast_cmd[64], slow_cmd[64];
        snprintf(fast_cmd, sizeof fast_cmd, "-c '%s' arr.json", paths[i]);
        snprintf(slow_cmd, sizeof slow_cmd, "-c '%s | .' arr.json", paths[i]);
        result f = run_jet(fast_cmd, NULL);
        result g = run_jet(slow_cmd, NULL);
        CHECK_MSG(f.rc == g.rc && strcmp(f.out, g.out) == 0, "%s: rc %d/%d out '%s'/'%s'", paths[i], f.rc,
                  g.rc, f.out, g.out);
        done(&f);
        done(&g);
    }
    expect_run("-c '.[1].s[0]' arr.json", NULL, 0, "true\n", NULL);
    expect_run("-c '.[9].id' arr.json", NULL, 0, "null\n", NULL);
    expect_run("-c '.[2].id' arr.json", NULL, 5, "", "Cannot index number with \"id\"");
    expect_run("-c '.a' arr.json", NULL, 5, "", "Cannot index array with \"a\"");
    /* more documents after the first: each in turn, as jq */
    expect_run("-c '.[0]?' multi.json", NULL, 0, "3\n", NULL);

    /* --ndjson: the cursor's fast path gives what the general path gives */
    result fast = run_jet("-c --ndjson .id lines.ndjson", NULL);
    result slow = run_jet("-c '.id | .' lines.ndjson", NULL);
    CHECK(fast.rc == 0 && slow.rc == 0);
    CHECK(strcmp(fast.out, "1\n18446744073709551615\nnull\nnull\nnull\n-0.5e3\n") == 0);
    CHECK(strcmp(fast.out, slow.out) == 0);
    done(&fast);
    done(&slow);
    fast = run_jet("-c --ndjson .s lines.ndjson", NULL);
    slow = run_jet("-c '.s | .' lines.ndjson", NULL);
    CHECK(fast.rc == 0 && strcmp(fast.out, "\"a\"\n\"b\\n\"\n{\"k\":[1]}\nnull\nnull\nnull\n") == 0);
    CHECK(strcmp(fast.out, slow.out) == 0);
    done(&fast);
    done(&slow);
    fast = run_jet("-c --ndjson .s.k lines.ndjson", NULL);
    CHECK(fast.rc == 5 && strstr(fast.err, "lines.ndjson:1:1: query:1:3: Cannot index string with \"k\"\nlines.ndjson:3:1:"));
    CHECK(strcmp(fast.out, "[1]\nnull\nnull\nnull\n") == 0);
    done(&fast);
    /* a .jsonl name is NDJSON without the flag: a line is one document */
    write_file("auto.jsonl", "{\"id\":1}\n{\"id\":2}\n");
    write_file("auto.json", "{\"id\":1}\n{\"id\":\n2}\n");
    expect_run("-c .id auto.jsonl", NULL, 0, "1\n2\n", NULL);
    expect_run("-c .id auto.json", NULL, 0, "1\n2\n", NULL);
    expect_run("-c --ndjson .id auto.json", NULL, 2, "1\n", "auto.json:2:");
    /* an invalid line is an error on the fast path too, at its line */
    write_file("badline.ndjson", "{\"id\":1}\n{\"id\":2, \"x\":[1,}\n{\"id\":3}\n");
    expect_run("-c --ndjson .id badline.ndjson", NULL, 2, "1\n", "badline.ndjson:2:");
}

/* ---- 2b. NDJSON through the stream: threads, chunks, errors, pipes ---- */

#define STREAM_LINES 30000
#define LONG_LINE 14999   /* a 700 KB line: longer than a read chunk (256 KiB) */
#define BAD_EVERY 997     /* lines whose id is a string: `.id + 1` fails there */

/* Writes big.ndjson; `bad_line` (1-based, 0: none) is invalid JSON. */
static void write_stream_file(const char *name, int bad_line) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f) return;
    for (int i = 0; i < STREAM_LINES; i++) {
        if (i + 1 == bad_line) fprintf(f, "{\"id\": %d,}\n", i);
        else if (i % BAD_EVERY == BAD_EVERY - 1) fprintf(f, "{\"id\": \"s%d\", \"xs\": []}\n", i);
        else if (i == LONG_LINE) {
            fprintf(f, "{\"id\":%d,\"s\":\"", i);
            for (int k = 0; k < 700000; k++) fputc('a' + k % 26, f);
            fputs("\"}\n", f);
        } else {
            fprintf(f, "{\"xs\": [%d, %d.5], \"id\": %d}\n", i % 7, i, i);
        }
    }
    fclose(f);
}

static size_t count_lines(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static void test_stream(void) {
    write_stream_file("big.ndjson", 0);
    /* what `.id + 1` and `.id` give, computed here */
    qbuf plus = {NULL, 0, 0}, ids = {NULL, 0, 0};
    char line[64];
    int nbad = 0;
    bool pushed = true;
    for (int i = 0; i < STREAM_LINES; i++) {
        bool bad = i % BAD_EVERY == BAD_EVERY - 1;
        nbad += bad;
        int n = bad ? 0 : snprintf(line, sizeof line, "%d\n", i + 1);
        pushed &= qbuf_push(&plus, line, (size_t)n);
        n = bad ? snprintf(line, sizeof line, "\"s%d\"\n", i) : snprintf(line, sizeof line, "%d\n", i);
        pushed &= qbuf_push(&ids, line, (size_t)n);
    }
    CHECK(pushed && qbuf_push(&plus, "", 1) && qbuf_push(&ids, "", 1));
    result one = run_jet("-c '.id + 1' --ndjson -j 1 big.ndjson", NULL);
    CHECK(one.rc == 5 && strcmp(one.out, plus.data) == 0);
    CHECK(count_lines(one.err) == (size_t)nbad);
    CHECK(strncmp(one.err, "big.ndjson:997:1: query:1:5: string (\"s996\") and number (1) cannot be added\n",
                  75) == 0);
    for (int j = 2; j <= 4; j++) {
        char args[128];
        snprintf(args, sizeof args, "-c '.id + 1' big.ndjson --jobs=%d", j);
        result many = run_jet(args, NULL);
        CHECK_MSG(many.rc == 5 && strcmp(many.out, one.out) == 0 && strcmp(many.err, one.err) == 0,
                  "%s", args);
        done(&many);
    }
    done(&one);
    /* the cursor's fast path, and a filter with several outputs, from stdin */
    result fast = run_jet("-c .id --ndjson -j 3 -", "big.ndjson");
    CHECK(fast.rc == 0 && strcmp(fast.out, ids.data) == 0 && fast.err[0] == 0);
    done(&fast);
    one = run_jet("-c --ndjson -j 1 '.xs[]?, (.s | length)' big.ndjson", NULL);
    result four = run_jet("-c --ndjson -j 4 '.xs[]?, (.s | length)' big.ndjson", NULL);
    CHECK(one.rc == 0 && four.rc == 0 && strcmp(one.out, four.out) == 0 && strstr(one.out, "\n700000\n"));
    CHECK(count_lines(one.out) == 3 * (size_t)STREAM_LINES - 2 * (size_t)nbad - 2);
    done(&one);
    done(&four);
    /* invalid JSON mid-stream: the outputs before it, its absolute
     * FILE:LINE:COL, exit status 2, nothing after it */
    write_stream_file("big.ndjson", 20001);
    const char *cut = plus.data;
    for (int l = 0; l < 20000 - 20000 / BAD_EVERY; l++) cut = strchr(cut, '\n') + 1;
    for (int j = 1; j <= 3; j += 2) {
        char args[128];
        snprintf(args, sizeof args, "-c '.id + 1' --ndjson -j %d big.ndjson", j);
        result r = run_jet(args, NULL);
        CHECK_MSG(r.rc == 2 && r.out_len == (size_t)(cut - plus.data) &&
                  memcmp(r.out, plus.data, r.out_len) == 0, "%s", args);
        CHECK_MSG(strstr(r.err, "big.ndjson:20001:14: ") != NULL && !strstr(r.err, ":20998:"), "%s: %s",
                  args, r.err);
        done(&r);
    }
    qbuf_free(&plus);
    qbuf_free(&ids);
    char path[512];
    snprintf(path, sizeof path, "%s/big.ndjson", dir);
    remove(path);

    /* several NDJSON inputs: lines counted in each; --slurp reads them whole */
    write_file("two.ndjson", "{\"id\":7}\n\n\"x\"\n");
    expect_run("-c .id two.ndjson two.ndjson", NULL, 5, "7\n7\n",
               "two.ndjson:3:1: query:1:1: Cannot index string with \"id\"\ntwo.ndjson:3:1:");
    expect_run("-c -s length two.ndjson two.ndjson", NULL, 0, "4\n", NULL);
    expect_run("-c . --ndjson missing.ndjson two.ndjson", NULL, 2, "{\"id\":7}\n\"x\"\n",
               "missing.ndjson: could not read");
    /* jq's default input model on a pipe: whitespace-separated documents */
    write_file("concat.txt", "1 2\n[3] {\"a\":\n4}");
    expect_run("-c . -", "concat.txt", 0, "1\n2\n[3]\n{\"a\":4}\n", NULL);

    /* a pipe: the first line's output is out before the rest is written
     * (the writer of the input waits, up to 20 s, to see it) */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f early.txt && (printf '{\"a\": 1}\\n'; i=0; "
             "while [ ! -s stream_out.txt ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done; "
             "cp stream_out.txt early.txt; printf '{\"a\": [2]}\\n') | '%s' query -c --ndjson -j 2 "
             "'.a' - >stream_out.txt",
             dir, jet);
    CHECK(system(cmd) == 0);
    snprintf(path, sizeof path, "%s/early.txt", dir);
    char *early = slurp(path, NULL);
    CHECK_MSG(strcmp(early, "1\n") == 0, "early output [%s]", early);
    free(early);
    snprintf(path, sizeof path, "%s/stream_out.txt", dir);
    char *all = slurp(path, NULL);
    CHECK_MSG(strcmp(all, "1\n[2]\n") == 0, "output [%s]", all);
    free(all);
}

/* ---- 3. against jq ---- */

static uint64_t rng_state;
static unsigned rnd(unsigned n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

static void gen(qbuf *b, int depth);

static void put(qbuf *b, const char *s) {
    qbuf_push(b, s, strlen(s));
}

static void gen(qbuf *b, int depth) {
    static const char *const atoms[] = {
        ".", ".a", ".b", ".c", ".[0]", ".[-1]", ".[1:]", ".[:2]", ".[]", ".a[]?", ".\"b\"",
        ".[]?", ".a?", "1", "\"s\"", "null", "true", "[]", "{}", "-1.5", "length", "keys",
        "type", "sort", "unique", "add", "min", "max", "first", "last", "tostring",
        "to_entries", "not", "ascii_downcase", "tojson", "keys_unsorted", "empty",
        "from_entries", ".[1:3]", ".b[0]", "..", "map(type)", "has(\"a\")", "has(0)",
        "any", "all", "join(\"-\")", "ltrimstr(\"S\")", "with_entries(.)", "[limit(2; .[]?)]",
    };
    /* no `?` whose try could see a later error: jq 1.6 catches those too
     * (its bug, fixed in 1.7), jet does not */
    size_t natoms = sizeof atoms / sizeof atoms[0];
    if (depth <= 0 || rnd(3) == 0) {
        put(b, atoms[rnd((unsigned)natoms)]);
        return;
    }
    switch (rnd(16)) {
    case 0: gen(b, depth - 1); put(b, " | "); gen(b, depth - 1); break;
    case 1: gen(b, depth - 1); put(b, ", "); gen(b, depth - 1); break;
    case 2: put(b, "["); gen(b, depth - 1); put(b, "]"); break;
    case 3: put(b, "{k: ("); gen(b, depth - 1); put(b, "), a}"); break;
    case 4: {
        static const char *const ops[] = {" + ", " - ", " == ", " != ", " < ", " >= ", " and ",
                                          " or ", " // ", " * "};
        put(b, "(");
        gen(b, depth - 1);
        put(b, ")");
        put(b, ops[rnd(10)]);
        put(b, "(");
        gen(b, depth - 1);
        put(b, ")");
        break;
    }
    case 5: put(b, "select("); gen(b, depth - 1); put(b, ")"); break;
    case 6: put(b, "map("); gen(b, depth - 1); put(b, ")"); break;
    case 7: put(b, "sort_by("); gen(b, depth - 1); put(b, ")"); break;
    case 8: put(b, "\"x\\("); gen(b, depth - 1); put(b, ")y\""); break;
    case 9: put(b, "[.[]?, .a?, .[0]?]"); break;
    case 10: put(b, "if "); gen(b, depth - 1); put(b, " then "); gen(b, depth - 1);
        put(b, " else "); gen(b, depth - 1); put(b, " end"); break;
    case 11: put(b, "[.[]?][] as $v | "); gen(b, depth - 1); put(b, " | [., $v]"); break;
    case 12: put(b, "[.[]?] | "); gen(b, depth - 1); break;
    case 13: put(b, "first("); gen(b, depth - 1); put(b, ")"); break;
    case 14: put(b, "unique_by("); gen(b, depth - 1); put(b, ")"); break;
    default: put(b, "-(length)"); break;
    }
}

static void test_against_jq(void) {
    if (system("jq --version >/dev/null 2>&1") != 0) {
        printf("jq not on PATH: comparison skipped\n");
        return;
    }
    const char *seed = getenv("JET_TEST_SEED");
    rng_state = seed ? strtoull(seed, NULL, 10) : 20261201;
    if (!rng_state) rng_state = 1;
    write_file("cmp.json",
               "{\"a\":1,\"b\":[1,2,3],\"c\":\"H\xc3\xa9llo\"}\n[3,1,2]\n"
               "[{\"a\":2,\"b\":\"x\"},{\"a\":1,\"b\":\"y\"},{\"a\":2}]\n\"Str\"\n42\nnull\ntrue\n"
               "{\"a\":{\"b\":[1,{\"c\":null}]}}\n[[1,2],[3],[]]\n{\"b\":2,\"a\":-1.5}\n"
               "[{\"key\":\"k\",\"value\":0}]\n{\"a\":[\"b\",\"a\"],\"b\":{\"a\":1}}\n");
    /* JET_SHORT_TESTS=1 (CI's runs under an emulator, where each jet
     * process starts slowly): a tenth */
    const char *short_tests = getenv("JET_SHORT_TESTS");
    int n = short_tests && *short_tests == '1' ? 30 : 300, failed = 0;
    for (int i = 0; i < n; i++) {
        qbuf f = {NULL, 0, 0};
        gen(&f, 3);
        qbuf_push(&f, "", 1);
        char args[2048];
        /* ". | " keeps a leading '-' from reading as an option */
        snprintf(args, sizeof args, "-c '. | %s' cmp.json", f.data);
        result a = run_prog("jq", args, NULL);
        result b = run_jet(args, NULL);
        /* jq 1.6's exit status is that of the last document; jet's is 5
         * when any failed (as jq 1.7): so compare whether errors happened */
        bool same = strcmp(a.out, b.out) == 0 && (a.err[0] == 0) == (b.err[0] == 0) &&
                    (b.rc == 0) == (b.err[0] == 0);
        if (!same && failed++ < 10)
            fprintf(stderr, "differs from jq: %s\n  jq  (%d): %s  jet (%d): %s  jet err: %s\n", f.data,
                    a.rc, a.out, b.rc, b.out, b.err);
        done(&a);
        done(&b);
        qbuf_free(&f);
    }
    printf("against jq: %d of %d filters differ\n", failed, n);
    CHECK(failed == 0);
}

int main(void) {
    test_cases_file();
    snprintf(dir, sizeof dir, "/tmp/jet_query_test_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(jet, sizeof jet, "%s/jet", JET_BINARY_DIR);
    struct stat st;
    if (stat(jet, &st) != 0) {
        printf("no jet tool at %s: command tests skipped\n", jet);
    } else {
        test_command();
        test_stream();
        test_against_jq();
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE("test_query");
}
