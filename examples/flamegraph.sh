#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# flamegraph.sh: two flame graphs from checked-in data (no root, nothing measured):
#   1. the threshold view of an entry site with callers (tests/golden/profile-callers.json) on
#      the seed patch's Cooper Lake figures: where would REP MOVSB from 512 bytes save time?
#   2. the stacks of import-perf's golden perf script (btrfs/zstd kworkers, read_zero, C++).
# The SVGs land in OUT_DIR (default examples/flamegraph-out, checked in: a rerun gives the same
# bytes); the output, each frame's tooltip, is examples/flamegraph.txt.
# Usage: examples/flamegraph.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CP=$ROOT/${1:-build}/copyprof
OUT=${2:-$ROOT/examples/flamegraph-out}
mkdir -p "$OUT"
cd "$ROOT"

# The tooltip of every frame, in the order drawn (root first, then depth-first).
tooltips() {
	xmllint --xpath "//*[local-name()='g'][@class='f']/*[local-name()='title']/text()" "$1" |
		paste -d ' ' - - | sed 's/^/  /; s/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&apos;/'"'"'/g; s/&amp;/\&/g'
}

echo "== copyprof flamegraph -i profile-callers.json -m cooperlake-8321hc-seed.json --threshold 512"
"$CP" flamegraph -i tests/golden/profile-callers.json \
	-m examples/costmodels/cooperlake-8321hc-seed.json --threshold 512 -o "$OUT/threshold-512.svg" 2>&1 |
	sed "s|$OUT/||"
tooltips "$OUT/threshold-512.svg"
echo
echo "== copyprof import-perf --script perf-script-fixture.txt; copyprof flamegraph (its stacks)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CP" import-perf --script tests/golden/perf-script-fixture.txt --no-kernel-text -o "$tmp/perf.json" \
	2>/dev/null
"$CP" flamegraph -i "$tmp/perf.json" --title "Copy samples by stack: perf-script-fixture.txt" \
	-o "$OUT/stacks.svg" 2>&1 | sed "s|$OUT/||"
tooltips "$OUT/stacks.svg"
echo
echo "open ${OUT#"$ROOT"/}/*.svg in a browser: hover, click to zoom, Search (or add #search=memcpy to the URL)"
