// rapidjson.cpp — RapidJSON adapters:
//   "rapidjson"          Document::Parse<kParseDefaultFlags>(str, len)
//   "rapidjson-fullprec" Document::Parse<kParseFullPrecisionFlag>(str, len)
//   "rapidjson-insitu"   copy into a reused NUL-terminated buffer (timed),
//                        then Document::ParseInsitu on the copy
// Every parse builds a fresh Document (its pool allocator is released with
// it) and the release is timed with the parse.
#include "engine.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/encodedstream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace rj = rapidjson;

namespace {

struct rj_state {
    std::vector<char> insitu;   // reused copy for ParseInsitu
    rj::StringBuffer *text = nullptr;
};

void *rj_create() { return new (std::nothrow) rj_state(); }
void rj_destroy(void *st) {
    auto *s = static_cast<rj_state *>(st);
    delete s->text;
    delete s;
}

template <unsigned Flags>
void *rj_parse(void *, const char *json, size_t len) {
    auto *d = new (std::nothrow) rj::Document();
    if (!d) return nullptr;
    d->Parse<Flags>(json, len);
    if (d->HasParseError()) { delete d; return nullptr; }
    return d;
}

void *rj_parse_insitu(void *stp, const char *json, size_t len) {
    auto *st = static_cast<rj_state *>(stp);
    if (st->insitu.size() < len + 1) st->insitu.resize(len + 1);
    std::memcpy(st->insitu.data(), json, len);
    st->insitu[len] = '\0';
    auto *d = new (std::nothrow) rj::Document();
    if (!d) return nullptr;
    d->ParseInsitu(st->insitu.data());
    // ParseInsitu stops at the NUL: an embedded NUL would hide the rest.
    if (d->HasParseError() || std::memchr(json, '\0', len)) { delete d; return nullptr; }
    return d;
}

void rj_free_doc(void *, void *doc) { delete static_cast<rj::Document *>(doc); }

void walk(const rj::Value &v, uint64_t depth, jb_stats &s) {
    if (v.IsObject()) {
        s.objects++;
        if (depth + 1 > s.max_depth) s.max_depth = depth + 1;
        for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m) {
            s.keys++;
            s.string_bytes += m->name.GetStringLength();
            walk(m->value, depth + 1, s);
        }
    } else if (v.IsArray()) {
        s.arrays++;
        if (depth + 1 > s.max_depth) s.max_depth = depth + 1;
        for (auto e = v.Begin(); e != v.End(); ++e) walk(*e, depth + 1, s);
    } else if (v.IsString()) {
        s.strings++;
        s.string_bytes += v.GetStringLength();
    } else if (v.IsNumber()) {
        s.numbers++;
        if (v.IsDouble()) s.doubles++; else s.integers++;
    } else if (v.IsTrue()) {
        s.trues++;
    } else if (v.IsFalse()) {
        s.falses++;
    } else if (v.IsNull()) {
        s.nulls++;
    }
}

int rj_stats(void *, void *doc, jb_stats *out) {
    jb_stats_zero(out);
    walk(*static_cast<rj::Document *>(doc), 0, *out);
    return 0;
}

char *rj_serialize(void *stp, void *doc, size_t *out_len) {
    auto *st = static_cast<rj_state *>(stp);
    delete st->text;
    st->text = new (std::nothrow) rj::StringBuffer();
    if (!st->text) return nullptr;
    rj::Writer<rj::StringBuffer> w(*st->text);
    if (!static_cast<rj::Document *>(doc)->Accept(w)) return nullptr;
    if (out_len) *out_len = st->text->GetSize();
    return const_cast<char *>(st->text->GetString());
}
void rj_free_text(void *stp, char *) {
    auto *st = static_cast<rj_state *>(stp);
    delete st->text;
    st->text = nullptr;
}

int rj_validate(void *, const char *json, size_t len) {
    rj::MemoryStream ms(json, len);
    rj::EncodedInputStream<rj::UTF8<>, rj::MemoryStream> is(ms);
    rj::Reader reader;
    rj::BaseReaderHandler<> handler;
    return !reader.Parse<rj::kParseValidateEncodingFlag>(is, handler).IsError();
}

uint64_t u64_of(const rj::Value &obj, const char *key) {
    auto m = obj.FindMember(key);
    if (m == obj.MemberEnd()) return 0;
    if (m->value.IsUint64()) return m->value.GetUint64();
    if (m->value.IsInt64()) return static_cast<uint64_t>(m->value.GetInt64());
    return 0;
}
uint64_t strlen_of(const rj::Value &obj, const char *key) {
    auto m = obj.FindMember(key);
    return (m != obj.MemberEnd() && m->value.IsString()) ? m->value.GetStringLength() : 0;
}

int rj_decode(void *, const char *json, size_t len, jb_twitter *t) {
    rj::Document d;
    d.Parse(json, len);
    if (d.HasParseError() || !d.IsObject()) return -1;
    auto st = d.FindMember("statuses");
    if (st == d.MemberEnd() || !st->value.IsArray()) return -1;
    for (const auto &s : st->value.GetArray()) {
        if (!s.IsObject()) return -1;
        t->statuses++;
        t->id_sum += u64_of(s, "id");
        t->text_bytes += strlen_of(s, "text");
        t->created_at_bytes += strlen_of(s, "created_at");
        t->retweet_sum += u64_of(s, "retweet_count");
        t->favorite_sum += u64_of(s, "favorite_count");
        auto u = s.FindMember("user");
        if (u != s.MemberEnd() && u->value.IsObject()) {
            const rj::Value &uv = u->value;
            t->user_id_sum += u64_of(uv, "id");
            t->screen_name_bytes += strlen_of(uv, "screen_name");
            t->name_bytes += strlen_of(uv, "name");
            t->followers_sum += u64_of(uv, "followers_count");
            t->friends_sum += u64_of(uv, "friends_count");
            auto ver = uv.FindMember("verified");
            if (ver != uv.MemberEnd() && ver->value.IsTrue()) t->verified++;
        }
        auto ent = s.FindMember("entities");
        if (ent != s.MemberEnd() && ent->value.IsObject()) {
            auto tags = ent->value.FindMember("hashtags");
            if (tags != ent->value.MemberEnd() && tags->value.IsArray())
                for (const auto &h : tags->value.GetArray()) {
                    t->hashtags++;
                    if (h.IsObject()) t->hashtag_bytes += strlen_of(h, "text");
                }
        }
    }
    return 0;
}

} // namespace

extern "C" {

extern const jb_engine jb_engine_rapidjson;
extern const jb_engine jb_engine_rapidjson_fullprec;
extern const jb_engine jb_engine_rapidjson_insitu;

const jb_engine jb_engine_rapidjson = {
    "rapidjson", "RapidJSON " RAPIDJSON_VERSION_STRING,
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    "fresh Document per parse (Parse(str, len), default flags: fast but not "
    "always correctly rounded doubles) + delete",
    "Writer<StringBuffer> into a fresh StringBuffer",
    "SAX Reader with a no-op handler (kParseValidateEncodingFlag): no DOM",
    "DOM parse + FindMember lookups",
    rj_create, rj_destroy, rj_parse<rj::kParseDefaultFlags>, rj_free_doc, rj_stats,
    rj_serialize, rj_free_text, rj_validate, rj_decode
};

const jb_engine jb_engine_rapidjson_fullprec = {
    "rapidjson-fullprec", "RapidJSON " RAPIDJSON_VERSION_STRING,
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    "fresh Document per parse with kParseFullPrecisionFlag + delete",
    nullptr, nullptr, nullptr,
    rj_create, rj_destroy, rj_parse<rj::kParseFullPrecisionFlag>, rj_free_doc, rj_stats,
    nullptr, nullptr, nullptr, nullptr
};

const jb_engine jb_engine_rapidjson_insitu = {
    "rapidjson-insitu", "RapidJSON " RAPIDJSON_VERSION_STRING,
    JB_CAP_NUM_SPLIT,
    "pays for its own copy: memcpy into a reused NUL-terminated buffer, then "
    "ParseInsitu (default flags) into a fresh Document + delete",
    nullptr, nullptr, nullptr,
    rj_create, rj_destroy, rj_parse_insitu, rj_free_doc, rj_stats,
    nullptr, nullptr, nullptr, nullptr
};

} // extern "C"
