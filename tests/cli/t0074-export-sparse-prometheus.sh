#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0074-export-sparse-prometheus: export -f openmetrics's default (sparse buckets, what each
# site is in copyprof_site_info) on a known profile, line for line; promtool check metrics takes
# it; promtool backfills it, with the --buckets dense export's histograms renamed beside it, and
# a real Prometheus (Debian's 2.42) serves both: each site's buckets, a bound left out filled
# from the nearest one listed below, give exactly the profile's calls per bucket (each bucket is
# alone in its range of export's bounds), _sum its bytes, the info joins on site and host,
# histogram_quantile() per site is the dense export's, and sum by (le) over sites is not
# (docs/export.md#buckets: why --buckets dense exists).
. "$(dirname "$0")/lib.sh"
need_cmd jq
need_cmd curl
need_cmd promtool
need_cmd prometheus
cd "$TMP"

# app_copy as tests/golden/profile-synthetic.json has it; app_small: length 0 (no bytes), 2 and 5
# (adjacent ranges), 20000 (far above them); app_huge: 5000 and 6 GiB (beyond 2^32: +Inf only).
cat > p.json <<'EOF'
{
  "format": "copyprof-profile",
  "version": 1,
  "meta": { "kernel": "6.12.0-test", "cpu_model": "Synthetic CPU", "hostname": "host-a",
            "start": "2026-11-30T09:00:00Z", "duration_s": 1.5 },
  "sites": [
    { "id": 0, "target": "/usr/bin/app", "symbol": "app_copy", "offset": 0,
      "mechanism": "uprobe", "family": "memcpy",
      "buckets": [ { "lo": 16, "hi": 17, "count": 1000, "bytes": 16000 },
                   { "lo": 1024, "hi": 1152, "count": 100, "bytes": 110000 },
                   { "lo": 4096, "hi": 4608, "count": 10, "bytes": 40960 } ] },
    { "id": 1, "target": "/usr/bin/app", "symbol": "app_small", "offset": 16,
      "mechanism": "uprobe", "family": "memcpy",
      "buckets": [ { "lo": 0, "hi": 1, "count": 3, "bytes": 0 },
                   { "lo": 2, "hi": 3, "count": 4, "bytes": 8 },
                   { "lo": 5, "hi": 6, "count": 6, "bytes": 30 },
                   { "lo": 18432, "hi": 20480, "count": 2, "bytes": 40000 } ] },
    { "id": 2, "target": "/usr/lib/libz.so.1", "symbol": "app_huge", "offset": 32,
      "mechanism": "uprobe", "family": "memmove",
      "buckets": [ { "lo": 4608, "hi": 5120, "count": 7, "bytes": 35000 },
                   { "lo": 6442450944, "hi": 6979321856, "count": 3, "bytes": 19327352832 } ] }
  ]
}
EOF

# The exposition, line for line: per site the top bound of each range with calls, the bound just
# below each later run of them (app_copy 1023 and 4095, app_small 1 and 16383, app_huge 2^32-1),
# +Inf, _count and _sum; then what each site is, once.
expect_exit 0 "$COPYPROF" export -i p.json -f openmetrics -o x.om
expect_err "exported 3 sites of p.json to x.om: openmetrics, 3 histograms, 26 lines"
cat > want.om <<'EOF'
# TYPE copyprof_copy_length_bytes histogram
# UNIT copyprof_copy_length_bytes bytes
# HELP copyprof_copy_length_bytes Calls of a copy site by length in bytes, totals over the recording (not live); le is a copyprof bucket edge minus 1, so every count is exact.
copyprof_copy_length_bytes_bucket{site="0",cpu_model="Synthetic CPU",host="host-a",le="31.0"} 1000
copyprof_copy_length_bytes_bucket{site="0",cpu_model="Synthetic CPU",host="host-a",le="1023.0"} 1000
copyprof_copy_length_bytes_bucket{site="0",cpu_model="Synthetic CPU",host="host-a",le="1535.0"} 1100
copyprof_copy_length_bytes_bucket{site="0",cpu_model="Synthetic CPU",host="host-a",le="4095.0"} 1100
copyprof_copy_length_bytes_bucket{site="0",cpu_model="Synthetic CPU",host="host-a",le="8191.0"} 1110
copyprof_copy_length_bytes_bucket{site="0",cpu_model="Synthetic CPU",host="host-a",le="+Inf"} 1110
copyprof_copy_length_bytes_count{site="0",cpu_model="Synthetic CPU",host="host-a"} 1110
copyprof_copy_length_bytes_sum{site="0",cpu_model="Synthetic CPU",host="host-a"} 166960
copyprof_copy_length_bytes_bucket{site="1",cpu_model="Synthetic CPU",host="host-a",le="0.0"} 3
copyprof_copy_length_bytes_bucket{site="1",cpu_model="Synthetic CPU",host="host-a",le="1.0"} 3
copyprof_copy_length_bytes_bucket{site="1",cpu_model="Synthetic CPU",host="host-a",le="3.0"} 7
copyprof_copy_length_bytes_bucket{site="1",cpu_model="Synthetic CPU",host="host-a",le="7.0"} 13
copyprof_copy_length_bytes_bucket{site="1",cpu_model="Synthetic CPU",host="host-a",le="16383.0"} 13
copyprof_copy_length_bytes_bucket{site="1",cpu_model="Synthetic CPU",host="host-a",le="32767.0"} 15
copyprof_copy_length_bytes_bucket{site="1",cpu_model="Synthetic CPU",host="host-a",le="+Inf"} 15
copyprof_copy_length_bytes_count{site="1",cpu_model="Synthetic CPU",host="host-a"} 15
copyprof_copy_length_bytes_sum{site="1",cpu_model="Synthetic CPU",host="host-a"} 40038
copyprof_copy_length_bytes_bucket{site="2",cpu_model="Synthetic CPU",host="host-a",le="8191.0"} 7
copyprof_copy_length_bytes_bucket{site="2",cpu_model="Synthetic CPU",host="host-a",le="4.294967295e+09"} 7
copyprof_copy_length_bytes_bucket{site="2",cpu_model="Synthetic CPU",host="host-a",le="+Inf"} 10
copyprof_copy_length_bytes_count{site="2",cpu_model="Synthetic CPU",host="host-a"} 10
copyprof_copy_length_bytes_sum{site="2",cpu_model="Synthetic CPU",host="host-a"} 19327387832
# TYPE copyprof_site_info gauge
# HELP copyprof_site_info Always 1: what a site is (symbol, offset, target, mechanism, label, leaf, family) and the kernel it was recorded on; join it on site and host.
copyprof_site_info{site="0",symbol="app_copy",offset="0x0",target="/usr/bin/app",mechanism="uprobe",family="memcpy",kernel="6.12.0-test",host="host-a"} 1
copyprof_site_info{site="1",symbol="app_small",offset="0x10",target="/usr/bin/app",mechanism="uprobe",family="memcpy",kernel="6.12.0-test",host="host-a"} 1
copyprof_site_info{site="2",symbol="app_huge",offset="0x20",target="/usr/lib/libz.so.1",mechanism="uprobe",family="memmove",kernel="6.12.0-test",host="host-a"} 1
# TYPE copyprof_recording_duration_seconds gauge
# UNIT copyprof_recording_duration_seconds seconds
# HELP copyprof_recording_duration_seconds Seconds recorded, summed over a group's recordings (host-seconds).
copyprof_recording_duration_seconds{kernel="6.12.0-test",cpu_model="Synthetic CPU",host="host-a"} 1.5
# EOF
EOF
expect_eq "the sparse exposition, diffed with the lines above" "$(diff want.om x.om)" ""
check "promtool check metrics takes it" promtool check metrics < x.om
expect_eq "promtool's remarks" "$(promtool check metrics < x.om 2>&1)" ""

# Backfilled: the sparse export stamped with the start, the dense one's histograms beside it as
# dense_copy_length_bytes.
expect_exit 0 "$COPYPROF" export -i p.json -f openmetrics --timestamp -o sparse.om
expect_exit 0 "$COPYPROF" export -i p.json -f openmetrics --buckets dense --timestamp -o dense.om
{
	grep -v '^# EOF$' sparse.om
	grep -E '^(# [A-Z]+ )?copyprof_copy_length_bytes' dense.om | sed 's/copyprof_copy_length_bytes/dense_copy_length_bytes/'
	echo '# EOF'
} > both.om
promtool tsdb create-blocks-from openmetrics both.om data > backfill.log 2>&1 ||
	fatal "promtool refused the backfill: $(cat backfill.log)"
PP=$(free_port)
echo 'global: { scrape_interval: 1h }' > prom.yml
prometheus --config.file=prom.yml --storage.tsdb.path="$TMP/data" \
	--web.listen-address="127.0.0.1:$PP" > prom.log 2>&1 &
pids+=($!)
PROM="http://127.0.0.1:$PP"
wait_for prometheus curl -sf "$PROM/-/ready"
T=1796029200 # 2026-11-30T09:00:00Z
# q QUERY: "site=value" per series of the answer at T, by site ("all" for a sum).
q() {
	curl -sf "$PROM/api/v1/query" --data-urlencode "query=$1" --data-urlencode "time=$T" |
		jq -r '.data.result | sort_by(.metric.site) | map("\(.metric.site // "all")=\(.value[1])") | join(" ")'
}

# Each site's stored buckets, filled from below over export's bounds: calls per range, as
# "site range-start calls", against the profile's buckets (each alone in its range).
EDGES="1 2 4 8 16 32 64 128 256 512 1024 1536 $(for i in $(seq 11 32); do printf '%d ' $((1 << i)); done)"
LES="$(for e in $EDGES; do printf '%d ' $((e - 1)); done)inf"
got=$(curl -sf "$PROM/api/v1/query" --data-urlencode 'query=copyprof_copy_length_bytes_bucket' \
	--data-urlencode "time=$T" |
	jq -r '.data.result[] | "\(.metric.site) \(.metric.le | if . == "+Inf" then "inf" else tonumber end) \(.value[1])"' |
	awk -v edges="0 $EDGES" -v les="$LES" '
	BEGIN { n = split(les, le, " "); split(edges, lo, " ") }
	{ v[$1, $2] = $3; sites[$1] = 1 }
	END {
		for (s in sites) {
			below = 0; fill = 0
			for (i = 1; i <= n; i++) {
				if ((s, le[i]) in v) fill = v[s, le[i]]
				if (fill > below) print s, lo[i], fill - below
				below = fill
			}
		}
	}' | sort -n)
want=$(jq -r --arg edges "$EDGES" '($edges | split(" ") | map(select(. != "") | tonumber)) as $e |
	.sites[] | .id as $id | .buckets[] | .lo as $lo |
	"\($id) \([0] + $e | map(select(. <= $lo)) | max) \(.count)"' p.json | sort -n)
expect_eq "calls per bucket read back, bounds left out filled from below" "$(echo $got)" "$(echo $want)"
expect_eq "_sum per site" "$(q copyprof_copy_length_bytes_sum)" \
	"$(jq -r '[.sites[] | "\(.id)=\([.buckets[].bytes] | add)"] | join(" ")' p.json)"
expect_eq "bytes by target, through copyprof_site_info" \
	"$(curl -sf "$PROM/api/v1/query" --data-urlencode 'query=sum by (target) (copyprof_copy_length_bytes_sum * on (site, host) group_left (target) copyprof_site_info)' \
		--data-urlencode "time=$T" | jq -r '.data.result | sort_by(.metric.target) | map("\(.metric.target)=\(.value[1])") | join(" ")')" \
	"/usr/bin/app=206998 /usr/lib/libz.so.1=19327387832"

# Per series, PromQL reads sparse as dense; summed by le over sites, it does not.
for quant in 0.1 0.5 0.9 0.99 0.999; do
	expect_eq "histogram_quantile($quant) per site, sparse as dense" \
		"$(q "histogram_quantile($quant, copyprof_copy_length_bytes_bucket)")" \
		"$(q "histogram_quantile($quant, dense_copy_length_bytes_bucket)")"
done
expect_eq "calls below 4 KiB over the sites, dense (1100 + 13)" \
	"$(q 'sum(dense_copy_length_bytes_bucket{le="4095.0"})')" "all=1113"
expect_eq "the same summed by le over sparse series: app_small lists no 4095" \
	"$(q 'sum(copyprof_copy_length_bytes_bucket{le="4095.0"})')" "all=1100"
expect_eq "_count summed over sites, sparse as dense" "$(q 'sum(copyprof_copy_length_bytes_count)')" \
	"$(q 'sum(dense_copy_length_bytes_count)')"
exit 0
