#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# glibc-threshold.sh: the user-space question, glibc's x86_rep_movsb_threshold, on a program
# of ours (tests/workload/glibc_knob.c) that copies service A's memcpy mix from Google's fleet
# (examples/data/fleetbench-2023/MemcpyGoogleA.txt) through glibc's memcpy. With --record,
# copyprof names the implementation glibc picks on this machine, records the program's calls
# with a uprobe on it, measures a cost model and the mix itself on this CPU, and keeps both in
# examples/data/glibc-threshold/ (root for the uprobe; libc6-dbg for glibc's names). Without
# it, the estimate of every threshold glibc accepts, today's included, from the kept profile
# and cost model (it times nothing: the output is examples/glibc-threshold.txt, which
# tests/cli/t0004-examples.sh compares), with the GLIBC_TUNABLES line to ship, and the command
# that checks the answer on the program itself, copyprof verify (it measures: not run here).
# Usage: examples/glibc-threshold.sh [BUILD_DIR]
#        examples/glibc-threshold.sh --record [BUILD_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
rec=
[[ ${1:-} == --record ]] && { rec=1; shift; }
B=${1:-build}
CP=$B/copyprof
DATA=examples/data/glibc-threshold
MIX=examples/data/fleetbench-2023/MemcpyGoogleA.txt

if [ -n "$rec" ]; then
	make OUTPUT="$B" "$B/copyprof" "$B/tests/glibc_knob" > /dev/null
	LIBC=$(ldd "$B/tests/glibc_knob" | awk '$1 == "libc.so.6" { print $3 }')
	"$CP" record --uprobe "$LIBC:memcpy" -d 0.1 -o /dev/null 2> "$DATA.ifunc.txt" || true
	impl=$(sed -n 's/.*Probe that: copyprof record --uprobe \([^ ]*\) (docs.*/\1/p' "$DATA.ifunc.txt")
	rm -f "$DATA.ifunc.txt"
	[ -n "$impl" ] || { echo "glibc-threshold: no implementation name (install libc6-dbg)" >&2; exit 1; }
	mkdir -p "$DATA"
	"$CP" record --uprobe "$impl" -o "$DATA/app.json" -- "$B/tests/glibc_knob" dist="$MIX" \
		calls=200000 > /dev/null
	"$CP" calibrate --quick --impl memmove -o "$DATA/cm.json" > /dev/null
	"$CP" calibrate -i "$DATA/cm.json" --mix "$DATA/app.json" -o "$DATA/cm.json" > /dev/null
fi

echo "== the recorded process: glibc's code and threshold (copyprof record --uprobe on it)"
jq -r '.sites[0] | "\(.target):\(.symbol), \(.calls) calls"' "$DATA/app.json"
jq -c '.meta.glibc | {tunables, rep_movsb_threshold}' "$DATA/app.json"
echo
echo "== copyprof estimate -i $DATA/app.json -m $DATA/cm.json"
"$CP" estimate -i "$DATA/app.json" -m "$DATA/cm.json"
echo
echo "== the program itself, with and without the threshold (measures: run it on the CPU to check)"
echo "copyprof verify -i $DATA/app.json -m $DATA/cm.json -- $(jq -r .meta.command "$DATA/app.json")"
