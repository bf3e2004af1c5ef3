/// Encoding of the types the C tables cannot describe (maps, and whatever
/// holds one), with jet's streaming writer; plain parts still go through
/// the tables (jet_encode). Used by jet.typed.toJSON.
module jet.write;

import std.traits;

import jet.capi;
import jet.exception;
import jet.typed : isPlain, isNullable, isAssocString, memberKey, RootTable;

package string writeValue(T)(auto ref const T value, jet_write_flags flags) {
    jet_buf out_;
    jet_buf_init(&out_, null);
    scope (exit) jet_buf_free(&out_);
    jet_writer w;
    jet_writer_init_buf(&w, &out_, flags);
    jet_buf scratch; // the text of plain parts
    jet_buf_init(&scratch, null);
    scope (exit) jet_buf_free(&scratch);
    put(w, scratch, value, flags & ~JET_WRITE_NEWLINE_AT_END);
    if (!jet_writer_finish(&w)) throw new JsonException(*jet_writer_error(&w));
    return out_.data[0 .. out_.len].idup;
}

private void put(T)(ref jet_writer w, ref jet_buf scratch, ref const T value, jet_write_flags flags) {
    bool ok;
    static if (isPlain!T && !(isDynamicArray!T && !isSomeString!T)) {
        // one value through the tables, spliced in minified (toJSON lays
        // out a pretty text again as a whole)
        scratch.len = 0;
        jet_error err;
        if (!jet_encode(&scratch, &RootTable!T.type, &value, 0, &err)) throw new JsonException(err);
        ok = jet_writer_raw(&w, scratch.data, scratch.len);
    } else static if (isNullable!T) {
        if (value.isNull)
            ok = jet_writer_null(&w);
        else {
            put(w, scratch, value.get, flags);
            return;
        }
    } else static if (isAssocString!T) {
        ok = jet_writer_obj_begin(&w);
        foreach (k, ref v; value) {
            jet_writer_keyn(&w, k.ptr, k.length);
            put(w, scratch, v, flags);
        }
        ok = jet_writer_obj_end(&w);
    } else static if (isArray!T) {
        ok = jet_writer_arr_begin(&w);
        foreach (ref e; value) put(w, scratch, e, flags);
        ok = jet_writer_arr_end(&w);
    } else static if (is(T == struct)) {
        ok = jet_writer_obj_begin(&w);
        static foreach (i, member; T.tupleof) {{
            enum key = memberKey!(T, i);
            jet_writer_keyn(&w, key.ptr, key.length);
            put(w, scratch, value.tupleof[i], flags);
        }}
        ok = jet_writer_obj_end(&w);
    } else {
        static assert(0, T.stringof ~ " has no JSON form in jet.typed");
    }
    if (!ok) throw new JsonException(*jet_writer_error(&w));
}
