/*
 * error.c — error codes, their names and default messages, and the
 * offset → line:column computation (done only when a failure is reported,
 * so the parse loop never tracks lines).
 */
#include "internal.h"

static const char *const code_names[JET_ERR__COUNT] = {
    "JET_OK",
    "JET_ERR_INVALID_ARG",
    "JET_ERR_MEMORY",
    "JET_ERR_SIZE_LIMIT",
    "JET_ERR_DEPTH_LIMIT",
    "JET_ERR_EMPTY",
    "JET_ERR_TRUNCATED",
    "JET_ERR_UNEXPECTED_CHAR",
    "JET_ERR_TRAILING_CONTENT",
    "JET_ERR_LITERAL",
    "JET_ERR_NUMBER",
    "JET_ERR_NUMBER_RANGE",
    "JET_ERR_STRING_CONTROL",
    "JET_ERR_STRING_ESCAPE",
    "JET_ERR_SURROGATE",
    "JET_ERR_UTF8",
    "JET_ERR_COMMENT",
    "JET_ERR_IO",
    "JET_ERR_NOT_FOUND",
    "JET_ERR_POINTER",
    "JET_ERR_TYPE",
    "JET_ERR_NAN_INF",
    "JET_ERR_MISSING_FIELD",
    "JET_ERR_UNKNOWN_FIELD",
    "JET_ERR_BAD_TAG",
    "JET_ERR_TOO_LONG",
    "JET_ERR_OUT_OF_ORDER",
};

static const char *const code_messages[JET_ERR__COUNT] = {
    "success",
    "invalid argument",
    "out of memory",
    "input larger than the size limit",
    "nesting deeper than the depth limit",
    "no value in the input",
    "unexpected end of input",
    "unexpected character",
    "unexpected content after the document",
    "invalid literal",
    "invalid number",
    "number out of range",
    "control character in string must be escaped",
    "invalid escape sequence in string",
    "invalid UTF-16 surrogate in \\u escape",
    "invalid UTF-8 byte sequence",
    "unterminated comment",
    "input/output error",
    "no value at this JSON Pointer",
    "malformed JSON Pointer",
    "value has the wrong type",
    "NaN or Infinity cannot be written as JSON",
    "required field is missing",
    "unknown field",
    "tag is not one of the declared names",
    "value does not fit its fixed-size destination",
    "value read after the cursor moved past it",
};

const char *jet_code_name(jet_code code) {
    return ((unsigned)code < JET_ERR__COUNT) ? code_names[code] : "JET_ERR_UNKNOWN";
}

const char *jet__code_message(jet_code code) {
    return ((unsigned)code < JET_ERR__COUNT) ? code_messages[code] : "unknown error";
}

void jet__error_set(jet_error *err, jet_code code, size_t offset, const char *msg) {
    if (!err) return;
    err->code = code;
    err->offset = offset;
    err->line = 0;
    err->column = 0;
    err->msg = msg ? msg : jet__code_message(code);
    err->path = NULL;
}

void jet__error_at(jet_error *err, jet_code code, const char *json, size_t len,
                   size_t offset, const char *msg) {
    if (!err) return;
    jet__error_set(err, code, offset, msg);
    if (offset > len) offset = len;
    size_t line = 1, col = 1;
    if (json) {
        for (size_t i = 0; i < offset; i++) {
            unsigned char c = (unsigned char)json[i];
            if (c == '\n') {
                line++;
                col = 1;
            } else if ((c & 0xC0) != 0x80) {
                col++; /* count code points: skip UTF-8 continuation bytes */
            }
        }
    }
    err->line = line;
    err->column = col;
}
