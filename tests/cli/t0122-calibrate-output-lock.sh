#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0122-calibrate-output-lock: two calibrates writing one cost model at once: the second is
# refused (exit 1, naming the first's process and the lock file .NAME.lock beside the output),
# the first finishes with exit 0, and nothing is lost: in place (-i cm.json --hist ... -o
# cm.json) the refused run, repeated after, adds its sitting to the first's; from scratch (-o
# same.json) likewise. The first is held (SIGSTOP) while the second runs, so the overlap does
# not depend on the machine's speed. The lock file is gone after each run.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"

IMPLS=memcpy_orig,movsb,erms_threshold,libc_memcpy
"$COPYPROF" calibrate --quick --impl $IMPLS --cache warm -o cm.json > /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fatal "calibrate --quick exited $rc: $(cat err.txt)"
printf '8,100\n24,50\n40,30\n3000,20\n' > short.csv

# overlap NAME CMD...: CMD in the background until its lock file .NAME.lock holds its pid, held
# there (SIGSTOP) while CMD runs again, which must be refused; then the first goes on.
overlap() {
	local name=$1 pid i rc
	shift
	"$@" > first.out 2> first.err &
	pid=$!
	pids+=("$pid")
	for i in $(seq 1 600); do
		[ "$(cat ".$name.lock" 2> /dev/null)" = "$pid" ] && break
		sleep 0.05
	done
	[ "$(cat ".$name.lock" 2> /dev/null)" = "$pid" ] ||
		fatal "$name: no lock file with pid $pid: $(cat first.err)"
	kill -STOP "$pid"
	expect_exit 1 "$@"
	expect_err "calibrate: $name is being written by another copyprof \(process $pid, lock file \.$name\.lock\): refusing, so that neither result is lost; run one after the other$"
	kill -CONT "$pid"
	rc=0
	wait "$pid" || rc=$?
	expect_eq "$name: the first calibrate's exit status" "$rc" 0
	[ "$rc" -eq 0 ] || echo "# $(cat first.err)"
	check "$name: lock file removed" test ! -e ".$name.lock"
}

# In place: the model read is the model written. One condition (--mix-cache warm): one entry
# a measurement (the default matrix stores three).
overlap cm.json "$COPYPROF" calibrate -i cm.json --hist short.csv --mix-cache warm --mix-budget 1 -o cm.json
expect_eq "in place: the first's measurement" "$(jq '.paired | length' cm.json)" 1
expect_exit 0 "$COPYPROF" calibrate -i cm.json --hist short.csv --mix-cache warm --mix-budget 1 -o cm.json
expect_eq "in place: the second, run after, joins it" "$(jq '.paired | length' cm.json)" 2

# From scratch, twice to one new file.
overlap same.json "$COPYPROF" calibrate --quick --impl $IMPLS --cache warm --sizes 64 \
	--hist short.csv --mix-cache warm --mix-budget 1 -o same.json
expect_eq "-o same.json: the first's model" "$(jq '.paired | length' same.json)" 1
check "no lock file is left" test -z "$(ls -A | grep '\.lock$')"
exit 0
