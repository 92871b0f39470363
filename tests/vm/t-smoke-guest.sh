#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-smoke.sh (busybox sh): checks the VM has what copyprof's tests need.
# Usage (in the guest): t-smoke-guest.sh SERIES. Writes "ok NAME" / "not ok NAME: why" lines
# to /out/results.txt (so the host also tests the /out channel) and kernel facts to
# /out/facts.txt. Its own exit status is always 0; the host judges the lines.

series=$1
T=/sys/kernel/tracing
exec 3>/out/results.txt

result() {	# result NAME CONDITION-STATUS DETAIL
	if [ "$2" -eq 0 ]; then echo "ok $1" >&3; else echo "not ok $1: $3" >&3; fi
}

# Hit count of kprobe $1 from kprobe_profile (second column), or -1 if it is not there.
kprobe_hits() {
	awk -v n="$1" '$1 == n { print $2; f = 1 } END { if (!f) print -1 }' $T/kprobe_profile
}

check_uname() {
	r=$(uname -r)
	case $r in "$series".[0-9]*|"$series"-*) s=0 ;; *) s=1 ;; esac
	result "uname -r is $series.x ($r)" $s "got $r"
}

check_kprobe_read_zero() {
	[ -e $T/kprobe_events ]
	result "tracefs kprobe_events exists" $? "no $T/kprobe_events"
	if ! echo 'p:cp/x read_zero' >$T/kprobe_events || ! echo 1 >$T/events/cp/x/enable; then
		result "kprobe on read_zero" 1 "cannot set or enable p:cp/x read_zero"
		return
	fi
	before=$(kprobe_hits x)
	dd if=/dev/zero of=/dev/null bs=4096 count=1000 2>/dev/null
	hits=$(($(kprobe_hits x) - before))
	echo 0 >$T/events/cp/x/enable
	echo '-:cp/x' >>$T/kprobe_events
	# Measured on 6.1 and 6.12: exactly one read_zero call per read(2), so 1000, not more.
	[ "$hits" -eq 1000 ]
	result "kprobe read_zero counts 1000 hits for 1000 dd reads" $? "counted $hits"
}

check_cpu_flags() {
	flags=$(grep -m1 '^flags' /proc/cpuinfo)
	case " $flags " in *" erms "*) s=0 ;; *) s=1 ;; esac
	result "cpuinfo has erms" $s "flags: $flags"
	case " $flags " in *" fsrm "*) s=1 ;; *) s=0 ;; esac
	result "cpuinfo lacks fsrm (cpu max,-fsrm)" $s "fsrm present"
}

# 20 MB of compressible data through btrfs zstd; the read back must decompress (kprobe hits).
check_btrfs_zstd() {
	grep -q ' /mnt btrfs .*compress-force=zstd' /proc/mounts
	result "btrfs mounted at /mnt with compress-force=zstd" $? "$(grep /mnt /proc/mounts)"
	yes 'copyprof compressible line 0123456789' | head -c 20000000 >/tmp/ref
	cp /tmp/ref /mnt/f && sync && echo 3 >/proc/sys/vm/drop_caches
	zhits=-1
	if echo 'p:cp/z ZSTD_decompressStream' >>$T/kprobe_events; then
		echo 1 >$T/events/cp/z/enable
	fi
	cmp /tmp/ref /mnt/f
	result "20 MB file reads back equal after drop_caches" $? "cmp differs"
	if [ -e $T/events/cp/z/enable ]; then
		zhits=$(kprobe_hits z)
		echo 0 >$T/events/cp/z/enable
		echo '-:cp/z' >>$T/kprobe_events
	fi
	[ "$zhits" -gt 0 ]
	result "read back ran ZSTD_decompressStream ($zhits hits)" $? "hits $zhits"
	echo "ZSTD_decompressStream hits reading 20 MB back: $zhits" >>/out/facts.txt
}

# What copyprof can probe on this kernel, for the humans (no pass/fail).
record_facts() {
	{
		echo "uname -r: $(uname -r)"
		grep -E ' (memcpy|__memcpy|memcpy_orig|memcpy_erms|memmove|rep_movs_alternative|rep_stos_alternative|copy_user_enhanced_fast_string|copy_user_generic_string|copy_user_generic_unrolled|ZSTD_decompressStream|zstd_decompress_bio|read_zero|iov_iter_zero|_copy_to_iter|btrfs_decompress_buf2page)(\s+\[[a-z0-9_]+\])?$' /proc/kallsyms | sed 's/^/kallsyms: /'
		if [ -e /proc/kcore ]; then echo "/proc/kcore: exists"; else echo "/proc/kcore: missing"; fi
		grep -E 'memcpy|memmove' /sys/kernel/debug/kprobes/blacklist | head -n 8 |
			sed 's/^/blacklist: /'
		echo "kprobes/blacklist lines: $(wc -l </sys/kernel/debug/kprobes/blacklist)"
	} >>/out/facts.txt
}

check_uname
check_kprobe_read_zero
check_cpu_flags
if grep -q ' /mnt ' /proc/mounts; then check_btrfs_zstd; fi
record_facts
cat /out/results.txt
exit 0
