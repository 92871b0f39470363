#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0079-agent-pprof-delta-cgroup: /debug/pprof/profile?seconds=N serves what was counted in those
# N seconds (77 calls of a workload run inside the window, none of the 1000 before it), as Go's
# net/http/pprof and Parca expect, with the window's duration; without seconds= everything since
# the start; a bad seconds= is a 400. --cgroup counts only the tasks of a cgroup v2 directory and
# those below it, for counted sites in record and in the agent (whose copyprof_agent_info names
# the cgroup); a directory that is not a cgroup v2 one is refused.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
need_cmd protoc
cd "$TMP"
decode() { gzip -dc "$1" | protoc --decode=perftools.profiles.Profile --proto_path="$ROOT/proto" pprof.proto; }
# The calls of a decoded profile: every sample's first value (calls/count).
calls() { awk '/^sample \{/ { s = 1 } s && /^  value:/ { n += $2; s = 0 } END { print n + 0 }' "$1"; }

mkdir a
cp "$WL" a/copyload
PA=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PA" --max-overhead 0 \
	2> a.log &
pids+=($!)
A=127.0.0.1:$PA
wait_for "the agent" curl -sf "$A/metrics"
a/copyload copy=100:1000 || fail workload
# A 10 s window; the workload runs once the agent has seen the window's request (its first
# snapshot is taken as the request is counted).
requests() { curl -sf "$A/metrics" | awk '$1 == "copyprof_agent_http_requests" { print $2 }'; }
r0=$(requests)
curl -sf -o delta.pb.gz "$A/debug/pprof/profile?seconds=10" &
delta=$!
started() { [ "$(requests)" -ge $((r0 + 3)) ]; } # this scrape, the delta's, the one before
wait_for "the window to start" started
a/copyload copy=200:77 || fail workload
wait "$delta" || fail "the delta profile"
decode delta.pb.gz > delta.txt || fail "protoc cannot decode the delta"
expect_eq "calls in the window" "$(calls delta.txt)" 77
expect_eq "the window's duration" "$(awk '/^duration_nanos:/ { print $2 }' delta.txt)" 10000000000
curl -sf -o all.pb.gz "$A/debug/pprof/profile" || fail "the profile since the start"
decode all.pb.gz > all.txt || fail "protoc cannot decode the profile"
expect_eq "calls since the start" "$(calls all.txt)" 1077
for bad in 0 x -1 601 1.5; do
	expect_eq "seconds=$bad" "$(curl -s -o /dev/null -w '%{http_code}' "$A/debug/pprof/profile?seconds=$bad")" 400
done

# --cgroup: a cgroup v2 directory of our own, with one below it.
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$root" ] || skip "no cgroup v2 hierarchy is mounted"
CG="$root/copyprof-t0079-$$"
mkdir -p "$CG/below" || skip "cannot create a cgroup under $root"
trap 'stop_servers; rmdir "$CG/below" "$CG" 2>/dev/null; rm -rf "$TMP"' EXIT
in_cgroup() { # DIR COMMAND...: COMMAND in cgroup DIR
	local d=$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$d" "$@"
}
expect_exit 1 "$COPYPROF" record --uprobe "$TMP/a/copyload:wl_copy" --cgroup "$TMP" -d 1 -o x.json
expect_err "not a cgroup v2 directory"

PC=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PC" --max-overhead 0 \
	--cgroup "$CG" 2> c.log &
pids+=($!)
C=127.0.0.1:$PC
wait_for "the cgroup agent" curl -sf "$C/metrics"
a/copyload copy=100:50 || fail workload
in_cgroup "$CG/below" a/copyload copy=100:7 || fail "workload below the cgroup"
in_cgroup "$CG" a/copyload copy=100:5 || fail "workload in the cgroup"
expect_eq "the agent's calls in the cgroup and below" "$(curl -sf "$C/profile" | jq '[.sites[].calls] | add')" 12
curl -sf "$C/metrics" | grep -q "^copyprof_agent_info{.*cgroup=\"/${CG#"$root"/}\"} 1$" ||
	fail "copyprof_agent_info does not name the cgroup: $(curl -sf "$C/metrics" | grep '^copyprof_agent_info')"

"$COPYPROF" record --uprobe "$TMP/a/copyload:wl_copy" --cgroup "$CG" -d 600 -o rec.json 2> rec.err &
rec=$!
pids+=($rec)
wait_for "record to attach" grep -q "uprobe cost" rec.err
a/copyload copy=100:40 || fail workload
in_cgroup "$CG/below" a/copyload copy=100:3 || fail "workload below the cgroup"
kill -INT "$rec"
wait "$rec" || fail "record --cgroup: $(cat rec.err)"
unset 'pids[-1]' # record, waited for
expect_eq "record's calls in the cgroup and below" "$(jq '[.sites[].calls] | add' rec.json)" 3

for p in "${pids[@]}"; do kill -TERM "$p"; wait "$p" || fail "an agent exited $? on SIGTERM"; done
pids=()
expect_no_leftover_progs
