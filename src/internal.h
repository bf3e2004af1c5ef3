/*
 * internal.h — definitions shared by jet's source files, not part of the API.
 */
#ifndef JET_INTERNAL_H
#define JET_INTERNAL_H

#include "jet.h"

#include <string.h>

#include "bits.h"
#include "platform.h"

/* The string scanner looks at 16 bytes at a time with the vector unit every
 * CPU of the architecture has (SSE2 on x86-64); elsewhere, or when built with
 * JET_PORTABLE, 8 bytes at a time in a 64-bit register (SWAR). Both paths give
 * identical results; CI tests both builds. */
#define JET_SCAN_SSE2 JET_SIMD_X86

/* A document's storage. Values and strings live in two arenas: `vals`
 * (16-byte slots in document order) and `strs` (unescaped string bytes, each
 * NUL-terminated). A parser keeps one embedded document and reuses both
 * arenas; a standalone document (jet_read) owns them. */
struct jet_doc {
    jet_val *vals;
    size_t val_cap;   /* slots allocated */
    size_t val_count; /* slots used */
    char *strs;
    size_t str_cap; /* bytes allocated */
    size_t read_size;
    jet_alloc alloc;
    bool parser_owned; /* jet_doc_free() is a no-op */
};

/* Per-level bookkeeping of the reader's explicit stack: one frame per open
 * container (frames[0] stands for the document). */
typedef struct jet_frame {
    union {
        jet_val *slot; /* the container's slot (NULL in frames[0]) */
        size_t ofs;    /* the same as an index while the slots move */
    } ctn;
    size_t meta; /* the enclosing container's elements so far << 1 | 1 when it
                    is an object, saved while this one is open */
} jet_frame;

/* The reader's scratch, kept by a parser between parses: the depth stack and
 * the structural index (stage 1's output, one bit per input byte). */
typedef struct jet_stack {
    jet_frame *frames;
    size_t cap;
    uint64_t *index;
    size_t index_cap; /* words */
} jet_stack;

/* The reader indexes its input in windows of this many 64-byte blocks (0:
 * the default, or JET_INDEX_WINDOW); tests use tiny windows so that every
 * token and string meets a window boundary somewhere. */
void jet__index_window_set(size_t words);
/* Documents the reader's index route rejected and its one-pass reader then
 * accepted, since the process started: a defect each (tests expect 0). */
size_t jet__index_rereads(void);
/* The on-demand cursor's window: two halves of half_words words (0: the
 * default, or JET_OD_WINDOW). For tests. */
void jet__od_window_set(size_t half_words);
/* Typed decoding (bind.c): true sends positional structs and array unions
 * through their general path only (tests compare the fast paths with it). */
void jet__bind_tuple_general_only(bool on);
/* A transparent wrapper: a struct of one field without a key, decoded and
 * encoded as that field's value (bind.c, encode.c). */
static inline bool jet__struct_is_wrapper(const jet_struct *t) {
    return t->count == 1 && !t->fields[0].key;
}

struct jet_parser {
    jet_alloc alloc;
    jet_doc doc;
    jet_stack stack;
};

/* ---- allocation (alloc.c) ---- */
void *jet__malloc(const jet_alloc *a, size_t size);
void *jet__realloc(const jet_alloc *a, void *p, size_t old_size, size_t new_size);
void jet__free(const jet_alloc *a, void *p);
/* The effective allocator: `a` or libc's when NULL. */
const jet_alloc *jet__alloc_or_default(const jet_alloc *a);

/* ---- errors (error.c) ---- */
/* Sets code, offset and message; line/column are left 0 (no input known). */
void jet__error_set(jet_error *err, jet_code code, size_t offset, const char *msg);
/* Sets everything, computing line and column of `offset` within the input. */
void jet__error_at(jet_error *err, jet_code code, const char *json, size_t len,
                   size_t offset, const char *msg);
/* The default message of a code. */
const char *jet__code_message(jet_code code);

/* ---- reader (parser.c; the readers: read_common.h) ---- */
/* Parses into `doc` (whose arenas are grown with doc->alloc as needed). */
bool jet__parse(jet_doc *doc, jet_stack *stack, const char *json, size_t len,
                const jet_read_opts *opts, jet_error *err);
void jet__stack_free(const jet_alloc *a, jet_stack *stack);
/* Validates as jet__parse reads, with the same verdict and the same error
 * (code, offset), building nothing: parser p's stack (frames, and the index
 * route's window of 32 KiB) is all the memory it uses. */
bool jet__validate(jet_parser *p, const char *json, size_t len, const jet_read_opts *opts,
                   jet_error *err);

/* ---- write options (emit.c), for every writer (emit.h) ---- */
/* Write flags resolved once per write. */
typedef struct jet__wopt {
    const uint8_t *tab; /* escape table for the flags */
    uint64_t slash_pat; /* '/' in every byte, or '"' again when not escaped */
    uint64_t hi_mask;   /* 0x80.. in ASCII mode: flags non-ASCII bytes */
    unsigned indent;
    bool ascii;
    bool nan_inf;
    bool verbatim_ok; /* neither ASCII nor '/' escaping: NOESC strings copy */
    bool replace_invalid; /* ASCII mode: invalid UTF-8 as \ufffd, not an error */
} jet__wopt;
/* The writers' message when ASCII mode meets invalid UTF-8. */
#define JET__MSG_WRITE_BAD_UTF8 \
    "invalid UTF-8 in a string cannot be written as ASCII (JET_WRITE_REPLACE_INVALID_UTF8 writes \\ufffd)"
void jet__wopt_init(jet_write_flags flags, jet__wopt *o);
/* Escapes the string bytes from *pp up to `stop` (a UTF-8 sequence starting
 * before `stop` is finished, never past `end`), without quotes, into `out`,
 * which must have room for 6 * (stop - *pp) + 16 bytes. Advances *pp;
 * returns the new output position, or NULL (*pp unspecified) when ASCII
 * mode meets invalid UTF-8 without replace_invalid. */
char *jet__escape_run(char *out, const char **pp, const char *stop, const char *end,
                      const jet__wopt *o);

/* A string member of a typed struct: a jet_str, or with JET_FIELD_STR_SLICE
 * a D slice { size_t len; const char *ptr; } (bind.c stores, encode.c
 * loads). */
static inline jet_str jet__field_str_load(const char *m, unsigned flags) {
    jet_str s;
    if (flags & JET_FIELD_STR_SLICE) {
        memcpy(&s.len, m, sizeof s.len);
        memcpy(&s.ptr, m + sizeof(size_t), sizeof s.ptr);
    } else {
        memcpy(&s, m, sizeof s);
    }
    return s;
}
static inline void jet__field_str_store(char *m, unsigned flags, jet_str s) {
    if (flags & JET_FIELD_STR_SLICE) {
        memcpy(m, &s.len, sizeof s.len);
        memcpy(m + sizeof(size_t), &s.ptr, sizeof s.ptr);
    } else {
        memcpy(m, &s, sizeof s);
    }
}

#endif
