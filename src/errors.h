/*
 * errors.h — every error a reader reports, by kind: its public code and its
 * message, in one table (error.c). The first kinds are the codes themselves
 * (kind == code, with the code's default message); the others name the
 * precise cases. The DOM reader, the cursor, typed decoding and the
 * validators report through these kinds, so one fault reads the same
 * whichever of them meets it.
 */
#ifndef JET_ERRORS_H
#define JET_ERRORS_H

#include "jet.h"

/* X(kind, code, message) */
#define JET__ERRORS(X)                                                                        \
    /* one per code, in jet_code's order: the codes' default messages */                      \
    X(OK, JET_OK, "success")                                                                  \
    X(INVALID_ARG, JET_ERR_INVALID_ARG, "invalid argument")                                   \
    X(MEMORY, JET_ERR_MEMORY, "out of memory")                                                \
    X(SIZE_LIMIT, JET_ERR_SIZE_LIMIT, "input larger than the size limit")                     \
    X(DEPTH_LIMIT, JET_ERR_DEPTH_LIMIT, "nesting deeper than the depth limit")                \
    X(EMPTY, JET_ERR_EMPTY, "no value in the input")                                          \
    X(TRUNCATED, JET_ERR_TRUNCATED, "unexpected end of input")                                \
    X(UNEXPECTED_CHAR, JET_ERR_UNEXPECTED_CHAR, "unexpected character")                       \
    X(TRAILING_CONTENT, JET_ERR_TRAILING_CONTENT, "unexpected content after the document")    \
    X(LITERAL, JET_ERR_LITERAL, "invalid literal")                                            \
    X(NUMBER, JET_ERR_NUMBER, "invalid number")                                               \
    X(NUMBER_RANGE, JET_ERR_NUMBER_RANGE, "number out of range")                              \
    X(STRING_CONTROL, JET_ERR_STRING_CONTROL, "control character in string must be escaped")  \
    X(STRING_ESCAPE, JET_ERR_STRING_ESCAPE, "invalid escape sequence in string")              \
    X(SURROGATE, JET_ERR_SURROGATE, "invalid UTF-16 surrogate in \\u escape")                 \
    X(UTF8, JET_ERR_UTF8, "invalid UTF-8 byte sequence")                                      \
    X(COMMENT, JET_ERR_COMMENT, "unterminated comment")                                       \
    X(IO, JET_ERR_IO, "input/output error")                                                   \
    X(NOT_FOUND, JET_ERR_NOT_FOUND, "no value at this JSON Pointer")                          \
    X(POINTER, JET_ERR_POINTER, "malformed JSON Pointer")                                     \
    X(TYPE, JET_ERR_TYPE, "value has the wrong type")                                         \
    X(NAN_INF, JET_ERR_NAN_INF, "NaN or Infinity cannot be written as JSON")                  \
    X(MISSING_FIELD, JET_ERR_MISSING_FIELD, "required field is missing")                      \
    X(UNKNOWN_FIELD, JET_ERR_UNKNOWN_FIELD, "unknown field")                                  \
    X(BAD_TAG, JET_ERR_BAD_TAG, "tag is not one of the declared names")                       \
    X(TOO_LONG, JET_ERR_TOO_LONG, "value does not fit its fixed-size destination")            \
    X(OUT_OF_ORDER, JET_ERR_OUT_OF_ORDER, "value read after the cursor moved past it")        \
    X(PATCH_TEST, JET_ERR_PATCH_TEST, "JSON Patch: the test operation found a different value") \
    X(DUPLICATE_KEY, JET_ERR_DUPLICATE_KEY, "a declared field appears twice in one object") \
    /* arguments and resources */                                                             \
    X(NULL_INPUT, JET_ERR_INVALID_ARG, "NULL input")                                          \
    X(NULL_PARSER, JET_ERR_INVALID_ARG, "NULL parser")                                        \
    X(NULL_PATH, JET_ERR_INVALID_ARG, "NULL path")                                            \
    X(NULL_DECODE_ARG, JET_ERR_INVALID_ARG, "NULL cursor, schema or output")                  \
    X(NULL_SCHEMA, JET_ERR_INVALID_ARG, "NULL schema or output")                              \
    X(NEEDS_ARENA, JET_ERR_INVALID_ARG, "this schema needs an arena")                         \
    X(SCHEMA_MALFORMED, JET_ERR_INVALID_ARG, "malformed schema")                              \
    X(SCHEMA_KIND, JET_ERR_INVALID_ARG, "unknown field kind in schema")                       \
    X(INPUT_TOO_LARGE, JET_ERR_MEMORY, "input too large")                                     \
    X(ARRAY_TOO_LARGE, JET_ERR_MEMORY, "array too large")                                     \
    X(IO_OPEN, JET_ERR_IO, "cannot open file")                                                \
    X(IO_READ, JET_ERR_IO, "cannot read file")                                                \
    /* the input ends early */                                                                \
    X(END_IN_STRING, JET_ERR_TRUNCATED, "unexpected end of input in string")                  \
    X(END_IN_ESCAPE, JET_ERR_TRUNCATED, "unexpected end of input in string escape")           \
    X(END_IN_U_ESCAPE, JET_ERR_TRUNCATED, "unexpected end of input in \\u escape")            \
    X(END_IN_LITERAL, JET_ERR_TRUNCATED, "unexpected end of input in literal")                \
    X(END_IN_NUMBER, JET_ERR_TRUNCATED, "unexpected end of input in number")                  \
    X(END_IN_ARRAY, JET_ERR_TRUNCATED, "unexpected end of input in array")                    \
    X(END_IN_OBJECT, JET_ERR_TRUNCATED, "unexpected end of input in object")                  \
    X(END_IN_CONTAINER, JET_ERR_TRUNCATED, "unexpected end of input in container")            \
    X(END_AFTER_KEY, JET_ERR_TRUNCATED, "unexpected end of input after object key")           \
    X(END_AFTER_COLON, JET_ERR_TRUNCATED, "unexpected end of input after ':'")                \
    X(END_BEFORE_VALUE, JET_ERR_TRUNCATED, "unexpected end of input: expected a value")       \
    /* structure */                                                                           \
    X(EXPECTED_VALUE, JET_ERR_UNEXPECTED_CHAR, "expected a value")                            \
    X(EXPECTED_ARRAY_SEP, JET_ERR_UNEXPECTED_CHAR, "expected ',' or ']' after array element") \
    X(EXPECTED_OBJECT_SEP, JET_ERR_UNEXPECTED_CHAR, "expected ',' or '}' after object member") \
    X(EXPECTED_COLON, JET_ERR_UNEXPECTED_CHAR, "expected ':' after object key")               \
    X(EXPECTED_KEY, JET_ERR_UNEXPECTED_CHAR, "expected '\"' to start an object key")          \
    X(EXPECTED_KEY_OR_CLOSE, JET_ERR_UNEXPECTED_CHAR, "expected '\"' to start an object key or '}'") \
    X(TRAILING_COMMA_ARRAY, JET_ERR_UNEXPECTED_CHAR, "trailing comma before ']'")             \
    X(TRAILING_COMMA_OBJECT, JET_ERR_UNEXPECTED_CHAR, "trailing comma before '}'")            \
    X(BAD_SLASH, JET_ERR_UNEXPECTED_CHAR, "'/' does not start a comment")                     \
    X(COMMENT_BLOCK, JET_ERR_COMMENT, "unterminated /* comment")                              \
    X(INVALID_JSON, JET_ERR_UNEXPECTED_CHAR, "invalid JSON")                                  \
    /* scalars */                                                                             \
    X(LITERAL_NAME, JET_ERR_LITERAL, "invalid literal (expected true, false or null)")        \
    X(AFTER_VALUE, JET_ERR_UNEXPECTED_CHAR, "expected ',' or a closing bracket after the value") \
    X(RANGE_DOUBLE, JET_ERR_NUMBER_RANGE, "number out of range for a double")                 \
    X(RANGE_INT64, JET_ERR_NUMBER_RANGE, "integer out of range for int64")                    \
    X(RANGE_UINT64, JET_ERR_NUMBER_RANGE, "integer out of range for uint64")                  \
    X(RANGE_FIELD, JET_ERR_NUMBER_RANGE, "integer out of range for its field")                \
    X(FIXED_STRING_NUL, JET_ERR_TOO_LONG, "string with \\u0000 does not fit a NUL-terminated fixed-size field") \
    X(ESCAPE_CHAR, JET_ERR_STRING_ESCAPE, "invalid escape character in string")               \
    X(U_ESCAPE_HEX, JET_ERR_STRING_ESCAPE, "\\u escape needs 4 hex digits")                   \
    X(SURROGATE_HIGH, JET_ERR_SURROGATE, "high surrogate \\u escape not followed by a low surrogate") \
    X(SURROGATE_LOW, JET_ERR_SURROGATE, "lone low surrogate \\u escape")                      \
    X(UTF8_STRING, JET_ERR_UTF8, "invalid UTF-8 byte sequence in string")                     \
    /* the cursor and typed decoding */                                                       \
    X(ITER_LEFT, JET_ERR_OUT_OF_ORDER, "iterator used after the cursor left its container")   \
    X(WANT_BOOL, JET_ERR_TYPE, "expected a boolean")                                          \
    X(WANT_NUMBER, JET_ERR_TYPE, "expected a number")                                         \
    X(WANT_INTEGER, JET_ERR_TYPE, "expected an integer")                                      \
    X(WANT_STRING, JET_ERR_TYPE, "expected a string")                                         \
    X(WANT_ARRAY, JET_ERR_TYPE, "expected an array")                                          \
    X(WANT_OBJECT, JET_ERR_TYPE, "expected an object")                                        \
    X(WANT_ENUM_NAME, JET_ERR_TYPE, "expected a string (enum name)")                          \
    X(WANT_TUPLE, JET_ERR_TYPE, "expected an array (positional struct)")                      \
    X(WANT_UNION_ARRAY, JET_ERR_TYPE, "expected an array (tagged union)")                     \
    X(WANT_UNION_OBJECT, JET_ERR_TYPE, "expected an object (tagged union)")                   \
    X(WANT_UNION_TAG, JET_ERR_TYPE, "expected the union's tag (a string)")                    \
    X(VARIANT_NEEDS_OBJECT, JET_ERR_TYPE, "this variant needs an object")                     \
    X(UNION_ONE_MEMBER, JET_ERR_UNEXPECTED_CHAR, "a tagged union has exactly one member")     \
    X(FIXED_STRING_LONG, JET_ERR_TOO_LONG, "string longer than its fixed-size field")         \
    X(FIXED_ARRAY_MORE, JET_ERR_TOO_LONG, "more elements than the fixed-size array holds")    \
    X(FIXED_ARRAY_FEWER, JET_ERR_TOO_LONG, "fewer elements than the fixed-size array needs")  \
    X(TUPLE_MORE, JET_ERR_TOO_LONG, "more elements than the tuple has fields")                \
    X(VARIANT_NO_ELEMENTS, JET_ERR_TOO_LONG, "this variant takes no elements")                \
    X(NOT_ENUM_NAME, JET_ERR_BAD_TAG, "not one of the enum's names")                          \
    X(NOT_UNION_TAG, JET_ERR_BAD_TAG, "not one of the union's tags")                          \
    X(UNION_EMPTY, JET_ERR_BAD_TAG, "empty object: no union tag")                             \
    /* JSON Patch (RFC 6902) and JSON Merge Patch (RFC 7386) */                               \
    X(PATCH_NOT_ARRAY, JET_ERR_TYPE, "a JSON Patch is an array of operations")               \
    X(PATCH_OP_NOT_OBJECT, JET_ERR_TYPE, "a JSON Patch operation is an object")               \
    X(PATCH_NO_OP, JET_ERR_MISSING_FIELD, "operation without \"op\"")                        \
    X(PATCH_OP_TYPE, JET_ERR_TYPE, "\"op\" is not a string")                                 \
    X(PATCH_BAD_OP, JET_ERR_BAD_TAG, "\"op\" is not add, remove, replace, move, copy or test") \
    X(PATCH_NO_PATH, JET_ERR_MISSING_FIELD, "operation without \"path\"")                    \
    X(PATCH_PATH_TYPE, JET_ERR_TYPE, "\"path\" is not a string")                             \
    X(PATCH_NO_FROM, JET_ERR_MISSING_FIELD, "operation without \"from\"")                    \
    X(PATCH_FROM_TYPE, JET_ERR_TYPE, "\"from\" is not a string")                             \
    X(PATCH_NO_VALUE, JET_ERR_MISSING_FIELD, "operation without \"value\"")                  \
    X(PATCH_REPEATED_MEMBER, JET_ERR_INVALID_ARG, "operation with \"op\", \"path\", \"from\" or \"value\" twice") \
    X(PATCH_MOVE_INTO_CHILD, JET_ERR_INVALID_ARG, "\"move\" from a location into its own child") \
    X(MUT_DEPTH, JET_ERR_DEPTH_LIMIT, "nesting deeper than JET_MUT_MAX_DEPTH (or a cycle)")  \
    /* document streams (stream.c) */                                                         \
    X(STREAM_BOM, JET_ERR_UNEXPECTED_CHAR, "byte order mark at the start of the stream (JET_STREAM_ALLOW_BOM skips it)") \
    X(STREAM_FED_AFTER_END, JET_ERR_INVALID_ARG, "chunk fed after the end of the input")     \
    X(STREAM_READ, JET_ERR_IO, "cannot read the input")                                      \
    X(STREAM_THREAD, JET_ERR_MEMORY, "cannot start a worker thread")

typedef enum jet__err {
#define JET__ERR_ENUM(kind, code, msg) JET_E_##kind,
    JET__ERRORS(JET__ERR_ENUM)
#undef JET__ERR_ENUM
    JET_E__COUNT
} jet__err;

typedef struct jet__err_info {
    jet_code code;
    const char *msg;
} jet__err_info;

/* The table (error.c), indexed by kind. */
extern const jet__err_info jet__errs[JET_E__COUNT];

/* Sets err from a kind at `offset`; line and column are computed within
 * json[0..len) (0 when json is NULL). */
void jet__error_kind_at(jet_error *err, jet__err kind, const char *json, size_t len, size_t offset);

/* The same without an input: line and column 0. */
void jet__error_kind(jet_error *err, jet__err kind, size_t offset);

/* The kind of a failed number's code (jet_num_parse): the DOM reader, the
 * cursor and the validators say the same. */
static inline jet__err jet__err_of_number(jet_code code) {
    return code == JET_ERR_NUMBER_RANGE ? JET_E_RANGE_DOUBLE
           : code == JET_ERR_TRUNCATED  ? JET_E_END_IN_NUMBER
           : code == JET_ERR_LITERAL    ? JET_E_LITERAL
                                        : JET_E_NUMBER;
}

#endif
