#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0126-glibc-chroot: a process whose libc is another glibc, in a chroot (Debian 13's 2.41, from
# Debian's archive: scripts/glibc-root.sh, cached between runs), is recorded like any other. A
# host-built program copies known lengths through memcpy under `chroot ROOT`; record --uprobe
# on that root's libc (by its host path, and through /proc/PID/root with --pid) resolves the
# implementation from the root's own debug file (found by build id under the root), counts
# every call exactly, and the profile names glibc 2.41, its build id and the root. estimate
# names 2.41 and today's threshold, and the thresholds 2.41's rules give for this CPU equal
# what that glibc's own `ld.so --list-tunables`, run in the root, prints here; with the
# recorded thresholds removed, today's is that rule's.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd python3
need_cmd cc
need_cmd readelf
need_cmd chroot
cd "$TMP"

need_glibc_root
"$R/lib64/ld-linux-x86-64.so.2" "$LIBC" > banner.txt 2>&1 || true
grep -q 'release version 2\.41\.' banner.txt || fatal "the root's libc is not 2.41: $(head -1 banner.txt)"
id=$LIBC_ID
[ ! -e "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] ||
	echo "note: the host has this build id's debug file too"

# A host-built program: waits for its go file (when given one), then memcpy's LEN:COUNT pairs
# through a pointer the compiler cannot see through (a real call into libc each time).
cat > cw.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static char a[1 << 16], b[1 << 16];
void *(*volatile cp)(void *, const void *, size_t) = memcpy;
int main(int argc, char **argv)
{
	int i = 1;
	if (argc > 1 && argv[1][0] == '/')
		for (i = 2; access(argv[1], F_OK); )
			usleep(10000);
	for (; i < argc; i++) {
		unsigned long len, n, k;
		if (sscanf(argv[i], "%lu:%lu", &len, &n) != 2 || len > sizeof(a))
			return 2;
		for (k = 0; k < n; k++)
			cp(b, a, len);
	}
	return 0;
}
C
cc -O2 -o cw cw.c || fatal "cannot build the workload"
cp cw "$R$work/cw"
chroot "$R" "$work/cw" 5:1 || fatal "the host-built program does not run under chroot $R"
CALLS=$((10 + 4 + 3))
BYTES=$((100 * 10 + 3000 * 4 + 5000 * 3))

# Which implementation 2.41 picks here: every memmove one the root's debug file names, probed at
# once; all calls land in one.
impls=$(readelf -sW "$LIBC_DBG" |
	awk '$4 == "FUNC" && $8 ~ /^__memmove_(avx512|evex|avx|sse2)_unaligned_erms$/ { print $8 }' | sort -u)
[ -n "$impls" ] || fatal "the root's debug file names no __memmove_*_unaligned_erms"
args=()
for i in $impls; do args+=(--uprobe "$LIBC:$i"); done
"$COPYPROF" record "${args[@]}" -o all.json -- chroot "$R" "$work/cw" 100:10 3000:4 5000:3 \
	> /dev/null 2> rec.err || fatal "record of the chrooted program failed: $(cat rec.err)"
expect_eq "calls over every implementation" "$(jq '[.sites[].calls] | add' all.json)" $CALLS
impl=$(jq -r '.sites[] | select(.calls > 0) | .symbol' all.json)
expect_eq "one implementation ran them" "$(echo "$impl" | wc -l)" 1
echo "glibc 2.41 runs $impl here"

# By the root's host path, with the command.
"$COPYPROF" record --uprobe "$LIBC:$impl" -o host.json -- chroot "$R" "$work/cw" 100:10 \
	3000:4 5000:3 > /dev/null 2> rec.err || fatal "record failed: $(cat rec.err)"
expect_eq "host path: calls" "$(jq '.sites[0].calls' host.json)" $CALLS
expect_eq "host path: bytes" "$(jq '.sites[0].bytes' host.json)" $BYTES
expect_eq "host path: version" "$(jq -r '.meta.glibc.version' host.json)" 2.41
expect_eq "host path: root" "$(jq -r '.meta.glibc.root' host.json)" "$R"
expect_eq "host path: build id" "$(jq -r '.meta.glibc.build_id' host.json)" "$id"
# Its loader, its links followed inside the root (lib64 -> usr/lib64 -> ../lib/...).
expect_eq "host path: the root's loader asked" "$(jq -r '.meta.glibc.ldso' host.json)" \
	"$(realpath "$R/lib64/ld-linux-x86-64.so.2")"

# Through /proc/PID/root, with --pid: the process's own root names its libc.
rm -f "$R$work/go"
chroot "$R" "$work/cw" "$work/go" 100:10 3000:4 5000:3 &
cw=$!
wait_for "the chrooted program" test -e "/proc/$cw/root$work/cw"
"$COPYPROF" record --uprobe "/proc/$cw/root/usr/lib/x86_64-linux-gnu/libc.so.6:$impl" \
	--pid "$cw" -o pid.json > /dev/null 2> pid.err &
rec=$!
trap 'kill $cw $rec 2>/dev/null' EXIT
await grep -q "recording 1 site" pid.err
grep -q "recording 1 site" pid.err || fail "record --pid did not start: $(cat pid.err)"
touch "$R$work/go"
wait "$cw" || fail "the chrooted program failed"
kill -INT "$rec"
wait "$rec" || fail "record --pid failed: $(cat pid.err)"
expect_eq "/proc/PID/root: calls" "$(jq '.sites[0].calls' pid.json)" $CALLS
expect_eq "/proc/PID/root: bytes" "$(jq '.sites[0].bytes' pid.json)" $BYTES
want_buckets <(printf '100 10\n3000 4\n5000 3\n') > want.txt
jq -r '.sites[0].buckets[] | "\(.lo) \(.count) \(.bytes)"' pid.json | sort -n > got.txt
check "/proc/PID/root: every bucket" diff -u want.txt got.txt
expect_eq "/proc/PID/root: version" "$(jq -r '.meta.glibc.version' pid.json)" 2.41
expect_eq "/proc/PID/root: release" "$(jq -r '.meta.glibc.release' pid.json)" \
	"$(sed -n 's/.*(\(.*\)) stable release.*/\1/p' banner.txt)"
expect_eq "/proc/PID/root: root" "$(jq -r '.meta.glibc.root' pid.json)" "$R"

# What 2.41 itself lists here, run in the root.
chroot "$R" /lib64/ld-linux-x86-64.so.2 --list-tunables > tun.txt ||
	fatal "2.41's loader does not run in $R"
# %u: 2.41 turns REP STOSB off on AMD with SIZE_MAX, beyond %d (and beyond jq's doubles, below)
tun() { printf '%u' "$(sed -n "s/^glibc.cpu.x86_$1: \(0x[0-9a-f]*\) .*/\1/p" tun.txt)"; }
movsb=$(tun rep_movsb_threshold)
echo "2.41 here: rep_movsb $movsb, non-temporal $(tun non_temporal_threshold)," \
	"rep_stosb $(tun rep_stosb_threshold), memset non-temporal $(tun memset_non_temporal_threshold)"

CM="$ROOT/examples/data/glibc-threshold/cm.json"
G='.inputs[0].families[0].glibc'
expect_exit 0 "$COPYPROF" estimate -i pid.json -m "$CM" --model-only --json
cp out est.json
expect_eq "estimate: version" "$(jq -r "$G.version" est.json)" 2.41
expect_eq "estimate: rules" "$(jq -r "$G | \"\(.rules) \(.rules_exact)\"" est.json)" "2.41 true"
expect_eq "estimate: today, recorded" "$(jq -r "$G | \"\(.today) \(.today_from)\"" est.json)" \
	"$movsb default_recorded"
expect_eq "estimate: root" "$(jq -r "$G.root" est.json)" "$R"
for t in rep_movsb_threshold non_temporal_threshold rep_stosb_threshold \
	memset_non_temporal_threshold; do
	expect_eq "2.41's rule here: $t" "$(python3 -c 'import json, sys
print(json.load(open("est.json"))["inputs"][0]["families"][0]["glibc"]["rule_defaults"][sys.argv[1]]["value"])' "$t")" "$(tun $t)"
done
expect_exit 0 "$COPYPROF" estimate -i pid.json -m "$CM" --model-only
expect_out "^  glibc 2\.41 \(Debian GLIBC 2\.41-[^)]*\), root $R$"
expect_out "^  glibc 2\.41's rule for this CPU: glibc\.cpu\.x86_rep_movsb_threshold=$movsb \("

# Without the recorded thresholds, today's is 2.41's rule for this CPU, said.
jq 'del(.meta.glibc.rep_movsb_threshold, .meta.glibc.rep_stosb_threshold)' pid.json > rule.json
expect_exit 0 "$COPYPROF" estimate -i rule.json -m "$CM" --model-only --json
expect_eq "rule: today" "$(jq -r "$G | \"\(.today) \(.today_from)\"" out)" "$movsb version_rule"
if [ "$(jq -r '.meta.machine.vendor' pid.json)" = amd ]; then
	expect_eq "rule on AMD: today is the non-temporal threshold" "$movsb" "$(tun non_temporal_threshold)"
	jq -r "$G.note" out | grep -q "already avoids REP MOVSB" ||
		fail "AMD: no note that 2.41 avoids REP MOVSB: $(jq -r "$G.note" out)"
else
	expect_eq "rule off AMD: no note" "$(jq -r "$G.note" out)" null
fi
expect_exit 0 "$COPYPROF" estimate -i rule.json -m "$CM" --model-only
expect_out "glibc 2\.41, glibc\.cpu\.x86_rep_movsb_threshold=$movsb \(the version's rule for this CPU\)"
expect_no_leftover_progs
