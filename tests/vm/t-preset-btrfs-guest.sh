#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-preset-btrfs.sh (busybox sh, btrfs-zstd disk at /mnt): write a compressible
# file, drop caches, read it back under copyprof record -p btrfs. Leaves in /out: the profile,
# record's stderr (the plan) and exit status, and copyprof probe's view of the same kernel.
yes "2026-11-30T09:00:00Z host042 GET /api/v1/item/12345 status=200 bytes=5120" |
	head -c 50000000 >/mnt/data
sync
echo 3 >/proc/sys/vm/drop_caches
copyprof record -p btrfs -o /out/btrfs.json -- dd if=/mnt/data of=/dev/null bs=1M >/out/record.out 2>/out/record.err
echo $? >/out/record.rc
copyprof probe --site ZSTD_decompressStream --json >/out/probe.json 2>/out/probe.err
cat /sys/kernel/tracing/kprobe_events >/out/kprobe_events_after 2>&1
exit 0
