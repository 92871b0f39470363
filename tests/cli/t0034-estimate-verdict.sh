#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0034-estimate-verdict: estimate is a pure function of its inputs (two runs, byte-identical
# text and JSON); the verdict on fixed cost models: today cheapest -> "keep today's code", a
# best interval holding 0 -> "no difference", a clear saving -> "T saves X% (95% CI a .. b)",
# the seed's Cooper Lake 4 KiB case -66.8/-43.3/-23.5%, labelled modelled; -m required;
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
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m "$G/costmodel-synthetic.json" --json
expect_eq "keep: kind" "$(jq -r "$F.verdict.kind" out)" keep_today
expect_eq "keep: text" "$(jq -r "$F.verdict.text" out)" "every threshold costs more: keep today's code"
expect_eq "keep: best is today" "$(jq -r "$F.best.name" out)" today
jq -e "$F.policies | map(select(.kind != \"today\" and .kind != \"oracle\")) | all(.delta_pct > 0)" \
	out > /dev/null || fail "keep: a policy is not dearer than today"
jq -r "$F.summary" out | grep -q "keep today's code" || fail "keep: summary: $(jq -r "$F.summary" out)"
jq -r "$F.summary" out | grep -q "is estimated to cut" && fail "keep: summary claims a saving"
# The dispatch: T=0 against always is 1 ns a call on 10 ns, 10 points, and named so.
expect_eq "keep: dispatch cost" "$(jq -r "$F.verdict.dispatch_cost_pct" out)" 10
jq -r "$F.summary" out | grep -q "the 10.0 points between the two are the dispatch's cost" ||
	fail "keep: dispatch cost not named: $(jq -r "$F.summary" out)"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m "$G/costmodel-synthetic.json"
expect_out "^  verdict: every threshold costs more: keep today's code$"
expect_out "^  today .*<- best$"
grep -E "^  (always|T=|never).*<- best" out && fail "keep: a row dearer than today marked best"

# No difference: the same model with every point known only to +-40% (ci_ns).
jq '(.impls[].points[]) |= (. + {ci_ns: (.ns * 0.4), runs: 3})' "$G/costmodel-synthetic.json" > wide.json
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m wide.json --family memcpy --json
expect_eq "noise: kind" "$(jq -r "$F.verdict.kind" out)" no_difference
expect_eq "noise: text" "$(jq -r "$F.verdict.text" out)" \
	"no threshold saves against today's code beyond the measurement noise (T=0, T=32, T=64 and 9 more within it; always costs more)"
expect_eq "noise: policy" "$(jq -r "$F.verdict.policy" out)" null
jq -e "$F.best | .ci_low < 0 and .ci_high > 0" out > /dev/null || fail "noise: best: $(jq -c "$F.best" out)"
jq -r "$F.summary" out | grep -Eq "is estimated to (cut|raise)" &&
	fail "noise: summary claims a change: $(jq -r "$F.summary" out)"
jq -r "$F.summary" out | grep -q "beyond the measurement noise" || fail "noise: summary"
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m wide.json --family memcpy
grep -q "<- best" out && fail "noise: a row marked best without a verdict"
expect_out "^  verdict: no threshold saves against today's code beyond the measurement noise \\(T=0, T=32, T=64 and 9 more within it; always costs more\\)$"

# A saving: the same profile on the exact model (hand-computed: T=1024 21606 against 25492 ns).
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--family memcpy --json
expect_eq "saves: kind" "$(jq -r "$F.verdict.kind" out)" saves
expect_eq "saves: policy" "$(jq -r "$F.verdict.policy" out)" T=1024
expect_eq "saves: %" "$(jq -r "$F.verdict.saving_pct" out)" 15.244
expect_eq "saves: text" "$(jq -r "$F.verdict.text" out | sed 's/CI .*/CI/')" "T=1024 saves 15.24% (95% CI"
# The fleet on the seed's published figures (no spread: a zero-width interval).
expect_exit 0 "$COPYPROF" estimate --hist "$FLEET" -m "$SEED"
expect_out "^  verdict: T=512 saves 9.35% \(95% CI 9.35 .. 9.35\)$"

# The seed's own 4 KiB case: T=2048 against memcpy_orig, per cache state; a saving each time.
for c in warm:-66.8 src-flushed:-43.3 dst-flushed:-23.5; do
	expect_exit 0 "$COPYPROF" estimate -i "$G/profile-4k-cooperlake.json" -m "$SEED" \
		--cache "${c%%:*}" --json
	expect_eq "seed ${c%%:*}" "$(jq -r "$F.policies[] | select(.name == \"T=2048\") | .delta_pct" out |
		xargs printf '%.1f')" "${c#*:}"
	expect_eq "seed ${c%%:*} verdict" "$(jq -r "$F.verdict.kind" out)" saves
done

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
