/*
 * nostr_stats — typed decoding of many small documents: a file of nostr
 * relay messages (one JSON array per line, e.g. ["EVENT","sub",{...}]),
 * each decoded into the tagged union of schemas.h (NostrMessage).
 *
 *   nostr_stats FILE
 *
 * Prints one JSON object on one line: messages, the count of each message
 * type (EVENT, EOSE, OK, NOTICE) and, over the EVENT messages, tags (tag
 * arrays), tag_items (strings in them), content_bytes, created_at_sum and
 * kind_sum. Blank lines are skipped. On a decoding error prints where and
 * why on stderr and exits with 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jet.h>

#include "schemas.h"

/* The whole file in a malloc'd buffer. */
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

static bool is_blank(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r') return false;
    return true;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: nostr_stats FILE\n");
        return 2;
    }
    size_t len;
    char *data = read_file(argv[1], &len);
    if (!data) {
        perror(argv[1]);
        return 1;
    }
    /* One cursor and one arena for all the lines: after the first few
     * messages, decoding allocates nothing. */
    jet_od *od = jet_od_new(NULL);
    if (!od) {
        fprintf(stderr, "out of memory\n");
        free(data);
        return 1;
    }
    jet_arena arena;
    jet_arena_init(&arena, NULL);

    uint64_t messages = 0, by_type[4] = {0};
    uint64_t tags = 0, tag_items = 0, content_bytes = 0, created_at_sum = 0, kind_sum = 0;
    int status = 0;
    size_t lineno = 0;
    for (const char *line = data, *end = data + len; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        const char *next = nl ? nl + 1 : end;
        lineno++;
        if (is_blank(line, n)) {
            line = next;
            continue;
        }

        /* The previous message's arrays are no longer needed. */
        jet_arena_reset(&arena);
        NostrMessage msg;
        jet_error err;
        if (!jet_decode(od, line, n, &nostr_message_type, &msg, &arena, NULL, &err)) {
            /* line and column of the file: the error's are within the line */
            fprintf(stderr, "%s:%zu:%zu: %s: %s (at \"%s\")\n", argv[1], lineno, err.column,
                    jet_code_name(err.code), err.msg, err.path ? err.path : "");
            status = 1;
            break;
        }
        messages++;
        by_type[msg.env.type]++; /* NOSTR_EVENT .. NOSTR_NOTICE */
        if (msg.env.type == NOSTR_EVENT) {
            const NostrEvent *ev = &msg.env.as.event.event;
            tags += ev->tag_count;
            for (size_t t = 0; t < ev->tag_count; t++) tag_items += ev->tags[t].count;
            content_bytes += ev->content.len;
            created_at_sum += ev->created_at;
            kind_sum += ev->kind;
        }
        line = next;
    }

    if (status == 0)
        printf("{\"messages\":%" PRIu64 ",\"EVENT\":%" PRIu64 ",\"EOSE\":%" PRIu64 ",\"OK\":%" PRIu64
               ",\"NOTICE\":%" PRIu64 ",\"tags\":%" PRIu64 ",\"tag_items\":%" PRIu64
               ",\"content_bytes\":%" PRIu64 ",\"created_at_sum\":%" PRIu64
               ",\"kind_sum\":%" PRIu64 "}\n",
               messages, by_type[NOSTR_EVENT], by_type[NOSTR_EOSE], by_type[NOSTR_OK],
               by_type[NOSTR_NOTICE], tags, tag_items, content_bytes, created_at_sum, kind_sum);
    jet_arena_free(&arena);
    jet_od_free(od);
    free(data);
    return status;
}
