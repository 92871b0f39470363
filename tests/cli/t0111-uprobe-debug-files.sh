#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0111-uprobe-debug-files: a stripped program's functions are found through its .gnu_debuglink
# (debug file in .debug/, as objcopy makes it) and counted exactly; without any debug file a
# symbol is refused with what was searched, while its file offset is still placed by the unwind
# table, boundary-checked and counted exactly.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd objcopy
cd "$TMP"

mkdir -p linked/.debug bare
objcopy --only-keep-debug "$WL" linked/.debug/copyload.debug
objcopy --strip-all --add-gnu-debuglink=linked/.debug/copyload.debug "$WL" linked/copyload
objcopy --strip-all "$WL" bare/copyload
[ -z "$(nm linked/copyload 2>/dev/null)" ] || fail "objcopy --strip-all left symbols"

# The debug link: wl_copy is found in linked/.debug/copyload.debug.
"$COPYPROF" record --uprobe linked/copyload:wl_copy --uprobe "linked/copyload:wl_clear,len=arg1" \
	-o linked.json -- linked/copyload copy=100:17 copy=4096:5@1 clear=64:9 > out.txt 2>&1 ||
	fail "record on the debug-linked copy failed: $(cat out.txt)"
expect_eq "debuglink wl_copy calls" "$(jq '.sites[0].calls' linked.json)" 22
expect_eq "debuglink wl_copy bytes" "$(jq '.sites[0].bytes' linked.json)" $((100 * 17 + 4096 * 5))
expect_eq "debuglink wl_clear calls" "$(jq '.sites[1].calls' linked.json)" 9
expect_eq "debuglink 4096 bucket" "$(jq '[.sites[0].buckets[] | select(.lo == 4096)][0].count' linked.json)" 5

# A debug file of another build is not taken for this one.
printf 'int main(void) { return 0; }\n' > other.c
if command -v cc > /dev/null && cc -g other.c -o other; then
	objcopy --only-keep-debug other linked/.debug/copyload.debug
	expect_exit 1 "$COPYPROF" record --uprobe linked/copyload:wl_copy -d 1
	expect_err "copyload.debug is the debug file of another build \(build id [0-9a-f]+, want [0-9a-f]+\)"
fi

# No debug file at all: the name is refused, saying what was searched.
expect_exit 1 env -u DEBUGINFOD_URLS "$COPYPROF" record --uprobe bare/copyload:wl_copy -d 1
expect_err "no function 'wl_copy' in .*bare/copyload \(searched .symtab and .dynsym of .*bare/copyload; no debug file: no /usr/lib/debug/.build-id/[0-9a-f]{2}/[0-9a-f]+\.debug; DEBUGINFOD_URLS is not set"

# Its file offset works: the unwind table says where wl_copy starts.
load=$(readelf -lW "$WL" | awk '$1 == "LOAD" && / R?W?E / { print $2, $3 }' | head -n 1)
vaddr=$(printf '0x%x' "0x$(nm "$WL" | awk '$3 == "wl_copy" { print $1 }')")
foff=$(printf '0x%x' $((vaddr - ${load#* } + ${load% *})))
"$COPYPROF" record --uprobe "bare/copyload:$foff" -o bare.json -- bare/copyload copy=7:3 \
	copy=2048:11 > out.txt 2>&1 || fail "record on the stripped copy at $foff failed: $(cat out.txt)"
expect_eq "stripped raw calls" "$(jq '.sites[0].calls' bare.json)" 14
expect_eq "stripped raw bytes" "$(jq '.sites[0].bytes' bare.json)" $((7 * 3 + 2048 * 11))
expect_eq "stripped raw symbol" "$(jq -r '.sites[0] | "\(.symbol)+\(.offset)"' bare.json)" "$foff+0"
expect_exit 1 "$COPYPROF" record --uprobe "bare/copyload:$(printf '0x%x' $((foff + 1)))" -d 1
expect_err "file offset $(printf '0x%x' $((foff + 1))) is inside an instruction of the function at address $vaddr"
expect_no_leftover_progs
exit 0
