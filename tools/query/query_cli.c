/*
 * query_cli.c — the `jet query` command: options, the documents of each
 * input (concatenated JSON or NDJSON, one reusable parser, each document
 * read with JET_READ_STOP_WHEN_DONE and the next one started where it
 * ended), the filter run on each, and jq's output forms.
 *
 * Numbers are read as their text (JET_READ_NUMBER_AS_RAW), so a number
 * that passes through is printed exactly as it was written.
 *
 * NDJSON (without --slurp) goes through jet_stream_run: read in chunks,
 * lines parsed and queried on worker threads (one evaluator each), outputs
 * written in input order (query_stream). Fast path there: a filter that is
 * a plain path (.a, .a.b) is answered by the on-demand cursor on each
 * line, without building a document; a line where the path meets a
 * container or something jq would refuse to index goes through the
 * general path.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "tool_alloc.h"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#define QX_OK 0
#define QX_FAIL 1    /* I/O */
#define QX_USAGE 2   /* usage, invalid JSON input (as jq) */
#define QX_COMPILE 3 /* the filter does not compile (as jq) */
#define QX_RUNTIME 5 /* an error while running the filter (as jq) */

#define MAX_PATH_NAMES 16

static const char usage_query[] =
    "usage: jet query [-c] [-r] [-s] [-n] [-a] [--ndjson] [--arg NAME VALUE]\n"
    "                 [--argjson NAME JSON] [-j N] FILTER [FILE|-]...\n"
    "\n"
    "Runs the jq FILTER (jq's everyday subset, docs/query.md) on each JSON\n"
    "document of the inputs (whitespace-separated or one per line; standard\n"
    "input without FILE) and prints each output, pretty (2 spaces) unless -c.\n"
    "Numbers are printed exactly as read.\n"
    "  -c, --compact-output   one line per output\n"
    "  -r, --raw-output       strings without quotes or escapes\n"
    "  --join-output          as -r, and no newline after each output (jq's -j;\n"
    "                         -j is jet's thread count)\n"
    "  -a, --ascii-output     non-ASCII characters as \\u escapes\n"
    "  -s, --slurp            all documents as one array, the filter run once\n"
    "  -n, --null-input       run the filter once on null; inputs are not read\n"
    "  --ndjson               one document per line, streamed: read in chunks,\n"
    "                         run on -j threads, output in input order (the\n"
    "                         cursor's fast path for plain paths like .a.b);\n"
    "                         the default for FILEs named *.ndjson or *.jsonl\n"
    "  --arg NAME VALUE       $NAME is the string VALUE\n"
    "  --argjson NAME JSON    $NAME is the JSON value\n"
    "  -j N, --jobs=N         threads for --ndjson (default: all CPUs)\n"
    "Exit status: 0 success, 2 usage or invalid JSON input, 3 the filter does\n"
    "not compile (unsupported constructs included), 5 an error while running\n"
    "it (the run goes on with the next document), 1 I/O errors.\n";

typedef struct qcli {
    bool compact, raw, join, slurp, null_input, ascii, ndjson;
    bool lines; /* this input is NDJSON: --ndjson, or a .ndjson / .jsonl name */
    unsigned jobs; /* -j N: threads of the NDJSON path; 0: all CPUs */
    const char *filter;
    const char **files;
    size_t nfiles;
    const char **var_names;
    qv *var_vals;
    size_t nvars;
    jet_doc **var_docs;
    qprog *prog;
    qrun run;
    jet_buf out; /* output, written to stdout in large pieces */
    bool io_failed;
    int status;
    /* where the current document is, for messages: its offset in buf;
     * line:column counted only when a message needs them, from the last
     * place counted (counted_at, at doc_line:doc_col) */
    const char *name;
    const char *buf;
    size_t doc_at, counted_at;
    size_t doc_line, doc_col;
    /* the field path of the fast path */
    const char *path[MAX_PATH_NAMES];
    size_t path_len[MAX_PATH_NAMES];
    size_t npath;
    jet_od *od; /* the fast path's cursor on the caller's thread */
} qcli;

static int query_usage(const char *fmt, const char *arg) {
    fputs("jet query: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'jet query --help'.\n", stderr);
    return QX_USAGE;
}

static void flush_out(qcli *c, bool all) {
    if (c->out.len && (all || c->out.len >= (1u << 16))) {
        if (fwrite(c->out.data, 1, c->out.len, stdout) != c->out.len) c->io_failed = true;
        c->out.len = 0;
    }
    if (all && fflush(stdout) != 0) c->io_failed = true;
}

/* Where the outputs of the filter go: the caller's thread writes into
 * c->out and passes it to stdout as it grows; a worker of the stream path
 * (query_work) into its batch's buffer, without touching c. */
typedef struct qsink {
    const qcli *c;
    jet_buf *out;
    qcli *flush;           /* non-NULL on the caller's thread: c->out goes to stdout */
    const char *write_err; /* a writer's error or out of memory (static text) */
} qsink;

/* One output of the filter. */
static bool emit_value(void *ctx, qv v) {
    qsink *k = (qsink *)ctx;
    const qcli *c = k->c;
    /* text written as it is: raw strings; and, without a writer (most
     * outputs of a path like .id), null, booleans and numbers kept as read */
    const char *text = NULL;
    size_t len = 0;
    switch (v.type) {
    case QT_NULL: text = "null", len = 4; break;
    case QT_FALSE: text = "false", len = 5; break;
    case QT_TRUE: text = "true", len = 4; break;
    case QT_NUM:
        if (v.rep == QR_TEXT) text = v.u.s, len = v.len;
        break;
    case QT_STR:
        if (c->raw || c->join) text = v.u.s, len = v.len;
        break;
    default: break;
    }
    if (text) {
        if (!jet_buf_append(k->out, text, len) || (!c->join && !jet_buf_append(k->out, "\n", 1))) {
            k->write_err = "out of memory";
            return false;
        }
    } else {
        jet_writer w;
        jet_write_flags f = JET_WRITE_INDENT(c->compact ? 0 : 2) | (c->ascii ? JET_WRITE_ASCII : 0) |
                            (c->join ? 0 : JET_WRITE_NEWLINE_AT_END);
        jet_writer_init_buf(&w, k->out, f);
        qv_write(&w, v);
        if (!jet_writer_finish(&w)) {
            const jet_error *e = jet_writer_error(&w);
            k->write_err = e->msg ? e->msg : "could not write the output";
            return false;
        }
    }
    if (!k->flush) return true;
    flush_out(k->flush, false);
    return !k->flush->io_failed;
}

/* The caller's thread after a sink's failure: reported, exit status 1. */
static void report_write_err(qcli *c, const char *msg) {
    fprintf(stderr, "jet: %s\n", msg);
    c->status = QX_FAIL;
}

/* Column of the query error position (1-based, bytes) on its line. */
static void filter_pos(const char *filter, size_t pos, size_t *line, size_t *col) {
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < pos && filter[i]; i++) {
        if (filter[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static void advance_pos(const char *buf, size_t from, size_t to, size_t *line, size_t *col);

/* Brings doc_line:doc_col to the current document's start. */
static void count_to_doc(qcli *c) {
    if (!c->buf || c->doc_at < c->counted_at) return;
    advance_pos(c->buf, c->counted_at, c->doc_at, &c->doc_line, &c->doc_col);
    c->counted_at = c->doc_at;
}

/* Runs the filter on one input value; a runtime error is reported and
 * remembered (exit status 5), and the run goes on. Returns false only when
 * the output failed. */
static bool run_one(qcli *c, qv input) {
    qrun_reset(&c->run);
    c->run.vars = c->var_vals;
    qsink k = {c, &c->out, c, NULL};
    if (qrun_eval(&c->run, c->prog, input, emit_value, &k)) return true;
    if (k.write_err) {
        report_write_err(c, k.write_err);
        return false;
    }
    if (!c->run.failed) return c->status == QX_OK && !c->io_failed;
    size_t line, col;
    filter_pos(c->filter, c->run.err_pos, &line, &col);
    count_to_doc(c);
    flush_out(c, true);
    fprintf(stderr, "%s:%zu:%zu: query:%zu:%zu: %s\n", c->name, c->doc_line, c->doc_col, line, col,
            c->run.msg);
    c->status = QX_RUNTIME;
    return true;
}

/* An input's bytes: a regular file mapped (no copy; populated at once
 * where the system can, which costs less than reading it into memory,
 * even huge pages), else read whole into memory from tool_alloc()
 * (standard input, pipes). */
typedef struct input_bytes {
    const char *data;
    size_t len;
    bool mapped;
} input_bytes;

static bool input_open(const char *path, input_bytes *in) {
    memset(in, 0, sizeof in[0]);
    bool is_stdin = strcmp(path, "-") == 0;
    in->data = tool_map_file(path, &in->len);
    if (in->data) {
        in->mapped = true;
        return true;
    }
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return false;
    bool too_big;
    in->data = tool_read_all(f, 0, &in->len, &too_big);
    int saved = errno;
    if (!is_stdin) fclose(f);
    errno = saved;
    return in->data != NULL;
}

static void input_close(input_bytes *in) {
    if (in->mapped) {
        tool_unmap_file(in->data, in->len);
        return;
    }
    tool_alloc()->free(NULL, (void *)(uintptr_t)in->data);
}

/* Moves the line:column count (column in code points) from `from` to `to`. */
static void advance_pos(const char *buf, size_t from, size_t to, size_t *line, size_t *col) {
    for (size_t i = from; i < to; i++) {
        if (buf[i] == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)buf[i] & 0xC0) != 0x80) {
            ++*col;
        }
    }
}

static void report_json_error(qcli *c, const jet_error *e) {
    count_to_doc(c);
    size_t line = c->doc_line, col = c->doc_col;
    if (e->line > 1) {
        line += e->line - 1;
        col = e->column;
    } else if (e->line == 1) {
        col += e->column - 1;
    }
    flush_out(c, true);
    fprintf(stderr, "%s:%zu:%zu: %s\n", c->name, line, col, e->msg ? e->msg : jet_code_name(e->code));
}

/* The fast path on one NDJSON line: true when it wrote the answer to the
 * sink (or failed to: k->write_err), false when the line needs the general
 * path (which also reports errors). */
static bool fast_line(qsink *k, jet_od *od, const char *s, size_t len) {
    const qcli *c = k->c;
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    /* an invalid line is an error, as jq's, never a partial answer: the
     * cursor checks the parts it skips too */
    opts.flags = JET_READ_VALIDATE_ALL;
    jet_odv v;
    if (!jet_od_start(od, s, len, &opts, &v)) return false;
    bool null = false;
    for (size_t i = 0; i < c->npath && !null; i++) {
        jet_type t = jet_odv_type(&v);
        if (t == JET_TYPE_NULL) {
            null = true;
        } else if (!c->path[i]) { /* .[n]: past the end is null, as jq */
            if (t != JET_TYPE_ARR) return false; /* jq's error: the general path */
            jet_od_iter it;
            if (!jet_odv_arr(&v, &it)) return false;
            for (size_t e = 0; e <= c->path_len[i] && !null; e++) {
                if (!jet_od_arr_next(&it, &v)) {
                    if (!jet_od_ok(od)) return false;
                    null = true;
                }
            }
        } else if (t == JET_TYPE_OBJ) {
            jet_od_iter it;
            if (!jet_odv_obj(&v, &it)) return false;
            if (!jet_od_obj_find(&it, c->path[i], c->path_len[i], &v)) {
                if (!jet_od_ok(od)) return false;
                null = true;
            }
        } else {
            return false; /* jq's error: the general path says it */
        }
    }
    jet_str text;
    qv out = qv_null();
    if (!null) {
        switch (jet_odv_type(&v)) {
        case JET_TYPE_NULL: break;
        case JET_TYPE_BOOL: {
            bool b;
            if (!jet_odv_get_bool(&v, &b)) return false;
            out = qv_bool(b);
            break;
        }
        case JET_TYPE_NUM:
            if (!jet_odv_get_raw(&v, &text)) return false;
            out = qv_num_text(text.ptr, text.len);
            break;
        case JET_TYPE_STR:
            if (!jet_odv_get_str(&v, &text)) return false;
            out = qv_str(text.ptr, text.len);
            break;
        default: return false; /* a container: printed from a document */
        }
    }
    if (!jet_od_finish(od)) return false;
    emit_value(k, out);
    return true;
}

/* Documents kept for --slurp. */
typedef struct qvec_docs {
    jet_doc **items;
    size_t n, cap;
} qvec_docs;

static bool docs_push(qvec_docs *v, jet_doc *d) {
    if (v->n == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 16;
        jet_doc **items = (jet_doc **)realloc((void *)v->items, cap * sizeof *items);
        if (!items) return false;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->n++] = d;
    return true;
}

/* Every document of one input buffer; false to stop everything. Slurp
 * collects root values (documents kept alive in *docs). NDJSON comes here
 * only with --slurp (else query_stream). */
static bool run_buffer(qcli *c, const char *buf, size_t len, jet_parser *parser, qvec_docs *slurp) {
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = JET_READ_NUMBER_AS_RAW | JET_READ_STOP_WHEN_DONE;
    size_t pos = 0;
    bool first = true;
    c->buf = buf;
    c->doc_at = c->counted_at = 0;
    c->doc_line = c->doc_col = 1;
    while (pos < len) {
        while (pos < len && q_is_ws(buf[pos])) pos++;
        if (pos >= len) break;
        c->doc_at = pos;
        jet_error err;
        memset(&err, 0, sizeof err);
        size_t doc_len = len - pos;
        if (c->lines) { /* one line is one document */
            const char *nl = (const char *)memchr(buf + pos, '\n', len - pos);
            if (nl) doc_len = (size_t)(nl - (buf + pos));
            opts.flags &= ~JET_READ_STOP_WHEN_DONE;
        }
        jet_doc *d = NULL;
        if (first && !c->lines && c->npath && !slurp) {
            /* A plain path on an input that is one document: the cursor
             * answers it without a document (it fails, and the general
             * path below takes over, when more documents follow or the
             * path meets something only jq's errors describe). */
            if (!c->od) c->od = jet_od_new(NULL);
            qsink k = {c, &c->out, c, NULL};
            if (c->od && fast_line(&k, c->od, buf + pos, doc_len)) {
                if (k.write_err) {
                    report_write_err(c, k.write_err);
                    return false;
                }
                return !c->io_failed;
            }
        }
        if (first && !c->lines) {
            /* Most inputs hold one document: read it whole first, which
             * takes the indexed (vector) reader; STOP_WHEN_DONE takes the
             * one-pass reader. On any error (more documents follow, or one
             * is invalid) the documents are read one by one, which reports
             * errors in their order. */
            jet_read_opts whole = opts;
            whole.flags &= ~JET_READ_STOP_WHEN_DONE;
            d = slurp ? jet_read(buf + pos, doc_len, &whole, NULL, NULL)
                      : jet_parser_parse(parser, buf + pos, doc_len, &whole, NULL);
        }
        first = false;
        if (!d)
            d = slurp ? jet_read(buf + pos, doc_len, &opts, NULL, &err)
                      : jet_parser_parse(parser, buf + pos, doc_len, &opts, &err);
        if (!d) {
            report_json_error(c, &err);
            c->status = QX_USAGE;
            return false;
        }
        pos += c->lines ? doc_len : jet_doc_read_size(d);
        if (slurp) {
            if (!docs_push(slurp, d)) {
                jet_doc_free(d);
                fputs("jet: out of memory\n", stderr);
                c->status = QX_FAIL;
                return false;
            }
            continue;
        }
        if (!run_one(c, qv_from_jet(jet_doc_root(d)))) return false;
    }
    return true;
}

/* ---- NDJSON through jet_stream_run (docs/query.md, "NDJSON: streamed") ----
 *
 * The caller's thread reads the input in chunks and splits it into lines;
 * worker threads parse each line and run the filter on it, each with its
 * own evaluator (a qrun), writing the outputs into the batch's buffer;
 * the caller's thread writes them to stdout in input order. Each result
 * starts with a tag byte: 'O' then the outputs; or 'E' then the outputs
 * made before a runtime error, the error's message and, last, two size_t:
 * the error's position in the filter and the message's length. */

typedef struct qstream_job {
    qcli *c;
    qrun *runs;       /* one per thread, indexed by jet_stream_worker.id */
    int fd;           /* the input (POSIX) */
    FILE *in;         /* the input (elsewhere) */
} qstream_job;

static bool query_work(void *ctx, jet_stream_worker *w, const jet_stream_doc *d, jet_error *err) {
    qstream_job *j = (qstream_job *)ctx;
    const qcli *c = j->c;
    qrun *run = &j->runs[w->id];
    qsink k = {c, w->out, NULL, NULL};
    size_t start = w->out->len;
    if (!jet_buf_append(w->out, "O", 1)) return false;
    if (c->npath && fast_line(&k, w->od, d->json, d->len)) {
        if (!k.write_err) return true;
        err->msg = k.write_err;
        return false;
    }
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = JET_READ_NUMBER_AS_RAW;
    jet_doc *doc = jet_parser_parse(w->parser, d->json, d->len, &opts, err);
    if (!doc) return false;
    qrun_reset(run);
    run->vars = c->var_vals;
    if (qrun_eval(run, c->prog, qv_from_jet(jet_doc_root(doc)), emit_value, &k)) return true;
    if (k.write_err || !run->failed) {
        err->msg = k.write_err ? k.write_err : "out of memory";
        return false;
    }
    size_t mlen = strlen(run->msg), pos = run->err_pos;
    w->out->data[start] = 'E';
    return jet_buf_append(w->out, run->msg, mlen) && jet_buf_append(w->out, &pos, sizeof pos) &&
           jet_buf_append(w->out, &mlen, sizeof mlen);
}

static bool query_deliver(void *ctx, const jet_stream_doc *d, const char *res, size_t n,
                          const jet_error *err) {
    qcli *c = ((qstream_job *)ctx)->c;
    if (err) { /* invalid JSON stops the run (as jq), after what came before */
        flush_out(c, true);
        const char *msg = err->msg ? err->msg : jet_code_name(err->code);
        if (err->line) fprintf(stderr, "%s:%zu:%zu: %s\n", c->name, err->line, err->column, msg);
        else fprintf(stderr, "%s: %s\n", c->name, msg);
        c->status = err->code ? QX_USAGE : QX_FAIL;
        return false;
    }
    if (n == 0) return true;
    size_t outputs = n - 1, mlen = 0, pos = 0;
    if (res[0] == 'E') {
        memcpy(&pos, res + n - sizeof pos - sizeof mlen, sizeof pos);
        memcpy(&mlen, res + n - sizeof mlen, sizeof mlen);
        outputs = n - 1 - mlen - sizeof pos - sizeof mlen;
    }
    if (!jet_buf_append(&c->out, res + 1, outputs)) {
        report_write_err(c, "out of memory");
        return false;
    }
    flush_out(c, false);
    if (res[0] == 'E') {
        size_t line, col;
        filter_pos(c->filter, pos, &line, &col);
        flush_out(c, true);
        fprintf(stderr, "%s:%llu:%llu: query:%zu:%zu: %.*s\n", c->name, (unsigned long long)d->line,
                (unsigned long long)d->column, line, col, (int)mlen, res + 1 + outputs);
        c->status = QX_RUNTIME;
    }
    return !c->io_failed;
}

/* Reads the next chunk; what is written so far leaves first, so output
 * keeps up with input that trickles (a pipe). */
static size_t query_read(void *ctx, char *buf, size_t cap) {
    qstream_job *j = (qstream_job *)ctx;
    flush_out(j->c, true);
#ifndef _WIN32
    ssize_t n;
    do {
        n = read(j->fd, buf, cap);
    } while (n < 0 && errno == EINTR);
    return n < 0 ? SIZE_MAX : (size_t)n;
#else
    size_t n = fread(buf, 1, cap, j->in);
    return n == 0 && ferror(j->in) ? SIZE_MAX : n;
#endif
}

/* One NDJSON input through the stream; false to stop everything. An input
 * that cannot be opened is reported and sets *rc (the run goes on). */
static bool query_stream(qcli *c, const char *path, qrun *runs, unsigned threads, int *rc) {
    qstream_job j = {c, runs, -1, NULL};
    bool is_stdin = strcmp(path, "-") == 0;
    errno = 0;
#ifndef _WIN32
    j.fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    bool opened = j.fd >= 0;
#else
    j.in = is_stdin ? stdin : fopen(path, "rb");
    bool opened = j.in != NULL;
#endif
    if (!opened) {
        fprintf(stderr, "jet: %s: could not read%s%s\n", c->name, errno ? ": " : "",
                errno ? strerror(errno) : "");
        *rc = QX_USAGE; /* as jq: 2 when an input cannot be read */
        return true;
    }
    jet_stream *s = jet_stream_new(JET_STREAM_NDJSON, NULL, NULL);
    bool ok = s != NULL;
    if (s) {
        jet_stream_run_opts ro;
        memset(&ro, 0, sizeof ro);
        ro.threads = threads;
        ro.read = query_read;
        ro.read_ctx = &j;
        ok = jet_stream_run(s, &ro, query_work, query_deliver, &j);
        if (!ok && c->status != QX_USAGE && c->status != QX_FAIL && !c->io_failed) {
            const jet_error *e = jet_stream_error(s);
            fprintf(stderr, "%s: %s\n", c->name, e->msg ? e->msg : jet_code_name(e->code));
            c->status = QX_FAIL;
        }
        jet_stream_free(s);
    } else {
        fputs("jet: out of memory\n", stderr);
        c->status = QX_FAIL;
    }
#ifndef _WIN32
    if (!is_stdin) close(j.fd);
#else
    if (!is_stdin) fclose(j.in);
#endif
    return c->status != QX_USAGE && c->status != QX_FAIL && !c->io_failed;
}

static bool has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* --argjson's value: one JSON document (kept in c->var_docs). */
static bool parse_argjson(qcli *c, size_t i, const char *text) {
    jet_read_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.flags = JET_READ_NUMBER_AS_RAW;
    jet_error err;
    memset(&err, 0, sizeof err);
    jet_doc *d = jet_read(text, strlen(text), &opts, NULL, &err);
    if (!d) {
        fprintf(stderr, "jet query: --argjson %s: invalid JSON text (%s)\n", c->var_names[i],
                err.msg ? err.msg : jet_code_name(err.code));
        return false;
    }
    c->var_docs[i] = d;
    c->var_vals[i] = qv_from_jet(jet_doc_root(d));
    return true;
}

static int parse_query_args(qcli *c, int argc, char **argv) {
    bool only_args = false;
    size_t nvar = (size_t)argc; /* enough for every --arg */
    c->files = (const char **)calloc((size_t)argc + 1, sizeof *c->files);
    c->var_names = (const char **)calloc(nvar + 1, sizeof *c->var_names);
    c->var_vals = (qv *)calloc(nvar + 1, sizeof *c->var_vals);
    c->var_docs = (jet_doc **)calloc(nvar + 1, sizeof *c->var_docs);
    if (!c->files || !c->var_names || !c->var_vals || !c->var_docs) {
        fputs("jet: out of memory\n", stderr);
        return QX_FAIL;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            if (!c->filter) c->filter = a;
            else c->files[c->nfiles++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage_query, stdout);
            return QX_OK;
        } else if (strcmp(a, "--compact-output") == 0) {
            c->compact = true;
        } else if (strcmp(a, "--raw-output") == 0) {
            c->raw = true;
        } else if (strcmp(a, "--join-output") == 0) {
            c->join = true;
        } else if (strcmp(a, "--ascii-output") == 0) {
            c->ascii = true;
        } else if (strcmp(a, "--slurp") == 0) {
            c->slurp = true;
        } else if (strcmp(a, "--null-input") == 0) {
            c->null_input = true;
        } else if (strcmp(a, "--ndjson") == 0) {
            c->ndjson = true;
        } else if (strcmp(a, "-j") == 0 || strncmp(a, "--jobs=", 7) == 0) {
            const char *n = a[1] == 'j' ? (i + 1 < argc ? argv[++i] : NULL) : a + 7;
            char *end = NULL;
            unsigned long jobs = n ? strtoul(n, &end, 10) : 0;
            if (!n || !*n || *end || jobs < 1 || jobs > 1024)
                return query_usage("%s needs a thread count, 1..1024", "-j");
            c->jobs = (unsigned)jobs;
        } else if (strcmp(a, "--arg") == 0 || strcmp(a, "--argjson") == 0) {
            if (i + 2 >= argc) return query_usage("%s needs NAME and VALUE", a);
            size_t v = c->nvars++;
            c->var_names[v] = argv[i + 1];
            if (a[5] == 'j') {
                if (!parse_argjson(c, v, argv[i + 2])) return QX_USAGE;
            } else {
                c->var_vals[v] = qv_str(argv[i + 2], strlen(argv[i + 2]));
            }
            i += 2;
        } else if (a[1] != '-') {
            for (const char *f = a + 1; *f; f++) {
                switch (*f) {
                case 'c': c->compact = true; break;
                case 'r': c->raw = true; break;
                case 'a': c->ascii = true; break;
                case 's': c->slurp = true; break;
                case 'n': c->null_input = true; break;
                default: return query_usage("unknown option '%s'", a);
                }
            }
        } else {
            return query_usage("unknown option '%s'", a);
        }
    }
    return -1;
}

int jet_query_main(int argc, char **argv) {
    qcli c;
    memset(&c, 0, sizeof c);
    jet_buf_init(&c.out, NULL);
    qrun_init(&c.run);
    jet_parser *parser = NULL;
    qrun *runs = NULL; /* the NDJSON path's evaluators, one per thread */
    unsigned threads = 0;
    qvec_docs slurp = {NULL, 0, 0};
    int rc = parse_query_args(&c, argc, argv);
    if (rc >= 0) goto done;
    rc = QX_OK;
    if (!c.filter) {
        rc = query_usage("%s", "missing FILTER");
        goto done;
    }
    qerror qe;
    c.prog = qprog_compile(c.filter, strlen(c.filter), c.var_names, c.nvars, &qe);
    if (!c.prog) {
        fprintf(stderr, "jet: query:%zu:%zu: %s\n", qe.line, qe.col, qe.msg);
        rc = QX_COMPILE;
        goto done;
    }
    c.npath = c.slurp ? 0 : qprog_field_path(c.prog, c.path, c.path_len, MAX_PATH_NAMES);
    if (c.null_input) {
        c.name = "<null input>";
        c.doc_line = c.doc_col = 1;
        run_one(&c, qv_null());
    } else {
        parser = jet_parser_new(tool_alloc()); /* big documents: huge pages */
        threads = c.jobs ? c.jobs : jet_cpu_count();
        if (threads > 256) threads = 256; /* jet_stream_run's most */
        runs = (qrun *)calloc(threads, sizeof *runs);
        for (unsigned t = 0; runs && t < threads; t++) qrun_init(&runs[t]);
        if (!parser || !runs) {
            fputs("jet: out of memory\n", stderr);
            rc = QX_FAIL;
            goto done;
        }
        size_t nfiles = c.nfiles ? c.nfiles : 1;
        for (size_t i = 0; i < nfiles && c.status != QX_USAGE && !c.io_failed; i++) {
            const char *path = c.nfiles ? c.files[i] : "-";
            c.name = strcmp(path, "-") == 0 ? "<stdin>" : path;
            c.lines = c.ndjson || has_suffix(path, ".ndjson") || has_suffix(path, ".jsonl");
            if (c.lines && !c.slurp) {
                if (!query_stream(&c, path, runs, threads, &rc)) break;
                continue;
            }
            input_bytes in;
            errno = 0;
            if (!input_open(path, &in)) {
                fprintf(stderr, "jet: %s: could not read%s%s\n", c.name, errno ? ": " : "",
                        errno ? strerror(errno) : "");
                rc = QX_USAGE; /* as jq: 2 when an input cannot be read */
                continue;
            }
            bool go_on = run_buffer(&c, in.data, in.len, parser, c.slurp ? &slurp : NULL);
            input_close(&in); /* documents copy what they keep */
            c.buf = NULL;
            if (!go_on) break;
        }
        if (c.slurp && c.status == QX_OK && !c.io_failed) {
            /* not in the run's arena: run_one starts by resetting it */
            qv *items = (qv *)malloc((slurp.n ? slurp.n : 1) * sizeof *items);
            if (!items) {
                fputs("jet: out of memory\n", stderr);
                c.status = QX_FAIL;
            } else {
                for (size_t i = 0; i < slurp.n; i++) items[i] = qv_from_jet(jet_doc_root(slurp.items[i]));
                qv arr = qv_null();
                arr.type = QT_ARR;
                arr.len = slurp.n;
                arr.u.items = items;
                c.name = c.nfiles == 1 ? c.name : "<slurped input>";
                c.buf = NULL;
                c.doc_line = c.doc_col = 1;
                run_one(&c, arr);
                free(items);
            }
        }
    }
    flush_out(&c, true);
    if (c.io_failed) {
        fputs("jet: could not write the output\n", stderr);
        c.status = QX_FAIL;
    }
    if (c.status != QX_OK) rc = c.status;
done:
    for (size_t i = 0; i < slurp.n; i++) jet_doc_free(slurp.items[i]);
    free((void *)slurp.items);
    for (size_t i = 0; i < c.nvars; i++) jet_doc_free(c.var_docs ? c.var_docs[i] : NULL);
    free((void *)c.files);
    free((void *)c.var_names);
    free(c.var_vals);
    free((void *)c.var_docs);
    qprog_free(c.prog);
    qrun_free(&c.run);
    for (unsigned t = 0; runs && t < threads; t++) qrun_free(&runs[t]);
    free(runs);
    jet_parser_free(parser);
    jet_od_free(c.od);
    jet_buf_free(&c.out);
    return rc;
}
