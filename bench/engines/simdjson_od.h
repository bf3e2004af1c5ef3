// simdjson_od.h — the On-Demand variants compiled from simdjson_od.cpp
// (one namespace per target ISA; see bench/CMakeLists.txt).
#ifndef JET_BENCH_SIMDJSON_OD_H
#define JET_BENCH_SIMDJSON_OD_H

#include "engine.h"

#define JB_OD_DECLARE(ns)                                                  \
    namespace ns {                                                         \
    const char *kernel();                                                  \
    void *create();                                                        \
    void destroy(void *st);                                                \
    void *parse(void *st, const char *json, size_t len);                   \
    int stats(void *st, void *doc, jb_stats *out);                         \
    int validate(void *st, const char *json, size_t len);                  \
    int decode(void *st, const char *json, size_t len, jb_twitter *t);     \
    int nostr(void *st, int variant, const char *const *lines,             \
              const size_t *lens, size_t n, jb_nostr *out);                \
    int api_read(void *st, const char *json, size_t len, ApiResponse *out); \
    }

JB_OD_DECLARE(jb_od_generic)
#ifdef JB_OD_HASWELL
JB_OD_DECLARE(jb_od_haswell)
#endif
#ifdef JB_OD_ICELAKE
JB_OD_DECLARE(jb_od_icelake)
#endif

#endif
