#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# estimate_accuracy.sh: does the estimate agree with what the change really does? On three
# shipped mixes (mostly short: Google's fleet memcpy; mixed: service A's memcpy; mostly long:
# btrfs reading zstd data, the golden 6.12 profile) and the fleet memmove and memset mixes:
# one cost model (calibrate --quick), each mix measured paired into it (calibrate --mix/--hist),
# then estimate --validate, an independent paired replay under a new seed and buffers. Per
# threshold: the estimate (measured), the replay, the difference, the agreement allowed
# (max(3 points, 2 x the noise)), and the model beside them (docs/benchmarks.md).
# Usage: bench/estimate_accuracy.sh [BUILD_DIR] [OUT_DIR]   MIX_BUDGET=3 (seconds per family)
#   SITTINGS=1: each mix measured in this many sittings, GAP=60 seconds apart (calibrate
#   --sittings), so that the estimate's interval spans the host's states they met; the replay
#   is one sitting, as --validate takes it
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof tests/copyload
OUT=${2:-${TMPDIR:-/tmp}/copyprof-estimate-accuracy}
MIX_BUDGET=${MIX_BUDGET:-3}
SITTINGS=${SITTINGS:-1}
GAP=${GAP:-60}
CP=$BUILD/copyprof
D=$ROOT/examples/data/fleetbench-2023
command -v jq > /dev/null || { echo "estimate_accuracy: needs jq" >&2; exit 1; }
[ -x "$CP" ] || make -C "$ROOT" OUTPUT="${1:-build}" "${1:-build}/copyprof" > /dev/null
mkdir -p "$OUT"
cd "$OUT"
printf 'sittings per estimate: %s (%s s apart), budget %s s\n' "$SITTINGS" "$GAP" "$MIX_BUDGET"
printf 'machine: %s, %s CPUs, load average at start %s\n' \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
: > rows.txt; : > mix.log; : > validate.log
"$CP" calibrate --quick -o cm.json 2> cal.log > /dev/null
F='.inputs[0].families[0]'
total=0 agree=0
for spec in "short memcpy --hist $D/MemcpyGoogleFleet.txt" "mixed memcpy --hist $D/MemcpyGoogleA.txt" \
	"long memcpy -i $ROOT/tests/golden/profile-btrfs-zstd-6.12.json" \
	"short memmove --hist $D/MemmoveGoogleFleet.txt" "short memset --hist $D/MemsetGoogleFleet.txt"; do
	read -r name fam opt path <<< "$spec"
	mixopt=$opt
	[ "$opt" = -i ] && mixopt=--mix
	"$CP" calibrate -i cm.json "$mixopt" "$path" --family "$fam" --mix-budget "$MIX_BUDGET" \
		--sittings "$SITTINGS" --sitting-gap "$GAP" -o cm.json 2>> mix.log > /dev/null
	"$CP" estimate "$opt" "$path" --family "$fam" -m cm.json --validate --json > "$name-$fam.json" \
		2>> validate.log
	printf '\n%s %s (%s): %s; estimate %s rounds (%s quiet), replay %s (%s quiet), replay A/A %+.2f%%, today'"'"'s code in the replay %+.1f%%\n' \
		"$name" "$fam" "$(basename "$path")" "$(jq -r "$F.verdict.text" "$name-$fam.json")" \
		"$(jq "$F.measurement.rounds" "$name-$fam.json")" "$(jq "$F.measurement.quiet_rounds" "$name-$fam.json")" \
		"$(jq "$F.validation.rounds" "$name-$fam.json")" "$(jq "$F.validation.quiet_rounds" "$name-$fam.json")" \
		"$(jq "$F.validation.control.delta_pct" "$name-$fam.json")" \
		"$(jq "$F.validation.state_gap_pct // 0" "$name-$fam.json")"
	printf '  %-8s %9s %-17s %9s %-17s %7s %7s %9s\n' policy estimate "95% CI" replayed "95% CI" off allowed modelled
	jq -r --argjson nf "$(jq "$F.validation.noise_floor_pct" "$name-$fam.json")" \
		"$F.policies[] | select(.validate_pct != null) |
		[.name, .delta_pct, .ci_low, .ci_high, .validate_pct, .validate_ci_low, .validate_ci_high,
		 .model_pct, \$nf] | @tsv" "$name-$fam.json" |
		awk -F'\t' '{ h1 = ($4 - $3) / 2; h2 = ($7 - $6) / 2; h = h1 > h2 ? h1 : h2; if ($9 > h) h = $9
			allowed = 2 * h > 3 ? 2 * h : 3; off = $2 - $5; o = off < 0 ? -off : off
			printf "  %-8s %+8.2f%% %+7.2f .. %+7.2f %+8.2f%% %+7.2f .. %+7.2f %+7.2f %7.2f %+8.2f%%%s\n",
				$1, $2, $3, $4, $5, $6, $7, off, allowed, $8, (o > allowed ? "  DISAGREES" : "") }' |
		tee -a rows.txt
done
echo
awk '/^  / { n++; if ($0 !~ /DISAGREES/) a++ } END { printf "%d of %d rows agree within max(3 points, 2 x noise)\n", a, n }' rows.txt
