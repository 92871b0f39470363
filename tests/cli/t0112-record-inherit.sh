#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0112-record-inherit: record -- CMD counts the processes CMD starts, as perf record does: a
# wrapper shell, its children and a grandchild, with the exact calls and buckets of each, while
# a process outside the command (running the same binary all along) is never counted; with
# --no-inherit only the command's own process counts (0 for the wrapper, every call for a
# workload run directly). No BPF program is left behind.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"

# An outsider: the same workload, 1000 calls of 100 bytes a run, again and again; each run
# ends by touching 'tick'. It must never show up in a recording of another command.
(while [ ! -e stop ]; do "$WL" copy=100:1000 && touch tick; done) &
outsider=$!
trap 'touch "$TMP/stop"; wait $outsider; stop_servers; rm -rf "$TMP"' EXIT

# The recorded command waits for two ticks: the outsider ran a whole run while it was recorded.
wait_ticks='rm -f tick; until [ -e tick ]; do sleep 0.05; done; rm -f tick; until [ -e tick ]; do sleep 0.05; done'
# A wrapper (sh), two children of it (copyload, one in the background) and a grandchild
# (copyload under a second sh): 500 + 1000 + 3000 calls, none by a shell itself.
script="$wait_ticks; sh -c '\"$WL\" copy=7:500; true'; \"$WL\" copy=64:1000 & \"$WL\" copy=4096:3000; wait"

# calls FILE LO: calls counted in bucket LO of site 0.
calls() { jq "[.sites[0].buckets[] | select(.lo == $2) | .count] | add // 0" "$1"; }

expect_exit 0 "$COPYPROF" record --uprobe "$WL:wl_copy" -o inherit.json -- sh -c "$script"
expect_eq "calls of the wrapper's descendants" "$(jq '.sites[0].calls' inherit.json)" 4500
expect_eq "grandchild's 7-byte calls" "$(calls inherit.json 7)" 500
expect_eq "background child's 64-byte calls" "$(calls inherit.json 64)" 1000
expect_eq "child's 4096-byte calls" "$(calls inherit.json 4096)" 3000
expect_eq "the outsider's 100-byte calls" "$(calls inherit.json 96)" 0
expect_eq "bytes" "$(jq '.sites[0].bytes' inherit.json)" $((7 * 500 + 64 * 1000 + 4096 * 3000))
echo "ok: sh -c with children and a grandchild: 4500 calls exactly, the outsider's none"

# --no-inherit: the wrapper's own process makes no call; a workload run directly makes them all.
expect_exit 0 "$COPYPROF" record --no-inherit --uprobe "$WL:wl_copy" -o own.json -- sh -c "$script"
expect_eq "calls with --no-inherit under a wrapper" "$(jq '.sites[0].calls' own.json)" 0
expect_exit 0 "$COPYPROF" record --no-inherit --uprobe "$WL:wl_copy" -o direct.json -- \
	"$WL" copy=64:1234
expect_eq "calls with --no-inherit, the workload itself" "$(jq '.sites[0].calls' direct.json)" 1234
echo "ok: --no-inherit counts the command's own process only (0 under sh, 1234 directly)"

# --no-inherit needs a command to narrow, and says so.
expect_exit 2 "$COPYPROF" record --no-inherit --uprobe "$WL:wl_copy" -d 1
expect_err "--no-inherit narrows a COMMAND's count to its own process"
expect_exit 2 "$COPYPROF" record --no-inherit -a --uprobe "$WL:wl_copy" -- true
expect_err "--no-inherit narrows a COMMAND's count"
expect_no_leftover_progs
exit 0
