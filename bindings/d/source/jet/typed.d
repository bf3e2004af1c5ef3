/**
 * Typed decoding and encoding: D types in, JSON out and back, through jet's
 * field tables (jet.h section 13), which are derived from the D types at
 * compile time by introspection.
 *
 * ---
 * struct User { ulong id; string name; @jsonName("e-mail") string email;
 *               Nullable!string phone; int retries = 3; Role role; }
 * User u = fromJSON!User(text);       // throws JsonException on bad input
 * string back = toJSON(u);
 * ---
 *
 * What a type maps to:
 *   bool, all integer widths (range-checked), float, double;
 *   string (copied, GC memory) and const(char)[] (a slice into the input;
 *     strings that had escapes are unescaped into GC memory);
 *   enums by member name (@jsonName on a member renames it; the members'
 *     values must be 0, 1, 2, ... in order, as jet stores the index);
 *   structs (nested), by member name (@jsonName renames), or by position
 *     from a JSON array when the struct is @jsonTuple;
 *   Nullable!T: null or absent is null;
 *   dynamic arrays T[], static arrays T[N] (exactly N elements);
 *   SumType!(A, B, ...) of structs: the variant's name is the struct's name
 *     (or its @jsonName); encoded {"A": {...}} (external, the default),
 *     {"type": "A", ...} with @jsonTag("type") on the field (internal), or
 *     ["A", ...] when every variant is @jsonTuple (array);
 *   V[string] maps (decoded through the cursor, not the C tables).
 * A member with an initializer other than its type's .init, or marked
 * @jsonOptional, may be absent and then keeps that initializer; every other
 * member is required. Unknown members are skipped, or rejected when the
 * decoded type is @jsonStrict.
 */
module jet.typed;

import core.memory : GC;
import std.meta : allSatisfy, staticMap;
import std.sumtype : isSumType;
import std.traits;
import std.typecons : Nullable;

import jet.capi;
import jet.exception;

// ---------------------------------------------------------------- UDAs --

/// The JSON name of a struct member, enum member or SumType variant.
struct jsonName {
    string name;
}

/// On a SumType member: the internal encoding, the variant named by member `key`.
struct jsonTag {
    string key;
}

/// On a struct: read and written as a JSON array, member by position.
enum jsonTuple;

/// On a member: may be absent from the input (it then keeps its initializer).
enum jsonOptional;

/// On the decoded type: an object member that no struct declares is an error.
enum jsonStrict;

// ------------------------------------------------------- classification --

// the element type of an array (std.range's ElementType says dchar for strings)
private alias ElementType(T) = typeof(T.init[0]);

package enum isNullable(T) = is(T : Nullable!U, U);
private template NullableOf(T) {
    static if (is(T : Nullable!U, U))
        alias NullableOf = U;
}
private enum isCharString(T) = isSomeString!T && is(immutable(typeof(T.init[0])) == immutable(char)) &&
    isDynamicArray!T;
package enum isAssocString(T) = isAssociativeArray!T && isCharString!(KeyType!T);

/// true when the C field tables describe T entirely (the fast path); maps
/// (V[string]) and anything holding one are decoded through the cursor.
template isPlain(T) {
    static if (is(T == bool) || isIntegral!T || isFloatingPoint!T || isCharString!T)
        enum isPlain = !isSomeChar!T;
    else static if (is(T == enum))
        enum isPlain = isIntegral!(OriginalType!T);
    else static if (isNullable!T)
        enum isPlain = .isPlain!(NullableOf!T);
    else static if (isSumType!T)
        enum isPlain = T.Types.length >= 2 && T.Types.length < 256 && allSatisfy!(isPlainStruct, T.Types);
    else static if (isStaticArray!T || isDynamicArray!T)
        enum isPlain = .isPlain!(ElementType!T);
    else static if (is(T == struct))
        enum isPlain = allSatisfy!(.isPlain, typeof(T.tupleof));
    else
        enum isPlain = false;
}
private enum isPlainStruct(T) = is(T == struct) && !isNullable!T && !isSumType!T && isPlain!T;

package template memberKey(T, size_t i) {
    alias udas = getUDAs!(T.tupleof[i], jsonName);
    static if (udas.length)
        enum memberKey = udas[0].name;
    else
        enum memberKey = __traits(identifier, T.tupleof[i]);
}

private template variantName(T) {
    alias udas = getUDAs!(T, jsonName);
    static if (udas.length)
        enum variantName = udas[0].name;
    else
        enum variantName = T.stringof;
}

private enum isTuple(T) = hasUDA!(T, jsonTuple);

// ----------------------------------------------------------- C tables --

// A NUL-terminated string literal for the tables (a pointer into CTFE
// memory, (s ~ "\0").ptr, is what LDC cannot emit in a static initializer).
private enum cz(string s) = s ~ "\0";

/// The field describing a value of type FT stored at `off` (CTFE). A
/// SumType (or an array of them) is read in union style `style` with the
/// tag member `tagKey` (INTERNAL); by default EXTERNAL, or ARRAY when all
/// its variants are @jsonTuple.
private jet_field describe(FT, uint style = uint.max, string tagKey = "")(const(char)* key, uint off, uint flags,
                                                                     uint present) {
    jet_field f;
    f.key = key;
    f.offset = off;
    f.size = cast(uint) FT.sizeof;
    f.flags = cast(ushort) flags;
    f.count_offset = JET_NO_OFFSET;
    f.present_offset = present;
    static if (is(FT == enum)) {
        f.kind = JET_K_ENUM;
        f.sub = &EnumTable!FT.en;
    } else static if (is(FT == bool)) {
        f.kind = JET_K_BOOL;
    } else static if (isIntegral!FT) {
        f.kind = isSigned!FT ? JET_K_SINT : JET_K_UINT;
    } else static if (is(FT == float)) {
        f.kind = JET_K_F32;
    } else static if (isFloatingPoint!FT) {
        static assert(FT.sizeof == 8, FT.stringof ~ ": only float and double");
        f.kind = JET_K_F64;
    } else static if (isCharString!FT) {
        // immutable strings are copies (GC or the Decoder's arena); the
        // others are slices of the input where there is no escape
        f.kind = is(typeof(FT.init[0]) == immutable(char)) ? JET_K_STR_COPY : JET_K_STR;
        f.flags |= JET_FIELD_STR_SLICE;
    } else static if (isNullable!FT) {
        f = describe!(NullableOf!FT, style, tagKey)(key, off + cast(uint) FT.tupleof[0].offsetof,
                                     flags | JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE | JET_FIELD_PRESENCE_INVERTED,
                                     off + cast(uint) FT.tupleof[1].offsetof);
    } else static if (isSumType!FT) {
        f.kind = JET_K_UNION;
        static if (style != uint.max)
            f.sub = &UnionTable!(FT, style, tagKey).un;
        else static if (allSatisfy!(isTuple, FT.Types))
            f.sub = &UnionTable!(FT, JET_UNION_ARRAY, "").un;
        else
            f.sub = &UnionTable!(FT, JET_UNION_EXTERNAL, "").un;
    } else static if (isStaticArray!FT) {
        f.kind = JET_K_FIXED_ARRAY;
        f.sub = &ElemTable!(ElementType!FT, style, tagKey).field;
    } else static if (isDynamicArray!FT) {
        f.kind = JET_K_ARRAY;
        f.offset = off + cast(uint) size_t.sizeof; // a D slice: length, then ptr
        f.count_offset = off;
        f.size = cast(uint)(void*).sizeof;
        f.sub = &ElemTable!(ElementType!FT, style, tagKey).field;
    } else static if (is(FT == struct)) {
        f.kind = JET_K_STRUCT;
        f.sub = &StructTable!FT.type;
    } else {
        static assert(0, FT.stringof ~ " has no JSON form in jet.typed");
    }
    return f;
}

/// An array element of type E.
private template ElemTable(E, uint style = uint.max, string tagKey = "") {
    __gshared jet_field field = elemField!(E, style, tagKey)();
}

private jet_field elemField(E, uint style, string tagKey)() {
    jet_field f = describe!(E, style, tagKey)(null, 0, 0, JET_NO_OFFSET);
    static if (isDynamicArray!E && !isCharString!E)
        f.size = cast(uint) E.sizeof; // an array of arrays: the element is itself a slice
    return f;
}

/// A struct's table.
template StructTable(T) if (is(T == struct)) {
    static if (T.tupleof.length) {
        __gshared jet_field[T.tupleof.length] fields = structFields!T();
        __gshared jet_struct type = jet_struct(cz!(T.stringof).ptr, cast(uint) T.sizeof, cast(uint) T.tupleof.length,
                                               &fields[0], isTuple!T ? JET_STRUCT_POSITIONAL : 0);
    } else {
        __gshared jet_struct type = jet_struct(cz!(T.stringof).ptr, cast(uint) T.sizeof, 0, null,
                                               isTuple!T ? JET_STRUCT_POSITIONAL : 0);
    }
}

private jet_field[T.tupleof.length] structFields(T)() {
    jet_field[T.tupleof.length] fs;
    static foreach (i, member; T.tupleof) {{
        alias FT = typeof(member);
        enum off = cast(uint) T.tupleof[i].offsetof;
        const(char)* key = isTuple!T ? null : cz!(memberKey!(T, i)).ptr;
        uint flags = 0;
        // a member with its own initializer, or @jsonOptional, may be absent
        enum hasInit = !isNullable!FT && !isSumType!FT && !sameAsInit(T.init.tupleof[i]);
        static if (hasUDA!(T.tupleof[i], jsonOptional) || hasInit)
            flags |= JET_FIELD_OPTIONAL;
        alias tags = getUDAs!(T.tupleof[i], jsonTag);
        static if (tags.length)
            jet_field f = describe!(FT, JET_UNION_INTERNAL, tags[0].key)(key, off, flags, JET_NO_OFFSET);
        else
            jet_field f = describe!FT(key, off, flags, JET_NO_OFFSET);
        static if (hasInit && (is(FT == bool) || isIntegral!FT || isFloatingPoint!FT || is(FT == enum) ||
                               isCharString!FT)) {
            f.flags |= JET_FIELD_DEFAULT;
            static if (is(FT == enum))
                f.def.i = enumIndex(T.init.tupleof[i]);
            else static if (is(FT == bool) || isSigned!FT)
                f.def.i = T.init.tupleof[i];
            else static if (isIntegral!FT)
                f.def.u = T.init.tupleof[i];
            else static if (isFloatingPoint!FT)
                f.def.d = T.init.tupleof[i];
            else
                f.def.s = cz!(T.init.tupleof[i]).ptr;
        }
        fs[i] = f;
    }}
    return fs;
}

// Whether a member's initializer is its type's .init (bit for bit for
// floating point, where .init is NaN).
package bool sameAsInit(FT)(FT v) {
    static if (isStaticArray!FT) {
        foreach (ref e; v)
            if (!sameAsInit(e)) return false;
        return true;
    } else static if (isFloatingPoint!FT) {
        return v is FT.init;
    } else static if (is(FT == struct)) {
        return v == FT.init;
    } else {
        return v is FT.init;
    }
}

private long enumIndex(E)(E e) {
    foreach (i, m; EnumMembers!E)
        if (m == e) return i;
    return 0;
}

private template EnumTable(E) {
    static foreach (i, m; EnumMembers!E)
        static assert(cast(long) m == i, E.stringof ~ ": jet decodes enums whose members are 0, 1, 2, ... in order");
    __gshared const(char)*[EnumMembers!E.length] names = enumNames!E();
    __gshared jet_enum en = jet_enum(&names[0], cast(uint) EnumMembers!E.length);
}

private const(char)*[EnumMembers!E.length] enumNames(E)() {
    const(char)*[EnumMembers!E.length] ns;
    static foreach (i, name; __traits(allMembers, E)) {{
        alias udas = getUDAs!(__traits(getMember, E, name), jsonName);
        static if (udas.length)
            ns[i] = cz!(udas[0].name).ptr;
        else
            ns[i] = cz!(name).ptr;
    }}
    return ns;
}

private template UnionTable(S, uint style, string tagKey) {
    static assert(is(typeof(S.tupleof[1]) == ubyte), S.stringof ~ ": unexpected SumType layout");
    __gshared const(char)*[S.Types.length] names = unionNames!S();
    __gshared jet_struct*[S.Types.length] variants = unionVariants!S();
    __gshared jet_union un = jet_union(style | JET_UNION_TAG_U8, tagKey.length ? cz!(tagKey).ptr : null,
                                       cast(uint) S.tupleof[1].offsetof, cast(uint) S.tupleof[0].offsetof,
                                       cast(uint) S.Types.length, &names[0], &variants[0]);
}

private const(char)*[S.Types.length] unionNames(S)() {
    const(char)*[S.Types.length] ns;
    static foreach (i, V; S.Types)
        ns[i] = cz!(variantName!V).ptr;
    return ns;
}

private jet_struct*[S.Types.length] unionVariants(S)() {
    jet_struct*[S.Types.length] vs;
    static foreach (i, V; S.Types)
        static if (V.tupleof.length) // an empty struct is a bare name: no payload
            vs[i] = &StructTable!V.type;
    return vs;
}

/// The root of a decode or encode: T itself when it is a keyed struct,
/// else a transparent wrapper (one member without a key) holding T.
template RootTable(T) {
    static if (is(T == struct) && !isNullable!T && !isSumType!T)
        alias RootTable = StructTable!T;
    else
        alias RootTable = StructTable!(Transparent!T);
}

package struct Transparent(T) {
    T value;
}

package template StructTable(T : Transparent!U, U) {
    __gshared jet_field[1] fields = [transparentField!U()];
    __gshared jet_struct type = jet_struct(cz!(U.stringof).ptr, cast(uint) T.sizeof, 1, &fields[0], 0);
}

private jet_field transparentField(U)() {
    return describe!U(null, 0, 0, JET_NO_OFFSET);
}

// ---------------------------------------------------------- allocators --

// Arena chunks from the GC heap: the decoded values that point into them
// keep them alive, and the GC scans them (they hold pointers to each other).
private extern (C) void* gcMalloc(void*, size_t size) nothrow {
    return GC.malloc(size);
}

private extern (C) void* gcRealloc(void*, void* p, size_t, size_t size) nothrow {
    return GC.realloc(p, size);
}

private extern (C) void gcFree(void*, void*) nothrow {
    // left to the collector: decoded values may still point into the chunk
}

private __gshared jet_alloc gcAlloc;

shared static this() {
    gcAlloc = jet_alloc(cast(typeof(jet_alloc.malloc)) &gcMalloc, cast(typeof(jet_alloc.realloc)) &gcRealloc,
                        cast(typeof(jet_alloc.free)) &gcFree, null);
}

// One cursor per thread for fromJSON: results never point into its
// scratch (JET_READ_STABLE_STRINGS), so it is reused across calls.
private jet_od* threadCursor;

static ~this() {
    jet_od_free(threadCursor);
    threadCursor = null;
}

private jet_od* cursor() {
    if (!threadCursor) {
        threadCursor = jet_od_new(null);
        if (!threadCursor) throw new JsonException(JET_ERR_MEMORY, "out of memory");
    }
    return threadCursor;
}

private jet_read_flags decodeFlags(T)(jet_read_flags extra) {
    jet_read_flags f = JET_READ_STABLE_STRINGS | extra;
    static if (is(T == struct) && hasUDA!(T, jsonStrict))
        f |= JET_READ_REJECT_UNKNOWN;
    return f;
}

// -------------------------------------------------------------- decode --

/**
 * Decodes JSON text into a T. Strings of type `string` are GC copies;
 * `const(char)[]` members are slices of `text` (or GC copies when the JSON
 * string had escapes), so keep `text` alive and unchanged as long as they
 * are used. Arrays are GC memory. Throws JsonException (line:column, JSON
 * Pointer of the offending value) on invalid input or a mismatch with T.
 */
T fromJSON(T)(const(char)[] text, jet_read_flags flags = 0) {
    jet_arena arena;
    jet_arena_init(&arena, &gcAlloc);
    // One GC block sized after the input, rather than a chain of growing
    // ones (on twitter.json, jet-d-typed went from about 0.83x to about 1x
    // the C jet-typed in the bench, wall time on a shared machine).
    jet_arena_alloc(&arena, text.length / 16 + 4096, 16);
    jet_arena_reset(&arena);
    static if (isPlain!T) {
        static if (is(T == struct) && !isNullable!T && !isSumType!T) {
            T result = void;
            void* dst = &result;
        } else {
            Transparent!T wrap = void;
            void* dst = &wrap;
        }
        jet_read_opts opts = jet_read_opts(decodeFlags!T(flags), 0, 0);
        jet_error err;
        if (!jet_decode(cursor(), text.ptr, text.length, &RootTable!T.type, dst, &arena, &opts, &err))
            throw new JsonException(err);
        static if (is(typeof(wrap)))
            return wrap.value;
        else
            return result;
    } else {
        jet_od* od = cursor();
        jet_read_opts opts = jet_read_opts(decodeFlags!T(flags), 0, 0);
        jet_odv root;
        T result;
        if (!jet_od_start(od, text.ptr, text.length, &opts, &root))
            throw new JsonException(*jet_od_error(od));
        decodeCursor(od, &arena, root, result, (opts.flags & JET_READ_REJECT_UNKNOWN) != 0);
        if (!jet_od_finish(od))
            throw new JsonException(*jet_od_error(od));
        return result;
    }
}

/// The cursor path, for types the C tables cannot hold (maps): plain parts
/// still go through the tables (jet_odv_decode).
private void decodeCursor(T)(jet_od* od, jet_arena* arena, ref jet_odv v, ref T out_, bool strict) {
    static if (isPlain!T) {
        Transparent!T wrap = void;
        if (!jet_odv_decode(&v, &StructTable!(Transparent!T).type, &wrap, arena))
            throw new JsonException(*jet_od_error(od));
        out_ = wrap.value;
    } else static if (isNullable!T) {
        if (jet_odv_is_null(&v)) {
            out_.nullify();
        } else {
            failIf(od);
            NullableOf!T inner;
            decodeCursor(od, arena, v, inner, strict);
            out_ = inner;
        }
    } else static if (isAssocString!T) {
        jet_od_iter it;
        if (!jet_odv_obj(&v, &it)) throw new JsonException(*jet_od_error(od));
        jet_str key;
        jet_odv mv;
        out_ = null;
        while (jet_od_obj_next(&it, &key, &mv)) {
            ValueType!T value;
            decodeCursor(od, arena, mv, value, strict);
            out_[cast(KeyType!T) key.ptr[0 .. key.len].idup] = value;
        }
        failIf(od);
    } else static if (isDynamicArray!T) {
        jet_od_iter it;
        if (!jet_odv_arr(&v, &it)) throw new JsonException(*jet_od_error(od));
        jet_odv ev;
        out_ = null;
        while (jet_od_arr_next(&it, &ev)) {
            ElementType!T e;
            decodeCursor(od, arena, ev, e, strict);
            out_ ~= e;
        }
        failIf(od);
    } else static if (isStaticArray!T) {
        jet_od_iter it;
        if (!jet_odv_arr(&v, &it)) throw new JsonException(*jet_od_error(od));
        jet_odv ev;
        size_t n;
        while (jet_od_arr_next(&it, &ev)) {
            if (n == T.length)
                throw new JsonException(JET_ERR_TOO_LONG, "more than " ~ T.length.stringof ~ " elements");
            decodeCursor(od, arena, ev, out_[n++], strict);
        }
        failIf(od);
        if (n != T.length)
            throw new JsonException(JET_ERR_TOO_LONG, "fewer than " ~ T.length.stringof ~ " elements");
    } else static if (is(T == struct)) {
        jet_od_iter it;
        if (!jet_odv_obj(&v, &it)) throw new JsonException(*jet_od_error(od));
        jet_str key;
        jet_odv mv;
        bool[T.tupleof.length] seen;
        while (jet_od_obj_next(&it, &key, &mv)) {
            const(char)[] k = key.ptr[0 .. key.len];
            switch (k) {
                static foreach (i, member; T.tupleof) {
                case memberKey!(T, i):
                    if (!seen[i]) {
                        seen[i] = true;
                        decodeCursor(od, arena, mv, out_.tupleof[i], strict);
                    }
                    goto next;
                }
                default:
                    if (strict)
                        throw new JsonException(JET_ERR_UNKNOWN_FIELD, "unknown member \"" ~ k.idup ~ "\"");
            }
        next:
        }
        failIf(od);
        static foreach (i, member; T.tupleof) {{
            alias FT = typeof(member);
            enum optional = isNullable!FT || hasUDA!(T.tupleof[i], jsonOptional) || !sameAsInit(T.init.tupleof[i]);
            static if (!optional) {
                if (!seen[i]) {
                    // the cursor's own error, with line:column and the member's pointer
                    jet_odv none;
                    jet_od_obj_require(&it, cz!(memberKey!(T, i)).ptr, &none);
                    throw jet_od_ok(od) ? new JsonException(JET_ERR_MISSING_FIELD,
                                                            "missing member \"" ~ memberKey!(T, i) ~ "\"")
                                        : new JsonException(*jet_od_error(od));
                }
            }
        }}
    } else {
        static assert(0, T.stringof ~ " has no JSON form in jet.typed");
    }
}

private void failIf(jet_od* od) {
    if (!jet_od_ok(od)) throw new JsonException(*jet_od_error(od));
}

/**
 * A reusable decoder for hot loops: a cursor and an arena of its own (C
 * heap). decode() resets the arena and fills `result`; nothing is
 * allocated on the GC heap, and after the first few documents nothing at
 * all. The result borrows: its arrays and strings (`string` members too)
 * live in the decoder's arena or in `text`, valid until the next decode
 * or the decoder's end. Not thread-safe; one per thread.
 */
struct Decoder {
    private jet_od* od;
    private jet_arena arena;
    private jet_error err;

    @disable this(this);

    ~this() @nogc nothrow {
        jet_od_free(od);
        jet_arena_free(&arena);
        od = null;
    }

    /// Decodes `text` into `result` (plain types only: no maps); false on
    /// failure, with the details in error(). @nogc.
    bool decode(T)(const(char)[] text, ref T result, jet_read_flags flags = 0) @nogc nothrow if (isPlain!T) {
        if (!od) {
            od = jet_od_new(null);
            jet_arena_init(&arena, null);
            if (!od) {
                err.code = JET_ERR_MEMORY;
                err.msg = "out of memory";
                return false;
            }
        }
        jet_arena_reset(&arena);
        jet_read_opts opts = jet_read_opts(decodeFlags!T(flags), 0, 0);
        static if (is(T == struct) && !isNullable!T && !isSumType!T) {
            return jet_decode(od, text.ptr, text.length, &RootTable!T.type, &result, &arena, &opts, &err);
        } else {
            auto wrap = cast(Transparent!T*) &result; // one member at offset 0: the same layout
            return jet_decode(od, text.ptr, text.length, &RootTable!T.type, wrap, &arena, &opts, &err);
        }
    }

    /// The same, throwing JsonException on failure.
    T decode(T)(const(char)[] text, jet_read_flags flags = 0) if (isPlain!T) {
        T result;
        if (!decode(text, result, flags)) throw new JsonException(err);
        return result;
    }

    /// The last failure (code JET_OK when none); path valid until the next decode.
    ref const(jet_error) error() const @nogc nothrow return {
        return err;
    }
}

// -------------------------------------------------------------- encode --

/// The JSON text of `value` (minified), from the same tables as decoding.
string toJSON(T)(auto ref const T value, jet_write_flags flags = 0) {
    static if (isPlain!T) {
        jet_buf buf;
        jet_buf_init(&buf, null);
        scope (exit) jet_buf_free(&buf);
        jet_error err;
        const void* src = &value; // a keyed struct, or Transparent!T's one member at offset 0
        if (!jet_encode(&buf, &RootTable!T.type, src, flags, &err))
            throw new JsonException(err);
        return buf.data[0 .. buf.len].idup;
    } else {
        import jet.write : writeValue;
        enum layout = JET_WRITE_INDENT(15);
        if (!(flags & layout)) return writeValue(value, flags);
        // pretty: the writer splices the plain parts in minified, so the
        // whole text is laid out again through a document
        import jet.dom : parseJSON, writeText;
        auto doc = parseJSON(writeValue(value, flags & ~JET_WRITE_NEWLINE_AT_END));
        return writeText!jet_val_write(doc.root.handle, flags);
    }
}

/// Pretty-printed JSON text (4 spaces, as std.json's toPrettyString).
string toPrettyJSON(T)(auto ref const T value) {
    return toJSON(value, JET_WRITE_PRETTY);
}
