#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0030-estimate: estimate on synthetic profiles and hand-written cost models gives the
# hand-computed totals; size tables (CSV, fleetbench); the seed's Cooper Lake reductions; errors.
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
SEED="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
cd "$TMP"

# policy FAMILY NAME FIELD: a field of one policy row of the last --json run ($TMP/out).
policy() {
	jq -r --arg f "$1" --arg n "$2" \
		".inputs[0].families[] | select(.family == \$f) | .policies[] | select(.name == \$n) | .$3" \
		"$TMP/out"
}

# Hand-computed totals (see tests/unit/test_estimate.c for the arithmetic).
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" --json
expect_eq "memcpy today" "$(policy memcpy today total_ns)" 25492
expect_eq "memcpy T=2048" "$(policy memcpy T=2048 total_ns)" 24786
expect_eq "memcpy T=1024" "$(policy memcpy T=1024 total_ns)" 21606
expect_eq "memcpy never" "$(policy memcpy never total_ns)" 26602
expect_eq "memcpy oracle" "$(policy memcpy oracle total_ns)" 20496
expect_eq "memcpy T=8192 (beyond every length)" "$(policy memcpy T=8192 total_ns)" 26602
expect_eq "clear_user today" "$(policy clear_user today total_ns)" 1440
expect_eq "clear_user T=256" "$(policy clear_user T=256 total_ns)" 750
expect_eq "best" "$(jq -r '.inputs[0].families[0].best.name' out)" T=1024
expect_eq "flat" "$(jq -c '.inputs[0].families[0].within_1pct' out)" '{"lo":32,"hi":1024}'
expect_eq "today impl" "$(jq -r '.inputs[0].families[0].today.impl' out)" memcpy_orig
jq -e '.inputs[0].families[0].summary | test("puts the cheapest policy, T=1024, at -15.2%")' out >/dev/null ||
	fail "summary: $(jq -r '.inputs[0].families[0].summary' out)"

# Text output: the table, the best T, per-site rows and the summary paragraph (a verdict and a
# claim need a measurement of the mix: one made by hand, the model's own figures).
"$G/measured-by-hand.sh" "$COPYPROF" "$G/costmodel-synthetic.json" m.json --today memcpy_orig \
	--today rep_stos_alternative -i "$G/profile-synthetic.json" --family memcpy ||
	fail "measured-by-hand.sh"
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m m.json \
	--family memcpy --at 2048
expect_out "^  T=2048 +2048 "
expect_out "best: T=1024"
expect_out "per site at T=2048 \(--threshold\) vs today: each site's own mix, measured"
# The family's one site: its mix is the whole, measured; its interval holds 0: no difference.
expect_out "app_copy.* 100.0%  -2.77% \(-6.82 .. \+1.46\) no difference +-2.77%$"
tr -s '\n ' ' ' < out | grep -q "REP MOVSB from 2048 bytes (T=2048) would not change it beyond the measurement noise" ||
	fail "no summary paragraph: $(tail -n 12 out)"
grep -q "clear_user" "$TMP/out" && fail "--family memcpy printed clear_user"

# The same calls at a kernel entry site with callers: one per-site row per caller and one for
# the calls no caller took; the rows add up to the same totals.
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-callers.json" -m "$G/costmodel-synthetic.json" \
	--family memcpy --at 1024 --json
expect_eq "callers: today" "$(policy memcpy today total_ns)" 25492
expect_eq "callers: T=1024" "$(policy memcpy T=1024 total_ns)" 21606
expect_eq "callers: rows" "$(jq -c '[.inputs[0].families[0].sites[] | [.site, .calls]]' out)" \
	'[["vmlinux:k_copy+0x0 <- alpha+0x10 (kprobe)",1000],["vmlinux:k_copy+0x0 <- beta+0x20 (kprobe)",100],["vmlinux:k_copy+0x0 <- (no caller) (kprobe)",10]]'
expect_eq "callers: rows add up" "$(jq '[.inputs[0].families[0].sites[].today_ns] | add' out)" 25492

# A sampled (time-weighted) profile of the same calls: samples / cost today = calls.
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic-sampled.json" -m "$G/costmodel-synthetic.json" --json
expect_eq "sampled calls" "$(jq '.inputs[0].families[0].calls' out)" 1110
expect_eq "sampled today" "$(policy memcpy today total_ns)" 25492
expect_eq "sampled T=2048" "$(policy memcpy T=2048 total_ns)" 24786
expect_eq "sampled share of CPU time" "$(jq '.inputs[0].families[0].share' out)" 0.25

# Thresholds beyond the histogram, and one inside a bucket (costed by assumption, said so).
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--family memcpy --thresholds 1G,1088,never --json
expect_eq "T=1G" "$(policy memcpy T=1073741824 total_ns)" 26602
expect_eq "T=0 absent" "$(policy memcpy T=0 total_ns)" ""

# The same histogram as a CSV size table gives the same totals.
printf 'size,count\n16,1000\n1100,100\n4096,10\n' > sizes.csv
expect_exit 0 "$COPYPROF" estimate --hist sizes.csv -m "$G/costmodel-synthetic.json" --json
expect_eq "csv today" "$(policy memcpy today total_ns)" 25492
expect_eq "csv T=2048" "$(policy memcpy T=2048 total_ns)" 24786

# Fleetbench's size<TAB>probability tables are read as relative weights.
expect_exit 0 "$COPYPROF" estimate --hist "$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt" \
	-m "$SEED" --json
expect_eq "fleet today (the model's CPU: ERMS without FSRM)" \
	"$(jq -r '.inputs[0].families[0].today.impl' out)" memcpy_orig
jq -e '.inputs[0].families[0].policies | length == 15' out >/dev/null || fail "fleet: not 15 policies"

# The seed patch's own figures: a 4 KiB-only profile, today memcpy_orig, T=2048.
for c in warm:-66.8 src-flushed:-43.3 dst-flushed:-23.5; do
	expect_exit 0 "$COPYPROF" estimate -i "$G/profile-4k-cooperlake.json" -m "$SEED" \
		--cache "${c%%:*}" --json
	expect_eq "seed ${c%%:*}" "$(printf '%.1f' "$(policy memcpy T=2048 delta_pct)")" "${c#*:}"
done

# Errors: a cost model without a needed curve or cache state; no copy-family calls; usage.
expect_exit 1 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--cache src-flushed
expect_err "no curve for memcpy_orig in cache state src-flushed"
expect_exit 1 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$G/costmodel-synthetic.json" \
	--family memmove
expect_err "has no memmove calls"
jq '.sites = []' "$G/profile-synthetic.json" > empty.json
expect_exit 1 "$COPYPROF" estimate -i empty.json -m "$G/costmodel-synthetic.json"
expect_err "has no copy-family calls"
jq '.impls |= map(select(.name != "movsb" and .name != "erms_threshold"))' \
	"$G/costmodel-synthetic.json" > nomovsb.json
expect_exit 1 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m nomovsb.json --family memcpy
expect_err "no curve for movsb in cache state warm"
expect_exit 1 "$COPYPROF" estimate -i missing.json -m "$G/costmodel-synthetic.json"
expect_err "cannot read profile missing.json"
expect_exit 2 "$COPYPROF" estimate -m "$G/costmodel-synthetic.json"
expect_err "give a profile with -i, a size table with --hist, or --prometheus URL"
expect_exit 2 "$COPYPROF" estimate -i x.json --thresholds 12x
expect_err "'12x' is not a length"
expect_exit 2 "$COPYPROF" estimate -i x.json --cache cold
expect_exit 2 "$COPYPROF" estimate -i x.json --family strcpy
exit 0
