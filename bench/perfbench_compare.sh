#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# perfbench_compare.sh: throughput of the asm-ref replicas (copyprof calibrate, warm) against
# the kernel's own memcpy_64.S/memset_64.S in `perf bench mem`, interleaved in one run, at 4 KiB
# and 64 KiB; then the repeatability of `calibrate --quick` over 3 invocations.
# Usage: bench/perfbench_compare.sh [BUILD_DIR]   (env: ROUNDS=5 CPU=N QUICK_RUNS=3)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof
COPYPROF=$BUILD/copyprof
ROUNDS=${ROUNDS:-5} QUICK_RUNS=${QUICK_RUNS:-3}
CPU=${CPU:-$(($(nproc) - 1))}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for c in perf jq taskset; do
	command -v $c >/dev/null || { echo "bench: needs $c (make deps)"; exit 1; }
done
[ -x "$COPYPROF" ] || { echo "bench: build $COPYPROF first (make)"; exit 1; }

# perf bench prints GB/sec with GB = 2^30 bytes; so does this script. perf times all its loops
# with gettimeofday, so time the process spends preempted counts: on a shared machine, take the
# best of SHORT short runs (32 MB each, well above gettimeofday's resolution), as calibrate's
# median of short timed batches also leaves preemptions out.
SHORT=${SHORT:-11}
perf_gibs() { # KIND FUNCTION SIZE_BYTES
	local loops=$((32 * 1048576 / $3)) i
	for ((i = 0; i < SHORT; i++)); do
		taskset -c "$CPU" perf bench mem "$1" -f "$2" -s "$3"B -l "$loops" 2>&1 |
			awk '/GB\/sec/ {print $1} /MB\/sec/ {print $1 / 1024}'
	done | sort -g | tail -n 1
}
# One calibrate invocation per round: ns per call, warm, page-aligned, 3 runs.
ours() {
	"$COPYPROF" calibrate --impl memcpy_orig,movsb,stosb --sizes 4K,64K --cache warm \
		--cpu "$CPU" --runs 3 -o "$TMP/ours.json" 2>/dev/null
}
ours_gibs() { # IMPL SIZE
	jq -r --arg n "$1" --argjson s "$2" '.impls[] | select(.name == $n) | .points[] |
		select(.size == $s) | .size / .ns * 1e9 / 1073741824' "$TMP/ours.json"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

declare -A rows=(
	[memcpy_orig]="memcpy x86-64-unrolled"
	[movsb]="memcpy x86-64-movsb"
	[stosb]="memset x86-64-stosb"
)
order="memcpy_orig movsb stosb"
echo "CPU $CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), kernel $(uname -r), $(perf --version)"
echo "rounds: $ROUNDS, each: perf bench (one -f at a time, best of $SHORT short runs) and calibrate, interleaved"
for ((r = 1; r <= ROUNDS; r++)); do
	for size in 4096 65536; do
		for impl in $order; do
			read -r kind fn <<<"${rows[$impl]}"
			perf_gibs "$kind" "$fn" "$size" >> "$TMP/perf.$impl.$size"
		done
	done
	ours
	for size in 4096 65536; do
		for impl in $order; do
			ours_gibs "$impl" "$size" >> "$TMP/ours.$impl.$size"
		done
	done
done

echo
printf '%-12s %-26s %6s  %12s  %12s  %7s\n' replica "perf bench -f" size "replica GB/s" "perf GB/s" ratio
for impl in $order; do
	read -r kind fn <<<"${rows[$impl]}"
	for size in 4096 65536; do
		a=$(median < "$TMP/ours.$impl.$size") b=$(median < "$TMP/perf.$impl.$size")
		printf '%-12s %-26s %5dK  %12.1f  %12.1f  %7.2f\n' "$impl" "$kind $fn" $((size / 1024)) \
			"$a" "$b" "$(echo "$a / $b" | bc -l)"
	done
done
echo "(medians of $ROUNDS rounds; per-round values in the same order:"
for f in "$TMP"/ours.*.* "$TMP"/perf.*.*; do
	printf '  %-22s %s\n' "$(basename "$f")" "$(awk '{printf "%.1f ", $1}' "$f")"
done
echo ")"

[ "$QUICK_RUNS" -ge 2 ] || exit 0
# Repeatability: QUICK_RUNS invocations of calibrate --quick (every replica), per point at
# >= 256 bytes: (max - min) / median of the invocations' medians.
echo
t0=$(date +%s.%N)
for ((i = 1; i <= QUICK_RUNS; i++)); do
	s=$(date +%s.%N)
	"$COPYPROF" calibrate --quick --cpu "$CPU" -o "$TMP/q$i.json" 2>/dev/null
	printf 'calibrate --quick #%d: %.1f s\n' "$i" "$(echo "$(date +%s.%N) - $s" | bc -l)"
done
for ((i = 1; i <= QUICK_RUNS; i++)); do
	jq -r '.impls[] | .name as $n | .cache as $c | .points[] | select(.size >= 256) |
		"\($n) \($c) \(.size) \(.ns)"' "$TMP/q$i.json"
done | sort -k1,1 -k2,2 -k3,3n -k4,4g | awk '
	function emit() { if (n) print (v[n] - v[1]) / v[int((n + 1) / 2)], key; n = 0 }
	{ k = $1 " " $2 " " $3; if (k != key) emit(); key = k; v[++n] = $4 }
	END { emit() }' | sort -g > "$TMP/spread"
awk -v runs="$QUICK_RUNS" '{ s[++n] = $1; c[$3] += ($1 <= 0.05); t[$3]++ }
	END {
		for (i = 1; i <= n; i++) ok += (s[i] <= 0.05)
		printf "repeatability over %d invocations, %d points at >= 256 B: %d (%.0f%%) within 5%%;", runs, n, ok, 100 * ok / n
		printf " spread median %.1f%%, 90th percentile %.1f%%, max %.1f%%\n", 100 * s[int((n + 1) / 2)], 100 * s[int(n * 0.9)], 100 * s[n]
		for (k in t) printf "  %-12s %3d of %3d points within 5%%\n", k, c[k], t[k]
	}' "$TMP/spread"
echo "largest spreads:"
tail -n 5 "$TMP/spread" | awk '{printf "  %5.1f%%  %s %s %s B\n", 100 * $1, $2, $3, $4}'
