#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-uprobe.sh (busybox sh): record --uprobe on a static workload (a uprobe_multi
# link on 6.6+, a perf-event uprobe before), and record --sample. Results in /out.
. /bin/guest-lib.sh
uname -r > /out/kernel
run uprobe record -v --uprobe /bin/copyload-static:wl_copy -o /out/uprobe.json -- \
	/bin/copyload-static copy=100:777
run sample record --sample -d 1 -o /out/sample.json -- dd if=/dev/zero of=/dev/null bs=4096 count=200000
exit 0
