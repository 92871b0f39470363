#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0040-sample-dd: record --sample on dd of /dev/zero: the clear_user path dominates the copy
# family with read_zero among its callers and exact lengths; filters (-- COMMAND, --pid, --comm,
# --cgroup), SIGINT/SIGTERM and -d leave no program behind. Counts vary with machine speed, so
# only shares, orderings and a minimum sample count are asserted.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"
DD=(dd if=/dev/zero of=/dev/null bs=1M count=100000000)

# The clear_user path: inline rep stos (FSRS), rep_stos_alternative, or an older clear_user_*.
clear_leaf='(.leaf | test("^inline_rep_stos|^rep_stos_alternative$|clear_user"))'
check_dd_profile() {	# FILE WHAT
	local f=$1 what=$2 copy clear
	copy=$(jq '[.sites[].calls] | add // 0' "$f")
	[ "$copy" -ge 100 ] || fail "$what: only $copy copy-family samples (want >= 100)"
	clear=$(jq "[.sites[] | select($clear_leaf) | .calls] | add // 0" "$f")
	[ $((clear * 100)) -ge $((copy * 60)) ] ||
		fail "$what: the clear_user path has $clear of $copy copy samples (want >= 60%)"
	jq -e '[.sites[] | select(.symbol == "read_zero" or .symbol == "iov_iter_zero")] | length > 0' \
		"$f" > /dev/null || fail "$what: read_zero/iov_iter_zero is not among the callers"
	expect_eq "$what: idle samples with a task filter" "$(jq .meta.idle_samples "$f")" 0
	jq -e '.sites[0] | .weight == "time" and (.stacks | length > 0)' "$f" > /dev/null ||
		fail "$what: the top site has no time weight or no stacks"
}

# record_long FILE ARGS...: record --sample -d D ARGS -o FILE, with D from 1.5 s doubled (up to
# 24 s) until dd has been sampled 100 times in the copy family: on a loaded machine dd gets less
# of a CPU, and the test must wait for it, never fail for it.
record_long() {
	local f=$1 d
	shift
	for d in 1.5 3 6 12 24; do
		expect_exit 0 "$COPYPROF" record --sample -d "$d" "$@" -o "$f"
		[ "$(jq '[.sites[].calls] | add // 0' "$f")" -ge 100 ] && return 0
	done
}

# -- COMMAND with -d: two seconds of dd whatever the machine's speed (longer when dd got too
# little of a CPU for 100 copy samples); dd is stopped after.
for d in 2 4 8 16 32; do
	expect_exit 0 "$COPYPROF" record --sample=1999 -d "$d" -o cmd.json -- "${DD[@]}"
	[ "$(jq '[.sites[].calls] | add // 0' cmd.json)" -ge 100 ] && break
done
check_dd_profile cmd.json "-- dd"
expect_out "copy family"
# Every copy sample is one of dd's samples (how many dd got depends on the CPU it was given).
total=$(jq .meta.total_samples cmd.json)
copy=$(jq '[.sites[].calls] | add // 0' cmd.json)
[ "$total" -ge "$copy" ] || fail "-- dd: $copy copy samples of only $total in $d s at 1999 Hz"
jq -e '.meta.event == "cycles" or .meta.event == "cpu-clock"' cmd.json > /dev/null ||
	fail "unexpected event $(jq .meta.event cmd.json)"
jq -e '.meta.sample_hz == 1999' cmd.json > /dev/null || fail "sample_hz not recorded"
# Lengths: read_zero clears at most a page per call, and the rules recover them exactly.
jq -e '[.sites[] | select(.symbol == "read_zero")] |
	all(.length_quality.exact * 10 >= .calls * 9)' \
	cmd.json > /dev/null || fail "read_zero: fewer than 90% exact lengths: $(jq -c \
	'[.sites[] | select(.symbol == "read_zero") | .length_quality]' cmd.json)"
jq -e '[.sites[] | select(.symbol == "read_zero") | .buckets[] | .hi] | all(. <= 4096 + 512)' \
	cmd.json > /dev/null || fail "read_zero: a recovered length above a page"
pgrep -f 'count=100000000' > /dev/null && fail "dd still runs after record ended"
expect_no_leftover_progs

# report: the copy share and the split by caller.
expect_exit 0 "$COPYPROF" report -i cmd.json
expect_out "copy family: [0-9]+ samples, [0-9.]+% of all samples"
expect_out "read_zero|iov_iter_zero"

# --pid and --comm: a dd that runs on its own.
"${DD[@]}" 2>/dev/null & dd_pid=$!
pids+=("$dd_pid") # stopped at exit, whatever happens
record_long pid.json --pid "$dd_pid"
check_dd_profile pid.json "--pid"
record_long comm.json --comm dd
check_dd_profile comm.json "--comm"

# --cgroup: the dd moved into a cgroup of its own.
if [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ]; then
	cg=/sys/fs/cgroup/copyprof-test.$$
	mkdir "$cg" || fail "cannot create $cg"
	exit_hooks+=('kill $dd_pid 2>/dev/null; echo $dd_pid > /sys/fs/cgroup/cgroup.procs 2>/dev/null;
	      rmdir "$cg" 2>/dev/null')
	echo "$dd_pid" > "$cg/cgroup.procs"
	record_long cg.json --cgroup "$cg"
	check_dd_profile cg.json "--cgroup"
	expect_exit 1 "$COPYPROF" record --sample -d 1 --cgroup /tmp -o never.json
	expect_err "not a cgroup v2 directory"
else
	echo "note: no cgroup v2 at /sys/fs/cgroup; --cgroup not tested"
fi
kill "$dd_pid"; wait "$dd_pid" 2>/dev/null

# SIGINT and SIGTERM: the profile is written whole, then nothing of ours is loaded.
for sig in INT TERM; do
	"$COPYPROF" record --sample -o "sig$sig.json" > /dev/null 2> err.txt &
	rec=$!
	await grep -q "Ctrl-C to end" err.txt
	grep -q "Ctrl-C to end" err.txt || fail "record --sample did not start: $(cat err.txt)"
	"${DD[@]::4}" count=2000 2>/dev/null
	kill -"$sig" "$rec"
	wait "$rec" || fail "record --sample ended by SIG$sig exited $?: $(cat err.txt)"
	[ "$(jq .meta.total_samples "sig$sig.json")" -gt 0 ] || fail "SIG$sig: no samples"
	expect_no_leftover_progs
done
exit 0
