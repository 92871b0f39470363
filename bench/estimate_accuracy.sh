#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# estimate_accuracy.sh: how well `estimate` predicts what `estimate --validate` measures, per copy
# family (memcpy, memmove, clear_user, memset) on three synthetic distributions, and for memcpy
# also on the uprobe workload's recorded profile, with a fresh cost model; the pure model
# (--no-mix-correction), the mix correction alone (--no-neighbour-correction) and both side by
# side, predicted vs measured per T.
# Usage: bench/estimate_accuracy.sh [BUILD_DIR] [OUT_DIR]   (root, for the uprobe recording)
#   FAMILIES="memcpy memset"  only these families (default: all four)
#   QUICK=1                   calibrate --quick and no uprobe recording: a check that every path
#                             runs, not a measurement
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
OUT=${2:-${TMPDIR:-/tmp}/copyprof-estimate-accuracy}
CP=$BUILD/copyprof
FAMILIES=${FAMILIES:-memcpy memmove clear_user memset}
QUICK=${QUICK:-0}
mkdir -p "$OUT"
cd "$OUT"

# One cost model for every family: their loops, string ops, memcpy's dispatch replica and
# whatever this machine runs today (all replicas; warm, default sizes unless QUICK).
CM=cm-all.json
[ "$QUICK" = 1 ] && CM=cm-all-quick.json
if [ ! -s "$CM" ]; then
	echo "== calibrate: every replica (warm$([ "$QUICK" = 1 ] && echo ", --quick"))"
	"$CP" calibrate --impl all --cache warm $([ "$QUICK" = 1 ] && echo --quick) -o "$CM"
fi

inputs_memcpy=()
if [ "$QUICK" != 1 ] && [[ " $FAMILIES " == *" memcpy "* ]]; then
	echo "== record the uprobe test workload (as tests/cli/t0010-uprobe-exact.sh)"
	DIST=$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt
	[ -s uprobe.json ] || "$CP" record --uprobe "$BUILD/tests/copyload:wl_copy" -o uprobe.json -- \
		"$BUILD/tests/copyload" copy=4096:200000 copy=7:5 copy=2048:3@1 copy=0:2 copy=63:11 \
		copy=64:13 copy=100000:17@9 dist="$DIST":20000 > /dev/null
	inputs_memcpy=(uprobe.json)
fi
# A real kernel profile: `record -p btrfs` in a Debian 6.12 guest while a zstd btrfs file was
# read back (examples/btrfs-zstd-guest.sh; today's code there is memcpy_orig).
if [[ " $FAMILIES " == *" memcpy "* ]]; then
	cp "$ROOT/tests/golden/profile-btrfs-zstd-6.12.json" btrfs-zstd.json
	inputs_memcpy+=(btrfs-zstd.json)
fi

# Three synthetic distributions (size,count), read as each family's lengths.
awk 'BEGIN { for (s = 1; s <= 256; s++) printf "%d,%d\n", s, 2000 / s + 10; print "1024,50"; print "4096,5" }' \
	> small.csv
printf '4096,9000\n2048,500\n512,300\n64,200\n' > 4k.csv
printf '16,5000\n24,3000\n8192,400\n16384,100\n' > bimodal.csv

# Each family and input: the pure model (--no-mix-correction) and the corrected one predicted
# from the same cost model, against one measurement (--validate), in one run.
printf '%-10s %-10s %-7s %10s %10s %10s %10s %9s %9s %9s\n' family input T pure mix predicted \
	measured "rel pure" "rel mix" relative > summary.txt
: > best.txt
for fam in $FAMILIES; do
	inputs=(small.csv 4k.csv bimodal.csv)
	[ "$fam" = memcpy ] && inputs=("${inputs_memcpy[@]}" "${inputs[@]}")
	for in in "${inputs[@]}"; do
		case $in in *.json) src=(-i "$in") mixsrc=(--mix "$in") ;;
			*) src=(--hist "$in") mixsrc=(--hist "$in") ;; esac
		base=$fam.${in%.*}
		# estimate times nothing: the corrections for this mix are measured into the model.
		echo "== $fam: calibrate -i $CM ${mixsrc[*]} (the mix and neighbour corrections)"
		"$CP" calibrate -i "$CM" "${mixsrc[@]}" --family "$fam" -o "$CM"
		echo "== $fam: estimate --validate $in"
		"$CP" estimate "${src[@]}" -m "$CM" --family "$fam" --validate --json > "$base.est.json"
		"$CP" estimate "${src[@]}" -m "$CM" --family "$fam" --no-mix-correction --json \
			> "$base.pure.json"
		"$CP" estimate "${src[@]}" -m "$CM" --family "$fam" --no-neighbour-correction \
			--json > "$base.mix.json"
		jq -r -n --arg fam "$fam" --arg in "${in%.*}" --slurpfile e "$base.est.json" \
			--slurpfile p "$base.pure.json" --slurpfile x "$base.mix.json" '
			def rel($x; $m): if ($m | fabs) > 5 then (($x - $m) / $m | fabs * 100
				| tostring) + "%" else "-" end;
			$e[0].inputs[0].families[0] as $f | $p[0].inputs[0].families[0] as $g
			| $x[0].inputs[0].families[0] as $h
			| range($f.policies | length) as $i | $f.policies[$i]
			| select(has("measured_pct"))
			| [$fam, $in, .name, $g.policies[$i].delta_pct, $h.policies[$i].delta_pct,
			   .delta_pct, .measured_pct, rel($g.policies[$i].delta_pct; .measured_pct),
			   rel($h.policies[$i].delta_pct; .measured_pct), rel(.delta_pct; .measured_pct)]
			| @tsv' |
			awk -F'\t' 'function r(x) { return x == "-" ? "-" : sprintf("%.1f%%", x) }
				{ printf "%-10s %-10s %-7s %+10.2f %+10.2f %+10.2f %+10.2f %9s %9s %9s\n",
				  $1, $2, $3, $4, $5, $6, $7, r($8), r($9), r($10) }' >> summary.txt
		jq -r -n --arg fam "$fam" --arg in "${in%.*}" --slurpfile e "$base.est.json" \
			--slurpfile p "$base.pure.json" '
			$e[0].inputs[0].families[0] as $f | $f.mix_correction as $x
			| ([$f.policies[] | select(.kind == "threshold" and has("measured_pct"))]
			   | min_by(.measured_pct).name) as $m
			| [$x.impls[]? | "\(.impl) \(.penalty_ns)"
			   + (if (.class_penalty_ns | length) > 1
			      then " [" + (.class_penalty_ns | map(tostring) | join(" ")) + "]"
			      else "" end)] as $pen
			| [$x.split.thresholds[]? | "T=\(.t) \(.split_ns)"] as $split
			| "\($fam) \($in): today \($f.today.impl); best T pure "
			  + "\($p[0].inputs[0].families[0].best.name), predicted \($f.best.name), "
			  + "measured \($m) (same optimum: \($f.validation.best_same), noise floor "
			  + "\($f.validation.noise_floor_pct) points); mix penalties (ns/call, by class "
			  + "\([$x.classes[]? | "\(.lo)-\(.hi - 1)"] | join(" "))): "
			  + "\($pen | join(", ")); split: \($split | join(", "))"' >> best.txt
	done
done
# Per family and input: rows whose measured effect exceeds 5%, and how many of them the
# prediction (both corrections), the mix correction alone and the pure model got within 10%.
awk 'NR > 1 && $10 != "-" { k = $1 " " $2; n[k]++; m[k] += $9 + 0 <= 10; c[k] += $10 + 0 <= 10
	p[k] += $8 + 0 <= 10; if ($10 + 0 > w[k]) w[k] = $10 + 0 }
	END { for (k in n) printf "%-22s rows %2d within 10%%: pure %2d, mix %2d, both %2d; max %.1f%%\n",
	      k, n[k], p[k], m[k], c[k], w[k] }' summary.txt | sort > within.txt
cat summary.txt best.txt within.txt
