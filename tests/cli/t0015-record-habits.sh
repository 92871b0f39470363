#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0015-record-habits: record as perf/bcc users call it: -o - in a pipe, --sample HZ with a
# space, -F HZ, a bare number refused, --pid of no process refused, -i SECONDS intervals.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"

# -o -: stdout is the profile only; the child's stdout and the summary go to stderr.
"$COPYPROF" record -o - --uprobe "$WL:wl_copy" -- \
	sh -c "echo from-the-child; exec $WL copy=4096:100 copy=7:5" 2>err.txt >prof.json ||
	fail "record -o - failed: $(cat err.txt)"
expect_eq "-o - calls" "$(jq '.sites[0].calls' prof.json)" 105
expect_eq "-o - bytes" "$(jq '.sites[0].bytes' prof.json)" $((4096 * 100 + 7 * 5))
grep -qx from-the-child err.txt || fail "the child's stdout is not on stderr: $(cat err.txt)"
grep -q "^site 0 .*: 105 calls" err.txt || fail "the summary is not on stderr: $(cat err.txt)"
# ... and it works in a pipe.
got=$("$COPYPROF" record -o - --uprobe "$WL:wl_copy" -- "$WL" copy=64:9 2>/dev/null |
	jq '.sites[0].calls')
expect_eq "record -o - | jq" "$got" 9

# A bare number is not a command: refused with a hint (exit 2).
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" 99
expect_err "'99' is a number, not a command: for a process id use -P 99, for a sampling rate -F 99"
expect_exit 2 "$COPYPROF" record -F 99 -- 99
expect_err "is a number, not a command"
expect_exit 2 "$COPYPROF" record -F 0 -d 1
expect_err "-F 0: give a frequency in Hz"
# --pid of a process that does not exist: the machine refuses it (exit 1, not a usage error).
pid=4194300
while kill -0 $pid 2>/dev/null; do pid=$((pid - 1)); done
expect_exit 1 "$COPYPROF" record --sample --pid $pid -d 1 -o none.json
expect_err "--pid $pid: no such process"
[ ! -e none.json ] || fail "a profile was written for a missing pid"
expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy" -P $pid -d 1
expect_err "-P|--pid $pid: no such process"
expect_exit 2 "$COPYPROF" record -a -P $$ --uprobe "$WL:wl_copy" -d 1
expect_err "-a \(every task\) and --pid/--comm exclude each other"

# --sample 99 (with a space) and -F 199 are sampling rates, not commands.
"$COPYPROF" record --sample 99 -d 0.5 -o s99.json >/dev/null 2>err.txt ||
	fail "record --sample 99 failed: $(cat err.txt)"
expect_eq "--sample 99 rate" "$(jq '.meta.sample_hz' s99.json)" 99
expect_eq "--sample 99 ran no command" "$(jq -r '.meta.command // "none"' s99.json)" none
"$COPYPROF" record -F 199 -d 0.5 -o f199.json >/dev/null 2>err.txt ||
	fail "record -F 199 failed: $(cat err.txt)"
expect_eq "-F 199 rate" "$(jq '.meta.sample_hz' f199.json)" 199
"$COPYPROF" record --sample 149 -o cmd.json -- "$WL" copy=8:1 >/dev/null 2>err.txt ||
	fail "record --sample 149 -- CMD failed: $(cat err.txt)"
expect_eq "--sample 149 -- CMD rate" "$(jq '.meta.sample_hz' cmd.json)" 149
expect_eq "--sample 149 -- CMD command" "$(jq -r '.meta.command' cmd.json)" "$WL copy=8:1"

# -i 1 -d 3: exactly three interval histograms, whose calls add up to the profile's. The workload
# runs until the recording has ended, however long attaching takes.
(while [ ! -e iv.done ]; do "$WL" copy=64:1000 copy=300:10 >/dev/null; sleep 0.05; done) &
loop=$!
"$COPYPROF" record -i 1 -d 3 --uprobe "$WL:wl_copy" -o iv.json >iv.txt 2>err.txt ||
	fail "record -i 1 -d 3 failed: $(cat err.txt)"
touch iv.done
wait $loop
expect_eq "interval headers" "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' iv.txt)" 3
expect_eq "interval site lines" "$(grep -c '^site 0 wl_copy+0x0 (uprobe): ' iv.txt)" 3
expect_eq "intervals add up to the profile" \
	"$(awk '/^site 0 / {s += $5} END {print s + 0}' iv.txt)" "$(jq '.sites[0].calls' iv.json)"
expect_eq "interval bytes add up" \
	"$(awk '/^site 0 / {s += $7} END {print s + 0}' iv.txt)" "$(jq '.sites[0].bytes' iv.json)"
[ "$(jq '.sites[0].calls' iv.json)" -gt 0 ] || fail "no calls recorded in 3 s"
# Without -o, -i writes no profile.
"$COPYPROF" record -i 1 -d 1 --uprobe "$WL:wl_copy" >/dev/null 2>err.txt ||
	fail "record -i 1 -d 1 failed: $(cat err.txt)"
[ ! -e copyprof.json ] || fail "record -i without -o wrote copyprof.json"

# On a terminal, -d says what is recorded and counts down.
if command -v script >/dev/null; then
	script -qec "$COPYPROF record -d 2 --uprobe $WL:wl_copy -o tty.json" /dev/null >tty.txt
	grep -q "recording 1 site for 2 s, Ctrl-C to stop early" tty.txt ||
		fail "no start message on a terminal: $(cat -v tty.txt)"
	grep -q "1 s left" tty.txt || fail "no countdown: $(cat -v tty.txt)"
fi
# ... and not when stderr is a file.
"$COPYPROF" record -d 1 --uprobe "$WL:wl_copy" -o quiet.json >/dev/null 2>err.txt
grep -q "s left" err.txt && fail "countdown written to a file: $(cat err.txt)"

# -p btrfs on a kernel where no site can be probed (this one: no kprobes or no kernel text)
# falls back to sampling, says so on stderr and in the meta, and keeps the preset's stacks.
"$COPYPROF" record -p btrfs -d 1 -o fb.json >fb.txt 2>err.txt ||
	fail "record -p btrfs failed: $(cat err.txt)"
if [ "$(jq -r '.sites[0].mechanism // "sample"' fb.json)" = sample ] &&
	jq -e '.meta.total_samples' fb.json >/dev/null; then
	grep -q "warning: no site of the plan can be probed on this kernel: SAMPLED instead" err.txt ||
		fail "the fallback is not said on stderr: $(cat err.txt)"
	jq -e '.meta.sample_fallback | test("SAMPLED instead")' fb.json >/dev/null ||
		fail "the fallback is not in the meta: $(jq -c .meta fb.json)"
	jq -e '.meta.sample_scope | test("stacks through ZSTD_decompressStream, ")' fb.json \
		>/dev/null || fail "no scope in the meta: $(jq -c .meta fb.json)"
	jq -e '.meta.sample_scope | test("memcpy_to_folio")' fb.json >/dev/null ||
		fail "the scope lacks btrfs:memcpy_to_folio: $(jq -c .meta fb.json)"
	grep -q "NOTE: no site of the plan can be probed" fb.txt || fail "no NOTE in the summary"
	"$COPYPROF" record -p btrfs --all -d 0.5 -o all.json >/dev/null 2>err.txt ||
		fail "record -p btrfs --all failed: $(cat err.txt)"
	expect_eq "--all has no scope" "$(jq -r '.meta.sample_scope // "none"' all.json)" none
	jq -e '.meta.sample_fallback' all.json >/dev/null || fail "--all lost the fallback note"
else
	echo "note: -p btrfs was probed here, not sampled: fallback checks not run" >&2
fi
expect_exit 2 "$COPYPROF" record --sample --all -d 1
expect_err "--all widens -p/--site/--entry"
expect_no_leftover_progs
exit 0
