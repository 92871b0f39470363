#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# debian-unpack.sh: packages of another Debian release unpacked into a cached root, for tests.
#
# Usage: scripts/debian-unpack.sh [--root-links] NAME SUITE PACKAGE...
# Fetches PACKAGE... of SUITE (e.g. trixie) from the Debian archive this system's apt already
# uses, without touching its sources or state (a one-line sources file, a private list
# directory and package cache), unpacks them into CACHE/NAME/root and keeps it there: a second
# call only prints the path. --root-links adds lib64 -> usr/lib64, lib -> usr/lib, tmp and proc,
# so that `chroot ROOT /prog` runs a host-built program on the root's libraries. CACHE is
# $COPYPROF_TEST_CACHE, else /var/cache/copyprof-test. Run as root on Debian (apt-get, dpkg-deb,
# debian-archive-keyring). Exit 0 with the root's path on stdout, 1 with the reason on stderr,
# 2 on a usage error. The root appears whole or not at all (unpacked beside it, then renamed).
set -euo pipefail
me=debian-unpack.sh
links=false
if [ "${1:-}" = --root-links ]; then
	links=true
	shift
fi
[ $# -ge 3 ] || { echo "usage: $me [--root-links] NAME SUITE PACKAGE..." >&2; exit 2; }
name=$1 suite=$2
shift 2
cache=${COPYPROF_TEST_CACHE:-/var/cache/copyprof-test}
dir=$cache/$name
root=$dir/root
if [ -f "$dir/done" ]; then
	echo "$root"
	exit 0
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || { echo "$me: $keyring missing (apt-get install debian-archive-keyring)" >&2; exit 1; }
# The archive the system already fetches Debian from (deb822 or one-line sources).
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
	grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs"
rm -rf "$root.tmp"
echo "deb [signed-by=$keyring] $mirror $suite main" >"$dir/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
	  -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o Debug::NoLocking=1
	  -o APT::Get::List-Cleanup=0)
if ! apt-get "${apt_opts[@]}" update -qq >"$dir/update.log" 2>&1; then
	echo "$me: apt-get update of $mirror $suite failed: $(tail -3 "$dir/update.log")" >&2
	exit 1
fi
(cd "$dir/debs" && rm -f ./*.deb &&
	apt-get "${apt_opts[@]}" download "$@" >"$dir/download.log" 2>&1) || {
	echo "$me: apt-get download $* ($suite) failed: $(tail -3 "$dir/download.log")" >&2
	exit 1
}
mkdir -p "$root.tmp"
for deb in "$dir"/debs/*.deb; do
	dpkg-deb -x "$deb" "$root.tmp"
done
if $links; then
	ln -sfn usr/lib64 "$root.tmp/lib64"
	ln -sfn usr/lib "$root.tmp/lib"
	mkdir -p "$root.tmp/tmp" "$root.tmp/proc"
fi
rm -rf "$root"
mv "$root.tmp" "$root"
ls "$dir"/debs >"$dir/done"
echo "$root"
