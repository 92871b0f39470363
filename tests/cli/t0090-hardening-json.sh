#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0090-hardening-json: profiles and cost models that must be refused (trailing data, NaN,
# impossible bytes, bad alignment or duration, sums past 2^64 - 1, empty or out-of-range cost
# models), each with its exit code and message; and every JSON copyprof writes parses strictly.
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_cmd python3
cd "$TMP"
G="$ROOT/tests/golden/profile-synthetic.json"
M="$ROOT/tests/golden/costmodel-synthetic.json"

# strict FILE: Python's json with NaN/Infinity refused; FILE must also be valid UTF-8.
strict() {
	python3 -c 'import json, sys
def bad(c): raise ValueError("non-JSON constant " + c)
json.loads(open(sys.argv[1], "rb").read().decode("utf-8"), parse_constant=bad)' "$1" ||
		fail "$1 is not strict JSON: $(head -c 400 "$1")"
}
# refused WHAT PATTERN: report -i WHAT.json exits 1 with PATTERN in its message.
refused() {
	expect_exit 1 "$COPYPROF" report -i "$1.json"
	expect_err "$2"
}
# A golden profile edited by a jq filter.
edit() { jq "$2" "$G" > "$1.json" || fail "jq $2"; }

# Trailing data after the object: two profiles, or "}}}x".
cat "$G" "$G" > two.json
refused two "two.json is not valid JSON: unexpected character at byte [0-9]+ \(data after the JSON value\? one file holds one value\)"
{ cat "$G"; echo '}}x'; } > tail.json
refused tail "not valid JSON: unexpected character at byte"
# NaN and Infinity are not JSON.
sed 's/"duration_s": 1.5/"duration_s": NaN/' "$G" > nan.json
grep -q NaN nan.json || fail "the golden profile has no duration_s 1.5 to edit"
refused nan "nan.json is not valid JSON: NaN and Infinity are not JSON numbers"
# Invalid UTF-8 in the input.
sed "s/host-a/host-$(printf '\377')/" "$G" > utf.json
refused utf "not valid JSON: invalid"

# Durations: negative.
edit negdur '.meta.duration_s = -1'
refused negdur "negdur.json: meta \"duration_s\" must be a number of seconds >= 0"
edit strdur '.meta.duration_s = "long"'
refused strdur "\"duration_s\" must be a number of seconds >= 0"

# Bytes: -1, and outside the bucket's [count x lo, count x (hi - 1)].
edit negbytes '.sites[0].buckets[0].bytes = -1'
refused negbytes "site 0: bucket \[16, 17\) needs \"bytes\" as an unsigned integer"
edit bigbytes '.sites[0].buckets[1].bytes = 1000000'
refused bigbytes "site 0: bucket \[1024, 1152\) holds 100 calls, so its \"bytes\" must be from 102400 to 115100, not 1000000"
edit smallbytes '.sites[0].buckets[1].bytes = 5'
refused smallbytes "must be from 102400 to 115100, not 5"

# Alignment entries: negative or a string.
edit negalign '.sites[0].dst_align = ([range(64)] | map(0)) | .sites[0].dst_align[3] = -2'
refused negalign "site 0: dst_align/src_align must be arrays of 64 unsigned integer counts"
edit stralign '.sites[0].src_align = ([range(64)] | map(0)) | .sites[0].src_align[0] = "7"'
refused stralign "dst_align/src_align must be arrays of 64 unsigned integer counts"

# Counts past 2^64 - 1 (18446744073709551615). jq rounds big integers: sed writes them.
# big NAME COUNT BYTES: site 0's first bucket becomes [1, 2) with COUNT calls and BYTES bytes.
big() {
	jq '.sites[0].buckets[0] = {"lo": 1, "hi": 2, "count": 111, "bytes": 222}' "$G" |
		sed "s/\"count\": 111/\"count\": $2/; s/\"bytes\": 222/\"bytes\": $3/" > "$1.json"
	grep -q "\"count\": $2" "$1.json" || fail "cannot write $1.json"
}
big toobig 18446744073709551616 18446744073709551616
refused toobig "site 0 bucket 0 needs unsigned integers lo, hi and count below 2\^64 - 1"
big max 18446744073709551615 18446744073709551615
refused max "needs unsigned integers lo, hi and count below 2\^64 - 1"
# Sums inside one profile: 1e19 calls in [1, 2) are fine, a second such row of the same bucket
# passes 2^64 - 1.
big rows 10000000000000000000 10000000000000000000
python3 -c 'import sys
t = open("rows.json").read()
row = "{ \"lo\": 1, \"hi\": 2, \"count\": 10000000000000000000, \"bytes\": 10000000000000000000 }, "
i = t.index("\"buckets\"")
j = t.index("[", i) + 1
open("rows.json", "w").write(t[:j] + row + t[j:])'
refused rows "rows.json: site 0: the sum of its \"count\" passes 2\^64 - 1: refusing a count that would wrap"
# Across profiles: merge refuses a sum that passes 2^64 - 1, naming the field and the site.
big half 10000000000000000000 10000000000000000000
expect_exit 0 "$COPYPROF" report -i half.json
expect_exit 1 "$COPYPROF" merge -o merged.json half.json half.json
expect_err "merge: the merged \"count\" of site /usr/bin/app:app_copy passes 2\^64 - 1: refusing a sum that would be wrong"
[ ! -e merged.json ] || fail "merge wrote a profile whose sums wrapped"
edit longdur '.meta.duration_s = 1e308'
expect_exit 1 "$COPYPROF" merge -o merged.json longdur.json longdur.json
expect_err "merge: the merged \"duration_s\" of a group passes the largest double"
big wrapsum 10000000000000000000 10000000000000000000
cp rows.json wrapsum.json
# merge and estimate read through the same reader: the same refusal, no output.
expect_exit 1 "$COPYPROF" merge -o merged.json wrapsum.json "$G"
expect_err "the sum of its \"count\" passes 2\^64 - 1"
[ ! -e merged.json ] || fail "merge wrote a profile from a refused input"
expect_exit 1 "$COPYPROF" estimate -i wrapsum.json -m "$M"
expect_err "the sum of its \"count\" passes 2\^64 - 1"

# Cost models: no impls, a curve without points, and out-of-range numbers (no UBSan cast).
# model_refused EDIT FILE MESSAGE: estimate refuses the cost model edited by jq EDIT.
model_refused() {
	jq "$1" "$M" > "$2"
	expect_exit 1 "$COPYPROF" estimate -i "$G" -m "$2"
	expect_err "$3"
}
model_refused '.impls = []' noimpl.json "noimpl.json: cost model has an empty \"impls\" array: calibrate again"
model_refused '.impls[0].points = []' nopoints.json "has an empty \"points\" array: nothing to estimate with"
model_refused '.impls[0].threshold = 1e300' thr.json "thr.json: \"threshold\" must be an integer from -1 to 4611686018427387904"
model_refused '.meta.cpu = 1e300' cpu.json "cpu.json: meta \"cpu\" must be an integer from -1 to 2147483647"
model_refused '.meta.runs = -1e300' runs.json "runs.json: meta \"runs\" must be an integer from 0 to 2147483647"
model_refused '.impls[0].points[0].ns = 0' ns0.json "ns0.json: .* point 0 needs an integer \"size\" >= 1 and a number \"ns\" > 0"

# Every JSON written parses strictly: a caller symbol of invalid UTF-8 from perf script text
# comes out with U+FFFD, in import-perf's profile and in report --json of it.
sed "s/zstd_decompress_bio/zstd_$(printf '\377\376')bio/" "$ROOT/tests/golden/perf-script-fixture.txt" > bad.txt
grep -q "$(printf 'zstd_\377')" bad.txt || fail "the fixture has no zstd_decompress_bio to edit"
expect_exit 0 "$COPYPROF" import-perf --script bad.txt --no-kernel-text -o imported.json
strict imported.json
grep -q "zstd_$(printf '\357\277\275\357\277\275')bio" imported.json ||
	fail "the invalid bytes were not replaced by U+FFFD: $(grep -a zstd_ imported.json | head -3)"
"$COPYPROF" report -i imported.json --json > report.json || fail "report --json failed"
strict report.json
# An import without any copy-family sample: no site array to sort (UBSan: qsort of NULL).
printf 'dd 1/1 [000] 1.0: cpu-clock:ppp: \n\tffffffff81000000 do_nothing+0x1 ([kernel.kallsyms])\n\n' > nocopy.txt
expect_exit 0 "$COPYPROF" import-perf --script nocopy.txt --no-kernel-text -o nocopy.json
expect_eq "sites of an import without copies" "$(jq '.sites | length' nocopy.json)" 0
strict nocopy.json
"$COPYPROF" merge -o merged.json "$G" "$G" >/dev/null || fail "merge failed"
strict merged.json
"$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G" -m "$M" --json > est.json || fail "estimate --json failed"
strict est.json
expect_exit 1 "$COPYPROF" report -i "$(printf 'no\377such')" --json
cp "$TMP/out" err.json
strict err.json
echo "ok"
