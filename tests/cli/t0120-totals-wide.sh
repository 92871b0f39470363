#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0120-totals-wide: totals past 2^64 give one answer in every command (lib/count_sum.h). Five
# valid sites of 4e18 calls of 4 bytes each: 2e19 calls and 8e19 bytes in all. report (text,
# --sort, --sort --json), estimate (text, --json) and diff --json say exactly
# 20,000,000,000,000,000,000 calls; export -f openmetrics keeps every site's count; export -f
# pprof, whose values are signed 64-bit, refuses by name (exit 1) with the same totals; merge of
# distinct sites keeps them (report: 4e19), and merging one site past 2^64 - 1 is refused.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"
G="$ROOT/tests/golden"

# Written by hand: jq would print 4e18 as a double.
{
	echo '{ "format": "copyprof-profile", "version": 1,'
	echo '  "meta": { "kernel": "6.12.0-test", "cpu_model": "Synthetic CPU",'
	echo '    "cpu_flags": [ "erms", "rep_good" ], "hostname": "host-a",'
	echo '    "start": "2026-11-30T09:00:00Z", "duration_s": 1.5 },'
	echo '  "sites": ['
	for i in 0 1 2 3 4; do
		[ "$i" -gt 0 ] && echo ','
		printf '    { "id": %d, "target": "/usr/bin/app", "symbol": "copy%d", "offset": 0,' "$i" "$i"
		printf ' "mechanism": "uprobe", "len_arg": "arg3", "family": "memcpy", "buckets": [ { "lo": 4,'
		printf ' "hi": 5, "count": 4000000000000000000, "bytes": 16000000000000000000 } ] }'
	done
	echo '  ] }'
} > big.json
CALLS=20000000000000000000 BYTES=80000000000000000000
C_CALLS=$(commas $CALLS) C_BYTES=$(commas $BYTES)

expect_exit 0 "$COPYPROF" report -i big.json
expect_out "^total: 5 site\(s\), $C_CALLS calls, $C_BYTES bytes$"
expect_exit 0 "$COPYPROF" report -i big.json --sort site
expect_out "^copy-family calls by site \($C_CALLS calls\):"
expect_out "^ +4,000,000,000,000,000,000 +20\.0% copy0"
expect_exit 0 "$COPYPROF" report -i big.json --sort site --json
expect_out "\"calls\": $CALLS,"

expect_exit 0 "$COPYPROF" estimate -i big.json -m "$G/costmodel-synthetic.json" --today memcpy_orig
expect_out "^memcpy: $C_CALLS calls \(5 sites\)"
expect_exit 0 "$COPYPROF" estimate -i big.json -m "$G/costmodel-synthetic.json" --today memcpy_orig \
	--json
expect_out "\"calls\": $CALLS,"
expect_eq "estimate --json per-site calls" \
	"$(grep -c '"calls": 4000000000000000000,' "$TMP/out")" 5

sed 's/"copy4"/"copy9"/' big.json > big2.json
expect_exit 0 "$COPYPROF" diff --totals --json big.json big2.json
expect_eq "diff --json family calls before and after" \
	"$(grep -c "\"calls\": $CALLS," "$TMP/out")" 2
expect_out "\"count_before\": $CALLS,"
expect_out "\"bytes_before\": $BYTES,"

expect_exit 0 "$COPYPROF" export -f openmetrics -i big.json
expect_eq "openmetrics: every site's count" \
	"$(grep -c '^copyprof_copy_length_bytes_count{.*} 4000000000000000000$' "$TMP/out")" 5
expect_exit 1 "$COPYPROF" export -f pprof -i big.json -o big.pb
expect_err "the profile holds $C_CALLS calls, $C_BYTES bytes and 0 copy samples; pprof keeps signed 64-bit"
check "pprof: no file written" test ! -e big.pb

sed 's/"symbol": "copy/"symbol": "other/' big.json > other.json
expect_exit 0 "$COPYPROF" merge -o m.json big.json other.json
expect_exit 0 "$COPYPROF" report -i m.json
expect_out "^total: 10 site\(s\), 40,000,000,000,000,000,000 calls, 160,000,000,000,000,000,000 bytes$"
# The same sites twice: a site's bytes pass 2^64 - 1, which a profile cannot hold.
expect_exit 1 "$COPYPROF" merge -o m2.json big.json big.json
expect_err "2\^64 - 1"
check "merge: nothing written" test ! -e m2.json
exit 0
