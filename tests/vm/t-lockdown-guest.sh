#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-lockdown.sh, booted with lockdown=confidentiality: what copyprof can still do
# there, and that it says why for what it cannot. Results in /out (NAME.rc, NAME.err, NAME.json).
mount -t securityfs none /sys/kernel/security 2>/dev/null
cat /sys/kernel/security/lockdown >/out/lockdown
. /bin/guest-lib.sh
run kprobe record --kprobe read_zero,len=arg2 --comm dd -o /out/kprobe.json -- \
	dd if=/dev/zero of=/dev/null bs=4096 count=10
run hwbp record --hwbp rep_movs_alternative,len=rcx --comm dd -o /out/hwbp.json -- \
	dd if=/proc/self/maps of=/dev/null bs=1 count=300
# A uprobe under lockdown, asked for its callers (--callers): counted exactly, its callers off
# with the kernel's (hist_session.c).
run uprobe record --callers --uprobe /bin/copyload-static:wl_copy -o /out/uprobe.json -- \
	/bin/copyload-static copy=100:1005
# The kernel's own vmlinuz (/proc/kcore is refused): the planner finds the btrfs preset's
# zstd call sites in it and puts breakpoints where kprobes are refused.
run plan probe -p btrfs --vmlinux /bin/vmlinuz --json
run sample record --sample -d 1 -o /out/sample.json
exit 0
