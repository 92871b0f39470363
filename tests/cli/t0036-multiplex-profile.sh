#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0036-multiplex-profile: a mixed profile (a kprobe site, a multiplexed breakpoint site scaled
# by enabled/running time or by a reference site's calls, a sampled site) is read by report, merge, estimate, flamegraph and
# export; scaled sites say so as perf stat does, exact ones do not, and the scaling widens the
# estimate's interval. The recording itself is tested in the VM (tests/vm/t-multiplex.sh).
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
P="$G/profile-multiplexed.json"
CM="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
cd "$TMP"

expect_exit 0 "$COPYPROF" report -i "$P"
expect_out "site 1: vmlinux:_copy_to_iter\+0xb5  \(hwbp, len=rdx\)"
expect_out "scaled \(running 31% of the time\): 1,100 calls counted in 0.620 of 2.000 s"
expect_eq "only the multiplexed site is scaled" "$(grep -c 'scaled (running' "$TMP/out")" 1
expect_out "calls 3,549  bytes 9,605,744"

# The fields survive a read and a write unchanged; an old profile without them stays exact.
expect_exit 0 "$COPYPROF" report -i "$P" --json
expect_eq "multiplex fields kept" "$(jq -c '.sites[1].multiplex' "$TMP/out")" \
	'{"time_enabled_ns":2000000000,"time_running_ns":620000000,"running":0.31,"raw_calls":1100,"raw_bytes":2977600,"scaling":"time"}'
expect_eq "kprobe site has none" "$(jq '.sites[0].multiplex' "$TMP/out")" null
jq 'del(.sites[1].multiplex)' "$P" > exact.json
expect_exit 0 "$COPYPROF" report -i exact.json
expect_eq "without the fields nothing is scaled" "$(grep -c 'scaled' "$TMP/out")" 0

# Reference scaling (a site pinned on a register, the others scaled by its calls while each
# was armed): said with the reference's share, and kept; an impossible share reads as time.
jq '.sites[1].multiplex += {"scaling": "reference", "reference_site": 0,
	"reference_calls": 10000, "reference_calls_running": 2500, "reference_calls_moves": 300,
	"reference_calls_moves_credited": 150}' "$P" > ref.json
expect_exit 0 "$COPYPROF" report -i ref.json
expect_out "scaled \(running 31% of the time, 25% of site 0's calls\): 1,100 calls counted"
expect_exit 0 "$COPYPROF" report -i ref.json --json
expect_eq "reference fields kept" "$(jq -c '.sites[1].multiplex | [.scaling, .reference_site,
	.reference_calls, .reference_calls_running, .reference_calls_moves,
	.reference_calls_moves_credited]' "$TMP/out")" '["reference",0,10000,2500,300,150]'
jq '.sites[1].multiplex.reference_calls_moves_credited = 400' ref.json > badmoves.json
expect_exit 0 "$COPYPROF" report -i badmoves.json --json
expect_eq "credited move calls never above the move calls" "$(jq -c '.sites[1].multiplex |
	[.reference_calls_moves, .reference_calls_moves_credited]' "$TMP/out")" '[300,300]'
jq '.sites[1].multiplex.reference_calls_running = 20000' ref.json > badref.json
expect_exit 0 "$COPYPROF" report -i badref.json --json
expect_eq "a share above 1 reads as time scaling" "$(jq -r '.sites[1].multiplex.scaling' \
	"$TMP/out")" time
expect_exit 0 "$COPYPROF" merge -o mr.json ref.json ref.json
expect_eq "merge of two reference-scaled recordings adds the reference's calls" "$(jq -c \
	'.sites[] | select(.symbol == "_copy_to_iter") | .multiplex | [.scaling,
	.reference_calls, .reference_calls_running, .reference_calls_moves,
	.reference_calls_moves_credited]' mr.json)" '["reference",20000,5000,600,300]'
expect_exit 0 "$COPYPROF" merge -o mm.json ref.json "$P"
expect_eq "reference + time scaled: mixed" "$(jq -r '.sites[] | select(.symbol ==
	"_copy_to_iter") | .multiplex.scaling' mm.json)" mixed
expect_exit 0 "$COPYPROF" estimate -i ref.json -m "$CM"
expect_out "_copy_to_iter\+0xb5 \(hwbp, scaled \(running 31% of the time, 25% of site 0's calls\)\)"

# merge: raw counts and times add up, the ratio stays; an exact recording of the same site
# adds raw calls and no time.
expect_exit 0 "$COPYPROF" merge -o m.json "$P" "$P"
expect_out "site [0-9]+ vmlinux:_copy_to_iter\+0xb5: 7,098 calls scaled \(running 31% of the time\)"
expect_eq "merged times and raw counts" "$(jq -c '.sites[] | select(.symbol == "_copy_to_iter") |
	.multiplex | [.time_enabled_ns, .time_running_ns, .raw_calls, .raw_bytes]' m.json)" \
	'[4000000000,1240000000,2200,5955200]'
expect_exit 0 "$COPYPROF" merge -o mx.json "$P" exact.json
expect_eq "exact + scaled: raw adds the exact calls" "$(jq -c '.sites[] |
	select(.symbol == "_copy_to_iter") | .multiplex | [.time_running_ns, .raw_calls]' mx.json)" \
	'[620000000,4649]'

# estimate: the scaled site is named so, and its scaling widens the interval.
expect_exit 0 "$COPYPROF" estimate -i "$P" -m "$CM"
expect_out "_copy_to_iter\+0xb5 \(hwbp, scaled \(running 31% of the time\)\)"
expect_out "filemap_read\+0x2a0 \(kprobe\) "
width() {
	"$COPYPROF" estimate -i "$1" -m "$CM" --json |
		jq '.inputs[0].families[] | select(.family == "memcpy") | .policies[] |
			select(.threshold == 4096) | .ci_high - .ci_low'
}
w_scaled=$(width "$P") w_exact=$(width exact.json)
[ -n "$w_scaled" ] && [ -n "$w_exact" ] || fail "estimate --json has no T=4096 interval"
awk -v s="$w_scaled" -v e="$w_exact" 'BEGIN { exit !(s > e) }' ||
	fail "the scaled profile's interval ($w_scaled) is not wider than the exact one's ($w_exact)"

# flamegraph and export read the mixed profile.
expect_exit 0 "$COPYPROF" flamegraph -i "$P" -o f.svg
expect_exit 0 "$COPYPROF" export -i "$P" -f openmetrics
expect_out "_copy_to_iter"
echo "ok"
