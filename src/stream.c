/*
 * stream.c — document streams (jet.h section 16, docs/streams.md): the
 * documents of NDJSON or concatenated JSON as byte spans, over one buffer
 * or chunked input, with absolute error positions.
 *
 * The splitter does as little as it can, because the parser reads every
 * byte again: NDJSON lines are found with memchr and the parser checks
 * that a line holds one value; concatenated documents are delimited by
 * counting brackets outside strings (strings skipped with memchr), and the
 * parser checks everything else. Both are resumable, so a document fed one
 * byte at a time is scanned once.
 */
#include "internal.h"

#include "errors.h"
#include "grammar.h"
#include "stream.h"

/* The concatenated-JSON splitter's states (where stream->scan stands). */
enum {
    SPLIT_SEEK,      /* between documents: whitespace (and comments) */
    SPLIT_CONTAINER, /* inside brackets, outside strings */
    SPLIT_STRING,    /* inside a string (top level when depth is 0) */
    SPLIT_SCALAR,    /* a number, literal or stray byte at top level */
    SPLIT_LINE_COMMENT,
    SPLIT_BLOCK_COMMENT
};

/* Byte classes inside containers: what the bracket counter stops at. */
enum { SC_PLAIN, SC_QUOTE, SC_OPEN, SC_CLOSE, SC_SLASH };
static const uint8_t split_class[256] = {
    ['"'] = SC_QUOTE, ['['] = SC_OPEN, ['{'] = SC_OPEN,
    [']'] = SC_CLOSE, ['}'] = SC_CLOSE, ['/'] = SC_SLASH,
};
/* Bytes that end a top-level scalar: whitespace and structural bytes
 * ('/' too, for comments). */
static const uint8_t scalar_end[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['['] = 1, ['{'] = 1, [']'] = 1,
    ['}'] = 1, ['"'] = 1, [','] = 1, [':'] = 1, ['/'] = 1,
};

/* Code points (UTF-8 lead bytes and ASCII) in p[0..n): the column step.
 * A plain counting loop, which compilers vectorize. */
static uint64_t stream_count_cols(const char *p, size_t n) {
    uint64_t cols = 0;
    for (size_t i = 0; i < n; i++) cols += ((unsigned char)p[i] & 0xC0) != 0x80;
    return cols;
}

/* Moves the line:column checkpoint forward to data[rel]. */
static void stream_advance_pos(jet_stream *s, size_t rel) {
    size_t from = (size_t)(s->ck - s->base);
    if (from >= rel) return;
    const char *p = s->data + from, *end = s->data + rel;
    const char *nl;
    while ((nl = (const char *)memchr(p, '\n', (size_t)(end - p))) != NULL) {
        s->line++;
        s->ck_col = 1;
        p = nl + 1;
    }
    s->ck_col += stream_count_cols(p, (size_t)(end - p));
    s->ck = s->base + rel;
}

static void stream_restart(jet_stream *s, const char *data, size_t len, bool chunked) {
    s->data = data;
    s->len = len;
    s->base = 0;
    s->pos = s->scan = s->doc_start = 0;
    s->depth = 0;
    s->state = SPLIT_SEEK;
    s->comment_return = SPLIT_SEEK;
    s->chunked = chunked;
    s->finished = !chunked;
    s->stopped = false;
    s->bom_checked = false;
    s->discarding = false;
    s->largest = 0;
    s->line = 1;
    s->ck = 0;
    s->ck_col = 1;
    s->index = 0;
    s->bytes_in = len;
    jet__error_set(&s->err, JET_OK, 0, NULL);
}

jet_stream *jet_stream_new(jet_stream_flags flags, const jet_read_opts *opts,
                           const jet_alloc *alloc) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_stream *s = (jet_stream *)jet__malloc(a, sizeof *s);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->alloc = *a;
    s->flags = flags;
    if (opts) s->ropts = *opts;
    s->ropts.flags &= ~JET_READ_STOP_WHEN_DONE;
    stream_restart(s, NULL, 0, true);
    return s;
}

void jet_stream_free(jet_stream *s) {
    if (!s) return;
    jet_alloc a = s->alloc;
    jet__free(&a, s->own);
    jet__free(&a, s);
}

bool jet_stream_set_buffer(jet_stream *s, const char *data, size_t len) {
    if (!s || (!data && len)) return false;
    if (!data) {
        stream_restart(s, s->own, 0, true);
        return true;
    }
    stream_restart(s, data, len, false);
    return true;
}

char *jet__stream_feed_space(jet_stream *s, size_t len) {
    if (!s) return NULL;
    if (s->stopped && s->err.code == JET_ERR_MEMORY) return NULL;
    if (!s->chunked || s->finished) {
        jet__error_kind(&s->err, s->chunked ? JET_E_STREAM_FED_AFTER_END : JET_E_INVALID_ARG, 0);
        return NULL;
    }
    /* Drop what is consumed: only the unfinished document stays. */
    size_t keep = s->pos;
    if (keep) {
        stream_advance_pos(s, keep);
        memmove(s->own, s->own + keep, s->len - keep);
        s->base += keep;
        s->len -= keep;
        s->pos = 0;
        s->scan -= keep;
        s->doc_start = s->doc_start > keep ? s->doc_start - keep : 0;
    }
    if (len > s->cap - s->len || !s->own) {
        size_t need = s->len + len;
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
        char *grown = (char *)jet__realloc(&s->alloc, s->own, s->cap, cap);
        if (!grown) {
            jet__error_kind(&s->err, JET_E_MEMORY, 0);
            s->stopped = true;
            return NULL;
        }
        s->own = grown;
        s->cap = cap;
    }
    s->data = s->own;
    return s->own + s->len;
}

void jet__stream_feed_commit(jet_stream *s, size_t len) {
    s->len += len;
    s->bytes_in += len;
}

bool jet_stream_feed(jet_stream *s, const char *data, size_t len) {
    if (s && !data && len) {
        jet__error_kind(&s->err, JET_E_INVALID_ARG, 0);
        return false;
    }
    char *space = jet__stream_feed_space(s, len);
    if (!space) return false;
    if (len) memcpy(space, data, len);
    jet__stream_feed_commit(s, len);
    return true;
}

void jet_stream_finish(jet_stream *s) {
    if (s) s->finished = true;
}

/* The byte order mark at the very start: an error unless allowed. */
static jet_stream_status stream_check_bom(jet_stream *s) {
    static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
    size_t have = s->len < 3 ? s->len : 3;
    if (memcmp(s->data, bom, have) != 0) {
        s->bom_checked = true;
        return JET_STREAM_DOC;
    }
    if (have < 3) return s->finished ? (s->bom_checked = true, JET_STREAM_DOC) : JET_STREAM_MORE;
    s->bom_checked = true;
    /* Either way the 3 bytes are passed over; what follows is column 1. */
    s->pos = s->scan = 3;
    s->ck = 3;
    s->ck_col = 1;
    if (s->flags & JET_STREAM_ALLOW_BOM) return JET_STREAM_DOC;
    jet__error_kind(&s->err, JET_E_STREAM_BOM, 0);
    s->err.line = 1;
    s->err.column = 1;
    if (!(s->flags & JET_STREAM_SKIP_ERRORS)) s->stopped = true;
    return JET_STREAM_ERROR;
}

static bool stream_is_blank(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r') return false;
    return true;
}

/* NDJSON: the next non-blank line. */
static jet_stream_status stream_next_line(jet_stream *s, jet_stream_doc *doc) {
    while (s->discarding) { /* the rest of a line over the size limit */
        size_t from = s->scan > s->pos ? s->scan : s->pos;
        const char *nl = (const char *)memchr(s->data + from, '\n', s->len - from);
        if (!nl) {
            s->pos = s->scan = s->len; /* dropped at the next feed */
            if (!s->finished) return JET_STREAM_MORE;
            s->discarding = false;
            return JET_STREAM_END;
        }
        s->pos = s->scan = (size_t)(nl - s->data) + 1;
        s->line++;
        s->ck = s->base + s->pos;
        s->ck_col = 1;
        s->discarding = false;
    }
    for (;;) {
        size_t start = s->pos;
        if (start >= s->len) return s->finished ? JET_STREAM_END : JET_STREAM_MORE;
        size_t from = s->scan > start ? s->scan : start;
        const char *nl = (const char *)memchr(s->data + from, '\n', s->len - from);
        size_t end, next;
        if (nl) {
            end = (size_t)(nl - s->data);
            next = end + 1;
        } else if (s->finished) {
            end = next = s->len;
        } else {
            s->scan = s->len;
            return JET_STREAM_MORE;
        }
        s->scan = next;
        s->pos = next;
        bool blank = stream_is_blank(s->data + start, end - start);
        if (!blank) {
            doc->json = s->data + start;
            doc->len = end - start;
            doc->offset = s->base + start;
            doc->line = s->line;
            doc->column = 1;
            doc->index = s->index++;
        }
        if (nl) {
            s->line++;
            s->ck = s->base + next;
            s->ck_col = 1;
        }
        if (!blank) return JET_STREAM_DOC;
    }
}

/* Concatenated JSON: delimits the next document by its brackets and
 * strings, resuming where the last call stopped. */
static jet_stream_status stream_next_concat(jet_stream *s, jet_stream_doc *doc) {
    const char *data = s->data;
    const size_t len = s->len;
    const bool comments = (s->ropts.flags & JET_READ_ALLOW_COMMENTS) != 0;
    size_t q = s->scan;
    size_t end = 0; /* one past the document, once found */
    for (;;) {
        switch (s->state) {
        case SPLIT_SEEK:
            while (q < len && jet__gram_blank(data[q])) q++;
            if (q >= len) {
                s->pos = s->scan = q; /* whitespace is consumed */
                return s->finished ? JET_STREAM_END : JET_STREAM_MORE;
            }
            if (comments && data[q] == '/') {
                if (q + 1 >= len) {
                    if (!s->finished) {
                        s->pos = s->scan = q;
                        return JET_STREAM_MORE;
                    }
                } else if (data[q + 1] == '/' || data[q + 1] == '*') {
                    s->pos = s->doc_start = q; /* an unterminated one is the last span */
                    s->comment_return = SPLIT_SEEK;
                    s->state = data[q + 1] == '/' ? SPLIT_LINE_COMMENT : SPLIT_BLOCK_COMMENT;
                    q += 2;
                    continue;
                }
            }
            s->pos = s->doc_start = q;
            if (data[q] == '{' || data[q] == '[') {
                s->depth = 1;
                s->state = SPLIT_CONTAINER;
            } else if (data[q] == '"') {
                s->depth = 0;
                s->state = SPLIT_STRING;
            } else {
                s->state = SPLIT_SCALAR;
            }
            q++;
            continue;
        case SPLIT_CONTAINER:
            for (;;) {
                while (q < len && split_class[(unsigned char)data[q]] == SC_PLAIN) q++;
                if (q >= len) break;
                uint8_t c = split_class[(unsigned char)data[q]];
                if (c == SC_QUOTE) {
                    s->state = SPLIT_STRING;
                    q++;
                    break;
                }
                if (c == SC_OPEN) {
                    s->depth++;
                } else if (c == SC_CLOSE) {
                    if (--s->depth == 0) {
                        end = q + 1;
                        break;
                    }
                } else if (comments && q + 1 < len && (data[q + 1] == '/' || data[q + 1] == '*')) {
                    s->comment_return = SPLIT_CONTAINER;
                    s->state = data[q + 1] == '/' ? SPLIT_LINE_COMMENT : SPLIT_BLOCK_COMMENT;
                    q += 2;
                    break;
                } else if (comments && q + 1 >= len && !s->finished) {
                    goto out_of_input; /* a '/' ends the chunk: see the next byte */
                }
                q++;
            }
            if (end) break;
            if (q >= len) goto out_of_input;
            continue; /* into a string or a comment */
        case SPLIT_STRING: {
            const char *quote = (const char *)memchr(data + q, '"', len - q);
            if (!quote) {
                q = len;
                goto out_of_input;
            }
            size_t at = (size_t)(quote - data), bs = 0;
            while (at - bs > s->doc_start && data[at - bs - 1] == '\\') bs++;
            q = at + 1;
            if (bs & 1) continue; /* an escaped quote */
            if (s->depth == 0) {
                end = q;
                break;
            }
            s->state = SPLIT_CONTAINER;
            continue;
        }
        case SPLIT_SCALAR:
            while (q < len && !scalar_end[(unsigned char)data[q]]) q++;
            if (q >= len) goto out_of_input;
            if (data[q] == '/' && !comments) {
                q++; /* not a comment: part of the stray text */
                continue;
            }
            end = q;
            break;
        case SPLIT_LINE_COMMENT: {
            const char *nl = (const char *)memchr(data + q, '\n', len - q);
            if (!nl) {
                q = len;
                goto out_of_input;
            }
            q = (size_t)(nl - data) + 1;
            s->state = s->comment_return;
            continue;
        }
        default: /* SPLIT_BLOCK_COMMENT */
            while (q + 1 < len && !(data[q] == '*' && data[q + 1] == '/')) q++;
            if (q + 1 >= len) goto out_of_input;
            q += 2;
            s->state = s->comment_return;
            continue;
        }
        break;
    out_of_input:
        if (!s->finished) {
            s->scan = q; /* resume here with the next chunk */
            return JET_STREAM_MORE;
        }
        if (s->state == SPLIT_LINE_COMMENT && s->comment_return == SPLIT_SEEK) {
            s->state = SPLIT_SEEK; /* a final // comment is whitespace */
            s->pos = s->scan = len;
            return JET_STREAM_END;
        }
        end = len; /* the last document ends with the input; the parser judges it */
        break;
    }
    size_t start = s->doc_start;
    s->state = SPLIT_SEEK;
    s->comment_return = SPLIT_SEEK;
    s->scan = s->pos = end;
    stream_advance_pos(s, start);
    doc->json = data + start;
    doc->len = end - start;
    doc->offset = s->base + start;
    doc->line = s->line;
    doc->column = s->ck_col;
    doc->index = s->index++;
    return JET_STREAM_DOC;
}

/* What every call checks first: a stopped stream, the byte order mark.
 * JET_STREAM_DOC means "go on". */
static jet_stream_status stream_ready(jet_stream *s) {
    if (!s || s->stopped) return JET_STREAM_ERROR;
    if (!s->bom_checked && s->base == 0 && s->pos == 0) {
        if (s->len == 0) return s->finished ? JET_STREAM_END : JET_STREAM_MORE;
        return stream_check_bom(s);
    }
    return JET_STREAM_DOC;
}

/*
 * Chunked input waiting for the end of a document longer than the read
 * option max_size: that document fails now (JET_ERR_SIZE_LIMIT, where the
 * parser would put it: max_size bytes into the document), so that memory
 * stays bounded by the limit even when a line never ends. NDJSON with
 * JET_STREAM_SKIP_ERRORS then drops the rest of the line; otherwise the
 * stream stops (concatenated JSON has no line to resume at).
 */
static jet_stream_status stream_check_pending(jet_stream *s) {
    size_t start = (!(s->flags & JET_STREAM_NDJSON) && s->state != SPLIT_SEEK) ? s->doc_start : s->pos;
    size_t limit = s->ropts.max_size;
    if (!limit || s->len - start <= limit) return JET_STREAM_MORE;
    stream_advance_pos(s, start + limit);
    jet__error_kind(&s->err, JET_E_SIZE_LIMIT, (size_t)(s->base + start + limit));
    s->err.line = (size_t)s->line;
    s->err.column = (size_t)s->ck_col;
    s->index++;
    if ((s->flags & JET_STREAM_NDJSON) && (s->flags & JET_STREAM_SKIP_ERRORS)) {
        s->discarding = true;
        s->pos = start + limit;
        s->scan = s->pos > s->scan ? s->pos : s->scan;
    } else {
        s->stopped = true;
    }
    return JET_STREAM_ERROR;
}

jet_stream_status jet_stream_next(jet_stream *s, jet_stream_doc *doc) {
    jet_stream_doc unused;
    if (!doc) doc = &unused;
    memset(doc, 0, sizeof *doc);
    jet_stream_status st = stream_ready(s);
    if (st != JET_STREAM_DOC) return st;
    st = (s->flags & JET_STREAM_NDJSON) ? stream_next_line(s, doc) : stream_next_concat(s, doc);
    return st == JET_STREAM_MORE && !s->discarding ? stream_check_pending(s) : st;
}

/* Bytes after which a top-level number or literal may end, as the
 * splitter ends it without comments ('/' is then part of the scalar). */
static bool stream_scalar_may_end(const jet_stream *s, size_t at) {
    return at >= s->len || (scalar_end[(unsigned char)s->data[at]] && s->data[at] != '/');
}

/*
 * Concatenated JSON with the whole input at hand: one parse with
 * JET_READ_STOP_WHEN_DONE delimits and parses the document at once, where
 * the splitter would scan it first (callgrind, 10 MB of records: 91M
 * instructions against 124M). Only a clean success is taken, and only when
 * the splitter would have given the same span; anything else (an error, a
 * document longer than the window, comments) goes the splitter's way, so
 * both give the same documents and the same errors. The window keeps the
 * parser's arenas (sized from the input it is given) near the documents'
 * size rather than the stream's.
 */
static jet_stream_status stream_dom_whole(jet_stream *s, jet_parser *parser, jet_doc **out,
                                          jet_stream_doc *doc) {
    size_t q = s->pos;
    while (q < s->len && jet__gram_blank(s->data[q])) q++;
    if (q >= s->len) {
        s->pos = s->scan = s->len;
        return JET_STREAM_END;
    }
    size_t rest = s->len - q, window = rest;
    size_t floor = (size_t)1 << 20, want = s->largest > floor / 4 ? s->largest * 4 : floor;
    if (window > want) window = want;
    jet_read_opts o = s->ropts;
    o.flags |= JET_READ_STOP_WHEN_DONE;
    jet_doc *d = jet_parser_parse(parser, s->data + q, window, &o, NULL);
    if (!d) return JET_STREAM_MORE; /* the splitter's way */
    size_t n = jet_doc_read_size(d);
    char first = s->data[q];
    if (first != '{' && first != '[' && first != '"' && !stream_scalar_may_end(s, q + n))
        return JET_STREAM_MORE;
    if (n > s->largest) s->largest = n;
    s->pos = s->scan = q + n;
    stream_advance_pos(s, q);
    doc->json = s->data + q;
    doc->len = n;
    doc->offset = s->base + q;
    doc->line = s->line;
    doc->column = s->ck_col;
    doc->index = s->index++;
    *out = d;
    return JET_STREAM_DOC;
}

void jet_stream_fail(jet_stream *s, const jet_stream_doc *doc, jet_error *err) {
    if (!err) return;
    if (doc) {
        if (err->line <= 1) {
            err->column = (size_t)doc->column + (err->column ? err->column - 1 : 0);
            err->line = (size_t)doc->line;
        } else {
            err->line += (size_t)doc->line - 1;
        }
        err->offset += (size_t)doc->offset;
    }
    if (!s) return;
    s->err = *err;
    if (!(s->flags & JET_STREAM_SKIP_ERRORS)) s->stopped = true;
}

jet_stream_status jet_stream_next_dom(jet_stream *s, jet_parser *parser, jet_doc **out,
                                      jet_stream_doc *doc) {
    jet_stream_doc span;
    if (!doc) doc = &span;
    if (out) *out = NULL;
    if (!parser || !out) {
        if (s) jet__error_kind(&s->err, parser ? JET_E_INVALID_ARG : JET_E_NULL_PARSER, 0);
        return JET_STREAM_ERROR;
    }
    jet_stream_status st = stream_ready(s);
    if (st != JET_STREAM_DOC) {
        memset(doc, 0, sizeof *doc);
        return st;
    }
    if (!(s->flags & JET_STREAM_NDJSON) && s->finished && s->state == SPLIT_SEEK &&
        !(s->ropts.flags & JET_READ_ALLOW_COMMENTS)) {
        memset(doc, 0, sizeof *doc);
        st = stream_dom_whole(s, parser, out, doc);
        if (st != JET_STREAM_MORE) return st;
    }
    st = jet_stream_next(s, doc);
    if (st != JET_STREAM_DOC) return st;
    jet_error err;
    *out = jet_parser_parse(parser, doc->json, doc->len, &s->ropts, &err);
    if (*out) return JET_STREAM_DOC;
    jet_stream_fail(s, doc, &err);
    return JET_STREAM_ERROR;
}

jet_stream_status jet_stream_next_valid(jet_stream *s, jet_od *od, jet_stream_doc *doc) {
    jet_stream_doc span;
    if (!doc) doc = &span;
    if (!od) {
        if (s) jet__error_kind(&s->err, JET_E_INVALID_ARG, 0);
        return JET_STREAM_ERROR;
    }
    jet_stream_status st = jet_stream_next(s, doc);
    if (st != JET_STREAM_DOC) return st;
    if (jet_od_validate(od, doc->json, doc->len, &s->ropts)) return JET_STREAM_DOC;
    jet_error err = *jet_od_error(od);
    jet_stream_fail(s, doc, &err);
    return JET_STREAM_ERROR;
}

const jet_error *jet_stream_error(const jet_stream *s) {
    static const jet_error none = {JET_ERR_INVALID_ARG, 0, 0, 0, "NULL stream", NULL};
    return s ? &s->err : &none;
}

uint64_t jet_stream_bytes_in(const jet_stream *s) {
    return s ? s->bytes_in : 0;
}
