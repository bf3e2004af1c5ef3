/**
 * nostr_stats — many small documents: one nostr relay message per line
 * (["EVENT","sub",{...}], ["EOSE","sub"], ["OK",id,true,"msg"],
 * ["NOTICE","msg"]), each decoded into a SumType (the D twin of
 * examples/nostr_stats.c, printing exactly the same line).
 *
 *   dub run -q :nostr_stats -- FILE
 *
 * The envelope is a SumType of @jsonTuple structs, so it is read in the
 * array encoding: the tag (the variant's @jsonName) first, then the
 * variant's members by position. One Decoder for all lines: after the first
 * few, decoding allocates nothing.
 */
import core.stdc.stdio : fprintf, printf, stderr;
import std.file : read;
import std.sumtype : SumType, match;

import jet;

struct Event {
    const(char)[] id, pubkey;
    ulong created_at;
    uint kind;
    const(char)[][][] tags;
    const(char)[] content, sig;
}

@jsonTuple @jsonName("EVENT") struct EventMsg {
    const(char)[] sub_id;
    Event event;
}

@jsonTuple @jsonName("EOSE") struct EoseMsg {
    const(char)[] sub_id;
}

@jsonTuple @jsonName("OK") struct OkMsg {
    const(char)[] event_id;
    bool accepted;
    @jsonOptional const(char)[] message; // relays sometimes leave it out
}

@jsonTuple @jsonName("NOTICE") struct NoticeMsg {
    const(char)[] message;
}

alias Envelope = SumType!(EventMsg, EoseMsg, OkMsg, NoticeMsg);

private bool isBlank(const(char)[] s) {
    foreach (c; s)
        if (c != ' ' && c != '\t' && c != '\r') return false;
    return true;
}

int main(string[] args) {
    if (args.length != 2) {
        fprintf(stderr, "usage: nostr_stats FILE\n");
        return 2;
    }
    const(char)[] data;
    try
        data = cast(const(char)[]) read(args[1]);
    catch (Exception e) {
        fprintf(stderr, "%.*s\n", cast(int) e.msg.length, e.msg.ptr);
        return 1;
    }
    Decoder dec;
    ulong messages, tags, tagItems, contentBytes, createdAtSum, kindSum;
    ulong[4] byType;
    size_t lineno;
    for (size_t at = 0; at < data.length;) {
        size_t nl = at;
        while (nl < data.length && data[nl] != '\n') nl++;
        const(char)[] line = data[at .. nl];
        at = nl + 1;
        lineno++;
        if (isBlank(line)) continue;
        Envelope msg;
        if (!dec.decode(line, msg)) {
            auto err = dec.error;
            fprintf(stderr, "%.*s:%zu:%zu: %s: %s (at \"%s\")\n", cast(int) args[1].length, args[1].ptr, lineno,
                    err.column, jet_code_name(err.code), err.msg, err.path ? err.path : "");
            return 1;
        }
        messages++;
        msg.match!(
            (ref EventMsg m) {
                byType[0]++;
                tags += m.event.tags.length;
                foreach (t; m.event.tags) tagItems += t.length;
                contentBytes += m.event.content.length;
                createdAtSum += m.event.created_at;
                kindSum += m.event.kind;
            },
            (ref EoseMsg m) { byType[1]++; },
            (ref OkMsg m) { byType[2]++; },
            (ref NoticeMsg m) { byType[3]++; });
    }
    printf("{\"messages\":%llu,\"EVENT\":%llu,\"EOSE\":%llu,\"OK\":%llu,\"NOTICE\":%llu,\"tags\":%llu," ~
           "\"tag_items\":%llu,\"content_bytes\":%llu,\"created_at_sum\":%llu,\"kind_sum\":%llu}\n", messages,
           byType[0], byType[1], byType[2], byType[3], tags, tagItems, contentBytes, createdAtSum, kindSum);
    return 0;
}
