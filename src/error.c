/*
 * error.c — error codes, their names and default messages, and the
 * offset → line:column computation (done only when a failure is reported,
 * so the parse loop never tracks lines).
 */
#include "internal.h"

#include "errors.h"

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
    "JET_ERR_PATCH_TEST",
    "JET_ERR_DUPLICATE_KEY",
};

/* Every reader's errors (errors.h): the first JET_ERR__COUNT kinds are the
 * codes themselves, so this is also the table of default messages. */
const jet__err_info jet__errs[JET_E__COUNT] = {
#define JET__ERR_ROW(kind, code, msg) {code, msg},
    JET__ERRORS(JET__ERR_ROW)
#undef JET__ERR_ROW
};

_Static_assert(JET_E_DUPLICATE_KEY == (int)JET_ERR_DUPLICATE_KEY && JET_ERR__COUNT == JET_ERR_DUPLICATE_KEY + 1,
               "the first kinds are the codes, in order");

const char *jet_code_name(jet_code code) {
    return ((unsigned)code < JET_ERR__COUNT) ? code_names[code] : "JET_ERR_UNKNOWN";
}

const char *jet__code_message(jet_code code) {
    return ((unsigned)code < JET_ERR__COUNT) ? jet__errs[code].msg : "unknown error";
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

void jet__error_kind_at(jet_error *err, jet__err kind, const char *json, size_t len, size_t offset) {
    jet__error_at(err, jet__errs[kind].code, json, len, offset, jet__errs[kind].msg);
}

void jet__error_kind(jet_error *err, jet__err kind, size_t offset) {
    jet__error_set(err, jet__errs[kind].code, offset, jet__errs[kind].msg);
}
