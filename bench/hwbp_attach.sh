#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# hwbp_attach.sh: in a Debian guest (qemu TCG), what a hardware breakpoint hit costs the traced
# code next to a kprobe hit on the same site (N one-byte reads of /dev/zero, one hit on
# read_zero each, bare / kprobe / breakpoint alternated three times in one boot; the traced
# command times its own dd, so record's start and end stay out), and what one rotation step
# of the multiplexer costs (PERF_EVENT_IOC_MODIFY_ATTRIBUTES per CPU's event, timed by record
# around the ioctl during t-multiplex's 8-sites-over-4-registers run).
# TCG makes every number slow in absolute terms (a debug exception is emulated): compare the
# two mechanisms by their ratio; the planner prints the breakpoint figure as a TCG figure.
# Usage: bench/hwbp_attach.sh [SERIES [BUILD_DIR]]   (default 6.12 build), MUX_COST=reads
#        bench/hwbp_attach.sh --from DIR   (DIR: a guest's /out kept by
#        MUX_COST=N MUX_KEEP=dir tests/vm/t-multiplex.sh, e.g. dir/6.12)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [[ ${1:-} == --from ]]; then
	OUT=$2
else
	SERIES=${1:-6.12} BUILD=$ROOT/${2:-build}
	. "$ROOT/bench/lib.sh"
	bench_need "$BUILD" copyprof
	OUT=$(mktemp -d /tmp/copyprof-bench-hwbp.XXXXXX)
	trap '[ -n "${KEEP:-}" ] || rm -rf "$OUT"' EXIT
	"$ROOT/tests/vm/run.sh" --kernel "$SERIES" --disk btrfs-zstd --bin "$BUILD/copyprof" \
		--bin "$ROOT/tests/vm/t-multiplex-guest.sh" --bin "$ROOT/tests/vm/guest-lib.sh" \
		--out "$OUT" --timeout 1200 -- \
		"MUX_N=20000 MUX_COST=${MUX_COST:-300000} t-multiplex-guest.sh" >"$OUT/console.log" 2>&1
fi
[[ -s $OUT/cost ]] || { echo "bench: no $OUT/cost (was MUX_COST set?)" >&2; exit 1; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Per repetition: WHAT's dd time minus the bare one's, over the N hits (lines: what n rep t0 t1).
per_hit() {
	awk -v w="$1" '{ d[$1 " " $3] = $5 - $4; n = $2 }
		END { for (r = 1; r <= 3; r++) printf "%.3f\n", (d[w " " r] - d["bare " r]) * 1e6 / n }' \
		"$OUT/cost"
}
n=$(awk '{ print $2; exit }' "$OUT/cost")
for w in kprobe hwbp; do
	calls=$(jq '.sites[0].calls' "$OUT/cost-$w.json")
	[[ $calls == "$n" ]] || echo "bench: warning: $w counted $calls hits for $n reads"
done
kp=$(per_hit kprobe | median) bp=$(per_hit hwbp | median)
printf '%d one-byte reads of /dev/zero, bare (median of 3): %.2f s\n' "$n" \
	"$(awk '$1 == "bare" { print $5 - $4 }' "$OUT/cost" | median)"
echo "per-hit cost, each of 3 repetitions (us): kprobe $(per_hit kprobe | tr '\n' ' ')"
echo "                                          breakpoint $(per_hit hwbp | tr '\n' ' ')"
printf 'per-hit cost (median of 3, TCG): kprobe %.1f us, breakpoint %.1f us, ratio %.2f\n' \
	"$kp" "$bp" "$(echo "$bp / $kp" | bc -l)"
grep -h 'per move' "$OUT/mux.err" | sed 's/^[^:]*: */rotation (t-multiplex, 8 sites over 4 registers): /'
