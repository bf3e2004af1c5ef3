#!/bin/sh
# header_compile.sh — jet.h compiles without a warning, warnings as errors,
# in every language standard a user may pick:
#
#   header_compile.sh SOURCE_DIR
#
# tests/header_use.c (accessors, iterators, old names, field-table macros)
# is compiled by gcc and clang as C99 (with -Wcast-qual) and C11, and by g++
# and clang++ as C++11, C++17 and C++20, each with the inline accessors and
# with JET_NO_INLINE, at -O2 with -Wall -Wextra -Wpedantic -Werror. A
# compiler that is not installed is left out (named in the output); each
# compile that runs is one check. Prints "header_compile: N passed, M failed".
set -u
src=$1
passed=0 failed=0
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
flags="-O2 -Wall -Wextra -Wpedantic -Werror -I$src/include -c -o /dev/null"

try() { # compiler language standard extra-flags...
  cc=$1 lang=$2 std=$3; shift 3
  for mode in inline JET_NO_INLINE; do
    def=; [ "$mode" = inline ] || def=-D$mode
    # shellcheck disable=SC2086 # the flags are words
    if "$cc" -x "$lang" -std="$std" $flags $def "$@" "$src/tests/header_use.c" >"$out" 2>&1; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAIL: $cc -std=$std $mode $*"
      head -n 30 "$out"
    fi
  done
}

for cc in gcc clang; do
  if command -v "$cc" >/dev/null 2>&1; then
    try "$cc" c c99 -Wcast-qual
    try "$cc" c c11 -Wcast-qual
  else
    echo "skipped: $cc is not installed"
  fi
done
for cxx in g++ clang++; do
  if command -v "$cxx" >/dev/null 2>&1; then
    for std in c++11 c++17 c++20; do try "$cxx" c++ "$std" -Wcast-qual; done
  else
    echo "skipped: $cxx is not installed"
  fi
done
[ $((passed + failed)) -gt 0 ] || { echo "FAIL: no compiler found"; failed=1; }
echo "header_compile: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
