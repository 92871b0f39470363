#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# export-fleet.sh: merge three recordings of two CPUs (the golden profiles), then export the
# merge for a fleet profiler (pprof) and for Prometheus (OpenMetrics, sparse and dense). Needs
# no root; shows the pprof view when Go's pprof is installed (scripts/deps.sh installs it). The
# output is examples/export-fleet.txt.
# Usage: examples/export-fleet.sh [BUILD_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CP=$ROOT/${1:-build}/copyprof
G=$ROOT/tests/golden
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
cd "$OUT"

echo "== copyprof merge: host-a's two recordings (Synthetic CPU) and clx1's (Cooper Lake)"
"$CP" merge -o fleet.json "$G/profile-synthetic.json" "$G/profile-callers.json" \
	"$G/profile-4k-cooperlake.json"
echo
echo "== copyprof export -f pprof"
"$CP" export -i fleet.json -f pprof -o fleet.pb.gz 2>&1 | sed "s|$OUT/||"
if command -v go >/dev/null && HOME=$OUT go tool pprof -h >/dev/null 2>&1; then
	echo
	echo "== go tool pprof -top -cum: calls by function and length (flat: the length buckets)"
	HOME=$OUT go tool pprof -symbolize=none -top -cum -nodefraction=0 fleet.pb.gz 2>/dev/null |
		sed -n '/flat%/,$p'
	echo
	echo "== go tool pprof -tags -tagfocus=len_min=1024B: calls of 1 KiB and more, by CPU"
	HOME=$OUT go tool pprof -symbolize=none -tags -tagignore=len_max -tagfocus=len_min=1024B: \
		-sample_index=calls fleet.pb.gz 2>/dev/null | sed -n '/^ cpu_model:/,/^$/p'
fi
echo
echo "== copyprof export -f openmetrics: each site's non-empty ranges, +Inf, _count and _sum by"
echo "   site, CPU and host; what each site is, once, in copyprof_site_info"
"$CP" export -i fleet.json -f openmetrics -o fleet.om 2>&1 | sed "s|$OUT/||"
cat fleet.om
echo
echo "== --buckets dense: every bound from a site's first non-empty one, for sum by (le) over"
echo "   hosts (site 1's buckets, le=count)"
"$CP" export -i fleet.json -f openmetrics --buckets dense -o dense.om 2>&1 | sed "s|$OUT/||"
grep '_bucket{site="1",' dense.om | sed 's/.*le="\([^"]*\)"} /\1=/' | paste -sd' ' |
	fold -s -w 96 | sed 's/ *$//'
