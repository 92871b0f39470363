#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0045-sample-who: who copies. One sampled recording of two processes (zr-one, zr-two: the
# zeroread workload under two names) keeps comm and pid per stack; report --sort comm and
# --sort pid split the samples exactly as the profile's tasks hold them, with the pids the
# shell started; --user-stacks adds the workload's own frames (main > zr_outer > zr_inner, kept
# by frame pointers); the flame graph stands each stack on its process (--no-comm: not); an
# older profile without tasks still reads. Counts depend on the machine: sums are exact, and the
# split between the two is checked against the CPU time each really got.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"
ZR="$OUT_DIR/tests/zeroread"
[ -x "$ZR" ] || fail "no $ZR (make builds the workloads)"
cp "$ZR" zr-one && cp "$ZR" zr-two

# Both at once, every task (-a: a command's children are other processes), user stacks too. Both
# read 64 KiB at a time, zr-one four times as often: each copies for the same share of its CPU
# time, so each one's share of the two's copy samples is its share of their CPU time, which each
# prints (the scheduler's count: what it really got, however busy the machine). The check is a
# binomial one at 5 sigma, from the samples this run got; it must be able to tell the two apart
# (a swap moves the share by |1 - 2p|): too few samples for that (a kernel that throttles
# sampling), and the run is made again with four times the reads, up to twice.
sum_comm() { jq --arg c "$2" '[.sites[].tasks[]? | select(.comm == $c) | .samples] | add // 0' "$1"; }
cpu_us() { awk '$NF == "us" { print $(NF - 1) }' "$1"; }
reads=50000
for try in 1 2 3; do
	expect_exit 0 "$COPYPROF" record --sample=4999 -a --user-stacks -o who.json -- sh -c \
		"./zr-one 65536 $((4 * reads)) >one.cpu & echo \$! >one.pid; \
./zr-two 65536 $reads >two.cpu & echo \$! >two.pid; wait"
	one=$(sum_comm who.json zr-one) two=$(sum_comm who.json zr-two)
	c1=$(cpu_us one.cpu) c2=$(cpu_us two.cpu)
	[ -n "$c1" ] && [ -n "$c2" ] || fatal "the workloads did not print their CPU time"
	# VERDICT: "ok", "few" (the check cannot tell a swap) or "off", and the figures.
	verdict=$(awk -v a="$one" -v b="$two" -v c1="$c1" -v c2="$c2" 'BEGIN {
		n = a + b; p = c2 / (c1 + c2); sd = sqrt(n * p * (1 - p))
		d = 5 * sd + 1; gap = n * (1 - 2 * p); gap = gap < 0 ? -gap : gap
		v = (n == 0 || 2 * d >= gap) ? "few" : ((b - n * p > d || n * p - b > d) ? "off" : "ok")
		printf "%s zr-two %d of %d copy samples, expected %.1f (+-%.1f: its CPU time %d of %d us)",
			v, b, n, n * p, d, c2, c1 + c2 }')
	[ "${verdict%% *}" = few ] || break
	echo "# $verdict: too few to tell the two apart, again with four times the reads"
	reads=$((4 * reads))
done
case $verdict in
ok*) pass "each process's copy samples follow its CPU time: ${verdict#ok }" ;;
*) fail "copy samples do not follow CPU time: $verdict, zr-one $one" ;;
esac
total=$(jq '[.sites[].calls] | add' who.json)
expect_eq "every copy sample has a task" "$(jq '[.sites[].tasks[]?.samples] | add' who.json)" "$total"

# report --sort comm: the same split, row for row, and the rows add up to every copy sample.
expect_exit 0 "$COPYPROF" report -i who.json --sort comm --json
cp "$TMP/out" comm.json
expect_eq "zr-one's row" "$(jq '[.sampled[] | select(.comm == "zr-one") | .samples] | add' comm.json)" "$one"
expect_eq "zr-two's row" "$(jq '[.sampled[] | select(.comm == "zr-two") | .samples] | add' comm.json)" "$two"
expect_eq "rows add up" "$(jq '[.sampled[].samples] | add' comm.json)" "$total"
expect_eq "samples" "$(jq .samples comm.json)" "$total"
jq -e --argjson t "$total" '[.sampled[].samples] | . == (sort | reverse)' comm.json >/dev/null ||
	fail "rows are not most first"
expect_exit 0 "$COPYPROF" report -i who.json --sort comm
expect_out "^copy-family samples by comm \($(commas "$total") samples\):$"
expect_out "^ +$(commas "$one") +[0-9.]+% zr-one$"
expect_out "^ +$(commas "$two") +[0-9.]+% zr-two$"

# --sort pid: the processes the shell started, by their pids.
expect_exit 0 "$COPYPROF" report -i who.json --sort pid --json
for w in one two; do
	pid=$(cat $w.pid)
	# A pid is its program's from exec on; a sample between fork and exec (the shell's child
	# setting up, execve copying the arguments) carries the shell's name: a few, never more.
	expect_eq "zr-$w's pid" "$(jq -r --argjson p "$pid" '[.sampled[] | select(.pid == $p and .comm != "sh") | .comm] | unique | join(",")' "$TMP/out")" "zr-$w"
	jq -e --argjson p "$pid" '([.sampled[] | select(.pid == $p and .comm == "sh") | .samples] | add // 0) * 20 <=
		([.sampled[] | select(.pid == $p) | .samples] | add)' "$TMP/out" > /dev/null ||
		fail "zr-$w's pid: more than 5% of its samples before its exec: $(jq -c --argjson p "$pid" '[.sampled[] | select(.pid == $p)]' "$TMP/out")"
	expect_eq "zr-$w's pid samples" "$(jq --argjson p "$pid" '[.sampled[] | select(.pid == $p) | .samples] | add' "$TMP/out")" \
		"$(jq --argjson p "$pid" '[.sites[].tasks[]? | select(.pid == $p) | .samples] | add' who.json)"
done
# Both read /dev/zero: read_zero's samples are theirs (and any other reader's), split by pid.
expect_exit 0 "$COPYPROF" report -i who.json --sort site,comm --json
site_sum=$(jq '[.sites[] | select(.symbol == "read_zero") | .calls] | add' who.json)
expect_eq "read_zero split by comm" "$(jq '[.sampled[] | select(.site | test("read_zero")) | .samples] | add' "$TMP/out")" "$site_sum"

# --user-stacks: every read_zero stack of zr-one has the workload's frames, root to leaf.
jq -r '.sites[].tasks[]? | select(.comm == "zr-one") | .stacks[] | select(test(";read_zero;"))' \
	who.json >one.stacks
[ -s one.stacks ] || fail "zr-one has no read_zero stack"
grep -v ';main;zr_outer;zr_inner;entry_SYSCALL_64' one.stacks >bad.stacks &&
	fail "zr-one stacks without its user frames: $(head -n 3 bad.stacks)"
# ... and without it, a stack starts in the kernel.
expect_exit 0 "$COPYPROF" record --sample=4999 -o kernel.json -- ./zr-one 65536 100000
jq -r '.sites[].tasks[]?.stacks[]' kernel.json | grep -q 'zr_inner' &&
	fail "user frames without --user-stacks"
# The command's own task; before its exec the child is copyprof's (waiting to be let go), which
# a sample can catch once or twice, never more than a few.
expect_eq "-- CMD: its own task" "$(jq -r '[.sites[].tasks[]? | select(.comm != "copyprof") | .comm] | unique | join(",")' kernel.json)" zr-one
jq -e '([.sites[].tasks[]? | select(.comm == "copyprof") | .samples] | add // 0) * 20 <=
	([.sites[].tasks[]?.samples] | add)' kernel.json > /dev/null ||
	fail "-- CMD: more than 5% of the samples before the exec: $(jq -c '[.sites[].tasks[]? | {comm, pid, samples}]' kernel.json)"

# The flame graph: each stack on its process's name; --no-comm draws the stacks alone.
frame_weight() {	# SVG NAME: the samples of the root's child NAME
	xmllint --xpath "string(//*[local-name()='g'][@class='f']/*[local-name()='title'][starts-with(., '$2
')])" "$1" | sed -n '2s/ samples.*//p'
}
expect_exit 0 "$COPYPROF" flamegraph -i who.json -o who.svg
expect_eq "zr-one's root frame" "$(frame_weight who.svg zr-one)" "$one"
expect_exit 0 "$COPYPROF" flamegraph -i who.json --no-comm -o nocomm.svg
expect_eq "--no-comm: no process frame" "$(frame_weight nocomm.svg zr-one)" ""

# merge keeps tasks apart and sums each; a profile from before tasks still reads.
expect_exit 0 "$COPYPROF" merge who.json who.json -o twice.json
expect_eq "merged zr-one" "$(sum_comm twice.json zr-one)" $((2 * one))
jq 'del(.sites[].tasks)' who.json >old.json
expect_exit 0 "$COPYPROF" report -i old.json --sort comm --json
expect_eq "no tasks: all unknown" "$(jq -c '[.sampled[] | [.comm, .samples]]' "$TMP/out")" "[[\"[unknown]\",$total]]"
expect_exit 0 "$COPYPROF" flamegraph -i old.json -o old.svg
expect_eq "no tasks: no process frame" "$(frame_weight old.svg zr-one)" ""
# A counted profile has no process per call: refused, with why (exit 1).
expect_exit 1 "$COPYPROF" report -i "$ROOT/tests/golden/profile-synthetic.json" --sort comm
expect_err "--sort comm needs a sampled profile"
expect_exit 2 "$COPYPROF" report -i who.json --sort colour
expect_err "'colour' is not a key"
expect_exit 2 "$COPYPROF" record --user-stacks --uprobe "$WL:wl_copy" -d 1
expect_err "--user-stacks go with --sample"
expect_no_leftover_progs
exit 0
