#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0034-estimate-verdict: estimate is a pure function of its inputs (two runs, byte-identical
# text and JSON); a verdict only from a paired measurement of the mix: cost models given one by
# hand (tests/golden/paired.jq, the figures the model's own, so each verdict is known) give
# today cheapest -> "keep today's code", a best interval holding 0 -> "no difference", a clear
# saving -> "T saves X% (95% CI a .. b)"; a cost model without a measurement of the mix (or
# --model-only) yields no verdict and no "to ship" line, only the modelled figures and the
# command that measures the mix; published curves (the seed's Cooper Lake 4 KiB case
# -66.8/-43.3/-23.5%) "modelled on" that CPU, with no interval of width zero; the per-site
# table names the threshold its figures belong to and follows the measured best; -m required;
# --today, and a uprobe on code copyprof does not replicate refused without it (never guessed
# from a name); sampled calls shown as inferred whole numbers, never in the verdict or the
# summary. (Measurements stored by calibrate --mix: t0033.) No timing is asserted.
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
SEED="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
FLEET="$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt"
F='.inputs[0].families[0]'
cd "$TMP"

# measured MODEL OUT ESTIMATE-ARGS...: OUT is MODEL with a paired measurement of that mix, each
# policy at the model's own figure and interval (tests/golden/measured-by-hand.sh).
measured() {
	"$G/measured-by-hand.sh" "$COPYPROF" "$@" 2> m.err || fatal "measured-by-hand.sh $*: $(cat m.err)"
}

# Determinism: the same inputs give the same bytes, text and JSON.
twice() {
	"$COPYPROF" estimate "$@" > a.out 2> a.err || fail "estimate $*: $(cat a.err)"
	"$COPYPROF" estimate "$@" > b.out 2> b.err || fail "estimate $*: $(cat b.err)"
	cmp -s a.out b.out || fail "estimate $* printed different output twice: $(diff a.out b.out | head)"
	[ -s a.out ] || fail "estimate $*: no output"
}
for fmt in "" --json; do
	twice -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" --today memcpy_orig --today rep_stos_alternative $fmt
	twice -i "$G/profile-synthetic-sampled.json" -m "$G/costmodel-synthetic.json" $fmt
	twice --hist "$FLEET" -m "$SEED" $fmt
	twice -i "$G/profile-btrfs-zstd-6.12.json" -m "$G/costmodel-synthetic.json" --family memcpy $fmt
done

# Today cheapest: short copies, where movsb costs 3x the loop and a threshold adds its dispatch.
printf '8,1000\n16,1000\n24,500\n' > short.csv
measured "$G/costmodel-synthetic.json" short-m.json --hist short.csv
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m short-m.json --json
expect_eq "keep: measured" "$(jq "$F.measurement.applied" out)" true
expect_eq "keep: kind" "$(jq -r "$F.verdict.kind" out)" keep_today
expect_eq "keep: text" "$(jq -r "$F.verdict.text" out)" "every threshold costs more: keep today's code"
expect_eq "keep: best is today" "$(jq -r "$F.best.name" out)" today
jq -e "$F.policies | map(select(.kind != \"today\" and .kind != \"oracle\")) | all(.delta_pct > 0)" \
	out > /dev/null || fail "keep: a policy is not dearer than today"
jq -r "$F.summary" out | grep -q "keep today's code" || fail "keep: summary: $(jq -r "$F.summary" out)"
jq -r "$F.summary" out | grep -q "is measured to cut" && fail "keep: summary claims a saving"
# The dispatch: T=0 against always is 1 ns a call on 10 ns, 10 points, and named so.
expect_eq "keep: dispatch cost" "$(jq -r "$F.verdict.dispatch_cost_pct" out)" 10
jq -r "$F.summary" out | grep -q "the 10.0 points between the two are the dispatch's cost" ||
	fail "keep: dispatch cost not named: $(jq -r "$F.summary" out)"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m short-m.json
expect_out "^  verdict: every threshold costs more: keep today's code$"
expect_out "^  today .*<- best$"
grep -E "^  (always|T=|never).*<- best" out && fail "keep: a row dearer than today marked best"

# No difference: the same model with every point known only to +-40% (ci_ns).
jq '(.impls[].points[]) |= (. + {ci_ns: (.ns * 0.4), runs: 3})' "$G/costmodel-synthetic.json" > wide0.json
measured wide0.json wide.json --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" --family memcpy
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m wide.json --family memcpy --json
expect_eq "noise: kind" "$(jq -r "$F.verdict.kind" out)" no_difference
expect_eq "noise: text" "$(jq -r "$F.verdict.text" out)" \
	"no threshold saves against today's code beyond the measurement noise (T=0, T=32, T=64 and 9 more within it; always costs more)"
expect_eq "noise: policy" "$(jq -r "$F.verdict.policy" out)" null
jq -e "$F.best | .ci_low < 0 and .ci_high > 0" out > /dev/null || fail "noise: best: $(jq -c "$F.best" out)"
jq -r "$F.summary" out | grep -Eq "is (measured|estimated) to (cut|raise)" &&
	fail "noise: summary claims a change: $(jq -r "$F.summary" out)"
jq -r "$F.summary" out | grep -q "beyond the measurement noise" || fail "noise: summary"
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m wide.json --family memcpy
grep -q "<- best" out && fail "noise: a row marked best without a verdict"
expect_out "^  verdict: no threshold saves against today's code beyond the measurement noise \\(T=0, T=32, T=64 and 9 more within it; always costs more\\)$"

# A saving: the same profile on the exact model (hand-computed: T=1024 21606 against 25492 ns).
measured "$G/costmodel-synthetic.json" exact.json --today memcpy_orig --today rep_stos_alternative \
	-i "$G/profile-synthetic.json" --family memcpy
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m exact.json \
	--family memcpy --json
expect_eq "saves: kind" "$(jq -r "$F.verdict.kind" out)" saves
expect_eq "saves: policy" "$(jq -r "$F.verdict.policy" out)" T=1024
expect_eq "saves: %" "$(jq -r "$F.verdict.saving_pct" out)" 15.244
expect_eq "saves: text" "$(jq -r "$F.verdict.text" out | sed 's/CI .*/CI/')" "T=1024 saves 15.24% (95% CI"

# Without a measurement of the mix: the modelled figures, no verdict, and the command that
# measures it (the options in use carried over).
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" \
	-m "$G/costmodel-synthetic.json" --family memcpy --json
cmd="copyprof calibrate -i $G/costmodel-synthetic.json --mix $G/profile-synthetic.json --family memcpy --today memcpy_orig --today rep_stos_alternative -o $G/costmodel-synthetic.json"
expect_eq "no measurement: kind" "$(jq -r "$F.verdict.kind" out)" not_measured
expect_eq "no measurement: text" "$(jq -r "$F.verdict.text" out)" \
	"none: the figures are modelled; measure this mix on Synthetic CPU with: $cmd"
expect_eq "no measurement: the command" "$(jq -r "$F.verdict.measure_command" out)" "$cmd"
expect_eq "no measurement: no policy" "$(jq -r "$F.verdict.policy" out)" null
jq -r "$F.summary" out | grep -q "T=1024, at -15.2% (95% CI -18.3% to -12.1%, counting error only: the curves carry no noise) against today's memcpy_orig. That figure is modelled, not measured: no verdict and nothing to ship" ||
	fail "no measurement: summary: $(jq -r "$F.summary" out)"
jq -r "$F.summary" out | grep -Eq "is (measured|estimated) to|would (cut|raise)|oracle" &&
	fail "no measurement: the summary states a change: $(jq -r "$F.summary" out)"
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" \
	-m "$G/costmodel-synthetic.json" --family memcpy
expect_out "^  verdict: none: the figures are modelled; measure this mix on Synthetic CPU with: "
expect_out "^  modelled cheapest: T=1024, -15.24% \(95% CI -18.29 .. -12.08\) vs today: not a verdict$"
grep -q "<- best" out && fail "no measurement: a row marked best"

# A cost model without a measurement of the mix yields no verdict and no to-ship line: glibc's
# example (a measurement stored: a line to ship), then the same model without it.
GT="$ROOT/examples/data/glibc-threshold"
expect_exit 0 "$COPYPROF" estimate -i "$GT/app.json" -m "$GT/cm.json" --json
expect_eq "glibc measured: kind" "$(jq -r "$F.verdict.kind" out)" saves
expect_eq "glibc measured: to ship" "$(jq -r "$F.verdict.to_ship" out)" \
	"GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=4096"
jq 'del(.paired)' "$GT/cm.json" > nomeas.json
for args in "-m nomeas.json" "-m $GT/cm.json --model-only"; do
	expect_exit 0 "$COPYPROF" estimate -i "$GT/app.json" $args --json
	expect_eq "glibc $args: kind" "$(jq -r "$F.verdict.kind" out)" not_measured
	expect_eq "glibc $args: no to_ship, no advice" \
		"$(jq -c "$F.verdict | [.to_ship, .advice, .policy]" out)" "[null,null,null]"
	jq -r "$F.summary" out | grep -Eq "To ship|GLIBC_TUNABLES|keep today" &&
		fail "glibc $args: the summary ships: $(jq -r "$F.summary" out)"
	expect_exit 0 "$COPYPROF" estimate -i "$GT/app.json" $args
	grep -Eq "^  to ship:|To ship:|GLIBC_TUNABLES" out &&
		fail "glibc $args: a line to ship: $(grep -E "to ship:|To ship:|GLIBC_TUNABLES" out)"
	expect_out "^  every figure below is modelled$"
done
expect_out "^  verdict: none: the figures are modelled \(--model-only\); the cost model stores a paired measurement of this mix: estimate without --model-only answers$"
expect_exit 0 "$COPYPROF" estimate -i "$GT/app.json" -m nomeas.json
expect_out "^  verdict: none: the figures are modelled; measure this mix on .* with: copyprof calibrate -i nomeas.json --mix $GT/app.json -o nomeas.json$"

# The fleet on the seed's published figures (no spread, no counts): no verdict, and no interval
# rather than one of width zero.
expect_exit 0 "$COPYPROF" estimate --hist "$FLEET" -m "$SEED"
expect_out "^  verdict: none: modelled on the published curves of Intel Xeon Platinum 8321HC \(Cooper Lake\), turbo disabled, 1.4 GHz; a verdict needs a paired measurement of this mix on that CPU$"
expect_out "^  T=512 +512 +12.75 +-9.35%  no interval$"
expect_out "^  \(no interval: the curves carry no noise\)$"
expect_out "^  modelled cheapest: T=512, -9.35% \(no interval\) vs today: not a verdict$"
grep -Eq "9.35 .. 9.35|^  to ship:|To ship:" out && fail "seed fleet: a zero-width interval or a line to ship"
expect_exit 0 "$COPYPROF" estimate --hist "$FLEET" -m "$SEED" --json
expect_eq "seed fleet: kind" "$(jq -r "$F.verdict.kind" out)" not_measured
expect_eq "seed fleet: no interval" "$(jq -c "$F.best | [.delta_pct, .ci_low, .ci_high]" out)" "[-9.3475,null,null]"
jq -e "$F.policies | all(.ci_low == null or .ci_low < .ci_high or .delta_pct == 0)" out > /dev/null ||
	fail "seed fleet: an interval of width zero: $(jq -c "$F.policies" out | head -c 400)"
jq -r "$F.summary" out | grep -q "puts the cheapest policy, T=512, at -9.3% (no interval: the curves carry no noise)" ||
	fail "seed fleet: summary: $(jq -r "$F.summary" out)"

# A counting interval far narrower than its printed precision shows more decimals, never a .. a.
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-btrfs-zstd-6.12.json" -m "$SEED" --family memcpy
tr -s '\n ' ' ' < out | grep -q "T=4096, at -66.7% (95% CI -66.74% to -66.73%, counting error only: the curves carry no noise)" ||
	fail "btrfs on the seed: summary: $(sed -n '/summary/,$p' out)"
expect_out "^  T=4096 +4096 .* -66.73%  -66.74 .. -66.73$"
expect_out "^  never +never .* \+0.00%  \+0.00 .. \+0.00$"

# The seed's own 4 KiB case: T=2048 against memcpy_orig, per cache state: modelled, no verdict.
for c in warm:-66.8 src-flushed:-43.3 dst-flushed:-23.5; do
	expect_exit 0 "$COPYPROF" estimate -i "$G/profile-4k-cooperlake.json" -m "$SEED" \
		--cache "${c%%:*}" --json
	expect_eq "seed ${c%%:*}" "$(jq -r "$F.policies[] | select(.name == \"T=2048\") | .delta_pct" out |
		xargs printf '%.1f')" "${c#*:}"
	expect_eq "seed ${c%%:*} verdict" "$(jq -r "$F.verdict.kind" out)" not_measured
done

# The per-site table names the threshold its figures belong to and follows the measured best
# (T=4096 here, where the model's cheapest is T=1024); a site's figure is its own mix's
# measurement (here the family's only site: the whole mix is its mix), the modelled one beside
# it labelled so, never as a verdict; without a measurement, "not measured".
"$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" \
	-m "$G/costmodel-synthetic.json" --family memcpy --json > m.est
jq --arg digest "$(jq -r "$F.mix_digest" m.est)" --arg family memcpy --arg today memcpy_orig \
	--argjson fig '{"always":[30,28,32],"T=512":[5,4,6],"T=1024":[2,1,3],"T=4096":[-8,-9,-7],"never":[-1,-2,0]}' \
	-f "$G/paired.jq" "$G/costmodel-synthetic.json" > site.json
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" \
	-m site.json --family memcpy
expect_out "^  verdict: T=4096 saves 8.00% \(95% CI 7.00 .. 9.00\)$"
expect_out "^  per site at T=4096 \(the measured cheapest\) vs today: each site's own mix, measured \(calibrate --mix, the hottest sites\), else not measured; modelled beside it, no verdict:$"
expect_out "^    app:app_copy\+0x0 \(uprobe\) +1110 +0.0255 +100.0%  -8.00% \(-9.00 .. -7.00\) saves +-2.77%$"
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" \
	-m site.json --family memcpy --json
expect_eq "sites: at" "$(jq -r "$F.at" out)" T=4096
expect_eq "sites: the row's modelled figure" "$(jq -r "$F.sites[0].model_pct" out)" \
	"$(jq -r "$F.policies[] | select(.name == \"T=4096\") | .model_pct" out)"
expect_eq "sites: the row's measured figure, at the heading's threshold" \
	"$(jq -c "$F.sites[0].measured | [.policy, .delta_pct, .ci_low, .ci_high, .verdict, .whole_mix]" out)" \
	'["T=4096",-8,-9,-7,"saves",true]'
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" \
	-m site.json --family memcpy --threshold 512
expect_out "^  per site at T=512 \(--threshold\) vs today: each site's own mix, measured"
expect_out "^    app:app_copy\+0x0 \(uprobe\) +1110 +0.0255 +100.0%  \+5.00% \(\+4.00 .. \+6.00\) costs +-15.24%$"
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" \
	-m "$G/costmodel-synthetic.json" --family memcpy
expect_out "^  per site at T=1024 \(the modelled cheapest\) vs today: each site's own mix, measured"
expect_out "^    app:app_copy\+0x0 \(uprobe\) +1110 +0.0255 +100.0%  not measured +-15.24%$"

# -m is required (estimate times nothing); --today, one per family; a uprobe on unknown code.
expect_exit 2 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json"
expect_err "give a cost model with -m"
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--family memcpy --today movsb --json
expect_eq "--today impl" "$(jq -r "$F.today.impl" out)" movsb
expect_eq "--today why" "$(jq -r "$F.today.why" out)" "given with --today"
expect_exit 2 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--today nosuch
expect_exit 2 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--today movsb --today memcpy_orig
expect_err "memcpy already has today's code movsb: one --today per family"
expect_exit 1 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--family memcpy
expect_err "the memcpy sites are uprobes on app_copy, whose code copyprof does not replicate"
expect_exit 1 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--today memcpy_orig
expect_err "the clear_user sites are uprobes on app_clear"
# A uprobe on a replica copyprof has (its own workload's): that replica, a fact.
jq '(.sites[] | select(.symbol == "app_copy")) |= (.symbol = "memcpy_orig")' \
	"$G/profile-synthetic.json" > replica.json
expect_exit 0 "$COPYPROF" estimate -i replica.json -m "$G/costmodel-synthetic.json" --family memcpy --json
expect_eq "replica today" "$(jq -r "$F.today.impl" out)" memcpy_orig
expect_eq "replica why" "$(jq -r "$F.today.why" out)" "the probed function memcpy_orig is this replica"

# Samples: inferred calls are whole numbers, said to be inferred; no %g anywhere in the text.
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic-sampled.json" -m "$G/costmodel-synthetic.json" --json
expect_eq "sampled: inferred" "$(jq -r "$F.calls_inferred" out)" true
jq -e "$F.calls | . == floor" out > /dev/null || fail "sampled: calls $(jq "$F.calls" out)"
jq -e "$F.sites | all(.calls == (.calls | floor))" out > /dev/null || fail "sampled: site calls"
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic-sampled.json" -m "$G/costmodel-synthetic.json"
expect_out "^memcpy: 25,492 time-weighted samples \(1 site\)"
expect_out "calls \(≈\) are inferred from the samples with the model's warm costs per length"
grep -Eq "[0-9]e[+-][0-9]" out && fail "sampled: %g-style number: $(grep -E '[0-9]e[+-][0-9]' out)"
sed -n '/^  verdict:/p; /summary (for a commit message)/,$p' out | grep -Eq "1,110|≈|inferred" &&
	fail "sampled: inferred calls in the verdict or the summary"
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic-sampled.json" \
	-m "$G/costmodel-synthetic.json" --json
expect_eq "enough samples: no least named" "$(jq "$F.verdict | has(\"min_samples\")" out)" false
# Too few samples (one in each of the 3 buckets): no verdict, and the least estimate takes, which
# examples/main-job.sh records until it has.
jq '.sites[].buckets[] |= (.count = 1 | .bytes = .lo)' "$G/profile-synthetic-sampled.json" \
	> few.json
expect_exit 0 "$COPYPROF" estimate -i few.json -m "$G/costmodel-synthetic.json" --json
expect_eq "too few: kind" "$(jq -r "$F.verdict.kind" out)" too_few_samples
expect_eq "too few: samples" "$(jq "$F.samples" out)" 3
expect_eq "too few: the least" "$(jq "$F.verdict.min_samples" out)" 100
expect_eq "too few: text" "$(jq -r "$F.verdict.text" out)" \
	"too few samples (3, fewer than 100) for a verdict: record longer"
exit 0
