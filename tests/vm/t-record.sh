#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-record: copyprof record with kprobes and hardware breakpoints on real Debian kernels (6.12
# and 6.1 under qemu): exact counts where the input is known, refusals with reasons on noinstr
# code, and nothing left attached. Usage: tests/vm/t-record.sh [SERIES...] (default 6.12 6.1)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
BIN=${COPYPROF_BIN:-$HERE/../../build/copyprof-static}
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-record.XXXXXX")
trap 'rm -rf "$work"' EXIT

[[ -x $BIN ]] || { echo "t-record: build $BIN first" >&2; exit 1; }
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }

ones() {	# ones PROFILE REG: one-byte calls at the site reading the length from REG
	jq --arg r "$2" '[.sites[] | select(.len_arg == $r)][0] | [.buckets[] | select(.lo == 1)][0].count // 0' "$1"
}

test_kernel() {
	local series=$1 out=$work/$1 rc=0 cu
	"$HERE/run.sh" --kernel "$series" --bin "$BIN" --bin "$HERE/t-record-guest.sh" \
		--bin "$HERE/guest-lib.sh" --out "$out" \
		--timeout 400 -- t-record-guest.sh > "$work/$series.log" 2>&1 || rc=$?
	if ((rc == 4)); then echo "skipped: host setup for $series failed"; tail -3 "$work/$series.log"; exit 77; fi
	check_eq "$series: guest ran" "$rc" 0
	[[ -f $out/kprobe.rc ]] || { tail -40 "$work/$series.log"; failed=$((failed + 1)); return; }

	check_eq "$series: kprobe record exit" "$(cat "$out/kprobe.rc")" 0
	check_eq "$series: kprobe read_zero calls" "$(jq '.sites[0].calls' "$out/kprobe.json")" 1000
	check_eq "$series: kprobe read_zero 4096-byte calls" \
		"$(jq '[.sites[0].buckets[] | select(.lo == 4096)][0].count' "$out/kprobe.json")" 1000
	check_eq "$series: kprobe mechanism" "$(jq -r '.sites[0].mechanism' "$out/kprobe.json")" kprobe
	# At an entry, the return address on the stack names the caller: vfs_read, every time.
	check_eq "$series: read_zero's caller" \
		"$(jq -r '.sites[0].callers[0] | "\(.symbol) \(.calls) \(.bytes)"' "$out/kprobe.json")" \
		"vfs_read 1000 4096000"
	check_eq "$series: read_zero has one caller, none missed" \
		"$(jq '[(.sites[0].callers | length), .sites[0].caller_misses]' -c "$out/kprobe.json")" "[1,0]"

	cu=$(cat "$out/copy_user_symbol")
	check_eq "$series: hwbp record exit ($(head -c 300 "$out/hwbp.err"))" "$(cat "$out/hwbp.rc")" 0
	# 6.1's copy_user_* take the length in rdx, 6.2+'s rep_movs_alternative in rcx: the site
	# whose register is right sees one one-byte copy per read(2). dd makes a few small copies
	# of its own (measured: one on 6.12), so the exact check is 600 reads minus 300 reads.
	local reg=rcx n300 n600; [[ $cu == rep_movs_alternative ]] || reg=rdx
	n300=$(ones "$out/hwbp.json" "$reg") n600=$(ones "$out/hwbp2.json" "$reg")
	check_eq "$series: hwbp $cu,len=$reg: one-byte copies of 600 reads - 300 reads" \
		"$((n600 - n300))" 300
	check_eq "$series: hwbp $cu: at least 300 one-byte copies for 300 reads ($n300)" \
		"$((n300 >= 300 && n300 <= 305))" 1
	check_eq "$series: hwbp mechanism" "$(jq -r '.sites[0].mechanism' "$out/hwbp.json")" hwbp
	# The 300 one-byte reads come from one caller (_copy_to_iter on 6.12); callers add up.
	check_eq "$series: hwbp callers add up to the site's calls" "$(jq --arg r "$reg" '[.sites[] |
		select(.len_arg == $r)][0] | ([.callers[].calls] | add) == .calls' "$out/hwbp.json")" true
	local top1
	top1=$(jq --arg r "$reg" '[.sites[] | select(.len_arg == $r)][0] |
		[.callers[] | [.buckets[] | select(.lo == 1)][0].count // 0] | max' "$out/hwbp.json")
	check_eq "$series: one caller makes the 300 one-byte copies ($top1, $(jq -r --arg r "$reg" \
		'[.sites[] | select(.len_arg == $r)][0].callers[0] | .symbol + "+" +
		(.offset | tostring)' "$out/hwbp.json"))" "$((top1 >= 300 && top1 <= 305))" 1

	check_eq "$series: kprobe on memcpy_orig refused" "$(cat "$out/noinstr_kprobe.rc")" 1
	check_eq "$series: kprobe refusal says why" \
		"$(grep -c 'blacklisted, notrace' "$out/noinstr_kprobe.err")" 1
	check_eq "$series: hwbp on memcpy_orig refused" "$(cat "$out/noinstr_hwbp.rc")" 1
	check_eq "$series: hwbp refusal says why" "$(grep -c 'kprobe blacklist' "$out/noinstr_hwbp.err")" 1
	check_eq "$series: no kprobe event left" "$(grep -c . "$out/kprobe_events_after" || true)" 0
	local sig
	for sig in TERM INT; do
		check_eq "$series: SIG$sig ends record with exit 0" "$(cat "$out/sig$sig.rc")" 0
		check_eq "$series: SIG$sig: the 100 reads are in the profile" "$(jq '[.sites[] |
			select(.symbol == "read_zero")][0].calls >= 100' "$out/sig$sig.json")" true
		check_eq "$series: SIG$sig: BPF programs were live while recording" \
			"$(($(cat "$out/sig$sig.progs_during") > 0))" 1
		check_eq "$series: SIG$sig: no kprobe left" "$(cat "$out/sig$sig.kprobes_after")" 0
		check_eq "$series: SIG$sig: no BPF program left" "$(cat "$out/sig$sig.progs_after")" 0
	done
}

(($#)) || set -- 6.12 6.1
for s in "$@"; do test_kernel "$s"; done
checks_done
