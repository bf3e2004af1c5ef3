/* api_check.c — verification of the api-* operations: the ApiResponse
 * checksum (computed from a decoded struct, outside the timed region) and
 * the comparison of api-write's output with the sample, as jet DOMs. */
#include "bench.h"
#include "schemas.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static void add_str(jb_api *o, jet_str s) {
    uint64_t h = o->string_hash;
    for (size_t i = 0; i < s.len; i++) {
        h ^= (unsigned char)s.ptr[i];
        h *= FNV_PRIME;
    }
    h ^= 0xff; /* separator: "ab","c" differs from "a","bc" */
    h *= FNV_PRIME;
    o->string_hash = h;
    o->string_bytes += s.len;
}

void jb_api_checksum(const ApiResponse *r, jb_api *o) {
    memset(o, 0, sizeof *o);
    o->string_hash = FNV_OFFSET;
    const ApiUser *u = &r->user;
    o->user_id = (uint64_t)u->id;
    o->age = (uint64_t)(int64_t)u->age;
    o->active = u->active;
    add_str(o, u->name);
    add_str(o, u->email);
    add_str(o, u->address.street);
    add_str(o, u->address.city);
    add_str(o, u->address.state);
    add_str(o, u->address.zip);
    add_str(o, u->address.country);
    o->tags = u->tag_count;
    for (size_t i = 0; i < u->tag_count; i++) add_str(o, u->tags[i]);
    o->has_phone = u->has_phone;
    if (u->has_phone) add_str(o, u->phone);
    o->has_bio = u->has_bio;
    if (u->has_bio) add_str(o, u->bio);
    o->orders = r->order_count;
    for (size_t k = 0; k < r->order_count; k++) {
        const ApiOrder *ord = &r->orders[k];
        o->order_id_sum += (uint64_t)ord->id;
        o->items += ord->item_count;
        for (size_t i = 0; i < ord->item_count; i++) {
            const ApiItem *it = &ord->items[i];
            add_str(o, it->sku);
            add_str(o, it->name);
            o->quantity_sum += (uint64_t)(int64_t)it->quantity;
            o->price_cents_sum += (uint64_t)llround(it->price * 100);
        }
        switch (ord->status.tag) {
        case API_DELIVERED:
            o->delivered++;
            o->delivered_at_sum += (uint64_t)ord->status.as.delivered.deliveredAt;
            break;
        case API_SHIPPED:
            o->shipped++;
            add_str(o, ord->status.as.shipped.trackingNumber);
            add_str(o, ord->status.as.shipped.carrier);
            o->tracking_bytes += ord->status.as.shipped.trackingNumber.len + ord->status.as.shipped.carrier.len;
            break;
        case API_PROCESSING:
            o->processing++;
            o->estimated_days_sum += (uint64_t)(int64_t)ord->status.as.processing.estimatedDays;
            break;
        default: break; /* an unknown tag counts as no status at all */
        }
    }
    add_str(o, r->requestId);
    o->request_id_bytes = r->requestId.len;
    o->timestamp = (uint64_t)r->timestamp;
}

#ifdef JB_HAVE_JET

/* Appends "/key" or "/index" to a JSON Pointer in buf. */
static size_t path_push(char *buf, size_t cap, size_t at, const char *s, size_t n) {
    if (at >= cap) return at;
    int w = snprintf(buf + at, cap - at, "/%.*s", (int)n, s ? s : "");
    return w < 0 ? at : at + (size_t)w;
}

static void show(const jet_val *v, char *buf, size_t cap) {
    size_t n = 0;
    char *t = v ? jet_val_write(v, JET_WRITE_NOFLAG, NULL, &n, NULL) : NULL;
    snprintf(buf, cap, "%.*s%s", (int)(n > 40 ? 40 : n), t ? t : "(absent)", n > 40 ? "..." : "");
    free(t);
}

/* The next member of an object iteration whose value is not null. */
static jet_val *next_nonnull(jet_obj_iter *it) {
    jet_val *k;
    while ((k = jet_obj_iter_next(it)) && jet_is_null(jet_obj_iter_value(k))) {}
    return k;
}

/* Deep equality where an object member whose value is null counts as absent
 * (an Option's None may be written as null or left out); otherwise as
 * jet_val_equal: same types, numbers (doubles bitwise), strings and order.
 * On a difference, `path` gets its JSON Pointer and `why` the two values. */
static bool equal_nulls(const jet_val *a, const jet_val *b, char *path, size_t pcap, size_t at, char *why,
                        size_t cap) {
    if (jet_is_obj(a) && jet_is_obj(b)) {
        jet_obj_iter ia = jet_obj_iter_init(a), ib = jet_obj_iter_init(b);
        for (;;) {
            jet_val *ka = next_nonnull(&ia), *kb = next_nonnull(&ib);
            if (!ka || !kb) {
                if (!ka && !kb) return true;
                jet_val *k = ka ? ka : kb;
                path_push(path, pcap, at, jet_get_str(k), jet_get_len(k));
                snprintf(why, cap, "member only in the %s", ka ? "output" : "sample");
                return false;
            }
            if (jet_get_len(ka) != jet_get_len(kb) || memcmp(jet_get_str(ka), jet_get_str(kb), jet_get_len(ka))) {
                path_push(path, pcap, at, jet_get_str(ka), jet_get_len(ka));
                const char *sb = jet_get_str(kb);
                snprintf(why, cap, "a different key where the sample has \"%s\"", sb ? sb : "");
                return false;
            }
            size_t at2 = path_push(path, pcap, at, jet_get_str(ka), jet_get_len(ka));
            if (!equal_nulls(jet_obj_iter_value(ka), jet_obj_iter_value(kb), path, pcap, at2, why, cap)) return false;
        }
    }
    if (jet_is_arr(a) && jet_is_arr(b)) {
        if (jet_arr_size(a) != jet_arr_size(b)) {
            snprintf(why, cap, "%zu elements where the sample has %zu", jet_arr_size(a), jet_arr_size(b));
            return false;
        }
        jet_arr_iter ia = jet_arr_iter_init(a), ib = jet_arr_iter_init(b);
        size_t i = 0;
        for (jet_val *x, *y; (x = jet_arr_iter_next(&ia)) && (y = jet_arr_iter_next(&ib)); i++) {
            char idx[24];
            int n = snprintf(idx, sizeof idx, "%zu", i);
            size_t at2 = path_push(path, pcap, at, idx, (size_t)n);
            if (!equal_nulls(x, y, path, pcap, at2, why, cap)) return false;
        }
        return true;
    }
    if (jet_val_equal(a, b)) return true;
    char sa[64], sb[64];
    show(a, sa, sizeof sa);
    show(b, sb, sizeof sb);
    snprintf(why, cap, "%s where the sample has %s", sa, sb);
    return false;
}

int jb_api_check_output(const char *text, size_t len, const char *sample, size_t sample_len, char *why, size_t cap) {
    jet_error err;
    jet_doc *out = jet_read(text, len, NULL, NULL, &err);
    if (!out) {
        snprintf(why, cap, "output is not valid JSON for jet: %s at byte %zu", err.msg ? err.msg : "?", err.offset);
        return 1;
    }
    jet_doc *ref = jet_read(sample, sample_len, NULL, NULL, &err);
    if (!ref) {
        jet_doc_free(out);
        snprintf(why, cap, "the sample is not valid JSON for jet: %s", err.msg ? err.msg : "?");
        return 1;
    }
    char path[256] = "", diff[256] = "";
    bool eq = equal_nulls(jet_doc_root(out), jet_doc_root(ref), path, sizeof path, 0, diff, sizeof diff);
    jet_doc_free(out);
    jet_doc_free(ref);
    if (eq) return 0;
    snprintf(why, cap, "output differs from the sample at %s: %s", path[0] ? path : "(root)", diff);
    return 1;
}

#else

int jb_api_check_output(const char *text, size_t len, const char *sample, size_t sample_len, char *why, size_t cap) {
    (void)text; (void)len; (void)sample; (void)sample_len;
    snprintf(why, cap, "jet is not compiled in: no DOM to compare the output with");
    return 1;
}

#endif
