#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0088-agent-native-histograms: a real Prometheus (Debian's, --enable-feature=native-histograms)
# negotiates the protobuf exposition with two agents and stores native histograms, no classic
# buckets; histogram_count per host (joined from copyprof_agent_info) is exact,
# histogram_quantile falls in the bucket the counted lengths put it in, histogram_fraction below
# 4 KiB is exact, and estimate --prometheus reads the native histograms back with the calls of
# estimate on the merge of both agents' /profile and every policy's total within 0.5%. The
# protobuf answer is smaller than the text one, and gzip when asked.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd prometheus
prometheus --help 2>&1 | grep -q 'native-histograms' || skip "this prometheus has no native-histograms feature"
cd "$TMP"

PA=$(free_port) PB=$(free_port) PP=$(free_port)
mkdir -p a b
cp "$WL" a/copyload
cp "$WL" b/copyload
start_agent() { # NAME PORT
	"$COPYPROF" agent --uprobe "$TMP/$1/copyload:wl_copy" \
		--uprobe "$TMP/$1/copyload:wl_clear,len=arg1" --listen "127.0.0.1:$2" \
		--host "host$1" 2>"$1.log" &
	pids+=($!)
	wait_for "agent $1" curl -sf "127.0.0.1:$2/metrics"
}
start_agent a "$PA"
start_agent b "$PB"

# What Prometheus asks for with native histograms on: protobuf, smaller than the text, gzip.
ACCEPT='application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,*/*;q=0.1'
type=$(curl -sf -o pb.bin -w '%{content_type}' -H "Accept: $ACCEPT" "127.0.0.1:$PA/metrics")
expect_eq "protobuf negotiated" "$type" "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited"
curl -sf -o om.txt "127.0.0.1:$PA/metrics" || fail "text scrape"
[ "$(stat -c %s pb.bin)" -lt "$(stat -c %s om.txt)" ] || fail "protobuf $(stat -c %s pb.bin) B is not smaller than text $(stat -c %s om.txt) B"
curl -sf -D gz.head -o gz.bin -H 'Accept-Encoding: gzip' "127.0.0.1:$PA/metrics" || fail "gzip scrape"
grep -qi '^content-encoding: gzip' gz.head || fail "no gzip when asked: $(cat gz.head)"
gzip -dc gz.bin | grep -q '^# EOF$' || fail "the gzip answer is not the exposition"

cat > prom.yml <<YML
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: copyprof
    static_configs: [{ targets: ['127.0.0.1:$PA', '127.0.0.1:$PB'] }]
YML
prometheus --config.file=prom.yml --storage.tsdb.path="$TMP/tsdb" --enable-feature=native-histograms \
	--web.listen-address="127.0.0.1:$PP" > prom.log 2>&1 &
pids+=($!)
PROM="http://127.0.0.1:$PP"
wait_for prometheus curl -sf "$PROM/-/ready"
q() { curl -sf "$PROM/api/v1/query" --data-urlencode "query=$1" | jq -r "$2"; }
q_is() { [ "$(q "$1" '.data.result[0].value[1]')" = "$2" ]; }

a/copyload copy=100:1000 copy=3000:500 clear=64:7 || fail "workload a"
b/copyload copy=100:2000 copy=5000:300 clear=64:3 || fail "workload b"
M=copyprof_copy_length_bytes
wait_for "the scrapes" q_is "sum(histogram_count($M{job=\"copyprof\"}))" 3810

expect_eq "stored as native histograms" "$(q "$M{job=\"copyprof\",symbol=\"wl_copy\"}" '[.data.result[] | has("histogram")] | all')" true
expect_eq "no classic buckets stored" "$(q "count(${M}_bucket)" '.data.result | length')" 0
perhost() { q "sum by (host) (histogram_count($M{job=\"copyprof\"}) * on (instance, job) group_left (host) copyprof_agent_info)" \
	'.data.result | sort_by(.metric.host) | map("\(.metric.host)=\(.value[1])") | join(" ")'; }
expect_eq "calls per host" "$(perhost)" "hosta=1507 hostb=2303"
expect_eq "bytes per host" "$(q "sum by (host) (histogram_sum($M{job=\"copyprof\"}) * on (instance, job) group_left (host) copyprof_agent_info)" \
	'.data.result | sort_by(.metric.host) | map("\(.metric.host)=\(.value[1])") | join(" ")')" "hosta=1600448 hostb=1700192"

# Quantiles over the fleet's wl_copy: 3000 copies of 100 B, 500 of 3000, 300 of 5000. The
# median (the 1900th) is a 100 B copy, in (64, 128]; the 90th percentile (the 3420th) a
# 3000 B one, in (2048, 4096]; the counted buckets say the same.
in_bucket() { # QUANTILE LO HI
	local v
	v=$(q "histogram_quantile($1, sum($M{job=\"copyprof\",symbol=\"wl_copy\"}))" '.data.result[0].value[1]')
	awk -v v="$v" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v > lo && v <= hi) }' ||
		fail "histogram_quantile($1) = $v, not in ($2, $3]"
	echo "histogram_quantile($1) = $v, in ($2, $3] as counted"
}
in_bucket 0.5 64 128
in_bucket 0.9 2048 4096
share=$(q "histogram_fraction(0, 4096, sum($M{job=\"copyprof\",symbol=\"wl_copy\"}))" '.data.result[0].value[1]')
awk -v v="$share" 'BEGIN { d = v - 3500 / 3800; exit !(d < 1e-12 && d > -1e-12) }' ||
	fail "share below 4 KiB: $share, not 3500/3800"

# estimate --prometheus on the native histograms against estimate on the merged snapshots
# (today's code of a uprobe on unknown code is a fact only --today can give).
TODAY="--today memcpy_orig --today rep_stos_alternative"
curl -sf "127.0.0.1:$PA/profile" > pa.json && curl -sf "127.0.0.1:$PB/profile" > pb.json || fail "/profile"
expect_exit 0 "$COPYPROF" merge -o merged.json pa.json pb.json
CM="$ROOT/tests/golden/costmodel-synthetic.json"
expect_exit 0 "$COPYPROF" estimate -i merged.json -m "$CM" --no-mix-correction $TODAY --json
cp out est-merge.json
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="copyprof"}' --range 1h \
	-m "$CM" --no-mix-correction $TODAY --json
cp out est-prom.json
expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="copyprof"}' -m "$CM" --no-mix-correction $TODAY
expect_out "2 hosts, 2 profiles"
rows() { jq -r '.inputs[] | .families[] | .family as $f | .policies[] | "\($f) \(.name) \(.total_ns)"' "$1" | sort; }
expect_eq "families and policies" "$(rows est-prom.json | cut -d' ' -f1,2)" "$(rows est-merge.json | cut -d' ' -f1,2)"
expect_eq "calls" "$(jq -c '[.inputs[].families[] | [.family, .calls]]' est-prom.json)" \
	"$(jq -c '[.inputs[].families[] | [.family, .calls]]' est-merge.json)"
paste -d' ' <(rows est-prom.json) <(rows est-merge.json) | awk '
	{ d = $3 - $6; if (d < 0) d = -d; if ($6 > 0 && d / $6 > 0.005) { print; bad = 1 } }
	END { exit bad }' > off.txt || fail "estimate --prometheus differs by more than 0.5%: $(cat off.txt)"

for p in "${pids[@]}"; do kill -TERM "$p"; wait "$p"; done
pids=()
expect_no_leftover_progs
