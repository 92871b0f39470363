#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# startup.sh: from a tool's launch to the first traced call it counts, copyprof record against
# bpftrace's `@ = hist(arg2)`, interleaved in one run. The workload (copyload paced=) calls
# wl_copy every 50 us and keeps the time of each call, so the first call a tool counted is known
# from its count: a tool attached to a running workload that counted C of its N calls counted
# calls N-C+1 to N (the tool is stopped only after the workload ends). Two ways of starting:
#   attach:  the workload runs; the tool is launched 0.3 s later, system-wide
#   command: the tool starts the workload (record -- CMD, bpftrace -c CMD): its first call
# Tools: copyprof (the trap cost cache warm), copyprof-cold (a new cache file each run:
# nothing cached), bpftrace, and with BEFORE_BUILD the copyprof of another build (e.g. main's).
# Usage: bench/startup.sh [BUILD_DIR [BEFORE_BUILD_DIR]]   (REPS=5 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
BEFORE=${2:-}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof tests/copyload
command -v bpftrace > /dev/null || { echo "bench: needs bpftrace (make deps)"; exit 1; }
command -v jq > /dev/null || { echo "bench: needs jq"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench: needs root (BPF)"; exit 1; }
REPS=${REPS:-5} PERIOD_US=50
N_ATTACH=40000 N_COMMAND=2000
TMP=$(mktemp -d)
tool_pid=
cleanup() {
	[ -n "$tool_pid" ] && kill -INT "$tool_pid" 2> /dev/null && wait "$tool_pid" 2> /dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
# A copy of the workload of this run's own: no other process's calls reach its probes.
cp "$BUILD/tests/copyload" "$TMP/wl"
WL=$TMP/wl
export COPYPROF_TRAP_COST_CACHE=$TMP/warm.json

ns_now() { local t=$EPOCHREALTIME; echo "${t/./}000"; }
# run TOOL [CMD...]: becomes the tool tracing wl_copy, system-wide or starting CMD, its output
# in tool.out; called in a subshell, so that SIGINT reaches the tool itself.
run() {
	local tool=$1 cache=$TMP/warm.json
	shift
	if [ "$tool" = copyprof-cold ]; then
		cache=$TMP/cold.$RANDOM$RANDOM.json
	fi
	exec > "$TMP/tool.out" 2>&1
	case $tool in
	copyprof | copyprof-cold)
		COPYPROF_TRAP_COST_CACHE=$cache exec "$BUILD/copyprof" record --uprobe "$WL:wl_copy" \
			-o "$TMP/p.json" ${1:+--} "$@"
		;;
	before) exec "$BEFORE/copyprof" record --uprobe "$WL:wl_copy" -o "$TMP/p.json" ${1:+--} "$@" ;;
	bpftrace) exec bpftrace -e "uprobe:$WL:wl_copy { @ = hist(arg2); }" ${1:+-c "$*"} ;;
	esac
}
counted() {
	case $1 in
	bpftrace) awk '/^\[/ { s += $3 } END { print s + 0 }' "$TMP/tool.out" ;;
	*) jq '.sites[0].calls' "$TMP/p.json" ;;
	esac
}
# attach TOOL: ms from the launch to the first counted call of a running workload.
attach() {
	local tool=$1 wpid launch n c first
	rm -f "$TMP/p.json" "$TMP/times"
	"$WL" paced=64:$PERIOD_US:$N_ATTACH:"$TMP/times" &
	wpid=$!
	sleep 0.3
	launch=$(ns_now)
	(run "$tool") &
	tool_pid=$!
	wait "$wpid"
	sleep 0.2
	kill -INT "$tool_pid"
	wait "$tool_pid" || true
	tool_pid=
	n=$(wc -l < "$TMP/times")
	c=$(counted "$tool")
	[ "$c" -gt 0 ] && [ "$c" -le "$n" ] ||
		{ echo "bench: $tool counted $c of $n calls: $(tail -n 3 "$TMP/tool.out")" >&2; exit 1; }
	first=$(sed -n "$((n - c + 1))p" "$TMP/times")
	echo $(((first - launch) / 1000))
}

# command TOOL: ms from the launch to the workload's first call, which the tool counts.
command_mode() {
	local tool=$1 launch c first
	rm -f "$TMP/p.json" "$TMP/times"
	launch=$(ns_now)
	(run "$tool" "$WL" "paced=64:$PERIOD_US:$N_COMMAND:$TMP/times")
	c=$(counted "$tool")
	[ "$c" = "$N_COMMAND" ] ||
		{ echo "bench: $tool counted $c of $N_COMMAND calls: $(tail -n 3 "$TMP/tool.out")" >&2; exit 1; }
	first=$(head -n 1 "$TMP/times")
	echo $(((first - launch) / 1000))
}

tools=(copyprof copyprof-cold bpftrace)
[ -n "$BEFORE" ] && tools=(before "${tools[@]}")
# The warm cache: one recording measures and keeps the trap cost.
"$BUILD/copyprof" record --uprobe "$WL:wl_copy" -o /dev/null -- "$WL" copy=64:1 > /dev/null 2>&1
jq -e '.mechanisms[0].mech == "uprobe"' "$TMP/warm.json" > /dev/null ||
	{ echo "bench: the trap cost was not cached in $TMP/warm.json" >&2; exit 1; }
declare -A ms
for ((i = 0; i < REPS; i++)); do
	for tool in "${tools[@]}"; do
		us=$(attach "$tool")
		ms[attach.$tool]+=" $((us / 1000))"
		us=$(command_mode "$tool")
		ms[command.$tool]+=" $((us / 1000))"
	done
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
printf '%-14s %-8s %8s   %s\n' tool mode median "each run (ms from launch to the first counted call)"
for mode in attach command; do
	for tool in "${tools[@]}"; do
		# shellcheck disable=SC2086
		printf '%-14s %-8s %5d ms   %s\n' "$tool" "$mode" "$(median ${ms[$mode.$tool]})" \
			"${ms[$mode.$tool]# }"
	done
done
