#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0002-bad-input: malformed targets, missing files and symbols, bad profiles: clear messages,
# documented exit codes, and no profile written.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

# Usage errors: exit 2.
expect_exit 2 "$COPYPROF" record --uprobe "nosymbol" -d 1
expect_err "is not PATH:SYMBOL"
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy,len=arg9" -d 1
expect_err "not an argument"
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" -d -3
expect_err "positive number of seconds"
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" --pid abc
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" --comm waytoolongcommandname
expect_exit 2 "$COPYPROF" report --top x

# Runtime failures: exit 1, nothing written.
expect_exit 1 "$COPYPROF" record --uprobe /nonexistent/app:f -d 1
expect_err "cannot find '/nonexistent/app'"
echo "not elf" > notelf
expect_exit 1 "$COPYPROF" record --uprobe ./notelf:f -d 1
expect_err "is not an ELF file"
expect_exit 1 "$COPYPROF" record --uprobe "$WL:no_such_fn" -d 1
expect_err "no function 'no_such_fn'"
expect_exit 1 "$COPYPROF" record --uprobe libc.so.6:memcpy -d 1
expect_err "IFUNC"
expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy+0x100000" -d 1
expect_err "past the end"
[ ! -e copyprof.json ] || fail "a failed record wrote copyprof.json"

expect_exit 1 "$COPYPROF" report -i missing.json
expect_err "cannot read profile missing.json"
echo '{"format": "copyprof-profile", "version": 99, "sites": []}' > future.json
expect_exit 1 "$COPYPROF" report -i future.json
expect_err "version 99.*newer copyprof"
echo 'garbage' > garbage.json
expect_exit 1 "$COPYPROF" report -i garbage.json
expect_err "not valid JSON"
echo '{"format": "perf-data", "version": 1}' > other.json
expect_exit 1 "$COPYPROF" report -i other.json
expect_err "not a copyprof profile"

# Not enough privilege: the message names the capabilities.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	expect_exit 1 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$COPYPROF" record --uprobe "$WL:wl_copy" -d 1 -o /tmp/never.json
	expect_err "CAP_BPF and CAP_PERFMON"
fi

if [ "$(id -u)" -eq 0 ]; then
	# A command that cannot run: exit 1, no profile, no program left behind.
	expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy" -- ./no-such-command
	expect_err "cannot run './no-such-command'"
	[ ! -e copyprof.json ] || fail "record of a missing command wrote copyprof.json"
	expect_no_leftover_progs
fi
# With --json an error is data too (as bpftool's): one JSON line {"error": ...} on stdout.
if command -v jq >/dev/null; then
	expect_exit 1 "$COPYPROF" report -i "$TMP/missing dir/p.json" --json
	expect_eq "JSON error lines" "$(wc -l <"$TMP/out")" 1
	expect_eq "JSON error" "$(jq -r .error "$TMP/out")" \
		"cannot read profile $TMP/missing dir/p.json: No such file or directory"
	[ ! -s "$TMP/err" ] || fail "a JSON error also went to stderr: $(cat "$TMP/err")"
	expect_exit 1 "$COPYPROF" report -i "$TMP/missing dir/p.json"
	expect_err "^copyprof: error: cannot read profile"
	[ ! -s "$TMP/out" ] || fail "a text error went to stdout"
fi
exit 0
