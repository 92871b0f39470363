#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0093-hardening-refusals: input that was accepted but must be refused (--hist rows, --pid,
# --sample, malformed --site/--entry and preset lines), the exit codes of probe and record for a
# user who is not root, and a 200,000-frame folded stack drawn without a crash.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
M="$ROOT/tests/golden/costmodel-synthetic.json"

# --hist: exit 1 with the file:line.
hist() { printf -- "$1" > h.csv; expect_exit 1 "$COPYPROF" estimate --hist h.csv -m "$M"; }
hist '-5,10\n16,3\n'
expect_err "h.csv:1: expected 'size,count' or 'size<TAB>probability' with a size below 2\^40 and a weight >= 0"
hist '16,100\0junk\n'
expect_err "h.csv:1: a NUL byte in the line: not a text size table"
hist '16,0x10\n'
expect_err "h.csv:1: expected 'size,count'"
hist '16,10\n32,inf\n'
expect_err "h.csv:2: expected 'size,count'"
hist '99999999999999999999999,1\n'
expect_err "h.csv:1: expected 'size,count'"
# A header (it starts with a letter) is still skipped.
printf 'size,count\n16,10\n' > ok.csv
expect_exit 0 "$COPYPROF" estimate --hist ok.csv -m "$M"

# --pid and --sample: exit 2 when malformed, 1 for a process that is not there.
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" --pid -5 -d 1
expect_err "--pid -5: not a process id \(a number from 1 to 2147483647\)"
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" --pid 0x10 -d 1
expect_err "--pid 0x10: not a process id"
expect_exit 2 "$COPYPROF" record --sample=99999999999 -d 1
expect_err "--sample 99999999999: give a frequency in Hz, from 1 to 4294967295"
pid=999999999
while kill -0 "$pid" 2>/dev/null; do pid=$((pid - 1)); done
expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy" --pid "$pid" -d 1 -o p.json
expect_err "--pid $pid: no such process"
[ ! -e p.json ] || fail "a profile was written for a process that does not exist"

# Malformed specs: exit 2 on the command line, exit 1 with file:line in a preset.
expect_exit 2 "$COPYPROF" record --site ':::+zz,len=qq' -d 1
expect_err "--site :::\+zz,len=qq: offset 'zz' is not a number"
expect_exit 2 "$COPYPROF" record --entry 'read_zero,len=bogus' -d 1
expect_err "--entry read_zero,len=bogus: 'bogus' is not an argument \(arg0..arg5, numbered from 0 as in bpftrace"
expect_exit 2 "$COPYPROF" probe --entry 'read_zero,len=bogus'
expect_err "--entry read_zero,len=bogus: 'bogus' is not an argument"
printf 'description bad\n# %s\nsite :::+zz,len=qq\n' "$(printf 'x%.0s' $(seq 1100))" > bad.preset
expect_exit 1 "$COPYPROF" probe -p ./bad.preset
expect_err "bad.preset:3: site ':::\+zz,len=qq': offset 'zz' is not a number"
printf 'description long\n# %s\n' "$(printf 'x%.0s' $(seq 5000))" > long.preset
expect_exit 1 "$COPYPROF" probe -p ./long.preset
expect_err "long.preset:2: line longer than 4 KiB \(no newline within its first 4 KiB\), the most a preset may have"
if [ "$(id -u)" -eq 0 ]; then
	expect_exit 1 "$COPYPROF" record -p ./bad.preset -d 1 -o p.json
	expect_err "bad.preset:3: site ':::\+zz,len=qq': offset 'zz' is not a number"
fi

# A user who is not root: probe --entry cannot plan (exit 1); record names the capabilities.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$TMP"
	asuser() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
	expect_exit 1 asuser "$COPYPROF" probe --entry copy_page_to_iter
	expect_err "kallsyms shows zero addresses"
	expect_exit 1 asuser "$COPYPROF" record -p iov_iter -d 1 -o "$TMP/np.json"
	expect_err "recording needs root, or the capabilities CAP_BPF and CAP_PERFMON .*kernel.perf_event_paranoid is -?[0-9]+"
	grep -q kptr_restrict "$TMP/err" && fail "record -p blames kptr_restrict: $(cat "$TMP/err")"
fi

# A 200,000-frame folded stack: drawn (no recursion to overflow), every frame in the SVG.
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%sf%d", i ? ";" : "", i; print " 5";
	print "a;b;c 3"; print "a;b;d 2" }' > deep.folded
expect_exit 0 "$COPYPROF" flamegraph --folded deep.folded -o deep.svg
expect_err "wrote deep.svg \(200005 frames\)"
expect_eq "frames drawn" "$(grep -c '<g class="f">' deep.svg)" 200005
echo "ok"
