/// The exception every jet call throws: a std.json.JSONException, so code
/// that catches std.json's keeps working.
module jet.exception;

import std.conv : to;
import std.json : JSONException;

import jet.capi;

/**
 * A failure with jet's details: `code`, `line` and `column` (1-based;
 * 0 when unknown), byte `offset`, and `path`, the JSON Pointer of the
 * offending value ("" for the root; null when unknown). The message reads
 * "line:column: JET_ERR_...: reason (at "/path")".
 */
class JsonException : JSONException {
    jet_code code;
    size_t line, column, offset;
    string path;
    string reason;

    this(const ref jet_error e, string file = __FILE__, size_t fline = __LINE__) {
        code = e.code;
        line = e.line;
        column = e.column;
        offset = e.offset;
        path = e.path ? e.path[0 .. strlen(e.path)].idup : null;
        reason = e.msg ? e.msg[0 .. strlen(e.msg)].idup : "error";
        super(describe(), file, fline);
    }

    this(jet_code c, string why, string at = null, string file = __FILE__, size_t fline = __LINE__) {
        code = c;
        reason = why;
        path = at;
        super(describe(), file, fline);
    }

    private string describe() const {
        const(char)* name = jet_code_name(code);
        string s = line ? line.to!string ~ ":" ~ column.to!string ~ ": " : "";
        s ~= name[0 .. strlen(name)] ~ ": " ~ reason;
        if (path !is null) s ~= " (at \"" ~ path ~ "\")";
        return s;
    }
}

private size_t strlen(const(char)* s) @nogc nothrow {
    import core.stdc.string : cstrlen = strlen;
    return cstrlen(s);
}
