#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Extract the ELF vmlinux from a bzImage/vmlinuz: decompress from the first zstd/xz/gzip magic.
#
# Debian 6.12 uses zstd (28 b5 2f fd), 6.1 uses xz (fd 37 7a 58 5a 00). Like the kernel's
# scripts/extract-vmlinux we try each magic and keep the first result that is an ELF file.
# The payload is followed by other bytes (the size trailer), so decompressor errors about
# trailing data are expected and ignored.
set -euo pipefail

usage() {
	cat <<EOF
Usage: ${0##*/} VMLINUZ [OUTPUT]

Write the uncompressed vmlinux (ELF) inside VMLINUZ to OUTPUT (default: stdout).
Needs zstd, xz-utils, gzip.

Example:
  ${0##*/} .cache/vm/linux-image-*/root/boot/vmlinuz-* /tmp/vmlinux && objdump -d /tmp/vmlinux
EOF
}

# Byte offset of the first occurrence of the hex pattern $2 in file $1, or nothing.
magic_offset() {
	{ LC_ALL=C grep -hobUaP -m1 "$2" "$1" 2>/dev/null || true; } | head -n1 | cut -d: -f1
}

# Decompress $1 from offset $2 with command $3 into $4; true if the result is an ELF file.
try_decompress() {
	tail -c +"$(($2 + 1))" "$1" | $3 >"$4" 2>/dev/null || true
	[[ $(head -c 4 "$4" | od -An -tx1 | tr -d ' \n') == 7f454c46 ]]
}

main() {
	[[ ${1-} == -h || ${1-} == --help ]] && { usage; exit 0; }
	(($# == 1 || $# == 2)) || { usage >&2; exit 2; }
	local in=$1 out=${2:-/dev/stdout} off name
	[[ -r $in ]] || { echo "${0##*/}: cannot read $in" >&2; exit 1; }
	tmp=$(mktemp)	# global: the EXIT trap runs after main returns
	trap 'rm -f "$tmp"' EXIT
	local -A magic=([zstd]='\x28\xb5\x2f\xfd' [xz]='\xfd\x37\x7a\x58\x5a\x00' [gzip]='\x1f\x8b\x08')
	local -A cmd=([zstd]='zstd -dcq' [xz]='xz -dcq --single-stream' [gzip]='gzip -dcq')
	for name in zstd xz gzip; do
		off=$(magic_offset "$in" "${magic[$name]}")
		[[ -n $off ]] || continue
		if try_decompress "$in" "$off" "${cmd[$name]}" "$tmp"; then
			cat "$tmp" >"$out"
			exit 0
		fi
	done
	echo "${0##*/}: no zstd/xz/gzip payload with an ELF image found in $in" >&2
	exit 1
}

main "$@"
