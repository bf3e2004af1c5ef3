/*
 * jet — command-line front end of the library.
 *
 *   jet validate FILE...                  exit 0 when every file is valid
 *   jet fmt [--minify|--pretty[=N]] [--ascii] [--escape-slashes] [FILE|-]
 *   jet stats FILE                        structural fingerprint as JSON
 *   jet get FILE POINTER                  value at a JSON Pointer (RFC 6901)
 *
 * Exit status: 0 success, 1 invalid input / not found / I/O failure,
 * 2 usage error. Diagnostics go to stderr as FILE:LINE:COL: message; a
 * pointer that names nothing as jet: FILE: POINTER: why (the token that
 * failed and the value it was applied to).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jet.h"

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

typedef struct cli {
    jet_read_opts ropts;
    jet_write_flags wflags;
    unsigned indent;    /* 0: minified */
    bool fmt_opts;      /* accept fmt's output options */
    const char **more; /* positional arguments */
    size_t nmore;
} cli;

static int usage_error(const char *cmd, const char *fmt, const char *arg) {
    fprintf(stderr, "jet%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry 'jet %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
    return EXIT_USAGE;
}

static void print_help(const char *cmd_usage) {
    fputs(cmd_usage, stdout);
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
            print_help(help);
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
