#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0031-merge: merge sums sites by key, is commutative and associative, keeps kernels and CPU
# models apart in groups; estimate reads a merged file and reports each CPU group.
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
CM="$G/costmodel-synthetic.json"
cd "$TMP"

# a, b: one CPU, two hosts; c: another CPU model; b has an extra site and moved addresses.
jq '.meta.hostname = "host-a"' "$G/profile-synthetic.json" > a.json
jq '.meta.hostname = "host-b" | .meta.duration_s = 2.25 | .meta.cpu_flags = ["rep_good", "erms"]
    | .sites += [{"id": 2, "target": "vmlinux", "symbol": "zdss_flush", "offset": 64,
                  "mechanism": "kprobe", "len_arg": "rdx",
                  "buckets": [{"lo": 4096, "hi": 4608, "count": 7, "bytes": 28672}]}]' \
	"$G/profile-synthetic.json" > b.json
jq '.meta.hostname = "host-c" | .meta.cpu_model = "Other CPU" | .meta.duration_s = 0.5' \
	"$G/profile-synthetic.json" > c.json

norm() { jq -S 'del(.meta.tool_version)' "$1"; }
expect_exit 0 "$COPYPROF" merge -o abc.json a.json b.json c.json
expect_out "3 profiles into abc.json: 2 groups"
"$COPYPROF" merge -o cba.json c.json b.json a.json >/dev/null || fail "merge c b a"
"$COPYPROF" merge -o ab.json a.json b.json >/dev/null || fail "merge a b"
"$COPYPROF" merge -o ab_c.json ab.json c.json >/dev/null || fail "merge (a b) c"
"$COPYPROF" merge -o bc.json b.json c.json >/dev/null || fail "merge b c"
"$COPYPROF" merge -o a_bc.json a.json bc.json >/dev/null || fail "merge a (b c)"
[ "$(norm abc.json)" = "$(norm cba.json)" ] || fail "merge is not commutative"
[ "$(norm ab_c.json)" = "$(norm abc.json)" ] || fail "(a b) c differs from a b c"
[ "$(norm a_bc.json)" = "$(norm abc.json)" ] || fail "a (b c) differs from a b c"

# Groups: the same flags in another order are one group; another CPU model is its own.
expect_eq "groups" "$(jq '.groups | length' abc.json)" 2
expect_eq "synthetic group hosts" \
	"$(jq -c '.groups[] | select(.cpu_model == "Synthetic CPU") | .hosts' abc.json)" '["host-a","host-b"]'
expect_eq "synthetic group duration" \
	"$(jq '.groups[] | select(.cpu_model == "Synthetic CPU") | .duration_s' abc.json)" 3.75
expect_eq "profiles" "$(jq '[.groups[].profiles] | add' abc.json)" 3
expect_eq "top-level meta has no single CPU" "$(jq -r '.meta.cpu_model' abc.json)" null
# Sites: matched by key within a group, summed, never across groups.
g=$(jq '.groups | map(.cpu_model) | index("Synthetic CPU")' abc.json)
expect_eq "app_copy summed in its group" \
	"$(jq --argjson g "$g" '[.sites[] | select(.group == $g and .symbol == "app_copy")][0].calls' abc.json)" 2220
expect_eq "app_copy sites" "$(jq '[.sites[] | select(.symbol == "app_copy")] | length' abc.json)" 2
expect_eq "zdss_flush" "$(jq '[.sites[] | select(.symbol == "zdss_flush")][0].buckets[0].count' abc.json)" 7
# Every merged site has its family: b's added site has none and is read as memcpy.
expect_eq "families" "$(jq -c '[.sites[] | [.symbol, .family]] | unique' abc.json)" \
	'[["app_clear","clear_user"],["app_copy","memcpy"],["zdss_flush","memcpy"]]'
# report reads a merged profile.
expect_exit 0 "$COPYPROF" report -i abc.json

# One group: the merged file looks like a profile of that CPU.
expect_eq "one group's CPU" "$(jq -r '.meta.cpu_model' ab.json)" "Synthetic CPU"

# estimate: one block per CPU group, never mixed; several -i are merged the same way.
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i abc.json -m "$CM" --family memcpy --json
expect_eq "estimate inputs" "$(jq '.inputs | length' out)" 2
expect_eq "Other CPU today" \
	"$(jq '.inputs[] | select(.cpu_model == "Other CPU") | .families[0].policies[0].total_ns' out)" 25492
expect_eq "Synthetic CPU today" \
	"$(jq '.inputs[] | select(.cpu_model == "Synthetic CPU") | .families[0].policies[0].total_ns' out)" \
	"$(jq -n '2 * 25492 + 7 * 413.2')"
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig -i a.json -i b.json -i c.json -m "$CM" --family memcpy --json
expect_eq "estimate -i x3" "$(jq '.inputs | length' out)" 2

# Errors.
expect_exit 2 "$COPYPROF" merge -o a.json a.json
expect_err "a.json is an input too"
expect_exit 2 "$COPYPROF" merge -o x.json
expect_err "give at least one PROFILE"
expect_exit 1 "$COPYPROF" merge -o x.json a.json missing.json
expect_err "cannot read profile missing.json"
[ -e x.json ] && fail "a failed merge wrote its output"
exit 0
