// simdjson_od.cpp — the simdjson On-Demand adapter's implementation.
//
// On-Demand is compiled into the caller for the *compile-time* target (the
// DOM dispatches at run time inside libsimdjson). bench/CMakeLists.txt
// therefore compiles this file several times, each with its own -march and
// namespace (JB_OD_NS), and simdjson.cpp picks, at run time, the variant that
// matches simdjson's active implementation (icelake, haswell, or the generic
// build). Every variant copies the input into a reusable padded buffer inside
// the timed region.
#include "engine.h"
#include "nostr_sum.h"
#include "schemas.h"
#include "simdjson_od.h"

#include <simdjson.h>

#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <utility>
#include <vector>

#define JB_STR_(x) #x
#define JB_STR(x) JB_STR_(x)

namespace od = simdjson::ondemand;

namespace JB_OD_NS {
namespace {

#include "simdjson_common.hpp" // inside this namespace on purpose

// ----------------------------------------------------------- On-Demand ------

struct od_state {
    od::parser parser;
    padded_buf buf;
    jb_stats stats;
    // Typed decoding: the arrays of the decoded structs, reused (cleared,
    // capacity kept); the pointers are set once an array is complete.
    std::vector<NostrTag> tags;
    std::vector<jet_str> strs;
    std::vector<ApiOrder> orders;
    std::vector<ApiItem> items;
};

void *od_create() { return new (std::nothrow) od_state(); }
void od_destroy(void *st) { delete static_cast<od_state *>(st); }

// Full walk: every value is materialized (strings unescaped, numbers
// converted), which is what a DOM parse does; `skip` leaves strings raw
// (validated for UTF-8 and structure only) for the validate op.
simdjson::error_code od_walk(od::value v, uint64_t depth, jb_stats &s, bool skip) {
    od::json_type t;
    if (auto e = v.type().get(t)) return e;
    switch (t) {
    case od::json_type::array: {
        s.arrays++;
        bump_depth(s, depth + 1);
        od::array a;
        if (auto e = v.get_array().get(a)) return e;
        for (auto child : a) {
            od::value cv;
            if (auto e = child.get(cv)) return e;
            if (auto e = od_walk(cv, depth + 1, s, skip)) return e;
        }
        return simdjson::SUCCESS;
    }
    case od::json_type::object: {
        s.objects++;
        bump_depth(s, depth + 1);
        od::object o;
        if (auto e = v.get_object().get(o)) return e;
        for (auto field : o) {
            od::field f;
            if (auto e = std::move(field).get(f)) return e;
            s.keys++;
            if (!skip) {
                std::string_view k;
                if (auto e = f.unescaped_key().get(k)) return e;
                s.string_bytes += k.size();
            }
            if (auto e = od_walk(f.value(), depth + 1, s, skip)) return e;
        }
        return simdjson::SUCCESS;
    }
    case od::json_type::number: {
        od::number_type nt;
        if (auto e = v.get_number_type().get(nt)) return e;
        s.numbers++;
        if (nt == od::number_type::floating_point_number) {
            double d;
            if (auto e = v.get_double().get(d)) return e;
            s.doubles++;
        } else if (nt == od::number_type::unsigned_integer) {
            uint64_t u;
            if (auto e = v.get_uint64().get(u)) return e;
            s.integers++;
        } else if (nt == od::number_type::signed_integer) {
            int64_t i;
            if (auto e = v.get_int64().get(i)) return e;
            s.integers++;
        } else {
            return simdjson::NUMBER_ERROR; // big_integer: not representable
        }
        return simdjson::SUCCESS;
    }
    case od::json_type::string: {
        s.strings++;
        if (skip) {
            od::raw_json_string r;
            return v.get_raw_json_string().get(r);
        }
        std::string_view sv;
        if (auto e = v.get_string().get(sv)) return e;
        s.string_bytes += sv.size();
        return simdjson::SUCCESS;
    }
    case od::json_type::boolean: {
        bool b;
        if (auto e = v.get_bool().get(b)) return e;
        if (b) s.trues++; else s.falses++;
        return simdjson::SUCCESS;
    }
    case od::json_type::null: {
        bool n;
        if (auto e = v.is_null().get(n)) return e;
        if (!n) return simdjson::N_ATOM_ERROR;
        s.nulls++;
        return simdjson::SUCCESS;
    }
    }
    return simdjson::TAPE_ERROR;
}

// Walks a whole document (scalar roots included) and requires it to end.
bool od_run(od_state *st, const char *json, size_t len, bool skip) {
    const char *p = st->buf.fill(json, len);
    if (!p) return false;
    jb_stats_zero(&st->stats);
    od::document doc;
    if (st->parser.iterate(p, len, len + simdjson::SIMDJSON_PADDING).get(doc)) return false;
    od::json_type t;
    if (doc.type().get(t)) return false;
    if (t == od::json_type::array || t == od::json_type::object) {
        od::value v;
        if (doc.get_value().get(v)) return false;
        if (od_walk(v, 0, st->stats, skip)) return false;
    } else {
        jb_stats &s = st->stats;
        switch (t) {
        case od::json_type::number: {
            double d;
            if (doc.get_double().get(d)) return false;
            od::number_type nt;
            if (doc.get_number_type().get(nt)) return false;
            s.numbers++;
            if (nt == od::number_type::floating_point_number) s.doubles++; else s.integers++;
            break;
        }
        case od::json_type::string: {
            std::string_view sv;
            if (doc.get_string().get(sv)) return false;
            s.strings++;
            s.string_bytes += sv.size();
            break;
        }
        case od::json_type::boolean: {
            bool b;
            if (doc.get_bool().get(b)) return false;
            if (b) s.trues++; else s.falses++;
            break;
        }
        default: {
            bool n;
            if (doc.is_null().get(n) || !n) return false;
            s.nulls++;
        }
        }
    }
    // Trailing content: after the root, the iterator must be at the end.
    const char *loc = nullptr;
    return doc.current_location().get(loc) == simdjson::OUT_OF_BOUNDS;
}

void *od_parse(void *stp, const char *json, size_t len) {
    auto *st = static_cast<od_state *>(stp);
    return od_run(st, json, len, false) ? &st->stats : nullptr;
}
int od_stats(void *, void *doc, jb_stats *out) {
    *out = *static_cast<jb_stats *>(doc);
    return 0;
}
int od_validate(void *stp, const char *json, size_t len) {
    return od_run(static_cast<od_state *>(stp), json, len, true);
}

template <class F>
uint64_t od_u64(F &&field) {
    uint64_t u = 0;
    return field.get_uint64().get(u) == simdjson::SUCCESS ? u : 0;
}
template <class F>
uint64_t od_strlen(F &&field) {
    std::string_view sv;
    return field.get_string().get(sv) == simdjson::SUCCESS ? sv.size() : 0;
}

// Fields are requested in document order (find_field_unordered still finds
// them in any order, at a cost).
int od_decode(void *stp, const char *json, size_t len, jb_twitter *t) {
    auto *st = static_cast<od_state *>(stp);
    const char *p = st->buf.fill(json, len);
    if (!p) return -1;
    od::document doc;
    if (st->parser.iterate(p, len, len + simdjson::SIMDJSON_PADDING).get(doc)) return -1;
    od::array statuses;
    if (doc["statuses"].get_array().get(statuses)) return -1;
    for (auto item : statuses) {
        od::object s;
        if (item.get_object().get(s)) return -1;
        t->statuses++;
        t->created_at_bytes += od_strlen(s["created_at"]);
        t->id_sum += od_u64(s["id"]);
        t->text_bytes += od_strlen(s["text"]);
        od::object u;
        if (s["user"].get_object().get(u) == simdjson::SUCCESS) {
            t->user_id_sum += od_u64(u["id"]);
            t->name_bytes += od_strlen(u["name"]);
            t->screen_name_bytes += od_strlen(u["screen_name"]);
            t->followers_sum += od_u64(u["followers_count"]);
            t->friends_sum += od_u64(u["friends_count"]);
            bool b = false;
            if (u["verified"].get_bool().get(b) == simdjson::SUCCESS && b) t->verified++;
        }
        t->retweet_sum += od_u64(s["retweet_count"]);
        t->favorite_sum += od_u64(s["favorite_count"]);
        od::array tags;
        if (s["entities"]["hashtags"].get_array().get(tags) == simdjson::SUCCESS)
            for (auto h : tags) {
                od::object ho;
                if (h.get_object().get(ho)) return -1;
                t->hashtags++;
                t->hashtag_bytes += od_strlen(ho["text"]);
            }
    }
    return 0;
}

// ------------------------------------------------------ typed decoding ------
//
// Strings are std::string_views into the parser's string buffer, stored as
// jet_str views: valid until the next iterate, like jet's cursor. Fields are
// requested in the corpus's member order (operator[] also finds them in any
// other order, at a cost).

jet_str js(std::string_view sv) { return jet_str{sv.data(), sv.size()}; }

template <class V>
bool od_str(V &&v, jet_str &out) {
    std::string_view sv;
    if (std::forward<V>(v).get_string().get(sv)) return false;
    out = js(sv);
    return true;
}
template <class V>
bool od_i32(V &&v, int32_t &out) {
    int64_t x;
    if (std::forward<V>(v).get_int64().get(x) || x < INT32_MIN || x > INT32_MAX) return false;
    out = static_cast<int32_t>(x);
    return true;
}

// The elements of an array one at a time: 1 a value, 0 the end, -1 an error.
struct elems {
    od::array_iterator it, end;
    bool started = false;
    bool init(od::array &a) { return !a.begin().get(it) && !a.end().get(end); }
    int next(od::value &v) {
        if (started) ++it;
        started = true;
        if (!(it != end)) return 0;
        return (*it).get(v) ? -1 : 1;
    }
};

bool od_short_event(od::value v, NostrShortEvent &e) {
    od::object o;
    return !v.get_object().get(o) && od_str(o["content"], e.content) && !o["created_at"].get_uint64().get(e.created_at) &&
           od_str(o["pubkey"], e.pubkey);
}

bool od_event(od_state *st, od::value v, NostrEvent &e) {
    od::object o;
    uint64_t kind;
    if (v.get_object().get(o) || !od_str(o["content"], e.content) || o["created_at"].get_uint64().get(e.created_at) ||
        !od_str(o["id"], e.id) || o["kind"].get_uint64().get(kind) || kind > UINT32_MAX ||
        !od_str(o["pubkey"], e.pubkey) || !od_str(o["sig"], e.sig))
        return false;
    e.kind = static_cast<uint32_t>(kind);
    od::array tags;
    if (o["tags"].get_array().get(tags)) return false;
    st->tags.clear();
    st->strs.clear();
    for (auto t : tags) {
        od::array items;
        if (t.get_array().get(items)) return false;
        NostrTag nt{nullptr, 0};
        for (auto item : items) {
            jet_str s;
            if (!od_str(item, s)) return false;
            st->strs.push_back(s);
            nt.count++;
        }
        st->tags.push_back(nt);
    }
    jb_nostr_link_tags(&e, st->tags.data(), st->tags.size(), st->strs.data());
    return true;
}

// One message: a tagged union over its first element (nostr-envelope), or
// only EVENT's event recognized (nostr-short/-full).
bool od_message(od_state *st, int variant, od::document &doc, jb_nostr *out) {
    od::array a;
    if (doc.get_array().get(a)) return false;
    elems el;
    od::value v;
    std::string_view tag;
    if (!el.init(a) || el.next(v) != 1 || v.get_string().get(tag)) return false;
    out->messages++;
    if (tag == "EVENT") {
        NostrEnvelope m;
        std::memset(&m, 0, sizeof m);
        m.type = NOSTR_EVENT;
        if (el.next(v) != 1) return false;
        if (variant == JB_NOSTR_ENVELOPE) {
            if (!od_str(v, m.as.event.sub_id)) return false;
        }
        if (el.next(v) != 1) return false;
        if (variant == JB_NOSTR_SHORT) {
            NostrShortEvent e;
            std::memset(&e, 0, sizeof e);
            if (!od_short_event(v, e)) return false;
            jb_nostr_add_short(out, &e);
            return true;
        }
        if (!od_event(st, v, m.as.event.event)) return false;
        if (variant == JB_NOSTR_FULL) jb_nostr_add_event(out, &m.as.event.event);
        else jb_nostr_add_envelope(out, &m);
        return true;
    }
    if (variant != JB_NOSTR_ENVELOPE) return true;
    NostrEnvelope m;
    std::memset(&m, 0, sizeof m);
    if (tag == "EOSE") {
        m.type = NOSTR_EOSE;
        if (el.next(v) != 1 || !od_str(v, m.as.eose.sub_id)) return false;
    } else if (tag == "OK") {
        m.type = NOSTR_OK; // the message is optional: the corpus's OK has none
        if (el.next(v) != 1 || !od_str(v, m.as.ok.event_id) || el.next(v) != 1 || v.get_bool().get(m.as.ok.accepted))
            return false;
        int more = el.next(v);
        if (more < 0 || (more && !od_str(v, m.as.ok.message))) return false;
    } else if (tag == "NOTICE") {
        m.type = NOSTR_NOTICE;
        if (el.next(v) != 1 || !od_str(v, m.as.notice.message)) return false;
    } else {
        return false;
    }
    return jb_nostr_add_envelope(out, &m);
}

int od_nostr(void *stp, int variant, const char *const *lines, const size_t *lens, size_t n, jb_nostr *out) {
    auto *st = static_cast<od_state *>(stp);
    for (size_t i = 0; i < n; i++) {
        const char *p = st->buf.fill(lines[i], lens[i]);
        if (!p) return -1;
        od::document doc;
        if (st->parser.iterate(p, lens[i], lens[i] + simdjson::SIMDJSON_PADDING).get(doc)) return -1;
        if (!od_message(st, variant, doc, out)) return -1;
    }
    return 0;
}

// An Option[String]: absent or null is None.
bool od_opt_str(od::object &o, const char *key, bool &has, jet_str &out) {
    has = false;
    od::value v;
    auto f = o[key];
    if (f.error() == simdjson::NO_SUCH_FIELD) return true;
    if (f.get(v)) return false;
    bool null = false;
    if (v.is_null().get(null)) return false;
    if (null) return true;
    return has = od_str(v, out);
}

bool od_user(od_state *st, od::object u, ApiUser &us) {
    od::object ad;
    od::array tags;
    if (u["id"].get_int64().get(us.id) || !od_str(u["name"], us.name) || !od_str(u["email"], us.email) ||
        !od_i32(u["age"], us.age) || u["active"].get_bool().get(us.active) || u["address"].get_object().get(ad) ||
        !od_str(ad["street"], us.address.street) || !od_str(ad["city"], us.address.city) ||
        !od_str(ad["state"], us.address.state) || !od_str(ad["zip"], us.address.zip) ||
        !od_str(ad["country"], us.address.country) || u["tags"].get_array().get(tags))
        return false;
    st->strs.clear();
    for (auto t : tags) {
        jet_str s;
        if (!od_str(t, s)) return false;
        st->strs.push_back(s);
    }
    us.tags = st->strs.data();
    us.tag_count = st->strs.size();
    return od_opt_str(u, "phone", us.has_phone, us.phone) && od_opt_str(u, "bio", us.has_bio, us.bio);
}

// circe's external encoding: {"Shipped": {...}}.
bool od_status(od::object so, ApiStatus &s) {
    int n = 0;
    for (auto field : so) {
        od::field f;
        std::string_view k;
        od::object v;
        if (std::move(field).get(f) || f.unescaped_key().get(k) || f.value().get_object().get(v) || n++) return false;
        if (k == "Delivered") {
            s.tag = API_DELIVERED;
            if (v["deliveredAt"].get_int64().get(s.as.delivered.deliveredAt)) return false;
        } else if (k == "Shipped") {
            s.tag = API_SHIPPED;
            if (!od_str(v["trackingNumber"], s.as.shipped.trackingNumber) || !od_str(v["carrier"], s.as.shipped.carrier))
                return false;
        } else if (k == "Processing") {
            s.tag = API_PROCESSING;
            if (!od_i32(v["estimatedDays"], s.as.processing.estimatedDays)) return false;
        } else {
            return false;
        }
    }
    return n == 1;
}

int od_api_read(void *stp, const char *json, size_t len, ApiResponse *r) {
    auto *st = static_cast<od_state *>(stp);
    std::memset(r, 0, sizeof *r);
    const char *p = st->buf.fill(json, len);
    if (!p) return -1;
    od::document doc;
    od::object root, u;
    od::array orders;
    if (st->parser.iterate(p, len, len + simdjson::SIMDJSON_PADDING).get(doc) || doc.get_object().get(root) ||
        root["user"].get_object().get(u) || !od_user(st, u, r->user) || root["orders"].get_array().get(orders))
        return -1;
    st->orders.clear();
    st->items.clear();
    for (auto ov : orders) {
        od::object o, so;
        od::array items;
        ApiOrder ord;
        std::memset(&ord, 0, sizeof ord);
        if (ov.get_object().get(o) || o["id"].get_int64().get(ord.id) || o["items"].get_array().get(items)) return -1;
        for (auto iv : items) {
            od::object io;
            ApiItem item;
            if (iv.get_object().get(io) || !od_str(io["sku"], item.sku) || !od_str(io["name"], item.name) ||
                !od_i32(io["quantity"], item.quantity) || io["price"].get_double().get(item.price))
                return -1;
            st->items.push_back(item);
            ord.item_count++;
        }
        if (o["status"].get_object().get(so) || !od_status(so, ord.status)) return -1;
        st->orders.push_back(ord);
    }
    size_t off = 0;
    for (ApiOrder &o : st->orders) {
        o.items = st->items.data() + off;
        off += o.item_count;
    }
    r->orders = st->orders.data();
    r->order_count = st->orders.size();
    return od_str(root["requestId"], r->requestId) && !root["timestamp"].get_int64().get(r->timestamp) ? 0 : -1;
}

} // namespace

const char *kernel() { return JB_STR(SIMDJSON_BUILTIN_IMPLEMENTATION); }
void *create() { return od_create(); }
void destroy(void *st) { od_destroy(st); }
void *parse(void *st, const char *json, size_t len) { return od_parse(st, json, len); }
int stats(void *st, void *doc, jb_stats *out) { return od_stats(st, doc, out); }
int validate(void *st, const char *json, size_t len) { return od_validate(st, json, len); }
int decode(void *st, const char *json, size_t len, jb_twitter *t) { return od_decode(st, json, len, t); }
int nostr(void *st, int variant, const char *const *lines, const size_t *lens, size_t n, jb_nostr *out) {
    return od_nostr(st, variant, lines, lens, n, out);
}
int api_read(void *st, const char *json, size_t len, ApiResponse *out) { return od_api_read(st, json, len, out); }

} // namespace JB_OD_NS
