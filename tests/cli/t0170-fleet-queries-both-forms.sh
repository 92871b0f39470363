#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0170-fleet-queries-both-forms: docs/fleet.md's PromQL cookbook and examples/fleet's recording
# rules return the counted calls and bytes with classic and with native histograms: one agent
# counts known lengths (on and either side of 2 KiB, 4 KiB, 64 KiB) at three sites; a real
# Prometheus (Debian 12's 2.42, then Debian 13's 2.53 where scripts/prometheus-trixie.sh can
# fetch it) scrapes it with native histograms off, then on (2.53 also with
# scrape_classic_histograms, which keeps no classic bucket of the agent's: its protobuf holds
# native buckets only). Each cookbook query of the form that Prometheus stores,
# as the cookbook writes it, is evaluated over exactly the workload's samples (its range from
# a scrape before the workload to one after) and gives the exact counts; each rule's
# expression does so too, and the rules loaded into the server record their series.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd prometheus
python3 -c "import yaml" 2>/dev/null || skip "needs python3-yaml (make deps installs it)"
DOC="$ROOT/docs/fleet.md"
RULES="$ROOT/examples/fleet/copyprof-rules.yml"
cd "$TMP"

PA=$(free_port)
mkdir -p a b
cp "$WL" a/copyload
cp "$WL" b/copyload
# No budget: a site moved to sampling would not count every call of the later runs.
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --uprobe "$TMP/b/copyload:wl_copy" \
	--uprobe "$TMP/a/copyload:wl_clear,len=arg1" --listen "127.0.0.1:$PA" --host hosta \
	--max-overhead 0 2>agent.log &
pids+=($!)
wait_for agent curl -sf "127.0.0.1:$PA/metrics"
# One call of each length first: every bucket's series is in the scrape the range starts at.
a/copyload copy=0:1 copy=100:1 copy=2047:1 copy=2048:1 copy=70000:1 clear=64:1 || fatal "warm-up a"
b/copyload copy=100:1 copy=4095:1 copy=4096:1 || fatal "warm-up b"
# The counted workload of each run: 3582 memcpy calls (377 of 2 KiB and more, 7 of 64 KiB and
# more) at two sites, 9 clear_user calls of 64 B.
workload() {
	a/copyload copy=0:5 copy=100:1000 copy=2047:200 copy=2048:300 copy=70000:7 clear=64:9 &&
		b/copyload copy=100:2000 copy=4095:40 copy=4096:30
}
BYTES_A=$((100 * 1000 + 2047 * 200 + 2048 * 300 + 70000 * 7)) BYTES_B=$((100 * 2000 + 4095 * 40 + 4096 * 30))
SHARE=$(awk 'BEGIN { printf "%.17g", 1 - 3214 / 3591 }') # 377 of 3591 calls of 2 KiB and more
BELOW_4K=$((100 * 3000 + 2047 * 200 + 2048 * 300 + 4095 * 40 + 64 * 9))

PROM= PROM_PID=
start_prom() { # BINARY CONFIG FLAGS...
	local bin=$1 conf=$2 port
	shift 2
	port=$(free_port)
	rm -rf tsdb
	"$bin" --config.file="$conf" --storage.tsdb.path="$TMP/tsdb" --web.listen-address="127.0.0.1:$port" \
		"$@" > prom.log 2>&1 &
	PROM_PID=$!
	pids+=("$PROM_PID")
	PROM="http://127.0.0.1:$port"
	wait_for "prometheus $*" curl -sf "$PROM/-/ready"
}
stop_prom() {
	kill -TERM "$PROM_PID"
	wait "$PROM_PID"
	pids=("${pids[0]}") # the agent
}
# q QUERY JQ [TIME]: the instant query's answer through jq.
q() { curl -sf "$PROM/api/v1/query" --data-urlencode "query=$1" ${3:+--data-urlencode "time=$3"} | jq -r "$2"; }
q_is() { [ "$(q "$1" '.data.result[0].value[1]')" = "$2" ]; }
has_series() { [ "$(q "$1" '.data.result | length')" -gt 0 ]; }
# The time of the last scrape that brought the calls histograms (a failed one brings none),
# seconds with the milliseconds Prometheus keeps: in $SCRAPE.
last_scrape() {
	SCRAPE=$(q "max(timestamp($1))" '.data.result[0].value[1] // empty')
	[ -n "$SCRAPE" ]
}
near() { # WHAT GOT WANT: equal to 1e-9 of WANT (a rate times its range, a fraction times a count)
	awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 1e-9 * (w < 0 ? -w : w) + 1e-12) }' &&
		pass "$1: $2" || fail "$1: $2, not $3"
}

# One run: Prometheus from the start, a scrape before the workload and one after it; queries
# at the second over a range reaching back exactly to the first (no extrapolation then).
# FORMS: "classic" or "native" (what this Prometheus stores).
run() { # NAME FORMS BINARY CONFIG FLAGS...
	local name=$1 forms=$2 t0 t1 n0 c h r t
	shift 2
	start_prom "$@"
	h=copyprof_copy_length_bytes_count c='sum(copyprof_copy_length_bytes_count)'
	[ "$forms" = native ] && h=copyprof_copy_length_bytes c='sum(histogram_count(copyprof_copy_length_bytes))'
	wait_for "$name: a first scrape" last_scrape "$h"
	t0=$SCRAPE
	n0=$(q "$c" '.data.result[0].value[1]' "$t0")
	workload || fatal "$name: the workload"
	await q_is "$c" $((n0 + 3591)) ||
		fatal "$name: the calls stay at $(q "$c" '.data.result[0].value[1]'), not $n0 + 3591"
	wait_for "$name: a scrape after the workload" last_scrape "$h"
	t1=$SCRAPE
	r=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 + 0.5 }')
	echo "# $name: the workload's scrapes at $t0 and $t1 (${r} ms)"
	# cookbook QUERY JQ WANT: QUERY is in the cookbook; over the run's range it gives WANT.
	cookbook() {
		grep -qF -- "$1" "$DOC" || fail "$name: not in docs/fleet.md's cookbook: $1"
		local e=${1//\[1d\]/[${r}ms]}
		e=${e//\[1h\]/[${r}ms]}
		near "$name: $1" "$(q "$e" "$2" "$t1")" "$3"
	}
	# rule RECORD JQ WANT [SCALE]: the rule's expression over the run's range, times the range
	# in seconds for a rate, gives WANT; the loaded rule records the series.
	rule() {
		local e
		e=$(python3 -c 'import sys, yaml
for g in yaml.safe_load(open(sys.argv[1]))["groups"]:
	for r in g["rules"]:
		if r.get("record") == sys.argv[2]: print(r["expr"])' "$RULES" "$1")
		[ -n "$e" ] || { fail "$name: no rule records $1"; return; }
		e=${e//\[5m\]/[${r}ms]}
		t=$(q "$e" "$2" "$t1")
		[ -n "${4:-}" ] && t=$(awk -v v="$t" -v s="$r" 'BEGIN { printf "%.17g", v * s / 1000 }')
		near "$name: rule $1 ($2)" "$t" "$3"
		await has_series "$1" && pass "$name: the server records $1" ||
			fail "$name: the server records no $1"
	}
	local M=copyprof_copy_length_bytes B=copyprof_copy_bytes_by_length_bytes
	local one='.data.result[0].value[1]' mem='.data.result[] | select(.metric.family == "memcpy")'
	local cpu='.data.result[] | select(.metric.cpu_model != null) | .value[1]'
	local sites='.data.result | sort_by(-(.value[1] | tonumber)) | map("\(.metric.target | sub(".*/(?<d>[ab])/.*"; "\(.d)")):\(.metric.symbol)=\(.value[1])") | join(" ")'
	if [ "$forms" = classic ]; then
		cookbook "1 - sum by (cpu_model) (increase(${M}_bucket{le=\"2047.0\"}[1d])) / sum by (cpu_model) (increase(${M}_count[1d]))" "$cpu" \
			"$SHARE"
		expect_eq "$name: top sites by bytes (classic)" \
			"$(q "topk(10, sum by (target, symbol, offset, label) (increase(${M}_sum[${r}ms])))" "$sites" "$t1")" \
			"a:wl_copy=$BYTES_A b:wl_copy=$BYTES_B a:wl_clear=576"
		grep -qF "topk(10, sum by (target, symbol, offset, label) (increase(${M}_sum[1h])))" "$DOC" ||
			fail "$name: the top sites query is not in the cookbook"
		cookbook "sum by (cpu_model) (increase(${B}_bucket{le=\"4095.0\"}[1h]))" "$cpu" "$BELOW_4K"
		cookbook "sum(increase(${M}_count[1h])) - sum(increase(${M}_bucket{le=\"65535.0\"}[1h]))" "$one" 7
		rule "cpu_model_family_le:${M}_bucket:rate5m" "$mem | select(.metric.le == \"2047.0\") | .value[1]" 3205 scale
		rule "cpu_model_family_le:${M}_bucket:rate5m" "$mem | select(.metric.le == \"+Inf\") | .value[1]" 3582 scale
		rule "cpu_model_family_le:${B}_bucket:rate5m" "$mem | select(.metric.le == \"4095.0\") | .value[1]" $((BELOW_4K - 576)) scale
	else
		cookbook "1 - histogram_fraction(0, 2048, sum by (cpu_model) (increase(${M}[1d])))" "$cpu" \
			"$SHARE"
		expect_eq "$name: top sites by bytes (native)" \
			"$(q "topk(10, sum by (target, symbol, offset, label) (histogram_sum(increase(${M}[${r}ms]))))" "$sites" "$t1")" \
			"a:wl_copy=$BYTES_A b:wl_copy=$BYTES_B a:wl_clear=576"
		grep -qF "topk(10, sum by (target, symbol, offset, label) (histogram_sum(increase(${M}[1h]))))" "$DOC" ||
			fail "$name: the native top sites query is not in the cookbook"
		cookbook "histogram_fraction(0, 4096, sum by (cpu_model) (increase(${B}[1h]))) * histogram_count(sum by (cpu_model) (increase(${B}[1h])))" \
			"$cpu" "$BELOW_4K"
		cookbook "(1 - histogram_fraction(0, 65536, sum(increase(${M}[1h])))) * histogram_count(sum(increase(${M}[1h])))" "$one" 7
		rule "cpu_model_family:${M}:rate5m" "[$mem | .histogram[1].count] | .[0]" 3582 scale
		rule "cpu_model_family:${B}:rate5m" "[$mem | .histogram[1].count] | .[0]" $((BYTES_A + BYTES_B)) scale
		expect_eq "$name: no classic bucket stored" "$(q "count(${M}_bucket)" '.data.result | length')" 0
	fi
	rule "cpu_model:copyprof_share_ge_2k:ratio_rate5m" "$cpu" "$SHARE"
	# estimate --prometheus reads either form.
	curl -sf "127.0.0.1:$PA/profile" > profile.json || fail "$name: /profile"
	expect_exit 0 "$COPYPROF" estimate --prometheus "$PROM" --selector '{job="copyprof"}' \
		-m "$ROOT/tests/golden/costmodel-synthetic.json" --model-only \
		--today memcpy_orig --today rep_stos_alternative --json
	expect_eq "$name: estimate --prometheus's calls" "$(jq '[.inputs[].families[].calls] | add' out)" \
		"$(jq '[.sites[].calls] | add' profile.json)"
	stop_prom
}

sed "s/@PORT@/$PA/" > prom.yml <<'YML'
global: { scrape_interval: 1s, evaluation_interval: 1s }
rule_files: [rules.yml]
scrape_configs:
  - job_name: copyprof
    static_configs: [{ targets: ['127.0.0.1:@PORT@'] }]
YML
cp "$RULES" rules.yml
sed 's/^  - job_name: copyprof$/&\n    scrape_classic_histograms: true/' prom.yml > prom-both.yml

run "2.42, classic" classic prometheus prom.yml
prometheus --help 2>&1 | grep -q 'native-histograms' || fatal "prometheus $(prometheus --version 2>&1 | head -1) has no native-histograms feature"
run "2.42, native" native prometheus prom.yml --enable-feature=native-histograms
if P253=$("$ROOT/scripts/prometheus-trixie.sh" 2>p253.err); then
	run "2.53, classic" classic "$P253" prom.yml
	run "2.53, native" native "$P253" prom.yml --enable-feature=native-histograms
	# The agent's protobuf holds native buckets only: nothing classic for 2.53 to keep.
	run "2.53, native, scrape_classic_histograms" native "$P253" prom-both.yml --enable-feature=native-histograms
else
	echo "# Debian 13's prometheus not tested: $(cat p253.err)"
fi

kill -TERM "${pids[0]}"
wait "${pids[0]}"
pids=()
expect_no_leftover_progs
