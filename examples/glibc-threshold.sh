#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# glibc-threshold.sh: the user-space question, glibc's x86_rep_movsb_threshold, on a program
# of ours (tests/workload/glibc_knob.c) that copies service A's memcpy mix from Google's fleet
# (examples/data/fleetbench-2023/MemcpyGoogleA.txt) through glibc's memcpy. copyprof names the
# implementation glibc picks here, records the program's calls with a uprobe on it, measures a
# cost model and the mix itself on this CPU, and estimates every threshold glibc accepts,
# today's included; the answer comes with the GLIBC_TUNABLES line to ship. Root (uprobes) and
# libc6-dbg (glibc's implementation names). The output is examples/glibc-threshold.txt.
# Usage: examples/glibc-threshold.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
CP=$ROOT/$B/copyprof
WL=$ROOT/$B/tests/glibc_knob
OUT=${2:-${TMPDIR:-/tmp}/copyprof-glibc-threshold}
make -C "$ROOT" OUTPUT="$B" "$B/copyprof" "$B/tests/glibc_knob" > /dev/null
mkdir -p "$OUT"
cd "$OUT"
LIBC=$(ldd "$WL" | awk '$1 == "libc.so.6" { print $3 }')

echo "== which code glibc's memcpy runs here"
"$CP" record --uprobe "$LIBC:memcpy" -d 0.1 -o none.json 2> ifunc.txt || true
sed 's/; /;\n  /g' ifunc.txt
impl=$(sed -n 's/.*Probe that: copyprof record --uprobe \([^ ]*\) (docs.*/\1/p' ifunc.txt)
[ -n "$impl" ] || { echo "glibc-threshold: no implementation name (install libc6-dbg)" >&2; exit 1; }

echo
echo "== copyprof record --uprobe ${impl##*/} -- glibc_knob (200,000 calls of service A's mix)"
"$CP" record --uprobe "$impl" -o app.json -- "$WL" \
	dist="$ROOT/examples/data/fleetbench-2023/MemcpyGoogleA.txt" calls=200000 > /dev/null
jq -c '.meta.glibc | {tunables, rep_movsb_threshold}' app.json

echo
echo "== copyprof calibrate --quick --impl memmove; calibrate --mix app.json"
"$CP" calibrate --quick --impl memmove -o cm.json > /dev/null 2> cal.txt
"$CP" calibrate -i cm.json --mix app.json --mix-budget 5 -o cm.json > /dev/null 2> mix.txt
grep -E 'rounds|wrote' mix.txt | sed 's/^/  /'

echo
echo "== copyprof estimate -i app.json -m cm.json"
"$CP" estimate -i app.json -m cm.json
