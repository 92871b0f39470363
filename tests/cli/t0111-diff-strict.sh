#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0111-diff-strict: diff reads both profiles with profile_read(), the reader of every other
# command: trailing garbage, two joined documents, invalid UTF-8, another copyprof format and a
# file over 256 MiB are refused with exit 1 and the message report gives for the same file;
# two good profiles still compare (exit 0) with their exact call counts.
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_cmd /usr/bin/time
cd "$TMP"
G="$ROOT/tests/golden/profile-synthetic.json"
C="$ROOT/tests/golden/profile-4k-cooperlake.json"

{ cat "$G"; echo x; } > trailing.json
cat "$G" "$G" > joined.json
sed 's/Synthetic CPU/Synthetic \xff CPU/' "$G" > utf8.json
cp "$ROOT/examples/costmodels/cooperlake-8321hc-seed.json" model.json
truncate -s 257M big.json
# refused FILE PATTERN: diff G FILE and diff FILE G exit 1 with PATTERN, as report -i FILE does.
refused() {
	expect_exit 1 "$COPYPROF" report -i "$1"
	expect_err "$2"
	expect_exit 1 "$COPYPROF" diff "$G" "$1"
	expect_err "$2"
	expect_exit 1 "$COPYPROF" diff "$1" "$G"
	expect_err "$2"
	echo "ok: $1 refused by report and diff: $(head -n 1 "$TMP/err")"
}
# The second value starts right after the golden file's bytes.
end=$(stat -c %s "$G")
refused trailing.json "trailing.json is not valid JSON: unexpected character at byte $end"
refused joined.json "joined.json is not valid JSON: unexpected character at byte $end"
refused utf8.json "utf8.json is not valid JSON: invalid utf-8 string"
refused model.json "model.json is a costmodel file, not a profile \(its \"format\" is \"copyprof-costmodel\"\)"
refused big.json "big.json: 257 MiB; copyprof reads profiles of at most 256 MiB"
expect_exit 1 /usr/bin/time -o rss -f %M "$COPYPROF" diff "$G" big.json
[ "$(tail -n 1 rss)" -lt 100000 ] || fail "diff read the 257 MiB file: $(tail -n 1 rss) KB"

# Good profiles still compare: the JSON carries both sides' exact calls.
expect_exit 0 "$COPYPROF" diff --json "$G" "$C"
before=$(jq '[.sites[] | .before.calls // 0] | add' "$TMP/out")
after=$(jq '[.sites[] | .after.calls // 0] | add' "$TMP/out")
expect_eq "BEFORE's calls" "$before" "$(jq '[.sites[].buckets[].count] | add' "$G")"
expect_eq "AFTER's calls" "$after" "$(jq '[.sites[].buckets[].count] | add' "$C")"
expect_exit 0 "$COPYPROF" diff "$G" "$G"
expect_err "no change"
echo "ok: good profiles compare ($before calls before, $after after)"
exit 0
