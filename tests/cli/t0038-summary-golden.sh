#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0038-summary-golden: the commit paragraph in its four cases (counted, sampled, the fleet, no
# difference) is what tests/golden/summary.txt holds (make golden rewrites it); in each it names
# the input, uses the verdict's sign convention (a saving positive), says no sentence twice and
# writes every count with thousands separators.
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
v=$("$COPYPROF" estimate -i tests/golden/profile-synthetic.json -m tests/golden/costmodel-synthetic.json \
	--today memcpy_orig --family memcpy --json | jq -r '.inputs[0].families[0].verdict |
	"cut memcpy time by \(.saving_pct * 10 | round / 10)% (95% CI \(.saving_ci_low * 10 | round / 10)% to \(.saving_ci_high * 10 | round / 10)%)"')
grep -qF "$v" "$TMP/para.txt" || fail "the saving is not the verdict's: '$v'"
# No sentence twice in a paragraph; no count of four digits or more without separators.
while read -r line; do
	dup=$(printf '%s\n' "$line" | sed 's/\. /.\n/g' | sort | uniq -d)
	[ -z "$dup" ] || fail "a sentence twice: $dup"
done < "$TMP/para.txt"
grep -Eo '[0-9]{4,} (calls|samples|rounds|hosts|profiles)' "$TMP/para.txt" &&
	fail "a count without thousands separators"
exit 0
