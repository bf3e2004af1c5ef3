/*
 * tree_walk.h — the one walk that writes a value tree as JSON text, for the
 * immutable tree (writer.c: slots in document order) and the mutable one
 * (mut.c: sibling lists). A template, included once by each (no include
 * guard); the including file defines
 *   WALK_FN               the name of the function to generate:
 *     static JET_ALWAYS_INLINE bool WALK_FN(jet__emit *e, char **outp, const WALK_NODE *v,
 *                         bool pretty, jet_error *err)
 *     which writes v at *outp (room for nothing reserved) and, on success,
 *     leaves *outp after the text; `pretty` must be a constant at the call
 *     (always inlined, so each call site is specialised: a shared copy with
 *     `pretty` as a variable cost 10-20% more instructions);
 *   WALK_NODE             the node type (its `tag` and `uni.u/i/d/str` as
 *                         jet_val's);
 *   WALK_FRAME            one open container's frame, with a `size_t left`
 *                         (children left << 1 | 1 for an object);
 *   WALK_ENTER(f, v)      v is a non-empty container: sets up the rest of
 *                         frame *f and moves v to its first child (key);
 *   WALK_SIBLING(f, v)    moves v to the next child (key) of frame *f;
 *   WALK_PAST_LEAF(v)     after a scalar;
 *   WALK_PAST_EMPTY(v)    after an empty container;
 *   WALK_PAST_KEY(v)      from a key to its value;
 *   WALK_MAX_DEPTH        containers that may be open at once, and
 *   WALK_DEPTH_ERROR      the jet__err kind beyond that (0: none).
 *
 * Room: every value reserves its own bytes and those of the separator after
 * it (",", a line break and the indent), so a comma needs no check; a key
 * reserves the room of its value too. Only closing brackets, which may
 * cascade, check again. The flags are kept in locals: stores through `out`
 * could alias the emitter's fields. (The buffer's limit in a local too costs
 * more than it saves: callgrind, canada.json, +3% instructions.)
 */
#if !defined(WALK_FN) || !defined(WALK_NODE) || !defined(WALK_FRAME)
#error "tree_walk.h: define WALK_FN, WALK_NODE and WALK_FRAME first"
#endif

static JET_ALWAYS_INLINE bool WALK_FN(jet__emit *e, char **outp, const WALK_NODE *v, bool pretty,
                           jet_error *err) {
    WALK_FRAME local[JET__WALK_LOCAL_FRAMES];
    WALK_FRAME *stack = local;
    size_t cap = JET__WALK_LOCAL_FRAMES, depth = 0;
    const size_t indent = pretty ? e->o.indent : 0;
    const bool nan_inf = e->o.nan_inf;
    /* A string is copied unscanned when its tag has NOESC and the flags
     * allow: one test per string (verbatim_bits), and for a key one compare
     * that also checks its type (verbatim_key; no tag equals ~0 under the
     * mask, so without verbatim_ok every key takes the checked path). */
    const uint64_t verbatim_bits = e->o.verbatim_ok ? JET_TAG_STR_NOESC : 0;
    const uint64_t verbatim_key = e->o.verbatim_ok ? (JET_TYPE_STR | JET_TAG_STR_NOESC) : ~(uint64_t)0;
    char *out = *outp;
    int bad = JET__SCALAR_OK;
    int kind = 0;
/* pretty: 15 bytes of slack for jet__put_line16's 16-byte store */
#define WALK_SEP_ROOM (2 + depth * indent + (pretty ? 15u : 0u))
#define WALK_ROOM(n)                                                      \
    do {                                                                  \
        if (JET_UNLIKELY((size_t)(e->lim - out) < (size_t)(n))) {         \
            out = jet__emit_grow(e, out, (n));                            \
            if (!out) goto fail;                                          \
        }                                                                 \
    } while (0)
/* The string at v, quoted (verbatim when the reader found no escape in it
 * and the flags allow), and room for `tail` bytes after it. */
#define WALK_STR(tail)                                                    \
    do {                                                                  \
        size_t n_ = (size_t)(v->tag >> JET_TAG_LEN_SHIFT);                \
        if (v->tag & verbatim_bits) {                                     \
            WALK_ROOM(n_ + 2 + (tail));                                   \
            out = jet__put_str_verbatim(out, v->uni.str, n_);             \
        } else {                                                          \
            out = jet__emit_str_slow(e, out, v->uni.str, n_);             \
            if (!out) goto fail;                                          \
            WALK_ROOM(tail);                                              \
        }                                                                 \
    } while (0)

    for (;;) {
        WALK_ROOM(JET__EMIT_SCALAR_ROOM + WALK_SEP_ROOM);
    value:
        switch (v->tag & JET_TAG_KIND_MASK) {
        case JET_TYPE_STR:
            WALK_STR(WALK_SEP_ROOM);
            WALK_PAST_LEAF(v);
            break;
        case JET_TYPE_NUM | JET_SUBTYPE_UINT:
            out = jet__put_uint(out, v->uni.u);
            WALK_PAST_LEAF(v);
            break;
        case JET_TYPE_NUM | JET_SUBTYPE_SINT:
            out = jet__put_sint(out, v->uni.i);
            WALK_PAST_LEAF(v);
            break;
        case JET_TYPE_NUM | JET_SUBTYPE_F64: {
            /* the printer inline (num_print.h): no call per number */
            uint64_t bits = jet__f64_bits(v->uni.d);
            if (JET_LIKELY(jet__f64_bits_finite(bits))) {
                out = jet__num_put_f64(out, bits);
            } else {
                if (!nan_inf) {
                    bad = JET__SCALAR_NAN_INF;
                    goto fail;
                }
                out += jet_num_write_f64(v->uni.d, out);
            }
            WALK_PAST_LEAF(v);
            break;
        }
        case JET_TYPE_NULL:
            out = jet__put_lit(out, "null", 4);
            WALK_PAST_LEAF(v);
            break;
        case JET_TYPE_BOOL | JET_SUBTYPE_TRUE:
            out = jet__put_lit(out, "true", 4);
            WALK_PAST_LEAF(v);
            break;
        case JET_TYPE_BOOL | JET_SUBTYPE_FALSE:
            out = jet__put_lit(out, "false", 5);
            WALK_PAST_LEAF(v);
            break;
        case JET_TYPE_RAW: {
            size_t n = (size_t)(v->tag >> JET_TAG_LEN_SHIFT);
            WALK_ROOM(n + WALK_SEP_ROOM);
            if (n) memcpy(out, v->uni.str, n);
            out += n;
            WALK_PAST_LEAF(v);
            break;
        }
        case JET_TYPE_ARR:
        case JET_TYPE_OBJ: {
            bool obj = (v->tag & JET_TAG_TYPE_MASK) == JET_TYPE_OBJ;
            size_t n = (size_t)(v->tag >> JET_TAG_LEN_SHIFT);
            if (n == 0) {
                out = jet__put_empty(out, obj);
                WALK_PAST_EMPTY(v);
                break;
            }
            if (JET_UNLIKELY(depth == cap)) {
                if (depth >= WALK_MAX_DEPTH) {
                    kind = WALK_DEPTH_ERROR;
                    goto fail;
                }
                if (!jet__emit_stack_grow(e, (void **)&stack, local, &cap, sizeof *stack))
                    goto fail;
            }
            WALK_FRAME *f = &stack[depth++];
            f->left = (n << 1) | (size_t)obj;
            WALK_ENTER(f, v);
            /* the bracket and jet__put_line16's 16 bytes (or the exact
             * line past 15 spaces) fit in the room reserved for the
             * container (JET__EMIT_SCALAR_ROOM and its slack) */
            *out++ = obj ? '{' : '[';
            if (pretty) out = jet__put_line16(out, depth * indent);
            if (obj) goto key;
            continue;
        }
        default:
            bad = JET__SCALAR_BAD;
            goto fail;
        }

        /* ---- after a value: separators, keys and closing brackets ---- */
        for (;;) {
            if (depth == 0) goto done;
            WALK_FRAME *top = &stack[depth - 1];
            top->left -= 2;
            if (top->left >> 1) {
                *out++ = ',';
                if (pretty) out = jet__put_line16(out, depth * indent);
                WALK_SIBLING(top, v);
                if (top->left & 1) goto key;
                break;
            }
            depth--;
            /* the bracket on its line, and the separator after it */
            WALK_ROOM(2 * WALK_SEP_ROOM);
            if (pretty) out = jet__put_line16(out, depth * indent);
            *out++ = (top->left & 1) ? '}' : ']';
        }
        continue;

    key:
        if (JET_LIKELY((v->tag & (JET_TAG_TYPE_MASK | JET_TAG_STR_NOESC)) == verbatim_key)) {
            size_t n_ = (size_t)(v->tag >> JET_TAG_LEN_SHIFT);
            WALK_ROOM(n_ + 4 + JET__EMIT_SCALAR_ROOM + WALK_SEP_ROOM);
            out = jet__put_str_verbatim(out, v->uni.str, n_);
        } else {
            if (JET_UNLIKELY((v->tag & JET_TAG_TYPE_MASK) != JET_TYPE_STR)) {
                bad = JET__SCALAR_BAD_KEY;
                goto fail;
            }
            WALK_STR(2 + JET__EMIT_SCALAR_ROOM + WALK_SEP_ROOM);
        }
        out = jet__put_colon(out, pretty);
        WALK_PAST_KEY(v);
        goto value;
    }

done:
    if (stack != local) jet__free(&e->buf->alloc, stack);
    *outp = out;
    return true;

fail:
    if (stack != local) jet__free(&e->buf->alloc, stack);
    if (kind) jet__error_kind(err, (jet__err)kind, 0);
    else jet__emit_fail(e, err, bad);
    return false;
#undef WALK_SEP_ROOM
#undef WALK_ROOM
#undef WALK_STR
}

#undef WALK_FN
#undef WALK_NODE
#undef WALK_FRAME
#undef WALK_ENTER
#undef WALK_SIBLING
#undef WALK_PAST_LEAF
#undef WALK_PAST_EMPTY
#undef WALK_PAST_KEY
#undef WALK_MAX_DEPTH
#undef WALK_DEPTH_ERROR
