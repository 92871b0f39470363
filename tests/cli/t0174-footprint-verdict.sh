#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0174-footprint-verdict: the recorded footprint decides the condition. Two runs of one workload
# (tests/workload/glibc_knob.c) copy the same lengths (uniform 2304..3999 B, glibc's memcpy):
# one reuses two 8 KiB buffers (ws=8K), one streams through 64 MiB a side (ws=64M walk=stream).
# record samples every 64th call's addresses (bpf/footprint.h); the footprint it writes must be
# what the workload touches, within a factor derived from the sampling. calibrate --mix then
# measures the condition each footprint implies (warm within a working set of its size, rounded
# up to a power of two), estimate keeps that cell and says so, and its verdict must be the one glibc's real knob
# shows in the same workload, in the same process's own access pattern (glibc_knob's truth mode,
# as t0039): a saving copyprof claims must be a saving the knob shows (its whole interval below
# zero by more than its A/A control; the median of three runs), and a "keep" or "no
# difference" must not hide one: the knob's saving must reach copyprof's interval for that
# threshold within the A/A (under load the knob read -5.08% [-11.37, -2.68] in the streamed run
# where copyprof's interval held zero: two measurements that agree, one claiming nothing). No
# timing is asserted: the knob's own bootstrap interval and A/A control are the allowance. On
# this project's AMD EPYC (Zen 3) the two differ: reused, T=4096 saves about 45%; streamed,
# the knob shows no saving beyond its noise.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd readelf
GK="$OUT_DIR/tests/glibc_knob"
F='.inputs[0].families[0]'
cd "$TMP"

need_glibc_memcpy "$GK"
glibc_knob_offset
dflt=$(($(/lib64/ld-linux-x86-64.so.2 --list-tunables | grep x86_rep_movsb_threshold |
	sed -n 's/.*: \(0x[0-9a-f]*\) (min.*/\1/p')))
echo "$impl; glibc's threshold $dflt at $knob"

awk 'BEGIN { for (s = 2304; s <= 3999; s += 8) printf "%d\t1\n", s }' > dist.txt
"$COPYPROF" calibrate --quick --impl memmove -o cm.json > /dev/null 2> cal.err ||
	fatal "calibrate failed: $(cat cal.err)"
l2=$(jq '.meta.machine.caches.l2 // 0' cm.json)
((l2)) || skip "calibrate read no L2 size on this CPU: the footprint has nothing to be judged by"

# The window: 64 samples, one every 64 calls (bpf/footprint.h), so 4,096 calls.
EVERY=64
SAMPLES=64
# What the streaming run touches a side in a window: each call's lines, a line's gap after it
# (glibc_knob's stream_next()), 4,096 calls of the table's mean.
stream_true=$(awk -v w=$((EVERY * SAMPLES)) '{ s += int(($1 + 64 + 63) / 64) * 64; n++ }
	END { printf "%d", w * s / n }' dist.txt)

declare -A ARGS=([small]="ws=8K" [stream]="ws=64M walk=stream")
declare -A TRUE=([small]=8192 [stream]=$stream_true)
declare -A CACHE=([small]=warm [stream]=warm)
for w in small stream; do
	# shellcheck disable=SC2086
	"$COPYPROF" record --uprobe "$impl" -o "$w.json" -- "$GK" dist=dist.txt calls=40000 \
		${ARGS[$w]} > /dev/null 2> rec.err || fatal "record $w failed: $(cat rec.err)"
	fp=$(jq -c '[.sites[] | select(.calls >= 40000)][0].footprint' "$w.json")
	expect_eq "$w: sampled every" "$(echo "$fp" | jq .every)" $EVERY
	expect_eq "$w: samples in the window" "$(echo "$fp" | jq .samples)" $SAMPLES
	# Small: every sample covers 36..63 of the buffer's 128 lines, so 64 samples leave at most
	# an edge line unseen, or seen once (extrapolated, but the span caps it): within 2x.
	# Stream: no two samples share a line (64 calls apart), so each line seen once stands for
	# its 64 calls' lines: within 2x (the samples' lengths against the table's mean).
	for side in dst src; do
		b=$(echo "$fp" | jq ".$side.bytes")
		t=${TRUE[$w]}
		if ((b * 2 >= t && b <= 2 * t)); then
			pass "$w: $side footprint $b B a window, the workload's $t B within 2x"
		else
			fail "$w: $side footprint $b B a window, the workload touches $t B: beyond 2x"
		fi
	done
done

# Older profiles (no footprint) still read, and say nothing of one.
jq 'del(.sites[].footprint)' small.json > old.json
expect_exit 0 "$COPYPROF" estimate -i old.json -m cm.json
grep -q "recorded footprint" out && fail "a profile without a footprint states one: $(grep footprint out)"

for w in small stream; do
	cp cm.json "cm_$w.json"
	"$COPYPROF" calibrate -i "cm_$w.json" --mix "$w.json" --mix-budget 3 -o "cm_$w.json" \
		> /dev/null 2> cal.err || fatal "calibrate --mix $w failed: $(cat cal.err)"
	expect_exit 0 "$COPYPROF" estimate -i "$w.json" -m "cm_$w.json"
	expect_out "conditions: working set from the recorded footprint: "
	"$COPYPROF" estimate -i "$w.json" -m "cm_$w.json" --json > "est_$w.json" ||
		fatal "estimate --json $w failed"
	expect_eq "$w: the footprint's condition" "$(jq -r "$F.verdict.footprint.cache" "est_$w.json")" \
		"${CACHE[$w]}"
	expect_eq "$w: that condition measured" "$(jq -r "$F.verdict.footprint.measured" "est_$w.json")" true
	want=$(jq '[.sites[] | select(.calls >= 40000)][0].footprint | [.dst.bytes, .src.bytes] | max' \
		"$w.json" | awk '{ w = 4096; while (w < $1) w *= 2; print w }')
	expect_eq "$w: its working set" "$(jq -r "$F.verdict.footprint.working_set_bytes" "est_$w.json")" \
		"$want"
	kind=$(jq -r "$F.verdict.kind" "est_$w.json")
	pol=$(jq -r "$F.verdict.policy // \"\"" "est_$w.json")
	[[ $kind == saves && $pol == T=* ]] || pol=T=4096 # the contested threshold otherwise
	pct=$(jq -r "[$F.policies[] | select(.name == \"$pol\") | .delta_pct][0] // \"\"" "est_$w.json")
	read -r clo chi < <(jq -r "[$F.policies[] | select(.name == \"$pol\")][0] // {} |
		\"\\(.ci_low // \"\") \\(.ci_high // \"\")\"" "est_$w.json")
	T=${pol#T=}
	# Three runs of the knob, and the one of median figure: a run on a core disturbed by other
	# work (A/A 4 points, T=4096 at -3% against -44% in the runs around it) is outvoted.
	for r in 1 2 3; do
		# shellcheck disable=SC2086
		"$GK" dist=dist.txt knob="$knob" T="$dflt,$T" rounds=150 seed=$r ${ARGS[$w]} \
			> "truth_$w.$r.txt" || fatal "the truth run $w failed"
		awk -v t="T=$T" '$1 == t { m = $2; lo = $3; hi = $4 }
			$1 == "control" { x = 0; for (i = 2; i <= 4; i++) if (($i < 0 ? -$i : $i) > x)
				x = $i < 0 ? -$i : $i }
			END { print m, lo, hi, x }' "truth_$w.$r.txt"
	done | sort -g | sed -n 2p > "truth_$w.txt"
	read -r m lo hi aa < "truth_$w.txt"
	echo "$w: copyprof $kind ($pol ${pct:-?}%); glibc's knob T=$T vs $dflt: $m% [$lo, $hi], A/A $aa"
	# The knob shows a saving when its whole interval lies below zero by more than its A/A.
	if awk -v hi="$hi" -v aa="$aa" 'BEGIN { exit !(hi < 0 && -hi > aa) }'; then
		knob_saves=saves
	else
		knob_saves=no
	fi
	echo "$w $kind $knob_saves $m" >> verdicts.txt
	if [ "$kind" = saves ] && [ $knob_saves = saves ]; then
		pass "$w: copyprof's saving with $pol is the knob's ($m%, [$lo, $hi], A/A $aa)"
	elif [ "$kind" = saves ]; then
		fail "$w: copyprof says $pol saves ${pct}%, the knob shows no saving: $m% [$lo, $hi] (A/A $aa)"
	elif [ $knob_saves = saves ] && awk -v c="$clo" -v hi="$hi" -v aa="$aa" \
		'BEGIN { exit !(c != "" && c <= hi + aa) }'; then
		pass "$w: copyprof's $kind ($pol ${pct}%, [$clo, $chi]) reaches the knob's $m% [$lo, $hi] (A/A $aa): its interval holds the saving, it claims none"
	elif [ $knob_saves = saves ]; then
		fail "$w: copyprof says $kind ($pol ${pct}%, [$clo, $chi]), the knob saves $m% [$lo, $hi] (A/A $aa) beyond that interval"
	else
		pass "$w: copyprof's $kind, and the knob shows no saving with $pol: $m% [$lo, $hi] (A/A $aa)"
	fi
done
