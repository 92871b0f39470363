#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0114-asmref-cpu-skip: a replica whose instructions this CPU lacks (AVX-512, AVX2: hidden here
# with COPYPROF_TEST_HIDE_FLAGS, as on a CPU without them) is skipped cleanly, never run: the
# unit tests skip it by name, `calibrate --impl memmove` leaves it out saying why, and naming it
# is a runtime failure (exit 1), not a SIGILL.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"
UNIT="$OUT_DIR/tests/test_asmref"
[ -x "$UNIT" ] || fail "$UNIT was not built"

# The unit tests with AVX-512 and AVX2 hidden: every glibc replica is skipped, nothing crashes.
COPYPROF_TEST_HIDE_FLAGS=avx512f,avx2 "$UNIT" > unit.log 2>&1 || fail "test_asmref failed with AVX-512 and AVX2 hidden: $(tail -n 20 unit.log)"
for r in glibc_memmove_avx2 glibc_memmove_evex glibc_memmove_avx512 glibc_memset_avx2 \
	glibc_memset_evex glibc_memset_avx512; do
	grep -q "skipped: $r needs .*, which this CPU lacks" unit.log || fail "test_asmref did not skip $r: $(grep "$r" unit.log | head -3)"
	grep -q "^\[ RUN      \] $r/all_lengths" unit.log && fail "test_asmref ran $r with its ISA hidden"
done
grep -q "^\[       OK \] memcpy_orig/all_lengths" unit.log || fail "the plain x86-64 replicas did not run"

# calibrate by family: the replicas this CPU cannot run are left out, the others measured.
have=$(grep -m1 '^flags' /proc/cpuinfo)
COPYPROF_TEST_HIDE_FLAGS=avx512f expect_exit 0 "$COPYPROF" calibrate --quick --impl memmove \
	--sizes 64,4096 --cache warm -o m.json
expect_err "glibc_memmove_avx512 left out: it needs AVX-512F, AVX-512VL, which this CPU lacks"
expect_err "glibc_memmove_evex left out"
curves=$(jq -r '[.impls[].name] | unique | join(",")' m.json)
[[ $curves == *glibc_memmove_avx512* ]] && fail "calibrate measured a hidden replica: $curves"
[[ $curves == *memmove_orig* ]] || fail "calibrate left out memmove_orig: $curves"
if [[ " $have " == *" avx2 "* ]]; then
	[[ $curves == *glibc_memmove_avx2,* || $curves == *glibc_memmove_avx2 ]] ||
		fail "calibrate left out glibc_memmove_avx2 on a CPU with AVX2: $curves"
fi

# Named: a runtime failure with the reason, and no model.
COPYPROF_TEST_HIDE_FLAGS=avx2 expect_exit 1 "$COPYPROF" calibrate --quick --impl glibc_memset_avx2 \
	--sizes 64 -o named.json
expect_err "glibc_memset_avx2 needs AVX2, which this CPU lacks"
[ ! -e named.json ] || fail "a refused calibrate wrote named.json"
exit 0
