#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of bench/kprobe_attach.sh (busybox sh, btrfs-zstd disk at /mnt, btrfs loaded):
# (1) time to plan and attach the btrfs preset's call sites with copyprof, against bpftrace
# attaching the same kprobe:FUNC+OFF list; (2) per-hit cost: N one-byte reads of /dev/zero, each
# one kprobe hit on read_zero, bare and under each tool, interleaved three times.
N=300000
now() { cut -d' ' -f1 /proc/uptime; }
t0=$(now); copyprof record -p btrfs -o /out/attach.json -- true 2>/out/attach.err; t1=$(now)
echo "copyprof_attach $t0 $t1" >/out/attach.txt
grep '^  kprobe' /out/attach.err | sed 's/^  kprobe \([^ ]*\) .*/\1/; s/^btrfs://' >/out/sites.txt
probes=$(awk '{ printf "%skprobe:%s", (NR > 1 ? "," : ""), $1 }' /out/sites.txt)
t0=$(now); bpftrace -e "$probes { @[probe] = hist(reg(\"dx\")); }" -c true >/out/bt-attach.out 2>&1
t1=$(now); echo "bpftrace_attach $t0 $t1" >>/out/attach.txt

cat >/tmp/zero.sh <<EOS
#!/bin/sh
t0=\$(cut -d' ' -f1 /proc/uptime)
dd if=/dev/zero of=/dev/null bs=1 count=$N 2>/dev/null
echo "\$1 \$t0 \$(cut -d' ' -f1 /proc/uptime)" >>/out/reads.txt
EOS
chmod +x /tmp/zero.sh
for i in 1 2 3; do
	/tmp/zero.sh none
	copyprof record --kprobe read_zero,len=arg2 -o /out/hits.json -- /tmp/zero.sh copyprof 2>/dev/null
	bpftrace -e 'kprobe:read_zero { @ = hist(reg("dx")); }' -c "/bin/sh /tmp/zero.sh bpftrace" >/out/bt-zero.out 2>&1
done
exit 0
