#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0127-glibc-knob-241: t0039 on another glibc: Debian 13's 2.41 in a chroot (scripts/glibc-root.sh,
# cached between runs). The workload runs under `chroot ROOT` with GLIBC_TUNABLES; record (a
# uprobe on the implementation 2.41 runs here, found by probing every candidate its debug file
# names) counts its calls exactly and stores the threshold 2.41's own loader reports; estimate
# answers in glibc's terms; then 2.41's own knob (__x86_rep_movsb_threshold, from the root's
# libc6-dbg), set in 2.41's code between passes over the same calls, must agree with the
# prediction as in t0039 (the shared part: glibc-knob-body.sh). The profile names 2.41 and the
# root. No timing is asserted.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd readelf
need_cmd chroot
GK="$OUT_DIR/tests/glibc_knob"
F='.inputs[0].families[0]'
cd "$TMP"

need_glibc_root
DBG=$LIBC_DBG
knob=$(readelf -sW "$DBG" 2> /dev/null | awk '$8 == "__x86_rep_movsb_threshold" { print "0x" $2 }')
[ -n "$knob" ] || fatal "2.41's debug file names no __x86_rep_movsb_threshold"
cp "$GK" "$R$work/glibc_knob"

# The implementation 2.41 runs here: every candidate probed at once on a short run.
printf '3000\t1\n' > "$R$work/probe.txt"
args=()
for s in $(readelf -sW "$DBG" 2> /dev/null |
	awk '$4 == "FUNC" && $8 ~ /^__memmove_(avx512|evex|avx|sse2)_unaligned_erms$/ { print $8 }' | sort -u); do
	args+=(--uprobe "$LIBC:$s")
done
[ ${#args[@]} -gt 0 ] || fatal "2.41's debug file names no __memmove_*_unaligned_erms"
"$COPYPROF" record "${args[@]}" -o which.json -- chroot "$R" "$work/glibc_knob" \
	dist="$work/probe.txt" calls=2000 > /dev/null 2> which.err ||
	fatal "record of the candidates failed: $(cat which.err)"
sym=$(jq -r '.sites[] | select(.calls >= 2000) | .symbol' which.json)
[ "$(echo "$sym" | grep -c .)" = 1 ] || fatal "not one implementation took the 2000 calls: $(jq -c '[.sites[] | [.symbol, .calls]]' which.json)"
impl=$LIBC:$sym
lst=$(chroot "$R" /lib64/ld-linux-x86-64.so.2 --list-tunables | grep x86_rep_movsb_threshold)
min=$(($(echo "$lst" | sed -n 's/.*min: \(0x[0-9a-f]*\).*/\1/p')))
dflt=$(($(echo "$lst" | sed -n 's/.*: \(0x[0-9a-f]*\) (min.*/\1/p')))
echo "glibc 2.41: $sym; its threshold $dflt (min $min) at $knob"

RUN=(chroot "$R")
GKR=$work/glibc_knob
DISTW=$R$work/dist.txt
DISTP=$work/dist.txt
. "$ROOT/tests/cli/glibc-knob-body.sh"
expect_eq "the profile's glibc" "$(jq -r '.meta.glibc | "\(.version) \(.root)"' p.json)" "2.41 $R"
expect_eq "estimate's glibc" "$(jq -r "$F.glibc | \"\(.version) \(.rules_exact)\"" est1.json)" "2.41 true"
