/**
 * api_response — the whole typed round trip with the ApiResponse model
 * (the Scala seed's: a user, orders of items, and an order status that is a
 * sealed trait, here a SumType in circe's external encoding): decode, use,
 * encode, compare. The D twin of examples/api_response.c, printing exactly
 * the same lines.
 *
 *   dub run -q :api_response -- [FILE]      (default: examples/api_sample.h's sample)
 *
 * Exit status 0 when the encoded text decodes to an equal value and is
 * byte for byte the input, 1 otherwise.
 */
import core.stdc.stdio : fprintf, printf, stderr;
import std.file : read;
import std.sumtype : SumType, match;
import std.typecons : Nullable;

import jet;

struct Address {
    const(char)[] street, city, state, zip, country;
}

struct User {
    long id;
    const(char)[] name, email;
    int age;
    bool active;
    Address address;
    const(char)[][] tags;
    Nullable!(const(char)[]) phone; // Option[String]: absent or null is None
    Nullable!(const(char)[]) bio;
}

struct Item {
    const(char)[] sku, name;
    int quantity;
    double price;
}

// sealed trait OrderStatus: each case class is a variant named after it
struct Delivered {
    long deliveredAt;
}

struct Shipped {
    const(char)[] trackingNumber, carrier;
}

struct Processing {
    int estimatedDays;
}

alias OrderStatus = SumType!(Delivered, Shipped, Processing);

struct Order {
    long id;
    Item[] items;
    OrderStatus status;
}

struct ApiResponse {
    User user;
    Order[] orders;
    const(char)[] requestId;
    long timestamp;
}

/// The sample of examples/api_sample.h: its C string literal, read at
/// compile time.
enum sample = cStringLiteral(import("api_sample.h"), "api_sample_json[] =");

string cStringLiteral(string header, string after) {
    import std.string : indexOf;
    string s = header[header.indexOf(after) + after.length .. $];
    string out_;
    bool inside;
    for (size_t i = 0; i < s.length; i++) {
        char c = s[i];
        if (!inside) {
            if (c == ';') break;
            if (c == '"') inside = true;
        } else if (c == '\\') {
            out_ ~= s[++i]; // the sample escapes only '"' and '\\'
        } else if (c == '"') {
            inside = false;
        } else {
            out_ ~= c;
        }
    }
    return out_;
}

void report(const(char)* what, ref const jet_error err) {
    fprintf(stderr, "%s:%zu:%zu: %s: %s (offset %zu, at \"%s\")\n", what, err.line, err.column,
            jet_code_name(err.code), err.msg, err.offset, err.path ? err.path : "");
}

void printStr(const(char)[] s) {
    printf("%.*s", cast(int) s.length, s.ptr);
}

void printSummary(ref const ApiResponse r) {
    const u = &r.user;
    printf("user %lld: %.*s <%.*s>, %d, %s, %.*s (%.*s)\n", u.id, cast(int) u.name.length, u.name.ptr,
           cast(int) u.email.length, u.email.ptr, u.age, u.active ? "active".ptr : "inactive".ptr,
           cast(int) u.address.city.length, u.address.city.ptr, cast(int) u.address.country.length,
           u.address.country.ptr);
    const(char)[] phone = u.phone.isNull ? "-" : u.phone.get;
    const(char)[] bio = u.bio.isNull ? "-" : u.bio.get;
    printf("  phone: %.*s, bio: %.*s, tags:", cast(int) phone.length, phone.ptr, cast(int) bio.length, bio.ptr);
    foreach (t; u.tags) printf(" %.*s", cast(int) t.length, t.ptr);
    printf("\n");
    foreach (ref o; r.orders) {
        double total = 0;
        foreach (ref it; o.items) total += it.quantity * it.price;
        printf("order %lld: %zu items, %.2f, ", o.id, o.items.length, total);
        o.status.match!(
            (ref const Delivered d) { printf("delivered at %lld\n", d.deliveredAt); },
            (ref const Shipped s) {
                printf("shipped by %.*s, tracking %.*s\n", cast(int) s.carrier.length, s.carrier.ptr,
                       cast(int) s.trackingNumber.length, s.trackingNumber.ptr);
            },
            (ref const Processing p) { printf("processing, %d days\n", p.estimatedDays); });
    }
    printf("request %.*s at %lld\n", cast(int) r.requestId.length, r.requestId.ptr, r.timestamp);
}

int main(string[] args) {
    if (args.length > 2) {
        fprintf(stderr, "usage: api_response [FILE]\n");
        return 2;
    }
    const(char)[] json = sample;
    if (args.length == 2) {
        try
            json = cast(const(char)[]) read(args[1]);
        catch (Exception e) {
            fprintf(stderr, "%.*s\n", cast(int) e.msg.length, e.msg.ptr);
            return 1;
        }
    }
    // Two decoders: `r` borrows from the first while `back` is decoded.
    Decoder first, second;
    ApiResponse r, back;
    if (!first.decode(json, r)) {
        report("input", first.error);
        return 1;
    }
    printSummary(r);
    string text;
    try
        text = toJSON(r);
    catch (JsonException e) {
        fprintf(stderr, "encode: %.*s\n", cast(int) e.msg.length, e.msg.ptr);
        return 1;
    }
    if (!second.decode(text, back)) {
        report("output", second.error);
        return 1;
    }
    bool sameStruct = r == back;
    bool sameBytes = text == json;
    printf("encoded again: %zu bytes; decodes to an equal struct: %s; same bytes as the input: %s\n", text.length,
           sameStruct ? "yes".ptr : "NO".ptr, sameBytes ? "yes".ptr : "NO".ptr);
    return sameStruct && sameBytes ? 0 : 1;
}
