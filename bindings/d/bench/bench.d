/**
 * jet-d-bench — the wired seed's table (../shared/seeds/wired-runtime-json-
 * baseline.txt) reproduced in one process:
 *   parse   std.json.parseJSON and jet-d's parseJSON on the four corpora;
 *   decode  twitter.json into the TwitterStats sums by std.json parse +
 *           manual extraction ("wired today"), by jet-d's DOM walk, by
 *           jet-d-typed (fromJSON!T), by jet-d-decoder (a reused Decoder)
 *           and by the C library's jet-typed (jet_decode, same process).
 * Every cell is verified before it is timed (parse: the structural
 * fingerprint of jet_val_stats, computed from std.json's tree too; decode:
 * the 14 TwitterStats sums, equal to the C jet-typed's); samples of all
 * cells are interleaved, round after round; MB/s over the median sample,
 * timed in the thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
 *
 *   dub run -q -b release :bench -- [--json FILE] [--rounds N] [--sample-ms MS] [--shared DIR]
 *
 * --json writes a snapshot in jet-bench's schema (results: engine, op,
 * dataset, bytes, samples, median_ns, mb_per_s, verified, x_baseline, ...).
 * --only ENGINE/OP/DATASET --iters N runs that one cell N times, untimed,
 * after verifying it: for instruction counts (valgrind --tool=callgrind).
 */
import std.algorithm : map, max, sort;
import std.array : array;
import std.conv : to;
import std.file : exists, read, write;
import std.format : format;
import std.getopt : getopt;
import std.json : JSONType, JSONValue, stdParseJSON = parseJSON;
import std.path : buildPath, dirName;
import std.process : environment;
import std.stdio : stderr, writefln, writeln;

import jet;

extern (C) int jet_d_bench_c_typed(const(char)* json, size_t len, ulong* sums) nothrow @nogc;

alias Sums = ulong[14];

// ------------------------------------------------------------ TwitterStats --

struct TwUser {
    ulong id;
    const(char)[] screen_name, name;
    ulong followers_count, friends_count;
    bool verified;
}

struct TwHashtag {
    const(char)[] text;
}

struct TwEntities {
    TwHashtag[] hashtags;
}

struct TwStatus {
    ulong id;
    const(char)[] text, created_at;
    ulong retweet_count, favorite_count;
    TwUser user;
    TwEntities entities;
}

struct TwTimeline {
    TwStatus[] statuses;
}

Sums sumsOf(ref const TwTimeline tl) {
    Sums s;
    s[0] = tl.statuses.length;
    foreach (ref st; tl.statuses) {
        s[1] += st.id;
        s[2] += st.user.id;
        s[3] += st.user.followers_count;
        s[4] += st.user.friends_count;
        s[5] += st.retweet_count;
        s[6] += st.favorite_count;
        s[7] += st.user.verified;
        s[8] += st.text.length;
        s[9] += st.user.screen_name.length;
        s[10] += st.user.name.length;
        s[11] += st.created_at.length;
        s[12] += st.entities.hashtags.length;
        foreach (ref h; st.entities.hashtags) s[13] += h.text.length;
    }
    return s;
}

/// std.json parse + manual extraction: the seed's "wired today" row.
Sums stdJsonDecode(const(char)[] text) {
    Sums s;
    JSONValue root = stdParseJSON(text);
    auto statuses = root["statuses"].array;
    s[0] = statuses.length;
    foreach (ref st; statuses) {
        s[1] += st["id"].integer;
        auto u = st["user"];
        s[2] += u["id"].integer;
        s[3] += u["followers_count"].integer;
        s[4] += u["friends_count"].integer;
        s[5] += st["retweet_count"].integer;
        s[6] += st["favorite_count"].integer;
        s[7] += u["verified"].boolean;
        s[8] += st["text"].str.length;
        s[9] += u["screen_name"].str.length;
        s[10] += u["name"].str.length;
        s[11] += st["created_at"].str.length;
        auto tags = st["entities"]["hashtags"].array;
        s[12] += tags.length;
        foreach (ref h; tags) s[13] += h["text"].str.length;
    }
    return s;
}

/// jet-d's DOM: parse, then walk with the Json API.
Sums jetDomDecode(const(char)[] text) {
    Sums s;
    auto doc = parseJSON(text);
    auto statuses = doc["statuses"];
    s[0] = statuses.length;
    foreach (st; statuses) {
        s[1] += st["id"].get!ulong;
        auto u = st["user"];
        s[2] += u["id"].get!ulong;
        s[3] += u["followers_count"].get!ulong;
        s[4] += u["friends_count"].get!ulong;
        s[5] += st["retweet_count"].get!ulong;
        s[6] += st["favorite_count"].get!ulong;
        s[7] += u["verified"].get!bool;
        s[8] += st["text"].view.length;
        s[9] += u["screen_name"].view.length;
        s[10] += u["name"].view.length;
        s[11] += st["created_at"].view.length;
        auto tags = st["entities"]["hashtags"];
        s[12] += tags.length;
        foreach (h; tags) s[13] += h["text"].view.length;
    }
    return s;
}

// ------------------------------------------------------------ fingerprint --

/// jet_stats of a std.json tree (the same counting rules as jet_val_stats).
void statsOf(ref const JSONValue v, ref jet_stats st, ulong depth) {
    final switch (v.type) {
    case JSONType.object:
        st.objects++;
        st.max_depth = max(st.max_depth, depth + 1);
        foreach (k, ref m; v.object) {
            st.keys++;
            st.string_bytes += k.length;
            statsOf(m, st, depth + 1);
        }
        break;
    case JSONType.array:
        st.arrays++;
        st.max_depth = max(st.max_depth, depth + 1);
        foreach (ref e; v.array) statsOf(e, st, depth + 1);
        break;
    case JSONType.string:
        st.strings++;
        st.string_bytes += v.str.length;
        break;
    case JSONType.integer:
    case JSONType.uinteger:
        st.numbers++;
        st.integers++;
        break;
    case JSONType.float_:
        st.numbers++;
        st.doubles++;
        break;
    case JSONType.true_: st.trues++; break;
    case JSONType.false_: st.falses++; break;
    case JSONType.null_: st.nulls++; break;
    }
}

// ------------------------------------------------------------------ cells --

struct Cell {
    string engine, op, dataset;
    size_t bytes;
    void delegate() run;
    bool verified;
    string note;
    double[] samplesNs;
    uint iters = 1;
    double medianNs() const {
        auto s = samplesNs.dup;
        s.sort;
        return s.length ? s[$ / 2] : 0;
    }
    double mbPerS() const {
        double m = medianNs;
        return m > 0 ? bytes / (m / 1e9) / 1e6 : 0;
    }
}

/// A parse cell over `text` (a function of its own, so that each cell's
/// closure has its own frame: closures made in one loop would share one).
Cell parseCell(string engine, string dataset, const(char)[] text, void function(const(char)[]) parse) {
    Cell c = {engine: engine, op: "parse", dataset: dataset, bytes: text.length, run: () { parse(text); }};
    return c;
}

/// The thread's CPU time in ns: on a shared machine, time spent waiting for
/// a core does not count against whichever cell happened to be running.
double cpuNs() {
    import core.sys.posix.time : clock_gettime, CLOCK_THREAD_CPUTIME_ID, timespec;
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

double timeIt(ref Cell c) {
    double t0 = cpuNs();
    foreach (_; 0 .. c.iters) c.run();
    return (cpuNs() - t0) / c.iters;
}

int main(string[] args) {
    string jsonOut, only, shared_ = environment.get("JET_SHARED_DIR",
        buildPath(__FILE_FULL_PATH__.dirName.dirName.dirName.dirName.dirName, "shared"));
    int rounds = 7, iters = 10;
    double sampleMs = 20;
    getopt(args, "json", &jsonOut, "rounds", &rounds, "sample-ms", &sampleMs, "shared", &shared_, "only", &only,
           "iters", &iters);
    string corpora = buildPath(shared_, "corpora");
    string[] names = ["twitter", "citm_catalog", "canada", "github_events"];
    const(char)[][string] texts;
    foreach (n; names) {
        string p = buildPath(corpora, n ~ ".json");
        if (!p.exists) {
            stderr.writefln("jet-d-bench: %s not found (--shared DIR or JET_SHARED_DIR)", p);
            return 2;
        }
        texts[n] = cast(const(char)[]) read(p);
    }

    Cell[] cells;
    // parse: std.json and jet-d on the four corpora, checked against jet's fingerprint
    foreach (n; names) {
        const(char)[] t = texts[n];
        jet_stats want;
        {
            auto doc = parseJSON(t);
            jet_val_stats(doc.root.handle, &want);
        }
        jet_stats got;
        auto sv = stdParseJSON(t);
        statsOf(sv, got, 0);
        Cell c = parseCell("std.json", n, t, (const(char)[] x) { auto v = stdParseJSON(x); });
        c.verified = got == want;
        if (!c.verified) c.note = "fingerprint differs from jet's";
        cells ~= c;
        Cell j = parseCell("jet-d", n, t, (const(char)[] x) { auto d = parseJSON(x); });
        j.verified = true; // the fingerprint's own source
        cells ~= j;
    }
    // decode: the TwitterStats sums, all equal to the C jet-typed's
    const(char)[] tw = texts["twitter"];
    Sums reference;
    if (jet_d_bench_c_typed(tw.ptr, tw.length, reference.ptr) != 0) {
        stderr.writeln("jet-d-bench: the C jet-typed decode failed");
        return 1;
    }
    Decoder dec;
    Sums sink;
    Cell[] decodeCells = [
        Cell("std.json", "decode", "twitter", tw.length, () { sink = stdJsonDecode(tw); }),
        Cell("jet-d", "decode", "twitter", tw.length, () { sink = jetDomDecode(tw); }),
        Cell("jet-d-typed", "decode", "twitter", tw.length, () {
            auto tl = fromJSON!TwTimeline(tw);
            sink = sumsOf(tl);
        }),
        Cell("jet-d-decoder", "decode", "twitter", tw.length, () {
            TwTimeline tl;
            if (!dec.decode(tw, tl)) throw new Exception("decode failed");
            sink = sumsOf(tl);
        }),
        Cell("jet-typed", "decode", "twitter", tw.length, () {
            jet_d_bench_c_typed(tw.ptr, tw.length, sink.ptr);
        }),
    ];
    foreach (ref c; decodeCells) {
        sink = Sums.init;
        c.run();
        c.verified = sink == reference;
        if (!c.verified) c.note = "TwitterStats sums differ from the C jet-typed's";
    }
    cells ~= decodeCells;

    if (only.length) {
        foreach (ref c; cells) {
            if (c.engine ~ "/" ~ c.op ~ "/" ~ c.dataset != only) continue;
            if (!c.verified) {
                stderr.writefln("jet-d-bench: %s not verified", only);
                return 1;
            }
            foreach (_; 0 .. iters) c.run();
            writefln("%s: %d runs of %d bytes", only, iters, c.bytes);
            return 0;
        }
        stderr.writefln("jet-d-bench: no cell %s", only);
        return 2;
    }

    // iterations per sample so that one sample takes about sampleMs
    foreach (ref c; cells) {
        if (!c.verified) continue;
        double ns = timeIt(c);
        c.iters = cast(uint) max(1.0, sampleMs * 1e6 / max(ns, 1.0));
    }
    foreach (r; 0 .. rounds)
        foreach (ref c; cells)
            if (c.verified) c.samplesNs ~= timeIt(c);

    double baselineOf(string op, string ds) {
        foreach (ref c; cells)
            if (c.engine == "std.json" && c.op == op && c.dataset == ds) return c.mbPerS;
        return 0;
    }
    double cTyped = 0;
    foreach (ref c; cells)
        if (c.engine == "jet-typed") cTyped = c.mbPerS;

    writefln("%-14s %-7s %-14s %10s %9s  %s", "engine", "op", "dataset", "MB/s", "x std.json", "verified");
    foreach (ref c; cells) {
        double base = baselineOf(c.op, c.dataset);
        writefln("%-14s %-7s %-14s %10.1f %9.1fx  %s%s", c.engine, c.op, c.dataset, c.mbPerS,
                 base > 0 ? c.mbPerS / base : 0, c.verified ? "yes" : "NO",
                 c.engine == "jet-d-typed" || c.engine == "jet-d-decoder"
                     ? format(" (%.2fx the C jet-typed)", c.mbPerS / cTyped) : "");
    }

    if (jsonOut.length) {
        JSONValue[] results;
        foreach (ref c; cells) {
            double base = baselineOf(c.op, c.dataset);
            JSONValue r = ["engine": JSONValue(c.engine), "op": JSONValue(c.op), "dataset": JSONValue(c.dataset)];
            r["bytes"] = c.bytes;
            r["samples"] = c.samplesNs.length;
            r["iters_per_sample"] = c.iters;
            r["median_ns"] = c.medianNs;
            r["clock"] = "thread_cputime";
            r["mb_per_s"] = c.mbPerS;
            r["verified"] = c.verified;
            r["x_baseline"] = base > 0 ? c.mbPerS / base : 0.0;
            r["baseline"] = "std.json";
            r["note"] = c.note.length ? JSONValue(c.note) : JSONValue(null);
            results ~= r;
        }
        JSONValue snap = ["results": JSONValue(results)];
        snap["config"] = ["rounds": JSONValue(rounds), "sample_ms": JSONValue(sampleMs)];
        snap["machine"] = ["compiler": JSONValue(__VENDOR__ ~ " " ~ __VERSION__.to!string),
                           "kernel": JSONValue(jet_kernel_name().to!string)];
        write(jsonOut, snap.toPrettyString ~ "\n");
    }
    return 0;
}
