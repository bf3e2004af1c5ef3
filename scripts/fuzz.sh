#!/usr/bin/env bash
# scripts/fuzz.sh — long fuzzing runs that keep what they find (`make fuzz`).
#
# Builds every fuzz/*.c with clang (-fsanitize=fuzzer,address,undefined; see
# fuzz/CMakeLists.txt) and runs each target for FUZZ_SECONDS, one after the
# other, on a corpus kept OUTSIDE the repository, in FUZZ_CORPUS_DIR/TARGET:
# the inputs libFuzzer finds interesting stay there for the next run, so runs
# add up. Each run first (re)writes the seeds (scripts/fuzz-seeds.sh: ../shared's
# conformance files and corpora, snippets, the hostile inputs, the files of
# tests/regressions/). A crash, a hang (-timeout) or a failed agreement check
# (the targets abort) leaves its input in FUZZ_CORPUS_DIR/TARGET-findings/;
# minimize it, fix, and add it to tests/regressions/.
#
# Environment (all optional):
#   FUZZ_SECONDS     seconds per target (300)
#   FUZZ_CORPUS_DIR  where corpora and findings live ($HOME/.cache/jet-fuzz)
#   FUZZ_TARGETS     space-separated target names (every fuzz/*.c)
#   FUZZ_BUILD       the clang build directory (build-fuzz)
#   FUZZ_JOBS        build parallelism (2)
#   FUZZ_ARGS        more libFuzzer options, e.g. "-max_len=65536"
# Exit status: 0 when no target found anything.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 2
repo=$(pwd)
seconds=${FUZZ_SECONDS:-300}
corpus_root=${FUZZ_CORPUS_DIR:-${HOME:-/tmp}/.cache/jet-fuzz}
build=${FUZZ_BUILD:-build-fuzz}
jobs=${FUZZ_JOBS:-2}
shared=${JET_SHARED_DIR:-$repo/../shared}

case $corpus_root in
  "$repo"|"$repo"/*)
    echo "fuzz: FUZZ_CORPUS_DIR must be outside the repository ($corpus_root)" >&2
    exit 2 ;;
esac

if ! command -v clang >/dev/null; then
  echo "fuzz: clang is needed (libFuzzer)" >&2
  exit 2
fi
cmake -S "$repo" -B "$build" -DCMAKE_C_COMPILER=clang -DJET_BUILD_FUZZ=ON \
  -DJET_BUILD_TESTS=OFF -DJET_BUILD_TOOLS=OFF -DJET_BUILD_BENCH=OFF \
  -DJET_BUILD_EXAMPLES=OFF >/dev/null || exit 1
# count DIR [PATTERN]: the entries of DIR (named PATTERN).
count() { find "$1" -mindepth 1 -maxdepth 1 -name "${2:-*}" | wc -l; }

if [ -n "${FUZZ_TARGETS:-}" ]; then
  targets=$FUZZ_TARGETS
else
  targets=$(for src in fuzz/*.c; do basename "$src" .c; done)
fi
# shellcheck disable=SC2086 # the names are words
cmake --build "$build" -j"$jobs" --target $targets || exit 1
found=0
for name in $targets; do
  exe="$build/fuzz/$name"
  if [ ! -x "$exe" ]; then
    echo "fuzz: no target $name (fuzz/$name.c)" >&2
    found=1
    continue
  fi
  corpus="$corpus_root/$name"
  findings="$corpus_root/$name-findings"
  mkdir -p "$corpus" "$findings"
  bash "$repo/scripts/fuzz-seeds.sh" "$name" "$corpus" "$shared"
  before=$(count "$findings" '[!s]*')   # slow-unit-* files are kept, not failures
  slow_before=$(count "$findings" 'slow-unit-*')
  log="$corpus_root/$name.log"
  echo "fuzz: $name for ${seconds}s, corpus $corpus ($(count "$corpus") inputs)"
  # shellcheck disable=SC2086 # FUZZ_ARGS are words
  "$exe" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=2560 -print_final_stats=1 \
    -artifact_prefix="$findings/" ${FUZZ_ARGS:-} "$corpus" >"$log" 2>&1
  rc=$?
  after=$(count "$findings" '[!s]*')
  slow=$(($(count "$findings" 'slow-unit-*') - slow_before))
  runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$')
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1)
  if [ $rc -eq 0 ] && [ "$after" -eq "$before" ]; then
    echo "fuzz: $name ok: ${runs:-?} runs, ${cov:-cov: ?}, corpus now $(count "$corpus")"
    [ "$slow" -gt 0 ] && echo "fuzz: $name: $slow new slow input(s) (over 10 s) in $findings"
  else
    found=1
    echo "fuzz: $name FOUND SOMETHING (exit $rc): $findings; log $log"
    grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -n 10 | sed 's/^/  | /'
  fi
done
exit $found
