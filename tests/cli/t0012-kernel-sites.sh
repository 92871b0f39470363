#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0012-kernel-sites: --kprobe and --hwbp on this machine's kernel. With kprobes, a probe on
# read_zero counts exactly the read() calls dd makes; without them (this project's build
# machines), both refuse with a message that says why. The VM tests cover real kprobe kernels.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"

expect_exit 1 "$COPYPROF" record --hwbp no_such_function_xyz -d 1
expect_err "no kernel function 'no_such_function_xyz'"
expect_exit 1 "$COPYPROF" record --hwbp not_a_module:read_zero -d 1
expect_err "is the module loaded"
expect_exit 2 "$COPYPROF" record --kprobe "read_zero+zz" -d 1
expect_err "is not a number"

if [ -e /sys/bus/event_source/devices/kprobe/type ]; then
	for mech in kprobe hwbp; do
		expect_exit 0 "$COPYPROF" record --$mech read_zero,len=arg2 --comm dd -o $mech.json -- \
			dd if=/dev/zero of=/dev/null bs=4096 count=100
		expect_eq "$mech read_zero calls" "$(jq '.sites[0].calls' $mech.json)" 100
		expect_eq "$mech read_zero bytes" "$(jq '.sites[0].bytes' $mech.json)" 409600
		expect_no_leftover_progs
	done
else
	expect_exit 1 "$COPYPROF" record --kprobe read_zero -d 1
	expect_err "this kernel has no kprobes"
	expect_exit 1 "$COPYPROF" record --hwbp read_zero -d 1
	expect_err "x86 then allows no kernel breakpoints"
	[ ! -e copyprof.json ] || fail "a refused record wrote a profile"
	expect_no_leftover_progs
fi
exit 0
