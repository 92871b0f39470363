#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0011-uprobe-stop-filter: SIGINT/SIGTERM and -d end a recording with a complete profile and no
# probe left attached; --pid and --comm count only the chosen process.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"

# Two copies of the workload under different names, so that --comm can tell them apart.
cp "$WL" ./wl_alpha
cp "$WL" ./wl_beta

# --pid: record a running process for a while; the other one is ignored.
./wl_alpha copy=64:1000000000 & a=$!
./wl_beta copy=32:1000000000 & b=$!
"$COPYPROF" record --uprobe ./wl_alpha:wl_copy --uprobe ./wl_beta:wl_copy --pid "$a" -d 1 \
	-o pid.json > /dev/null 2> err.txt || fail "record --pid: $(cat err.txt)"
kill "$a" "$b"; wait "$a" "$b" 2>/dev/null
[ "$(jq '.sites[0].calls' pid.json)" -gt 0 ] || fail "--pid counted nothing for the chosen pid"
expect_eq "--pid: calls of the other process" "$(jq '.sites[1].calls' pid.json)" 0
expect_eq "--pid: only 64-byte calls" "$(jq '[.sites[0].buckets[].lo] | unique' -c pid.json)" "[64]"

# --comm: the same, chosen by command name.
./wl_alpha copy=64:1000000000 & a=$!
./wl_beta copy=32:1000000000 & b=$!
"$COPYPROF" record --uprobe ./wl_alpha:wl_copy --uprobe ./wl_beta:wl_copy --comm wl_beta -d 1 \
	-o comm.json > /dev/null 2> err.txt || fail "record --comm: $(cat err.txt)"
kill "$a" "$b"; wait "$a" "$b" 2>/dev/null
expect_eq "--comm: calls of wl_alpha" "$(jq '.sites[0].calls' comm.json)" 0
[ "$(jq '.sites[1].calls' comm.json)" -gt 0 ] || fail "--comm counted nothing for wl_beta"

# SIGINT and SIGTERM: the profile is written whole, then every probe is gone.
for sig in INT TERM; do
	"$COPYPROF" record --uprobe ./wl_alpha:wl_copy -o "sig$sig.json" > /dev/null 2> err.txt &
	rec=$!
	# Attached once it says so; waiting for the message, not a fixed time, keeps slow machines green.
	await grep -q "recording 1 site" err.txt
	grep -q "recording 1 site" err.txt || fail "record did not start: $(cat err.txt)"
	./wl_alpha copy=8:12345
	kill -"$sig" "$rec"
	wait "$rec" || fail "record ended by SIG$sig exited $?: $(cat err.txt)"
	expect_eq "SIG$sig: calls" "$(jq '.sites[0].calls' "sig$sig.json")" 12345
	ls ./*.tmp.* >/dev/null 2>&1 && fail "SIG$sig left a temporary file"
	expect_no_leftover_progs
done

# -d with a COMMAND that outlives it: the command is stopped, the profile written.
# What ended it is in the profile (no wall clock: a loaded machine attaches slowly), and the
# command made fewer calls than it would have.
"$COPYPROF" record --uprobe ./wl_alpha:wl_copy -d 1 -o dur.json -- ./wl_alpha copy=16:1000000000 \
	> /dev/null 2> err.txt || fail "record -d with a command: $(cat err.txt)"
expect_eq "-d 1 ended the recording" "$(jq -r .meta.ended_by dur.json)" duration
[ "$(jq '.sites[0].calls' dur.json)" -lt 1000000000 ] || fail "the command ran to its end"
[ "$(jq '.sites[0].calls' dur.json)" -gt 0 ] || fail "-d run counted nothing"
pgrep -f 'wl_alpha copy=16' >/dev/null && fail "the command still runs after record ended"
expect_no_leftover_progs
exit 0
