#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0125-uprobe-redeploy: a probed program replaced as deploys do (cp new x.tmp && mv x.tmp x) is
# followed by record -a and by the agent's re-plans: the calls of the new file are counted
# exactly, at the symbol's offset in the new build; a process still running the old file keeps
# being counted until it exits, then the old file's probe is detached; a replacement that lacks
# the symbol is refused once, with the old probe kept.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd curl
cd "$TMP"

mkdir -p bin
cp "$WL" bin/copyload
# A new build of the same source, with wl_copy elsewhere in the file, when a compiler is here.
if command -v cc > /dev/null &&
	cc -O2 -fPIE -pie -falign-functions=512 "$ROOT/tests/workload/copyload.c" -o new 2> cc.err; then
	built="a new build"
else
	cp "$WL" new
	built="the same bytes (no C compiler: $(head -c 200 cc.err 2> /dev/null))"
fi
# wl_copy's file offset in each (the .text section of a PIE maps at file offset = address).
off_old=$(printf '0x%x' $((16#$(nm "$WL" | awk '$3 == "wl_copy" { print $1 }'))))
off_new=$(printf '0x%x' $((16#$(nm new | awk '$3 == "wl_copy" { print $1 }'))))
echo "# the replacement is $built: wl_copy at $off_old, then $off_new"
# Replaces bin/copyload by FILE the way package managers do: a new inode under the same name.
redeploy() { cp "$1" bin/copyload.tmp && mv bin/copyload.tmp bin/copyload; }
ino() { stat -c %i bin/copyload; }
# lines FILE PATTERN N: FILE has at least N lines matching PATTERN (for wait_for, which retries).
lines() { [ "$(grep -c -- "$2" "$1")" -ge "$3" ]; }

# record -a. A process of the old file waits at a FIFO (dist= opens it) with its code mapped.
mkfifo gate
"$COPYPROF" record -a --uprobe "$TMP/bin/copyload:wl_copy" -o rec.json > rec.out 2> rec.err &
rec=$!
pids+=($rec)
wait_for "record to start" grep -q "recording 1 site" rec.err
bin/copyload copy=100:1000 || fail "the old file's run"
bin/copyload dist=gate:200 > old.out 2>&1 &
old=$!
pids+=($old)
# It must run the old file: replaced before its exec, it would run the new one.
wait_for "the old file's process to map it" grep -q "$TMP/bin/copyload" "/proc/$old/maps"
ino1=$(ino)
redeploy new
ino2=$(ino)
wait_for "record to re-attach" grep -q "re-attached $TMP/bin/copyload" rec.err
expect_eq "record says what changed" \
	"$(grep -o "re-attached $TMP/bin/copyload: the file was replaced (inode [0-9]* -> [0-9]*)" rec.err)" \
	"re-attached $TMP/bin/copyload: the file was replaced (inode $ino1 -> $ino2)"
check "record re-resolved wl_copy in the new file (file offset $off_new, was $off_old)" \
	grep -q "site 0, wl_copy+0x0 at file offset $off_new (was $off_old)" rec.err
bin/copyload copy=300:1500 || fail "the new file's run"
# The old process runs the old code: its calls are counted by the old file's probe.
echo "64 1" > gate
wait "$old" || fail "the old file's process: $(cat old.out)"
wait_for "record to detach the old file's probe" \
	grep -q "detached the probe on the old $TMP/bin/copyload (inode $ino1, site 0): no process maps it any more" rec.err
# A replacement without wl_copy: refused once, the site stays on what it had.
redeploy /bin/true
wait_for "record to refuse /bin/true" grep -q "cannot be found in the new file" rec.err
sleep 1
expect_eq "the refusal is said once" "$(grep -c "cannot be found in the new file" rec.err)" 1
redeploy new
wait_for "record to re-attach again" lines rec.err "re-attached $TMP/bin/copyload" 2
bin/copyload copy=300:500 || fail "the third file's run"
kill -INT "$rec"
wait "$rec"
expect_eq "record's exit" "$?" 0
expect_eq "calls: 1,000 old + 1,500 new + 200 old after + 500 newest" \
	"$(jq '.sites[0].calls' rec.json)" 3200
expect_eq "bytes" "$(jq '.sites[0].bytes' rec.json)" $((100 * 1000 + 300 * 2000 + 64 * 200))
expect_eq "the new files' calls (300 bytes)" \
	"$(jq '[.sites[0].buckets[] | select(.lo <= 300 and .hi > 300) | .count] | add' rec.json)" 2000

# A library (as libc.so.6 is upgraded): a process that runs the old one keeps being counted
# through the old file's probe, new processes load the new one; needs a C compiler.
if command -v cc > /dev/null; then
	mkdir -p lib
	cat > wllib.c <<'C'
#include <string.h>
__attribute__((noinline)) void *wl_lib_copy(void *d, const void *s, unsigned long n)
{
	memcpy(d, s, n);
	__asm__ volatile("" ::: "memory");
	return d;
}
C
	cat > uselib.c <<'C'
#include <stdio.h>
#include <stdlib.h>
void *wl_lib_copy(void *d, const void *s, unsigned long n);
static char a[4096], b[4096];
int main(int argc, char **argv)
{
	unsigned long i, n = strtoul(argv[1], NULL, 10);
	char line[16];
	FILE *f = argc > 2 ? fopen(argv[2], "r") : NULL; /* a FIFO: wait for a line */

	if (f && !fgets(line, sizeof(line), f))
		return 1;
	for (i = 0; i < n; i++)
		wl_lib_copy(a, b, 128);
	return 0;
}
C
	cc -O2 -fPIC -shared wllib.c -o lib/libwl.so &&
		cc -O2 -fPIC -shared -falign-functions=512 wllib.c -o libwl-new.so &&
		cc -O2 uselib.c -o uselib -Llib -lwl -Wl,-rpath,"$TMP/lib" ||
		fatal "cannot build the library and its program"
	mkfifo libgate
	"$COPYPROF" record -a --uprobe "$TMP/lib/libwl.so:wl_lib_copy" -o lib.json > lib.out 2> lib.err &
	pids+=($!)
	wait_for "record to start on the library" grep -q "recording 1 site" lib.err
	./uselib 300 || fail "the old library's run"
	./uselib 400 libgate &
	held=$!
	pids+=($held)
	wait_for "the old library's process to map it" grep -q "$TMP/lib/libwl.so" "/proc/$held/maps"
	lino1=$(stat -c %i lib/libwl.so)
	cp libwl-new.so lib/libwl.so.tmp && mv lib/libwl.so.tmp lib/libwl.so
	wait_for "record to re-attach the library" grep -q "re-attached $TMP/lib/libwl.so" lib.err
	check "the library's old inode is still mapped: $(grep -c "libwl.so (deleted)" /proc/$held/maps) mapping(s)" \
		grep -q "$TMP/lib/libwl.so (deleted)" "/proc/$held/maps"
	sleep 2 # two sweeps of the maps (record looks every second)
	check "record keeps the old library's probe while it is mapped" \
		test "$(grep -c "detached the probe on the old $TMP/lib/libwl.so" lib.err)" = 0
	./uselib 500 || fail "the new library's run"
	echo go > libgate
	wait "$held" || fail "the process of the old library"
	wait_for "record to detach the old library's probe" \
		grep -q "detached the probe on the old $TMP/lib/libwl.so (inode $lino1, site 0)" lib.err
	kill -INT "${pids[-2]}"
	wait "${pids[-2]}"
	expect_eq "library calls: 300 old + 500 new + 400 old after the rename" \
		"$(jq '.sites[0].calls' lib.json)" 1200
else
	echo "# no C compiler: the library case is not run (the program case above is the same code)"
fi

# The agent: its periodic re-plan follows the file, /profile and /metrics say so.
cp "$WL" bin/copyload
P=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/bin/copyload:wl_copy" --listen "127.0.0.1:$P" --replan 1 \
	2> agent.log &
pids+=($!)
wait_for "the agent" curl -sf "127.0.0.1:$P/metrics"
bin/copyload copy=100:1000 || fail "the old file's run under the agent"
ino1=$(ino)
redeploy new
wait_for "the agent to re-attach" grep -q "re-attached $TMP/bin/copyload" agent.log
check "the agent says the inodes" grep -q "the file was replaced (inode $ino1 -> $(ino))" agent.log
bin/copyload copy=300:1500 || fail "the new file's run under the agent"
expect_eq "/profile: 1,000 + 1,500 calls" \
	"$(curl -sf "127.0.0.1:$P/profile" | jq '.sites[0].calls')" 2500
expect_eq "/metrics: copyprof_agent_reattached" \
	"$(curl -sf "127.0.0.1:$P/metrics" | awk '$1 == "copyprof_agent_reattached" { print $2 }')" 1
# SIGHUP re-plans follow too.
redeploy "$WL"
kill -HUP "${pids[-1]}"
wait_for "the agent to re-attach on SIGHUP" lines agent.log "re-attached $TMP/bin/copyload" 2
bin/copyload copy=100:700 || fail "the third file's run under the agent"
expect_eq "/profile after two replacements" \
	"$(curl -sf "127.0.0.1:$P/profile" | jq '.sites[0].calls')" 3200
stop_servers
expect_no_leftover_progs
