#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# main-job.sh: what copyprof is for, on this machine, end to end (the README's first command):
#   1. a zstd-compressed btrfs in a loop file; write compressible data, drop the caches;
#   2. read it back under `copyprof record -p btrfs` (kprobes at the zstd/btrfs memcpy call sites
#      where the kernel allows them; otherwise the planner says why and falls back to sampling);
#   3. `copyprof calibrate --quick`: this CPU's cost of memcpy_orig, rep movsb, ... by length;
#   4. while `copyprof estimate` says a sampled family has too few samples for a verdict (its
#      JSON names the least it takes), record more reads, as many as the samples per read so
#      far say are missing, and `copyprof merge` them in, for at most about two minutes of
#      recording in all;
#   5. `copyprof calibrate --mix profile.json`: the profile's own mix replayed paired through
#      today's code and every threshold, warm and with cold destinations (all timing is here);
#   6. `copyprof estimate`: what REP MOVSB from each threshold would save, the verdict (a saving
#      with its 95% interval, "no difference" or "keep today's code") and a summary for a
#      commit message; estimate times nothing, so running it again prints the same;
#   7. `copyprof flamegraph --threshold 2048`: an SVG of where the seed patch's T saves time.
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

# record_reads N FILE: one recording of N reads of the file, the caches dropped before each.
record_reads() {
	"$CP" record -p btrfs -o "$2" -- sh -c "for i in \$(seq $1); do
		echo 3 > /proc/sys/vm/drop_caches; dd if='$SCRATCH/mnt/data' of=/dev/null bs=1M; done"
}
# samples_wanted: "HAVE WANT" for the sampled family with the most samples, as estimate sees the
# profile: WANT is estimate's least for a verdict, 0 once it has one (or nothing was sampled:
# kprobes counted every call), -1 while the profile holds no copy at all.
samples_wanted() {
	{ "$CP" estimate -i "$OUT/profile.json" -m "$OUT/costmodel.json" --json 2>/dev/null ||
		echo '{}'; } | jq -r '[.inputs[0].families[]?] as $f | [$f[] | select(.samples)] |
		if ($f | length) == 0 then "0 -1" elif length == 0 then "0 0"
		else max_by(.samples) | "\(.samples) \(.verdict.min_samples // 0)" end'
}

step "2. copyprof record -p btrfs while the file is read back 3 times, caches dropped each time"
reads=3
start=$(date +%s)
rm -f "$OUT"/profile-[0-9]*.json "$OUT"/record-[0-9]*.log
record_reads $reads "$OUT/profile.json" 2>&1 | tee "$OUT/record.log"
recorded=$(($(date +%s) - start))

step "3. copyprof calibrate --quick (this CPU's cost per call, by length)"
"$CP" calibrate --quick -o "$OUT/costmodel.json"

step "4. enough samples for a verdict? (recorded again while estimate says too few, at most ~2 min)"
BUDGET=120 # seconds of recording in all
pass=1
read -r have want < <(samples_wanted)
while [ "$want" -ne 0 ]; do
	if [ "$recorded" -ge "$BUDGET" ]; then
		echo "main-job: $have samples after $reads reads (${recorded} s of recording):" \
			"estimate wants $want; the budget of $BUDGET s is spent"
		break
	fi
	# The reads still missing, from the samples per read so far, a quarter more for the
	# scatter; twice as many while none is sampled; no more than the time left allows.
	if [ "$have" -gt 0 ] && [ "$want" -gt 0 ]; then
		more=$(((want - have) * reads * 5 / (4 * have) + 1))
	else
		more=$reads
	fi
	left=$(((BUDGET - recorded) * reads / (recorded > 0 ? recorded : 1)))
	[ "$more" -le "$left" ] || more=$((left > 1 ? left : 1))
	pass=$((pass + 1))
	echo "main-job: $have samples after $reads reads, estimate wants $want: $more reads more"
	t0=$(date +%s)
	record_reads "$more" "$OUT/profile-$pass.json" > "$OUT/record-$pass.log" 2>&1 ||
		{ cat "$OUT/record-$pass.log" >&2; exit 1; }
	recorded=$((recorded + $(date +%s) - t0))
	grep '^samples:' "$OUT/record-$pass.log" || true
	"$CP" merge "$OUT/profile.json" "$OUT/profile-$pass.json" -o "$OUT/merged.json" > /dev/null
	mv "$OUT/merged.json" "$OUT/profile.json"
	reads=$((reads + more))
	read -r have want < <(samples_wanted)
done
echo "main-job: profile.json: $reads reads in $pass recording(s), ${recorded} s;" \
	"$have samples in the most sampled family"
"$CP" report -i "$OUT/profile.json" > "$OUT/report.txt"
head -n 40 "$OUT/report.txt"

step "5. copyprof calibrate --mix (this very mix, paired, with warm and with cold destinations)"
"$CP" calibrate -i "$OUT/costmodel.json" --mix "$OUT/profile.json" -o "$OUT/costmodel.json"
"$CP" calibrate -i "$OUT/costmodel.json" --mix "$OUT/profile.json" --mix-cache dst-flushed \
	-o "$OUT/costmodel.json"
"$CP" calibrate --table -i "$OUT/costmodel.json" | tee "$OUT/calibrate-table.txt"

step "6. copyprof estimate (times nothing: the same inputs give the same answer)"
"$CP" estimate -i "$OUT/profile.json" -m "$OUT/costmodel.json" | tee "$OUT/estimate.txt"
"$CP" estimate -i "$OUT/profile.json" -m "$OUT/costmodel.json" --cache dst-flushed \
	> "$OUT/estimate-dst-flushed.txt"
echo
# The same verdict whether the copies find their destination warm or cold, or the outputs say
# why not: the cache state is part of the answer.
for f in estimate estimate-dst-flushed; do
	printf 'main-job: %-22s %s\n' "$f:" "$(grep -m1 '^  verdict:' "$OUT/$f.txt" | sed 's/^  //')"
done

step "7. copyprof flamegraph: where REP MOVSB from 2048 bytes saves time (green) or costs it (red), as measured by calibrate --mix (hatched: not measured)"
"$CP" flamegraph -i "$OUT/profile.json" -m "$OUT/costmodel.json" --threshold 2048 \
	-o "$OUT/flamegraph.svg" || echo "main-job: flamegraph.svg says what went wrong"

step "done: $OUT holds profile.json, report.txt, costmodel.json, estimate.txt, flamegraph.svg and the logs"
