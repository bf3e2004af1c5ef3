/**
 * jet for D: the D binding of jet, a JSON engine in C11.
 *
 *   jet.dom      parseJSON, JsonDoc, Json: the document, std.json-style
 *   jet.typed    fromJSON!T, toJSON, Decoder: D types by introspection
 *   jet.mutable  JsonValue: a mutable value (std.json's JSONValue operations)
 *   jet.capi     the whole C API (extern(C), generated from jet.h)
 *
 * Every failure throws jet.exception.JsonException, a std.json.JSONException.
 * bindings/d/README.md has the std.json migration table.
 */
module jet;

public import jet.capi; // the C names (jet_*, JET_*) do not clash with the D ones
public import jet.dom;
public import jet.exception;
public import jet.mutable;
public import jet.typed;
