#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0044-sample-bad-input: record --sample and import-perf refuse bad options and inputs with
# clear messages and the documented exit codes: garbage text, an empty perf.data, perf missing,
# no permission to sample (perf_event_paranoid / CAP_PERFMON), unknown leaves, rates too high.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"

# Usage errors: exit 2.
expect_exit 2 "$COPYPROF" record --sample=fast
expect_err "give a frequency in Hz"
expect_exit 2 "$COPYPROF" record --sample -e bogus-event
expect_err "not an event copyprof samples"
expect_exit 2 "$COPYPROF" record --leaf memcpy -d 1
expect_err "go with --sample"
expect_exit 2 "$COPYPROF" record --sample --uprobe /bin/true:main
expect_err "exclude each other"
expect_exit 2 "$COPYPROF" import-perf -i a.data --script b.txt
expect_err "exclude each other"
expect_exit 2 "$COPYPROF" import-perf stray-argument
expect_err "unexpected argument"

# Garbage text: no samples is a failure, and nothing is written.
printf 'hello\nworld 12 apples\n\tnot a frame\n' > garbage.txt
expect_exit 1 "$COPYPROF" import-perf --script garbage.txt -o g.json
expect_err "no perf samples found"
[ -e g.json ] && fail "a profile was written for garbage input"
# Binary noise with a fixed seed, so that a failure can be replayed.
awk 'BEGIN { srand(1); for (i = 0; i < 65536; i++) printf "%c", int(rand() * 255) + 1 }' \
	> binary.txt
expect_exit 1 "$COPYPROF" import-perf --script binary.txt -o b.json
expect_err "no perf samples found|malformed"
expect_exit 1 "$COPYPROF" import-perf --script missing.txt
expect_err "cannot read missing.txt"

# perf missing: PATH without it.
: > empty.data
PATH=/nonexistent expect_exit 1 "$COPYPROF" import-perf -i empty.data -o e.json
expect_err "perf is not installed or not in PATH"
if command -v perf > /dev/null; then
	expect_exit 1 "$COPYPROF" import-perf -i empty.data -o e.json
	expect_err "perf script -i empty.data failed .*(zero-sized|empty|nothing)"
	expect_exit 1 "$COPYPROF" import-perf -i no-such.data
	expect_err "cannot read no-such.data"
fi

[ "$(id -u)" -eq 0 ] || { echo "not root: record --sample refusals not checked"; exit 0; }
expect_exit 1 "$COPYPROF" record --sample --leaf no_such_function_xyz -d 1 -o x.json
expect_err "--leaf no_such_function_xyz: no such kernel symbol"
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
expect_exit 1 "$COPYPROF" record --sample=$((max * 4)) -e cpu-clock -d 1 -o x.json
expect_err "perf_event_max_sample_rate"

# No permission: an unprivileged user with perf_event_paranoid >= 2 (restored afterwards).
need_cmd setpriv
old=$(cat /proc/sys/kernel/perf_event_paranoid)
exit_hooks+=('echo "$old" > /proc/sys/kernel/perf_event_paranoid')
[ "$old" -ge 2 ] || echo 2 > /proc/sys/kernel/perf_event_paranoid
expect_exit 1 setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
	"$COPYPROF" record --sample -d 1 -o /tmp/never.json
expect_err "kernel.perf_event_paranoid"
expect_err "CAP_PERFMON"
[ -e /tmp/never.json ] && fail "a profile was written without permission"
exit 0
