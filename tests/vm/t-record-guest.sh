#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-record.sh (busybox sh): runs copyprof record with kprobes and hardware
# breakpoints on a real Debian kernel. Every run leaves NAME.json (the profile), NAME.rc (exit
# status) and NAME.err (stderr) in /out; the host checks them with jq.

. /bin/guest-lib.sh

# (a) kprobe at a function entry: one read_zero per read(2) of /dev/zero.
run kprobe record --kprobe read_zero,len=arg2 --comm dd -o /out/kprobe.json -- \
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

# (d) SIGTERM and SIGINT while a kprobe and hardware breakpoints are attached: the profile is
# still written, and no kprobe or BPF program (JITed ones are in kallsyms) stays behind.
progs() { grep -c 'bpf_prog_[0-9a-f]*_cp_' /proc/kallsyms; }
for sig in TERM INT; do
	copyprof record --kprobe read_zero,len=arg2 --hwbp "$cu,len=rcx" -o /out/sig$sig.json \
		>/out/sig$sig.out 2>/out/sig$sig.err &
	pid=$!
	i=0
	while ! grep -q read_zero /sys/kernel/debug/kprobes/list 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.2; i=$((i + 1))
	done
	sleep 1
	dd if=/dev/zero of=/dev/null bs=4096 count=100 2>/dev/null
	progs >/out/sig$sig.progs_during
	kill -$sig $pid
	wait $pid
	echo $? >/out/sig$sig.rc
	grep -c read_zero /sys/kernel/debug/kprobes/list >/out/sig$sig.kprobes_after
	progs >/out/sig$sig.progs_after
done

# Leftovers after all runs: kprobe events and perf-event BPF programs die with copyprof.
cat /sys/kernel/tracing/kprobe_events >/out/kprobe_events_after 2>&1
exit 0
