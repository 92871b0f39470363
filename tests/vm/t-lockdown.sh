#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t-lockdown: a Debian 6.12 kernel booted with lockdown=confidentiality, which refuses kprobes,
# /proc/kcore and BPF reads of kernel memory but not hardware breakpoints or sampling: kprobes
# are refused with the reason, breakpoints and uprobes still count exactly (without callers, said so), the
# planner plans breakpoints instead of kprobes, and sampling runs (t-lockdown-guest.sh).
# Usage: tests/vm/t-lockdown.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
REPO=$(cd "$HERE/../.." && pwd)
BIN=${COPYPROF_BIN:-$REPO/build/copyprof-static}
CACHE=${COPYPROF_VM_CACHE:-$REPO/.cache/vm}
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-lockdown.XXXXXX")
trap 'rm -rf "$work"' EXIT

[[ -x $BIN ]] || { echo "t-lockdown: build $BIN first" >&2; exit 1; }
command -v jq >/dev/null || { echo "skipped: needs jq"; exit 77; }

# run.sh caches the newest 6.12 package; its vmlinuz goes into the guest (boot it once first).
"$HERE/run.sh" --kernel 6.12 --bin "$BIN" -- true > "$work/warm.log" 2>&1 || true
vmlinuz=$(ls -t "$CACHE"/linux-image-6.12*/root/boot/vmlinuz-* 2>/dev/null | head -n 1)
[[ -n $vmlinuz ]] || { echo "skipped: no cached 6.12 kernel ($(tail -n 1 "$work/warm.log"))"; exit 77; }
cp "$vmlinuz" "$work/vmlinuz"
# The guest has no C library: the uprobe's workload is a static PIE.
cc -O2 -g -static-pie "$HERE/../workload/copyload.c" -o "$work/copyload-static" ||
	{ echo "skipped: cannot link a static PIE here"; exit 77; }
out=$work/out rc=0
"$HERE/run.sh" --kernel 6.12 --append lockdown=confidentiality --bin "$BIN" \
	--bin "$HERE/t-lockdown-guest.sh" --bin "$HERE/guest-lib.sh" --bin "$work/vmlinuz" \
	--bin "$work/copyload-static" --out "$out" --timeout 400 -- \
	t-lockdown-guest.sh > "$work/guest.log" 2>&1 || rc=$?
((rc != 4)) || { echo "skipped: host setup failed"; tail -3 "$work/guest.log"; exit 77; }
check_eq "guest ran" "$rc" 0
[[ -f $out/kprobe.rc ]] || { tail -30 "$work/guest.log"; exit 1; }
check_eq "the kernel is locked down" "$(cat "$out/lockdown")" "none integrity [confidentiality]"

check_eq "kprobe refused (exit 1)" "$(cat "$out/kprobe.rc")" 1
check_eq "kprobe refusal names lockdown" "$(grep -c 'locked down (confidentiality.*refuses kprobes' \
	"$out/kprobe.err")" 1

check_eq "hwbp records (exit 0)" "$(cat "$out/hwbp.rc")" 0
check_eq "hwbp: 300 reads, 300+ one-byte copies" "$(jq '[.sites[0].buckets[] |
	select(.lo == 1)][0].count | . >= 300 and . <= 305' "$out/hwbp.json")" true
check_eq "hwbp: no callers under lockdown, and said so" "$(jq '.sites[0].callers // [] | length' \
	"$out/hwbp.json") $(grep -c "callers are not counted" "$out/hwbp.err")" "0 1"
check_eq "uprobe records (exit 0)" "$(cat "$out/uprobe.rc")" 0
check_eq "uprobe: every call counted" "$(jq '.sites[0].calls' "$out/uprobe.json")" 1005
check_eq "uprobe: no callers under lockdown, and said so" "$(jq '.sites[0].callers // [] | length' \
	"$out/uprobe.json") $(grep -c "callers are not counted (uprobes' too)" "$out/uprobe.err")" "0 1"

check_eq "probe -p btrfs runs (exit 0)" "$(cat "$out/plan.rc")" 0
check_eq "the zstd call sites get breakpoints, kprobes rejected for lockdown" "$(jq '[.sites[] |
	select(.function == "ZSTD_decompressStream") | .callsites[]] | length' "$out/plan.out") $(jq \
	'[.plan[] | select(.function == "ZSTD_decompressStream" and .mechanism == "hwbp" and .why ==
	"hwbp: kprobe rejected (lockdown=confidentiality refuses kprobes)")] | length' \
	"$out/plan.out")" "4 4"

check_eq "the fifth site shares the debug registers (multiplexed), saying so" "$(jq -r '[.plan[] |
	select(.mechanism == "hwbp")][4].why | test("^hwbp \\(multiplexed\\)")' "$out/plan.out")" true
check_eq "sampling records (exit 0)" "$(cat "$out/sample.rc")" 0
check_eq "sampling says what lockdown costs" "$(grep -c 'lengths stay unknown' "$out/sample.err")" 1
check_eq "sampling counted samples" "$(jq '.meta.total_samples > 0' "$out/sample.json")" true
checks_done
