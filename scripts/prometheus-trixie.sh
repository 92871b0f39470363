#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# prometheus-trixie.sh: Debian 13's prometheus (2.53) unpacked for tests; prints its binary's path.
#
# Usage: scripts/prometheus-trixie.sh
# The prometheus package of Debian 13 (trixie), unpacked by scripts/debian-unpack.sh into
# CACHE/trixie-prometheus/root and kept between runs. The binary needs glibc 2.34 or later, so
# it runs on Debian 12's. CACHE is $COPYPROF_TEST_CACHE, else /var/cache/copyprof-test. Run as
# root on Debian. Exit 0 with the path on stdout, 1 with the reason on stderr.
set -euo pipefail
root=$("$(dirname "$0")/debian-unpack.sh" trixie-prometheus trixie prometheus)
bin=$root/usr/bin/prometheus
version=$("$bin" --version 2>&1) || {
	echo "prometheus-trixie.sh: $bin does not run here: $(echo "$version" | head -3)" >&2
	exit 1
}
echo "$bin"
