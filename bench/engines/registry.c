/* registry.c — the engines compiled into jet-bench (see jb_config.h, written
 * by bench/CMakeLists.txt from what it found at configure time). */
#include "engine.h"
#include "jb_config.h"

#ifdef JB_HAVE_JET
extern const jb_engine jb_engine_jet;
extern const jb_engine jb_engine_jet_onepass;
extern const jb_engine jb_engine_jet_threads;
#endif
#ifdef JB_HAVE_JET_ONDEMAND
extern const jb_engine jb_engine_jet_ondemand;
extern const jb_engine jb_engine_jet_ondemand_lazy;
#endif
#ifdef JB_HAVE_JET_TYPED
extern const jb_engine jb_engine_jet_typed;
extern const jb_engine jb_engine_jet_typed_lazy;
#endif
#ifdef JB_HAVE_SIMDJSON
extern const jb_engine jb_engine_simdjson_dom;
extern const jb_engine jb_engine_simdjson_ondemand;
#endif
#ifdef JB_HAVE_RAPIDJSON
extern const jb_engine jb_engine_rapidjson;
extern const jb_engine jb_engine_rapidjson_fullprec;
extern const jb_engine jb_engine_rapidjson_insitu;
#endif
#ifdef JB_HAVE_CJSON
extern const jb_engine jb_engine_cjson;
#endif
#ifdef JB_HAVE_JANSSON
extern const jb_engine jb_engine_jansson;
#endif
#ifdef JB_HAVE_JSONC
extern const jb_engine jb_engine_jsonc;
#endif

const jb_engine *const jb_engines[] = {
#ifdef JB_HAVE_JET
    &jb_engine_jet,
    &jb_engine_jet_onepass,
    &jb_engine_jet_threads,
#endif
#ifdef JB_HAVE_JET_ONDEMAND
    &jb_engine_jet_ondemand,
    &jb_engine_jet_ondemand_lazy,
#endif
#ifdef JB_HAVE_JET_TYPED
    &jb_engine_jet_typed,
    &jb_engine_jet_typed_lazy,
#endif
#ifdef JB_HAVE_SIMDJSON
    &jb_engine_simdjson_dom,
    &jb_engine_simdjson_ondemand,
#endif
#ifdef JB_HAVE_RAPIDJSON
    &jb_engine_rapidjson,
    &jb_engine_rapidjson_fullprec,
    &jb_engine_rapidjson_insitu,
#endif
#ifdef JB_HAVE_CJSON
    &jb_engine_cjson,
#endif
#ifdef JB_HAVE_JANSSON
    &jb_engine_jansson,
#endif
#ifdef JB_HAVE_JSONC
    &jb_engine_jsonc,
#endif
    NULL
};

#ifdef JB_HAVE_JET
extern const jb_mut_ops jb_mut_jet;
#endif
#ifdef JB_HAVE_RAPIDJSON
extern const jb_mut_ops jb_mut_rapidjson;
#endif
#ifdef JB_HAVE_CJSON
extern const jb_mut_ops jb_mut_cjson;
#endif
#ifdef JB_HAVE_JANSSON
extern const jb_mut_ops jb_mut_jansson;
#endif
#ifdef JB_HAVE_JSONC
extern const jb_mut_ops jb_mut_jsonc;
#endif

const jb_mut_ops *const jb_mut_engines[] = {
#ifdef JB_HAVE_JET
    &jb_mut_jet,
#endif
#ifdef JB_HAVE_RAPIDJSON
    &jb_mut_rapidjson,
#endif
#ifdef JB_HAVE_CJSON
    &jb_mut_cjson,
#endif
#ifdef JB_HAVE_JANSSON
    &jb_mut_jansson,
#endif
#ifdef JB_HAVE_JSONC
    &jb_mut_jsonc,
#endif
    NULL
};

const jb_mut_ops *jb_mut_ops_of(const jb_engine *e) {
    for (int i = 0; jb_mut_engines[i]; i++)
        if (jb_mut_engines[i]->engine == e) return jb_mut_engines[i];
    return NULL;
}

const char *const jb_missing_engines[] = {
    JB_MISSING_ENGINES
    NULL, NULL
};

void jb_stats_zero(jb_stats *s) {
    s->objects = s->arrays = s->strings = s->numbers = s->integers = s->doubles = 0;
    s->trues = s->falses = s->nulls = s->keys = s->max_depth = s->string_bytes = 0;
}
