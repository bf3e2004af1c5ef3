/*
 * twitter_stats — typed decoding: twitter.json into the plain C structs of
 * schemas.h (TwTimeline), then a few sums over them.
 *
 *   twitter_stats FILE
 *
 * Prints one JSON object on one line: statuses, id_sum, user_id_sum (sums
 * modulo 2^64), followers_sum, friends_sum, retweet_sum, favorite_sum,
 * verified (how many users are), text_bytes, screen_name_bytes, name_bytes,
 * created_at_bytes (unescaped UTF-8 bytes), hashtags, hashtag_bytes.
 * On a decoding error prints where and why on stderr and exits with 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <jet.h>

#include "schemas.h"

/* The whole file in a malloc'd buffer (jet needs no padding or NUL). */
static char *read_file(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *data = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            char *grown = realloc(data, cap);
            if (!grown) break;
            data = grown;
        }
        got = fread(data + n, 1, cap - n, fp);
        n += got;
    } while (got > 0);
    bool ok = !ferror(fp) && n < cap;
    fclose(fp);
    if (!ok) {
        free(data);
        return NULL;
    }
    *len = n;
    return data;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: twitter_stats FILE\n");
        return 2;
    }
    size_t len;
    char *json = read_file(argv[1], &len);
    if (!json) {
        perror(argv[1]);
        return 1;
    }

    /* The cursor and the arena are reusable: with more documents, keep both
     * and reset the arena between them (see nostr_stats.c). */
    jet_od *od = jet_od_new(NULL);
    if (!od) {
        fprintf(stderr, "out of memory\n");
        free(json);
        return 1;
    }
    jet_arena arena;
    jet_arena_init(&arena, NULL);
    TwTimeline tl;
    jet_error err;
    if (!jet_decode(od, json, len, &tw_timeline_type, &tl, &arena, NULL, &err)) {
        /* e.g. twitter.json:12:7: JET_ERR_TYPE: ... (offset 345, at "/statuses/0/id") */
        fprintf(stderr, "%s:%zu:%zu: %s: %s (offset %zu, at \"%s\")\n", argv[1], err.line,
                err.column, jet_code_name(err.code), err.msg, err.offset, err.path ? err.path : "");
        jet_arena_free(&arena);
        jet_od_free(od);
        free(json);
        return 1;
    }

    /* From here on it is plain C over plain structs. Strings are jet_str
     * views (ptr, len) valid while `json` and `od` are. */
    uint64_t id_sum = 0, user_id_sum = 0, followers = 0, friends = 0, retweets = 0;
    uint64_t favorites = 0, verified = 0, text = 0, screen_name = 0, name = 0;
    uint64_t created_at = 0, hashtags = 0, hashtag_bytes = 0;
    for (size_t i = 0; i < tl.status_count; i++) {
        const TwStatus *s = &tl.statuses[i];
        id_sum += s->id;
        user_id_sum += s->user.id;
        followers += s->user.followers_count;
        friends += s->user.friends_count;
        retweets += s->retweet_count;
        favorites += s->favorite_count;
        verified += s->user.verified;
        text += s->text.len;
        screen_name += s->user.screen_name.len;
        name += s->user.name.len;
        created_at += s->created_at.len;
        hashtags += s->entities.hashtag_count;
        for (size_t h = 0; h < s->entities.hashtag_count; h++)
            hashtag_bytes += s->entities.hashtags[h].text.len;
    }
    printf("{\"statuses\":%zu,\"id_sum\":%" PRIu64 ",\"user_id_sum\":%" PRIu64
           ",\"followers_sum\":%" PRIu64 ",\"friends_sum\":%" PRIu64 ",\"retweet_sum\":%" PRIu64
           ",\"favorite_sum\":%" PRIu64 ",\"verified\":%" PRIu64 ",\"text_bytes\":%" PRIu64
           ",\"screen_name_bytes\":%" PRIu64 ",\"name_bytes\":%" PRIu64
           ",\"created_at_bytes\":%" PRIu64 ",\"hashtags\":%" PRIu64 ",\"hashtag_bytes\":%" PRIu64
           "}\n",
           tl.status_count, id_sum, user_id_sum, followers, friends, retweets, favorites,
           verified, text, screen_name, name, created_at, hashtags, hashtag_bytes);

    jet_arena_free(&arena);
    jet_od_free(od);
    free(json);
    return 0;
}
