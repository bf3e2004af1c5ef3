/* num_bench_nocxx.c — stand-ins for num_bench_cxx.cpp when no C++ compiler
 * was found: the C++ peers are reported as unavailable and skipped. */
#include <stddef.h>

int nbx_have_charconv(void);
const char *nbx_from_chars(const char *p, const char *end, double *out);
size_t nbx_to_chars(double d, char *buf, size_t cap);
int nbx_have_rapidjson(void);
size_t nbx_rapidjson_dtoa(double d, char *buf);

int nbx_have_charconv(void) { return 0; }
const char *nbx_from_chars(const char *p, const char *end, double *out) {
    (void)p; (void)end; (void)out;
    return NULL;
}
size_t nbx_to_chars(double d, char *buf, size_t cap) {
    (void)d; (void)buf; (void)cap;
    return 0;
}
int nbx_have_rapidjson(void) { return 0; }
size_t nbx_rapidjson_dtoa(double d, char *buf) {
    (void)d; (void)buf;
    return 0;
}
