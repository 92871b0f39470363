#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# estimate-fleet.sh: what REP MOVSB from T would do to Google's fleet-wide memcpy size mix on
# the seed patch's Cooper Lake (its published figures as a cost model); then the seed's own
# 4 KiB case. Needs no root and measures nothing: the output is examples/estimate-fleet.txt.
# Usage: examples/estimate-fleet.sh [BUILD_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CP=$ROOT/${1:-build}/copyprof
cd "$ROOT"

echo "== copyprof estimate --hist MemcpyGoogleFleet.txt -m cooperlake-8321hc-seed.json"
"$CP" estimate --hist examples/data/fleetbench-2023/MemcpyGoogleFleet.txt \
	-m examples/costmodels/cooperlake-8321hc-seed.json
echo
echo "== the seed's 4 KiB copies, by cache state (the seed prints 66.8%, 43.3%, 23.5%)"
for c in warm src-flushed dst-flushed; do
	"$CP" estimate -i tests/golden/profile-4k-cooperlake.json \
		-m examples/costmodels/cooperlake-8321hc-seed.json --cache "$c" --at 2048 --json |
		jq -r --arg c "$c" '.inputs[0].families[0].policies[] | select(.name == "T=2048")
			| "\($c): T=2048 \(.delta_pct * 10 | round / 10)% vs memcpy_orig"'
done
