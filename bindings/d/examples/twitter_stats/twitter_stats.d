/**
 * twitter_stats — typed decoding of twitter.json into D structs (the D
 * twin of examples/twitter_stats.c, printing exactly the same line).
 *
 *   dub run -q :twitter_stats -- FILE
 *
 * Strings are const(char)[] slices of the input (copies only for strings
 * that had escapes); the Decoder's arena holds the arrays.
 */
import core.stdc.stdio : fprintf, printf, stderr;
import std.file : read;

import jet;

struct User {
    ulong id;
    const(char)[] screen_name, name;
    ulong followers_count, friends_count;
    bool verified;
}

struct Hashtag {
    const(char)[] text;
}

struct Entities {
    Hashtag[] hashtags;
}

struct Status {
    ulong id;
    const(char)[] text, created_at;
    ulong retweet_count, favorite_count;
    User user;
    Entities entities;
}

struct Timeline {
    Status[] statuses;
}

int main(string[] args) {
    if (args.length != 2) {
        fprintf(stderr, "usage: twitter_stats FILE\n");
        return 2;
    }
    const(char)[] json;
    try
        json = cast(const(char)[]) read(args[1]);
    catch (Exception e) {
        fprintf(stderr, "%.*s\n", cast(int) e.msg.length, e.msg.ptr);
        return 1;
    }
    Decoder dec;
    Timeline tl;
    if (!dec.decode(json, tl)) {
        auto err = dec.error;
        fprintf(stderr, "%.*s:%zu:%zu: %s: %s (offset %zu, at \"%s\")\n", cast(int) args[1].length,
                args[1].ptr, err.line, err.column, jet_code_name(err.code), err.msg, err.offset,
                err.path ? err.path : "");
        return 1;
    }
    ulong idSum, userIdSum, followers, friends, retweets, favorites, verified;
    ulong text, screenName, name, createdAt, hashtags, hashtagBytes;
    foreach (ref s; tl.statuses) {
        idSum += s.id;
        userIdSum += s.user.id;
        followers += s.user.followers_count;
        friends += s.user.friends_count;
        retweets += s.retweet_count;
        favorites += s.favorite_count;
        verified += s.user.verified;
        text += s.text.length;
        screenName += s.user.screen_name.length;
        name += s.user.name.length;
        createdAt += s.created_at.length;
        hashtags += s.entities.hashtags.length;
        foreach (ref h; s.entities.hashtags) hashtagBytes += h.text.length;
    }
    printf("{\"statuses\":%zu,\"id_sum\":%llu,\"user_id_sum\":%llu,\"followers_sum\":%llu,\"friends_sum\":%llu," ~
           "\"retweet_sum\":%llu,\"favorite_sum\":%llu,\"verified\":%llu,\"text_bytes\":%llu," ~
           "\"screen_name_bytes\":%llu,\"name_bytes\":%llu,\"created_at_bytes\":%llu,\"hashtags\":%llu," ~
           "\"hashtag_bytes\":%llu}\n", tl.statuses.length, idSum, userIdSum, followers, friends, retweets,
           favorites, verified, text, screenName, name, createdAt, hashtags, hashtagBytes);
    return 0;
}
