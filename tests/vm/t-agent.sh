#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-agent: `copyprof agent -p btrfs` on a real kernel with kprobes (the Debian 6.12 guest, ERMS
# without FSRM). The agent starts before btrfs is loaded, so its first plan has only the
# built-in zstd sites; the periodic re-plan must attach btrfs's module sites once the module is
# loaded and mounted. While a zstd-compressed file is read back, the agent counts at kprobes on
# ZSTD_decompressStream's __memcpy calls: thousands of copies, 4 KiB the top size, served live
# in /metrics (promtool checks it), /profile (report reads it) and pprof, with no kernel
# address anywhere. SIGTERM ends it with exit 0 and no kprobe left. The guest runs the
# dynamically linked build (libmicrohttpd, libcurl), with the host's libraries copied in.
# Usage: tests/vm/t-agent.sh [SERIES...] (default 6.12)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
BIN=${COPYPROF_BIN:-$HERE/../../build/copyprof}
# tests/run.sh hands VM tests the static build; the agent is in the dynamic one beside it.
BIN=${BIN%-static}
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-agent.XXXXXX")
trap 'rm -rf "$work"' EXIT

[[ -x $BIN ]] || { echo "t-agent: build $BIN first" >&2; exit 1; }
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }
# The guest's copy of the agent: the dynamic build, under a name of its own.
cp "$BIN" "$work/copyprof-agent"

test_kernel() {
	local series=$1 out=$work/$1 rc=0 prof m zstd_calls top
	"$HERE/run.sh" --kernel "$series" --disk btrfs-zstd --bin "$work/copyprof-agent" \
		--bin "$HERE/t-agent-guest.sh" --out "$out" --timeout 1500 -- \
		t-agent-guest.sh >"$work/$series.log" 2>&1 || rc=$?
	((rc != 4)) || { echo "skipped: host setup for $series failed"; exit 77; }
	check "$series: guest ran (exit $rc)" test "$rc" -eq 0
	check "$series: the guest script had no trouble ($(cat "$out/guest.err" 2>/dev/null))" \
		test ! -s "$out/guest.err"
	check_eq "$series: btrfs was not loaded when the agent started" \
		"$(cat "$out/btrfs_at_start" 2>/dev/null)" 0
	m=$out/metrics.before
	[[ -s $m && -s $out/metrics.after && -s $out/profile.json ]] ||
		{ tail -n 30 "$work/$series.log"; tail -n 20 "$out/agent.err" 2>/dev/null; failed=$((failed + 1)); return; }
	check "$series: the first plan counts ZSTD_decompressStream at kprobes" \
		grep -q 'symbol="ZSTD_decompressStream",.*mechanism="kprobe"' "$m"
	check "$series: the first plan has no btrfs module site" \
		bash -c "! grep -q 'target=\"btrfs\"' '$m'"
	check "$series: a periodic re-plan attached more sites" \
		grep -q 're-plan (periodic)' "$out/agent.err"
	check "$series: ... and they are btrfs's own" \
		grep -q 'target="btrfs"' "$out/metrics.after"
	prof=$out/profile.json
	zstd_calls=$(jq '[.sites[] | select(.symbol == "ZSTD_decompressStream") | .calls] | add' "$prof")
	check "$series: thousands of ZSTD_decompressStream copies served live ($zstd_calls)" \
		test "$zstd_calls" -ge 2000
	top=$(jq '[.sites[] | select(.symbol == "ZSTD_decompressStream") | .buckets[]] |
		group_by(.lo) | map({lo: .[0].lo, n: (map(.count) | add)}) | max_by(.n) | .lo' "$prof")
	check "$series: 4 KiB is the dominant size (bucket $top)" test "$top" -eq 4096
	# /metrics and /profile agree: the served _count of the busiest site is its profile calls.
	check "$series: /metrics _count = /profile calls for each ZSTD site" python3 - "$out" <<'PY'
import json, re, sys
out = sys.argv[1]
prof = json.load(open(out + "/profile.json"))
counts = {}
for line in open(out + "/metrics.after"):
    # A site of /metrics is its symbol, offset, target and mechanism (no id: docs/fleet.md).
    m = re.match(r'copyprof_copy_length_bytes_count\{symbol="ZSTD_decompressStream",offset="(0x[0-9a-f]+)"[^}]*\} (\d+)', line)
    if m:
        counts[int(m.group(1), 16)] = int(m.group(2))
sites = {s["offset"]: s["calls"] for s in prof["sites"] if s["symbol"] == "ZSTD_decompressStream"}
# The profile was scraped after /metrics: each count can only have grown, by little (idle).
ok = counts and all(k in sites and 0 <= sites[k] - v <= max(10, v // 100) for k, v in counts.items())
sys.exit(0 if ok else 1)
PY
	"$BIN" report -i "$prof" >"$work/report.txt" 2>&1
	check "$series: report reads the served profile" grep -q ZSTD_decompressStream "$work/report.txt"
	if command -v promtool >/dev/null; then
		check "$series: promtool accepts the scrape" \
			bash -c "promtool check metrics < '$out/metrics.after' >/dev/null 2>&1"
	fi
	check "$series: pprof served (gzip)" bash -c "gzip -t '$out/pprof.pb.gz'"
	check "$series: no kernel address in what was served" \
		bash -c "! grep -aEq '0xffff[0-9a-f]{12}|ffffffff[0-9a-f]{8}' '$out/metrics.after' '$prof'"
	check_eq "$series: SIGTERM ends the agent with 0" "$(cat "$out/agent.rc" 2>/dev/null)" 0
	check "$series: no kprobe left ($(head -c 200 "$out/kprobe_events_after" 2>/dev/null))" \
		test ! -s "$out/kprobe_events_after"
	# The budget on kernel sites: the hottest kprobe site detached (a kernel site cannot move
	# to sampling), the sites the read never calls still attached.
	check "$series: over 0.01%, a kernel site is detached ($(grep -m1 'over --max-overhead' "$out/budget.err" 2>/dev/null))" \
		grep -q 'detached (copyprof_agent_site_over_budget)' "$out/budget.err"
	local over actions attached named
	over=$(awk '$1 == "copyprof_agent_sites{state=\"over_budget\"}" { print $2 }' "$out/budget.after" 2>/dev/null)
	actions=$(awk '$1 == "copyprof_agent_budget_actions" { print $2 }' "$out/budget.after" 2>/dev/null)
	attached=$(awk '$1 == "copyprof_agent_sites{state=\"attached\"}" { print $2 }' "$out/budget.after" 2>/dev/null)
	named=$(grep -c '^copyprof_agent_site_over_budget{.*} 1$' "$out/budget.after" 2>/dev/null)
	check "$series: /metrics shows the sites over budget ($over)" test "${over:-0}" -ge 1
	check_eq "$series: one budget action per site over budget" "${actions:-x}" "${over:-y}"
	check_eq "$series: each named in copyprof_agent_site_over_budget" "$named" "${over:-y}"
	check "$series: the sites the read does not call stay attached ($attached)" test "${attached:-0}" -ge 1
	check_eq "$series: the budget agent ends with 0" "$(cat "$out/budget.rc" 2>/dev/null)" 0
	check "$series: no kprobe left after it" test ! -s "$out/kprobe_events_budget"
}

for s in "${@:-6.12}"; do test_kernel "$s"; done
checks_done
