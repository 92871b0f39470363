#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# estimate_repeat.sh: does the answer repeat? 5 independent `calibrate --quick` runs (each a new
# process, a new cost model), each followed by `calibrate -i --mix` (the corrections for the
# profile's mix) and `estimate` on the same profile: the verdict of each, the best T's change,
# calibrate --quick's time and its per-point figures at >= 256 B (median over points of the 95%
# interval's half-width, and of the spread between runs, (max - min) / median).
# Usage: bench/estimate_repeat.sh [BUILD_DIR] [PROFILE] [OUT_DIR]
#   PROFILE defaults to tests/golden/profile-btrfs-zstd-6.12.json (the main job's kind of
#   profile: btrfs reading zstd data, kprobes at its memcpy call sites); N=5 runs.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
PROFILE=$(realpath "${2:-$ROOT/tests/golden/profile-btrfs-zstd-6.12.json}")
OUT=${3:-${TMPDIR:-/tmp}/copyprof-estimate-repeat}
N=${N:-5}
CP=$BUILD/copyprof
command -v jq > /dev/null || { echo "estimate_repeat: needs jq" >&2; exit 1; }
mkdir -p "$OUT"
cd "$OUT"
F='.inputs[0].families[] | select(.family == "memcpy")'

printf 'machine: %s, %s CPUs, load average at start %s\n' \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'profile: %s\n\n' "$PROFILE"
printf '%-3s %8s %8s %9s %9s %8s  %-16s %-8s %9s  %s\n' run "cal s" "mix s" "ci50 %" "spr50 %" \
	"noisy" verdict best "best %" "95% CI"
for i in $(seq 1 "$N"); do
	s0=$(date +%s.%N)
	"$CP" calibrate --quick -o "cm$i.json" 2> "cal$i.log" > /dev/null
	s1=$(date +%s.%N)
	"$CP" calibrate -i "cm$i.json" --mix "$PROFILE" --family memcpy -o "cm$i.json" \
		2> "mix$i.log" > /dev/null
	s2=$(date +%s.%N)
	"$CP" estimate -i "$PROFILE" -m "cm$i.json" --family memcpy --json > "est$i.json"
	"$CP" estimate -i "$PROFILE" -m "cm$i.json" --family memcpy > "est$i.txt"
	ci=$(jq '[.impls[].points[] | select(.size >= 256) | (.ci_ns // 0) / .ns] | sort | .[length / 2 | floor] * 100' "cm$i.json")
	spr=$(jq '[.impls[].points[] | select(.size >= 256) | .spread] | sort | .[length / 2 | floor] * 100' "cm$i.json")
	noisy=$(jq '[.impls[].points[] | select((.ci_ns // 0) / .ns > 0.02)] | length' "cm$i.json")
	printf '%-3s %8.1f %8.1f %9.2f %9.2f %8s  %-16s %-8s %9s  %s\n' "$i" \
		"$(echo "$s1 - $s0" | bc)" "$(echo "$s2 - $s1" | bc)" "$ci" "$spr" "$noisy" \
		"$(jq -r "$F.verdict.kind" "est$i.json")" "$(jq -r "$F.best.name" "est$i.json")" \
		"$(jq -r "$F.best.delta_pct" "est$i.json")" \
		"$(jq -r "$F | \"\(.best.ci_low) .. \(.best.ci_high)\"" "est$i.json")"
done
echo
kinds=$(for i in $(seq 1 "$N"); do jq -r "$F.verdict | \"\(.kind) \(.policy)\"" "est$i.json"; done | sort | uniq -c)
echo "verdicts (kind, policy):"
echo "$kinds"
nk=$(echo "$kinds" | wc -l)
nd=$(for i in $(seq 1 "$N"); do jq -r "$F.verdict.kind" "est$i.json"; done | grep -c no_difference || true)
bests=$(for i in $(seq 1 "$N"); do jq -r "$F.best.delta_pct" "est$i.json"; done)
range=$(echo "$bests" | sort -g | sed -n '1p;$p' | paste -sd' ' | awk '{ printf "%.2f", $2 - $1 }')
echo "same verdict $N/$N: $([ "$nk" -eq 1 ] && echo yes || echo no)"
echo "all 'no difference': $([ "$nd" -eq "$N" ] && echo yes || echo no); best's change spans $range points"
