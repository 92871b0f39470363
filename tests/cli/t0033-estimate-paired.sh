#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0033-estimate-paired: calibrate --mix / --hist measures a mix paired and stores it in the
# cost model; estimate -i / --hist (with and without --today) then answers with exactly that
# measurement, the model beside it; another mix, other thresholds, --model-only, a model of
# another CPU or of published figures get the model only (no verdict) and say why; the stored
# figures are checked on read; a model with a negative dispatch cost is refused. No timing is asserted:
# every figure compared is one this test read back from a file the measurement wrote.
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
F='.inputs[0].families[0]'
cd "$TMP"

# Published figures (the seed's Cooper Lake model): modelled only, and the text says so.
FLEET="$ROOT/examples/data/fleetbench-2023/MemcpyGoogleFleet.txt"
SEED="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
expect_exit 0 "$COPYPROF" estimate --hist "$FLEET" -m "$SEED"
expect_out "^  measured: none \(the cost model is built from published figures, not measured"
expect_out "^  every figure below is modelled$"
expect_exit 0 "$COPYPROF" estimate --hist "$FLEET" -m "$SEED" --json
expect_eq "seed: not applied" "$(jq "$F.measurement.applied" out)" false
expect_eq "seed: nothing measured" "$(jq "[$F.policies[] | select(.measured)] | length" out)" 0

# A model of another CPU cannot take a measurement made here; nothing is measured first.
expect_exit 1 "$COPYPROF" calibrate -i "$G/costmodel-synthetic.json" --hist "$FLEET" -o x.json
expect_err "was measured on Synthetic CPU \(machine not recorded\), not on this CPU"
[ -e x.json ] && fail "a model was written after the refusal"

# A model measured here.
"$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold,libc_memcpy --cache warm \
	-o cm.json > /dev/null 2> err.txt
rc=$?
grep -q "invariant TSC" err.txt && skip "no invariant TSC: $(tail -n 1 err.txt)"
[ "$rc" -eq 0 ] || fail "calibrate --quick exited $rc: $(cat err.txt)"
printf '8,100\n24,50\n40,30\n3000,20\n' > short.csv

# Before: modelled, and the command that measures this very mix.
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --json
expect_eq "before: not applied" "$(jq "$F.measurement.applied" out)" false
jq -r "$F.measurement.why" out |
	grep -q "copyprof calibrate -i cm.json --hist short.csv --family memcpy -o cm.json" ||
	fail "before: why: $(jq -r "$F.measurement.why" out)"

# calibrate --hist, then estimate --hist: the stored measurement is the answer.
expect_exit 0 "$COPYPROF" calibrate --mix-cache warm -i cm.json --hist short.csv --mix-budget 1 -o cm.json
expect_err "memcpy: [0-9]+ rounds in [0-9]+ s \([0-9]+ on a quiet core\), most on CPU [0-9]+, A/A control [-+][0-9.]+% \([-+][0-9.]+ \.\. [-+][0-9.]+\)$"
expect_err "calibrate --mix: memcpy: stored under mix [0-9a-f]{16}$"
expect_eq "one entry" "$(jq '.paired | length' cm.json)" 1
# Each batch runs on the quietest CPU the process may run on: confined to one, on that one;
# --cpu N: on N.
last=$(($(nproc) - 1))
expect_exit 0 taskset -c "$last" "$COPYPROF" calibrate --mix-cache warm -i cm.json --hist short.csv --mix-budget 1 \
	-o cm1.json
expect_eq "confined to CPU $last: measured there" "$(jq '.paired[-1].conditions.cpu' cm1.json)" "$last"
expect_err "most on CPU $last, A/A"
expect_exit 0 "$COPYPROF" calibrate --mix-cache warm -i cm.json --hist short.csv --mix-budget 1 --cpu 0 -o cm1.json
expect_eq "--cpu 0: measured there" "$(jq '.paired[-1].conditions.cpu' cm1.json)" 0
# 8 batches, then more of the same length while quiet rounds are too few or the A/A control
# wider than +-0.5 points, up to 4 times as long.
jq -e '.paired[-1].conditions.batches | . >= 8 and . <= 32' cm1.json > /dev/null ||
	fail "batches: $(jq '.paired[-1].conditions.batches' cm1.json), not 8 to 32"
# A second sitting of the same measurement joins the first, and estimate pools them: each
# figure the median of theirs (the mean of two), its interval from the lowest low end to the
# highest high end.
expect_err "stored under mix [0-9a-f]{16}, its sitting 2 under the same conditions: estimate pools them \(today's code [0-9.]+, [0-9.]+ ns a call in them\)"
expect_eq "two sittings" "$(jq '.paired | length' cm1.json)" 2
jq -e '.paired | .[0].when > 0 and .[1].when >= .[0].when' cm1.json > /dev/null ||
	fail "sittings' times: $(jq -c '[.paired[].when]' cm1.json)"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm1.json --json
expect_eq "pooled: sittings" "$(jq "$F.measurement.sittings" out)" 2
expect_eq "pooled: rounds" "$(jq "$F.measurement.rounds" out)" "$(jq '[.paired[].rounds] | add' cm1.json)"
jq -e --slurpfile cm cm1.json "$F.policies | map(select(.kind != \"oracle\" and .kind != \"today\"))
	| length > 0 and all(. as \$p | [\$cm[0].paired[].policies[] | select(.name == \$p.name)
	| .quiet] as \$s
	| .delta_pct == ((\$s[0].delta_pct + \$s[1].delta_pct) / 2 * 10000 | round / 10000)
	  and .ci_low == ([\$s[].ci_low] | min * 10000 | round / 10000)
	  and .ci_high == ([\$s[].ci_high] | max * 10000 | round / 10000))" out > /dev/null ||
	fail "pooled: rows are not the sittings' median and span: $(jq -c "$F.policies" out | head -c 600)"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm1.json
expect_out "^    in 2 sittings, the first [0-9]+ s before the last: each figure the median of theirs"
expect_out "its 95% CI spanning theirs"
# --sittings 3 in one command: three sittings of the mix, --sitting-gap apart, beside the one
# cm.json holds, pooled alike.
expect_exit 0 "$COPYPROF" calibrate --mix-cache warm -i cm.json --hist short.csv --mix-budget 1 --sittings 3 \
	--sitting-gap 1 -o cm4.json
expect_err "calibrate --mix: sitting 3 of 3 in 1 s"
expect_err "its sitting 4 under the same conditions: estimate pools them \(today's code [0-9.]+, [0-9.]+, [0-9.]+, [0-9.]+ ns a call in them\)"
expect_eq "--sittings 3: four entries" "$(jq '.paired | length' cm4.json)" 4
jq -e '.paired | .[2].when - .[1].when >= 1 and .[3].when - .[2].when >= 1' cm4.json > /dev/null ||
	fail "--sitting-gap 1: sittings less than 1 s apart: $(jq -c '[.paired[].when]' cm4.json)"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm4.json --json
expect_eq "--sittings 3: pooled" "$(jq "$F.measurement.sittings" out)" 4
# A signal in the pause between sittings: nothing written.
rm -f cm5.json
"$COPYPROF" calibrate --mix-cache warm -i cm.json --hist short.csv --mix-budget 1 --sittings 2 --sitting-gap 600 \
	-o cm5.json 2> sig.err &
pid=$!
await grep -q 'sitting 2 of 2' sig.err
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
expect_eq "SIGINT between sittings: exit status" "$rc" 1
grep -q "interrupted by SIGINT: no cost model written" sig.err || fail "SIGINT: $(cat sig.err)"
[ ! -e cm5.json ] || fail "SIGINT between sittings: cm5.json written"
expect_exit 2 "$COPYPROF" calibrate -i cm.json --sittings 2 --table
expect_err "--sittings applies to --mix/--hist"
expect_exit 2 "$COPYPROF" calibrate -i cm.json --hist short.csv --sittings 9
expect_err "--sittings 9: give a whole number from 1 to 8"
# Another measurement of the mix (another chunk) replaces its sittings.
expect_exit 0 "$COPYPROF" calibrate --mix-cache warm -i cm1.json --hist short.csv --mix-budget 1 --mix-chunk 1024 \
	-o cm3.json
expect_eq "other conditions: one sitting" "$(jq '[.paired[] | .conditions.chunk_calls]' -c cm3.json)" "[1024]"
# Each batch in a process of its own: with address-space randomisation on, each has its code
# in another place (a collision of two random bases is one in millions); with it off
# (setarch -R, which the batches' processes inherit), all in one place, and the text says so.
if [ "$(cat /proc/sys/kernel/randomize_va_space)" != 0 ]; then
	expect_eq "a process per batch: code places" "$(jq '.paired[-1].conditions.code_places' cm1.json)" \
		"$(jq '.paired[-1].conditions.batches' cm1.json)"
else
	echo "# randomize_va_space is 0 here: the per-batch places are checked under setarch -R only"
fi
if command -v setarch > /dev/null; then
	expect_exit 0 setarch -R "$COPYPROF" calibrate --mix-cache warm -i cm.json --hist short.csv --mix-budget 1 \
		--mix-chunk 512 -o norand.json
	expect_eq "no randomisation: one code place" "$(jq '.paired[-1].conditions.code_places' norand.json)" 1
	expect_exit 0 "$COPYPROF" estimate --hist short.csv -m norand.json
	expect_out "batches, each in memory mapped afresh, the code in one place \(docs/estimate.md#batches\)$"
fi
# What a batch's process reads is refused unless it is a batch (exit 2, said why).
expect_exit 2 env COPYPROF_REPLAY_BATCH=1 "$COPYPROF" < /dev/null
expect_err "replay: a batch's process: not a batch of this copyprof$"
head -c 4096 /dev/urandom > noise.bin
expect_exit 2 env COPYPROF_REPLAY_BATCH=1 "$COPYPROF" < noise.bin
expect_exit 1 "$COPYPROF" calibrate --mix-cache warm -i cm.json --hist short.csv --mix-budget 1 --cpu 5000 -o cm2.json
expect_err "cannot pin to CPU 5000: this machine's CPUs are [0-9]"
[ ! -e cm2.json ] || fail "a failed calibrate --hist wrote cm2.json"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --json
cp out hist.json
expect_eq "hist: applied" "$(jq "$F.measurement.applied" hist.json)" true
expect_eq "hist: digest" "$(jq -r "$F.mix_digest" hist.json)" "$(jq -r '.paired[0].digest' cm.json)"
# Every policy but the oracle is the stored quiet figure, exactly; the model's stays beside it.
jq -e --slurpfile cm cm.json "$F.policies | map(select(.kind != \"oracle\")) | all(
	. as \$p | (\$cm[0].paired[0].policies[] | select(.name == \$p.name)) as \$s
	| \$p.measured and .delta_pct == (\$s.quiet.delta_pct * 10000 | round / 10000)
	  and (.model_pct | type) == \"number\")" hist.json > /dev/null ||
	fail "hist: rows are not the stored figures: $(jq -c "$F.policies" hist.json | head -c 600)"
expect_eq "hist: oracle not measured" \
	"$(jq "$F.policies[] | select(.kind == \"oracle\") | .measured" hist.json)" false
jq -e "$F.policies[1:] | map(select(.measured)) | all(.ci_low > -100 and .ci_low <= .delta_pct
	and .delta_pct <= .ci_high)" hist.json > /dev/null || fail "hist: an interval is off"
# Policies that run the same code on every call of this mix share one path: T=64 .. T=2048
# (nothing between 40 and 3000 bytes) and T=4096 .. never (everything below 4096).
expect_eq "same code: T=64 .. T=2048" "$(jq "[$F.policies[] | select(.name == \"T=64\" or
	.name == \"T=128\" or .name == \"T=2048\") | .delta_pct] | unique | length" hist.json)" 1
expect_eq "same code: T=4096 .. never" "$(jq "[$F.policies[] | select(.name == \"T=4096\" or
	.name == \"T=8192\" or .name == \"never\") | .delta_pct] | unique | length" hist.json)" 1
# The verdict is drawn from the measured rows; the text says measured, prints the conditions
# and the model's bias, and the commit paragraph names the measurement.
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json
expect_out "^  measured: a paired replay of this mix on CPU [0-9]+, [0-9,]+ rounds of [0-9,]+ calls"
expect_out "^    cache warm: random offsets in .* per side; alignments uniform"
expect_out "^  noise: today's code timed twice in each round: [-+][0-9.]+% \(95% CI"
expect_out "^  the model's bias on this mix, against the measurement: mean [-+][0-9.]+ points"
expect_out "^  verdict: "
tr -s '\n ' ' ' < out | grep -q "measured by copyprof as a paired replay of this mix" ||
	fail "summary does not name the measurement"
# A pure function: the same inputs, the same bytes.
"$COPYPROF" estimate --hist short.csv -m cm.json > a.txt && "$COPYPROF" estimate --hist short.csv \
	-m cm.json > b.txt && cmp -s a.txt b.txt || fail "estimate printed different output twice"

# Another mix, other thresholds, --model-only: the model only, each saying why.
printf '8,100\n24,50\n40,31\n3000,20\n' > short2.csv
expect_exit 0 "$COPYPROF" estimate --hist short2.csv -m cm.json --json
expect_eq "other mix: not applied" "$(jq "$F.measurement.applied" out)" false
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --model-only --json
expect_eq "--model-only: why" "$(jq -r "$F.measurement.why" out)" "--model-only"
expect_eq "--model-only: no verdict" "$(jq -r "$F.verdict.kind" out)" not_measured
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --json
[ "$(jq -r "$F.verdict.kind" out)" != not_measured ] || fail "measured, yet no verdict"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --model-only --json
jq -e "$F.policies | all(.delta_pct == .model_pct)" out > /dev/null ||
	fail "--model-only: not the model's figures"
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m cm.json --thresholds 48,2K --json
expect_eq "other T: applied" "$(jq "$F.measurement.applied" out)" true
expect_eq "other T: one unmeasured" "$(jq "$F.measurement.unmeasured_policies" out)" 1
expect_eq "other T: T=48 modelled" \
	"$(jq "$F.policies[] | select(.name == \"T=48\") | .measured" out)" false
[ "$(jq -r "$F.best.name" out)" != "T=48" ] || fail "other T: a modelled row was made best"

# calibrate --mix of a uprobe profile with --today, then estimate -i: applied; estimate without
# the same --today asks for it (a uprobe on unknown code is never guessed from its name).
expect_exit 1 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m cm.json --family memcpy
expect_err "uprobes on app_copy, whose code copyprof does not replicate: say what it runs with --today IMPL"
expect_exit 0 "$COPYPROF" calibrate --mix-cache warm -i cm.json --mix "$G/profile-synthetic.json" --family memcpy \
	--today libc_memcpy --mix-budget 1 -o cm.json
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m cm.json --family memcpy \
	--today libc_memcpy --json
expect_eq "-i --today: applied" "$(jq "$F.measurement.applied" out)" true
expect_eq "-i --today: today" "$(jq -r "$F.measurement.today" out)" libc_memcpy
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic.json" -m cm.json --family memcpy \
	--today memcpy_orig --json
expect_eq "-i, another --today: not applied" "$(jq "$F.measurement.applied" out)" false
jq -r "$F.measurement.why" out | grep -q -- "--mix .*profile-synthetic.json --family memcpy --today memcpy_orig -o cm.json" ||
	fail "-i: why: $(jq -r "$F.measurement.why" out)"

# A sampled profile: replayed in proportion to samples over today's cost, a change of time;
# no inferred call count in the verdict or the commit paragraph.
expect_exit 0 "$COPYPROF" calibrate --mix-cache warm -i cm.json --mix "$G/profile-synthetic-sampled.json" \
	--mix-budget 1 -o cm.json
expect_exit 0 "$COPYPROF" estimate -i "$G/profile-synthetic-sampled.json" -m cm.json --json
expect_eq "sampled: applied" "$(jq "$F.measurement.applied" out)" true
expect_eq "sampled: weight" "$(jq -r "$F.measurement.weight" out)" time
jq -r "$F.measurement.calls_note" out | grep -q "samples / today's modelled warm cost" ||
	fail "sampled: calls note: $(jq -r "$F.measurement.calls_note" out)"
jq -r "$F.summary" out | grep -Eq "calls inferred|≈" && fail "sampled: inferred calls in the summary"
expect_eq "three entries" "$(jq '.paired | length' cm.json)" 3

# A core contended throughout: no window of 5, 10 or 25% held 100 rounds, so the answer is the
# 100 rounds of fastest reference, their window wider (here 80%), and the text says so.
jq '.paired[0].quiet_tolerance = 0.8' cm.json > wide.json
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m wide.json
expect_out "the answer: the [0-9,]+ rounds of fastest reference \(within 80% of its (batch's )?fastest: no window up to 25% held enough"
jq '.paired[0].quiet_tolerance = 0' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "a positive quiet_tolerance"

# The reader checks what it reads back: an interval below -100%, a policy twice.
jq '.paired[0].policies[2].quiet.ci_low = -120' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "a \"paired\" entry is incomplete or out of range"
jq '.paired[0].policies[2].name = "always"' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "a \"paired\" entry is incomplete or out of range"
jq '.paired += [.paired[0] | .conditions.chunk_calls = 7]' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "\"paired\" entries for memcpy mix [0-9a-f]{16} that are not sittings of one measurement"
jq '.paired = [range(9) as $i | .paired[0]]' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "never pooled: more sittings than are kept \(at most 8 sittings"

# Every stored measurement carries its protocol (every constant of the measurement, and its
# version), and sittings of two protocols are never pooled: the reader says which differs.
expect_eq "the protocol's version, stored" "$(jq '.paired[0].protocol.version' cm.json)" 2
expect_eq "the protocol's quiet rounds wanted, stored" \
	"$(jq '.paired[0].protocol.min_quiet' cm.json)" 100
# The retry rule's constants (measure_retry.h), recorded from version 2 on.
expect_eq "the protocol's measurements in all, stored" \
	"$(jq '.paired[0].protocol.retry_tries' cm.json)" 2
expect_eq "the protocol's budget factor again, stored" \
	"$(jq '.paired[0].protocol.retry_budget' cm.json)" 2
# Version 1 recorded no retry rule: it still reads alone, and is never pooled with version 2.
jq '.paired |= map(.protocol |= (.version = 1 | del(.retry_tries, .retry_budget)))' cm.json > v1.json
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m v1.json
jq '.paired += [.paired[0] | .protocol |= (.version = 1 | del(.retry_tries, .retry_budget))]' \
	cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "not sittings of one measurement, so never pooled: another version of the measurement protocol"
jq '.paired[0].protocol |= del(.retry_tries)' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "a \"protocol\" is incomplete or out of range"
jq '.paired += [.paired[0] | .protocol.settled_pct = 0.25]' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "never pooled: other constants of the measurement protocol"
jq '.paired[0].protocol |= del(.bootstrap)' cm.json > bad.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m bad.json
expect_err "a \"protocol\" is incomplete or out of range"
# A file from before the protocol was recorded still reads; a new sitting replaces it, said.
jq '.paired |= map(del(.protocol))' cm.json > old.json
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m old.json
expect_exit 0 "$COPYPROF" calibrate --mix-cache warm -i old.json --hist short.csv --mix-budget 1 -o old2.json
expect_err "was made under another version of the measurement protocol: the new measurement replaces it"
expect_eq "sittings kept after a new protocol's" \
	"$(jq --arg d "$(jq -r '.paired[0].digest' old.json)" \
		'[.paired[] | select(.digest == $d)] | length' old2.json)" 1

# A dispatch that costs less than nothing: erms_threshold 3 ns below movsb from its T on, in
# every run (its slowest run below movsb's fastest): refused. Set from movsb's own figure at
# each size, so that what the calibration measured cannot decide it.
MOVSB_NS='([.impls[] | select(.name == "movsb" and .cache == "warm") | .points[] |
	{key: (.size | tostring), value: .ns}] | from_entries) as $movsb'
jq "$MOVSB_NS"' | (.impls[] | select(.name == "erms_threshold" and .cache == "warm") | .points[]) |=
	(if .size >= 2048 then .ns = ($movsb[.size | tostring] - 3) | .ns_min = .ns | .ns_max = .ns
	 else . end)
	| (.impls[] | select(.name == "movsb" and .cache == "warm") | .points[]) |=
	(.ns_min = .ns | .ns_max = .ns)' cm.json > neg.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m neg.json
# The worst of the three sizes from T compared: erms_threshold's ns minus movsb's there.
worst=$(jq -r '[.impls[] | select(.cache == "warm" and (.name == "erms_threshold" or .name == "movsb"))
	| {name, p: [.points[] | select(.size >= 2048)][:3]}] as $c
	| [range(3) as $i | ($c[] | select(.name == "erms_threshold") | .p[$i].ns) -
	   ($c[] | select(.name == "movsb") | .p[$i].ns)] | min' neg.json | xargs printf '%.2f')
expect_err "the dispatch replica erms_threshold costs $worst ns against movsb from T in cache state warm, slower in none of its runs: .*physically impossible"
# A model is held to the limits it records (measured in its own session): with a copy ceiling
# set at half the rate its fastest memcpy point reached, that point is beyond it and the model
# is refused, naming the point and the limits; without "limits" (a model from before they were
# measured) no ceiling stands in, and the same points are read as measured.
jq '([.impls[] | select(.family == "memcpy") | .points[] | .size / .ns] | max) as $best |
	.limits.copy_bytes_per_ns = ($best / 2 | floor)' cm.json > slow.json
expect_exit 1 "$COPYPROF" estimate --hist short.csv -m slow.json --model-only
expect_err "is beyond the measured copy ceiling of $(jq .limits.copy_bytes_per_ns slow.json)\\.0 B/ns \\($(jq -r .limits.copy_loop slow.json) loop\\) by more than 25%; the limits it records: store"
jq 'del(.limits)' slow.json > old.json
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m old.json --model-only
# The same difference within the runs' spread is noise: the dispatch is taken as 0, and said so.
jq "$MOVSB_NS"' | (.impls[] | select(.name == "erms_threshold" and .cache == "warm") | .points[]) |=
	(if .size >= 2048 then .ns = ($movsb[.size | tostring] - 3) | .ns_min = (.ns - 1)
	 | .ns_max = (.ns + 6) else . end)
	| (.impls[] | select(.name == "movsb" and .cache == "warm") | .points[]) |=
	(.ns_min = (.ns - 1) | .ns_max = (.ns + 1))' cm.json > noisy.json
expect_exit 0 "$COPYPROF" estimate --hist short.csv -m noisy.json --model-only
expect_out "from T: below 0 within their runs' spread, so noise, taken as 0\)"
expect_out "ns below T, \+0.00 ns from T$"
exit 0
