#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0032-estimate-validate: --validate replays the profile through the replicas and prints measured
# next to predicted for every policy (the numbers are timing: only their presence is checked).
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
exit 0
