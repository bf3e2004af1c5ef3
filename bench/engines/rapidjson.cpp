// rapidjson.cpp — RapidJSON adapters:
//   "rapidjson"          Document::Parse<kParseDefaultFlags>(str, len)
//   "rapidjson-fullprec" Document::Parse<kParseFullPrecisionFlag>(str, len)
//   "rapidjson-insitu"   copy into a reused NUL-terminated buffer (timed),
//                        then Document::ParseInsitu on the copy
// Every parse builds a fresh Document (its pool allocator is released with
// it) and the release is timed with the parse.
#include "engine.h"
#include "nostr_sum.h"
#include "schemas.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/encodedstream.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

namespace rj = rapidjson;

namespace {

// Copies of strings, in chunks that never move (jet_str views stay valid
// until reset()); reset keeps the newest chunk, the largest.
struct str_pool {
    std::vector<std::unique_ptr<char[]>> old;
    std::unique_ptr<char[]> cur;
    size_t used = 0, cap = 0;
    const char *copy(const char *s, size_t n) {
        if (n > cap - used) {
            size_t want = std::max<size_t>(std::max<size_t>(cap * 2, 4096), n);
            std::unique_ptr<char[]> c(new (std::nothrow) char[want]);
            if (!c) return nullptr;
            if (cur) old.push_back(std::move(cur));
            cur = std::move(c);
            cap = want;
            used = 0;
        }
        char *p = cur.get() + used;
        if (n) std::memcpy(p, s, n);
        used += n;
        return p;
    }
    void reset() {
        old.clear();
        used = 0;
    }
};

struct rj_state {
    std::vector<char> insitu;   // reused copy for ParseInsitu
    rj::StringBuffer *text = nullptr;
    // typed decoding: the decoded structs' arrays (reused, capacity kept)
    // and api-read's string copies
    std::vector<NostrTag> tags;
    std::vector<jet_str> strs;
    std::vector<ApiOrder> orders;
    std::vector<ApiItem> items;
    str_pool pool;
    // api-write: the output and a writer reused across calls
    rj::StringBuffer api_out;
    rj::Writer<rj::StringBuffer> api_w{api_out};
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

// ----------------------------------------------------- nostr (DOM) ---------
//
// A fresh Document per message (as the parse op), then FindMember lookups;
// strings are views into the Document, counted before it goes.

bool rj_str(const rj::Value &v, jet_str &out) {
    if (!v.IsString()) return false;
    out = jet_str{v.GetString(), v.GetStringLength()};
    return true;
}
const rj::Value *member(const rj::Value &o, const char *key) {
    auto m = o.FindMember(key);
    return m == o.MemberEnd() ? nullptr : &m->value;
}
bool rj_str(const rj::Value *v, jet_str &out) { return v && rj_str(*v, out); }
bool rj_u64(const rj::Value *v, uint64_t &out) {
    if (!v || !v->IsUint64()) return false;
    out = v->GetUint64();
    return true;
}

bool rj_event(rj_state *st, const rj::Value &o, NostrEvent &e) {
    uint64_t kind;
    const rj::Value *tags;
    if (!o.IsObject() || !rj_str(member(o, "id"), e.id) || !rj_str(member(o, "pubkey"), e.pubkey) ||
        !rj_u64(member(o, "created_at"), e.created_at) || !rj_u64(member(o, "kind"), kind) || kind > UINT32_MAX ||
        !rj_str(member(o, "content"), e.content) || !rj_str(member(o, "sig"), e.sig) ||
        !(tags = member(o, "tags")) || !tags->IsArray())
        return false;
    e.kind = static_cast<uint32_t>(kind);
    st->tags.clear();
    st->strs.clear();
    for (const auto &t : tags->GetArray()) {
        if (!t.IsArray()) return false;
        NostrTag nt{nullptr, 0};
        for (const auto &item : t.GetArray()) {
            jet_str s;
            if (!rj_str(item, s)) return false;
            st->strs.push_back(s);
            nt.count++;
        }
        st->tags.push_back(nt);
    }
    jb_nostr_link_tags(&e, st->tags.data(), st->tags.size(), st->strs.data());
    return true;
}

bool rj_message(rj_state *st, int variant, const rj::Value &a, jb_nostr *out) {
    if (!a.IsArray() || a.Empty() || !a[0].IsString()) return false;
    out->messages++;
    const rj::SizeType n = a.Size();
    const char *tag = a[0].GetString();
    NostrEnvelope m;
    std::memset(&m, 0, sizeof m);
    if (!std::strcmp(tag, "EVENT")) {
        if (n < 3) return false;
        if (variant == JB_NOSTR_SHORT) {
            NostrShortEvent e;
            const rj::Value &o = a[2];
            if (!o.IsObject() || !rj_u64(member(o, "created_at"), e.created_at) ||
                !rj_str(member(o, "content"), e.content) || !rj_str(member(o, "pubkey"), e.pubkey))
                return false;
            jb_nostr_add_short(out, &e);
            return true;
        }
        m.type = NOSTR_EVENT;
        if ((variant == JB_NOSTR_ENVELOPE && !rj_str(a[1], m.as.event.sub_id)) || !rj_event(st, a[2], m.as.event.event))
            return false;
        if (variant == JB_NOSTR_FULL) jb_nostr_add_event(out, &m.as.event.event);
        else jb_nostr_add_envelope(out, &m);
        return true;
    }
    if (variant != JB_NOSTR_ENVELOPE) return true;
    if (!std::strcmp(tag, "EOSE")) {
        m.type = NOSTR_EOSE;
        if (n < 2 || !rj_str(a[1], m.as.eose.sub_id)) return false;
    } else if (!std::strcmp(tag, "OK")) {
        m.type = NOSTR_OK; // the message is optional: the corpus's OK has none
        if (n < 3 || !rj_str(a[1], m.as.ok.event_id) || !a[2].IsBool() || (n > 3 && !rj_str(a[3], m.as.ok.message)))
            return false;
        m.as.ok.accepted = a[2].GetBool();
    } else if (!std::strcmp(tag, "NOTICE")) {
        m.type = NOSTR_NOTICE;
        if (n < 2 || !rj_str(a[1], m.as.notice.message)) return false;
    } else {
        return false;
    }
    return jb_nostr_add_envelope(out, &m);
}

int rj_nostr(void *stp, int variant, const char *const *lines, const size_t *lens, size_t n, jb_nostr *out) {
    auto *st = static_cast<rj_state *>(stp);
    for (size_t i = 0; i < n; i++) {
        rj::Document d;
        d.Parse(lines[i], lens[i]);
        if (d.HasParseError() || !rj_message(st, variant, d, out)) return -1;
    }
    return 0;
}

// ------------------------------------------------- api-read (SAX) ----------
//
// A handler state machine over the Reader's events fills the ApiResponse:
// a stack of contexts (which object or array we are in) and the field the
// last key named. Strings are copied into the state's pool (the Reader's
// buffer is gone after each callback); arrays go to reused vectors, their
// pointers set at the end. Required members are checked per object; unknown
// members are skipped.

struct api_sax : rj::BaseReaderHandler<rj::UTF8<>, api_sax> {
    enum ctx_t { ROOT, USER, ADDRESS, TAGS, ORDERS, ORDER, ITEMS, ITEM, STATUS, DELIVERED, SHIPPED, PROCESSING, SKIP };
    struct frame {
        ctx_t ctx;
        unsigned seen;
    };
    rj_state *st;
    ApiResponse *r;
    frame stack[16];
    int top = -1;
    int key = -1; // the field the last key named in the innermost object; -1 unknown

    api_sax(rj_state *s, ApiResponse *out) : st(s), r(out) {}

    static int lookup(const char *k, rj::SizeType n, const char *const *names, int count) {
        for (int i = 0; i < count; i++)
            if (std::strlen(names[i]) == n && !std::memcmp(names[i], k, n)) return i;
        return -1;
    }
    static unsigned required(ctx_t c) {
        switch (c) {
        case ROOT: return 0xf;      // user, orders, requestId, timestamp
        case USER: return 0x7f;     // id .. tags (phone, bio optional)
        case ADDRESS: return 0x1f;
        case ORDER: return 0x7;
        case ITEM: return 0xf;
        case DELIVERED: return 0x1;
        case SHIPPED: return 0x3;
        case PROCESSING: return 0x1;
        default: return 0;
        }
    }
    bool push(ctx_t c) {
        if (top + 1 >= 16) return false;
        stack[++top] = frame{c, 0};
        key = -1;
        return true;
    }
    ctx_t cur() const { return top >= 0 ? stack[top].ctx : SKIP; }
    ApiOrder &order() { return st->orders.back(); }
    ApiItem &item() { return st->items.back(); }

    bool Key(const char *k, rj::SizeType n, bool) {
        static const char *const root[] = {"user", "orders", "requestId", "timestamp"};
        static const char *const user[] = {"id", "name", "email", "age", "active", "address", "tags", "phone", "bio"};
        static const char *const address[] = {"street", "city", "state", "zip", "country"};
        static const char *const order[] = {"id", "items", "status"};
        static const char *const item[] = {"sku", "name", "quantity", "price"};
        static const char *const status[] = {"Delivered", "Shipped", "Processing"};
        static const char *const delivered[] = {"deliveredAt"};
        static const char *const shipped[] = {"trackingNumber", "carrier"};
        static const char *const processing[] = {"estimatedDays"};
        switch (cur()) {
        case ROOT: key = lookup(k, n, root, 4); break;
        case USER: key = lookup(k, n, user, 9); break;
        case ADDRESS: key = lookup(k, n, address, 5); break;
        case ORDER: key = lookup(k, n, order, 3); break;
        case ITEM: key = lookup(k, n, item, 4); break;
        case STATUS:
            key = lookup(k, n, status, 3);
            if (key < 0) return false; // not a declared variant
            break;
        case DELIVERED: key = lookup(k, n, delivered, 1); break;
        case SHIPPED: key = lookup(k, n, shipped, 2); break;
        case PROCESSING: key = lookup(k, n, processing, 1); break;
        default: key = -1; break;
        }
        if (key >= 0) stack[top].seen |= 1u << key;
        return true;
    }

    bool StartObject() {
        if (top < 0) return push(ROOT);
        ctx_t c = cur();
        if (c == SKIP || (key < 0 && c != ORDERS && c != ITEMS && c != TAGS)) return push(SKIP);
        switch (c) {
        case ROOT: return key == 0 && push(USER);
        case USER: return key == 5 && push(ADDRESS);
        case ORDERS: {
            ApiOrder o;
            std::memset(&o, 0, sizeof o);
            st->orders.push_back(o);
            return push(ORDER);
        }
        case ORDER: return key == 2 && push(STATUS);
        case ITEMS: {
            ApiItem i;
            std::memset(&i, 0, sizeof i);
            st->items.push_back(i);
            order().item_count++;
            return push(ITEM);
        }
        case STATUS:
            if (stack[top].seen & (stack[top].seen - 1)) return false; // a second variant
            order().status.tag = key;
            return push(key == 0 ? DELIVERED : key == 1 ? SHIPPED : PROCESSING);
        default: return false;
        }
    }
    bool EndObject(rj::SizeType) {
        if (top < 0) return false;
        frame f = stack[top--];
        key = -1;
        if (f.ctx == STATUS) return f.seen && !(f.seen & (f.seen - 1)); // exactly one variant
        return (f.seen & required(f.ctx)) == required(f.ctx);
    }
    bool StartArray() {
        if (top < 0) return false;
        ctx_t c = cur();
        if (c == SKIP || (key < 0 && c != ORDERS && c != ITEMS && c != TAGS)) return push(SKIP);
        if (c == ROOT && key == 1) return push(ORDERS);
        if (c == USER && key == 6) return push(TAGS);
        if (c == ORDER && key == 1) return push(ITEMS);
        return false;
    }
    bool EndArray(rj::SizeType) {
        if (top < 0) return false;
        top--;
        key = -1;
        return true;
    }

    // A scalar where the context does not take one: fine for an unknown
    // member or inside a skipped value, an error otherwise.
    bool other() const { return cur() == SKIP || (key < 0 && cur() != TAGS && cur() != ORDERS && cur() != ITEMS); }

    bool String(const char *s, rj::SizeType n, bool) {
        if (other()) return true;
        const char *p = st->pool.copy(s, n);
        if (!p) return false;
        jet_str v{p, n};
        switch (cur()) {
        case ROOT: if (key != 2) return false; r->requestId = v; return true;
        case USER:
            switch (key) {
            case 1: r->user.name = v; return true;
            case 2: r->user.email = v; return true;
            case 7: r->user.phone = v; r->user.has_phone = true; return true;
            case 8: r->user.bio = v; r->user.has_bio = true; return true;
            default: return false;
            }
        case ADDRESS: {
            jet_str *a[] = {&r->user.address.street, &r->user.address.city, &r->user.address.state,
                            &r->user.address.zip, &r->user.address.country};
            *a[key] = v;
            return true;
        }
        case TAGS: st->strs.push_back(v); return true;
        case ITEM:
            if (key == 0) item().sku = v;
            else if (key == 1) item().name = v;
            else return false;
            return true;
        case SHIPPED:
            if (key == 0) order().status.as.shipped.trackingNumber = v;
            else order().status.as.shipped.carrier = v;
            return true;
        default: return false;
        }
    }
    bool integer(int64_t v, bool fits) {
        if (other()) return true;
        if (!fits) return false;
        if (cur() == ITEM && key == 3) { // a price without a fraction
            item().price = static_cast<double>(v);
            return true;
        }
        bool i32 = v >= INT32_MIN && v <= INT32_MAX;
        switch (cur()) {
        case ROOT: if (key != 3) return false; r->timestamp = v; return true;
        case USER:
            if (key == 0) r->user.id = v;
            else if (key == 3 && i32) r->user.age = static_cast<int32_t>(v);
            else return false;
            return true;
        case ORDER: if (key != 0) return false; order().id = v; return true;
        case ITEM: if (key != 2 || !i32) return false; item().quantity = static_cast<int32_t>(v); return true;
        case DELIVERED: order().status.as.delivered.deliveredAt = v; return true;
        case PROCESSING: if (!i32) return false; order().status.as.processing.estimatedDays = static_cast<int32_t>(v); return true;
        default: return false;
        }
    }
    bool Int(int v) { return integer(v, true); }
    bool Uint(unsigned v) { return integer(v, true); }
    bool Int64(int64_t v) { return integer(v, true); }
    bool Uint64(uint64_t v) { return integer(static_cast<int64_t>(v), v <= static_cast<uint64_t>(INT64_MAX)); }
    bool Double(double d) {
        if (other()) return true;
        if (cur() != ITEM || key != 3) return false;
        item().price = d;
        return true;
    }
    bool Bool(bool b) {
        if (other()) return true;
        if (cur() != USER || key != 4) return false;
        r->user.active = b;
        return true;
    }
    bool Null() {
        if (other()) return true;
        return cur() == USER && (key == 7 || key == 8); // Option[String]: None
    }
};

int rj_api_read(void *stp, const char *json, size_t len, ApiResponse *r) {
    auto *st = static_cast<rj_state *>(stp);
    std::memset(r, 0, sizeof *r);
    st->pool.reset();
    st->strs.clear();
    st->orders.clear();
    st->items.clear();
    api_sax h(st, r);
    rj::MemoryStream ms(json, len);
    rj::EncodedInputStream<rj::UTF8<>, rj::MemoryStream> is(ms);
    rj::Reader reader;
    if (reader.Parse<rj::kParseDefaultFlags>(is, h).IsError()) return -1;
    size_t off = 0;
    for (ApiOrder &o : st->orders) {
        o.items = st->items.data() + off;
        off += o.item_count;
    }
    r->orders = st->orders.data();
    r->order_count = st->orders.size();
    r->user.tags = st->strs.data();
    r->user.tag_count = st->strs.size();
    return 0;
}

// ------------------------------------------------ api-write (Writer) -------
//
// The struct written field by field in declared order with a Writer reused
// across calls (Reset) into a reused StringBuffer (Clear); None as null.

#define RJ_KEY(w, k) (w).Key(k, static_cast<rj::SizeType>(sizeof(k) - 1))

void rj_jstr(rj::Writer<rj::StringBuffer> &w, jet_str s) { w.String(s.ptr ? s.ptr : "", static_cast<rj::SizeType>(s.len)); }

const char *rj_api_write(void *stp, const ApiResponse *r, size_t *out_len) {
    auto *st = static_cast<rj_state *>(stp);
    st->api_out.Clear();
    rj::Writer<rj::StringBuffer> &w = st->api_w;
    w.Reset(st->api_out);
    const ApiUser &u = r->user;
    w.StartObject();
    RJ_KEY(w, "user");
    w.StartObject();
    RJ_KEY(w, "id"); w.Int64(u.id);
    RJ_KEY(w, "name"); rj_jstr(w, u.name);
    RJ_KEY(w, "email"); rj_jstr(w, u.email);
    RJ_KEY(w, "age"); w.Int(u.age);
    RJ_KEY(w, "active"); w.Bool(u.active);
    RJ_KEY(w, "address");
    w.StartObject();
    RJ_KEY(w, "street"); rj_jstr(w, u.address.street);
    RJ_KEY(w, "city"); rj_jstr(w, u.address.city);
    RJ_KEY(w, "state"); rj_jstr(w, u.address.state);
    RJ_KEY(w, "zip"); rj_jstr(w, u.address.zip);
    RJ_KEY(w, "country"); rj_jstr(w, u.address.country);
    w.EndObject();
    RJ_KEY(w, "tags");
    w.StartArray();
    for (size_t i = 0; i < u.tag_count; i++) rj_jstr(w, u.tags[i]);
    w.EndArray();
    RJ_KEY(w, "phone");
    if (u.has_phone) rj_jstr(w, u.phone); else w.Null();
    RJ_KEY(w, "bio");
    if (u.has_bio) rj_jstr(w, u.bio); else w.Null();
    w.EndObject();
    RJ_KEY(w, "orders");
    w.StartArray();
    for (size_t k = 0; k < r->order_count; k++) {
        const ApiOrder &o = r->orders[k];
        w.StartObject();
        RJ_KEY(w, "id"); w.Int64(o.id);
        RJ_KEY(w, "items");
        w.StartArray();
        for (size_t i = 0; i < o.item_count; i++) {
            const ApiItem &it = o.items[i];
            w.StartObject();
            RJ_KEY(w, "sku"); rj_jstr(w, it.sku);
            RJ_KEY(w, "name"); rj_jstr(w, it.name);
            RJ_KEY(w, "quantity"); w.Int(it.quantity);
            RJ_KEY(w, "price");
            if (!w.Double(it.price)) return nullptr; // NaN or infinity
            w.EndObject();
        }
        w.EndArray();
        RJ_KEY(w, "status");
        w.StartObject();
        switch (o.status.tag) {
        case API_DELIVERED:
            RJ_KEY(w, "Delivered");
            w.StartObject();
            RJ_KEY(w, "deliveredAt"); w.Int64(o.status.as.delivered.deliveredAt);
            break;
        case API_SHIPPED:
            RJ_KEY(w, "Shipped");
            w.StartObject();
            RJ_KEY(w, "trackingNumber"); rj_jstr(w, o.status.as.shipped.trackingNumber);
            RJ_KEY(w, "carrier"); rj_jstr(w, o.status.as.shipped.carrier);
            break;
        case API_PROCESSING:
            RJ_KEY(w, "Processing");
            w.StartObject();
            RJ_KEY(w, "estimatedDays"); w.Int(o.status.as.processing.estimatedDays);
            break;
        default: return nullptr;
        }
        w.EndObject();
        w.EndObject();
        w.EndObject();
    }
    w.EndArray();
    RJ_KEY(w, "requestId"); rj_jstr(w, r->requestId);
    RJ_KEY(w, "timestamp"); w.Int64(r->timestamp);
    w.EndObject();
    if (!w.IsComplete()) return nullptr;
    *out_len = st->api_out.GetSize();
    return st->api_out.GetString();
}

// ---- build and patch ----

rj::Value rj_rebuild(const rj::Value &v, rj::Document::AllocatorType &a) {
    if (v.IsObject()) {
        rj::Value o(rj::kObjectType);
        for (auto m = v.MemberBegin(); m != v.MemberEnd(); ++m)
            o.AddMember(rj::Value(m->name.GetString(), m->name.GetStringLength(), a), rj_rebuild(m->value, a), a);
        return o;
    }
    if (v.IsArray()) {
        rj::Value arr(rj::kArrayType);
        for (auto e = v.Begin(); e != v.End(); ++e) arr.PushBack(rj_rebuild(*e, a), a);
        return arr;
    }
    if (v.IsString()) return rj::Value(v.GetString(), v.GetStringLength(), a);
    if (v.IsUint64()) return rj::Value(v.GetUint64());
    if (v.IsInt64()) return rj::Value(v.GetInt64());
    if (v.IsDouble()) return rj::Value(v.GetDouble());
    if (v.IsBool()) return rj::Value(v.GetBool());
    return rj::Value();
}

char *rj_write(rj_state *st, const rj::Value &v, size_t *out_len) {
    delete st->text;
    st->text = new (std::nothrow) rj::StringBuffer();
    if (!st->text) return nullptr;
    rj::Writer<rj::StringBuffer> w(*st->text);
    if (!v.Accept(w)) return nullptr;
    if (out_len) *out_len = st->text->GetSize();
    return const_cast<char *>(st->text->GetString());
}

char *rj_build(void *stp, void *doc, size_t *out_len) {
    rj::Document b;
    static_cast<rj::Value &>(b) = rj_rebuild(*static_cast<rj::Document *>(doc), b.GetAllocator());
    return rj_write(static_cast<rj_state *>(stp), b, out_len);
}

rj::Value rj_value(const jb_patch_op &op, rj::Document::AllocatorType &a) {
    if (op.vkind == JB_PV_STR) return rj::Value(op.str, static_cast<rj::SizeType>(std::strlen(op.str)), a);
    return rj::Value(static_cast<int64_t>(op.num));
}

bool rj_edit(rj::Document &d, const jb_patch_op &op) {
    rj::Value *node = &d;
    int k = 0;
    for (; op.tok[k + 1]; k++) {
        if (node->IsArray()) {
            rj::SizeType i = static_cast<rj::SizeType>(std::atol(op.tok[k]));
            if (i >= node->Size()) return false;
            node = &(*node)[i];
        } else {
            auto m = node->FindMember(op.tok[k]);
            if (m == node->MemberEnd()) return false;
            node = &m->value;
        }
    }
    const char *last = op.tok[k];
    auto &a = d.GetAllocator();
    if (node->IsArray()) {
        rj::SizeType i = static_cast<rj::SizeType>(std::atol(last));
        if (op.op == JB_PATCH_ADD) {
            if (std::strcmp(last, "-") != 0) return false;
            node->PushBack(rj_value(op, a), a);
            return true;
        }
        if (i >= node->Size()) return false;
        if (op.op == JB_PATCH_REMOVE) node->Erase(node->Begin() + i);
        else (*node)[i] = rj_value(op, a);
        return true;
    }
    if (op.op == JB_PATCH_ADD) {
        node->AddMember(rj::Value(last, static_cast<rj::SizeType>(std::strlen(last)), a), rj_value(op, a), a);
        return true;
    }
    auto m = node->FindMember(last);
    if (m == node->MemberEnd()) return false;
    if (op.op == JB_PATCH_REMOVE) node->EraseMember(m); // keeps the order (RemoveMember would not)
    else m->value = rj_value(op, a);
    return true;
}

char *rj_patch(void *stp, const char *json, size_t len, const jb_patch_op *ops, size_t n, const char *, size_t,
               size_t *out_len) {
    rj::Document d;
    d.Parse(json, len);
    if (d.HasParseError()) return nullptr;
    for (size_t i = 0; i < n; i++)
        if (!rj_edit(d, ops[i])) return nullptr;
    return rj_write(static_cast<rj_state *>(stp), d, out_len);
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
    rj_serialize, rj_free_text, rj_validate, rj_decode,
    rj_nostr, rj_api_read, rj_api_write,
    "fresh Document per message + FindMember lookups + delete",
    "fresh Document per message + FindMember lookups + delete; tags into reused vectors",
    "fresh Document per message, union by its first element + delete",
    "SAX Reader (default flags) with a state-machine handler into ApiResponse: no DOM; strings copied "
    "into a reused pool, arrays into reused vectors; required members checked",
    "Writer<StringBuffer>, both reused (Reset/Clear), from ApiResponse in declared order; None as null",
    nullptr,
    nullptr, nullptr /* ndjson */
};

const jb_engine jb_engine_rapidjson_fullprec = {
    "rapidjson-fullprec", "RapidJSON " RAPIDJSON_VERSION_STRING,
    JB_CAP_NUM_SPLIT | JB_CAP_NUL_STRINGS,
    "fresh Document per parse with kParseFullPrecisionFlag + delete",
    nullptr, nullptr, nullptr,
    rj_create, rj_destroy, rj_parse<rj::kParseFullPrecisionFlag>, rj_free_doc, rj_stats,
    nullptr, nullptr, nullptr, nullptr,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
    nullptr,
    nullptr, nullptr /* ndjson */
};

const jb_engine jb_engine_rapidjson_insitu = {
    "rapidjson-insitu", "RapidJSON " RAPIDJSON_VERSION_STRING,
    JB_CAP_NUM_SPLIT,
    "pays for its own copy: memcpy into a reused NUL-terminated buffer, then "
    "ParseInsitu (default flags) into a fresh Document + delete",
    nullptr, nullptr, nullptr,
    rj_create, rj_destroy, rj_parse_insitu, rj_free_doc, rj_stats,
    nullptr, nullptr, nullptr, nullptr,
    nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
    nullptr,
    nullptr, nullptr /* ndjson */
};

extern const jb_mut_ops jb_mut_rapidjson;
const jb_mut_ops jb_mut_rapidjson = {
    &jb_engine_rapidjson, rj_build, rj_patch, rj_free_text,
    "Value(kObjectType/kArrayType) + AddMember/PushBack with copied strings per value, into a fresh "
    "Document's allocator, then Writer<StringBuffer>",
    "fresh Document Parse (default flags), then FindMember/operator[] along each path (split beforehand) "
    "and AddMember/EraseMember/PushBack/Erase/assignment, then Writer<StringBuffer>",
};

} // extern "C"
