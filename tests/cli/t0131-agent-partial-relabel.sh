#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0131-agent-partial-relabel: a site that the budget moves to sampling says so, and
# estimate --prometheus reads any scrape config. Agent a counts 700 calls of 200 B, then a hot
# loop makes --max-overhead 5% move its site to sampling: /metrics gives the site state sampled
# since T (copyprof_site_state_since_seconds), /profile the same state and T. Agent b counts
# 1,000 + 500 calls and stays counting. A real Prometheus scrapes both twice: job plain as
# they are, job relabelled with a cluster label (static_configs), a host label made from the
# address (relabel_configs; the agents' own host becomes exported_host) and instance dropped
# (metric_relabel_configs). estimate --prometheus on each job: the same calls and costs, and
# agent a's site named partial, with the seconds it counted, in the text and in --json. The
# fleet's mix saved (--save-profile) and measured by calibrate --mix: estimate --prometheus then
# gives the measured verdict that estimate -i gives on the saved profile; the model alone none.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd prometheus
cd "$TMP"
metric() { curl -sf "$1/metrics" | awk -v m="$2" '$1 == m || index($1, m "{") == 1 { print $NF; exit }'; }
metric_is() { [ "$(metric "$1" "$2")" = "$3" ]; }

PA=$(free_port) PB=$(free_port) PP=$(free_port)
mkdir a b
cp "$WL" a/copyload
cp "$WL" b/copyload
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PA" --max-overhead 5 \
	--host hosta 2> a.log &
pids+=($!)
"$COPYPROF" agent --uprobe "$TMP/b/copyload:wl_copy" --listen "127.0.0.1:$PB" --max-overhead 0 \
	--host hostb 2> b.log &
pids+=($!)
A=127.0.0.1:$PA B=127.0.0.1:$PB
wait_for "agent a" curl -sf "$A/metrics"
wait_for "agent b" curl -sf "$B/metrics"

cat > prom.yml <<YML
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: plain
    static_configs: [{ targets: ['$A', '$B'] }]
  - job_name: relabelled
    static_configs: [{ targets: ['$A', '$B'], labels: { cluster: eu-1 } }]
    relabel_configs: [{ source_labels: [__address__], target_label: host }]
    metric_relabel_configs: [{ action: labeldrop, regex: instance }]
YML
prometheus --config.file=prom.yml --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PP" > prom.log 2>&1 &
pids+=($!)
PROM="http://127.0.0.1:$PP"
wait_for prometheus curl -sf "$PROM/-/ready"
q() { curl -sf "$PROM/api/v1/query" --data-urlencode "query=$1" | jq -r "$2"; }
q_is() { [ "$(q "$1" '.data.result[0].value[1]')" = "$2" ]; }
jq_true() { jq -e "$@" > /dev/null; }

# 1. Counting, then sampled.
state() { curl -sf "$1/metrics" | awk '/^copyprof_site_state_since_seconds\{/ { match($0, /state="[a-z]*"/); print substr($0, RSTART + 7, RLENGTH - 8), $NF }'; }
read -r st counting_since < <(state "$A")
expect_eq "agent a's site state before the budget acts" "$st" counting
a/copyload copy=200:700 > /dev/null || fail "workload a"
b/copyload copy=100:1000 copy=3000:500 > /dev/null || fail "workload b"
wait_for "700 calls in Prometheus" q_is 'sum(copyprof_copy_length_bytes_count{job="plain",target=~".*/a/copyload"})' 700
hot() { a/copyload copy=8:100000 > /dev/null; metric_is "$A" 'copyprof_agent_sites{state="sampled"}' 1; }
wait_for "the budget to move agent a's site to sampling" hot
read -r st sampled_since < <(state "$A")
expect_eq "agent a's site state after" "$st" sampled
awk -v a="$counting_since" -v b="$sampled_since" 'BEGIN { exit !(b > a) }' ||
	fail "sampled since $sampled_since, not after counting since $counting_since"
curl -sf "$A/profile" > pa.json || fail "/profile of a"
expect_eq "/profile: the site's state and since" \
	"$(jq -r '.sites[] | select(.symbol == "wl_copy" and .mechanism == "uprobe") | "\(.state) \(.state_since)"' pa.json)" \
	"sampled $(jq -n "$sampled_since")"
frozen=$(jq '.sites[] | select(.symbol == "wl_copy" and .mechanism == "uprobe") | .calls' pa.json)
a/copyload copy=200:300 > /dev/null # not counted any more
curl -sf "$A/profile" > pa2.json
expect_eq "a sampled site's calls stay frozen" \
	"$(jq '.sites[] | select(.symbol == "wl_copy" and .mechanism == "uprobe") | .calls' pa2.json)" "$frozen"
read -r st since_b < <(state "$B")
expect_eq "agent b's site state" "$st" counting
expect_eq "agent b: no site sampled" "$(metric "$B" 'copyprof_agent_sites{state="sampled"}')" 0

# 2. Prometheus holds the final counts and states under both jobs.
for job in plain relabelled; do
	wait_for "job $job's counts" q_is "sum(copyprof_copy_length_bytes_count{job=\"$job\"})" $((frozen + 1500))
	wait_for "job $job's states" q_is "count(copyprof_site_state_since_seconds{job=\"$job\",state=\"sampled\"})" 1
done
expect_eq "relabelled: the agents' host is exported_host" \
	"$(q 'copyprof_agent_info{job="relabelled"}' '[.data.result[] | "\(.metric.host)=\(.metric.exported_host)"] | sort | join(" ")')" \
	"$(printf '%s\n' "$A=hosta" "$B=hostb" | sort | paste -sd' ')"
expect_eq "relabelled: cluster on every series, no instance" \
	"$(q 'count(copyprof_copy_length_bytes_count{job="relabelled",cluster="eu-1",instance=""})' '.data.result[0].value[1]')" 2

# 3. estimate --prometheus on each job: the same answer, and the partial site named.
CM="$ROOT/tests/golden/costmodel-synthetic.json"
TODAY="--today memcpy_orig"
for job in plain relabelled; do
	expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector "{job=\"$job\"}" --range 1h \
		-m "$CM" --model-only $TODAY --json --save-profile "fleet-$job.json"
	cp out "est-$job.json"
	cp err "est-$job.err"
	expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector "{job=\"$job\"}" --range 1h \
		-m "$CM" --model-only $TODAY
	cp err "est-$job.txt.err"
done
rows() { jq -c '[.inputs[] | .families[] | [.family, .calls, [.policies[] | [.name, .total_ns]]]]' "$1"; }
expect_eq "calls of the fleet (plain)" "$(jq '[.inputs[].families[].calls] | add' est-plain.json)" $((frozen + 1500))
expect_eq "relabelled: the same families, calls and costs as plain" "$(rows est-relabelled.json)" "$(rows est-plain.json)"
expect_eq "the agents' own hosts, plain" "$(jq -c '[.groups[].hosts[]]' fleet-plain.json)" '["hosta","hostb"]'
expect_eq "the agents' own hosts, relabelled" "$(jq -c '[.groups[].hosts[]]' fleet-relabelled.json)" '["hosta","hostb"]'
expect_eq "relabelled: the same fleet profile as plain" "$(jq -cS 'del(.meta)' fleet-relabelled.json)" \
	"$(jq -cS 'del(.meta)' fleet-plain.json)"
want_counted=$(awk -v a="$counting_since" -v b="$sampled_since" 'BEGIN { printf "%.0f", b - a }')
for job in plain relabelled; do
	f=est-$job.json
	expect_eq "$job: one partial site" "$(jq '.partial_sites | length' "$f")" 1
	expect_eq "$job: it is agent a's wl_copy, sampled" \
		"$(jq -r '.partial_sites[0] | "\(.site.symbol) \(.site.target) \(.state)"' "$f")" "wl_copy $TMP/a/copyload sampled"
	expect_eq "$job: sampled since" "$(jq '.partial_sites[0].since' "$f")" "$(jq -n "$sampled_since")"
	check "$job: counted $(jq '.partial_sites[0].counted_s' "$f") s = sampled since - counting since" \
		jq_true --argjson c "$counting_since" --argjson s "$sampled_since" \
		'.partial_sites[0] | (.counted_s - ($s - $c)) | fabs < 0.01' "$f"
	expect_eq "$job: of a range of 1h" "$(jq '.partial_sites[0].range_s' "$f")" 3600
	check "$job: the text run warns: $(grep -o 'site .*partial' "est-$job.txt.err" | cut -c 1-160)" \
		grep -q "site .*\"symbol\":\"wl_copy\".* counted $want_counted s of the last 1h (sampled since .*): its calls are partial" "est-$job.txt.err"
done
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector "{job=\"plain\",target=~\".*/b/copyload\"}" \
	--range 1h -m "$CM" --model-only $TODAY --json
expect_eq "agent b's site alone: no partial site" "$(jq '.partial_sites | length' out)" 0

# 4. The fleet's answer measured: the saved profile's mix replayed on this machine (calibrate
# --mix), then estimate --prometheus with that measurement: a measured verdict for the fleet,
# the one estimate -i gives on the saved profile. Without it (the model alone): no verdict.
"$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,erms_threshold --cache warm -o cm.json \
	> /dev/null 2> err.txt || fatal "calibrate --quick: $(cat err.txt)"
expect_exit 0 "$COPYPROF" calibrate -i cm.json --mix fleet-plain.json $TODAY --mix-cache warm \
	--mix-budget 1 -o measured.json
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="plain"}' --range 1h \
	-m measured.json $TODAY --json
cp out fleet-measured.json
expect_eq "the fleet, measured: every family's mix measured" \
	"$(jq -c '[.inputs[].families[] | .measurement.applied]' fleet-measured.json)" '[true]'
check "the fleet, measured: a verdict ($(jq -r '.inputs[0].families[0].verdict.kind' fleet-measured.json))" \
	jq_true '.inputs[0].families[0].verdict.kind | IN("saves", "keep_today", "no_difference", "depends")' fleet-measured.json
expect_exit 0 "$COPYPROF" estimate -i fleet-plain.json -m measured.json $TODAY --json
expect_eq "the same measured answer as estimate -i on the saved profile" \
	"$(jq -c '[.inputs[].families[] | [.mix_digest, .verdict.kind, .verdict.policy, [.measurement.policies[] | [.name, .quiet.delta_pct]]]]' out)" \
	"$(jq -c '[.inputs[].families[] | [.mix_digest, .verdict.kind, .verdict.policy, [.measurement.policies[] | [.name, .quiet.delta_pct]]]]' fleet-measured.json)"
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="plain"}' --range 1h -m cm.json $TODAY --json
expect_eq "the fleet, the model alone: no verdict" "$(jq -c '[.inputs[].families[] | .verdict.kind]' out)" '["not_measured"]'

for p in "${pids[@]}"; do kill -TERM "$p"; wait "$p" || fail "a server exited $? on SIGTERM"; done
pids=()
expect_no_leftover_progs
