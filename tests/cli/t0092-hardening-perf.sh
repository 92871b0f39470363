#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0092-hardening-perf: import-perf -i on a plain `perf record -g -- CMD` file (no CPU in its
# samples) asks perf script only for the fields the file has, and imports every sample.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd perf
cd "$TMP"

perf record -q -g -o plain.data -- dd if=/dev/zero of=/dev/null bs=1M count=3000 2> perf.err ||
	fail "perf record failed: $(cat perf.err)"
perf evlist -v -i plain.data 2>/dev/null | grep -q "sample_type: .*CPU" &&
	skip "this perf records the CPU even without -a: nothing to check"
# What perf itself says: one header line per sample with only the comm field.
want=$(perf script -i plain.data -F comm 2>/dev/null | grep -c .)
[ "$want" -gt 0 ] || fail "perf script sees no sample in plain.data"

expect_exit 0 "$COPYPROF" import-perf -i plain.data -o imp.json -v
expect_err "perf script -F comm,pid,tid,event,time,ip,sym,symoff,dso -i plain.data"
expect_err "$want samples, [0-9]+ copy family"
expect_eq "samples imported" "$(jq .meta.total_samples imp.json)" "$want"
# dd reads /dev/zero: its copy-family samples are the kernel clearing user pages (read_zero).
jq -e '.sites | length > 0 and all(.mechanism == "sample")' imp.json > /dev/null ||
	fail "no copy-family site imported: $(jq -c '.sites | length' imp.json)"
echo "ok"
