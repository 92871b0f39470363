#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0051-srcline: a uprobe at wl_copy's `call memcpy` carries its DWARF source position (file and
# line of the memcpy statement) in the profile, and report prints it.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd objdump
cd "$TMP"

# The call's offset in wl_copy, from the disassembly: "ADDR <wl_copy>:" then "ADDR: call ... <memcpy".
read -r start call < <(objdump -d --no-show-raw-insn "$WL" | awk '
	/^[0-9a-f]+ <wl_copy>:$/ { start = $1; inside = 1; next }
	inside && /^$/ { exit }
	inside && /call.*<(__)?memcpy(@plt)?>/ { sub(":", "", $1); print start, $1; exit }')
off=$(( ${call:+16#$call - 16#$start} ))
[ -n "${call:-}" ] || fail "no call to memcpy in wl_copy: $(objdump -d "$WL" | grep -A8 '<wl_copy>:')"
want_line=$(grep -n 'memcpy(dst, src, n);' "$ROOT/tests/workload/copyload.c" | cut -d: -f1)
[ -n "$want_line" ] || fail "no memcpy statement in copyload.c"

"$COPYPROF" record --uprobe "$WL:wl_copy+$off" -o prof.json -- "$WL" copy=100:10 \
	> summary.txt 2> err.txt || fail "record failed: $(cat err.txt)"
expect_eq "calls at the call" "$(jq '.sites[0].calls' prof.json)" 10
expect_eq "source file" "$(jq -r '.sites[0].source.file' prof.json | xargs basename)" copyload.c
expect_eq "source line" "$(jq '.sites[0].source.line' prof.json)" "$want_line"
expect_eq "inline chain" "$(jq '.sites[0].source.inlined | length' prof.json)" 0

"$COPYPROF" report -i prof.json > report.txt || fail "report failed"
grep -q "^  source: copyload.c:$want_line\$" report.txt || fail "report lacks the source: $(head report.txt)"
"$COPYPROF" report -i prof.json --json > again.json || fail "report --json failed"
expect_eq "source round trip" "$(jq -S .sites[0].source again.json | md5sum)" \
	"$(jq -S .sites[0].source prof.json | md5sum)"
# merge keeps the position of the site it sums.
"$COPYPROF" merge -o merged.json prof.json prof.json > /dev/null 2>&1 || fail "merge failed"
expect_eq "merge keeps source" "$(jq -S .sites[0].source merged.json | md5sum)" \
	"$(jq -S .sites[0].source prof.json | md5sum)"

# Without DWARF there is no source field and no error.
objcopy --strip-debug "$WL" stripped || fail "objcopy failed"
"$COPYPROF" record --uprobe "$TMP/stripped:wl_copy+$off" -o bare.json -- ./stripped copy=100:3 \
	> /dev/null 2> err.txt || fail "record on a stripped binary failed: $(cat err.txt)"
expect_eq "stripped: no source" "$(jq '.sites[0] | has("source")' bare.json)" false
expect_no_leftover_progs
exit 0
