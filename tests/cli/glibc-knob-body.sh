# SPDX-License-Identifier: GPL-2.0
# glibc-knob-body.sh: the part of t0039 (glibc 2.36, the system's) and t0127 (2.41, in a chroot)
# that is the same: sourced after the setup has set impl (the uprobe target), knob (the offset
# of __x86_rep_movsb_threshold in that libc), min and dflt (its loader's listed minimum and
# default), RUN and GKR (how the workload is run: a prefix, and its path there), DISTW and
# DISTP (its size table as written here and as read there), GK and F. See t0039's header.
# Lengths on both sides of every candidate: 600..6000 bytes, and today's T set to 4096.
awk 'BEGIN { for (s = 600; s <= 6000; s += 8) printf "%d\t1\n", s }' > "$DISTW"
TUN=glibc.cpu.x86_rep_movsb_threshold=4096
GLIBC_TUNABLES=$TUN "$COPYPROF" record --uprobe "$impl" -o p.json -- "${RUN[@]}" "$GKR" \
	dist="$DISTP" calls=20000 > /dev/null 2> rec.err || fail "record failed: $(cat rec.err)"
expect_eq "the process's threshold" "$(jq '.meta.glibc.rep_movsb_threshold.value' p.json)" 4096
expect_eq "glibc's minimum" "$(jq '.meta.glibc.rep_movsb_threshold.min' p.json)" "$min"
expect_eq "glibc's default" "$(jq '.meta.glibc.rep_movsb_threshold.default' p.json)" "$dflt"
expect_eq "its GLIBC_TUNABLES" "$(jq -r '.meta.glibc.tunables' p.json)" "$TUN"
# Every workload call is 600..6000 bytes; libc's own calls (stdio) are shorter.
expect_eq "calls of 600..6000 bytes" \
	"$(jq '[.sites[].buckets[] | select(.lo >= 576 and .hi <= 6144) | .count] | add' p.json)" 20000

"$COPYPROF" calibrate --quick --impl memmove -o cm.json > /dev/null 2> cal.err ||
	fail "calibrate failed: $(cat cal.err)"

# Modelled first: glibc's terms.
expect_exit 0 "$COPYPROF" estimate -i p.json -m cm.json --json
cp out model.json
# Not yet measured: no verdict, nothing to ship, and the command that measures the mix.
expect_eq "modelled: no verdict" "$(jq -r "$F.verdict.kind" model.json)" not_measured
expect_eq "modelled: nothing to ship" "$(jq -c "$F.verdict | [.to_ship, .advice]" model.json)" "[null,null]"
expect_eq "modelled: the command" "$(jq -r "$F.verdict.measure_command" model.json)" \
	"copyprof calibrate -i cm.json --mix p.json -o cm.json"
jq -r "$F.today.why" model.json | grep -q "x86_rep_movsb_threshold=4096 (set by GLIBC_TUNABLES)" ||
	fail "today: $(jq -r "$F.today.why" model.json)"
ts=$(jq -r "[$F.policies[] | select(.kind == \"threshold\") | .threshold // \"never\"] | join(\",\")" model.json)
echo "candidates: $ts"
least=$((min + 1))
[[ ,$ts, == *,$least,* ]] || fail "glibc's least accepted T=$least is not a candidate: $ts"
[[ $dflt == 4096 || ,$ts, == *,$dflt,* ]] || fail "glibc's default $dflt is not a candidate: $ts"
[[ ,$ts, == *,never,* ]] || fail "'never' is not a candidate: $ts"
jq -e "[$F.policies[] | select(.kind == \"threshold\" and .threshold != null and .threshold <= $min)] | length == 0" \
	model.json > /dev/null || fail "a candidate glibc would ignore: $ts"
# A threshold glibc ignores is refused, not costed.
expect_exit 0 "$COPYPROF" estimate -i p.json -m cm.json --thresholds "$min,8192" --json
expect_eq "refused" "$(jq "$F.glibc.refused_thresholds" out)" 1
expect_eq "the one left" "$(jq -c "[$F.policies[] | select(.kind == \"threshold\") | .threshold]" out)" "[8192]"

# glibc's own knob on the same mix, in the same environment, alternated with copyprof's paired
# measurement of it: knob, measure, knob, ... measure, knob (RUNS measurements, each between two
# runs of the knob), and each measurement is compared with the two knob runs around it. Both
# sides move from run to run (docs/benchmarks.md: a run here read every T<=2112 three
# to five points off the runs around it, on either side): the test judges the median of the
# paired differences, with its standard error, and takes 7 pairs more (up to 21) while that
# error is too large to judge by.
RUNS=0
truth() {
	GLIBC_TUNABLES=$TUN "${RUN[@]}" "$GKR" dist="$DISTP" knob="$knob" T="4096,${ts//never/18446744073709551615}" \
		rounds=300 seed="$1" > "truth$1.txt" || fail "the truth run failed"
}
# pairs N: N more measurements, each followed by a knob run.
pairs() {
	local c
	for c in $(seq $((RUNS + 1)) $((RUNS + $1))); do
		"$COPYPROF" calibrate --mix-cache warm -i cm.json --mix p.json --mix-budget 2 -o "mix$c.json" \
			> /dev/null 2> cal.err || fail "calibrate --mix failed: $(cat cal.err)"
		"$COPYPROF" estimate -i p.json -m "mix$c.json" --json > "est$c.json" 2> est.err ||
			fail "estimate on the measured mix failed: $(cat est.err)"
		truth $((c + 1))
	done
	RUNS=$((RUNS + $1))
}
truth 1
pairs 7

cp est1.json est.json
expect_eq "measured" "$(jq "$F.measurement.applied" est.json)" true
kind=$(jq -r "$F.verdict.kind" est.json)
ship=$(jq -r "$F.verdict.to_ship // \"\"" est.json)
advice=$(jq -r "$F.verdict.advice // \"\"" est.json)
best=$(jq -r "$F.verdict.policy" est.json)
v=${best#T=}
[ "$best" = never ] && v=18446744073709551615
if [ "$kind" = saves ] && [ "$v" != "$dflt" ]; then
	expect_eq "to ship" "$ship" "GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=$v"
	expect_eq "the advice is the line" "$advice" "$ship"
	expect_exit 0 "$COPYPROF" estimate -i p.json -m mix1.json
	expect_out "to ship: GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=$v"
elif [ "$kind" = saves ]; then
	# glibc's default is the best: the process's GLIBC_TUNABLES setting is what to drop.
	expect_eq "nothing to ship when the default saves" "$ship" ""
	expect_eq "drop the setting" "$advice" \
		"drop glibc.cpu.x86_rep_movsb_threshold from GLIBC_TUNABLES: glibc's default, $dflt, is the best threshold"
else
	expect_eq "nothing to ship without a saving ($kind)" "$ship" ""
	expect_eq "keep today's ($kind)" "$advice" \
		"keep today's setting (glibc.cpu.x86_rep_movsb_threshold=4096): no GLIBC_TUNABLES line to ship"
fi

expect_eq "truth rows" "$(grep -c '^T=' truth1.txt)" "$(($(echo "$ts" | tr ',' '\n' | wc -l) + 1))"
# Per threshold, "T= knob-median prediction-median difference-median its-error A/A": the
# difference of measurement c is its figure less the mean of knob runs c and c+1; the error of
# their median is 1.25 sigma / sqrt(n), sigma from their interquartile range (/ 1.35). The A/A
# controls are the floor of the noise: each side's (each run's largest excursion, their
# median), the knob's and the measurement's (today's code against itself in the same rounds)
# added.
compare() {
	local c
	for c in $(seq 1 $RUNS); do
		jq -r "$F.policies[] | select(.kind == \"threshold\") |
			[\"$c\", \"T=\" + (.threshold // \"18446744073709551615\" | tostring), .delta_pct] | @tsv" "est$c.json"
		jq -r "$F.measurement.control | [\"$c\", \"control\", ([.delta_pct, .ci_low, .ci_high] |
			map(fabs) | max)] | @tsv" "est$c.json"
	done > predicted.txt
	awk -v runs=$RUNS 'function med(s, n, a, i, j, t) { n = split(s, a, " ")
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
			q = int(n / 4) + 1; q1 = a[q]; q3 = a[n + 1 - q]; cnt = n
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
		function error(s) { med(s); return 1.25 * (q3 - q1) / 1.35 / sqrt(cnt) }
		FILENAME ~ /^truth/ { if (FNR == 1) run++
			if ($1 == "control") { x = 0; for (i = 2; i <= 4; i++) if (($i < 0 ? -$i : $i) > x) x = $i < 0 ? -$i : $i
				aa = aa " " x }
			if ($1 ~ /^T=/) { k[$1, run] = $2; ks[$1] = ks[$1] " " $2 } }
		FILENAME !~ /^truth/ && $2 == "control" { maa = maa " " $3 }
		FILENAME !~ /^truth/ && $2 != "control" { p[$2, $1] = $3; ps[$2] = ps[$2] " " $3; seen[$2] = 1 }
		END { floor = med(aa) + med(maa); for (t in seen) { d = ""
				for (c = 1; c <= runs; c++) d = d " " (p[t, c] - (k[t, c] + k[t, c + 1]) / 2)
				print t, med(ks[t]), med(ps[t]), med(d), error(d), floor } }' \
		$(for c in $(seq 1 $((RUNS + 1))); do echo "truth$c.txt"; done) predicted.txt |
		sort -t= -k2 -g > truth.txt
	# Thresholds whose median difference is not known within the test's least allowance (3 x
	# the A/A controls, 30% of the effect) at 3 errors.
	awk '{ lim = 0.3 * ($2 < 0 ? -$2 : $2); if (lim < 3 * $6) lim = 3 * $6
		if (3 * $5 > lim) printf "%s +-%.2f; ", $1, $5 }' truth.txt
}
unstable=$(compare)
while [ -n "$unstable" ] && [ "$RUNS" -lt 21 ]; do
	echo "$RUNS pairs: the median difference not known well enough ($unstable): 7 more"
	pairs 7
	unstable=$(compare)
done
echo "$RUNS pairs"
cat truth.txt
[ -z "$unstable" ] || skip "the machine's runs scattered too much to judge by, in $RUNS pairs (the median difference's error: $unstable)"
# Same sign wherever both are clearly non-zero; the difference within max(3 x the
# noise, 30% of the effect) everywhere.
awk '{ t = $1; m = $2; p = $3; d = $4 < 0 ? -$4 : $4; n = $5 + $6; clear = 2 * n
	allow = 3 * n; if (allow < 0.3 * (m < 0 ? -m : m)) allow = 0.3 * (m < 0 ? -m : m)
	printf "%s predicted %+.2f%%, glibc %+.2f%% (medians); paired differences %+.2f (+-%.2f, A/A both %.2f): off %.2f, allowed %.2f\n",
		t, p, m, $4, $5, $6, d, allow
	if ((p > clear && m < -clear) || (p < -clear && m > clear)) { print "  opposite signs"; bad = 1 }
	else if (d > allow) { print "  too far apart"; bad = 1 } }
	END { exit bad }' truth.txt > agree.txt || fail "copyprof's prediction and glibc's real knob disagree: $(cat agree.txt)"
cat agree.txt
expect_eq "thresholds compared" "$(grep -c '^T=.*allowed' agree.txt)" "$(echo "$ts" | tr ',' '\n' | wc -l)"
