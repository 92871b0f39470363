#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# glibc_replica.sh: each glibc replica this CPU runs against glibc's own implementation of the
# same name (called directly, with the thresholds glibc's variables hold), interleaved, per
# length class, at glibc's default T and under GLIBC_TUNABLES T=4096 and T=never. Every setting
# runs in PROCS separate processes (each places the code at other addresses); a line gives the
# median over them of each process's median ratio replica/glibc (1.000 = the same cost), the
# smallest and largest, and glibc's ns per call. "all, A/A" is glibc against itself.
# Needs libc6-dbg for glibc's implementation names.
# Usage: bench/glibc_replica.sh [BUILD_DIR]   (env: ROUNDS=101 PROCS=5)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
BIN=$BUILD/bench/glibc_replica
ROUNDS=${ROUNDS:-101} PROCS=${PROCS:-5}
D=$ROOT/examples/data/fleetbench-2023
[ -x "$BIN" ] || { echo "bench: build $BIN first (make bench-glibc)"; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs," \
	"load $(cut -d' ' -f1-3 /proc/loadavg), $(/lib64/ld-linux-x86-64.so.2 --version | head -n 1)"
echo "# $PROCS processes x $ROUNDS interleaved rounds per line"
printf '%-22s %-8s %-24s %-14s %7s %15s %10s\n' "# replica" T workload class ratio "min..max" "glibc ns"
for t in default 4096 never; do
	case $t in
	default) env=() ;;
	4096) env=(GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=4096:glibc.cpu.x86_rep_stosb_threshold=4096) ;;
	never) env=(GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=0xffffffffffffffff:glibc.cpu.x86_rep_stosb_threshold=0xffffffffffffffff) ;;
	esac
	for r in glibc_memmove_avx2 glibc_memmove_evex glibc_memmove_avx512 glibc_memset_avx2 \
		glibc_memset_evex glibc_memset_avx512; do
		case $r in
		*memmove*) work=("fleet:$D/MemcpyGoogleFleet.txt" "fleet:$D/MemmoveGoogleFleet.txt"
			uniform:1-16384 uniform:1048576-4194304) ;;
		*) work=("fleet:$D/MemsetGoogleFleet.txt" uniform:1-16384) ;;
		esac
		: > "$TMP/runs"
		for p in $(seq 1 "$PROCS"); do
			env "${env[@]}" "$BIN" "$r" "$ROUNDS" "${work[@]}" >> "$TMP/runs"
		done
		grep -q '^skipped' "$TMP/runs" && { echo "# $r: $(grep -m1 '^skipped' "$TMP/runs")"; continue; }
		# Lines: workload class[,] [A/A] calls ratio p10..p90 ns -> one line per (workload, class).
		awk -v r="$r" -v t="$t" '!/^#/ && NF >= 5 {
			key = $1 " " ($2 == "all," ? "all,A/A" : $2)
			v[key] = v[key] " " $(NF - 2); ns[key] = ns[key] " " $NF
			if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		}
		function med(s,   a, k, i, j, x) {
			k = split(s, a, " ")
			for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
			lo = a[1]; hi = a[k]; return a[int((k + 1) / 2)]
		}
		END {
			for (i = 1; i <= n; i++) {
				split(order[i], kc, " "); m = med(v[order[i]]); l = lo; h = hi
				printf "%-22s %-8s %-24s %-14s %7.3f %7.3f..%-7.3f %10.2f\n", r, t,
					kc[1], kc[2], m, l, h, med(ns[order[i]])
			}
		}' "$TMP/runs"
	done
done
