#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0097-agent-flood: no local user wedges the agent from many loopback addresses. As user
# nobody, from 40 source addresses (127.0.0.1 and 127.1.0.x), 200 connections at once for 12 s:
# GET /metrics as fast as they are answered, then slow header lines, then pprof profiles over
# 600 s, then wrong passwords over TLS. Meanwhile root's scrapes succeed >= 95% of the time, and
# all of them after each flood; nobody holds at most its share of the profiles' pool, a
# profile's wait ends when its client goes, and root's own profile is served during the flood;
# bcrypt runs stay under nobody's share however many addresses it uses. SIGTERM during a flood
# ends the agent within 5 s with status 0 and leaves none of its BPF links; with the HTTP
# library's polling thread frozen (ptrace), SIGTERM still detaches every probe and the agent
# exits 1 at its 3 s deadline.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl
need_cmd openssl
need_cmd setpriv
need_cmd bpftool
python3 -W ignore -c 'import crypt' 2>/dev/null || skip "needs python3's crypt module for a bcrypt hash"
NOBODY_PY=/usr/bin/python3
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"; }
as_nobody "$NOBODY_PY" -c 'pass' 2>/dev/null || skip "user nobody cannot run $NOBODY_PY"
cd "$TMP"
FLOOD="$ROOT/tests/cli/flood.py"
FLOOD_S=12
CURL_AUTH=()
metric() { curl -sf -m 10 "${CURL_AUTH[@]}" "$1/metrics" | awk -v m="$2" '$1 == m { print $2 }'; }
waits_are() { [ "$(metric "$A" copyprof_agent_http_profile_waits)" = "$1" ]; }
# Every flood still running is stopped at exit (each ends by itself after FLOOD_S anyway).
floods=()
stop_floods() { local p; for p in "${floods[@]}"; do kill -KILL "$p" 2>/dev/null; done; }
exit_hooks+=(stop_floods)
drop_pid() {
	local p keep=()
	for p in "${pids[@]}"; do [ "$p" = "$1" ] || keep+=("$p"); done
	pids=("${keep[@]}")
}

# flood NAME PORT MODE SOCKETS [flood.py options]: as nobody, from 40 addresses, FLOOD_S long.
flood() {
	local name=$1 port=$2 mode=$3 n=$4
	shift 4
	as_nobody "$NOBODY_PY" "$FLOOD" "$@" 127.0.0.1 "$port" "$mode" "$n" "$FLOOD_S" 40 \
		> "flood-$name.out" 2>&1 &
	flooder=$!
	floods+=($flooder)
}
# scrape_during URL SECONDS: root scrapes every 0.1 s for SECONDS (each may take 10 s); prints
# "OK ALL".
scrape_during() {
	local url=$1 end=$((SECONDS + $2)) ok=0 all=0
	while [ "$SECONDS" -lt "$end" ]; do
		all=$((all + 1))
		curl -sf -m 10 -o /dev/null "${CURL_AUTH[@]}" "$url/metrics" && ok=$((ok + 1))
		sleep 0.1
	done
	echo "$ok $all"
}
# during_and_after WHAT URL: root's scrapes while the flood runs (>= 95%), then 10 after it (all).
during_and_after() {
	local ok all after=0 i
	read -r ok all < <(scrape_during "$2" $((FLOOD_S - 2)))
	wait "$flooder" || fail "$1: the flood failed: $(cat "flood-$1.out")"
	echo "$1: the flood: $(cat "flood-$1.out")"
	if [ "$all" -ge 10 ] && [ $((100 * ok)) -ge $((95 * all)) ]; then
		pass "$1: $ok of $all scrapes succeeded during the flood"
	else
		fail "$1: $ok of $all scrapes succeeded during the flood (< 95% or < 10 tried)"
	fi
	for i in $(seq 1 10); do
		curl -sf -m 10 -o /dev/null "${CURL_AUTH[@]}" "$2/metrics" && after=$((after + 1))
	done
	expect_eq "$1: scrapes after the flood" "$after" 10
}
# link_ids PID: the ids of the BPF links process PID holds.
link_ids() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd")" = "anon_inode:bpf_link" ] &&
			awk '$1 == "link_id:" { print $2 }' "/proc/$1/fdinfo/${fd##*/}"
	done
}
# sigterm_during WHAT PID [STATUS]: SIGTERM to the agent PID in the middle of the flood running;
# it must exit STATUS (0) within 5 s, every BPF link it held gone.
sigterm_during() {
	local what=$1 pid=$2 want=${3:-0} links t0 t1 rc=0 id left=""
	links=$(link_ids "$pid")
	[ -n "$links" ] || fail "$what: the agent holds no BPF link to check"
	t0=$(date +%s%N)
	kill -TERM "$pid"
	for _ in $(seq 1 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	t1=$(date +%s%N)
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		fail "$what: the agent still ran 10 s after SIGTERM"
	fi
	wait "$pid" || rc=$?
	echo "$what: exited $rc $(((t1 - t0) / 1000000)) ms after SIGTERM"
	expect_eq "$what: exit status after SIGTERM" "$rc" "$want"
	[ $((t1 - t0)) -le 5000000000 ] || fail "$what: $(((t1 - t0) / 1000000)) ms to exit (> 5 s)"
	for id in $links; do
		bpftool link show id "$id" > /dev/null 2>&1 && left="$left $id"
	done
	expect_eq "$what: BPF links left of the agent's ($(echo $links))" "${left:-none}" none
	wait "$flooder" || fail "$what: the flood failed: $(cat "flood-$what.out")"
	drop_pid "$pid"
}

mkdir a
cp "$WL" a/copyload
PA=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PA" 2> a.log &
agent=$!
pids+=($agent)
A=127.0.0.1:$PA
wait_for "the agent" curl -sf "$A/metrics"

# 1. Whole requests as fast as they are answered (the issue's wedge: its listener thread
# waited on a mutex it held itself).
flood get "$PA" get 200
sleep 1
during_and_after get "$A"
refused=$(curl -sf "$A/metrics" | awk '/^copyprof_agent_http_connections_closed\{reason="(rate|full)"\}/ { s += $2 } END { print s + 0 }')
[ "$refused" -gt 0 ] || fail "the limits refused none of nobody's connections"
held=$(metric "$A" copyprof_agent_http_connections_held)
[ "$held" -le 2 ] || fail "$held connections still held after the flood"

# 2. Slow header lines.
flood slow "$PA" slow 200
sleep 1
during_and_after slow "$A"

# 3. Profiles over 600 s: nobody holds at most its two places in the pool, root's own profile
# is answered during the flood, and nobody's waits end once its sockets close.
flood delta "$PA" delta 200
wait_for "nobody's profiles" waits_are 2
code=$(curl -s -m 10 -o root.pb.gz -w '%{http_code}' "$A/debug/pprof/profile?seconds=2")
expect_eq "root's profile over 2 s during the flood" "$code" 200
most=0
for _ in $(seq 1 8); do
	w=$(metric "$A" copyprof_agent_http_profile_waits)
	[ "${w:-99}" -gt "$most" ] && most=$w
	sleep 0.25
done
expect_eq "most of nobody's profile waits at once" "$most" 2
during_and_after delta "$A"
wait_for "the waits' end once nobody's sockets closed" waits_are 0
[ "$(metric "$A" copyprof_agent_http_profiles_refused)" -gt 0 ] ||
	fail "no profile was refused for a full pool"

# 4. SIGTERM during whole requests and profiles: the probes go first, the server within 3 s.
flood sigterm "$PA" get 200
as_nobody "$NOBODY_PY" "$FLOOD" 127.0.0.1 "$PA" delta 20 "$FLOOD_S" 10 > flood-sigterm-delta.out 2>&1 &
delta_flooder=$!
floods+=($delta_flooder)
sleep 4
sigterm_during sigterm "$agent"
wait "$delta_flooder" || fail "the profiles' flood failed: $(cat flood-sigterm-delta.out)"
grep -q "every probe detached; stopping the HTTP server" a.log ||
	fail "the log does not say the probes went first: $(tail -n 3 a.log)"

# 5. TLS, wrong passwords from 40 addresses: root's right password (known since its first
# scrape) still works, and bcrypt runs stay within nobody's share (10 at once, then 1 a second)
# plus root's one.
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > /dev/null 2>&1 || fail "openssl"
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))')
printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\nbasic_auth_users:\n  scraper: %s\n' \
	"'$hash'" > web.yml
PT=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PT" --web-config web.yml \
	2> tls.log &
tls_agent=$!
pids+=($tls_agent)
T=https://127.0.0.1:$PT
CURL_AUTH=(--cacert cert.pem -u scraper:s3cret)
wait_for "the TLS agent" curl -sf "${CURL_AUTH[@]}" "$T/metrics"
start=$SECONDS
flood wrong "$PT" wrong 100 --tls --auth scraper:wrong
sleep 1
during_and_after wrong "$T"
checks=$(metric "$T" copyprof_agent_http_password_checks)
throttled=$(metric "$T" copyprof_agent_http_throttled)
elapsed=$((SECONDS - start + 1))
echo "wrong passwords from 40 addresses: $checks bcrypt runs in ${elapsed} s, $throttled answered 429"
[ "$throttled" -gt 0 ] || fail "no wrong password was throttled"
[ "$checks" -le $((10 + elapsed + 1)) ] ||
	fail "$checks bcrypt runs in $elapsed s: more than nobody's share (10 + 1/s) and root's one"
flood tls-sigterm "$PT" wrong 100 --tls --auth scraper:wrong
sleep 4
sigterm_during tls-sigterm "$tls_agent"

# 6. The HTTP library's polling thread stopped by a tracer (PTRACE_SEIZE + PTRACE_INTERRUPT,
# that thread alone) while whole requests flood: MHD_stop_daemon() cannot join it, so the agent
# exits 1 at its deadline, its probes detached before.
PF=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PF" 2> frozen.log &
frozen_agent=$!
pids+=($frozen_agent)
CURL_AUTH=()
wait_for "the third agent" curl -sf "127.0.0.1:$PF/metrics"
tid=$(for t in /proc/"$frozen_agent"/task/*; do
	[ "$(cat "$t/comm")" = MHD-listen ] && echo "${t##*/}"; done)
[ -n "$tid" ] || fatal "libmicrohttpd's thread MHD-listen is not in the agent"
python3 - "$tid" > freezer.out 2>&1 <<'PY' &
import ctypes, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
tid, status = int(sys.argv[1]), ctypes.c_int()
if libc.ptrace(0x4206, tid, None, None) or libc.ptrace(0x4207, tid, None, None):  # SEIZE, INTERRUPT
    sys.exit("ptrace: errno %d" % ctypes.get_errno())
if libc.waitpid(tid, ctypes.byref(status), 0x40000000) != tid:  # __WALL
    sys.exit("waitpid: errno %d" % ctypes.get_errno())
print("frozen", flush=True)
# Waited for again: a traced thread that ends is the tracer's to reap, and its process's end is
# not seen before. At most 30 s.
signal.alarm(30)
libc.waitpid(tid, ctypes.byref(status), 0x40000000)
PY
freezer=$!
floods+=($freezer)
wait_for "the freezer" grep -q frozen freezer.out
flood frozen "$PF" get 100
sleep 2
sigterm_during frozen "$frozen_agent" 1
kill -KILL "$freezer" 2>/dev/null
wait "$freezer" 2>/dev/null
grep -q "every probe detached; stopping the HTTP server" frozen.log &&
	grep -q "the HTTP server did not stop within 3 s" frozen.log ||
	fail "the log does not say the probes went first, then the deadline: $(tail -n 3 frozen.log)"

pids=()
expect_no_leftover_progs
