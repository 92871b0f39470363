#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0007-test-lib: the CLI tests' own checks (tests/cli/lib.sh) report each check as git's test
# suite does, go on past a failure, count one made in a subshell, list the failures last and
# exit 1; fatal stops; a skip exits 77 with its reason last, as tests/run.sh reads it.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

# run_script NAME BODY: BODY as a test script of its own; its output in NAME.out, status NAME.rc.
run_script() {
	printf '. "%s/tests/cli/lib.sh"\n%s\n' "$ROOT" "$2" >"$1.sh"
	bash "$1.sh" >"$1.out" 2>&1
	echo $? >"$1.rc"
}

run_script two_fail 'expect_eq "first" 1 1
expect_eq "second" 1 2
( expect_eq "in a subshell" a b )
got=$(expect_eq "in a command substitution" x y)
[ -z "$got" ] || fail "a check printed into a \$(...)"
expect_exit 3 sh -c "exit 3"
check "true is true" true
exit 0'
expect_eq "a script with failed checks exits" "$(cat two_fail.rc)" 1
# Six checks, each on its line, and the three failed ones again at the end.
expect_eq "each check reported, numbered" "$(grep -cE '^(not )?ok [0-9]+ - ' two_fail.out)" 9
expect_eq "ok lines" "$(grep -c '^ok ' two_fail.out)" 3
grep -qx "ok 1 - first: 1" two_fail.out || fail "no 'ok 1 - first: 1': $(cat two_fail.out)"
grep -qx "not ok 2 - second: got '1', expected '2'" two_fail.out ||
	fail "no 'not ok 2 - second': $(cat two_fail.out)"
grep -qx "not ok 3 - in a subshell: got 'a', expected 'b'" two_fail.out ||
	fail "the subshell's check is not reported: $(cat two_fail.out)"
grep -qx "not ok 4 - in a command substitution: got 'x', expected 'y'" two_fail.out ||
	fail "the \$(...)'s check is not reported: $(cat two_fail.out)"
grep -qx "ok 5 - 'sh -c exit 3' exits 3" two_fail.out || fail "expect_exit: $(cat two_fail.out)"
grep -qx "ok 6 - true is true" two_fail.out || fail "check: $(cat two_fail.out)"
expect_eq "the closing list" "$(sed -n '/^# 3 of 6 checks failed:$/,$p' two_fail.out | wc -l)" 4
expect_eq "the last failure last" "$(tail -n 1 two_fail.out)" \
	"not ok 4 - in a command substitution: got 'x', expected 'y'"

run_script fatal 'expect_eq "before" 1 1
fatal "no server came up"
expect_eq "never run" 1 1'
expect_eq "fatal exits" "$(cat fatal.rc)" 1
grep -qx "not ok 2 - no server came up (the checks after this one were not run)" fatal.out ||
	fail "fatal's line: $(cat fatal.out)"
grep -q "never run" fatal.out && fail "a check after fatal ran: $(cat fatal.out)"

run_script pass 'expect_eq "one" 1 1
check "two" test -d "$TMP"
exit 0'
expect_eq "a passing script exits" "$(cat pass.rc)" 0
expect_eq "its closing line" "$(tail -n 1 pass.out)" "# 2 checks passed"

run_script skipped 'expect_eq "one" 1 1
skip "needs a unicorn"'
expect_eq "a skip exits" "$(cat skipped.rc)" 77
expect_eq "its reason is the last line" "$(tail -n 1 skipped.out)" "skipped: needs a unicorn"
run_script skip_after_fail 'expect_eq "one" 1 2
skip "needs a unicorn"'
expect_eq "a skip after a failure fails" "$(cat skip_after_fail.rc)" 1

# A test's own EXIT trap runs as an exit hook: the failures still decide the exit status.
run_script own_trap 'trap "echo the-hook-ran" EXIT
expect_eq "one" 1 2
exit 0'
expect_eq "a failure under a test's own EXIT trap exits" "$(cat own_trap.rc)" 1
grep -qx "the-hook-ran" own_trap.out || fail "the test's own EXIT trap did not run: $(cat own_trap.out)"

# The scratch folder and the servers go at exit, with a failure too.
run_script cleanup 'sleep 300 & pids+=($!)
echo "$TMP $!" >'"$TMP"'/cleanup.state
fail "on purpose"'
read -r dir pid <cleanup.state
[ ! -e "$dir" ] || fail "the scratch folder $dir is left after a failure"
kill -0 "$pid" 2>/dev/null && fail "the background server $pid is left running"
exit 0
