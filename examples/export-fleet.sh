#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# export-fleet.sh: merge three recordings of two CPUs (the golden profiles), then export the
# merge for a fleet profiler (pprof) and for Prometheus (OpenMetrics). Needs no root; shows
# the pprof view when Go's pprof is installed (scripts/deps.sh installs it). The output is
# examples/export-fleet.txt.
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
echo "== copyprof export -f openmetrics: the seeds' thresholds, +Inf, _count and _sum per site"
"$CP" export -i fleet.json -f openmetrics -o fleet.om 2>&1 | sed "s|$OUT/||"
grep -E '^#|le="(31.0|1023.0|4095.0|\+Inf)"|_count|_sum|duration' fleet.om |
	sed 's/,offset="0x[0-9a-f]*",target="[^"]*",mechanism="[a-z]*",kernel="[^"]*"//'
