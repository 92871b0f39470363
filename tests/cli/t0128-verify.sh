#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0128-verify: copyprof verify runs a real glibc program with and without
# GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=T, interleaved. Checked: usage errors (2); a
# T glibc ignores refused (1) by asking ld.so; a GLIBC_TUNABLES already set kept, only the
# threshold replaced; the order of the runs (warm-ups A B, then pairs A B, B A, ...) and the
# environment each run really had, from the runs themselves, of one size on both sides; glibc's loader run as the command
# lists T in force in every B run and today's in every A run; the JSON of a real workload's run
# (fields, the interval around the figure, pairs >= 8); a failing command stops verify (1),
# naming the run. Then record stores the program's CPU time and the uprobes' part of it,
# estimate turns it into the program-level figure, verify -i -m prints the same figure as
# predicted beside the measured one, and a profile without the CPU time says so. No timing's
# sign or size is asserted.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
GK="$OUT_DIR/tests/glibc_knob"
LDSO=/lib64/ld-linux-x86-64.so.2
TUN=glibc.cpu.x86_rep_movsb_threshold
cd "$TMP"
[ -x "$LDSO" ] && "$LDSO" --list-tunables 2> /dev/null | grep -q "^$TUN:" ||
	skip "$LDSO lists no $TUN (not x86-64 glibc 2.33+)"
lst=$("$LDSO" --list-tunables | grep "^$TUN:")
min=$(($(echo "$lst" | sed -n 's/.*min: \(0x[0-9a-f]*\).*/\1/p')))
dflt=$(($(echo "$lst" | sed -n 's/.*: \(0x[0-9a-f]*\) (min.*/\1/p')))
T=$((dflt == 4096 ? 8192 : 4096))
echo "glibc's threshold $dflt (min $min); verifying T=$T"

# Usage errors.
expect_exit 2 "$COPYPROF" verify --threshold "$T"
expect_err "give the command to run after --"
expect_exit 2 "$COPYPROF" verify -- true
expect_err "give --threshold T, or -i PROFILE -m MODEL"
expect_exit 2 "$COPYPROF" verify -i p.json --threshold "$T" -- true
expect_err "-i and -m go together"
expect_exit 2 "$COPYPROF" verify --threshold "$T" --pairs 3 -- true
expect_err "--pairs 3: give a number of pairs from 8"
expect_exit 2 "$COPYPROF" verify --threshold never -- true
expect_exit 2 "$COPYPROF" verify --threshold "$T" --width 0 -- true
expect_exit 2 "$COPYPROF" verify --threshold "$T" --max-seconds -1 -- true

# glibc ignores its minimum (strictly above it only): refused, with what glibc has in force.
expect_exit 1 "$COPYPROF" verify --threshold "$min" --dry-run -- true
expect_err "glibc does not take $TUN=$min: .* shows $dflt in force"
expect_exit 0 "$COPYPROF" verify --threshold $((min + 1)) --dry-run --json -- true
expect_eq "min + 1 in force" "$(jq .in_force_b out)" $((min + 1))

# An existing GLIBC_TUNABLES: kept, the threshold replaced in place.
GLIBC_TUNABLES="glibc.malloc.check=0:$TUN=9999:glibc.malloc.perturb=1" expect_exit 0 \
	"$COPYPROF" verify --threshold "$T" --dry-run --json -- true
expect_eq "B's tunables" "$(jq -r .tunables_b out)" "glibc.malloc.check=0:$TUN=$T:glibc.malloc.perturb=1"
expect_eq "A's tunables" "$(jq -r .tunables_a out)" "glibc.malloc.check=0:$TUN=9999:glibc.malloc.perturb=1"
expect_eq "A in force" "$(jq .in_force_a out)" 9999
expect_eq "B in force" "$(jq .in_force_b out)" "$T"
expect_exit 0 "$COPYPROF" verify --threshold "$T" --dry-run -- true
expect_out "A: GLIBC_TUNABLES unset \($TUN in force: $dflt\)"

# What each run had, written by the runs themselves: 8 pairs (--width 1000 stops at the first
# interval), after the warm-ups, in the order A B, A B, B A, A B, B A, ...
expect_exit 0 "$COPYPROF" verify --threshold "$T" --width 1000 --json -- \
	sh -c 'printf "%s\n" "${GLIBC_TUNABLES:-unset}" >> runs.txt'
expect_eq "pairs" "$(jq .pairs out)" 8
want="unset $TUN=$T"
for i in $(seq 0 7); do
	if ((i % 2)); then want="$want $TUN=$T unset"; else want="$want unset $TUN=$T"; fi
done
expect_eq "each run's GLIBC_TUNABLES, in order" "$(tr '\n' ' ' < runs.txt | sed 's/ $//')" "$want"

# Both sides' environments are of one size, in entries and bytes (a stand-in and a pad).
expect_exit 0 "$COPYPROF" verify --threshold "$T" --width 1000 -- \
	sh -c 'env | wc -c >> sizes.txt; env | wc -l >> lines.txt'
expect_eq "18 runs, one environment size, one entry count" \
	"$(wc -l < sizes.txt) $(sort -u sizes.txt | wc -l) $(sort -u lines.txt | wc -l)" "18 1 1"

# glibc itself, as the command: its loader lists the threshold each run had in force.
expect_exit 0 "$COPYPROF" verify --threshold "$T" --width 1000 --keep-output -- "$LDSO" --list-tunables
printf -v hex '0x%x' "$T"
printf -v dhex '0x%x' "$dflt"
expect_eq "B runs with T in force" "$(grep -c "^$TUN: $hex " err)" 9
expect_eq "A runs with glibc's default" "$(grep -c "^$TUN: $dhex " err)" 9

# A real glibc workload: copies of 3,000 bytes between reused buffers, through glibc's memcpy.
printf '3000\t1\n' > dist.txt
expect_exit 0 "$COPYPROF" verify --threshold "$T" --pairs 8 --json -- "$GK" dist=dist.txt calls=100000
cp out v.json
for k in measured_pct ci_low ci_high pairs wall_pct cpu_a_s cpu_b_s; do
	jq -e "has(\"$k\") and (.$k | type == \"number\")" v.json > /dev/null || fail "no number $k: $(cat v.json)"
done
expect_eq "8 pairs (--pairs 8)" "$(jq .pairs v.json)" 8
expect_eq "a run of each per pair" "$(jq '[.runs[] | select(.cpu_a_s > 0 and .cpu_b_s > 0)] | length' v.json)" 8
check "ci_low <= measured_pct <= ci_high" jq -e '.ci_low <= .measured_pct and .measured_pct <= .ci_high' v.json
expect_eq "no prediction without a profile" "$(jq 'has("predicted_pct")' v.json)" false
expect_exit 0 "$COPYPROF" verify --threshold "$T" --pairs 8 -- "$GK" dist=dist.txt calls=20000
expect_out "measured: T=$T changes the program's CPU time by [-+][0-9.]+% \(95% CI"

# A failing command stops verify and names the run: at once, or only with the threshold.
expect_exit 1 "$COPYPROF" verify --threshold "$T" -- sh -c 'exit 3'
expect_err "warm-up run A \(without the threshold\): 'sh' exited with status 3"
expect_exit 1 "$COPYPROF" verify --threshold "$T" -- sh -c "case \"\$GLIBC_TUNABLES\" in *$T*) exit 4;; esac"
expect_err "warm-up run B \(with the threshold\): 'sh' exited with status 4"
: > n.txt
expect_exit 1 "$COPYPROF" verify --threshold "$T" -- sh -c '
	echo x >> n.txt; [ "$(wc -l < n.txt)" -lt 6 ]'
expect_err "pair 2, run A \(without the threshold\): 'sh' exited with status 1"
expect_exit 1 "$COPYPROF" verify --threshold "$T" -- ./no-such-program
expect_err "cannot run './no-such-program'"

# The program-level figure: record a uprobe on the implementation glibc picks.
need_glibc_memcpy "$GK"
# 2,000 copies, then work without copies: the program's own CPU time well above the error of
# the traps' (2,000 hits x their measured cost), whatever a hit costs here.
JOB="$GK dist=dist.txt calls=2000 && awk 'BEGIN { for (i = 0; i < 6000000; i++) s += i; print s }'"
"$COPYPROF" record --uprobe "$impl" -o p.json -- sh -c "$JOB" > rec.out 2> rec.err ||
	fatal "record failed: $(cat rec.err)"
check "the profile holds the CPU time and the traps' part of it" \
	jq -e '.meta.cpu_s > 0 and .meta.probe_cpu_s >= 0 and .meta.probe_cpu_s <= .meta.cpu_s' p.json
grep -q "recorded programs' CPU time: .* s their own" rec.out || fail "record does not say the CPU time: $(cat rec.out)"
# record --pid: the CPU time from /proc/PID/stat at the end less at the start; no hit, no traps.
sh -c 'while :; do :; done' &
pids+=($!)
"$COPYPROF" record --uprobe "$impl" --pid "${pids[-1]}" -d 0.5 -o pid.json > /dev/null 2> pid.err ||
	fail "record --pid failed: $(cat pid.err)"
check "record --pid stores the CPU time, no traps" \
	jq -e '(.meta.cpu_s | type == "number") and .meta.cpu_s >= 0 and .meta.probe_cpu_s == 0' pid.json
stop_servers

"$COPYPROF" calibrate --quick --impl memmove --mix p.json --mix-budget 1 -o cm.json > /dev/null 2> cal.err ||
	fatal "calibrate failed: $(cat cal.err)"
expect_exit 0 "$COPYPROF" estimate -i p.json -m cm.json --threshold "$T" --json
P='.inputs[0].families[0].program'
cp out est.json
expect_eq "program figure known" "$(jq "$P.known" est.json)" true
expect_eq "its policy" "$(jq -r "$P.policy" est.json)" "T=$T"
# The copies' share sampled while recorded (meta.copy_share): the traps' samples apart, the
# program's own time and its copies' from the samples.
check "the recording sampled the copies' share" jq -e '.meta.copy_share.hz > 0 and
	.meta.copy_share.copy_samples + .meta.copy_share.own_samples > 0 and
	.meta.copy_share.trap_samples >= 0' p.json
expect_eq "the share's source" "$(jq -r "$P.copy_share_from" est.json)" sampled_traced
# (estimate's JSON gives seconds to 4 decimals: 0.00005 s either way)
check "own CPU and copy time = samples / hz" jq -e --slurpfile p p.json "\$p[0].meta.copy_share as \$c |
	($P.own_cpu_s - (\$c.copy_samples + \$c.own_samples) / \$c.hz | fabs) <= 0.00006 and
	($P.copy_s - \$c.copy_samples / \$c.hz | fabs) <= 0.00006 and
	$P.copy_share_samples == \$c.copy_samples + \$c.own_samples" est.json
# Without the samples (a profile before them): modelled copies over recorded less traps.
jq 'del(.meta.copy_share)' p.json > unsampled.json
expect_exit 0 "$COPYPROF" estimate -i unsampled.json -m cm.json --threshold "$T" --json
expect_eq "no samples: modelled" "$(jq -r "$P.copy_share_from" out)" modelled
check "own CPU = recorded - traps" jq -e "($P.cpu_s - $P.probe_cpu_s - $P.own_cpu_s | fabs) < 0.001" out
# The share follows the program: copies alone against the same copies beside a loop of awk.
"$COPYPROF" record --uprobe "$impl" -o copies.json -- "$GK" dist=dist.txt calls=20000 > /dev/null 2> c.err ||
	fatal "record failed: $(cat c.err)"
share() { jq '.meta.copy_share | .copy_samples / (.copy_samples + .own_samples)' "$1"; }
echo "# copies' share: alone $(share copies.json), beside awk $(share p.json)"
check "copies alone take a larger share than beside awk's loop" \
	jq -en "$(share copies.json) > 5 * $(share p.json) and $(share p.json) < 0.2"
check "predicted = copy share x copy change" \
	jq -e "($P.copy_share_pct * $P.copy_pct / 100 - $P.predicted_pct | fabs) < 0.001" est.json
check "the commit paragraph carries the figure" \
	jq -e '.inputs[0].families[0].summary | test("For the program: its copy time, sampled while recorded \\([0-9]+ samples, .*\\), is [0-9.]+% of its own CPU time, so .* would change its CPU time by [-+][0-9.]+% \\(95% CI")' est.json
expect_exit 0 "$COPYPROF" estimate -i p.json -m cm.json --threshold "$T"
expect_out "the program: copy time is [0-9.]+% of the program's CPU .* T=$T would change the program's CPU by"

expect_exit 0 "$COPYPROF" verify -i p.json -m cm.json --threshold "$T" --pairs 8 --json -- sh -c "$JOB"
check "over the recording's CPU time: estimate's figure" \
	jq -e --slurpfile e est.json "(.predicted_recording_pct - \$e[0]$P.predicted_pct | fabs) < 0.001" out
# The recorded command itself: its CPU time measured untraced here is the one compared.
expect_eq "the CPU time from" "$(jq -r .predicted_cpu_from out)" "untraced runs"
# ... and the copies' share sampled in those runs A, not in the traced recording.
expect_eq "the share sampled untraced" "$(jq -r .copy_share_from out)" sampled_untraced
check "from the runs' samples" jq -e '.copy_share_samples > 0' out
check "over the untraced runs' CPU time" jq -e '(.program_cpu_s - .cpu_a_s | fabs) < 1e-9 and
	(.copy_share_pct * .copy_pct / 100 - .predicted_pct | fabs) < 0.001' out
check "agree is a boolean, its rule said" jq -e '(.agree | type == "boolean") and (.agree_rule | length > 0)' out
expect_exit 0 "$COPYPROF" verify -i p.json -m cm.json --threshold "$T" --pairs 8 -- sh -c "$JOB"
expect_out "predicted from p.json: copy time is .* measured untraced"
expect_out "over the recording's CPU time instead: "
expect_out "agree: (yes|no) \(the predicted and the measured 95% intervals overlap"
expect_out "T=$T: predicted [-+][0-9.]+% of the program's CPU time .* measured [-+][0-9.]+%"

# T the recorded process ran with: today's row, no change predicted; a T glibc ignores: none.
expect_exit 0 "$COPYPROF" verify -i p.json -m cm.json --threshold "$dflt" --dry-run --json -- true
expect_eq "today's threshold: predicted" "$(jq -c '[.predicted_pct, .predicted_ci_low, .predicted_ci_high]' out)" "[0,0,0]"
expect_exit 1 "$COPYPROF" verify -i p.json -m cm.json --threshold "$min" --dry-run -- true
expect_err "T=$min is none of the estimate's policies"

# A profile without the CPU time (older, merged): said, no figure.
jq 'del(.meta.cpu_s, .meta.probe_cpu_s)' p.json > old.json
expect_exit 0 "$COPYPROF" estimate -i old.json -m cm.json --threshold "$T"
expect_out "the program: not known: the profile holds no CPU time"
expect_exit 0 "$COPYPROF" verify -i old.json -m cm.json --threshold "$T" --dry-run --json -- true
expect_eq "no predicted figure" "$(jq .predicted_pct out)" null
jq 'del(.meta.probe_cpu_s)' p.json > half.json
expect_exit 1 "$COPYPROF" estimate -i half.json -m cm.json
expect_err "\"cpu_s\" and \"probe_cpu_s\" go together"
expect_no_leftover_progs
