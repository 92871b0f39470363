#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0070-export: export's usage errors and atomic output; OpenMetrics numbers checked exactly
# (cumulative buckets, _count, _sum) on the golden profiles, a merged one and a sampled one,
# with --buckets dense; the default (sparse) lists the bounds docs/export.md#buckets says, and
# filled from the bound below it gives every dense value.
. "$(dirname "$0")/lib.sh"
need_cmd jq
G="$ROOT/tests/golden"
cd "$TMP"

# om_value FILE METRIC LABEL-SUBSTRING [LE]: the value of the one matching sample line.
om_value() {
	local lines
	lines=$(grep -F "$2{" "$1" | grep -F -- "$3")
	if [ -n "${4:-}" ]; then
		lines=$(grep -F "le=\"$4\"}" <<<"$lines")
	else
		lines=$(grep -v 'le="' <<<"$lines")
	fi
	[ "$(grep -c . <<<"$lines")" -eq 1 ] || fail "$2 $3 ${4:-}: not one line: $lines"
	sed 's/.*} \([^ ]*\).*/\1/' <<<"$lines"
}
# om_site FILE SUBSTRING...: 'site="N"' of the one copyprof_site_info line holding them all.
om_site() {
	local f=$1 s lines
	shift
	lines=$(grep '^copyprof_site_info{' "$f")
	for s in "$@"; do lines=$(grep -F -- "$s" <<<"$lines"); done
	[ "$(grep -c . <<<"$lines")" -eq 1 ] || fail "copyprof_site_info $*: not one line: $lines"
	sed 's/^copyprof_site_info{\(site="[0-9]*"\).*/\1/' <<<"$lines"
}
# Every histogram: its buckets the bounds from its first one to +Inf, each one there, all
# cumulative, the first one not 0 (only empty leading buckets are left out), +Inf = _count.
BOUNDS="0.0 1.0 3.0 7.0 15.0 31.0 63.0 127.0 255.0 511.0 1023.0 1535.0 2047.0 4095.0 8191.0
16383.0 32767.0 65535.0 131071.0 262143.0 524287.0 1.048575e+06 2.097151e+06 4.194303e+06
8.388607e+06 1.6777215e+07 3.3554431e+07 6.7108863e+07 1.34217727e+08 2.68435455e+08
5.36870911e+08 1.073741823e+09 2.147483647e+09 4.294967295e+09 +Inf"
om_histograms_consistent() {
	awk -v bounds="$BOUNDS" '
	BEGIN { nb = split(bounds, b, /[ \n]+/); for (i = 1; i <= nb; i++) at[b[i]] = i }
	/^#/ { next }
	/_bucket\{/ {
		key = $0; sub(/,?le="[^"]*"\}.*/, "", key); sub(/_bucket\{/, "{", key)
		le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le)
		v = $0; sub(/.*\} /, "", v); sub(/ .*/, "", v)
		if (!(le in at)) { print "not a bound: " $0; bad = 1 }
		if (key == last && v + 0 < prev + 0) { print "not cumulative: " $0; bad = 1 }
		if (key == last && at[le] != prevat + 1) { print "a bucket missing before: " $0; bad = 1 }
		if (key != last && le != "+Inf" && v + 0 == 0) { print "an empty leading bucket: " $0; bad = 1 }
		if (le == "+Inf") inf[key] = v
		last = key; prev = v; prevat = at[le]; n[key]++
		next
	}
	/_count\{/ { key = $0; sub(/_count\{/, "{", key); sub(/\} .*/, "", key); cnt[key] = $NF }
	END {
		for (k in n) {
			if (!(k in inf) || inf[k] != cnt[k]) { print "+Inf != _count: " k; bad = 1 }
		}
		exit bad
	}' "$1" || fail "$1: inconsistent histograms"
}

# om_sparse_fills_dense SPARSE DENSE: every histogram of SPARSE, each bound it leaves out given
# the value of the nearest one it lists below (0 below its first), has DENSE's value at every
# bound (DENSE leaves out only leading zeros), and every other sample is the same in both.
om_sparse_fills_dense() {
	if awk -v bounds="$BOUNDS" '
	BEGIN { nb = split(bounds, b, /[ \n]+/) }
	FNR == 1 { file++ }
	/^#/ { next }
	{
		v = $NF; key = $0; sub(/ [^ ]*$/, "", key); le = ""
		if (match(key, /,?le="[^"]*"/)) {
			le = substr(key, RSTART, RLENGTH); sub(/^,?le="/, "", le); sub(/"$/, "", le)
			key = substr(key, 1, RSTART - 1) substr(key, RSTART + RLENGTH)
		}
		val[file, key, le] = v; keys[key] = 1
	}
	END {
		for (k in keys) {
			if (k !~ /_bucket/) {
				if (val[1, k, ""] != val[2, k, ""]) { print "differs: " k; bad = 1 }
				continue
			}
			fill = 0
			for (i = 1; i <= nb; i++) {
				if ((1, k, b[i]) in val) fill = val[1, k, b[i]]
				dense = ((2, k, b[i]) in val) ? val[2, k, b[i]] : 0
				if (fill != dense) { print k " le=" b[i] ": " fill ", dense " dense; bad = 1 }
			}
		}
		exit bad
	}' "$1" "$2" > fills.txt; then
		pass "$1 filled from below is $2"
	else
		fail "$1: its buckets filled are not those of $2: $(head -n 5 fills.txt)"
	fi
}

# Usage errors: exit 2 with the reason.
expect_exit 2 "$COPYPROF" export -i "$G/profile-synthetic.json"
expect_err "give the format: --format pprof or --format openmetrics"
expect_exit 2 "$COPYPROF" export -i "$G/profile-synthetic.json" -f xml
expect_err "format xml: give pprof or openmetrics"
expect_exit 2 "$COPYPROF" export -i "$G/profile-synthetic.json" -f pprof --timestamp -o x
expect_err "timestamp is for --format openmetrics"
expect_exit 2 "$COPYPROF" export -f pprof extra
expect_err "unexpected argument"
expect_exit 2 "$COPYPROF" export -i "$G/profile-synthetic.json" -f openmetrics --buckets all
expect_err "buckets all: give sparse or dense"
expect_exit 2 "$COPYPROF" export -i "$G/profile-synthetic.json" -f pprof --buckets dense -o x
expect_err "buckets is for --format openmetrics"

# Runtime failures: exit 1, and an existing output is left as it was.
echo old > out.om
expect_exit 1 "$COPYPROF" export -i missing.json -f openmetrics -o out.om
expect_err "cannot read profile missing.json"
expect_eq "output after a failed export" "$(cat out.om)" old
expect_exit 1 "$COPYPROF" export -i "$G/profile-synthetic.json" -f openmetrics -o nodir/x.om
expect_err "cannot create nodir/x.om"
jq 'del(.meta.start)' "$G/profile-synthetic.json" > nostart.json
expect_exit 1 "$COPYPROF" export -i nostart.json -f openmetrics --timestamp -o out.om
expect_err "no start time"
expect_eq "output after a failed export" "$(cat out.om)" old
ls ./*.tmp.* 2>/dev/null && fail "a temporary file was left behind"

# The synthetic profile: app_copy 1000 x 16 B, 100 in 1024..1151 (110000 B), 10 x 4096;
# app_clear 50 x 64 B, 5 x 4096.
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic.json" -f openmetrics --buckets dense -o s.om
# Leading empty buckets left out: app_copy from le="31.0" (30 buckets), app_clear from "127.0";
# a site info line each.
expect_err "exported 2 sites of .* to s.om: openmetrics, 2 histograms, 65 lines"
om_histograms_consistent s.om
H=copyprof_copy_length_bytes
# A site's series: its id, CPU model and host; what it is, once, in copyprof_site_info.
copy='site="0",cpu_model="Synthetic CPU",host="host-a"'
expect_eq "app_copy's site info" "$(grep -F 'copyprof_site_info{site="0",' s.om)" \
	'copyprof_site_info{site="0",symbol="app_copy",offset="0x0",target="/usr/bin/app",mechanism="uprobe",family="memcpy",kernel="6.12.0-test",host="host-a"} 1'
expect_eq "app_clear's site info" "$(grep -F 'copyprof_site_info{site="1",' s.om)" \
	'copyprof_site_info{site="1",symbol="app_clear",offset="0x0",target="/usr/bin/app",mechanism="uprobe",family="clear_user",kernel="6.12.0-test",host="host-a"} 1'
grep -q '^copyprof_copy_length_bytes.*symbol=' s.om && fail "a histogram series names its symbol"
grep -F "${H}_bucket{$copy" s.om | grep -qF 'le="15.0"' && fail "the empty le 15 is there"
expect_eq "le 31" "$(om_value s.om ${H}_bucket "$copy" 31.0)" 1000
expect_eq "le 1023" "$(om_value s.om ${H}_bucket "$copy" 1023.0)" 1000
expect_eq "le 1535" "$(om_value s.om ${H}_bucket "$copy" 1535.0)" 1100
expect_eq "le 4095" "$(om_value s.om ${H}_bucket "$copy" 4095.0)" 1100
expect_eq "le 8191" "$(om_value s.om ${H}_bucket "$copy" 8191.0)" 1110
expect_eq "le 2^20-1" "$(om_value s.om ${H}_bucket "$copy" 1.048575e+06)" 1110
expect_eq "+Inf" "$(om_value s.om ${H}_bucket "$copy" +Inf)" 1110
expect_eq "_count" "$(om_value s.om ${H}_count "$copy")" 1110
expect_eq "_sum" "$(om_value s.om ${H}_sum "$copy")" 166960
clear='site="1",cpu_model="Synthetic CPU",host="host-a"'
grep -F "${H}_bucket{$clear" s.om | grep -qF 'le="63.0"' && fail "the empty le 63 is there"
expect_eq "clear le 127" "$(om_value s.om ${H}_bucket "$clear" 127.0)" 50
expect_eq "clear le 4095" "$(om_value s.om ${H}_bucket "$clear" 4095.0)" 50
expect_eq "clear le 8191" "$(om_value s.om ${H}_bucket "$clear" 8191.0)" 55
expect_eq "clear _sum" "$(om_value s.om ${H}_sum "$clear")" 23680
expect_eq "all _sum" "$(grep "^${H}_sum" s.om | awk '{ s += $NF } END { print s }')" 190640
expect_eq "duration" "$(om_value s.om copyprof_recording_duration_seconds 'host="host-a"')" 1.5
expect_eq "metadata" "$(head -3 s.om | cut -d' ' -f1-4)" \
	"$(printf '# TYPE %s histogram\n# UNIT %s bytes\n# HELP %s Calls' $H $H $H)"
expect_eq "last line" "$(tail -n 1 s.om)" "# EOF"
# stdout is the default output and gets the same bytes.
"$COPYPROF" export -i "$G/profile-synthetic.json" -f openmetrics --buckets dense > stdout.om 2>err ||
	fail "export to stdout failed: $(cat err)"
cmp -s s.om stdout.om || fail "stdout differs from -o"

# Label values escaped as the spec says (\\, \", \n); UTF-8 kept.
jq '.sites[0].symbol = "we\"ird\\sym\nbol" | .sites[0].target = "/opt/caf\u00e9"' \
	"$G/profile-synthetic.json" > odd.json
expect_exit 0 "$COPYPROF" export -i odd.json -f openmetrics --buckets dense -o odd.om
grep -qF 'symbol="we\"ird\\sym\nbol",offset="0x0",target="/opt/café"' odd.om ||
	fail "label values not escaped: $(grep -m1 '_bucket' odd.om)"
om_histograms_consistent odd.om

# A merged profile: one series per site and group; a group of two hosts has no host label.
jq '.meta.hostname = "host-b"' "$G/profile-synthetic.json" > b.json
jq '.meta.hostname = "host-c" | .meta.cpu_model = "Other CPU" | .meta.duration_s = 0.5' \
	"$G/profile-synthetic.json" > c.json
"$COPYPROF" merge -o m.json "$G/profile-synthetic.json" b.json c.json >/dev/null || fail "merge"
expect_exit 0 "$COPYPROF" export -i m.json -f openmetrics --buckets dense -o m.om
expect_err "4 histograms"
om_histograms_consistent m.om
# The group of host-a and host-b: no host on its site info, as on its series.
both="$(om_site m.om 'symbol="app_copy"' 'kernel="6.12.0-test"} 1'),cpu_model=\"Synthetic CPU\"}"
expect_eq "Synthetic CPU group, 2 hosts" "$(om_value m.om ${H}_count "$both")" 2220
expect_eq "Synthetic CPU group, sum" "$(om_value m.om ${H}_sum "$both")" 333920
other="$(om_site m.om 'symbol="app_copy"' 'host="host-c"'),cpu_model=\"Other CPU\",host=\"host-c\"}"
expect_eq "Other CPU group" "$(om_value m.om ${H}_count "$other")" 1110
expect_eq "durations" "$(grep '^copyprof_recording_duration_seconds' m.om | sed 's/.*} //' | sort | tr '\n' ' ')" \
	"0.5 3.0 "
grep -qF 'copyprof_recording_duration_seconds{group="1",kernel="6.12.0-test",cpu_model="Synthetic CPU"} 3.0' m.om ||
	fail "group 1's duration: $(grep duration_seconds m.om)"

# A sampled profile: time-weighted histograms in their own family, and every sample counted.
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic-sampled.json" -f openmetrics --buckets dense -o t.om
om_histograms_consistent t.om
grep -q "^${H}_bucket" t.om && fail "sampled sites in the calls family"
S=copyprof_sampled_copy_length_bytes
smp="$(om_site t.om 'symbol="zdss_flush",offset="0x0",target="vmlinux",mechanism="sample",leaf="memcpy",family="memcpy"'),"
expect_eq "sampled le 31" "$(om_value t.om ${S}_bucket "$smp" 31.0)" 10000
expect_eq "sampled le 1535" "$(om_value t.om ${S}_bucket "$smp" 1535.0)" 21360
expect_eq "sampled +Inf" "$(om_value t.om ${S}_bucket "$smp" +Inf)" 25492
expect_eq "sampled _sum" "$(om_value t.om ${S}_sum "$smp")" 29580672
expect_eq "all samples" "$(om_value t.om copyprof_copy_samples "$smp")" 25492
grep -qx '# TYPE copyprof_copy_samples gauge' t.om || fail "no samples family"

# The default, sparse: the top bound of every range with calls and the bound just below every
# run of them but the first, +Inf; app_copy 31 (16 B), 1023 and 1535 (1024..1151), 4095 and
# 8191 (4096); app_clear 127 (64 B), 4095 and 8191 (4096). Filled from below, the dense values.
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic.json" -f openmetrics -o sp.om
expect_err "exported 2 sites of .* to sp.om: openmetrics, 2 histograms, 17 lines"
les() { grep -F "${H}_bucket{$1" "$2" | sed 's/.*le="\([^"]*\)".*} \(.*\)/\1=\2/' | tr '\n' ' '; }
expect_eq "app_copy's sparse buckets" "$(les "$copy" sp.om)" "31.0=1000 1023.0=1000 1535.0=1100 4095.0=1100 8191.0=1110 +Inf=1110 "
expect_eq "app_clear's sparse buckets" "$(les "$clear" sp.om)" "127.0=50 4095.0=50 8191.0=55 +Inf=55 "
expect_eq "app_copy's sparse _count" "$(om_value sp.om ${H}_count "$copy")" 1110
expect_eq "app_copy's sparse _sum" "$(om_value sp.om ${H}_sum "$copy")" 166960
om_sparse_fills_dense sp.om s.om
expect_exit 0 "$COPYPROF" export -i "$G/profile-synthetic.json" -f openmetrics --buckets sparse -o sp2.om
cmp -s sp.om sp2.om || fail "--buckets sparse is not the default"
for p in odd m t; do
	src=$p.json
	[ "$p" = t ] && src="$G/profile-synthetic-sampled.json"
	expect_exit 0 "$COPYPROF" export -i "$src" -f openmetrics -o "$p-sparse.om"
	om_sparse_fills_dense "$p-sparse.om" "$p.om"
done
# Every shipped profile, and one site with a call of length 0 (bucket 0, le 0.0) and copies
# beyond 2^32 (+Inf only, the bound below them listed), as the profile format allows.
jq '.sites[0].buckets = [{"lo": 0, "hi": 1, "count": 3, "bytes": 0},
	{"lo": 64, "hi": 72, "count": 2, "bytes": 128},
	{"lo": 8589934592, "hi": 9663676416, "count": 1, "bytes": 8589934592}]' \
	"$G/profile-synthetic.json" > edge.json
for p in edge.json "$G"/profile-*.json "$ROOT"/examples/data/*/*.json; do
	jq -e .sites "$p" > /dev/null 2>&1 || continue
	"$COPYPROF" export -i "$p" -f openmetrics -o one-sparse.om 2>/dev/null || fail "export $p"
	"$COPYPROF" export -i "$p" -f openmetrics --buckets dense -o one-dense.om 2>/dev/null ||
		fail "export --buckets dense $p"
	om_sparse_fills_dense one-sparse.om one-dense.om
done
"$COPYPROF" export -i edge.json -f openmetrics -o edge.om 2>/dev/null
expect_eq "length 0, 64 B and 8 GiB" "$(les "$copy" edge.om)" "0.0=3 63.0=3 127.0=5 4.294967295e+09=5 +Inf=6 "
exit 0
