#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0085-diff: copyprof diff on two real recordings of a workload of known sizes with a known
# change (1000 copies of 64 B; then the same plus 500 of 4096 B): every per-bucket delta exact,
# the significance of each, the differential flame graph, and every kind of bad input.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"

"$COPYPROF" record --uprobe "$WL:wl_copy" -o before.json -- "$WL" copy=64:1000 \
	>/dev/null 2>err.txt || fail "record before: $(cat err.txt)"
"$COPYPROF" record --uprobe "$WL:wl_copy" -o after.json -- "$WL" copy=64:1000 copy=4096:500 \
	>/dev/null 2>err.txt || fail "record after: $(cat err.txt)"

expect_exit 0 "$COPYPROF" diff --totals --json before.json after.json
cp "$TMP/out" d.json
s='.sites[0]'
expect_eq "one site" "$(jq '.sites | length' d.json)" 1
expect_eq "matched exactly" "$(jq -r "$s.match" d.json)" exact
expect_eq "normalised" "$(jq -r .normalised d.json)" totals
expect_eq "calls" "$(jq -c "[$s.before.calls, $s.after.calls, $s.change.calls]" d.json)" "[1000,1500,500]"
expect_eq "bytes" "$(jq -c "[$s.before.bytes, $s.after.bytes]" d.json)" "[64000,2112000]"
expect_eq "mean length" "$(jq -c "[$s.before.mean, $s.after.mean]" d.json)" "[64,1408]"
expect_eq "calls change significant" "$(jq "$s.change.significant_calls" d.json)" true
# Every bucket: lo, counts before/after, their change, shares before/after (of the site's calls).
expect_eq "buckets" "$(jq -c "[$s.buckets[] | [.lo, .hi, .count_before, .count_after, .count_change, .bytes_before, .bytes_after]]" d.json)" \
	"[[64,72,1000,1000,0,64000,64000],[4096,4608,0,500,500,0,2048000]]"
expect_eq "bucket shares" "$(jq -c "[$s.buckets[] | [.share_before, (.share_after * 3 | round), (.share_change * 3 | round)]]" d.json)" \
	"[[1,2,-1],[0,1,1]]"
# 64 B: 1000 and 1000 (p = 1: no change in count), its share 100% -> 66.7% (significant);
# 4096 B: 0 -> 500, significant by both tests.
expect_eq "64 B: count within noise, share not" "$(jq -c "$s.buckets[0] | [.p_count, .significant]" d.json)" "[1,true]"
expect_eq "4096 B significant" "$(jq "$s.buckets[1].p_count < 1e-100" d.json)" true
# Like with like: two recordings of a command that ran to its end compare totals by default,
# and say why.
expect_exit 0 "$COPYPROF" diff --json before.json after.json
expect_eq "two command recordings: totals" "$(jq -r '[.normalised, .before.ended_by, .after.ended_by] | join(" ")' "$TMP/out")" \
	"totals command command"
expect_eq "why" "$(jq -r .normalised_why "$TMP/out")" \
	"both ran a command to its end: the same work, however long it took; --rates compares per second"
expect_eq "default = --totals" "$(jq -c '.sites' "$TMP/out")" "$(jq -c '.sites' d.json)"
# --rates: calls over each recording's own duration.
expect_exit 0 "$COPYPROF" diff --rates --json before.json after.json
jq -e --slurpfile b before.json --slurpfile a after.json \
	'.normalised == "per_second" and .normalised_why == "--rates" and
	 (.sites[0].before.rate - 1000 / $b[0].meta.duration_s | fabs) < 1e-6 and
	 (.sites[0].after.rate - 1500 / $a[0].meta.duration_s | fabs) < 1e-6' "$TMP/out" >/dev/null ||
	fail "per-second rates: $(jq -c '.sites[0] | [.before.rate, .after.rate]' "$TMP/out")"
# Text: the 4096 B bucket is reported as new calls.
expect_exit 0 "$COPYPROF" diff --totals before.json after.json
expect_out '4096-4607 B +0 -> 500 \(\+500'
expect_out 'calls +1000 -> 1500 \(\+50\.00%'

# Differential flame graph: widths are AFTER's, 4096 B new (full red), 64 B unchanged (grey).
expect_exit 0 "$COPYPROF" flamegraph --diff --totals before.json after.json -o diff.svg
grep -q '1000 calls after, 1000 before (+0.00%)' diff.svg || fail "no unchanged 64 B frame"
grep -A1 '<title>4096-4607 B' diff.svg | grep -q '500 calls after, 0 before (new)' || fail "no new 4096 B frame"
grep -q 'id="legend"' diff.svg || fail "no legend"
grep -q 'fill="rgb(220,45,40)"/><text x="[0-9.]*" y="[0-9.]*">4096-4607 B' diff.svg ||
	fail "4096 B is not full red"

# The same command recorded twice: the same calls in a little more or less time. "no change",
# as totals; as rates the durations differ and so do the rates (issue 24: +5.31%, p=7.3e-13).
"$COPYPROF" record --uprobe "$WL:wl_copy" -o again.json -- "$WL" copy=64:1000 \
	>/dev/null 2>err.txt || fail "record again: $(cat err.txt)"
expect_exit 0 "$COPYPROF" diff before.json again.json
expect_out '^no change: the two profiles hold the same sites, counts and context$'
expect_out '^  compared as totals per recording: both ran a command to its end'
expect_exit 0 "$COPYPROF" diff --json before.json again.json
expect_eq "two recordings of one command: no change" "$(jq .no_change "$TMP/out")" true
[ "$(jq .meta.duration_s before.json)" = "$(jq .meta.duration_s again.json)" ] ||
	{ expect_exit 0 "$COPYPROF" diff --rates --json before.json again.json
	  expect_eq "--rates: other durations are other rates" "$(jq .no_change "$TMP/out")" false; }
# A recording bounded by time against one of a command: a mixed pair, compared per second, said.
(while [ ! -e timed.done ]; do "$WL" copy=64:100 >/dev/null; sleep 0.05; done) &
loop=$!
"$COPYPROF" record --uprobe "$WL:wl_copy" -d 1 -o timed.json >/dev/null 2>err.txt ||
	fail "record -d 1: $(cat err.txt)"
touch timed.done
wait $loop
expect_eq "-d recording ended by" "$(jq -r .meta.ended_by timed.json)" duration
expect_exit 0 "$COPYPROF" diff timed.json before.json
expect_out '^  compared as rates per second: BEFORE was bounded by time and AFTER ran a command to its end: a mixed pair, compared per second; --totals compares totals$'
expect_exit 0 "$COPYPROF" diff --totals timed.json before.json
expect_out '^  compared as totals per recording: --totals$'
expect_exit 2 "$COPYPROF" diff --totals --rates timed.json before.json
expect_err "--totals and --rates exclude each other"

# Bad input, each with its message and exit status.
expect_exit 0 "$COPYPROF" diff before.json before.json
expect_out 'no change'
cp before.json copy.json
expect_exit 0 "$COPYPROF" diff --json before.json copy.json
expect_eq "identical files: no change" "$(jq .no_change "$TMP/out")" true
jq '.sites[0].calls = 0 | .sites[0].buckets = []' before.json > empty.json
expect_exit 1 "$COPYPROF" diff empty.json after.json
expect_err 'empty.json \(BEFORE\) is empty: 1 site\(s\), no call counted'
expect_exit 1 "$COPYPROF" diff before.json "$ROOT/tests/golden/profile-synthetic-sampled.json"
expect_err 'before.json is counted and .*profile-synthetic-sampled.json is sampled: .*count samples'
expect_exit 1 "$COPYPROF" diff "$ROOT/examples/costmodels/cooperlake-8321hc-seed.json" after.json
expect_err 'is a costmodel file, not a profile'
jq '.version = 2' before.json > v2.json
expect_exit 1 "$COPYPROF" diff v2.json after.json
expect_err 'profile format version 2; this copyprof .* reads version 1'
expect_exit 2 "$COPYPROF" diff before.json
expect_err 'give two profiles: BEFORE AFTER'
expect_exit 2 "$COPYPROF" diff --cache warm before.json after.json
expect_exit 1 "$COPYPROF" diff before.json missing.json
expect_err 'cannot read profile missing.json'

# A mixed profile (counted, multiplexed counted and sampled sites): like with like, per kind.
mix="$ROOT/tests/golden/profile-multiplexed.json"
expect_exit 0 "$COPYPROF" diff "$mix" "$mix"
expect_out 'no change'
jq '.sites[1].buckets[0].count = 423 | .sites[1].buckets[0].bytes = 6768 |
    .sites[2].buckets[0].count = 60 | .sites[2].buckets[0].bytes = 245760' "$mix" > mixmod.json
expect_exit 0 "$COPYPROF" diff --totals --all --json "$mix" mixmod.json
cp "$TMP/out" m.json
expect_eq "mixed kind" "$(jq -r .kind m.json)" mixed
expect_eq "families per kind" "$(jq -c '[.families[] | [.name, .kind, .before.calls, .after.calls, .change.calls]] | sort' m.json)" \
	'[["memcpy (counted)","counted",4549,4649,100],["memcpy (sampled)","sampled",40,60,20]]'
c='.sites[] | select(.symbol == "_copy_to_iter")'
expect_eq "scaled site" "$(jq -c "$c | [.kind, .scaled, .before.calls, .after.calls, .change.calls]" m.json)" \
	'["counted",true,3549,3649,100]'
expect_eq "scaled site buckets" "$(jq -c "[$c | .buckets[] | [.lo, .count_before, .count_after, .count_change, .bytes_after]]" m.json)" \
	'[[16,323,423,100,6768],[2816,3226,3226,0,9600576]]'
# Tested on raw counts: 1100 over 0.31 of the recording, 1100 over 1100/3649 of it (not 3549
# against 3649 as if counted exactly): p = 0.515.
expect_eq "scaled p_calls on raw counts" "$(jq "$c | .change.p_calls | . * 1000 | round" m.json)" 515
z='.sites[] | select(.symbol == "ZSTD_decompressStream")'
expect_eq "sampled site" "$(jq -c "$z | [.kind, .scaled, .before.calls, .after.calls, .change.calls, .buckets[0].count_change]" m.json)" \
	'["sampled",false,40,60,20,20]'
expect_eq "sampled share of non-idle samples" "$(jq -c "$z | [.before.share * 2996, .after.share * 2996 | round]" m.json)" '[40,60]'
expect_eq "unchanged counted site" "$(jq -c '.sites[] | select(.symbol == "filemap_read") | [.scaled, .change.calls, .change.p_calls]' m.json)" '[false,0,1]'
expect_exit 0 "$COPYPROF" diff --totals --all "$mix" mixmod.json
expect_out 'mixed: counted sites \(calls\) compared with counted ones, sampled sites'
expect_out 'memcpy \(sampled\)'
expect_out 'samples +40 -> 60 \(\+50\.00%'
expect_out 'scaled: multiplexed counts are estimates'
# The differential flame graph draws one kind: it refuses a mixed profile, saying so.
expect_exit 1 "$COPYPROF" flamegraph --diff "$mix" mixmod.json -o mixdiff.svg
expect_err 'mixes sampled and counted sites: a differential flame graph draws one kind'
# A mixed profile against a purely counted one: the counted sites compare, the sampled vanish.
expect_exit 0 "$COPYPROF" diff --totals --json "$mix" after.json
expect_eq "mixed vs counted: sampled vanished" "$(jq -r '.vanished[] | select(test("ZSTD"))' "$TMP/out")" \
	'vmlinux:ZSTD_decompressStream+0x80e > memcpy_orig'

# diff -m on profiles with a family the cost model cannot cost (the seed has memcpy's curves
# only; a memset site added): memcpy still modelled, memset said and left unmodelled, exit 0.
G="$ROOT/tests/golden/profile-btrfs-zstd-6.12.json"
SEED="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
jq '.sites += [.sites[0] | .id = 9999 | .symbol = "memset_user" | .family = "memset"]' "$G" > with-memset.json
expect_exit 0 "$COPYPROF" diff --totals -m "$SEED" --json "$G" with-memset.json
expect_err "memset is not modelled: cost model .* has no curve for memset_orig"
expect_eq "memcpy modelled, memset not" "$(jq -c '[.families[] | [.name, (.model != null)]] | sort' "$TMP/out")" \
	'[["memcpy",true],["memset",false]]'
expect_no_leftover_progs
exit 0
