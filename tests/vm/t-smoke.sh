#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Smoke test of tests/vm/run.sh on Debian 6.12 and 6.1: tracefs/kprobes, CPU flags, btrfs+zstd,
# the /out channel, exit status propagation, usage errors, the timeout path and a new boot
# after a panic or a hang before the guest command starts.
#
# Usage: tests/vm/t-smoke.sh [SERIES...]   (default: 6.12 6.1)
# Ends with "N passed, N failed[, N skipped]"; exit 0 only if nothing failed.
# Kernel facts (kallsyms, kcore, kprobes blacklist) are printed per kernel for reference.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
RUN=$HERE/run.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT


# Host-only checks: no VM needed.
test_usage() {
	local rc=0
	"$RUN" --bogus >/dev/null 2>&1 || rc=$?
	check "run.sh --bogus exits 2 (got $rc)" test "$rc" -eq 2
	rc=0
	"$RUN" --kernel 6.12 >/dev/null 2>&1 || rc=$?
	check "run.sh without a command exits 2 (got $rc)" test "$rc" -eq 2
	check "run.sh --help mentions Examples" grep -q Examples < <("$RUN" --help)
}

# One boot per kernel covers everything: the guest script reports through /out, and the
# command's final 'exit 7' tests status propagation.
test_kernel() {
	local series=$1
	local out=$work/$series log=$work/$series.log rc=0 t0 t1 summary
	t0=$EPOCHREALTIME
	"$RUN" --kernel "$series" --disk btrfs-zstd --bin "$HERE/t-smoke-guest.sh" --out "$out" \
		--timeout 300 -- "t-smoke-guest.sh $series; exit 7" >"$log" 2>"$work/$series.err" || rc=$?
	t1=$EPOCHREALTIME
	cat "$work/$series.err" >&2
	if ((rc == 4)); then
		skip "kernel $series: host setup failed: $(tail -n1 "$work/$series.err")"
		return
	fi
	check "kernel $series: guest 'exit 7' gives exit status 7 (got $rc)" test "$rc" -eq 7
	if [[ ! -s $out/results.txt ]]; then
		fail "kernel $series: /out/results.txt came back through the out disk"
		tail -n 20 "$log"
		return
	fi
	pass "kernel $series: /out/results.txt came back through the out disk"
	local line
	while IFS= read -r line; do
		case $line in
		"ok "*) pass "kernel $series: ${line#ok }" ;;
		*) fail "kernel $series: ${line#not ok }" ;;
		esac
	done <"$out/results.txt"
	echo "--- kernel $series facts:"
	sed 's/^/    /' "$out/facts.txt"
	summary=$(grep -o 'kernel [^ ]*: boot .*' "$work/$series.err" | tail -n1 || true)
	printf -- '--- kernel %s timing: %s; t-smoke wall time incl. initramfs build %.1fs\n' \
		"$series" "${summary%%, exit*}" "$(awk -v a="$t1" -v b="$t0" 'BEGIN{print a-b}')"
}

# A qemu whose -initrd file is gone outlived its run.sh (which deletes it on exit). Judging by
# that, rather than by name, leaves other people's concurrent VMs alone.
no_orphan_qemu() {
	local pid initrd
	for pid in $(pgrep -x qemu-system-x86 || true); do
		initrd=$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -A1 -x -- -initrd | tail -n1)
		[[ -z $initrd || -e $initrd ]] || { echo "orphan qemu pid $pid"; return 1; }
	done
	return 0
}

test_timeout() {
	local rc=0 t0=$EPOCHREALTIME
	"$RUN" --timeout 5 -- 'sleep 100' >/dev/null 2>"$work/timeout.err" || rc=$?
	if ((rc == 4)); then skip "timeout: host setup failed"; return; fi
	check "--timeout 5 on 'sleep 100' exits 3 (got $rc)" test "$rc" -eq 3
	check "--timeout message names the timeout" grep -q 'timeout after 5s' "$work/timeout.err"
	check "no qemu left running after the timeout" no_orphan_qemu
	echo "--- timeout path took $(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN{print a-b}')s"
}

# A panic before the guest command starts is booted again, twice; then it is a VM failure.
# (rdinit=/nonexistent: no root to mount, "VFS: Unable to mount root fs", every boot.)
test_early_panic() {
	local rc=0
	"$RUN" --append "rdinit=/nonexistent" --timeout 120 -- true >/dev/null \
		2>"$work/panic.err" || rc=$?
	if ((rc == 4)); then skip "early panic: host setup failed"; return; fi
	check "an early panic every boot exits 3 (got $rc)" test "$rc" -eq 3
	check "it was booted 3 times" test "$(grep -c 'panicked before the guest command started' \
		"$work/panic.err")" -eq 2
	check "the failure names the panic" grep -q 'VM failure: Kernel panic' "$work/panic.err"
}

# A boot that has not reached the guest command in --boot-timeout seconds is hung: ended and
# booted again, twice; then a VM failure. (1 s: a boot here takes 7 s or more, so every one.)
test_boot_hang() {
	local rc=0 t0=$EPOCHREALTIME
	"$RUN" --boot-timeout 1 --timeout 120 -- true >/dev/null 2>"$work/hang.err" || rc=$?
	if ((rc == 4)); then skip "boot hang: host setup failed"; return; fi
	check "a hang every boot exits 3 (got $rc)" test "$rc" -eq 3
	check "it was booted 3 times" test "$(grep -c 'hung: no guest command 1s after qemu started; booting again' \
		"$work/hang.err")" -eq 2
	check "the failure names the hang" grep -q 'VM failure: every boot hung' "$work/hang.err"
	check "no qemu left running after the hangs" no_orphan_qemu
	echo "--- boot hang path took $(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN{print a-b}')s"
}

main() {
	local series missing=
	(($#)) || set -- 6.12 6.1
	test_usage
	# Without the packages every VM test is a skip with a reason, never a silent pass.
	for tool in qemu-system-x86_64 busybox cpio mkfs.btrfs; do
		command -v "$tool" >/dev/null || [[ -x /sbin/$tool || -x /usr/sbin/$tool ]] ||
			missing+=" $tool"
	done
	if [[ -n $missing ]]; then
		skip "VM tests: missing$missing (apt-get install \$(cat $HERE/packages.txt))"
	else
		for series in "$@"; do test_kernel "$series"; done
		test_timeout
		test_early_panic
		test_boot_hang
	fi
	checks_done || exit 1
	# Nothing ran: a skip for tests/run.sh (exit 77), never a pass.
	((passed > 0)) || exit 77
}

main "$@"
