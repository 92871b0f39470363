#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# glibc_truth.sh: does copyprof predict what glibc's REP MOVSB threshold really does? For each
# distribution (default: mostly short, Google's fleet memcpy; mixed, service A's; mostly long,
# uniform 384-4096 and 1-16384 bytes), a workload of our own (tests/workload/glibc_knob.c)
# copies lengths drawn from it through glibc's memcpy; copyprof records it with a uprobe on the
# implementation glibc picks here, calibrates, measures the mix paired (calibrate --mix) and
# estimates; then the real knob: glibc's own __x86_rep_movsb_threshold set between passes of
# the same workload in paired rounds (RUNS processes, each with an A/A control), and, coarser,
# whole runs of the workload under GLIBC_TUNABLES. Per T: measured (median of the runs'
# medians, their range) against predicted (the estimate and its interval), and whether they
# agree within max(3 points, 2 x the noise), the noise of both sides (the prediction's
# half-interval, and the knob's half-range over its runs or its A/A control, the larger: as
# t0039); per distribution, the estimate's verdict against
# the one the knob shows (docs/benchmarks.md#glibcs-threshold-predicted-and-real).
# Usage: bench/glibc_truth.sh [BUILD_DIR] [OUT_DIR]
#        env: RUNS=3 ROUNDS=1000 MIX_BUDGET=5 DISTS="name:FILE ..." (glibc_knob's size tables)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-build}
OUT=${2:-${TMPDIR:-/tmp}/copyprof-glibc-truth}
RUNS=${RUNS:-3}
ROUNDS=${ROUNDS:-1000}
MIX_BUDGET=${MIX_BUDGET:-5}
CP=$ROOT/$B/copyprof
WL=$ROOT/$B/tests/glibc_knob
D=$ROOT/examples/data/fleetbench-2023
NEVER=18446744073709551615
[ "$(id -u)" -eq 0 ] || { echo "glibc_truth: run as root (uprobes)" >&2; exit 1; }
command -v jq > /dev/null || { echo "glibc_truth: needs jq" >&2; exit 1; }
make -C "$ROOT" OUTPUT="$B" "$B/copyprof" "$B/tests/glibc_knob" > /dev/null
mkdir -p "$OUT"
cd "$OUT"
LIBC=$(ldd "$WL" | awk '$1 == "libc.so.6" { print $3 }')

# glibc's threshold variable: its offset in libc, from libc6-dbg's symbols (by build id).
id=$(readelf -n "$LIBC" 2> /dev/null | awk '/Build ID/ { print $3 }' || true)
dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
[ -r "$dbg" ] || { echo "glibc_truth: no $dbg (install libc6-dbg)" >&2; exit 1; }
knob=$(readelf -sW "$dbg" 2> /dev/null | awk '$8 == "__x86_rep_movsb_threshold" { print "0x" $2 }' || true)
[ -n "$knob" ] || { echo "glibc_truth: no __x86_rep_movsb_threshold in $dbg" >&2; exit 1; }
# The implementation glibc's memcpy resolves to here, as copyprof names it.
impl=$("$CP" record --uprobe "$LIBC:memcpy" -d 0.1 -o x.json 2>&1 |
	sed -n 's/.*Probe that: copyprof record --uprobe \([^ ]*\) (docs.*/\1/p' || true)
[ -n "$impl" ] || { echo "glibc_truth: copyprof named no implementation for memcpy" >&2; exit 1; }
printf 'machine: %s, %s CPUs, load %s; %s; knob at %s; %s processes x %s rounds\n' \
	"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" "${impl##*:}" "$knob" "$RUNS" "$ROUNDS"
awk 'BEGIN { for (s = 384; s <= 4096; s++) printf "%d\t1\n", s }' > long.txt
awk 'BEGIN { for (s = 1; s <= 16384; s++) printf "%d\t1\n", s }' > long16k.txt
DISTS=${DISTS:-"short:$D/MemcpyGoogleFleet.txt mixed:$D/MemcpyGoogleA.txt long:$OUT/long.txt long16k:$OUT/long16k.txt"}
"$CP" calibrate --quick --impl memmove -o cm.json 2> cal.log > /dev/null
F='.inputs[0].families[0]'
: > rows.txt
: > verdicts.txt

for spec in $DISTS; do
	name=${spec%%:*} dist=${spec#*:}
	"$CP" record --uprobe "$impl" -o "$name.json" -- "$WL" dist="$dist" calls=200000 \
		> /dev/null 2> "$name.rec.log"
	"$CP" calibrate -i cm.json --mix "$name.json" --mix-budget "$MIX_BUDGET" -o cm.json \
		2> "$name.mix.log" > /dev/null
	"$CP" estimate -i "$name.json" -m cm.json --json > "$name.est.json"
	today=$(jq -r "$F.glibc.today" "$name.est.json")
	ts=$(jq -r "[$F.policies[] | select(.kind == \"threshold\") | .threshold // \"never\"] | join(\",\")" \
		"$name.est.json")
	for r in $(seq 1 "$RUNS"); do
		"$WL" dist="$dist" knob="$knob" T="$today,${ts//never/$NEVER}" rounds="$ROUNDS" \
			seed="$r" > "$name.truth$r.txt"
	done
	# Whole processes under the real tunable, alternated: coarse (drawing the calls counts too).
	for t in default 513 4096 never; do : > "$name.proc-$t.txt"; done
	for k in 1 2 3 4 5; do
		for t in default 513 4096 never; do
			v=$t
			[ "$t" = never ] && v=$NEVER
			s0=$(date +%s%N)
			if [ "$t" = default ]; then
				"$WL" dist="$dist" calls=2000000 > /dev/null
			else
				GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=$v "$WL" dist="$dist" \
					calls=2000000 > /dev/null
			fi
			echo "$((($(date +%s%N) - s0) / 1000))" >> "$name.proc-$t.txt"
		done
	done
	# The noise of the truth: the largest A/A control (its median or half-interval) of the runs.
	aa=$(awk '$1 == "control" { h = ($4 - $3) / 2; o = $2 < 0 ? -$2 : $2; print (h > o ? h : o) }' \
		"$name".truth*.txt | sort -g | tail -n 1)
	printf '\n%s (%s), today T=%s, A/A noise %.2f points\n' "$name" "$(basename "$dist")" "$today" "$aa"
	printf '  %-8s %-30s %-30s %7s  %s\n' T "measured % (median, range)" "predicted % (95% CI)" off agrees
	jq -r "$F.policies[] | select(.kind == \"threshold\") |
		[(.threshold // \"never\" | tostring), .delta_pct, .ci_low, .ci_high] | @tsv" "$name.est.json" |
		while IFS=$'\t' read -r t p lo hi; do
			key=T=$t
			[ "$t" = never ] && key=T=$NEVER
			awk -v k="$key" '$1 == k { print $2 }' "$name".truth*.txt | sort -g |
				awk -v t="$t" -v p="$p" -v lo="$lo" -v hi="$hi" -v aa="$aa" -v name="$name" '
				{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]; h = (hi - lo) / 2; r = (v[NR] - v[1]) / 2
					n = h + (r > aa ? r : aa)
					allowed = 2 * n > 3 ? 2 * n : 3; d = m - p; if (d < 0) d = -d
					printf "  %-8s %+7.2f (%+.2f .. %+.2f)        %+7.2f (%+.2f .. %+.2f)       %+6.2f  %s\n",
						t, m, v[1], v[NR], p, lo, hi, p - m, d <= allowed ? "yes" : "NO"
					printf "%s %s %s %s %s %s\n", name, t, m, v[NR] - v[1], p, d <= allowed ? "yes" : "NO" > "/dev/stderr" }' \
				2>> rows.txt
		done
	# The knob's verdict: the cheapest T saves if it beats today beyond the noise (the A/A
	# control's, twice, and the runs' range), costs if every T costs beyond it, else none.
	est=$(jq -r "$F.verdict.kind + \" \" + ($F.verdict.policy // \"-\")" "$name.est.json")
	awk -v n="$name" -v aa="$aa" -v est="$est" '$1 == n {
			lim = 2 * aa > $4 ? 2 * aa : $4; if (lim < 0.5) lim = 0.5
			if (!seen || $3 < best) { best = $3; bt = $2; blim = lim }
			if (!seen) costs = 1
			if ($3 <= lim) costs = 0
			seen = 1; m[$2] = $3; L[$2] = lim }
		END { split(est, e, " "); kind = best < -blim ? "saves" : costs ? "costs" : "none"
			if (e[1] == "saves") { t = substr(e[2], 3); if (e[2] == "never") t = "never"
				ok = kind == "saves" && m[t] <= best + blim + L[t] }
			else ok = (e[1] == "no_difference" && kind == "none") || (e[1] == "keep_today" && kind == "costs")
			printf "  verdict: estimate %s; the knob: %s (best T=%s, %+.2f%%, noise %.2f): %s\n",
				est, kind, bt, best, blim, ok ? "agree" : "DISAGREE"
			print n, ok ? "agree" : "DISAGREE" > "/dev/stderr" }' rows.txt 2>> verdicts.txt
	printf '  whole processes under GLIBC_TUNABLES (5 alternated runs, median time over the default'"'"'s):'
	for t in 513 4096 never; do
		printf ' T=%s %+.1f%%' "$t" "$(paste -d' ' "$name.proc-default.txt" "$name.proc-$t.txt" |
			awk '{ print 100 * ($2 / $1 - 1) }' | sort -g | sed -n 3p)"
	done
	echo
done
echo
awk '{ n++; if ($NF == "yes") a++ } END { printf "%d of %d thresholds agree within max(3 points, 2 x noise)\n", a, n }' rows.txt
awk '{ n++; if ($NF == "agree") a++ } END { printf "%d of %d verdicts agree with the knob\n", a, n }' verdicts.txt
