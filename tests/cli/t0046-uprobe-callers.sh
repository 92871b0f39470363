#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0046-uprobe-callers: with --callers, a uprobe at a function's entry counts its callers, as
# kernel entry sites do: the workload calls wl_copy from two known paths a known number of
# times (wl_path_a 300, wl_path_b 700, main 5), and each is a caller with exactly those calls and
# lengths, at the return address after its call instruction (checked in the disassembly); a
# caller in another file than the probe (libc's __isoc99_sscanf called from copyload's main) is
# named too. report, report --sort caller, merge and the flame graph show them; a site inside a
# function has none, nor does one recorded with --no-callers or without --callers (the default:
# exact calls and lengths, no callers, said on stderr).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd objdump
cd "$TMP"

expect_exit 0 "$COPYPROF" record --callers --uprobe "$WL:wl_copy" -o callers.json -- "$WL" paths=64:300:700 copy=4096:5
c='.sites[0].callers'
expect_eq "callers" "$(jq -c "[$c[] | [.symbol, .calls, .bytes]]" callers.json)" \
	'[["wl_path_b",700,44800],["wl_path_a",300,19200],["main",5,20480]]'
expect_eq "their target" "$(jq -r "[$c[].target] | unique | join(\",\")" callers.json)" "$(realpath "$WL")"
expect_eq "callers add up" "$(jq "[$c[].calls] | add" callers.json)" "$(jq '.sites[0].calls' callers.json)"
expect_eq "no misses" "$(jq '.sites[0].caller_misses' callers.json)" 0
expect_eq "wl_path_a's lengths" "$(jq -c "$c[] | select(.symbol == \"wl_path_a\") | .buckets" callers.json)" \
	'[{"lo":64,"hi":72,"count":300,"bytes":19200}]'

# Each offset is a return address: the instruction before it calls the probed function.
objdump -d --no-show-raw-insn "$WL" >wl.dis
call_before() {	# DIS FUNC OFFSET CALLEE: the instruction ending at FUNC+OFFSET calls CALLEE
	local start ret
	start=$(awk -v f="<$2>:" '$2 == f { print $1; exit }' "$1")
	[ -n "$start" ] || fail "no $2 in the disassembly"
	ret=$(printf '%x' $((16#$start + $3)))
	awk -v r="$ret:" 'prev ~ /call/ && $1 == r { print prevline; found = 1; exit }
		{ prev = $2; prevline = $0 } END { exit !found }' "$1" | grep -q "<$4>" ||
		fail "$2+$3 is not the return address of a call to $4"
}
for f in wl_path_a wl_path_b main; do
	call_before wl.dis "$f" "$(jq "$c[] | select(.symbol == \"$f\") | .offset" callers.json)" wl_copy
done

# report, report --sort caller, the flame graph's caller frames.
expect_exit 0 "$COPYPROF" report -i callers.json
expect_out "^  callers: 3$"
expect_out "^    copyload:wl_path_b\+0x[0-9a-f]+ +700 calls +44,800 bytes  mean 64.0$"
expect_exit 0 "$COPYPROF" report -i callers.json --sort caller --json
expect_eq "--sort caller" "$(jq -c '[.counted[] | [.caller, .calls]]' "$TMP/out")" \
	"[[\"wl_path_b [$(realpath "$WL")]\",700],[\"wl_path_a [$(realpath "$WL")]\",300],[\"main [$(realpath "$WL")]\",5]]"
expect_exit 0 "$COPYPROF" flamegraph -i callers.json -o callers.svg
off_a=$(jq "$c[] | select(.symbol == \"wl_path_a\") | .offset" callers.json)
grep -q "<title>copyload:wl_path_a+0x$(printf '%x' "$off_a")
300 calls" callers.svg || fail "no caller frame copyload:wl_path_a in the flame graph"
expect_exit 0 "$COPYPROF" merge callers.json callers.json -o twice.json
expect_eq "merged callers" "$(jq -c '[.sites[0].callers[] | [.symbol, .calls]]' twice.json)" \
	'[["wl_path_b",1400],["wl_path_a",600],["main",10]]'

# A caller in another file than the probe: copyload's main calls libc's __isoc99_sscanf once
# per argument at its "copy=" test (2) and once at its "paths=" test (1).
libc=$(ldd "$WL" | awk '/libc\.so/ { print $3 }')
if nm -D "$libc" 2>/dev/null | grep -q ' T __isoc99_sscanf'; then
	expect_exit 0 "$COPYPROF" record --callers --uprobe "$libc:__isoc99_sscanf" -o sscanf.json -- \
		"$WL" paths=64:300:700 copy=4096:5
	expect_eq "sscanf's callers" "$(jq -c '[.sites[0].callers[] | [(.target | split("/") | last), .symbol, .calls]]' sscanf.json)" \
		'[["copyload","main",2],["copyload","main",1]]'
	for off in $(jq '.sites[0].callers[].offset' sscanf.json); do
		call_before wl.dis main "$off" "__isoc99_sscanf@plt"
	done
else
	echo "note: $libc exports no __isoc99_sscanf: the caller in another file is not tested"
fi

# --no-callers: the same counts, no callers.
expect_exit 0 "$COPYPROF" record --no-callers --uprobe "$WL:wl_copy" -o none.json -- "$WL" paths=64:300:700
expect_eq "--no-callers: calls" "$(jq '.sites[0].calls' none.json)" 1000
expect_eq "--no-callers: none" "$(jq '.sites[0].callers // [] | length' none.json)" 0

# The default: uprobe entry sites count no callers (cheaper BPF), and say so; calls stay exact.
expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy" -o default.json -- "$WL" paths=64:300:700
expect_eq "default: calls" "$(jq '.sites[0].calls' default.json)" 1000
expect_eq "default: lengths" "$(jq -c '[.sites[0].buckets[] | [.lo, .count, .bytes]]' default.json)" '[[64,1000,64000]]'
expect_eq "default: no callers" "$(jq '.sites[0].callers // [] | length' default.json)" 0
expect_err "uprobe entry sites count no callers by default \(--callers counts them"
expect_exit 2 "$COPYPROF" record --callers --no-callers --uprobe "$WL:wl_copy" -o x.json -- "$WL" copy=1:1

# Inside a function (+OFF) the return address is not at the stack pointer: no callers.
off=$(awk '/<wl_copy>:/ { getline; getline; sub(/:.*/, "", $1); print $1; exit }' wl.dis)
start=$(awk '$2 == "<wl_copy>:" { print $1; exit }' wl.dis)
expect_exit 0 "$COPYPROF" record --callers --uprobe "$WL:wl_copy+0x$(printf '%x' $((16#$off - 16#$start)))" \
	-o mid.json -- "$WL" paths=64:3:7
expect_eq "mid-function: calls" "$(jq '.sites[0].calls' mid.json)" 10
expect_eq "mid-function: no callers" "$(jq '.sites[0].callers // [] | length' mid.json)" 0
expect_no_leftover_progs
exit 0
