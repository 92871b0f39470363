#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-diff: the seed's iov_iter regression (003) on real kernels. The same btrfs-zstd read is
# recorded with `record -p btrfs` on the Debian 6.1 and 6.12 guests (qemu -cpu max,-fsrm: ERMS
# without FSRM), and `copyprof diff --totals -m` compares them on the host with the seed's
# Cooper Lake figures. Checks: the dispatch change memcpy_erms -> memcpy_orig is the first
# thing reported; ZSTD_decompressStream's and btrfs's call sites are matched across the two
# kernels by symbol (their offsets differ); the modelled memcpy time rises, and the rise is
# the code's (the dispatch), not the lengths'.
# Usage: tests/vm/t-diff.sh [KEEP_DIR]  (KEEP_DIR keeps the profiles and the diff)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
BIN=${COPYPROF_BIN:-$HERE/../../build/copyprof}
MODEL=$HERE/../../examples/costmodels/cooperlake-8321hc-seed.json
work=${1:-}
if [[ -z $work ]]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-diff.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

[[ -x $BIN ]] || { echo "t-diff: build $BIN first" >&2; exit 1; }
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }

record() {	# record SERIES: the guest's profile in $work/SERIES/btrfs.json
	local series=$1 out=$work/$1 rc=0
	[[ -s $out/btrfs.json && -n ${T_DIFF_REUSE:-} ]] && return 0
	"$HERE/run.sh" --kernel "$series" --disk btrfs-zstd --bin "$BIN" \
		--bin "$HERE/t-diff-guest.sh" --out "$out" --timeout 500 -- \
		t-diff-guest.sh > "$work/$series.log" 2>&1 || rc=$?
	((rc != 4)) || { echo "skipped: host setup for $series failed"; exit 77; }
	check "$series: guest ran (exit $rc)" test "$rc" -eq 0
	check "$series: record -p btrfs exit 0" test "$(cat "$out/record.rc" 2>/dev/null)" = 0
	check "$series: the profile keeps the live dispatch" \
		test "$(jq -r '.meta.dispatch[] | select(.routine == "memcpy") | .source' \
			"$out/btrfs.json" 2>/dev/null)" = kcore
}

record 6.1
record 6.12
b=$work/6.1/btrfs.json a=$work/6.12/btrfs.json
[[ -s $b && -s $a ]] || { checks_done; exit 1; }

"$BIN" diff --totals -m "$MODEL" "$b" "$a" > "$work/diff.txt" 2> "$work/diff.err" ||
	fail "diff exit $? ($(cat "$work/diff.err"))"
"$BIN" diff --totals -m "$MODEL" --json "$b" "$a" > "$work/diff.json" ||
	fail "diff --json exit $?"
j=$work/diff.json

check_eq "the first context change is memcpy's dispatch" \
	"$(jq -r '.context[0].what' "$j")" "dispatch memcpy"
check_jq "memcpy_erms (6.1) -> memcpy_orig (6.12)" \
	'.context[0] | (.before | startswith("memcpy_erms")) and (.after | startswith("memcpy_orig"))' "$j"
check "the text says it first" sh -c "sed -n '/^context/{n;p}' '$work/diff.txt' |
	grep -q 'dispatch memcpy .*memcpy_erms.* -> memcpy_orig'"
check_jq "the kernel change is reported" \
	'[.context[] | select(.what == "kernel" and .changed)] | length == 1' "$j"
# Sites: matched by symbol across the kernels, never by address.
check_jq "ZSTD_decompressStream's busiest site is matched across kernels" \
	'[.sites[] | select(.symbol == "ZSTD_decompressStream" and (.match == "exact" or .match == "symbol"))
	  | select(.before.calls > 1000 and .after.calls > 1000)] | length >= 1' "$j"
check_jq "btrfs_decompress_buf2page is matched by symbol (its offset moved)" \
	'[.sites[] | select(.symbol == "btrfs_decompress_buf2page")][0] |
	 .match == "symbol" and .offset_before != .offset_after' "$j"
check_jq "no address in the matching: profiles' addresses differ, sites still matched" \
	'[.sites[] | select(.match == "symbol")] | length >= 2' "$j"
# The same work: the same 4 KiB copies on both kernels.
check_jq "memcpy's calls are the same work on both (within noise)" \
	'.families[] | select(.name == "memcpy") | .change.significant_calls == false' "$j"
# Modelled time: rises, and the rise is the code's.
check_jq "modelled memcpy time rises" \
	'.families[] | select(.name == "memcpy") | .model.ns_after > 1.5 * .model.ns_before' "$j"
check_jq "the code (dispatch) explains the rise: code part > 90% of it" \
	'.families[] | select(.name == "memcpy") | .model.code_ns > 0.9 * .model.change_ns' "$j"
check_jq "the lengths explain little: |lengths part| < 10% of the rise" \
	'.families[] | select(.name == "memcpy") |
	 (if .model.lengths_ns < 0 then -.model.lengths_ns else .model.lengths_ns end) < 0.1 * .model.change_ns' "$j"
check_jq "costed code: movsb before, memcpy_orig after" \
	'.families[] | select(.name == "memcpy") | .model.code_before == "movsb" and .model.code_after == "memcpy_orig"' "$j"
checks_done
