#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-record.sh (busybox sh): runs copyprof record with kprobes and hardware
# breakpoints on a real Debian kernel. Every run leaves NAME.json (the profile), NAME.rc (exit
# status) and NAME.err (stderr) in /out; the host checks them with jq.

run() {	# run NAME copyprof-args...
	name=$1; shift
	copyprof "$@" >/out/"$name".out 2>/out/"$name".err
	echo $? >/out/"$name".rc
}

# (a) kprobe at a function entry: one read_zero per read(2) of /dev/zero.
run kprobe record --kprobe read_zero,len=arg3 --comm dd -o /out/kprobe.json -- \
	dd if=/dev/zero of=/dev/null bs=4096 count=1000

# (b) hardware breakpoint on notrace code: rep_movs_alternative (6.2+) copies each 1-byte
# read(2) of /proc/self/maps to user space; copy_user_enhanced_fast_string on 6.1.
if grep -q ' rep_movs_alternative$' /proc/kallsyms; then cu=rep_movs_alternative; else
	cu=copy_user_enhanced_fast_string; fi
echo "$cu" >/out/copy_user_symbol
run hwbp record --hwbp "$cu,len=rdx" --hwbp "$cu,len=rcx" --comm dd -o /out/hwbp.json -- \
	dd if=/proc/self/maps of=/dev/null bs=1 count=300
# dd itself makes a few small copies of its own: a second run with 300 more reads tells them apart.
run hwbp2 record --hwbp "$cu,len=rdx" --hwbp "$cu,len=rcx" --comm dd -o /out/hwbp2.json -- \
	dd if=/proc/self/maps of=/dev/null bs=1 count=600

# (c) noinstr code: refused with the reason, and nothing left attached afterwards.
run noinstr_kprobe record --kprobe memcpy_orig -d 1 -o /out/never1.json
run noinstr_hwbp record --hwbp memcpy_orig -d 1 -o /out/never2.json

# Leftovers after all runs: kprobe events and perf-event BPF programs die with copyprof.
cat /sys/kernel/tracing/kprobe_events >/out/kprobe_events_after 2>&1
exit 0
