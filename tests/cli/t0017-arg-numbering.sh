#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0017-arg-numbering: arguments count from arg0, as in bpftrace: len=arg2 is memcpy's length and
# gives bpftrace's hist(arg2) bucket for bucket; len=arg0 (a pointer) is warned about on record
# and report; arg6 is refused; an old profile (arg1 first, no arg_base) reads renumbered.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"
RUN=("$WL" copy=4096:3000 copy=7:500 copy=100:1200 copy=0:9 copy=65536:40)

# The default length is arg2, the third argument: the same profile as len=arg2 said outright.
expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy" -o dflt.json -- "${RUN[@]}"
expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy,len=arg2,dst=arg0,src=arg1" -o arg2.json -- \
	"${RUN[@]}"
expect_eq "default = len=arg2" "$(jq -c '.sites[0] | [.len_arg, .calls, .bytes, .buckets]' dflt.json)" \
	"$(jq -c '.sites[0] | [.len_arg, .calls, .bytes, .buckets]' arg2.json)"
expect_eq "calls" "$(jq '.sites[0].calls' arg2.json)" 4749
grep -q "warning" "$TMP/err" && fail "a warning for the right argument: $(cat "$TMP/err")"

# bpftrace's hist(arg2) on the same run: the same count in every power of two.
if command -v bpftrace >/dev/null; then
	bpftrace -e "uprobe:$WL:wl_copy { @ = hist(arg2); }" -c "${RUN[*]}" >bt.txt 2>bt.err ||
		fail "bpftrace failed: $(cat bt.err)"
	# "[4K, 8K)   3000 |@@@|" and "[0]   9 |": lower edge and count.
	awk -F'[][,)]+' '/^\[/ { lo = $2; sub(/ .*/, "", lo); n = $0; sub(/^[^]]*[])] */, "", n);
		sub(/ .*/, "", n); m = 1
		if (lo ~ /K$/) m = 1024; if (lo ~ /M$/) m = 1048576; sub(/[KM]$/, "", lo)
		if (n > 0) print lo * m, n }' bt.txt | sort -n >bt-buckets.txt
	jq -r '.sites[0].buckets[] | "\(.lo) \(.count)"' arg2.json |
		awk '{ lo = $1; p = 0; if (lo > 0) { p = 1; while (p * 2 <= lo) p *= 2 } n[p] += $2 }
		     END { for (k in n) print k, n[k] }' | sort -n >cp-buckets.txt
	[ -s bt-buckets.txt ] || fail "no bpftrace histogram: $(cat bt.txt bt.err)"
	diff -u bt-buckets.txt cp-buckets.txt >&2 || fail "len=arg2 differs from bpftrace's hist(arg2)"
else
	echo "note: no bpftrace: its hist(arg2) not compared"
fi

# len=arg0 is the destination pointer: counted, but record and report say what is wrong.
expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy,len=arg0" -o ptr.json -- "${RUN[@]}"
expect_err "site 0 wl_copy\+0x0: 4749 of its 4749 lengths \(len=arg0\) are 2\^40 bytes or more"
expect_err "memcpy\(dst, src, len\) has its length in arg2"
expect_exit 0 "$COPYPROF" report -i ptr.json
expect_err "4749 of its 4749 lengths \(len=arg0\)"
expect_exit 0 "$COPYPROF" report -i arg2.json
grep -q "2\^40" "$TMP/err" && fail "report warns about real lengths: $(cat "$TMP/err")"

# arg5 is the sixth and last register argument; arg6 is refused (exit 2).
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy,len=arg6" -d 1
expect_err "'arg6' is not an argument \(arg0..arg5, numbered from 0 as in bpftrace"

# An old profile (no arg_base: arg1 was the first argument) reads renumbered.
jq 'del(.meta.arg_base) | .sites[0].len_arg = "arg3"' arg2.json >old.json
expect_exit 0 "$COPYPROF" report -i old.json
expect_out "\(uprobe, len=arg2\)"
expect_exit 0 "$COPYPROF" report -i old.json --json
expect_eq "old profile renumbered" "$(jq -c '[.meta.arg_base, .sites[0].len_arg]' "$TMP/out")" '[0,"arg2"]'
expect_exit 0 "$COPYPROF" merge old.json arg2.json -o merged.json
expect_eq "old and new merge as one site" "$(jq '.sites | length' merged.json)" 1
expect_eq "merged calls" "$(jq '.sites[0].calls' merged.json)" 9498
jq '.meta.arg_base = 3' arg2.json >bad.json
expect_exit 1 "$COPYPROF" report -i bad.json
expect_err "\"arg_base\" 3"
expect_no_leftover_progs
exit 0
