/*
 * engine.h — the C ABI between the jet-bench harness and its engine adapters.
 *
 * Every adapter (bench/engines/<name>.c or .cpp) defines one or more
 * `const jb_engine` objects; bench/engines/registry.c lists the ones that
 * were found at build time. Any function pointer may be NULL when the engine
 * does not support that operation; the harness then skips the cell with a
 * note instead of timing it.
 */
#ifndef JET_BENCH_ENGINE_H
#define JET_BENCH_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The structural fingerprint: the same fields, in the same order and with the
 * same definitions, as jet_stats in include/jet.h section 10. */
typedef struct jb_stats {
    uint64_t objects, arrays, strings, numbers, integers, doubles;
    uint64_t trues, falses, nulls, keys, max_depth, string_bytes;
} jb_stats;

/* The twitter.json decode checksum (TwitterStats). Sums wrap mod 2^64. */
typedef struct jb_twitter {
    uint64_t statuses, id_sum, user_id_sum, followers_sum, friends_sum;
    uint64_t retweet_sum, favorite_sum, verified;
    uint64_t text_bytes, screen_name_bytes, name_bytes, created_at_bytes;
    uint64_t hashtags, hashtag_bytes;
} jb_twitter;

/* Capabilities: which fingerprint fields an engine can report faithfully. */
enum {
    /* The engine tells integers from doubles (otherwise only `numbers` is
     * compared, not `integers`/`doubles`). */
    JB_CAP_NUM_SPLIT = 1u << 0,
    /* The engine keeps strings with embedded NUL (otherwise `string_bytes`
     * is still compared: the corpora have no \u0000). Informational. */
    JB_CAP_NUL_STRINGS = 1u << 1,
    /* Reference quality: may serve as the fingerprint reference. */
    JB_CAP_REFERENCE = 1u << 2,
    /* Harness-internal: a deliberately broken adapter used by --self-test. */
    JB_CAP_SELFTEST = 1u << 3
};

typedef struct jb_engine {
    const char *name;   /* e.g. "simdjson-dom" */
    const char *family; /* library name + version, e.g. "simdjson 3.0.1" */
    unsigned caps;      /* JB_CAP_* */
    /* Caveats printed with the engine's cells (what the timed region
     * includes beyond the bare operation). Per-op notes may be NULL. */
    const char *parse_note;
    const char *serialize_note;
    const char *validate_note;
    const char *decode_note;

    /* Per-engine state (a reusable parser, padded buffers ...). create()
     * may return NULL only on failure; the state is passed to every call. */
    void *(*create)(void);
    void (*destroy)(void *st);

    /* parse: bytes -> a complete document. The input is immutable and has no
     * padding and no NUL terminator; an engine needing either copies inside
     * this call. Returns NULL when the input is rejected. */
    void *(*parse)(void *st, const char *json, size_t len);
    /* Releases a document from parse(). Timed together with parse. */
    void (*free_doc)(void *st, void *doc);
    /* Fingerprint of a parsed document (not timed). Returns 0 on success. */
    int (*stats)(void *st, void *doc, jb_stats *out);

    /* serialize: document -> minified text. Returns a buffer released with
     * free_text(), its length in *out_len; NULL on failure. */
    char *(*serialize)(void *st, void *doc, size_t *out_len);
    void (*free_text)(void *st, char *text);

    /* validate: accept (1) or reject (0) without building a document. */
    int (*validate)(void *st, const char *json, size_t len);

    /* decode: twitter.json bytes -> TwitterStats. Returns 0 on success. */
    int (*decode_twitter)(void *st, const char *json, size_t len, jb_twitter *out);
} jb_engine;

/* The registry (bench/engines/registry.c): engines compiled in, in display
 * order, NULL-terminated; and the names that were skipped at build time with
 * the reason, NULL-terminated pairs. */
extern const jb_engine *const jb_engines[];
extern const char *const jb_missing_engines[];

/* Shared helpers for adapters written in C. */
void jb_stats_zero(jb_stats *s);

#ifdef __cplusplus
}
#endif

#endif
