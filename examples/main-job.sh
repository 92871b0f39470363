#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# main-job.sh: what copyprof is for, on this machine, end to end (the README's first command):
#   1. a zstd-compressed btrfs in a loop file; write compressible data, drop the caches;
#   2. read it back under `copyprof record -p btrfs` (kprobes at the zstd/btrfs memcpy call sites
#      where the kernel allows them; otherwise the planner says why and falls back to sampling);
#   3. `copyprof calibrate --quick --mix profile.json`: this CPU's cost of memcpy_orig, rep movsb,
#      ... by length, then the profile's own mix replayed paired through today's code and every
#      threshold, warm and with cold destinations (all timing is here);
#   4. `copyprof estimate`: what REP MOVSB from each threshold would save, the verdict (a saving
#      with its 95% interval, "no difference" or "keep today's code") and a summary for a
#      commit message; estimate times nothing, so running it again prints the same;
#   5. `copyprof flamegraph --threshold 2048`: an SVG of where the seed patch's T saves time.
# Everything lands in one folder; the mount and loop device are removed, also on failure.
# Usage: examples/main-job.sh [BUILD_DIR] [OUT_DIR] [DATA_MB]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
OUT=${2:-$ROOT/main-job-out}
MB=${3:-300}
CP=$BUILD/copyprof
SCRATCH=$(mktemp -d /tmp/copyprof-main-job.XXXXXX)
trap '"$ROOT/scripts/btrfs-scratch.sh" down "$SCRATCH"; rmdir "$SCRATCH" 2>/dev/null || true' EXIT
mkdir -p "$OUT"
[ "$(id -u)" -eq 0 ] || { echo "main-job: run as root (loop devices, mounts and BPF)" >&2; exit 1; }

step() { printf '\n== %s\n' "$*"; }

step "1. a zstd btrfs on a loop device, $MB MB of log-like text written, caches dropped"
"$ROOT/scripts/btrfs-scratch.sh" up "$SCRATCH" $((MB * 3 / 2 + 256))
"$ROOT/scripts/btrfs-scratch.sh" fill "$SCRATCH" "$MB"

step "2. copyprof record -p btrfs while the file is read back 3 times, caches dropped each time"
"$CP" record -p btrfs -o "$OUT/profile.json" -- sh -c "for i in 1 2 3; do
	echo 3 > /proc/sys/vm/drop_caches; dd if='$SCRATCH/mnt/data' of=/dev/null bs=1M; done" \
	2>&1 | tee "$OUT/record.log"
"$CP" report -i "$OUT/profile.json" > "$OUT/report.txt"
head -n 40 "$OUT/report.txt"

step "3. copyprof calibrate --quick --mix (this CPU's cost per call, by length, then this very mix, paired, with warm and with cold destinations)"
"$CP" calibrate --quick --mix "$OUT/profile.json" -o "$OUT/costmodel.json"
"$CP" calibrate -i "$OUT/costmodel.json" --mix "$OUT/profile.json" --mix-cache dst-flushed \
	-o "$OUT/costmodel.json"
"$CP" calibrate --table -i "$OUT/costmodel.json" | tee "$OUT/calibrate-table.txt"

step "4. copyprof estimate (times nothing: the same inputs give the same answer)"
"$CP" estimate -i "$OUT/profile.json" -m "$OUT/costmodel.json" | tee "$OUT/estimate.txt"
"$CP" estimate -i "$OUT/profile.json" -m "$OUT/costmodel.json" --cache dst-flushed \
	> "$OUT/estimate-dst-flushed.txt"
echo
# The same verdict whether the copies find their destination warm or cold, or the outputs say
# why not: the cache state is part of the answer.
for f in estimate estimate-dst-flushed; do
	printf 'main-job: %-22s %s\n' "$f:" "$(grep -m1 '^  verdict:' "$OUT/$f.txt" | sed 's/^  //')"
done

step "5. copyprof flamegraph: where REP MOVSB from 2048 bytes would save time (green) or cost it (red)"
"$CP" flamegraph -i "$OUT/profile.json" -m "$OUT/costmodel.json" --threshold 2048 \
	-o "$OUT/flamegraph.svg" || echo "main-job: flamegraph.svg says what went wrong"

step "done: $OUT holds profile.json, report.txt, costmodel.json, estimate.txt, flamegraph.svg and the logs"
