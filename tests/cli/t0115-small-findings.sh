#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0115-small-findings: issue 25's smaller findings, each refused or right now. record -d nan,
# -d inf and -i inf are usage errors (they recorded without end); a site or caller offset of -1
# or 1.5 is refused (it read as +0x0); \u0000 in any string is refused (it cut the symbol),
# a literal backslash-u is kept; a cost model point with ns 1e308 is refused (the commit
# paragraph said -nan%); merge of 20,000 cpu_flags (12 s before) gives the exact sorted set,
# and the same set in another order, with a duplicate, is the same group. Without /proc,
# calibrate --hist says this machine's CPU is unknown, not the cost model's.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"
G="$ROOT/tests/golden/profile-synthetic.json"
C="$ROOT/tests/golden/profile-4k-cooperlake.json"
M="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"

# -d and -i: parsed before anything runs, so no root is needed to see the refusal.
for d in nan inf -inf NaN INF 1e400; do
	expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" -d "$d"
	expect_err "-d $d: give a positive number of seconds"
done
expect_exit 2 "$COPYPROF" record --uprobe "$WL:wl_copy" -i inf -d 1
expect_err "-i inf: give the interval in seconds"
echo "ok: -d nan/inf/-inf/NaN/INF/1e400 and -i inf are exit 2"

# Offsets.
for off in -1 1.5 '"16"'; do
	jq ".sites[0].offset = $off" "$G" > off.json
	expect_exit 1 "$COPYPROF" report -i off.json
	expect_err 'off.json: site 0: "offset" must be an integer from 0 to 2\^64 - 2'
	expect_exit 1 "$COPYPROF" diff "$G" off.json
done
jq '.sites[0].callers[0].offset = -1' "$ROOT/tests/golden/profile-callers.json" > coff.json
expect_exit 1 "$COPYPROF" report -i coff.json
expect_err "coff.json: site 0's caller: \"offset\" must be an integer"
jq '.sites[0].offset = 16' "$G" > off16.json
expect_exit 0 "$COPYPROF" report -i off16.json
expect_out 'app_copy\+0x10'
echo "ok: offsets -1, 1.5 and \"16\" refused (site and caller), 16 shown as +0x10"

# \u0000: refused wherever it is; the six characters \\u0000 are a name like any other.
jq '.sites[0].symbol = "app\u0000copy"' "$G" > nul.json
expect_exit 1 "$COPYPROF" report -i nul.json
expect_err 'nul.json is not valid JSON for copyprof: \\u0000 \(a NUL character\) at byte [0-9]+'
expect_exit 1 "$COPYPROF" diff "$G" nul.json
expect_err '\\u0000 \(a NUL character\)'
jq '.meta.hostname = "h\u0000"' "$G" > nulmeta.json
expect_exit 1 "$COPYPROF" merge -o m.json nulmeta.json
expect_err '\\u0000'
jq '.impls[0].name = "memcpy\u0000_orig"' "$M" > nulmodel.json
expect_exit 1 "$COPYPROF" estimate -i "$C" -m nulmodel.json
expect_err 'nulmodel.json.* \\u0000 \(a NUL character\)'
jq '.sites[0].symbol = "app\\u0000copy"' "$G" > backslash.json
expect_exit 0 "$COPYPROF" report -i backslash.json
grep -qF 'app_copy' "$TMP/out" && fail "the symbol was not replaced"
grep -qF 'app\u0000copy+0x0' "$TMP/out" || fail "a literal \\u0000 was not kept: $(grep site "$TMP/out")"
echo "ok: \\u0000 refused in profiles and cost models, a literal backslash-u kept"

# Cost model values: finite, positive, bounded (1 s plus 1 us a byte).
jq '.impls[0].points[4].ns = 1e308' "$M" > huge.json
expect_exit 1 "$COPYPROF" estimate -i "$C" -m huge.json
expect_err 'huge.json: memcpy_orig \(warm\) point 4 needs .* "ns" > 0, at most 1 s plus 1 us a byte'
grep -q 'nan' "$TMP/out" && fail "estimate printed nan: $(grep nan "$TMP/out")"
jq '.impls[0].points[0].ci_ns = 1e300' "$M" > ci.json
expect_exit 1 "$COPYPROF" estimate -i "$C" -m ci.json
expect_err 'ci_ns, ns_min, ns_max and cycles >= 0 and bounded as ns is'
jq '.impls[0].points[0].ns_min = -1' "$M" > nsmin.json
expect_exit 1 "$COPYPROF" estimate -i "$C" -m nsmin.json
expect_exit 0 "$COPYPROF" estimate -i "$C" -m "$M"
grep -qi 'nan\|inf%' "$TMP/out" && fail "the seed model gives nan or inf: $(grep -i 'nan\|inf%' "$TMP/out")"
echo "ok: ns 1e308, ci_ns 1e300, ns_min -1 refused; the seed model's estimate has no nan"

# merge and cpu_flags: exact, order and duplicates do not split a group.
jq '.meta.cpu_flags = [range(20000) | "f\(20000 - .)"]' "$G" > many.json
jq '.meta.cpu_flags = ([range(20000) | "f\(. + 1)"] + ["f7"]) | .meta.hostname = "host-b"' \
	"$G" > many-b.json
expect_exit 0 "$COPYPROF" merge -o merged.json many.json many-b.json
expect_eq "groups" "$(jq '.groups | length' merged.json)" 1
expect_eq "flags" "$(jq '.meta.cpu_flags | length' merged.json)" 20000
expect_eq "flags sorted, unique" "$(jq '.meta.cpu_flags == (.meta.cpu_flags | unique)' merged.json)" true
expect_eq "hosts" "$(jq -c '.groups[0].hosts' merged.json)" '["host-a","host-b"]'
expect_eq "calls" "$(jq '[.sites[].calls] | add' merged.json)" $((2 * $(jq '[.sites[].buckets[].count] | add' "$G")))
jq '.meta.cpu_flags = ["f1", "f2"]' "$G" > two.json
expect_exit 0 "$COPYPROF" merge -o split.json many.json two.json
expect_eq "groups of different flags" "$(jq '.groups | length' split.json)" 2
echo "ok: 20,000 flags merged to one group of 20,000, other flags a group of their own"

# Without /proc this machine's CPU is unknown: calibrate --hist says so (it blamed "the cost
# model's CPU", which the model names). A mount namespace with an empty /proc needs root.
printf '8,100\n24,50\n' > short.csv
if [ "$(id -u)" -eq 0 ] && command -v unshare > /dev/null; then
	expect_exit 1 unshare -m sh -c 'mount -t tmpfs none /proc && exec "$0" "$@"' "$COPYPROF" \
		calibrate -i "$ROOT/tests/golden/costmodel-synthetic.json" --hist short.csv -o x.json
	expect_err "this machine's CPU is unknown \(no \"model name\" in /proc/cpuinfo: is /proc mounted\?\), so it cannot be told to be the cost model's \(Synthetic CPU\)"
	check "no /proc: nothing written" test ! -e x.json
else
	echo "# not run: an empty /proc needs root and unshare (CI runs as root)"
fi
exit 0
