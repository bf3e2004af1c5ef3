/*
 * parser.c — reading a document: the route an input takes (the index route,
 * read_indexed.c, or the one-pass reader, read_onepass.c), the document's
 * arenas, the parser's lifetime, and the entry points jet_read,
 * jet_parser_parse and jet_read_file.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_common.h"
#include "scan.h"

/* ========================================================================== */
/* Arena and stack growth                                                     */
/* ========================================================================== */

/* Grows the value arena so that at least `need` more slots fit after `used`. */
bool jet__grow_vals(jet_doc *doc, size_t used, size_t need) {
    size_t cap = doc->val_cap;
    size_t want = used + need;
    size_t ncap = cap + cap / 2 + 64;
    if (ncap < want) ncap = want;
    if (ncap > SIZE_MAX / sizeof(jet_val)) return false;
    jet_val *v = (jet_val *)jet__realloc(&doc->alloc, doc->vals, cap * sizeof(jet_val),
                                         ncap * sizeof(jet_val));
    if (!v) return false;
    doc->vals = v;
    doc->val_cap = ncap;
    return true;
}

bool jet__grow_stack(const jet_alloc *a, jet_stack *st, size_t need) {
    size_t ncap = st->cap ? st->cap * 2 : 64;
    while (ncap < need) ncap *= 2;
    jet_frame *f = (jet_frame *)jet__realloc(a, st->frames, st->cap * sizeof(jet_frame),
                                             ncap * sizeof(jet_frame));
    if (!f) return false;
    st->frames = f;
    st->cap = ncap;
    return true;
}

/* Grows the slots to used + need, keeping the pointers saved in frames
 * [1, fp) valid (frames[0], the document's, holds NULL); returns the slots'
 * base, NULL when they could not grow. */
jet_val *jet__grow_vals_rebase(jet_doc *doc, size_t used, size_t need, jet_frame *frames,
                               jet_frame *fp) {
    jet_val *old = doc->vals;
    for (jet_frame *f = frames + 1; f < fp; f++) f->ctn.ofs = (size_t)(f->ctn.slot - old);
    bool ok = jet__grow_vals(doc, used, need);
    jet_val *base = doc->vals; /* old when the growth failed */
    for (jet_frame *f = frames + 1; f < fp; f++) f->ctn.slot = base + f->ctn.ofs;
    return ok ? base : NULL;
}

/* Called when the frame at *fp is a sentinel: 1 when a push may go on
 * (*fp updated), 0 at the depth limit, -1 when the stack cannot grow. */
int jet__frames_room(const jet_alloc *a, jet_stack *st, jet_frame **fp, uint32_t max_depth) {
    size_t at = (size_t)(*fp - st->frames); /* = the containers open + 1 */
    if (at > max_depth) return 0;
    if (at + 1 >= st->cap && !jet__grow_stack(a, st, at + 2)) return -1;
    *fp = st->frames + at;
    frames_mark(st, max_depth);
    return 1;
}

void jet__stack_free(const jet_alloc *a, jet_stack *stack) {
    jet__free(a, stack->frames);
    jet__free(a, stack->index);
    stack->frames = NULL;
    stack->cap = 0;
    stack->index = NULL;
    stack->index_cap = 0;
}

/* ========================================================================== */
/* The route                                                                  */
/* ========================================================================== */

/*
 * Whether the one-pass reader reads this input faster than the index, judged
 * from 512 bytes sampled from its middle (inputs from 4 KiB):
 * - an array of long numbers (canada.json's coordinates: more than half the
 *   sample digits, at least 8 digits a comma): each number is followed right
 *   away by its comma, which the one-pass reader checks in place while the
 *   index spends a mark on it (about 20% on canada.json). Shorter numbers
 *   (jet-bench's mesh, 5.4 digits a comma) are not: the index lets stage 2
 *   parse each number while the next one's place is already known, where
 *   the one-pass reader finds it only after the parse (index 1.21 times
 *   simdjson DOM against one-pass 1.06 on canada's numbers to 5 decimals,
 *   7.3 digits a comma; 1.00 against 1.09 to 7 decimals, 8.4);
 * - text dense with escapes (16 or more backslashes in the sample: non-ASCII
 *   written as \u escapes, as Python's json.dumps writes it), unless the index
 *   is AVX-512's: on AVX2 the one-pass reader, which takes each escape as it
 *   reads, parses jet-bench's twitter_escaped at 1.42 times simdjson DOM
 *   against the index's 1.10 (1.26 against 1.11 with Python's default
 *   separators) and validates it 1.34 times as fast as the index route.
 *   AVX-512 keeps its index (not measured on such text; it was 2.6 times
 *   the one-pass reader on twitter).
 * Escaped text is mostly hex digits too: the backslashes tell it apart.
 */
static bool one_pass_suits(const char *json, size_t len, jet_kernel k) {
    if (len < 4096) return false;
    const unsigned char *p = (const unsigned char *)json + len / 2 - 256;
    unsigned digits = 0, backslashes = 0, commas = 0;
    for (unsigned i = 0; i < 512; i++) {
        digits += (unsigned)(p[i] - '0') < 10u;
        backslashes += p[i] == '\\';
        commas += p[i] == ',';
    }
    if (backslashes >= 16) return k != JET_KERNEL_AVX512;
    return digits > 256 && digits >= 8 * commas;
}

/* Whether the first byte after any leading whitespace opens a container. */
static bool root_is_container(const char *json, size_t len) {
    const char *p = skip_ws(json, json + len);
    return p < json + len && (*p == '[' || *p == '{');
}

/* Whether the index route reads this input: a kernel with an index, a
 * container at the root (stage 2 then tests for the document's end only
 * where a container closes, not after every value), and neither comments
 * nor STOP_WHEN_DONE (jet__read_root's alone), nor an input the one-pass
 * reader reads faster (mostly digits; dense escapes below AVX-512). */
static JET_NOINLINE bool index_route_applies(const reader *r, size_t len) {
    jet_kernel k = jet__kernel();
    return k != JET_KERNEL_SCALAR && root_is_container(r->json, len) &&
           !(r->flags & (JET_READ_ALLOW_COMMENTS | JET_READ_STOP_WHEN_DONE)) &&
           !one_pass_suits(r->json, len, k);
}

/* Documents that the index route rejected and jet__read_root then accepted. The
 * route is meant to accept every document jet__read_root accepts (it hands
 * errors over, not documents): each one counted is a defect that costs a
 * second read, and the tests check that none happens. */
static atomic_size_t index_rereads;

size_t jet__index_rereads(void) {
    return atomic_load_explicit(&index_rereads, memory_order_relaxed);
}

/* ========================================================================== */
/* Entry points                                                               */
/* ========================================================================== */

/* The string arena for an input of len bytes. Unescaped strings never
 * exceed their source text, each NUL terminator is paid for by a quote, and
 * a block store of n bytes (8, 16 or 32) happens only when n input bytes
 * remain past the source position, which the output never runs ahead of:
 * len + 16 suffices, and stage 1's copy needs the same from where it starts
 * (copy_start), up to COPY_ALIGN - 1 bytes in (len <= INPUT_LEN_MAX,
 * checked by the callers). */
static bool reserve_strings(jet_doc *doc, size_t len) {
    size_t need = len + 16 + (len >= COPY_ALIGN_MIN ? COPY_ALIGN : 0);
    if (doc->str_cap >= need) return true;
    jet__free(&doc->alloc, doc->strs);
    doc->strs = (char *)jet__malloc(&doc->alloc, need);
    doc->str_cap = doc->strs ? need : 0;
    return doc->strs != NULL;
}

static void reader_init(reader *r, jet_doc *doc, const char *json, size_t len,
                        jet_read_flags flags) {
    memset(r, 0, sizeof *r);
    r->json = json;
    r->end = json + len;
    r->doc = doc;
    r->flags = flags;
    r->code = JET_OK;
}

bool jet__parse(jet_doc *doc, jet_stack *stack, const char *json, size_t len,
                const jet_read_opts *opts, jet_error *err) {
    jet_read_flags flags = opts ? opts->flags : 0;
    uint32_t max_depth = (opts && opts->max_depth) ? opts->max_depth : JET_DEFAULT_MAX_DEPTH;
    doc->val_count = 0;
    doc->read_size = 0;
    if (!json && len) {
        jet__error_kind(err, JET_E_NULL_INPUT, 0);
        return false;
    }
    if (opts && opts->max_size && len > opts->max_size) {
        jet__error_kind_at(err, JET_E_SIZE_LIMIT, json, len, opts->max_size);
        return false;
    }
    if (len > INPUT_LEN_MAX || !reserve_strings(doc, len)) {
        jet__error_kind(err, len > INPUT_LEN_MAX ? JET_E_INPUT_TOO_LARGE : JET_E_MEMORY, 0);
        return false;
    }
    /* Value arena: a first guess from the input size (about one value per
     * 8 bytes on typical documents); grown during the parse if needed. */
    size_t val_guess = len / 8 + 16;
    if (doc->val_cap < val_guess && !jet__grow_vals(doc, 0, val_guess)) {
        jet__error_kind(err, JET_E_MEMORY, 0);
        return false;
    }
    if (!json) json = ""; /* len is 0 here: no arithmetic on NULL */
    reader r;
    reader_init(&r, doc, json, len, flags);
    bool indexed = index_route_applies(&r, len);
    if (indexed && jet__read_with_index(&r, stack, max_depth, len, true)) return true;
    r.code = JET_OK;
    if (jet__read_root(&r, stack, max_depth)) {
        if (indexed) atomic_fetch_add_explicit(&index_rereads, 1, memory_order_relaxed);
        return true;
    }
    jet__error_kind_at(err, r.err_kind, json, len, (size_t)(r.err_pos - json));
    return false;
}

bool jet__validate(jet_parser *p, const char *json, size_t len, const jet_read_opts *opts,
                   jet_error *err) {
    jet_read_flags flags = opts ? opts->flags : 0;
    uint32_t max_depth = (opts && opts->max_depth) ? opts->max_depth : JET_DEFAULT_MAX_DEPTH;
    if (!json && len) {
        jet__error_kind(err, JET_E_NULL_INPUT, 0);
        return false;
    }
    if (opts && opts->max_size && len > opts->max_size) {
        jet__error_kind_at(err, JET_E_SIZE_LIMIT, json, len, opts->max_size);
        return false;
    }
    if (len > INPUT_LEN_MAX) {
        jet__error_kind(err, JET_E_INPUT_TOO_LARGE, 0);
        return false;
    }
    if (!json) json = "";
    /* jet__parse's route with nothing built: the index route's stage 2
     * accepts, the one-pass reader reads what it does not take and reports
     * every error, so both give the DOM reader's verdict and error. */
    reader r;
    reader_init(&r, &p->doc, json, len, flags);
    if (index_route_applies(&r, len) && jet__read_with_index(&r, &p->stack, max_depth, len, false))
        return true;
    r.code = JET_OK;
    if (jet__validate_root(&r, &p->stack, max_depth)) return true;
    jet__error_kind_at(err, r.err_kind, json, len, (size_t)(r.err_pos - json));
    return false;
}

jet_parser *jet_parser_new(const jet_alloc *alloc) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_parser *p = (jet_parser *)jet__malloc(a, sizeof(jet_parser));
    if (!p) return NULL;
    memset(p, 0, sizeof(*p));
    p->alloc = *a;
    p->doc.alloc = *a;
    p->doc.parser_owned = true;
    return p;
}

void jet_parser_free(jet_parser *parser) {
    if (!parser) return;
    jet_alloc a = parser->alloc;
    jet__free(&a, parser->doc.vals);
    jet__free(&a, parser->doc.strs);
    jet__stack_free(&a, &parser->stack);
    jet__free(&a, parser);
}

jet_doc *jet_parser_parse(jet_parser *parser, const char *json, size_t len,
                          const jet_read_opts *opts, jet_error *err) {
    if (!parser) {
        jet__error_kind(err, JET_E_NULL_PARSER, 0);
        return NULL;
    }
    if (!jet__parse(&parser->doc, &parser->stack, json, len, opts, err)) return NULL;
    return &parser->doc;
}

jet_doc *jet_read(const char *json, size_t len, const jet_read_opts *opts,
                  const jet_alloc *alloc, jet_error *err) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    jet_doc *doc = (jet_doc *)jet__malloc(a, sizeof(jet_doc));
    if (!doc) {
        jet__error_kind(err, JET_E_MEMORY, 0);
        return NULL;
    }
    memset(doc, 0, sizeof(*doc));
    doc->alloc = *a;
    jet_stack stack = {NULL, 0, NULL, 0};
    bool ok = jet__parse(doc, &stack, json, len, opts, err);
    jet__stack_free(a, &stack);
    if (!ok) {
        jet_doc_free(doc);
        return NULL;
    }
    return doc;
}

void jet_doc_free(jet_doc *doc) {
    if (!doc || doc->parser_owned) return;
    jet_alloc a = doc->alloc;
    jet__free(&a, doc->vals);
    jet__free(&a, doc->strs);
    jet__free(&a, doc);
}

jet_doc *jet_read_file(const char *path, const jet_read_opts *opts,
                       const jet_alloc *alloc, jet_error *err) {
    const jet_alloc *a = jet__alloc_or_default(alloc);
    if (!path) {
        jet__error_kind(err, JET_E_NULL_PATH, 0);
        return NULL;
    }
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        jet__error_kind(err, JET_E_IO_OPEN, 0);
        return NULL;
    }
    /* Read in chunks: works for pipes and for files alike. max_size is
     * enforced while reading, never after: at most max_size + 1 bytes are
     * read (the one byte more tells "too large" from "exactly max_size"),
     * so /dev/zero or an endless pipe costs max_size of memory, not all. */
    size_t max_size = opts ? opts->max_size : 0;
    size_t limit = max_size && max_size < SIZE_MAX ? max_size + 1 : SIZE_MAX;
    size_t cap = limit < ((size_t)1 << 16) ? limit : (size_t)1 << 16, len = 0;
    char *buf = (char *)jet__malloc(a, cap);
    bool out_of_memory = buf == NULL;
    bool io_ok = buf != NULL;
    while (io_ok && len < limit) {
        if (len == cap) {
            size_t ncap = cap <= limit / 2 ? cap * 2 : limit;
            char *nb = ncap > cap ? (char *)jet__realloc(a, buf, cap, ncap) : NULL;
            if (!nb) {
                out_of_memory = true;
                io_ok = false;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) io_ok = false;
            break;
        }
    }
    if (!is_stdin) fclose(f);
    if (!io_ok) {
        jet__free(a, buf);
        jet__error_kind(err, out_of_memory ? JET_E_MEMORY : JET_E_IO_READ, 0);
        return NULL;
    }
    if (max_size && len > max_size) {
        jet__free(a, buf);
        jet__error_kind(err, JET_E_SIZE_LIMIT, max_size);
        return NULL;
    }
    jet_doc *doc = jet_read(buf, len, opts, a, err);
    jet__free(a, buf);
    return doc;
}
