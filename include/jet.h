/*
 * jet.h — the public API of jet, a JSON engine in C11.
 *
 * Sections:
 *   1. Version and build information
 *   2. Allocator hook
 *   3. Errors
 *   4. Reader options (bit flags) and limits
 *   5. Immutable document and values (types, inline accessors)
 *   6. Parser (reusable) and one-shot reading
 *   7. Arrays and objects: size, index, iteration, key lookup
 *   8. Writer (serializer) flags and functions
 *   9. JSON Pointer (RFC 6901)
 *  10. Structural statistics (the "fingerprint" used by the tools and bench)
 *
 * Conventions:
 *   - Every public symbol starts with `jet_` / `JET_`.
 *   - Input is `const char *` + length: no NUL terminator, no padding, and the
 *     input is never modified.
 *   - Ownership is stated on every function that returns memory.
 *   - A `jet_error *` argument may be NULL when the caller does not want the
 *     details; failures are still signalled by the return value.
 */
#ifndef JET_H
#define JET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ========================================================================== */
/* 1. Version and build information                                           */
/* ========================================================================== */

#define JET_VERSION_MAJOR 0
#define JET_VERSION_MINOR 1
#define JET_VERSION_PATCH 0
#define JET_VERSION_STRING "0.1.0"

/** The library's version string, e.g. "0.1.0". */
const char *jet_version(void);

/**
 * Name of the reader kernel in use: "scalar" (the one-pass reader) or a
 * structural-index kernel: "swar" (portable 64-bit words), "sse2", "avx2"
 * (x86-64), "neon" (aarch64). The default is "avx2" where the CPU has it,
 * else "sse2" on x86-64, else "scalar". All
 * kernels give identical documents and errors. The environment variable
 * JET_KERNEL picks one at the first parse.
 */
const char *jet_kernel_name(void);

/**
 * Selects the reader kernel for the whole process (see jet_kernel_name).
 * Returns false, changing nothing, when the name is unknown or the CPU lacks
 * the kernel. Meant for tests and benchmarks; not synchronized with parses
 * running in other threads.
 */
bool jet_kernel_set(const char *name);

#if defined(__GNUC__) || defined(__clang__)
#define JET_INLINE static inline __attribute__((always_inline))
#else
#define JET_INLINE static inline
#endif

/* ========================================================================== */
/* 2. Allocator hook                                                          */
/* ========================================================================== */

/**
 * A custom allocator. All three functions are required; `ctx` is passed
 * through unchanged. `realloc` receives the old size so that arena or pool
 * allocators need not track it. Passing NULL wherever a `const jet_alloc *` is
 * accepted selects the C library's malloc/realloc/free.
 */
typedef struct jet_alloc {
    void *(*malloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} jet_alloc;

/** The default allocator (C library). Never NULL. */
const jet_alloc *jet_alloc_libc(void);

/* ========================================================================== */
/* 3. Errors                                                                  */
/* ========================================================================== */

typedef enum jet_code {
    JET_OK = 0,
    JET_ERR_INVALID_ARG,      /* NULL pointer or bad option passed in */
    JET_ERR_MEMORY,           /* the allocator returned NULL */
    JET_ERR_SIZE_LIMIT,       /* input longer than jet_read_opts.max_size */
    JET_ERR_DEPTH_LIMIT,      /* nesting deeper than jet_read_opts.max_depth */
    JET_ERR_EMPTY,            /* no value in the input (empty or whitespace) */
    JET_ERR_TRUNCATED,        /* input ended inside a value */
    JET_ERR_UNEXPECTED_CHAR,  /* a byte that cannot start or continue here */
    JET_ERR_TRAILING_CONTENT, /* non-whitespace after the root value */
    JET_ERR_LITERAL,          /* bad true/false/null (or NaN/Infinity) */
    JET_ERR_NUMBER,           /* malformed number */
    JET_ERR_NUMBER_RANGE,     /* number magnitude does not fit a double */
    JET_ERR_STRING_CONTROL,   /* unescaped control character in a string */
    JET_ERR_STRING_ESCAPE,    /* bad backslash escape or \u sequence */
    JET_ERR_SURROGATE,        /* lone or mismatched UTF-16 surrogate escape */
    JET_ERR_UTF8,             /* invalid UTF-8 in the input */
    JET_ERR_COMMENT,          /* unterminated comment (when comments allowed) */
    JET_ERR_IO,               /* file could not be read or written */
    JET_ERR_NOT_FOUND,        /* JSON Pointer: no value at that path */
    JET_ERR_POINTER,          /* JSON Pointer: malformed pointer text */
    JET_ERR_TYPE,             /* a value is not of the requested type */
    JET_ERR_NAN_INF,          /* writer: NaN/Infinity without the flag */
    JET_ERR__COUNT
} jet_code;

/**
 * Details of a failure. `offset` is the byte offset in the input where the
 * problem was detected; `line` and `column` are 1-based, the column counted
 * in Unicode code points (UTF-8 lead bytes) from the start of the line.
 * `msg` is a static, human-readable sentence fragment such as
 * "expected ',' or ']' after array element"; never NULL after a failure.
 */
typedef struct jet_error {
    jet_code code;
    size_t offset;
    size_t line;
    size_t column;
    const char *msg;
} jet_error;

/** A short stable name for a code, e.g. "JET_ERR_TRUNCATED". */
const char *jet_code_name(jet_code code);

/* ========================================================================== */
/* 4. Reader options                                                          */
/* ========================================================================== */

typedef uint32_t jet_read_flags;

/** Strict RFC 8259 (the default). */
#define JET_READ_NOFLAG ((jet_read_flags)0)
/** Accept C-style comments: `// ...` to end of line and `/ * ... * /`. */
#define JET_READ_ALLOW_COMMENTS ((jet_read_flags)1u << 0)
/** Accept one trailing comma before `]` or `}`. */
#define JET_READ_ALLOW_TRAILING_COMMAS ((jet_read_flags)1u << 1)
/** Accept the literals NaN, Infinity and -Infinity as doubles. */
#define JET_READ_ALLOW_NAN_INF ((jet_read_flags)1u << 2)
/**
 * Accept invalid UTF-8 inside strings (copied through unchanged) and escaped
 * lone surrogates (encoded as 3-byte WTF-8 sequences).
 */
#define JET_READ_ALLOW_INVALID_UTF8 ((jet_read_flags)1u << 3)
/**
 * Keep numbers that do not fit their natural type as raw text
 * (JET_TYPE_RAW): integers outside int64/uint64 and numbers whose magnitude
 * overflows a double (1e400). Without it, such integers become the nearest
 * double and overflowing numbers are JET_ERR_NUMBER_RANGE.
 */
#define JET_READ_BIGNUM_AS_RAW ((jet_read_flags)1u << 4)
/** Keep every number as raw text (JET_TYPE_RAW); no conversion at all. */
#define JET_READ_NUMBER_AS_RAW ((jet_read_flags)1u << 5)
/** Stop after the first complete value; trailing bytes are not an error.
 *  jet_doc_read_size() tells how many bytes were consumed. */
#define JET_READ_STOP_WHEN_DONE ((jet_read_flags)1u << 6)

#define JET_DEFAULT_MAX_DEPTH 1024u

/** Options for one read. A NULL `const jet_read_opts *` means all defaults. */
typedef struct jet_read_opts {
    jet_read_flags flags;
    uint32_t max_depth; /* 0 selects JET_DEFAULT_MAX_DEPTH */
    size_t max_size;    /* maximum input bytes; 0 means no limit */
} jet_read_opts;

/* ========================================================================== */
/* 5. Documents and values                                                    */
/* ========================================================================== */

/** An immutable document: all of its values and strings live in its arena. */
typedef struct jet_doc jet_doc;

/** The basic JSON types (3 bits of the tag). */
typedef enum jet_type {
    JET_TYPE_NONE = 0, /* not a value (NULL pointer) */
    JET_TYPE_RAW = 1,  /* a number kept as its source text */
    JET_TYPE_NULL = 2,
    JET_TYPE_BOOL = 3,
    JET_TYPE_NUM = 4,
    JET_TYPE_STR = 5,
    JET_TYPE_ARR = 6,
    JET_TYPE_OBJ = 7
} jet_type;

/** Subtypes (2 bits above the type). */
typedef enum jet_subtype {
    JET_SUBTYPE_NONE = 0 << 3,
    JET_SUBTYPE_FALSE = 0 << 3, /* bool */
    JET_SUBTYPE_TRUE = 1 << 3,  /* bool */
    JET_SUBTYPE_UINT = 0 << 3,  /* number: non-negative integer, uint64 */
    JET_SUBTYPE_SINT = 1 << 3,  /* number: negative integer, int64 */
    JET_SUBTYPE_REAL = 2 << 3   /* number: double */
} jet_subtype;

#define JET_TAG_TYPE_MASK ((uint64_t)0x07)
#define JET_TAG_SUBTYPE_MASK ((uint64_t)0x18)
#define JET_TAG_KIND_MASK ((uint64_t)0x1F)
/** Strings: bit 5 set when the text contained no backslash escape. */
#define JET_TAG_STR_NOESC ((uint64_t)0x20)
#define JET_TAG_LEN_SHIFT 8

/**
 * One value: 16 bytes, laid out flat in document order.
 *   tag  — bits 0..2 type, 3..4 subtype, 5 flag, 8..63 length (bytes of a
 *          string or raw number, elements of an array, members of an object).
 *   uni  — the payload: u/i/d for numbers; `str` for strings and raw numbers
 *          (NUL-terminated copy in the document's arena); `ofs` for arrays and
 *          objects: the number of 16-byte slots the container spans,
 *          itself included, so `val + ofs` is the next sibling.
 * An object's members are stored as key, value, key, value, ...
 * Treat the struct as opaque and use the accessors below.
 */
typedef struct jet_val {
    uint64_t tag;
    union {
        uint64_t u;
        int64_t i;
        double d;
        const char *str;
        size_t ofs;
    } uni;
} jet_val;

JET_INLINE jet_type jet_get_type(const jet_val *v) {
    return v ? (jet_type)(v->tag & JET_TAG_TYPE_MASK) : JET_TYPE_NONE;
}
JET_INLINE uint8_t jet_get_kind(const jet_val *v) {
    return v ? (uint8_t)(v->tag & JET_TAG_KIND_MASK) : 0;
}
/** Length: string/raw bytes, array elements or object members; else 0. */
JET_INLINE size_t jet_get_len(const jet_val *v) {
    return v ? (size_t)(v->tag >> JET_TAG_LEN_SHIFT) : 0;
}
JET_INLINE bool jet_is_null(const jet_val *v) { return jet_get_type(v) == JET_TYPE_NULL; }
JET_INLINE bool jet_is_bool(const jet_val *v) { return jet_get_type(v) == JET_TYPE_BOOL; }
JET_INLINE bool jet_is_true(const jet_val *v) { return jet_get_kind(v) == (JET_TYPE_BOOL | JET_SUBTYPE_TRUE); }
JET_INLINE bool jet_is_false(const jet_val *v) { return jet_get_kind(v) == (JET_TYPE_BOOL | JET_SUBTYPE_FALSE); }
JET_INLINE bool jet_is_num(const jet_val *v) { return jet_get_type(v) == JET_TYPE_NUM; }
JET_INLINE bool jet_is_uint(const jet_val *v) { return jet_get_kind(v) == (JET_TYPE_NUM | JET_SUBTYPE_UINT); }
JET_INLINE bool jet_is_sint(const jet_val *v) { return jet_get_kind(v) == (JET_TYPE_NUM | JET_SUBTYPE_SINT); }
/** Integer (either subtype). */
JET_INLINE bool jet_is_int(const jet_val *v) { return jet_is_uint(v) || jet_is_sint(v); }
JET_INLINE bool jet_is_real(const jet_val *v) { return jet_get_kind(v) == (JET_TYPE_NUM | JET_SUBTYPE_REAL); }
JET_INLINE bool jet_is_str(const jet_val *v) { return jet_get_type(v) == JET_TYPE_STR; }
JET_INLINE bool jet_is_raw(const jet_val *v) { return jet_get_type(v) == JET_TYPE_RAW; }
JET_INLINE bool jet_is_arr(const jet_val *v) { return jet_get_type(v) == JET_TYPE_ARR; }
JET_INLINE bool jet_is_obj(const jet_val *v) { return jet_get_type(v) == JET_TYPE_OBJ; }
JET_INLINE bool jet_is_container(const jet_val *v) { return jet_is_arr(v) || jet_is_obj(v); }

/** true for `true`, false for anything else. */
JET_INLINE bool jet_get_bool(const jet_val *v) { return jet_is_true(v); }
/** The uint64 value of a UINT, the bits of a SINT as uint64; else 0. */
JET_INLINE uint64_t jet_get_uint(const jet_val *v) { return jet_is_int(v) ? v->uni.u : 0; }
/** The int64 value of a SINT or UINT (a UINT above INT64_MAX wraps); else 0. */
JET_INLINE int64_t jet_get_sint(const jet_val *v) { return jet_is_int(v) ? v->uni.i : 0; }
/** The double of a REAL; else 0.0. */
JET_INLINE double jet_get_real(const jet_val *v) { return jet_is_real(v) ? v->uni.d : 0.0; }
/** Any number as a double (integers converted); else 0.0. */
JET_INLINE double jet_get_num(const jet_val *v) {
    switch (jet_get_kind(v)) {
    case JET_TYPE_NUM | JET_SUBTYPE_UINT: return (double)v->uni.u;
    case JET_TYPE_NUM | JET_SUBTYPE_SINT: return (double)v->uni.i;
    case JET_TYPE_NUM | JET_SUBTYPE_REAL: return v->uni.d;
    default: return 0.0;
    }
}
/** String bytes (NUL-terminated; may contain NUL, so use jet_get_len). Also
 *  the text of a RAW number. NULL for other types. Owned by the document. */
JET_INLINE const char *jet_get_str(const jet_val *v) {
    return (jet_is_str(v) || jet_is_raw(v)) ? v->uni.str : NULL;
}
/** true when the string equals `s` (`len` bytes). */
JET_INLINE bool jet_equals_strn(const jet_val *v, const char *s, size_t len) {
    return jet_is_str(v) && jet_get_len(v) == len && memcmp(v->uni.str, s, len) == 0;
}
JET_INLINE bool jet_equals_str(const jet_val *v, const char *s) {
    return s && jet_equals_strn(v, s, strlen(s));
}

/* ========================================================================== */
/* 6. Parser and reading                                                      */
/* ========================================================================== */

/**
 * A reusable parser. It keeps its arenas between parses, so parsing a second
 * input of the same or smaller size performs no allocation at all.
 * Not thread-safe; use one parser per thread.
 */
typedef struct jet_parser jet_parser;

/** New parser using `alloc` (NULL: libc) for all its memory. NULL on OOM.
 *  Free with jet_parser_free(). */
jet_parser *jet_parser_new(const jet_alloc *alloc);

/** Frees the parser and the document it last produced. NULL is a no-op. */
void jet_parser_free(jet_parser *parser);

/**
 * Parses `len` bytes at `json`. Returns the document, owned by the parser:
 * it stays valid until the next parse with this parser or jet_parser_free().
 * (jet_doc_free() on it is a harmless no-op.) Returns NULL on failure and
 * fills `err` when non-NULL. The input is only read, never past `len`, and
 * need not outlive the call: the document copies what it keeps.
 */
jet_doc *jet_parser_parse(jet_parser *parser, const char *json, size_t len,
                          const jet_read_opts *opts, jet_error *err);

/**
 * One-shot read: returns a document that owns its memory (allocated with
 * `alloc`, NULL: libc); free it with jet_doc_free(). NULL on failure.
 */
jet_doc *jet_read(const char *json, size_t len, const jet_read_opts *opts,
                  const jet_alloc *alloc, jet_error *err);

/** Reads a whole file (path "-" reads standard input) and parses it. */
jet_doc *jet_read_file(const char *path, const jet_read_opts *opts,
                       const jet_alloc *alloc, jet_error *err);

/** Frees a document from jet_read()/jet_read_file(). NULL is a no-op. */
void jet_doc_free(jet_doc *doc);

/** The root value; NULL only for a NULL document. */
jet_val *jet_doc_root(const jet_doc *doc);
/** Bytes of input consumed (the whole input unless JET_READ_STOP_WHEN_DONE). */
size_t jet_doc_read_size(const jet_doc *doc);
/** Number of values in the document (keys included). */
size_t jet_doc_val_count(const jet_doc *doc);

/* ========================================================================== */
/* 7. Arrays and objects                                                      */
/* ========================================================================== */

/** The value after `v` at the same level (for iteration); no bounds check. */
JET_INLINE jet_val *jet_next(const jet_val *v) {
    return (jet_val *)(v + (jet_is_container(v) ? v->uni.ofs : 1));
}

/** Number of elements (0 for non-arrays). */
JET_INLINE size_t jet_arr_size(const jet_val *arr) { return jet_is_arr(arr) ? jet_get_len(arr) : 0; }
/** First element or NULL. */
JET_INLINE jet_val *jet_arr_first(const jet_val *arr) {
    return jet_arr_size(arr) ? (jet_val *)(arr + 1) : NULL;
}
/** Element `idx`, or NULL when out of range. O(1) when every element is a
 *  scalar, otherwise linear in `idx`. */
jet_val *jet_arr_get(const jet_val *arr, size_t idx);

/** Number of members (0 for non-objects). */
JET_INLINE size_t jet_obj_size(const jet_val *obj) { return jet_is_obj(obj) ? jet_get_len(obj) : 0; }
/** Value of the first member whose key equals `key` (`key_len` bytes), or
 *  NULL. Linear in the member count. */
jet_val *jet_obj_getn(const jet_val *obj, const char *key, size_t key_len);
/** Same with a NUL-terminated key. */
jet_val *jet_obj_get(const jet_val *obj, const char *key);

/**
 * Iteration, in document order:
 *
 *     jet_arr_iter it = jet_arr_iter_init(arr);
 *     for (jet_val *v; (v = jet_arr_iter_next(&it)); ) { ... }
 *
 *     jet_obj_iter it = jet_obj_iter_init(obj);
 *     for (jet_val *k; (k = jet_obj_iter_next(&it)); ) {
 *         jet_val *val = k + 1; ...   (or jet_obj_iter_value(k))
 *     }
 */
typedef struct jet_arr_iter { size_t left; jet_val *cur; } jet_arr_iter;
typedef struct jet_obj_iter { size_t left; jet_val *cur; } jet_obj_iter;

JET_INLINE jet_arr_iter jet_arr_iter_init(const jet_val *arr) {
    jet_arr_iter it;
    it.left = jet_arr_size(arr);
    it.cur = (jet_val *)(arr + 1);
    return it;
}
JET_INLINE jet_val *jet_arr_iter_next(jet_arr_iter *it) {
    if (!it->left) return NULL;
    jet_val *v = it->cur;
    it->left--;
    it->cur = jet_next(v);
    return v;
}
JET_INLINE jet_obj_iter jet_obj_iter_init(const jet_val *obj) {
    jet_obj_iter it;
    it.left = jet_obj_size(obj);
    it.cur = (jet_val *)(obj + 1);
    return it;
}
/** Returns the next key (a string value); its value is `key + 1`. */
JET_INLINE jet_val *jet_obj_iter_next(jet_obj_iter *it) {
    if (!it->left) return NULL;
    jet_val *k = it->cur;
    it->left--;
    it->cur = jet_next(k + 1);
    return k;
}
JET_INLINE jet_val *jet_obj_iter_value(const jet_val *key) { return (jet_val *)(key + 1); }

/** Deep equality: same types, subtypes, numbers (bitwise for doubles,
 *  so -0.0 != 0.0 and NaN == NaN), strings, order of elements and members. */
bool jet_val_equal(const jet_val *a, const jet_val *b);

/* ========================================================================== */
/* 8. Writer                                                                  */
/* ========================================================================== */

typedef uint32_t jet_write_flags;

/** Minified output (the default). */
#define JET_WRITE_NOFLAG ((jet_write_flags)0)
/** Pretty output with `n` spaces of indent (1..15); 0 means minified. */
#define JET_WRITE_INDENT(n) ((jet_write_flags)((unsigned)(n) & 15u) << 8)
/** Pretty output, 4 spaces. */
#define JET_WRITE_PRETTY JET_WRITE_INDENT(4)
/** Pretty output, 2 spaces. */
#define JET_WRITE_PRETTY_2 JET_WRITE_INDENT(2)
/** Escape `/` as `\/`. */
#define JET_WRITE_ESCAPE_SLASHES ((jet_write_flags)1u << 0)
/** ASCII-only output: every non-ASCII code point as a `\u` escape (pairs above
 *  U+FFFF). */
#define JET_WRITE_ASCII ((jet_write_flags)1u << 1)
/** Write NaN and infinities as NaN, Infinity, -Infinity instead of failing. */
#define JET_WRITE_ALLOW_NAN_INF ((jet_write_flags)1u << 2)
/** Append a newline after the document. */
#define JET_WRITE_NEWLINE_AT_END ((jet_write_flags)1u << 3)

/**
 * Serializes `val` (and everything below it). Returns a NUL-terminated buffer
 * allocated with `alloc` (NULL: libc) that the caller frees with the same
 * allocator; its length goes to `*out_len` when non-NULL. NULL on failure.
 * Doubles are printed in the shortest form that reads back to the same bits;
 * -0.0 stays `-0.0`.
 */
char *jet_val_write(const jet_val *val, jet_write_flags flags,
                    const jet_alloc *alloc, size_t *out_len, jet_error *err);

/** Same for a whole document. */
char *jet_doc_write(const jet_doc *doc, jet_write_flags flags,
                    const jet_alloc *alloc, size_t *out_len, jet_error *err);

/** Writes to a stdio stream. Returns false on failure (err filled). */
bool jet_val_write_fp(FILE *fp, const jet_val *val, jet_write_flags flags,
                      const jet_alloc *alloc, jet_error *err);

/** Writes to a file (path "-" writes standard output). */
bool jet_val_write_file(const char *path, const jet_val *val,
                        jet_write_flags flags, const jet_alloc *alloc,
                        jet_error *err);

/* ========================================================================== */
/* 9. JSON Pointer (RFC 6901)                                                 */
/* ========================================================================== */

/**
 * The value at `ptr` (`len` bytes, e.g. "/statuses/0/id", "" for the root)
 * below `root`, or NULL. On NULL, `err` says JET_ERR_POINTER (malformed
 * pointer; offset into the pointer text) or JET_ERR_NOT_FOUND.
 */
jet_val *jet_ptr_getn(const jet_val *root, const char *ptr, size_t len,
                      jet_error *err);
jet_val *jet_ptr_get(const jet_val *root, const char *ptr, jet_error *err);

/* ========================================================================== */
/* 10. Structural statistics                                                  */
/* ========================================================================== */

/**
 * The structural fingerprint of a value tree. `strings` counts string values
 * (not keys); `keys` counts object members; `numbers` = `integers` (UINT and
 * SINT) + `doubles` (REAL) + raw numbers; `string_bytes` sums the unescaped
 * bytes of string values and keys; `max_depth` is 0 for a scalar and 1 for
 * `[]`.
 */
typedef struct jet_stats {
    uint64_t objects, arrays, strings, numbers, integers, doubles;
    uint64_t trues, falses, nulls, keys, max_depth, string_bytes;
} jet_stats;

void jet_val_stats(const jet_val *root, jet_stats *out);

/** Formats the stats as one JSON object with the keys in the order above.
 *  Writes at most `cap` bytes (NUL included); returns the length it needs,
 *  like snprintf. */
size_t jet_stats_format(const jet_stats *s, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* JET_H */
