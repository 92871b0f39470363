#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0083-agent-sample: agent --sample serves record --sample's sampled sites live: dd of
# /dev/zero under a command name of its own shows read_zero among the copy samples; once dd
# has ended, /metrics (copyprof_copy_samples, copyprof_agent_samples), /profile and pprof agree
# exactly; a second dd only adds (site ids stay, counts grow); -p clear_user on a kernel
# without kprobes is sampled instead, as record does. Sample counts vary with machine speed,
# so only agreements, orderings and a minimum are asserted.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd protoc
cd "$TMP"
pid=
stop_agent() { [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid"; pid=; }
exit_hooks+=('stop_agent')
decode() { gzip -dc "$1" | protoc --decode=perftools.profiles.Profile --proto_path="$ROOT/proto" pprof.proto; }
values() {
	awk -v want="$1" '/^sample \{/ { in_s = 1; i = 0 } /^}/ { in_s = 0 }
		in_s && /^  value:/ { i++; if (i == want) s += $2 } END { print s + 0 }' "$2"
}
# The agent drains its ring buffer every 100 ms: wait until two scrapes a moment apart agree.
settled() {
	curl -sf "$U/profile" | jq '[.sites[].calls] | add // 0' > a
	sleep 0.5
	curl -sf "$U/profile" | jq '[.sites[].calls] | add // 0' > b
	cmp -s a b && [ "$(cat a)" -gt 0 ]
}

# Usage: a bad rate, --sample with probe sites.
expect_exit 2 "$COPYPROF" agent --sample=0
expect_err "give samples per second per CPU"
expect_exit 2 "$COPYPROF" agent --sample 99 --uprobe /bin/true:main
expect_err "exclude each other"

# dd under a name of its own: no other dd on this machine is sampled.
cp "$(command -v dd)" ddagent83
P=$(free_port)
"$COPYPROF" agent --sample 999 --comm ddagent83 --listen "127.0.0.1:$P" 2> agent.log &
pid=$!
U=127.0.0.1:$P
wait_for "the agent" curl -sf "$U/metrics"
grep -q "sampling every copy-family sample at 999 Hz" agent.log || fail "no plan line: $(cat agent.log)"
# dd for 2 s, and again while the agent holds fewer than 100 copy samples (up to 5 times): on a
# loaded machine dd gets less of a CPU, and the test waits for it, never fails for it.
for try in 1 2 3 4 5; do
	timeout -s INT 2 ./ddagent83 if=/dev/zero of=/dev/null bs=1M count=100000000 2> /dev/null
	wait_for "the samples to settle" settled
	curl -sf "$U/profile" > p1.json
	[ "$(jq '[.sites[].calls] | add // 0' p1.json)" -ge 100 ] && break
done
curl -sf "$U/metrics" > m1.om
curl -sf "$U/debug/pprof/profile" > p1.pb.gz
copy=$(jq '[.sites[].calls] | add' p1.json)
[ "$copy" -ge 100 ] || fail "only $copy copy samples of $((2 * try)) s of dd at 999 Hz"
expect_eq "every site sampled" "$(jq '[.sites[] | select(.mechanism != "sample")] | length' p1.json)" 0
jq -e '[.sites[] | select(.symbol == "read_zero" or .symbol == "iov_iter_zero")] | length > 0' \
	p1.json > /dev/null || fail "read_zero/iov_iter_zero is not among the callers"
expect_eq "sample_hz" "$(jq .meta.sample_hz p1.json)" 999
expect_eq "idle samples with --comm" "$(jq .meta.idle_samples p1.json)" 0
# One snapshot, three forms: they agree exactly.
expect_eq "copyprof_copy_samples = /profile" \
	"$(awk '/^copyprof_copy_samples\{/ { s += $NF } END { print s }' m1.om)" "$copy"
expect_eq "copyprof_agent_samples{kind=all} = total_samples" \
	"$(awk '/^copyprof_agent_samples\{kind="all"/ { print $NF }' m1.om)" "$(jq .meta.total_samples p1.json)"
# Site 0's series: /metrics names a site by what it is (symbol, offset, leaf), not by its id.
s0=$(jq -r '.sites[0] | "\(.symbol) \(.offset) \(.leaf)"' p1.json)
read -r s0_sym s0_off s0_leaf <<<"$s0"
s0_labels=$(printf 'symbol="%s",offset="0x%x",' "$s0_sym" "$s0_off")
grep -F "copyprof_sampled_copy_length_bytes_count{$s0_labels" m1.om | grep -qF "leaf=\"$s0_leaf\"" ||
	fail "no sampled histogram for site 0 ($s0)"
# The histogram holds the samples whose length was recovered (exact or approximate).
expect_eq "site 0's histogram count" \
	"$(grep -F "copyprof_sampled_copy_length_bytes_count{$s0_labels" m1.om | grep -F "leaf=\"$s0_leaf\"" | awk '{ print $NF }')" \
	"$(jq '.sites[0].length_quality | .exact + .approximate' p1.json)"
decode p1.pb.gz > p1.txt || fail "protoc cannot decode /debug/pprof/profile"
expect_eq "pprof samples" "$(values 1 p1.txt)" "$copy"
# Monotonic: a second dd only adds, and each site keeps its id.
timeout -s INT 1 ./ddagent83 if=/dev/zero of=/dev/null bs=1M count=100000000 2> /dev/null
wait_for "the samples to settle again" settled
curl -sf "$U/profile" > p2.json
jq -n --slurpfile a p1.json --slurpfile b p2.json -e '
	[$a[0].sites[] | {k: "\(.id) \(.leaf) \(.symbol) \(.offset)", c: .calls}] as $x |
	[$b[0].sites[] | {k: "\(.id) \(.leaf) \(.symbol) \(.offset)", c: .calls}] as $y |
	all($x[]; . as $s | any($y[]; .k == $s.k and .c >= $s.c))' > /dev/null ||
	fail "a site lost samples or changed its id between two scrapes"
[ "$(jq '[.sites[].calls] | add' p2.json)" -gt "$copy" ] || fail "the second dd added no sample"
stop_agent
grep -q "detaching every probe" agent.log || fail "no detach line"
expect_no_leftover_progs

# A plan nothing of which can be probed here is sampled instead, as record does.
if [ ! -e /sys/bus/event_source/devices/kprobe/type ]; then
	P=$(free_port)
	"$COPYPROF" agent -p clear_user --comm ddagent83 --listen "127.0.0.1:$P" 2> plan.log &
	pid=$!
	U=127.0.0.1:$P
	wait_for "the planned agent" curl -sf "$U/metrics"
	grep -q "SAMPLED instead" plan.log || fail "no fallback line: $(cat plan.log)"
	timeout -s INT 1 ./ddagent83 if=/dev/zero of=/dev/null bs=1M count=100000000 2> /dev/null
	wait_for "the samples to settle" settled
	curl -sf "$U/profile" > f.json
	jq -e '.meta.sample_fallback | test("SAMPLED instead")' f.json > /dev/null ||
		fail "no sample_fallback in /profile"
	jq -e '.meta.sample_scope | test("read_zero")' f.json > /dev/null ||
		fail "the scope does not name the preset's functions"
	jq -e '[.sites[] | select(.symbol == "read_zero" or .symbol == "iov_iter_zero")] | length > 0' \
		f.json > /dev/null || fail "read_zero is not among the fallback's sites"
	stop_agent
	expect_no_leftover_progs
fi
exit 0
