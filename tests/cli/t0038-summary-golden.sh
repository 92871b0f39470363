#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0038-summary-golden: the commit paragraph in its four cases (counted, sampled and no
# difference, each measured; the fleet, not measured) is what tests/golden/summary.txt holds
# (make golden rewrites it); in each it names the input, uses the verdict's sign convention (a
# saving positive), says no sentence twice and writes every count with thousands separators; a
# measured one states the conditions as measured and no modelled figure (the oracle), one not
# measured states no change and nothing to ship; a seldom quiet core is never "a quiet core".
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$ROOT"
tests/golden/summary-cases.sh "$COPYPROF" > "$TMP/summary.txt" 2> "$TMP/err" ||
	fail "summary-cases.sh: $(cat "$TMP/err")"
diff -u tests/golden/summary.txt "$TMP/summary.txt" > "$TMP/diff" ||
	fail "the commit paragraphs changed (make golden to accept): $(head -40 "$TMP/diff")"
grep -v '^==' "$TMP/summary.txt" > "$TMP/para.txt"
expect_eq "four paragraphs" "$(wc -l < "$TMP/para.txt")" 4
grep -c '^For [^ ]*\.json (' "$TMP/para.txt" | grep -qx 4 || fail "a paragraph does not name its input"
grep -q "1,110 memcpy calls in 1.5 s" "$TMP/para.txt" || fail "counted: calls and duration"
grep -q "25,492 samples in memcpy" "$TMP/para.txt" || fail "sampled: samples"
grep -q "2,220 memcpy calls on 2 hosts" "$TMP/para.txt" || fail "fleet: hosts"
# The verdict says "T=1024 saves 15.24% (95% CI 12.1 .. 18.3)": the paragraph, the same way round.
tests/golden/measured-by-hand.sh "$COPYPROF" tests/golden/costmodel-synthetic.json "$TMP/m.json" \
	-i tests/golden/profile-synthetic.json --today memcpy_orig --family memcpy ||
	fail "measured-by-hand.sh"
v=$("$COPYPROF" estimate -i tests/golden/profile-synthetic.json -m "$TMP/m.json" \
	--today memcpy_orig --family memcpy --json | jq -r '.inputs[0].families[0].verdict |
	"cut memcpy time by \(.saving_pct * 10 | round / 10)% (95% CI \(.saving_ci_low * 10 | round / 10)% to \(.saving_ci_high * 10 | round / 10)%)"')
grep -qF "$v" "$TMP/para.txt" || fail "the saving is not the verdict's: '$v'"
# Measured: the conditions as measured, and no modelled figure beside them.
grep 'measured by copyprof as a paired replay' "$TMP/para.txt" > "$TMP/measured.txt"
expect_eq "three measured" "$(wc -l < "$TMP/measured.txt")" 3
expect_eq "measured: cache, working set, lengths, quiet share" "$(grep -c "warm caches, random offsets in 256 KiB per side; lengths drawn from the mix's buckets in proportion to their calls, exact below 64 B and from 64 B uniform around each bucket's recorded mean within the bucket, alignments uniform, pointer distances not recorded (the two sides placed independently); .* the answer from the 380 of 400 rounds (95.0%) that found the core quiet" "$TMP/measured.txt")" 3
grep -Eq "oracle|modelled" "$TMP/measured.txt" && fail "a measured paragraph states a modelled figure"
# Not measured: the modelled figure said to be one, no change claimed, nothing to ship.
grep -q "^For fleet.json .* puts the cheapest policy, T=1024, at -15.2% (95% CI -17.4% to -13.0%, counting error only: the curves carry no noise) against today's memcpy_orig. That figure is modelled, not measured: no verdict and nothing to ship; measure this mix with: copyprof calibrate -i cm.json --mix fleet.json --family memcpy --today memcpy_orig --today rep_stos_alternative -o cm.json.$" "$TMP/para.txt" ||
	fail "the fleet, not measured: $(grep '^For fleet' "$TMP/para.txt")"
grep '^For fleet' "$TMP/para.txt" | grep -Eq "would (cut|raise)|is (measured|estimated) to|To ship" &&
	fail "the fleet, not measured, states a change"
# A core seldom quiet (14 of 400 rounds, 3.5%) is said to be, never "a quiet core".
jq '.paired[0] |= (.quiet_rounds = 14 | .busy_rounds = 386)' "$TMP/m.json" > "$TMP/q.json"
"$COPYPROF" estimate -i tests/golden/profile-synthetic.json -m "$TMP/q.json" --today memcpy_orig \
	--family memcpy --json | jq -r '.inputs[0].families[0].summary' > "$TMP/q.txt"
grep -q "the answer from the 14 of 400 rounds (3.5%) that found the core quiet, seldom: the figures may lean towards a contended core's)" "$TMP/q.txt" ||
	fail "seldom quiet: $(cat "$TMP/q.txt")"
grep -q "on a quiet core" "$TMP/q.txt" && fail "seldom quiet, yet 'on a quiet core'"
# No sentence twice in a paragraph; no count of four digits or more without separators.
while read -r line; do
	dup=$(printf '%s\n' "$line" | sed 's/\. /.\n/g' | sort | uniq -d)
	[ -z "$dup" ] || fail "a sentence twice: $dup"
done < "$TMP/para.txt"
grep -Eo '[0-9]{4,} (calls|samples|rounds|hosts|profiles)' "$TMP/para.txt" &&
	fail "a count without thousands separators"
exit 0
