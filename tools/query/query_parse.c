/*
 * query_parse.c — the filter text to a syntax tree (query_ast.h), by
 * recursive descent with jq's precedence, lowest first:
 *   pipe `|` (and `Term as $x | ...`), comma `,`, alternative `//` (right),
 *   `or`, `and`, comparisons (non-associative), `+ -`, `* / %`, unary
 *   minus, postfix (`.a`, `[..]`, `?`), terms.
 * jq constructs outside the subset (reduce, def, assignment, formats, ...)
 * are errors that name the construct and its position, never something
 * else parsed in their place.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "query_ast.h"
#include "utf8.h"

/* Deepest nesting of brackets and operators the parser follows (the
 * evaluator's recursion follows the tree's). */
#define QPARSE_MAX_DEPTH 200

enum {
    T_EOF = 256,
    T_DOTDOT,
    T_FIELD,  /* .name: text after the dot */
    T_IDENT,  /* name (keywords included) */
    T_VAR,    /* $name: text after the '$' */
    T_NUM,
    T_STR,    /* the opening quote; the parser reads the body */
    T_FORMAT, /* @name */
    T_EQ, T_NE, T_LE, T_GE, T_ALT, /* == != <= >= // */
    T_ASSIGN  /* = |= += -= *= /= %= //= */
};

typedef struct scope_var {
    const char *name;
    size_t len, slot;
} scope_var;

typedef struct qparser {
    const char *src;
    size_t len, p;
    int tok;
    size_t tok_pos, tok_end;
    const char *text; /* T_FIELD, T_IDENT, T_VAR, T_NUM, T_FORMAT, T_ASSIGN */
    size_t text_len;
    qprog *prog;
    qerror *err;
    bool failed;
    unsigned depth;
    scope_var *scope;
    size_t nscope, scope_cap;
} qparser;

static bool pfail(qparser *ps, size_t pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool pfail(qparser *ps, size_t pos, const char *fmt, ...) {
    if (ps->failed) return false;
    ps->failed = true;
    qerror *e = ps->err;
    e->pos = pos;
    e->line = 1;
    e->col = 1;
    for (size_t i = 0; i < pos && i < ps->len; i++) {
        if (ps->src[i] == '\n') {
            e->line++;
            e->col = 1;
        } else {
            e->col++;
        }
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return false;
}

static bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident_char(char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* The length of a name at s (jq: letters, digits, '_', and "::"). */
static size_t ident_len(const char *s, size_t left) {
    size_t n = 0;
    while (n < left && (is_ident_char(s[n]) || (s[n] == ':' && n + 1 < left && s[n + 1] == ':' &&
                                                n + 2 < left && is_ident_start(s[n + 2]))))
        n += s[n] == ':' ? 2 : 1;
    return n;
}

/* Reads the next token into ps->tok. */
static void next(qparser *ps) {
    const char *s = ps->src;
    size_t p = ps->p, n = ps->len;
    for (;;) { /* whitespace and # comments */
        while (p < n && q_is_ws(s[p])) p++;
        if (p < n && s[p] == '#') {
            while (p < n && s[p] != '\n') p++;
            continue;
        }
        break;
    }
    ps->tok_pos = p;
    ps->text = s + p;
    ps->text_len = 0;
    if (p >= n) {
        ps->tok = T_EOF;
        ps->tok_end = ps->p = p;
        return;
    }
    char c = s[p];
    size_t end = p + 1;
    int tok = (unsigned char)c;
    if (c == '.') {
        if (end < n && s[end] == '.') {
            tok = T_DOTDOT;
            end++;
        } else if (end < n && is_ident_start(s[end])) {
            tok = T_FIELD;
            ps->text = s + end;
            ps->text_len = ident_len(s + end, n - end);
            end += ps->text_len;
        } else if (end < n && is_digit(s[end])) {
            goto number; /* .5 */
        }
    } else if (is_digit(c)) {
    number:
        tok = T_NUM;
        end = p;
        while (end < n && is_digit(s[end])) end++;
        if (end < n && s[end] == '.') {
            end++;
            while (end < n && is_digit(s[end])) end++;
        }
        if (end < n && (s[end] == 'e' || s[end] == 'E')) {
            size_t e = end + 1;
            if (e < n && (s[e] == '+' || s[e] == '-')) e++;
            if (e < n && is_digit(s[e])) {
                while (e < n && is_digit(s[e])) e++;
                end = e;
            }
        }
        ps->text = s + p;
        ps->text_len = end - p;
    } else if (is_ident_start(c)) {
        tok = T_IDENT;
        ps->text_len = ident_len(s + p, n - p);
        end = p + ps->text_len;
    } else if (c == '$' || c == '@') {
        tok = c == '$' ? T_VAR : T_FORMAT;
        ps->text = s + end;
        ps->text_len = ident_len(s + end, n - end);
        end += ps->text_len;
    } else if (c == '"') {
        tok = T_STR;
    } else {
        char d = end < n ? s[end] : 0;
        if (c == '=' && d == '=') tok = T_EQ, end++;
        else if (c == '!' && d == '=') tok = T_NE, end++;
        else if (c == '<' && d == '=') tok = T_LE, end++;
        else if (c == '>' && d == '=') tok = T_GE, end++;
        else if (c == '/' && d == '/') {
            tok = T_ALT;
            end++;
            if (end < n && s[end] == '=') tok = T_ASSIGN, end++;
        } else if (c == '=' || ((c == '|' || c == '+' || c == '-' || c == '*' || c == '/' ||
                                 c == '%') && d == '=')) {
            tok = T_ASSIGN;
            if (c != '=') end++;
        } else if (c == '?' && d == '/' && end + 1 < n && s[end + 1] == '/') {
            tok = T_ASSIGN; /* ?// : reported as unsupported with the text */
            end += 2;
        }
        if (tok == T_ASSIGN) {
            ps->text = s + p;
            ps->text_len = end - p;
        }
    }
    ps->tok = tok;
    ps->tok_end = ps->p = end;
}

static bool tok_is(const qparser *ps, const char *word) {
    size_t n = strlen(word);
    return ps->tok == T_IDENT && ps->text_len == n && memcmp(ps->text, word, n) == 0;
}

static const char *tok_desc(const qparser *ps, char *buf, size_t cap) {
    if (ps->tok == T_EOF) return "end of filter";
    size_t n = ps->tok_end - ps->tok_pos;
    snprintf(buf, cap, "'%.*s'", (int)(n > 40 ? 40 : n), ps->src + ps->tok_pos);
    return buf;
}

static bool unexpected(qparser *ps) {
    char buf[64];
    return pfail(ps, ps->tok_pos, "syntax error: unexpected %s", tok_desc(ps, buf, sizeof buf));
}

static bool expect(qparser *ps, int tok, const char *what) {
    if (ps->tok == tok) {
        next(ps);
        return true;
    }
    char buf[64];
    return pfail(ps, ps->tok_pos, "syntax error: expected %s, found %s", what,
                 tok_desc(ps, buf, sizeof buf));
}

static qnode *node(qparser *ps, qop op, size_t pos) {
    qnode *n = (qnode *)jet_arena_alloc(&ps->prog->arena, sizeof *n, 16);
    if (!n) {
        pfail(ps, pos, "out of memory");
        return NULL;
    }
    memset(n, 0, sizeof *n);
    n->op = (uint8_t)op;
    n->pos = pos;
    return n;
}

static qnode *node2(qparser *ps, qop op, size_t pos, qnode *a, qnode *b) {
    if (!a || !b) return NULL;
    qnode *n = node(ps, op, pos);
    if (n) {
        n->a = a;
        n->b = b;
    }
    return n;
}

/* A growable list of nodes in the program's arena. */
typedef struct nlist {
    qnode **items;
    size_t n, cap;
} nlist;

static bool nlist_push(qparser *ps, nlist *l, qnode *x) {
    if (!x) return false;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4;
        qnode **items = (qnode **)jet_arena_alloc(&ps->prog->arena, cap * sizeof *items, 16);
        if (!items) return pfail(ps, ps->tok_pos, "out of memory");
        if (l->n) memcpy(items, l->items, l->n * sizeof *items);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->n++] = x;
    return true;
}

static char *arena_copy(qparser *ps, const char *s, size_t len) {
    char *d = (char *)jet_arena_alloc(&ps->prog->arena, len + 1, 1);
    if (!d) {
        pfail(ps, ps->tok_pos, "out of memory");
        return NULL;
    }
    if (len) memcpy(d, s, len);
    d[len] = 0;
    return d;
}

static qnode *parse_pipe(qparser *ps, bool comma);

static bool enter(qparser *ps) {
    if (++ps->depth > QPARSE_MAX_DEPTH)
        return pfail(ps, ps->tok_pos, "filter nested too deeply (more than %d levels)",
                     QPARSE_MAX_DEPTH);
    return true;
}

/* ---- strings: "...", with escapes and \( ) interpolation ---- */

/* Reads a string whose opening quote is the current token. Returns a
 * literal, or a Q_FORMAT node when it interpolates. */
static qnode *parse_string(qparser *ps) {
    size_t start = ps->tok_pos;
    const char *s = ps->src;
    size_t p = ps->tok_end, n = ps->len;
    nlist parts = {NULL, 0, 0};
    qbuf lit = {NULL, 0, 0};
    qnode *result = NULL;
    for (;;) {
        if (p >= n) {
            pfail(ps, start, "unterminated string");
            goto out;
        }
        char c = s[p];
        if (c == '"') {
            p++;
            break;
        }
        if (c != '\\') {
            if (!qbuf_push(&lit, &c, 1)) goto oom;
            p++;
            continue;
        }
        if (p + 1 >= n) {
            pfail(ps, p, "unterminated string");
            goto out;
        }
        char e = s[p + 1];
        char out[4];
        size_t olen = 1;
        switch (e) {
        case '"': out[0] = '"'; break;
        case '\\': out[0] = '\\'; break;
        case '/': out[0] = '/'; break;
        case 'b': out[0] = '\b'; break;
        case 'f': out[0] = '\f'; break;
        case 'n': out[0] = '\n'; break;
        case 'r': out[0] = '\r'; break;
        case 't': out[0] = '\t'; break;
        case 'u': {
            int32_t cp = p + 6 <= n ? jet__hex4(s + p + 2) : -1;
            if (cp < 0) {
                pfail(ps, p, "bad \\u escape in string (4 hex digits expected)");
                goto out;
            }
            const char *after = s + p + 6;
            if (cp >= 0xD800 && cp <= 0xDFFF && !jet__pair_surrogate(&after, s + n, &cp))
                cp = 0xFFFD; /* a lone surrogate, as jq */
            olen = (size_t)(jet__utf8_put(out, (uint32_t)cp) - out);
            if (!qbuf_push(&lit, out, olen)) goto oom;
            p = (size_t)(after - s);
            continue;
        }
        case '(': {
            /* the literal so far, then the interpolated filter */
            qnode *ln = node(ps, Q_LITERAL, p);
            char *text = ln ? arena_copy(ps, lit.data ? lit.data : "", lit.len) : NULL;
            if (!text) goto out;
            ln->lit = qv_str(text, lit.len);
            lit.len = 0;
            if (!nlist_push(ps, &parts, ln)) goto out;
            ps->p = p + 2;
            next(ps);
            if (!enter(ps)) goto out;
            qnode *f = parse_pipe(ps, true);
            ps->depth--;
            if (!f || !nlist_push(ps, &parts, f)) goto out;
            if (ps->tok != ')') {
                expect(ps, ')', "')' to end the interpolation");
                goto out;
            }
            p = ps->tok_end;
            continue;
        }
        default:
            pfail(ps, p, "bad escape '\\%c' in string", e);
            goto out;
        }
        if (!qbuf_push(&lit, out, olen)) goto oom;
        p += 2;
    }
    {
        qnode *ln = node(ps, Q_LITERAL, start);
        char *text = ln ? arena_copy(ps, lit.data ? lit.data : "", lit.len) : NULL;
        if (!text) goto out;
        ln->lit = qv_str(text, lit.len);
        if (parts.n == 0) {
            result = ln;
        } else if (nlist_push(ps, &parts, ln)) {
            result = node(ps, Q_FORMAT, start);
            if (result) {
                result->list = parts.items;
                result->n = parts.n;
            }
        }
    }
    ps->p = p;
    next(ps);
    goto out;
oom:
    pfail(ps, p, "out of memory");
out:
    qbuf_free(&lit);
    return ps->failed ? NULL : result;
}

/* ---- terms ---- */

typedef struct builtin {
    const char *name;
    uint8_t arity;
    uint8_t fn;
} builtin;

static const builtin builtins[] = {
    {"empty", 0, QF_EMPTY},        {"not", 0, QF_NOT},
    {"length", 0, QF_LENGTH},      {"type", 0, QF_TYPE},
    {"keys", 0, QF_KEYS},          {"keys_unsorted", 0, QF_KEYS_UNSORTED},
    {"has", 1, QF_HAS},            {"select", 1, QF_SELECT},
    {"map", 1, QF_MAP},            {"to_entries", 0, QF_TO_ENTRIES},
    {"from_entries", 0, QF_FROM_ENTRIES}, {"first", 0, QF_FIRST},
    {"last", 0, QF_LAST},          {"first", 1, QF_FIRST_OF},
    {"last", 1, QF_LAST_OF},       {"add", 0, QF_ADD},
    {"sort", 0, QF_SORT},          {"sort_by", 1, QF_SORT_BY},
    {"unique", 0, QF_UNIQUE},      {"unique_by", 1, QF_UNIQUE_BY},
    {"min", 0, QF_MIN},            {"max", 0, QF_MAX},
    {"min_by", 1, QF_MIN_BY},      {"max_by", 1, QF_MAX_BY},
    {"group_by", 1, QF_GROUP_BY},  {"tostring", 0, QF_TOSTRING},
    {"tonumber", 0, QF_TONUMBER},  {"tojson", 0, QF_TOJSON},
    {"ascii_downcase", 0, QF_ASCII_DOWNCASE}, {"ascii_upcase", 0, QF_ASCII_UPCASE},
    {"reverse", 0, QF_REVERSE},    {"range", 1, QF_RANGE},
    {"range", 2, QF_RANGE2},       {"values", 0, QF_VALUES},
    {"join", 1, QF_JOIN},          {"split", 1, QF_SPLIT},
    {"startswith", 1, QF_STARTSWITH}, {"endswith", 1, QF_ENDSWITH},
    {"ltrimstr", 1, QF_LTRIMSTR},  {"rtrimstr", 1, QF_RTRIMSTR},
    {"any", 0, QF_ANY},            {"all", 0, QF_ALL},
    {"with_entries", 1, QF_WITH_ENTRIES}, {"limit", 2, QF_LIMIT},
    {"error", 0, QF_ERROR},        {"error", 1, QF_ERROR_OF},
};

/* jq keywords that start constructs outside the subset. */
static const char *const unsupported_words[] = {
    "reduce", "foreach", "def", "label", "import", "include", "catch", "elif", "__loc__",
};

static qnode *parse_postfix(qparser *ps);

static qnode *parse_call(qparser *ps) {
    size_t pos = ps->tok_pos;
    const char *name = ps->text;
    size_t nlen = ps->text_len;
    next(ps);
    nlist args = {NULL, 0, 0};
    if (ps->tok == '(') {
        next(ps);
        for (;;) {
            if (!nlist_push(ps, &args, parse_pipe(ps, true))) return NULL;
            if (ps->tok == ';') {
                next(ps);
                continue;
            }
            if (!expect(ps, ')', "';' or ')' in the arguments")) return NULL;
            break;
        }
    }
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        if (strlen(builtins[i].name) == nlen && memcmp(builtins[i].name, name, nlen) == 0 &&
            builtins[i].arity == args.n) {
            qnode *n = node(ps, Q_CALL, pos);
            if (n) {
                n->sub = builtins[i].fn;
                n->list = args.items;
                n->n = args.n;
            }
            return n;
        }
    }
    pfail(ps, pos, "unsupported: %.*s/%zu (not a builtin of jet query; see docs/query.md)",
          (int)nlen, name, args.n);
    return NULL;
}

static qnode *parse_if(qparser *ps) {
    size_t pos = ps->tok_pos;
    next(ps);
    qnode *n = node(ps, Q_IF, pos);
    if (!n || !(n->a = parse_pipe(ps, true))) return NULL;
    if (!tok_is(ps, "then")) return expect(ps, -1, "'then'"), NULL;
    next(ps);
    if (!(n->b = parse_pipe(ps, true))) return NULL;
    if (tok_is(ps, "elif")) {
        n->c = parse_if(ps); /* reads up to and including the shared `end` */
        return n->c ? n : NULL;
    }
    if (tok_is(ps, "else")) {
        next(ps);
        if (!(n->c = parse_pipe(ps, true))) return NULL;
    } else if (!(n->c = node(ps, Q_IDENTITY, ps->tok_pos))) {
        return NULL;
    }
    if (!tok_is(ps, "end")) return expect(ps, -1, "'else' or 'end'"), NULL;
    next(ps);
    return n;
}

static bool lookup_var(qparser *ps, const char *name, size_t len, size_t *slot) {
    for (size_t i = ps->nscope; i-- > 0;) {
        if (ps->scope[i].len == len && memcmp(ps->scope[i].name, name, len) == 0) {
            *slot = ps->scope[i].slot;
            return true;
        }
    }
    return false;
}

static bool push_var(qparser *ps, const char *name, size_t len, size_t slot) {
    if (ps->nscope == ps->scope_cap) {
        size_t cap = ps->scope_cap ? 2 * ps->scope_cap : 8;
        scope_var *s = (scope_var *)realloc(ps->scope, cap * sizeof *s);
        if (!s) return pfail(ps, ps->tok_pos, "out of memory");
        ps->scope = s;
        ps->scope_cap = cap;
    }
    ps->scope[ps->nscope].name = name;
    ps->scope[ps->nscope].len = len;
    ps->scope[ps->nscope].slot = slot;
    ps->nscope++;
    return true;
}

/* { key: value, ... } */
static qnode *parse_object(qparser *ps) {
    size_t pos = ps->tok_pos;
    next(ps);
    nlist kv = {NULL, 0, 0};
    while (ps->tok != '}') {
        size_t kpos = ps->tok_pos;
        qnode *key = NULL, *val = NULL;
        if (ps->tok == T_IDENT || ps->tok == T_VAR) {
            bool var = ps->tok == T_VAR;
            const char *name = ps->text;
            size_t len = ps->text_len;
            key = node(ps, Q_LITERAL, kpos);
            char *text = key ? arena_copy(ps, name, len) : NULL;
            if (!text) return NULL;
            key->lit = qv_str(text, len);
            next(ps);
            if (var) { /* {$x}: {"x": $x} */
                size_t slot;
                if (!lookup_var(ps, name, len, &slot)) {
                    pfail(ps, kpos, "$%.*s is not defined", (int)len, name);
                    return NULL;
                }
                if (!(val = node(ps, Q_VAR, kpos))) return NULL;
                val->slot = slot;
            }
        } else if (ps->tok == T_STR) {
            key = parse_string(ps);
        } else if (ps->tok == T_NUM) {
            key = NULL;
            pfail(ps, kpos, "syntax error: an object key must be a name, a string or (filter)");
            return NULL;
        } else if (ps->tok == '(') {
            next(ps);
            key = parse_pipe(ps, true);
            if (!key || !expect(ps, ')', "')'")) return NULL;
        } else if (ps->tok == T_FORMAT) {
            pfail(ps, kpos, "unsupported: @%.*s", (int)ps->text_len, ps->text);
            return NULL;
        } else {
            unexpected(ps);
            return NULL;
        }
        if (!key) return NULL;
        if (!val && ps->tok == ':') {
            next(ps);
            val = parse_pipe(ps, false);
            if (!val) return NULL;
        } else if (!val) {
            /* {a} and {"a"}: the member of the same name */
            if (key->op != Q_LITERAL && key->op != Q_FORMAT) {
                expect(ps, ':', "':' after a computed key");
                return NULL;
            }
            val = node(ps, Q_INDEX, kpos);
            if (!val || !(val->a = node(ps, Q_IDENTITY, kpos))) return NULL;
            val->b = key;
        }
        if (!nlist_push(ps, &kv, key) || !nlist_push(ps, &kv, val)) return NULL;
        if (ps->tok == ',') {
            next(ps);
            continue;
        }
        if (ps->tok != '}') {
            expect(ps, '}', "',' or '}' in the object");
            return NULL;
        }
    }
    next(ps);
    qnode *n = node(ps, Q_OBJECT, pos);
    if (n) {
        n->list = kv.items;
        n->n = kv.n;
    }
    return n;
}

static qnode *literal_word(qparser *ps, size_t pos) {
    qnode *n = node(ps, Q_LITERAL, pos);
    if (!n) return NULL;
    n->lit = tok_is(ps, "null") ? qv_null() : qv_bool(tok_is(ps, "true"));
    next(ps);
    return n;
}

static qnode *parse_number(qparser *ps) {
    qnode *n = node(ps, Q_LITERAL, ps->tok_pos);
    if (!n) return NULL;
    const char *t = ps->text;
    size_t len = ps->text_len;
    jet_num num;
    jet_code code;
    const char *at;
    /* JSON's form keeps its text (printed as written); 1. or .5 is converted */
    const char *end = jet__num_parse(t, t + len, 0, &num, &code, &at);
    if (end == t + len) {
        char *text = arena_copy(ps, t, len);
        if (!text) return NULL;
        n->lit = qv_num_text(text, len);
    } else {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < 63 ? len : 63), t);
        n->lit = qv_dbl(strtod(buf, NULL));
    }
    next(ps);
    return n;
}

static qnode *parse_term(qparser *ps) {
    size_t pos = ps->tok_pos;
    switch (ps->tok) {
    case '.': {
        next(ps);
        if (ps->tok == T_STR && ps->tok_pos == pos + 1) { /* ."key" */
            qnode *key = parse_string(ps);
            qnode *n = node(ps, Q_INDEX, pos);
            if (!key || !n || !(n->a = node(ps, Q_IDENTITY, pos))) return NULL;
            n->b = key;
            return n;
        }
        return node(ps, Q_IDENTITY, pos);
    }
    case T_DOTDOT:
        next(ps);
        if (ps->tok == T_IDENT && ps->tok_pos == ps->tok_end - ps->text_len &&
            ps->tok_pos == pos + 2)
            return unexpected(ps), NULL;
        return node(ps, Q_RECURSE, pos);
    case T_FIELD: {
        qnode *n = node(ps, Q_FIELD, pos);
        if (!n || !(n->a = node(ps, Q_IDENTITY, pos))) return NULL;
        n->name = ps->text;
        n->name_len = ps->text_len;
        next(ps);
        return n;
    }
    case T_NUM: return parse_number(ps);
    case T_STR: return parse_string(ps);
    case T_FORMAT:
        pfail(ps, pos, "unsupported: @%.*s (formats)", (int)ps->text_len, ps->text);
        return NULL;
    case T_VAR: {
        size_t slot;
        if (ps->text_len == 7 && memcmp(ps->text, "__loc__", 7) == 0) {
            pfail(ps, pos, "unsupported: $__loc__");
            return NULL;
        }
        if (!lookup_var(ps, ps->text, ps->text_len, &slot)) {
            pfail(ps, pos, "$%.*s is not defined", (int)ps->text_len, ps->text);
            return NULL;
        }
        qnode *n = node(ps, Q_VAR, pos);
        if (n) n->slot = slot;
        next(ps);
        return n;
    }
    case '(': {
        next(ps);
        qnode *n = parse_pipe(ps, true);
        if (!n || !expect(ps, ')', "')'")) return NULL;
        return n;
    }
    case '[': {
        next(ps);
        qnode *n = node(ps, Q_ARRAY, pos);
        if (!n) return NULL;
        if (ps->tok == ']') {
            next(ps);
            return n;
        }
        if (!(n->a = parse_pipe(ps, true)) || !expect(ps, ']', "']'")) return NULL;
        return n;
    }
    case '{': return parse_object(ps);
    case T_IDENT:
        if (tok_is(ps, "null") || tok_is(ps, "true") || tok_is(ps, "false"))
            return literal_word(ps, pos);
        if (tok_is(ps, "if")) return parse_if(ps);
        if (tok_is(ps, "try")) { /* try E is E? (no catch) */
            next(ps);
            if (!enter(ps)) return NULL;
            qnode *body = parse_postfix(ps);
            ps->depth--;
            if (body && tok_is(ps, "catch")) {
                pfail(ps, ps->tok_pos, "unsupported: catch");
                return NULL;
            }
            qnode *n = body ? node(ps, Q_TRY, pos) : NULL;
            if (n) n->a = body;
            return n;
        }
        for (size_t i = 0; i < sizeof unsupported_words / sizeof unsupported_words[0]; i++) {
            if (tok_is(ps, unsupported_words[i])) {
                pfail(ps, pos, "unsupported: %s", unsupported_words[i]);
                return NULL;
            }
        }
        if (tok_is(ps, "and") || tok_is(ps, "or") || tok_is(ps, "then") || tok_is(ps, "else") ||
            tok_is(ps, "end") || tok_is(ps, "as"))
            return unexpected(ps), NULL;
        return parse_call(ps);
    default: unexpected(ps); return NULL;
    }
}

/* `Term as $name | body`: the body reaches to the end of the pipe. */
static qnode *parse_as(qparser *ps, qnode *source) {
    size_t pos = ps->tok_pos;
    next(ps);
    if (ps->tok != T_VAR) {
        if (ps->tok == '[' || ps->tok == '{')
            pfail(ps, ps->tok_pos, "unsupported: destructuring patterns");
        else
            expect(ps, T_VAR, "$name after 'as'");
        return NULL;
    }
    const char *name = ps->text;
    size_t len = ps->text_len;
    next(ps);
    if (!expect(ps, '|', "'|' after 'as $name'")) return NULL;
    size_t slot = ps->prog->nslots++;
    if (!push_var(ps, name, len, slot)) return NULL;
    qnode *body = parse_pipe(ps, true);
    ps->nscope--;
    qnode *n = node2(ps, Q_AS, pos, source, body);
    if (n) n->slot = slot;
    return n;
}

static bool is_suffix(const qnode *n) {
    return n->op == Q_FIELD || n->op == Q_INDEX || n->op == Q_SLICE || n->op == Q_ITER;
}

/* jq: `?` after a suffix (.a? .[0]? .[]?) covers that step only (.a.b?
 * still fails when .a does); after any other term it covers the term. */
static qnode *parse_postfix(qparser *ps) {
    bool paren = ps->tok == '(';
    qnode *t = parse_term(ps);
    bool suffix = t && !paren && is_suffix(t);
    while (t) {
        size_t pos = ps->tok_pos;
        if (ps->tok != '?' && ps->tok != T_EOF) suffix = true; /* set false below if not one */
        if (ps->tok == T_FIELD) {
            qnode *n = node(ps, Q_FIELD, pos);
            if (!n) return NULL;
            n->a = t;
            n->name = ps->text;
            n->name_len = ps->text_len;
            next(ps);
            t = n;
        } else if (ps->tok == '.') {
            next(ps);
            if (ps->tok == T_STR) { /* ."key" after a term */
                qnode *key = parse_string(ps);
                t = node2(ps, Q_INDEX, pos, t, key);
            } else if (ps->tok != '[') {
                unexpected(ps);
                return NULL;
            }
        } else if (ps->tok == '[') {
            next(ps);
            if (ps->tok == ']') {
                next(ps);
                qnode *n = node(ps, Q_ITER, pos);
                if (!n) return NULL;
                n->a = t;
                t = n;
                continue;
            }
            qnode *from = NULL, *to = NULL;
            if (ps->tok != ':' && !(from = parse_pipe(ps, true))) return NULL;
            if (ps->tok == ':') {
                next(ps);
                if (ps->tok != ']' && !(to = parse_pipe(ps, true))) return NULL;
                if (!from && !to) return unexpected(ps), NULL;
                qnode *n = node(ps, Q_SLICE, pos);
                if (!n) return NULL;
                n->a = t;
                n->b = from;
                n->c = to;
                t = n;
            } else {
                t = node2(ps, Q_INDEX, pos, t, from);
            }
            if (!expect(ps, ']', "']'")) return NULL;
        } else if (ps->tok == '?') {
            next(ps);
            if (suffix) {
                t->opt = true;
                continue;
            }
            qnode *n = node(ps, Q_TRY, pos);
            if (!n) return NULL;
            n->a = t;
            t = n;
        } else if (tok_is(ps, "as")) {
            return parse_as(ps, t);
        } else {
            break;
        }
    }
    return t;
}

static qnode *parse_unary(qparser *ps) {
    if (ps->tok == '-') {
        size_t pos = ps->tok_pos;
        next(ps);
        if (!enter(ps)) return NULL;
        qnode *a = parse_unary(ps);
        ps->depth--;
        qnode *n = a ? node(ps, Q_NEG, pos) : NULL;
        if (n) n->a = a;
        return n;
    }
    return parse_postfix(ps);
}

static qnode *arith(qparser *ps, size_t pos, int op, qnode *a, qnode *b) {
    qnode *n = node2(ps, Q_ARITH, pos, a, b);
    if (n) n->sub = (uint8_t)op;
    return n;
}

static qnode *parse_mul(qparser *ps) {
    qnode *a = parse_unary(ps);
    while (a && (ps->tok == '*' || ps->tok == '/' || ps->tok == '%')) {
        size_t pos = ps->tok_pos;
        int op = ps->tok == '*' ? QA_MUL : ps->tok == '/' ? QA_DIV : QA_MOD;
        next(ps);
        a = arith(ps, pos, op, a, parse_unary(ps));
    }
    return a;
}

static qnode *parse_add(qparser *ps) {
    qnode *a = parse_mul(ps);
    while (a && (ps->tok == '+' || ps->tok == '-')) {
        size_t pos = ps->tok_pos;
        int op = ps->tok == '+' ? QA_ADD : QA_SUB;
        next(ps);
        a = arith(ps, pos, op, a, parse_mul(ps));
    }
    return a;
}

static int cmp_op(int tok) {
    switch (tok) {
    case T_EQ: return QA_EQ;
    case T_NE: return QA_NE;
    case '<': return QA_LT;
    case T_LE: return QA_LE;
    case '>': return QA_GT;
    case T_GE: return QA_GE;
    default: return -1;
    }
}

static qnode *parse_cmp(qparser *ps) {
    qnode *a = parse_add(ps);
    int op = cmp_op(ps->tok);
    if (!a || op < 0) return a;
    size_t pos = ps->tok_pos;
    next(ps);
    a = arith(ps, pos, op, a, parse_add(ps));
    if (a && cmp_op(ps->tok) >= 0) return unexpected(ps), NULL; /* non-associative */
    return a;
}

/* `or` chains of `and` chains of comparisons. */
static qnode *parse_logic(qparser *ps, bool is_or) {
    qnode *a = is_or ? parse_logic(ps, false) : parse_cmp(ps);
    while (a && tok_is(ps, is_or ? "or" : "and")) {
        size_t pos = ps->tok_pos;
        next(ps);
        a = node2(ps, is_or ? Q_OR : Q_AND, pos, a, is_or ? parse_logic(ps, false) : parse_cmp(ps));
    }
    return a;
}

static qnode *parse_alt(qparser *ps) {
    qnode *a = parse_logic(ps, true);
    if (a && ps->tok == T_ASSIGN) {
        pfail(ps, ps->tok_pos, "unsupported: %.*s%s", (int)ps->text_len, ps->text,
              ps->text[ps->text_len - 1] == '=' ? " (assignment)" : "");
        return NULL;
    }
    if (a && ps->tok == T_ALT) {
        size_t pos = ps->tok_pos;
        next(ps);
        if (!enter(ps)) return NULL;
        qnode *b = parse_alt(ps);
        ps->depth--;
        return node2(ps, Q_ALT, pos, a, b);
    }
    return a;
}

/* A pipe; `comma` false inside object values, where ',' ends the member. */
static qnode *parse_pipe(qparser *ps, bool comma) {
    if (!enter(ps)) return NULL;
    if (tok_is(ps, "def")) {
        pfail(ps, ps->tok_pos, "unsupported: def");
        return NULL;
    }
    qnode *a = parse_alt(ps);
    while (a && comma && ps->tok == ',') {
        size_t pos = ps->tok_pos;
        next(ps);
        a = node2(ps, Q_COMMA, pos, a, parse_alt(ps));
    }
    if (a && ps->tok == '|') {
        size_t pos = ps->tok_pos;
        next(ps);
        a = node2(ps, Q_PIPE, pos, a, parse_pipe(ps, comma));
    }
    ps->depth--;
    return a;
}

qprog *qprog_compile(const char *text, size_t len, const char *const *var_names, size_t nvars,
                     qerror *err) {
    qerror spare;
    if (!err) err = &spare;
    memset(err, 0, sizeof *err);
    qprog *prog = (qprog *)calloc(1, sizeof *prog);
    if (!prog) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    jet_arena_init(&prog->arena, NULL);
    prog->nvars = prog->nslots = nvars;
    qparser ps;
    memset(&ps, 0, sizeof ps);
    ps.src = text;
    ps.len = len;
    ps.prog = prog;
    ps.err = err;
    for (size_t i = 0; i < nvars; i++)
        if (!push_var(&ps, var_names[i], strlen(var_names[i]), i)) break;
    if (!ps.failed) {
        next(&ps);
        if (ps.tok == T_EOF) {
            prog->root = node(&ps, Q_IDENTITY, 0); /* jq: an empty filter is . */
        } else {
            prog->root = parse_pipe(&ps, true);
            if (prog->root && ps.tok != T_EOF) {
                if (ps.tok == ')' || ps.tok == ']' || ps.tok == '}')
                    pfail(&ps, ps.tok_pos, "syntax error: unmatched '%c'", ps.tok);
                else
                    unexpected(&ps);
            }
        }
    }
    free(ps.scope);
    if (ps.failed || !prog->root) {
        if (!ps.failed) snprintf(err->msg, sizeof err->msg, "out of memory");
        qprog_free(prog);
        return NULL;
    }
    return prog;
}

void qprog_free(qprog *p) {
    if (!p) return;
    jet_arena_free(&p->arena);
    free(p);
}

/* The index of `.[n]` when n is a literal written as a small non-negative
 * integer (digits only), else SIZE_MAX. */
static size_t literal_index(const qnode *b) {
    if (b->op != Q_LITERAL || b->lit.type != QT_NUM || b->lit.rep != QR_TEXT) return SIZE_MAX;
    if (b->lit.len == 0 || b->lit.len > 9) return SIZE_MAX;
    size_t v = 0;
    for (size_t i = 0; i < b->lit.len; i++) {
        char ch = b->lit.u.s[i];
        if (ch < '0' || ch > '9') return SIZE_MAX;
        v = v * 10 + (size_t)(ch - '0');
    }
    return v;
}

size_t qprog_field_path(const qprog *p, const char **names, size_t *lens, size_t cap) {
    size_t n = 0;
    const qnode *x = p->root;
    /* the path's last step is at the root: count first, then fill backwards */
    for (const qnode *y = x; y && y->op != Q_IDENTITY; y = y->a) {
        bool step = y->op == Q_FIELD ||
                    (y->op == Q_INDEX && y->b->op == Q_LITERAL && y->b->lit.type == QT_STR) ||
                    (y->op == Q_INDEX && literal_index(y->b) != SIZE_MAX);
        if (!step || ++n > cap) return 0;
    }
    size_t i = n;
    for (const qnode *y = x; y && y->op != Q_IDENTITY; y = y->a) {
        i--;
        if (y->op == Q_FIELD) {
            names[i] = y->name;
            lens[i] = y->name_len;
        } else if (y->b->lit.type == QT_STR) {
            names[i] = y->b->lit.u.s;
            lens[i] = y->b->lit.len;
        } else {
            names[i] = NULL;
            lens[i] = literal_index(y->b);
        }
    }
    return n;
}
