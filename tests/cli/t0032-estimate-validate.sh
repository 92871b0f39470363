#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0032-estimate-validate: --validate replays the profile through the replicas and prints measured
# next to predicted for every policy (the numbers are timing: only their presence is checked),
# the noise floor from the policies that run the same code (found from the lengths: exact), and
# its verdict on the best threshold, consistent with the measured figures it prints.
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
cd "$TMP"

"$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--family memcpy --thresholds 64,2048,never --validate --json > out.json 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fail "estimate --validate exited $rc: $(cat err.txt)"
expect_eq "replayed calls" "$(jq '.inputs[0].families[0].validation.calls' out.json)" 20000
for p in always T=64 T=2048 never; do
	jq -e --arg p "$p" '.inputs[0].families[0].policies[] | select(.name == $p) | .measured_pct
		| type == "number"' out.json > /dev/null || fail "$p: no measured_pct"
done
expect_eq "oracle not replayed" \
	"$(jq '.inputs[0].families[0].policies[] | select(.name == "oracle") | has("measured_pct")' out.json)" false

"$COPYPROF" estimate -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--family clear_user --thresholds 256 --validate > out.txt 2> err.txt || fail "clear_user: $(cat err.txt)"
grep -Eq "^    T=256 +[-+][0-9.]+ +[-+][0-9.]+" out.txt || fail "no T=256 validation row: $(cat out.txt)"
grep -q "best threshold: predicted" out.txt || fail "no best-threshold comparison"
grep -q "noise floor: " out.txt || fail "no noise floor"

# 16 and 8192 bytes only: T=1024 and T=2048 (and T=4096) run the same code on every call, T=8 and
# T=1024 do not; the noise floor is the largest measured gap among the first three.
printf '16,500\n8192,50\n' > two.csv
"$COPYPROF" estimate --hist two.csv -m "$G/costmodel-synthetic.json" --family memcpy \
	--thresholds 8,1024,2048,4096 --validate --json > two.json 2> err.txt ||
	fail "two sizes: $(cat err.txt)"
V='.inputs[0].families[0]'
jq -e "$V | [.policies[] | select(.name == \"T=1024\" or .name == \"T=2048\" or
	.name == \"T=4096\") | .measured_pct] as \$m
	| (\$m | max) - (\$m | min) <= .validation.noise_floor_pct + 1e-3" two.json > /dev/null ||
	fail "noise floor below the same-code gap: $(jq -c "$V.validation" two.json)"
# The verdict: the gap is the predicted best's measured change minus the measured best's, and
# "the same optimum" iff that is within the larger of the noise floor and 1 point.
jq -e "$V | .validation as \$v
	| ([.policies[] | {key: .name, value: .measured_pct}] | from_entries) as \$m
	| ((\$m[\$v.best_predicted] - \$m[\$v.best_measured] - \$v.best_gap_pct) | fabs) < 1e-3
	  and \$v.best_same == (\$v.best_gap_pct <= ([\$v.noise_floor_pct, 1] | max) + 1e-9)
	  and ([.policies[] | select(.kind == \"threshold\") | .measured_pct] | min)
	      == \$m[\$v.best_measured]" two.json > /dev/null ||
	fail "best-threshold verdict: $(jq -c "$V.validation" two.json)"
exit 0
