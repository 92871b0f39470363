#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0065-flamegraph: SVG flame graphs of the golden profiles (counted, with callers, sampled),
# of folded stacks and of the threshold view, parsed with xmllint: the frames expected, each as
# wide as its weight (1180 px for the whole), the threshold view's costs equal to estimate's;
# bad input gives a valid SVG that says what went wrong, and exit 1; usage errors exit 2.
. "$(dirname "$0")/lib.sh"
need_cmd xmllint
need_cmd jq
G="$ROOT/tests/golden"
CM="$G/costmodel-synthetic.json"
cd "$TMP"

# frames SVG: one line per frame rectangle, in document order: "name<TAB>weight<TAB>x<TAB>width",
# the weight being the first number of the tooltip's second line (calls, samples, ns today).
frames() {
	local n i x
	n=$(xmllint --xpath "count(//*[local-name()='g'][@class='f'])" "$1") || fail "$1: not XML"
	for ((i = 1; i <= n; i++)); do
		x="(//*[local-name()='g'][@class='f'])[$i]"
		printf '%s\t%s\t%s\n' \
			"$(xmllint --xpath "string($x/*[local-name()='title'])" "$1" | tr '\n' '\t' | cut -f1,2 | sed 's/\t\([0-9.]*\) .*/\t\1/')" \
			"$(xmllint --xpath "string($x/*[local-name()='rect']/@x)" "$1")" \
			"$(xmllint --xpath "string($x/*[local-name()='rect']/@width)" "$1")"
	done
}

# proportional FRAMES_FILE: every width is 1180 px times its weight over the first (root) frame's,
# to the 0.01 px the SVG is written with.
proportional() {
	awk -F'\t' 'NR == 1 { total = $2 } {
		want = 1180 * $2 / total; d = $4 - want
		if (d > 0.006 || d < -0.006) { print "frame " $1 ": width " $4 ", expected " want; bad = 1 }
	} END { exit bad }' "$1" || fail "widths are not proportional to weights: $(cat "$1")"
}

# 1. A counted profile: all > site > length, widths proportional to calls. A bucket whose bytes
# are its count times its lowest length holds that one length: "64 B" (50 calls, 3200 bytes),
# "4096 B" (10 calls, 40960 bytes); 100 calls of 110000 bytes stay "1024-1151 B".
expect_exit 0 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -o calls.svg
expect_err "wrote calls.svg \(8 frames\)"
xmllint --noout calls.svg || fail "calls.svg is not well-formed XML"
frames calls.svg > calls.tsv
expect_eq "frames by calls" "$(cut -f1,2 calls.tsv | tr '\t\n' '=,')" \
	"all=1165,app:app_clear+0x0=55,64 B=50,4096 B=5,app:app_copy+0x0=1110,16 B=1000,1024-1151 B=100,4096 B=10,"
proportional calls.tsv
expect_eq "app_copy's 1110 of 1165 calls" "$(sed -n 5p calls.tsv | cut -f3,4)" "$(printf '65.71\t1124.29')"
expect_eq "lengths drawn by length, left-aligned on their site" "$(sed -n 6p calls.tsv | cut -f3)" 65.71

# The same by bytes, and the output is reproducible to the byte.
expect_exit 0 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" --weight bytes -o bytes.svg
frames bytes.svg > bytes.tsv
expect_eq "bytes" "$(cut -f2 bytes.tsv | tr '\n' ' ')" "190640 23680 3200 20480 166960 16000 110000 40960 "
proportional bytes.tsv
expect_exit 0 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -o calls2.svg
cmp -s calls.svg calls2.svg || fail "two runs gave different SVGs"
ls | grep -q '\.tmp' && fail "a temporary file was left: $(ls)"

# 2. An entry site with callers, drawn as stacks read: caller > site > length; "(no caller)" for
# the 10 calls none took (1110 - 1000 alpha - 100 beta).
expect_exit 0 "$COPYPROF" flamegraph -i "$G/profile-callers.json" -o callers.svg
frames callers.svg > callers.tsv
expect_eq "caller frames" "$(cut -f1,2 callers.tsv | tr '\t\n' '=,')" \
	"all=1110,(no caller)=10,vmlinux:k_copy+0x0=10,4096 B=10,alpha+0x10=1000,vmlinux:k_copy+0x0=1000,16 B=1000,beta+0x20=100,vmlinux:k_copy+0x0=100,1024-1151 B=100,"
proportional callers.tsv
# The same stacks in the threshold view, costed per caller (estimate's per-bucket costs).
expect_exit 0 "$COPYPROF" flamegraph -i "$G/profile-callers.json" -m "$CM" --threshold 1024 -o ct.svg
xmllint --noout ct.svg || fail "ct.svg is not well-formed XML"
frames ct.svg > ct.tsv
expect_eq "caller frames by ns today" "$(cut -f1,2 ct.tsv | tr '\t\n' '=,')" \
	"all=25492,(no caller)=4132,vmlinux:k_copy+0x0=4132,4096 B=4132,alpha+0x10=10000,vmlinux:k_copy+0x0=10000,16 B=10000,beta+0x20=11360,vmlinux:k_copy+0x0=11360,1024-1151 B=11360,"
proportional ct.tsv

# 3. A sampled profile (import-perf's golden fixture): its stacks, each on its process's name
# (comm, the root frame stackcollapse-perf gives), widths proportional to samples, identical
# frame for frame to the same stacks given as folded text; --no-comm draws the stacks alone.
expect_exit 0 "$COPYPROF" import-perf --script "$G/perf-script-fixture.txt" --no-kernel-text -o fx.json
expect_exit 0 "$COPYPROF" flamegraph -i fx.json -o stacks.svg
xmllint --noout stacks.svg || fail "stacks.svg is not well-formed XML"
jq -r '.sites[].tasks[] | .comm as $c | .stacks[] | "\($c);\(.)"' fx.json > fx.folded
expect_eq "every stack has a task" "$(jq '[.sites[].tasks[].samples] | add' fx.json)" \
	"$(jq '[.sites[].calls] | add' fx.json)"
expect_exit 0 "$COPYPROF" flamegraph -i fx.json --no-comm -o nocomm.svg
jq -r '.sites[].stacks[]' fx.json > fx-nocomm.folded
expect_exit 0 "$COPYPROF" flamegraph --folded - -o nocomm-folded.svg < fx-nocomm.folded
sed -n '/<g id="frames">/,/^<\/g>$/p' nocomm.svg > a.frames
sed -n '/<g id="frames">/,/^<\/g>$/p' nocomm-folded.svg > b.frames
[ -s a.frames ] && cmp -s a.frames b.frames || fail "--no-comm and the profile's stacks differ"
# Expected frames: every distinct stack prefix (a frame per distinct path from the root), + all.
want=$(awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); p = ""
	for (i = 1; i <= n; i++) { p = p ";" f[i]; seen[p] = 1 } } END { print length(seen) + 1 }' fx.folded)
frames stacks.svg > stacks.tsv
expect_eq "stack frames" "$(wc -l < stacks.tsv)" "$want"
expect_eq "samples in all" "$(head -n 1 stacks.tsv | cut -f2)" "$(jq '[.sites[].stacks[] | capture(" (?<n>[0-9]+)$").n | tonumber] | add' fx.json)"
proportional stacks.tsv
grep -q '<title>std::vector&lt;int, std::allocator&lt;int&gt; &gt;::push_back(int const&amp;)' stacks.svg ||
	fail "a C++ frame was not escaped"
expect_exit 0 "$COPYPROF" flamegraph --folded - -o folded.svg < fx.folded
sed -n '/<g id="frames">/,/^<\/g>$/p' stacks.svg > a.frames
sed -n '/<g id="frames">/,/^<\/g>$/p' folded.svg > b.frames
[ -s a.frames ] && cmp -s a.frames b.frames || fail "the profile's stacks and the same folded text differ"

# 4. Folded stacks as stackcollapse-perf.pl writes them: frames with spaces, C++ and UTF-8
# names, _[k] annotations, repeated stacks (summed), a CRLF line, a malformed line (skipped,
# counted), a long name cut to its frame and escaped after cutting.
long=$(printf 'very_long_function_name_%.0s' {1..20})
{
	printf 'swapper;secondary_startup_64;do_idle;default_idle_call_[k] 50\n'
	printf 'app;main;std::map<int, std::string>::operator[](int&&);memcpy_[k] 30\n'
	printf 'app;main;std::map<int, std::string>::operator[](int&&);memcpy_[k] 20\r\n'
	printf 'app;main;überprüfen;%s 25\n' "$long"
	printf 'app;main 5\n'
	printf 'this line has no count\n'
	printf 'app;[unknown] 20\n'
} > perf.folded
expect_exit 0 "$COPYPROF" flamegraph --folded - -o perf.svg < perf.folded
expect_err "standard input: 1 malformed line\(s\) skipped \(first, line 6: the last field is not a count: 'this line has no count'\)"
xmllint --noout perf.svg || fail "perf.svg is not well-formed XML"
frames perf.svg > perf.tsv
expect_eq "folded frames" "$(cut -f1,2 perf.tsv | tr '\t\n' '=,')" \
	"all=150,app=100,[unknown]=20,main=80,std::map<int, std::string>::operator[](int&&)=50,memcpy_[k]=50,überprüfen=25,${long}=25,swapper=50,secondary_startup_64=50,do_idle=50,default_idle_call_[k]=50,"
proportional perf.tsv
grep -q '>überprüfen</text>' perf.svg || fail "überprüfen: $(grep -o '>überpr[^<]*<' perf.svg)"
grep -q '>std::map&lt;int, std::string&gt;::operator\[\](int&amp;&amp;)</text>' perf.svg ||
	fail "the C++ label was not escaped whole"
grep -q '>very_long_function_name_\.\.</text>' perf.svg || fail "the long label was not cut"

# 5. The threshold view: widths are ns today; each frame's costs are estimate's own numbers.
expect_exit 0 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$CM" --threshold 1024 -o t1024.svg
xmllint --noout t1024.svg || fail "t1024.svg is not well-formed XML"
frames t1024.svg > t1024.tsv
expect_eq "ns today" "$(cut -f1,2 t1024.tsv | tr '\t\n' '=,')" \
	"all=26932,app:app_clear+0x0=1440,64 B=400,4096 B=1040,app:app_copy+0x0=25492,16 B=10000,1024-1151 B=11360,4096 B=4132,"
proportional t1024.tsv
expect_exit 0 "$COPYPROF" estimate --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$CM" --at 1024 --model-only --json
est=$(jq -r '.inputs[0].families[].sites[] | "\(.today_ns | round) ns today, \(.at_ns | round) ns at T=1024"' "$TMP/out" | sort)
fg=$(grep -oE '[0-9]+ ns today; at T=1024 not measured; modelled [0-9]+ ns at T=1024' t1024.svg |
	sed -n '2p;5p' | sed -E 's/ ns today; at T=1024 not measured; modelled / ns today, /' | sort)
expect_eq "per-site costs = estimate's" "$fg" "$est"
title=$(xmllint --xpath "string((//*[local-name()='g'][@class='f'])[6]/*[local-name()='title'])" t1024.svg)
expect_eq "16 B at T=1024" "$title" "16 B
10000 ns today; at T=1024 not measured; modelled 11000 ns at T=1024 (+10.00%, no verdict); 37.13% of today's time, 1000 calls"
fill() { xmllint --xpath "string((//*[local-name()='g'][@class='f'])[$2]/*[local-name()='rect']/@fill)" "$1"; }
# Colours come from paired measurements only (issue 34): this model is another CPU's and holds
# none, so every frame is hatched "not measured", whatever the model's per-length figures say
# (4096 B -66.35%, 16 B +10%: in the tooltips, labelled modelled, never as a colour).
expect_eq "4096 B not measured" "$(fill t1024.svg 4)" "url(#unmeasured)"
expect_eq "16 B not measured" "$(fill t1024.svg 6)" "url(#unmeasured)"
expect_eq "no frame coloured without a measurement" \
	"$(xmllint --xpath "count(//*[local-name()='g'][@class='f'][@data-colour!='not-measured'])" t1024.svg)" 0
legend() { xmllint --xpath "string(//*[local-name()='g'][@id='legend'])" "$1" | tr -s '\n' ' '; }
expect_eq "legend: a fixed scale, the measured whole, the corrections" "$(legend t1024.svg)" \
	"saves 25% or more costs 25% or more not measured a fixed scale, not the data's; colours from paired measurements of each frame's mix (the whole, or one site's); grey: no difference (the interval holds 0) all: 0.0269 ms today; at T=1024 the whole mix not measured; modelled: no paired measurement (this mix was not measured on Synthetic CPU) "
expect_eq "legend swatches: the scale and the hatched" "$(xmllint --xpath "count(//*[local-name()='g'][@id='legend']/*[local-name()='rect'])" t1024.svg)" 10
expect_exit 0 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative \
	-i "$G/profile-synthetic.json" -m "$CM" --threshold 1536 -o t1536.svg
title=$(xmllint --xpath "string((//*[local-name()='g'][@class='f'])[5]/*[local-name()='title'])" t1536.svg)
expect_eq "a tooltip at T=1536" "$title" "app:app_copy+0x0
25492 ns today; at T=1536 not measured; modelled 24786 ns at T=1536 (-2.77%, no verdict); 94.65% of today's time, 1110 calls"
grep -q ' ns today, [0-9]* at ' t1024.svg && fail "raw ns totals are back"
# Time without a threshold: the same widths, colours by name; a sampled profile's time is its
# samples' (1 ns each at 10^9 Hz), as estimate converts them.
expect_exit 0 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$CM" --weight time -o time.svg
frames time.svg > time.tsv
expect_eq "time = threshold widths" "$(cut -f3,4 time.tsv)" "$(cut -f3,4 t1024.tsv)"
# A sampled site: its stack (ZSTD_decompressStream) > the site > its leaf (memcpy) > lengths.
expect_exit 0 "$COPYPROF" flamegraph -i "$G/profile-synthetic-sampled.json" -m "$CM" --threshold 1024 -o st.svg
frames st.svg > st.tsv
expect_eq "sampled site's stack and time" "$(cut -f1,2 st.tsv | tr '\t\n' '=,')" \
	"all=25492,ZSTD_decompressStream=25492,vmlinux:zdss_flush+0x0=25492,memcpy=25492,16 B=10000,1024-1151 B=11360,4096 B=4132,"
grep -q '25492 ns today; at T=1024 not measured; modelled 21606 ns at T=1024' st.svg || fail "sampled threshold view: $(sed -n 2p st.tsv)"
# Stacks that part: only the frames all of them share are drawn under the site (the profile keeps
# lengths per site, not per stack); "b" and "bx" are different frames, the site's own function
# (zdss_flush) is the site frame.
jq '.sites[0].stacks = ["a;b;c;zdss_flush;memcpy 20000", "a;bx;c;zdss_flush;memcpy 5492"]' \
	"$G/profile-synthetic-sampled.json" > parted.json
expect_exit 0 "$COPYPROF" flamegraph -i parted.json -m "$CM" --threshold 1024 -o parted.svg
expect_eq "parted stacks" "$(frames parted.svg | cut -f1 | tr '\n' ',')" \
	"all,a,vmlinux:zdss_flush+0x0,memcpy,16 B,1024-1151 B,4096 B,"
jq '.sites[0].stacks = ["a;b;zdss_flush;memcpy 20000", "a;b;zdss_flush;memcpy 5492"]' \
	"$G/profile-synthetic-sampled.json" > shared.json
expect_exit 0 "$COPYPROF" flamegraph -i shared.json -m "$CM" --threshold 1024 -o shared.svg
expect_eq "shared stacks" "$(frames shared.svg | cut -f1 | tr '\n' ',')" \
	"all,a,b,vmlinux:zdss_flush+0x0,memcpy,16 B,1024-1151 B,4096 B,"

# 6. Bad input: a valid SVG that says what went wrong, exit 1.
expect_exit 1 "$COPYPROF" flamegraph -i missing.json -o bad1.svg
expect_err "cannot read profile missing.json"
xmllint --noout bad1.svg || fail "the error SVG is not XML"
grep -q '>Error: cannot read profile missing.json' bad1.svg || fail "bad1.svg: $(cat bad1.svg)"
expect_eq "no frames in an error SVG" "$(xmllint --xpath "count(//*[local-name()='g'][@class='f'])" bad1.svg)" 0
printf 'no stack here\n;a 3\n' > bad.folded
expect_exit 1 "$COPYPROF" flamegraph --folded bad.folded -o bad2.svg
expect_err "bad.folded has no folded stacks .* 2 line\(s\), 2 malformed"
xmllint --noout bad2.svg && grep -q '>Error: bad.folded has no folded stacks' bad2.svg || fail "bad2.svg"
expect_exit 1 "$COPYPROF" flamegraph -i "$G/profile-synthetic-sampled.json" --weight calls -o bad3.svg
expect_err "1 sampled site\(s\) left out"
expect_err "has no counted calls of a known length to draw by calls"
expect_exit 1 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -m "$CM" --threshold 1024 \
	--cache src-flushed -o bad4.svg
expect_err "no curve for memcpy_orig in cache state src-flushed"
grep -q 'no curve for memcpy_orig in cache state src-flushed' bad4.svg || fail "bad4.svg: $(cat bad4.svg)"
expect_exit 1 "$COPYPROF" flamegraph --today memcpy_orig --today rep_stos_alternative -i "$G/profile-synthetic.json" -o /nonexistent/dir/x.svg
expect_err "cannot create /nonexistent/dir/x.svg"
# Usage errors: exit 2, no SVG.
expect_exit 2 "$COPYPROF" flamegraph -o u.svg
expect_err "give a profile with -i or folded stacks with --folded"
expect_exit 2 "$COPYPROF" flamegraph -i a.json --folded b -o u.svg
expect_exit 2 "$COPYPROF" flamegraph -i a.json --threshold 1024 -o u.svg
expect_err "--threshold needs a cost model"
expect_exit 2 "$COPYPROF" flamegraph -i a.json -m cm.json --threshold 1024 --weight calls -o u.svg
expect_err "the threshold view is weighted by time"
expect_exit 2 "$COPYPROF" flamegraph -i a.json --weight stones -o u.svg
expect_exit 2 "$COPYPROF" flamegraph --folded x -m cm.json -o u.svg
expect_err "apply to profiles"
[ -e u.svg ] && fail "a usage error wrote an SVG"
# -v says how many frames and levels.
expect_exit 0 "$COPYPROF" flamegraph -v -i "$G/profile-callers.json" -o v.svg
expect_err "debug: 10 frames, 3 levels, total weight 1110"
exit 0
