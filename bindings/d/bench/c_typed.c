/* The C library's typed decode of twitter.json (examples/schemas.h's
 * TwTimeline), called from the D benchmark in the same process: one cursor
 * and one arena, reused, as jet-bench's jet-typed cell does. */
#include <jet.h>

#include "schemas.h"

static jet_od *c_od;
static jet_arena c_arena;

/* Decodes and folds the TwitterStats sums into `sums` (14 of them, in
 * twitter_stats.c's order). Returns 0 on success. */
int jet_d_bench_c_typed(const char *json, size_t len, uint64_t sums[14]) {
    if (!c_od) {
        c_od = jet_od_new(NULL);
        jet_arena_init(&c_arena, NULL);
        if (!c_od) return 1;
    }
    jet_arena_reset(&c_arena);
    TwTimeline tl;
    if (!jet_decode(c_od, json, len, &tw_timeline_type, &tl, &c_arena, NULL, NULL)) return 1;
    for (int i = 0; i < 14; i++) sums[i] = 0;
    sums[0] = tl.status_count;
    for (size_t i = 0; i < tl.status_count; i++) {
        const TwStatus *s = &tl.statuses[i];
        sums[1] += s->id;
        sums[2] += s->user.id;
        sums[3] += s->user.followers_count;
        sums[4] += s->user.friends_count;
        sums[5] += s->retweet_count;
        sums[6] += s->favorite_count;
        sums[7] += s->user.verified;
        sums[8] += s->text.len;
        sums[9] += s->user.screen_name.len;
        sums[10] += s->user.name.len;
        sums[11] += s->created_at.len;
        sums[12] += s->entities.hashtag_count;
        for (size_t h = 0; h < s->entities.hashtag_count; h++) sums[13] += s->entities.hashtags[h].text.len;
    }
    return 0;
}
