#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0071-export-promtool: Prometheus's own parsers read the OpenMetrics export: promtool check
# metrics lints it (sparse, the default, and --buckets dense), and promtool's OpenMetrics
# backfill (which insists on "# EOF", UNIT suffixes and escapes) stores it, read back with exact
# values, the sites' series found through their copyprof_site_info.
. "$(dirname "$0")/lib.sh"
need_cmd promtool
need_cmd jq
G="$ROOT/tests/golden"
cd "$TMP"

jq '.meta.hostname = "host-c" | .meta.cpu_model = "Other \"quoted\" CPU\\" | .meta.duration_s = 0.5' \
	"$G/profile-synthetic.json" > c.json
"$COPYPROF" merge -o m.json "$G/profile-synthetic.json" c.json "$G/profile-synthetic-sampled.json" \
	>/dev/null || fail "merge"
for p in "$G/profile-synthetic.json" "$G/profile-callers.json" "$G/profile-synthetic-sampled.json" \
	m.json; do
	for b in sparse dense; do
		"$COPYPROF" export -i "$p" -f openmetrics --buckets $b -o x.om 2>/dev/null ||
			fail "export $p"
		promtool check metrics < x.om > lint 2>&1 ||
			fail "promtool check metrics $p --buckets $b: $(cat lint)"
		[ -s lint ] && fail "promtool check metrics $p --buckets $b has remarks: $(cat lint)"
	done
done

# Backfill: the OpenMetrics parser proper, then the stored samples.
expect_exit 0 "$COPYPROF" export -i m.json -f openmetrics --timestamp -o m.om
promtool tsdb create-blocks-from openmetrics m.om data > log 2>&1 ||
	fail "promtool refused the exposition: $(cat log)"
mkdir -p data/wal
promtool tsdb dump data > dump 2>&1 || fail "promtool tsdb dump: $(cat dump)"
expect_eq "stored samples" "$(grep -c '^{' dump)" "$(grep -vc '^#' m.om)"
# Stamped with the recording's start, 2026-11-30T09:00:00Z, in ms.
sel() { grep -F "__name__=\"$1\"" dump | grep -F -- "$2" | grep -F -- "${3:-}"; }
# A site's series name its id: the id of the site whose copyprof_site_info says SUBSTRING.
site_of() { grep -F 'copyprof_site_info{' m.om | grep -F -- "$1" | sed 's/^[^{]*{\(site="[0-9]*"\).*/\1/'; }
copy_a=$(site_of 'symbol="app_copy",offset="0x0",target="/usr/bin/app",mechanism="uprobe",family="memcpy",kernel="6.12.0-test",host="host-a"')
copy_c=$(site_of 'symbol="app_copy",offset="0x0",target="/usr/bin/app",mechanism="uprobe",family="memcpy",kernel="6.12.0-test",host="host-c"')
sampled=$(site_of 'leaf="memcpy"')
check "three sites found by their info: $copy_a $copy_c $sampled" \
	grep -Eqx 'site="[0-9]+" site="[0-9]+" site="[0-9]+"' <<<"$copy_a $copy_c $sampled"
expect_eq "stored site info of host-a's app_copy" \
	"$(sel copyprof_site_info "$copy_a" | grep -cF 'symbol="app_copy"')" 1
expect_eq "+Inf, Synthetic CPU" \
	"$(sel copyprof_copy_length_bytes_bucket 'le="+Inf"' 'cpu_model="Synthetic CPU"' |
		grep -F "$copy_a" | sed 's/.*} //')" "1110 1796029200000"
sel copyprof_copy_length_bytes_sum 'cpu_model="Other \"quoted\" CPU\\"' "$copy_c" |
	grep -q ' 166960 1796029200000$' || fail "escaped label or sum lost: $(grep -F quoted dump | head -3)"
sel copyprof_sampled_copy_length_bytes_bucket 'le="1535.0"' "$sampled" | grep -q ' 21360 ' ||
	fail "sampled le 1535: $(sel copyprof_sampled_copy_length_bytes_bucket 'le="1535.0"')"
sel copyprof_copy_samples "$sampled" | grep -q ' 25492 ' || fail "copyprof_copy_samples"

# The parser is strict: without "# EOF" the same text is refused.
head -n -1 m.om > cut.om
promtool tsdb create-blocks-from openmetrics cut.om data2 > log 2>&1 && fail "promtool took a cut exposition"
grep -q "EOF" log || fail "promtool refused the cut text for another reason: $(cat log)"
exit 0
