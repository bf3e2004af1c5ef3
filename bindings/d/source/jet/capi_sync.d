/**
 * The check that jet.capi matches include/jet.h (unittest only):
 *   - tests/layout_probe.c, built with the C compiler ($CC, else cc) and run,
 *     prints every struct's size, its members' offsets and every constant's
 *     value; jet.capi must give exactly the same lines, no more, no fewer;
 *   - every function jet.h declares with JET_API (accessors included) is
 *     declared in jet.capi, and nothing else is;
 *   - scripts/gen_capi.py --check (when python3 is there) finds capi.d
 *     current.
 */
module jet.capi_sync;

version (unittest):

import std.algorithm : filter, map, sort, startsWith, endsWith;
import std.array : array, join;
import std.conv : to;
import std.file : readText, tempDir, exists;
import std.path : buildPath, dirName;
import std.process : environment, execute;
import std.regex : matchAll, regex;
import std.traits : isIntegral, isSomeFunction;

import jet.capi;

private enum packageDir = __FILE_FULL_PATH__.dirName.dirName.dirName; // bindings/d
private enum repoDir = packageDir.dirName.dirName;

/// What jet.capi says, in the probe's line format.
private string[] dLayout() {
    string[] lines;
    static foreach (name; __traits(allMembers, jet.capi)) {{
        alias sym = __traits(getMember, jet.capi, name);
        static if (is(sym == struct) && __traits(compiles, sym.sizeof) && name.startsWith("jet_")) {
            lines ~= "S " ~ name ~ " " ~ sym.sizeof.to!string;
            static foreach (field; __traits(allMembers, sym)) {
                static if (!is(__traits(getMember, sym, field)) &&
                           __traits(compiles, __traits(getMember, sym, field).offsetof)) {
                    lines ~= "F " ~ name ~ "." ~ (field.endsWith("_") ? field[0 .. $ - 1] : field) ~ " " ~
                        __traits(getMember, sym, field).offsetof.to!string;
                }
            }
        } else static if (name.startsWith("JET_") && __traits(compiles, { enum v = sym; }) &&
                          !isSomeFunction!sym && (isIntegral!(typeof(sym)) || is(typeof(sym) == enum))) {
            lines ~= "C " ~ name ~ " " ~ (cast(long) sym).to!string;
        }
    }}
    return lines;
}

unittest {
    string cc = environment.get("CC", "cc");
    string exe = buildPath(tempDir, "jet_d_layout_probe");
    auto build = execute([cc, "-std=c11", "-I" ~ buildPath(repoDir, "include"),
                          buildPath(packageDir, "tests", "layout_probe.c"), "-o", exe]);
    assert(build.status == 0, "building tests/layout_probe.c failed:\n" ~ build.output);
    auto run = execute([exe]);
    assert(run.status == 0, "layout_probe failed");
    string[] c = run.output.splitLinesSorted;
    string[] d = dLayout().sort.array;
    auto onlyC = c.filter!(l => !d.contains(l)).array;
    auto onlyD = d.filter!(l => !c.contains(l)).array;
    assert(onlyC.length == 0 && onlyD.length == 0,
           "jet.capi and jet.h disagree (regenerate with scripts/gen_capi.py)\n  C says:\n    " ~
           onlyC.join("\n    ") ~ "\n  D says:\n    " ~ onlyD.join("\n    "));
    assert(c.length > 200); // the probe covers the whole header
}

unittest {
    string header = readText(buildPath(repoDir, "include", "jet.h"));
    auto cut = header.indexOfOld;
    if (cut > 0) header = header[0 .. cut];
    string[] cFuncs = header.matchAll(regex(`(?:JET_API|JET_ACCESSOR)\s+[\w\s\*]+?\b(jet_\w+)\s*\(`))
        .map!(m => m[1].idup).array.sort.array;
    string[] dFuncs;
    static foreach (name; __traits(allMembers, jet.capi))
        static if (name.startsWith("jet_") && !is(__traits(getMember, jet.capi, name)) &&
                   isSomeFunction!(__traits(getMember, jet.capi, name)))
            dFuncs ~= name;
    dFuncs.sort;
    assert(cFuncs == dFuncs, "functions of jet.h and jet.capi differ:\n  jet.h only: " ~
           cFuncs.filter!(f => !dFuncs.contains(f)).join(" ") ~ "\n  jet.capi only: " ~
           dFuncs.filter!(f => !cFuncs.contains(f)).join(" "));
    assert(cFuncs.length > 150);
}

unittest {
    // capi.d is what the generator makes of the current jet.h
    auto py = execute(["sh", "-c", "command -v python3"]);
    if (py.status != 0) return; // the layout and function checks above still ran
    auto check = execute(["python3", buildPath(packageDir, "scripts", "gen_capi.py"), "--check"]);
    assert(check.status == 0, check.output);
}

private string[] splitLinesSorted(string s) {
    import std.string : splitLines;
    return s.splitLines.filter!(l => l.length).array.sort.array;
}

private bool contains(const string[] sorted, string l) {
    import std.range : assumeSorted;
    return assumeSorted(sorted).contains(l);
}

private ptrdiff_t indexOfOld(string header) {
    import std.string : indexOf;
    return header.indexOf("/* 16. Old names");
}
