#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: the built-in default job: record a workload that replays Google's fleet-wide memcpy
# size distribution through an out-of-line copy function, then print the report.
# Usage: examples/demo.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
OUT=${2:-$ROOT/demo-out}
mkdir -p "$OUT"

echo "== copyprof record: 300,000 wl_copy calls sized like Google's fleet memcpy (fleetbench 2023)"
"$BUILD/copyprof" record --uprobe "$BUILD/tests/copyload:wl_copy" -o "$OUT/profile.json" -- \
	"$BUILD/tests/copyload" \
	dist="$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt":300000 \
	log="$OUT/calls-made.txt"
echo
echo "== copyprof report -i $OUT/profile.json"
"$BUILD/copyprof" report -i "$OUT/profile.json"
echo
echo "The workload's own log of the calls it made is $OUT/calls-made.txt; the profile must match it."
