#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0171-glibc-ifunc-rule: estimate --today glibc takes the implementation that the IFUNC of the
# input's glibc version picks on its CPU (copyprof's own rule table, asm-ref/glibc_select.c),
# and that pick is the one the real glibc makes here: on the host's glibc (2.36), the one its
# own resolver returns (record's IFUNC refusal names it); on Debian 13's 2.41 in a chroot
# (scripts/glibc-root.sh), the one of every __memmove_*_unaligned_erms probed at once that
# counts the program's calls. estimate names the variant and where it came from, in text and
# JSON; on a CPU whose vector features are not known it refuses, with the reason.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd cc
need_cmd readelf
need_cmd chroot
cd "$TMP"
CM="$ROOT/examples/data/glibc-threshold/cm.json"
# glibc's memcpy is its memmove: the family of the probed name's.
T='[.inputs[0].families[] | select(.family == "memcpy" or .family == "memmove")][0].today'

# The suffix of an implementation's name: __memcpy_X and __memmove_X are one code.
suffix() { sed 's/^__\(memcpy\|memmove\|mempcpy\)_//'; }

# The host's glibc: its own resolver's pick, named by record's refusal.
LIBC=$(ldd "$WL" | awk '$1 == "libc.so.6" { print $3 }')
[ -r "$LIBC" ] || fatal "cannot tell which libc.so.6 $WL uses"
expect_exit 1 "$COPYPROF" record --uprobe "$LIBC:memcpy" -d 1
target=$(sed -n 's/.*Probe that: copyprof record --uprobe \([^ ]*\) (docs.*/\1/p' "$TMP/err")
[ -n "$target" ] || skip "libc6-dbg is not installed (scripts/deps.sh installs it): no name"
impl=${target##*:}
"$COPYPROF" record --uprobe "$target" -o host.json -- "$WL" copy=100:10 copy=3000:4 \
	> /dev/null 2> rec.err || fatal "record failed: $(cat rec.err)"
ver=$(jq -r '.meta.glibc.version' host.json)
echo "host glibc $ver picks $impl here"
expect_exit 0 "$COPYPROF" estimate -i host.json -m "$CM" --model-only --today glibc --json
cp out host-est.json
expect_eq "host: the rule's pick is glibc's own" \
	"$(jq -r "$T.glibc_symbol" host-est.json | suffix)" "$(echo "$impl" | suffix)"
expect_eq "host: from" "$(jq -r "$T.from" host-est.json)" ifunc_rule
expect_exit 0 "$COPYPROF" estimate -i host.json -m "$CM" --model-only --json
expect_eq "host: the same replica as the probed function's" \
	"$(jq -r "$T.impl" host-est.json)" "$(jq -r "$T.impl" out)"
expect_eq "host: recorded: from" "$(jq -r "$T.from" out)" probed
expect_exit 0 "$COPYPROF" estimate -i host.json -m "$CM" --model-only --today glibc
expect_out "^  today: glibc_memmove_[a-z0-9_]* \\(__memmove_$(echo "$impl" | suffix), glibc $ver's IFUNC rule for this CPU, "
expect_out "^  glibc's IFUNC: glibc $ver: .*; assumed: no glibc.cpu.hwcaps tunable$"

# Another CPU's machine block: its vector features are not recorded, so no pick.
jq '.meta.machine.model += 1' host.json > other.json
expect_exit 1 "$COPYPROF" estimate -i other.json -m "$CM" --model-only --today glibc
expect_err "glibc's IFUNC decides by AVX2, AVX-512 and RTM, which the machine block of another CPU does not record"
# --hist: no machine of its own; the cost model's is this machine's (copied from the profile).
printf '100 10\n3000 4\n' > sizes.txt
expect_exit 1 "$COPYPROF" estimate --hist sizes.txt -m "$CM" --model-only --today glibc
expect_err "neither the input nor the cost model records its machine"
jq --slurpfile h host.json '.meta.machine = $h[0].meta.machine' "$CM" > cm-here.json
expect_exit 0 "$COPYPROF" estimate --hist sizes.txt -m cm-here.json --model-only --today glibc --json
expect_eq "--hist: the rule's pick for the cost model's CPU" \
	"$(jq -r "$T | \"\(.from) \(.glibc_symbol | sub(\"^__[a-z]*_\"; \"\"))\"" out)" \
	"ifunc_rule $(echo "$impl" | suffix)"
# A size table takes the cost model's machine as its own: "this CPU" is the model's.
w="glibc 2.36's IFUNC rule for this CPU" # no version recorded: 2.36's, said
expect_eq "--hist: why" "$(jq -r "$T.why" out | grep -o "$w")" "$w"
expect_exit 2 "$COPYPROF" estimate -i host.json -m "$CM" --today glibc --today memcpy_orig
expect_err "memcpy already has today's code glibc: one --today per family"

# Debian 13's 2.41, in a chroot: which implementation counts the calls, all probed at once.
need_glibc_root
cat > cw.c <<'C'
#include <stdio.h>
#include <string.h>
static char a[1 << 16], b[1 << 16];
void *(*volatile cp)(void *, const void *, size_t) = memcpy;
int main(void)
{
	int k;
	for (k = 0; k < 17; k++)
		cp(b, a, 100 + k * 300);
	return 0;
}
C
cc -O2 -o cw cw.c || fatal "cannot build the workload"
cp cw "$R$work/cw"
impls=$(readelf -sW "$LIBC_DBG" |
	awk '$4 == "FUNC" && $8 ~ /^__memmove_(avx512|evex|avx|sse2)_unaligned_erms(_rtm)?$/ { print $8 }' |
	sort -u)
[ -n "$impls" ] || fatal "the root's debug file names no __memmove_*_unaligned_erms"
args=()
for i in $impls; do args+=(--uprobe "$LIBC:$i"); done
"$COPYPROF" record "${args[@]}" -o r241.json -- chroot "$R" "$work/cw" > /dev/null 2> rec.err ||
	fatal "record of the chrooted program failed: $(cat rec.err)"
expect_eq "2.41: calls over every implementation" "$(jq '[.sites[].calls] | add' r241.json)" 17
ran=$(jq -r '.sites[] | select(.calls > 0) | .symbol' r241.json)
expect_eq "2.41: one implementation ran them" "$(echo "$ran" | wc -l)" 1
echo "glibc 2.41 runs $ran here"
expect_exit 0 "$COPYPROF" estimate -i r241.json -m "$CM" --model-only --today glibc --json
expect_eq "2.41: the rule's pick is the one that ran" "$(jq -r "$T.glibc_symbol" out)" "$ran"
expect_eq "2.41: from" "$(jq -r "$T.from" out)" ifunc_rule
expect_eq "2.41: the rule names its version" "$(jq -r "$T.ifunc_rule" out | cut -d: -f1)" \
	"glibc 2.41"
expect_no_leftover_progs
