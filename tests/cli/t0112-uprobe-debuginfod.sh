#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0112-uprobe-debuginfod: a real debuginfod server (on a free port, serving this test's folder)
# hands copyprof the debug file of a stripped program, whose function is then counted exactly.
# Offline, the lookup fails clearly: at once for a closed port; within the bounded timeout for a
# server that accepts and never answers (never a hang).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd objcopy
need_cmd curl
need_cmd python3
need_cmd debuginfod
need_cmd debuginfod-find
cd "$TMP"

mkdir -p served cache
cp "$WL" served/copyload            # the unstripped build: the server indexes its DWARF
objcopy --strip-all "$WL" stripped
ID=$(readelf -n stripped | awk '/Build ID/ { print $3 }')
[ -n "$ID" ] || fail "the workload has no build id"
export DEBUGINFOD_CACHE_PATH="$TMP/cache"

# debuginfod 0.188 has no listen-address option: it listens on PORT of every interface, and
# serves nothing but this folder.
PORT=$(free_port)
debuginfod -F "$TMP/served" -p "$PORT" -d "$TMP/db.sqlite" -t 1 > debuginfod.log 2>&1 &
pids+=($!)
# Polled with curl, not debuginfod-find, which would cache a "not found" seen before the scan.
wait_for "debuginfod to index the workload" \
	curl -sf -o /dev/null "http://127.0.0.1:$PORT/buildid/$ID/debuginfo"

DEBUGINFOD_URLS="http://127.0.0.1:$PORT" "$COPYPROF" record --uprobe ./stripped:wl_copy \
	-o found.json -- ./stripped copy=100:23 copy=5000:2@5 > out.txt 2>&1 ||
	fail "record through debuginfod failed: $(cat out.txt)"
expect_eq "debuginfod wl_copy calls" "$(jq '.sites[0].calls' found.json)" 25
expect_eq "debuginfod wl_copy bytes" "$(jq '.sites[0].bytes' found.json)" $((100 * 23 + 5000 * 2))
expect_eq "debuginfod dst_align[5]" "$(jq '.sites[0].dst_align[5]' found.json)" 2
[ -s "cache/$ID/debuginfo" ] || fail "the debug file is not in DEBUGINFOD_CACHE_PATH"
stop_servers

# Offline: nothing listens on the port any more.
rm -rf cache/*
expect_exit 1 env DEBUGINFOD_URLS="http://127.0.0.1:$PORT" "$COPYPROF" record --uprobe ./stripped:wl_copy -d 1
expect_err "no function 'wl_copy'.*debuginfod \(http://127.0.0.1:$PORT\) has no debug file for build id $ID: .*(refused|connect)"

# A server that accepts and never answers: the lookup gives up by itself (5 s per try, one
# retry); 'timeout' only turns a hang into a clear failure, it does not time copyprof.
BH_PORT=$(free_port)
python3 -c 'import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(16)
held = []
while True:
    held.append(s.accept()[0])' "$BH_PORT" &
pids+=($!)
wait_for "the silent server" python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 2).close()' "$BH_PORT"
rc=0
timeout 300 env -u DEBUGINFOD_TIMEOUT -u DEBUGINFOD_RETRY_LIMIT DEBUGINFOD_URLS="http://127.0.0.1:$BH_PORT" \
	"$COPYPROF" record --uprobe ./stripped:wl_copy -d 1 > "$TMP/out" 2> "$TMP/err" || rc=$?
[ "$rc" -ne 124 ] || fail "record hung on a server that never answers"
expect_eq "silent server exit status" "$rc" 1
expect_err "debuginfod \(http://127.0.0.1:$BH_PORT\) has no debug file for build id $ID: .*Timer expired \(no answer within 5 s, 1 retries"
expect_no_leftover_progs
exit 0
