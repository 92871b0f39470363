#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# summary-cases.sh: the commit paragraph in its four cases, as estimate writes it: a counted
# profile, a sampled one, a fleet (two hosts merged), and no difference. Run from the top of the
# tree; tests/golden/summary.txt holds what it printed (t0038 compares, make golden rewrites).
# Usage: tests/golden/summary-cases.sh COPYPROF
set -euo pipefail
CP=$(realpath "$1")
G=tests/golden
T="--today memcpy_orig --today rep_stos_alternative"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
summary() { "$CP" estimate "$@" --family memcpy --json | jq -r '.inputs[].families[].summary'; }

echo "== counted (a uprobe profile)"
summary -i $G/profile-synthetic.json -m $G/costmodel-synthetic.json $T
echo "== sampled"
summary -i $G/profile-synthetic-sampled.json -m $G/costmodel-synthetic.json
echo "== the fleet (two hosts merged)"
jq '.meta.hostname = "host-a"' $G/profile-synthetic.json > "$tmp/a.json"
jq '.meta.hostname = "host-b"' $G/profile-synthetic.json > "$tmp/b.json"
"$CP" merge -o "$tmp/fleet.json" "$tmp/a.json" "$tmp/b.json" > /dev/null
(cd "$tmp" && summary -i fleet.json -m "$OLDPWD/$G/costmodel-synthetic.json" $T)
echo "== no difference (every point known only to +-40%)"
jq '(.impls[].points[]) |= (. + {ci_ns: (.ns * 0.4), runs: 3})' $G/costmodel-synthetic.json \
	> "$tmp/wide.json"
(cd "$tmp" && cp "$OLDPWD/$G/profile-synthetic.json" p.json && summary -i p.json -m wide.json $T)
