/**
 * A mutable JSON value with std.json.JSONValue's everyday operations, over
 * jet's mutable documents (jet_mut_*, docs/mutable.md):
 *
 * ---
 * JsonValue j = ["name": JsonValue("jet"), "tags": JsonValue(["c", "json"])];
 * j["version"] = 2;          // assign by key
 * j["tags"] ~= "fast";       // append
 * j["tags"][0] = "C11";      // assign by index
 * j.remove("version");
 * string text = j.toString; // {"name":"jet","tags":["C11","json","fast"]}
 * ---
 *
 * A JsonValue is a reference to a value in a document that all the values
 * taken from it share (reference-counted: the last copy frees it). Values
 * assigned in are copied into the document (deep copies, as std.json's
 * assignments copy). As in jet, memory of removed values is freed with the
 * document, not before.
 */
module jet.mutable;

import core.stdc.stdlib : free, malloc;
import std.traits;

import jet.capi;
import jet.dom : Json, JsonDoc, JsonType, scalarAs, StdJsonAccessors, typeError, typeOfKind, writeText;
import jet.exception;

struct JsonValue {
    private static struct Payload {
        jet_mut_doc* doc;
        size_t refs;
    }

    private Payload* p;
    private jet_mut_val* v;

    /// A value built from a D literal: null, bool, integer, floating,
    /// string, arrays and string-keyed associative arrays of these,
    /// JsonValue, or an immutable Json.
    this(T)(auto ref T value) if (!is(T == JsonValue)) {
        p = newPayload();
        v = make(p.doc, value);
        jet_mut_doc_set_root(p.doc, v);
    }

    this(this) @nogc nothrow {
        if (p) p.refs++;
    }

    ~this() @nogc nothrow {
        if (p && --p.refs == 0) {
            jet_mut_doc_free(p.doc);
            free(p);
        }
        p = null;
    }

    /// An empty object / array.
    static JsonValue emptyObject() {
        return emptyContainer!jet_mut_obj;
    }

    /// ditto
    static JsonValue emptyArray() {
        return emptyContainer!jet_mut_arr;
    }

    private static JsonValue emptyContainer(alias make)() {
        JsonValue j;
        j.p = newPayload();
        j.v = make(j.p.doc);
        if (!j.v) throw new JsonException(JET_ERR_MEMORY, "out of memory");
        jet_mut_doc_set_root(j.p.doc, j.v);
        return j;
    }

    /// Parses text into a new mutable value.
    static JsonValue parse(const(char)[] text, jet_read_flags flags = 0) {
        import jet.dom : parseJSON;
        auto doc = parseJSON(text, flags);
        return JsonValue(doc.root);
    }

    private static Payload* newPayload() {
        auto pl = cast(Payload*) malloc(Payload.sizeof);
        if (!pl) throw new JsonException(JET_ERR_MEMORY, "out of memory");
        pl.doc = jet_mut_doc_new(null);
        if (!pl.doc) {
            free(pl);
            throw new JsonException(JET_ERR_MEMORY, "out of memory");
        }
        pl.refs = 1;
        return pl;
    }

    private JsonValue child(jet_mut_val* c) {
        JsonValue j;
        j.p = p;
        p.refs++;
        j.v = c;
        return j;
    }

    private static jet_mut_val* make(T)(jet_mut_doc* doc, auto ref T value) {
        jet_mut_val* r;
        static if (is(T == typeof(null))) {
            r = jet_mut_null(doc);
        } else static if (is(T == bool)) {
            r = jet_mut_bool(doc, value);
        } else static if (isIntegral!T && isSigned!T) {
            r = jet_mut_sint(doc, value);
        } else static if (isIntegral!T) {
            r = jet_mut_uint(doc, value);
        } else static if (isFloatingPoint!T) {
            r = jet_mut_f64(doc, value);
        } else static if (isSomeString!T) {
            r = jet_mut_strn(doc, value.ptr, value.length);
        } else static if (is(T == JsonValue)) {
            r = jet_mut_val_copy(doc, value.v);
        } else static if (is(T == Json)) {
            r = jet_val_to_mut(doc, value.handle);
        } else static if (is(T == JsonDoc)) {
            r = jet_val_to_mut(doc, value.root.handle);
        } else static if (isArray!T) {
            r = jet_mut_arr(doc);
            foreach (ref e; value)
                if (r && !jet_mut_arr_append(r, make(doc, e))) r = null;
        } else static if (isAssociativeArray!T && isSomeString!(KeyType!T)) {
            r = jet_mut_obj(doc);
            foreach (k, ref e; value)
                if (r && !jet_mut_obj_addn(doc, r, k.ptr, k.length, make(doc, e))) r = null;
        } else {
            static assert(0, "JsonValue: no JSON form for " ~ T.stringof);
        }
        if (!r) throw new JsonException(JET_ERR_MEMORY, "out of memory");
        return r;
    }

    /// The C value and document (owned by this JsonValue's document).
    @property inout(jet_mut_val)* handle() inout @nogc nothrow {
        return v;
    }

    /// ditto
    @property inout(jet_mut_doc)* docHandle() inout @nogc nothrow {
        return p ? p.doc : null;
    }

    /// The kind of value (std.json's JSONType names).
    @property JsonType type() const @nogc nothrow {
        return typeOfKind(jet_mut_get_kind(v), jet_mut_get_uint(v));
    }

    @property bool isNull() const @nogc nothrow {
        return jet_mut_get_type(v) == JET_TYPE_NULL;
    }

    /// Elements, members, or string bytes.
    @property size_t length() const @nogc nothrow {
        return jet_mut_get_len(v);
    }

    /// The member named `key` (a reference: assigning through it edits
    /// this document); throws when there is none.
    JsonValue opIndex(const(char)[] key) {
        requireType(JET_TYPE_OBJ, "an object");
        jet_mut_val* m = jet_mut_obj_findn(v, key.ptr, key.length);
        if (!m) throw new JsonException(JET_ERR_NOT_FOUND, "no member \"" ~ key.idup ~ "\"");
        return child(m);
    }

    /// Element `i`; throws when out of range.
    JsonValue opIndex(size_t i) {
        requireType(JET_TYPE_ARR, "an array");
        jet_mut_val* e = jet_mut_arr_at(v, i);
        if (!e) throw new JsonException(JET_ERR_NOT_FOUND, "index out of range");
        return child(e);
    }

    /// `key in obj`: a pointer to the member (GC-allocated), or null.
    JsonValue* opBinaryRight(string op : "in")(const(char)[] key) {
        jet_mut_val* m = jet_mut_get_type(v) == JET_TYPE_OBJ ? jet_mut_obj_findn(v, key.ptr, key.length) : null;
        if (!m) return null;
        auto r = new JsonValue;
        *r = child(m);
        return r;
    }

    /// obj[key] = value: replaces the member or appends it. A null
    /// JsonValue (no document yet) becomes an object first, as in std.json.
    void opIndexAssign(T)(auto ref T value, const(char)[] key) {
        if (!p) this = emptyObject();
        requireType(JET_TYPE_OBJ, "an object");
        if (!jet_mut_obj_setn(p.doc, v, key.ptr, key.length, make(p.doc, value)))
            throw new JsonException(JET_ERR_MEMORY, "out of memory");
    }

    /// arr[i] = value; throws when out of range.
    void opIndexAssign(T)(auto ref T value, size_t i) {
        requireType(JET_TYPE_ARR, "an array");
        if (!jet_mut_arr_set(v, i, make(p.doc, value)))
            throw new JsonException(JET_ERR_NOT_FOUND, "index out of range");
    }

    /// arr ~= value: appends (an array of values appends each).
    void opOpAssign(string op : "~", T)(auto ref T value) {
        requireType(JET_TYPE_ARR, "an array");
        static if (isArray!T && !isSomeString!T) {
            foreach (ref e; value) jet_mut_arr_append(v, make(p.doc, e));
        } else {
            if (!jet_mut_arr_append(v, make(p.doc, value)))
                throw new JsonException(JET_ERR_MEMORY, "out of memory");
        }
    }

    /// Removes the member named `key`; false when there was none.
    bool remove(const(char)[] key) {
        requireType(JET_TYPE_OBJ, "an object");
        return jet_mut_obj_removen(v, key.ptr, key.length) !is null;
    }

    /// Removes element `i`; false when out of range.
    bool remove(size_t i) {
        requireType(JET_TYPE_ARR, "an array");
        return jet_mut_arr_remove(v, i) !is null;
    }

    /// The value as T (bool, integers range-checked, floating, string), as Json.get.
    T get(T)() const {
        static if (is(T == bool) || isIntegral!T || isFloatingPoint!T) {
            return scalarAs!T(jet_mut_get_kind(v), jet_mut_get_uint(v), jet_mut_get_f64(v), type);
        } else static if (is(T == string)) {
            if (jet_mut_get_type(v) != JET_TYPE_STR) throw typeError("a string");
            return jet_mut_get_str(v)[0 .. jet_mut_get_len(v)].idup;
        } else {
            static assert(0, "JsonValue.get: no conversion to " ~ T.stringof);
        }
    }

    mixin StdJsonAccessors; // str, integer, uinteger, floating, boolean

    /// foreach (value; arr)
    int opApply(scope int delegate(JsonValue) dg) {
        if (jet_mut_get_type(v) != JET_TYPE_ARR) return 0;
        jet_mut_arr_iter it = jet_mut_arr_iter_init(v);
        for (jet_mut_val* e; (e = jet_mut_arr_iter_next(&it)) !is null;)
            if (auto r = dg(child(e))) return r;
        return 0;
    }

    /// foreach (key, value; obj)
    int opApply(scope int delegate(const(char)[], JsonValue) dg) {
        if (jet_mut_get_type(v) != JET_TYPE_OBJ) return 0;
        jet_mut_obj_iter it = jet_mut_obj_iter_init(v);
        for (jet_mut_val* k; (k = jet_mut_obj_iter_next(&it)) !is null;)
            if (auto r = dg(jet_mut_get_str(k)[0 .. jet_mut_get_len(k)], child(jet_mut_obj_iter_value(k))))
                return r;
        return 0;
    }

    /// Equality as JSON (numbers by value, objects as sets of members).
    bool opEquals(const JsonValue other) const @nogc nothrow {
        return jet_mut_equal_json(v, other.v);
    }

    /// Minified JSON text.
    string toString() const {
        return write(0);
    }

    /// Pretty JSON text (4 spaces).
    string toPrettyString() const {
        return write(JET_WRITE_PRETTY);
    }

    private string write(jet_write_flags flags) const {
        return writeText!jet_mut_val_write(v, flags);
    }

    private void requireType(uint t, string what) const {
        if (jet_mut_get_type(v) != t) throw typeError(what);
    }

    private JsonException typeError(string want) const {
        return .typeError(want, type);
    }
}
