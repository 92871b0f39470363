#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0087-estimate-prometheus-hostile: estimate --prometheus against a fake Prometheus
# (tests/cli/fakeprom.py on a free loopback port) that answers well, then wrongly in every way
# issue 25 found: a "value" object (was a json-c abort), +Inf, 1e30 and NaN (were an
# out-of-range llround), negative values, decreasing buckets (also across a left-out bound),
# bytes under other labels, a foreign le, a series twice, no +Inf, not JSON, trailing garbage,
# an error status, a left-out bound that hides calls the bytes contradict, a label value with a
# NUL byte (it cut the name short); each is refused with exit 1 and a message naming the series
# and the fault. Well-formed answers give exact calls:
# classic, sparse (leading empty buckets left out), native histograms and 20,000 sites. Bounds
# left out (issue 23: export --buckets sparse's; missing le series were 2200 calls for 1100
# before issue 25) are filled from the bound below: exact calls and buckets, and a warning where
# calls rise across a bound neither twin lists. The host count comes from copyprof_agent_info;
# the correction hint and --save-profile; the -m FOLDER message names the folder. Five sites
# of 4e18 calls give 2e19 exactly in estimate and in report of the saved profile.
. "$(dirname "$0")/lib.sh"
need_cmd python3
need_cmd jq
cd "$TMP"
CM="$ROOT/tests/golden/costmodel-synthetic.json"
PP=$(free_port)
echo ok > scenario
python3 "$ROOT/tests/cli/fakeprom.py" "$PP" "$TMP/scenario" 2> fakeprom.log &
pids+=($!)
PROM="http://127.0.0.1:$PP"
wait_for "the fake Prometheus" curl -sf "$PROM/api/v1/query?query=up"
# The site is a uprobe on unknown code: today's code is a fact only --today gives.
TODAY="--today memcpy_orig"
est() { "$COPYPROF" estimate --prometheus "$PROM" -m "$CM" --no-mix-correction $TODAY "$@"; }
calls() { jq '[.inputs[].families[].calls] | add' "$TMP/out"; }

# Well-formed: exact calls, one host then two.
expect_exit 0 est --json
expect_eq "calls" "$(calls)" 1100
expect_exit 0 est
expect_out "group 0: Synthetic CPU, kernel 6.12.0-test, 1 host, 1 profile"
echo two-hosts > scenario
expect_exit 0 est
expect_out "2 hosts, 2 profiles"
echo sparse > scenario
expect_exit 0 est --json
expect_eq "calls with the leading empty buckets left out" "$(calls)" 1100
# Bounds left out: each takes the value of the nearest one listed below it. The calls and bytes
# land in the copyprof buckets of their lengths (100 B: 96..103; 3000 B: 2816..3071).
buckets() { jq -c '[.sites[].buckets[] | [.lo, .count, .bytes]]' "$1"; }
WANT='[[96,1000,100000],[2816,100,300000]]'
echo sparse-export > scenario
expect_exit 0 est --json --save-profile sparse.json
expect_eq "calls from the bounds export --buckets sparse lists" "$(calls)" 1100
expect_eq "buckets from the bounds export --buckets sparse lists" "$(buckets sparse.json)" "$WANT"
grep -q "le bounds across which calls rise" "$TMP/err" && fail "a warning for a sparse exposition: $(cat "$TMP/err")"
echo missing-le > scenario
expect_exit 0 est --json --save-profile missing.json
expect_eq "calls with le 1023 and 2047 left out of the calls (the bytes list them)" "$(calls)" 1100
expect_eq "buckets with le 1023 and 2047 left out of the calls" "$(buckets missing.json)" "$WANT"
echo gap-both > scenario
expect_exit 0 est --json --save-profile gap.json
expect_eq "calls with le 127 and 2047 left out of both" "$(calls)" 1100
expect_err "1 site \(the first: .*app_copy.*\) lacks le bounds across which calls rise"
expect_eq "buckets with le 127 and 2047 left out of both: at the means of 64..255 and 1536..4095" \
	"$(buckets gap.json)" "$WANT"
echo native > scenario
expect_exit 0 est --json
expect_eq "calls from native histograms" "$(calls)" 1100
echo native-since > scenario
expect_exit 0 est --json
expect_eq "native: now less an hour ago" "$(calls)" $((1000 - 1000 / 3 + 100 - 100 / 3))
echo native-gone > scenario
expect_exit 0 est --json
expect_eq "native: a series gone since, from increase()" "$(calls)" 1100

# Broken answers: refused, exit 1, the series and the fault named.
refused() { # SCENARIO PATTERN
	echo "$1" > scenario
	expect_exit 1 est
	expect_err "$2"
	grep -q 'Assertion\|runtime error' "$TMP/err" && fail "$1: $(cat "$TMP/err")"
	echo "$1: refused: $(head -c 300 "$TMP/err")"
}
site='"symbol":"app_copy"'
refused value-object 'element 3 of the answer .*: a "value" is not \[time, "number"\]'
refused inf "copyprof_copy_length_bytes series .*$site.*a value is not finite"
refused nan "copyprof_copy_length_bytes series .*$site.*a value is not finite"
refused huge "copyprof_copy_length_bytes series .*$site.*2\^63 or more"
refused negative "copyprof_copy_length_bytes series .*$site.*a value is negative"
refused gap-hides-calls "series of .*$site.*: 300000 bytes in lengths 2048..4095 where there are no calls \(a bound with calls left out"
refused missing-inf "copyprof_copy_length_bytes series of .*$site.*: no le=\"\+Inf\" bucket"
refused decreasing "series of .*$site.* decrease: le=\"4095.0\" is 7, below le=\"2047.0\" at 1000"
refused decreasing-gap "series of .*$site.* decrease: le=\"4095.0\" is 7, below le=\"1535.0\" at 1000"
refused bytes-other-labels "copyprof_copy_length_bytes series for .*$site.* but no copyprof_copy_bytes_by_length_bytes ones"
refused foreign-le 'le="100.0" is not one of copyprof.s bounds'
refused twice 'le="31.0" is there twice'
refused native-bad-bucket "a bucket is not one of copyprof's \(powers of two, schema 0\)"
refused not-json "does not answer as the Prometheus query API does"
refused trailing "does not answer as the Prometheus query API does"
refused nul-label 'element 0 of the answer .*: a label.s value holds a NUL byte \(\\u0000\), which would cut it short'
refused error-status "answered HTTP 400: parse error at char 9"

# 20,000 sites: linear (a hash of the label sets, not a search per series).
echo many > scenario
start=$(date +%s.%N)
expect_exit 0 est --json --family memcpy
expect_eq "calls of 20,000 sites" "$(calls)" 200000
echo "20,000 sites read and estimated in $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

# Totals past 2^64 (5 sites of 4e18 calls): exact in estimate's text and JSON, and in report
# of the profile --save-profile wrote (lib/count_sum.h; they wrapped or clamped at 2^63).
echo wide > scenario
expect_exit 0 est --json --save-profile wide.json
expect_out '"calls": 20000000000000000000,'
expect_exit 0 est
expect_out "^memcpy: 20,000,000,000,000,000,000 calls \(5 sites\)"
expect_exit 0 "$COPYPROF" report -i wide.json
expect_out "^total: 5 site\(s\), 20,000,000,000,000,000,000 calls, 20,000,000,000,000,000,000 bytes$"

# The correction hint: no file holds a Prometheus mix, so it says how to save one.
echo ok > scenario
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" -m "$CM" $TODAY
expect_out "measure it with: estimate --prometheus ... --save-profile FLEET.json, then copyprof calibrate -i $CM --mix FLEET.json $TODAY -o $CM and copyprof estimate -i FLEET.json"
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" -m "$CM" $TODAY --save-profile fleet.json
expect_out "measure it with: copyprof calibrate -i $CM --mix fleet.json $TODAY -o $CM"
expect_eq "the saved profile's calls" "$(jq '[.sites[].calls] | add' fleet.json)" 1100
expect_exit 2 "$COPYPROF" estimate -i fleet.json -m "$CM" --save-profile x.json
expect_err "go with --prometheus"

# -m FOLDER without this CPU's model: the message names the folder (it printed freed memory).
mkdir models
jq '.meta.cpu_model = "Another CPU"' "$CM" > models/other.json
expect_exit 1 "$COPYPROF" estimate -i fleet.json -m models
expect_err "no input had a cost model of its CPU in -m models$"
