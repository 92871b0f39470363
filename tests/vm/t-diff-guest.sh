#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-diff.sh (busybox sh, btrfs-zstd disk at /mnt): the same fixed workload on
# every kernel: a 20 MB compressible file read back after drop_caches under copyprof record -p
# btrfs. Leaves in /out: the profile (with meta.dispatch, read from /proc/kcore), record's
# stderr and exit status, and probe's view of the dispatch.
yes "2026-11-30T09:00:00Z host042 GET /api/v1/item/12345 status=200 bytes=5120" |
	head -c 20000000 >/mnt/data
sync
echo 3 >/proc/sys/vm/drop_caches
copyprof record -p btrfs -o /out/btrfs.json -- dd if=/mnt/data of=/dev/null bs=1M >/out/record.out 2>/out/record.err
echo $? >/out/record.rc
copyprof probe >/out/probe.txt 2>&1
exit 0
