/*
 * version.c — version and build information.
 */
#include "internal.h"

const char *jet_version(void) { return JET_VERSION_STRING; }

/* The string scanner fixed at compile time (see internal.h); the run-time
 * dispatched structural scan will report its kernel here. */
const char *jet_kernel_name(void) { return JET_SCAN_NAME; }
