# SPDX-License-Identifier: GPL-2.0
# lib.sh: helpers sourced by the CLI tests: assertions, skips and a scratch folder.
set -u
: "${COPYPROF:?run through tests/run.sh}"
WL="$OUT_DIR/tests/copyload"
TMP=$(mktemp -d /tmp/copyprof-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root for BPF (CI runs as root)"; }
need_cmd() { command -v "$1" >/dev/null || skip "needs $1 (make deps installs it)"; }

# expect_exit CODE CMD...: run CMD, keep its stderr in $TMP/err and stdout in $TMP/out.
expect_exit() {
	local want=$1 rc; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, expected $want; stderr: $(cat "$TMP/err")"
}
# expect_err PATTERN: the last command's stderr matches the extended regex PATTERN.
expect_err() { grep -Eq -- "$1" "$TMP/err" || fail "stderr lacks /$1/: $(cat "$TMP/err")"; }
expect_out() { grep -Eq -- "$1" "$TMP/out" || fail "stdout lacks /$1/: $(head -c 2000 "$TMP/out")"; }
# expect_eq NAME GOT WANT
expect_eq() { [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"; }
# No BPF program of ours may stay loaded after a run.
expect_no_leftover_progs() {
	if command -v bpftool >/dev/null; then
		! bpftool prog show 2>/dev/null | grep -Eq 'name cp_(uprobe|kprobe|perf|sample|read_text)' ||
			fail "a copyprof BPF program is still loaded: $(bpftool prog show | grep cp_)"
	fi
}
