// num_bench_cxx.cpp — the C++ peers of jet-num-bench (bench/num_bench.c):
// std::from_chars / std::to_chars for double where the standard library has
// them (libstdc++ 11 and later), and RapidJSON's Grisu2 dtoa (the routine
// behind its Writer) when RapidJSON was found. Plain extern "C" wrappers, so
// that num_bench.c stays C.
#include <charconv>
#include <cstddef>
#include <system_error>

#ifdef JB_HAVE_RAPIDJSON
#include <rapidjson/internal/dtoa.h>
#endif

extern "C" {

int nbx_have_charconv(void);
const char *nbx_from_chars(const char *p, const char *end, double *out);
size_t nbx_to_chars(double d, char *buf, size_t cap);
int nbx_have_rapidjson(void);
size_t nbx_rapidjson_dtoa(double d, char *buf);

#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
int nbx_have_charconv(void) { return 1; }

const char *nbx_from_chars(const char *p, const char *end, double *out) {
    std::from_chars_result r = std::from_chars(p, end, *out);
    return r.ec == std::errc() ? r.ptr : nullptr;
}

size_t nbx_to_chars(double d, char *buf, size_t cap) {
    std::to_chars_result r = std::to_chars(buf, buf + cap, d);
    return r.ec == std::errc() ? static_cast<size_t>(r.ptr - buf) : 0;
}
#else
int nbx_have_charconv(void) { return 0; }
const char *nbx_from_chars(const char *, const char *, double *) { return nullptr; }
size_t nbx_to_chars(double, char *, size_t) { return 0; }
#endif

#ifdef JB_HAVE_RAPIDJSON
int nbx_have_rapidjson(void) { return 1; }
// buf: at least 25 bytes (RapidJSON's own Writer uses 25).
size_t nbx_rapidjson_dtoa(double d, char *buf) {
    return static_cast<size_t>(rapidjson::internal::dtoa(d, buf) - buf);
}
#else
int nbx_have_rapidjson(void) { return 0; }
size_t nbx_rapidjson_dtoa(double, char *) { return 0; }
#endif

} // extern "C"
