/* bench.h — the harness's internal types, shared by jet_bench.c (driver,
 * verification, timing), report.c (tables, JSON, Markdown, SVG),
 * counters.c (perf_event_open, callgrind) and selftest.c. */
#ifndef JET_BENCH_BENCH_H
#define JET_BENCH_BENCH_H

#include "engine.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
    OP_PARSE, OP_SERIALIZE, OP_VALIDATE, OP_DECODE,
    OP_NOSTR_SHORT, OP_NOSTR_FULL, OP_NOSTR_ENVELOPE, /* JB_NOSTR_* in this order */
    OP_API_READ, OP_API_WRITE,
    OP_NDJSON,
    OP_BUILD, OP_PATCH, /* mutable documents (jb_mut_ops) */
    OP__COUNT
};
extern const char *const jb_op_names[OP__COUNT];
extern const char *const jb_op_titles[OP__COUNT];
/* Message-oriented ops: reported as ns per operation and ops/s. */
bool jb_op_per_message(int op);
/* The engine's caveat for an op (may be NULL). */
const char *jb_engine_note(const jb_engine *e, int op);

#define JB_MAX_DATASETS 16
#define JB_MAX_ENGINES 24

/* What a dataset is, and so which operations run on it. */
enum {
    JB_DS_DOC,   /* one JSON document: parse, serialize, validate (+ decode) */
    JB_DS_NOSTR, /* newline-delimited relay messages: nostr-* */
    JB_DS_API,   /* the ApiResponse sample: api-* */
    JB_DS_NDJSON /* ~100 MB of NDJSON built from the corpora: ndjson */
};

/* Datasets generated from a corpus. Decode only: its document re-emitted
 * minified, members in their order or shuffled, so that the two differ only
 * in key order. Parse, serialize and validate too: the shapes of
 * bench/shapes.h (escaped text, long strings, number arrays). */
enum {
    JB_DERIVE_NONE = 0,
    JB_DERIVE_MINIFIED,
    JB_DERIVE_SHUFFLED,
    JB_DERIVE_ESCAPED,
    JB_DERIVE_LONG_STRINGS,
    JB_DERIVE_MESH
};

typedef struct jb_dataset {
    const char *name;   /* "twitter" */
    int kind;           /* JB_DS_* */
    int derive;         /* JB_DERIVE_*: generated from the file's document */
    const char *file;   /* "twitter.json" */
    char path[1024];    /* where it was found */
    char *data;         /* exactly len bytes (no NUL, no padding) */
    size_t len;
    bool loaded;
    bool have_ref;      /* reference fingerprint established */
    jb_stats ref;
    char ref_source[256];
    bool have_twitter_ref;
    jb_twitter twitter_ref;
    char twitter_ref_source[256];
    /* nostr_relay: the messages, one exact-length buffer each */
    char **lines;
    size_t *lens;
    size_t nlines, line_bytes;
    bool have_nostr_ref[3];     /* per JB_NOSTR_* variant */
    jb_nostr nostr_ref[3];
    char nostr_ref_source[3][256];
    /* api_response: the reference checksum, and the ApiResponse that
     * api-write writes (decoded once by api_src, whose state keeps its
     * strings and arrays alive) */
    bool have_api_ref;
    jb_api api_ref;
    char api_ref_source[256];
    struct ApiResponse *api_in;
    const jb_engine *api_src;
    void *api_src_state;
    /* ndjson: the fingerprint of each document (jet, line by line) */
    jb_stats *ndjson_ref;
    size_t ndjson_docs;
} jb_dataset;

typedef struct jb_counters {
    bool hw;            /* cycles/instructions/branches measured */
    bool sw;            /* page faults measured */
    double ipc, cyc_per_byte, ins_per_byte, br_miss_pct, faults_per_iter;
    char why[160];      /* why hardware counters are n/a */
} jb_counters;

enum { CELL_PENDING, CELL_UNSUPPORTED, CELL_FAILED, CELL_OK };

typedef struct jb_cell {
    const jb_engine *eng;
    int op;
    int ds;             /* index into the dataset table */
    int state;          /* CELL_* */
    char note[512];     /* failure reason or caveat */
    size_t bytes;       /* input bytes per iteration (MB/s denominator) */
    size_t out_bytes;   /* serialize: output length */
    /* timing */
    void *st;           /* engine state while the group runs */
    void *doc;          /* serialize: the prepared document */
    unsigned iters_per_sample;
    double *samples;    /* ns per iteration, one per sample */
    size_t nsamples, cap;
    double *rounds;     /* per round: median ns of the cell's slice */
    size_t nrounds;
    double median_ns, mad_ns, p10_ns, mb_per_s, ops_per_s;
    double ratio;       /* × baseline (interleaved), 0 when n/a */
    const char *ratio_base;
    jb_counters ctr;
    bool have_ctr;
} jb_cell;

typedef struct jb_opts {
    double min_time_ms, slice_ms, sample_ms;
    const char *engines, *ops, *datasets, *data_dir, *baseline, *group_by;
    const char *json_path, *md_path, *svg_dir;
    int pin_cpu;        /* -1: none */
    bool quick, self_test, counters, instructions, step_count, step_profile, strict, list, verbose;
    unsigned instr_iters;
    uint64_t step_limit; /* --step-count: most instructions stepped per cell */
    size_t profile_top;  /* --profile-top: rows per profile list (0: the defaults) */
    double profile_seconds; /* --sample-profile: seconds per cell, 0: off */
} jb_opts;

typedef struct jb_run {
    jb_opts opt;
    jb_dataset ds[JB_MAX_DATASETS];
    int nds;
    const jb_engine *eng[JB_MAX_ENGINES];
    int neng;
    jb_cell *cells;
    int ncells;
    bool op_on[OP__COUNT];
    char counters_why[160];
    int selftest_passed, selftest_failed;
} jb_run;

/* jet_bench.c */
double jb_now_ns(void);
int jb_stats_compare(const jb_stats *got, const jb_stats *ref, unsigned caps,
                     char *why, size_t cap);
int jb_twitter_compare(const jb_twitter *got, const jb_twitter *ref, char *why, size_t cap);
int jb_nostr_compare(const jb_nostr *got, const jb_nostr *ref, char *why, size_t cap);
int jb_api_compare(const jb_api *got, const jb_api *ref, char *why, size_t cap);
void jb_verify_cell(jb_run *r, jb_cell *c);
uint64_t jb_run_once(jb_cell *c, const jb_dataset *d, bool *ok);

/* report.c */
void jb_compute_ratios(jb_run *r);
void jb_print_tables(jb_run *r, FILE *out);
int jb_write_json(jb_run *r, const char *path);
int jb_write_markdown(jb_run *r, const char *path);
int jb_write_svg(jb_run *r, const char *dir);
void jb_machine_info(char *cpu, size_t ncpu, char *kernel, size_t nk, char *date, size_t nd);
void jb_fmt_num(double v, char *buf, size_t cap);

/* counters.c */
bool jb_counters_probe(char *why, size_t cap);
void jb_counters_measure(jb_run *r, jb_cell *c);
bool jb_callgrind_available(void);
bool jb_under_valgrind(void);
void jb_instructions_cell(jb_run *r, jb_cell *c);
int jb_callgrind_report(int argc, char **argv);

/* stepcount.c */
void jb_step_count_cell(jb_run *r, jb_cell *c);

/* profile.c */
void jb_sample_profile_cell(jb_run *r, jb_cell *c);
/* The hottest functions and source lines of the code addresses pcs[0..n)
 * (reordered), through addr2line; `exact`: every address is one
 * instruction run, and the counts are printed (profile.c). */
void jb_profile_report(uintptr_t *pcs, size_t n, bool exact, size_t top);

/* api_check.c */
void jb_api_checksum(const struct ApiResponse *r, jb_api *out);
/* api-write verification: 0 when `text` is valid JSON equal to the sample as
 * a jet DOM (a member whose value is null counts as absent); else non-zero
 * and a reason. Without jet compiled in, it says so and fails. */
int jb_api_check_output(const char *text, size_t len, const char *sample, size_t sample_len, char *why,
                        size_t cap);

/* selftest.c */
int jb_self_test(jb_run *r, int ds);

#endif
