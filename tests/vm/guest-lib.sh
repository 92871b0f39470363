# SPDX-License-Identifier: GPL-2.0
# guest-lib.sh: sourced by the *-guest.sh halves of the VM tests (busybox sh, in the guest).

run() {	# run NAME copyprof-args...: NAME.out, NAME.err and NAME.rc (exit status) land in /out
	name=$1; shift
	copyprof "$@" >/out/"$name".out 2>/out/"$name".err
	echo $? >/out/"$name".rc
}
