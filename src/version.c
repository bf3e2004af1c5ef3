/*
 * version.c — version and build information.
 */
#include "scan.h"

const char *jet_version(void) { return JET_VERSION_STRING; }

/* The structural-scan kernel chosen at run time ("scalar" = no index, the
 * one-pass reader). */
const char *jet_kernel_name(void) { return jet__kernel_name(jet__kernel()); }
