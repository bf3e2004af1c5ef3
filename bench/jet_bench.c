/*
 * jet_bench.c — jet-bench: the comparison harness (driver, datasets,
 * verification, interleaved timing). See bench/README.md for the method.
 */
#define _GNU_SOURCE 1 /* sched_setaffinity, CPU_SET */
#include "bench.h"
#include "jb_config.h"

#include "api_sample.h"
#include "schemas.h"
#ifdef JB_HAVE_JET
#include "shapes.h"
#include "shuffle.h"
#endif

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const jb_op_names[OP__COUNT] = {"parse", "serialize", "validate", "decode", "nostr-short",
                                             "nostr-full", "nostr-envelope", "api-read", "api-write",
                                             "ndjson", "build", "patch"};
const char *const jb_op_titles[OP__COUNT] = {
    "Parse (bytes -> complete document, immutable input)",
    "Serialize (document -> minified text)",
    "Validate (accept/reject)",
    "Decode (twitter.json -> TwitterStats)",
    "nostr-short (every relay message; EVENTs -> created_at, content, pubkey)",
    "nostr-full (every relay message; EVENTs -> the whole event, tags included)",
    "nostr-envelope (every relay message -> tagged union EVENT/EOSE/OK/NOTICE)",
    "api-read (ApiResponse JSON -> C struct)",
    "api-write (ApiResponse C struct -> minified JSON)",
    "ndjson (~100 MB of NDJSON: every line -> a complete document)",
    "build (twitter rebuilt value by value through the mutable API from a parsed one, then written)",
    "patch (citm_catalog bytes -> mutable document, 20 edits applied, written)"};

bool jb_op_per_message(int op) { return op >= OP_NOSTR_SHORT && op <= OP_API_WRITE; }

const char *jb_engine_note(const jb_engine *e, int op) {
    switch (op) {
    case OP_PARSE: return e->parse_note;
    case OP_SERIALIZE: return e->serialize_note;
    case OP_VALIDATE: return e->validate_note;
    case OP_DECODE: return e->decode_note;
    case OP_NOSTR_SHORT: return e->nostr_short_note;
    case OP_NOSTR_FULL: return e->nostr_full_note;
    case OP_NOSTR_ENVELOPE: return e->nostr_envelope_note;
    case OP_API_READ: return e->api_read_note;
    case OP_API_WRITE: return e->api_write_note;
    case OP_NDJSON: return e->ndjson_note;
    case OP_BUILD: return jb_mut_ops_of(e) ? jb_mut_ops_of(e)->build_note : NULL;
    case OP_PATCH: return jb_mut_ops_of(e) ? jb_mut_ops_of(e)->patch_note : NULL;
    }
    return NULL;
}

/* The datasets: the four corpora (parse, serialize, validate; twitter also
 * decode), twitter minified with its members in their order and shuffled
 * (decode: what key order costs), three generated shapes (bench/shapes.h:
 * twitter with non-ASCII as \u escapes, long text strings, arrays of short
 * numbers; parse, serialize, validate), the nostr relay messages (nostr-*), and
 * the ApiResponse sample (api-*), which comes from examples/api_sample.h
 * rather than a file. */
static const struct { const char *name, *file; int kind, derive; } known_datasets[] = {
    {"twitter", "twitter.json", JB_DS_DOC, JB_DERIVE_NONE},
    {"citm_catalog", "citm_catalog.json", JB_DS_DOC, JB_DERIVE_NONE},
    {"canada", "canada.json", JB_DS_DOC, JB_DERIVE_NONE},
    {"github_events", "github_events.json", JB_DS_DOC, JB_DERIVE_NONE},
    {"twitter_min", "twitter.json", JB_DS_DOC, JB_DERIVE_MINIFIED},
    {"twitter_shuffled", "twitter.json", JB_DS_DOC, JB_DERIVE_SHUFFLED},
    {"twitter_escaped", "twitter.json", JB_DS_DOC, JB_DERIVE_ESCAPED},
    {"long_strings", "twitter.json", JB_DS_DOC, JB_DERIVE_LONG_STRINGS},
    {"mesh", "canada.json", JB_DS_DOC, JB_DERIVE_MESH},
    {"nostr_relay", "nostr_relay.ndjson", JB_DS_NOSTR, JB_DERIVE_NONE},
    {"api_response", "examples/api_sample.h", JB_DS_API, JB_DERIVE_NONE},
    {"ndjson", "(the corpora)", JB_DS_NDJSON, JB_DERIVE_NONE},
};
#define N_KNOWN_DATASETS (sizeof known_datasets / sizeof known_datasets[0])
_Static_assert(sizeof known_datasets / sizeof known_datasets[0] <= JB_MAX_DATASETS,
               "jb_run.ds holds every known dataset");

static volatile uint64_t jb_sink; /* defeats dead-code elimination */

double jb_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("jet-bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* ---------------------------------------------------------------- lists -- */

/* true when `name` is in the comma-separated `list` (NULL list: everything). */
static bool in_list(const char *list, const char *name) {
    if (!list || !*list || strcmp(list, "all") == 0) return true;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

/* Every name of `list` must be one of `known` (n names); exits otherwise. */
static void check_list(const char *what, const char *list, const char *const *known, size_t n) {
    if (!list || !*list || strcmp(list, "all") == 0) return;
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = strlen(known[i]) == len && strncmp(known[i], p, len) == 0;
        if (!found && len) {
            fprintf(stderr, "jet-bench: unknown %s '%.*s'; known:", what, (int)len, p);
            for (size_t i = 0; i < n; i++) fprintf(stderr, " %s", known[i]);
            fputc('\n', stderr);
            exit(2);
        }
        if (!e) break;
        p = e + 1;
    }
}

/* -------------------------------------------------------------- datasets -- */

static bool read_file(const char *path, char **data, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    if (fseek(f, 0, SEEK_END) != 0) { fclose(f); return false; }
    long n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0) { fclose(f); return false; }
    /* Exactly n bytes: no NUL terminator, no padding, so that an engine
     * reading past the end is caught by ASan builds. */
    char *buf = malloc(n ? (size_t)n : 1);
    if (!buf) { fclose(f); return false; }
    if (fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); fclose(f); return false; }
    fclose(f);
    *data = buf;
    *len = (size_t)n;
    return true;
}

/* Splits newline-delimited messages (a trailing \r is dropped, blank lines
 * are skipped) into buffers of exactly each message's length. */
static bool split_lines(jb_dataset *d) {
    size_t cap = 0;
    for (size_t i = 0; i < d->len; i++) cap += d->data[i] == '\n';
    cap++;
    d->lines = calloc(cap, sizeof *d->lines);
    d->lens = calloc(cap, sizeof *d->lens);
    if (!d->lines || !d->lens) die("out of memory");
    const char *p = d->data, *end = d->data + d->len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        size_t n = (size_t)(e - p);
        if (n && p[n - 1] == '\r') n--;
        bool blank = true;
        for (size_t k = 0; k < n && blank; k++) blank = p[k] == ' ' || p[k] == '\t';
        if (!blank) {
            char *line = malloc(n);
            if (!line) die("out of memory");
            memcpy(line, p, n);
            d->lines[d->nlines] = line;
            d->lens[d->nlines++] = n;
            d->line_bytes += n;
        }
        p = nl ? nl + 1 : end;
    }
    return d->nlines > 0;
}

/* Replaces a derived dataset's file contents by the document it stands for:
 * re-emitted minified, with every object's members in their order or in a
 * fixed shuffled order (tests/shuffle.h), each in a buffer of exactly its
 * length. */
static bool derive_dataset(jb_dataset *d) {
#ifdef JB_HAVE_JET
    if (d->derive >= JB_DERIVE_ESCAPED) {
        size_t n = 0;
        char *out = d->derive == JB_DERIVE_ESCAPED ? shape_escaped(d->data, d->len, &n)
                    : d->derive == JB_DERIVE_LONG_STRINGS ? shape_long_strings(d->data, d->len, &n)
                                                            : shape_mesh(d->data, d->len, &n);
        if (!out) return false;
        free(d->data);
        d->data = out;
        d->len = n;
        size_t used = strlen(d->path);
        snprintf(d->path + used, sizeof d->path - used, " (%s)",
                 d->derive == JB_DERIVE_ESCAPED        ? "minified, non-ASCII as \\u escapes"
                 : d->derive == JB_DERIVE_LONG_STRINGS ? "its text as records of long strings"
                                                       : "its numbers as 3-D mesh arrays");
        return true;
    }
    unsigned opts = d->derive == JB_DERIVE_MINIFIED ? SHUF_KEEP_ORDER : 0;
    size_t n = 0;
    char *out = shuffle_doc_ex(d->data, d->len, 0x9E3779B97F4A7C15ull, opts, &n);
    if (!out) return false;
    free(d->data);
    d->data = out;
    d->len = n;
    size_t used = strlen(d->path);
    snprintf(d->path + used, sizeof d->path - used, " (%s)",
             d->derive == JB_DERIVE_MINIFIED ? "minified" : "minified, members shuffled");
    return true;
#else
    (void)d;
    return false;
#endif
}

/* The ndjson dataset: the elements of the corpora's top-level arrays (and
 * of the arrays that are members of a top-level object: twitter's
 * statuses, citm's performances, ...), each minified on a line (those
 * under 1 MB: canada's one 2 MB feature is not a record), and the
 * nostr relay messages as they are, repeated in that order up to
 * $JB_NDJSON_MB megabytes (default 100; 20 with --quick). The fingerprint
 * of every document is the reference, computed line by line with
 * jet_parser_parse (not through jet_stream). */
#ifdef JB_HAVE_JET
static void ndjson_add(char **buf, size_t *len, size_t *cap, const char *p, size_t n) {
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
        if (!*buf) die("out of memory");
    }
    memcpy(*buf + *len, p, n);
    *len += n;
    (*buf)[(*len)++] = '\n';
}

static void ndjson_add_elements(const jet_val *arr, char **buf, size_t *len, size_t *cap) {
    size_t count = jet_arr_size(arr);
    const jet_val *e = jet_arr_first(arr);
    for (size_t i = 0; i < count; i++, e = jet_next(e)) {
        size_t n = 0;
        char *t = jet_val_write(e, 0, NULL, &n, NULL);
        if (!t) die("out of memory");
        if (n <= (size_t)1 << 20) ndjson_add(buf, len, cap, t, n); /* records, not canada's 2 MB feature */
        free(t);
    }
}
#endif

static bool build_ndjson(jb_dataset *d, const char *const *dirs, int nd, bool quick) {
#ifdef JB_HAVE_JET
    static const char *const files[] = {"twitter.json", "citm_catalog.json", "canada.json",
                                        "github_events.json", "nostr_relay.ndjson"};
    char *pool = NULL;
    size_t plen = 0, pcap = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[1024], *data = NULL;
        size_t len = 0;
        bool found = false;
        for (int k = 0; k < nd && !found; k++) {
            snprintf(path, sizeof path, "%s/%s", dirs[k], files[f]);
            found = read_file(path, &data, &len);
        }
        if (!found) continue;
        if (strstr(files[f], ".ndjson")) {
            const char *p = data, *end = data + len;
            while (p < end) {
                const char *nl = memchr(p, '\n', (size_t)(end - p));
                size_t n = (size_t)((nl ? nl : end) - p);
                if (n && p[n - 1] == '\r') n--;
                if (n) ndjson_add(&pool, &plen, &pcap, p, n);
                p = nl ? nl + 1 : end;
            }
        } else {
            jet_doc *doc = jet_read(data, len, NULL, NULL, NULL);
            const jet_val *root = jet_doc_root(doc);
            if (jet_is_arr(root)) {
                ndjson_add_elements(root, &pool, &plen, &pcap);
            } else if (jet_is_obj(root)) {
                jet_obj_iter it = jet_obj_iter_init(root);
                const jet_val *key;
                while ((key = jet_obj_iter_next(&it)) != NULL)
                    if (jet_is_arr(key + 1)) ndjson_add_elements(key + 1, &pool, &plen, &pcap);
            }
            jet_doc_free(doc);
        }
        free(data);
    }
    if (!plen) return false;
    const char *mb_env = getenv("JB_NDJSON_MB");
    size_t mb = mb_env && atoi(mb_env) > 0 ? (size_t)atoi(mb_env) : quick ? 20 : 100;
    size_t target = mb << 20, copies = (target + plen - 1) / plen;
    d->len = copies * plen;
    d->data = malloc(d->len);
    if (!d->data) die("out of memory");
    for (size_t i = 0; i < copies; i++) memcpy(d->data + i * plen, pool, plen);
    free(pool);
    /* the reference: each line on its own */
    size_t cap = 1024;
    d->ndjson_ref = malloc(cap * sizeof *d->ndjson_ref);
    jet_parser *parser = jet_parser_new(NULL);
    if (!d->ndjson_ref || !parser) die("out of memory");
    const char *p = d->data, *end = d->data + d->len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        jet_doc *doc = jet_parser_parse(parser, p, n, NULL, NULL);
        if (!doc) die("ndjson: a line of the corpora does not parse");
        if (d->ndjson_docs == cap) {
            cap *= 2;
            d->ndjson_ref = realloc(d->ndjson_ref, cap * sizeof *d->ndjson_ref);
            if (!d->ndjson_ref) die("out of memory");
        }
        jet_stats s;
        jet_val_stats(jet_doc_root(doc), &s);
        jb_stats *o = &d->ndjson_ref[d->ndjson_docs++];
        o->objects = s.objects; o->arrays = s.arrays; o->strings = s.strings;
        o->numbers = s.numbers; o->integers = s.integers; o->doubles = s.doubles;
        o->trues = s.trues; o->falses = s.falses; o->nulls = s.nulls;
        o->keys = s.keys; o->max_depth = s.max_depth; o->string_bytes = s.string_bytes;
        p = nl ? nl + 1 : end;
    }
    jet_parser_free(parser);
    snprintf(d->path, sizeof d->path, "(generated: %zu documents, %zu MB, from the corpora's arrays and the nostr messages)",
             d->ndjson_docs, d->len >> 20);
    d->have_ref = true;
    snprintf(d->ref_source, sizeof d->ref_source, "jet_parser_parse line by line (%zu documents)", d->ndjson_docs);
    return true;
#else
    (void)d; (void)dirs; (void)nd; (void)quick;
    return false;
#endif
}

static void load_datasets(jb_run *r) {
    /* --data-dir, $JET_DATA_DIR, $JET_SHARED_DIR/corpora, the shared
     * directory baked in at build time, Debian's fastjson testdata. */
    const char *dirs[5];
    int nd = 0;
    static char shared_env[1024];
    if (r->opt.data_dir) dirs[nd++] = r->opt.data_dir;
    const char *env = getenv("JET_DATA_DIR");
    if (env && *env) dirs[nd++] = env;
    env = getenv("JET_SHARED_DIR");
    if (env && *env) {
        snprintf(shared_env, sizeof shared_env, "%s/corpora", env);
        dirs[nd++] = shared_env;
    }
    dirs[nd++] = JB_CORPORA_DIR;
    dirs[nd++] = "/usr/share/gocode/src/github.com/valyala/fastjson/testdata";

    const char *filter = r->opt.datasets;
    if (!filter && r->opt.quick) filter = "github_events,twitter_shuffled,nostr_relay,api_response";
    const char *names[N_KNOWN_DATASETS];
    for (size_t i = 0; i < N_KNOWN_DATASETS; i++) names[i] = known_datasets[i].name;
    check_list("dataset", filter, names, N_KNOWN_DATASETS);

    for (size_t i = 0; i < N_KNOWN_DATASETS; i++) {
        if (!in_list(filter, known_datasets[i].name)) continue;
        jb_dataset *d = &r->ds[r->nds++];
        memset(d, 0, sizeof *d);
        d->name = known_datasets[i].name;
        d->file = known_datasets[i].file;
        d->kind = known_datasets[i].kind;
        d->derive = known_datasets[i].derive;
        if (d->kind == JB_DS_API) {
            /* Generated: the sample of examples/api_sample.h, copied into a
             * buffer of exactly its length like the files. */
            d->data = malloc(API_SAMPLE_LEN);
            if (!d->data) die("out of memory");
            memcpy(d->data, api_sample_json, API_SAMPLE_LEN);
            d->len = API_SAMPLE_LEN;
            d->loaded = true;
            snprintf(d->path, sizeof d->path, "(generated from %s/examples/api_sample.h)", JB_REPO_DIR);
            continue;
        }
        if (d->kind == JB_DS_NDJSON) {
            if (!r->op_on[OP_NDJSON]) continue; /* 100 MB: only when timed */
            d->loaded = build_ndjson(d, dirs, nd, r->opt.quick);
            if (!d->loaded) printf("note: dataset ndjson: needs the jet library and the corpora: skipped\n");
            continue;
        }
        for (int k = 0; k < nd && !d->loaded; k++) {
            snprintf(d->path, sizeof d->path, "%s/%s", dirs[k], d->file);
            d->loaded = read_file(d->path, &d->data, &d->len);
        }
        if (!d->loaded) {
            d->path[0] = 0;
            printf("note: dataset %s (%s) not found (searched --data-dir, $JET_DATA_DIR, $JET_SHARED_DIR/corpora, "
                   "%s, fastjson testdata): skipped\n", d->name, d->file, JB_CORPORA_DIR);
            continue;
        }
        if (d->derive && !derive_dataset(d)) {
            printf("note: dataset %s: cannot be generated from %s (needs the jet library): skipped\n", d->name,
                   d->file);
            free(d->data);
            d->data = NULL;
            d->loaded = false;
            continue;
        }
        if (d->kind == JB_DS_NOSTR && !split_lines(d)) {
            printf("note: dataset %s: no messages: skipped\n", d->name);
            d->loaded = false;
        }
    }
}

/* ----------------------------------------------------------- comparison -- */

static const char *const stat_names[12] = {"objects", "arrays", "strings", "numbers", "integers", "doubles",
                                           "trues", "falses", "nulls", "keys", "max_depth", "string_bytes"};

static void stats_fields(const jb_stats *s, uint64_t f[12]) {
    f[0] = s->objects; f[1] = s->arrays; f[2] = s->strings; f[3] = s->numbers;
    f[4] = s->integers; f[5] = s->doubles; f[6] = s->trues; f[7] = s->falses;
    f[8] = s->nulls; f[9] = s->keys; f[10] = s->max_depth; f[11] = s->string_bytes;
}

/* 0 when equal on the fields the capabilities allow comparing; else 1 and a
 * reason naming the first differing field(s). */
int jb_stats_compare(const jb_stats *got, const jb_stats *ref, unsigned caps, char *why, size_t cap) {
    uint64_t g[12], e[12];
    stats_fields(got, g);
    stats_fields(ref, e);
    size_t used = 0;
    int bad = 0;
    if (why && cap) why[0] = 0;
    for (int i = 0; i < 12; i++) {
        if ((i == 4 || i == 5) && !(caps & JB_CAP_NUM_SPLIT)) continue;
        if (g[i] == e[i]) continue;
        if (why && used < cap && bad < 3)
            used += (size_t)snprintf(why + used, cap - used, "%s%s %llu != %llu", bad ? ", " : "",
                                     stat_names[i], (unsigned long long)g[i], (unsigned long long)e[i]);
        bad++;
    }
    return bad != 0;
}

static const char *const tw_names[14] = {"statuses", "id_sum", "user_id_sum", "followers_sum", "friends_sum",
                                         "retweet_sum", "favorite_sum", "verified", "text_bytes",
                                         "screen_name_bytes", "name_bytes", "created_at_bytes", "hashtags",
                                         "hashtag_bytes"};

static void tw_fields(const jb_twitter *t, uint64_t f[14]) {
    f[0] = t->statuses; f[1] = t->id_sum; f[2] = t->user_id_sum; f[3] = t->followers_sum;
    f[4] = t->friends_sum; f[5] = t->retweet_sum; f[6] = t->favorite_sum; f[7] = t->verified;
    f[8] = t->text_bytes; f[9] = t->screen_name_bytes; f[10] = t->name_bytes;
    f[11] = t->created_at_bytes; f[12] = t->hashtags; f[13] = t->hashtag_bytes;
}

int jb_twitter_compare(const jb_twitter *got, const jb_twitter *ref, char *why, size_t cap) {
    uint64_t g[14], e[14];
    tw_fields(got, g);
    tw_fields(ref, e);
    size_t used = 0;
    int bad = 0;
    if (why && cap) why[0] = 0;
    for (int i = 0; i < 14; i++) {
        if (g[i] == e[i]) continue;
        if (why && used < cap && bad < 3)
            used += (size_t)snprintf(why + used, cap - used, "%s%s %llu != %llu", bad ? ", " : "",
                                     tw_names[i], (unsigned long long)g[i], (unsigned long long)e[i]);
        bad++;
    }
    return bad != 0;
}

/* The checksum structs are arrays of uint64_t fields. */
_Static_assert(sizeof(jb_nostr) == 10 * sizeof(uint64_t), "jb_nostr: uint64_t fields only");
_Static_assert(sizeof(jb_api) == 21 * sizeof(uint64_t), "jb_api: uint64_t fields only");

static const char *const nostr_names[10] = {"messages", "event", "eose", "ok", "notice",
                                            "tags", "tag_items", "content_bytes", "created_at_sum", "kind_sum"};
static const char *const api_names[21] = {
    "user_id", "age", "active", "has_phone", "has_bio", "tags", "string_bytes", "string_hash", "orders",
    "order_id_sum", "items", "quantity_sum", "price_cents_sum", "delivered", "shipped", "processing",
    "delivered_at_sum", "estimated_days_sum", "tracking_bytes", "request_id_bytes", "timestamp"};

static int fields_compare(const void *got, const void *ref, const char *const *names, int nf, char *why,
                          size_t cap) {
    uint64_t g[32], e[32];
    memcpy(g, got, (size_t)nf * sizeof g[0]);
    memcpy(e, ref, (size_t)nf * sizeof e[0]);
    size_t used = 0;
    int bad = 0;
    if (why && cap) why[0] = 0;
    for (int i = 0; i < nf; i++) {
        if (g[i] == e[i]) continue;
        if (why && used < cap && bad < 3)
            used += (size_t)snprintf(why + used, cap - used, "%s%s %llu != %llu", bad ? ", " : "", names[i],
                                     (unsigned long long)g[i], (unsigned long long)e[i]);
        bad++;
    }
    return bad != 0;
}

int jb_nostr_compare(const jb_nostr *got, const jb_nostr *ref, char *why, size_t cap) {
    return fields_compare(got, ref, nostr_names, 10, why, cap);
}

int jb_api_compare(const jb_api *got, const jb_api *ref, char *why, size_t cap) {
    return fields_compare(got, ref, api_names, 21, why, cap);
}

/* ------------------------------------------------------------ references -- */

static bool engine_fingerprint(const jb_engine *e, const jb_dataset *d, jb_stats *out) {
    if (!e->parse || !e->stats) return false;
    void *st = e->create ? e->create() : NULL;
    if (e->create && !st) return false;
    bool ok = false;
    void *doc = e->parse(st, d->data, d->len);
    if (doc) {
        ok = e->stats(st, doc, out) == 0;
        if (e->free_doc) e->free_doc(st, doc);
    }
    if (e->destroy) e->destroy(st);
    return ok;
}

static bool engine_twitter(const jb_engine *e, const jb_dataset *d, jb_twitter *out) {
    if (!e->decode_twitter) return false;
    void *st = e->create ? e->create() : NULL;
    if (e->create && !st) return false;
    memset(out, 0, sizeof *out);
    bool ok = e->decode_twitter(st, d->data, d->len, out) == 0;
    if (e->destroy) e->destroy(st);
    return ok;
}

/* The reference fingerprint of a dataset: jet's, cross-checked with
 * simdjson-dom (the engines with JB_CAP_REFERENCE, in registry order). When
 * they disagree, or when neither is available, the majority of the engines
 * that report every field (JB_CAP_NUM_SPLIT) decides. */
static void establish_reference(jb_dataset *d) {
    jb_stats fp[JB_MAX_ENGINES];
    const jb_engine *who[JB_MAX_ENGINES];
    int n = 0;
    for (int i = 0; jb_engines[i] && n < JB_MAX_ENGINES; i++) {
        const jb_engine *e = jb_engines[i];
        if (!(e->caps & JB_CAP_NUM_SPLIT)) continue;
        if (engine_fingerprint(e, d, &fp[n])) who[n++] = e;
        else if (e->caps & JB_CAP_REFERENCE)
            printf("note: reference candidate %s failed to parse %s\n", e->name, d->name);
    }
    int r1 = -1, r2 = -1;
    for (int i = 0; i < n; i++)
        if (who[i]->caps & JB_CAP_REFERENCE) { if (r1 < 0) r1 = i; else if (r2 < 0) r2 = i; }
    char why[256];
    if (r1 >= 0 && r2 >= 0 && !jb_stats_compare(&fp[r1], &fp[r2], JB_CAP_NUM_SPLIT, why, sizeof why)) {
        d->ref = fp[r1];
        snprintf(d->ref_source, sizeof d->ref_source, "%s, cross-checked with %s", who[r1]->name, who[r2]->name);
        d->have_ref = true;
        return;
    }
    if (r1 >= 0 && r2 < 0) {
        /* One reference engine: still cross-check it against the others. */
        int agree = 0;
        for (int i = 0; i < n; i++)
            if (i != r1 && !jb_stats_compare(&fp[i], &fp[r1], JB_CAP_NUM_SPLIT, NULL, 0)) agree++;
        if (agree > 0 || n == 1) {
            d->ref = fp[r1];
            snprintf(d->ref_source, sizeof d->ref_source, "%s, agreed by %d other engine%s", who[r1]->name, agree,
                     agree == 1 ? "" : "s");
            d->have_ref = true;
            return;
        }
    }
    /* Majority vote. */
    int best = -1, best_votes = 0;
    for (int i = 0; i < n; i++) {
        int votes = 0;
        for (int j = 0; j < n; j++) votes += !jb_stats_compare(&fp[j], &fp[i], JB_CAP_NUM_SPLIT, NULL, 0);
        if (votes > best_votes) { best = i; best_votes = votes; }
    }
    if (best < 0) {
        printf("WARNING: no engine could fingerprint %s: its cells cannot be verified\n", d->name);
        return;
    }
    d->ref = fp[best];
    d->have_ref = true;
    snprintf(d->ref_source, sizeof d->ref_source, "majority: %d of %d engines (%s among them)", best_votes, n,
             who[best]->name);
    if (r1 >= 0 && r2 >= 0) {
        jb_stats_compare(&fp[r1], &fp[r2], JB_CAP_NUM_SPLIT, why, sizeof why);
        printf("WARNING: %s and %s disagree on %s (%s); reference by %s\n", who[r1]->name, who[r2]->name,
               d->name, why, d->ref_source);
    }
}

static void establish_twitter_reference(jb_dataset *d) {
    jb_twitter tw[JB_MAX_ENGINES];
    const jb_engine *who[JB_MAX_ENGINES];
    int n = 0;
    for (int i = 0; jb_engines[i] && n < JB_MAX_ENGINES; i++)
        if (engine_twitter(jb_engines[i], d, &tw[n])) who[n++] = jb_engines[i];
    int best = -1, best_votes = 0;
    /* Registry order puts jet first: on a tie the earlier engine wins. */
    for (int i = 0; i < n; i++) {
        int votes = 0;
        for (int j = 0; j < n; j++) votes += !jb_twitter_compare(&tw[j], &tw[i], NULL, 0);
        if (votes > best_votes) { best = i; best_votes = votes; }
    }
    if (best < 0) return;
    d->twitter_ref = tw[best];
    d->have_twitter_ref = true;
    snprintf(d->twitter_ref_source, sizeof d->twitter_ref_source, "%s, agreed by %d of %d engines", who[best]->name,
             best_votes, n);
}

static bool engine_nostr(const jb_engine *e, const jb_dataset *d, int variant, jb_nostr *out) {
    if (!e->nostr) return false;
    void *st = e->create ? e->create() : NULL;
    if (e->create && !st) return false;
    memset(out, 0, sizeof *out);
    bool ok = e->nostr(st, variant, (const char *const *)d->lines, d->lens, d->nlines, out) == 0;
    if (e->destroy) e->destroy(st);
    return ok;
}

/* The candidate (of n checksums of nf fields, `size` bytes apart) that the
 * most candidates agree with; on a tie the earlier one (registry order puts
 * jet first). -1 when n is 0. */
static int vote(const void *sums, size_t size, int n, const char *const *names, int nf, int *votes) {
    const char *p = (const char *)sums;
    int best = -1;
    *votes = 0;
    for (int i = 0; i < n; i++) {
        int v = 0;
        for (int j = 0; j < n; j++) v += !fields_compare(p + (size_t)j * size, p + (size_t)i * size, names, nf, NULL, 0);
        if (v > *votes) { best = i; *votes = v; }
    }
    return best;
}

static void establish_nostr_reference(jb_dataset *d, int variant) {
    jb_nostr sums[JB_MAX_ENGINES];
    const jb_engine *who[JB_MAX_ENGINES];
    int n = 0, votes = 0;
    for (int i = 0; jb_engines[i] && n < JB_MAX_ENGINES; i++)
        if (engine_nostr(jb_engines[i], d, variant, &sums[n])) who[n++] = jb_engines[i];
    int best = vote(sums, sizeof sums[0], n, nostr_names, 10, &votes);
    if (best < 0) return;
    d->nostr_ref[variant] = sums[best];
    d->have_nostr_ref[variant] = true;
    snprintf(d->nostr_ref_source[variant], sizeof d->nostr_ref_source[variant], "%s, agreed by %d of %d engines",
             who[best]->name, votes, n);
}

/* The api-read reference: every engine decodes the sample; the checksum the
 * most agree on wins (jet first on a tie). The winner's ApiResponse (and the
 * state holding its strings and arrays) is kept as api-write's input. */
static void establish_api_reference(jb_dataset *d) {
    jb_api sums[JB_MAX_ENGINES];
    ApiResponse *resp[JB_MAX_ENGINES];
    void *states[JB_MAX_ENGINES];
    const jb_engine *who[JB_MAX_ENGINES];
    int n = 0, votes = 0;
    for (int i = 0; jb_engines[i] && n < JB_MAX_ENGINES; i++) {
        const jb_engine *e = jb_engines[i];
        if (!e->api_read) continue;
        void *st = e->create ? e->create() : NULL;
        if (e->create && !st) continue;
        ApiResponse *a = calloc(1, sizeof *a);
        if (a && e->api_read(st, d->data, d->len, a) == 0) {
            jb_api_checksum(a, &sums[n]);
            resp[n] = a;
            states[n] = st;
            who[n++] = e;
            continue;
        }
        free(a);
        if (e->destroy) e->destroy(st);
    }
    int best = vote(sums, sizeof sums[0], n, api_names, 21, &votes);
    for (int i = 0; i < n; i++) {
        if (i == best) continue;
        free(resp[i]);
        if (who[i]->destroy) who[i]->destroy(states[i]);
    }
    if (best < 0) return;
    d->api_ref = sums[best];
    d->have_api_ref = true;
    d->api_in = resp[best];
    d->api_src = who[best];
    d->api_src_state = states[best];
    snprintf(d->api_ref_source, sizeof d->api_ref_source, "%s, agreed by %d of %d engines", who[best]->name, votes, n);
}

static void release_dataset(jb_dataset *d) {
    if (d->api_src && d->api_src->destroy) d->api_src->destroy(d->api_src_state);
    free(d->api_in);
    for (size_t i = 0; i < d->nlines; i++) free(d->lines[i]);
    free(d->lines);
    free(d->lens);
    free(d->data);
    memset(d, 0, sizeof *d);
}

/* The engine used to re-parse serialized output: the first reference-capable
 * engine whose fingerprint matches the dataset's reference. */
static const jb_engine *reparse_engine(const jb_dataset *d) {
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; jb_engines[i]; i++) {
            const jb_engine *e = jb_engines[i];
            if (pass == 0 && !(e->caps & JB_CAP_REFERENCE)) continue;
            if (!(e->caps & JB_CAP_NUM_SPLIT)) continue;
            jb_stats s;
            if (engine_fingerprint(e, d, &s) && !jb_stats_compare(&s, &d->ref, JB_CAP_NUM_SPLIT, NULL, 0)) return e;
        }
    return NULL;
}

/* ------------------------------------------------------- build, patch -- */

/* The patch op's 20 edits of citm_catalog: members and elements added,
 * removed and replaced at depths 2 to 7, in objects of 1 to 243 members. */
static jb_patch_op patch_ops[] = {
    {JB_PATCH_REPLACE, "/areaNames/205705993", JB_PV_STR, 0, "Arrière-scène", {0}},
    {JB_PATCH_ADD, "/areaNames/999999999", JB_PV_STR, 0, "Zone ajoutée", {0}},
    {JB_PATCH_REMOVE, "/areaNames/205705994", JB_PV_NONE, 0, NULL, {0}},
    {JB_PATCH_REPLACE, "/events/138586341/name", JB_PV_STR, 0, "30th Anniversary Tour (live)", {0}},
    {JB_PATCH_ADD, "/events/138586341/subTopicIds/-", JB_PV_INT, 337184262, NULL, {0}},
    {JB_PATCH_REMOVE, "/events/138586341/topicIds/0", JB_PV_NONE, 0, NULL, {0}},
    {JB_PATCH_REPLACE, "/events/138586345/logo", JB_PV_STR, 0, "/images/none", {0}},
    {JB_PATCH_ADD, "/events/138586349/rating", JB_PV_INT, 5, NULL, {0}},
    {JB_PATCH_REPLACE, "/performances/0/prices/0/amount", JB_PV_INT, 95000, NULL, {0}},
    {JB_PATCH_ADD, "/performances/0/prices/0/currency", JB_PV_STR, 0, "EUR", {0}},
    {JB_PATCH_REMOVE, "/performances/0/prices/1", JB_PV_NONE, 0, NULL, {0}},
    {JB_PATCH_REPLACE, "/performances/1/name", JB_PV_STR, 0, "Matinée", {0}},
    {JB_PATCH_REMOVE, "/performances/2/logo", JB_PV_NONE, 0, NULL, {0}},
    {JB_PATCH_ADD, "/performances/3/seatCategories/0/areas/0/blockIds/-", JB_PV_INT, 1, NULL, {0}},
    {JB_PATCH_REPLACE, "/performances/10/start", JB_PV_INT, 1372701600001, NULL, {0}},
    {JB_PATCH_REMOVE, "/performances/242", JB_PV_NONE, 0, NULL, {0}},
    {JB_PATCH_REPLACE, "/performances/100/venueCode", JB_PV_STR, 0, "PLEYEL", {0}},
    {JB_PATCH_ADD, "/topicNames/999", JB_PV_STR, 0, "Nouveau", {0}},
    {JB_PATCH_REPLACE, "/venueNames/PLEYEL_PLEYEL", JB_PV_STR, 0, "Salle Pleyel (Paris)", {0}},
    {JB_PATCH_ADD, "/subjectNames/1", JB_PV_STR, 0, "Sujet", {0}},
};
#define N_PATCH_OPS (sizeof patch_ops / sizeof patch_ops[0])
static char patch_tokens[N_PATCH_OPS][128];
static char patch_json[4096];
static size_t patch_json_len;

/* Splits the paths into tokens and writes the same edits as an RFC 6902
 * document (once). */
static void prepare_patch(void) {
    if (patch_json_len) return;
    size_t k = 0;
    k += (size_t)snprintf(patch_json + k, sizeof patch_json - k, "[");
    for (size_t i = 0; i < N_PATCH_OPS; i++) {
        jb_patch_op *op = &patch_ops[i];
        snprintf(patch_tokens[i], sizeof patch_tokens[i], "%s", op->path + 1);
        int t = 0;
        for (char *p = patch_tokens[i]; p && t < JB_PATCH_MAX_TOKENS; t++) {
            op->tok[t] = p;
            p = strchr(p, '/');
            if (p) *p++ = '\0';
        }
        op->tok[t] = NULL;
        static const char *const names[] = {"add", "remove", "replace"};
        k += (size_t)snprintf(patch_json + k, sizeof patch_json - k, "%s{\"op\":\"%s\",\"path\":\"%s\"", i ? "," : "",
                              names[op->op], op->path);
        if (op->vkind == JB_PV_STR) k += (size_t)snprintf(patch_json + k, sizeof patch_json - k, ",\"value\":\"%s\"", op->str);
        if (op->vkind == JB_PV_INT) k += (size_t)snprintf(patch_json + k, sizeof patch_json - k, ",\"value\":%lld", (long long)op->num);
        k += (size_t)snprintf(patch_json + k, sizeof patch_json - k, "}");
    }
    k += (size_t)snprintf(patch_json + k, sizeof patch_json - k, "]");
    patch_json_len = k;
}

/* One build or patch; the text is released with the ops' free_text. */
static char *run_mut_op(jb_cell *c, const jb_dataset *d, size_t *n) {
    const jb_mut_ops *m = jb_mut_ops_of(c->eng);
    if (c->op == OP_BUILD) return m->build(c->st, c->doc, n);
    return m->patch(c->st, d->data, d->len, patch_ops, N_PATCH_OPS, patch_json, patch_json_len, n);
}

#ifdef JB_HAVE_JET
/* Same JSON value; `loose`: numbers compared as doubles (an engine that
 * keeps only doubles). Doubles may differ in the last bit or two (engines
 * that do not round correctly when reading). */
static bool same_value(const jet_val *a, const jet_val *b, bool loose) {
    jet_type t = jet_get_type(a);
    if (t == JET_TYPE_NUM && jet_get_type(b) == JET_TYPE_NUM) {
        bool exact = !loose && !jet_is_f64(a) && !jet_is_f64(b);
        if (exact) return jet_val_equal(a, b);
        double x = jet_get_num(a), y = jet_get_num(b);
        return x == y || fabs(x - y) <= 4.5e-16 * fabs(x);
    }
    if (t != jet_get_type(b) || jet_get_len(a) != jet_get_len(b)) return false;
    if (t == JET_TYPE_OBJ) {
        jet_obj_iter ia = jet_obj_iter_init(a), ib = jet_obj_iter_init(b);
        for (jet_val *ka, *kb; (ka = jet_obj_iter_next(&ia)) && (kb = jet_obj_iter_next(&ib));)
            if (!jet_val_equal(ka, kb) || !same_value(ka + 1, kb + 1, loose)) return false;
        return true;
    }
    if (t == JET_TYPE_ARR) {
        jet_arr_iter ia = jet_arr_iter_init(a), ib = jet_arr_iter_init(b);
        for (jet_val *ea, *eb; (ea = jet_arr_iter_next(&ia)) && (eb = jet_arr_iter_next(&ib));)
            if (!same_value(ea, eb, loose)) return false;
        return true;
    }
    return jet_val_equal(a, b);
}
#endif

/* The text of a build or patch, read back by jet, must be the expected
 * document: the dataset's (build), or jet_patch_apply's result of the edits
 * as an RFC 6902 document (patch), reached independently of the adapters.
 * Twice: the second run must give the same length. */
static bool verify_mut_cell(jb_cell *c, const jb_dataset *d, char *why, size_t cap) {
#ifdef JB_HAVE_JET
    prepare_patch();
    bool ok = false;
    jet_doc *want = jet_read(d->data, d->len, NULL, NULL, NULL), *pdoc = NULL, *got = NULL;
    jet_mut_doc *m = NULL;
    size_t n1 = 0, n2 = 0;
    char *text = NULL;
    if (!want) { snprintf(why, cap, "jet rejects %s", d->name); goto out; }
    if (c->op == OP_PATCH) {
        jet_patch_error pe;
        pdoc = jet_read(patch_json, patch_json_len, NULL, NULL, NULL);
        m = pdoc ? jet_doc_to_mut(want, NULL) : NULL;
        if (!m || !jet_patch_apply(m, jet_doc_root(pdoc), &pe)) {
            snprintf(why, cap, "the reference patch does not apply: %s", m ? pe.msg : "memory");
            goto out;
        }
        jet_doc_free(want);
        want = jet_mut_to_doc(jet_mut_doc_root(m), NULL, NULL);
        if (!want) { snprintf(why, cap, "out of memory"); goto out; }
    }
    text = run_mut_op(c, d, &n1);
    if (!text || !n1) { snprintf(why, cap, "%s failed", jb_op_names[c->op]); goto out; }
    got = jet_read(text, n1, NULL, NULL, NULL);
    jb_mut_ops_of(c->eng)->free_text(c->st, text);
    if (!got) { snprintf(why, cap, "output is not valid JSON for jet"); goto out; }
    if (!same_value(jet_doc_root(got), jet_doc_root(want), !(c->eng->caps & JB_CAP_NUM_SPLIT))) {
        snprintf(why, cap, "output read back by jet differs from the expected document");
        goto out;
    }
    text = run_mut_op(c, d, &n2);
    if (text) jb_mut_ops_of(c->eng)->free_text(c->st, text);
    if (!text || n2 != n1) { snprintf(why, cap, "second run differs (%zu vs %zu bytes)", n2, n1); goto out; }
    c->out_bytes = n1;
    ok = true;
out:
    jet_doc_free(got);
    jet_doc_free(pdoc);
    jet_doc_free(want);
    jet_mut_doc_free(m);
    return ok;
#else
    (void)c;
    (void)d;
    snprintf(why, cap, "verification needs jet (not built)");
    return false;
#endif
}

/* ---------------------------------------------------------- verification -- */

static void cell_fail(jb_cell *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->note, sizeof c->note, fmt, ap);
    va_end(ap);
    c->state = CELL_FAILED;
}

/* ": <why>" when the adapter can say why its last call failed, else "". */
static const char *why_failed(const jb_engine *e, void *st, char *buf, size_t cap) {
    const char *m = e->last_error ? e->last_error(st) : NULL;
    snprintf(buf, cap, "%s%s", m ? ": " : "", m ? m : "");
    return buf;
}

/* Which operations run on which datasets. */
static bool op_uses_dataset(int op, const jb_dataset *d) {
    switch (op) {
    case OP_PARSE:
    case OP_SERIALIZE:
    case OP_VALIDATE: return d->kind == JB_DS_DOC && (!d->derive || d->derive >= JB_DERIVE_ESCAPED);
    case OP_DECODE:
        return d->kind == JB_DS_DOC && !strncmp(d->name, "twitter", 7) && d->derive != JB_DERIVE_ESCAPED;
    case OP_NOSTR_SHORT:
    case OP_NOSTR_FULL:
    case OP_NOSTR_ENVELOPE: return d->kind == JB_DS_NOSTR;
    case OP_API_READ:
    case OP_API_WRITE: return d->kind == JB_DS_API;
    case OP_NDJSON: return d->kind == JB_DS_NDJSON;
    case OP_BUILD: return d->kind == JB_DS_DOC && !d->derive && !strcmp(d->name, "twitter");
    case OP_PATCH: return d->kind == JB_DS_DOC && !d->derive && !strcmp(d->name, "citm_catalog");
    }
    return false;
}

/* Verifies a cell; on success leaves the engine state (and, for serialize,
 * the prepared document) in the cell for timing. */
void jb_verify_cell(jb_run *r, jb_cell *c) {
    const jb_engine *e = c->eng;
    const jb_dataset *d = &r->ds[c->ds];
    c->bytes = d->kind == JB_DS_NOSTR ? d->line_bytes : d->len;
    bool supported = false;
    switch (c->op) {
    case OP_PARSE: supported = e->parse && e->stats; break;
    case OP_SERIALIZE: supported = e->parse && e->serialize; break;
    case OP_VALIDATE: supported = e->validate != NULL; break;
    case OP_DECODE: supported = e->decode_twitter != NULL; break;
    case OP_NOSTR_SHORT:
    case OP_NOSTR_FULL:
    case OP_NOSTR_ENVELOPE: supported = e->nostr != NULL; break;
    case OP_API_READ: supported = e->api_read != NULL; break;
    case OP_API_WRITE: supported = e->api_write != NULL; break;
    case OP_NDJSON: supported = e->ndjson != NULL; break;
    case OP_BUILD: supported = e->parse && jb_mut_ops_of(e) && jb_mut_ops_of(e)->build; break;
    case OP_PATCH: supported = jb_mut_ops_of(e) && jb_mut_ops_of(e)->patch; break;
    }
    if (!supported) {
        c->state = CELL_UNSUPPORTED;
        snprintf(c->note, sizeof c->note, "%s has no %s adapter", e->name, jb_op_names[c->op]);
        return;
    }
    c->st = e->create ? e->create() : NULL;
    if (e->create && !c->st) { cell_fail(c, "engine state allocation failed"); return; }
    char why[400];

    switch (c->op) {
    case OP_PARSE: {
        if (!d->have_ref) { cell_fail(c, "no reference fingerprint for %s", d->name); return; }
        /* Twice: a reused parser must give the same document again. */
        for (int pass = 0; pass < 2; pass++) {
            void *doc = e->parse(c->st, d->data, d->len);
            if (!doc) { cell_fail(c, "rejected valid input (pass %d)", pass + 1); return; }
            jb_stats s;
            jb_stats_zero(&s);
            int rc = e->stats(c->st, doc, &s);
            if (e->free_doc) e->free_doc(c->st, doc);
            if (rc != 0) { cell_fail(c, "fingerprint walk failed"); return; }
            if (jb_stats_compare(&s, &d->ref, e->caps, why, sizeof why)) {
                cell_fail(c, "fingerprint mismatch (pass %d): %s", pass + 1, why);
                return;
            }
        }
        break;
    }
    case OP_SERIALIZE: {
        if (!d->have_ref) { cell_fail(c, "no reference fingerprint for %s", d->name); return; }
        const jb_engine *re = reparse_engine(d);
        if (!re) { cell_fail(c, "no engine to re-parse the output"); return; }
        c->doc = e->parse(c->st, d->data, d->len);
        if (!c->doc) { cell_fail(c, "rejected valid input"); return; }
        size_t n1 = 0, n2 = 0;
        char *text = e->serialize(c->st, c->doc, &n1);
        if (!text || n1 == 0) { cell_fail(c, "serialize failed"); return; }
        jb_stats s;
        void *rst = re->create ? re->create() : NULL;
        void *rdoc = re->parse(rst, text, n1);
        int bad = 1;
        if (rdoc) {
            re->stats(rst, rdoc, &s);
            if (re->free_doc) re->free_doc(rst, rdoc);
            bad = jb_stats_compare(&s, &d->ref, e->caps & re->caps, why, sizeof why);
        } else {
            snprintf(why, sizeof why, "output is not valid JSON for %s", re->name);
        }
        if (re->destroy) re->destroy(rst);
        if (e->free_text) e->free_text(c->st, text);
        if (bad) { cell_fail(c, "output re-parsed by %s: %s", re->name, why); return; }
        text = e->serialize(c->st, c->doc, &n2);
        if (!text || n2 != n1) { cell_fail(c, "second serialize differs (%zu vs %zu bytes)", n2, n1); return; }
        if (e->free_text) e->free_text(c->st, text);
        c->out_bytes = n1;
        break;
    }
    case OP_VALIDATE: {
        if (!e->validate(c->st, d->data, d->len)) { cell_fail(c, "rejected valid input"); return; }
        /* Two broken variants must be rejected: truncated in the middle, and
         * the last closing bracket replaced by a comma. */
        if (d->len >= 2) {
            char *bad = malloc(d->len);
            if (!bad) { cell_fail(c, "out of memory"); return; }
            memcpy(bad, d->data, d->len);
            bool accepted_trunc = e->validate(c->st, bad, d->len / 2) != 0;
            size_t k = d->len;
            while (k > 0 && bad[k - 1] != '}' && bad[k - 1] != ']') k--;
            bool accepted_bad = false;
            if (k > 0) {
                bad[k - 1] = ',';
                accepted_bad = e->validate(c->st, bad, d->len) != 0;
            }
            free(bad);
            if (accepted_trunc) { cell_fail(c, "accepted the input truncated to %zu bytes", d->len / 2); return; }
            if (accepted_bad) { cell_fail(c, "accepted the input with its last bracket replaced by ','"); return; }
        }
        if (!e->validate(c->st, d->data, d->len)) { cell_fail(c, "rejected valid input after a rejection"); return; }
        break;
    }
    case OP_DECODE: {
        if (!d->have_twitter_ref) { cell_fail(c, "no reference TwitterStats"); return; }
        for (int pass = 0; pass < 2; pass++) {
            jb_twitter t;
            memset(&t, 0, sizeof t);
            if (e->decode_twitter(c->st, d->data, d->len, &t) != 0) {
                cell_fail(c, "decode failed%s", why_failed(e, c->st, why, sizeof why));
                return;
            }
            if (jb_twitter_compare(&t, &d->twitter_ref, why, sizeof why)) {
                cell_fail(c, "checksum mismatch: %s", why);
                return;
            }
        }
        break;
    }
    case OP_NOSTR_SHORT:
    case OP_NOSTR_FULL:
    case OP_NOSTR_ENVELOPE: {
        int variant = c->op - OP_NOSTR_SHORT;
        if (!d->have_nostr_ref[variant]) { cell_fail(c, "no reference checksum for %s", jb_op_names[c->op]); return; }
        for (int pass = 0; pass < 2; pass++) {
            jb_nostr t;
            memset(&t, 0, sizeof t);
            if (e->nostr(c->st, variant, (const char *const *)d->lines, d->lens, d->nlines, &t) != 0) {
                cell_fail(c, "decode failed (pass %d)%s", pass + 1, why_failed(e, c->st, why, sizeof why));
                return;
            }
            if (jb_nostr_compare(&t, &d->nostr_ref[variant], why, sizeof why)) {
                cell_fail(c, "checksum mismatch (pass %d): %s", pass + 1, why);
                return;
            }
        }
        break;
    }
    case OP_API_READ: {
        if (!d->have_api_ref) { cell_fail(c, "no reference ApiResponse checksum"); return; }
        for (int pass = 0; pass < 2; pass++) {
            ApiResponse a;
            jb_api t;
            memset(&a, 0xa5, sizeof a); /* the adapter must zero it */
            if (e->api_read(c->st, d->data, d->len, &a) != 0) {
                cell_fail(c, "decode failed (pass %d)%s", pass + 1, why_failed(e, c->st, why, sizeof why));
                return;
            }
            jb_api_checksum(&a, &t);
            if (jb_api_compare(&t, &d->api_ref, why, sizeof why)) {
                cell_fail(c, "checksum mismatch (pass %d): %s", pass + 1, why);
                return;
            }
        }
        break;
    }
    case OP_NDJSON: {
        if (!d->have_ref || !d->ndjson_ref) { cell_fail(c, "no reference fingerprints for %s", d->name); return; }
        jb_stats *got = malloc((d->ndjson_docs + 1) * sizeof *got);
        if (!got) { cell_fail(c, "out of memory"); return; }
        for (int pass = 0; pass < 2; pass++) {
            size_t n = 0;
            memset(got, 0, (d->ndjson_docs + 1) * sizeof *got);
            if (e->ndjson(c->st, d->data, d->len, got, d->ndjson_docs + 1, &n) != 0) {
                cell_fail(c, "rejected valid input (pass %d)%s", pass + 1, why_failed(e, c->st, why, sizeof why));
                free(got);
                return;
            }
            if (n != d->ndjson_docs) {
                cell_fail(c, "%zu documents, want %zu (pass %d)", n, d->ndjson_docs, pass + 1);
                free(got);
                return;
            }
            for (size_t k = 0; k < n; k++)
                if (jb_stats_compare(&got[k], &d->ndjson_ref[k], e->caps, why, sizeof why)) {
                    cell_fail(c, "document %zu: fingerprint mismatch (pass %d): %s", k, pass + 1, why);
                    free(got);
                    return;
                }
        }
        free(got);
        break;
    }
    case OP_API_WRITE: {
        if (!d->api_in) { cell_fail(c, "no reference ApiResponse to write (no engine decoded the sample)"); return; }
        size_t n1 = 0, n2 = 0;
        const char *text = e->api_write(c->st, d->api_in, &n1);
        if (!text || !n1) { cell_fail(c, "write failed%s", why_failed(e, c->st, why, sizeof why)); return; }
        /* The text must be the sample again, as a jet DOM ... */
        if (jb_api_check_output(text, n1, d->data, d->len, why, sizeof why)) { cell_fail(c, "%s", why); return; }
        /* ... and read back by the reference's engine, give its checksum. */
        const jb_engine *re = d->api_src;
        void *rst = re->create ? re->create() : NULL;
        ApiResponse back;
        memset(&back, 0, sizeof back);
        int bad = 1;
        if (re->api_read(rst, text, n1, &back) == 0) {
            jb_api t;
            jb_api_checksum(&back, &t);
            bad = jb_api_compare(&t, &d->api_ref, why, sizeof why);
        } else {
            snprintf(why, sizeof why, "%s rejects it", re->name);
        }
        if (re->destroy) re->destroy(rst);
        if (bad) { cell_fail(c, "output read back by %s: %s", re->name, why); return; }
        text = e->api_write(c->st, d->api_in, &n2);
        if (!text || n2 != n1) { cell_fail(c, "second write differs (%zu vs %zu bytes)", n2, n1); return; }
        c->out_bytes = n1;
        break;
    }
    case OP_BUILD:
    case OP_PATCH:
        if (c->op == OP_BUILD) {
            c->doc = e->parse(c->st, d->data, d->len);
            if (!c->doc) { cell_fail(c, "rejected valid input"); return; }
        }
        if (!verify_mut_cell(c, d, why, sizeof why)) { cell_fail(c, "%s", why); return; }
        break;
    }
    c->state = CELL_OK;
    const char *n = jb_engine_note(e, c->op);
    snprintf(c->note, sizeof c->note, "%s", n ? n : "");
}

static void cell_release(jb_cell *c) {
    if (c->doc && c->eng->free_doc) c->eng->free_doc(c->st, c->doc);
    c->doc = NULL;
    if (c->st && c->eng->destroy) c->eng->destroy(c->st);
    c->st = NULL;
}

/* ---------------------------------------------------------------- timing -- */

uint64_t jb_run_once(jb_cell *c, const jb_dataset *d, bool *ok) {
    const jb_engine *e = c->eng;
    switch (c->op) {
    case OP_PARSE: {
        void *doc = e->parse(c->st, d->data, d->len);
        if (!doc) { *ok = false; return 0; }
        uint64_t v = (uint64_t)(uintptr_t)doc;
        if (e->free_doc) e->free_doc(c->st, doc);
        return v;
    }
    case OP_SERIALIZE: {
        size_t n = 0;
        char *t = e->serialize(c->st, c->doc, &n);
        if (!t) { *ok = false; return 0; }
        uint64_t v = n + (unsigned char)t[n / 2];
        if (e->free_text) e->free_text(c->st, t);
        return v;
    }
    case OP_VALIDATE: {
        int v = e->validate(c->st, d->data, d->len);
        if (!v) *ok = false;
        return (uint64_t)v;
    }
    case OP_DECODE: {
        jb_twitter t;
        memset(&t, 0, sizeof t);
        if (e->decode_twitter(c->st, d->data, d->len, &t) != 0) *ok = false;
        return t.id_sum ^ t.text_bytes;
    }
    case OP_NOSTR_SHORT:
    case OP_NOSTR_FULL:
    case OP_NOSTR_ENVELOPE: {
        jb_nostr t;
        memset(&t, 0, sizeof t);
        if (e->nostr(c->st, c->op - OP_NOSTR_SHORT, (const char *const *)d->lines, d->lens, d->nlines, &t) != 0)
            *ok = false;
        return t.created_at_sum ^ t.content_bytes;
    }
    case OP_API_READ: {
        /* The checksum is left out: verification computed it, untimed. */
        ApiResponse a;
        if (e->api_read(c->st, d->data, d->len, &a) != 0) { *ok = false; return 0; }
        return (uint64_t)a.timestamp ^ a.order_count ^ (uint64_t)(uintptr_t)a.orders;
    }
    case OP_NDJSON: {
        size_t n = 0;
        if (e->ndjson(c->st, d->data, d->len, NULL, 0, &n) != 0 || n != d->ndjson_docs) *ok = false;
        return n;
    }
    case OP_API_WRITE: {
        size_t n = 0;
        const char *t = e->api_write(c->st, d->api_in, &n);
        if (!t || !n) { *ok = false; return 0; }
        return n + (unsigned char)t[n / 2];
    }
    case OP_BUILD:
    case OP_PATCH: {
        size_t n = 0;
        char *t = run_mut_op(c, d, &n);
        if (!t) { *ok = false; return 0; }
        uint64_t v = n + (unsigned char)t[n / 2];
        jb_mut_ops_of(e)->free_text(c->st, t);
        return v;
    }
    }
    *ok = false;
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double quantile_sorted(const double *v, size_t n, double q) {
    if (!n) return 0;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double f = pos - (double)i;
    return i + 1 < n ? v[i] * (1 - f) + v[i + 1] * f : v[i];
}

static double median_of(const double *v, size_t n) {
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return 0;
    memcpy(tmp, v, n * sizeof *tmp);
    qsort(tmp, n, sizeof *tmp, cmp_double);
    double m = quantile_sorted(tmp, n, 0.5);
    free(tmp);
    return m;
}

static bool push_sample(jb_cell *c, double ns) {
    if (c->nsamples == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        double *p = realloc(c->samples, cap * sizeof *p);
        if (!p) return false;
        c->samples = p;
        c->cap = cap;
    }
    c->samples[c->nsamples++] = ns;
    return true;
}

static void finish_stats(jb_cell *c) {
    size_t n = c->nsamples;
    if (!n) return;
    double *s = malloc(n * sizeof *s);
    if (!s) return;
    memcpy(s, c->samples, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    c->median_ns = quantile_sorted(s, n, 0.5);
    c->p10_ns = quantile_sorted(s, n, 0.10);
    for (size_t i = 0; i < n; i++) s[i] = fabs(s[i] - c->median_ns);
    qsort(s, n, sizeof *s, cmp_double);
    c->mad_ns = quantile_sorted(s, n, 0.5);
    free(s);
    c->mb_per_s = c->median_ns > 0 ? (double)c->bytes / c->median_ns * 1e3 : 0;
    c->ops_per_s = c->median_ns > 0 ? 1e9 / c->median_ns : 0;
}

static void fmt_eta(double s, char *buf, size_t cap) {
    if (s < 0) s = 0;
    int m = (int)(s / 60), sec = (int)s % 60;
    if (m) snprintf(buf, cap, "%dm%02ds", m, sec);
    else snprintf(buf, cap, "%ds", sec);
}

typedef struct progress {
    int done, total;
    double t0;
    double budget_ms;
} progress;

static double progress_eta(const progress *p) {
    double el = (jb_now_ns() - p->t0) / 1e9;
    if (p->done == 0) return (double)(p->total) * p->budget_ms * 1.3 / 1e3;
    return el / p->done * (p->total - p->done);
}

/* Times the verified cells of one (op, dataset) group, interleaved: every
 * round gives each cell one slice of slice_ms, in a rotating order. */
static void time_group(jb_run *r, jb_cell **cells, int n, progress *pg) {
    const jb_dataset *d = &r->ds[cells[0]->ds];
    const double slice_ns = r->opt.slice_ms * 1e6, sample_ns = r->opt.sample_ms * 1e6;
    double warm_ns = r->opt.min_time_ms * 1e6 / 5;
    if (warm_ns > 200e6) warm_ns = 200e6;

    char eta[32];
    fmt_eta(progress_eta(pg), eta, sizeof eta);
    fprintf(stderr, "[cells %d-%d/%d] %s %s:", pg->done + 1, pg->done + n, pg->total, jb_op_names[cells[0]->op],
            d->name);
    for (int i = 0; i < n; i++) fprintf(stderr, " %s", cells[i]->eng->name);
    fprintf(stderr, " (ETA %s)\n", eta);

    /* Warm-up and calibration of the iterations per sample. */
    for (int i = 0; i < n; i++) {
        jb_cell *c = cells[i];
        bool ok = true;
        double t0 = jb_now_ns(), best = 1e300;
        int it = 0;
        while (ok && (it < 2 || jb_now_ns() - t0 < warm_ns)) {
            double a = jb_now_ns();
            jb_sink += jb_run_once(c, d, &ok);
            double b = jb_now_ns() - a;
            if (b < best) best = b;
            it++;
        }
        if (!ok) { cell_fail(c, "operation failed during warm-up"); continue; }
        double k = ceil(sample_ns / (best > 1 ? best : 1));
        c->iters_per_sample = k < 1 ? 1 : k > 1e6 ? 1000000u : (unsigned)k;
    }

    int rounds = (int)ceil(r->opt.min_time_ms / r->opt.slice_ms);
    if (rounds < 3) rounds = 3;
    for (int i = 0; i < n; i++) {
        cells[i]->rounds = calloc((size_t)rounds, sizeof(double));
        cells[i]->nrounds = 0;
    }
    bool tty = isatty(2);
    double g0 = jb_now_ns();
    for (int rd = 0; rd < rounds; rd++) {
        for (int j = 0; j < n; j++) {
            jb_cell *c = cells[(j + rd) % n];
            if (c->state != CELL_OK || !c->rounds) continue;
            size_t first = c->nsamples;
            double s0 = jb_now_ns();
            bool ok = true;
            do {
                double a = jb_now_ns();
                for (unsigned k = 0; k < c->iters_per_sample; k++) jb_sink += jb_run_once(c, d, &ok);
                double b = jb_now_ns();
                if (!push_sample(c, (b - a) / c->iters_per_sample)) ok = false;
            } while (ok && jb_now_ns() - s0 < slice_ns);
            if (!ok) { cell_fail(c, "operation failed while timed"); continue; }
            c->rounds[rd] = median_of(c->samples + first, c->nsamples - first);
            c->nrounds = (size_t)rd + 1;
        }
        if (tty && (rd % 5 == 4 || rd == rounds - 1)) {
            /* This group's remaining rounds plus the cells after it. */
            double el = (jb_now_ns() - g0) / 1e9;
            double left = el / (rd + 1) * (rounds - rd - 1) +
                          (pg->done ? (g0 - pg->t0) / 1e9 / pg->done : el / n) * (pg->total - pg->done - n);
            fmt_eta(left, eta, sizeof eta);
            fprintf(stderr, "\r  round %d/%d, ETA %s   ", rd + 1, rounds, eta);
            fflush(stderr);
        }
    }
    if (tty) fprintf(stderr, "\r%40s\r", "");
    for (int i = 0; i < n; i++) finish_stats(cells[i]);
    pg->done += n;
}

/* ------------------------------------------------------------------ main -- */

static void usage(void) {
    puts("usage: jet-bench [options]\n"
         "  --ops LIST            parse,serialize,validate,decode,nostr-short,nostr-full,\n"
         "                        nostr-envelope,api-read,api-write,ndjson,\n"
         "                        build (twitter), patch (citm_catalog) (default: all)\n"
         "  --engines LIST        engine names (default: all compiled in; see --list)\n"
         "  --datasets LIST       twitter,citm_catalog,canada,github_events (parse, serialize,\n"
         "                        validate; decode: twitter), twitter_min, twitter_shuffled\n"
         "                        (decode: twitter minified, members in order / shuffled),\n"
         "                        twitter_escaped, long_strings, mesh (parse, serialize, validate:\n"
         "                        generated shapes, bench/shapes.h),\n"
         "                        nostr_relay (nostr-*), api_response (api-*), ndjson (ndjson:\n"
         "                        ~100 MB built from the corpora, $JB_NDJSON_MB) (default: all found)\n"
         "  --data-dir DIR        where the corpora are (then $JET_DATA_DIR, ../shared/corpora,\n"
         "                        Debian's fastjson testdata)\n"
         "  --min-time-ms N       timing budget per cell (default 1000; use 2000 for a baseline)\n"
         "  --slice-ms N          interleaving slice (default 20)\n"
         "  --sample-ms N         minimum length of one sample (default 1)\n"
         "  --baseline ENGINE     the x-baseline column's engine (default: slowest verified)\n"
         "  --group-by LIST       operation (default) | dataset | dataset,operation\n"
         "  --json PATH           write the snapshot (see bench/README.md)\n"
         "  --markdown PATH       write the tables as Markdown\n"
         "  --svg DIR             write one bar chart per operation\n"
         "  --pin CPU             pin the process to one CPU\n"
         "  --no-counters         skip the perf_event_open counting pass\n"
         "  --instructions        run under `valgrind --tool=callgrind --instr-atstart=no`: dumps\n"
         "                        one callgrind profile per cell (no timing); then\n"
         "  --callgrind-report F... prints instructions/byte from those dumps\n"
         "  --instr-iters N       iterations per cell in --instructions mode (default 5)\n"
         "  --step-count          no timing: count the instructions of one iteration per cell by\n"
         "                        single-stepping it on this CPU (its own kernels, AVX-512\n"
         "                        included; x86-64 Linux; about 17 us per instruction)\n"
         "  --step-limit N        --step-count gives up on a cell after N instructions\n"
         "                        (default 30000000)\n"
         "  --step-profile        --step-count, then the stepped iteration's instructions by\n"
         "                        function and source line (addr2line; lines need a\n"
         "                        RelWithDebInfo build): an exact profile of this CPU's kernels\n"
         "  --profile-top N       rows in each profile list (default 25 functions and 40 lines\n"
         "                        stepped, 15 and 20 sampled)\n"
         "  --sample-profile S    no timing: run each cell S seconds under a SIGPROF sampler and\n"
         "                        print its hottest functions and source lines (addr2line;\n"
         "                        lines need a RelWithDebInfo build)\n"
         "  --quick               CI mode: self-test + github_events, twitter_shuffled,\n"
         "                        nostr_relay and api_response, 50 ms budget; non-zero\n"
         "                        exit when a jet cell or the self-test fails\n"
         "  --self-test           check that a deliberately broken adapter is caught\n"
         "  --strict              non-zero exit when any jet cell fails verification\n"
         "  --list                list engines and datasets, then exit\n"
         "  --verbose             print every cell's note");
}

static const char *need_arg(int argc, char **argv, int *i) {
    if (*i + 1 >= argc) die("%s needs an argument", argv[*i]);
    return argv[++*i];
}

static double num_arg(const char *s, const char *opt) {
    char *end;
    double v = strtod(s, &end);
    if (*end || v <= 0) die("%s: bad number '%s'", opt, s);
    return v;
}

/* A positive whole number of rows, at most 100 000 (a double would take
 * "2.5" and overflow size_t silently). */
static size_t rows_arg(const char *s, const char *opt) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*end || *s < '1' || *s > '9' || v > 100000) die("%s: want a whole number 1..100000, not '%s'", opt, s);
    return (size_t)v;
}

static void parse_args(jb_run *r, int argc, char **argv) {
    jb_opts *o = &r->opt;
    o->min_time_ms = 0;
    o->slice_ms = 20;
    o->sample_ms = 1;
    o->pin_cpu = -1;
    o->counters = true;
    o->instr_iters = 5;
    o->step_limit = 30000000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--ops")) o->ops = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--engines")) o->engines = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--datasets")) o->datasets = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--data-dir")) o->data_dir = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--min-time-ms")) o->min_time_ms = num_arg(need_arg(argc, argv, &i), a);
        else if (!strcmp(a, "--slice-ms")) o->slice_ms = num_arg(need_arg(argc, argv, &i), a);
        else if (!strcmp(a, "--sample-ms")) o->sample_ms = num_arg(need_arg(argc, argv, &i), a);
        else if (!strcmp(a, "--baseline")) o->baseline = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--group-by")) o->group_by = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--json")) o->json_path = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--markdown")) o->md_path = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--svg")) o->svg_dir = need_arg(argc, argv, &i);
        else if (!strcmp(a, "--pin")) o->pin_cpu = atoi(need_arg(argc, argv, &i));
        else if (!strcmp(a, "--instr-iters")) o->instr_iters = (unsigned)num_arg(need_arg(argc, argv, &i), a);
        else if (!strcmp(a, "--no-counters")) o->counters = false;
        else if (!strcmp(a, "--instructions")) o->instructions = true;
        else if (!strcmp(a, "--step-count")) o->step_count = true;
        else if (!strcmp(a, "--step-profile")) o->step_count = o->step_profile = true;
        else if (!strcmp(a, "--step-limit")) o->step_limit = (uint64_t)num_arg(need_arg(argc, argv, &i), a);
        else if (!strcmp(a, "--profile-top")) o->profile_top = rows_arg(need_arg(argc, argv, &i), a);
        else if (!strcmp(a, "--sample-profile")) o->profile_seconds = num_arg(need_arg(argc, argv, &i), a);
        else if (!strcmp(a, "--quick")) o->quick = true;
        else if (!strcmp(a, "--self-test")) o->self_test = true;
        else if (!strcmp(a, "--strict")) o->strict = true;
        else if (!strcmp(a, "--list")) o->list = true;
        else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) o->verbose = true;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(); exit(0); }
        else die("unknown option '%s' (try --help)", a);
    }
    if (o->min_time_ms == 0) o->min_time_ms = o->quick ? 50 : 1000;
    if (o->quick) { o->self_test = true; o->strict = true; }
    if (o->group_by && strcmp(o->group_by, "operation") && strcmp(o->group_by, "dataset") &&
        strcmp(o->group_by, "dataset,operation") && strcmp(o->group_by, "operation,dataset"))
        die("--group-by: operation, dataset or dataset,operation");
    if (o->profile_top && !o->step_profile && o->profile_seconds <= 0)
        die("--profile-top: only with --step-profile or --sample-profile");
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "--callgrind-report")) return jb_callgrind_report(argc - 2, argv + 2);
    setvbuf(stdout, NULL, _IOLBF, 0);
    static jb_run run;
    jb_run *r = &run;
    parse_args(r, argc, argv);

    if (r->opt.pin_cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(r->opt.pin_cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            printf("note: --pin %d failed: %s\n", r->opt.pin_cpu, strerror(errno));
    }

    /* Engines. */
    const char *names[JB_MAX_ENGINES] = {0};
    int nnames = 0;
    for (int i = 0; jb_engines[i] && nnames < JB_MAX_ENGINES; i++) names[nnames++] = jb_engines[i]->name;
    check_list("engine", r->opt.engines, names, (size_t)nnames);
    for (int i = 0; jb_engines[i] && r->neng < JB_MAX_ENGINES; i++)
        if (in_list(r->opt.engines, jb_engines[i]->name)) r->eng[r->neng++] = jb_engines[i];

    /* Operations. */
    const char *opfilter = r->opt.ops ? r->opt.ops : "all";
    check_list("operation", opfilter, jb_op_names, OP__COUNT);
    for (int op = 0; op < OP__COUNT; op++) r->op_on[op] = in_list(opfilter, jb_op_names[op]);

    if (r->opt.list) {
        puts("engines:");
        for (int i = 0; jb_engines[i]; i++) printf("  %-20s %s\n", jb_engines[i]->name, jb_engines[i]->family);
        for (int i = 0; jb_missing_engines[i]; i += 2)
            printf("  %-20s (not built: %s)\n", jb_missing_engines[i], jb_missing_engines[i + 1]);
    }
    printf("jet-bench: %d engine%s compiled in:", nnames, nnames == 1 ? "" : "s");
    for (int i = 0; i < nnames; i++) printf(" %s", names[i]);
    putchar('\n');
    for (int i = 0; jb_missing_engines[i]; i += 2)
        printf("note: engine %s skipped at build time: %s\n", jb_missing_engines[i], jb_missing_engines[i + 1]);

    load_datasets(r);
    if (r->opt.list) {
        puts("datasets:");
        for (int i = 0; i < r->nds; i++)
            printf("  %-14s %s\n", r->ds[i].name, r->ds[i].loaded ? r->ds[i].path : "(not found)");
        return 0;
    }

    /* References. */
    for (int i = 0; i < r->nds; i++) {
        jb_dataset *d = &r->ds[i];
        if (!d->loaded) continue;
        if (d->kind == JB_DS_DOC) establish_reference(d);
        if (d->have_ref) printf("reference %s: %s\n", d->name, d->ref_source);
        if (r->op_on[OP_DECODE] && op_uses_dataset(OP_DECODE, d)) {
            establish_twitter_reference(d);
            /* a re-emitted twitter must give the original's TwitterStats */
            for (int k = 0; k < r->nds && d->derive && d->have_twitter_ref; k++)
                if (r->ds[k].have_twitter_ref && !r->ds[k].derive &&
                    jb_twitter_compare(&d->twitter_ref, &r->ds[k].twitter_ref, NULL, 0)) {
                    printf("note: %s: TwitterStats differ from %s's: no reference\n", d->name, r->ds[k].name);
                    d->have_twitter_ref = false;
                }
            if (d->have_twitter_ref) printf("reference %s TwitterStats: %s\n", d->name, d->twitter_ref_source);
        }
        if (d->kind == JB_DS_NOSTR)
            for (int v = 0; v < 3; v++) {
                if (!r->op_on[OP_NOSTR_SHORT + v] && !r->opt.self_test) continue;
                establish_nostr_reference(d, v);
                if (d->have_nostr_ref[v])
                    printf("reference %s %s: %s\n", d->name, jb_op_names[OP_NOSTR_SHORT + v], d->nostr_ref_source[v]);
            }
        if (d->kind == JB_DS_API && (r->op_on[OP_API_READ] || r->op_on[OP_API_WRITE] || r->opt.self_test)) {
            establish_api_reference(d);
            if (d->have_api_ref) printf("reference %s ApiResponse: %s\n", d->name, d->api_ref_source);
        }
    }

    int exit_code = 0;
    if (r->opt.self_test) {
        int sds = -1;
        for (int i = 0; i < r->nds && sds < 0; i++)
            if (r->ds[i].loaded && r->ds[i].kind == JB_DS_DOC && r->ds[i].have_ref) sds = i;
        if (sds < 0) printf("self-test: no document dataset with a reference: parse/serialize/validate checks skipped\n");
        if (jb_self_test(r, sds) != 0) exit_code = 1;
    }

    /* Cells, in (op, dataset, engine) order. */
    r->cells = calloc((size_t)OP__COUNT * JB_MAX_DATASETS * JB_MAX_ENGINES, sizeof *r->cells);
    if (!r->cells) die("out of memory");
    for (int op = 0; op < OP__COUNT; op++) {
        if (!r->op_on[op]) continue;
        for (int di = 0; di < r->nds; di++) {
            if (!r->ds[di].loaded || !op_uses_dataset(op, &r->ds[di])) continue;
            for (int ei = 0; ei < r->neng; ei++) {
                jb_cell *c = &r->cells[r->ncells++];
                c->eng = r->eng[ei];
                c->op = op;
                c->ds = di;
                c->state = CELL_PENDING;
            }
        }
    }
    for (int op = 0; op < OP__COUNT && r->opt.ops; op++) {
        if (!r->op_on[op]) continue;
        bool any = false;
        for (int di = 0; di < r->nds; di++) any |= r->ds[di].loaded && op_uses_dataset(op, &r->ds[di]);
        if (!any)
            printf("note: %s needs the %s dataset: skipped\n", jb_op_names[op],
                   op == OP_DECODE || op == OP_BUILD ? "twitter" : op == OP_PATCH ? "citm_catalog"
                   : op <= OP_VALIDATE ? "a document" : op < OP_API_READ ? "nostr_relay"
                   : op < OP_NDJSON ? "api_response" : "ndjson");
    }

    /* Verification before timing. */
    int ok_cells = 0, failed_cells = 0, jet_failed = 0;
    for (int i = 0; i < r->ncells; i++) {
        jb_cell *c = &r->cells[i];
        jb_verify_cell(r, c);
        if (c->state == CELL_OK) ok_cells++;
        if (c->state == CELL_FAILED) {
            failed_cells++;
            if (!strncmp(c->eng->name, "jet", 3)) jet_failed++;
            printf("VERIFY FAIL %s %s %s: %s\n", c->eng->name, jb_op_names[c->op], r->ds[c->ds].name, c->note);
        }
        if (c->state != CELL_OK) cell_release(c);
    }
    printf("verification: %d cell%s verified, %d failed (not timed), %d unsupported\n", ok_cells,
           ok_cells == 1 ? "" : "s", failed_cells, r->ncells - ok_cells - failed_cells);

    if (r->opt.instructions || r->opt.step_count || r->opt.profile_seconds > 0) {
        for (int i = 0; i < r->ncells; i++) {
            jb_cell *c = &r->cells[i];
            if (c->state == CELL_OK) {
                if (r->opt.instructions)
                    jb_instructions_cell(r, c);
                else if (r->opt.step_count)
                    jb_step_count_cell(r, c);
                else
                    jb_sample_profile_cell(r, c);
            }
            cell_release(c);
        }
        return exit_code || (r->opt.strict && jet_failed) ? 1 : 0;
    }

    /* Timing, one interleaved group per (op, dataset). */
    if (r->opt.counters && !jb_counters_probe(r->counters_why, sizeof r->counters_why)) {
        /* jb_counters_probe fills the reason; the page-fault counter may
         * still work, so the counting pass still runs. */
    }
    progress pg = {0, ok_cells, jb_now_ns(), r->opt.min_time_ms};
    for (int i = 0; i < r->ncells;) {
        int j = i;
        while (j < r->ncells && r->cells[j].op == r->cells[i].op && r->cells[j].ds == r->cells[i].ds) j++;
        jb_cell *group[JB_MAX_ENGINES];
        int n = 0;
        for (int k = i; k < j; k++)
            if (r->cells[k].state == CELL_OK) group[n++] = &r->cells[k];
        if (n) time_group(r, group, n, &pg);
        for (int k = 0; k < n; k++) {
            if (r->opt.counters && group[k]->state == CELL_OK) jb_counters_measure(r, group[k]);
            cell_release(group[k]);
        }
        i = j;
    }
    fprintf(stderr, "timing done in %.1f s\n", (jb_now_ns() - pg.t0) / 1e9);

    jb_compute_ratios(r);
    jb_print_tables(r, stdout);
    if (r->opt.json_path && jb_write_json(r, r->opt.json_path) != 0) exit_code = 1;
    if (r->opt.md_path && jb_write_markdown(r, r->opt.md_path) != 0) exit_code = 1;
    if (r->opt.svg_dir && jb_write_svg(r, r->opt.svg_dir) != 0) exit_code = 1;

    if (r->opt.quick || r->opt.self_test) {
        /* The line scripts/run-tests.sh collects. */
        int passed = ok_cells + r->selftest_passed, failed = jet_failed + r->selftest_failed;
        printf("jet-bench: %d passed, %d failed\n", passed, failed);
    }
    if (r->opt.strict && jet_failed) exit_code = 1;
    for (int i = 0; i < r->nds; i++) release_dataset(&r->ds[i]);
    for (int i = 0; i < r->ncells; i++) {
        free(r->cells[i].samples);
        free(r->cells[i].rounds);
    }
    free(r->cells);
    return exit_code;
}
