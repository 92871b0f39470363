#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch the DWARF of one Debian kernel build: apt-get download linux-image-RELEASE-dbg (about
# 1 GB) and unpack only vmlinux and the named modules (the package holds 5 GB), cached beside
# the kernels run.sh boots. Prints the root that holds usr/lib/debug, for copyprof --debuginfo.
# Usage: tests/vm/fetch-dbg.sh RELEASE [MODULE_PATH...]
#   e.g. tests/vm/fetch-dbg.sh 6.12.117+deb12-amd64 kernel/fs/btrfs/btrfs.ko
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${COPYPROF_VM_CACHE:-$(cd "$HERE/../.." && pwd)/.cache/vm}
rel=${1:?usage: fetch-dbg.sh RELEASE [MODULE_PATH...]}
shift
root=$CACHE/dbg-$rel
[[ -e $root/.complete ]] && { echo "$root"; exit 0; }
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock-dbg"
flock 9
[[ -e $root/.complete ]] && { echo "$root"; exit 0; }
dl=$(mktemp -d "$CACHE/.dl-dbg.XXXXXX")
trap 'rm -rf "$dl"' EXIT
(cd "$dl" && apt-get download -q -o APT::Sandbox::User=root "linux-image-$rel-dbg" >&2) || {
	echo "fetch-dbg: cannot download linux-image-$rel-dbg (run apt-get update?)" >&2; exit 1; }
rm -rf "$root"
mkdir -p "$root"
members=("./usr/lib/debug/boot/vmlinux-$rel")
for m in "$@"; do members+=("./usr/lib/debug/lib/modules/$rel/$m"); done
# --occurrence stops reading once every member is out: no need to inflate all 5 GB.
dpkg-deb --fsys-tarfile "$dl"/*.deb 2>/dev/null | tar -x -C "$root" --occurrence=1 "${members[@]}" ||
	[[ -s $root/usr/lib/debug/boot/vmlinux-$rel ]] ||
	{ echo "fetch-dbg: linux-image-$rel-dbg has no ${members[*]}" >&2; exit 1; }
for m in "${members[@]}"; do
	[[ -s $root/$m ]] || { echo "fetch-dbg: $m missing from the package" >&2; exit 1; }
done
touch "$root/.complete"
echo "$root"
