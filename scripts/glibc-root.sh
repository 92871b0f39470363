#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# glibc-root.sh: a root holding Debian 13's glibc (libc6 + libc6-dbg), for tests; prints its path.
#
# Usage: scripts/glibc-root.sh [SUITE]   (SUITE: trixie, the default: glibc 2.41)
# The two packages unpacked by scripts/debian-unpack.sh into CACHE/SUITE/root with
# lib64 -> usr/lib64 and lib -> usr/lib, kept between runs. A host-built dynamic program then
# runs on that glibc under `chroot ROOT /prog` (copied into the root). CACHE is
# $COPYPROF_TEST_CACHE, else /var/cache/copyprof-test. Run as root on Debian 12. Exit 0 with the
# root's path on stdout, 1 with the reason on stderr.
set -euo pipefail
suite=${1:-trixie}
exec "$(dirname "$0")/debian-unpack.sh" --root-links "$suite" "$suite" libc6 libc6-dbg
