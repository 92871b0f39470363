#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0082-fleet-examples: examples/fleet's Prometheus config and recording rules pass promtool,
# and the systemd unit gives the agent no capability beyond CAP_BPF, CAP_PERFMON, CAP_SYSLOG.
. "$(dirname "$0")/lib.sh"
need_cmd promtool
F="$ROOT/examples/fleet"
promtool check config "$F/prometheus.yml" > "$TMP/out" 2>&1 || fail "promtool config: $(cat "$TMP/out")"
promtool check rules "$F/copyprof-rules.yml" > "$TMP/out" 2>&1 || fail "promtool rules: $(cat "$TMP/out")"
expect_eq "bounding set" "$(sed -n 's/^CapabilityBoundingSet=//p' "$F/copyprof-agent.service")" \
	"CAP_BPF CAP_PERFMON CAP_SYSLOG"
grep -q '^Restart=on-failure$' "$F/copyprof-agent.service" || fail "the unit does not restart on failure"
if command -v systemd-analyze >/dev/null; then
	sed "s|/usr/local/bin/copyprof|$COPYPROF|" "$F/copyprof-agent.service" > "$TMP/copyprof-agent.service"
	systemd-analyze verify "$TMP/copyprof-agent.service" > "$TMP/out" 2>&1 ||
		fail "systemd-analyze: $(cat "$TMP/out")"
fi
