#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-preset-btrfs: `copyprof record -p btrfs` on Debian kernels (6.12 and 6.1, ERMS without
# FSRM) while a zstd-compressed btrfs file is read back after drop_caches: the planner puts
# kprobes on ZSTD_decompressStream's __memcpy call sites, which see thousands of calls with
# 4 KiB the dominant size; btrfs's own module sites are planned too; nothing stays attached.
# On 6.12 the profile's kernel sites then get file:line, inline chains and the zstd stage
# labels on the host, from the kernel's own -dbg package (tests/vm/fetch-dbg.sh): vmlinux with
# --debuginfo, btrfs.ko through a local debuginfod server.
# Usage: tests/vm/t-preset-btrfs.sh [SERIES...] (default 6.12 6.1)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
BIN=${COPYPROF_BIN:-$HERE/../../build/copyprof-static}
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-preset.XXXXXX")
trap 'rm -rf "$work"' EXIT

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
	# The -dbg package is 1 GB: one kernel is enough to check the lines.
	[[ $series != 6.12 ]] || test_lines "$prof" "$out"
}

site_q() {	# site_q PROFILE LABEL JQ_EXPR: EXPR of the site labelled LABEL
	jq -r --arg l "$2" "[.sites[] | select(.label == \$l)][0] | $3" "$1"
}

# Kernel DWARF for a profile recorded without it: report --debuginfo and debuginfod.
test_lines() {
	local prof=$1 out=$2 rel dbg ko id port pid
	rel=$(jq -r .meta.kernel "$prof")
	dbg=$("$HERE/fetch-dbg.sh" "$rel" kernel/fs/btrfs/btrfs.ko 2>"$out/fetch-dbg.err") ||
		{ check "debug package for $rel ($(tail -n 1 "$out/fetch-dbg.err"))" false; return; }
	ko=$dbg/usr/lib/debug/lib/modules/$rel/kernel/fs/btrfs/btrfs.ko
	check "the profile carries vmlinux's build id" test "$(jq -r '[.sites[] |
		select(.target == "vmlinux")][0].build_id' "$prof")" = \
		"$(readelf -n "$dbg/usr/lib/debug/boot/vmlinux-$rel" | awk '/Build ID/ {print $3}')"
	# btrfs.ko's DWARF comes from a debuginfod server on loopback, vmlinux's from the file.
	port=$((20000 + RANDOM % 20000))
	debuginfod -F "$(dirname "$ko")" -p "$port" -d "$work/dif.sqlite" >"$work/dif.log" 2>&1 &
	pid=$!
	id=$(jq -r '[.sites[] | select(.target == "btrfs")][0].build_id' "$prof")
	# Wait for the server's first scan; a fresh cache each try, as the client caches misses.
	for _ in $(seq 60); do
		rm -rf "$work/dif-poll"
		DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$work/dif-poll \
			debuginfod-find debuginfo "$id" >/dev/null 2>&1 && break
		sleep 1
	done
	DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$work/dif-cache \
		"$BIN" report -i "$prof" --debuginfo "$dbg/usr/lib/debug/boot/vmlinux-$rel" --json \
		>"$out/lines.json" 2>"$out/lines.err" || true
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
	check "vmlinux lines from the debug file" grep -q "vmlinux: source lines from $dbg" "$out/lines.err"
	check "btrfs lines through debuginfod" grep -q "btrfs: source lines from $work/dif-cache" "$out/lines.err"
	check "zdss_flush: ZSTD_limitCopy inlined at zstd_decompress.c" test \
		"$(site_q "$out/lines.json" zdss_flush '.source.inlined[0].function + " " +
		(.source.inlined[0].file | split("/") | last)')" = "ZSTD_limitCopy zstd_decompress.c"
	check "zdss_flush holds the 4 KiB copies ($(site_q "$out/lines.json" zdss_flush .calls))" \
		test "$(site_q "$out/lines.json" zdss_flush .calls)" -ge 2000
	check "zdss_load is labelled, at another line than zdss_flush" test \
		"$(site_q "$out/lines.json" zdss_load '.source.inlined[0].line')" -ne \
		"$(site_q "$out/lines.json" zdss_flush '.source.inlined[0].line')"
	check "btrfs_decompress_buf2page copies via memcpy_to_page" test "$(jq -r '[.sites[] |
		select(.symbol == "btrfs_decompress_buf2page")][0].source.inlined[0].function' \
		"$out/lines.json")" = memcpy_to_page
	check "report shows the stage label" sh -c "'$BIN' report -i '$out/lines.json' |
		grep -q 'ZSTD_decompressStream+0x[0-9a-f]* \[zdss_flush\]'"
}

(($#)) || set -- 6.12 6.1
for s in "$@"; do test_kernel "$s"; done
checks_done
