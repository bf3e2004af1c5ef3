#!/usr/bin/env bash
# scripts/fuzz-seeds.sh TARGET DIR [SHARED] — writes the seed corpus of the
# fuzz target TARGET (fuzz/TARGET.c) into DIR: snippets in the target's
# input format, files of SHARED (default: ../shared beside the repository:
# conformance suite, corpora, number vectors), the hostile inputs below and
# every file of tests/regressions/. TARGET "hostile" writes the hostile
# inputs alone (tests/test_regressions.c runs them).
#
# The hostile inputs are made here, at run time, not checked in (about
# 3 MB): 100 000 nested '[' (closed and not), 20 000 nested objects, numbers
# of 10 000 digits, a string of 1 000 000 bytes, 20 000 escapes in a row, a
# key of 100 000 bytes, 50 000 tiny values, an unterminated 100 KB string
# an error at depth 1 000 followed by many small arrays, and 100 000 lines
# of one error each (read as NDJSON with errors skipped by the stream
# targets, whose flag byte '[' asks for that).
# Used by .ci/run's fuzz step and by `make fuzz` (scripts/fuzz.sh).
set -u
if [ $# -lt 2 ]; then
  echo "usage: $0 TARGET DIR [SHARED]" >&2
  exit 2
fi
name=$1
dir=$2
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=${3:-${JET_SHARED_DIR:-$repo/../shared}}

# repeat TEXT N: TEXT N times, on stdout.
repeat() {
  local text=$1 n=$2
  [ "$n" -gt 0 ] || return 0
  yes -- "$text" | head -n "$n" | tr -d '\n'
}

# The hostile inputs: sizes and shapes that stress limits, not syntax.
hostile_seeds() {
  local dir=$1
  mkdir -p "$dir"
  repeat '[' 100000 >"$dir/hostile-deep-open"
  { repeat '[' 100000; repeat ']' 100000; } >"$dir/hostile-deep-arrays"
  { repeat '{"a":' 20000; printf 1; repeat '}' 20000; } >"$dir/hostile-deep-objects"
  { printf '['; repeat 1234567890 1000; printf ']'; } >"$dir/hostile-number-10k-digits"
  { printf '[-0.'; repeat 9876543210 1000; printf 'e-99999]'; } >"$dir/hostile-fraction-10k-digits"
  { printf '[1e'; repeat 5555555555 1000; printf ']'; } >"$dir/hostile-exponent-10k-digits"
  { printf '["'; repeat abcdefghij 99999; printf '"]'; } >"$dir/hostile-string-1mb"
  { printf '["'; repeat '\n\u00e9\ud83d\ude00\\\"' 20000; printf '"]'; } >"$dir/hostile-escapes"
  { printf '{"'; repeat kkkkkkkkkk 10000; printf '":1}'; } >"$dir/hostile-long-key"
  { printf '['; repeat '0,' 50000; printf '0]'; } >"$dir/hostile-tiny-values"
  { printf '["'; repeat aaaaaaaaaa 10000; } >"$dir/hostile-unterminated-string"
  { repeat '[' 1000; printf 'x'; repeat '[1,2],' 20000; } >"$dir/hostile-deep-error"
  { printf '['; yes x | head -n 100000; } >"$dir/hostile-many-errors"
}

# The regression inputs (tests/regressions/README.md): every input that
# once crashed, hung or made two readers disagree.
regression_seeds() {
  local dir=$1 f
  mkdir -p "$dir"
  for f in "$repo"/tests/regressions/*; do
    case $f in *.md) continue ;; esac
    [ -f "$f" ] && cp "$f" "$dir/regression-$(basename "$f")"
  done
}

# Seeds for one fuzz target, written into DIR.
fuzz_seeds() {
  local name=$1 dir=$2 i=0 line s d p
  mkdir -p "$dir"
  case $name in
    fuzz_number)
      for s in 0 -0 1 -1 0.1 1e5 1E-5 -0.0e+0 1.5.3 01 - 1. .5 1e 1e+ 18446744073709551615 \
               18446744073709551616 -9223372036854775808 -9223372036854775809 \
               2.2250738585072011e-308 4.9406564584124654e-324 2.4703282292062328e-324 \
               1.7976931348623157e308 1.7976931348623159e308 1e400 1e-400 NaN Infinity \
               -Infinity 1.00000005960464477550 123456789012345678901234567890e-10; do
        i=$((i + 1)); printf '%s' "$s" >"$dir/snippet-$i"
      done
      while IFS= read -r line; do
        i=$((i + 1)); printf '%s' "$line" >"$dir/number-$i"
      done < <(awk 'FNR % 97 == 1 && NF >= 4 { print $4 }' "$shared"/numbers/*.txt 2>/dev/null)
      # hostile: 10 000 digits in the integer, the fraction, the exponent
      repeat 1234567890 1000 >"$dir/hostile-digits"
      { printf '0.'; repeat 0000000000 999; printf 17; } >"$dir/hostile-fraction"
      { printf '1e-'; repeat 9999999999 1000; } >"$dir/hostile-exponent"
      ;;
    fuzz_print)
      # binary64 bits (little-endian) followed by binary32 bits
      while read -r d s; do
        i=$((i + 1)); printf '%b' "$(le_escapes "$d")$(le_escapes "$s")" >"$dir/bits-$i"
      done < <(awk 'FNR % 211 == 1 && NF >= 4 { print $3, $2 }' "$shared"/numbers/*.txt 2>/dev/null)
      printf '\0\0\0\0\0\0\0\0' >"$dir/zero"
      printf '\0\0\0\0\0\0\0\200\0\0\0\200' >"$dir/negzero"
      printf '\377\377\377\377\377\377\357\177\377\377\177\177' >"$dir/max"
      printf '\1\0\0\0\0\0\0\0\1\0\0\0' >"$dir/min"
      printf '\0\0\0\0\0\0\370\177\0\0\300\177' >"$dir/nan"
      ;;
    fuzz_pointer)
      for p in '' / /foo /foo/0 /foo/1 /foo/2 /foo/- /foo/01 /a~1b /m~0n /~0 /~1 '/~2' '/ ' \
               /n/0/1/x/11 /n/a/b/c/d/0 /arr/2//0/ '/i\j' '/k"l'; do
        i=$((i + 1)); printf '%s' "$p" >"$dir/pointer-$i"
      done
      printf '/0/2\n[1,[2,3,{"a":4}]]' >"$dir/doc-1"
      printf '/a/b\n{"a":{"b":null}}' >"$dir/doc-2"
      if [ -f "$shared/corpora/nostr_relay.ndjson" ]; then
        while IFS= read -r line; do
          i=$((i + 1)); printf '/2/tags/0/1\n%s' "$line" >"$dir/nostr-$i"
        done < <(head -n 3 "$shared/corpora/nostr_relay.ndjson")
      fi
      ;;
    fuzz_bind)
      json_seeds "$dir"
      # one document of each decoded shape (examples/schemas.h, tests/kitchen.h)
      printf '%s' '{"statuses":[{"id":1,"text":"t\u00e9","created_at":"c","retweet_count":2,'\
'"favorite_count":3,"user":{"id":4,"screen_name":"s","name":"n","followers_count":5,'\
'"friends_count":6,"verified":true},"entities":{"hashtags":[{"text":"h"}]}}]}' >"$dir/twitter-1"
      printf '%s' '{"user":{"id":1,"name":"A","email":"e","age":3,"active":true,"address":'\
'{"street":"s","city":"c","state":"st","zip":"z","country":"co"},"tags":["a"],"phone":null},'\
'"orders":[{"id":2,"items":[{"sku":"k","name":"n","quantity":1,"price":2.5}],"status":'\
'{"Shipped":{"trackingNumber":"t","carrier":"c"}}},{"id":3,"items":[],"status":{"Processing":'\
'{"estimatedDays":2}}}],"requestId":"r","timestamp":5}' >"$dir/api-1"
      printf '%s' '{"b":true,"i8":-1,"i16":2,"i32":3,"i64":4,"u8":5,"u16":6,"u32":7,"u64":8,'\
'"f32":0.5,"f64":1.5,"s":"s\n","sc":"c","fixed":"f","raw":[1,{}],"inner":{"name":"n","ok":true},'\
'"nums":[1],"words":["w"],"inners":[],"rows":[[1],[]],"triple":[1,2,3],"upto":[1.5],'\
'"color":"red","colors":["blue"],"map":{"k":1},"imap":{"x":{"ok":false,"name":""}},'\
'"status":"Pending","shape":{"h":2,"type":"rect","w":1},"cmd":["say","hi"],"pt":[1,2,"p"],'\
'"nul":3,"userName":"u","opt":1,"ratio":2}' >"$dir/kitchen-1"
      printf '%s' '[1,2,"p"]' >"$dir/point-1"
      ;;
    fuzz_patch)
      json_seeds "$dir"
      # DOC NUL PATCH NUL TARGET (fuzz/fuzz_patch.c): RFC 6902 and RFC 7386 examples
      while IFS='|' read -r d p s; do
        i=$((i + 1)); printf '%s\000%s\000%s' "$d" "$p" "$s" >"$dir/patch-$i"
      done <<'SEEDS'
{"foo":"bar"}|[{"op":"add","path":"/baz","value":"qux"}]|{"baz":"qux","foo":"bar"}
{"foo":["bar","baz"]}|[{"op":"add","path":"/foo/1","value":"qux"},{"op":"remove","path":"/foo/0"}]|{"foo":["qux"]}
{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}|[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]|{"foo":{"bar":"baz"}}
{"foo":["all","grass","cows","eat"]}|[{"op":"move","from":"/foo/1","path":"/foo/3"},{"op":"copy","from":"/foo","path":"/bar"}]|[1]
{"baz":"qux","foo":["a",2,"c"]}|[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2.0}]|{"baz":"qux"}
{"/":9,"~1":10}|[{"op":"test","path":"/~01","value":10},{"op":"replace","path":"/~1","value":null}]|{"/":9}
{"title":"Goodbye!","author":{"givenName":"John","familyName":"Doe"},"tags":["example","sample"]}|{"title":"Hello!","author":{"familyName":null},"tags":["example"]}|{"title":"Hello!","author":{"givenName":"John"},"tags":["example"],"phone":"+01"}
[1,2]|{"a":"b","c":null}|{"a":{"bb":{"ccc":1}}}
SEEDS
      ;;
    fuzz_diff)
      json_seeds "$dir"
      # A NUL B (fuzz/fuzz_diff.c)
      while IFS='|' read -r d p; do
        i=$((i + 1)); printf '%s\000%s' "$d" "$p" >"$dir/diff-$i"
      done <<'SEEDS'
{"a":1,"b":[1,2,3,4]}|{"a":2,"b":[1,2,9,3,4],"c":{}}
[1,2,3,4]|[1,4]
{"a/b":{"m~n":[true]},"x":null}|{"a/b":{"m~n":[false,true]}}
{"k":1,"k":2}|{"k":1}
[[1,[2]],{"z":0.0}]|[[1,[2,3]],{"z":-0.0}]
1|"one"
SEEDS
      ;;
    *)
      json_seeds "$dir"
      ;;
  esac
}

# le_escapes HEX: the bytes of a big-endian hex number, least significant
# first, as printf %b escapes (\0NNN).
le_escapes() {
  local h=$1 out=""
  while [ -n "$h" ]; do
    out="$out\\0$(printf '%03o' "0x${h: -2}")"
    h=${h:0:${#h}-2}
  done
  printf '%s' "$out"
}

# JSON seeds: the conformance suite's small files, the corpora (whole when
# small, the first 4 KiB otherwise; one file per ndjson line) and snippets.
json_seeds() {
  local dir=$1 f i=0
  local conf="$shared/conformance/JSONTestSuite/test_parsing"
  if [ -d "$conf" ]; then
    find "$conf" -type f -name '*.json' -size -16k -exec cp -t "$dir" {} +
  fi
  for f in "$shared"/corpora/*.json; do
    [ -f "$f" ] || continue
    if [ "$(wc -c <"$f")" -le 65536 ]; then
      cp "$f" "$dir/"
    else
      head -c 4096 "$f" >"$dir/head-$(basename "$f")"
    fi
  done
  if [ -f "$shared/corpora/nostr_relay.ndjson" ]; then
    split -l 1 -a 3 "$shared/corpora/nostr_relay.ndjson" "$dir/nostr-"
  fi
  for s in '{}' '[]' '""' 'null' 'true' '-0.0' '[1,2.5,-3e-7,"\u00e9\ud83d\ude00"]' \
           '{"a":{"b":[null,false,{"c":"\"\\\/\b\f\n\r\t"}]}}' '[[[[[[[[[[1]]]]]]]]]]' \
           '// c
[1, /* two */ 2,]' '[NaN, -Infinity]'; do
    i=$((i + 1)); printf '%s' "$s" >"$dir/snippet-$i"
  done
  printf '["\377\376", "\355\240\200"]' >"$dir/snippet-bad-utf8"
  hostile_seeds "$dir"
  regression_seeds "$dir"
}


if [ "$name" = hostile ]; then
  hostile_seeds "$dir"
else
  fuzz_seeds "$name" "$dir"
fi
