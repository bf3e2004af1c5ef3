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

#include "oracle/twitter_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The structural fingerprint: the same fields, in the same order and with the
 * same definitions, as jet_stats in include/jet.h section 10. */
typedef struct jb_stats {
    uint64_t objects, arrays, strings, numbers, integers, doubles;
    uint64_t trues, falses, nulls, keys, max_depth, string_bytes;
} jb_stats;

/* The twitter.json decode checksum (TwitterStats): the struct of the
 * reference implementation the tests share (tests/oracle/twitter_stats.h,
 * which defines every field). Sums wrap mod 2^64. */
typedef twitter_stats jb_twitter;

/* The nostr checksum over all messages of nostr_relay (one call). Sums wrap
 * mod 2^64; content_bytes counts unescaped bytes. nostr-short fills
 * messages, event, content_bytes and created_at_sum; nostr-full adds tags
 * (tag arrays), tag_items (strings in them) and kind_sum; nostr-envelope
 * adds the eose, ok and notice counts. */
typedef struct jb_nostr {
    uint64_t messages, event, eose, ok, notice;
    uint64_t tags, tag_items, content_bytes, created_at_sum, kind_sum;
} jb_nostr;

/* The variants of the nostr operation (the `variant` argument). */
enum { JB_NOSTR_SHORT = 0, JB_NOSTR_FULL = 1, JB_NOSTR_ENVELOPE = 2 };

/* The ApiResponse checksum (computed by the harness from the decoded struct,
 * outside the timed region; see api_check.c). string_bytes and string_hash
 * (FNV-1a 64 over every string, each followed by a 0xff byte, in the
 * struct's declared order) cover every string field; price_cents_sum sums
 * llround(price * 100). Sums wrap mod 2^64. */
typedef struct jb_api {
    uint64_t user_id, age, active, has_phone, has_bio, tags;
    uint64_t string_bytes, string_hash;
    uint64_t orders, order_id_sum, items, quantity_sum, price_cents_sum;
    uint64_t delivered, shipped, processing, delivered_at_sum, estimated_days_sum;
    uint64_t tracking_bytes, request_id_bytes, timestamp;
} jb_api;

/* ApiResponse is the C struct of examples/schemas.h (jet_str strings); the
 * adapters that fill or read it include that header. */
struct ApiResponse;

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

    /* nostr-short/-full/-envelope (variant JB_NOSTR_*): decodes the n
     * messages (lines[i]: lens[i] bytes, exactly, no NUL, no padding) and
     * adds each one to *out (zeroed by the caller). Returns 0 on success,
     * non-zero when a message is rejected. */
    int (*nostr)(void *st, int variant, const char *const *lines, const size_t *lens, size_t n,
                 jb_nostr *out);
    /* api-read: bytes -> a filled ApiResponse (zeroed by the callee). Its
     * strings and arrays may point into the input or the engine's state:
     * they stay valid until the next call with the same state. Returns 0 on
     * success. */
    int (*api_read)(void *st, const char *json, size_t len, struct ApiResponse *out);
    /* api-write: ApiResponse -> minified JSON, in a buffer owned by the
     * state (valid until the next call); its length in *out_len. NULL on
     * failure. */
    const char *(*api_write)(void *st, const struct ApiResponse *in, size_t *out_len);
    /* Caveats of the operations above (may be NULL). */
    const char *nostr_short_note, *nostr_full_note, *nostr_envelope_note;
    const char *api_read_note, *api_write_note;

    /* Optional: why the last call with this state failed (for the FAIL
     * footnotes), or NULL when the adapter cannot tell. */
    const char *(*last_error)(void *st);

    /* ndjson: every document of buf[0..len) (NDJSON: one per line, blank
     * lines skipped; the buffer is unpadded) parsed into a complete
     * document. When `out` is not NULL (verification, untimed) the
     * fingerprint of document i goes to out[i] (room for `cap`); the number
     * of documents goes to *n either way. Returns 0 on success. */
    int (*ndjson)(void *st, const char *buf, size_t len, jb_stats *out, size_t cap, size_t *n);
    const char *ndjson_note;
} jb_engine;

/* ---- build and patch: engines with mutable documents ---- */

/* One edit of the patch op: RFC 6902 add, remove or replace of a member or
 * an element at `path`, with an integer or string value. `tok` is the path
 * split into its reference tokens (NULL-terminated; none has '~' escapes;
 * "-" appends to an array). */
enum { JB_PATCH_ADD, JB_PATCH_REMOVE, JB_PATCH_REPLACE };
enum { JB_PV_NONE, JB_PV_INT, JB_PV_STR };
#define JB_PATCH_MAX_TOKENS 8
typedef struct jb_patch_op {
    int op;               /* JB_PATCH_* */
    const char *path;     /* the JSON Pointer */
    int vkind;            /* JB_PV_*: the value of add and replace */
    int64_t num;
    const char *str;      /* NUL-terminated, nothing to escape */
    const char *tok[JB_PATCH_MAX_TOKENS + 1];
} jb_patch_op;

/* The operations on mutable documents, for an engine whose parse() gives
 * one (bench/engines/registry.c lists them). The state is the engine's
 * (its create()); texts are released with free_text() below. */
typedef struct jb_mut_ops {
    const jb_engine *engine;
    /* build: from a document of parse() (prepared untimed), a new document
     * made value by value through the mutable API, then written minified.
     * NULL on failure. */
    char *(*build)(void *st, void *doc, size_t *out_len);
    /* patch: bytes -> a mutable document; the n edits applied in order (an
     * engine with RFC 6902 may apply `patch_json`, the same edits as a JSON
     * Patch document, instead); written minified. NULL on failure. */
    char *(*patch)(void *st, const char *json, size_t len, const jb_patch_op *ops, size_t n,
                   const char *patch_json, size_t patch_len, size_t *out_len);
    void (*free_text)(void *st, char *text);
    const char *build_note, *patch_note;
} jb_mut_ops;

/* NULL-terminated. */
extern const jb_mut_ops *const jb_mut_engines[];
/* The mutable operations of an engine, or NULL. */
const jb_mut_ops *jb_mut_ops_of(const jb_engine *e);

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
