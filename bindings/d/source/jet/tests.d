/// The binding's unittests (dub test): the DOM, typed decoding and
/// encoding, errors, the Decoder, and JsonValue.
module jet.tests;

version (unittest):

import std.exception : assertThrown, collectException;
import std.math : isNaN;
import std.sumtype : SumType, match;
import std.typecons : Nullable;

import jet;

// ---------------------------------------------------------------- DOM --

unittest {
    auto doc = parseJSON(`{"a":[1,-2,3.5,"x",true,false,null],"o":{"k":"v","n":18446744073709551615}}`);
    assert(doc.type == JsonType.object && doc.length == 2);
    auto a = doc["a"];
    assert(a.type == JsonType.array && a.length == 7);
    assert(a[0].get!int == 1 && a[1].get!long == -2 && a[2].get!double == 3.5);
    assert(a[1].type == JsonType.integer && a[2].type == JsonType.float_);
    assert(a[3].str == "x" && a[3].type == JsonType.string);
    assert(a[4].boolean && !a[5].boolean && a[6].isNull);
    assert(a[4].type == JsonType.true_ && a[5].type == JsonType.false_ && a[6].type == JsonType.null_);
    assert(doc["o"]["n"].type == JsonType.uinteger && doc["o"]["n"].uinteger == ulong.max);
    // range checks
    assertThrown!JsonException(a[1].get!uint);
    assertThrown!JsonException(doc["o"]["n"].get!long);
    assert(a[0].get!ubyte == 1);
    assertThrown!JsonException(parseJSON("300").get!ubyte);
    assertThrown!JsonException(a[3].get!int);
    // foreach over arrays and objects
    int n;
    foreach (v; a) n++;
    assert(n == 7);
    string keys;
    foreach (k, v; doc["o"]) keys ~= k;
    assert(keys == "kn");
    // in, find, pointers
    assert("k" in doc["o"] && ("zz" in doc["o"]) is null);
    assert((*("k" in doc["o"])).str == "v");
    assert(doc["o"].find("zz").handle is null);
    assert(doc.at("/a/3").str == "x");
    assertThrown!JsonException(doc["missing"]);
    assertThrown!JsonException(a[7]);
    // text
    assert(doc["o"].toString == `{"k":"v","n":18446744073709551615}`);
    assert(parseJSON(`{"a":[1]}`).toPrettyString == "{\n    \"a\": [\n        1\n    ]\n}");
    // copies share the document (reference-counted), values keep it alive
    JsonDoc copy = doc;
    assert(copy["a"][3].str == "x");
    Json kept = parseJSON(`{"statuses":[{"id":7}]}`)["statuses"];
    auto other = parseJSON(`[0,0,0,0,0,0,0,0]`); // would reuse freed memory
    assert(kept[0]["id"].get!int == 7 && kept.toString == `[{"id":7}]`);
}

unittest {
    // errors carry line:column
    auto e = collectException!JsonException(parseJSON("{\n  \"a\": [1,\n  2,]\n}"));
    assert(e !is null && e.code == JET_ERR_UNEXPECTED_CHAR && e.line == 3, e.msg);
    // a std.json.JSONException too
    import std.json : JSONException;
    assert(cast(JSONException) e !is null);
    // flags
    assert(parseJSON("[1,]", JET_READ_ALLOW_TRAILING_COMMAS).length == 1);
}

// ---------------------------------------------------------------- typed --

enum Role {
    user,
    @jsonName("administrator") admin,
}

struct Address {
    string city;
    @jsonName("zip-code") string zip;
}

struct Person {
    ulong id;
    string name;
    @jsonName("e-mail") const(char)[] email; // a slice of the input
    Nullable!int age;
    int retries = 3;             // optional, with a default
    @jsonOptional bool admin;
    Role role;
    Address address;
    string[] tags;
    int[3] rgb;
    byte small;
    float ratio;
}

unittest {
    string text = `{"id":7,"name":"Ada \u00e9","e-mail":"ada@x","age":null,"role":"administrator",` ~
        `"address":{"city":"London","zip-code":"SW1"},"tags":["a","b\n"],"rgb":[1,2,3],"small":-128,` ~
        `"ratio":0.5,"unknown":{"skipped":[1,2]}}`;
    Person p = fromJSON!Person(text);
    assert(p.id == 7 && p.name == "Ada \u00e9" && p.email == "ada@x");
    assert(p.age.isNull && p.retries == 3 && !p.admin && p.role == Role.admin);
    assert(p.address.city == "London" && p.address.zip == "SW1");
    assert(p.tags == ["a", "b\n"] && p.rgb == [1, 2, 3] && p.small == -128 && p.ratio == 0.5f);
    // the slice points into the input, the string is a copy
    assert(p.email.ptr >= text.ptr && p.email.ptr < text.ptr + text.length);
    assert(!(p.name.ptr >= text.ptr && p.name.ptr < text.ptr + text.length));
    // round trip through the same tables
    string back = toJSON(p);
    assert(back == `{"id":7,"name":"Ada é","e-mail":"ada@x","age":null,"retries":3,"admin":false,` ~
           `"role":"administrator","address":{"city":"London","zip-code":"SW1"},"tags":["a","b\n"],` ~
           `"rgb":[1,2,3],"small":-128,"ratio":0.5}`, back);
    Person q = fromJSON!Person(back);
    assert(q == p);
    p.age = 41;
    assert(fromJSON!Person(toJSON(p)).age.get == 41);
    assert(toPrettyJSON(p.address) == "{\n    \"city\": \"London\",\n    \"zip-code\": \"SW1\"\n}");
}

unittest {
    // errors: line:column, the JSON Pointer, the code
    string bad = `{"id":1,"name":"x","e-mail":"e","role":"user","address":{"city":"c","zip-code":"z"},` ~
        "\n" ~ `"tags":[],"rgb":[1,2,3],"small":200,"ratio":1}`;
    auto e = collectException!JsonException(fromJSON!Person(bad));
    assert(e !is null && e.code == JET_ERR_NUMBER_RANGE, e ? e.msg : "no exception");
    assert(e.path == "/small" && e.line == 2, e.msg);
    e = collectException!JsonException(fromJSON!Person(`{"id":1}`));
    assert(e !is null && e.code == JET_ERR_MISSING_FIELD, e.msg);
    e = collectException!JsonException(fromJSON!Person(bad[0 .. 20]));
    assert(e !is null, "truncated input");
    e = collectException!JsonException(fromJSON!Role(`"root"`));
    assert(e !is null && e.code == JET_ERR_BAD_TAG, e.msg);
    e = collectException!JsonException(fromJSON!(int[3])(`[1,2]`));
    assert(e !is null);
    // non-struct roots
    assert(fromJSON!(int[])(`[1,2,3]`) == [1, 2, 3]);
    assert(fromJSON!string(`"s"`) == "s");
    assert(fromJSON!(Nullable!double)(`null`).isNull);
    assert(fromJSON!uint(`4000000000`) == 4_000_000_000u);
    assertThrown!JsonException(fromJSON!int(`4000000000`));
    assert(fromJSON!(int[][])(`[[1],[2,3],[]]`) == [[1], [2, 3], []]);
}

@jsonStrict struct Strict {
    int a;
}

unittest {
    assert(fromJSON!Strict(`{"a":1}`).a == 1);
    auto e = collectException!JsonException(fromJSON!Strict(`{"a":1,"b":2}`));
    assert(e !is null && e.code == JET_ERR_UNKNOWN_FIELD && e.path == "/b", e ? e.msg : "accepted");
}

// ------------------------------------------------------ tagged unions --

// The Scala seed's sealed trait OrderStatus, circe's external encoding.
struct Delivered {
    long deliveredAt;
}

struct Shipped {
    string trackingNumber, carrier;
}

struct Processing {
    int estimatedDays;
}

struct Cancelled {
}

struct Order {
    long id;
    SumType!(Delivered, Shipped, Processing, Cancelled) status;
}

unittest {
    auto o = fromJSON!Order(`{"id":1,"status":{"Shipped":{"trackingNumber":"1Z","carrier":"UPS"}}}`);
    assert(o.status.match!((Shipped s) => s.carrier == "UPS" && s.trackingNumber == "1Z", _ => false));
    o = fromJSON!Order(`{"id":2,"status":"Cancelled"}`);
    assert(o.status.match!((Cancelled c) => true, _ => false));
    o = fromJSON!Order(`{"id":3,"status":{"Processing":{"estimatedDays":3}}}`);
    assert(toJSON(o) == `{"id":3,"status":{"Processing":{"estimatedDays":3}}}`, toJSON(o));
    auto e = collectException!JsonException(fromJSON!Order(`{"id":1,"status":{"Lost":{}}}`));
    assert(e !is null && e.code == JET_ERR_BAD_TAG && e.path == "/status/Lost", e ? e.msg : "accepted");
}

// Internal encoding: {"type": "circle", ...}
@jsonName("circle") struct Circle {
    double r;
}

@jsonName("square") struct Square {
    double side;
}

struct Drawing {
    @jsonTag("type") SumType!(Circle, Square)[] shapes;
}

unittest {
    auto d = fromJSON!Drawing(`{"shapes":[{"type":"square","side":2},{"r":1.5,"type":"circle"}]}`);
    assert(d.shapes.length == 2);
    assert(d.shapes[0].match!((Square s) => s.side == 2, _ => false));
    assert(d.shapes[1].match!((Circle c) => c.r == 1.5, _ => false));
    assert(toJSON(d) == `{"shapes":[{"type":"square","side":2.0},{"type":"circle","r":1.5}]}`, toJSON(d));
}

// The nostr envelope: array encoding, every variant a @jsonTuple.
struct NostrEvent {
    string id, pubkey;
    ulong created_at;
    uint kind;
    string[][] tags;
    string content, sig;
}

@jsonTuple @jsonName("EVENT") struct EventMsg {
    string sub_id;
    NostrEvent event;
}

@jsonTuple @jsonName("EOSE") struct EoseMsg {
    string sub_id;
}

@jsonTuple @jsonName("OK") struct OkMsg {
    string event_id;
    bool accepted;
    @jsonOptional string message;
}

alias Envelope = SumType!(EventMsg, EoseMsg, OkMsg);

unittest {
    auto m = fromJSON!Envelope(`["EVENT","sub1",{"id":"ab","pubkey":"cd","created_at":1700000000,"kind":1,` ~
                               `"tags":[["e","x"],["p"]],"content":"hi","sig":"ef"}]`);
    assert(m.match!((EventMsg e) => e.sub_id == "sub1" && e.event.tags == [["e", "x"], ["p"]] &&
                    e.event.kind == 1, _ => false));
    m = fromJSON!Envelope(`["OK","ab",true]`);
    assert(m.match!((OkMsg o) => o.accepted && o.message is null, _ => false));
    assert(toJSON(fromJSON!Envelope(`["EOSE","s"]`)) == `["EOSE","s"]`);
    auto e = collectException!JsonException(fromJSON!Envelope(`["AUTH","x"]`));
    assert(e !is null && e.code == JET_ERR_BAD_TAG, e ? e.msg : "accepted");
}

// ----------------------------------------------------------------- maps --

struct Inventory {
    int[string] counts;
    Address[string] sites;
    string owner;
}

unittest {
    auto inv = fromJSON!Inventory(`{"owner":"me","counts":{"a":1,"b\u0041":2},"sites":{"x":{"city":"c","zip-code":"z"}}}`);
    assert(inv.counts == ["a": 1, "bA": 2] && inv.owner == "me" && inv.sites["x"].city == "c");
    auto e = collectException!JsonException(fromJSON!Inventory(`{"owner":"me","counts":{"a":"one"},"sites":{}}`));
    assert(e !is null && e.code == JET_ERR_TYPE && e.path == "/counts/a", e ? e.msg : "accepted");
    e = collectException!JsonException(fromJSON!Inventory(`{"counts":{},"sites":{}}`));
    assert(e !is null && e.code == JET_ERR_MISSING_FIELD && e.path == "/owner" && e.line == 1, e ? e.msg : "accepted");
    auto back = fromJSON!Inventory(toJSON(inv));
    assert(back == inv);
    auto one = Inventory(["a": 1], ["x": Address("c", "z")], "me");
    assert(toPrettyJSON(one) == "{\n    \"counts\": {\n        \"a\": 1\n    },\n    \"sites\": {\n        \"x\": {\n" ~
           "            \"city\": \"c\",\n            \"zip-code\": \"z\"\n        }\n    },\n    \"owner\": \"me\"\n}",
           toPrettyJSON(one));
}

// -------------------------------------------------------------- Decoder --

struct Tweet {
    ulong id;
    const(char)[] text;
    string[] tags;
}

@nogc nothrow bool decodeNoGC(ref Decoder dec, const(char)[] text, ref Tweet t) {
    return dec.decode(text, t);
}

unittest {
    import core.memory : GC;
    Decoder dec;
    Tweet t;
    assert(decodeNoGC(dec, `{"id":1,"text":"a\tb","tags":["x"]}`, t));
    assert(t.id == 1 && t.text == "a\tb" && t.tags == ["x"]);
    // steady state: nothing allocated on the GC heap
    auto before = GC.stats.usedSize;
    foreach (i; 0 .. 100) assert(decodeNoGC(dec, `{"id":2,"text":"\u0041","tags":["y","z"]}`, t));
    assert(GC.stats.usedSize == before);
    assert(t.text == "A" && t.tags == ["y", "z"]);
    assert(!decodeNoGC(dec, `{"id":-1,"text":"","tags":[]}`, t));
    assert(dec.error.code == JET_ERR_NUMBER_RANGE);
    assertThrown!JsonException(dec.decode!Tweet(`{"id":1}`));
}

// ------------------------------------------------------------ JsonValue --

unittest {
    JsonValue j = ["name": JsonValue("jet"), "tags": JsonValue(["c", "json"])];
    j["version"] = 2;
    j["tags"] ~= "fast";
    j["tags"][0] = "C11";
    assert(j["tags"].length == 3 && j["tags"][0].str == "C11");
    assert(j["version"].integer == 2);
    assert(j.remove("version") && !j.remove("version"));
    assert(j["tags"].remove(1));
    assert(j.toString == `{"name":"jet","tags":["C11","fast"]}` || j.toString == `{"tags":["C11","fast"],"name":"jet"}`,
           j.toString);
    JsonValue k;
    k["a"] = null;
    k["b"] = true;
    k["c"] = -1.5;
    k["d"] = [1, 2];
    assert(k.toString == `{"a":null,"b":true,"c":-1.5,"d":[1,2]}`, k.toString);
    assert("b" in k && ("z" in k) is null);
    // from a parsed document, then edited
    auto m = JsonValue.parse(`{"x":[1,{"y":2}]}`);
    m["x"][1]["y"] = "two";
    m["x"] ~= [3, 4];
    assert(m.toString == `{"x":[1,{"y":"two"},3,4]}`, m.toString);
    string keys;
    foreach (key, v; m) keys ~= key;
    assert(keys == "x");
    assert(JsonValue(1) == JsonValue.parse("1.0")); // JSON equality
    assertThrown!JsonException(m["x"][9]);
    assertThrown!JsonException(m["nope"]);
}
