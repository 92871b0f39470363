#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0027-calibrate-bad-input: bad options exit 2, runtime failures exit 1, a CPU without ERMS is
# marked, and SIGINT leaves no file behind.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

# Usage errors: exit 2.
expect_exit 2 "$COPYPROF" calibrate --impl memcpy_orig,nope
expect_err "unknown implementation 'nope'"
expect_err "known: .*memcpy_orig"
expect_exit 2 "$COPYPROF" calibrate --cache lukewarm
expect_err "unknown cache state 'lukewarm'"
expect_exit 2 "$COPYPROF" calibrate --sizes 0
expect_err "out of range"
expect_exit 2 "$COPYPROF" calibrate --sizes 64,2G
expect_err "size '2G' is out of range"
expect_exit 2 "$COPYPROF" calibrate --sizes 1073741825
expect_exit 2 "$COPYPROF" calibrate --sizes 1-2000000
expect_err "more than"
expect_exit 2 "$COPYPROF" calibrate --sizes 64,abc
expect_err "'abc' is not a size"
expect_exit 2 "$COPYPROF" calibrate --sizes 512-64
expect_exit 2 "$COPYPROF" calibrate --align 7
expect_err "give D,S"
expect_exit 2 "$COPYPROF" calibrate --align 0,4096
expect_exit 2 "$COPYPROF" calibrate --runs 0
expect_exit 2 "$COPYPROF" calibrate --cpu minus-one
expect_exit 2 "$COPYPROF" calibrate --threshold x
expect_exit 2 "$COPYPROF" calibrate extra
expect_exit 2 "$COPYPROF" calibrate -i model.json
expect_err "give one of them"
expect_exit 2 "$COPYPROF" calibrate -i model.json --table --quick
expect_err "--quick applies to a measurement"
[ ! -e costmodel.json ] || fail "a usage error wrote costmodel.json"

# Runtime failures: exit 1, nothing written.
# CPU 99, or past the last CPU on a machine that has a CPU 99.
cpu=99
[ "$(getconf _NPROCESSORS_CONF)" -le 99 ] || cpu=$(($(getconf _NPROCESSORS_CONF) + 1))
expect_exit 1 "$COPYPROF" calibrate --quick --cpu "$cpu"
expect_err "cannot pin to CPU $cpu"
expect_exit 1 "$COPYPROF" calibrate --quick --cpu 5000
expect_err "cannot pin to CPU 5000"
[ ! -e costmodel.json ] || fail "a failed calibrate wrote costmodel.json"
expect_exit 1 "$COPYPROF" calibrate -i missing.json --table
expect_err "cannot read cost model missing.json"
echo '{"format": "copyprof-costmodel", "version": 2, "impls": []}' > future.json
expect_exit 1 "$COPYPROF" calibrate -i future.json --table
expect_err "version 2.*upgrade copyprof"
echo '{"format": "copyprof-profile", "version": 1, "sites": []}' > profile.json
expect_exit 1 "$COPYPROF" calibrate -i profile.json --table
expect_err "not a copyprof cost model"

# A CPU without ERMS still calibrates; the model says so and a warning explains.
COPYPROF_TEST_HIDE_FLAGS=erms expect_exit 0 "$COPYPROF" calibrate --quick --impl movsb \
	--sizes 64 --cache warm -o noerms.json
expect_err "does not report ERMS"
command -v jq >/dev/null && expect_eq "meta.erms" "$(jq .meta.erms noerms.json)" false

# SIGINT mid-run: exit 1 with a message, no model and no temporary file. --runs 1000 keeps it
# busy for minutes, so the signal always lands while it measures.
"$COPYPROF" calibrate --runs 1000 -o int.json >"$TMP/out" 2>"$TMP/err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
rc=$?
expect_eq "exit status after SIGINT" "$rc" 1
expect_err "interrupted by SIGINT.*no cost model written"
[ ! -e int.json ] || fail "an interrupted calibrate wrote int.json"
ls int.json.tmp.* 2>/dev/null && fail "an interrupted calibrate left a temporary file"
exit 0
