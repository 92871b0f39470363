#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# uprobe_overhead.sh: per-event cost of `copyprof record --uprobe` against bpftrace's
# `@ = hist(arg2)` on the same workload, in one run, and the events each one lost.
# The per-event cost is the slope between a small and a large run, so start-up (bpftrace
# compiles its program) cancels out. Usage: bench/uprobe_overhead.sh [BUILD_DIR] [N_SMALL N_LARGE]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof tests/copyload
N1=${2:-20000} N2=${3:-220000} REPS=${REPS:-3}
WL=$BUILD/tests/copyload
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v bpftrace >/dev/null || { echo "bench: needs bpftrace (make deps)"; exit 1; }

now_ns() { date +%s%N; }
# median of REPS wall times (ns) of a command
median_ns() {
	local t0 i times=()
	for ((i = 0; i < REPS; i++)); do
		t0=$(now_ns)
		# A run that fails is no measurement: stop rather than print a slope of failures.
		"$@" > "$TMP/out" 2>&1 || { echo "bench: '$*' failed: $(tail -n 3 "$TMP/out")" >&2; exit 1; }
		times+=($(( $(now_ns) - t0 )))
	done
	printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (REPS + 1) / 2 ))p"
}
plain() { "$WL" copy=64:"$1"; }
copyprof() { "$BUILD/copyprof" record --uprobe "$WL:wl_copy" -o "$TMP/p.json" -- "$WL" copy=64:"$1"; }
bpft() { bpftrace -e "uprobe:$WL:wl_copy { @ = hist(arg2); }" -c "$WL copy=64:$1"; }

declare -A slope
for tool in plain copyprof bpft; do
	a=$(median_ns $tool "$N1"); b=$(median_ns $tool "$N2")
	slope[$tool]=$(( (b - a) / (N2 - N1) ))
	printf '%-9s N=%-7d %8.3f s   N=%-7d %8.3f s   %6d ns/call\n' "$tool" "$N1" \
		"$(echo "$a / 1000000000" | bc -l)" "$N2" "$(echo "$b / 1000000000" | bc -l)" "${slope[$tool]}"
done
cp_cost=$(( slope[copyprof] - slope[plain] )) bt_cost=$(( slope[bpft] - slope[plain] ))

# Lost events: what each tool counted against what the workload made.
copyprof "$N2" > /dev/null 2>&1; cp_n=$(jq '.sites[0].calls' "$TMP/p.json")
bpft "$N2" > "$TMP/bt.txt" 2>&1
bt_n=$(awk '/^\[/ {s += $3} END {print s + 0}' "$TMP/bt.txt")
echo
echo "per-event cost over a plain run: copyprof $cp_cost ns, bpftrace $bt_cost ns," \
	"ratio copyprof/bpftrace $(echo "scale=2; $cp_cost / $bt_cost" | bc -l)"
echo "events counted of $N2 made: copyprof $cp_n (lost $((N2 - cp_n))), bpftrace $bt_n (lost $((N2 - bt_n)))"
