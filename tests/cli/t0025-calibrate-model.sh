#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0025-calibrate-model: `calibrate --quick` on a small set writes a complete, well-formed cost
# model. Only structure and one large ratio are asserted, never a timing.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"

expect_exit 0 "$COPYPROF" calibrate --quick --impl memcpy_orig,movsb,stosb --sizes 64,256,4K \
	--cache all -o m.json
[ -s m.json ] || fail "no cost model written"
! grep -q $'\r' "$TMP/err" || fail "a progress bar was drawn on a stderr that is not a terminal"
# stosb has no source: src-flushed is skipped, and said so.
expect_err "stosb has no source: src-flushed does not apply"

expect_eq format "$(jq -r .format m.json)" copyprof-costmodel
expect_eq version "$(jq -r .version m.json)" 1
expect_eq measured "$(jq -r .meta.measured m.json)" true
expect_eq runs "$(jq -r .meta.runs m.json)" 3
# The machine it was measured on, with the caches of the CPU it was pinned to.
cpuinfo() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | sed 's/.*: *//'; }
expect_eq "machine" "$(jq -c '.meta.machine | [.vendor_id, .family, .model, .stepping]' m.json)" \
	"[\"$(cpuinfo vendor_id)\",$(cpuinfo 'cpu family'),$(cpuinfo model),$(cpuinfo stepping)]"
expect_eq "caches of the pinned CPU" "$(jq '.meta.machine.caches.cpu == .meta.cpu' m.json)" true
l1d=$(for d in "/sys/devices/system/cpu/cpu$(jq .meta.cpu m.json)"/cache/index*; do
	[ "$(cat "$d/level")/$(cat "$d/type")" = 1/Data ] && sed 's/K$/*1024/' "$d/size"; done)
if [ -n "$l1d" ]; then
	expect_eq "L1d from sysfs" "$(jq -c '.meta.machine.caches | [.l1d, .source]' m.json)" \
		"[$((l1d)),\"sysfs\"]"
else
	expect_eq "L1d from CPUID (no sysfs caches)" "$(jq -r .meta.machine.caches.source m.json)" cpuid
fi
expect_eq erms "$(jq -r .meta.erms m.json)" \
	"$(grep -qw erms /proc/cpuinfo && echo true || echo false)"
for k in cpu_model kernel tool_version hostname start timer tsc_hz cpu; do
	[ "$(jq -r ".meta.$k // empty" m.json)" != "" ] || fail "meta.$k is missing"
done

# The limits this machine measured in the same session: its best store and copy loops (named),
# an empty call, the margin; no point of the model beats them by more than the margin (a call:
# half an empty call, COSTMODEL_LIMITS_CALL_SHARE).
expect_eq "limits loops" "$(jq -r '.limits | [.store_loop, .copy_loop] |
	map(. as $l | ["avx512", "avx2", "sse2", "rep_stosb", "rep_movsb"] | index($l) != null) |
	all' m.json)" true
expect_eq "limits positive" "$(jq '.limits | .store_bytes_per_ns > 0 and .copy_bytes_per_ns > 0
	and .call_ns > 0' m.json)" true
expect_eq "limits margin" "$(jq .limits.margin m.json)" 0.25
expect_err "limits this machine measured: store [0-9.]+ B/ns \\($(jq -r .limits.store_loop m.json)\\)"
beyond=$(jq '.limits as $l | [.impls[] | (if .name == "stosb" then $l.store_bytes_per_ns
	else $l.copy_bytes_per_ns end) as $r | .points[] |
	select(.ns < ([.size / ($r * (1 + $l.margin)), $l.call_ns * 0.5] | max))] |
	length' m.json)
expect_eq "points beyond the limits" "$beyond" 0

# Every requested implementation x applicable cache state x size, each point well formed.
want="memcpy_orig dst-flushed,memcpy_orig src-flushed,memcpy_orig warm,movsb dst-flushed,"
want+="movsb src-flushed,movsb warm,stosb dst-flushed,stosb warm"
got=$(jq -r '[.impls[] | "\(.name) \(.cache)"] | sort | join(",")' m.json)
expect_eq curves "$got" "$want"
for i in $(seq 0 7); do
	expect_eq "sizes of impls[$i]" "$(jq -c "[.impls[$i].points[].size]" m.json)" "[64,256,4096]"
	expect_eq "align of impls[$i]" "$(jq -c ".impls[$i].align" m.json)" "[0,0]"
done
bad=$(jq '[.impls[].points[] | select((.ns > 0 and .cycles > 0 and .spread >= 0 and
	.ns_min <= .ns and .ns <= .ns_max) | not)] | length' m.json)
expect_eq "malformed points" "$bad" 0
# 4 KiB costs far more than 64 B (about 20x on any x86 CPU): the timer measures something. The
# fastest run of each is compared: load on a shared machine only ever adds time.
big=$(jq '[.impls[] | select(.name == "memcpy_orig" and .cache == "warm") | .points[] |
	select(.size == 64 or .size == 4096) | .ns_min] | .[1] > 2 * .[0]' m.json)
expect_eq "memcpy_orig 4 KiB against 64 B" "$big" true

# --threshold is recorded on erms_threshold; --align on every curve; -o - is stdout.
expect_exit 0 "$COPYPROF" calibrate --quick --impl erms_threshold --sizes 100 --cache warm \
	--threshold 1024 --align 3,5 --runs 1 -o -
expect_eq threshold "$(jq .impls[0].threshold "$TMP/out")" 1024
expect_eq align "$(jq -c .impls[0].align "$TMP/out")" "[3,5]"
expect_eq runs "$(jq .meta.runs "$TMP/out")" 1

# A terminal gets a progress bar (script(1) provides one).
if command -v script >/dev/null; then
	script -qec "$COPYPROF calibrate --quick --impl movsb --cache warm -o tty.json" /dev/null \
		> tty.log 2>&1 || fail "calibrate on a terminal failed: $(cat tty.log)"
	grep -q '\[#*\.*\] *[0-9]*%' tty.log || fail "no progress bar on a terminal: $(cat tty.log)"
fi
ls ./*.tmp.* 2>/dev/null && fail "temporary files left behind"
exit 0
