/**
 * The document API, shaped like std.json's parseJSON: a JsonDoc owns the
 * parsed document (reference-counted, freed with its last copy: no manual
 * free), and Json values are views into it.
 *
 * ---
 * auto doc = parseJSON(text);
 * foreach (status; doc["statuses"])
 *     total += status["user"]["followers_count"].get!ulong;
 * foreach (key, value; doc["search_metadata"]) writeln(key, " = ", value);
 * if (auto p = "next_results" in doc["search_metadata"]) writeln(p.str);
 * ---
 *
 * Lifetime: a Json keeps its document alive (it counts as a reference),
 * so `parseJSON(text)["statuses"]` is safe. The document copies the input,
 * so the text may go at once.
 */
module jet.dom;

import core.stdc.stdlib : free, malloc;
import std.traits : isFloatingPoint, isIntegral, isSigned, isSomeString;

import jet.capi;
import jet.exception;

/// The kinds of JSON value, named as std.json's JSONType (integer: a
/// number that fits a long; uinteger: a larger unsigned one; raw: a number
/// kept as text with JET_READ_BIGNUM_AS_RAW / NUMBER_AS_RAW).
enum JsonType : byte {
    null_,
    string,
    integer,
    uinteger,
    float_,
    array,
    object,
    true_,
    false_,
    raw,
}

/// Parses JSON text (RFC 8259; `flags` are JET_READ_* extensions).
/// Throws JsonException with line:column on invalid input.
JsonDoc parseJSON(const(char)[] text, jet_read_flags flags = 0) {
    jet_read_opts opts = jet_read_opts(flags, 0, 0);
    jet_error err;
    jet_doc* doc = jet_read(text.ptr, text.length, &opts, null, &err);
    if (!doc) throw new JsonException(err);
    return JsonDoc(doc);
}

/// An immutable document, reference-counted: copies share it, the last
/// one frees it.
struct JsonDoc {
    private static struct Payload {
        jet_doc* doc;
        size_t refs;
    }

    private Payload* p;

    // The reference count is the owners' business, also through const
    // values (a Json taken from a const one still keeps the document).
    private static void retain(const(Payload)* c) @nogc nothrow pure {
        if (c) (cast(Payload*) c).refs++;
    }

    private static void release(const(Payload)* c) @nogc nothrow {
        auto pl = cast(Payload*) c;
        if (pl && --pl.refs == 0) {
            jet_doc_free(pl.doc);
            free(pl);
        }
    }

    /// Takes ownership of a document from jet_read (or jet_mut_to_doc).
    this(jet_doc* doc) @nogc nothrow {
        p = cast(Payload*) malloc(Payload.sizeof);
        if (!p) {
            jet_doc_free(doc);
            assert(0, "out of memory");
        }
        p.doc = doc;
        p.refs = 1;
    }

    this(this) @nogc nothrow {
        retain(p);
    }

    ~this() @nogc nothrow {
        release(p);
        p = null;
    }

    /// The root value.
    @property Json root() const @nogc nothrow {
        return Json(p ? jet_doc_root(p.doc) : null, p);
    }

    alias root this;

    /// The C document (owned by this JsonDoc).
    @property inout(jet_doc)* handle() inout @nogc nothrow {
        return p ? p.doc : null;
    }
}

// The accessors, inline (jet.h's static inline ones, whose exported
// copies jet.capi also declares); jet_val's layout is checked by the
// package's unittest against the C compiler.
private pragma(inline, true) uint typeOf(const(jet_val)* v) @nogc nothrow pure {
    return v ? cast(uint)(v.tag & JET_TAG_TYPE_MASK) : JET_TYPE_NONE;
}

private pragma(inline, true) uint kindOf(const(jet_val)* v) @nogc nothrow pure {
    return v ? cast(uint)(v.tag & JET_TAG_KIND_MASK) : 0;
}

private pragma(inline, true) size_t lenOf(const(jet_val)* v) @nogc nothrow pure {
    return cast(size_t)(v.tag >> JET_TAG_LEN_SHIFT);
}

private pragma(inline, true) const(jet_val)* nextOf(const(jet_val)* v) @nogc nothrow pure {
    return v + (typeOf(v) >= JET_TYPE_ARR ? v.uni.ofs : 1);
}

/// A value of a document (a view that keeps its document alive).
struct Json {
    private const(jet_val)* v;
    private const(JsonDoc.Payload)* owner; // null: a bare view of a C document

    /// Wraps a value of a jet_doc that the caller keeps alive.
    this(const(jet_val)* val) @nogc nothrow pure {
        v = val;
    }

    private this(const(jet_val)* val, const(JsonDoc.Payload)* o) @nogc nothrow pure {
        v = val;
        owner = o;
        JsonDoc.retain(o);
    }

    this(this) @nogc nothrow pure {
        JsonDoc.retain(owner);
    }

    ~this() @nogc nothrow {
        JsonDoc.release(owner);
        owner = null;
    }

    // a value of the same document
    private Json sibling(const(jet_val)* val) const @nogc nothrow {
        return Json(val, owner);
    }

    /// The C value.
    @property const(jet_val)* handle() const @nogc nothrow pure {
        return v;
    }

    /// The kind of value (std.json's JSONType names).
    @property JsonType type() const @nogc nothrow pure {
        return typeOfKind(kindOf(v), v ? v.uni.u : 0);
    }

    @property bool isNull() const @nogc nothrow pure {
        return typeOf(v) == JET_TYPE_NULL;
    }

    /// Elements of an array, members of an object, bytes of a string.
    @property size_t length() const @nogc nothrow pure {
        uint t = typeOf(v);
        return t == JET_TYPE_ARR || t == JET_TYPE_OBJ || t == JET_TYPE_STR || t == JET_TYPE_RAW ? lenOf(v) : 0;
    }

    /// The member named `key`; throws when there is none or this is not an object.
    Json opIndex(const(char)[] key) const {
        if (typeOf(v) != JET_TYPE_OBJ) throw typeError("an object");
        const(jet_val)* m = jet_obj_findn(v, key.ptr, key.length);
        if (!m) throw new JsonException(JET_ERR_NOT_FOUND, "no member \"" ~ key.idup ~ "\"");
        return sibling(m);
    }

    /// Element `i`; throws when out of range or this is not an array.
    Json opIndex(size_t i) const {
        if (typeOf(v) != JET_TYPE_ARR) throw typeError("an array");
        const(jet_val)* e = jet_arr_at(v, i);
        if (!e) throw new JsonException(JET_ERR_NOT_FOUND, "index out of range");
        return sibling(e);
    }

    /// `key in obj`: a pointer to the member's value (GC-allocated), or
    /// null when there is none (or this is not an object), as std.json.
    const(Json)* opBinaryRight(string op : "in")(const(char)[] key) const {
        const(jet_val)* m = typeOf(v) == JET_TYPE_OBJ ? jet_obj_findn(v, key.ptr, key.length) : null;
        if (!m) return null;
        auto r = new Json;
        *r = sibling(m);
        return r;
    }

    /// The member named `key`, or a Json whose type is null_ and handle
    /// null when there is none (no exception).
    Json find(const(char)[] key) const @nogc nothrow {
        return sibling(typeOf(v) == JET_TYPE_OBJ ? jet_obj_findn(v, key.ptr, key.length) : null);
    }

    /// The value at a JSON Pointer (RFC 6901) below this one; throws when none.
    Json at(const(char)[] pointer) const {
        jet_error err;
        const(jet_val)* r = jet_ptr_findn(v, pointer.ptr, pointer.length, &err);
        if (!r) throw new JsonException(err);
        return sibling(r);
    }

    /**
     * The value as T, checked: bool from true/false; any integer type from
     * an integer in its range; float/double from any number; string (a GC
     * copy) or const(char)[] (a view into the document) from a string;
     * Json itself. Anything else throws JsonException (JET_ERR_TYPE, or
     * JET_ERR_NUMBER_RANGE for an integer out of range).
     */
    T get(T)() const {
        static if (is(T == bool) || isIntegral!T || isFloatingPoint!T) {
            return scalarAs!T(kindOf(v), v ? v.uni.u : 0, v ? v.uni.d : 0, type);
        } else static if (is(T == string)) {
            return view.idup;
        } else static if (is(T == const(char)[])) {
            return view;
        } else static if (is(T == Json)) {
            return this;
        } else {
            static assert(0, "Json.get: no conversion to " ~ T.stringof);
        }
    }

    /// Same as get (std.conv's spelling).
    alias to = get;

    /// The bytes of a string value, a view into the document; throws for
    /// other kinds.
    @property const(char)[] view() const {
        if (typeOf(v) != JET_TYPE_STR) throw typeError("a string");
        return v.uni.str[0 .. lenOf(v)];
    }

    mixin StdJsonAccessors; // str, integer, uinteger, floating, boolean

    /// The elements as a GC array of views (std.json's .array).
    @property Json[] array() const {
        if (typeOf(v) != JET_TYPE_ARR) throw typeError("an array");
        Json[] out_;
        out_.reserve(lenOf(v));
        foreach (e; this) out_ ~= e;
        return out_;
    }

    /// The members as a GC associative array (std.json's .object; the
    /// first of duplicate keys wins).
    @property Json[string] object() const {
        if (typeOf(v) != JET_TYPE_OBJ) throw typeError("an object");
        Json[string] out_;
        foreach (k, e; this)
            if (k !in out_) out_[k.idup] = e;
        return out_;
    }

    /// foreach (value; arr): the elements of an array (nothing for other kinds).
    int opApply(scope int delegate(Json) dg) const {
        if (typeOf(v) != JET_TYPE_ARR) return 0;
        const(jet_val)* e = v + 1;
        foreach (_; 0 .. lenOf(v)) {
            if (auto r = dg(sibling(e))) return r;
            e = nextOf(e);
        }
        return 0;
    }

    /// foreach (key, value; obj): the members of an object in document
    /// order (key a view into the document); nothing for other kinds. For
    /// an array with indices: foreach (i, value; arr.array).
    int opApply(scope int delegate(const(char)[], Json) dg) const {
        if (typeOf(v) != JET_TYPE_OBJ) return 0;
        const(jet_val)* k = v + 1;
        foreach (_; 0 .. lenOf(v)) {
            if (auto r = dg(k.uni.str[0 .. lenOf(k)], sibling(k + 1))) return r;
            k = nextOf(k + 1);
        }
        return 0;
    }

    /// Deep equality of two values (jet_val_equal: kinds and numbers exact).
    bool opEquals(const Json other) const @nogc nothrow {
        return jet_val_equal(v, other.v);
    }

    /// Minified JSON text.
    string toString() const {
        return write(0);
    }

    /// Pretty JSON text, 4 spaces of indent (std.json's toPrettyString).
    string toPrettyString() const {
        return write(JET_WRITE_PRETTY);
    }

    private string write(jet_write_flags flags) const {
        return writeText!jet_val_write(v, flags);
    }

    private JsonException typeError(string want) const {
        return .typeError(want, type);
    }
}

// Shared with jet.mutable's JsonValue, whose values have the same kinds.

/// std.json's scalar accessors, through the host's checked get!T.
package mixin template StdJsonAccessors() {
    @property string str() const {
        return get!string;
    }

    @property long integer() const {
        return get!long;
    }

    @property ulong uinteger() const {
        return get!ulong;
    }

    @property double floating() const {
        return get!double;
    }

    @property bool boolean() const {
        return get!bool;
    }
}

/// The JsonType of a value of kind `kind` (type | subtype) whose payload
/// as an unsigned integer is `u`.
package JsonType typeOfKind(uint kind, ulong u) @nogc nothrow pure {
    switch (kind) {
    case JET_TYPE_NULL: return JsonType.null_;
    case JET_TYPE_BOOL | JET_SUBTYPE_TRUE: return JsonType.true_;
    case JET_TYPE_BOOL | JET_SUBTYPE_FALSE: return JsonType.false_;
    case JET_TYPE_NUM | JET_SUBTYPE_UINT: return u > long.max ? JsonType.uinteger : JsonType.integer;
    case JET_TYPE_NUM | JET_SUBTYPE_SINT: return JsonType.integer;
    case JET_TYPE_NUM | JET_SUBTYPE_F64: return JsonType.float_;
    case JET_TYPE_STR: return JsonType.string;
    case JET_TYPE_ARR: return JsonType.array;
    case JET_TYPE_OBJ: return JsonType.object;
    case JET_TYPE_RAW: return JsonType.raw;
    default: return JsonType.null_;
    }
}

/// A bool or number of kind `kind` as T, checked: `u` is the integer
/// payload (a SINT's bits), `d` the double of an F64.
package T scalarAs(T)(uint kind, ulong u, double d, JsonType found) {
    static if (is(T == bool)) {
        if (kind == (JET_TYPE_BOOL | JET_SUBTYPE_TRUE)) return true;
        if (kind == (JET_TYPE_BOOL | JET_SUBTYPE_FALSE)) return false;
        throw typeError("a boolean", found);
    } else static if (isIntegral!T) {
        if (kind == (JET_TYPE_NUM | JET_SUBTYPE_UINT)) {
            if (u <= T.max) return cast(T) u;
        } else if (kind == (JET_TYPE_NUM | JET_SUBTYPE_SINT)) {
            static if (isSigned!T)
                if (cast(long) u >= T.min) return cast(T) cast(long) u;
        } else {
            throw typeError("an integer", found);
        }
        throw new JsonException(JET_ERR_NUMBER_RANGE, "number does not fit " ~ T.stringof);
    } else {
        switch (kind) {
        case JET_TYPE_NUM | JET_SUBTYPE_UINT: return cast(T) u;
        case JET_TYPE_NUM | JET_SUBTYPE_SINT: return cast(T) cast(long) u;
        case JET_TYPE_NUM | JET_SUBTYPE_F64: return cast(T) d;
        default: throw typeError("a number", found);
        }
    }
}

package JsonException typeError(string want, JsonType found) {
    import std.conv : to;
    return new JsonException(JET_ERR_TYPE, "expected " ~ want ~ ", found " ~ found.to!string);
}

/// The text a jet writer (jet_val_write, jet_mut_val_write) gives for `v`,
/// as a GC string ("null" for no value).
package string writeText(alias writeFn, V)(const(V)* v, jet_write_flags flags) {
    if (!v) return "null";
    size_t n;
    jet_error err;
    char* s = writeFn(v, flags, null, &n, &err);
    if (!s) throw new JsonException(err);
    scope (exit) free(s);
    return s[0 .. n].idup;
}
