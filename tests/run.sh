#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run.sh: run the unit tests (cmocka) and the CLI tests; the last line is "N passed, N failed, N skipped".
# A CLI test exits 0 (pass), 77 (skip, after printing why) or anything else (fail); it prints
# each check as "ok N - ..." or "not ok N - ..." and, on failure, lists the failed ones last.
set -u
# Usage: tests/run.sh [BUILD_DIR] [SUITE...]   SUITE: unit, cli, vm (default: all three)
OUT=${1:-build}
shift || true
SUITES=" ${*:-unit cli vm} "
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export COPYPROF="$ROOT/$OUT/copyprof" COPYPROF_BIN="$ROOT/$OUT/copyprof" OUT_DIR="$ROOT/$OUT" ROOT
passed=0 failed=0 skipped=0 failures=()

# " (N checks)" from a CLI script's closing line ("# N checks passed", tests/cli/lib.sh).
checks_of() { sed -n 's/^# \([0-9]*\) checks passed$/ (\1 checks)/p' "$1" | tail -n 1; }

run_one() {
	local name=$1; shift
	local log rc
	log=$(mktemp)
	"$@" >"$log" 2>&1
	rc=$?
	case $rc in
	0) passed=$((passed + 1)); echo "PASS $name$(checks_of "$log")" ;;
	77) skipped=$((skipped + 1)); echo "SKIP $name: $(tail -n 1 "$log")" ;;
	*) failed=$((failed + 1)); failures+=("$name"); echo "FAIL $name (exit $rc)"; sed 's/^/    /' "$log" | tail -n 40 ;;
	esac
	rm -f "$log"
}

for t in "$ROOT/$OUT"/tests/test_*; do
	[[ $SUITES == *" unit "* ]] || break
	[ -x "$t" ] && run_one "unit/$(basename "$t")" "$t"
done
for t in "$ROOT"/tests/cli/t[0-9]*.sh; do
	[[ $SUITES == *" cli "* ]] || break
	run_one "cli/$(basename "$t" .sh)" bash "$t"
done
# Real-kernel tests in qemu guests (tests/vm/run.sh); the *-guest.sh halves run inside.
for t in "$ROOT"/tests/vm/t-*.sh; do
	[[ $SUITES == *" vm "* ]] || break
	case $t in *-guest.sh) continue ;; esac
	# The guest runs the static build (docs/design.md#linking).
	COPYPROF="$ROOT/$OUT/copyprof-static" COPYPROF_BIN="$ROOT/$OUT/copyprof-static" \
		run_one "vm/$(basename "$t" .sh)" bash "$t"
done
[ ${#failures[@]} -gt 0 ] && echo "failed: ${failures[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
