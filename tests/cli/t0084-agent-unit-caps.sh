#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0084-agent-unit-caps: the agent under exactly the capabilities examples/fleet's systemd unit
# gives it (read from the unit: CapabilityBoundingSet= and AmbientCapabilities=, through
# setpriv; the DaemonSet's are the same), once as root as the unit runs it and once as nobody: it attaches a uprobe (a
# uprobe_multi link: a perf-event uprobe would want CAP_SYS_ADMIN), serves exact counts, keeps
# no more than the unit's capabilities after the drop, samples with --sample, and ends on SIGTERM.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd setpriv
cd "$TMP"
UNIT="$ROOT/examples/fleet/copyprof-agent.service"
pid=
stop_agent() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid"; pid=; }
exit_hooks+=('stop_agent')
# "CAP_BPF CAP_PERFMON" -> "+bpf,+perfmon", setpriv's spelling.
setpriv_caps() { echo "$1" | tr ' ' '\n' | sed -n 's/^CAP_\(.*\)$/+\L\1/p' | paste -sd, -; }
bounding=$(sed -n 's/^CapabilityBoundingSet=//p' "$UNIT")
ambient=$(sed -n 's/^AmbientCapabilities=//p' "$UNIT")
[ -n "$bounding" ] && [ -n "$ambient" ] || fail "the unit names no capabilities"
expect_eq "the unit's bounding and ambient sets" "$bounding" "$ambient"
# The DaemonSet beside the unit asks for the same set (tested here through the unit's).
if python3 -c 'import yaml' 2>/dev/null; then
	ds=$(python3 -c '
import sys, yaml
c = yaml.safe_load(open(sys.argv[1]))["spec"]["template"]["spec"]["containers"][0]
print(" ".join("CAP_" + x for x in c["securityContext"]["capabilities"]["add"]))' \
		"$ROOT/examples/fleet/copyprof-agent-daemonset.yaml") || fail "cannot read the DaemonSet"
	expect_eq "the DaemonSet's capabilities" "$ds" "$ambient"
else
	echo "note: no python3-yaml: the DaemonSet's set is not compared (t0082 skips too)"
fi
grep -q '^NoNewPrivileges=yes$' "$UNIT" || fail "the unit lost NoNewPrivileges=yes"
CAPS=$(setpriv_caps "$ambient")
# The capability mask of the unit's set, as /proc/PID/status shows it.
mask=$(python3 -c '
import sys
names = {"CAP_SYSLOG": 34, "CAP_SYS_ADMIN": 21, "CAP_PERFMON": 38, "CAP_BPF": 39}
print("%016x" % sum(1 << names[c] for c in sys.argv[1].split()))' "$ambient")
UNIT_PRIVS=(setpriv "--bounding-set=-all,$CAPS" "--inh-caps=-all,$CAPS" "--ambient-caps=-all,$CAPS" --no-new-privs)

chmod 755 "$TMP"
cp "$WL" copyload
cp "$(command -v dd)" ddcaps84
run_as() {	# WHO SETPRIV-ARGS...: the agent under the unit's set; checks counts and caps
	local who=$1; shift
	local P; P=$(free_port)
	"$@" -- "$COPYPROF" agent --uprobe "$TMP/copyload:wl_copy" --listen "127.0.0.1:$P" \
		--replan 0 2> "agent-$who.log" &
	pid=$!
	U=127.0.0.1:$P
	wait_for "the agent as $who" curl -sf "$U/metrics"
	grep -q "1 of 1 site(s) attached" "agent-$who.log" || fail "$who: not attached: $(cat "agent-$who.log")"
	./copyload copy=200:77 || fail workload
	expect_eq "$who: calls" "$(curl -sf "$U/metrics" | awk '/^copyprof_copy_length_bytes_count/ { print $NF }')" 77
	expect_eq "$who: bytes" "$(curl -sf "$U/profile" | jq '.sites[0].bytes')" 15400
	# After the drop: the unit's set at most, in every set; nothing ambient.
	for set in CapEff CapPrm CapBnd; do
		have=$(awk -v s="$set:" '$1 == s { print $2 }' "/proc/$pid/status")
		[ $((16#$have & ~16#$mask)) -eq 0 ] ||
			fail "$who: $set $have holds more than the unit's $mask"
	done
	expect_eq "$who: CapAmb" "$(awk '$1 == "CapAmb:" { print $2 }' "/proc/$pid/status")" 0000000000000000
	grep -q "dropped every capability but CAP_BPF, CAP_PERFMON, CAP_SYSLOG$" "agent-$who.log" ||
		fail "$who: no drop line: $(cat "agent-$who.log")"
	stop_agent
	expect_no_leftover_progs
}
run_as root "${UNIT_PRIVS[@]}"
run_as nobody "${UNIT_PRIVS[@]}" --reuid=nobody --regid=nogroup --clear-groups

# Sampling under the same set, as nobody.
P=$(free_port)
"${UNIT_PRIVS[@]}" --reuid=nobody --regid=nogroup --clear-groups -- "$COPYPROF" agent --sample \
	--comm ddcaps84 --listen "127.0.0.1:$P" 2> sample.log &
pid=$!
U=127.0.0.1:$P
wait_for "the sampling agent" curl -sf "$U/metrics"
./ddcaps84 if=/dev/zero of=/dev/null bs=1M count=3000 2> /dev/null
some() { [ "$(curl -sf "$U/profile" | jq '[.sites[] | select(.symbol == "read_zero" or .symbol == "iov_iter_zero") | .calls] | add // 0')" -gt 0 ]; }
# Until dd's clear_user path has been sampled (one more dd each time: no timing).
more_dd() { ./ddcaps84 if=/dev/zero of=/dev/null bs=1M count=300 2> /dev/null; some; }
wait_for "read_zero samples" more_dd
grep -q "dropped every capability but CAP_BPF, CAP_PERFMON, CAP_SYSLOG$" sample.log ||
	fail "sampling: no drop line: $(cat sample.log)"
stop_agent
expect_no_leftover_progs
exit 0
