#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-preset-btrfs: `copyprof record -p btrfs` on Debian kernels (6.12 and 6.1, ERMS without
# FSRM) while a zstd-compressed btrfs file is read back after drop_caches: the planner puts
# kprobes on ZSTD_decompressStream's __memcpy call sites, which see thousands of calls with
# 4 KiB the dominant size; btrfs's own module sites are planned too; nothing stays attached.
# Usage: tests/vm/t-preset-btrfs.sh [SERIES...] (default 6.12 6.1)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${COPYPROF_BIN:-$HERE/../../build/copyprof}
passed=0 failed=0
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-preset.XXXXXX")
trap 'rm -rf "$work"' EXIT

check() {	# check NAME COMMAND...
	local name=$1; shift
	if "$@"; then passed=$((passed + 1)); echo "ok - $name"
	else failed=$((failed + 1)); echo "not ok - $name"; fi
}
[[ -x $BIN ]] || { echo "t-preset-btrfs: build $BIN first" >&2; exit 1; }
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }

test_kernel() {
	local series=$1 out=$work/$1 rc=0 prof zstd_calls top
	"$HERE/run.sh" --kernel "$series" --disk btrfs-zstd --bin "$BIN" \
		--bin "$HERE/t-preset-btrfs-guest.sh" --out "$out" --timeout 500 -- \
		t-preset-btrfs-guest.sh > "$work/$series.log" 2>&1 || rc=$?
	((rc != 4)) || { echo "skipped: host setup for $series failed"; exit 77; }
	check "$series: guest ran (exit $rc)" test "$rc" -eq 0
	check "$series: record -p btrfs exit 0 ($(tail -n 2 "$out/record.err" 2>/dev/null))" \
		test "$(cat "$out/record.rc" 2>/dev/null)" = 0
	prof=$out/btrfs.json
	[[ -s $prof ]] || { tail -n 30 "$work/$series.log"; failed=$((failed + 1)); return; }
	check "$series: the plan says why for each site" grep -q 'kprobe: ZSTD_decompressStream is traceable' "$out/record.err"
	check "$series: ZSTD_decompressStream sites are kprobes" \
		test "$(jq '[.sites[] | select(.symbol == "ZSTD_decompressStream" and .mechanism == "kprobe")] | length' "$prof")" -ge 3
	zstd_calls=$(jq '[.sites[] | select(.symbol == "ZSTD_decompressStream") | .calls] | add' "$prof")
	check "$series: thousands of ZSTD_decompressStream copies ($zstd_calls)" test "$zstd_calls" -ge 2000
	# The dominant bucket over all ZSTD_decompressStream sites is 4096..4607.
	top=$(jq '[.sites[] | select(.symbol == "ZSTD_decompressStream") | .buckets[]] |
		group_by(.lo) | map({lo: .[0].lo, n: (map(.count) | add)}) | max_by(.n) | .lo' "$prof")
	check "$series: 4 KiB is the dominant size (bucket $top)" test "$top" -eq 4096
	check "$series: btrfs module sites were planned" grep -q 'btrfs:btrfs_decompress_buf2page' "$out/record.err"
	check "$series: no kprobe event left" test ! -s "$out/kprobe_events_after"
}

(($#)) || set -- 6.12 6.1
for s in "$@"; do test_kernel "$s"; done
echo "$passed passed, $failed failed"
((failed == 0))
