#!/usr/bin/env bash
# query_vs_jq.sh [SIZE_MB] [JET] — `jet query` against jq on the same input,
# one process each, wall time by hyperfine (issue 20, point 6):
#   NDJSON of about SIZE_MB MB (default 100) built from the corpora's lines
#   (the statuses of twitter.json, the nostr messages), and one JSON document
#   of twice that size (an array of the same lines);
#   jet query -c --ndjson .id   against  jq -c .id   (NDJSON)
#   jet query -c '.[] | .id'    against  jq -c '.[] | .id'  (one document)
# Prints hyperfine's markdown table and the ratio jq / jet for each pair.
# JET is the tool (default build/jet); SHARED the data (default ../shared).
set -euo pipefail
size_mb=${1:-100}
root=$(cd "$(dirname "$0")/.." && pwd)
jet=${2:-$root/build/jet}
shared=${SHARED:-$root/../shared}
command -v hyperfine >/dev/null || { echo "$0: needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
command -v jq >/dev/null || { echo "$0: needs jq" >&2; exit 2; }
[ -x "$jet" ] || { echo "$0: no jet tool at $jet (make build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one copy of the lines, then repeated up to the size
"$jet" query -c '.statuses[]' "$shared/corpora/twitter.json" >"$tmp/lines"
sed -n 's/^\["EVENT","[^"]*",\(.*\)\]$/\1/p' "$shared/corpora/nostr_relay.ndjson" >>"$tmp/lines"
want=$((size_mb * 1024 * 1024))
: >"$tmp/in.ndjson"
while [ "$(stat -c %s "$tmp/in.ndjson")" -lt "$want" ]; do cat "$tmp/lines" >>"$tmp/in.ndjson"; done
# the single document: an array of the lines, twice over
{ echo '['; cat "$tmp/in.ndjson" "$tmp/in.ndjson" | sed '$!s/$/,/'; echo ']'; } >"$tmp/one.json"
for pair in "ndjson@-c --ndjson .id@-c .id@in.ndjson" "document@-c '.[] | .id'@-c '.[] | .id'@one.json"; do
  IFS='@' read -r name jet_args jq_args file <<<"$pair"
  echo "## $name ($(($(stat -c %s "$tmp/$file") / 1048576)) MB)"
  hyperfine --warmup 1 --runs 3 --export-markdown "$tmp/$name.md" --export-json "$tmp/$name.json" \
    "$jet query $jet_args $tmp/$file >/dev/null" "jq $jq_args $tmp/$file >/dev/null" >/dev/null
  cat "$tmp/$name.md"
  python3 - "$tmp/$name.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(f"\njq / jet: {r[1]['mean'] / r[0]['mean']:.1f}x\n")
PY
done
