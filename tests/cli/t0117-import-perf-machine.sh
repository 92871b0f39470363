#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0117-import-perf-machine: import-perf of perf.data recorded here carries the machine from
# perf's cpuid header (vendor, family, model, stepping: /proc/cpuinfo's) and this machine's CPU
# flags, said so, and estimate takes movsb as today's memcpy on an FSRM CPU; the same data
# claiming another host has the machine but flags unknown (null, never []): estimate names
# --today instead of assuming memcpy_orig, and diff reports no dispatch change against it.
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_cmd perf
cd "$TMP"
G="$ROOT/tests/golden"
cpuinfo() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | sed 's/.*: *//'; }

perf record -q -e cpu-clock -F 999 -g -o dd.data -- dd if=/dev/zero of=/dev/null bs=3000 \
	count=300000 > /dev/null 2> perf.err || skip "perf record cannot record here: $(cat perf.err)"
perf report --header-only -i dd.data 2>/dev/null | grep -q '^# cpuid : ' ||
	skip "this perf writes no cpuid header"

expect_exit 0 "$COPYPROF" import-perf -i dd.data -o here.json
expect_eq "vendor_id" "$(jq -r .meta.machine.vendor_id here.json)" "$(cpuinfo vendor_id)"
expect_eq "family" "$(jq .meta.machine.family here.json)" "$(cpuinfo 'cpu family')"
expect_eq "model" "$(jq .meta.machine.model here.json)" "$(cpuinfo model)"
expect_eq "stepping" "$(jq .meta.machine.stepping here.json)" "$(cpuinfo stepping)"
case $(cpuinfo vendor_id) in
GenuineIntel) vendor=intel ;;
AuthenticAMD | HygonGenuine) vendor=amd ;;
*) vendor=other ;;
esac
expect_eq "vendor (Hygon counts as AMD)" "$(jq -r .meta.machine.vendor here.json)" "$vendor"
expect_eq "flags from" "$(jq -r .meta.machine.flags_from here.json)" \
	"this machine (same host and cpuid as perf.data)"
expect_eq "cpu_flags has fsrm" "$(jq '.meta.cpu_flags | index("fsrm") != null' here.json)" true
expect_eq "machine.flags are cpu_flags" "$(jq '.meta.machine.flags == .meta.cpu_flags' here.json)" \
	true

# The samples of a dd carry no memcpy lengths: the golden sampled memcpy profile gets the
# imported meta (kernel, CPU, flags, machine), and estimate decides today's code from it alone.
graft() { jq '.meta += (input.meta | {kernel, cpu_model, cpu_flags, machine, hostname})' \
	"$G/profile-synthetic-sampled.json" "$1" > "$2"; }

# The same data claiming another host: the machine is known, its flags are not.
perf script --header -i dd.data -F comm,pid,tid,time,event,ip,sym,symoff,dso 2> /dev/null |
	sed 's/^# hostname : .*/# hostname : not-this-host/' > other.txt
expect_exit 0 "$COPYPROF" import-perf --script other.txt -o other.json
expect_eq "other host: family" "$(jq .meta.machine.family other.json)" "$(cpuinfo 'cpu family')"
expect_eq "other host: cpu_flags null" "$(jq -c '.meta | [has("cpu_flags"), .cpu_flags]' \
	other.json)" '[true,null]'
expect_eq "other host: machine.flags null" "$(jq -c .meta.machine.flags other.json)" null
jq -e '.meta.machine.flags_from | test("^unknown: .*not-this-host")' other.json > /dev/null ||
	fail "flags_from does not say why: $(jq .meta.machine.flags_from other.json)"
expect_exit 0 "$COPYPROF" report -i other.json
expect_out "^machine: $(cpuinfo vendor_id) family $(cpuinfo 'cpu family') model $(cpuinfo model) stepping $(cpuinfo stepping); CPU flags unknown: perf.data records none"
graft other.json mix-other.json
expect_exit 1 "$COPYPROF" estimate -i mix-other.json -m "$G/costmodel-synthetic.json"
expect_err "today's code of memcpy is unknown: the CPU flags are unknown.*--today IMPL"
expect_exit 0 "$COPYPROF" estimate -i mix-other.json -m "$G/costmodel-synthetic.json" \
	--today movsb
expect_out "today: movsb \(given with --today\)"

# diff: nothing says the dispatch changed, and unknown flags are not a change.
expect_exit 0 "$COPYPROF" diff --json here.json other.json
expect_eq "dispatch changes" "$(jq '[.context[] | select(.what | startswith("dispatch")) |
	select(.changed)] | length' "$TMP/out")" 0
expect_eq "dispatch memcpy, after" "$(jq -r '.context[] | select(.what == "dispatch memcpy") |
	.after' "$TMP/out")" "unknown (CPU flags unknown)"
expect_eq "cpu_flags change" "$(jq '.context[] | select(.what == "cpu_flags") | .changed' \
	"$TMP/out")" false
# Two imports of this host's data agree on everything about the machine (the caches' CPU is
# the one import-perf ran on).
mach='.meta.machine | del(.caches.cpu)'
expect_exit 0 "$COPYPROF" import-perf --script <(perf script --header -i dd.data \
	-F comm,pid,tid,time,event,ip,sym,symoff,dso 2> /dev/null) -o again.json
expect_eq "same machine twice" "$(jq -c "$mach" again.json)" "$(jq -c "$mach" here.json)"
expect_exit 0 "$COPYPROF" diff --json here.json again.json
expect_eq "no dispatch change between two imports here" "$(jq '[.context[] |
	select(.what | startswith("dispatch")) | select(.changed)] | length' "$TMP/out")" 0

# Last, as it needs FSRM: estimate on this host's meta takes movsb as today's memcpy.
grep -qw fsrm /proc/cpuinfo || skip "this CPU has no FSRM, so today's memcpy is not movsb" \
	"here (the $(grep -c . "$CHECKS") checks above ran)"
graft here.json mix-here.json
expect_exit 0 "$COPYPROF" estimate -i mix-here.json -m "$G/costmodel-synthetic.json"
expect_out "today: movsb \(kernel $(uname -r | sed 's/[.+]/\\&/g'), ERMS, FSRM"
exit 0
