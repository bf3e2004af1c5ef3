/*
 * grammar.h — the JSON grammar's small decisions, shared by the readers that
 * walk stage 1's structural index: the on-demand cursor (ondemand.c), the
 * typed decoder (bind.c) and the validator's walk (validate.c). Each is a
 * static inline function so that the hot loops inline it; the tests that
 * cost anything sit on the error branches only, where a strict document
 * never goes.
 */
#ifndef JET_GRAMMAR_H
#define JET_GRAMMAR_H

#include "internal.h"

/* Whether c, the first byte of a token where a value is expected, cannot
 * start one: a separator or a close. (Other bytes are checked by the value's
 * reader: literals, numbers.) */
static JET_ALWAYS_INLINE bool jet__gram_not_value(char c) {
    return c == ',' || c == ']' || c == '}' || c == ':';
}

/* After a ',' inside a container that `close` ends, the token c is not an
 * element (or key): whether it ends the container instead, which is a
 * trailing comma, accepted under JET_READ_ALLOW_TRAILING_COMMAS. */
static JET_ALWAYS_INLINE bool jet__gram_trailing_close(jet_read_flags flags, char c, char close) {
    return c == close && (flags & JET_READ_ALLOW_TRAILING_COMMAS) != 0;
}

#endif
