#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# btrfs-scratch.sh: a throw-away zstd-compressed btrfs on a loop device, for the main job and
# the tests. Usage:
#   btrfs-scratch.sh up DIR [SIZE_MB]   make DIR/disk.img, mount it at DIR/mnt (compress-force=zstd)
#   btrfs-scratch.sh fill DIR MB        write MB of compressible text to DIR/mnt/data, sync, drop caches
#   btrfs-scratch.sh read DIR           read DIR/mnt/data back (decompresses through zstd)
#   btrfs-scratch.sh down DIR           unmount, detach the loop device, remove DIR/disk.img
# "down" is safe to call twice and after a failed "up"; callers run it from an EXIT trap.
set -euo pipefail

cmd=${1:?usage: btrfs-scratch.sh up|fill|read|down DIR} dir=${2:?DIR}

up() {
	local size=${1:-1024}
	mkdir -p "$dir/mnt"
	truncate -s "${size}M" "$dir/disk.img"
	mkfs.btrfs -q -f "$dir/disk.img" >/dev/null
	losetup -f --show "$dir/disk.img" > "$dir/loopdev"
	mount -t btrfs -o compress-force=zstd "$(cat "$dir/loopdev")" "$dir/mnt"
}

fill() {
	local mb=${1:?MB}
	# Text that compresses about 4:1, like logs: zstd then works on realistic blocks.
	awk -v mb="$mb" 'BEGIN { srand(7); n = mb * 1048576;
		for (w = 0; w < n; ) { line = sprintf("%08d %s host%03d GET /api/v1/item/%d status=%d\n",
			w / 64, "2026-11-30T09:00:00Z", int(rand() * 200), int(rand() * 100000),
			rand() < 0.9 ? 200 : 404); printf "%s", line; w += length(line) } }' \
		> "$dir/mnt/data"
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

read_back() {
	cat "$dir/mnt/data" > /dev/null
}

down() {
	if mountpoint -q "$dir/mnt" 2>/dev/null; then umount "$dir/mnt" || umount -l "$dir/mnt"; fi
	if [ -s "$dir/loopdev" ]; then losetup -d "$(cat "$dir/loopdev")" 2>/dev/null || true; fi
	rm -f "$dir/loopdev" "$dir/disk.img"
	rmdir "$dir/mnt" 2>/dev/null || true
}

case $cmd in
up) up "${3:-}" ;;
fill) fill "${3:-}" ;;
read) read_back ;;
down) down ;;
*) echo "btrfs-scratch.sh: unknown command '$cmd'" >&2; exit 2 ;;
esac
