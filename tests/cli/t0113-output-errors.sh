#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0113-output-errors: every command exits 1 when it cannot write its output. Each one below
# exits 0 with stdout on /dev/null, and exits 1 with stdout on /dev/full (ENOSPC) saying
# "cannot write standard output" (or to it), text and --json alike; --help and --version too,
# which argp and main print before any command runs; record when only its summary is lost.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
G="$ROOT/tests/golden/profile-synthetic.json"
C="$ROOT/tests/golden/profile-4k-cooperlake.json"
M="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
n=0

# full CMD...: CMD writes stdout: 0 on /dev/null, 1 on /dev/full with the message, once.
full() {
	expect_exit 0 "$@" > /dev/null
	"$@" > /dev/full 2> "$TMP/err"
	rc=$?
	[ "$rc" -eq 1 ] || fail "'$*' > /dev/full exited $rc, expected 1; stderr: $(cat "$TMP/err")"
	expect_err "cannot write (to )?standard output: No space left on device"
	[ "$(grep -c 'cannot write' "$TMP/err")" -eq 1 ] || fail "'$*': said more than once: $(cat "$TMP/err")"
	n=$((n + 1))
}
# expect_exit keeps stdout in $TMP/out: this one runs with stdout where the caller put it.
expect_exit() {
	local want=$1 rc; shift
	"$@" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(cat "$TMP/err")"
}

full "$COPYPROF" report -i "$G"
full "$COPYPROF" report -i "$G" --json
full "$COPYPROF" estimate -i "$C" -m "$M"
full "$COPYPROF" estimate -i "$C" -m "$M" --json
full "$COPYPROF" diff "$G" "$C"
full "$COPYPROF" diff --json "$G" "$C"
full "$COPYPROF" export --format openmetrics -i "$G"
full "$COPYPROF" flamegraph -i "$ROOT/tests/golden/profile-synthetic-sampled.json" -o -
full "$COPYPROF" merge -o - "$G" "$C"
full "$COPYPROF" merge -o merged.json "$G" "$C" # the summary
full "$COPYPROF" --help
full "$COPYPROF" --version
full "$COPYPROF" report --help
full "$COPYPROF" estimate --help
if [ "$(id -u)" -eq 0 ]; then
	full "$COPYPROF" record --uprobe "$WL:wl_copy" -o rec.json -- "$WL" copy=64:10
	[ "$(jq '.sites[0].calls' rec.json 2>/dev/null)" = 10 ] || fail "record's profile was not written"
fi
echo "ok: $n commands exit 1 on /dev/full, 0 on /dev/null"
exit 0
