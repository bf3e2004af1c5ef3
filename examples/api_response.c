/*
 * api_response — the whole typed round trip with the ApiResponse model of
 * schemas.h (a user, orders of items, and an order status that is a tagged
 * union in circe's external encoding): decode, use, encode, compare.
 *
 *   api_response [FILE]      (default: the sample of api_sample.h)
 *
 * Prints a short summary of the response, encodes the struct again with
 * jet_encode and checks that
 *   - decoding that output gives an equal struct, and
 *   - the output is byte for byte the input (true for minified input whose
 *     members come in the declared order, as in the sample).
 * Exit status 0 when both hold, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jet.h>

#include "api_sample.h"
#include "schemas.h"

/* printf("%.*s", STR(s)) for a jet_str, which is not NUL-terminated. */
#define STR(s) (int)(s).len, (s).ptr

static char *read_file(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *data = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            char *grown = realloc(data, cap);
            if (!grown) break;
            data = grown;
        }
        got = fread(data + n, 1, cap - n, fp);
        n += got;
    } while (got > 0);
    bool ok = !ferror(fp) && n < cap;
    fclose(fp);
    if (!ok) {
        free(data);
        return NULL;
    }
    *len = n;
    return data;
}

static void report(const char *what, const jet_error *err) {
    fprintf(stderr, "%s:%zu:%zu: %s: %s (offset %zu, at \"%s\")\n", what, err->line, err->column,
            jet_code_name(err->code), err->msg, err->offset, err->path ? err->path : "");
}

/* ---- deep comparison of two ApiResponse values ---- */

static bool str_eq(jet_str a, jet_str b) {
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool address_eq(const ApiAddress *a, const ApiAddress *b) {
    return str_eq(a->street, b->street) && str_eq(a->city, b->city) &&
           str_eq(a->state, b->state) && str_eq(a->zip, b->zip) &&
           str_eq(a->country, b->country);
}

static bool user_eq(const ApiUser *a, const ApiUser *b) {
    if (a->id != b->id || !str_eq(a->name, b->name) || !str_eq(a->email, b->email) ||
        a->age != b->age || a->active != b->active || !address_eq(&a->address, &b->address) ||
        a->tag_count != b->tag_count)
        return false;
    for (size_t i = 0; i < a->tag_count; i++)
        if (!str_eq(a->tags[i], b->tags[i])) return false;
    /* an absent optional has no value to compare */
    if (a->has_phone != b->has_phone || (a->has_phone && !str_eq(a->phone, b->phone)))
        return false;
    return a->has_bio == b->has_bio && (!a->has_bio || str_eq(a->bio, b->bio));
}

static bool status_eq(const ApiStatus *a, const ApiStatus *b) {
    if (a->tag != b->tag) return false;
    switch (a->tag) {
    case API_DELIVERED:
        return a->as.delivered.deliveredAt == b->as.delivered.deliveredAt;
    case API_SHIPPED:
        return str_eq(a->as.shipped.trackingNumber, b->as.shipped.trackingNumber) &&
               str_eq(a->as.shipped.carrier, b->as.shipped.carrier);
    case API_PROCESSING:
        return a->as.processing.estimatedDays == b->as.processing.estimatedDays;
    default:
        return false;
    }
}

static bool order_eq(const ApiOrder *a, const ApiOrder *b) {
    if (a->id != b->id || a->item_count != b->item_count || !status_eq(&a->status, &b->status))
        return false;
    for (size_t i = 0; i < a->item_count; i++) {
        const ApiItem *x = &a->items[i], *y = &b->items[i];
        /* exact: doubles are written in the shortest form that reads back
         * to the same value */
        if (!str_eq(x->sku, y->sku) || !str_eq(x->name, y->name) || x->quantity != y->quantity ||
            x->price != y->price)
            return false;
    }
    return true;
}

static bool response_eq(const ApiResponse *a, const ApiResponse *b) {
    if (!user_eq(&a->user, &b->user) || a->order_count != b->order_count ||
        !str_eq(a->requestId, b->requestId) || a->timestamp != b->timestamp)
        return false;
    for (size_t i = 0; i < a->order_count; i++)
        if (!order_eq(&a->orders[i], &b->orders[i])) return false;
    return true;
}

/* ---- using the decoded data: plain C ---- */

static void print_summary(const ApiResponse *r) {
    const ApiUser *u = &r->user;
    printf("user %" PRId64 ": %.*s <%.*s>, %d, %s, %.*s (%.*s)\n", u->id, STR(u->name),
           STR(u->email), (int)u->age, u->active ? "active" : "inactive", STR(u->address.city),
           STR(u->address.country));
    const jet_str none = {"-", 1};
    printf("  phone: %.*s, bio: %.*s, tags:", STR(u->has_phone ? u->phone : none),
           STR(u->has_bio ? u->bio : none));
    for (size_t i = 0; i < u->tag_count; i++) printf(" %.*s", STR(u->tags[i]));
    printf("\n");
    for (size_t i = 0; i < r->order_count; i++) {
        const ApiOrder *o = &r->orders[i];
        double total = 0;
        for (size_t k = 0; k < o->item_count; k++) total += o->items[k].quantity * o->items[k].price;
        printf("order %" PRId64 ": %zu items, %.2f, ", o->id, o->item_count, total);
        switch (o->status.tag) { /* the union's tag says which member is set */
        case API_DELIVERED:
            printf("delivered at %" PRId64 "\n", o->status.as.delivered.deliveredAt);
            break;
        case API_SHIPPED:
            printf("shipped by %.*s, tracking %.*s\n", STR(o->status.as.shipped.carrier),
                   STR(o->status.as.shipped.trackingNumber));
            break;
        case API_PROCESSING:
            printf("processing, %d days\n", (int)o->status.as.processing.estimatedDays);
            break;
        }
    }
    printf("request %.*s at %" PRId64 "\n", STR(r->requestId), r->timestamp);
}

/* Decode, print, encode, decode again, compare. `od2` is a second cursor
 * because strings that had escapes live in the first cursor's scratch until
 * its next document, and `r` must stay valid while `back` is compared with
 * it. Both decodes allocate from the same arena, freed by the caller. */
static int round_trip(const char *json, size_t len, jet_od *od, jet_od *od2, jet_arena *arena,
                      jet_buf *out) {
    ApiResponse r, back;
    jet_error err;
    if (!jet_decode(od, json, len, &api_response_type, &r, arena, NULL, &err)) {
        report("input", &err);
        return 1;
    }
    print_summary(&r);

    out->len = 0; /* reuse the buffer from the start */
    if (!jet_encode(out, &api_response_type, &r, 0, &err)) {
        report("encode", &err);
        return 1;
    }
    if (!jet_decode(od2, out->data, out->len, &api_response_type, &back, arena, NULL, &err)) {
        report("output", &err);
        return 1;
    }
    bool same_struct = response_eq(&r, &back);
    bool same_bytes = out->len == len && memcmp(out->data, json, len) == 0;
    printf("encoded again: %zu bytes; decodes to an equal struct: %s; same bytes as the input: %s\n",
           out->len, same_struct ? "yes" : "NO", same_bytes ? "yes" : "NO");
    return same_struct && same_bytes ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc > 2) {
        fprintf(stderr, "usage: api_response [FILE]\n");
        return 2;
    }
    const char *json = api_sample_json;
    size_t len = API_SAMPLE_LEN;
    char *file = NULL;
    if (argc == 2) {
        file = read_file(argv[1], &len);
        if (!file) {
            perror(argv[1]);
            return 1;
        }
        json = file;
    }

    jet_od *od = jet_od_new(NULL), *od2 = jet_od_new(NULL);
    jet_arena arena;
    jet_arena_init(&arena, NULL);
    jet_buf out;
    jet_buf_init(&out, NULL);
    int status = 1;
    if (od && od2)
        status = round_trip(json, len, od, od2, &arena, &out);
    else
        fprintf(stderr, "out of memory\n");

    jet_buf_free(&out);
    jet_arena_free(&arena);
    jet_od_free(od2);
    jet_od_free(od);
    free(file);
    return status;
}
