#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0150-trap-cost-cache: the uprobe trap cost is measured once per boot and kernel and kept in a
# cache file (COPYPROF_TRAP_COST_CACHE here, /run/copyprof/trap-cost.json by default): the first
# record measures it after the recording and writes the file whole (its folder made 0755); the
# second reads it and says so; a malformed, out-of-range, stale (another boot id) or
# group-writable cache is ignored and written again, the run still correct; a symlink or FIFO at
# the path is never followed nor replaced; "" turns the cache off. Every run counts its 1,000
# calls exactly. The agent reads it too.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
cd "$TMP"
C=$TMP/run/copyprof/trap-cost.json
export COPYPROF_TRAP_COST_CACHE=$C
mkdir -m 755 "$TMP/run" # as /run: the folder under it is made
rec() { # rec NAME: record 1,000 calls of wl_copy into NAME.json, -v, stderr in $TMP/err
	expect_exit 0 "$COPYPROF" record -v --uprobe "$WL:wl_copy" -o "$1.json" -- "$WL" copy=64:1000
	expect_eq "$1: calls" "$(jq '.sites[0].calls' "$1.json")" 1000
	expect_eq "$1: bytes" "$(jq '.sites[0].bytes' "$1.json")" 64000
}
measured_now() { expect_err "uprobe cost: .* measured just now on copyprof's own code"; }
from_cache() { expect_err "uprobe cost: .* measured at [0-9:]+ UTC this boot, from the cache $C\)"; }

# 1. Measured by the first run (after the recording), kept; read by the second.
rec first
measured_now
expect_err "measured after the recording"
expect_eq "cache: a regular file, 644" "$(stat -c '%F %a' "$C")" "regular file 644"
expect_eq "its folder, made 755" "$(stat -c '%a' "$TMP/run/copyprof")" 755
expect_eq "cache: this boot" "$(jq -r .boot_id "$C")" "$(cat /proc/sys/kernel/random/boot_id)"
expect_eq "cache: this kernel" "$(jq -r '.kernel | split(" ")[0]' "$C")" "$(uname -r)"
expect_eq "cache: the uprobe's cost" "$(jq -r '.mechanisms[0] | [.mech, (.hit_ns > 0)] | @tsv' "$C")" \
	"$(printf 'uprobe\ttrue')"
good=$(cat "$C")
rec second
from_cache
expect_err "uprobe hit: [0-9]+ ns of trap and [0-9]+ ns of BPF, from the cache"
expect_eq "cache unchanged by a reader" "$(cat "$C")" "$good"

# 2. Malformed, out of range, stale, writable by others: ignored, measured, written again.
printf 'not json' > "$C"
rec garbage
expect_err "trap cost cache $C ignored \(not valid JSON"
measured_now
expect_eq "rewritten after garbage" "$(jq -r .mechanisms[0].mech "$C")" uprobe
jq '.mechanisms[0].hit_ns = 1e12' <<<"$good" > "$C"
rec huge
expect_err "ignored \(uprobe: hit_ns and bpf_ns must be numbers from 0 to"
measured_now
jq '.mechanisms += [.mechanisms[0]]' <<<"$good" > "$C"
rec twice
expect_err "ignored \(uprobe: listed twice"
jq '.boot_id = "00000000-0000-0000-0000-000000000000"' <<<"$good" > "$C"
rec stale
expect_err "not used: written under another boot_id"
measured_now
expect_eq "stale: rewritten for this boot" "$(jq -r .boot_id "$C")" "$(cat /proc/sys/kernel/random/boot_id)"
jq '.method = "trap_cost 0"' <<<"$good" > "$C"
rec method
expect_err "not used: written under another method"
echo "$good" > "$C"
chmod 666 "$C"
rec writable
expect_err "ignored \(not a regular file of this user's that only it can write\)"
measured_now
expect_eq "rewritten 644" "$(stat -c '%a' "$C")" 644

# 3. A symlink or a FIFO at the path: neither followed nor replaced.
echo "$good" > target.json
rm -f "$C"
ln -s "$TMP/target.json" "$C"
rec symlink
expect_err "ignored \("
measured_now
expect_err "not kept for later runs: $C is not a regular file of this user's: left alone"
expect_eq "still a symlink" "$(stat -c '%F' "$C")" "symbolic link"
expect_eq "its target untouched" "$(cat target.json)" "$good"
rm -f "$C"
mkfifo "$C"
rec fifo
measured_now
expect_eq "still a FIFO" "$(stat -c '%F' "$C")" "fifo"
rm -f "$C"

# 4. Off: nothing read or written.
COPYPROF_TRAP_COST_CACHE='' rec off
measured_now
[ ! -e "$C" ] && pass "off: no cache written" || fail "off: $C written"

# 5. The agent: the first measures (BPF counted apart, as its budget counts BPF) and keeps it,
# the second reads it.
for n in 1 2; do
	port=$(free_port)
	"$COPYPROF" agent --uprobe "$WL:wl_copy" --listen "127.0.0.1:$port" 2> "agent$n.log" &
	pids+=($!)
	wait_for "agent $n" curl -sf "127.0.0.1:$port/metrics"
	kill -TERM "${pids[0]}"
	wait "${pids[0]}" || fail "agent $n exited $? on SIGTERM"
	pids=()
done
grep -q "a uprobe hit costs the traced thread .* measured just now" agent1.log &&
	pass "agent 1 measured" || fail "agent 1: $(cat agent1.log)"
grep -q "a uprobe hit costs the traced thread .* from the cache $C" agent2.log &&
	pass "agent 2 read the cache" || fail "agent 2: $(cat agent2.log)"
expect_no_leftover_progs
