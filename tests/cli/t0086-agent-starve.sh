#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0086-agent-starve: no local user can silence the agent. As user nobody, 200 slowloris sockets
# (header lines trickled, then a ClientHello trickled to the TLS port), each 20 s, on loopback;
# meanwhile root's scrapes succeed >= 95% of the time and the agent's counters show the attack
# was limited. Wrong passwords from nobody at three addresses are throttled (bcrypt runs within
# nobody's share, 429) while root's right password from a fourth still works; a right password is
# checked by bcrypt once.
# Keep-alive answers pipelined requests and closes after 100; a silent connection is cut after
# its deadline. Empty and duplicate-user web configs are refused.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd curl
need_cmd openssl
need_cmd setpriv
python3 -W ignore -c 'import crypt' 2>/dev/null || skip "needs python3's crypt module for a bcrypt hash"
# nobody needs a python3 it may run (a per-user install under /root is not one).
NOBODY_PY=/usr/bin/python3
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$@"; }
as_nobody "$NOBODY_PY" -c 'pass' 2>/dev/null || skip "user nobody cannot run $NOBODY_PY"
cd "$TMP"
SLOW="$ROOT/tests/cli/slowloris.py"
ATTACK_S=20
metric() { curl -sf "${CURL_AUTH[@]}" "$1/metrics" | awk -v m="$2" '$1 == m { print $2 }'; }
CURL_AUTH=()

# scrape_during URL SECONDS: scrapes every 0.25 s for SECONDS (each may take 10 s); prints
# "OK ALL".
scrape_during() {
	local url=$1 end=$((SECONDS + $2)) ok=0 all=0
	while [ "$SECONDS" -lt "$end" ]; do
		all=$((all + 1))
		curl -sf -m 10 -o /dev/null "${CURL_AUTH[@]}" "$url/metrics" && ok=$((ok + 1))
		sleep 0.25
	done
	echo "$ok $all"
}
# at_least_95 WHAT OK ALL
at_least_95() {
	[ "$3" -ge 20 ] || fail "$1: only $3 scrapes were tried"
	[ $((100 * $2)) -ge $((95 * $3)) ] || fail "$1: $2 of $3 scrapes succeeded (< 95%)"
	echo "$1: $2 of $3 scrapes succeeded"
}

mkdir a
cp "$WL" a/copyload
PA=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PA" 2> a.log &
pids+=($!)
A=127.0.0.1:$PA
wait_for "the agent" curl -sf "$A/metrics"

# 1. Slow header lines from 200 sockets of user nobody.
as_nobody "$NOBODY_PY" "$SLOW" 127.0.0.1 "$PA" 200 "$ATTACK_S" http > slow.out 2>&1 &
attacker=$!
sleep 1
read -r ok all < <(scrape_during "$A" $((ATTACK_S - 2)))
wait "$attacker" || fail "the slowloris script failed: $(cat slow.out)"
at_least_95 "under slow headers" "$ok" "$all"
echo "slowloris: $(cat slow.out)"
closed=$(curl -sf "$A/metrics" | awk '/^copyprof_agent_http_connections_closed/ { s += $2 } END { print s + 0 }')
[ "$closed" -gt 0 ] || fail "the agent closed none of the attacker's connections"
grep -q "HTTP limits in the last .*most from 127.0.0.1 (uid $(id -u nobody))" a.log ||
	fail "the log does not name nobody's connections: $(grep 'HTTP limits' a.log | head -n 2)"

# 2. Keep-alive: pipelined requests are all answered; the 100th says Connection: close.
python3 - "$PA" > pipe.out <<'PY' || fail "keep-alive: $(cat pipe.out)"
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n" * 3 + b"GET /profile HTTP/1.1\r\nHost: a\r\n\r\n")
got = b""
while got.count(b"HTTP/1.1 200") < 4:
    d = s.recv(1 << 16)
    if not d:
        break
    got += d
print("pipelined", got.count(b"HTTP/1.1 200"))
s.close()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=30)
f = s.makefile("rb")
for i in range(1, 101):
    s.sendall(b"HEAD /metrics HTTP/1.1\r\nHost: a\r\n\r\n")
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        line = f.readline()
        if not line:
            sys.exit("closed after %d answers" % (i - 1))
        head += line
    if (b"Connection: close" in head) != (i == 100):
        sys.exit("answer %d: Connection: close %s" % (i, "missing" if i == 100 else "too early"))
print("closed after", i, "answers:", f.read() == b"")
PY
expect_eq "pipelined answers" "$(sed -n 1p pipe.out)" "pipelined 4"
expect_eq "keep-alive's end" "$(sed -n 2p pipe.out)" "closed after 100 answers: True"

# 3. A connection that sends nothing is cut after its deadline (5 s; waited for generously).
before=$(curl -sf "$A/metrics" | awk '$1 == "copyprof_agent_http_connections_closed{reason=\"timed_out\"}" { print $2 }')
python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(180)
sys.exit(0 if s.recv(1) == b"" else 1)' "$PA" || fail "a silent connection was not closed"
after=$(curl -sf "$A/metrics" | awk '$1 == "copyprof_agent_http_connections_closed{reason=\"timed_out\"}" { print $2 }')
[ "$after" -gt "$before" ] || fail "timed_out did not grow ($before, $after)"

# 4. TLS and a password: a ClientHello trickled from 200 sockets of nobody.
openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -days 2 \
	-subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 > /dev/null 2>&1 || fail "openssl"
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))')
printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\nbasic_auth_users:\n  scraper: %s\n' \
	"'$hash'" > web.yml
PT=$(free_port)
"$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$PT" --web-config web.yml \
	2> tls.log &
pids+=($!)
T=https://127.0.0.1:$PT
CURL_AUTH=(--cacert cert.pem -u scraper:s3cret)
wait_for "the TLS agent" curl -sf "${CURL_AUTH[@]}" "$T/metrics"
as_nobody "$NOBODY_PY" "$SLOW" 127.0.0.1 "$PT" 200 "$ATTACK_S" tls > slowtls.out 2>&1 &
attacker=$!
sleep 1
read -r ok all < <(scrape_during "$T" $((ATTACK_S - 2)))
wait "$attacker" || fail "the slowloris script failed: $(cat slowtls.out)"
at_least_95 "under a slow ClientHello" "$ok" "$all"
echo "slow ClientHello: $(cat slowtls.out)"

# 5. The right password is checked by bcrypt once, however many scrapes.
for _ in $(seq 1 20); do curl -sf -o /dev/null "${CURL_AUTH[@]}" "$T/metrics" || fail "scrape"; done
expect_eq "bcrypt runs for one credential" "$(metric "$T" copyprof_agent_http_password_checks)" 1

# 6. Wrong passwords from nobody at three addresses (127.0.0.2-4) for 10 s: throttled, while
# root's right password from a fourth works throughout. (Connections of one user share its
# limits: root's own flood would slow root's scrapes.)
wrong() { # SOURCE: wrong passwords for 10 s as nobody; prints how many answers were 401 and 429
	local end=$((SECONDS + 10)) c401=0 c429=0 code
	while [ "$SECONDS" -lt "$end" ]; do
		code=$(as_nobody curl -s -k -o /dev/null -w '%{http_code}' --interface "$1" \
			-u scraper:wrong "https://127.0.0.1:$PT/metrics")
		case $code in 401) c401=$((c401 + 1)) ;; 429) c429=$((c429 + 1)) ;; esac
	done
	echo "$c401 $c429"
}
flood=()
start=$SECONDS
for src in 127.0.0.2 127.0.0.3 127.0.0.4; do
	wrong "$src" > "wrong-$src.out" &
	flood+=($!)
done
right=0
for _ in $(seq 1 20); do
	curl -sf -o /dev/null --interface 127.0.0.5 "${CURL_AUTH[@]}" "$T/metrics" && right=$((right + 1))
	sleep 0.4
done
wait "${flood[@]}"
expect_eq "the right password during the flood" "$right" 20
t401=0 t429=0
for src in 127.0.0.2 127.0.0.3 127.0.0.4; do
	read -r a b < "wrong-$src.out"
	t401=$((t401 + a)) t429=$((t429 + b))
done
checks=$(metric "$T" copyprof_agent_http_password_checks)
elapsed=$((SECONDS - start + 1))
echo "wrong passwords: $t401 answered 401 (each a bcrypt), $t429 answered 429; bcrypt runs $checks in $elapsed s"
[ "$t429" -gt 0 ] || fail "no wrong password was throttled"
# nobody's share (10 at once, then 1 a second, whatever its addresses) + the right one's.
[ "$checks" -le $((10 + elapsed + 1)) ] || fail "$checks bcrypt runs in $elapsed s: the throttle did not hold"
[ "$(metric "$T" copyprof_agent_http_throttled)" -eq "$t429" ] || fail "copyprof_agent_http_throttled differs from the 429s seen"

# 7. Web configs that would protect nothing, or twice: refused.
: > empty.yml
expect_exit 1 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$(free_port)" --web-config empty.yml
expect_err "sets neither tls_server_config nor basic_auth_users"
printf 'basic_auth_users:\n  scraper: %s\n  scraper: %s\n' "'$hash'" "'$hash'" > dup.yml
expect_exit 1 "$COPYPROF" agent --uprobe "$TMP/a/copyload:wl_copy" --listen "127.0.0.1:$(free_port)" --web-config dup.yml
expect_err "a user is given twice"

for p in "${pids[@]}"; do kill -TERM "$p"; wait "$p" || fail "an agent exited $? on SIGTERM"; done
pids=()
expect_no_leftover_progs
