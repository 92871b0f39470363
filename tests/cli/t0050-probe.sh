#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0050-probe: `copyprof probe` on a tiny assembled "kernel": call sites through a vmlinux, and
# through vmlinuz payloads (zstd, xz, gzip) under a KASLR slide; table dispatch; bad input.
. "$(dirname "$0")/lib.sh"
need_cmd as
need_cmd ld
need_cmd jq

cat >"$TMP/k.S" <<'EOF'
	.text
	.globl _text
_text:	nop
	.org 0x100
f:	endbr64
	mov %rbx, %rdx
	call __memcpy			/* +0x07 */
	mov %rax, %rcx
	call rep_movs_alternative	/* +0x0f */
	call other			/* +0x14: not a copy */
	jmp __x86_return_thunk		/* +0x19: not a copy */
	.org 0x140
__memcpy: ret
	.org 0x160
rep_movs_alternative: ret
	.org 0x180
__x86_return_thunk: ret
	.org 0x1a0
other:	ret
	.org 0x200
EOF
as "$TMP/k.S" -o "$TMP/k.o" || fail "as failed"
ld -static -nostdlib -e 0 -Ttext=0xffffffff81000000 "$TMP/k.o" -o "$TMP/vmlinux" ||
	fail "ld failed"

# The same kernel running 0x2e000000 higher (KASLR).
cat >"$TMP/kallsyms" <<'EOF'
ffffffffaf000000 T _text
ffffffffaf000000 T _stext
ffffffffaf000100 T f
ffffffffaf000140 T __memcpy
ffffffffaf000140 W memcpy
ffffffffaf000160 T rep_movs_alternative
ffffffffaf000180 T __x86_return_thunk
ffffffffaf0001a0 t other
ffffffffaf000200 T _etext
EOF

check_sites() {	# check_sites JSON-FILE SOURCE
	expect_eq "$2: text source" "$(jq -r .text_source "$1")" "$2"
	expect_eq "$2: KASLR slide" "$(jq -r .kaslr_slide "$1")" $((0x2e000000))
	expect_eq "$2: sites" "$(jq -c '[.sites[0].callsites[] |
		[.offset_hex, .address, .target, .len_reg]]' "$1")" \
		'[["0x7","0xffffffffaf000107","__memcpy","rdx"],["0xf","0xffffffffaf00010f","rep_movs_alternative","rcx"]]'
}

expect_exit 0 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/vmlinux" \
	--release 6.12.0 --site f --json
cp "$TMP/out" "$TMP/elf.json"
check_sites "$TMP/elf.json" vmlinux
# Without kcore every routine's dispatch is the table's, for the release given.
expect_eq "table dispatch" "$(jq -r '[.dispatch[].source] | unique | join(",")' "$TMP/elf.json")" \
	table

# A bzImage-like file: some setup bytes, then the compressed ELF, then a size trailer.
for z in "zstd -q -c" "xz -c" "gzip -c"; do
	tool=${z%% *}
	command -v "$tool" >/dev/null || { echo "no $tool: skipping its payload"; continue; }
	{ head -c 3000 /dev/urandom | tr -d '\037\050\375'; $z "$TMP/vmlinux"; printf 'SIZE'; } \
		>"$TMP/vmlinuz.$tool"
	expect_exit 0 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/vmlinuz.$tool" \
		--release 6.12.0 --site f --json
	check_sites "$TMP/out" vmlinuz
done

# Text output names the sites too.
expect_exit 0 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/vmlinux" --site f
expect_out '\+0x7 .*call +__memcpy +memcpy +len=rdx'
expect_out 'memcpy +from table'

# The callers of an entry (kprobe-ability depends on this machine's tracefs: not checked here).
expect_exit 0 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/vmlinux" \
	--release 6.12.0 --entry __memcpy --entry rep_movs_alternative --json
expect_eq "callers of __memcpy" "$(jq -c '.entries[0].callers | map([.function, .address,
	(.sites[] | .offset_hex, .instruction)])' "$TMP/out")" '[["f","0xffffffffaf000100","0x7","call"]]'
expect_eq "callers summary" "$(jq -c '.entries[0].callers_summary | [.text_source, .live,
	.modules_searched, .candidates, .not_instructions, .sites, .functions, .probe_with]' \
	"$TMP/out")" '["vmlinux",false,false,1,0,1,1,"--site"]'
expect_eq "callers of rep_movs_alternative" \
	"$(jq -c '.entries[1].callers[0] | [.function, .sites[0].offset]' "$TMP/out")" '["f",15]'
expect_exit 0 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/vmlinux" \
	--release 6.12.0 --entry __memcpy
expect_out "callers of __memcpy: 1 call site in 1 function"
expect_out "searched the core kernel in vmlinux, whose text is unpatched"
expect_out "^    f +1 site +kprobe [a-z]+ +\+0x7$"
expect_exit 0 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/vmlinux" \
	--release 6.12.0 --entry __memcpy --callers 0
expect_out "callers of __memcpy: 1 call site"
! grep -Eq "^    f " "$TMP/out" || fail "--callers 0 still lists callers: $(cat "$TMP/out")"
expect_exit 2 "$COPYPROF" probe --entry __memcpy --callers x
expect_err "--callers wants a number"

# Bad input: unknown function, unreadable text, hidden addresses, usage errors.
expect_exit 1 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/vmlinux" --site nosuch \
	--site f
expect_err "nosuch: not in"
expect_out "site f at 0xffffffffaf000100"
expect_exit 1 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux /nonexistent --release none \
	--site f
expect_err "no kernel text"
expect_err "/nonexistent: No such file"
expect_exit 1 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --vmlinux "$TMP/kallsyms" --site f
expect_err "neither ELF nor a vmlinuz"
sed 's/^[0-9a-f]*/0000000000000000/' "$TMP/kallsyms" >"$TMP/zero"
expect_exit 1 "$COPYPROF" probe --kallsyms "$TMP/zero" --site f
expect_err "zero addresses"
expect_exit 1 "$COPYPROF" probe --kallsyms "$TMP/kallsyms" --entry nosuch
expect_err "entry nosuch: not in"
expect_exit 1 "$COPYPROF" probe --kallsyms "$TMP/nonexistent"
expect_err "cannot open .*nonexistent"
expect_exit 2 "$COPYPROF" probe --bogus
expect_exit 2 "$COPYPROF" probe extra
expect_err "unexpected argument"
exit 0
