/* text_log.h — a growing NUL-terminated text, for the stream tests' logs
 * of what a stream yields (compared as strings). */
#ifndef JET_TEST_TEXT_LOG_H
#define JET_TEST_TEXT_LOG_H

#include <stdlib.h>
#include <string.h>

typedef struct text {
    char *p;
    size_t len, cap;
} text;

/* Appends n bytes; the text stays NUL-terminated (even when empty). */
static inline void text_add(text *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        char *g = (char *)realloc(t->p, t->cap);
        if (!g) exit(2);
        t->p = g;
    }
    if (n) memcpy(t->p + t->len, s, n);
    t->len += n;
    t->p[t->len] = 0;
}

#endif
