/*
 * grammar.h — the JSON grammar's small decisions and the error each one
 * gives (a kind of errors.h), shared by every reader: the DOM reader's
 * one-pass loop (read_onepass.c), the on-demand cursor (od_*.c), typed
 * decoding (bind.c) and the validator's walk (validate.c). They are static
 * inline so that the hot loops inline them; the DOM reader's loop keeps its
 * own dispatch where that is faster and reports through the same kinds.
 * Two 256-entry tables answer the hot questions (a byte that cannot start
 * a value, a blank) with one load; what costs more runs on error branches
 * only, where a strict document never goes.
 */
#ifndef JET_GRAMMAR_H
#define JET_GRAMMAR_H

#include "errors.h"
#include "internal.h"

/* Whether c, the first byte of a token where a value is expected, cannot
 * start one: a separator or a close. (Other bytes are checked by the value's
 * reader: literals, numbers.) */
static const bool jet__gram_not_value_tab[256] = {[','] = true, [':'] = true, [']'] = true, ['}'] = true};
static JET_ALWAYS_INLINE bool jet__gram_not_value(char c) {
    /* a table: one load, where four compares were about 8 instructions
     * (the cursor asks at every element) */
    return jet__gram_not_value_tab[(unsigned char)c];
}

/* JSON's whitespace (RFC 8259: space, tab, line feed, carriage return). */
static const bool jet__gram_blank_tab[256] = {[' '] = true, ['\n'] = true, ['\r'] = true, ['\t'] = true};
static inline bool jet__gram_blank(char c) { return jet__gram_blank_tab[(unsigned char)c]; }

/* After a ',' inside a container that `close` ends, the token c does not
 * start an element (a key, in an object): JET_E_OK when it ends the
 * container and trailing commas are allowed (JET_READ_ALLOW_TRAILING_COMMAS),
 * else the error. */
static inline jet__err jet__gram_after_comma(jet_read_flags flags, char c, char close) {
    if (c == close)
        return (flags & JET_READ_ALLOW_TRAILING_COMMAS) ? JET_E_OK
               : close == ']'                           ? JET_E_TRAILING_COMMA_ARRAY
                                                        : JET_E_TRAILING_COMMA_OBJECT;
    return close == ']' ? JET_E_EXPECTED_VALUE : JET_E_EXPECTED_KEY;
}

/* Whether c can start a JSON value ('N' and 'I' only under
 * JET_READ_ALLOW_NAN_INF, which the caller tells). */
static JET_ALWAYS_INLINE bool jet__gram_value_start(char c, bool nan_inf) {
    switch (c) {
    case '{': case '[': case '"': case '-': case 't': case 'f': case 'n':
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': return true;
    case 'N': case 'I': return nan_inf;
    default: return false;
    }
}

/* The error of a literal that does not match at p ('t', 'f' or 'n', or 'N'
 * or 'I' where NaN and Infinity are not allowed), p < end: the first byte
 * that differs from the literal it started; a whole NaN or Infinity
 * without the flag is wrong from its first byte; an input that ends inside
 * the literal is truncated (at `end`). Returns the offset from p. */
static inline size_t jet__gram_bad_literal(const char *p, const char *end, jet__err *kind) {
    const char *lit = *p == 't' ? "true" : *p == 'f' ? "false" : *p == 'n' ? "null"
                    : *p == 'N' ? "NaN" : "Infinity";
    size_t i = 0;
    while (lit[i] && p + i < end && p[i] == lit[i]) i++;
    if (!lit[i] && (*p == 'N' || *p == 'I')) {
        *kind = JET_E_LITERAL_NAME;
        return 0;
    }
    if (p + i >= end && lit[i]) {
        *kind = JET_E_END_IN_LITERAL;
        return (size_t)(end - p);
    }
    *kind = JET_E_LITERAL_NAME;
    return i;
}

#endif
