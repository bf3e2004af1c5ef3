/* bind_eq.h — deep equality of two C values described by jet field tables
 * (jet.h section 13), by value: strings by content (a NULL view only equals
 * a NULL view), floating point bitwise, arrays and maps element by element,
 * unions by tag and then payload, optional fields by presence first. It
 * reads the tables as jet.h documents them, independently of the library.
 * Shared by tests/test_bind.c and fuzz/fuzz_bind.c. */
#ifndef JET_TEST_BIND_EQ_H
#define JET_TEST_BIND_EQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jet.h"

#if defined(__GNUC__) || defined(__clang__)
#define BEQ_FN static __attribute__((unused))
#else
#define BEQ_FN static
#endif

/* The key (or "[elem]") of the innermost field found different. */
static const char *beq_where;

static size_t beq_size_at(const char *p) {
    size_t n;
    memcpy(&n, p, sizeof n);
    return n;
}
static const char *beq_ptr_at(const char *p) {
    const char *q;
    memcpy(&q, p, sizeof q);
    return q;
}

BEQ_FN bool beq_str(const jet_str *x, const jet_str *y) {
    if (x->len != y->len) return false;
    if ((x->ptr == NULL) != (y->ptr == NULL)) return false;
    return x->len == 0 || memcmp(x->ptr, y->ptr, x->len) == 0;
}

static bool beq_struct(const jet_struct *t, const char *a, const char *b);

/* Field `f` of the values at `a` and `b` (struct or element bases). */
static bool beq_field(const jet_field *f, const char *a, const char *b) {
    if (f->present_offset != JET_NO_OFFSET) {
        bool pa, pb;
        memcpy(&pa, a + f->present_offset, sizeof pa);
        memcpy(&pb, b + f->present_offset, sizeof pb);
        if (pa != pb) return false;
        if (!pa) return true;
    }
    const char *va = a + f->offset, *vb = b + f->offset;
    switch (f->kind) {
    case JET_K_BOOL: {
        bool x, y;
        memcpy(&x, va, sizeof x);
        memcpy(&y, vb, sizeof y);
        return x == y;
    }
    case JET_K_INT:
    case JET_K_UINT:
    case JET_K_ENUM:
    case JET_K_F32:
    case JET_K_F64: return memcmp(va, vb, f->size) == 0;
    case JET_K_STR:
    case JET_K_STR_COPY:
    case JET_K_RAW: {
        jet_str x, y;
        if (f->flags & JET_FIELD_STR_SLICE) { /* a D slice: length, then pointer */
            memcpy(&x.len, va, sizeof x.len);
            memcpy(&x.ptr, va + sizeof x.len, sizeof x.ptr);
            memcpy(&y.len, vb, sizeof y.len);
            memcpy(&y.ptr, vb + sizeof y.len, sizeof y.ptr);
        } else {
            memcpy(&x, va, sizeof x);
            memcpy(&y, vb, sizeof y);
        }
        return beq_str(&x, &y);
    }
    case JET_K_STR_FIXED: return strncmp(va, vb, f->size) == 0;
    case JET_K_STRUCT: return beq_struct((const jet_struct *)f->sub, va, vb);
    case JET_K_ARRAY: {
        const jet_field *e = (const jet_field *)f->sub;
        size_t na = beq_size_at(a + f->count_offset), nb = beq_size_at(b + f->count_offset);
        if (na != nb) return false;
        const char *xa = beq_ptr_at(va), *xb = beq_ptr_at(vb);
        if (na && (!xa || !xb)) return false;
        for (size_t i = 0; i < na; i++)
            if (!beq_field(e, xa + i * e->size, xb + i * e->size)) {
                if (!beq_where) beq_where = "[elem]";
                return false;
            }
        return true;
    }
    case JET_K_FIXED_ARRAY: {
        const jet_field *e = (const jet_field *)f->sub;
        size_t cap = e->size ? f->size / e->size : 0, na = cap, nb = cap;
        if (f->count_offset != JET_NO_OFFSET) {
            na = beq_size_at(a + f->count_offset);
            nb = beq_size_at(b + f->count_offset);
        }
        if (na != nb || na > cap) return false;
        for (size_t i = 0; i < na; i++)
            if (!beq_field(e, va + i * e->size, vb + i * e->size)) return false;
        return true;
    }
    case JET_K_MAP: {
        const jet_struct *pair = (const jet_struct *)f->sub;
        size_t na = beq_size_at(a + f->count_offset), nb = beq_size_at(b + f->count_offset);
        if (na != nb) return false;
        const char *xa = beq_ptr_at(va), *xb = beq_ptr_at(vb);
        if (na && (!xa || !xb)) return false;
        for (size_t i = 0; i < na; i++)
            if (!beq_struct(pair, xa + i * pair->size, xb + i * pair->size)) return false;
        return true;
    }
    case JET_K_UNION: {
        const jet_union *u = (const jet_union *)f->sub;
        int32_t ta, tb;
        memcpy(&ta, va + u->tag_offset, sizeof ta);
        memcpy(&tb, vb + u->tag_offset, sizeof tb);
        if (ta != tb) return false;
        if (ta < 0 || (uint32_t)ta >= u->count || !u->variants[ta]) return true;
        return beq_struct(u->variants[ta], va + u->payload_offset, vb + u->payload_offset);
    }
    default: return false;
    }
}

static bool beq_struct(const jet_struct *t, const char *a, const char *b) {
    for (uint32_t i = 0; i < t->count; i++)
        if (!beq_field(&t->fields[i], a, b)) {
            if (!beq_where) beq_where = t->fields[i].key ? t->fields[i].key : "[positional]";
            return false;
        }
    return true;
}

/* Public entry: equal values of `type`; on false, beq_where names the field. */
BEQ_FN bool bind_equal(const jet_struct *type, const void *a, const void *b) {
    beq_where = NULL;
    return beq_struct(type, (const char *)a, (const char *)b);
}

#endif
