/*
 * encode.c — typed encoding: a struct described by a jet_struct table
 * written straight to JSON text (jet.h section 13).
 *
 * Design:
 *   - Output goes into the caller's jet_buf through emit.h's primitives
 *     (shared with the tree writers and jet_writer). Room is reserved once
 *     per scalar, key, bracket or 4 KiB chunk of a string, never per byte;
 *     the buffer at least doubles when it grows, so a reused jet_buf
 *     settles at the size of the largest output and then never reallocates.
 *   - The tables are walked recursively, following the C types. Only data
 *     that nests through arrays of its own type can go deep; depth is
 *     bounded by JET_DEFAULT_MAX_DEPTH so that the C stack stays small.
 *   - Strings, numbers and punctuation are the emitter's, so every writer
 *     gives the same text for the same values and flags.
 *
 * Presence (see docs/typed.md): an optional field that is absent (presence
 * member false, or, without one, a string view whose ptr is NULL) is left
 * out; a nullable field that is absent is written as null, which is what
 * decoding turns back into "absent". In a tuple an omitted field becomes
 * null when a later field follows it, and is dropped at the end.
 */
#include <math.h>

#include "emit.h"

/* First allocation of an empty buffer. */
#define FIRST_CAP 1024u

typedef struct enc {
    char *out;      /* write position */
    jet__emit em;   /* the output */
    size_t indent;  /* spaces per level; 0 for minified output */
    size_t pad;     /* indent * depth */
    unsigned depth; /* open containers */
    jet_code code;  /* the failure, when a function returned false */
    const char *msg;
} enc;

enum { F_WRITE, F_OMIT, F_NULL };

static bool put_value(enc *e, const jet_field *f, const char *base);
static bool put_struct(enc *e, const jet_struct *st, const char *base);

/* ---------------------------------------------------------------------- */
/* Buffer                                                                   */
/* ---------------------------------------------------------------------- */

void jet_buf_init(jet_buf *buf, const jet_alloc *alloc) {
    if (!buf) return;
    buf->data = NULL;
    buf->len = buf->cap = 0;
    buf->alloc = *jet__alloc_or_default(alloc);
}

void jet_buf_free(jet_buf *buf) {
    if (!buf) return;
    if (buf->data) jet__free(&buf->alloc, buf->data);
    buf->data = NULL;
    buf->len = buf->cap = 0;
}

static bool enc_fail(enc *e, jet_code code, const char *msg) {
    e->code = code;
    e->msg = msg;
    return false;
}

static JET_NOINLINE bool enc_emit_fail(enc *e) {
    return enc_fail(e, e->em.code, jet__emit_message(&e->em));
}

#define ROOM(n)                                                       \
    do {                                                              \
        e->out = jet__emit_room(&e->em, e->out, (n));                 \
        if (JET_UNLIKELY(!e->out)) return enc_emit_fail(e);           \
    } while (0)

/* ---------------------------------------------------------------------- */
/* Punctuation and scalars                                                  */
/* ---------------------------------------------------------------------- */

static inline bool open_c(enc *e, char c) {
    if (JET_UNLIKELY(e->depth >= JET_DEFAULT_MAX_DEPTH))
        return enc_fail(e, JET_ERR_DEPTH_LIMIT, "nesting deeper than JET_DEFAULT_MAX_DEPTH");
    e->depth++;
    e->pad += e->indent;
    ROOM(1);
    *e->out++ = c;
    return true;
}

/* Closes a container; `any`: something was written in it (an empty one
 * stays "{}" or "[]" in pretty output too). */
static inline bool close_c(enc *e, char c, bool any) {
    e->depth--;
    e->pad -= e->indent;
    ROOM(e->pad + 2);
    if (any && e->indent) e->out = jet__put_newline(e->out, e->pad);
    *e->out++ = c;
    return true;
}

/* Before an array element: the comma, and the line break when pretty. */
static inline bool put_sep(enc *e, bool first) {
    ROOM(e->pad + 2);
    if (!first) *e->out++ = ',';
    if (e->indent) e->out = jet__put_newline(e->out, e->pad);
    return true;
}

static inline bool put_lit(enc *e, const char *s, size_t n) {
    ROOM(JET__EMIT_SCALAR_ROOM);
    memcpy(e->out, s, n);
    e->out += n;
    return true;
}

/* Quoted and escaped. */
static bool enc_put_str(enc *e, const char *s, size_t n) {
    e->out = jet__emit_str(&e->em, e->out, s, n);
    return e->out ? true : enc_emit_fail(e);
}

/* Separator, line break and quoted key with its colon (and a space when
 * pretty). */
static bool put_key(enc *e, const char *key, size_t n, bool first) {
    ROOM(e->pad + 4);
    if (!first) *e->out++ = ',';
    if (e->indent) e->out = jet__put_newline(e->out, e->pad);
    if (!enc_put_str(e, key, n)) return false;
    ROOM(2);
    e->out = jet__put_colon(e->out, e->indent != 0);
    return true;
}

/* The same for a table's key, a C string. */
static bool put_ckey(enc *e, const char *key, bool first) {
    return put_key(e, key, strlen(key), first);
}

/* Integer members are read with their own width. */
static bool read_int(const char *m, uint32_t size, bool sign, uint64_t *u, int64_t *i) {
    switch (size) {
    case 1:
        if (sign) {
            int8_t v;
            memcpy(&v, m, 1);
            *i = v;
        } else {
            uint8_t v;
            memcpy(&v, m, 1);
            *u = v;
        }
        return true;
    case 2:
        if (sign) {
            int16_t v;
            memcpy(&v, m, 2);
            *i = v;
        } else {
            uint16_t v;
            memcpy(&v, m, 2);
            *u = v;
        }
        return true;
    case 4:
        if (sign) {
            int32_t v;
            memcpy(&v, m, 4);
            *i = v;
        } else {
            uint32_t v;
            memcpy(&v, m, 4);
            *u = v;
        }
        return true;
    case 8:
        if (sign)
            memcpy(i, m, 8);
        else
            memcpy(u, m, 8);
        return true;
    default:
        return false;
    }
}

static bool put_int(enc *e, const char *m, uint32_t size, bool sign) {
    uint64_t u = 0;
    int64_t i = 0;
    if (JET_UNLIKELY(!read_int(m, size, sign, &u, &i)))
        return enc_fail(e, JET_ERR_INVALID_ARG, "integer member of a size other than 1, 2, 4 or 8");
    ROOM(JET__EMIT_SCALAR_ROOM);
    e->out += sign ? jet_num_write_i64(i, e->out) : jet_num_write_u64(u, e->out);
    return true;
}

static bool nan_inf(enc *e) {
    return enc_fail(e, JET_ERR_NAN_INF,
                "NaN or Infinity cannot be written without JET_WRITE_ALLOW_NAN_INF");
}

/* A bool member, or any integer used as one: true when a byte is non-zero
 * (reading it as C bool would be undefined for other bytes than 0 and 1). */
static inline bool read_flag(const char *m, uint32_t size) {
    unsigned char acc = 0;
    for (uint32_t k = 0; k < size; k++) acc |= (unsigned char)m[k];
    return acc != 0;
}

/* ---------------------------------------------------------------------- */
/* Fields                                                                   */
/* ---------------------------------------------------------------------- */

static inline bool is_str_kind(unsigned kind) {
    return kind == JET_K_STR || kind == JET_K_STR_COPY || kind == JET_K_RAW;
}

/* Whether the field of the struct at `base` is written, left out, or
 * written as null. */
static inline int field_state(const jet_field *f, const char *base) {
    if (JET_LIKELY(!(f->flags & (JET_FIELD_OPTIONAL | JET_FIELD_NULLABLE)))) return F_WRITE;
    bool present;
    if (f->present_offset != JET_NO_OFFSET) {
        present = (base[f->present_offset] != 0) != ((f->flags & JET_FIELD_PRESENCE_INVERTED) != 0);
    } else if (is_str_kind(f->kind)) {
        present = jet__field_str_load(base + f->offset, f->flags).ptr != NULL;
    } else {
        return F_WRITE; /* nothing tells absence apart from a value */
    }
    if (present) return F_WRITE;
    return (f->flags & JET_FIELD_NULLABLE) ? F_NULL : F_OMIT;
}

static inline bool put_state(enc *e, const jet_field *f, const char *base, int state) {
    return state == F_WRITE ? put_value(e, f, base) : put_lit(e, "null", 4);
}

/* `n` elements of type `el` from `p` (stride el->size), as a JSON array. */
static bool put_elems(enc *e, const jet_field *el, const char *p, size_t n) {
    if (JET_UNLIKELY(!el)) return enc_fail(e, JET_ERR_INVALID_ARG, "array field without element type");
    if (JET_UNLIKELY(n && !p))
        return enc_fail(e, JET_ERR_INVALID_ARG, "array pointer is NULL but its count is not 0");
    if (!open_c(e, '[')) return false;
    for (size_t k = 0; k < n; k++) {
        if (!put_sep(e, k == 0) || !put_value(e, el, p + k * (size_t)el->size)) return false;
    }
    return close_c(e, ']', n != 0);
}

/* The members of a keyed struct, after `*written` members already in the
 * open object (a union's tag). */
static bool put_members(enc *e, const jet_struct *st, const char *base, size_t *written) {
    const jet_field *f = st->fields, *fend = f + st->count;
    for (; f < fend; f++) {
        if (JET_UNLIKELY(!f->key))
            return enc_fail(e, JET_ERR_INVALID_ARG, "a field of a keyed struct has no key");
        int state = field_state(f, base);
        if (state == F_OMIT) continue;
        if (!put_ckey(e, f->key, *written == 0) || !put_state(e, f, base, state))
            return false;
        ++*written;
    }
    return true;
}

/* The fields of a struct by position, after `*written` elements already in
 * the open array (a union's tag). */
static bool put_items(enc *e, const jet_struct *st, const char *base, size_t *written) {
    size_t held = 0; /* omitted fields not yet known to be followed by one */
    for (uint32_t k = 0; k < st->count; k++) {
        const jet_field *f = &st->fields[k];
        int state = field_state(f, base);
        if (state == F_OMIT) {
            held++;
            continue;
        }
        for (; held; held--, ++*written) {
            if (!put_sep(e, *written == 0) || !put_lit(e, "null", 4)) return false;
        }
        if (!put_sep(e, *written == 0) || !put_state(e, f, base, state)) return false;
        ++*written;
    }
    return true;
}

static bool put_struct(enc *e, const jet_struct *st, const char *base) {
    if (JET_UNLIKELY(!st)) return enc_fail(e, JET_ERR_INVALID_ARG, "struct field without its type");
    size_t written = 0;
    if (st->flags & JET_STRUCT_POSITIONAL) {
        if (!open_c(e, '[') || !put_items(e, st, base, &written)) return false;
        return close_c(e, ']', written != 0);
    }
    if (jet__struct_is_wrapper(st)) {
        /* transparent: the struct is its one field's value */
        const jet_field *f = &st->fields[0];
        int state = field_state(f, base);
        return put_state(e, f, base, state == F_OMIT ? F_NULL : state);
    }
    if (!open_c(e, '{') || !put_members(e, st, base, &written)) return false;
    return close_c(e, '}', written != 0);
}

static bool put_union(enc *e, const jet_union *u, const char *m) {
    if (JET_UNLIKELY(!u)) return enc_fail(e, JET_ERR_INVALID_ARG, "union field without its type");
    int32_t tag;
    if (u->style & JET_UNION_TAG_U8) {
        tag = (uint8_t)m[u->tag_offset];
    } else {
        memcpy(&tag, m + u->tag_offset, sizeof tag);
    }
    if (tag < 0 || (uint32_t)tag >= u->count || !u->names[tag])
        return enc_fail(e, JET_ERR_BAD_TAG, "union tag out of range");
    const char *name = u->names[tag];
    const jet_struct *v = u->variants ? u->variants[tag] : NULL;
    const char *payload = m + u->payload_offset;
    size_t written = 1;
    switch (u->style & JET_UNION_STYLE_MASK) {
    case JET_UNION_EXTERNAL:
        if (!v) return enc_put_str(e, name, strlen(name));
        if (!open_c(e, '{') || !put_ckey(e, name, true) || !put_struct(e, v, payload))
            return false;
        return close_c(e, '}', true);
    case JET_UNION_INTERNAL:
        if (!u->tag_key) return enc_fail(e, JET_ERR_INVALID_ARG, "internal union without tag_key");
        if (v && (v->flags & JET_STRUCT_POSITIONAL))
            return enc_fail(e, JET_ERR_INVALID_ARG, "internal union variant is positional");
        if (!open_c(e, '{') || !put_ckey(e, u->tag_key, true) ||
            !enc_put_str(e, name, strlen(name)))
            return false;
        if (v && !put_members(e, v, payload, &written)) return false;
        return close_c(e, '}', true);
    case JET_UNION_ARRAY:
        if (!open_c(e, '[') || !put_sep(e, true) || !enc_put_str(e, name, strlen(name))) return false;
        if (v && !put_items(e, v, payload, &written)) return false;
        return close_c(e, ']', true);
    default:
        return enc_fail(e, JET_ERR_INVALID_ARG, "unknown union style");
    }
}

/* Pairs: field 0 of the pair struct is the key (a jet_str), field 1 the
 * value. */
static bool put_map(enc *e, const jet_field *f, const char *base) {
    const jet_struct *pair = (const jet_struct *)f->sub;
    if (JET_UNLIKELY(!pair || pair->count < 2 || f->count_offset == JET_NO_OFFSET ||
                     (pair->fields[0].kind != JET_K_STR && pair->fields[0].kind != JET_K_STR_COPY)))
        return enc_fail(e, JET_ERR_INVALID_ARG, "malformed map field");
    const jet_field *kf = &pair->fields[0], *vf = &pair->fields[1];
    const char *p;
    size_t n;
    memcpy(&p, base + f->offset, sizeof p);
    memcpy(&n, base + f->count_offset, sizeof n);
    if (JET_UNLIKELY(n && !p))
        return enc_fail(e, JET_ERR_INVALID_ARG, "map pointer is NULL but its count is not 0");
    if (!open_c(e, '{')) return false;
    size_t written = 0;
    for (size_t k = 0; k < n; k++) {
        const char *pb = p + k * (size_t)pair->size;
        int state = field_state(vf, pb);
        if (state == F_OMIT) continue;
        jet_str key = jet__field_str_load(pb + kf->offset, kf->flags);
        if (!put_key(e, key.ptr, key.len, written == 0) || !put_state(e, vf, pb, state))
            return false;
        written++;
    }
    return close_c(e, '}', written != 0);
}

/* The value of field `f` of the struct (or array element) at `base`. */
static bool put_value(enc *e, const jet_field *f, const char *base) {
    const char *m = base + f->offset;
    switch (f->kind) {
    case JET_K_BOOL:
        return read_flag(m, f->size) ? put_lit(e, "true", 4) : put_lit(e, "false", 5);
    case JET_K_INT:
        return put_int(e, m, f->size, true);
    case JET_K_UINT:
        return put_int(e, m, f->size, false);
    case JET_K_F32: {
        float v;
        memcpy(&v, m, sizeof v);
        if (JET_UNLIKELY(!isfinite(v)) && !e->em.o.nan_inf) return nan_inf(e);
        ROOM(JET__EMIT_SCALAR_ROOM);
        e->out += jet_num_write_f32(v, e->out);
        return true;
    }
    case JET_K_F64: {
        double v;
        memcpy(&v, m, sizeof v);
        if (JET_UNLIKELY(!isfinite(v)) && !e->em.o.nan_inf) return nan_inf(e);
        ROOM(JET__EMIT_SCALAR_ROOM);
        e->out += jet_num_write_f64(v, e->out);
        return true;
    }
    case JET_K_STR:
    case JET_K_STR_COPY: {
        jet_str s = jet__field_str_load(m, f->flags);
        return enc_put_str(e, s.ptr, s.len);
    }
    case JET_K_STR_FIXED: { /* up to the NUL; all N bytes when there is none */
        const char *nul = (const char *)memchr(m, 0, f->size);
        return enc_put_str(e, m, nul ? (size_t)(nul - m) : f->size);
    }
    case JET_K_RAW: {
        jet_str s = jet__field_str_load(m, f->flags);
        if (!s.len) return put_lit(e, "null", 4); /* nothing kept: no value */
        ROOM(s.len);
        memcpy(e->out, s.ptr, s.len);
        e->out += s.len;
        return true;
    }
    case JET_K_STRUCT:
        return put_struct(e, (const jet_struct *)f->sub, m);
    case JET_K_ARRAY: {
        if (JET_UNLIKELY(f->count_offset == JET_NO_OFFSET))
            return enc_fail(e, JET_ERR_INVALID_ARG, "array field without a count member");
        const char *p;
        size_t n;
        memcpy(&p, m, sizeof p);
        memcpy(&n, base + f->count_offset, sizeof n);
        return put_elems(e, (const jet_field *)f->sub, p, n);
    }
    case JET_K_FIXED_ARRAY: {
        const jet_field *el = (const jet_field *)f->sub;
        if (JET_UNLIKELY(!el || !el->size))
            return enc_fail(e, JET_ERR_INVALID_ARG, "fixed array field without element type");
        size_t cap = f->size / el->size, n = cap;
        if (f->count_offset != JET_NO_OFFSET) {
            memcpy(&n, base + f->count_offset, sizeof n);
            if (n > cap) return enc_fail(e, JET_ERR_TOO_LONG, "count larger than the fixed array");
        }
        return put_elems(e, el, m, n);
    }
    case JET_K_ENUM: {
        const jet_enum *en = (const jet_enum *)f->sub;
        uint64_t u = 0;
        int64_t unused = 0;
        if (JET_UNLIKELY(!en || !read_int(m, f->size, false, &u, &unused)))
            return enc_fail(e, JET_ERR_INVALID_ARG, "malformed enum field");
        /* unsigned: a negative value of any width is out of range too */
        if (u >= en->count || !en->names[u]) return enc_fail(e, JET_ERR_BAD_TAG, "enum value out of range");
        return enc_put_str(e, en->names[u], strlen(en->names[u]));
    }
    case JET_K_MAP:
        return put_map(e, f, base);
    case JET_K_UNION:
        return put_union(e, (const jet_union *)f->sub, m);
    default:
        return enc_fail(e, JET_ERR_INVALID_ARG, "unknown field kind");
    }
}

/* ---------------------------------------------------------------------- */
/* Entry point                                                              */
/* ---------------------------------------------------------------------- */

bool jet_encode(jet_buf *out, jet_struct *type, const void *in, jet_write_flags flags,
                jet_error *err) {
    if (!out || !type || !in) {
        jet__error_set(err, JET_ERR_INVALID_ARG, 0,
                       !out ? "no output buffer" : !type ? "no type" : "no input struct");
        return false;
    }
    enc e;
    e.depth = 0;
    e.pad = 0;
    e.code = JET_OK;
    e.msg = NULL;
    jet__emit_init(&e.em, out, NULL, NULL, NULL, flags);
    e.indent = e.em.o.indent;
    size_t start = out->len;
    e.out = jet__emit_start(&e.em, out->data ? 0 : FIRST_CAP);
    bool ok = e.out != NULL || enc_emit_fail(&e);
    ok = ok && put_struct(&e, type, (const char *)in);
    if (ok && (flags & JET_WRITE_NEWLINE_AT_END)) ok = put_lit(&e, "\n", 1);
    if (!ok) {
        out->len = start;
        if (out->data) out->data[start] = '\0';
        jet__error_set(err, e.code, 0, e.msg);
        return false;
    }
    jet__emit_commit(&e.em, e.out, false);
    return true;
}
