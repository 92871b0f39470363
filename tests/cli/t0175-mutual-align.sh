#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0175-mutual-align: a uprobe on a workload's own copy function counts the calls whose two
# pointers sit at the same offset in their cache lines ((dst - src) mod 4096 a nonzero multiple of
# 64) exactly, in the class aligned_64 of their length bucket, and a distance of 100 in other;
# merge adds the class; rows written before it (no aligned_64) read with 0 there and keep the mix
# digest a row with 0 has; a nonzero aligned_64 changes the digest; estimate states the class
# (text and JSON) and leaves it out where it is 0. No timing is asserted.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd cc
F='.inputs[0].families[0]'
M="$ROOT/tests/golden/costmodel-synthetic.json"
cd "$TMP"

cc -O2 -Wall -o distload "$ROOT/tests/workload/distload.c" || fatal "cannot build distload.c"

# 64 B at 0; 256 B at 100 (other) and at 2048 (32 lines); 1 KiB at 64 and at 4032 (the class's
# two ends); 4 KiB at 1984 (31 lines) and at 4033 (1 behind: next to the class, not in it).
"$COPYPROF" record --uprobe ./distload:dl_copy -o al.json -- ./distload 64:5:0 256:20:100 \
	256:9:2048 1024:50:64 1024:30:4032 4096:40:1984 4096:7:4033 > /dev/null 2> err.txt ||
	fatal "record failed: $(cat err.txt)"
expect_eq "rows: exact counts per class" "$(jq -c '.sites[0].distance' al.json)" \
	'[{"lo":64,"hi":72,"zero":5,"ahead_1_63":0,"behind_1_63":0,"other":0,"aligned_64":0},{"lo":256,"hi":288,"zero":0,"ahead_1_63":0,"behind_1_63":0,"other":20,"aligned_64":9},{"lo":1024,"hi":1152,"zero":0,"ahead_1_63":0,"behind_1_63":0,"other":0,"aligned_64":80},{"lo":4096,"hi":4608,"zero":0,"ahead_1_63":0,"behind_1_63":7,"other":0,"aligned_64":40}]'
expect_exit 0 "$COPYPROF" merge al.json al.json -o twice.json
expect_eq "merge: aligned_64 summed" "$(jq -c '[.sites[0].distance[] | .other, .aligned_64]' twice.json)" \
	'[0,0,40,18,0,160,0,80]'

# The same calls as a profile from before the class: aligned_64 folded into other, the key gone.
jq '.sites[0].distance |= map(.other += .aligned_64 | del(.aligned_64))' al.json > old.json
jq '.sites[0].distance |= map(.aligned_64 = 0)' old.json > zero.json
expect_exit 0 "$COPYPROF" merge old.json -o old-merged.json
expect_eq "old rows: read with 0" "$(jq -c '[.sites[0].distance[] | .other, .aligned_64]' old-merged.json)" \
	'[0,0,29,0,80,0,40,0]'

# Each under the one name p.json (the name is in the answer), in a folder of its own.
digest() {
	mkdir -p "$1" && cp "$1.json" "$1/p.json" && cd "$1" &&
		"$COPYPROF" estimate -i p.json -m "$M" --today memcpy_orig --model-only --json > ../"$1.est" ||
		fatal "estimate $1 failed"
	cd .. && jq -r "$F.mix_digest" "$1.est"
}
d_old=$(digest old) d_zero=$(digest zero) d_new=$(digest al)
expect_eq "digest: rows without the key as rows with 0" "$d_old" "$d_zero"
[ "$d_new" != "$d_old" ] && pass "digest: a nonzero aligned_64 changes it" ||
	fail "digest: the profile with aligned_64 has the digest of the one without ($d_new)"
cmp -s old.est zero.est && pass "estimate: rows without the key answer as rows with 0" ||
	fail "estimate: rows without aligned_64 and rows with 0 answer differently"

expect_eq "estimate JSON: the class" \
	"$(jq -c "$F.distance | [.zero, .behind_1_63, .other, .aligned_64]" al.est)" '[5,7,20,129]'
expect_eq "estimate JSON: no key where 0" "$(jq -c "$F.distance | has(\"aligned_64\")" old.est)" false
expect_exit 0 "$COPYPROF" estimate -i al.json -m "$M" --today memcpy_orig --model-only
expect_out "^  pointer distance \(dst - src\) mod 4096, recorded: 0 calls \(0\.0%\) 1\.\.63 B ahead, 7 \(4\.3%\) 1\.\.63 B behind .*, 5 at 0, 20 other, 129 \(80\.1%\) a nonzero multiple of 64 apart \(mutually line-aligned\);"
expect_no_leftover_progs
exit 0
