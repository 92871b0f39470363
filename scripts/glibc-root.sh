#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# glibc-root.sh: a root holding Debian 13's glibc (libc6 + libc6-dbg), for tests; prints its path.
#
# Usage: scripts/glibc-root.sh [SUITE]   (SUITE: trixie, the default: glibc 2.41)
# Fetches the two packages from the Debian archive this system's apt already uses, without
# touching its sources (a one-line sources file and a private list directory), unpacks them
# into CACHE/SUITE/root with lib64 -> usr/lib64 and lib -> usr/lib, and keeps it there between
# runs: a second call only prints the path. A host-built dynamic program then runs on that
# glibc under `chroot ROOT /prog` (copied into the root). CACHE is $COPYPROF_TEST_CACHE, else
# /var/cache/copyprof-test. Run as root on Debian 12 (apt-get, dpkg-deb,
# debian-archive-keyring). Exit 0 with the root's path on stdout, 1 with the reason on stderr.
set -euo pipefail
suite=${1:-trixie}
cache=${COPYPROF_TEST_CACHE:-/var/cache/copyprof-test}
dir=$cache/$suite
root=$dir/root
if [ -f "$dir/done" ]; then
	echo "$root"
	exit 0
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || { echo "glibc-root.sh: $keyring missing (apt-get install debian-archive-keyring)" >&2; exit 1; }
# The archive the system already fetches Debian from (deb822 or one-line sources).
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
	grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs"
rm -rf "$root.tmp"
echo "deb [signed-by=$keyring] $mirror $suite main" >"$dir/sources.list"
# Its own lists and package cache: the system's apt state is neither read for this nor changed.
apt_opts=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
	  -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o Debug::NoLocking=1
	  -o APT::Get::List-Cleanup=0)
if ! apt-get "${apt_opts[@]}" update -qq >"$dir/update.log" 2>&1; then
	echo "glibc-root.sh: apt-get update of $mirror $suite failed: $(tail -3 "$dir/update.log")" >&2
	exit 1
fi
(cd "$dir/debs" && rm -f ./*.deb &&
	apt-get "${apt_opts[@]}" download libc6 libc6-dbg >"$dir/download.log" 2>&1) || {
	echo "glibc-root.sh: apt-get download libc6 libc6-dbg ($suite) failed: $(tail -3 "$dir/download.log")" >&2
	exit 1
}
mkdir -p "$root.tmp"
for deb in "$dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$root.tmp"
done
ln -sfn usr/lib64 "$root.tmp/lib64"
ln -sfn usr/lib "$root.tmp/lib"
mkdir -p "$root.tmp/tmp" "$root.tmp/proc"
rm -rf "$root"
mv "$root.tmp" "$root"
ls "$dir"/debs >"$dir/done"
echo "$root"
