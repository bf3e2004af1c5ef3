#!/usr/bin/env bash
# jq_compare.sh — wall time of the jet tool against jq on the everyday jobs
# (issue 20 point 6), with hyperfine: one process per run, both in the same
# run, on ~100 MB of NDJSON and on a ~200 MB single document generated
# from the shared corpora in a temporary directory. Prints a Markdown table.
#
#   bench/jq_compare.sh [--jet PATH] [--ndjson-mb N] [--doc-mb N] [--runs N]
#
#   --jet PATH       the jet tool (default: build/jet)
#   --ndjson-mb N    size of the NDJSON input (default 100)
#   --doc-mb N       size of the single document (default 200)
#   --runs N         hyperfine runs per command (default 3)
#   --corpora DIR    the corpora (default: $JET_SHARED_DIR/corpora or ../shared/corpora)
#
# The NDJSON lines are the elements of twitter's statuses, citm_catalog's
# performances and github_events, each minified on a line, and the nostr
# relay messages, repeated to the size; the single document is the same
# records as one array. Rows: jet fmt --minify --ndjson vs jq -c .,
# jet validate --ndjson vs jq empty, jet query -c --ndjson .id? vs
# jq -c '.id?' (the query rows only when this jet has `query`), then the
# same three on the single document. Needs hyperfine and jq
# (scripts/deps.sh installs them with the bench dependencies).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
jet=$root/build/jet
ndjson_mb=100
doc_mb=200
runs=3
corpora=${JET_SHARED_DIR:-$root/../shared}/corpora
while [ $# -gt 0 ]; do
  case $1 in
    --jet) jet=$2; shift 2 ;;
    --ndjson-mb) ndjson_mb=$2; shift 2 ;;
    --doc-mb) doc_mb=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --corpora) corpora=$2; shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "jq_compare.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
for tool in hyperfine jq; do
  command -v "$tool" >/dev/null || { echo "jq_compare.sh: $tool is not installed (scripts/deps.sh)" >&2; exit 2; }
done
[ -x "$jet" ] || { echo "jq_compare.sh: no jet tool at $jet (make build)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One record per line: the pool, then repeated to the sizes.
{
  jq -c '.statuses[]' "$corpora/twitter.json"
  jq -c '.performances[]' "$corpora/citm_catalog.json"
  jq -c '.[]' "$corpora/github_events.json"
  grep -v '^[[:space:]]*$' "$corpora/nostr_relay.ndjson"
} >"$tmp/pool.ndjson"
repeat_to() { # FILE BYTES -> stdout
  local n=0 size
  size=$(wc -c <"$1")
  while [ $n -lt "$2" ]; do cat "$1"; n=$((n + size)); done
}
repeat_to "$tmp/pool.ndjson" $((ndjson_mb << 20)) >"$tmp/in.ndjson"
repeat_to "$tmp/pool.ndjson" $((doc_mb << 20)) | { printf '['; sed '$!s/$/,/'; printf ']\n'; } >"$tmp/doc.json"
jet_has_query=false
"$jet" query --help >/dev/null 2>&1 && jet_has_query=true

rows=()
# compare NAME JET_CMD JQ_CMD
compare() {
  local name=$1 out=$tmp/r.json
  hyperfine --runs "$runs" --warmup 1 --style none --export-json "$out" \
    -n jet "$2" -n jq "$3" >/dev/null 2>&1 || { rows+=("| $name | failed | failed | |"); return; }
  local t_jet t_jq
  t_jet=$(jq '.results[0].mean' "$out")
  t_jq=$(jq '.results[1].mean' "$out")
  rows+=("$(awk -v n="$name" -v a="$t_jet" -v b="$t_jq" \
    'BEGIN { printf "| %s | %.3f s | %.3f s | %.1fx |", n, a, b, b / a }')")
}

nd=$tmp/in.ndjson
doc=$tmp/doc.json
compare "fmt --minify --ndjson vs jq -c . (NDJSON)" "'$jet' fmt --minify --ndjson '$nd'" "jq -c . '$nd'"
compare "validate --ndjson vs jq empty (NDJSON)" "'$jet' validate --ndjson '$nd'" "jq empty '$nd'"
if $jet_has_query; then
  compare "query -c --ndjson .id? vs jq -c .id? (NDJSON)" "'$jet' query -c --ndjson '.id?' '$nd'" "jq -c '.id?' '$nd'"
fi
compare "fmt --minify vs jq -c . (one document)" "'$jet' fmt --minify '$doc'" "jq -c . '$doc'"
compare "validate vs jq empty (one document)" "'$jet' validate '$doc'" "jq empty '$doc'"
if $jet_has_query; then
  compare "query -c '.[1000].id' vs jq (one document)" "'$jet' query -c '.[1000].id' '$doc'" "jq -c '.[1000].id' '$doc'"
fi

echo "jet vs jq $(jq --version): $(wc -c <"$nd") bytes of NDJSON ($(wc -l <"$nd") documents), a $(wc -c <"$doc")-byte document; hyperfine, $runs runs each, mean wall time; $(nproc) CPUs"
echo
echo "| task | jet | jq | jq / jet |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
$jet_has_query || echo "
(no query rows: this jet has no \`query\` command yet)"
