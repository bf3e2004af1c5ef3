/*
 * query_ast.h — the syntax tree the parser (query_parse.c) builds and the
 * evaluator (query_eval.c) walks. Internal to tools/query/.
 */
#ifndef JET_QUERY_AST_H
#define JET_QUERY_AST_H

#include "query.h"

typedef enum qop {
    Q_IDENTITY, /* . */
    Q_RECURSE,  /* .. */
    Q_FIELD,    /* a.name (key: name/name_len) */
    Q_INDEX,    /* a[b] (b evaluated against the input of the whole term) */
    Q_SLICE,    /* a[b:c] (b or c NULL when omitted) */
    Q_ITER,     /* a[] */
    Q_TRY,      /* a? */
    Q_PIPE,     /* a | b */
    Q_COMMA,    /* a, b */
    Q_LITERAL,  /* lit */
    Q_VAR,      /* $name (slot) */
    Q_NEG,      /* -a */
    Q_ARITH,    /* a OP b, OP in sub: + - * / % == != < <= > >= */
    Q_AND,      /* a and b */
    Q_OR,       /* a or b */
    Q_ALT,      /* a // b */
    Q_ARRAY,    /* [a] (a NULL for []) */
    Q_OBJECT,   /* {k: v, ...}: list holds key, value, key, value, ... */
    Q_FORMAT,   /* "...\(a)...": list holds literal, filter, literal, ..., literal */
    Q_CALL,     /* a builtin (sub: its id), list: its arguments */
    Q_IF,       /* if a then b else c end */
    Q_AS        /* a as $name | b (slot) */
} qop;

/* Binary operators of Q_ARITH. */
enum { QA_ADD, QA_SUB, QA_MUL, QA_DIV, QA_MOD, QA_EQ, QA_NE, QA_LT, QA_LE, QA_GT, QA_GE };

/* Builtins of Q_CALL. */
typedef enum qfn {
    QF_EMPTY, QF_NOT, QF_LENGTH, QF_TYPE, QF_KEYS, QF_KEYS_UNSORTED, QF_HAS, QF_SELECT,
    QF_MAP, QF_TO_ENTRIES, QF_FROM_ENTRIES, QF_FIRST, QF_LAST, QF_FIRST_OF, QF_LAST_OF,
    QF_ADD, QF_SORT, QF_SORT_BY, QF_UNIQUE, QF_UNIQUE_BY, QF_MIN, QF_MAX, QF_MIN_BY, QF_MAX_BY,
    QF_TOSTRING, QF_TONUMBER, QF_TOJSON, QF_ASCII_DOWNCASE, QF_ASCII_UPCASE, QF_REVERSE,
    QF_RANGE, QF_RANGE2, QF_VALUES, QF_GROUP_BY, QF_JOIN, QF_SPLIT, QF_STARTSWITH,
    QF_ENDSWITH, QF_LTRIMSTR, QF_RTRIMSTR, QF_ANY, QF_ALL, QF_WITH_ENTRIES, QF_LIMIT,
    QF_ERROR, QF_ERROR_OF
} qfn;

struct qnode {
    uint8_t op;  /* qop */
    uint8_t sub; /* Q_ARITH operator, Q_CALL builtin */
    bool opt;    /* a suffix followed by ?: its own error drops the value */
    size_t pos;  /* byte offset in the filter (for error messages) */
    qnode *a, *b, *c;
    qnode **list;
    size_t n; /* entries of list */
    const char *name; /* Q_FIELD's key */
    size_t name_len;
    size_t slot; /* Q_VAR, Q_AS */
    qv lit;      /* Q_LITERAL */
};

#endif
