#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0137-site-measured: calibrate --mix measures the hottest sites' own mixes beside the whole
# (issue 34): a workload whose wl_copy calls come from wl_path_a (20,000 x 4096 B: nearly all
# the copy time) and from main (50 x 16 B: below the 5% share). The hot row gets a paired
# measurement of its own, filed under the whole mix's digest and its label; main's none.
# estimate's per-site row for it carries its measured figure at the threshold its heading names,
# with the sign of the whole's where the whole's interval excludes 0 (else both say no
# difference); main's row says "not measured", without a verdict; the threshold flame graph
# colours the hot row's frames from its measurement, main's hatched "not measured", the root
# from the whole. No timing size is asserted: the threshold compared is the one whose measured
# interval lies farthest from 0, and only signs and verdict classes are compared.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd xmllint
F='.inputs[0].families[0]'
cd "$TMP"

expect_exit 2 "$COPYPROF" calibrate --quick --mix-site-budget 2 -o x.json
expect_err "--mix-site-budget applies to --mix \(a profile's sites\)"

expect_exit 0 "$COPYPROF" record --callers --uprobe "$WL:wl_copy" -o p.json -- "$WL" paths=4096:20000:0 \
	copy=16:50
expect_eq "callers" "$(jq -c '[.sites[0].callers[] | [.symbol, .calls, .bytes]]' p.json)" \
	'[["wl_path_a",20000,81920000],["main",50,800]]'

# One condition (warm, the reference) as before the matrix: the sites are measured in it alone;
# the matrix and what a verdict that depends does to the frames: t0151.
"$COPYPROF" calibrate --quick --mix-cache warm --today libc_memcpy --mix p.json -o cm.json > /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fatal "calibrate --quick --mix exited $rc: $(tail -n 3 err.txt)"
grep -Eq "calibrate --mix: memcpy: 1 of 2 sites carry 5% or more of the modelled copy time; measuring 1 of them" err.txt ||
	fail "the sites chosen: $(grep 'sites carry' err.txt)"
grep -Eq "calibrate --mix: site copyload:wl_copy\+0x0 <- wl_path_a\+0x[0-9a-f]+ \(uprobe\): [0-9]+ rounds" err.txt ||
	fail "the hot row measured: $(grep 'calibrate --mix: site' err.txt)"
digest=$(jq -r '.paired[] | select(has("site") | not) | .digest' cm.json)
expect_eq "one whole, one site entry" "$(jq -c '[.paired[] | .site // "whole"] | map(sub(" <- wl_path_a.*"; " <- wl_path_a")) ' cm.json)" \
	'["whole","copyload:wl_copy+0x0 <- wl_path_a"]'
expect_eq "the site filed under the whole's digest" "$(jq -r '.paired[] | select(has("site")) | .digest' cm.json)" "$digest"

# The threshold compared: of the measured thresholds (and never), the farthest from 0 for its
# interval. Where no interval excludes 0, every verdict compared must be "no difference".
expect_exit 0 "$COPYPROF" estimate -i p.json -m cm.json --today libc_memcpy --json
P=$(jq -r "$F.policies | map(select(.measured and (.kind == \"threshold\" or .name == \"never\")))
	| max_by(([(.ci_low | fabs), (.ci_high | fabs)] | min) * (if .ci_low * .ci_high > 0 then 1 else -1 end))
	| .name" out)
[ -n "$P" ] && [ "$P" != null ] || fatal "no measured threshold: $(jq -c "$F.policies" out | head -c 300)"
T=${P#T=}
expect_exit 0 "$COPYPROF" estimate -i p.json -m cm.json --today libc_memcpy --threshold "$T" --json
cp out est.json
# The whole's class by estimate's rule: beyond 0 and beyond its A/A control's interval.
whole=$(jq -r "$F as \$f | \$f.measurement.control as \$c | \$f.policies[] | select(.name == \"$P\") |
	if .ci_high < ([0, \$c.ci_low] | min) then \"saves\"
	elif .ci_low > ([0, \$c.ci_high] | max) then \"costs\" else \"no_difference\" end" est.json)
hot=$(jq -c "$F.sites[] | select(.site | test(\"<- wl_path_a\"))" est.json)
cold=$(jq -c "$F.sites[] | select(.site | test(\"<- main\"))" est.json)
expect_eq "the heading's threshold is the one asked" "$(jq -r "$F.at" est.json)" "$P"
expect_eq "the hot row's figure is at the heading's threshold" "$(echo "$hot" | jq -r .measured.policy)" "$(jq -r "$F.at" est.json)"
expect_eq "the hot row measured on its own" "$(echo "$hot" | jq -r .measured.whole_mix)" false
site_v=$(echo "$hot" | jq -r .measured.verdict)
figs="$P: whole $(jq -c "$F.policies[] | select(.name == \"$P\") | [.delta_pct, .ci_low, .ci_high]" est.json), site $(echo "$hot" | jq -c '.measured | [.delta_pct, .ci_low, .ci_high]')"
if [ "$whole" != no_difference ]; then
	expect_eq "the hot row's verdict has the whole's sign ($figs)" "$site_v" "$whole"
else
	# The whole holds 0: the site, a second measurement of nearly the same mix, must say no
	# difference too, or at least have an interval that meets the whole's.
	meets=$(jq -r --argjson s "$(echo "$hot" | jq -c .measured)" "$F.policies[] |
		select(.name == \"$P\") | (\$s.ci_low <= .ci_high and .ci_low <= \$s.ci_high)" est.json)
	[ "$site_v" = no_difference ] || [ "$meets" = true ] &&
		pass "the whole holds 0, and the hot row agrees ($figs)" ||
		fail "the whole holds 0, the hot row says $site_v and its interval misses the whole's ($figs)"
fi
expect_eq "main's row: not measured" "$(echo "$cold" | jq -c .measured)" null
jq -e "$F.sites | all(has(\"model_pct\") and (has(\"delta_pct\") | not))" est.json > /dev/null ||
	fail "a site row shows a figure not labelled modelled: $(jq -c "$F.sites" est.json)"
expect_exit 0 "$COPYPROF" estimate -i p.json -m cm.json --today libc_memcpy --threshold "$T"
expect_out "^  per site at $P \(--threshold\) vs today: each site's own mix, measured"
expect_out "^    copyload:wl_copy\+0x0 <- main\+0x[0-9a-f]+ \(uprobe\) +50 .* not measured +[-+][0-9.]+%$"
grep -E "^    copyload:wl_copy\+0x0 <- wl_path_a" out | grep -q " ${site_v/_/ } " &&
	pass "the hot row's text verdict: ${site_v/_/ }" ||
	fail "the hot row's text verdict is not '${site_v/_/ }': $(grep -E '<- wl_path_a' out)"

# The flame graph at the same threshold: the hot row's frames take its measurement's class, main's
# are hatched "not measured", the root the whole's.
expect_exit 0 "$COPYPROF" flamegraph -i p.json -m cm.json --today libc_memcpy --threshold "$T" -o f.svg
xmllint --noout f.svg && pass "f.svg is well-formed XML" || fail "f.svg is not well-formed XML"
class() { xmllint --xpath "string(//*[local-name()='g'][@class='f'][starts-with(*[local-name()='title'], '$1')]/@data-colour)" f.svg; }
want=${whole/_/-}
expect_eq "wl_path_a's frame: its own measurement" "$(class copyload:wl_path_a+)" "${site_v/_/-}"
expect_eq "main's frame" "$(class copyload:main+)" not-measured
expect_eq "the root: the whole" "$(class all)" "$want"
fill=$(xmllint --xpath "string(//*[local-name()='g'][@class='f'][starts-with(*[local-name()='title'], 'copyload:main+')]/*[local-name()='rect']/@fill)" f.svg)
expect_eq "main's frame hatched" "$fill" "url(#unmeasured)"
xmllint --xpath "string(//*[local-name()='text'][@id='totals'])" f.svg | grep -q "at $P the whole mix measured" &&
	pass "the header's figure is the measured whole" ||
	fail "the header's figure is not the measured whole: $(xmllint --xpath "string(//*[local-name()='text'][@id='totals'])" f.svg)"

# Measured in two conditions that read differently (a second whole entry at 8 KiB a side; every
# figure set by hand, every A/A control +-0.1): the verdict depends, and no frame is coloured as
# measured, the site's own figure holding in one condition only.
cost='{"delta_pct": 20, "ci_low": 19, "ci_high": 21}'
jq --arg p "$P" --argjson c "$cost" '
	def set(f): .policies |= map(if .name == "today" then . else .quiet = (.name | f) end);
	.paired |= map(.control = {delta_pct: 0, ci_low: -0.1, ci_high: 0.1})
	| .paired |= (. + [.[] | select(.site == null) | .conditions.working_set_bytes = 8192
		| set(if . == $p then {delta_pct: -20, ci_low: -21, ci_high: -19} else $c end)])
	| .paired |= map(if .site == null and .conditions.working_set_bytes != 8192
		then set($c) else . end)' cm.json > dep.json || fatal "jq: cannot write dep.json"
# The recording's footprint (copyload's buffers: a few KiB a side) names the condition that is
# its own, the 8 KiB one: its verdict, no "depends".
expect_exit 0 "$COPYPROF" estimate -i p.json -m dep.json --today libc_memcpy --json
expect_eq "two conditions, the footprint's chosen: its verdict" "$(jq -r "$F.verdict.kind" out)" saves
jq -r "$F.verdict.footprint // empty" out | grep -q . ||
	fail "two conditions: the footprint is not stated: $(jq -c "$F.verdict" out)"
# Without a footprint (a profile before it): the matrix decides, and here it depends.
jq 'del(.sites[].footprint)' p.json > nofp.json
expect_exit 0 "$COPYPROF" estimate -i nofp.json -m dep.json --today libc_memcpy --json
expect_eq "two conditions: depends" "$(jq -r "$F.verdict.kind" out)" depends
expect_exit 0 "$COPYPROF" flamegraph -i nofp.json -m dep.json --today libc_memcpy --threshold "$T" -o f.svg
expect_eq "depends: wl_path_a's frame" "$(class copyload:wl_path_a+)" not-measured
expect_eq "depends: the root" "$(class all)" not-measured
