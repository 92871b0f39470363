#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# glibc-code-diff.sh: whether two glibcs run the same instructions in their string functions.
#
# Usage: scripts/glibc-code-diff.sh ROOT_A ROOT_B [FUNCTION...]
# ROOT is "/" or a root holding usr/lib/x86_64-linux-gnu/libc.so.6 and its libc6-dbg debug
# file (scripts/glibc-root.sh makes Debian 13's). For each FUNCTION (default: glibc's
# memmove and memset implementations the replicas cover) it disassembles both, with addresses
# and displacements masked, and prints the instruction counts and how many lines differ; with
# -v before the roots, the differences too. Reads the code as a description: nothing is copied.
set -euo pipefail
verbose=
[ "${1:-}" = -v ] && { verbose=1; shift; }
[ $# -ge 2 ] || { sed -n 's/^# Usage: //p' "$0" >&2; exit 2; }
a=$1 b=$2
shift 2
funcs=("$@")
[ ${#funcs[@]} -gt 0 ] || funcs=(__memmove_avx512_unaligned_erms __memmove_evex_unaligned_erms
	__memmove_avx_unaligned_erms __memset_avx512_unaligned_erms __memset_evex_unaligned_erms
	__memset_avx2_unaligned_erms)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

debug_of() {
	local lib=$1 root=$2 id
	id=$(readelf -n "$lib" 2> /dev/null | awk '/Build ID/ { print $3 }')
	for d in "$root/usr/lib/debug" /usr/lib/debug; do
		[ -r "$d/.build-id/${id:0:2}/${id:2}.debug" ] && { echo "$d/.build-id/${id:0:2}/${id:2}.debug"; return; }
	done
	echo "glibc-code-diff: no debug file for $lib (build id $id)" >&2
	exit 1
}
disasm() {
	local lib=$1 dbg=$2 fn=$3 addr size
	read -r addr size < <(readelf -sW "$dbg" 2> /dev/null | awk -v f="$fn" '$8 == f { print $2, $3; exit }') ||
		return 0
	objdump -d --no-show-raw-insn --start-address="0x$addr" \
		--stop-address="$(printf '0x%x' $((0x$addr + size)))" "$lib" |
		awk -F'\t' 'NF >= 2 { print $2 }' | sed -E 's/0x[0-9a-f]+/X/g; s/[0-9a-f]+ <[^>]*>/L/g'
}
for root in "$a" "$b"; do
	lib=$root/usr/lib/x86_64-linux-gnu/libc.so.6
	[ -r "$lib" ] || { echo "glibc-code-diff: no $lib" >&2; exit 1; }
done
la=$a/usr/lib/x86_64-linux-gnu/libc.so.6 lb=$b/usr/lib/x86_64-linux-gnu/libc.so.6
da=$(debug_of "$la" "$a") db=$(debug_of "$lb" "$b")
for fn in "${funcs[@]}"; do
	disasm "$la" "$da" "$fn" > "$tmp/a"
	disasm "$lb" "$db" "$fn" > "$tmp/b"
	printf '%s: %d and %d instructions, %d lines differ\n' "$fn" "$(wc -l < "$tmp/a")" \
		"$(wc -l < "$tmp/b")" "$(diff "$tmp/a" "$tmp/b" | grep -c '^[<>]' || true)"
	[ -z "$verbose" ] || diff "$tmp/a" "$tmp/b" | sed 's/^/  /' || true
done
