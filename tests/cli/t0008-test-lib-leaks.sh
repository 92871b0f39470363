#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0008-test-lib-leaks: the CLI tests' BPF leak check (tests/cli/lib.sh, expect_no_leftover_progs)
# flags a test's own copyprof program, held by its own child or pinned and held by none, and
# leaves alone a program another job loaded while the test ran (an agent on the host), even
# from the same session.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd bpftool
cd "$TMP"

# recorder &: a copyprof (the background subshell becomes it) that holds its uprobe programs until
# it is told to stop; holds PID: a copyprof program held by PID is loaded.
prelude='recorder() {
	exec "$COPYPROF" record --uprobe "$WL:wl_copy" -d 600 -o "$TMP/rec.json" >/dev/null 2>&1
}
holds() { cp_progs | grep -q "[ ,]$1,"; }'
eval "$prelude"
# run_script NAME BODY: BODY as a test script of its own, in the background; NAME.out, NAME.rc.
run_script() {
	printf '. "%s/tests/cli/lib.sh"\n%s\n%s\n' "$ROOT" "$prelude" "$2" >"$1.sh"
	(
		bash "$1.sh" >"$1.out" 2>&1
		echo $? >"$1.rc"
	) &
}

# A test's own child holds a program at the check: flagged, with the child's pid.
run_script own 'recorder & pids+=($!)
echo $! >'"$TMP"'/own.pid
wait_for "the recorder" holds $!
expect_no_leftover_progs
exit 0'
wait_for "the test with a leak" test -s own.rc
expect_eq "a test whose child holds its program fails" "$(cat own.rc)" 1
leak="a copyprof BPF program of this test is still loaded:"
grep -Eq "^not ok [0-9]+ - $leak.* cp_[a-z_]+\(id [0-9]+, held by pid $(cat own.pid)\)" own.out ||
	fail "the leak is not named with its holder: $(cat own.out)"

# Another job (this shell, not a descendant of the test) loads a program while the test runs:
# not the test's.
run_script other 'touch '"$TMP"'/other.started
while [ ! -e '"$TMP"'/other.go ]; do sleep 0.2; done
expect_no_leftover_progs
exit 0'
wait_for "the test beside another job to start" test -e other.started
recorder &
rec=$!
pids+=("$rec")
wait_for "the other job's programs" holds "$rec"
touch other.go
wait_for "the test beside another job" test -s other.rc
expect_eq "another job's programs, loaded during the test, are not the test's" "$(cat other.rc)" 0
grep -q "^ok [0-9]* - no copyprof BPF program of this test is left loaded" other.out ||
	fail "no pass line: $(cat other.out)"

# The test's own program, pinned and its holder gone: held by none, still flagged.
mkdir bpffs
mount -t bpf bpf bpffs || fatal "cannot mount a bpf filesystem at $TMP/bpffs"
exit_hooks+=('umount "$TMP/bpffs"')
run_script pinned 'recorder & r=$!
wait_for "the recorder" holds $r
id=$(cp_progs | awk -v r="$r" '"'"'index($3, r ",") { print $1; exit }'"'"')
bpftool prog pin id "$id" '"$TMP"'/bpffs/left && echo "$id" >'"$TMP"'/pinned.id
kill -TERM "$r"; wait "$r"
expect_no_leftover_progs
exit 0'
wait_for "the test with a pinned program" test -s pinned.rc
[ -s pinned.id ] || fatal "could not pin a program: $(cat pinned.out)"
expect_eq "a test that leaves its program pinned fails" "$(cat pinned.rc)" 1
grep -q "id $(cat pinned.id), held by none" pinned.out ||
	fail "the pinned program is not named: $(cat pinned.out)"

stop_servers
umount bpffs && exit_hooks=()
expect_no_leftover_progs
exit 0
