#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# /init of the tests/vm/run.sh initramfs (busybox sh): set up, run the command, report, power off.
#
# Protocol with run.sh, on the serial console:
#   COPYPROF_VM_READY uptime=<s>   just before the command runs
#   COPYPROF_VM_SETUP_FAILED: why  setup failed; the command did not run
#   COPYPROF_VM_EXIT=<n>           the command's status, printed after /out is on the out disk
# PID 1 must never exit (that panics), so every path ends in poweroff -f.

export PATH=/bin:/sbin:/usr/bin:/usr/sbin
/bin/busybox --install -s /bin
export HOME=/root

mount -t devtmpfs devtmpfs /dev
# The cpio has no /dev/console node (building it would need root), so attach to it now.
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp

setup_failed() {
	echo "COPYPROF_VM_SETUP_FAILED: $*"
	poweroff -f
	sleep 1000000
}

# The virtio disk carrying serial=$1, as /dev/vdX; device nodes may lag the insmod a little.
find_disk() {
	tries=50
	while [ $tries -gt 0 ]; do
		for d in /sys/block/vd*; do
			if [ "$(cat "$d/serial" 2>/dev/null)" = "$1" ]; then
				[ -b "/dev/${d##*/}" ] && { echo "/dev/${d##*/}"; return 0; }
			fi
		done
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# In dependency order (computed on the host with modprobe --show-depends). A failure is only
# a warning: crc32c-intel, say, needs SSE4.2, which some --cpu models lack.
while read -r ko; do
	insmod "$ko" || echo "init: warning: insmod $ko failed"
done </etc/copyprof/modules

out_dev=$(find_disk copyprof-out) || setup_failed "no out disk (serial copyprof-out)"
if [ "$(cat /etc/copyprof/disk)" = btrfs-zstd ]; then
	dev=$(find_disk copyprof-disk) || setup_failed "no data disk (serial copyprof-disk)"
	mount -t btrfs -o compress-force=zstd "$dev" /mnt || setup_failed "mount btrfs $dev"
fi

cd /root || setup_failed "cd /root"
echo "COPYPROF_VM_READY uptime=$(cut -d' ' -f1 /proc/uptime)"
sh -c "$(cat /etc/copyprof/cmd)" </dev/null
rc=$?
cd /
# A blank line first: the command's output may not end in a newline.
echo
echo "COPYPROF_VM_DONE uptime=$(cut -d' ' -f1 /proc/uptime)"
grep -q ' /mnt ' /proc/mounts && umount /mnt
# "out/..." rather than "./...": extracting "." would chmod the host's --out directory.
tar -cf "$out_dev" -C / out || echo "init: warning: writing /out to $out_dev failed"
sync
echo "COPYPROF_VM_EXIT=$rc"
poweroff -f
sleep 1000000
