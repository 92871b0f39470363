#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0080-agent-prometheus: two agents count their own uprobe workloads with known lengths; a real
# Prometheus (Debian's) scrapes them as two hosts; exact totals per host and fleet-wide through
# the query API; estimate --prometheus against estimate on the merge of both /profile snapshots;
# promtool on a scrape; bad input (port in use, bad address, 404, 405, Prometheus unreachable,
# 4xx, empty result, a series without cpu_model); SIGTERM exits 0 and leaves no program.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd prometheus
need_cmd promtool
cd "$TMP"

PA=$(free_port) PB=$(free_port) PP=$(free_port)
mkdir -p a b
cp "$WL" a/copyload
cp "$WL" b/copyload
# Each host's workload is its own file: a uprobe is per file, so each agent counts its own.
start_agent() { # NAME PORT ARGS...
	local name=$1 port=$2; shift 2
	"$COPYPROF" agent --uprobe "$TMP/$name/copyload:wl_copy" \
		--uprobe "$TMP/$name/copyload:wl_clear,len=arg1" --listen "127.0.0.1:$port" \
		--host "host$name" "$@" 2>"$name.log" &
	pids+=($!)
	wait_for "agent $name" curl -sf "127.0.0.1:$port/metrics"
}
start_agent a "$PA"
start_agent b "$PB"

cat > prom.yml <<YML
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: copyprof
    static_configs: [{ targets: ['127.0.0.1:$PA', '127.0.0.1:$PB'] }]
  - job_name: nocpu
    static_configs: [{ targets: ['127.0.0.1:$PA'] }]
    metric_relabel_configs: [{ action: labeldrop, regex: cpu_model }]
YML
prometheus --config.file=prom.yml --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PP" > prom.log 2>&1 &
pids+=($!)
PROM="http://127.0.0.1:$PP"
wait_for prometheus curl -sf "$PROM/-/ready"
q() { curl -sf "$PROM/api/v1/query" --data-urlencode "query=$1" | jq -r "$2"; }
# q_is QUERY WANT: the query's first value is WANT now (for wait_for, which retries it).
q_is() { [ "$(q "$1" '.data.result[0].value[1]')" = "$2" ]; }

a/copyload copy=100:1000 copy=3000:500 clear=64:7 || fail "workload a"
b/copyload copy=100:2000 copy=5000:300 clear=64:3 || fail "workload b"
# Prometheus has the final counts once a scrape after the workloads is in.
wait_for "the scrapes" q_is 'sum(copyprof_copy_length_bytes_count{job="copyprof"})' 3810

# Exact, per host and fleet-wide.
# The host is named once, in copyprof_agent_info: joined by the target's labels.
perhost() { q "sum by (host) (copyprof_copy_length_bytes_$1{job=\"copyprof\"} * on (instance, job) group_left (host) copyprof_agent_info)" \
	'.data.result | sort_by(.metric.host) | map("\(.metric.host)=\(.value[1])") | join(" ")'; }
expect_eq "calls per host" "$(perhost count)" "hosta=1507 hostb=2303"
expect_eq "bytes per host" "$(perhost sum)" "hosta=1600448 hostb=1700192"
expect_eq "calls below 128 B per host" "$(q 'sum by (host) (copyprof_copy_length_bytes_bucket{job="copyprof",family="memcpy",le="127.0"} * on (instance, job) group_left (host) copyprof_agent_info)' \
	'.data.result | sort_by(.metric.host) | map(.value[1]) | join(" ")')" "1000 2000"
expect_eq "fleet calls of 4 KiB and more" "$(q 'sum(copyprof_copy_length_bytes_count{job="copyprof"}) - sum(copyprof_copy_length_bytes_bucket{job="copyprof",le="4095.0"})' '.data.result[0].value[1]')" 300
expect_eq "fleet bytes below 4 KiB" "$(q 'sum(copyprof_copy_bytes_by_length_bytes_bucket{job="copyprof",le="4095.0"})' '.data.result[0].value[1]')" \
	$((100 * 3000 + 3000 * 500 + 64 * 10))
expect_eq "clear_user calls" "$(q 'sum(copyprof_copy_length_bytes_count{job="copyprof",family="clear_user"})' '.data.result[0].value[1]')" 10

# promtool on a scrape; no kernel or user address anywhere.
curl -sf "127.0.0.1:$PA/metrics" > scrape.om || fail "scrape"
promtool check metrics < scrape.om > lint.txt 2>&1 || fail "promtool: $(cat lint.txt)"
grep -q '^# EOF$' scrape.om || fail "no # EOF"
grep -Eq '0x[0-9a-f]{8,}' scrape.om && fail "an address in /metrics: $(grep -Eo '0x[0-9a-f]{8,}' scrape.om | head -1)"
# The agent's fixed coarse bounds: up to le="65535.0", the 5000 B copies of b and its +Inf.
expect_eq "the bounds of agent a's copies (100 B and 3000 B)" \
	"$(grep '^copyprof_copy_length_bytes_bucket{symbol="wl_copy"' scrape.om | grep -o 'le="[^"]*"' | tr '\n' ' ')" \
	'le="127.0" le="255.0" le="511.0" le="1023.0" le="1535.0" le="2047.0" le="4095.0" le="8191.0" le="16383.0" le="32767.0" le="65535.0" le="+Inf" '
# Prometheus's text 0.0.4 when asked for it (node_exporter's format): the same samples.
curl -sf -D text.head -H 'Accept: text/plain;version=0.0.4' "127.0.0.1:$PA/metrics" > scrape.txt || fail "0.0.4 scrape"
expect_eq "0.0.4's content type" "$(grep -i '^content-type:' text.head | tr -d '\r')" \
	"Content-Type: text/plain; version=0.0.4; charset=utf-8"
promtool check metrics < scrape.txt > lint4.txt 2>&1 || fail "promtool on 0.0.4: $(cat lint4.txt)"
expect_eq "0.0.4: no # EOF, no # UNIT" "$(grep -c '^# EOF\|^# UNIT' scrape.txt)" 0
expect_eq "0.0.4: HELP before TYPE" "$(awk '/^# HELP/ { h = $3 } /^# TYPE/ && $3 != h { bad++ } END { print bad + 0 }' scrape.txt)" 0
samples() { grep '^copyprof_copy_\|^copyprof_site_\|^copyprof_agent_info' "$1" | sort; }
expect_eq "0.0.4: the same histogram and site samples as OpenMetrics" "$(samples scrape.txt | md5sum)" "$(samples scrape.om | md5sum)"
expect_eq "Prometheus's Accept: OpenMetrics" "$(curl -sf -o /dev/null -w '%{content_type}' \
	-H 'Accept: application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' "127.0.0.1:$PA/metrics")" \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

# /profile snapshots merged, and estimate on both ways: the same calls, totals within 0.5%.
curl -sf "127.0.0.1:$PA/profile" > pa.json && curl -sf "127.0.0.1:$PB/profile" > pb.json ||
	fail "/profile"
expect_eq "profile a calls" "$(jq '[.sites[].calls] | add' pa.json)" 1507
jq -e '[.sites[] | .address // 0] | all(. == 0)' pa.json > /dev/null || fail "an address in /profile"
expect_exit 0 "$COPYPROF" merge -o merged.json pa.json pb.json
CM="$ROOT/tests/golden/costmodel-synthetic.json"
# wl_copy and wl_clear are the workload's own C functions: costed as these replicas
# (today's code of a uprobe on unknown code is a fact only --today can give).
TODAY="--today memcpy_orig --today rep_stos_alternative"
expect_exit 0 "$COPYPROF" estimate -i merged.json -m "$CM" --model-only $TODAY --json
cp out est-merge.json
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="copyprof"}' --range 1h \
	-m "$CM" --model-only $TODAY --json
cp out est-prom.json
rows() { jq -r '.inputs[] | .families[] | .family as $f | .policies[] | "\($f) \(.name) \(.total_ns)"' "$1" | sort; }
expect_eq "families and policies" "$(rows est-prom.json | cut -d' ' -f1,2)" "$(rows est-merge.json | cut -d' ' -f1,2)"
expect_eq "calls" "$(jq -c '[.inputs[].families[] | [.family, .calls]]' est-prom.json)" \
	"$(jq -c '[.inputs[].families[] | [.family, .calls]]' est-merge.json)"
paste -d' ' <(rows est-prom.json) <(rows est-merge.json) | awk '
	{ d = $3 - $6; if (d < 0) d = -d; if ($6 > 0 && d / $6 > 0.005) { print; bad = 1 } }
	END { exit bad }' > off.txt || fail "estimate --prometheus differs by more than 0.5%: $(cat off.txt)"

# A folder of models: each CPU takes its own; a CPU without one is left out, with a warning.
cpu=$(jq -r .meta.cpu_model pa.json)
mkdir models
jq --arg c "$cpu" '.meta.cpu_model = $c' "$CM" > models/here.json
cp "$CM" models/other.json
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="copyprof"}' -m models \
	--model-only $TODAY --json
expect_eq "model picked by cpu_model" "$(jq -r '.inputs[0].cost_model.file' out | sed 's|.*/||')" "here.json"
expect_eq "one input (one CPU here)" "$(jq '.inputs | length' out)" 1

# Bad input, each with its message.
expect_exit 1 "$COPYPROF" estimate --prometheus "http://127.0.0.1:$(free_port)" -m "$CM"
expect_err "cannot query Prometheus at"
expect_exit 2 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job=}' -m "$CM"
expect_err "selector \{job=\}: a quoted value is expected"
expect_exit 1 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job=~"("}' -m "$CM"
expect_err "answered HTTP 400"
# A matcher of the agent's info (cpu_model) picks agents through the join, a site label sites.
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector "{job=\"copyprof\",cpu_model=\"$cpu\",family=\"clear_user\"}" \
	-m "$CM" --no-mix-correction $TODAY --json
expect_eq "calls of the clear_user sites of this CPU" "$(jq -c '[.inputs[].families[] | [.family, .calls]]' out)" '[["clear_user",10]]'
expect_exit 1 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="copyprof",cpu_model="Another CPU"}' -m "$CM"
expect_err "no copyprof histograms match"
expect_exit 1 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="nothing"}' -m "$CM"
expect_err "no copyprof histograms match"
wait_for "the nocpu job" q_is 'count(copyprof_copy_length_bytes_count{job="nocpu"})' 2
expect_exit 1 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="nocpu"}' -m "$CM"
expect_err "a series without cpu_model"
expect_exit 2 "$COPYPROF" estimate --prometheus "$PROM" --range 1x -m "$CM"
expect_err "Prometheus duration"
expect_exit 1 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PP"
expect_err "another program listens there"
expect_exit 2 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "localhost:1"
expect_err "not a numeric IPv4"
expect_exit 2 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "0.0.0.0:$(free_port)"
expect_err "needs TLS and a password"
expect_eq "unknown path" "$(curl -s -o /dev/null -w '%{http_code}' "127.0.0.1:$PA/nope")" 404
expect_eq "POST" "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "127.0.0.1:$PA/metrics")" 405
expect_eq "HEAD" "$(curl -sI -o /dev/null -w '%{http_code}' "127.0.0.1:$PA/metrics")" 200
# A scraper that goes away mid-response does not stop the agent.
curl -s --max-filesize 100 "127.0.0.1:$PA/profile" > /dev/null
curl -sf "127.0.0.1:$PA/metrics" > /dev/null || fail "the agent stopped answering"

# SIGTERM: every probe detached, exit 0.
kill -TERM "${pids[0]}"
wait "${pids[0]}"
expect_eq "agent a's exit on SIGTERM" "$?" 0
grep -q "detaching every probe" a.log || fail "no detach message: $(cat a.log)"
kill -TERM "${pids[1]}"
wait "${pids[1]}"
expect_no_leftover_progs
