#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-agent.sh (busybox sh, btrfs-zstd disk at /mnt). btrfs is unloaded first, so
# `copyprof agent -p btrfs` starts with only the built-in zstd sites; btrfs is then loaded and
# mounted, and the agent's periodic re-plan must pick its sites up. A compressible file is read
# back after drop_caches while the agent counts. Leaves in /out: scrapes of /metrics before and
# after, /profile, the pprof, the agent's log and exit status, the kprobes left afterwards.
url=http://127.0.0.1:9477
# The initramfs brings no network up: the agent listens on loopback.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
dev=$(awk '$2 == "/mnt" { print $1 }' /proc/mounts)
ko=$(grep '/btrfs\.ko$' /etc/copyprof/modules)
umount /mnt && rmmod btrfs
grep -c '^btrfs ' /proc/modules >/out/btrfs_at_start

copyprof-agent agent -p btrfs --replan 2 >/out/agent.out 2>/out/agent.err &
agent=$!
# scrape FILE PATH: one GET, retried while the agent starts (TCG on a loaded host is slow: up
# to 5 minutes, so that slowness alone never fails the test).
scrape() {
	n=0
	until wget -q -O "/out/$1" "$url$2"; do
		n=$((n + 1))
		[ $n -ge 1500 ] && return 1
		sleep 0.2
	done
}
scrape metrics.before /metrics || echo "no scrape before" >>/out/guest.err

insmod "$ko" || echo "insmod $ko failed" >>/out/guest.err
mount -t btrfs -o compress-force=zstd "$dev" /mnt || echo "mount $dev failed" >>/out/guest.err
# Wait for a re-plan to attach btrfs's own sites (up to 5 minutes).
n=0
until grep -q 're-plan attached' /out/agent.err || [ $n -ge 1500 ]; do
	n=$((n + 1))
	sleep 0.2
done
yes "2026-11-30T09:00:00Z host042 GET /api/v1/item/12345 status=200 bytes=5120" |
	head -c 50000000 >/mnt/data
sync
echo 3 >/proc/sys/vm/drop_caches
dd if=/mnt/data of=/dev/null bs=1M 2>/out/dd.err
scrape metrics.after /metrics || echo "no scrape after" >>/out/guest.err
scrape profile.json /profile || echo "no /profile" >>/out/guest.err
scrape pprof.pb.gz /debug/pprof/profile || echo "no pprof" >>/out/guest.err
kill -TERM $agent
wait $agent
echo $? >/out/agent.rc
cat /sys/kernel/tracing/kprobe_events >/out/kprobe_events_after 2>&1

# The budget on kernel sites: a second agent with a budget of 0.01% of one CPU while the file
# is read back again. Its kprobes' BPF time alone is over that, so the hottest site is detached
# (a kernel site cannot move to sampling) and the others keep counting.
copyprof-agent agent -p btrfs --replan 0 --max-overhead 0.01 --listen 127.0.0.1:9478 \
	>/out/budget.out 2>/out/budget.err &
agent=$!
url=http://127.0.0.1:9478
scrape budget.before /metrics || echo "no budget scrape" >>/out/guest.err
n=0
until grep -q 'detached (copyprof_agent_site_over_budget)' /out/budget.err || [ $n -ge 10 ]; do
	echo 3 >/proc/sys/vm/drop_caches
	dd if=/mnt/data of=/dev/null bs=1M 2>/dev/null
	sleep 3
	n=$((n + 1))
done
scrape budget.after /metrics || echo "no budget scrape after" >>/out/guest.err
kill -TERM $agent
wait $agent
echo $? >/out/budget.rc
cat /sys/kernel/tracing/kprobe_events >/out/kprobe_events_budget 2>&1
exit 0
