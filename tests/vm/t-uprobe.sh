#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-uprobe: record --uprobe on real Debian kernels under qemu: 6.12 attaches a uprobe_multi link
# (CAP_BPF and CAP_PERFMON suffice there), 6.1 has none and falls back to the perf-event uprobe;
# both count exactly. record --sample still loads (sample.bpf.c's user-function path is pruned
# unless the agent asks for it). Usage: tests/vm/t-uprobe.sh [SERIES...] (default 6.12 6.1)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
BIN=${COPYPROF_BIN:-$HERE/../../build/copyprof-static}
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-uprobe.XXXXXX")
trap 'rm -rf "$work"' EXIT

[[ -x $BIN ]] || { echo "t-uprobe: build $BIN first" >&2; exit 1; }
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }
# The guest has no C library: the workload is a static PIE.
cc -O2 -g -static-pie "$HERE/../workload/copyload.c" -o "$work/copyload-static" ||
	{ echo "skipped: cannot link a static PIE here"; exit 77; }

test_kernel() {
	local series=$1 out=$work/$1 rc=0
	"$HERE/run.sh" --kernel "$series" --bin "$BIN" --bin "$HERE/t-uprobe-guest.sh" \
		--bin "$HERE/guest-lib.sh" --bin "$work/copyload-static" --out "$out" \
		--timeout 400 -- t-uprobe-guest.sh > "$work/$series.log" 2>&1 || rc=$?
	if ((rc == 4)); then echo "skipped: host setup for $series failed"; tail -3 "$work/$series.log"; exit 77; fi
	check_eq "$series: guest ran" "$rc" 0
	[[ -f $out/uprobe.rc ]] || { tail -40 "$work/$series.log"; fail "$series: no results"; return; }
	check_eq "$series: uprobe record exit" "$(cat "$out/uprobe.rc")" 0
	check_eq "$series: wl_copy calls" "$(jq '.sites[0].calls' "$out/uprobe.json")" 777
	check_eq "$series: wl_copy bytes" "$(jq '.sites[0].bytes' "$out/uprobe.json")" 77700
	# 6.6 brought uprobe_multi links: 6.12 uses one, 6.1 the perf-event uprobe.
	local want=0
	[[ $series == 6.12 ]] && want=1
	# Only the workload's own line: calibrating the trap cost (trap_cost.c) attaches its own.
	check_eq "$series: a uprobe_multi link" \
		"$(grep -c 'uprobe at /bin/copyload-static+0x[0-9a-f]*: a uprobe_multi link' \
		"$out/uprobe.err")" $want
	check_eq "$series: sample record exit" "$(cat "$out/sample.rc")" 0
	check_eq "$series: samples taken" "$(jq '.meta.total_samples > 0' "$out/sample.json")" true
}

(($#)) || set -- 6.12 6.1
for s in "$@"; do test_kernel "$s"; done
checks_done
