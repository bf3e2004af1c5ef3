/*
 * jet — command-line front end of the library.
 *
 *   jet validate FILE...                  exit 0 when every file is valid
 *   jet fmt [--minify|--pretty[=N]] [--ascii] [--escape-slashes] [FILE|-]
 *   jet stats FILE                        structural fingerprint as JSON
 *   jet get FILE POINTER                  value at a JSON Pointer (RFC 6901)
 *   jet patch FILE PATCHFILE              apply a JSON Patch (RFC 6902)
 *   jet merge FILE MERGEFILE              apply a JSON Merge Patch (RFC 7386)
 *   jet diff A B                          the JSON Patch that turns A into B
 *   jet query FILTER [FILE|-]...          a jq filter (tools/query/, docs/query.md)
 *
 * Exit status: 0 success, 1 invalid input / not found / failed patch / I/O
 * failure, 2 usage error. Diagnostics go to stderr as FILE:LINE:COL:
 * message; a pointer that names nothing as jet: FILE: POINTER: why (the
 * token that failed and the value it was applied to); a failed patch as
 * jet: PATCHFILE: operation N (op) at PATH: why. patch, merge and diff
 * make their whole output in memory first, so on failure nothing reaches
 * stdout, and -o / -i replace the target file by renaming a finished
 * temporary file over it.
 *
 * Streams (--ndjson, automatic for .ndjson and .jsonl files): the input is
 * read in chunks and split into documents (jet_stream), which worker
 * threads (-j N) process; each document's output is written whole, in
 * input order, once it is complete, so a failure never leaves a partial
 * document on stdout. Memory is bounded by the batches in flight, not by
 * the input's length. docs/streams.md.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"
#include "query/query.h"
#include "query/tool_alloc.h"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#endif

#define EXIT_FAIL 1
#define EXIT_USAGE 2

static const char usage_main[] =
    "usage: jet <command> [options] [args]\n"
    "\n"
    "commands:\n"
    "  validate FILE...       check that each file is valid JSON\n"
    "  fmt [FILE|-]           reformat a document (pretty by default)\n"
    "  stats FILE             print the structural fingerprint as JSON\n"
    "  get FILE POINTER       print the value at a JSON Pointer (RFC 6901)\n"
    "  patch FILE PATCHFILE   apply a JSON Patch (RFC 6902)\n"
    "  merge FILE MERGEFILE   apply a JSON Merge Patch (RFC 7386)\n"
    "  diff A B               print the JSON Patch that turns A into B\n"
    "  query FILTER [FILE|-]  run a jq filter (jq's everyday subset)\n"
    "\n"
    "options:\n"
    "  -h, --help             this help (also: jet COMMAND --help)\n"
    "  --version              library version and scan kernel\n"
    "\n"
    "FILE may be '-' for standard input.\n"
    "\n"
    "stream options (every command; see docs/streams.md):\n"
    "  --ndjson               the input is NDJSON / JSON Lines: each line one\n"
    "                         document, each processed on its own (automatic for\n"
    "                         .ndjson and .jsonl files); output one line each\n"
    "  -j N, --jobs=N         worker threads for streams (default: all CPUs)\n";

static const char usage_read_opts[] =
    "reader options:\n"
    "  --allow-comments          accept // and /* */ comments\n"
    "  --allow-trailing-commas   accept a comma before ] or }\n"
    "  --allow-nan-inf           accept NaN, Infinity, -Infinity (and write them)\n"
    "  --allow-invalid-utf8      accept invalid UTF-8 inside strings\n"
    "  --bignum-as-raw           keep numbers that do not fit as their text (always\n"
    "                            so in the commands that write JSON: never rounded)\n"
    "  --max-depth=N             nesting limit (default 1024)\n"
    "  --max-size=N              refuse input of more than N bytes, checked while\n"
    "                            reading (suffix K, M or G: KiB, MiB, GiB; 0: no\n"
    "                            limit). Default: none for regular files, 1G for\n"
    "                            standard input, pipes and devices\n"
    "Invalid UTF-8 read with --allow-invalid-utf8 is written back unchanged;\n"
    "--ascii cannot write it and stops with FILE:LINE:COL unless\n"
    "--replace-invalid-utf8 writes each invalid byte as \\ufffd.\n"
    "stream options:\n"
    "  --ndjson                  one document per line, each on its own, streamed\n"
    "                            (automatic for .ndjson and .jsonl files)\n"
    "  -j N, --jobs=N            worker threads (default: all CPUs)\n";

static const char usage_validate[] =
    "usage: jet validate [reader options] FILE...\n"
    "\n"
    "Checks each FILE ('-' is standard input) with the validator (no document\n"
    "is built). Prints FILE:LINE:COL: message on stderr for each invalid one\n"
    "(with --ndjson: for each invalid line, and goes on). Exit status 0 when\n"
    "all are valid, else 1.\n"
    "\n";

static const char usage_fmt[] =
    "usage: jet fmt [--minify | --pretty[=N]] [--ascii] [--escape-slashes]\n"
    "               [reader options] [FILE | -]\n"
    "\n"
    "Writes the document to standard output, followed by a newline. With\n"
    "--ndjson each document is written on its own line (minified unless\n"
    "--pretty is given); the first invalid one stops the output there.\n"
    "  --minify           no whitespace\n"
    "  --pretty[=N]       indent by N spaces, 1..15 (the default, N=2)\n"
    "  --ascii            escape every non-ASCII character as \\u escapes\n"
    "  --replace-invalid-utf8   with --ascii, write invalid UTF-8 as \\ufffd\n"
    "  --escape-slashes   write / as \\/\n"
    "Without FILE, standard input is read.\n"
    "\n";

static const char usage_stats[] =
    "usage: jet stats [reader options] FILE\n"
    "\n"
    "Prints the structural fingerprint (counts of objects, arrays, strings,\n"
    "numbers, integers, doubles, trues, falses, nulls, keys, max_depth,\n"
    "string_bytes) as one JSON object (with --ndjson: one per document).\n"
    "\n";

static const char usage_get[] =
    "usage: jet get [reader options] FILE POINTER\n"
    "\n"
    "Prints the value at the JSON Pointer (\"\" is the whole document,\n"
    "\"/a/0\" the first element of member a), minified. Exit status 1 when\n"
    "there is no such value. With --ndjson, the value of each document; a\n"
    "document without one is reported on stderr and skipped (exit status 1).\n"
    "\n";

static const char usage_output[] =
    "output options (the result, pretty by default, as jet fmt writes it):\n"
    "  --minify | --pretty[=N] | --ascii | --escape-slashes   as for jet fmt\n"
    "  --replace-invalid-utf8                                 as for jet fmt\n"
    "  -o FILE, --output=FILE   write FILE instead of standard output: through\n"
    "                           a temporary file in FILE's directory, synced and\n"
    "                           renamed over FILE, which is untouched on failure\n"
    "On failure (exit status 1) nothing is written to standard output.\n"
    "\n";

static const char usage_patch[] =
    "usage: jet patch [output options] [-i] [reader options] FILE PATCHFILE\n"
    "\n"
    "Applies the JSON Patch (RFC 6902) in PATCHFILE to FILE and writes the\n"
    "result. The patch is atomic: when an operation fails, stderr says\n"
    "  jet: PATCHFILE: operation N (op) at PATH: why\n"
    "(N counts from 0, as the patch array's index) and nothing is written.\n"
    "With --ndjson the patch is applied to each document of FILE, written one\n"
    "per line to standard output (not with -o or -i).\n"
    "  -i, --in-place   replace FILE with the result (as -o FILE)\n"
    "\n";

static const char usage_merge[] =
    "usage: jet merge [output options] [-i] [reader options] FILE MERGEFILE\n"
    "\n"
    "Applies the JSON Merge Patch (RFC 7386) in MERGEFILE to FILE and writes\n"
    "the result. With --ndjson, to each document of FILE, one per line.\n"
    "  -i, --in-place   replace FILE with the result (as -o FILE)\n"
    "\n";

static const char usage_diff[] =
    "usage: jet diff [output options] [reader options] A B\n"
    "\n"
    "Writes a JSON Patch (RFC 6902) that turns document A into document B\n"
    "(jet patch A PATCH then gives B): objects compared by key, arrays by\n"
    "position after their common start and end, so one inserted element is\n"
    "one \"add\". [] when they are equal.\n"
    "\n";

typedef struct cli {
    jet_read_opts ropts;
    jet_write_flags wflags;
    unsigned indent;    /* 0: minified */
    bool fmt_opts;      /* accept fmt's output options */
    const char **more; /* positional arguments */
    size_t nmore;
    bool edit_opts;     /* patch, merge, diff: -o; patch, merge: -i too */
    bool in_place_ok;
    bool in_place;
    const char *out_path; /* -o FILE, or NULL for standard output */
    bool ndjson;          /* --ndjson given */
    bool indent_set;      /* --pretty or --minify given */
    unsigned jobs;        /* -j N; 0: all CPUs */
    bool max_size_set;    /* --max-size given: ropts.max_size applies to all input */
} cli;

/* --max-size's default for input whose size is not known in advance
 * (standard input, pipes, devices such as /dev/zero): 1 GiB. Regular
 * files have none: their size is their owner's choice. */
#define DEFAULT_STREAM_MAX_SIZE ((size_t)1 << 30)

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
    fprintf(stderr, "jet%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'jet %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
    return EXIT_USAGE;
}

static void print_help(const char *cmd_usage, bool edit) {
    fputs(cmd_usage, stdout);
    if (edit) fputs(usage_output, stdout);
    fputs(usage_read_opts, stdout);
}

/* Parses "--max-depth=N" style numbers: decimal, 1..UINT32_MAX. */
static bool parse_u32(const char *s, uint32_t *out) {
    if (!*s) return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return false;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > UINT32_MAX) return false;
    }
    *out = (uint32_t)v;
    return v > 0;
}

/* Parses --max-size's N: decimal bytes, or with a K, M or G suffix (KiB,
 * MiB, GiB). 0 means no limit. */
static bool parse_size(const char *s, size_t *out) {
    if (*s < '0' || *s > '9') return false;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (SIZE_MAX - 9) / 10) return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    unsigned shift = 0;
    if (*s) {
        const char *units = "KMG", *u = strchr(units, *s == 'k' || *s == 'm' || *s == 'g'
                                                          ? *s - 'a' + 'A' : *s);
        if (!u || s[1]) return false;
        shift = 10u * (unsigned)(u - units + 1);
    }
    if (v > (uint64_t)(SIZE_MAX >> shift)) return false;
    *out = (size_t)(v << shift);
    return true;
}

/* Splits argv into options and positional arguments. Returns -1 to go on,
 * else an exit status (help printed, or a usage error). */
static int parse_args(const char *cmd, const char *help, int argc, char **argv, cli *c) {
    bool only_args = false;
    c->more = (const char **)malloc(sizeof(char *) * (size_t)(argc > 0 ? argc : 1));
    if (!c->more) {
        fputs("jet: out of memory\n", stderr);
        return EXIT_FAIL;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            c->more[c->nmore++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            print_help(help, c->edit_opts);
            return 0;
        } else if (strcmp(a, "--allow-comments") == 0) {
            c->ropts.flags |= JET_READ_ALLOW_COMMENTS;
        } else if (strcmp(a, "--allow-trailing-commas") == 0) {
            c->ropts.flags |= JET_READ_ALLOW_TRAILING_COMMAS;
        } else if (strcmp(a, "--allow-nan-inf") == 0) {
            c->ropts.flags |= JET_READ_ALLOW_NAN_INF;
            c->wflags |= JET_WRITE_ALLOW_NAN_INF;
        } else if (strcmp(a, "--allow-invalid-utf8") == 0) {
            c->ropts.flags |= JET_READ_ALLOW_INVALID_UTF8;
        } else if (strcmp(a, "--bignum-as-raw") == 0) {
            c->ropts.flags |= JET_READ_BIGNUM_AS_RAW;
        } else if (strcmp(a, "--ndjson") == 0) {
            c->ndjson = true;
        } else if (strcmp(a, "-j") == 0 || strncmp(a, "--jobs=", 7) == 0) {
            const char *n = a[1] == 'j' ? (i + 1 < argc ? argv[++i] : NULL) : a + 7;
            uint32_t jobs;
            if (!n || !parse_u32(n, &jobs) || jobs > 1024)
                return usage_error(cmd, "%s needs a thread count, 1..1024", "-j");
            c->jobs = jobs;
        } else if (strcmp(a, "--max-size") == 0 || strncmp(a, "--max-size=", 11) == 0) {
            const char *v = a[10] == '=' ? a + 11 : i + 1 < argc ? argv[++i] : "";
            if (!parse_size(v, &c->ropts.max_size))
                return usage_error(cmd, "bad --max-size '%s' (want bytes, or a number with K, M "
                                        "or G)", v);
            c->max_size_set = true;
        } else if (strncmp(a, "--max-depth=", 12) == 0) {
            if (!parse_u32(a + 12, &c->ropts.max_depth))
                return usage_error(cmd, "bad value in '%s' (want a positive integer)", a);
        } else if (c->fmt_opts && strcmp(a, "--minify") == 0) {
            c->indent = 0;
            c->indent_set = true;
        } else if (c->fmt_opts && strcmp(a, "--pretty") == 0) {
            c->indent = 2;
            c->indent_set = true;
        } else if (c->fmt_opts && strncmp(a, "--pretty=", 9) == 0) {
            uint32_t n;
            if (!parse_u32(a + 9, &n) || n > 15)
                return usage_error(cmd, "bad value in '%s' (want 1..15)", a);
            c->indent = n;
            c->indent_set = true;
        } else if (c->fmt_opts && strcmp(a, "--ascii") == 0) {
            c->wflags |= JET_WRITE_ASCII;
        } else if (c->fmt_opts && strcmp(a, "--replace-invalid-utf8") == 0) {
            c->wflags |= JET_WRITE_REPLACE_INVALID_UTF8;
        } else if (c->fmt_opts && strcmp(a, "--escape-slashes") == 0) {
            c->wflags |= JET_WRITE_ESCAPE_SLASHES;
        } else if (c->edit_opts && (strcmp(a, "-o") == 0 || strncmp(a, "--output=", 9) == 0)) {
            const char *path = a[1] == 'o' ? (i + 1 < argc ? argv[++i] : NULL) : a + 9;
            if (!path || !*path) return usage_error(cmd, "%s needs a FILE", "-o");
            c->out_path = path;
        } else if (c->in_place_ok && (strcmp(a, "-i") == 0 || strcmp(a, "--in-place") == 0)) {
            c->in_place = true;
        } else {
            return usage_error(cmd, "unknown option '%s'", a);
        }
    }
    return -1;
}

/* Whether `path` ("-": standard input) is a regular file, whose size is
 * known before reading; false when unsure. */
static bool is_regular_file(const char *path) {
#ifndef _WIN32
    struct stat st;
    int rc = strcmp(path, "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(path, &st);
    return rc == 0 && S_ISREG(st.st_mode);
#else
    return strcmp(path, "-") != 0;
#endif
}

/* The size limit for reading path whole: --max-size, else none for a
 * regular file and DEFAULT_STREAM_MAX_SIZE for anything else. */
static size_t max_size_for(const char *path, const cli *c) {
    if (!c->max_size_set && !is_regular_file(path)) return DEFAULT_STREAM_MAX_SIZE;
    return c->ropts.max_size;
}

static void report_size_limit(const char *name, size_t limit, const cli *c) {
    fprintf(stderr, "%s: input larger than %zu bytes: stopped reading (--max-size=%zu%s)\n", name,
            limit, limit, c->max_size_set ? "" : ", the default for standard input, pipes and devices");
}

/* A regular file mapped (query/tool_alloc.h: tool_map_file) when it is
 * within the size limit; NULL when it is not such a file (read it
 * instead), or with *over set when it is too large (reported here). */
static const char *map_within_limit(const char *path, const cli *c, size_t *len, bool *over) {
    *over = false;
    const char *mapped = tool_map_file(path, len);
    size_t limit = max_size_for(path, c);
    if (mapped && limit && *len > limit) {
        tool_unmap_file(mapped, *len);
        report_size_limit(path, limit, c);
        *over = true;
        return NULL;
    }
    return mapped;
}

/* Reads and parses; on failure prints FILE:LINE:COL: message. */
static jet_doc *load(const char *path, const cli *c) {
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_read_opts ro = c->ropts;
    ro.max_size = max_size_for(path, c);
    /* ASCII output cannot hold invalid UTF-8 without changing it: unless
     * its replacement was asked for, read strictly, so the first invalid
     * byte is an error at its FILE:LINE:COL (escaped lone surrogates, which
     * would round-trip, then need --replace-invalid-utf8 too: the writer's
     * own error could not say where in the input it is). */
    bool ascii_strict = (c->wflags & JET_WRITE_ASCII) &&
                        !(c->wflags & JET_WRITE_REPLACE_INVALID_UTF8) &&
                        (ro.flags & JET_READ_ALLOW_INVALID_UTF8);
    if (ascii_strict) ro.flags &= ~JET_READ_ALLOW_INVALID_UTF8;
    /* A regular file is mapped, not read (query/tool_alloc.h); the DOM
     * (which copies what it keeps) and any read buffer come from the tool
     * allocator (mremap growth; huge pages with JET_HUGEPAGES=1). */
    size_t mapped_len = 0;
    bool over;
    const char *mapped = map_within_limit(path, c, &mapped_len, &over);
    if (over) return NULL;
    jet_doc *d = mapped ? jet_read(mapped, mapped_len, &ro, tool_alloc(), &err)
                        : jet_read_file(path, &ro, tool_alloc(), &err);
    tool_unmap_file(mapped, mapped_len);
    if (!d) {
        const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
        const char *msg = err.msg ? err.msg : jet_code_name(err.code);
        if (err.code == JET_ERR_SIZE_LIMIT)
            report_size_limit(name, ro.max_size, c);
        else if (ascii_strict && (err.code == JET_ERR_UTF8 || err.code == JET_ERR_SURROGATE))
            fprintf(stderr, "%s:%zu:%zu: %s (with --ascii, --allow-invalid-utf8 needs "
                            "--replace-invalid-utf8, which writes invalid bytes as \\ufffd)\n",
                    name, err.line, err.column, msg);
        else if (err.line)
            fprintf(stderr, "%s:%zu:%zu: %s\n", name, err.line, err.column, msg);
        else if (err.code == JET_ERR_IO)
            fprintf(stderr, "%s: %s%s%s\n", name, msg, errno ? ": " : "",
                    errno ? strerror(errno) : "");
        else
            fprintf(stderr, "%s: %s\n", name, msg);
    }
    return d;
}

static int write_out(const jet_val *v, jet_write_flags flags) {
    jet_error err;
    memset(&err, 0, sizeof err);
    if (!jet_val_write_fp(stdout, v, flags | JET_WRITE_NEWLINE_AT_END, NULL, &err)) {
        fprintf(stderr, "jet: %s\n", err.msg ? err.msg : jet_code_name(err.code));
        return EXIT_FAIL;
    }
    return 0;
}

/* ---- streams: --ndjson, .ndjson and .jsonl files (docs/streams.md) ---- */

static bool ndjson_by_name(const char *path) {
    size_t n = strlen(path);
    return (n > 7 && strcmp(path + n - 7, ".ndjson") == 0) ||
           (n > 6 && strcmp(path + n - 6, ".jsonl") == 0);
}

static bool stream_mode(const cli *c, const char *path) {
    return c->ndjson || ndjson_by_name(path);
}

enum stream_cmd { STREAM_VALIDATE, STREAM_FMT, STREAM_STATS, STREAM_GET, STREAM_PATCH, STREAM_MERGE };

/* The progress line on stderr: only on a terminal, only after a second. */
typedef struct progress {
    bool on, shown;
    double start, last;
    uint64_t total; /* input size when known (a regular file), else 0 */
    uint64_t done;
} progress;

static double now_seconds(void) {
#ifndef _WIN32
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#else
    return (double)clock() / CLOCKS_PER_SEC;
#endif
}

static void progress_init(progress *pg, FILE *in) {
    memset(pg, 0, sizeof *pg);
#ifndef _WIN32
    pg->on = isatty(STDERR_FILENO) != 0;
    struct stat st;
    if (pg->on && fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode)) pg->total = (uint64_t)st.st_size;
#else
    (void)in;
#endif
    pg->start = pg->last = pg->on ? now_seconds() : 0;
}

static void progress_show(progress *pg) {
    if (!pg->on) return;
    double t = now_seconds(), spent = t - pg->start;
    if (spent < 1.0 || t - pg->last < 0.25) return;
    pg->last = t;
    pg->shown = true;
    double mb = (double)pg->done / 1e6, rate = mb / spent;
    if (pg->total && pg->done <= pg->total) {
        double left = rate > 0 ? ((double)(pg->total - pg->done) / 1e6) / rate : 0;
        fprintf(stderr, "\r%.0f / %.0f MB (%.0f%%)  %.1f MB/s  ETA %.0f s \033[K", mb,
                (double)pg->total / 1e6, 100.0 * (double)pg->done / (double)pg->total, rate, left);
    } else {
        fprintf(stderr, "\r%.0f MB  %.1f MB/s \033[K", mb, rate);
    }
}

static void progress_end(progress *pg) {
    if (pg->shown) fputs("\r\033[K", stderr);
}

typedef struct stream_job {
    const cli *c;
    int cmd;
    const char *name; /* for messages */
    FILE *in;
    const char *pointer;  /* get */
    const jet_val *patch; /* patch, merge */
    const char *patch_name;
    jet_write_flags wflags;
    bool failed, write_failed;
    progress pg;
} stream_job;

static size_t stream_read(void *ctx, char *buf, size_t cap) {
    stream_job *j = (stream_job *)ctx;
    /* what is written so far leaves before the wait for more input */
    if (fflush(stdout) != 0) j->write_failed = true;
    progress_show(&j->pg);
#ifndef _WIN32
    ssize_t n;
    do {
        n = read(fileno(j->in), buf, cap);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return SIZE_MAX;
    j->pg.done += (uint64_t)n;
    return (size_t)n;
#else
    size_t n = fread(buf, 1, cap, j->in);
    if (n == 0 && ferror(j->in)) return SIZE_MAX;
    j->pg.done += n;
    return n;
#endif
}

/* Moves a malloc'd text into the output. */
static bool put_text(jet_buf *out, char *text, size_t n) {
    bool ok = text && jet_buf_append(out, text, n);
    free(text);
    return ok;
}

/* Each document's output starts with a tag byte: 'O' then the text, or
 * 'E' then the message of a failure that is not at a place in the text (a
 * pointer that names nothing, a failed patch). Parse errors are the
 * runner's failed documents, with their line:column. */
static bool fail_with(jet_buf *out, const char *what, const char *why) {
    return jet_buf_append(out, "E", 1) && jet_buf_append(out, what, strlen(what)) && jet_buf_append(out, ": ", 2) &&
           jet_buf_append(out, why, strlen(why));
}

static bool stream_work(void *ctx, jet_stream_worker *w, const jet_stream_doc *d, jet_error *err) {
    stream_job *j = (stream_job *)ctx;
    jet_doc *doc = jet_parser_parse(w->parser, d->json, d->len, &j->c->ropts, err);
    if (!doc) return false;
    const jet_val *root = jet_doc_root(doc);
    size_t n = 0;
    char *text;
    switch (j->cmd) {
    case STREAM_FMT:
        text = jet_val_write(root, j->wflags | JET_WRITE_NEWLINE_AT_END, NULL, &n, err);
        return jet_buf_append(w->out, "O", 1) && put_text(w->out, text, n);
    case STREAM_STATS: {
        jet_stats st;
        jet_val_stats(root, &st);
        char line[512];
        line[0] = 'O';
        n = jet_stats_format(&st, line + 1, sizeof line - 2) + 1;
        line[n++] = '\n';
        return jet_buf_append(w->out, line, n);
    }
    case STREAM_GET: {
        jet_error perr;
        memset(&perr, 0, sizeof perr);
        const jet_val *v = jet_ptr_find(root, j->pointer, &perr);
        if (!v) return fail_with(w->out, j->pointer, perr.msg ? perr.msg : jet_code_name(perr.code));
        text = jet_val_write(v, j->wflags | JET_WRITE_NEWLINE_AT_END, NULL, &n, err);
        return jet_buf_append(w->out, "O", 1) && put_text(w->out, text, n);
    }
    default: { /* STREAM_PATCH, STREAM_MERGE */
        jet_mut_doc *m = jet_doc_to_mut(doc, NULL);
        if (!m) return fail_with(w->out, "jet", "out of memory");
        bool ok;
        if (j->cmd == STREAM_PATCH) {
            jet_patch_error pe;
            memset(&pe, 0, sizeof pe);
            ok = jet_patch_apply(m, j->patch, &pe);
            if (!ok) {
                char what[96];
                snprintf(what, sizeof what, "operation %zu (%s)", pe.index, pe.op ? pe.op : "no valid op");
                ok = fail_with(w->out, what, pe.msg ? pe.msg : jet_code_name(pe.code));
                jet_mut_doc_free(m);
                return ok;
            }
        } else {
            jet_error me;
            memset(&me, 0, sizeof me);
            if (!jet_merge_patch_apply(m, j->patch, &me)) {
                ok = fail_with(w->out, "merge", me.msg ? me.msg : jet_code_name(me.code));
                jet_mut_doc_free(m);
                return ok;
            }
        }
        text = jet_mut_val_write(jet_mut_doc_root(m), j->wflags | JET_WRITE_NEWLINE_AT_END, NULL, &n, err);
        ok = jet_buf_append(w->out, "O", 1) && put_text(w->out, text, n);
        jet_mut_doc_free(m);
        return ok;
    }
    }
}

static bool stream_deliver(void *ctx, const jet_stream_doc *d, const char *res, size_t n,
                           const jet_error *err) {
    stream_job *j = (stream_job *)ctx;
    if (err) {
        j->failed = true;
        const char *msg = err->msg ? err->msg : jet_code_name(err->code);
        if (err->line) fprintf(stderr, "%s:%zu:%zu: %s\n", j->name, err->line, err->column, msg);
        else fprintf(stderr, "%s: %s\n", j->name, msg);
        return true;
    }
    if (n && res[0] == 'E') { /* see fail_with */
        j->failed = true;
        if (j->cmd == STREAM_GET)
            fprintf(stderr, "jet: %s:%llu: %.*s\n", j->name, (unsigned long long)d->line, (int)(n - 1), res + 1);
        else
            fprintf(stderr, "jet: %s: document at %s:%llu: %.*s\n", j->patch_name, j->name,
                    (unsigned long long)d->line, (int)(n - 1), res + 1);
        return j->cmd == STREAM_GET; /* a patch that fails stops the output */
    }
    if (n > 1 && fwrite(res + 1, 1, n - 1, stdout) != n - 1) {
        j->write_failed = true;
        return false;
    }
    return true;
}

/* Runs one stream command over FILE ('-': standard input). */
static int run_stream(const cli *c, const char *path, int cmd, const char *pointer,
                      const jet_val *patch, const char *patch_path) {
    stream_job j;
    memset(&j, 0, sizeof j);
    j.c = c;
    j.cmd = cmd;
    j.pointer = pointer;
    j.patch = patch;
    j.patch_name = patch_path && strcmp(patch_path, "-") == 0 ? "<stdin>" : patch_path;
    j.name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    /* one line per document: minified unless asked otherwise */
    unsigned indent = c->indent_set ? c->indent : 0;
    j.wflags = c->wflags | JET_WRITE_INDENT(indent);
    errno = 0;
    j.in = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!j.in) {
        fprintf(stderr, "%s: cannot open file%s%s\n", j.name, errno ? ": " : "", errno ? strerror(errno) : "");
        return EXIT_FAIL;
    }
    progress_init(&j.pg, j.in);
    /* validate and get report every bad document; the others stop at the
     * first, after writing the documents before it */
    jet_stream_flags flags = JET_STREAM_NDJSON;
    if (cmd == STREAM_VALIDATE || cmd == STREAM_GET) flags |= JET_STREAM_SKIP_ERRORS;
    jet_stream *s = jet_stream_new(flags, &c->ropts, NULL);
    if (!s) {
        fputs("jet: out of memory\n", stderr);
        if (j.in != stdin) fclose(j.in);
        return EXIT_FAIL;
    }
    jet_stream_run_opts ro;
    memset(&ro, 0, sizeof ro);
    ro.threads = c->jobs;
    ro.read = stream_read;
    ro.read_ctx = &j;
    bool ok = jet_stream_run(s, &ro, cmd == STREAM_VALIDATE ? NULL : stream_work, stream_deliver, &j);
    if (!ok && !j.failed && !j.write_failed) {
        const jet_error *e = jet_stream_error(s);
        fprintf(stderr, "%s: %s\n", j.name, e->msg ? e->msg : jet_code_name(e->code));
        j.failed = true;
    }
    if (fflush(stdout) != 0) j.write_failed = true;
    progress_end(&j.pg);
    if (j.write_failed) fputs("jet: could not write the output\n", stderr);
    jet_stream_free(s);
    if (j.in != stdin) fclose(j.in);
    return j.failed || j.write_failed ? EXIT_FAIL : 0;
}

/* A whole file in memory (validate without a document), within the size
 * limit load() applies, checked while reading. NULL on failure, reported as
 * load() does. Free with tool_alloc()->free. */
static char *read_whole(const char *path, const cli *c, size_t *len) {
    size_t limit = max_size_for(path, c);
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    errno = 0;
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open file%s%s\n", name, errno ? ": " : "", errno ? strerror(errno) : "");
        return NULL;
    }
    bool too_big;
    char *buf = tool_read_all(f, limit, len, &too_big);
    if (too_big) report_size_limit(name, limit, c);
    else if (!buf && ferror(f)) fprintf(stderr, "%s: cannot read file\n", name);
    else if (!buf) fputs("jet: out of memory\n", stderr);
    if (f != stdin) fclose(f);
    return buf;
}

static int cmd_validate(cli *c) {
    if (c->nmore == 0) return usage_error("validate", "%s", "missing FILE");
    int rc = 0;
    for (size_t i = 0; i < c->nmore; i++) {
        const char *path = c->more[i];
        if (stream_mode(c, path)) {
            if (run_stream(c, path, STREAM_VALIDATE, NULL, NULL, NULL) != 0) rc = EXIT_FAIL;
            continue;
        }
        size_t len = 0;
        bool over;
        const char *mapped = map_within_limit(path, c, &len, &over);
        char *text = NULL;
        if (over || (!mapped && !(text = read_whole(path, c, &len)))) {
            rc = EXIT_FAIL;
            continue;
        }
        jet_error err;
        memset(&err, 0, sizeof err);
        if (!jet_validate(mapped ? mapped : text, len, &c->ropts, NULL, &err)) {
            const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
            const char *msg = err.msg ? err.msg : jet_code_name(err.code);
            if (err.line) fprintf(stderr, "%s:%zu:%zu: %s\n", name, err.line, err.column, msg);
            else fprintf(stderr, "%s: %s\n", name, msg);
            rc = EXIT_FAIL;
        }
        tool_unmap_file(mapped, len);
        if (text) tool_alloc()->free(NULL, text);
    }
    return rc;
}

static int cmd_fmt(cli *c) {
    if (c->nmore > 1) return usage_error("fmt", "%s", "at most one FILE");
    const char *path = c->nmore ? c->more[0] : "-";
    if (stream_mode(c, path)) return run_stream(c, path, STREAM_FMT, NULL, NULL, NULL);
    errno = 0;
    jet_doc *d = load(path, c);
    if (!d) return EXIT_FAIL;
    int rc = write_out(jet_doc_root(d), c->wflags | JET_WRITE_INDENT(c->indent));
    jet_doc_free(d);
    return rc;
}

static int cmd_stats(cli *c) {
    if (c->nmore != 1) return usage_error("stats", "%s", "expected exactly one FILE");
    if (stream_mode(c, c->more[0])) return run_stream(c, c->more[0], STREAM_STATS, NULL, NULL, NULL);
    errno = 0;
    jet_doc *d = load(c->more[0], c);
    if (!d) return EXIT_FAIL;
    jet_stats s;
    jet_val_stats(jet_doc_root(d), &s);
    char buf[512];
    jet_stats_format(&s, buf, sizeof buf);
    jet_doc_free(d);
    if (printf("%s\n", buf) < 0 || fflush(stdout) != 0) {
        fputs("jet: could not write the output\n", stderr);
        return EXIT_FAIL;
    }
    return 0;
}

static const char *type_name(const jet_val *v) {
    switch (jet_get_type(v)) {
    case JET_TYPE_STR: return "a string";
    case JET_TYPE_NUM:
    case JET_TYPE_RAW: return "a number";
    case JET_TYPE_BOOL: return jet_is_true(v) ? "true" : "false";
    case JET_TYPE_NULL: return "null";
    case JET_TYPE_ARR: return "an array";
    case JET_TYPE_OBJ: return "an object";
    default: return "a value";
    }
}

/* Why `ptr` names nothing in the document, in terms of the pointer: the
 * token that failed and the value it was applied to. err->offset is into
 * the pointer text, not the file, so this is never FILE:LINE:COL. */
static void pointer_error(const char *file, const char *ptr, const jet_val *root,
                          const jet_error *err) {
    const char *name = strcmp(file, "-") == 0 ? "<stdin>" : file;
    size_t len = strlen(ptr), at = err->offset < len ? err->offset : len;
    if (err->code == JET_ERR_POINTER) {
        if (at == 0)
            fprintf(stderr, "jet: %s: %s: a JSON Pointer is empty or starts with '/'\n", name, ptr);
        else
            fprintf(stderr, "jet: %s: %s: bad escape \"%.2s\" at byte %zu of the pointer "
                            "('~' must be followed by '0' for '~' or '1' for '/')\n",
                    name, ptr, ptr + at, at);
        return;
    }
    /* NOT_FOUND: ptr[0..at) resolves, the token after ptr[at] == '/' does not. */
    const jet_val *parent = err->code == JET_ERR_NOT_FOUND && ptr[at] == '/'
                                ? jet_ptr_getn(root, ptr, at, NULL) : NULL;
    if (!parent) {
        fprintf(stderr, "jet: %s: %s: %s\n", name, ptr, err->msg ? err->msg : jet_code_name(err->code));
        return;
    }
    const char *tok = ptr + at + 1;
    size_t tlen = strcspn(tok, "/");
    char where[256];
    if (at == 0) snprintf(where, sizeof where, "the root");
    else snprintf(where, sizeof where, "%.*s", (int)(at < 200 ? at : 200), ptr);
    fprintf(stderr, "jet: %s: %s: ", name, ptr);
    if (jet_is_obj(parent)) {
        /* the member's name, unescaped (~1 is '/', ~0 is '~') */
        fputs("no member \"", stderr);
        for (size_t i = 0; i < tlen; i++) {
            char ch = tok[i];
            if (ch == '~' && i + 1 < tlen) ch = tok[++i] == '1' ? '/' : '~';
            fputc(ch, stderr);
        }
        fprintf(stderr, "\" in the object at %s\n", where);
    } else if (jet_is_arr(parent)) {
        size_t digits = strspn(tok, "0123456789");
        if (tlen == 1 && tok[0] == '-')
            fprintf(stderr, "\"-\" names the element after the last of the array at %s (of %zu), "
                            "which get cannot return\n", where, jet_arr_size(parent));
        else if (tlen > 0 && digits == tlen && (tlen == 1 || tok[0] != '0'))
            fprintf(stderr, "index %.*s out of range (array of %zu) at %s\n", (int)tlen, tok,
                    jet_arr_size(parent), where);
        else
            fprintf(stderr, "\"%.*s\" is not an array index (digits, no leading zero) for the "
                            "array at %s\n", (int)tlen, tok, where);
    } else {
        fprintf(stderr, "%s is %s: no member or element \"%.*s\" inside it\n", where,
                type_name(parent), (int)tlen, tok);
    }
}

/* ---- patch, merge, diff: the result is made in memory, then written ---- */

#ifdef _WIN32
/* Without POSIX: a temporary file next to the target, then rename. */
static bool write_replace(const char *path, const char *text, size_t len) {
    size_t n = strlen(path);
    char *tmp = (char *)malloc(n + 16);
    if (!tmp) return false;
    snprintf(tmp, n + 16, "%s.jet-tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(text, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    if (ok) {
        remove(path);
        ok = rename(tmp, path) == 0;
    }
    if (!ok) remove(tmp);
    free(tmp);
    return ok;
}
#else
/* Writes `text` to a new temporary file in path's directory (mode: the
 * target's when it exists, else 0666 less the umask), syncs it and renames
 * it over `path`: readers see the old file or the whole new one, never a
 * part, and a failure leaves the target as it was and no temporary file.
 * errno says why on false. */
static bool write_replace(const char *path, const char *text, size_t len) {
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    size_t tlen = dlen + strlen(base) + 16;
    char *tmp = (char *)malloc(tlen);
    if (!tmp) return false;
    snprintf(tmp, tlen, "%.*s.%s.XXXXXX", (int)dlen, path, base);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return false;
    }
    struct stat st;
    mode_t mode;
    if (stat(path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    bool ok = fchmod(fd, mode) == 0;
    for (size_t done = 0; ok && done < len;) {
        ssize_t w = write(fd, text + done, len - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) ok = false;
        else done += (size_t)w;
    }
    if (ok && fsync(fd) != 0) ok = false;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        saved = errno;
    }
    if (!ok) unlink(tmp);
    free(tmp);
    errno = saved;
    return ok;
}
#endif

/* Writes the finished text to -o FILE, FILE itself (-i) or stdout. */
static int emit(const cli *c, const char *target, const char *text, size_t len) {
    const char *path = c->in_place ? target : c->out_path;
    if (path && strcmp(path, "-") != 0) {
        errno = 0;
        if (!write_replace(path, text, len)) {
            fprintf(stderr, "jet: %s: could not write%s%s\n", path, errno ? ": " : "",
                    errno ? strerror(errno) : "");
            return EXIT_FAIL;
        }
        return 0;
    }
    if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
        fputs("jet: could not write the output\n", stderr);
        return EXIT_FAIL;
    }
    return 0;
}

/* Writes the mutable value `v` as jet fmt would and emits it. */
static int emit_mut(const cli *c, const char *target, const jet_mut_val *v) {
    jet_error err;
    memset(&err, 0, sizeof err);
    size_t len = 0;
    char *text = jet_mut_val_write(v, c->wflags | JET_WRITE_INDENT(c->indent) |
                                          JET_WRITE_NEWLINE_AT_END, NULL, &len, &err);
    if (!text) {
        fprintf(stderr, "jet: %s\n", err.msg ? err.msg : jet_code_name(err.code));
        return EXIT_FAIL;
    }
    int rc = emit(c, target, text, len);
    free(text);
    return rc;
}

/* The two documents of patch, merge and diff, after the usage checks. */
static int load_two(cli *c, const char *cmd, const char *second, jet_doc **a, jet_doc **b) {
    *a = *b = NULL;
    if (c->nmore != 2) return usage_error(cmd, "expected FILE and %s", second);
    if (c->in_place && c->out_path) return usage_error(cmd, "%s", "-i and -o exclude each other");
    if (c->in_place && strcmp(c->more[0], "-") == 0)
        return usage_error(cmd, "%s", "-i needs a FILE, not standard input");
    if (strcmp(c->more[0], "-") == 0 && strcmp(c->more[1], "-") == 0)
        return usage_error(cmd, "%s", "only one of the two may be standard input");
    errno = 0;
    *a = load(c->more[0], c);
    if (!*a) return EXIT_FAIL;
    errno = 0;
    *b = load(c->more[1], c);
    if (!*b) {
        jet_doc_free(*a);
        *a = NULL;
        return EXIT_FAIL;
    }
    return -1;
}

/* patch and merge with --ndjson: the patch applied to each document. */
static int patch_stream(cli *c, const char *cmd, int kind) {
    if (c->nmore != 2) return usage_error(cmd, "expected FILE and %s", kind == STREAM_PATCH ? "PATCHFILE" : "MERGEFILE");
    if (c->in_place || c->out_path) return usage_error(cmd, "%s", "-o and -i do not go with --ndjson");
    if (strcmp(c->more[0], "-") == 0 && strcmp(c->more[1], "-") == 0)
        return usage_error(cmd, "%s", "only one of the two may be standard input");
    errno = 0;
    jet_doc *p = load(c->more[1], c);
    if (!p) return EXIT_FAIL;
    int rc = run_stream(c, c->more[0], kind, NULL, jet_doc_root(p), c->more[1]);
    jet_doc_free(p);
    return rc;
}

static int cmd_patch(cli *c) {
    if (c->nmore >= 1 && stream_mode(c, c->more[0])) return patch_stream(c, "patch", STREAM_PATCH);
    jet_doc *d, *p;
    int rc = load_two(c, "patch", "PATCHFILE", &d, &p);
    if (rc >= 0) return rc;
    jet_mut_doc *m = jet_doc_to_mut(d, NULL);
    jet_patch_error pe;
    memset(&pe, 0, sizeof pe);
    if (!m) {
        fputs("jet: out of memory\n", stderr);
        rc = EXIT_FAIL;
    } else if (!jet_patch_apply(m, jet_doc_root(p), &pe)) {
        const char *name = strcmp(c->more[1], "-") == 0 ? "<stdin>" : c->more[1];
        const char *msg = pe.msg ? pe.msg : jet_code_name(pe.code);
        if (!jet_is_arr(jet_doc_root(p)))
            fprintf(stderr, "jet: %s: %s\n", name, msg);
        else if (pe.path)
            fprintf(stderr, "jet: %s: operation %zu (%s) at \"%.*s\": %s\n", name, pe.index,
                    pe.op ? pe.op : "no valid op", (int)pe.path_len, pe.path, msg);
        else
            fprintf(stderr, "jet: %s: operation %zu (%s): %s\n", name, pe.index,
                    pe.op ? pe.op : "no valid op", msg);
        rc = EXIT_FAIL;
    } else {
        rc = emit_mut(c, c->more[0], jet_mut_doc_root(m));
    }
    jet_mut_doc_free(m);
    jet_doc_free(d);
    jet_doc_free(p);
    return rc;
}

static int cmd_merge(cli *c) {
    if (c->nmore >= 1 && stream_mode(c, c->more[0])) return patch_stream(c, "merge", STREAM_MERGE);
    jet_doc *d, *p;
    int rc = load_two(c, "merge", "MERGEFILE", &d, &p);
    if (rc >= 0) return rc;
    jet_mut_doc *m = jet_doc_to_mut(d, NULL);
    jet_error err;
    memset(&err, 0, sizeof err);
    if (!m || !jet_merge_patch_apply(m, jet_doc_root(p), &err)) {
        fprintf(stderr, "jet: %s: %s\n", c->more[1],
                !m ? "out of memory" : err.msg ? err.msg : jet_code_name(err.code));
        rc = EXIT_FAIL;
    } else {
        rc = emit_mut(c, c->more[0], jet_mut_doc_root(m));
    }
    jet_mut_doc_free(m);
    jet_doc_free(d);
    jet_doc_free(p);
    return rc;
}

static int cmd_diff(cli *c) {
    if (c->ndjson) return usage_error("diff", "%s", "--ndjson: diff compares two documents, not streams");
    jet_doc *a, *b;
    int rc = load_two(c, "diff", "B", &a, &b);
    if (rc >= 0) return rc;
    jet_mut_doc *m = jet_mut_doc_new(NULL);
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_mut_val *patch = m ? jet_diff(m, jet_doc_root(a), jet_doc_root(b), &err) : NULL;
    if (!patch) {
        fprintf(stderr, "jet: %s\n", !m ? "out of memory" : err.msg ? err.msg : jet_code_name(err.code));
        rc = EXIT_FAIL;
    } else {
        rc = emit_mut(c, NULL, patch);
    }
    jet_mut_doc_free(m);
    jet_doc_free(a);
    jet_doc_free(b);
    return rc;
}

static int cmd_get(cli *c) {
    if (c->nmore != 2) return usage_error("get", "%s", "expected FILE and POINTER");
    if (stream_mode(c, c->more[0])) return run_stream(c, c->more[0], STREAM_GET, c->more[1], NULL, NULL);
    errno = 0;
    jet_doc *d = load(c->more[0], c);
    if (!d) return EXIT_FAIL;
    const char *ptr = c->more[1];
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_val *v = jet_ptr_get(jet_doc_root(d), ptr, &err);
    int rc;
    if (!v) {
        pointer_error(c->more[0], ptr, jet_doc_root(d), &err);
        rc = EXIT_FAIL;
    } else {
        rc = write_out(v, c->wflags);
    }
    jet_doc_free(d);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(usage_main, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_main, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("jet %s (kernel: %s)\n", jet_version(), jet_kernel_name());
        return 0;
    }
#ifndef _WIN32
    /* Output in large writes: stdio's buffer is st_blksize, 4 KiB for a
     * pipe or /dev/null, which made fmt --ndjson one write(2) per 4 KiB
     * (2 180 calls for 9 MB). Streams flush before each read, so output
     * still keeps up with input that trickles. A terminal keeps stdio's
     * line buffering. */
    static char stdout_buf[1 << 18];
    if (!isatty(STDOUT_FILENO)) setvbuf(stdout, stdout_buf, _IOFBF, sizeof stdout_buf);
#endif
    if (strcmp(cmd, "query") == 0) return jet_query_main(argc - 2, argv + 2);
    cli c;
    memset(&c, 0, sizeof c);
    int (*run)(cli *) = NULL;
    const char *help = NULL;
    if (strcmp(cmd, "validate") == 0) {
        run = cmd_validate;
        help = usage_validate;
    } else if (strcmp(cmd, "fmt") == 0) {
        run = cmd_fmt;
        help = usage_fmt;
        c.fmt_opts = true;
        c.indent = 2;
    } else if (strcmp(cmd, "stats") == 0) {
        run = cmd_stats;
        help = usage_stats;
    } else if (strcmp(cmd, "get") == 0) {
        run = cmd_get;
        help = usage_get;
    } else if (strcmp(cmd, "patch") == 0 || strcmp(cmd, "merge") == 0 ||
               strcmp(cmd, "diff") == 0) {
        bool is_diff = cmd[0] == 'd';
        run = is_diff ? cmd_diff : cmd[0] == 'p' ? cmd_patch : cmd_merge;
        help = is_diff ? usage_diff : cmd[0] == 'p' ? usage_patch : usage_merge;
        c.fmt_opts = true;
        c.indent = 2;
        c.edit_opts = true;
        c.in_place_ok = !is_diff;
    } else {
        fprintf(stderr, "jet: unknown command '%s'\n\n", cmd);
        fputs(usage_main, stderr);
        return EXIT_USAGE;
    }
    /* Commands that write JSON keep numbers that fit no int64, uint64 or
     * double as their text: made doubles, they would come out changed
     * (123456789012345678901234567890 as 1.2345678901234568e+29). */
    if (run != cmd_validate && run != cmd_stats) c.ropts.flags |= JET_READ_BIGNUM_AS_RAW;
    int rc = parse_args(cmd, help, argc - 2, argv + 2, &c);
    if (rc < 0) rc = run(&c);
    free((void *)c.more);
    return rc;
}
