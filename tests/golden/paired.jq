# SPDX-License-Identifier: GPL-2.0
# paired.jq: adds to a cost model a paired measurement of one mix, as calibrate --mix stores it
# (docs/costmodel-format.md#paired), with figures given by hand: tests of what estimate makes of
# a measurement, where no timing may be asserted.
# Usage: jq --arg digest D --arg family memcpy --arg today memcpy_orig \
#           --argjson fig '{"T=1024": [-14.2, -15.1, -13.0], ...}' [--argjson quiet 380] \
#           -f tests/golden/paired.jq MODEL.json
# Each policy in $fig gets quiet {delta_pct, ci_low, ci_high}; a policy left out is not measured.
# The A/A control is -0.1% (-0.2 .. +0.3); 400 rounds, $quiet (default 380) of them quiet.
def fig($a): {delta_pct: $a[0], ci_low: $a[1], ci_high: $a[2]};
($ARGS.named.quiet // 380) as $q
| .paired = (.paired // []) + [{
	family: $family, digest: $digest, input: "by hand (tests/golden/paired.jq)",
	today: $today, weight: "calls",
	conditions: {cache: "warm", working_set_bytes: 262144, cold_bytes: 0,
		alignment: "uniform", chunk_calls: 4096, warmup_calls: 1024, batches: 8,
		code_places: 8, cpu: 0, seed: 1, budget_s: 3, time_s: 3.1},
	rounds: 400, quiet_rounds: $q, busy_rounds: (400 - $q),
	control: {delta_pct: -0.1, ci_low: -0.2, ci_high: 0.3}, same_code_gap_pct: 0.1,
	policies: ([{name: "today", quiet: fig([0, 0, 0]), busy: fig([0, 0, 0]),
		ns_per_call: 10}]
		+ [$fig | to_entries[] | {name: .key, quiet: fig(.value),
			busy: {delta_pct: null, ci_low: null, ci_high: null}, ns_per_call: 10}])
}]
