#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0043-import-perf-golden: a crafted perf script text (tests/golden/perf-script-fixture.txt:
# kernel and user frames, [unknown], modules, inlined frames, truncated stacks, a sample without
# call chain, perf's default format, comms with spaces, C++ names, idle, excluded and user-space
# leaves, malformed lines) gives exactly the numbers and sites checked in next to it, and the
# machine of its header (cpuid), with the flags of that other host unknown.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"
FIX="$ROOT/tests/golden/perf-script-fixture.txt"

# --no-kernel-text: the fixture's addresses are not this machine's, so nothing may depend on it.
expect_exit 0 "$COPYPROF" import-perf --script "$FIX" --no-kernel-text -o fx.json
expect_err "3 malformed line\(s\) skipped \(first, line 11: 'this line is garbage"
expect_err "19 samples, 14 copy family \(73.7%\) in 9 site\(s\)"
expect_eq "total_samples" "$(jq .meta.total_samples fx.json)" 19
expect_eq "idle_samples" "$(jq .meta.idle_samples fx.json)" 2
expect_eq "malformed_lines" "$(jq .meta.malformed_lines fx.json)" 3
expect_eq "event" "$(jq -r .meta.event fx.json)" cpu-clock
expect_eq "kernel (from the header)" "$(jq -r .meta.kernel fx.json)" "6.12.48+deb12-amd64"
expect_eq "hostname (from the header)" "$(jq -r .meta.hostname fx.json)" fleet-host-7
expect_eq "duration" "$(jq '.meta.duration_s * 10 | round' fx.json)" 18
# The machine from the header's cpuid; the flags unknown (another host): null, never [].
expect_eq "machine (from the header's cpuid)" \
	"$(jq -c '.meta.machine | [.vendor, .vendor_id, .family, .model, .stepping]' fx.json)" \
	'["intel","GenuineIntel",6,85,11]'
expect_eq "cpu_flags of another host" "$(jq -c '[.meta.cpu_flags, .meta.machine.flags]' fx.json)" \
	'[null,null]'
jq -e '.meta.machine.flags_from | test("^unknown: .*fleet-host-7, cpuid GenuineIntel,6,85,11")' \
	fx.json > /dev/null || fail "flags_from: $(jq .meta.machine.flags_from fx.json)"
jq -S .sites fx.json > sites.json
diff -u "$ROOT/tests/golden/perf-script-fixture.sites.json" sites.json ||
	fail "sites differ from tests/golden/perf-script-fixture.sites.json"

# Who: perf's comm (spaces kept) and pid per stack, as record --sample keeps them.
expect_eq "tasks" "$(jq -c '[.sites[] | select(.symbol == "_copy_to_user" or .symbol == "ZSTD_decompressStream") | .tasks[] | [.pid, .comm, .samples]]' fx.json)" \
	'[[4211,"kworker/u16:3-b",3],[1234,"perf",1],[900,"Web Content",1],[4211,"kworker/u16:3-b",1]]'

# The same text from stdin; --leaf makes glibc's memcpy flavour (user space) a leaf too.
expect_exit 0 "$COPYPROF" import-perf --script - --no-kernel-text --leaf \
	__memcpy_avx_unaligned_erms -o leaf.json < "$FIX"
expect_eq "--leaf site" "$(jq -c '[.sites[] | select(.leaf == "__memcpy_avx_unaligned_erms") |
	[.target, .symbol, .offset, .calls, .stacks[0]]]' leaf.json)" \
	'[["/usr/bin/app","main",48,1,"main;__memcpy_avx_unaligned_erms 1"]]'
expect_eq "copy samples with --leaf" "$(jq '[.sites[].calls] | add' leaf.json)" 15

# report shows the copy share and the split by caller.
expect_exit 0 "$COPYPROF" report -i fx.json
expect_out "copy family: 14 samples, 73.7% of all samples, 82.4% of non-idle ones"
expect_out "ZSTD_decompressStream \[zstd_decompress\] +5 +35.7%"
exit 0
