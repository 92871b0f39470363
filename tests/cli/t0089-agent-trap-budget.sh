#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0089-agent-trap-budget: the budget sees what the traced program pays. A uprobe on a hot
# function (cheap BPF, many hits) goes over --max-overhead 5% through the traps mostly: the
# agent moves it to sampling and its log line shows the traps over the budget, BPF under it.
# A scrape exposes each site's estimated cost to the traced processes, which is its hits times
# the measured cost of a hit; and the traced program's measured slowdown (its CPU time, probed
# against an unprobed copy, interleaved) agrees with that estimate within 2x. CPU time, not
# wall time, and the best of up to five tries: a loaded machine slows both runs alike, and
# nothing here waits for a deadline.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
TIME=/usr/bin/time
[ -x "$TIME" ] || skip "needs GNU time (make deps installs it)"
cd "$TMP"
metric() { curl -sf "$1/metrics" | awk -v m="$2" '$1 == m || index($1, m "{") == 1 { print $NF; exit }'; }
metric_is() { [ "$(metric "$1" "$2")" = "$3" ]; }

# 1. Over the budget through the traps alone: the site moves to sampling.
mkdir h
cp "$WL" h/copyload
PH=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/h/copyload:wl_copy" --listen "127.0.0.1:$PH" --max-overhead 5 \
	2> budget.log &
pids+=($!)
H=127.0.0.1:$PH
wait_for "the budget agent" curl -sf "$H/metrics"
grep -q "a uprobe hit costs the traced thread .* us here" budget.log || fail "no trap cost measured: $(cat budget.log)"
hot() { h/copyload copy=8:100000 > /dev/null; metric_is "$H" 'copyprof_agent_sites{state="sampled"}' 1; }
wait_for "the budget to act on the hot site" hot
line=$(grep "wl_copy|0 moved to sampling of its function" budget.log) || fail "no budget line: $(cat budget.log)"
echo "$line"
traps=$(sed -E 's/.*traced processes. traps ([0-9.]+)%.*/\1/' <<<"$line")
bpf=$(sed -E 's/.*, BPF ([0-9.]+)% .*/\1/' <<<"$line")
agent=$(sed -E 's/.*, the agent ([0-9.]+)%.*/\1/' <<<"$line")
# The traps carry it over: most of the cost, BPF under the budget. (Not "the traps alone over
# 5%": on a loaded host the agent's own share, 0.77% in one run, tipped 4.89% of traps over.)
awk -v t="$traps" -v b="$bpf" -v a="$agent" 'BEGIN { exit !(t + b + a > 5 && t > b + a && b < 5) }' ||
	fail "not the traps: traps $traps%, BPF $bpf%, the agent $agent% against 5%"
expect_eq "budget actions" "$(metric "$H" copyprof_agent_budget_actions)" 1

# 2. The estimate in a scrape, and the traced program's slowdown against it.
mkdir a b
cp "$WL" a/copyload
cp "$WL" b/copyload
PA=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PA" --max-overhead 0 \
	2> est.log &
pids+=($!)
A=127.0.0.1:$PA
wait_for "the estimating agent" curl -sf "$A/metrics"
N=100000
cpu() { "$TIME" -f '%U %S' "$@" 2>&1 > /dev/null | awk 'END { print $1 + $2 }'; }
site='copyprof_agent_site_traced_cost_seconds{symbol="wl_copy"'
site_cost() { curl -sf "$A/metrics" | awk -v s="$site" 'index($0, s) == 1 { print $NF }'; }
# The window's hits are priced when the budget's 2 s window closes: waited for.
priced() { awk -v c="$(site_cost)" -v w="$1" 'BEGIN { exit !(c >= w) }'; }
agreed=0
for try in 1 2 3 4 5; do
	c0=$(site_cost)
	probed=$(cpu a/copyload copy=8:$N)
	unprobed=$(cpu b/copyload copy=8:$N)
	hit=$(metric "$A" copyprof_agent_trap_cost_seconds)
	wait_for "the estimate to take the $N hits in" priced "$(awk -v c="$c0" -v n="$N" -v h="$hit" 'BEGIN { printf "%.9f", c + 0.99 * n * h }')"
	c1=$(site_cost)
	read -r estimated measured ratio exact < <(awk -v p="$probed" -v u="$unprobed" -v h="$hit" \
		-v c0="$c0" -v c1="$c1" -v n="$N" 'BEGIN {
		m = (p - u) / n; e = (c1 - c0) / n
		r = (e > 0) ? m / e : 0
		x = (e > 0 && (e - h) / h < 0.01 && (h - e) / h < 0.01) ? 1 : 0
		printf "%.3g %.3g %.3f %d\n", e * 1e6, m * 1e6, r, x }')
	echo "try $try: $N hits, probed ${probed}s, unprobed ${unprobed}s of CPU: measured $measured us a hit, estimated $estimated us (trap cost $hit s), ratio $ratio"
	[ "$exact" = 1 ] || fail "the site's estimated cost grew by $(awk -v a="$c0" -v b="$c1" 'BEGIN { print b - a }') s, not $N x $hit"
	if awk -v r="$ratio" 'BEGIN { exit !(r >= 0.5 && r <= 2) }'; then
		agreed=1
		break
	fi
done
[ "$agreed" = 1 ] || fail "the measured slowdown never agreed with the estimate within 2x in 5 tries"

for p in "${pids[@]}"; do kill -TERM "$p"; wait "$p" || fail "an agent exited $? on SIGTERM"; done
pids=()
expect_no_leftover_progs
