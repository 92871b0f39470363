#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0032-estimate-validate: --validate measures the mix afresh, paired, under its own seed (never
# calibrate's) and prints it against the estimate for every policy but the oracle: the replayed
# change with its interval, the difference, and the agreement allowed (max(3 points, 2 x the
# noise)), each consistent with the figures it prints. Whether they agree is a benchmark's
# question (bench/estimate_accuracy.sh): the numbers are timing, only their consistency is
# checked here.
. "$(dirname "$0")/lib.sh"
need_cmd jq
F='.inputs[0].families[0]'
cd "$TMP"

"$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold,memset_orig,stosb \
	--cache warm -o cm.json > /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fail "calibrate --quick exited $rc: $(cat err.txt)"
printf '16,500\n200,100\n8192,50\n' > mix.csv
expect_exit 0 "$COPYPROF" calibrate -i cm.json --hist mix.csv --mix-budget 1 -o cm.json

expect_exit 0 "$COPYPROF" estimate --hist mix.csv -m cm.json --thresholds 64,1024,never \
	--validate --json
cp out v.json
expect_err "validate: replaying memcpy's mix under 4 policies, paired"
[ "$(jq "$F.validation.conditions.seed" v.json)" != "$(jq '.paired[0].conditions.seed' cm.json)" ] ||
	fail "the validation replayed calibrate's own draw"
jq -e "$F.validation.rounds > 0 and $F.validation.quiet_rounds + $F.validation.busy_rounds
	== $F.validation.rounds" v.json > /dev/null || fail "validation rounds: $(jq -c "$F.validation" v.json)"
for p in always T=64 T=1024 never; do
	jq -e --arg p "$p" "$F.policies[] | select(.name == \$p) |
		(.validate_pct | type == \"number\") and .validate_ci_low <= .validate_pct and
		.validate_pct <= .validate_ci_high and
		((.validate_off_pct - (.delta_pct - .validate_pct)) | fabs) < 1e-3" v.json > /dev/null ||
		fail "$p: validation figures: $(jq -c "$F.policies[] | select(.name == \"$p\")" v.json)"
done
expect_eq "oracle not replayed" \
	"$(jq "$F.policies[] | select(.name == \"oracle\") | has(\"validate_pct\")" v.json)" false
jq -e "$F.validation.noise_floor_pct >= 0" v.json > /dev/null || fail "no noise floor"

# Text: a row per replayed policy, its difference and the agreement allowed.
expect_exit 0 "$COPYPROF" estimate --hist mix.csv -m cm.json --thresholds 64,1024,never --validate
expect_out "^  validation \(--validate MEASURED this now: an independent paired replay, new seed"
for p in always T=64 T=1024 never; do
	grep -Eq "^    $p +[-+][0-9.]+% +[-+][0-9.]+% +[-+ ][0-9.]+ \.\. +[-+][0-9.]+ +[-+][0-9.]+ +[0-9.]+" out ||
		fail "no $p validation row: $(grep -A8 validation out)"
done
expect_out "^    noise: the replay's A/A control [-+][0-9.]+%; [0-9]+ of 4 policies agree within max\(3 points, 2 x noise\)$"
# Each row's verdict (DISAGREES or not) follows from the figures it prints (figures equal as
# printed are decided by the digits not printed: either verdict follows from them). Only the
# validation table's rows: a verdict that depends on the conditions lists policies too.
awk '/^  validation / { v = 1; next } /^    noise:/ { v = 0 } v && /^    (always|T=|never)/ { off = $(NF - 1); allowed = $NF; if ($NF == "DISAGREES") {
	off = $(NF - 2); allowed = $(NF - 1); bad = 1 } else bad = 0
	o = off < 0 ? -off : off; rows++; if ((o > allowed && !bad) || (o < allowed && bad)) { print; exit 1 } }
	END { if (rows != 4) { print rows " validation rows, not 4"; exit 1 } }' out ||
	fail "a row's agreement does not follow from its figures"

# The replay checks the estimate only in the machine's state the estimate was measured in:
# today's code's time per call in the replay against the stored one, stated. Stored 1,000
# times too small (as if measured on a machine 1,000 times faster), the replay is taken three
# times in all, and the text says it checks the state, not the estimate.
jq -e "$F.validation.state_gap_pct | type == \"number\"" v.json > /dev/null ||
	fail "no state gap: $(jq -c "$F.validation" v.json | head -c 300)"
expect_out "^    state: today's code ran [-+][0-9.]+% against the measurement's time a call"
jq '(.paired[0].policies[] | select(.name == "today") | .ns_per_call) |= (. / 1000)' cm.json > fast.json
expect_exit 0 "$COPYPROF" estimate --hist mix.csv -m fast.json --thresholds 64 --validate --json
expect_eq "another state: replayed again" "$(grep -c "the machine is in another state; measuring again" err)" 2
jq -e "$F.validation.state_gap_pct > 10000" out > /dev/null ||
	fail "another state: gap $(jq "$F.validation.state_gap_pct" out)"
expect_exit 0 "$COPYPROF" estimate --hist mix.csv -m fast.json --thresholds 64 --validate
expect_out "^    state: today's code ran \+[0-9.]+% against the measurement's time a call: the machine was in another state, also when replayed again, so this replay checks the state, not the estimate$"

# Another family (no dispatch replica: the loop and the string op switched in C).
printf '8,100\n120,40\n' > set.csv
expect_exit 0 "$COPYPROF" estimate --hist set.csv --family memset -m cm.json --thresholds 64 \
	--validate --json
jq -e "$F.policies[] | select(.name == \"T=64\") | .validate_pct | type == \"number\"" out \
	> /dev/null || fail "memset T=64 not replayed"
exit 0
