#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0173-call-order: two workloads with the same lengths (8 across a vector memcpy's size classes,
# 1/8 of the calls each) in a cycle and in random order, recorded by a uprobe: each profile's
# sampled runs are the workload's own lengths at calls 0, 4096, 8192 and 12288 of its 16384
# (pinned to one CPU: per-CPU counts; runs every 1024 calls, the 4 slots thinned to every 2nd,
# then every 4th run as they fill), merge appends them, a profile without them reads as independent draws
# under the digest it had, a bad run is refused. calibrate --mix replays each in the manner of
# its runs and estimate says so (text, JSON, summary); REP MOVSB against glibc's memcpy differs
# between the two orders by more than both allowances, and what the order does to today's memcpy
# (the ratio of the two orders' figures) agrees with the same orders timed in a process of the
# test's own (paired, interleaved; tests/workload/orderload.c) within max(3%, 2x the measured
# noise, a third of the effect). The allowances are measured, never constants of a CPU.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd cc
need_cmd taskset
F='.inputs[0].families[0]'
cd "$TMP"

cc -O2 -Wall -o orderload "$ROOT/tests/workload/orderload.c" || fatal "cannot build orderload.c"
calls=16384
cpu=$(taskset -cp $$ | sed 's/.*: *//; s/[,-].*//')
for o in cyclic random; do
	"$COPYPROF" record --uprobe ./orderload:ol_copy -o "$o.json" -- \
		taskset -c "$cpu" ./orderload run "$o" "$calls" > /dev/null 2> err.txt ||
		fatal "record $o failed: $(cat err.txt)"
	expect_eq "$o: recorded calls" "$(jq '.sites[0].calls' "$o.json")" "$calls"
	expect_eq "$o: 4 runs of 64" "$(jq -c '[.sites[0].orders[] | length]' "$o.json")" "[64,64,64,64]"
	./orderload print "$o" "$calls" > seq.txt || fatal "orderload print failed"
	want=$(awk '{ v[NR - 1] = $1 } END { for (r = 0; r < 4; r++) { s = ""
		for (k = 0; k < 64; k++) s = s (k ? "," : "") v[4096 * r + k]; printf "[%s]", s } }' seq.txt)
	expect_eq "$o: each run the workload's own lengths in its order" \
		"$(jq -c '.sites[0].orders[]' "$o.json" | tr -d '\n')" "$want"
done
expect_eq "cyclic: every run follows the cycle" \
	"$(jq -c '[.sites[0].orders[] | . as $r | range(1; 64) | select($r[.] == $r[. - 1])] | length' cyclic.json)" 0
expect_eq "the same histogram" "$(jq -c '.sites[0].buckets' cyclic.json)" "$(jq -c '.sites[0].buckets' random.json)"
expect_exit 0 "$COPYPROF" merge random.json random.json -o twice.json
expect_eq "merged: runs appended" "$(jq '.sites[0].orders | length' twice.json)" 8

"$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold,libc_memcpy --cache warm \
	-o cm.json > /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fatal "calibrate --quick exited $rc: $(cat err.txt)"
jq '.sites[0].orders[1][3] = "x"' cyclic.json > bad.json
expect_exit 1 "$COPYPROF" estimate -i bad.json -m cm.json --model-only
expect_err "site 0: orders run 1 needs 1 \.\. 64 unsigned integer lengths"

# An older profile (no runs): drawn independently, under another digest than the runs'.
jq 'del(.sites[].orders)' random.json > old.json
expect_exit 0 "$COPYPROF" calibrate -i cm.json --mix old.json --today libc_memcpy --mix-cache warm \
	--mix-budget 1 -o co.json
expect_exit 0 "$COPYPROF" estimate -i old.json -m co.json --today libc_memcpy --json
expect_eq "old profile: drawn independently" "$(jq -r "$F.measurement.conditions.lengths_order" out)" independent
old_digest=$(jq -r "$F.mix_digest" out)
expect_exit 0 "$COPYPROF" estimate -i old.json -m co.json --today libc_memcpy
expect_out "^    calls drawn independently from the buckets$"

# Sittings of each order's replay, each beside a run of the in-process timing of that order:
# REP MOVSB's ("always") time a call against today's memcpy, percent, from each.
declare -A med noise inproc raw
for o in cyclic random; do
	pcts=() hs=() hnoise=0
	for i in 1 2 3; do
		# A sitting with no quiet figure (a machine too busy) is taken again, twice at most.
		for try in 1 2 3; do
			"$COPYPROF" calibrate -i cm.json --mix "$o.json" --today libc_memcpy \
				--mix-cache warm --mix-budget 1 -o "c$o$i.json" > /dev/null 2> err.txt ||
				fatal "calibrate --mix $o failed: $(cat err.txt)"
			"$COPYPROF" estimate -i "$o.json" -m "c$o$i.json" --today libc_memcpy --json \
				> "e$o$i.json" || fatal "estimate $o $i failed"
			jq -e "$F.measurement.policies[] | select(.name == \"always\") | .quiet.delta_pct | numbers" \
				"e$o$i.json" > /dev/null && break
			echo "# $o, sitting $i: no quiet figure, taken again"
			rm -f "c$o$i.json"
		done
		expect_eq "$o, sitting $i: applied" "$(jq "$F.measurement.applied" "e$o$i.json")" true
		expect_eq "$o, sitting $i: in recorded order, 4 runs of 256 calls" \
			"$(jq -c "$F.measurement.conditions | [.lengths_order, .order_runs, .order_calls]" "e$o$i.json")" \
			'["recorded",4,256]'
		pcts+=("$(jq "$F.measurement.policies[] | select(.name == \"always\") | .quiet.delta_pct" "e$o$i.json")")
		ws=$(jq "$F.measurement.conditions.working_set_bytes" "e$o$i.json")
		# glibc's memcpy at 20x the replay's own time a call is a trap on it (another
		# program's uprobe on the C library while this runs): that timing is taken again.
		today=$(jq "$F.measurement.policies[] | select(.name == \"today\") | .ns_per_call" "e$o$i.json")
		for try in 1 2 3; do
			read -r h n _ ns1 < <(taskset -c "$cpu" ./orderload "$o" "$ws" 300) ||
				fatal "orderload $o failed"
			awk -v a="$ns1" -v b="$today" 'BEGIN { exit !(a < 20 * b) }' && break
			echo "# $o, sitting $i: memcpy at $ns1 ns a call in-process (the replay's $today): taken again"
		done
		hs+=("$h")
		hnoise=$(awk -v a="$hnoise" -v b="$n" 'BEGIN { print (b > a ? b : a) }')
	done
	[ "$(jq -r "$F.mix_digest" "e${o}1.json")" != "$old_digest" ] ||
		fail "$o: the profile with runs has the digest of the one without"
	read -r cp cpnoise < <(printf '%s\n' "${pcts[@]}" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.3f %.3f\n", v[2], (v[3] - v[1]) / 2 }')
	read -r h hspread < <(printf '%s\n' "${hs[@]}" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.3f %.3f\n", v[2], (v[3] - v[1]) / 2 }')
	# max(3 points, 2x the noise, 15% of the effect: issue 35's rule for the distance test).
	# The cyclic order's effect is +120% here, and in 1 of 4 runs on a loaded VM the two
	# harnesses read it 15-20 points apart (replay +116..125%, in-process +119..142%).
	tol=$(awk -v a="$hnoise" -v b="$hspread" -v c="$cpnoise" -v h="$h" 'BEGIN {
		n = a; if (b > n) n = b; if (c > n) n = c; t = 3; if (2 * n > t) t = 2 * n
		e = 0.15 * (h < 0 ? -h : h); if (e > t) t = e
		printf "%.3f", t }')
	echo "# $o: REP MOVSB vs today's memcpy: replay ${pcts[*]} (median $cp, noise $cpnoise); in-process ${hs[*]} (median $h, noise $hnoise, spread $hspread); allowance $tol points"
	med[$o]=$cp
	inproc[$o]=$h
	raw[$o]=$(awk -v a="$hnoise" -v b="$hspread" -v c="$cpnoise" 'BEGIN { n = a; if (b > n) n = b; if (c > n) n = c; print n }')
	noise[$o]=$tol
done
# What the order does, by the replay and by the in-process timing. REP MOVSB's time a call does
# not depend on the order, while each harness has a level of its own for it (on Zen 3 the replay's
# 12.9 ns a call against the in-process 13.3..14.1 ns, both orders alike): so the percentages'
# difference is not compared (cyclic's divides that gap by a memcpy twice as fast, and reads it
# 20 points apart), their ratio is: (100 + cyclic) / (100 + random) is what the order does to
# today's memcpy (random's time a call over cyclic's), the harness's REP MOVSB level cancelled.
# Allowed: max(3%, 2x both orders' relative noise, a third of the effect), in logs. The two
# harnesses read the ratio differently beyond their noise (the replay 1.79..1.80 in every run on
# Zen 3; in-process 1.71..2.07, the highest beside two busy loops): a third of the effect holds
# them, and independent draws, which this tells apart, read 1.0 against 1.8.
read -r rr rh dt < <(awk -v rc="${med[cyclic]}" -v rn="${med[random]}" -v hc="${inproc[cyclic]}" \
	-v hn="${inproc[random]}" -v nc="${raw[cyclic]}" -v nn="${raw[random]}" 'BEGIN {
	e = log((100 + rc) / (100 + rn)); h = log((100 + hc) / (100 + hn))
	t = log(1.03); n = 2 * (nc / (100 + hc) + nn / (100 + hn)); if (n > t) t = n
	if ((h < 0 ? -h : h) / 3 > t) t = (h < 0 ? -h : h) / 3
	printf "%.4f %.4f %.4f\n", exp(e), exp(h), t }')
awk -v e="$rr" -v h="$rh" -v t="$dt" 'BEGIN { d = log(e / h); exit !(d <= t && -d <= t) }' &&
	pass "the order's effect agrees: today's memcpy random over cyclic, by the replay $rr, in-process $rh (allowed: a factor exp($dt))" ||
	fail "the order's effect: today's memcpy random over cyclic, by the replay $rr against in-process $rh, more than a factor exp($dt) apart"
awk -v a="${med[cyclic]}" -v b="${med[random]}" -v s="$(awk -v x="${noise[cyclic]}" -v y="${noise[random]}" 'BEGIN { print x + y }')" \
	'BEGIN { d = a - b; exit !(d > s || -d > s) }' &&
	pass "the two orders' estimates differ: ${med[cyclic]} against ${med[random]} points (both allowances: ${noise[cyclic]} + ${noise[random]})" ||
	fail "the two orders' estimates, ${med[cyclic]} and ${med[random]} points, are within both allowances"

# Stated: text and summary.
expect_exit 0 "$COPYPROF" estimate -i cyclic.json -m ccyclic1.json --today libc_memcpy
expect_out "^    calls in recorded order: 4 runs of 64 calls, each pass the runs in an order of its own$"
expect_out "each pass in the recorded order \(its runs in an order of its own\)"
jq -r "$F.summary" ecyclic1.json | tr '\n' ' ' | grep -q "calls in recorded order: 4 runs of 64 calls" ||
	fail "summary: no word of the recorded order"
expect_no_leftover_progs
exit 0
