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

#include "oracle/doc_compare.h"

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
    /* An Option's None may be written as null or left out: a member whose
     * value is null counts as absent (tests/oracle/doc_compare.h). */
    doc_diff diff = {{"output", "sample"}, "", ""};
    bool eq = doc_compare(out, ref, DOC_NULL_IS_ABSENT, &diff);
    jet_doc_free(out);
    jet_doc_free(ref);
    if (eq) return 0;
    snprintf(why, cap, "output differs from the sample at %s: %s", diff.where[0] ? diff.where : "(root)",
             diff.why);
    return 1;
}

#else

int jb_api_check_output(const char *text, size_t len, const char *sample, size_t sample_len, char *why, size_t cap) {
    (void)text; (void)len; (void)sample; (void)sample_len;
    snprintf(why, cap, "jet is not compiled in: no DOM to compare the output with");
    return 1;
}

#endif
