# SPDX-License-Identifier: GPL-2.0
# check-lib.sh: sourced by the host halves of the VM tests: one way to count and print checks.
# Each check prints "ok - NAME" or "not ok - NAME: why"; checks_done prints the closing line
# "N passed, N failed[, N skipped]" and returns 1 if anything failed.
passed=0 failed=0 skipped=0

pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "not ok - $*"; }
skip() { skipped=$((skipped + 1)); echo "skip - $*"; }

check() {	# check NAME COMMAND...: pass if COMMAND succeeds
	local name=$1; shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}
check_eq() {	# check_eq NAME GOT WANT
	if [[ $2 == "$3" ]]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi
}
check_jq() {	# check_jq NAME JQ-FILTER FILE: pass if the filter yields true
	if jq -e "$2" "$3" >/dev/null 2>&1; then pass "$1"; else fail "$1 (jq: $2)"; fi
}

checks_done() {
	if ((skipped)); then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	((failed == 0))
}
