/*
 * version.c — version and build information.
 */
#include "internal.h"

const char *jet_version(void) { return JET_VERSION_STRING; }

/* Only the portable scalar reader exists so far; the SIMD structural scan
 * will report the kernel chosen at run time here. */
const char *jet_kernel_name(void) { return "scalar"; }
