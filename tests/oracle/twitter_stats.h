/* twitter_stats.h — the reference TwitterStats: the sums over twitter.json
 * that the typed decoders, the cursor and every bench engine must
 * reproduce, computed the obvious way: jet_obj_get lookups on jet's DOM.
 *
 * The one copy used by the tests (test_bind, test_ondemand) and by the
 * bench, where it is the jet DOM adapters' decode (bench/engines/jet.c),
 * and bench/engine.h's jb_twitter is this struct. Header-only, C or C++.
 */
#ifndef JET_ORACLE_TWITTER_STATS_H
#define JET_ORACLE_TWITTER_STATS_H

#include <stdint.h>
#include <string.h>

#include "jet.h"

/* For every element of "statuses": its id, text, created_at, retweet_count,
 * favorite_count; its user's id, screen_name, name, followers_count,
 * friends_count, verified; the text of each of its entities.hashtags.
 * Numbers are summed, strings' unescaped UTF-8 bytes counted, verified
 * users counted. Sums wrap mod 2^64. */
typedef struct twitter_stats {
    uint64_t statuses, id_sum, user_id_sum, followers_sum, friends_sum;
    uint64_t retweet_sum, favorite_sum, verified;
    uint64_t text_bytes, screen_name_bytes, name_bytes, created_at_bytes;
    uint64_t hashtags, hashtag_bytes;
} twitter_stats;

/* A member that is absent, or of another type, adds 0. */
static inline uint64_t twitter_stats_uint_(const jet_val *obj, const char *key) {
    return jet_get_uint(jet_obj_get(obj, key));
}
static inline uint64_t twitter_stats_len_(const jet_val *obj, const char *key) {
    const jet_val *v = jet_obj_get(obj, key);
    return jet_is_str(v) ? jet_get_len(v) : 0;
}

/* The sums over the document at `root`; false (and *t zero) when it has no
 * "statuses" array. Objects are checked once each (jet_obj_get is never
 * handed a NULL); other values where an object belongs are skipped. */
static inline bool twitter_stats_of(const jet_val *root, twitter_stats *t) {
    memset(t, 0, sizeof *t);
    const jet_val *statuses = jet_is_obj(root) ? jet_obj_get(root, "statuses") : NULL;
    if (!jet_is_arr(statuses)) return false;
    jet_arr_iter it = jet_arr_iter_init(statuses);
    for (jet_val *s; (s = jet_arr_iter_next(&it));) {
        t->statuses++;
        if (!jet_is_obj(s)) continue;
        t->id_sum += twitter_stats_uint_(s, "id");
        t->text_bytes += twitter_stats_len_(s, "text");
        t->created_at_bytes += twitter_stats_len_(s, "created_at");
        t->retweet_sum += twitter_stats_uint_(s, "retweet_count");
        t->favorite_sum += twitter_stats_uint_(s, "favorite_count");
        const jet_val *u = jet_obj_get(s, "user");
        if (jet_is_obj(u)) {
            t->user_id_sum += twitter_stats_uint_(u, "id");
            t->screen_name_bytes += twitter_stats_len_(u, "screen_name");
            t->name_bytes += twitter_stats_len_(u, "name");
            t->followers_sum += twitter_stats_uint_(u, "followers_count");
            t->friends_sum += twitter_stats_uint_(u, "friends_count");
            t->verified += jet_is_true(jet_obj_get(u, "verified"));
        }
        const jet_val *e = jet_obj_get(s, "entities");
        const jet_val *tags = jet_is_obj(e) ? jet_obj_get(e, "hashtags") : NULL;
        if (!jet_is_arr(tags)) continue;
        jet_arr_iter ht = jet_arr_iter_init(tags);
        for (jet_val *h; (h = jet_arr_iter_next(&ht));) {
            t->hashtags++;
            if (jet_is_obj(h)) t->hashtag_bytes += twitter_stats_len_(h, "text");
        }
    }
    return true;
}

/* The same from JSON text (read with the default options). */
static inline bool twitter_stats_of_text(const char *json, size_t len, twitter_stats *t) {
    memset(t, 0, sizeof *t);
    jet_doc *doc = jet_read(json, len, NULL, NULL, NULL);
    if (!doc) return false;
    bool ok = twitter_stats_of(jet_doc_root(doc), t);
    jet_doc_free(doc);
    return ok;
}

#endif
