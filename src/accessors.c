/*
 * accessors.c — the exported copies of jet.h's inline accessors.
 *
 * jet.h writes each accessor once, as `JET_ACCESSOR signature JET_BODY(body)`.
 * Defined here, JET_DEFINE_ACCESSORS turns those into external JET_API
 * definitions, so libjet exports jet_is_str, jet_get_f64, jet_next, ... with
 * the very bodies that C callers inline: for bindings that cannot inline C,
 * and for C code built with JET_NO_INLINE.
 */

/* Each definition in the header is its own declaration. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#endif

#define JET_DEFINE_ACCESSORS
#include "jet.h"
