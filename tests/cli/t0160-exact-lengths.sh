#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0160-exact-lengths: a uprobe on a workload that makes a size table's calls (a third of them at
# 1000 B, the rest spread over 64..4088 B, shuffled) records exact counts for the spike and for
# the site's first 64 distinct lengths, every one equal to the table's; merge sums them and a
# profile without them reads as smoothed; estimate says what share of the calls its replay
# draws as themselves. The table is replayed exactly: calibrate --mix draws every size as itself (the draw
# itself is checked over many draws in tests/unit/test_paired.c: test_exact_draws), estimate
# says so in its text, JSON and summary, a measurement stored before exact lengths says what it
# drew, and REP MOVSB against today's memcpy in the replay matches the same table's calls timed
# in a process of the test's own (paired, interleaved, around each replay) within max(3 points,
# 2x the measured noise). The allowance is measured, never a constant of this CPU.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd cc
F='.inputs[0].families[0]'
cd "$TMP"

cc -O2 -Wall -o spikeload "$ROOT/tests/workload/spikeload.c" || fatal "cannot build spikeload.c"
# 503 spread sizes with 2..6 calls each, and 1000 B with half as many as all of them.
awk 'BEGIN { print "size,count"; for (s = 64; s < 4096; s += 8) if (s != 1000) {
	c = 2 + (s * 7919) % 5; n += c; rows = rows s "," c "\n" }
	printf "1000,%d\n%s", n / 2, rows }' > spike.csv
calls=$(awk -F, 'NR > 1 { t += $2 } END { print t }' spike.csv)
spike=$(awk -F, '$1 == 1000 { print $2 }' spike.csv)

# Recorded: the spike and the first 64 distinct lengths from 64 B, each count the table's.
"$COPYPROF" record --uprobe ./spikeload:sl_copy -o rec.json -- ./spikeload run spike.csv \
	> /dev/null 2> err.txt || fatal "record failed: $(cat err.txt)"
expect_eq "recorded calls" "$(jq '.sites[0].calls' rec.json)" "$calls"
expect_eq "the spike, exactly" "$(jq -c '[.sites[0].exact[] | select(.len == 1000) | .calls]' rec.json)" "[$spike]"
expect_eq "64 exact lengths" "$(jq '.sites[0].exact | length' rec.json)" 64
jq -r '.sites[0].exact[] | "\(.len),\(.calls)"' rec.json > got.txt
expect_eq "each exact count the table's" \
	"$(awk -F, 'NR == FNR { w[$1] = $2; next } w[$1] != $2 { bad++ } END { print bad + 0 }' spike.csv got.txt)" 0
expect_exit 0 "$COPYPROF" merge rec.json rec.json -o twice.json
expect_eq "merged: summed" "$(jq -c '[.sites[0].exact[] | select(.len == 1000) | .calls]' twice.json)" "[$((2 * spike))]"
# Drawn as themselves: the listed lengths' calls (nothing below 64 B here).
want=$(jq '.sites[0] | 100 * ([.exact[].calls] | add) / .calls' rec.json)

"$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold,libc_memcpy --cache warm \
	-o cm.json > /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fatal "calibrate --quick exited $rc: $(cat err.txt)"
jq '.sites[0].exact[0].len = 63' rec.json > bad.json
expect_exit 1 "$COPYPROF" estimate -i bad.json -m cm.json --model-only
expect_err "site 0: exact row 0 needs unsigned integers len \(64 \.\. 2\^40 - 1\) and calls"

# Sittings of the table's replay, each between two runs of the in-process timing: REP MOVSB's
# ("always") time a call against today's memcpy, percent, from each. The two harnesses run one
# after the other, and this host's state moves REP MOVSB's cost against memcpy's between them
# (Zen 3 VM: 1000 B copies at 1.49x memcpy's time in one minute, 1.65x in another, both CPUs
# alike): each sitting is judged on the replay minus the mean of the runs around it.
pcts=() hs=() ds=() hnoise=0
replay() {
	"$COPYPROF" calibrate -i cm.json --hist spike.csv --today libc_memcpy --mix-budget 1 \
		-o "c$1.json" > /dev/null 2> err.txt || fatal "calibrate --hist failed: $(cat err.txt)"
	"$COPYPROF" estimate --hist spike.csv -m "c$1.json" --today libc_memcpy --json \
		> "e$1.json" || fatal "estimate $1 failed"
}
# The in-process timing at the replay's working set: its percentage into $h, its noise kept.
inprocess() {
	local n
	read -r h n _ < <(./spikeload spike.csv "$ws" 400) || fatal "spikeload failed"
	hnoise=$(awk -v a="$hnoise" -v b="$n" 'BEGIN { print (b > a ? b : a) }')
}
replay 0
ws=$(jq "$F.measurement.conditions.working_set_bytes" e0.json)
sitting() {
	local i=$1 before
	inprocess
	before=$h
	replay "$i"
	expect_eq "sitting $i: applied" "$(jq "$F.measurement.applied" "e$i.json")" true
	expect_eq "sitting $i: every call at its own length" \
		"$(jq "$F.measurement.conditions.lengths_exact_pct" "e$i.json")" 100
	expect_eq "sitting $i: the working set of the first" \
		"$(jq "$F.measurement.conditions.working_set_bytes" "e$i.json")" "$ws"
	pcts+=("$(jq "$F.measurement.policies[] | select(.name == \"always\") | .quiet.delta_pct" "e$i.json")")
	inprocess
	hs+=("$(awk -v a="$before" -v b="$h" 'BEGIN { printf "%.3f", (a + b) / 2 }')")
	ds+=("$(awk -v c="${pcts[-1]}" -v h="${hs[-1]}" 'BEGIN { printf "%.3f", c - h }')")
}
for i in 1 2 3; do
	sitting "$i"
done
expect_eq "calls" "$(jq "$F.calls" e1.json)" "$calls"

# The recorded profile's replay: its exact lengths as themselves, the rest smoothed; a profile
# without the list (older) is smoothed wholly, under the digest it always had.
"$COPYPROF" calibrate -i cm.json --mix rec.json --today libc_memcpy --mix-budget 1 -o cr.json \
	> /dev/null 2> err.txt || fatal "calibrate --mix failed: $(cat err.txt)"
expect_exit 0 "$COPYPROF" estimate -i rec.json -m cr.json --today libc_memcpy --json
expect_eq "recorded: applied" "$(jq "$F.measurement.applied" out)" true
awk -v a="$(jq "$F.measurement.conditions.lengths_exact_pct" out)" -v b="$want" \
	'BEGIN { d = a - b; exit !(d < 1e-6 && -d < 1e-6) }' ||
	fail "recorded: $(jq "$F.measurement.conditions.lengths_exact_pct" out)% drawn exact, the profile lists $want%"
expect_exit 0 "$COPYPROF" estimate -i rec.json -m cr.json --today libc_memcpy
expect_out "^    lengths exact for [0-9.]+% of calls \(below 64 B and the input's exact lengths\), uniform within their buckets around each bucket's mean for the rest$"
jq 'del(.sites[].exact)' rec.json > old.json
expect_exit 0 "$COPYPROF" calibrate -i cm.json --mix old.json --today libc_memcpy --mix-budget 1 \
	-o co.json
expect_exit 0 "$COPYPROF" estimate -i old.json -m co.json --today libc_memcpy --json
expect_eq "old profile: nothing drawn exact" "$(jq "$F.measurement.conditions.lengths_exact_pct" out)" 0
[ "$(jq "$F.mix_digest" out)" != "$(jq ".paired[0].digest" cr.json)" ] ||
	fail "the profile with exact lengths has the digest of the one without"

# Stated: text, summary, and an older measurement (no lengths_exact_pct) as what it drew.
expect_exit 0 "$COPYPROF" estimate --hist spike.csv -m c1.json --today libc_memcpy
expect_out "^    lengths exact for 100% of calls \(below 64 B and the input's exact lengths\)$"
jq -r "$F.summary" e1.json | tr '\n' ' ' | grep -q "lengths drawn from the mix.s buckets in proportion to their calls, exact for 100% of calls (below 64 B and the input.s exact lengths), alignments uniform" ||
	fail "summary: no word of how the lengths were drawn"
jq '(.paired[].conditions) |= del(.lengths_exact_pct)' c1.json > oldm.json
expect_exit 0 "$COPYPROF" estimate --hist spike.csv -m oldm.json --today libc_memcpy
expect_out "^    lengths exact below 64 B and from 64 B uniform around each bucket's recorded mean within the bucket$"
# The spike split between 992 and 1008 B: the same buckets, calls and bytes, other exact
# lengths: another mix, its replay filed under another digest.
awk -F, '$1 == 1000 { a = int($2 / 2); print "992," a; print "1008," a; if ($2 > 2 * a) print "1000," $2 - 2 * a; next } { print }' \
	spike.csv > split.csv
expect_exit 0 "$COPYPROF" estimate --hist split.csv -m c1.json --today libc_memcpy --json
expect_eq "split spike: the same buckets (modelled alike)" \
	"$(jq -c "$F | [.calls, [.policies[].ns_per_call]]" out)" \
	"$(jq -c "$F | [.calls, [.policies[].ns_per_call]]" e1.json)"
[ "$(jq "$F.mix_digest" out)" != "$(jq "$F.mix_digest" e1.json)" ] ||
	fail "split spike: the same digest as the spike's"
expect_eq "split spike: not this measurement" "$(jq "$F.measurement.applied // false" out)" false

# The median of the sittings and their half-range (from 5 sittings, without the two extremes).
mid_spread() {
	sort -g | awk '{ v[NR] = $1 } END { lo = 1; hi = NR; if (NR >= 5) { lo = 2; hi = NR - 1 }
		printf "%.3f %.3f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2,
			(v[hi] - v[lo]) / 2 }'
}
# Judged on the sittings' differences: their median within max(3 points, 2x the larger of the
# in-process noise, the replay's spread and the differences' own spread). The in-process timing
# once warmed memcpy on the order it then timed, and read REP MOVSB 2.2-3.9 points dearer than
# the replay in every sitting of a Zen 3 run; warmed on another order, -0.1 to -1.7.
judge() {
	read -r cp cpnoise < <(printf '%s\n' "${pcts[@]}" | mid_spread)
	read -r h _ < <(printf '%s\n' "${hs[@]}" | mid_spread)
	read -r d dspread < <(printf '%s\n' "${ds[@]}" | mid_spread)
	tol=$(awk -v a="$hnoise" -v b="$dspread" -v c="$cpnoise" 'BEGIN {
		n = a; if (b > n) n = b; if (c > n) n = c; t = 3; if (2 * n > t) t = 2 * n
		printf "%.3f", t }')
	echo "# REP MOVSB vs today's memcpy on the table ($spike of $calls calls at 1000 B): replay ${pcts[*]} (median $cp, spread $cpnoise); in-process around each ${hs[*]} (noise $hnoise); differences ${ds[*]} (median $d, spread $dspread); allowance $tol points"
	awk -v d="$d" -v t="$tol" 'BEGIN { exit !(d <= t && -d <= t) }'
}
# Three sittings disagreeing beyond their own spread are measured again, as calibrate measures
# a doubtful point again (measure/measure_retry.h): three more, judged on all six.
if ! judge; then
	for i in 4 5 6; do
		sitting "$i"
	done
	judge
fi &&
	pass "the replay of the exact table agrees with the in-process timing around it: $cp against $h points (differences' median $d, allowance $tol)" ||
	fail "replay $cp points against in-process $h: differences' median $d, more than $tol"
expect_no_leftover_progs
exit 0
