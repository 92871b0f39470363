#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# btrfs-zstd-guest.sh: the seed's question on a real distribution kernel. A Debian 6.12 guest
# (qemu TCG, ERMS without FSRM: memcpy_orig for every length, the seed's Cooper Lake case) reads
# a zstd-compressed btrfs file back under `copyprof record -p btrfs`; on the host, `report
# --debuginfo` adds source lines and the zdss_* stage labels from the kernel's -dbg package,
# and `estimate` costs the recorded sites with the seed's Cooper Lake figures. Root; downloads
# the kernel (60 MB) and its -dbg package (1 GB) once. The output is examples/btrfs-zstd-guest.txt.
# Usage: examples/btrfs-zstd-guest.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CP=$ROOT/${1:-build}/copyprof
OUT=${2:-$ROOT/btrfs-zstd-guest-out}
mkdir -p "$OUT"

echo "== in the guest: copyprof record -p btrfs -- dd if=/mnt/data (50 MB, zstd, caches dropped)"
"$ROOT/tests/vm/run.sh" --kernel 6.12 --disk btrfs-zstd --bin "$CP" \
	--bin "$ROOT/tests/vm/t-preset-btrfs-guest.sh" --out "$OUT/guest" -- \
	t-preset-btrfs-guest.sh > "$OUT/guest.log" 2>&1
grep -E '^(kprobe|hwbp|not covered)|kprobe:|skipped' "$OUT/guest/record.err" | head -n 8 || true

rel=$(jq -r .meta.kernel "$OUT/guest/btrfs.json")
dbg=$("$ROOT/tests/vm/fetch-dbg.sh" "$rel" kernel/fs/btrfs/btrfs.ko)
echo
echo "== on the host: copyprof report --debuginfo (linux-image-$rel-dbg)"
"$CP" report -i "$OUT/guest/btrfs.json" --debuginfo "$dbg" --json > "$OUT/btrfs-lines.json"
"$CP" report -i "$OUT/btrfs-lines.json" | grep -E '^(site|  source|  calls)'
echo
echo "== copyprof estimate with the seed's Cooper Lake figures"
"$CP" estimate -i "$OUT/btrfs-lines.json" -m "$ROOT/examples/costmodels/cooperlake-8321hc-seed.json" \
	--family memcpy --at 2048 | sed -n '/per site/,$p'
