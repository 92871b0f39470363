#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0035-merge-report-labels: merge's default output and the groups it explains; report's labels
# on merged and sampled profiles (groups, not "kernel ?"; samples, not calls).
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
cd "$TMP"
cp "$G/profile-synthetic.json" a.json
# The same host and CPU model, but a VM hid erms: another group.
jq '.meta.cpu_flags = ["rep_good"]' a.json >b.json

# Without -o, merge writes copyprof.json, as record and import-perf do.
expect_exit 0 "$COPYPROF" merge a.json b.json
[ -f copyprof.json ] || fail "merge wrote no copyprof.json"
expect_eq "groups" "$(jq '.groups | length' copyprof.json)" 2
expect_out "merged 2 profiles into copyprof.json: 2 groups"
expect_out "group 0: Synthetic CPU, kernel 6.12.0-test, counted, 1 host, 1 profile"
expect_out "kept apart by its CPU flags: erms rep_good"
expect_out "kept apart by its CPU flags: rep_good$"
expect_out "never summed: estimate reports each group"
# ... and never over one of its inputs.
expect_exit 2 "$COPYPROF" merge -o a.json a.json b.json
expect_err "a.json is an input too: give the merged profile another name with -o"
expect_exit 2 "$COPYPROF" merge a.json copyprof.json
expect_err "copyprof.json is an input too"
# One group: no explanation needed.
expect_exit 0 "$COPYPROF" merge -o one.json a.json a.json
grep -q "kept apart" "$TMP/out" && fail "a single group explained: $(cat "$TMP/out")"

# report on a merge: its groups, not "kernel ?, cpu ?, host ?".
expect_exit 0 "$COPYPROF" report -i copyprof.json
expect_out "^merged profile: 2 groups"
expect_out "group 0: kernel 6.12.0-test, cpu Synthetic CPU, 1 profile, 1.50 s, host host-a"
grep -q "kernel ?" "$TMP/out" && fail "report prints unknowns: $(head -3 "$TMP/out")"

# report on a sampled profile: samples, not calls.
expect_exit 0 "$COPYPROF" report -i "$G/profile-synthetic-sampled.json"
expect_out "^  samples 25492 \(not calls\)  lengths recovered 25492 \(exact 25492, approximate 0\), unknown 0$"
expect_out "histogram: samples inside copies of each length \(time-weighted\)"
grep -q "^  calls " "$TMP/out" && fail "a sampled site printed as calls: $(grep '^  calls' "$TMP/out")"
# ... and an imported one without registers says why it has no lengths.
expect_exit 0 "$COPYPROF" import-perf --script "$G/perf-script-fixture.txt" --no-kernel-text -o imp.json
expect_exit 0 "$COPYPROF" report -i imp.json
expect_out "^site 0: zstd_decompress:ZSTD_decompressStream\+0x794  \(sample, len=recovered\)$"
expect_out "^  samples 4 \(not calls\)  lengths recovered 0 \(exact 0, approximate 0\), unknown 4$"
expect_out "no length: imported from perf, whose samples carry no registers that import-perf reads"
grep -q "(no calls)" "$TMP/out" && fail "'(no calls)' on a sampled site"
exit 0
