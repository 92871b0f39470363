#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# agent_scale_guest.sh: guest half of bench/agent_scale.sh (busybox sh, btrfs-zstd disk at
# /mnt). The static build has no agent (docs/design.md#linking), so the btrfs preset's series
# are counted from what the agent would serve: the plan (probe -p btrfs --json) and a
# recording of a zstd read (record -p btrfs), whose profile the host exports as OpenMetrics
# with the agent's families. Leaves in /out: plan.json, btrfs.json and both stderr files.
copyprof probe -p btrfs --json >/out/plan.json 2>/out/plan.err
yes "2026-12-01T09:00:00Z host042 GET /api/v1/item/12345 status=200 bytes=5120" |
	head -c 8000000 >/mnt/data
sync
echo 3 >/proc/sys/vm/drop_caches
copyprof record -p btrfs -o /out/btrfs.json -- dd if=/mnt/data of=/dev/null bs=1M \
	>/out/record.out 2>/out/record.err
echo $? >/out/record.rc
exit 0
