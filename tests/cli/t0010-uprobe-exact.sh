#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0010-uprobe-exact: record --uprobe on a workload with a known multiset of lengths must report
# exactly those calls, bytes and per-bucket counts, for an arg2 (copy) and an arg1 (clear) target
# (arguments count from arg0, as in bpftrace).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"

DIST="$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt"
"$COPYPROF" record --uprobe "$WL:wl_copy" --uprobe "$WL:wl_clear,len=arg1" -o prof.json -- \
	"$WL" copy=4096:200000 copy=7:5 copy=2048:3@1 copy=0:2 copy=63:11 copy=64:13 \
	copy=100000:17@9 dist="$DIST":20000 clear=100:42 clear=0:1 clear=4096:6@3 log=copies.txt \
	> summary.txt 2> err.txt || fail "record failed: $(cat err.txt)"
grep -q "site 0 .*wl_copy" summary.txt || fail "no summary line for wl_copy: $(cat summary.txt)"

# The workload logged every wl_copy call it made: the expected multiset.
want_calls=$(awk '{c += $2} END {print c}' copies.txt)
want_bytes=$(awk '{b += $1 * $2} END {printf "%d", b}' copies.txt)
expect_eq "wl_copy calls" "$(jq '.sites[0].calls' prof.json)" "$want_calls"
expect_eq "wl_copy bytes" "$(jq '.sites[0].bytes' prof.json)" "$want_bytes"
expect_eq "4096-byte calls" "$(jq '[.sites[0].buckets[] | select(.lo == 4096)][0].count' prof.json)" \
	"$(awk '$1 == 4096 {print $2}' copies.txt)"
[ "$(awk '$1 == 4096 {print $2}' copies.txt)" -ge 200000 ] || fail "fewer than 200000 4 KiB calls"

# Expected buckets (lib.sh).
want_buckets copies.txt > want.txt
jq -r '.sites[0].buckets[] | "\(.lo) \(.count) \(.bytes)"' prof.json | sort -n > got.txt
diff -u want.txt got.txt >&2 || fail "wl_copy buckets differ from the calls made"

# The clear-like target: length in arg1, no source.
expect_eq "wl_clear calls" "$(jq '.sites[1].calls' prof.json)" 49
expect_eq "wl_clear bytes" "$(jq '.sites[1].bytes' prof.json)" $((100 * 42 + 4096 * 6))
expect_eq "wl_clear len_arg" "$(jq -r '.sites[1].len_arg' prof.json)" arg1
expect_eq "wl_copy len_arg" "$(jq -r '.sites[0].len_arg' prof.json)" arg2
expect_eq "arg_base" "$(jq -r '.meta.arg_base' prof.json)" 0
# The family is data: memcpy-like by default, clear_user-like with len=arg1 (target_spec.h).
expect_eq "families" "$(jq -c '[.sites[].family]' prof.json)" '["memcpy","clear_user"]'
expect_eq "clear 100-byte bucket" \
	"$(jq '[.sites[1].buckets[] | select(.lo == 96)][0] | "\(.hi) \(.count) \(.bytes)"' prof.json)" \
	'"104 42 4200"'
expect_eq "clear 0-byte bucket" "$(jq '[.sites[1].buckets[] | select(.lo == 0)][0].count' prof.json)" 1

# Destination alignment: 3 calls at +1 and 17 at +9 for wl_copy, 6 at +3 for wl_clear.
expect_eq "copy dst_align[1]" "$(jq '.sites[0].dst_align[1]' prof.json)" 3
expect_eq "copy dst_align[9]" "$(jq '.sites[0].dst_align[9]' prof.json)" 17
expect_eq "clear dst_align[3]" "$(jq '.sites[1].dst_align[3]' prof.json)" 6
expect_eq "clear src_align sum" "$(jq '.sites[1].src_align | add' prof.json)" 0

# report reads it back: totals and the histogram rows.
"$COPYPROF" report -i prof.json > report.txt || fail "report failed"
grep -Eq "calls $(commas "$want_calls") +bytes $(commas "$want_bytes")" report.txt || fail "report totals: $(head report.txt)"
grep -Eq "4096 -> 8191 +: 2000[0-9]{2} " report.txt || fail "no 4 KiB row: $(cat report.txt)"
grep -q "top sizes: 4096 (" report.txt || fail "4096 is not the top size: $(grep top report.txt)"
"$COPYPROF" report -i prof.json --json > again.json || fail "report --json failed"
expect_eq "report --json round trip" "$(jq -S .sites again.json | md5sum)" "$(jq -S .sites prof.json | md5sum)"
expect_no_leftover_progs
exit 0
