#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0121-calibrate-batch-deadline: a batch of calibrate --hist whose process is stopped
# (SIGSTOP; found by COPYPROF_REPLAY_BATCH in its environment) is killed once past its slot it has
# used no CPU for 10 times that slot, at least 30 s (docs/estimate.md#batches): calibrate then ends with
# exit 1, says which batch and why, writes nothing, and leaves no stopped process behind. A
# crashed batch (SIGKILL) fails the same way at once. Only lower bounds on time are asserted
# (the kill is never early); the upper bound is the test's own limit of 300 s, well past it.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

"$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold,libc_memcpy --cache warm \
	-o cm.json > /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fatal "calibrate --quick exited $rc: $(cat err.txt)"
printf '8,100\n24,50\n40,30\n3000,20\n' > short.csv

# The batch process of calibrate PID: a child whose environment holds COPYPROF_REPLAY_BATCH.
batch_of() {
	local c
	for c in $(pgrep -P "$1"); do
		tr '\0' '\n' < "/proc/$c/environ" 2>/dev/null | grep -q '^COPYPROF_REPLAY_BATCH=' &&
			{ echo "$c"; return 0; }
	done
	return 1
}
# run_with SIGNAL OUT: calibrate --hist with SIGNAL sent to its first batch's process; sets
# rc, child, secs (from calibrate's start to its end: the batch started after calibrate, so its
# deadline is at least 30 s after that start, whenever the signal came).
run_with() {
	local pid t0 i
	t0=$(date +%s.%N)
	"$COPYPROF" calibrate -i cm.json --hist short.csv --mix-budget 1 -o "$2" 2> "$2.err" &
	pid=$!
	pids+=("$pid")
	child=
	for i in $(seq 1 600); do child=$(batch_of "$pid") && break; sleep 0.05; done
	[ -n "$child" ] || fatal "no batch process of calibrate $pid was found: $(cat "$2.err")"
	kill "-$1" "$child"
	for i in $(seq 1 3000); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2> /dev/null; then
		kill -KILL "$child" 2> /dev/null
		fail "$1: calibrate still running 300 s after its batch got SIG$1"
	fi
	rc=0
	wait "$pid" || rc=$?
	secs=$(echo "$(date +%s.%N) - $t0" | bc)
}

run_with KILL crashed.json
expect_eq "crashed batch: exit status" "$rc" 1
grep -q "replay: a batch's process was ended by signal 9" crashed.json.err ||
	fail "crashed batch: $(cat crashed.json.err)"
check "crashed batch: nothing written" test ! -e crashed.json

run_with STOP stopped.json
expect_eq "stopped batch: exit status" "$rc" 1
grep -Eq "replay: batch [0-9]+'s process $child gave no answer and used no CPU for [0-9]+ s past the end of its slot \(10 times the slot, at least 30 s\): killed; stopped \(SIGSTOP, a frozen cgroup, a debugger\), it counts as a failed batch$" stopped.json.err ||
	fail "stopped batch: $(cat stopped.json.err)"
check "stopped batch: nothing written" test ! -e stopped.json
check "stopped batch: its process is gone, not left stopped" eval "! kill -0 $child 2> /dev/null"
check "stopped batch: killed after its deadline, not before (calibrate took $secs s)" \
	test "$(echo "$secs >= 30" | bc)" = 1
exit 0
