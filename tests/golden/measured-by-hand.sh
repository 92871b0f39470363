#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# measured-by-hand.sh: a copy of a cost model holding a paired measurement of one mix, made by
# hand: the mix that the estimate arguments give (its digest from estimate --json), each policy
# "measured" at the model's own figure and interval (tests/golden/paired.jq), so that a test
# knows what the verdict makes of those figures once they are measured, and times nothing.
# Usage: tests/golden/measured-by-hand.sh COPYPROF MODEL OUT ESTIMATE-ARGS...
set -euo pipefail
cp=$1 model=$2 out=$3
shift 3
F='.inputs[0].families[0]'
est=$("$cp" estimate "$@" -m "$model" --json)
jq --arg digest "$(jq -r "$F.mix_digest" <<< "$est")" --arg family "$(jq -r "$F.family" <<< "$est")" \
	--arg today "$(jq -r "$F.today.impl" <<< "$est")" \
	--argjson fig "$(jq -c "[$F.policies[] | select(.kind != \"today\" and .kind != \"oracle\")
		| {key: .name, value: [.delta_pct, (.ci_low // .delta_pct), (.ci_high // .delta_pct)]}]
		| from_entries" <<< "$est")" -f "$(dirname "$0")/paired.jq" "$model" > "$out"
