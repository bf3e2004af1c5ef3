/* nostr_sum.h — how the nostr-* adapters add a decoded message to the
 * jb_nostr checksum (engine.h), from the structs of examples/schemas.h, so
 * that every engine counts the same way. C and C++. */
#ifndef JET_BENCH_NOSTR_SUM_H
#define JET_BENCH_NOSTR_SUM_H

#include "engine.h"
#include "schemas.h"

static inline void jb_nostr_add_short(jb_nostr *o, const NostrShortEvent *e) {
    o->event++;
    o->content_bytes += e->content.len;
    o->created_at_sum += e->created_at;
}

static inline void jb_nostr_add_event(jb_nostr *o, const NostrEvent *e) {
    o->event++;
    o->content_bytes += e->content.len;
    o->created_at_sum += e->created_at;
    o->kind_sum += e->kind;
    o->tags += e->tag_count;
    for (size_t i = 0; i < e->tag_count; i++) o->tag_items += e->tags[i].count;
}

/* For the C++ adapters that collect an event's tags into two flat arrays
 * (the tags with their counts, then every tag's strings in order): points
 * each tag at its strings and the event at its tags. */
static inline void jb_nostr_link_tags(NostrEvent *e, NostrTag *tags, size_t ntags, jet_str *strs) {
    size_t off = 0;
    for (size_t i = 0; i < ntags; i++) {
        tags[i].items = strs + off;
        off += tags[i].count;
    }
    e->tags = tags;
    e->tag_count = ntags;
}

/* Returns false for a type that is not one of NOSTR_*. */
static inline bool jb_nostr_add_envelope(jb_nostr *o, const NostrEnvelope *m) {
    switch (m->type) {
    case NOSTR_EVENT: jb_nostr_add_event(o, &m->as.event.event); return true;
    case NOSTR_EOSE: o->eose++; return true;
    case NOSTR_OK: o->ok++; return true;
    case NOSTR_NOTICE: o->notice++; return true;
    }
    return false;
}

#endif
