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
#include "simdjson_od.h"

#include <simdjson.h>

#include <cstring>
#include <memory>
#include <new>
#include <string_view>
#include <utility>

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

} // namespace

const char *kernel() { return JB_STR(SIMDJSON_BUILTIN_IMPLEMENTATION); }
void *create() { return od_create(); }
void destroy(void *st) { od_destroy(st); }
void *parse(void *st, const char *json, size_t len) { return od_parse(st, json, len); }
int stats(void *st, void *doc, jb_stats *out) { return od_stats(st, doc, out); }
int validate(void *st, const char *json, size_t len) { return od_validate(st, json, len); }
int decode(void *st, const char *json, size_t len, jb_twitter *t) { return od_decode(st, json, len, t); }

} // namespace JB_OD_NS
