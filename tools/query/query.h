/*
 * query.h — the filter language of `jet query` (jq's everyday subset;
 * docs/query.md): values, the parser to an AST, the evaluator and the
 * command. Part of the jet tool only, not of the library or its ABI.
 *
 * Ownership: a compiled query (qprog) owns its AST; a run (qrun) owns an
 * arena that holds every value it makes, valid until qrun_reset or
 * qrun_free. Values read from a jet_doc point into it (zero-copy), so the
 * document must outlive the run's use of them. A compiled query is only
 * read while it runs, so threads may share one (and the variables'
 * values), each with its own qrun (jet query --ndjson does).
 */
#ifndef JET_QUERY_H
#define JET_QUERY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jet.h"

/* ---- values ---- */

/* jq's types in jq's sort order (null < false < true < numbers < strings <
 * arrays < objects). */
typedef enum qtype { QT_NULL, QT_FALSE, QT_TRUE, QT_NUM, QT_STR, QT_ARR, QT_OBJ } qtype;

/* How a number or container is held. */
typedef enum qrep {
    QR_PLAIN, /* strings: s/len; containers built here: items/len */
    QR_DOC,   /* arrays and objects of an input document: doc */
    QR_TEXT,  /* numbers kept as their JSON text: s/len (printed as is) */
    QR_INT,   /* numbers computed as an integer: i */
    QR_DBL    /* numbers computed as a double: d */
} qrep;

/* One immutable value (copied freely). A built object's items are
 * key, value, key, value, ... (len members, keys unique, insertion order). */
typedef struct qv {
    uint8_t type; /* qtype */
    uint8_t rep;  /* qrep */
    size_t len;
    union {
        const jet_val *doc;
        const char *s;
        const struct qv *items;
        int64_t i;
        double d;
    } u;
} qv;

/* JSON's whitespace (also jq's, between tokens and around tonumber's text). */
static inline bool q_is_ws(char ch) {
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* ---- a compiled filter ---- */

typedef struct qnode qnode;
typedef struct qprog {
    qnode *root;
    jet_arena arena; /* the nodes and literal values */
    size_t nvars;    /* the caller's variables (slots 0..nvars-1) */
    size_t nslots;   /* and one slot per `as` binding after them */
} qprog;

/* A compile error: `pos` is the byte offset in the filter text, line and
 * col (1-based, col in bytes) where it was found. */
typedef struct qerror {
    size_t pos, line, col;
    char msg[200];
} qerror;

/* Compiles `text` (`len` bytes). `var_names` are the names of the $
 * variables the caller will supply (without the '$'), in the order of the
 * values given to qrun_eval. NULL and err filled on failure. */
qprog *qprog_compile(const char *text, size_t len, const char *const *var_names, size_t nvars,
                     qerror *err);
void qprog_free(qprog *p);
/* When the whole filter is a path of plain field names and literal
 * non-negative indexes (".a", ".a.b", `."x"`, ".[3].id"), its steps and
 * their count (at most `cap`); else 0. A name step: names[i], lens[i]; an
 * index step: names[i] NULL, lens[i] the index. */
size_t qprog_field_path(const qprog *p, const char **names, size_t *lens, size_t cap);

/* ---- running it ---- */

typedef struct qrun {
    jet_arena arena;
    size_t used;      /* bytes taken from the arena since the last reset */
    size_t max_bytes; /* 0: no limit (else a runtime error past it) */
    uint64_t steps, max_steps; /* evaluation steps; max 0: no limit */
    uint32_t depth;   /* nesting of the evaluator now */
    const qv *vars;   /* the values of the compiled query's variables */
    qv *slots;        /* the variables and `as` bindings during an eval */
    bool failed;      /* a runtime error happened: msg, pos */
    size_t err_pos;   /* byte offset in the filter of what failed */
    char msg[256];
} qrun;

/* Called once per output; return false to stop the evaluation. */
typedef bool (*qemit_fn)(void *ctx, qv v);

void qrun_init(qrun *r);
/* Forgets every value made so far (keeps the memory). */
void qrun_reset(qrun *r);
void qrun_free(qrun *r);
/* Runs the filter on `input`, calling `emit` for each output. Returns
 * false when stopped by an error (r->failed, r->msg) or by `emit`. */
bool qrun_eval(qrun *r, const qprog *p, qv input, qemit_fn emit, void *ctx);

/* ---- value helpers (query_value.c) ---- */

qv qv_null(void);
qv qv_bool(bool b);
qv qv_int(int64_t i);
qv qv_dbl(double d);
/* A string or number text that lives as long as the caller needs. */
qv qv_str(const char *s, size_t len);
qv qv_num_text(const char *s, size_t len);
/* A value of an input document (zero-copy). */
qv qv_from_jet(const jet_val *v);

/* Memory of the run (NULL and r->failed on exhaustion or the limit). */
void *qrun_alloc(qrun *r, size_t size);
/* Sets r->failed with a printf-style message; returns false. */
bool qrun_fail(qrun *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The same with a va_list (the first error is kept). */
bool qrun_vfail(qrun *r, const char *fmt, va_list ap);

/* Iteration over an array's elements or an object's members, either kind
 * of representation. */
typedef struct qiter {
    qv of;
    size_t i;
    const jet_val *cur;
} qiter;
void qiter_init(qiter *it, qv container);
/* The next element (key untouched) or member (key set); false at the end. */
bool qiter_next(qiter *it, qv *key, qv *val);

bool qv_truthy(qv v);
/* jq's total order: <0, 0, >0. Numbers by value (integers exactly). */
int qv_compare(qv a, qv b);
/* A number's value as a double. */
double qv_num_f64(qv v);
/* A number's value when it is an integer that fits int64. */
bool qv_num_i64(qv v, int64_t *out);
/* The member named key of an object (null when absent). */
qv qv_obj_get(qv obj, const char *key, size_t len);
/* Element i of an array (null when out of range). */
qv qv_arr_get(qv arr, size_t i);
/* Member or element count. */
size_t qv_count(qv v);
/* jq's type name: "null", "boolean", "number", ... */
const char *qv_type_name(qv v);

/* A growable byte buffer (libc memory). */
typedef struct qbuf {
    char *data;
    size_t len, cap;
} qbuf;
bool qbuf_push(qbuf *b, const char *s, size_t n);
void qbuf_free(qbuf *b);

/* Appends v as compact JSON text (jq's tojson); false on OOM. */
bool qv_to_json(jet_buf *out, qv v);
/* Writes v through a jet_writer (for output); false on a writer error. */
bool qv_write(jet_writer *w, qv v);

/* ---- the command (query_cli.c) ---- */

/* `jet query ARGS...` (argv holds the arguments after "query"); returns
 * the exit status. */
int jet_query_main(int argc, char **argv);

/* ---- the command (query_cli.c) ---- */

/* `jet query ARGS...` (argv holds the arguments after "query"); returns
 * the exit status. */
int jet_query_main(int argc, char **argv);

#endif
