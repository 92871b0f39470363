#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0110-uprobe-glibc-impl: record --uprobe libc.so.6:memcpy is refused as an IFUNC with the
# implementation its resolver picks on this CPU (from libc6-dbg's debug file) and the command to
# probe it; that command, run as printed, counts a workload's memcpy and memmove calls exactly,
# bucket by bucket. The raw form FILE:0xOFFSET counts what the symbol form counts and refuses
# offsets that are not instructions or not file offsets.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"

# The libc the workload really runs with.
LIBC=$(ldd "$WL" | awk '$1 == "libc.so.6" { print $3 }')
[ -n "$LIBC" ] && [ -r "$LIBC" ] || fail "cannot tell which libc.so.6 $WL uses: $(ldd "$WL")"

expect_exit 1 "$COPYPROF" record --uprobe "$LIBC:memcpy" -d 1
expect_err "'memcpy' in .*libc.so.6 is an IFUNC"
expect_err "\(docs/user-targets.md#ifuncs\)"
grep -q '^## IFUNCs' "$ROOT/docs/user-targets.md" || fail "docs/user-targets.md has no IFUNCs section"
target=$(sed -n 's/.*Probe that: copyprof record --uprobe \([^ ]*\) (docs.*/\1/p' "$TMP/err")
if [ -z "$target" ]; then
	grep -q "has no name without" "$TMP/err" ||
		fail "the IFUNC message names no implementation: $(cat "$TMP/err")"
	skip "libc6-dbg is not installed (scripts/deps.sh installs it): the implementation has no name"
fi
impl=${target##*:}
echo "memcpy resolves to $impl on this CPU ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2))"
[[ $impl == __memcpy_* || $impl == __memmove_* ]] || fail "'$impl' is not a memmove implementation"
[ ! -e copyprof.json ] || fail "a refused record wrote a profile"

# The command as printed, on a workload with a known multiset of memcpy and memmove lengths:
# lengths on both sides of 2*VEC (64 and 128), of glibc's rep movsb threshold (2112, 2113 with
# FSRM), and above its stop threshold's usual range; memmove calls overlap (dst = src + 1).
"$COPYPROF" record --uprobe "$target" -o prof.json -- "$WL" copy=0:3 copy=7:5 copy=64:11 \
	copy=100:1000 copy=128:9 copy=129:4 copy=2112:6 copy=2113:7 copy=5000:300 copy=70000:7@3 \
	move=300:13 move=4096:21 > summary.txt 2> err.txt || fail "record failed: $(cat err.txt)"
cat > calls.txt <<EOF
0 3
7 5
64 11
100 1000
128 9
129 4
2112 6
2113 7
5000 300
70000 7
300 13
4096 21
EOF
expect_eq "calls" "$(jq '.sites[0].calls' prof.json)" "$(awk '{c += $2} END {print c}' calls.txt)"
expect_eq "bytes" "$(jq '.sites[0].bytes' prof.json)" "$(awk '{b += $1 * $2} END {print b}' calls.txt)"
expect_eq "symbol" "$(jq -r '.sites[0].symbol' prof.json)" "$impl"
# Expected buckets (lib.sh).
want_buckets calls.txt > want.txt
jq -r '.sites[0].buckets[] | "\(.lo) \(.count) \(.bytes)"' prof.json | sort -n > got.txt
diff -u want.txt got.txt >&2 || fail "the buckets of $impl differ from the calls the workload made"
expect_eq "dst_align[3]" "$(jq '.sites[0].dst_align[3]' prof.json)" 7

# The raw form: the file offset of wl_copy counts what wl_copy counts.
"$COPYPROF" record --uprobe "$WL:wl_copy" -o named.json -- "$WL" copy=100:10 > /dev/null 2>&1 ||
	fail "record --uprobe $WL:wl_copy failed"
off=$(readelf -lW "$WL" | awk '$1 == "LOAD" && / R?W?E / { print $2, $3 }' | head -n 1)
vaddr=$(printf '0x%x' "0x$(nm "$WL" | awk '$3 == "wl_copy" { print $1 }')")
foff=$(printf '0x%x' $((vaddr - ${off#* } + ${off% *})))
"$COPYPROF" record --uprobe "$WL:$foff" -o raw.json -- "$WL" copy=100:10 copy=3000:4 \
	> raw.txt 2>&1 || fail "record --uprobe $WL:$foff failed: $(cat raw.txt)"
expect_eq "raw form calls" "$(jq '.sites[0].calls' raw.json)" 14
expect_eq "raw form bytes" "$(jq '.sites[0].bytes' raw.json)" 13000
expect_eq "raw form named" "$(jq -r '.sites[0] | "\(.symbol)+\(.offset)"' raw.json)" "wl_copy+0"
expect_exit 1 "$COPYPROF" record --uprobe "$WL:$(printf '0x%x' $((foff + 1)))" -d 1
expect_err "file offset $(printf '0x%x' $((foff + 1))) \(wl_copy\+0x1\) is inside an instruction of wl_copy"
expect_err "the nearest instruction boundaries are $foff \(wl_copy\+0x0\)"
expect_exit 1 "$COPYPROF" record --uprobe "$WL:0x10" -d 1
expect_err "file offset 0x10 is not in an executable segment"
expect_exit 2 "$COPYPROF" record --uprobe "$WL:$foff+4" -d 1
expect_err "a file offset takes no \+OFF"

# A non-PIE program: its code's addresses are not file offsets, and the message says which is.
if command -v cc > /dev/null; then
	printf '__attribute__((noinline)) int f(int x) { return x * 3; }\nint main(int c, char **v) { return f(c) == 99; }\n' > nopie.c
	cc -O2 -no-pie -fno-pie nopie.c -o nopie || fail "cannot build a non-PIE program"
	fa=$(printf '0x%x' "0x$(nm nopie | awk '$3 == "f" { print $1 }')")
	load=$(readelf -lW nopie | awk '$1 == "LOAD" && / R?W?E / { print $2, $3 }' | head -n 1)
	fo=$(printf '0x%x' $((fa - ${load#* } + ${load% *})))
	expect_exit 1 "$COPYPROF" record --uprobe "./nopie:$fa" -d 1
	expect_err "$fa is not a file offset in the code of .*nopie, but the address $fa is.*give its file offset, .*nopie:$fo"
	"$COPYPROF" record --uprobe "./nopie:$fo" -o nopie.json -- ./nopie > /dev/null 2>&1 ||
		fail "record --uprobe nopie:$fo failed"
	expect_eq "non-PIE f calls" "$(jq '.sites[0].calls' nopie.json)" 1
fi
expect_no_leftover_progs
exit 0
