#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0033-estimate-mix: the mix and neighbour corrections' plumbing: skipped (and the command that
# adds them) for a mix the model has none for, where --no-mix-correction changes nothing;
# measured by calibrate --hist into a model calibrated here, then applied by estimate, the mix penalties (shuffled - sorted ns per call) finite, split by size class
# so that they add up, and added to today's short-copy costs and to a threshold's exactly; the
# neighbour correction's per-policy order penalty added to the pure model's cost exactly, and
# policies that run the same code sharing one measurement (no timing asserted).
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
F='.inputs[0].families[0]'
cd "$TMP"

# A hand-written model of another CPU: skipped; the pure model's numbers, unchanged.
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--json
cp out dflt.json
expect_eq "synthetic: applied" "$(jq "$F.mix_correction.applied" dflt.json)" false
expect_eq "synthetic: neighbour" "$(jq "$F.neighbour_correction.applied" dflt.json)" false
jq -r "$F.mix_correction.why" dflt.json |
	grep -q "not measured for this mix; add it with: copyprof calibrate -i .*costmodel-synthetic.json --mix .*profile-synthetic.json -o " ||
	fail "synthetic: why: $(jq "$F.mix_correction" dflt.json)"
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--json --no-mix-correction
expect_eq "--no-mix-correction: why" "$(jq -r "$F.mix_correction.why" out)" "--no-mix-correction"
expect_eq "--no-mix-correction: same policies" "$(jq -c '[.inputs[].families[].policies]' out)" \
	"$(jq -c '[.inputs[].families[].policies]' dflt.json)"

# The seed's published figures: skipped, and the text says so.
FLEET="$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt"
expect_exit 0 "$COPYPROF" estimate --hist "$FLEET" \
	-m "$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
expect_out "mix correction: none \(the cost model is built from published figures"
expect_out "neighbour correction: none \(the cost model is built from published figures"

# A model measured here: the correction runs.
"$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold --cache warm -o cm.json \
	> /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fail "calibrate --quick exited $rc: $(cat err.txt)"
printf '8,100\n24,50\n40,30\n' > short.csv
# calibrate --hist: the corrections for this table's mix, measured into the model.
"$COPYPROF" calibrate -i cm.json --hist short.csv -o cm.json > /dev/null 2> err.txt ||
	fail "calibrate --hist: $(cat err.txt)"
grep -q "memcpy corrections stored (mix measured, neighbour measured" err.txt ||
	fail "calibrate --hist: $(cat err.txt)"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --json --no-neighbour-correction
cp out mix.json
expect_eq "--no-neighbour-correction: why" "$(jq -r "$F.neighbour_correction.why" mix.json)" \
	"--no-neighbour-correction"
expect_eq "here: applied" "$(jq "$F.mix_correction.applied" mix.json)" true
expect_eq "here: cutoff" "$(jq "$F.mix_correction.cutoff" mix.json)" 512
expect_eq "here: calls" "$(jq "$F.mix_correction.calls" mix.json)" 20000
expect_eq "here: impls" "$(jq -c "[$F.mix_correction.impls[].impl] | sort" mix.json)" \
	'["erms_threshold","memcpy_orig","movsb"]'
jq -e "$F.mix_correction.impls | all(.shuffled_ns > 0 and .sorted_ns > 0 and .predicted_ns > 0
	and (.penalty_ns | isinfinite | not)
	and ((.penalty_ns - (.shuffled_ns - .sorted_ns)) | fabs) < 1e-3)" mix.json > /dev/null ||
	fail "penalties: $(jq -c "$F.mix_correction" mix.json)"
# Size classes: 150 calls below 32, 30 from 32 (17%, over the 5% a class needs), none from 64.
expect_eq "here: classes" "$(jq -c "[$F.mix_correction.classes[] | [.lo, .hi, .calls]]" mix.json)" \
	'[[0,32,150],[32,512,30]]'
# Each replica's class penalties add up to its penalty over every short call (up to the JSON's
# rounding to 4 decimals: at most (150 + 30 + 180) * 0.00005 = 0.018).
jq -e "$F.mix_correction as \$x | \$x.impls | all(.class_penalty_ns | length == 2) and
	all((([.class_penalty_ns, [\$x.classes[].calls]] | transpose | map(.[0] * .[1]) | add)
	     - 180 * .penalty_ns) | fabs < 0.02)" mix.json > /dev/null ||
	fail "class penalties: $(jq -c "$F.mix_correction" mix.json)"
expect_eq "here: spans" "$(jq -c "[$F.mix_correction.impls[] | [.impl, .span]] | sort" mix.json)" \
	'[["erms_threshold","below"],["memcpy_orig","below"],["movsb","from"]]'
expect_eq "here: split" "$(jq -c "$F.mix_correction.split | [.impl, [.thresholds[].t]]" mix.json)" \
	'["erms_threshold",[32]]'
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --json --no-mix-correction
cp out pure.json
expect_eq "--no-mix-correction here" "$(jq "$F.mix_correction.applied" pure.json)" false
# Every length is below the cutoff: today's cost per call is the pure one plus today's penalty.
jq -e -n --slurpfile a mix.json --slurpfile b pure.json '
	$a[0].inputs[0].families[0] as $m | $b[0].inputs[0].families[0] as $p
	| ($m.mix_correction.impls[] | select(.impl == $m.today.impl) | .penalty_ns) as $k
	| ($m.policies[0].ns_per_call - $p.policies[0].ns_per_call - $k) | fabs < 1e-3' > /dev/null ||
	fail "today's cost is not the pure one plus its penalty"
# T=32 at the inner edge: its short calls cost the pure model plus the penalty of the policy
# itself timed at T=32 (erms_threshold with T=32, shuffled - sorted), by construction.
jq -e -n --slurpfile a mix.json --slurpfile b pure.json '
	$a[0].inputs[0].families[0] as $m | $b[0].inputs[0].families[0] as $p
	| ($m.mix_correction.split.thresholds[0].penalty_ns) as $k
	| ([$m.policies[] | select(.name == "T=32")][0].ns_per_call
	   - [$p.policies[] | select(.name == "T=32")][0].ns_per_call - $k) | fabs < 1e-3' \
	> /dev/null || fail "T=32 is not the pure one plus the policy's own penalty"
expect_eq "--no-mix-correction: no neighbour" "$(jq -r "$F.neighbour_correction.why" pure.json)" \
	"--no-mix-correction"

# Both corrections (the default): every replayed policy's order penalty is shuffled - sorted,
# and its cost per call is the pure model's plus that penalty in the model's units (divided by
# the replay's speed, today's sorted cost over today's pure one; the mix correction's share is
# taken off what it adds), whatever the timings were.
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --json
cp out nb.json
expect_eq "neighbour: applied" "$(jq "$F.neighbour_correction.applied" nb.json)" true
expect_eq "neighbour: calls" "$(jq "$F.neighbour_correction.calls" nb.json)" 20000
expect_eq "neighbour: policies" "$(jq -c "[$F.neighbour_correction.policies[].name]" nb.json)" \
	"$(jq -c "[$F.policies[] | select(.name != \"oracle\") | .name]" pure.json)"
jq -e "$F.neighbour_correction.policies | all(.shuffled_ns > 0 and .sorted_ns > 0
	and ((.order_ns - (.shuffled_ns - .sorted_ns)) | fabs) < 1e-3)" nb.json > /dev/null ||
	fail "order penalties: $(jq -c "$F.neighbour_correction" nb.json)"
jq -e -n --slurpfile a nb.json --slurpfile b pure.json '
	$a[0].inputs[0].families[0] as $n | $b[0].inputs[0].families[0] as $p
	| $n.neighbour_correction.speed as $s
	| ($n.neighbour_correction.policies[0].sorted_ns / $p.policies[0].ns_per_call - $s | fabs)
	  < 1e-3 * $s
	and ([$n.neighbour_correction.policies[] as $k
	   | ([$n.policies[] | select(.name == $k.name)][0].ns_per_call
	      - [$p.policies[] | select(.name == $k.name)][0].ns_per_call - $k.order_ns / $s)
	   | fabs] | max < 2e-3)' > /dev/null ||
	fail "a policy's cost is not the pure one plus its order penalty over the speed"
# Every length is below 64: T=64 up to never run erms_threshold's loop side on every call, the
# same code, so they share one measurement (their group's mean); T=32 does not.
expect_eq "neighbour: same code pooled" "$(jq -c "[$F.neighbour_correction.policies[]
	| select(.name | test(\"^T=(64|128|256|512|1024|1536|2048|4096|8192)$|^never$\"))
	| [.shuffled_ns, .sorted_ns]] | unique | length" nb.json)" 1
# The oracle is not replayed: it stays at or below every policy that is.
jq -e "$F.policies as \$p | (\$p[] | select(.name == \"oracle\") | .total_ns) as \$o
	| [\$p[] | select(.name != \"oracle\") | .total_ns] | all(. >= \$o - 1e-9)" nb.json \
	> /dev/null || fail "oracle above a policy: $(jq -c "$F.policies" nb.json)"

expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json
expect_out "neighbour correction \(each policy on the whole mix, 20000 calls, shuffled - sorted over the replay.s speed [0-9.]+"
expect_out "mix correction below 512 B"
expect_out "memcpy_orig [-+][0-9.]+ ns"
expect_out "split \(T = lo\) +- +[-+][0-9.]+"

# Nothing below the cutoff: nothing to correct.
# One length: the neighbour correction cannot apply (shuffled and sorted are the same order).
printf '4096,10\n' > long.csv
expect_exit 0 "$COPYPROF" estimate --hist long.csv -m cm.json --json
jq -r "$F.mix_correction.why" out | grep -q "not measured for this mix" || fail "long: not stored"
"$COPYPROF" calibrate -i cm.json --hist long.csv -o cm.json > /dev/null 2> err.txt ||
	fail "calibrate --hist long.csv: $(cat err.txt)"
expect_exit 0 "$COPYPROF" estimate --hist long.csv -m cm.json --json
expect_eq "long: why" "$(jq -r "$F.mix_correction.why" out)" "no calls below the cutoff"
expect_eq "long: neighbour" "$(jq "$F.neighbour_correction.applied" out)" false
jq -r "$F.neighbour_correction.why" out | grep -q "one length bucket" || fail "long: nb why"
# The first table's corrections are still there, and still applied.
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --json
expect_eq "short again" "$(jq "$F.mix_correction.applied" out)" true
exit 0
