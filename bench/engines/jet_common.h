/* jet_common.h — what the jet adapters (jet.c, jet_ondemand.c,
 * jet_typed.c) share. */
#ifndef JET_BENCH_JET_COMMON_H
#define JET_BENCH_JET_COMMON_H

#include "jet.h"

#include <stddef.h>

/* Selects the reader kernel jet chose for this process, remembered before
 * any adapter changed it. The kernel is a process-wide setting that
 * jet-onepass switches to "scalar", and the engines are interleaved, so
 * every jet adapter selects its kernel at the start of each call (one
 * atomic store); the cursor's structural index uses it too. */
void jb_jet_default_kernel(void);

/* "<what>: JET_ERR_... (message) at byte N, path /..." into buf; for a
 * JET_OK error (a check of the adapter's own failed): "<what>: not the
 * expected shape". */
void jb_jet_describe(char *buf, size_t cap, const char *what, const jet_error *e);

#endif
