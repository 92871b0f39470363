#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# estimate_repeat.sh: does the answer repeat? N (default 5) independent runs, each a new
# process and a new cost model: `calibrate --quick --mix/--hist` (this CPU's curves, then each
# input's own mix measured paired), then `estimate` on each input. Per input and run: the
# verdict, the best policy and its change with the 95% interval, the quiet rounds; then whether
# the verdict repeats N/N, the best's spread across runs, and whether each run's interval covers
# every other run's point estimate (docs/benchmarks.md#the-estimate-repeats-benchestimate_repeatsh).
# Usage: bench/estimate_repeat.sh [BUILD_DIR] [OUT_DIR]
#   N=5 runs; INPUTS="..." to choose (default: the golden btrfs-zstd profile, Google's fleet
#   memcpy, service A's memcpy and the fleet memset mix); MIX_BUDGET=10 seconds per family
#   (calibrate's default); SITTINGS=1 sittings of each mix per run (2: each input measured
#   again into the run's model after the others and a pause of GAP=60 seconds, and estimate
#   pools them: docs/estimate.md#sittings). What `calibrate --sittings N --sitting-gap GAP`
#   does for one input; here the inputs take turns, so each waits GAP and the others' turns.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof
OUT=${2:-${TMPDIR:-/tmp}/copyprof-estimate-repeat}
N=${N:-5}
MIX_BUDGET=${MIX_BUDGET:-10}
SITTINGS=${SITTINGS:-1}
GAP=${GAP:-60}
CP=$BUILD/copyprof
D=$ROOT/examples/data/fleetbench-2023
INPUTS=${INPUTS:-"profile:$ROOT/tests/golden/profile-btrfs-zstd-6.12.json:memcpy hist:$D/MemcpyGoogleFleet.txt:memcpy hist:$D/MemcpyGoogleA.txt:memcpy hist:$D/MemsetGoogleFleet.txt:memset"}
command -v jq > /dev/null || { echo "estimate_repeat: needs jq" >&2; exit 1; }
[ -x "$CP" ] || make -C "$ROOT" OUTPUT="${1:-build}" "${1:-build}/copyprof" > /dev/null
mkdir -p "$OUT"
cd "$OUT"

printf 'sittings per run: %s (%s s apart at least), budget %s s\n' "$SITTINGS" "$GAP" "$MIX_BUDGET"
printf 'machine: %s, %s CPUs, load average at start %s\n\n' \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
# The arguments that name input $1 (kind:path:family) to calibrate and estimate.
args() {
	local kind=${1%%:*} rest=${1#*:} path fam
	path=${rest%:*}
	fam=${rest##*:}
	if [ "$kind" = profile ]; then echo "--mix $path --family $fam"; else echo "--hist $path --family $fam"; fi
}
est_args() { args "$1" | sed 's/--mix /-i /'; }

for i in $(seq 1 "$N"); do
	mix=()
	for in in $INPUTS; do read -ra a <<< "$(args "$in")"; mix+=("${a[@]}"); done
	s0=$(date +%s.%N)
	"$CP" calibrate --quick -o "cm$i.json" 2> "cal$i.log" > /dev/null
	s1=$(date +%s.%N)
	for s in $(seq 1 "$SITTINGS"); do
		[ "$s" -gt 1 ] && sleep "$GAP"
		for in in $INPUTS; do
			read -ra a <<< "$(args "$in")"
			"$CP" calibrate -i "cm$i.json" "${a[@]}" --mix-budget "$MIX_BUDGET" \
				-o "cm$i.json" 2>> "mix$i.log" > /dev/null
		done
	done
	k=0
	for in in $INPUTS; do
		read -ra e <<< "$(est_args "$in")"
		"$CP" estimate "${e[@]}" -m "cm$i.json" --json > "est$i.$k.json"
		k=$((k + 1))
	done
	s2=$(date +%s.%N)
	printf 'run %d: calibrate --quick %.0f s, the mixes %.0f s, load %s\n' "$i" \
		"$(echo "$s1 - $s0" | bc)" "$(echo "$s2 - $s1" | bc)" "$(cut -d' ' -f1 /proc/loadavg)"
done
echo
F='.inputs[0].families[0]'
k=0
for in in $INPUTS; do
	printf '%s\n' "${in#*:}"
	printf '  %-3s %-14s %-8s %9s  %-17s %6s\n' run verdict best "best %" "95% CI" quiet
	for i in $(seq 1 "$N"); do
		jq -r "$F | [\"$i\", .verdict.kind, .best.name, (.best.delta_pct | tostring),
			\"\(.best.ci_low) .. \(.best.ci_high)\", (.measurement.quiet_rounds | tostring)] |
			@tsv" "est$i.$k.json" | awk -F'\t' '{ printf "  %-3s %-14s %-8s %9.2f  %-17s %6s\n", $1, $2, $3, $4, $5, $6 }'
	done
	kinds=$(for i in $(seq 1 "$N"); do jq -r "$F.verdict | \"\(.kind) \(.policy)\"" "est$i.$k.json"; done | sort -u | wc -l)
	# The best of run 1's policy, as every run measured it: its spread, and the intervals. When
	# the best is today's code (0 by definition), run 1's cheapest row that runs other code.
	pol=$(jq -r "$F.best.name" "est1.$k.json")
	[ "$pol" = today ] && pol=$(jq -r "[$F.policies[] | select(.name != \"oracle\" and (.ci_low != 0 or .ci_high != 0))] |
		min_by(.delta_pct) | .name" "est1.$k.json")
	for i in $(seq 1 "$N"); do
		jq -r --arg p "$pol" "$F.policies[] | select(.name == \$p) | \"\(.delta_pct) \(.ci_low) \(.ci_high)\"" "est$i.$k.json"
	done > pol.txt
	awk -v n="$N" -v p="$pol" -v same="$([ "$kinds" -eq 1 ] && echo yes || echo no)" '
		{ d[NR] = $1; lo[NR] = $2; hi[NR] = $3 }
		END { mn = d[1]; mx = d[1]
			for (i = 1; i <= NR; i++) { if (d[i] < mn) mn = d[i]; if (d[i] > mx) mx = d[i] }
			cover = 0; pairs = 0
			for (i = 1; i <= NR; i++) for (j = 1; j <= NR; j++) if (i != j) {
				pairs++; if (d[j] >= lo[i] - 1e-9 && d[j] <= hi[i] + 1e-9) cover++ }
			printf "  same verdict %d/%d: %s; %s across runs %.2f .. %.2f (within +-%.2f points of their middle); intervals covering the other runs: %d of %d\n\n",
				n, n, same, p, mn, mx, (mx - mn) / 2, cover, pairs }' pol.txt
	k=$((k + 1))
done
