#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest half of t-probe.sh's caller checks (busybox sh): the callers of entries no kprobe can
# take (memcpy, memcpy_orig, the copy_user helper), each listed caller's first site tried as a
# kprobe event through tracefs, the printed hint run as is, and record's plan. Leaves
# callers.{json,txt,rc}, kprobe-trials.txt ("MARK NAME+OFF ok|fail" lines), hint.*, rec.* in
# /out; the host judges them with jq. Its own exit status is always 0.

T=/sys/kernel/tracing
if grep -q ' rep_movs_alternative$' /proc/kallsyms; then cu=rep_movs_alternative; else
	cu=copy_user_enhanced_fast_string; fi	# 6.1
echo "$cu" >/out/copy_user_symbol
entries="--entry memcpy --entry memcpy_orig --entry $cu"

copyprof probe $entries --json >/out/callers.json 2>/out/callers.err
echo $? >/out/callers.rc
# -v: the time each search takes under TCG goes to the log.
copyprof probe $entries --callers 100000 -v >/out/callers.txt 2>/out/callers-txt.err
echo $? >/out/callers-txt.rc

# Up to 12 callers of each mark per entry: "kprobe yes" must be accepted by the kernel, "kprobe
# no" refused. Lines: "    NAME  N site(s)  kprobe MARK  +0xOFF[(jmp)] ...".
awk '/^  callers of / { for (k in n) delete n[k] }
	$3 ~ /^sites?$/ && $4 == "kprobe" && n[$5]++ < 12 {
	off = $6; sub(/\(.*/, "", off); print $5, $1 off }' /out/callers.txt |
while read -r mark site; do
	if echo "p:cpt/t $site" >$T/kprobe_events 2>/dev/null; then r=ok; else r=fail; fi
	echo "-:cpt/t" >>$T/kprobe_events 2>/dev/null
	echo "$mark $site $r"
done >/out/kprobe-trials.txt

# The first "probe one:" hint (memcpy's), pasted as is.
hint=$(sed -n 's/^ *probe one: copyprof //p' /out/callers.txt | head -n1)
echo "$hint" >/out/hint.cmd
copyprof $hint -d 1 -o /out/hint.json >/out/hint.out 2>/out/hint.err
echo $? >/out/hint.rc

# record --entry memcpy: the plan lists the callers on stderr, then record samples instead.
copyprof record --entry memcpy -d 1 -o /out/rec.json >/out/rec.out 2>/out/rec.err
echo $? >/out/rec.rc
cat $T/kprobe_events >/out/kprobe_events_after 2>&1
exit 0
