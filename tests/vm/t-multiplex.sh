#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-multiplex: more hardware breakpoint sites than debug registers on real Debian kernels (6.12
# and 6.1 under qemu): one reference site pinned on a register, the others rotated over the
# other 3, each count scaled by the reference's calls while it was armed and checked against a
# known count; -p iov_iter covers every planned site
# of a read and of a write workload in one profile, with sampled sites next to the counted
# ones. Usage: tests/vm/t-multiplex.sh [SERIES...] (default 6.12 6.1); MUX_N=reads;
# MUX_COST=reads also times a breakpoint hit and a kprobe hit (bench/hwbp_attach.sh reads it,
# keep the output with MUX_KEEP=dir).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
BIN=${COPYPROF_BIN:-$HERE/../../build/copyprof}
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-multiplex.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The scaled count's error bound: docs/kernel-targets.md#multiplexed-breakpoints.
MAX_ERR_PCT=${MAX_ERR_PCT:-20} # under TCG: at most 10.5% with remote moves, 0.56% now

[[ -x $BIN ]] || { echo "t-multiplex: build $BIN first" >&2; exit 1; }
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }

test_kernel() {
	local series=$1 out=$work/$1 rc=0 n sym want got err f
	"$HERE/run.sh" --kernel "$series" --disk btrfs-zstd --bin "$BIN" \
		--bin "$HERE/t-multiplex-guest.sh" --bin "$HERE/guest-lib.sh" --out "$out" \
		--timeout 900 -- "MUX_N=${MUX_N:-20000} MUX_COST=${MUX_COST:-} t-multiplex-guest.sh" > "$work/$series.log" 2>&1 || rc=$?
	if ((rc == 4)); then echo "skipped: host setup for $series failed"; tail -3 "$work/$series.log"; exit 77; fi
	check_eq "$series: guest ran" "$rc" 0
	[[ -f $out/mux.rc ]] || { tail -40 "$work/$series.log"; failed=$((failed + 1)); return; }

	f=$out/mux.json n=$(cat "$out/mux_n")
	check_eq "$series: 8 breakpoints record ($(head -c 300 "$out/mux.err"))" "$(cat "$out/mux.rc")" 0
	check_eq "$series: 8 sites, all multiplexed" "$(jq '[.sites[] | select(.mechanism == "hwbp" and
		.multiplex != null)] | length' "$f")" 8
	check_eq "$series: rotation said" "$(grep -c 'share 4 debug registers' "$out/mux.err")" 1
	# The first site is the reference: on a register all the time, exact, its count (20,000
	# reads) known. The 7 others rotate over 3 registers, scaled by its calls.
	check_jq "$series: ksys_read is the unscaled reference" '.sites[0] | .symbol ==
		"ksys_read" and .multiplex.scaling == "none" and .multiplex.running == 1 and
		.multiplex.raw_calls == .calls' "$f"
	check_jq "$series: the 7 others are scaled by the reference" \
		'[.sites[1:][] | select(.multiplex.scaling == "reference" and
		.multiplex.reference_site == 0)] | length == 7' "$f"
	# Each rotated site ran part of the time, none all of it; raw counts are below the scaled.
	check_jq "$series: every rotated site ran between 20% and 80% of the time" \
		'[.sites[1:][].multiplex.running] | all(. > 0.2 and . < 0.8)' "$f"
	check_jq "$series: raw calls below scaled calls" \
		'[.sites[1:][] | .multiplex.raw_calls < .calls] | all' "$f"
	# A move's reference calls are split evenly: each rotated site is credited half of those
	# at the ends of its turns (to within one call per move and CPU).
	check_jq "$series: half of each site's move calls credited" '[.sites[1:][].multiplex |
		.reference_calls_moves_credited * 2 - .reference_calls_moves | if . < 0 then -. else . end] | all(. < 2000)' "$f"
	grep 'per move' "$out/mux.err" | sed "s/^/# $series: /"
	# Each CPU's event is moved from that CPU (no IPI; the workload cannot run there then).
	check_eq "$series: every move made from the event's own CPU" "$(sed -n \
		's/.* \([0-9]*\) moves of a breakpoint event (\([0-9]*\) from its own CPU).*/\1 \2/p' \
		"$out/mux.err" | awk '{ print ($1 > 0 && $1 == $2) }')" 1
	for sym in ksys_read vfs_read read_zero "$(cat "$out/clear_symbol")" ksys_write vfs_write \
		write_null rw_verify_area; do
		want=$n; [[ $sym == rw_verify_area ]] && want=$((2 * n))
		# 3000-byte calls: the bucket [2944, 3072) holds them and nothing else dd does.
		got=$(jq --arg s "$sym" '[.sites[] | select(.symbol == $s)][0] |
			[.buckets[] | select(.lo <= 3000 and .hi > 3000)][0].count // 0' "$f")
		err=$(awk -v g="$got" -v w="$want" 'BEGIN { e = (g - w) / w * 100; printf "%.2f", e }')
		# What the other rules would have said of the same raw counts, for comparison: time
		# scaling, and the reference's calls during moves credited to neither site or to both
		# (the recording splits them evenly).
		echo "# $series $sym: scaled $got, known $want, error $err%, $(jq -r --arg s "$sym" \
			--argjson g "$got" '[.sites[] | select(.symbol == $s)][0].multiplex |
			(.reference_calls_running // 0) as $r | (.reference_calls_moves // 0) as $mv |
			($r - (.reference_calls_moves_credited // 0)) as $none |
			"running \(.running), scaling \(.scaling), share \(if $r > 0
			then $r / .reference_calls else 1 end), by time \(if
			.scaling == "reference" then $g * $r / .reference_calls /
			.running | round else $g end), moves credited to neither \(if .scaling ==
			"reference" and $none > 0 then $g * $r / $none | round else $g end), to both \(if
			.scaling == "reference" then $g * $r / ($none + $mv) | round else $g end),
			reference calls in moves \($mv)"' "$f")"
		check_eq "$series: $sym scaled count within $MAX_ERR_PCT% of $want ($got, $err%)" \
			"$(awk -v e="$err" -v m="$MAX_ERR_PCT" 'BEGIN { print (e < 0 ? -e : e) <= m }')" 1
	done
	check_eq "$series: report says scaled" "$("$BIN" report -i "$f" |
		grep -c "scaled (running [0-9]*% of the time, [0-9]*% of site 0's calls)")" 7

	local io
	for io in iov_write iov_read; do
		f=$out/$io.json
		check_eq "$series: $io record exit ($(head -c 300 "$out/$io.err"))" "$(cat "$out/$io.rc")" 0
		check_eq "$series: $io plan says the coverage" \
			"$(grep -cE '^  [0-9]+ sites: [0-9]+ kprobe, [0-9]+ breakpoint' "$out/$io.err")" 1
		# Every site of the plan is in the profile: one profile site per planned kprobe/hwbp.
		check_eq "$series: $io: every planned probe site is in the profile" \
			"$(grep -cE '^  (kprobe|hwbp) ' "$out/$io.err")" \
			"$(jq '[.sites[] | select(.mechanism != "sample")] | length' "$f")"
		check_eq "$series: $io: no site left uncovered by the iov_iter preset" \
			"$(grep -E '^  sample ' "$out/$io.err" | grep -vc memcpy || true)" 0
		check_jq "$series: $io: lib/iov_iter.c sites counted" '[.sites[] | select(.mechanism ==
			"hwbp" and (.symbol | test("iter")))] | length > 0' "$f"
		grep -E 'sites:|cost:' "$out/$io.err" | sed "s/^/# $series $io: /"
	done
	check_jq "$series: iov_write: copy_page_from_iter_atomic copied the data" \
		'[.sites[] | select(.symbol == "copy_page_from_iter_atomic") | .calls] | add > 0' \
		"$out/iov_write.json"
	check_jq "$series: iov_read: _copy_to_iter copied the data" \
		'[.sites[] | select(.symbol == "_copy_to_iter") | .calls] | add > 0' "$out/iov_read.json"
	check_jq "$series: iov_read: $(cat "$out/memcpy_symbol") sampled in the same profile" \
		"[.sites[] | select(.mechanism == \"sample\" and .leaf == \"$(cat "$out/memcpy_symbol")\")] | length > 0" \
		"$out/iov_read.json"
	check_jq "$series: iov_read: only that function's samples kept" \
		"[.sites[] | select(.mechanism == \"sample\") | .leaf] | unique == [\"$(cat "$out/memcpy_symbol")\"]" \
		"$out/iov_read.json"
	local cm=$HERE/../../examples/costmodels/cooperlake-8321hc-seed.json
	for cmd in report "estimate -m $cm" "flamegraph -o $work/f.svg" "export -f openmetrics"; do
		# shellcheck disable=SC2086
		check_eq "$series: $cmd reads the mixed profile" \
			"$("$BIN" $cmd -i "$out/iov_read.json" >/dev/null 2>"$work/cmd.err"; echo $?)" 0
	done
	[[ -z ${MUX_KEEP:-} ]] || cp -r "$out" "$MUX_KEEP/"
	check_eq "$series: merge reads it" "$("$BIN" merge -o "$work/m.json" "$out/iov_read.json" \
		"$out/iov_write.json" >/dev/null; echo $?)" 0
}

(($#)) || set -- 6.12 6.1
for s in "$@"; do test_kernel "$s"; done
checks_done
