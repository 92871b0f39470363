#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sample_overhead.sh: throughput of a copy-heavy workload (dd of /dev/zero to /dev/null: the
# clear_user path) alone, under `copyprof record --sample` at 999 Hz and under
# `perf record -g -F 999 -a`, interleaved in one run; medians and ratios to the plain run.
# Throughput on a shared or virtual machine is noisy, so the cost is also measured directly:
# the BPF program's own run time per sample (kernel.bpf_stats_enabled) and the recorder's CPU
# time, as a fraction of the CPU time sampled.
# Usage: bench/sample_overhead.sh [BUILD_DIR] [COUNT_MB]   (REPS=5 by default; run as root)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof
COUNT=${2:-40000} REPS=${REPS:-5} HZ=${HZ:-999}
TMP=$(mktemp -d)
rec=
stats_old=$(cat /proc/sys/kernel/bpf_stats_enabled)
trap '[ -n "$rec" ] && kill "$rec" 2>/dev/null; echo "$stats_old" > /proc/sys/kernel/bpf_stats_enabled
      rm -rf "$TMP"' EXIT
echo 1 > /proc/sys/kernel/bpf_stats_enabled
tick=$(getconf CLK_TCK)
[ "$(id -u)" -eq 0 ] || { echo "bench: needs root (BPF, system-wide perf)"; exit 1; }
command -v perf >/dev/null || { echo "bench: needs perf (make deps)"; exit 1; }

# MB/s of one dd run, from its own byte count and elapsed time.
dd_rate() {
	"$@" dd if=/dev/zero of=/dev/null bs=1M count="$COUNT" 2> "$TMP/dd.txt" > /dev/null
	awk '/bytes/ { for (i = 1; i <= NF; i++) if ($i == "s,") t = $(i - 1);
		printf "%.0f\n", $1 / t / 1e6 }' "$TMP/dd.txt"
}
plain() { dd_rate; }
perf_g() { dd_rate perf record -q -g -F "$HZ" -a -o "$TMP/perf.data" --; }
# copyprof [OPTION...]: one run under record --sample (costs to $TMP/costs$OPTION.txt).
copyprof() {
	local costs="$TMP/costs${1:-}.txt"
	"$BUILD/copyprof" record --sample="$HZ" "$@" -o "$TMP/s.json" > /dev/null 2> "$TMP/rec.txt" &
	rec=$!
	for _ in $(seq 300); do grep -q "Ctrl-C to end" "$TMP/rec.txt" && break; sleep 0.1; done
	# The recorder's CPU time while dd runs, not its start-up (kallsyms, BPF load).
	c0=$(awk -v t="$tick" '{ print ($14 + $15) / t }' "/proc/$rec/stat")
	t0=$(date +%s%N)
	dd_rate
	# The program's run time and the recorder's CPU time, before it exits.
	bpftool prog show name cp_sample --json > "$TMP/prog.json"
	awk -v t="$tick" -v c0="$c0" '{ print ($14 + $15) / t - c0 }' "/proc/$rec/stat" \
		> "$TMP/cpu.txt"
	echo $(( $(date +%s%N) - t0 )) > "$TMP/wall.txt"
	kill -INT "$rec"; wait "$rec"; rec=
	echo "$(jq '.run_time_ns / .run_cnt' "$TMP/prog.json") $(jq .run_cnt "$TMP/prog.json")" \
		"$(cat "$TMP/cpu.txt") $(cat "$TMP/wall.txt")" >> "$costs"
}
# The same with each copy sample's user stack (--user-stacks, off by default for its cost).
ustacks() { copyprof --user-stacks; }
median() { sort -n | sed -n "$(( (REPS + 1) / 2 ))p"; }

declare -A runs
for ((i = 0; i < REPS; i++)); do
	for tool in plain copyprof ustacks perf_g; do runs[$tool]+="$($tool) "; done
done
base=$(printf '%s\n' ${runs[plain]} | median)
printf '%-26s %10s  %6s   %s\n' "dd bs=1M count=$COUNT" "MB/s" "ratio" "runs (MB/s)"
for tool in plain copyprof ustacks perf_g; do
	m=$(printf '%s\n' ${runs[$tool]} | median)
	name=$tool
	[ "$tool" = copyprof ] && name="copyprof record --sample"
	[ "$tool" = ustacks ] && name="  ... --user-stacks"
	[ "$tool" = perf_g ] && name="perf record -g -F $HZ -a"
	printf '%-26s %10d  %6.3f   %s\n' "$name" "$m" "$(echo "$m / $base" | bc -l)" "${runs[$tool]}"
done
echo "copyprof: $(jq .meta.total_samples "$TMP/s.json") samples in the last run;" \
	"copy family $(jq '[.sites[].calls] | add' "$TMP/s.json")"
# Per run: ns per sample in BPF, samples, recorder CPU seconds, wall ns; medians over runs.
ncpu=$(nproc)
bpf_ns=$(awk '{ print $1 }' "$TMP/costs.txt" | median)
rec_pct=$(awk -v n="$ncpu" '{ print 100 * $3 / ($4 / 1e9) / n }' "$TMP/costs.txt" | median)
printf 'BPF program: %.0f ns per sample (median of %d runs) = %.3f%% of each CPU at %d Hz\n' \
	"$bpf_ns" "$REPS" "$(echo "$bpf_ns * $HZ / 10^7" | bc -l)" "$HZ"
printf 'recorder (ring buffer, symbols, length rules): %.3f%% of the CPUs\n' "$rec_pct"
printf 'direct cost of record --sample: %.3f%% of the machine\n' \
	"$(echo "$bpf_ns * $HZ / 10^7 + $rec_pct" | bc -l)"
u_ns=$(awk '{ print $1 }' "$TMP/costs--user-stacks.txt" | median)
u_pct=$(awk -v n="$ncpu" '{ print 100 * $3 / ($4 / 1e9) / n }' "$TMP/costs--user-stacks.txt" | median)
printf 'with --user-stacks: BPF %.0f ns per sample, recorder %.3f%% of the CPUs; BPF ratio %.2f\n' \
	"$u_ns" "$u_pct" "$(echo "$u_ns / $bpf_ns" | bc -l)"
