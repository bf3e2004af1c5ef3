/* test_bind_tuple.c — positional structs and array-style unions (nostr's
 * ["EVENT", subid, {event}]): the token-stream paths (tuple_elements,
 * union_array_toks in bind.c) against the general path they stand in for
 * (forced with the jet__bind_tuple_general_only hook). Every input is
 * decoded both ways, strictly and lazily and with other flags, and the two
 * must agree on success, the error's code, offset, message and JSON
 * Pointer, and the decoded value; the inputs are the four nostr message
 * kinds (from the corpus and written here), tuples at the root, in members
 * and in arrays, every truncation of them and mutations of every byte, with
 * a whole index and in small windows.
 * A few expectations are also checked directly. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind_eq.h"
#include "check.h"
#include "internal.h" /* jet__bind_tuple_general_only */
#include "jet.h"
#include "schemas.h"

#define LIT(s) (s), (sizeof(s) - 1)

/* ---- schemas of this test ---------------------------------------------- */

/* [x, y, name?] with the name's presence as an inverted flag (D's
 * Nullable), and a nullable tag list as a fourth optional element */
typedef struct Point {
    int32_t x;
    uint8_t y;
    jet_str name;
    bool name_missing;
    jet_str *tags;
    size_t tag_count;
} Point;
static const jet_field point_str_elem = JET_ELEM(jet_str, JET_K_STR, NULL);
static const jet_field point_fields[] = {
    JET_F_SINT(Point, x, NULL),
    JET_F_UINT(Point, y, NULL),
    JET_FIELD_FULL(Point, name, NULL, NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_PRESENCE_INVERTED,
                   JET_NO_OFFSET, (uint32_t)offsetof(Point, name_missing), NULL),
    JET_FIELD_FULL(Point, tags, NULL, NULL, JET_K_ARRAY, JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE,
                   (uint32_t)offsetof(Point, tag_count), JET_NO_OFFSET, &point_str_elem),
};
static jet_struct point_type = JET_STRUCT_TUPLE(Point, point_fields);

/* [id, weight = 5, label = "none"]: trailing elements with defaults */
typedef struct Weighted {
    int64_t id;
    int64_t weight;
    jet_str label;
} Weighted;
static const jet_field weighted_fields[] = {
    JET_F_SINT(Weighted, id, NULL),
    JET_F_DEFAULT_SINT(Weighted, weight, NULL, 5),
    JET_F_DEFAULT_STR(Weighted, label, NULL, "none"),
};
static jet_struct weighted_type = JET_STRUCT_TUPLE(Weighted, weighted_fields);

/* a tuple in a member and in an array */
typedef struct Shape {
    Point at;
    Point *path;
    size_t path_count;
} Shape;
static const jet_field shape_point_elem = JET_ELEM(Point, JET_K_STRUCT, &point_type);
static const jet_field shape_fields[] = {
    JET_F_STRUCT(Shape, at, "at", point_type),
    JET_F_ARRAY(Shape, path, path_count, "path", shape_point_elem),
};
static jet_struct shape_type = JET_STRUCT(Shape, shape_fields);

/* an array union with a one-byte tag, a variant without elements (PING), one
 * whose fields are all optional (BYE), a nullable string (SAY) and a
 * positional struct as an element (AT) */
typedef struct Say {
    jet_str who;
    jet_str text; /* nullable */
    bool said;
} Say;
static const jet_field say_fields[] = {
    JET_F_STR(Say, who, NULL),
    JET_FIELD_FULL(Say, text, NULL, NULL, JET_K_STR, JET_FIELD_NULLABLE, JET_NO_OFFSET, (uint32_t)offsetof(Say, said),
                   NULL),
};
static jet_struct say_type = JET_STRUCT_TUPLE(Say, say_fields);
typedef struct Bye {
    jet_str why;
    bool why_missing;
} Bye;
static const jet_field bye_fields[] = {
    JET_FIELD_FULL(Bye, why, NULL, NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_PRESENCE_INVERTED,
                   JET_NO_OFFSET, (uint32_t)offsetof(Bye, why_missing), NULL),
};
static jet_struct bye_type = JET_STRUCT_TUPLE(Bye, bye_fields);
typedef struct At {
    jet_str who;
    Point where;
} At;
static const jet_field at_fields[] = {
    JET_F_STR(At, who, NULL),
    JET_F_STRUCT(At, where, NULL, point_type),
};
static jet_struct at_type = JET_STRUCT_TUPLE(At, at_fields);
typedef struct Chat {
    uint8_t kind;
    union {
        Say say;
        Bye bye;
        At at;
    } as;
} Chat;
static const char *const chat_names[] = {"SAY", "PING", "BYE", "AT", ""};
static jet_struct *const chat_variants[] = {&say_type, NULL, &bye_type, &at_type, &bye_type};
static const jet_union chat_union = {JET_UNION_ARRAY | JET_UNION_TAG_U8, NULL, (uint32_t)offsetof(Chat, kind),
                                     (uint32_t)offsetof(Chat, as), 5, chat_names, chat_variants};
typedef struct ChatMsg {
    Chat c;
    bool has_c; /* a presence member on the root's union */
} ChatMsg;
static const jet_field chat_msg_fields[] = {JET_FIELD_FULL(ChatMsg, c, NULL, NULL, JET_K_UNION, 0, JET_NO_OFFSET,
                                                           (uint32_t)offsetof(ChatMsg, has_c), &chat_union)};
static jet_struct chat_msg_type = JET_STRUCT(ChatMsg, chat_msg_fields);
/* the union as a member, not the root */
typedef struct Log {
    Chat *lines;
    size_t line_count;
    Chat last;
} Log;
static const jet_field log_line_elem = JET_ELEM(Chat, JET_K_UNION, &chat_union);
static const jet_field log_fields[] = {
    JET_F_ARRAY(Log, lines, line_count, "lines", log_line_elem),
    JET_F_UNION(Log, last, "last", chat_union),
};
static jet_struct log_type = JET_STRUCT(Log, log_fields);

/* ---- the comparison ----------------------------------------------------- */

typedef struct side {
    jet_od *od;
    jet_arena arena;
    jet_error err;
    bool ok;
    union {
        char bytes[1024];
        uint64_t align_;
        double align_d_;
        void *align_p_;
    } out;
} side;

static side fast_side, general_side;
static size_t compared, failures_shown;

static void run_side(side *s, bool general, jet_struct *t, const char *json, size_t len, jet_read_flags flags,
                     uint32_t max_depth) {
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    o.max_depth = max_depth;
    jet_arena_reset(&s->arena);
    memset(&s->err, 0, sizeof s->err);
    memset(s->out.bytes, 0xA5, sizeof s->out.bytes);
    jet__bind_tuple_general_only(general);
    s->ok = jet_decode(s->od, json, len, t, s->out.bytes, &s->arena, &o, &s->err);
    jet__bind_tuple_general_only(false);
}

static bool same_str(const char *a, const char *b) {
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

/* Decodes json[0..len) (an exact-size copy) both ways; true when they agree. */
static bool agree(jet_struct *t, const char *json, size_t len, jet_read_flags flags, uint32_t max_depth) {
    char *copy = check_dup_exact(json, len);
    run_side(&fast_side, false, t, copy, len, flags, max_depth);
    run_side(&general_side, true, t, copy, len, flags, max_depth);
    const jet_error *a = &fast_side.err, *b = &general_side.err;
    bool same = fast_side.ok == general_side.ok;
    if (same && fast_side.ok)
        same = bind_equal(t, fast_side.out.bytes, general_side.out.bytes);
    else if (same)
        same = a->code == b->code && a->offset == b->offset && a->line == b->line && a->column == b->column &&
               same_str(a->msg, b->msg) && same_str(a->path, b->path);
    compared++;
    if (!same && failures_shown++ < 10)
        fprintf(stderr,
                "disagree (flags %#x, depth %u) on %.*s\n  fast:    %d %s at %zu %s (%s)\n"
                "  general: %d %s at %zu %s (%s)\n",
                (unsigned)flags, (unsigned)max_depth, (int)len, json, fast_side.ok, jet_code_name(a->code),
                a->offset, a->path ? a->path : "-", a->msg ? a->msg : "-", general_side.ok,
                jet_code_name(b->code), b->offset, b->path ? b->path : "-", b->msg ? b->msg : "-");
    free(copy);
    return same;
}

static const jet_read_flags flag_sets[] = {
    JET_READ_NOFLAG,
    JET_READ_LAZY,
    JET_READ_ALLOW_TRAILING_COMMAS,
    JET_READ_STABLE_STRINGS | JET_READ_LAZY,
    JET_READ_REJECT_UNKNOWN | JET_READ_DUPLICATE_LAST,
};
#define NFLAGS (sizeof flag_sets / sizeof flag_sets[0])

/* The text whole, every truncation, every byte replaced by each of a set
 * of bytes that change its meaning, and every byte deleted: all with every
 * flag set (and the whole text also at small depth limits). Returns the
 * number of disagreements. */
static size_t mutate_all(jet_struct *t, const char *json, size_t len) {
    static const char repl[] = "\"[]{},: x1-n\\t0E";
    size_t bad = 0;
    char *m = (char *)check_xmalloc(len + 1);
    for (size_t fi = 0; fi < NFLAGS; fi++) {
        jet_read_flags fl = flag_sets[fi];
        bad += !agree(t, json, len, fl, 0);
        for (uint32_t dl = 1; dl <= 4; dl++) bad += !agree(t, json, len, fl, dl);
        for (size_t k = 0; k < len; k++) bad += !agree(t, json, k, fl, 0);
        for (size_t k = 0; k < len; k++) {
            memcpy(m, json, len);
            for (const char *r = repl; *r; r++) {
                if (json[k] == *r) continue;
                m[k] = *r;
                bad += !agree(t, m, len, fl, 0);
            }
            memcpy(m, json, k);
            memcpy(m + k, json + k + 1, len - k - 1);
            bad += !agree(t, m, len - 1, fl, 0);
        }
    }
    free(m);
    return bad;
}

/* ---- inputs ------------------------------------------------------------- */

static const char *const nostr_written[] = {
    ("[\"EVENT\",\"sub1\",{\"id\":\"ab\",\"pubkey\":\"cd\",\"created_at\":1,\"kind\":1,"
     "\"tags\":[[\"e\",\"x\"],[\"p\"]],\"content\":\"hi\",\"sig\":\"ef\"}]"),
    "[\"EOSE\",\"_\"]",
    "[\"OK\",\"8b1e5a\",true]",
    "[\"OK\",\"8b1e5a\",false,\"blocked: no\"]",
    "[\"NOTICE\",\"HELLO\"]",
    " [ \"NOTICE\" , \"a\\\"b\" ] ",
    "[\"EV\\u0045NT\",\"s\",{\"id\":\"x\"}]",
    "[\"EOSE\",\"s\\u0041\"]",
    "[\"EOSE\",\"_\",]",
    "[\"OK\",\"id\",true,\"m\",1]",
    "[\"OK\",\"id\"]",
    "[\"EOSE\"]",
    "[\"AUTH\",\"x\"]",
    "[]",
    "[\"EVENT\",\"s\",[]]",
    "[\"EOSE\",\"a long subscription id that runs over more than one word of the index, 0123456789\"]",
};

static const char *const chat_written[] = {
    "[\"SAY\",\"ann\",\"hello\"]",
    "[\"SAY\",\"ann\",null]",
    "[\"PING\"]",
    "[\"PING\",1]",
    "[\"BYE\"]",
    "[\"BYE\",\"late\"]",
    "[\"\",\"empty tag\"]",
    "[\"AT\",\"bob\",[1,2,\"home\",[\"a\",\"b\"]]]",
    "[\"AT\",\"bob\",[-5,255]]",
    "[\"AT\",\"bob\",[1,256]]",
    "[\"AT\",\"bob\",[1,2,\"x\",null,5]]",
};

static const char *const point_written[] = {
    "[1,2,\"p\"]", "[1,2]", "[1]", "[]", "[1,2,\"p\",[\"t\"]]", "[1,2,null]", " [ -3 , 7 , \"q\" , null ] ",
};

static const char *const shape_written[] = {
    "{\"at\":[1,2,\"a\"],\"path\":[[1,2],[3,4,\"b\"],[5,6,\"c\",[\"d\"]]]}",
    "{\"path\":[],\"at\":[0,0]}",
};

static const char *const log_written[] = {
    "{\"lines\":[[\"SAY\",\"a\",\"b\"],[\"PING\"],[\"BYE\"],[\"AT\",\"c\",[1,2]]],\"last\":[\"BYE\",\"x\"]}",
};

static void differential(void) {
    size_t bad = 0;
    for (size_t i = 0; i < sizeof nostr_written / sizeof nostr_written[0]; i++)
        bad += mutate_all(&nostr_message_type, nostr_written[i], strlen(nostr_written[i]));
    for (size_t i = 0; i < sizeof chat_written / sizeof chat_written[0]; i++)
        bad += mutate_all(&chat_msg_type, chat_written[i], strlen(chat_written[i]));
    for (size_t i = 0; i < sizeof point_written / sizeof point_written[0]; i++)
        bad += mutate_all(&point_type, point_written[i], strlen(point_written[i]));
    for (size_t i = 0; i < sizeof shape_written / sizeof shape_written[0]; i++)
        bad += mutate_all(&shape_type, shape_written[i], strlen(shape_written[i]));
    for (size_t i = 0; i < sizeof log_written / sizeof log_written[0]; i++)
        bad += mutate_all(&log_type, log_written[i], strlen(log_written[i]));
    CHECK_MSG(bad == 0, "%zu of %zu decodes differ from the general path", bad, compared);
    printf("test_bind_tuple: %zu decodes compared\n", compared);

    /* the corpus: one message of each kind mutated, every line whole */
    char path[1024];
    snprintf(path, sizeof path, "%s/corpora/nostr_relay.ndjson", check_shared_dir());
    size_t len = 0;
    char *nd = check_read_file(path, &len);
    CHECK_MSG(nd != NULL, "cannot read %s (set JET_SHARED_DIR)", path);
    if (!nd) return;
    bool kind_done[4] = {false, false, false, false};
    size_t lines = 0, whole_bad = 0, kinds = 0;
    bad = 0;
    for (char *p = nd, *end = nd + len; p < end;) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n) {
            lines++;
            for (size_t fi = 0; fi < NFLAGS; fi++) whole_bad += !agree(&nostr_message_type, p, n, flag_sets[fi], 0);
            int kind = -1;
            static const char *const heads[4] = {"[\"EVENT\"", "[\"EOSE\"", "[\"OK\"", "[\"NOTICE\""};
            for (int k = 0; k < 4; k++)
                if (n > strlen(heads[k]) && memcmp(p, heads[k], strlen(heads[k])) == 0) kind = k;
            if (kind >= 0 && !kind_done[kind]) {
                kind_done[kind] = true;
                kinds++;
                bad += mutate_all(&nostr_message_type, p, n);
            }
        }
        p += n + 1;
    }
    free(nd);
    CHECK_MSG(lines > 0 && whole_bad == 0, "nostr corpus: %zu of %zu lines differ from the general path", whole_bad,
              lines);
    CHECK_MSG(kinds >= 3 && bad == 0, "nostr corpus: %zu mutated decodes differ (%zu kinds)", bad, kinds);
}

/* ---- direct expectations ------------------------------------------------ */

static bool str_is(jet_str s, const char *want) { return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0; }

static bool dec(jet_struct *t, const char *json, size_t len, jet_read_flags flags) {
    run_side(&fast_side, false, t, json, len, flags, 0);
    return fast_side.ok;
}
static bool err_is(jet_code code, size_t offset, const char *path) {
    const jet_error *e = &fast_side.err;
    bool ok = e->code == code && e->offset == offset && e->path && strcmp(e->path, path) == 0;
    if (!ok)
        fprintf(stderr, "  got %s at %zu, path %s\n", jet_code_name(e->code), e->offset, e->path ? e->path : "-");
    return ok;
}

static void expectations(void) {
    static const char ev[] = "[\"EVENT\",\"sub1\",{\"id\":\"ab\",\"pubkey\":\"cd\",\"created_at\":7,\"kind\":1,"
                             "\"tags\":[[\"e\",\"x\"]],\"content\":\"hi\",\"sig\":\"ef\"}]";
    for (int lazy = 0; lazy < 2; lazy++) {
        jet_read_flags fl = lazy ? JET_READ_LAZY : JET_READ_NOFLAG;
        CHECK(dec(&nostr_message_type, LIT(ev), fl));
        const NostrMessage *m = (const NostrMessage *)(const void *)fast_side.out.bytes;
        CHECK(m->env.type == NOSTR_EVENT && str_is(m->env.as.event.sub_id, "sub1") &&
              m->env.as.event.event.created_at == 7 && m->env.as.event.event.tag_count == 1 &&
              str_is(m->env.as.event.event.sig, "ef"));

        CHECK(dec(&nostr_message_type, LIT("[\"OK\",\"id\",true]"), fl));
        CHECK(m->env.type == NOSTR_OK && m->env.as.ok.accepted && m->env.as.ok.message.ptr == NULL);
        CHECK(!dec(&nostr_message_type, LIT("[\"OK\",\"id\"]"), fl) && err_is(JET_ERR_MISSING_FIELD, 0, "/2"));
        CHECK(!dec(&nostr_message_type, LIT("[\"OK\",\"id\",true,\"m\",1]"), fl) &&
              err_is(JET_ERR_TOO_LONG, 20, "/4"));
        CHECK(!dec(&nostr_message_type, LIT("[\"AUTH\",\"x\"]"), fl) && err_is(JET_ERR_BAD_TAG, 1, "/0"));
        CHECK(!dec(&nostr_message_type, LIT("[\"EOSE\"]"), fl) && err_is(JET_ERR_MISSING_FIELD, 0, "/1"));
        CHECK(!dec(&nostr_message_type, LIT("[]"), fl) && fast_side.err.code == JET_ERR_TYPE);
        CHECK(!dec(&nostr_message_type, LIT("[1]"), fl) && err_is(JET_ERR_TYPE, 1, "/0"));
        CHECK(!dec(&nostr_message_type, LIT("{}"), fl) && err_is(JET_ERR_TYPE, 0, ""));
        CHECK(!dec(&nostr_message_type, LIT("[\"EOSE\",7]"), fl) && err_is(JET_ERR_TYPE, 8, "/1"));
        CHECK(!dec(&nostr_message_type, LIT("[\"EVENT\",\"s\",{\"id\":1}]"), fl) &&
              err_is(JET_ERR_TYPE, 19, "/2/id"));
        CHECK(dec(&nostr_message_type, LIT("[\"EOSE\",\"s\\u0041\"]"), fl));
        CHECK(m->env.type == NOSTR_EOSE && str_is(m->env.as.eose.sub_id, "sA"));

        const Chat *c = &((const ChatMsg *)(const void *)fast_side.out.bytes)->c;
        /* the absent optional field is marked so (inverted: why_missing), as
         * when a longer tuple ends before it */
        CHECK(dec(&chat_msg_type, LIT("[\"BYE\"]"), fl) && c->kind == 2 && c->as.bye.why_missing);
        CHECK(dec(&chat_msg_type, LIT("[\"SAY\",\"a\",\"b\"]"), fl) &&
              ((const ChatMsg *)(const void *)fast_side.out.bytes)->has_c);
        CHECK(dec(&chat_msg_type, LIT("[\"BYE\",\"x\"]"), fl) && c->kind == 2 && !c->as.bye.why_missing &&
              str_is(c->as.bye.why, "x"));
        CHECK(dec(&chat_msg_type, LIT("[\"PING\"]"), fl) && c->kind == 1);
        CHECK(!dec(&chat_msg_type, LIT("[\"PING\",1]"), fl) && err_is(JET_ERR_TOO_LONG, 8, "/1"));
        CHECK(dec(&chat_msg_type, LIT("[\"SAY\",\"a\",null]"), fl) && c->kind == 0 && !c->as.say.said &&
              str_is(c->as.say.who, "a"));
        CHECK(dec(&chat_msg_type, LIT("[\"AT\",\"b\",[1,2]]"), fl) && c->kind == 3 && c->as.at.where.y == 2 &&
              c->as.at.where.name_missing);
        /* trailing elements left out take their defaults, as absent members do */
        const Weighted *wt = (const Weighted *)(const void *)fast_side.out.bytes;
        CHECK(dec(&weighted_type, LIT("[7]"), fl) && wt->id == 7 && wt->weight == 5 && str_is(wt->label, "none"));
        CHECK(dec(&weighted_type, LIT("[7,2]"), fl) && wt->weight == 2 && str_is(wt->label, "none"));
        CHECK(dec(&weighted_type, LIT("[7,2,\"x\"]"), fl) && wt->weight == 2 && str_is(wt->label, "x"));
        CHECK(!dec(&weighted_type, LIT("[]"), fl) && err_is(JET_ERR_MISSING_FIELD, 0, "/0"));
        CHECK(!dec(&chat_msg_type, LIT("[\"AT\",\"b\",[1,256]]"), fl) &&
              err_is(JET_ERR_NUMBER_RANGE, 13, "/2/1"));

        const Point *pt = (const Point *)(const void *)fast_side.out.bytes;
        CHECK(dec(&point_type, LIT("[1,2,\"p\"]"), fl) && pt->x == 1 && pt->y == 2 && !pt->name_missing &&
              str_is(pt->name, "p") && pt->tag_count == 0);
        CHECK(dec(&point_type, LIT("[1,2]"), fl) && pt->name_missing);
        CHECK(!dec(&point_type, LIT("[1]"), fl) && err_is(JET_ERR_MISSING_FIELD, 0, "/1"));
        CHECK(!dec(&point_type, LIT("[]"), fl) && err_is(JET_ERR_MISSING_FIELD, 0, "/0"));
        CHECK(!dec(&point_type, LIT("[1,2,\"p\",null,0]"), fl) && err_is(JET_ERR_TOO_LONG, 14, "/4"));
        const Shape *sh = (const Shape *)(const void *)fast_side.out.bytes;
        CHECK(dec(&shape_type, LIT("{\"at\":[1,2],\"path\":[[3,4,\"b\"],[5,6]]}"), fl) && sh->path_count == 2 &&
              sh->path[0].x == 3 && str_is(sh->path[0].name, "b") && sh->path[1].name_missing);
        CHECK(!dec(&shape_type, LIT("{\"at\":[1,2],\"path\":[[3,4,\"b\"],[5]]}"), fl) &&
              err_is(JET_ERR_MISSING_FIELD, 30, "/path/1/1"));
    }
    /* the depth limit, met by the union's array and by the event */
    jet_read_opts o;
    memset(&o, 0, sizeof o);
    o.max_depth = 1;
    CHECK(jet_decode(fast_side.od, LIT("[\"EOSE\",\"x\"]"), &nostr_message_type, fast_side.out.bytes,
                     &fast_side.arena, &o, &fast_side.err));
    CHECK(!jet_decode(fast_side.od, LIT("[\"EVENT\",\"x\",{}]"), &nostr_message_type, fast_side.out.bytes,
                      &fast_side.arena, &o, &fast_side.err) &&
          fast_side.err.code == JET_ERR_DEPTH_LIMIT);
    o.max_depth = 0;
    CHECK(jet_decode(fast_side.od, LIT("[\"EOSE\",\"x\"]"), &nostr_message_type, fast_side.out.bytes,
                     &fast_side.arena, &o, &fast_side.err));
}

int main(void) {
    fast_side.od = jet_od_new(NULL);
    general_side.od = jet_od_new(NULL);
    jet_arena_init(&fast_side.arena, NULL);
    jet_arena_init(&general_side.arena, NULL);
    CHECK(fast_side.od && general_side.od);
    CHECK(jet_struct_prepare(&nostr_message_type) && jet_struct_prepare(&chat_msg_type) &&
          jet_struct_prepare(&point_type) && jet_struct_prepare(&shape_type) && jet_struct_prepare(&log_type) &&
          jet_struct_prepare(&weighted_type));
    expectations();
    /* one window over the whole input (a direct index), then windows of
     * 2 x 1 and 2 x 4 words (the token streams' windowed paths) */
    static const size_t halves[] = {0, 1, 4};
    for (size_t h = 0; h < sizeof halves / sizeof halves[0]; h++) {
        jet__od_window_set(halves[h]);
        differential();
    }
    jet__od_window_set(0);
    jet_od_free(fast_side.od);
    jet_od_free(general_side.od);
    jet_arena_free(&fast_side.arena);
    jet_arena_free(&general_side.arena);
    return CHECK_DONE("test_bind_tuple");
}
