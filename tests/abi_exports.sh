#!/bin/sh
# abi_exports.sh — the shared library exports exactly the functions jet.h
# declares (docs/abi.md), and its soname follows the policy of jet.h.
#
#   abi_exports.sh CC NM READELF JET_H LIBJET_SO
#
# The expected list comes from jet.h itself: the header is preprocessed with
# JET_NO_INLINE (so the inline accessors become plain declarations, as the
# library defines them) and every function declared at file scope in it is
# taken, with whether it carries JET_API. Checks, each counted:
#   - every declared function carries JET_API and is exported;
#   - nothing else is exported (no jet__* internals, no jet_num_* helpers);
#   - JET_VERSION_STRING is MAJOR.MINOR.PATCH of the same header;
#   - the soname is libjet.so.0.MINOR while MAJOR is 0, else libjet.so.MAJOR.
# Prints "abi_exports: N passed, M failed"; exit status 1 on any failure.
set -u
cc=$1 nm=${2:-nm} readelf=${3:-readelf} header=$4 lib=$5
[ -n "$nm" ] || nm=nm
[ -n "$readelf" ] || readelf=readelf
passed=0 failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
finish() { echo "abi_exports: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT

# --- what jet.h declares ---------------------------------------------------
# JET_API becomes a marker word; the awk program keeps the text that comes
# from jet.h (by the preprocessor's line markers), splits it into file-scope
# statements at `;` outside braces, drops typedefs, and prints "name marked"
# for each function declaration (the identifier before the first `(`).
if ! "$cc" -E -x c -DJET_NO_INLINE -DJET_API=jet_api_marker_ "$header" >"$work/pp.c" 2>"$work/pp.err"; then
  cat "$work/pp.err"
  fail "the preprocessor failed on $header"
  finish
fi
base=$(basename "$header")
awk -v base="$base" '
  /^# [0-9]+ "/ {
    f = $3; gsub(/"/, "", f); n = split(f, parts, "/")
    inheader = (parts[n] == base); next
  }
  /^#/ { next }
  inheader { text = text " " $0 }
  END {
    depth = 0; stmt = ""
    for (i = 1; i <= length(text); i++) {
      c = substr(text, i, 1)
      if (c == "{") depth++
      else if (c == "}") depth--
      if (c == ";" && depth == 0) { emit(stmt); stmt = "" } else stmt = stmt c
    }
  }
  function emit(s,   head, name) {
    sub(/^[ \t]+/, "", s)
    if (s ~ /^typedef[ \t]/ || index(s, "(") == 0) return
    head = substr(s, 1, index(s, "(") - 1)
    if (!match(head, /[A-Za-z_][A-Za-z_0-9]*[ \t]*$/)) return
    name = substr(head, RSTART, RLENGTH); sub(/[ \t]+$/, "", name)
    print name, (s ~ /(^|[^A-Za-z_0-9])jet_api_marker_([^A-Za-z_0-9]|$)/) ? 1 : 0
  }
' "$work/pp.c" | sort -u >"$work/declared"

ndeclared=$(wc -l <"$work/declared")
if [ "$ndeclared" -lt 50 ]; then
  fail "found only $ndeclared declarations in $header (the parser is broken)"
else
  pass
fi
while read -r name marked; do
  if [ "$marked" = 1 ]; then pass; else fail "$name is declared in $base without JET_API"; fi
done <"$work/declared"
cut -d' ' -f1 "$work/declared" | sort -u >"$work/expected"

# --- what the library exports ----------------------------------------------
# Symbols the toolchain itself may add to a shared object (linker section
# bounds, sanitizer runtime hooks) are not part of jet's ABI.
if ! "$nm" -D --defined-only "$lib" >"$work/nm.out" 2>"$work/nm.err"; then
  cat "$work/nm.err"
  fail "$nm -D --defined-only $lib failed"
  finish
fi
awk 'NF >= 3 { print $3 } NF == 2 { print $2 }' "$work/nm.out" | sed 's/@.*//' |
  grep -Ev '^(_init|_fini|_edata|_end|__bss_start|__(odr_)?asan.*|__ubsan.*|__sanitizer.*|__gcov.*|__llvm.*)$' |
  sort -u >"$work/exported"

while read -r name; do
  if grep -qx "$name" "$work/exported"; then pass; else fail "$name is declared in $base but not exported"; fi
done <"$work/expected"
extra=$(comm -13 "$work/expected" "$work/exported")
if [ -z "$extra" ]; then pass; else
  fail "exported but not declared in $base: $(echo $extra)"
fi
internal=$(grep '^jet__' "$work/exported")
if [ -z "$internal" ]; then pass; else fail "internal symbols exported: $(echo $internal)"; fi

# --- version and soname ----------------------------------------------------
ver() { sed -n "s/^#define JET_VERSION_$1 \\([0-9][0-9]*\\)\$/\\1/p" "$header"; }
major=$(ver MAJOR) minor=$(ver MINOR) patch=$(ver PATCH)
string=$(sed -n 's/^#define JET_VERSION_STRING "\(.*\)"$/\1/p' "$header")
if [ -n "$major" ] && [ "$string" = "$major.$minor.$patch" ]; then pass; else
  fail "JET_VERSION_STRING \"$string\" is not MAJOR.MINOR.PATCH ($major.$minor.$patch)"
fi
if [ "$major" = 0 ]; then want=libjet.so.0.$minor; else want=libjet.so.$major; fi
soname=$("$readelf" -d "$lib" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" = "$want" ]; then pass; else fail "soname is '$soname', the policy says $want"; fi

echo "$(wc -l <"$work/expected") functions declared in $base and exported by $(basename "$lib") ($soname)"
finish
