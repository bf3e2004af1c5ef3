#!/usr/bin/env bash
# Runs every test program of a build directory (the ctest list), each of which
# prints "<name>: N passed, M failed", and prints the grand total as the last
# line: "N passed, M failed". Exit status is non-zero when anything failed.
set -u
build=${1:-build}
passed=0; failed=0; broken=0
tests=$(cd "$build" && ctest -N 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p')
for t in $tests; do
  out=$(cd "$build" && ctest -V -R "^${t}\$" 2>&1)
  rc=$?
  line=$(printf '%s\n' "$out" | grep -E "(^|: )${t}: [0-9]+ passed, [0-9]+ failed" | tail -n 1)
  if [ -n "$line" ]; then
    p=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\1/')
    f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) passed, ([0-9]+) failed.*/\2/')
    passed=$((passed + p)); failed=$((failed + f))
  fi
  if [ $rc -ne 0 ] || [ -z "$line" ]; then
    broken=$((broken + 1))
    [ -z "$line" ] && failed=$((failed + 1))
    echo "---- $t FAILED (exit $rc) ----"; printf '%s\n' "$out" | tail -n 40
  else
    echo "$t: ${line##*${t}: }"
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ] && [ $broken -eq 0 ]
