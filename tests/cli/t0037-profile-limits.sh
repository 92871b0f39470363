#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0037-profile-limits: profiles over the documented limits (docs/profile-format.md#limits) are
# refused with a message naming the limit, exit 1, before their memory is spent; a merge of
# thousands of sites (found by hash since issue 13) sums each site once, in any input order.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"
G="$ROOT/tests/golden"

# Over 256 MiB: a sparse file, refused on its size before it is parsed.
truncate -s 300M big.json
expect_exit 1 "$COPYPROF" estimate -i big.json -m "$G/costmodel-synthetic.json"
expect_err "big.json: 300 MiB; copyprof reads profiles of at most 256 MiB"
expect_exit 1 "$COPYPROF" merge -o m.json big.json "$G/profile-synthetic.json"
expect_err "at most 256 MiB"
[ ! -e m.json ] || fail "merge wrote m.json from a refused input"

# Over 250,000 sites: refused at the 250,001st, the sites built so far dropped and the rest only
# counted (the reader streams: docs/profile-format.md#limits).
awk 'BEGIN { printf "{\"format\":\"copyprof-profile\",\"version\":1,\"sites\":["
	for (i = 0; i < 250001; i++) printf "%s{\"buckets\":[]}", i ? "," : ""
	print "]}" }' > over.json
expect_exit 1 "$COPYPROF" merge -o m.json over.json
expect_err "over.json: 250001 sites; copyprof reads at most 250000 sites per profile"
[ ! -e m.json ] || fail "merge wrote m.json from a refused input"

# Many sites merge by key, whatever the order: bench/gen_profile.sh's hosts 0 and 1 share
# 3/4 of 4000 sites, so the merge has 4000 sites and the calls of both.
"$ROOT/bench/gen_profile.sh" 4000 0 > h0.json
"$ROOT/bench/gen_profile.sh" 4000 1 > h1.json
expect_exit 0 "$COPYPROF" merge -o ab.json h0.json h1.json
expect_out "1 group \(kernel x CPU\), 4000 sites"
expect_exit 0 "$COPYPROF" merge -o ba.json h1.json h0.json
cmp -s ab.json ba.json || fail "merge depends on the order of its inputs"
want=$(jq '[.sites[].buckets[].count] | add' h0.json h1.json | awk '{ s += $1 } END { print s }')
expect_eq "calls after merge" "$(jq '[.sites[].calls] | add' ab.json)" "$want"
exit 0
