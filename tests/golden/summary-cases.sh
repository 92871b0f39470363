#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# summary-cases.sh: the commit paragraph in its four cases, as estimate writes it: a counted
# profile, a sampled one, no difference (each with a paired measurement of its mix made by hand,
# tests/golden/measured-by-hand.sh: a paragraph states a change only from a measurement), and a
# fleet (two hosts merged) without one: modelled, no verdict. Run from the top of the tree;
# tests/golden/summary.txt holds what it printed (t0038 compares, make golden rewrites).
# Usage: tests/golden/summary-cases.sh COPYPROF
set -euo pipefail
CP=$(realpath "$1")
G=tests/golden
T="--today memcpy_orig --today rep_stos_alternative"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
summary() { "$CP" estimate "$@" --family memcpy --json | jq -r '.inputs[].families[].summary'; }
measured() { $G/measured-by-hand.sh "$CP" "$@" --family memcpy; }

echo "== counted (a uprobe profile)"
measured $G/costmodel-synthetic.json "$tmp/counted.json" -i $G/profile-synthetic.json $T
summary -i $G/profile-synthetic.json -m "$tmp/counted.json" $T
echo "== sampled"
measured $G/costmodel-synthetic.json "$tmp/sampled.json" -i $G/profile-synthetic-sampled.json
summary -i $G/profile-synthetic-sampled.json -m "$tmp/sampled.json"
echo "== the fleet (two hosts merged), not measured"
jq '.meta.hostname = "host-a"' $G/profile-synthetic.json > "$tmp/a.json"
jq '.meta.hostname = "host-b"' $G/profile-synthetic.json > "$tmp/b.json"
"$CP" merge -o "$tmp/fleet.json" "$tmp/a.json" "$tmp/b.json" > /dev/null
cp $G/costmodel-synthetic.json "$tmp/cm.json"
(cd "$tmp" && summary -i fleet.json -m cm.json $T)
echo "== no difference (every point known only to +-40%)"
jq '(.impls[].points[]) |= (. + {ci_ns: (.ns * 0.4), runs: 3})' $G/costmodel-synthetic.json \
	> "$tmp/wide0.json"
cp $G/profile-synthetic.json "$tmp/p.json"
(cd "$tmp" && "$OLDPWD/$G/measured-by-hand.sh" "$CP" wide0.json wide.json -i p.json $T \
	--family memcpy && summary -i p.json -m wide.json $T)
