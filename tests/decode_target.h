/* decode_target.h — a struct type for jet_decode calls that only need one
 * (the errors of the input are what is compared: test_errors, test_linear,
 * fuzz_validate), and the comparison of two errors. */
#ifndef JET_TEST_DECODE_TARGET_H
#define JET_TEST_DECODE_TARGET_H

#include <jet.h>

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct decode_target {
    int64_t unused;
} decode_target;

static const jet_field decode_target_fields[] = {
    JET_FIELD_F(decode_target, unused, "unused", JET_K_SINT, NULL, JET_FIELD_OPTIONAL),
};
static jet_struct decode_target_type = JET_STRUCT(decode_target, decode_target_fields);

/* Whether two errors have the same code and place (offset, line, column)
 * and the same message. */
static inline bool same_error_place(const jet_error *a, const jet_error *b) {
    return a->code == b->code && a->offset == b->offset && a->line == b->line && a->column == b->column &&
           (a->msg == b->msg || (a->msg && b->msg && strcmp(a->msg, b->msg) == 0));
}

#endif
