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
 *  11. Arenas (bump allocation for decoded data)
 *  12. On-demand cursor: lazy iteration and typed getters over raw text
 *  13. Typed binding: C structs described by field tables (decode/encode)
 *  14. Mutable documents, JSON Pointer edits, JSON Patch, JSON Merge Patch
 *  15. Streaming writer, string escaper and number printers; JSON diff
 *  16. Old names (macros kept for source compatibility)
 *
 * Conventions:
 *   - Every public symbol starts with `jet_` / `JET_`.
 *   - Every function declared here is exported by the shared library, and
 *     nothing else is (the library is built with hidden visibility; JET_API
 *     marks what is exported). The small accessors (jet_get_*, jet_is_*,
 *     jet_next, the iterators, ...) are `static inline` here, and are also
 *     exported under the same names for bindings that cannot inline C (FFI):
 *     defining JET_NO_INLINE before including jet.h makes C code call those.
 *   - Input is `const char *` + length: no NUL terminator, no padding, and the
 *     input is never modified.
 *   - Ownership is stated on every function that returns memory.
 *   - A `jet_error *` argument may be NULL when the caller does not want the
 *     details; failures are still signalled by the return value.
 *
 * Naming: one vocabulary across the document, the cursor and the field tables.
 *   Numbers:  `uint` an unsigned integer and `sint` a signed one (uint64_t
 *             and int64_t in values; any width in struct fields, whose
 *             member's size gives it); `int` either integer; `f64` a double,
 *             `f32` a float; `num` any number.
 *   get:      reads the value in hand as the named kind -- jet_get_f64(v)
 *             returns it (0 when the value is of another kind);
 *             jet_odv_get_f64(v, &out) stores it and returns whether it could.
 *   find:     looks a value up by key or JSON Pointer; none is NULL or false,
 *             not an error (jet_obj_find, jet_ptr_find, jet_od_obj_find).
 *   at:       an array element by index (jet_arr_at).
 *   require:  a member that must be there; none is JET_ERR_MISSING_FIELD
 *             (jet_od_obj_require).
 *   Earlier names (jet_get_real, jet_odv_get_u64, JET_K_INT, jet_obj_get, ...)
 *   remain as macros for the new ones (section 16); they are not symbols of
 *   the library.
 *
 * ABI and soname: while the major version is 0, every release that changes
 * the ABI (a function, a struct layout, an enum value) changes the minor
 * version, and the shared library's soname carries both: libjet.so.0.MINOR
 * (from 1.0 on, libjet.so.MAJOR). docs/abi.md has the details.
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

/* CMakeLists.txt reads the version from these three lines. */
#define JET_VERSION_MAJOR 0
#define JET_VERSION_MINOR 2
#define JET_VERSION_PATCH 0
#define JET_VERSION_STRING "0.2.0"

/*
 * JET_API marks the functions the shared library exports. The library is
 * compiled with hidden visibility, so nothing else leaves it. On Windows,
 * the library's own build defines JET_BUILDING_LIBRARY (dllexport); a
 * program linking the DLL gets dllimport, and one linking the static library
 * defines JET_STATIC. Defining JET_API beforehand overrides all of this.
 */
#ifndef JET_API
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(JET_STATIC)
#define JET_API
#elif defined(JET_BUILDING_LIBRARY)
#define JET_API __declspec(dllexport)
#else
#define JET_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define JET_API __attribute__((visibility("default")))
#else
#define JET_API
#endif
#endif

/** The library's version string, e.g. "0.2.0". */
JET_API const char *jet_version(void);

/**
 * Name of the reader kernel in use: "scalar" (the one-pass reader) or a
 * structural-index kernel: "swar" (portable 64-bit words), "sse2", "avx2",
 * "avx512" (x86-64; AVX-512 F and BW) or "neon" (aarch64). The default is
 * "avx512" where the CPU has it, else "avx2", else "sse2" on x86-64, and
 * "scalar" everywhere else (aarch64 and JET_PORTABLE builds included): swar
 * and neon run only when chosen. All kernels give identical documents and
 * errors. The environment variable JET_KERNEL (one of the names above)
 * picks one at the first parse, when the CPU has it.
 */
JET_API const char *jet_kernel_name(void);

/**
 * Selects the reader kernel for the whole process (see jet_kernel_name).
 * Returns false, changing nothing, when the name is unknown or the CPU lacks
 * the kernel. Meant for tests and benchmarks; not synchronized with parses
 * running in other threads.
 */
JET_API bool jet_kernel_set(const char *name);

#if defined(__GNUC__) || defined(__clang__)
#define JET_INLINE static inline __attribute__((always_inline))
#else
#define JET_INLINE static inline
#endif

/*
 * The accessors are written once, as `JET_ACCESSOR signature JET_BODY(body)`:
 *   - by default, a static inline function (JET_INLINE);
 *   - with JET_NO_INLINE defined, only a JET_API declaration: the call goes
 *     to the library's exported function of the same name;
 *   - with JET_DEFINE_ACCESSORS (src/accessors.c only), the exported
 *     definition itself, from the same body, so the two cannot drift.
 */
#if defined(JET_DEFINE_ACCESSORS)
#define JET_ACCESSOR JET_API
#define JET_BODY(...) __VA_ARGS__
#elif defined(JET_NO_INLINE)
#define JET_ACCESSOR JET_API
#define JET_BODY(...) ;
#else
#define JET_ACCESSOR JET_INLINE
#define JET_BODY(...) __VA_ARGS__
#endif

/* A `const jet_val *` as a `jet_val *` (the accessors take either; a value
 * is never written through it), without a -Wcast-qual warning. */
#ifdef __cplusplus
#define JET_UNCONST_VAL(p) const_cast<jet_val *>(p)
#else
#define JET_UNCONST_VAL(p) ((jet_val *)(uintptr_t)(p))
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
JET_API const jet_alloc *jet_alloc_libc(void);

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
    JET_ERR_MISSING_FIELD,    /* a required object member is absent */
    JET_ERR_UNKNOWN_FIELD,    /* a member the schema does not declare (when rejected) */
    JET_ERR_BAD_TAG,          /* enum or union tag not among the declared names */
    JET_ERR_TOO_LONG,         /* string longer than its fixed buffer, or too many elements */
    JET_ERR_OUT_OF_ORDER,     /* on-demand: a value read after the cursor moved past it */
    JET_ERR_PATCH_TEST,       /* JSON Patch: a "test" operation found a different value */
    JET_ERR_DUPLICATE_KEY,    /* typed decoding: a declared field given twice in one object */
    JET_ERR__COUNT
} jet_code;

/**
 * Details of a failure. `offset` is the byte offset in the input where the
 * problem was detected; `line` and `column` are 1-based, the column counted
 * in Unicode code points (UTF-8 lead bytes) from the start of the line.
 * `msg` is a static, human-readable sentence fragment such as
 * "expected ',' or ']' after array element"; never NULL after a failure.
 * (Typed decoding's messages that name values, for a range error or a
 * duplicate key, live in the jet_od like `path`: see section 13.)
 */
typedef struct jet_error {
    jet_code code;
    size_t offset;
    size_t line;
    size_t column;
    const char *msg;
    /* On-demand and typed decoding: the JSON Pointer (RFC 6901) of the value
     * where the error was met, e.g. "/statuses/3/user/id" ("" for the root);
     * owned by the jet_od and valid until its next document. NULL for
     * errors of the DOM reader, writer and pointer functions. */
    const char *path;
} jet_error;

/** A short stable name for a code, e.g. "JET_ERR_TRUNCATED". */
JET_API const char *jet_code_name(jet_code code);

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
/**
 * On-demand cursor and typed decoding: accepted for compatibility, and the
 * default now (no effect): the cursor and jet_decode reject any input that
 * is not valid JSON, the members they skip included (see JET_READ_LAZY).
 */
#define JET_READ_VALIDATE_ALL ((jet_read_flags)1u << 7)
/** Typed decoding: an object member the schema does not declare is an
 *  error (JET_ERR_UNKNOWN_FIELD) instead of being skipped. */
#define JET_READ_REJECT_UNKNOWN ((jet_read_flags)1u << 8)
/** Typed decoding: a JET_K_STR string that had escapes is unescaped into
 *  the arena instead of the cursor's scratch, so every string view lives as
 *  long as the input and the arena, not only until the cursor's next
 *  document (what a garbage-collected binding needs to hand the result
 *  out). Unescaped strings stay views into the input (or, when comments
 *  were blanked in a copy, into a copy of it in the arena). */
#define JET_READ_STABLE_STRINGS ((jet_read_flags)1u << 9)
/**
 * On-demand cursor and typed decoding: check what is skipped for balanced
 * brackets and the depth limit only (simdjson On-Demand's semantics), not
 * for the grammar: a skipped `[1 2, tru]` or `{"a":1]` is then accepted.
 * What is read is checked strictly either way, and stage 1 still rejects
 * invalid UTF-8, control characters in strings and unclosed strings
 * anywhere. Without it (the default) the skipped members are walked over
 * the structural index and checked as the DOM reader checks them.
 */
#define JET_READ_LAZY ((jet_read_flags)1u << 10)
/** Typed decoding: a declared field that appears twice in one object keeps
 *  its first value (the later ones are skipped, unchecked by type). The
 *  default is the error JET_ERR_DUPLICATE_KEY. */
#define JET_READ_DUPLICATE_FIRST ((jet_read_flags)1u << 11)
/** Typed decoding: a declared field that appears twice takes its last value
 *  (every occurrence is decoded and type-checked, as Python and JavaScript
 *  do). Wins over JET_READ_DUPLICATE_FIRST when both are set. */
#define JET_READ_DUPLICATE_LAST ((jet_read_flags)1u << 12)

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
    JET_SUBTYPE_F64 = 2 << 3    /* number: double */
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

/* A type and subtype combined, as the kind (C++20 deprecates `|` between
 * two enumerations). */
#define JET_KIND_OF(type, subtype) ((unsigned)(type) | (unsigned)(subtype))

JET_ACCESSOR jet_type jet_get_type(const jet_val *v) JET_BODY({
    return v ? (jet_type)(v->tag & JET_TAG_TYPE_MASK) : JET_TYPE_NONE;
})
/** Type and subtype: JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_F64), say. */
JET_ACCESSOR uint8_t jet_get_kind(const jet_val *v) JET_BODY({
    return v ? (uint8_t)(v->tag & JET_TAG_KIND_MASK) : 0;
})
/** Length: string/raw bytes, array elements or object members; else 0. */
JET_ACCESSOR size_t jet_get_len(const jet_val *v) JET_BODY({
    return v ? (size_t)(v->tag >> JET_TAG_LEN_SHIFT) : 0;
})
JET_ACCESSOR bool jet_is_null(const jet_val *v) JET_BODY({ return jet_get_type(v) == JET_TYPE_NULL; })
JET_ACCESSOR bool jet_is_bool(const jet_val *v) JET_BODY({ return jet_get_type(v) == JET_TYPE_BOOL; })
JET_ACCESSOR bool jet_is_true(const jet_val *v) JET_BODY({
    return jet_get_kind(v) == JET_KIND_OF(JET_TYPE_BOOL, JET_SUBTYPE_TRUE);
})
JET_ACCESSOR bool jet_is_false(const jet_val *v) JET_BODY({
    return jet_get_kind(v) == JET_KIND_OF(JET_TYPE_BOOL, JET_SUBTYPE_FALSE);
})
JET_ACCESSOR bool jet_is_num(const jet_val *v) JET_BODY({ return jet_get_type(v) == JET_TYPE_NUM; })
JET_ACCESSOR bool jet_is_uint(const jet_val *v) JET_BODY({
    return jet_get_kind(v) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_UINT);
})
JET_ACCESSOR bool jet_is_sint(const jet_val *v) JET_BODY({
    return jet_get_kind(v) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_SINT);
})
/** Integer (either subtype). */
JET_ACCESSOR bool jet_is_int(const jet_val *v) JET_BODY({ return jet_is_uint(v) || jet_is_sint(v); })
JET_ACCESSOR bool jet_is_f64(const jet_val *v) JET_BODY({
    return jet_get_kind(v) == JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_F64);
})
JET_ACCESSOR bool jet_is_str(const jet_val *v) JET_BODY({ return jet_get_type(v) == JET_TYPE_STR; })
JET_ACCESSOR bool jet_is_raw(const jet_val *v) JET_BODY({ return jet_get_type(v) == JET_TYPE_RAW; })
JET_ACCESSOR bool jet_is_arr(const jet_val *v) JET_BODY({ return jet_get_type(v) == JET_TYPE_ARR; })
JET_ACCESSOR bool jet_is_obj(const jet_val *v) JET_BODY({ return jet_get_type(v) == JET_TYPE_OBJ; })
JET_ACCESSOR bool jet_is_container(const jet_val *v) JET_BODY({ return jet_is_arr(v) || jet_is_obj(v); })

/** true for `true`, false for anything else. */
JET_ACCESSOR bool jet_get_bool(const jet_val *v) JET_BODY({ return jet_is_true(v); })
/** The uint64 value of a UINT, the bits of a SINT as uint64; else 0. */
JET_ACCESSOR uint64_t jet_get_uint(const jet_val *v) JET_BODY({ return jet_is_int(v) ? v->uni.u : 0; })
/** The int64 value of a SINT or UINT (a UINT above INT64_MAX wraps); else 0. */
JET_ACCESSOR int64_t jet_get_sint(const jet_val *v) JET_BODY({ return jet_is_int(v) ? v->uni.i : 0; })
/** The double of an F64 number (one with a fraction or exponent); else 0.0. */
JET_ACCESSOR double jet_get_f64(const jet_val *v) JET_BODY({ return jet_is_f64(v) ? v->uni.d : 0.0; })
/** Any number as a double (integers converted); else 0.0. */
JET_ACCESSOR double jet_get_num(const jet_val *v) JET_BODY({
    switch (jet_get_kind(v)) {
    case JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_UINT): return (double)v->uni.u;
    case JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_SINT): return (double)v->uni.i;
    case JET_KIND_OF(JET_TYPE_NUM, JET_SUBTYPE_F64): return v->uni.d;
    default: return 0.0;
    }
})
/** String bytes (NUL-terminated; may contain NUL, so use jet_get_len). Also
 *  the text of a RAW number. NULL for other types. Owned by the document. */
JET_ACCESSOR const char *jet_get_str(const jet_val *v) JET_BODY({
    return (jet_is_str(v) || jet_is_raw(v)) ? v->uni.str : NULL;
})
/** true when the string equals `s` (`len` bytes). */
JET_ACCESSOR bool jet_equals_strn(const jet_val *v, const char *s, size_t len) JET_BODY({
    return jet_is_str(v) && jet_get_len(v) == len && memcmp(v->uni.str, s, len) == 0;
})
JET_ACCESSOR bool jet_equals_str(const jet_val *v, const char *s) JET_BODY({
    return s && jet_equals_strn(v, s, strlen(s));
})

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
JET_API jet_parser *jet_parser_new(const jet_alloc *alloc);

/** Frees the parser and the document it last produced. NULL is a no-op. */
JET_API void jet_parser_free(jet_parser *parser);

/**
 * Parses `len` bytes at `json`. Returns the document, owned by the parser:
 * it stays valid until the next parse with this parser or jet_parser_free().
 * (jet_doc_free() on it is a harmless no-op.) Returns NULL on failure and
 * fills `err` when non-NULL. The input is only read, never past `len`, and
 * need not outlive the call: the document copies what it keeps.
 */
JET_API jet_doc *jet_parser_parse(jet_parser *parser, const char *json, size_t len,
                                  const jet_read_opts *opts, jet_error *err);

/**
 * One-shot read: returns a document that owns its memory (allocated with
 * `alloc`, NULL: libc); free it with jet_doc_free(). NULL on failure.
 */
JET_API jet_doc *jet_read(const char *json, size_t len, const jet_read_opts *opts,
                          const jet_alloc *alloc, jet_error *err);

/**
 * Reads a whole file (path "-" reads standard input) and parses it. With
 * opts->max_size set, reading stops after max_size + 1 bytes and the call
 * fails with JET_ERR_SIZE_LIMIT (err->offset = max_size): an endless pipe
 * or /dev/zero costs at most about max_size bytes of memory. Without it the
 * whole input is read, however large.
 */
JET_API jet_doc *jet_read_file(const char *path, const jet_read_opts *opts,
                               const jet_alloc *alloc, jet_error *err);

/** Frees a document from jet_read()/jet_read_file(). NULL is a no-op. */
JET_API void jet_doc_free(jet_doc *doc);

/** The root value; NULL only for a NULL document. */
JET_API jet_val *jet_doc_root(const jet_doc *doc);
/** Bytes of input consumed (the whole input unless JET_READ_STOP_WHEN_DONE). */
JET_API size_t jet_doc_read_size(const jet_doc *doc);
/** Number of values in the document (keys included). */
JET_API size_t jet_doc_val_count(const jet_doc *doc);

/* ========================================================================== */
/* 7. Arrays and objects                                                      */
/* ========================================================================== */

/** The value after `v` at the same level (for iteration); no bounds check. */
JET_ACCESSOR jet_val *jet_next(const jet_val *v) JET_BODY({
    return JET_UNCONST_VAL(v + (jet_is_container(v) ? v->uni.ofs : 1));
})

/** Number of elements (0 for non-arrays). */
JET_ACCESSOR size_t jet_arr_size(const jet_val *arr) JET_BODY({
    return jet_is_arr(arr) ? jet_get_len(arr) : 0;
})
/** First element or NULL. */
JET_ACCESSOR jet_val *jet_arr_first(const jet_val *arr) JET_BODY({
    return jet_arr_size(arr) ? JET_UNCONST_VAL(arr + 1) : NULL;
})
/** Element `idx`, or NULL when out of range. O(1) when every element is a
 *  scalar, otherwise linear in `idx`. */
JET_API jet_val *jet_arr_at(const jet_val *arr, size_t idx);

/** Number of members (0 for non-objects). */
JET_ACCESSOR size_t jet_obj_size(const jet_val *obj) JET_BODY({
    return jet_is_obj(obj) ? jet_get_len(obj) : 0;
})
/** Value of the first member whose key equals `key` (`key_len` bytes), or
 *  NULL: with a key given twice, the first (typed decoding makes that an
 *  error by default, section 13). Linear in the member count. */
JET_API jet_val *jet_obj_findn(const jet_val *obj, const char *key, size_t key_len);
/** Same with a NUL-terminated key. */
JET_API jet_val *jet_obj_find(const jet_val *obj, const char *key);

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

JET_ACCESSOR jet_arr_iter jet_arr_iter_init(const jet_val *arr) JET_BODY({
    jet_arr_iter it;
    it.left = jet_arr_size(arr);
    it.cur = JET_UNCONST_VAL(arr + 1);
    return it;
})
JET_ACCESSOR jet_val *jet_arr_iter_next(jet_arr_iter *it) JET_BODY({
    if (!it->left) return NULL;
    jet_val *v = it->cur;
    it->left--;
    it->cur = jet_next(v);
    return v;
})
JET_ACCESSOR jet_obj_iter jet_obj_iter_init(const jet_val *obj) JET_BODY({
    jet_obj_iter it;
    it.left = jet_obj_size(obj);
    it.cur = JET_UNCONST_VAL(obj + 1);
    return it;
})
/** Returns the next key (a string value); its value is `key + 1`. */
JET_ACCESSOR jet_val *jet_obj_iter_next(jet_obj_iter *it) JET_BODY({
    if (!it->left) return NULL;
    jet_val *k = it->cur;
    it->left--;
    it->cur = jet_next(k + 1);
    return k;
})
JET_ACCESSOR jet_val *jet_obj_iter_value(const jet_val *key) JET_BODY({ return JET_UNCONST_VAL(key + 1); })

/** Deep equality: same types, subtypes, numbers (bitwise for doubles,
 *  so -0.0 != 0.0 and NaN == NaN), strings, order of elements and members. */
JET_API bool jet_val_equal(const jet_val *a, const jet_val *b);

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
 * With JET_WRITE_ASCII: write each byte of invalid UTF-8 as \ufffd instead
 * of failing.
 *
 * Invalid UTF-8 policy of every writer (jet_val_write and the other DOM
 * writers, jet_mut_doc_write, the streaming jet_writer, jet_encode,
 * jet_print_str): the data is never changed without being asked. Strings
 * read strictly are valid UTF-8; invalid bytes come only from a document
 * read with JET_READ_ALLOW_INVALID_UTF8 or from the caller's own strings.
 *   - default: written through unchanged, byte for byte (the output is then
 *     not valid UTF-8 either, exactly like its source);
 *   - JET_WRITE_ASCII: an error, JET_ERR_UTF8, since no escape stands for
 *     a byte (jet_print_str returns 0), unless this flag asks for \ufffd;
 *   - either way, the WTF-8 form of an escaped lone surrogate (what
 *     JET_READ_ALLOW_INVALID_UTF8 makes of "\udc80") is written back as
 *     that escape in ASCII mode, so such strings round-trip.
 */
#define JET_WRITE_REPLACE_INVALID_UTF8 ((jet_write_flags)1u << 4)

/**
 * Serializes `val` (and everything below it). Returns a NUL-terminated buffer
 * allocated with `alloc` (NULL: libc) that the caller frees with the same
 * allocator; its length goes to `*out_len` when non-NULL. NULL on failure.
 * Doubles are printed in the shortest form that reads back to the same bits;
 * -0.0 stays `-0.0`.
 */
JET_API char *jet_val_write(const jet_val *val, jet_write_flags flags,
                            const jet_alloc *alloc, size_t *out_len, jet_error *err);

/** Same for a whole document. */
JET_API char *jet_doc_write(const jet_doc *doc, jet_write_flags flags,
                            const jet_alloc *alloc, size_t *out_len, jet_error *err);

/** Writes to a stdio stream. Returns false on failure (err filled). */
JET_API bool jet_val_write_fp(FILE *fp, const jet_val *val, jet_write_flags flags,
                              const jet_alloc *alloc, jet_error *err);

/** Writes to a file (path "-" writes standard output). */
JET_API bool jet_val_write_file(const char *path, const jet_val *val,
                                jet_write_flags flags, const jet_alloc *alloc,
                                jet_error *err);

/* ========================================================================== */
/* 9. JSON Pointer (RFC 6901)                                                 */
/* ========================================================================== */

/**
 * The value at `ptr` (`len` bytes, e.g. "/statuses/0/id", "" for the root)
 * below `root`, or NULL. On NULL, `err` says JET_ERR_POINTER (malformed
 * pointer) or JET_ERR_NOT_FOUND; `offset` is into the pointer text, not the
 * document (the bad byte; for NOT_FOUND the '/' of the token that names
 * nothing, so ptr[0..offset) resolves), line and column are 0, and `msg`
 * says why (no such member, index out of range, not an index, "-", inside
 * a scalar).
 */
JET_API jet_val *jet_ptr_findn(const jet_val *root, const char *ptr, size_t len,
                               jet_error *err);
/** Same with a NUL-terminated pointer. */
JET_API jet_val *jet_ptr_find(const jet_val *root, const char *ptr, jet_error *err);

/* ========================================================================== */
/* 10. Structural statistics                                                  */
/* ========================================================================== */

/**
 * The structural fingerprint of a value tree. `strings` counts string values
 * (not keys); `keys` counts object members; `numbers` = `integers` (UINT and
 * SINT) + `doubles` (F64) + raw numbers; `string_bytes` sums the unescaped
 * bytes of string values and keys; `max_depth` is 0 for a scalar and 1 for
 * `[]`.
 */
typedef struct jet_stats {
    uint64_t objects, arrays, strings, numbers, integers, doubles;
    uint64_t trues, falses, nulls, keys, max_depth, string_bytes;
} jet_stats;

JET_API void jet_val_stats(const jet_val *root, jet_stats *out);

/** Formats the stats as one JSON object with the keys in the order above.
 *  Writes at most `cap` bytes (NUL included); returns the length it needs,
 *  like snprintf. */
JET_API size_t jet_stats_format(const jet_stats *s, char *buf, size_t cap);

/* ========================================================================== */
/* 11. Arenas                                                                 */
/* ========================================================================== */

/**
 * A bump allocator for decoded data (dynamic arrays, copied strings). Memory
 * comes from `alloc` in growing chunks; jet_arena_reset() turns them into one
 * chunk of their total size, so decoding the same kind of input again
 * allocates nothing.
 * Initialize with jet_arena_init(); the struct may live anywhere.
 */
typedef struct jet_arena {
    jet_alloc alloc;
    struct jet_arena_chunk *chunks; /* newest first */
    char *cur, *end;                /* free space of the newest chunk */
} jet_arena;

/** Prepares an empty arena using `alloc` (NULL: libc). Allocates nothing. */
JET_API void jet_arena_init(jet_arena *arena, const jet_alloc *alloc);
/** `size` bytes aligned to `align` (a power of two, at most 64); NULL on OOM.
 *  Zero bytes give a valid non-NULL pointer. Valid until reset or free. */
JET_API void *jet_arena_alloc(jet_arena *arena, size_t size, size_t align);
/** Forgets every allocation but keeps the memory: several chunks are
 *  replaced by one of their total size (one allocation, here rather than
 *  during the next decode); if that fails, the largest is kept. */
JET_API void jet_arena_reset(jet_arena *arena);
/** Returns all memory to the allocator; the arena is empty and reusable. */
JET_API void jet_arena_free(jet_arena *arena);

/* ========================================================================== */
/* 12. On-demand cursor                                                       */
/* ========================================================================== */

/**
 * The on-demand cursor reads values straight from the input text, lazily and
 * in document order, over the structural index (stage 1): nothing is built,
 * and a value the caller does not ask for is skipped over the index (checked,
 * never converted). It suits callers who know what they want (see section 13 for
 * the declarative form):
 *
 *     jet_od *od = jet_od_new(NULL);
 *     jet_odv root, st, v;
 *     jet_od_iter it, statuses, status;
 *     uint64_t id_sum = 0, id;
 *     if (jet_od_start(od, json, len, NULL, &root) &&
 *         jet_odv_obj(&root, &it) && jet_od_obj_require(&it, "statuses", &v) &&
 *         jet_odv_arr(&v, &statuses))
 *         while (jet_od_arr_next(&statuses, &st))
 *             if (jet_odv_obj(&st, &status) && jet_od_obj_require(&status, "id", &v) &&
 *                 jet_odv_get_uint(&v, &id))
 *                 id_sum += id;
 *     if (!jet_od_ok(od)) report(jet_od_error(od));
 *
 * Rules:
 *   - One forward pass. A value handle (jet_odv) is read at most once, and
 *     only while the cursor has not moved past it: reading a member moves
 *     past every member before it (except through jet_od_obj_find's
 *     wrap-around, which rescans the object from its start). Reading a value
 *     after that is JET_ERR_OUT_OF_ORDER.
 *   - Leaving a container early is fine: the next step in an enclosing
 *     iterator skips what is left of it.
 *   - Errors are sticky: the first one is kept (jet_od_error) with its code,
 *     byte offset, line:column, message and the JSON Pointer of the value
 *     (error.path); every later call returns false at once. A false return
 *     with jet_od_ok() still true means "not there" (end of an iterator, a
 *     member that jet_od_obj_find did not find, a non-null value given to
 *     jet_odv_is_null).
 *   - Strict by default: what is read and what is skipped are checked as the
 *     DOM reader checks them (RFC 8259 numbers, literals, escapes, UTF-8,
 *     separators, brackets of the right kind, the depth limit), so a
 *     document read to its end with jet_od_finish is rejected exactly when
 *     jet_read rejects it, with the same code and offset (the first error
 *     in document order). Skipping walks the structural index's tokens
 *     (no second pass over the bytes). JET_READ_LAZY checks what is skipped
 *     for balanced brackets and the depth limit only (simdjson On-Demand's
 *     semantics): cheaper, but an invalid skipped member goes unnoticed.
 *     JET_READ_VALIDATE_ALL is an old name of the default (no effect).
 *     A caller who stops before jet_od_finish has had checked what it read
 *     and skipped so far, and stage 1's verdict on the bytes. Control
 *     characters in strings and invalid UTF-8 anywhere are reported by
 *     jet_od_start, which sees them in stage 1 -- in an input of more than
 *     4 MiB, by the call that first reaches the 4 MiB window holding them
 *     (see Memory): that call returns false, and the error is the one
 *     jet_od_start would have reported (the input's first, in document
 *     order).
 *   - Memory: the index costs 3 bits per input byte, for at most 4 MiB of
 *     input (1.5 MiB); a larger input is indexed in windows of 4 MiB (the
 *     environment variable JET_OD_WINDOW sets another size, in bytes), and
 *     going back before the window (a wrap-around of jet_od_obj_find, an
 *     error's path) rescans from a checkpoint of stage 1.
 *   - Strings are views into the input when they contain no escape, else
 *     unescaped into the jet_od's scratch: valid until the next jet_od_start
 *     or jet_od_free. The input must stay unchanged and alive as long.
 *   - Honoured read flags: JET_READ_LAZY, JET_READ_REJECT_UNKNOWN and
 *     JET_READ_DUPLICATE_* (section 13), and the extensions exactly as the DOM reader takes
 *     them: JET_READ_ALLOW_COMMENTS, JET_READ_ALLOW_TRAILING_COMMAS,
 *     JET_READ_ALLOW_NAN_INF, JET_READ_ALLOW_INVALID_UTF8. With comments
 *     allowed, an input holding a '/' is read from a copy in the jet_od
 *     with its comments blanked (one more pass and len bytes): its strings
 *     are then views into that copy, valid as long as the scratch's.
 */
typedef struct jet_od jet_od;

/** A string: `len` bytes at `ptr` (not NUL-terminated). */
typedef struct jet_str {
    const char *ptr;
    size_t len;
} jet_str;

/** A value not yet read: where it starts and how deep it is. */
typedef struct jet_odv {
    jet_od *od;
    size_t pos;     /* byte offset of its first character */
    uint32_t depth; /* containers enclosing it */
} jet_odv;

/** An iterator over an array's elements or an object's members. */
typedef struct jet_od_iter {
    jet_od *od;
    size_t start;   /* offset of the '[' or '{' */
    uint32_t depth; /* depth of the elements/members */
    uint32_t count; /* elements or members returned so far */
    bool done;
    size_t pending; /* offset of the value last returned (skipped if unread) */
} jet_od_iter;

/** A reusable cursor (owns the index and string scratch). NULL on OOM. */
JET_API jet_od *jet_od_new(const jet_alloc *alloc);
/** Frees the cursor. NULL is a no-op. */
JET_API void jet_od_free(jet_od *od);

/**
 * Starts reading `len` bytes at `json`: builds the structural index and sets
 * `*root` to the root value. Returns false on failure (empty input, a string
 * left open, control characters in strings, invalid UTF-8 where stage 1
 * checks it, the size limit).
 * Nothing is allocated when the previous document was at least as large.
 */
JET_API bool jet_od_start(jet_od *od, const char *json, size_t len, const jet_read_opts *opts,
                          jet_odv *root);
/** Skips whatever is left of the root value (checked strictly unless
 *  JET_READ_LAZY) and checks that only whitespace follows it. Returns
 *  jet_od_ok(). */
JET_API bool jet_od_finish(jet_od *od);
/** false once an error has been recorded. */
JET_API bool jet_od_ok(const jet_od *od);
/** The first error (code JET_OK while there is none). Never NULL. */
JET_API const jet_error *jet_od_error(const jet_od *od);

/** The value's type from its first byte, without reading it (JET_TYPE_NUM
 *  for anything that starts like a number); JET_TYPE_NONE after an error. */
JET_API jet_type jet_odv_type(const jet_odv *v);
/** true when the value is `null` (which is then consumed); false otherwise. */
JET_API bool jet_odv_is_null(jet_odv *v);
JET_API bool jet_odv_get_bool(jet_odv *v, bool *out);
/** Integers: JET_ERR_TYPE for a fraction or exponent, JET_ERR_NUMBER_RANGE
 *  when the value does not fit. */
JET_API bool jet_odv_get_sint(jet_odv *v, int64_t *out);
JET_API bool jet_odv_get_uint(jet_odv *v, uint64_t *out);
/** Any number, correctly rounded to a double / to a binary32 float. */
JET_API bool jet_odv_get_f64(jet_odv *v, double *out);
JET_API bool jet_odv_get_f32(jet_odv *v, float *out);
/** A string value, unescaped (see the rules above for its lifetime). */
JET_API bool jet_odv_get_str(jet_odv *v, jet_str *out);
/** The raw JSON text of any value (skipping it), without surrounding
 *  whitespace; a view into the input. */
JET_API bool jet_odv_get_raw(jet_odv *v, jet_str *out);
/** Skips the value. */
JET_API bool jet_odv_skip(jet_odv *v);

/** Enters an array (JET_ERR_TYPE if the value is not one). */
JET_API bool jet_odv_arr(jet_odv *v, jet_od_iter *it);
/** The next element; false at the end of the array (or on error). */
JET_API bool jet_od_arr_next(jet_od_iter *it, jet_odv *elem);
/** Enters an object (JET_ERR_TYPE if the value is not one). */
JET_API bool jet_odv_obj(jet_odv *v, jet_od_iter *it);
/** The next member: its unescaped key and its value; false at the end. */
JET_API bool jet_od_obj_next(jet_od_iter *it, jet_str *key, jet_odv *val);
/**
 * The member named `key` (`len` bytes, compared with the unescaped keys).
 * Looks forward from the cursor first (free when the caller asks in
 * document order), then wraps around to the members before it. Returns
 * false when there is none (not an error).
 */
JET_API bool jet_od_obj_find(jet_od_iter *it, const char *key, size_t len, jet_odv *val);
/** Like jet_od_obj_find with a NUL-terminated key, but a missing member is
 *  the error JET_ERR_MISSING_FIELD (path: the member's would-be pointer). */
JET_API bool jet_od_obj_require(jet_od_iter *it, const char *key, jet_odv *val);

/**
 * Validates the whole input (RFC 8259 and UTF-8, honouring the read flags
 * and limits) without building anything: the DOM reader's grammar with no
 * value stored (its index route's stage 2, then its one-pass reader for
 * what that does not take). Accepts exactly what the DOM reader accepts,
 * and rejects with the DOM reader's error (code, offset, line:column), on
 * every kernel. Memory: the reader's stack (16 bytes per level of nesting)
 * and a 32 KiB index window, whatever the input's size; on an error the
 * input is also indexed (the cursor's bounded windows, at most 1.5 MiB) to
 * name the error's JSON Pointer, in time linear in the input. The
 * cursor's scratch is reused, so validating another input of the same size
 * allocates nothing. Errors as for the cursor (jet_od_error). The cursor
 * holds no document afterwards.
 */
JET_API bool jet_od_validate(jet_od *od, const char *json, size_t len, const jet_read_opts *opts);
/** One-shot jet_od_validate (`alloc` NULL: libc); `err` (may be NULL)
 *  receives the error without a path, so the input is never indexed: it
 *  holds under 100 KiB at the default depth limit, whatever the input. */
JET_API bool jet_validate(const char *json, size_t len, const jet_read_opts *opts,
                          const jet_alloc *alloc, jet_error *err);

/* ========================================================================== */
/* 13. Typed binding                                                          */
/* ========================================================================== */

/**
 * A C struct is described once by a table of field descriptors; the same
 * table drives decoding (JSON text -> struct, through the on-demand cursor)
 * and encoding (struct -> JSON text, no document in between):
 *
 *     typedef struct User { uint64_t id; jet_str name; int32_t age;
 *                           bool has_email; jet_str email; } User;
 *     static const jet_field user_fields[] = {
 *         JET_F_UINT(User, id, "id"),
 *         JET_F_STR(User, name, "name"),
 *         JET_F_SINT(User, age, "age"),
 *         JET_F_OPT_HAS(User, email, has_email, "email", JET_K_STR, NULL),
 *     };
 *     static jet_struct user_type = JET_STRUCT(User, user_fields);
 *
 *     User u;
 *     if (!jet_decode(od, json, len, &user_type, &u, &arena, NULL, &err)) ...
 *     jet_buf out; jet_buf_init(&out, NULL);
 *     jet_encode(&out, &user_type, &u, 0, &err);
 *
 * Decoding zeroes the struct, then fills it in one pass over each object:
 * a key is matched to its field by a perfect hash over the declared keys
 * (built once per table), so member order does not matter; unknown members
 * are skipped (or rejected with JET_READ_REJECT_UNKNOWN); a required member
 * that never came is JET_ERR_MISSING_FIELD with its JSON Pointer. The input
 * must be valid JSON, skipped members included, unless JET_READ_LAZY
 * (section 12). A declared field that appears twice in one object is
 * JET_ERR_DUPLICATE_KEY (at the second key; the message names both
 * offsets), unless JET_READ_DUPLICATE_FIRST (the first value is kept) or
 * JET_READ_DUPLICATE_LAST (each is decoded, the last kept); under
 * JET_READ_LAZY a field given again after every field has been seen goes
 * unnoticed (the first wins). The DOM's jet_obj_find returns the first
 * member of a key. A JET_K_STR_FIXED string holding \u0000 is
 * JET_ERR_TOO_LONG. Messages that name values (a range error's "-1 is out
 * of range for uint8 (0..255)", a duplicate's offsets) live in the jet_od,
 * like error.path: valid until its next document.
 * Encoding writes the fields in declared order; an absent field (presence
 * flag false, or a string view whose ptr is NULL) is left out when it is
 * JET_FIELD_OPTIONAL only, and written as null when it is also
 * JET_FIELD_NULLABLE (circe's form for Option fields).
 */

typedef enum jet_kind {
    JET_K_BOOL = 1,    /* bool */
    JET_K_SINT,        /* signed integer of sizeof 1, 2, 4 or 8; range-checked */
    JET_K_UINT,        /* unsigned integer of sizeof 1, 2, 4 or 8; range-checked */
    JET_K_F32,         /* float, correctly rounded from the text */
    JET_K_F64,         /* double */
    JET_K_STR,         /* jet_str view (input or od scratch; see section 12) */
    JET_K_STR_COPY,    /* jet_str copied into the arena, NUL-terminated */
    JET_K_STR_FIXED,   /* char[N], NUL-terminated; JET_ERR_TOO_LONG if len >= N */
    JET_K_RAW,         /* jet_str: the raw JSON text of any value */
    JET_K_STRUCT,      /* nested struct; sub: const jet_struct * */
    JET_K_ARRAY,       /* T *member + size_t count member, elements from the
                          arena; sub: const jet_field * (element type) */
    JET_K_FIXED_ARRAY, /* T member[N]; sub: element type; with a count member
                          up to N elements, without one exactly N */
    JET_K_ENUM,        /* integer member = index of the string in sub's names;
                          sub: const jet_enum * */
    JET_K_MAP,         /* object -> pairs (pointer + count, from the arena);
                          sub: const jet_struct * of the pair: its first
                          field is the key (JET_K_STR or JET_K_STR_COPY),
                          its second the value */
    JET_K_UNION,       /* tagged union; sub: const jet_union * */
    JET_K__COUNT
} jet_kind;

/* Field flags. */
#define JET_FIELD_OPTIONAL 0x1u /* may be absent (left zero or set to the default) */
#define JET_FIELD_NULLABLE 0x2u /* null accepted: the member is zeroed (presence false) */
#define JET_FIELD_DEFAULT 0x4u  /* when absent, set to `def` (numbers, bool, strings) */
/* STR, STR_COPY and RAW members (and map keys) laid out as a D slice,
 * { size_t len; const char *ptr; }, instead of a jet_str (bindings/d). */
#define JET_FIELD_STR_SLICE 0x8u
/* The presence member (present_offset) is true when the field is absent or
 * null and false when it has a value: D's Nullable!T keeps `_isNull`. */
#define JET_FIELD_PRESENCE_INVERTED 0x10u

#define JET_NO_OFFSET UINT32_MAX

/** One field (or, with key NULL and offset 0, an element type). Build it
 *  with the JET_F_* macros; treat it as read-only. */
typedef struct jet_field {
    const char *key;      /* JSON member name; NULL for an element type */
    const char *alias;    /* a second accepted name, or NULL */
    uint16_t kind;        /* jet_kind */
    uint16_t flags;       /* JET_FIELD_* */
    uint32_t offset;      /* of the member within its struct */
    uint32_t size;        /* sizeof the member (element types: of one element) */
    uint32_t count_offset;   /* ARRAY, MAP, FIXED_ARRAY: the size_t count member */
    uint32_t present_offset; /* a bool member set when the field was present */
    const void *sub;      /* see jet_kind */
    union {
        int64_t i;
        uint64_t u;
        double d;
        const char *s;
    } def;                /* default (JET_FIELD_DEFAULT) */
} jet_field;

/** Names of an enum: the member receives the index of the matching name. */
typedef struct jet_enum {
    const char *const *names;
    uint32_t count;
} jet_enum;

/* How a struct reads its fields: by key from an object (the default), or by
 * position from an array (a heterogeneous array such as ["EOSE", "sub"]). */
#define JET_STRUCT_POSITIONAL 0x1u

/** A struct's description. Not const: its key map is built into it on first
 *  use (jet_decode, jet_odv_decode, jet_struct_prepare), together with those
 *  of every struct reachable from it. First use may come from several
 *  threads at once, with the same table or with tables sharing nested
 *  structs: one thread builds while the others wait, and all then read the
 *  complete maps. Once built, a table is only read, by any number of
 *  threads. Do not copy or modify a table while it is in use; the members
 *  from map_state on belong to the library. */
typedef struct jet_struct {
    const char *name;        /* the C type's name (messages) */
    uint32_t size;           /* sizeof the struct */
    uint32_t count;          /* fields */
    const jet_field *fields;
    uint32_t flags;          /* JET_STRUCT_* */
    /* key map (private): a perfect hash from declared keys to fields */
    uint32_t map_state;      /* 0 unbuilt, 1 perfect hash, 2 linear search */
    uint64_t map_mul;
    uint64_t map_lens;       /* bit n: a declared key has n bytes (bit 63: 63 or more) */
    uint8_t map_shift;
    uint8_t map_slot[128];   /* field index + 1; 0 empty */
    uint8_t map_klen[128];   /* length of the name hashed to the slot */
    uint8_t map_alias[128];  /* 1 when that name is the field's alias */
    uint64_t map_head[128];  /* its first 8 bytes, zero-padded */
    uint64_t map_tail[128];  /* its last 8 bytes (names of 9 to 16 bytes) */
    uint8_t map_kslot[64];   /* the slot of each field's key (hashed tables: at most 60 fields) */
    /* first use (private; bind.c): accessed atomically */
    uint32_t map_ready;      /* 0 not built, 1 built along with all it reaches, 2 malformed */
    struct jet_struct *map_next; /* links the structs of a build in progress */
} jet_struct;

/* Encodings of a tagged union. */
typedef enum jet_union_style {
    JET_UNION_EXTERNAL = 0, /* {"Shipped": {...}} (or "Shipped" for a variant
                               without payload); circe's default */
    JET_UNION_INTERNAL = 1, /* {"type": "shipped", ...the variant's fields} */
    JET_UNION_ARRAY = 2     /* ["EVENT", ...]: the first element is the tag,
                               the rest the variant's positional fields */
} jet_union_style;
/* Or'ed into jet_union.style: the tag member is a uint8_t instead of an
 * int32_t (D's SumType keeps its tag in the smallest unsigned type). */
#define JET_UNION_TAG_U8 0x100u
#define JET_UNION_STYLE_MASK 0xFFu

/**
 * A tagged union stored in a C struct member: an integer tag member
 * receiving the variant's index, and the variant's struct at
 * `payload_offset` (usually a C union of the variant structs). Offsets are
 * relative to the member that the JET_K_UNION field points at.
 */
typedef struct jet_union {
    uint32_t style;        /* jet_union_style, | JET_UNION_TAG_U8 */
    const char *tag_key;   /* INTERNAL: the member naming the variant */
    uint32_t tag_offset;   /* int32_t tag member */
    uint32_t payload_offset;
    uint32_t count;
    const char *const *names;            /* tags */
    jet_struct *const *variants;         /* payload type (NULL: none) */
} jet_union;

#define JET_FIELD_FULL(T, m, key_, alias_, kind_, flags_, count_ofs, present_ofs, sub_) \
    { (key_), (alias_), (uint16_t)(kind_), (uint16_t)(flags_), (uint32_t)offsetof(T, m), \
      (uint32_t)sizeof(((T *)0)->m), (count_ofs), (present_ofs), (const void *)(sub_), {0} }
/** A required field of any kind (sub: see jet_kind; NULL for scalars). */
#define JET_FIELD(T, m, key, kind, sub) \
    JET_FIELD_FULL(T, m, key, NULL, kind, 0, JET_NO_OFFSET, JET_NO_OFFSET, sub)
/** A field with flags (JET_FIELD_OPTIONAL, JET_FIELD_NULLABLE). */
#define JET_FIELD_F(T, m, key, kind, sub, flags) \
    JET_FIELD_FULL(T, m, key, NULL, kind, flags, JET_NO_OFFSET, JET_NO_OFFSET, sub)
/** An optional field with a bool presence member `has`. */
#define JET_F_OPT_HAS(T, m, has, key, kind, sub) \
    JET_FIELD_FULL(T, m, key, NULL, kind, JET_FIELD_OPTIONAL, JET_NO_OFFSET, \
                   (uint32_t)offsetof(T, has), sub)
/** A field also accepted under a second name. */
#define JET_F_ALIAS(T, m, key, alias, kind, sub) \
    JET_FIELD_FULL(T, m, key, alias, kind, 0, JET_NO_OFFSET, JET_NO_OFFSET, sub)
/** Optional fields with a default (integer, unsigned, floating, string). */
#define JET_F_DEFAULT_SINT(T, m, key, v) \
    { (key), NULL, JET_K_SINT, JET_FIELD_OPTIONAL | JET_FIELD_DEFAULT, (uint32_t)offsetof(T, m), \
      (uint32_t)sizeof(((T *)0)->m), JET_NO_OFFSET, JET_NO_OFFSET, NULL, {.i = (v)} }
#define JET_F_DEFAULT_UINT(T, m, key, v) \
    { (key), NULL, JET_K_UINT, JET_FIELD_OPTIONAL | JET_FIELD_DEFAULT, (uint32_t)offsetof(T, m), \
      (uint32_t)sizeof(((T *)0)->m), JET_NO_OFFSET, JET_NO_OFFSET, NULL, {.u = (v)} }
#define JET_F_DEFAULT_F64(T, m, key, v) \
    { (key), NULL, JET_K_F64, JET_FIELD_OPTIONAL | JET_FIELD_DEFAULT, (uint32_t)offsetof(T, m), \
      (uint32_t)sizeof(((T *)0)->m), JET_NO_OFFSET, JET_NO_OFFSET, NULL, {.d = (v)} }
#define JET_F_DEFAULT_STR(T, m, key, v) \
    { (key), NULL, JET_K_STR, JET_FIELD_OPTIONAL | JET_FIELD_DEFAULT, (uint32_t)offsetof(T, m), \
      (uint32_t)sizeof(((T *)0)->m), JET_NO_OFFSET, JET_NO_OFFSET, NULL, {.s = (v)} }

/* Shorthands for required fields. */
#define JET_F_BOOL(T, m, key) JET_FIELD(T, m, key, JET_K_BOOL, NULL)
#define JET_F_SINT(T, m, key) JET_FIELD(T, m, key, JET_K_SINT, NULL)
#define JET_F_UINT(T, m, key) JET_FIELD(T, m, key, JET_K_UINT, NULL)
#define JET_F_F32(T, m, key) JET_FIELD(T, m, key, JET_K_F32, NULL)
#define JET_F_F64(T, m, key) JET_FIELD(T, m, key, JET_K_F64, NULL)
#define JET_F_STR(T, m, key) JET_FIELD(T, m, key, JET_K_STR, NULL)
#define JET_F_STR_COPY(T, m, key) JET_FIELD(T, m, key, JET_K_STR_COPY, NULL)
#define JET_F_STR_FIXED(T, m, key) JET_FIELD(T, m, key, JET_K_STR_FIXED, NULL)
#define JET_F_RAW(T, m, key) JET_FIELD(T, m, key, JET_K_RAW, NULL)
#define JET_F_STRUCT(T, m, key, st) JET_FIELD(T, m, key, JET_K_STRUCT, &(st))
#define JET_F_ENUM(T, m, key, en) JET_FIELD(T, m, key, JET_K_ENUM, &(en))
#define JET_F_UNION(T, m, key, un) JET_FIELD(T, m, key, JET_K_UNION, &(un))
/** Dynamic array: `T.m` is a pointer to the elements, `T.cnt` a size_t. */
#define JET_F_ARRAY(T, m, cnt, key, elem) \
    JET_FIELD_FULL(T, m, key, NULL, JET_K_ARRAY, 0, (uint32_t)offsetof(T, cnt), JET_NO_OFFSET, &(elem))
/** Fixed array `T.m[N]` of exactly N elements. */
#define JET_F_FIXED_ARRAY(T, m, key, elem) JET_FIELD(T, m, key, JET_K_FIXED_ARRAY, &(elem))
/** Fixed array `T.m[N]` of up to N elements, how many in the size_t `T.cnt`. */
#define JET_F_FIXED_ARRAY_N(T, m, cnt, key, elem) \
    JET_FIELD_FULL(T, m, key, NULL, JET_K_FIXED_ARRAY, 0, (uint32_t)offsetof(T, cnt), JET_NO_OFFSET, &(elem))
/** Map: `T.m` points to pair structs (described by `pair`), `T.cnt` counts them. */
#define JET_F_MAP(T, m, cnt, key, pair) \
    JET_FIELD_FULL(T, m, key, NULL, JET_K_MAP, 0, (uint32_t)offsetof(T, cnt), JET_NO_OFFSET, &(pair))

/** An element type: a value of C type `CT` decoded as `kind`. */
#define JET_ELEM(CT, kind, sub) \
    { NULL, NULL, (uint16_t)(kind), 0, 0, (uint32_t)sizeof(CT), JET_NO_OFFSET, JET_NO_OFFSET, \
      (const void *)(sub), {0} }
/** An element that is itself a dynamic array, stored as a struct `H` with
 *  the pointer member `m` and the size_t count member `cnt` (arrays of
 *  arrays). */
#define JET_ELEM_ARRAY(H, m, cnt, elem) \
    { NULL, NULL, JET_K_ARRAY, 0, (uint32_t)offsetof(H, m), (uint32_t)sizeof(H), \
      (uint32_t)offsetof(H, cnt), JET_NO_OFFSET, (const void *)&(elem), {0} }

/** The description of struct type T from its field array (a true array). */
#define JET_STRUCT(T, fields) \
    { #T, (uint32_t)sizeof(T), (uint32_t)(sizeof(fields) / sizeof((fields)[0])), (fields), 0, 0, 0, 0, 0, {0}, {0}, {0}, {0}, {0}, {0}, 0, 0 }
/** The same read by position from a JSON array. */
#define JET_STRUCT_TUPLE(T, fields) \
    { #T, (uint32_t)sizeof(T), (uint32_t)(sizeof(fields) / sizeof((fields)[0])), (fields), \
      JET_STRUCT_POSITIONAL, 0, 0, 0, 0, {0}, {0}, {0}, {0}, {0}, {0}, 0, 0 }

/** Builds the key maps of `type` and every struct reachable from it, unless
 *  built already. Decoding does the same on first use, so calling it is
 *  optional: it picks the moment of the cost (well under a millisecond per
 *  table) and reports a malformed table early. Thread-safe: concurrent calls,
 *  and decodes running meanwhile with `type` or with tables that share
 *  nested structs with it, build each map once (one build at a time, under
 *  a lock) and see it complete (a table is marked ready, with release
 *  semantics, only once everything it reaches is built; decoding reads that
 *  mark with acquire semantics). Returns false when `type` is malformed or
 *  reaches a malformed table (e.g. a struct member whose size no integer
 *  kind has); every later call, from any thread, and every decode with
 *  `type` then fail the same way (decoding: JET_ERR_INVALID_ARG). */
JET_API bool jet_struct_prepare(jet_struct *type);

/**
 * Decodes the JSON text into `*out` (a `type->size`-byte struct, zeroed
 * first). Arrays and copied strings come from `arena` (may be NULL when the
 * type has neither). String views point into `json` or into `od`'s scratch.
 * Returns false on failure; `err` (may be NULL) then has the code, offset,
 * line:column, message and the JSON Pointer of the offending value.
 */
JET_API bool jet_decode(jet_od *od, const char *json, size_t len, jet_struct *type, void *out,
                        jet_arena *arena, const jet_read_opts *opts, jet_error *err);
/** Decodes one value met through the cursor into `*out` (`type->size`
 *  bytes). Errors go to the cursor (jet_od_error). */
JET_API bool jet_odv_decode(jet_odv *v, jet_struct *type, void *out, jet_arena *arena);

/** A growable output buffer. */
typedef struct jet_buf {
    char *data;
    size_t len, cap;
    jet_alloc alloc;
} jet_buf;
JET_API void jet_buf_init(jet_buf *buf, const jet_alloc *alloc);
JET_API void jet_buf_free(jet_buf *buf);

/**
 * Appends the JSON text of `*in` (a struct of `type`) to `out` (set
 * out->len = 0 to reuse the buffer; the text is NUL-terminated beyond
 * out->len). Honoured flags: JET_WRITE_INDENT(n), JET_WRITE_ESCAPE_SLASHES,
 * JET_WRITE_ASCII, JET_WRITE_ALLOW_NAN_INF, JET_WRITE_NEWLINE_AT_END,
 * JET_WRITE_REPLACE_INVALID_UTF8. Returns false (err filled) on OOM, a
 * non-finite double without JET_WRITE_ALLOW_NAN_INF, invalid UTF-8 in
 * ASCII mode (JET_ERR_UTF8, see JET_WRITE_REPLACE_INVALID_UTF8), or an
 * enum/union tag out of range.
 */
JET_API bool jet_encode(jet_buf *out, jet_struct *type, const void *in, jet_write_flags flags,
                        jet_error *err);

/* ========================================================================== */
/* 14. Mutable documents, JSON Patch, JSON Merge Patch                        */
/* ========================================================================== */

/**
 * A mutable document: a tree of values that can be built and edited, then
 * written as JSON text or copied to an immutable document. docs/mutable.md
 * is the guide.
 *
 * Memory: every value (and every copied string) comes from the document's
 * arena, in chunks from the document's allocator, and is freed all at once
 * by jet_mut_doc_free(); nothing is freed before. A value belongs to the
 * document that made it: link it only into containers of that document,
 * and in one place at a time (a value removed or replaced may be inserted
 * again). Values are never freed one by one, so editing a document in a
 * loop grows its arena; jet_mut_doc_copy() makes a compact copy.
 *
 * Layout and cost: containers are circular singly-linked lists that point
 * at their last node. O(1): append, prepend, size, first and last element,
 * iteration steps, object add. O(index): arr_at, insert, set, remove by
 * index. O(members): object find, set, remove, rename (keys compared as
 * bytes, first match).
 *
 * Duplicate keys: add always appends, so it can make a second member with
 * the same key; find, set (replace), remove and rename act on the first
 * member with that key; iteration and writing show every member in
 * insertion order. A JSON Merge Patch null removes every member of the
 * name.
 *
 * Numbers keep the reader's kinds: jet_mut_sint() of a non-negative value
 * makes a UINT, as reading its text would.
 *
 * Depth: the recursive functions (copies, equality, writing, to_doc)
 * accept at most JET_MUT_MAX_DEPTH levels of nesting (more than the
 * reader's default limit); deeper trees, and cycles made by linking a
 * container into itself, make them fail.
 *
 * Thread safety: a document is not synchronized. Any number of threads may
 * read it (the functions taking const) while no thread changes it.
 */
typedef struct jet_mut_doc jet_mut_doc;
/** A value of a mutable document (opaque; use the functions below). */
typedef struct jet_mut_val jet_mut_val;

#define JET_MUT_MAX_DEPTH 4096u

/** A new empty document (no root) allocating with `alloc` (NULL: libc).
 *  NULL on OOM. Free with jet_mut_doc_free(). */
JET_API jet_mut_doc *jet_mut_doc_new(const jet_alloc *alloc);
/** Frees the document, every value made by it and its copied strings.
 *  NULL is a no-op. Borrowed strings (jet_mut_strn_ref) are the caller's. */
JET_API void jet_mut_doc_free(jet_mut_doc *doc);
/** The root value, or NULL when none was set. Owned by the document. */
JET_API jet_mut_val *jet_mut_doc_root(const jet_mut_doc *doc);
/** Sets the root (a value of this document, or NULL). */
JET_API void jet_mut_doc_set_root(jet_mut_doc *doc, jet_mut_val *root);
/** A deep copy of the whole document into a new one (`alloc` NULL: libc),
 *  every string copied; NULL on OOM. The caller frees it. */
JET_API jet_mut_doc *jet_mut_doc_copy(const jet_mut_doc *doc, const jet_alloc *alloc);

/* Creating values: each returns a new value owned by `doc` (NULL on OOM or
 * a NULL doc), not yet linked anywhere. */
JET_API jet_mut_val *jet_mut_null(jet_mut_doc *doc);
JET_API jet_mut_val *jet_mut_bool(jet_mut_doc *doc, bool b);
JET_API jet_mut_val *jet_mut_uint(jet_mut_doc *doc, uint64_t u);
/** A negative value makes a SINT, a non-negative one a UINT. */
JET_API jet_mut_val *jet_mut_sint(jet_mut_doc *doc, int64_t i);
/** A double; NaN and infinities are written only with JET_WRITE_ALLOW_NAN_INF. */
JET_API jet_mut_val *jet_mut_f64(jet_mut_doc *doc, double d);
/** A raw number (JET_TYPE_RAW): `len` bytes copied and later written as
 *  they are, unchecked: the caller gives valid JSON number text. */
JET_API jet_mut_val *jet_mut_raw(jet_mut_doc *doc, const char *num, size_t len);
/** A string copied into the document (NUL-terminated there; may hold NUL
 *  bytes). Strings are written as given: valid UTF-8 is the caller's care. */
JET_API jet_mut_val *jet_mut_strn(jet_mut_doc *doc, const char *s, size_t len);
JET_API jet_mut_val *jet_mut_str(jet_mut_doc *doc, const char *s);
/** A string borrowed by pointer and length, not copied: the caller keeps
 *  the bytes alive and unchanged as long as the document uses them. */
JET_API jet_mut_val *jet_mut_strn_ref(jet_mut_doc *doc, const char *s, size_t len);
JET_API jet_mut_val *jet_mut_str_ref(jet_mut_doc *doc, const char *s);
/** An empty array / object. */
JET_API jet_mut_val *jet_mut_arr(jet_mut_doc *doc);
JET_API jet_mut_val *jet_mut_obj(jet_mut_doc *doc);

/* Reading values: as the immutable accessors (section 5); NULL gives
 * JET_TYPE_NONE, 0, false or NULL. */
JET_API jet_type jet_mut_get_type(const jet_mut_val *v);
JET_API uint8_t jet_mut_get_kind(const jet_mut_val *v);
/** String/raw bytes, array elements or object members; else 0. */
JET_API size_t jet_mut_get_len(const jet_mut_val *v);
JET_API bool jet_mut_get_bool(const jet_mut_val *v);
JET_API uint64_t jet_mut_get_uint(const jet_mut_val *v);
JET_API int64_t jet_mut_get_sint(const jet_mut_val *v);
JET_API double jet_mut_get_f64(const jet_mut_val *v);
/** Any number as a double. */
JET_API double jet_mut_get_num(const jet_mut_val *v);
/** The bytes of a string or raw number (jet_mut_get_len of them; copied
 *  ones are NUL-terminated, borrowed ones as the caller gave them). */
JET_API const char *jet_mut_get_str(const jet_mut_val *v);
JET_API bool jet_mut_equals_strn(const jet_mut_val *v, const char *s, size_t len);

/* Arrays. Functions returning bool return false, changing nothing, for a
 * non-array, a NULL value or an index out of range. */
JET_API size_t jet_mut_arr_size(const jet_mut_val *arr);
/** Element `idx` or NULL. O(idx); the last element is O(1). */
JET_API jet_mut_val *jet_mut_arr_at(const jet_mut_val *arr, size_t idx);
/** O(1). */
JET_API bool jet_mut_arr_append(jet_mut_val *arr, jet_mut_val *val);
/** O(1). */
JET_API bool jet_mut_arr_prepend(jet_mut_val *arr, jet_mut_val *val);
/** Inserts before element `idx` (0..size; size appends). O(idx). */
JET_API bool jet_mut_arr_insert(jet_mut_val *arr, jet_mut_val *val, size_t idx);
/** Replaces element `idx`; returns the old element (unlinked, still owned
 *  by the document) or NULL when idx is out of range. O(idx). */
JET_API jet_mut_val *jet_mut_arr_set(jet_mut_val *arr, size_t idx, jet_mut_val *val);
/** Removes element `idx`; returns it (unlinked) or NULL. O(idx). */
JET_API jet_mut_val *jet_mut_arr_remove(jet_mut_val *arr, size_t idx);

/**
 * Iteration in order (do not change the array while iterating):
 *
 *     jet_mut_arr_iter it = jet_mut_arr_iter_init(arr);
 *     for (jet_mut_val *v; (v = jet_mut_arr_iter_next(&it)); ) { ... }
 */
typedef struct jet_mut_arr_iter { size_t left; jet_mut_val *cur; } jet_mut_arr_iter;
JET_API jet_mut_arr_iter jet_mut_arr_iter_init(const jet_mut_val *arr);
JET_API jet_mut_val *jet_mut_arr_iter_next(jet_mut_arr_iter *it);

/* Objects. Keys are string values; see the duplicate-key policy above. */
JET_API size_t jet_mut_obj_size(const jet_mut_val *obj);
/** The value of the first member named key[0..len), or NULL. O(members). */
JET_API jet_mut_val *jet_mut_obj_findn(const jet_mut_val *obj, const char *key, size_t len);
JET_API jet_mut_val *jet_mut_obj_find(const jet_mut_val *obj, const char *key);
/** Appends the member key: val (`key` a string value of the document),
 *  even when the key is there already. O(1). false for a non-object, a
 *  key that is not a string, or a NULL value. */
JET_API bool jet_mut_obj_add(jet_mut_val *obj, jet_mut_val *key, jet_mut_val *val);
/** Same with the key copied from key[0..len) into `doc`. */
JET_API bool jet_mut_obj_addn(jet_mut_doc *doc, jet_mut_val *obj, const char *key, size_t len,
                              jet_mut_val *val);
/** Replaces the value of the first member named like `key` (the member
 *  keeps its place and key), or appends key: val when there is none.
 *  O(members). The old value is unlinked, still owned by the document. */
JET_API bool jet_mut_obj_set(jet_mut_val *obj, jet_mut_val *key, jet_mut_val *val);
/** Same with the key given as bytes (copied into `doc` only if appended). */
JET_API bool jet_mut_obj_setn(jet_mut_doc *doc, jet_mut_val *obj, const char *key, size_t len,
                              jet_mut_val *val);
/** Removes the first member named key[0..len); returns its value
 *  (unlinked) or NULL when there is none. O(members). */
JET_API jet_mut_val *jet_mut_obj_removen(jet_mut_val *obj, const char *key, size_t len);
JET_API jet_mut_val *jet_mut_obj_remove(jet_mut_val *obj, const char *key);
/** Renames the first member named key[0..len) to new_key[0..new_len)
 *  (copied into `doc`), in place. false when there is none or on OOM. */
JET_API bool jet_mut_obj_renamen(jet_mut_doc *doc, jet_mut_val *obj, const char *key, size_t len,
                                 const char *new_key, size_t new_len);

/**
 * Iteration in insertion order (do not change the object meanwhile):
 *
 *     jet_mut_obj_iter it = jet_mut_obj_iter_init(obj);
 *     for (jet_mut_val *k; (k = jet_mut_obj_iter_next(&it)); ) {
 *         jet_mut_val *val = jet_mut_obj_iter_value(k); ...
 *     }
 */
typedef struct jet_mut_obj_iter { size_t left; jet_mut_val *cur; } jet_mut_obj_iter;
JET_API jet_mut_obj_iter jet_mut_obj_iter_init(const jet_mut_val *obj);
/** The next key, or NULL at the end. */
JET_API jet_mut_val *jet_mut_obj_iter_next(jet_mut_obj_iter *it);
/** The value of a key returned by jet_mut_obj_iter_next. */
JET_API jet_mut_val *jet_mut_obj_iter_value(const jet_mut_val *key);

/* Copies between the two forms. */
/** A deep copy of the immutable `val` into `doc` (strings copied, so the
 *  jet_doc may be freed afterwards); NULL on OOM or too deep. */
JET_API jet_mut_val *jet_val_to_mut(jet_mut_doc *doc, const jet_val *val);
/** A new mutable document holding a deep copy of `doc`'s root (`alloc`
 *  NULL: libc); the caller frees it. NULL on OOM or an empty `doc`. */
JET_API jet_mut_doc *jet_doc_to_mut(const jet_doc *doc, const jet_alloc *alloc);
/** A deep copy of `val` (from this document or another) into `doc`, every
 *  string copied (borrowed ones too). NULL on OOM or too deep. */
JET_API jet_mut_val *jet_mut_val_copy(jet_mut_doc *doc, const jet_mut_val *val);
/** An immutable document holding a copy of the tree at `root` (one flat
 *  allocation of 16-byte slots and one of strings: faster to read and to
 *  walk than the lists). The caller frees it with jet_doc_free(). NULL on
 *  OOM (JET_ERR_MEMORY) or nesting too deep (JET_ERR_DEPTH_LIMIT). */
JET_API jet_doc *jet_mut_to_doc(const jet_mut_val *root, const jet_alloc *alloc, jet_error *err);

/* Equality. */
/** Deep equality with jet_val_equal's rules: same kinds, same numbers
 *  (doubles bitwise), strings, order of elements and of members. */
JET_API bool jet_mut_equal(const jet_mut_val *a, const jet_mut_val *b);
/** The same across the two forms. */
JET_API bool jet_mut_val_equal_val(const jet_mut_val *a, const jet_val *b);
/** Equality as JSON values (RFC 6902 section 4.6, the JSON Patch "test"):
 *  numbers by numeric value (1 == 1.0 == 1e0; raw numbers by their text),
 *  objects as sets of members in any order (the n-th member of a name in
 *  one equals the n-th of that name in the other). O(members^2) each. */
JET_API bool jet_mut_equal_json(const jet_mut_val *a, const jet_mut_val *b);

/* Writing: the same flags and the same text as jet_val_write() gives for
 * an equal immutable value (section 8). The buffer is allocated with
 * `alloc` (NULL: libc) and freed by the caller with it; NULL on failure. */
JET_API char *jet_mut_val_write(const jet_mut_val *val, jet_write_flags flags,
                                const jet_alloc *alloc, size_t *out_len, jet_error *err);
/** The root of `doc` (JET_ERR_INVALID_ARG when it has none). */
JET_API char *jet_mut_doc_write(const jet_mut_doc *doc, jet_write_flags flags,
                                const jet_alloc *alloc, size_t *out_len, jet_error *err);

/*
 * JSON Pointer (RFC 6901) on mutable values. Tokens are resolved as
 * jet_ptr_findn does (section 9: array indices are digits without a leading
 * zero; errors carry offsets into the pointer text and say why). The
 * edits follow RFC 6902's operations:
 *   add:     the parent must exist. In an object the member is set (the
 *            first of that name replaced, else appended with the unescaped
 *            token as its key); in an array the value is inserted before
 *            index 0..size, "-" appends. "" replaces the root.
 *   replace: the target must exist; returns the old value (unlinked).
 *   remove:  the target must exist; returns it (unlinked). "" removes the
 *            root (the document is then empty).
 * `val` is a value of `doc`. On failure nothing changes.
 */
JET_API jet_mut_val *jet_mut_ptr_findn(const jet_mut_val *root, const char *ptr, size_t len,
                                       jet_error *err);
JET_API jet_mut_val *jet_mut_ptr_find(const jet_mut_val *root, const char *ptr, jet_error *err);
JET_API bool jet_mut_ptr_addn(jet_mut_doc *doc, const char *ptr, size_t len, jet_mut_val *val,
                              jet_error *err);
JET_API bool jet_mut_ptr_add(jet_mut_doc *doc, const char *ptr, jet_mut_val *val, jet_error *err);
JET_API jet_mut_val *jet_mut_ptr_replacen(jet_mut_doc *doc, const char *ptr, size_t len,
                                          jet_mut_val *val, jet_error *err);
JET_API jet_mut_val *jet_mut_ptr_replace(jet_mut_doc *doc, const char *ptr, jet_mut_val *val,
                                         jet_error *err);
JET_API jet_mut_val *jet_mut_ptr_removen(jet_mut_doc *doc, const char *ptr, size_t len,
                                         jet_error *err);
JET_API jet_mut_val *jet_mut_ptr_remove(jet_mut_doc *doc, const char *ptr, jet_error *err);

/**
 * Why a JSON Patch failed. `index` is the failing operation's position in
 * the patch array; `op` its operation ("add", "remove", "replace", "move",
 * "copy", "test"; NULL when the operation has no valid "op"); `path` and
 * `path_len` the JSON Pointer that failed (the operation's "path", or its
 * "from" when that one names nothing), pointing into the patch (valid as
 * long as the patch is; NULL when the operation has none); `offset` the
 * pointer error's offset in that text. `code` and `msg` as in jet_error:
 * JET_ERR_PATCH_TEST for a failed test, JET_ERR_NOT_FOUND or
 * JET_ERR_POINTER for a pointer, JET_ERR_MISSING_FIELD, JET_ERR_TYPE or
 * JET_ERR_BAD_TAG for a malformed operation, JET_ERR_INVALID_ARG for a move
 * into its own child, JET_ERR_MEMORY.
 */
typedef struct jet_patch_error {
    jet_code code;
    const char *msg;
    size_t index;
    const char *op;
    const char *path;
    size_t path_len;
    size_t offset;
} jet_patch_error;

/**
 * Applies a JSON Patch (RFC 6902): an array of add, remove, replace, move,
 * copy and test operations, in order. Atomic: when an operation fails the
 * document is exactly as before the call and `err` (may be NULL) says
 * which and why. The operations run on a copy of the root, made in the
 * document's arena, that becomes the root on success: one copy of the
 * tree's nodes per patch (strings shared), which stays in the arena until
 * the document is freed. After a successful patch, values of the old tree
 * that the caller still holds are no longer the document's (they stay
 * valid memory). Values added come from the patch and are copied into
 * `doc` (strings too). Member order: "add" of a new key appends it.
 */
JET_API bool jet_patch_apply(jet_mut_doc *doc, const jet_val *patch, jet_patch_error *err);
/** Same with the patch as a mutable value (of any document). */
JET_API bool jet_patch_apply_mut(jet_mut_doc *doc, const jet_mut_val *patch, jet_patch_error *err);

/**
 * Applies a JSON Merge Patch (RFC 7386): an object patch merges member by
 * member (null removes the member, every one of that name), anything else
 * replaces the target. Values are copied from the patch into `doc`.
 * Applied in place: the patch's depth is checked first, so only running
 * out of memory (JET_ERR_MEMORY) can leave it half-applied. An empty
 * document counts as a non-object target.
 */
JET_API bool jet_merge_patch_apply(jet_mut_doc *doc, const jet_val *patch, jet_error *err);
JET_API bool jet_merge_patch_apply_mut(jet_mut_doc *doc, const jet_mut_val *patch, jet_error *err);
/**
 * The merge patch that turns `a` into `b`, built in `out` (which may be
 * the document of a or b, or another): for objects, null for each member
 * of a that b lacks, b's value for each new or non-object change, and a
 * nested patch for objects on both sides; a's members equal to b's
 * (jet_mut_equal_json) are left out. Anything else is a copy of b. As RFC
 * 7386 says, a merge patch cannot set a member to null nor reach into
 * arrays: when b holds null members inside objects, applying the result
 * to a does not give b. NULL on OOM.
 */
JET_API jet_mut_val *jet_merge_patch_create(jet_mut_doc *out, const jet_mut_val *a,
                                            const jet_mut_val *b, jet_error *err);

/* ========================================================================== */
/* 15. Streaming writer, escaper and number printers; JSON diff               */
/* ========================================================================== */

/*
 * docs/writer.md is the guide to this section's writer.
 *
 * The printers the writers use, for callers that build JSON text their own
 * way. Each writes into `buf` (its size below), NUL-terminates it and
 * returns the length without the NUL. Thread-safe (no state).
 *   jet_print_f64: the shortest text that reads back to the same double
 *     (as jet_val_write writes it: always a '.' or an 'e', "-0.0" keeps its
 *     sign; NaN, Infinity, -Infinity for the non-finite ones).
 *   jet_print_f32: the same for a float (shortest for binary32).
 *   jet_print_uint / jet_print_sint: decimal integers.
 */
#define JET_PRINT_NUM_SIZE 32
JET_API size_t jet_print_f64(double d, char buf[JET_PRINT_NUM_SIZE]);
JET_API size_t jet_print_f32(float f, char buf[JET_PRINT_NUM_SIZE]);
JET_API size_t jet_print_uint(uint64_t u, char buf[JET_PRINT_NUM_SIZE]);
JET_API size_t jet_print_sint(int64_t i, char buf[JET_PRINT_NUM_SIZE]);

/** Room jet_print_str needs for a string of `len` bytes (6 output bytes
 *  per input byte at worst, the quotes, the NUL and some slack). */
#define JET_PRINT_STR_SIZE(len) ((size_t)(len) * 6u + 20u)
/**
 * Writes s[0..len) as a quoted JSON string with the writers' escaping:
 * '"', '\\' and control bytes always (\b \t \n \f \r or \u00XX), '/' with
 * JET_WRITE_ESCAPE_SLASHES, non-ASCII as \u escapes with JET_WRITE_ASCII
 * (other flags, but JET_WRITE_REPLACE_INVALID_UTF8, are ignored). `out` has
 * room for JET_PRINT_STR_SIZE(len) bytes; the text is NUL-terminated and its length returned. `s` may hold
 * NUL bytes; invalid UTF-8 passes through, except with JET_WRITE_ASCII:
 * then 0 is returned (and `out` holds an empty string) unless
 * JET_WRITE_REPLACE_INVALID_UTF8 writes it as \ufffd. Thread-safe.
 */
JET_API size_t jet_print_str(char *out, const char *s, size_t len, jet_write_flags flags);

/**
 * A streaming writer: JSON text made by a sequence of calls, without a tree.
 *
 *     jet_buf out; jet_buf_init(&out, NULL);
 *     jet_writer w; jet_writer_init_buf(&w, &out, JET_WRITE_PRETTY);
 *     jet_writer_obj_begin(&w);
 *     jet_writer_key(&w, "id");  jet_writer_uint(&w, 42);
 *     jet_writer_key(&w, "tags"); jet_writer_arr_begin(&w);
 *     jet_writer_str(&w, "a");   jet_writer_arr_end(&w);
 *     jet_writer_obj_end(&w);
 *     if (!jet_writer_finish(&w)) ... jet_writer_error(&w)->msg ...
 *
 * The text is byte for byte what jet_val_write() gives for the same values
 * under the same flags (JET_WRITE_INDENT(n), JET_WRITE_ESCAPE_SLASHES,
 * JET_WRITE_ASCII, JET_WRITE_ALLOW_NAN_INF, JET_WRITE_NEWLINE_AT_END,
 * JET_WRITE_REPLACE_INVALID_UTF8, the newline applied by jet_writer_finish).
 *
 * The grammar is checked: a key where a value is expected (or a value
 * where a key is), an end that does not match the open container, a
 * second root value, more than JET_WRITER_MAX_DEPTH open containers, a
 * non-finite double without JET_WRITE_ALLOW_NAN_INF, or invalid UTF-8 in
 * ASCII mode (JET_ERR_UTF8) is an error, not bad output. Errors are sticky: the failing call and every later one return
 * false and write nothing; jet_writer_error() says what happened (`offset`
 * is the number of bytes written before the failing call; line, column and
 * path are 0/NULL). Output already delivered stays delivered.
 *
 * Sinks: a jet_buf (appended to, NUL-terminated beyond buf->len after each
 * call; the buffer's allocator grows it); a FILE * or a callback, fed in
 * chunks of exactly JET_WRITER_CHUNK bytes (the last one shorter, at
 * jet_writer_finish) through a buffer the writer allocates with libc.
 * A callback returns false to fail the write (JET_ERR_IO).
 *
 * Lifetime: the jet_writer is the caller's (its fields are private); call
 * jet_writer_finish exactly once, also after an error, to release the
 * chunk buffer. The sink must outlive the writer. Thread safety: one writer
 * per thread; distinct writers are independent.
 */
#define JET_WRITER_MAX_DEPTH 4096u
#define JET_WRITER_CHUNK 4096u
typedef bool (*jet_write_fn)(void *ctx, const char *data, size_t len);
typedef struct jet_writer {
    jet_buf *buf;          /* output (the caller's, or `own` for FILE/callback) */
    jet_buf own;
    FILE *fp;
    jet_write_fn fn;
    void *ctx;
    size_t flushed;        /* bytes handed to the FILE/callback so far */
    size_t start;          /* buf->len at init */
    jet_write_flags flags;
    uint32_t depth;        /* open containers */
    uint8_t state;         /* private: what may come next */
    jet_error err;
    uint64_t opts[5];      /* the flags resolved once for the escaper */
    uint64_t kinds[JET_WRITER_MAX_DEPTH / 64]; /* 1 bit per level: object */
} jet_writer;

/** Writes into `out` (initialized with jet_buf_init; appended to). */
JET_API void jet_writer_init_buf(jet_writer *w, jet_buf *out, jet_write_flags flags);
/** Writes to the stdio stream `fp` (flushed by jet_writer_finish). */
JET_API void jet_writer_init_fp(jet_writer *w, FILE *fp, jet_write_flags flags);
/** Hands the text to `fn(ctx, data, len)` in chunks. */
JET_API void jet_writer_init_cb(jet_writer *w, jet_write_fn fn, void *ctx,
                                jet_write_flags flags);

JET_API bool jet_writer_obj_begin(jet_writer *w);
JET_API bool jet_writer_obj_end(jet_writer *w);
JET_API bool jet_writer_arr_begin(jet_writer *w);
JET_API bool jet_writer_arr_end(jet_writer *w);
/** A member's key (only where a key is expected: inside an object, before
 *  each member's value). `key` may hold NUL bytes with the length form. */
JET_API bool jet_writer_keyn(jet_writer *w, const char *key, size_t len);
JET_API bool jet_writer_key(jet_writer *w, const char *key);
JET_API bool jet_writer_strn(jet_writer *w, const char *s, size_t len);
JET_API bool jet_writer_str(jet_writer *w, const char *s);
JET_API bool jet_writer_uint(jet_writer *w, uint64_t u);
JET_API bool jet_writer_sint(jet_writer *w, int64_t i);
/** Shortest round-trip form; NaN/infinities need JET_WRITE_ALLOW_NAN_INF. */
JET_API bool jet_writer_f64(jet_writer *w, double d);
JET_API bool jet_writer_f32(jet_writer *w, float f);
/** `len` bytes written as one value, unchecked (e.g. a number's text). */
JET_API bool jet_writer_raw(jet_writer *w, const char *text, size_t len);
JET_API bool jet_writer_null(jet_writer *w);
JET_API bool jet_writer_bool(jet_writer *w, bool b);
/**
 * Ends the document: fails (JET_ERR_TRUNCATED) when containers are still
 * open or no value was written, appends the newline of
 * JET_WRITE_NEWLINE_AT_END, delivers the last chunk (and fflush()es a
 * FILE) and releases the writer's memory. Returns false when this or any
 * earlier call failed.
 */
JET_API bool jet_writer_finish(jet_writer *w);
/** The first error (code JET_OK when none). Valid as long as `w`. */
JET_API const jet_error *jet_writer_error(const jet_writer *w);

/**
 * A JSON Patch (RFC 6902) that turns `a` into `b`, built in `out` as an
 * array value (not made the root; NULL on OOM, JET_ERR_MEMORY, or nesting
 * deeper than JET_MUT_MAX_DEPTH, JET_ERR_DEPTH_LIMIT). Small rather than
 * minimal: objects are compared by key (a "remove" for each member of `a`
 * that `b` lacks, an "add" for each new one, recursion for members on both
 * sides; two objects with no key in common are one "replace" when that
 * saves operations); arrays by position after their common prefix and
 * suffix are trimmed, so one inserted or removed element is one operation;
 * any other difference (kinds, scalars) is one "replace". Scalars compare as
 * jet_val_equal does (kinds, doubles bitwise), so 1 and 1.0 differ.
 * Objects are sets of members: members that only changed places give no
 * operation, so jet_patch_apply() of the result to a copy of `a` gives a
 * value equal to `b` as JSON (jet_mut_equal_json), new members appended.
 * An object with a repeated key (on either side) is replaced whole. Paths
 * are escaped per RFC 6901 ("~0" for '~', "~1" for '/'); values are copied
 * into `out`. Cost: O(members^2) per object pair, O(n) per array pair.
 */
JET_API jet_mut_val *jet_diff(jet_mut_doc *out, const jet_val *a, const jet_val *b,
                              jet_error *err);

/* ========================================================================== */
/* 16. Document streams: NDJSON, concatenated JSON, chunked input, threads    */
/* ========================================================================== */

/*
 * docs/streams.md is the guide to this section.
 *
 * A jet_stream splits a sequence of JSON documents into the byte span of
 * each, without copying: NDJSON / JSON Lines (one document per line, found
 * with memchr; the parser then checks that the line holds exactly one
 * value) or whitespace-separated concatenated JSON (`{..} {..} 1 "x"`,
 * delimited by a light scan of brackets and strings; the parser checks the
 * rest). The input is one buffer (jet_stream_set_buffer) or arrives in
 * chunks of any size (jet_stream_feed, then jet_stream_finish).
 *
 * Per document the caller chooses what to do with the span: a DOM with a
 * reusable parser (jet_stream_next_dom), validation alone
 * (jet_stream_next_valid), or jet_stream_next and then the cursor
 * (jet_od_start) or typed decoding (jet_decode) on doc.json/doc.len.
 *
 *     jet_stream *s = jet_stream_new(JET_STREAM_NDJSON, NULL, NULL);
 *     jet_parser *p = jet_parser_new(NULL);
 *     jet_stream_set_buffer(s, text, len);
 *     jet_stream_doc d; jet_doc *doc; jet_stream_status st;
 *     while ((st = jet_stream_next_dom(s, p, &doc, &d)) == JET_STREAM_DOC)
 *         use(jet_doc_root(doc));
 *     if (st == JET_STREAM_ERROR) report(jet_stream_error(s));
 *
 * Errors carry ABSOLUTE positions: the byte offset from the start of the
 * stream and the line:column in it (column in code points, as jet_error).
 * Without JET_STREAM_SKIP_ERRORS the first error stops the stream (every
 * later call returns JET_STREAM_ERROR); with it the call that met the error
 * returns JET_STREAM_ERROR once and the next call goes on: in NDJSON at the
 * next line, in concatenated JSON after the bad document as the splitter
 * delimited it (brackets and strings balanced).
 *
 * Blank lines (spaces, tabs, '\r' only) are skipped; the last document may
 * lack its newline; a '\r' before the '\n' is whitespace. A UTF-8 byte
 * order mark (EF BB BF) at the very start is an error (RFC 8259 and JSON
 * Lines forbid it) unless JET_STREAM_ALLOW_BOM, which skips it; offsets
 * still count its 3 bytes.
 *
 * Lifetime: a span (doc.json) points into the buffer given to
 * jet_stream_set_buffer or into the stream's own chunk buffer; it is valid
 * until the next jet_stream_feed / jet_stream_set_buffer / jet_stream_free.
 * Memory with chunked input: the stream keeps only the unfinished document
 * and the chunk being fed, so its buffer stays below twice the largest
 * document plus the largest chunk, whatever the stream's length (drain
 * documents with jet_stream_next* until JET_STREAM_MORE before each feed).
 * With the read option max_size, a document still unfinished after
 * max_size bytes fails at once (JET_ERR_SIZE_LIMIT at that byte, as the
 * parser reports it), so not even a line that never ends grows the buffer
 * past the limit; NDJSON with JET_STREAM_SKIP_ERRORS drops the rest of
 * that line, otherwise the stream stops.
 * Thread safety: one stream per thread; jet_stream_run below spreads the
 * documents of one stream over threads.
 */
typedef uint32_t jet_stream_flags;
/** Whitespace-separated JSON texts (the default). */
#define JET_STREAM_CONCAT ((jet_stream_flags)0)
/** NDJSON / JSON Lines: exactly one document per line. */
#define JET_STREAM_NDJSON ((jet_stream_flags)1u << 0)
/** After a bad document go on with the next one instead of stopping. */
#define JET_STREAM_SKIP_ERRORS ((jet_stream_flags)1u << 1)
/** Skip a UTF-8 byte order mark at the start instead of failing. */
#define JET_STREAM_ALLOW_BOM ((jet_stream_flags)1u << 2)

typedef struct jet_stream jet_stream;

/** One document's span and where it is in the stream. */
typedef struct jet_stream_doc {
    const char *json; /* its bytes (NDJSON: the whole line without '\n') */
    size_t len;
    uint64_t offset;  /* absolute byte offset of json[0] */
    uint64_t line;    /* 1-based line of json[0] */
    uint64_t column;  /* 1-based column (code points) of json[0] */
    uint64_t index;   /* 0-based number of the document, bad ones included */
} jet_stream_doc;

typedef enum jet_stream_status {
    JET_STREAM_END = 0,   /* no more documents */
    JET_STREAM_DOC = 1,   /* the next document is in *doc */
    JET_STREAM_MORE = 2,  /* chunked input: feed more bytes or finish */
    JET_STREAM_ERROR = 3  /* jet_stream_error() says what and where */
} jet_stream_status;

/** New stream. `opts` (NULL: defaults) are the read options of every
 *  document (JET_READ_STOP_WHEN_DONE is ignored); `alloc` NULL: libc.
 *  NULL on OOM. Free with jet_stream_free(). */
JET_API jet_stream *jet_stream_new(jet_stream_flags flags, const jet_read_opts *opts,
                                   const jet_alloc *alloc);
/** Frees the stream. NULL is a no-op. */
JET_API void jet_stream_free(jet_stream *s);
/** Starts over on the whole input `data[0..len)` (not copied: it must
 *  outlive the spans). Returns false for a NULL stream or data with len. */
JET_API bool jet_stream_set_buffer(jet_stream *s, const char *data, size_t len);
/** Appends a chunk (copied). Returns false on OOM (JET_ERR_MEMORY, sticky),
 *  after jet_stream_finish or jet_stream_set_buffer (JET_ERR_INVALID_ARG). */
JET_API bool jet_stream_feed(jet_stream *s, const char *data, size_t len);
/** No more chunks: what is left is the last document (or an error). */
JET_API void jet_stream_finish(jet_stream *s);

/** The next document's span in `*doc`. The span is not parsed: parse it,
 *  validate it or run the cursor on it, and hand a failure of those to
 *  jet_stream_fail() to make its position absolute. */
JET_API jet_stream_status jet_stream_next(jet_stream *s, jet_stream_doc *doc);
/** The next document parsed with `parser` into `*out` (owned by the parser,
 *  valid until its next parse); `doc` may be NULL. */
JET_API jet_stream_status jet_stream_next_dom(jet_stream *s, jet_parser *parser, jet_doc **out,
                                              jet_stream_doc *doc);
/** The next document checked with `od`'s validator (jet_od_validate):
 *  nothing is built. `doc` may be NULL. */
JET_API jet_stream_status jet_stream_next_valid(jet_stream *s, jet_od *od, jet_stream_doc *doc);
/**
 * Records a failure met in document `doc` (an error whose offset and
 * line:column are relative to doc->json, as jet_parser_parse, jet_od_error
 * and jet_decode give them): `*err` is made absolute in place and kept as
 * the stream's error; then the stream stops or, with
 * JET_STREAM_SKIP_ERRORS, goes on after the document.
 */
JET_API void jet_stream_fail(jet_stream *s, const jet_stream_doc *doc, jet_error *err);
/** The last error (code JET_OK while there is none). Never NULL. */
JET_API const jet_error *jet_stream_error(const jet_stream *s);
/** Bytes of input the stream has taken so far (set or fed). */
JET_API uint64_t jet_stream_bytes_in(const jet_stream *s);

/**
 * Parallel processing: the documents of the stream are handed out in
 * batches to `threads` worker threads, and the results come back to the
 * caller's thread in input order through a bounded queue (2 batches per
 * worker: memory about threads x 2 x batch_bytes, plus the largest
 * document). On each document a worker calls `work` with its own parser
 * and cursor, reused from document to document, and the batch's arena and
 * output buffer: `work` appends the document's result (any bytes: text, a
 * decoded struct) to w->out, whose data and the arena stay valid until the
 * batch is delivered. work == NULL validates (jet_od_validate) and appends
 * nothing. `work` returns false with `err` set (positions relative to
 * doc->json) to fail the document.
 *
 * `deliver` is called on the caller's thread once per document, in input
 * order, with the document (doc->json valid during the call), its result
 * bytes, and `err`: NULL, or the document's failure with absolute
 * positions. It returns false to stop the run. Without
 * JET_STREAM_SKIP_ERRORS the first failure is delivered and ends the run.
 */
typedef struct jet_stream_worker {
    jet_parser *parser; /* the worker's own */
    jet_od *od;         /* the worker's own */
    jet_arena *arena;   /* the batch's: results may point into it */
    jet_buf *out;       /* append the document's result here */
    unsigned id;        /* 0 .. threads-1 */
} jet_stream_worker;
typedef bool (*jet_stream_work_fn)(void *ctx, jet_stream_worker *w, const jet_stream_doc *doc,
                                   jet_error *err);
typedef bool (*jet_stream_deliver_fn)(void *ctx, const jet_stream_doc *doc, const char *result,
                                      size_t len, const jet_error *err);
/** Appends `len` bytes to `buf` (a work function's w->out, or any jet_buf),
 *  growing it with its allocator. false on OOM (nothing appended). */
JET_API bool jet_buf_append(jet_buf *buf, const void *data, size_t len);
/** Reads up to `cap` bytes into `buf`: the count, 0 at the end of the
 *  input, SIZE_MAX on failure (the run fails with JET_ERR_IO). */
typedef size_t (*jet_stream_read_fn)(void *ctx, char *buf, size_t cap);

typedef struct jet_stream_run_opts {
    unsigned threads;        /* 0: the number of CPUs online */
    size_t batch_bytes;      /* 0: 1 MiB */
    jet_stream_read_fn read; /* NULL: the input given to jet_stream_set_buffer */
    void *read_ctx;
    size_t chunk_bytes;      /* size of each read; 0: 256 KiB */
} jet_stream_run_opts;

/**
 * Runs the stream as described above (`ro` NULL: defaults). Returns true
 * when every document was delivered and none failed; false after a failure
 * (jet_stream_error), a stop asked by `deliver`, or an I/O or memory error.
 * Without pthreads (or threads == 1) everything runs on the caller's thread.
 * `ctx` is shared by all workers: `work` must not write it unguarded.
 */
JET_API bool jet_stream_run(jet_stream *s, const jet_stream_run_opts *ro, jet_stream_work_fn work,
                            jet_stream_deliver_fn deliver, void *ctx);
/** The number of CPUs online (at least 1). */
JET_API unsigned jet_cpu_count(void);

/* ========================================================================== */
/* 17. Old names                                                              */
/* ========================================================================== */

/*
 * The names of jet 0.1, before the vocabulary of the header comment. They
 * are macros for the current names, so they cost nothing and cannot drift,
 * but they are not symbols of the shared library: bindings use the current
 * names. Define JET_NO_OLD_NAMES to leave them out.
 */
#ifndef JET_NO_OLD_NAMES
#define JET_SUBTYPE_REAL JET_SUBTYPE_F64
#define jet_is_real jet_is_f64
#define jet_get_real jet_get_f64
#define jet_arr_get jet_arr_at
#define jet_obj_get jet_obj_find
#define jet_obj_getn jet_obj_findn
#define jet_ptr_get jet_ptr_find
#define jet_ptr_getn jet_ptr_findn
#define jet_odv_get_u64 jet_odv_get_uint
#define jet_odv_get_i64 jet_odv_get_sint
#define jet_odv_get_double jet_odv_get_f64
#define jet_odv_get_float jet_odv_get_f32
#define jet_od_obj_get jet_od_obj_require
#define JET_K_INT JET_K_SINT
#define JET_F_INT JET_F_SINT
#define JET_F_DEFAULT_INT JET_F_DEFAULT_SINT
#endif

#ifdef __cplusplus
}
#endif

#endif /* JET_H */
