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

#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
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
    "FILE may be '-' for standard input.\n";

static const char usage_read_opts[] =
    "reader options:\n"
    "  --allow-comments          accept // and /* */ comments\n"
    "  --allow-trailing-commas   accept a comma before ] or }\n"
    "  --allow-nan-inf           accept NaN, Infinity, -Infinity (and write them)\n"
    "  --allow-invalid-utf8      accept invalid UTF-8 inside strings\n"
    "  --bignum-as-raw           keep numbers that do not fit as their text\n"
    "  --max-depth=N             nesting limit (default 1024)\n";

static const char usage_validate[] =
    "usage: jet validate [reader options] FILE...\n"
    "\n"
    "Checks each FILE ('-' is standard input). Prints FILE:LINE:COL: message\n"
    "on stderr for each invalid one. Exit status 0 when all are valid, else 1.\n"
    "\n";

static const char usage_fmt[] =
    "usage: jet fmt [--minify | --pretty[=N]] [--ascii] [--escape-slashes]\n"
    "               [reader options] [FILE | -]\n"
    "\n"
    "Writes the document to standard output, followed by a newline.\n"
    "  --minify           no whitespace\n"
    "  --pretty[=N]       indent by N spaces, 1..15 (the default, N=2)\n"
    "  --ascii            escape every non-ASCII character as \\u escapes\n"
    "  --escape-slashes   write / as \\/\n"
    "Without FILE, standard input is read.\n"
    "\n";

static const char usage_stats[] =
    "usage: jet stats [reader options] FILE\n"
    "\n"
    "Prints the structural fingerprint (counts of objects, arrays, strings,\n"
    "numbers, integers, doubles, trues, falses, nulls, keys, max_depth,\n"
    "string_bytes) as one JSON object.\n"
    "\n";

static const char usage_get[] =
    "usage: jet get [reader options] FILE POINTER\n"
    "\n"
    "Prints the value at the JSON Pointer (\"\" is the whole document,\n"
    "\"/a/0\" the first element of member a), minified. Exit status 1 when\n"
    "there is no such value.\n"
    "\n";

static const char usage_output[] =
    "output options (the result, pretty by default, as jet fmt writes it):\n"
    "  --minify | --pretty[=N] | --ascii | --escape-slashes   as for jet fmt\n"
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
    "  -i, --in-place   replace FILE with the result (as -o FILE)\n"
    "\n";

static const char usage_merge[] =
    "usage: jet merge [output options] [-i] [reader options] FILE MERGEFILE\n"
    "\n"
    "Applies the JSON Merge Patch (RFC 7386) in MERGEFILE to FILE and writes\n"
    "the result.\n"
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
} cli;

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
        } else if (strncmp(a, "--max-depth=", 12) == 0) {
            if (!parse_u32(a + 12, &c->ropts.max_depth))
                return usage_error(cmd, "bad value in '%s' (want a positive integer)", a);
        } else if (c->fmt_opts && strcmp(a, "--minify") == 0) {
            c->indent = 0;
        } else if (c->fmt_opts && strcmp(a, "--pretty") == 0) {
            c->indent = 2;
        } else if (c->fmt_opts && strncmp(a, "--pretty=", 9) == 0) {
            uint32_t n;
            if (!parse_u32(a + 9, &n) || n > 15)
                return usage_error(cmd, "bad value in '%s' (want 1..15)", a);
            c->indent = n;
        } else if (c->fmt_opts && strcmp(a, "--ascii") == 0) {
            c->wflags |= JET_WRITE_ASCII;
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

/* Reads and parses; on failure prints FILE:LINE:COL: message. */
static jet_doc *load(const char *path, const cli *c) {
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_doc *d = jet_read_file(path, &c->ropts, NULL, &err);
    if (!d) {
        const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
        const char *msg = err.msg ? err.msg : jet_code_name(err.code);
        if (err.line)
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

static int cmd_validate(cli *c) {
    if (c->nmore == 0) return usage_error("validate", "%s", "missing FILE");
    int rc = 0;
    for (size_t i = 0; i < c->nmore; i++) {
        errno = 0;
        jet_doc *d = load(c->more[i], c);
        if (!d) rc = EXIT_FAIL;
        jet_doc_free(d);
    }
    return rc;
}

static int cmd_fmt(cli *c) {
    if (c->nmore > 1) return usage_error("fmt", "%s", "at most one FILE");
    const char *path = c->nmore ? c->more[0] : "-";
    errno = 0;
    jet_doc *d = load(path, c);
    if (!d) return EXIT_FAIL;
    int rc = write_out(jet_doc_root(d), c->wflags | JET_WRITE_INDENT(c->indent));
    jet_doc_free(d);
    return rc;
}

static int cmd_stats(cli *c) {
    if (c->nmore != 1) return usage_error("stats", "%s", "expected exactly one FILE");
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

static int cmd_patch(cli *c) {
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
    int rc = parse_args(cmd, help, argc - 2, argv + 2, &c);
    if (rc < 0) rc = run(&c);
    free((void *)c.more);
    return rc;
}
