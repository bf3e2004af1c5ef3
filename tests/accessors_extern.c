/* accessors_extern.c — accessor_probe.h built with JET_NO_INLINE, so that
 * every accessor it calls is the library's exported function (src/
 * accessors.c); test_accessors.c compares the answers with the inline ones. */
#define JET_NO_INLINE
#include "accessor_probe.h"

void probe_value_extern(const jet_val *v, probe *p);
void probe_value_extern(const jet_val *v, probe *p) { probe_value(v, p); }
