#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# estimate_accuracy.sh: how well `estimate` predicts what `estimate --validate` measures, on the
# uprobe workload's recorded profile and on three synthetic distributions, with a fresh cost model;
# the pure model (--no-mix-correction) and the mix-corrected one side by side.
# Usage: bench/estimate_accuracy.sh [BUILD_DIR] [OUT_DIR]   (root, for the uprobe recording)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
OUT=${2:-${TMPDIR:-/tmp}/copyprof-estimate-accuracy}
CP=$BUILD/copyprof
mkdir -p "$OUT"
cd "$OUT"

echo "== calibrate: memcpy_orig, movsb, erms_threshold (warm, default sizes)"
[ -s cm.json ] || "$CP" calibrate --impl memcpy_orig,movsb,erms_threshold --cache warm -o cm.json

echo "== record the uprobe test workload (as tests/cli/t0010-uprobe-exact.sh)"
DIST=$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt
[ -s uprobe.json ] || "$CP" record --uprobe "$BUILD/tests/copyload:wl_copy" -o uprobe.json -- \
	"$BUILD/tests/copyload" copy=4096:200000 copy=7:5 copy=2048:3@1 copy=0:2 copy=63:11 \
	copy=64:13 copy=100000:17@9 dist="$DIST":20000 > /dev/null

# Three synthetic distributions (size,count).
awk 'BEGIN { for (s = 1; s <= 256; s++) printf "%d,%d\n", s, 2000 / s + 10; print "1024,50"; print "4096,5" }' \
	> small.csv
printf '4096,9000\n2048,500\n512,300\n64,200\n' > 4k.csv
printf '16,5000\n24,3000\n8192,400\n16384,100\n' > bimodal.csv

# Each input: the pure model (--no-mix-correction) and the corrected one predicted from the same
# cost model, against one measurement (--validate), in one run.
printf '%-10s %-7s %10s %10s %10s %9s %9s\n' input T pure predicted measured "rel pure" relative \
	> summary.txt
: > best.txt
for in in uprobe.json small.csv 4k.csv bimodal.csv; do
	case $in in *.json) src=(-i "$in") ;; *) src=(--hist "$in") ;; esac
	echo "== estimate --validate $in"
	"$CP" estimate "${src[@]}" -m cm.json --family memcpy --validate --json > "${in%.*}.est.json"
	"$CP" estimate "${src[@]}" -m cm.json --family memcpy --no-mix-correction --json \
		> "${in%.*}.pure.json"
	jq -r -n --arg in "${in%.*}" --slurpfile e "${in%.*}.est.json" \
		--slurpfile p "${in%.*}.pure.json" '
		def rel($x; $m): if ($m | fabs) > 5 then (($x - $m) / $m | fabs * 100
			| tostring) + "%" else "-" end;
		$e[0].inputs[0].families[0] as $f | $p[0].inputs[0].families[0] as $g
		| range($f.policies | length) as $i | $f.policies[$i] | select(has("measured_pct"))
		| [$in, .name, $g.policies[$i].delta_pct, .delta_pct, .measured_pct,
		   rel($g.policies[$i].delta_pct; .measured_pct), rel(.delta_pct; .measured_pct)]
		| @tsv' |
		awk -F'\t' 'function r(x) { return x == "-" ? "-" : sprintf("%.1f%%", x) }
			{ printf "%-10s %-7s %+10.2f %+10.2f %+10.2f %9s %9s\n", $1, $2, $3, $4, $5,
			  r($6), r($7) }' >> summary.txt
	jq -r -n --arg in "${in%.*}" --slurpfile e "${in%.*}.est.json" \
		--slurpfile p "${in%.*}.pure.json" '
		$e[0].inputs[0].families[0] as $f
		| ([$f.policies[] | select(.kind == "threshold" and has("measured_pct"))]
		   | min_by(.measured_pct).name) as $m
		| [$f.mix_correction.impls[]? | "\(.impl) \(.penalty_ns)"] as $pen
		| "\($in): best T pure \($p[0].inputs[0].families[0].best.name), predicted "
		  + "\($f.best.name), measured \($m); mix penalties (ns/call): \($pen | join(", "))"' \
		>> best.txt
done
cat summary.txt best.txt
