#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0172-cgroup-attribution: the same binary run in two cgroups (named as the kubelet names a
# container's, in its cgroupfs and its systemd layout) is counted apart, exactly, per site;
# --cgroup A counts A's calls alone, B's are absent; --cgroup A --cgroup B counts both and
# nothing else; ten cgroups keep the top 8 by calls and put the rest in "other"; report shows
# the cgroups with their pod. The cgroups are removed at exit.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
[ -n "$root" ] || skip "no cgroup v2 hierarchy is mounted"
CG="$root/copyprof-test-$$"
UID_=0b2f8c4e-1111-4a2b-9c3d-0123456789ab
A="$CG-a/kubepods/burstable/pod$UID_/c0ffee01"
B="$CG-b/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${UID_//-/_}.slice/cri-containerd-beef02.scope"
mkdir -p "$A" "$B" || skip "cannot create a cgroup under $root"
# Removed deepest first (rmdir of a cgroup with cgroups below it fails).
trap 'for d in "$CG"-*; do find "$d" -depth -type d -exec rmdir {} + 2>/dev/null; done' EXIT
# A copy of its own: no other test's runs of copyload hit these uprobes.
mkdir a && cp "$WL" a/copyload || fatal "copy the workload"
cat > run.sh <<'SH'
in_cgroup() { d=$1; shift; sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$d" "$@"; }
in_cgroup "$A" a/copyload copy=100:1234 copy=5000:66 &&
in_cgroup "$B" a/copyload copy=100:4321 &&
a/copyload copy=100:7
SH
export A B
rel() { echo "${1#"$root"}"; }
calls_of() { jq --arg p "$(rel "$2")" '[.sites[0].cgroups[] | select(.path == $p) | .calls] | add // 0' "$1"; }

# Without --cgroups (nor --cgroup), no attribution: main's profile, no "cgroups" list.
"$COPYPROF" record --uprobe a/copyload:wl_copy -o plain.json -- bash run.sh 2> plain.err ||
	fatal "record: $(cat plain.err)"
expect_eq "no --cgroups: site calls" "$(jq '.sites[0].calls' plain.json)" $((1234 + 66 + 4321 + 7))
expect_eq "no --cgroups: no cgroups list" "$(jq '.sites[0] | has("cgroups")' plain.json)" false

# --cgroups, no filter: every cgroup the command's processes ran in, each exactly.
"$COPYPROF" record --cgroups --uprobe a/copyload:wl_copy -o all.json -- bash run.sh 2> all.err ||
	fatal "record: $(cat all.err)"
expect_eq "all: site calls" "$(jq '.sites[0].calls' all.json)" $((1234 + 66 + 4321 + 7))
expect_eq "all: A's calls" "$(calls_of all.json "$A")" 1300
expect_eq "all: B's calls" "$(calls_of all.json "$B")" 4321
self=$(awk -F: '$1 == 0 { print $3 }' /proc/self/cgroup)
expect_eq "all: the test's own cgroup's calls" \
	"$(jq --arg p "$self" '[.sites[0].cgroups[] | select(.path == $p) | .calls] | add // 0' all.json)" 7
expect_eq "all: three cgroups, no other" "$(jq '.sites[0].cgroups | length' all.json)" 3
expect_eq "all: most calls first" "$(jq -c '[.sites[0].cgroups[].calls]' all.json)" '[4321,1300,7]'
expect_eq "all: ids are the directories' inode numbers" \
	"$(jq -c '[.sites[0].cgroups[0:2][].id]' all.json)" "[$(stat -c %i "$B"),$(stat -c %i "$A")]"
expect_eq "A's pod (cgroupfs layout)" \
	"$(jq -c --arg p "$(rel "$A")" '.sites[0].cgroups[] | select(.path == $p) | [.pod_uid, .qos, .container_id]' all.json)" \
	"[\"$UID_\",\"burstable\",\"c0ffee01\"]"
expect_eq "B's pod (systemd layout)" \
	"$(jq -c --arg p "$(rel "$B")" '.sites[0].cgroups[] | select(.path == $p) | [.pod_uid, .qos, .container_id]' all.json)" \
	"[\"$UID_\",\"besteffort\",\"beef02\"]"
"$COPYPROF" report -i all.json > report.txt || fail "report"
pct=$(awk 'BEGIN { printf "%.1f", 100 * 4321 / 5628 }')
grep -Fq "4,321 calls  $pct%  $(rel "$B")  (pod $UID_, besteffort, container beef02)" report.txt && pass "report shows B's row" ||
	fail "report does not show B's row: $(grep -A4 cgroups: report.txt)"
grep -q "^  cgroups: 3$" report.txt && pass "report's cgroups line" || fail "report's cgroups line: $(grep cgroups: report.txt)"
"$COPYPROF" report -i all.json --json > again.json || fail "report --json"
expect_eq "cgroups round trip" "$(jq -S .sites[0].cgroups again.json | md5sum)" "$(jq -S .sites[0].cgroups all.json | md5sum)"

# export: the same family as the agent's, which promtool accepts.
"$COPYPROF" export -f openmetrics -i all.json -o all.om 2> export.err || fail "export: $(cat export.err)"
expect_eq "export: B's series" \
	"$(grep -c "^copyprof_site_cgroup_calls{.*cgroup=\"$(rel "$B")\",pod_uid=\"$UID_\",qos=\"besteffort\",container_id=\"beef02\"} 4321$" all.om)" 1
if command -v promtool > /dev/null; then
	check "promtool check metrics accepts the export" promtool check metrics < all.om
fi

# --cgroup A: filtered in the kernel; B's calls and the test's own are not counted at all.
"$COPYPROF" record --uprobe a/copyload:wl_copy --cgroup "$CG-a" -o a.json -- bash run.sh 2> a.err ||
	fatal "record --cgroup: $(cat a.err)"
expect_eq "--cgroup A: site calls" "$(jq '.sites[0].calls' a.json)" 1300
expect_eq "--cgroup A: A's calls" "$(calls_of a.json "$A")" 1300
expect_eq "--cgroup A: only A" "$(jq '.sites[0].cgroups | length' a.json)" 1
expect_eq "--cgroup A: B absent" "$(calls_of a.json "$B")" 0

# --cgroup A --cgroup B: both directories (and below), not the test's own cgroup.
"$COPYPROF" record --uprobe a/copyload:wl_copy --cgroup "$CG-a" --cgroup "$B" -o ab.json -- \
	bash run.sh 2> ab.err || fatal "record --cgroup x2: $(cat ab.err)"
expect_eq "--cgroup A --cgroup B: site calls" "$(jq '.sites[0].calls' ab.json)" $((1300 + 4321))
expect_eq "--cgroup A --cgroup B: per cgroup" "$(jq -c '[.sites[0].cgroups[].calls]' ab.json)" '[4321,1300]'

# The agent, --cgroup A --cgroup B: one copyprof_site_cgroup_calls series per cgroup, with the
# pod; the test's own cgroup's calls are not counted.
need_cmd curl
PA=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PA" --max-overhead 0 \
	--cgroup "$CG-a" --cgroup "$B" 2> agent.log &
pids+=($!)
wait_for "the agent" curl -sf "127.0.0.1:$PA/metrics"
bash run.sh || fail "workloads beside the agent"
curl -sf "127.0.0.1:$PA/metrics" > metrics.txt || fail "scrape"
expect_eq "agent: A's series" \
	"$(grep -c "^copyprof_site_cgroup_calls{.*cgroup=\"$(rel "$A")\",pod_uid=\"$UID_\",qos=\"burstable\",container_id=\"c0ffee01\"} 1300$" metrics.txt)" 1
expect_eq "agent: B's series" \
	"$(grep -c "^copyprof_site_cgroup_calls{.*cgroup=\"$(rel "$B")\",pod_uid=\"$UID_\",qos=\"besteffort\",container_id=\"beef02\"} 4321$" metrics.txt)" 1
expect_eq "agent: --cgroup A --cgroup B, so two cgroup series" "$(grep -c '^copyprof_site_cgroup_calls{' metrics.txt)" 2
expect_eq "agent: copyprof_agent_info names both" \
	"$(grep -c "^copyprof_agent_info{.*cgroup=\"$(rel "$CG-a"),$(rel "$B")\"" metrics.txt)" 1
stop_servers

# Bad input: nine directories, and a directory that is not a cgroup v2 one.
nine=()
for i in 1 2 3 4 5 6 7 8 9; do nine+=(--cgroup "$CG-a"); done
expect_exit 2 "$COPYPROF" record --uprobe a/copyload:wl_copy "${nine[@]}" -d 1 -o x.json
expect_err "at most 8 --cgroup directories"
expect_exit 2 "$COPYPROF" agent --uprobe a/copyload:wl_copy "${nine[@]}"
expect_err "at most 8 --cgroup directories"

# Ten cgroups, each on one of two CPUs (five a CPU: every one finds a slot on its CPU), calls
# 101 .. 110: the 8 with most calls listed exactly, the two smallest (101 + 102) in other.
if [ "$(nproc)" -ge 2 ] && command -v taskset > /dev/null; then
	: > ten.sh
	for i in 1 2 3 4 5 6 7 8 9 10; do
		mkdir -p "$CG-t$i" || fatal "mkdir $CG-t$i"
		echo "in_cgroup $CG-t$i taskset -c $((i % 2)) a/copyload copy=64:$((100 + i)) || exit 1" >> ten.sh
	done
	"$COPYPROF" record --cgroups --uprobe a/copyload:wl_copy -o ten.json -- \
		bash -c "$(head -1 run.sh); . ./ten.sh" 2> ten.err || fatal "record ten: $(cat ten.err)"
	expect_eq "ten: site calls" "$(jq '.sites[0].calls' ten.json)" $(((101 + 110) * 5))
	expect_eq "ten: the top 8 exactly" "$(jq -c '[.sites[0].cgroups[] | select(.other | not) | .calls]' ten.json)" \
		'[110,109,108,107,106,105,104,103]'
	expect_eq "ten: the top 8's paths" \
		"$(jq -c '[.sites[0].cgroups[] | select(.other | not) | .path]' ten.json)" \
		"$(for i in 10 9 8 7 6 5 4 3; do rel "$CG-t$i"; done | jq -R . | jq -sc .)"
	expect_eq "ten: other" "$(jq -c '[.sites[0].cgroups[] | select(.other) | .calls]' ten.json)" '[203]'
	"$COPYPROF" report -i ten.json > ten.txt || fail "report ten"
	grep -Eq "^ +203 calls +[0-9.]+%  other$" ten.txt && pass "report's other row" || fail "report's other row: $(grep -A10 cgroups: ten.txt)"
else
	echo "# the ten-cgroup check needs 2 CPUs and taskset"
fi
expect_no_leftover_progs
exit 0
