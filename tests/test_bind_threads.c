/* test_bind_threads.c — typed decoding with field tables that several
 * threads use for the first time at the same moment (jet.h section 13: a
 * jet_struct's key map is built on first use). Every round makes fresh,
 * unprepared copies of a family of tables (a root with nested structs, an
 * array of structs, a recursive struct, a map, an internal union, a 44-key
 * struct whose perfect hash takes a while to find (the window in which
 * other threads arrive), a 64-key struct searched
 * linearly, a second root sharing most of them, and a malformed root whose
 * fault sits inside a recursive struct), releases the worker threads
 * through a barrier, and has each decode (or jet_struct_prepare) at once:
 * every result must match the expected struct, and the malformed root must
 * fail in every thread while the good roots sharing its valid tables
 * decode. Run it under ThreadSanitizer (JET_TSAN=ON) to check for races;
 * JET_THREAD_ROUNDS overrides the number of rounds. */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jet.h"

#define THREADS 4
#define WIDE 44  /* keys of a hashed table that takes many tries to build (about 0.2 ms) */
#define MANY 64  /* keys of a table too big to hash: searched linearly */

/* ---- the C types ----------------------------------------------------------- */

typedef struct Leaf {
    int32_t n;
    jet_str s;
} Leaf;
typedef struct Node { /* recursive: its children are Nodes */
    int64_t v;
    struct Node *kids;
    size_t nkids;
    Leaf leaf;
} Node;
typedef struct Pair {
    jet_str key;
    int64_t value;
} Pair;
typedef struct Circle {
    double r;
} Circle;
typedef struct Rect {
    double w, h;
} Rect;
typedef struct Shape {
    int32_t kind;
    union {
        Circle c;
        Rect r;
    } as;
} Shape;
typedef struct Wide {
    int64_t w[WIDE];
} Wide;
typedef struct Many {
    int64_t m[MANY];
} Many;
typedef struct Root {
    uint64_t id;
    Leaf leaf;
    Leaf *leaves;
    size_t nleaves;
    Node tree;
    Pair *map;
    size_t nmap;
    Shape shape;
    Wide wide;
    Many many;
} Root;
typedef struct Root2 { /* shares Node, Leaf and Wide with Root */
    jet_str name;
    Wide wide;
    Node tree;
} Root2;
typedef struct BadLeaf {
    char x[3]; /* declared as an integer: no integer kind has 3 bytes */
} BadLeaf;
typedef struct Cyc { /* recursive, and holding the malformed table */
    struct Cyc *kids;
    size_t nkids;
    BadLeaf bad;
} Cyc;
typedef struct BadRoot { /* valid tables shared with Root first, then Cyc */
    Leaf leaf;
    Wide wide;
    Cyc cyc;
} BadRoot;

/* ---- fresh tables ---------------------------------------------------------- */

static char wide_keys[WIDE][8], many_keys[MANY][8];
static const char *const shape_names[] = {"circle", "rect"};

/* One copy of every table; a round allocates a new one, so that each
 * round's tables are used for the first time. */
typedef struct Schema {
    jet_field leaf_f[2], node_f[3], node_elem, leaf_elem, pair_f[2], circle_f[1], rect_f[2],
        wide_f[WIDE], many_f[MANY], root_f[9], root2_f[3], bad_leaf_f[1], cyc_f[2], cyc_elem,
        bad_root_f[3];
    jet_struct leaf_t, node_t, pair_t, circle_t, rect_t, wide_t, many_t, root_t, root2_t,
        bad_leaf_t, cyc_t, bad_root_t;
    jet_struct *shape_variants[2];
    jet_union shape_u;
} Schema;

static jet_field int64_at(const char *key, size_t offset) {
    jet_field f = {key, NULL, JET_K_INT, 0, (uint32_t)offset, (uint32_t)sizeof(int64_t),
                   JET_NO_OFFSET, JET_NO_OFFSET, NULL, {0}};
    return f;
}

static Schema *schema_new(void) {
    Schema *s = (Schema *)check_xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    s->leaf_f[0] = (jet_field)JET_F_INT(Leaf, n, "n");
    s->leaf_f[1] = (jet_field)JET_F_STR(Leaf, s, "s");
    s->leaf_t = (jet_struct)JET_STRUCT(Leaf, s->leaf_f);

    s->node_elem = (jet_field)JET_ELEM(Node, JET_K_STRUCT, &s->node_t);
    s->node_f[0] = (jet_field)JET_F_INT(Node, v, "v");
    s->node_f[1] = (jet_field)JET_F_ARRAY(Node, kids, nkids, "kids", s->node_elem);
    s->node_f[2] = (jet_field)JET_F_STRUCT(Node, leaf, "leaf", s->leaf_t);
    s->node_t = (jet_struct)JET_STRUCT(Node, s->node_f);

    s->pair_f[0] = (jet_field)JET_F_STR(Pair, key, "key");
    s->pair_f[1] = (jet_field)JET_F_INT(Pair, value, "value");
    s->pair_t = (jet_struct)JET_STRUCT(Pair, s->pair_f);

    s->circle_f[0] = (jet_field)JET_F_F64(Circle, r, "r");
    s->circle_t = (jet_struct)JET_STRUCT(Circle, s->circle_f);
    s->rect_f[0] = (jet_field)JET_F_F64(Rect, w, "w");
    s->rect_f[1] = (jet_field)JET_F_F64(Rect, h, "h");
    s->rect_t = (jet_struct)JET_STRUCT(Rect, s->rect_f);
    s->shape_variants[0] = &s->circle_t;
    s->shape_variants[1] = &s->rect_t;
    s->shape_u = (jet_union){JET_UNION_INTERNAL, "type", (uint32_t)offsetof(Shape, kind),
                             (uint32_t)offsetof(Shape, as), 2, shape_names, s->shape_variants};

    for (int i = 0; i < WIDE; i++)
        s->wide_f[i] = int64_at(wide_keys[i], offsetof(Wide, w) + (size_t)i * sizeof(int64_t));
    s->wide_t = (jet_struct)JET_STRUCT(Wide, s->wide_f);
    for (int i = 0; i < MANY; i++)
        s->many_f[i] = int64_at(many_keys[i], offsetof(Many, m) + (size_t)i * sizeof(int64_t));
    s->many_t = (jet_struct)JET_STRUCT(Many, s->many_f);

    s->leaf_elem = (jet_field)JET_ELEM(Leaf, JET_K_STRUCT, &s->leaf_t);
    s->root_f[0] = (jet_field)JET_F_UINT(Root, id, "id");
    s->root_f[1] = (jet_field)JET_F_STRUCT(Root, leaf, "leaf", s->leaf_t);
    s->root_f[2] = (jet_field)JET_F_ARRAY(Root, leaves, nleaves, "leaves", s->leaf_elem);
    s->root_f[3] = (jet_field)JET_F_STRUCT(Root, tree, "tree", s->node_t);
    s->root_f[4] = (jet_field)JET_F_MAP(Root, map, nmap, "map", s->pair_t);
    s->root_f[5] = (jet_field)JET_F_UNION(Root, shape, "shape", s->shape_u);
    s->root_f[6] = (jet_field)JET_F_STRUCT(Root, wide, "wide", s->wide_t);
    s->root_f[7] = (jet_field)JET_F_STRUCT(Root, many, "many", s->many_t);
    s->root_f[8] = (jet_field)JET_F_ALIAS(Root, id, "ident", "id2", JET_K_UINT, NULL);
    s->root_f[8].flags = JET_FIELD_OPTIONAL; /* a second name for id, never sent */
    s->root_t = (jet_struct)JET_STRUCT(Root, s->root_f);

    s->root2_f[0] = (jet_field)JET_F_STR(Root2, name, "name");
    s->root2_f[1] = (jet_field)JET_F_STRUCT(Root2, wide, "wide", s->wide_t);
    s->root2_f[2] = (jet_field)JET_F_STRUCT(Root2, tree, "tree", s->node_t);
    s->root2_t = (jet_struct)JET_STRUCT(Root2, s->root2_f);

    s->bad_leaf_f[0] = (jet_field)JET_F_INT(BadLeaf, x, "x");
    s->bad_leaf_t = (jet_struct)JET_STRUCT(BadLeaf, s->bad_leaf_f);
    s->cyc_elem = (jet_field)JET_ELEM(Cyc, JET_K_STRUCT, &s->cyc_t);
    s->cyc_f[0] = (jet_field)JET_F_ARRAY(Cyc, kids, nkids, "kids", s->cyc_elem);
    s->cyc_f[1] = (jet_field)JET_F_STRUCT(Cyc, bad, "bad", s->bad_leaf_t);
    s->cyc_t = (jet_struct)JET_STRUCT(Cyc, s->cyc_f);
    s->bad_root_f[0] = (jet_field)JET_F_STRUCT(BadRoot, leaf, "leaf", s->leaf_t);
    s->bad_root_f[1] = (jet_field)JET_F_STRUCT(BadRoot, wide, "wide", s->wide_t);
    s->bad_root_f[2] = (jet_field)JET_F_STRUCT(BadRoot, cyc, "cyc", s->cyc_t);
    s->bad_root_t = (jet_struct)JET_STRUCT(BadRoot, s->bad_root_f);
    return s;
}

/* ---- the documents and their expected values ------------------------------- */

/* members in another order than declared, so that keys go through the map */
static const char tree_json[] =
    "{\"kids\":[{\"v\":2,\"kids\":[],\"leaf\":{\"s\":\"b\",\"n\":2}},"
    "{\"leaf\":{\"n\":3,\"s\":\"c\"},\"v\":3,\"kids\":[{\"leaf\":{\"n\":4,\"s\":\"d\"},"
    "\"kids\":[],\"v\":4}]}],\"leaf\":{\"s\":\"a\",\"n\":1},\"v\":1}";
static char wide_json[WIDE * 24 + 8], many_json[MANY * 24 + 8];
static char root_json[8192], root2_json[4096];
/* the wide table's keys in another order for each thread (each cursor
 * learns its own key order for the shared table) */
static char wide_rot_json[THREADS][WIDE * 24 + 8];
static const char bad_root_json[] = "{\"leaf\":{\"n\":1,\"s\":\"x\"},\"cyc\":{\"kids\":[],\"bad\":{\"x\":1}}}";

static int64_t wide_value(int i) { return (int64_t)i * 1000003 - 7; }
static int64_t many_value(int i) { return -(int64_t)i * 77 + 5; }

static void make_documents(void) {
    /* irregular keys: a run like w00..w43 finds its hash at once */
    for (int i = 0; i < WIDE; i++) {
        unsigned x = (unsigned)i * 2654435761u;
        snprintf(wide_keys[i], sizeof wide_keys[i], "%c%c%c%c%02d", 'a' + x % 26, 'a' + (x >> 5) % 26,
                 'a' + (x >> 10) % 26, 'a' + (x >> 15) % 26, i);
    }
    for (int i = 0; i < MANY; i++) snprintf(many_keys[i], sizeof many_keys[i], "m%02d", i);
    size_t n = 0;
    wide_json[n++] = '{';
    for (int i = WIDE - 1; i >= 0; i--) /* reversed: never the declared order */
        n += (size_t)snprintf(wide_json + n, sizeof wide_json - n, "\"%s\":%lld%s", wide_keys[i],
                              (long long)wide_value(i), i ? "," : "}");
    for (int t = 0; t < THREADS; t++) {
        n = 0;
        wide_rot_json[t][n++] = '{';
        for (int k = 0; k < WIDE; k++) {
            int i = (k * (2 * t + 1) + 7 * t) % WIDE; /* a permutation: 2t + 1 is prime to 44 */
            n += (size_t)snprintf(wide_rot_json[t] + n, sizeof wide_rot_json[t] - n, "\"%s\":%lld%s",
                                  wide_keys[i], (long long)wide_value(i), k < WIDE - 1 ? "," : "}");
        }
    }
    n = 0;
    many_json[n++] = '{';
    for (int i = MANY - 1; i >= 0; i--)
        n += (size_t)snprintf(many_json + n, sizeof many_json - n, "\"%s\":%lld%s", many_keys[i],
                              (long long)many_value(i), i ? "," : "}");
    snprintf(root_json, sizeof root_json,
             "{\"many\":%s,\"shape\":{\"h\":2.5,\"type\":\"rect\",\"w\":1.5},\"tree\":%s,"
             "\"map\":{\"x\":1,\"y\":-2,\"z\":3},\"wide\":%s,\"leaves\":[{\"n\":10,\"s\":\"p\"},"
             "{\"s\":\"q\",\"n\":11}],\"unknown\":[1,{\"v\":2}],\"leaf\":{\"s\":\"leaf\",\"n\":7},"
             "\"id\":12345678901}",
             many_json, tree_json, wide_json);
    snprintf(root2_json, sizeof root2_json, "{\"tree\":%s,\"wide\":%s,\"name\":\"two\"}", tree_json,
             wide_json);
}

/* The checks below write what differs into `why` (empty when all is well). */
static bool str_is(jet_str s, const char *want) {
    return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

static bool leaf_ok(const Leaf *l, int32_t n, const char *s) { return l->n == n && str_is(l->s, s); }

static bool tree_ok(const Node *t) {
    if (t->v != 1 || !leaf_ok(&t->leaf, 1, "a") || t->nkids != 2 || !t->kids) return false;
    const Node *a = &t->kids[0], *b = &t->kids[1];
    if (a->v != 2 || a->nkids != 0 || !leaf_ok(&a->leaf, 2, "b")) return false;
    if (b->v != 3 || b->nkids != 1 || !b->kids || !leaf_ok(&b->leaf, 3, "c")) return false;
    const Node *c = &b->kids[0];
    return c->v == 4 && c->nkids == 0 && leaf_ok(&c->leaf, 4, "d");
}

static bool wide_ok(const Wide *w) {
    for (int i = 0; i < WIDE; i++)
        if (w->w[i] != wide_value(i)) return false;
    return true;
}

static const char *root_wrong(const Root *r) {
    if (r->id != UINT64_C(12345678901)) return "id";
    if (!leaf_ok(&r->leaf, 7, "leaf")) return "leaf";
    if (r->nleaves != 2 || !r->leaves || !leaf_ok(&r->leaves[0], 10, "p") ||
        !leaf_ok(&r->leaves[1], 11, "q"))
        return "leaves";
    if (!tree_ok(&r->tree)) return "tree";
    if (r->nmap != 3 || !r->map || !str_is(r->map[0].key, "x") || r->map[0].value != 1 ||
        !str_is(r->map[1].key, "y") || r->map[1].value != -2 || !str_is(r->map[2].key, "z") ||
        r->map[2].value != 3)
        return "map";
    if (r->shape.kind != 1 || r->shape.as.r.w != 1.5 || r->shape.as.r.h != 2.5) return "shape";
    if (!wide_ok(&r->wide)) return "wide";
    for (int i = 0; i < MANY; i++)
        if (r->many.m[i] != many_value(i)) return "many";
    return NULL;
}

static const char *root2_wrong(const Root2 *r) {
    if (!str_is(r->name, "two")) return "name";
    if (!wide_ok(&r->wide)) return "wide";
    if (!tree_ok(&r->tree)) return "tree";
    return NULL;
}

/* ---- the workers ----------------------------------------------------------- */

enum job { JOB_ROOT, JOB_ROOT2, JOB_TREE, JOB_PREPARE_ROOT, JOB_BAD, JOB_COUNT };

typedef struct worker {
    int index;
    jet_od *od;
    jet_arena arena;
    enum job job;   /* this round's */
    char why[200];  /* this round's failure, "" when none */
} worker;

static pthread_barrier_t round_start, round_done;
static Schema *schema; /* this round's tables, written by main between rounds */
static int rounds;

static void failed(worker *w, const char *what, const jet_error *e) {
    if (w->why[0]) return; /* the first failure of the round says most */
    if (e)
        snprintf(w->why, sizeof w->why, "%s: %s at %zu (%s: %s)", what, jet_code_name(e->code),
                 e->offset, e->path ? e->path : "", e->msg ? e->msg : "");
    else
        snprintf(w->why, sizeof w->why, "%s", what);
}

static bool decode(worker *w, jet_struct *t, void *out, const char *json, jet_error *e) {
    jet_arena_reset(&w->arena);
    memset(out, 0xA5, t->size);
    return jet_decode(w->od, json, strlen(json), t, out, &w->arena, NULL, e);
}

static void run_job(worker *w, Schema *s) {
    jet_error e;
    Root r;
    Root2 r2;
    Node n;
    BadRoot b;
    const char *wrong;
    switch (w->job) {
    case JOB_PREPARE_ROOT:
        if (!jet_struct_prepare(&s->root_t)) failed(w, "jet_struct_prepare(root) failed", NULL);
        /* fall through */
    case JOB_ROOT:
        for (int k = 0; k < 2; k++) {
            if (!decode(w, &s->root_t, &r, root_json, &e))
                failed(w, "root", &e);
            else if ((wrong = root_wrong(&r)) != NULL)
                failed(w, wrong, NULL);
            Wide wd;
            if (!decode(w, &s->wide_t, &wd, wide_rot_json[w->index], &e))
                failed(w, "wide in this thread's order", &e);
            else if (!wide_ok(&wd))
                failed(w, "wide in this thread's order: values", NULL);
        }
        break;
    case JOB_ROOT2: { /* and encoded with the same tables, and read back */
        if (!decode(w, &s->root2_t, &r2, root2_json, &e)) {
            failed(w, "root2", &e);
            break;
        }
        if ((wrong = root2_wrong(&r2)) != NULL) failed(w, wrong, NULL);
        jet_buf out;
        jet_buf_init(&out, NULL);
        if (!jet_encode(&out, &s->root2_t, &r2, 0, &e))
            failed(w, "encoding root2", &e);
        else if (!decode(w, &s->root2_t, &r2, out.data, &e))
            failed(w, "root2 encoded", &e);
        else if ((wrong = root2_wrong(&r2)) != NULL)
            failed(w, wrong, NULL);
        jet_buf_free(&out);
        break;
    }
    case JOB_TREE: { /* a nested (and recursive) table used as a root; the DOM reader too */
        if (!decode(w, &s->node_t, &n, tree_json, &e))
            failed(w, "tree", &e);
        else if (!tree_ok(&n))
            failed(w, "tree values", NULL);
        jet_doc *doc = jet_read(root_json, strlen(root_json), NULL, NULL, &e);
        if (!doc) failed(w, "jet_read(root)", &e);
        jet_doc_free(doc);
        break;
    }
    case JOB_BAD:
        for (int k = 0; k < 2; k++) {
            if (decode(w, &s->bad_root_t, &b, bad_root_json, &e))
                failed(w, "the malformed root decoded", NULL);
            else if (e.code != JET_ERR_INVALID_ARG)
                failed(w, "the malformed root failed otherwise", &e);
        }
        if (jet_struct_prepare(&s->bad_root_t) || jet_struct_prepare(&s->cyc_t))
            failed(w, "jet_struct_prepare accepted a malformed table", NULL);
        if (!jet_struct_prepare(&s->leaf_t) || !jet_struct_prepare(&s->wide_t))
            failed(w, "a valid table shared with the malformed root was refused", NULL);
        break;
    default: break;
    }
}

static void *worker_main(void *arg) {
    worker *w = (worker *)arg;
    for (int round = 0; round < rounds; round++) {
        pthread_barrier_wait(&round_start);
        run_job(w, schema);
        pthread_barrier_wait(&round_done);
    }
    return NULL;
}

/* The jobs of a round: all threads on the same root, all preparing it, all
 * on the malformed root, or a mix (roots sharing tables, a nested table
 * used directly, and the malformed root next to good ones sharing its valid
 * tables). */
static enum job job_of(int round, int thread) {
    switch (round % 4) {
    case 0: return JOB_ROOT;
    case 1: return JOB_PREPARE_ROOT;
    case 2: return JOB_BAD;
    default: return (enum job)((round / 4 + thread) % JOB_COUNT);
    }
}

static const char *const job_names[] = {"root", "root2", "tree", "prepare+root", "malformed"};

int main(void) {
    const char *env = getenv("JET_THREAD_ROUNDS");
    rounds = env && atoi(env) > 0 ? atoi(env) : 400;
    make_documents();

    /* the documents decode with tables prepared beforehand, single-threaded */
    {
        worker w = {0};
        w.od = jet_od_new(NULL);
        jet_arena_init(&w.arena, NULL);
        Schema *s = schema_new();
        CHECK(jet_struct_prepare(&s->root_t) && jet_struct_prepare(&s->root2_t));
        CHECK(!jet_struct_prepare(&s->bad_root_t) && !jet_struct_prepare(&s->bad_leaf_t));
        for (int j = 0; j < JOB_COUNT; j++) {
            w.job = (enum job)j;
            w.why[0] = 0;
            run_job(&w, s);
            CHECK_MSG(!w.why[0], "single-threaded %s: %s", job_names[j], w.why);
        }
        free(s);
        /* a failed build leaves the valid tables it passed through usable */
        s = schema_new();
        CHECK(!jet_struct_prepare(&s->bad_root_t));
        CHECK(!jet_struct_prepare(&s->cyc_t) && !jet_struct_prepare(&s->bad_leaf_t));
        w.job = JOB_ROOT;
        w.why[0] = 0;
        run_job(&w, s);
        CHECK_MSG(!w.why[0], "root after a failed build: %s", w.why);
        CHECK(!jet_struct_prepare(&s->bad_root_t)); /* and the malformed stay so */
        free(s);
        jet_od_free(w.od);
        jet_arena_free(&w.arena);
    }

    worker workers[THREADS];
    pthread_t tids[THREADS];
    CHECK(pthread_barrier_init(&round_start, NULL, THREADS + 1) == 0);
    CHECK(pthread_barrier_init(&round_done, NULL, THREADS + 1) == 0);
    for (int i = 0; i < THREADS; i++) {
        memset(&workers[i], 0, sizeof workers[i]);
        workers[i].index = i;
        workers[i].od = jet_od_new(NULL);
        jet_arena_init(&workers[i].arena, NULL);
        CHECK(workers[i].od != NULL);
    }
    for (int i = 0; i < THREADS; i++) CHECK(pthread_create(&tids[i], NULL, worker_main, &workers[i]) == 0);
    unsigned long bad_rounds = 0;
    for (int round = 0; round < rounds; round++) {
        schema = schema_new(); /* fresh tables, never used */
        for (int i = 0; i < THREADS; i++) {
            workers[i].job = job_of(round, i);
            workers[i].why[0] = 0;
        }
        pthread_barrier_wait(&round_start);
        pthread_barrier_wait(&round_done);
        bool round_ok = true;
        for (int i = 0; i < THREADS; i++) {
            CHECK_MSG(!workers[i].why[0], "round %d, thread %d (%s): %s", round, i,
                      job_names[workers[i].job], workers[i].why);
            if (workers[i].why[0]) round_ok = false;
        }
        bad_rounds += !round_ok;
        free(schema);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(tids[i], NULL);
        jet_od_free(workers[i].od);
        jet_arena_free(&workers[i].arena);
    }
    pthread_barrier_destroy(&round_start);
    pthread_barrier_destroy(&round_done);
    if (bad_rounds) fprintf(stderr, "%lu of %d rounds went wrong\n", bad_rounds, rounds);
    return CHECK_DONE("test_bind_threads");
}
