#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-multiplex.sh (busybox sh, btrfs-zstd disk at /mnt): multiplexed hardware
# breakpoints and mixed plans. Every run leaves NAME.json, NAME.out, NAME.err and NAME.rc in /out.
# MUX_N (default 20000) sets the known-count loop's reads.

. /bin/guest-lib.sh
n=${MUX_N:-20000}

# (a) Known counts: dd reads /dev/zero and writes /dev/null N times, 3000 bytes each. Eight
# breakpoints, four debug registers: each entry below sees every read (or write) once with
# length 3000 (rw_verify_area twice: the read and the write).
if grep -q ' rep_stos_alternative$' /proc/kallsyms; then cz=rep_stos_alternative; else
	cz=clear_user_erms; fi
echo "$cz" >/out/clear_symbol
echo "$n" >/out/mux_n
run mux record --hwbp ksys_read,len=arg2 --hwbp vfs_read,len=arg2 --hwbp read_zero,len=arg2 \
	--hwbp "$cz,len=rcx" --hwbp ksys_write,len=arg2 --hwbp vfs_write,len=arg2 \
	--hwbp write_null,len=arg2 --hwbp rw_verify_area,len=arg3 --comm dd -o /out/mux.json -- \
	dd if=/dev/zero of=/dev/null bs=3000 count="$n"

# (b) -p iov_iter on a write and on a read workload; the read one also names the noinstr
# memcpy routine, which no probe can take: it is sampled in the same recording.
if grep -q ' memcpy_orig$' /proc/kallsyms && ! grep -q ' memcpy_erms$' /proc/kallsyms; then
	mc=memcpy_orig; else mc=memcpy_erms; fi
echo "$mc" >/out/memcpy_symbol
yes "2026-11-30T09:00:00Z host042 GET /api/v1/item/12345 status=200 bytes=5120" |
	head -c 20000000 >/tmp/data
run iov_write record -p iov_iter -o /out/iov_write.json -- dd if=/tmp/data of=/mnt/data bs=3000
sync
echo 3 >/proc/sys/vm/drop_caches
run iov_read record -p iov_iter --entry "$mc" -o /out/iov_read.json -- \
	dd if=/mnt/data of=/dev/null bs=3000
# (c) What a hit costs, for the planner's figures (bench/hwbp_attach.sh reads /out/cost):
# MUX_COST one-byte reads of /dev/zero, bare, under a kprobe and under a breakpoint on
# read_zero (one hit per read, the same site for both), alternated three times. The command
# times its own dd (uptime, in 10 ms), so record's start and end stay out of it.
if [ -n "${MUX_COST:-}" ]; then
	cat >/tmp/zero.sh <<EOS
#!/bin/sh
t0=\$(cut -d' ' -f1 /proc/uptime)
dd if=/dev/zero of=/dev/null bs=1 count=$MUX_COST 2>/dev/null
echo "\$1 $MUX_COST \$2 \$t0 \$(cut -d' ' -f1 /proc/uptime)" >>/out/cost
EOS
	chmod +x /tmp/zero.sh
	for rep in 1 2 3; do
		/tmp/zero.sh bare "$rep"
		for what in kprobe hwbp; do
			copyprof record --"$what" read_zero,len=arg2 --comm dd -o /out/cost-"$what".json \
				-- /tmp/zero.sh "$what" "$rep" >/dev/null 2>/out/cost-"$what".err
		done
	done
fi
exit 0
