#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# prometheus-trixie.sh: Debian 13's prometheus (2.53) unpacked for tests; prints its binary's path.
#
# Usage: scripts/prometheus-trixie.sh
# Fetches the prometheus package of Debian 13 (trixie) from the Debian archive this system's apt
# already uses, without touching its sources (a one-line sources file and a private list
# directory, as scripts/glibc-root.sh does), unpacks it into CACHE/trixie-prometheus/root and
# keeps it there: a second call only prints the path. The binary needs glibc 2.34 or later, so
# it runs on Debian 12's. CACHE is $COPYPROF_TEST_CACHE, else /var/cache/copyprof-test. Run as
# root on Debian (apt-get, dpkg-deb, debian-archive-keyring). Exit 0 with the path on stdout, 1
# with the reason on stderr.
set -euo pipefail
cache=${COPYPROF_TEST_CACHE:-/var/cache/copyprof-test}
dir=$cache/trixie-prometheus
bin=$dir/root/usr/bin/prometheus
if [ -f "$dir/done" ]; then
	echo "$bin"
	exit 0
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || { echo "prometheus-trixie.sh: $keyring missing (apt-get install debian-archive-keyring)" >&2; exit 1; }
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
	grep -oE 'https?://[^ ]+/debian/?( |$)' | grep -v security | head -1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs"
echo "deb [signed-by=$keyring] $mirror trixie main" >"$dir/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
	  -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" -o Debug::NoLocking=1
	  -o APT::Get::List-Cleanup=0)
if ! apt-get "${apt_opts[@]}" update -qq >"$dir/update.log" 2>&1; then
	echo "prometheus-trixie.sh: apt-get update of $mirror trixie failed: $(tail -3 "$dir/update.log")" >&2
	exit 1
fi
(cd "$dir/debs" && rm -f ./*.deb &&
	apt-get "${apt_opts[@]}" download prometheus >"$dir/download.log" 2>&1) || {
	echo "prometheus-trixie.sh: apt-get download prometheus (trixie) failed: $(tail -3 "$dir/download.log")" >&2
	exit 1
}
rm -rf "$dir/root.tmp" "$dir/root"
mkdir -p "$dir/root.tmp"
dpkg-deb -x "$dir"/debs/prometheus_*.deb "$dir/root.tmp"
mv "$dir/root.tmp" "$dir/root"
"$bin" --version >"$dir/version" 2>&1 || {
	echo "prometheus-trixie.sh: $bin does not run here: $(head -3 "$dir/version")" >&2
	exit 1
}
ls "$dir"/debs >"$dir/done"
echo "$bin"
