#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0020-fuzz-asmref: a bounded libFuzzer run of every asm-ref replica against a byte-wise
# reference (fixed seed, fixed number of runs, so the result does not depend on machine speed).
. "$(dirname "$0")/lib.sh"
FUZZ="$OUT_DIR/tests/fuzz_asmref"
[ -x "$FUZZ" ] || fail "$FUZZ was not built"
if "$FUZZ" -seed=1 -runs=100000 -max_len=4096 > "$TMP/log" 2>&1; then
	pass "every replica matched the byte-wise reference on every input"
else
	fail "fuzzer found a failure: $(tail -n 30 "$TMP/log")"
fi
if grep -q "Done 100000 runs" "$TMP/log"; then
	pass "the fuzzer completed its 100000 runs"
else
	fail "fuzzer did not complete its runs: $(tail -n 5 "$TMP/log")"
fi
exit 0
