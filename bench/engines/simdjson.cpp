// simdjson.cpp — simdjson adapters: "simdjson-dom" (dom::parser, reused) and
// "simdjson-ondemand" (ondemand::parser, reused, full walk; implemented in
// simdjson_od.cpp, one build per ISA, chosen here at run time).
//
// simdjson needs SIMDJSON_PADDING readable bytes after the input. The harness
// hands every engine an unpadded, immutable buffer, so both adapters copy it
// into a reusable padded buffer *inside the timed region* (one memcpy per
// iteration; the buffer itself is allocated once and only grows).
#include "engine.h"
#include "nostr_sum.h"
#include "schemas.h"

#include <simdjson.h>

#include "simdjson_od.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#define JB_STR_(x) #x
#define JB_STR(x) JB_STR_(x)

namespace dom = simdjson::dom;

namespace {

#include "simdjson_common.hpp" // inside this namespace on purpose

// ---------------------------------------------------------------- DOM ------

struct dom_state {
    dom::parser parser;
    padded_buf buf;
    dom::element root;
    std::string text;
    std::vector<NostrTag> tags; // nostr-full: the tags of the current event
    std::vector<jet_str> strs;
};

void *dom_create() { return new (std::nothrow) dom_state(); }
void dom_destroy(void *st) { delete static_cast<dom_state *>(st); }

void *dom_parse(void *stp, const char *json, size_t len) {
    auto *st = static_cast<dom_state *>(stp);
    const char *p = st->buf.fill(json, len);
    if (!p) return nullptr;
    if (st->parser.parse(p, len, false).get(st->root) != simdjson::SUCCESS) return nullptr;
    return &st->root;
}
void dom_free_doc(void *, void *) {}

void dom_walk(dom::element e, uint64_t depth, jb_stats &s) {
    switch (e.type()) {
    case dom::element_type::ARRAY: {
        s.arrays++;
        bump_depth(s, depth + 1);
        dom::array a;
        if (e.get_array().get(a) == simdjson::SUCCESS)
            for (dom::element c : a) dom_walk(c, depth + 1, s);
        break;
    }
    case dom::element_type::OBJECT: {
        s.objects++;
        bump_depth(s, depth + 1);
        dom::object o;
        if (e.get_object().get(o) == simdjson::SUCCESS)
            for (dom::key_value_pair kv : o) {
                s.keys++;
                s.string_bytes += kv.key.size();
                dom_walk(kv.value, depth + 1, s);
            }
        break;
    }
    case dom::element_type::INT64:
    case dom::element_type::UINT64: s.numbers++; s.integers++; break;
    case dom::element_type::DOUBLE: s.numbers++; s.doubles++; break;
    case dom::element_type::STRING: {
        std::string_view sv;
        if (e.get_string().get(sv) == simdjson::SUCCESS) s.string_bytes += sv.size();
        s.strings++;
        break;
    }
    case dom::element_type::BOOL: {
        bool b = false;
        if (e.get_bool().get(b) == simdjson::SUCCESS) { if (b) s.trues++; else s.falses++; }
        break;
    }
    case dom::element_type::NULL_VALUE: s.nulls++; break;
    }
}

int dom_stats(void *, void *doc, jb_stats *out) {
    jb_stats_zero(out);
    dom_walk(*static_cast<dom::element *>(doc), 0, *out);
    return 0;
}

// ndjson: dom::parser::parse_many over the padded copy (batches of 4 MB, so
// that canada's 2 MB feature fits one).
int dom_ndjson(void *stp, const char *buf, size_t len, jb_stats *out, size_t cap, size_t *n) {
    auto *st = static_cast<dom_state *>(stp);
    *n = 0;
    const char *p = st->buf.fill(buf, len);
    if (!p) return 1;
    dom::document_stream docs;
    if (st->parser.parse_many(p, len, size_t(4) << 20).get(docs) != simdjson::SUCCESS) return 1;
    size_t k = 0;
    for (auto doc : docs) {
        dom::element e;
        if (doc.get(e) != simdjson::SUCCESS) return 1;
        if (out && k < cap) {
            jb_stats_zero(&out[k]);
            dom_walk(e, 0, out[k]);
        }
        k++;
    }
    *n = k;
    return 0;
}

char *dom_serialize(void *stp, void *doc, size_t *out_len) {
    auto *st = static_cast<dom_state *>(stp);
    st->text = simdjson::to_string(*static_cast<dom::element *>(doc));
    if (out_len) *out_len = st->text.size();
    return &st->text[0];
}
void dom_free_text(void *stp, char *) {
    auto *st = static_cast<dom_state *>(stp);
    std::string().swap(st->text); // release, so each call pays its allocation
}

int dom_validate(void *stp, const char *json, size_t len) {
    auto *st = static_cast<dom_state *>(stp);
    const char *p = st->buf.fill(json, len);
    if (!p) return 0;
    dom::element e;
    return st->parser.parse(p, len, false).get(e) == simdjson::SUCCESS;
}

uint64_t dom_u64(dom::element obj, const char *key) {
    int64_t i = 0;
    uint64_t u = 0;
    dom::element v;
    if (obj[key].get(v) != simdjson::SUCCESS) return 0;
    if (v.get_uint64().get(u) == simdjson::SUCCESS) return u;
    if (v.get_int64().get(i) == simdjson::SUCCESS) return static_cast<uint64_t>(i);
    return 0;
}
uint64_t dom_strlen(dom::element obj, const char *key) {
    std::string_view sv;
    return obj[key].get_string().get(sv) == simdjson::SUCCESS ? sv.size() : 0;
}

int dom_decode(void *stp, const char *json, size_t len, jb_twitter *t) {
    auto *st = static_cast<dom_state *>(stp);
    const char *p = st->buf.fill(json, len);
    if (!p) return -1;
    dom::element root;
    if (st->parser.parse(p, len, false).get(root) != simdjson::SUCCESS) return -1;
    dom::array statuses;
    if (root["statuses"].get_array().get(statuses) != simdjson::SUCCESS) return -1;
    for (dom::element s : statuses) {
        t->statuses++;
        t->id_sum += dom_u64(s, "id");
        t->text_bytes += dom_strlen(s, "text");
        t->created_at_bytes += dom_strlen(s, "created_at");
        t->retweet_sum += dom_u64(s, "retweet_count");
        t->favorite_sum += dom_u64(s, "favorite_count");
        dom::element u;
        if (s["user"].get(u) == simdjson::SUCCESS) {
            t->user_id_sum += dom_u64(u, "id");
            t->screen_name_bytes += dom_strlen(u, "screen_name");
            t->name_bytes += dom_strlen(u, "name");
            t->followers_sum += dom_u64(u, "followers_count");
            t->friends_sum += dom_u64(u, "friends_count");
            bool b = false;
            if (u["verified"].get_bool().get(b) == simdjson::SUCCESS && b) t->verified++;
        }
        dom::array tags;
        if (s["entities"]["hashtags"].get_array().get(tags) == simdjson::SUCCESS)
            for (dom::element h : tags) {
                t->hashtags++;
                t->hashtag_bytes += dom_strlen(h, "text");
            }
    }
    return 0;
}

// nostr-*: a DOM parse per message, then lookups; strings are views into the
// parser's string buffer (valid until its next parse).

bool dom_str(dom::element e, jet_str &out) {
    std::string_view sv;
    if (e.get_string().get(sv) != simdjson::SUCCESS) return false;
    out = jet_str{sv.data(), sv.size()};
    return true;
}
template <class R>
bool dom_str(R &&r, jet_str &out) {
    dom::element e;
    return std::forward<R>(r).get(e) == simdjson::SUCCESS && dom_str(e, out);
}

bool dom_event(dom_state *st, dom::element ev, NostrEvent &e) {
    dom::object o;
    dom::array tags;
    uint64_t kind;
    if (ev.get_object().get(o) || !dom_str(o["id"], e.id) || !dom_str(o["pubkey"], e.pubkey) ||
        o["created_at"].get_uint64().get(e.created_at) || o["kind"].get_uint64().get(kind) || kind > UINT32_MAX ||
        !dom_str(o["content"], e.content) || !dom_str(o["sig"], e.sig) || o["tags"].get_array().get(tags))
        return false;
    e.kind = static_cast<uint32_t>(kind);
    st->tags.clear();
    st->strs.clear();
    for (dom::element t : tags) {
        dom::array items;
        if (t.get_array().get(items)) return false;
        NostrTag nt{nullptr, 0};
        for (dom::element item : items) {
            jet_str s;
            if (!dom_str(item, s)) return false;
            st->strs.push_back(s);
            nt.count++;
        }
        st->tags.push_back(nt);
    }
    jb_nostr_link_tags(&e, st->tags.data(), st->tags.size(), st->strs.data());
    return true;
}

bool dom_message(dom_state *st, int variant, dom::element root, jb_nostr *out) {
    dom::array a;
    if (root.get_array().get(a)) return false;
    dom::element el[4];
    size_t n = 0;
    for (dom::element e : a) {
        if (n < 4) el[n] = e;
        n++;
    }
    std::string_view tag;
    if (!n || el[0].get_string().get(tag)) return false;
    out->messages++;
    NostrEnvelope m;
    std::memset(&m, 0, sizeof m);
    if (tag == "EVENT") {
        if (n < 3) return false;
        if (variant == JB_NOSTR_SHORT) {
            NostrShortEvent e;
            dom::object o;
            if (el[2].get_object().get(o) || o["created_at"].get_uint64().get(e.created_at) ||
                !dom_str(o["content"], e.content) || !dom_str(o["pubkey"], e.pubkey))
                return false;
            jb_nostr_add_short(out, &e);
            return true;
        }
        m.type = NOSTR_EVENT;
        if ((variant == JB_NOSTR_ENVELOPE && !dom_str(el[1], m.as.event.sub_id)) ||
            !dom_event(st, el[2], m.as.event.event))
            return false;
        if (variant == JB_NOSTR_FULL) jb_nostr_add_event(out, &m.as.event.event);
        else jb_nostr_add_envelope(out, &m);
        return true;
    }
    if (variant != JB_NOSTR_ENVELOPE) return true;
    if (tag == "EOSE") {
        m.type = NOSTR_EOSE;
        if (n < 2 || !dom_str(el[1], m.as.eose.sub_id)) return false;
    } else if (tag == "OK") {
        m.type = NOSTR_OK; // the message is optional: the corpus's OK has none
        if (n < 3 || !dom_str(el[1], m.as.ok.event_id) || el[2].get_bool().get(m.as.ok.accepted) ||
            (n > 3 && !dom_str(el[3], m.as.ok.message)))
            return false;
    } else if (tag == "NOTICE") {
        m.type = NOSTR_NOTICE;
        if (n < 2 || !dom_str(el[1], m.as.notice.message)) return false;
    } else {
        return false;
    }
    return jb_nostr_add_envelope(out, &m);
}

int dom_nostr(void *stp, int variant, const char *const *lines, const size_t *lens, size_t n, jb_nostr *out) {
    auto *st = static_cast<dom_state *>(stp);
    for (size_t i = 0; i < n; i++) {
        const char *p = st->buf.fill(lines[i], lens[i]);
        dom::element root;
        if (!p || st->parser.parse(p, lens[i], false).get(root) != simdjson::SUCCESS) return -1;
        if (!dom_message(st, variant, root, out)) return -1;
    }
    return 0;
}

// ------------------------------------------------- On-Demand dispatch ------

struct od_ops {
    const char *(*kernel)();
    void *(*create)();
    void (*destroy)(void *);
    void *(*parse)(void *, const char *, size_t);
    int (*stats)(void *, void *, jb_stats *);
    int (*validate)(void *, const char *, size_t);
    int (*decode)(void *, const char *, size_t, jb_twitter *);
    int (*nostr)(void *, int, const char *const *, const size_t *, size_t, jb_nostr *);
    int (*api_read)(void *, const char *, size_t, ApiResponse *);
};

#define JB_OD_OPS(ns) \
    {ns::kernel, ns::create, ns::destroy, ns::parse, ns::stats, ns::validate, ns::decode, ns::nostr, ns::api_read}
const od_ops od_generic = JB_OD_OPS(jb_od_generic);
#ifdef JB_OD_HASWELL
const od_ops od_haswell = JB_OD_OPS(jb_od_haswell);
#endif
#ifdef JB_OD_ICELAKE
const od_ops od_icelake = JB_OD_OPS(jb_od_icelake);
#endif

// The variant matching simdjson's run-time choice for this CPU (under
// valgrind, which hides AVX-512, that is haswell).
const od_ops *od_pick() {
    static const od_ops *pick = nullptr;
    if (pick) return pick;
    std::string name = simdjson::get_active_implementation()->name();
    pick = &od_generic;
#ifdef JB_OD_HASWELL
    if (name == "haswell" || name == "icelake") pick = &od_haswell;
#endif
#ifdef JB_OD_ICELAKE
    if (name == "icelake") pick = &od_icelake;
#endif
    return pick;
}

struct od_box {
    const od_ops *ops;
    void *inner;
};

void *odx_create() {
    auto *b = new (std::nothrow) od_box{od_pick(), nullptr};
    if (!b) return nullptr;
    b->inner = b->ops->create();
    if (!b->inner) { delete b; return nullptr; }
    return b;
}
void odx_destroy(void *st) {
    auto *b = static_cast<od_box *>(st);
    b->ops->destroy(b->inner);
    delete b;
}
void *odx_parse(void *st, const char *json, size_t len) {
    auto *b = static_cast<od_box *>(st);
    return b->ops->parse(b->inner, json, len);
}
void odx_free_doc(void *, void *) {}
int odx_stats(void *st, void *doc, jb_stats *out) {
    auto *b = static_cast<od_box *>(st);
    return b->ops->stats(b->inner, doc, out);
}
int odx_validate(void *st, const char *json, size_t len) {
    auto *b = static_cast<od_box *>(st);
    return b->ops->validate(b->inner, json, len);
}
int odx_decode(void *st, const char *json, size_t len, jb_twitter *t) {
    auto *b = static_cast<od_box *>(st);
    return b->ops->decode(b->inner, json, len, t);
}
int odx_nostr(void *st, int variant, const char *const *lines, const size_t *lens, size_t n, jb_nostr *out) {
    auto *b = static_cast<od_box *>(st);
    return b->ops->nostr(b->inner, variant, lines, lens, n, out);
}
int odx_api_read(void *st, const char *json, size_t len, ApiResponse *out) {
    auto *b = static_cast<od_box *>(st);
    return b->ops->api_read(b->inner, json, len, out);
}

const char *od_family() {
    static std::string f = std::string("simdjson " JB_STR(SIMDJSON_VERSION) " (On-Demand kernel: ") +
                           od_pick()->kernel() + ", DOM: " + simdjson::get_active_implementation()->name() + ")";
    return f.c_str();
}

} // namespace

extern "C" {

extern const jb_engine jb_engine_simdjson_dom;
extern const jb_engine jb_engine_simdjson_ondemand;

const jb_engine jb_engine_simdjson_dom = {
    "simdjson-dom", "simdjson " JB_STR(SIMDJSON_VERSION) " (DOM: run-time dispatch)",
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS | JB_CAP_REFERENCE,
    "reused dom::parser; memcpy into a reused padded buffer inside the timed region",
    "simdjson::to_string(element) into a fresh std::string",
    "dom::parser::parse (builds its tape: no tape-less validator); padded copy timed",
    "DOM parse + element[\"key\"] lookups; padded copy timed",
    dom_create, dom_destroy, dom_parse, dom_free_doc, dom_stats,
    dom_serialize, dom_free_text, dom_validate, dom_decode,
    dom_nostr, nullptr, nullptr,
    "DOM parse per message (padded copy timed), then element[\"key\"] lookups",
    "DOM parse per message (padded copy timed), then lookups; tags into reused vectors",
    "DOM parse per message (padded copy timed), union by its first element",
    nullptr, nullptr,
    nullptr,
    dom_ndjson,
#ifdef SIMDJSON_THREADS_ENABLED
    "dom::parser::parse_many, 4 MB batches (stage 1 of the next batch on a second thread: "
    "SIMDJSON_THREADS_ENABLED); padded copy of the whole input timed"
#else
    "dom::parser::parse_many, 4 MB batches, one thread; padded copy of the whole input timed"
#endif
};

const jb_engine jb_engine_simdjson_ondemand = {
    "simdjson-ondemand", od_family(),
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    "iterate + full walk (every string unescaped, every number converted; the "
    "fingerprint is computed during the walk); padded copy timed",
    nullptr,
    "iterate + structural walk: numbers converted, strings left raw (UTF-8 and "
    "structure checked, escapes not decoded); padded copy timed",
    "iterate + field lookups in document order (untouched fields skipped); padded copy timed",
    odx_create, odx_destroy, odx_parse, odx_free_doc, odx_stats,
    nullptr, nullptr, odx_validate, odx_decode,
    odx_nostr, odx_api_read, nullptr,
    "iterate per message (padded copy timed); EVENT's fields in member order up to pubkey, where it "
    "stops: sig, tags and the closing brackets are never read (jet reads them: strict checks their "
    "grammar, lazy their brackets)",
    "iterate per message (padded copy timed); every event field, tags into reused vectors; stops "
    "after tags (the closing brackets are not read)",
    "iterate per message (padded copy timed); union by its first element; stops after the last "
    "field (the closing brackets are not read)",
    "iterate (padded copy timed) + lookups in member order into ApiResponse; strings: views into the "
    "parser's string buffer (valid until its next iterate); arrays: reused vectors",
    nullptr,
    nullptr,
    nullptr, nullptr /* ndjson */
};

} // extern "C"
