#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0082-fleet-examples: examples/fleet's Prometheus config and recording rules pass promtool,
# the systemd unit gives the agent no capability beyond CAP_BPF, CAP_PERFMON, CAP_SYSLOG, and the
# DaemonSet is a DaemonSet with the unit's capabilities, no privilege escalation, and arguments
# copyprof agent takes (they get as far as reading the web config: no usage error).
. "$(dirname "$0")/lib.sh"
need_cmd promtool
python3 -c "import yaml" 2>/dev/null || skip "needs python3-yaml (make deps installs it)"
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
D="$F/copyprof-agent-daemonset.yaml"
python3 - "$D" > "$TMP/ds" 2>&1 <<'PY' || fail "the DaemonSet: $(cat "$TMP/ds")"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["kind"] == "DaemonSet" and d["apiVersion"] == "apps/v1", "not an apps/v1 DaemonSet"
spec = d["spec"]["template"]["spec"]
assert d["spec"]["selector"]["matchLabels"].items() <= d["spec"]["template"]["metadata"]["labels"].items(), "the selector misses the pods"
c = spec["containers"][0]
sc = c["securityContext"]
assert sc["allowPrivilegeEscalation"] is False and not sc.get("privileged"), "privileges may grow"
assert sc["capabilities"]["drop"] == ["ALL"], "not every capability is dropped first"
assert c["resources"]["limits"]["memory"], "no memory limit"
mounts = {m["name"] for m in c["volumeMounts"]}
assert mounts == {v["name"] for v in spec["volumes"]}, "mounts and volumes differ"
print(" ".join("CAP_" + x for x in sc["capabilities"]["add"]))
print("\n".join(c["args"]))
PY
expect_eq "the DaemonSet's capabilities" "$(head -n 1 "$TMP/ds")" "CAP_BPF CAP_PERFMON CAP_SYSLOG"
mapfile -t args < <(tail -n +2 "$TMP/ds" | sed "s|\$(NODE_NAME)|node-1|; s|^/etc/copyprof/web.yml$|$TMP/none/web.yml|")
expect_eq "the DaemonSet runs" "${args[0]}" agent
expect_exit 1 "$COPYPROF" "${args[@]}"
expect_err "--web-config $TMP/none/web.yml: No such file or directory"
