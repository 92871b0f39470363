# SPDX-License-Identifier: GPL-2.0
# flood.py: SOCKETS connections at once to HOST:PORT for SECONDS, each bound to one of SOURCES
# loopback addresses (127.0.0.1, then 127.1.0.1, 127.1.0.2 ...), as fast as the server takes
# them. MODE "get": a GET /metrics, its answer read, again on a new connection; "wrong": the
# same with a wrong password (--auth USER:PASS); "slow": header lines trickled every half
# second, never finished; "delta": GET /debug/pprof/profile?seconds=600, held until SECONDS
# end, then dropped without reading. --tls speaks TLS (not checking the server's certificate). Bounded: SOCKETS threads,
# SECONDS long, loopback only, at most 200 new connections a second per thread. Prints
# "connections N answers A" and the count of each status ("200=12 429=5 none=3").
import base64
import socket
import ssl
import sys
import threading
import time

args = sys.argv[1:]
tls = False
auth = None
while args and args[0].startswith("--"):
    if args[0] == "--tls":
        tls = True
        args = args[1:]
    elif args[0] == "--auth" and len(args) > 1:
        auth = args[1]
        args = args[2:]
    else:
        sys.exit("flood.py: unknown option " + args[0])
host, port, mode, count, seconds, sources = args[0], int(args[1]), args[2], int(args[3]), float(args[4]), int(args[5])
if not host.startswith("127.") or mode not in ("get", "wrong", "slow", "delta"):
    sys.exit("usage: flood.py [--tls] [--auth U:P] 127.x.y.z PORT get|wrong|slow|delta SOCKETS SECONDS SOURCES")
if count > 1000 or seconds > 120 or sources > 250:
    sys.exit("flood.py: at most 1000 sockets, 120 s, 250 sources")
ctx = None
if tls:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
path = "/debug/pprof/profile?seconds=600" if mode == "delta" else "/metrics"
head = "GET %s HTTP/1.1\r\nHost: %s\r\n" % (path, host)
if auth:
    head += "Authorization: Basic %s\r\n" % base64.b64encode(auth.encode()).decode()
end = time.time() + seconds
lock = threading.Lock()
stats = {"connections": 0, "answers": 0}
statuses = {}


def source(i):
    return "127.0.0.1" if i % sources == 0 else "127.1.0.%d" % (i % sources)


def note(status):
    with lock:
        statuses[status] = statuses.get(status, 0) + 1
        if status != "none":
            stats["answers"] += 1


def connect(i, timeout):
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((source(i), 0))
    with lock:
        stats["connections"] += 1
    s.connect((host, port))
    if ctx:
        s = ctx.wrap_socket(s, server_hostname=host)
    return s


def status_of(s):
    got = b""
    while b"\r\n" not in got and len(got) < 64:
        d = s.recv(64)
        if not d:
            break
        got += d
    parts = got.split(b" ")
    return parts[1].decode() if len(parts) > 1 and got.startswith(b"HTTP/1.") else "none"


def one(i):
    if mode == "slow":
        s = connect(i, 2)
        k = 0
        while time.time() < end:
            s.sendall(head.encode() if k == 0 else b"X-Slow-%d: x\r\n" % k)
            k += 1
            time.sleep(0.5)
        s.close()
        return
    if mode == "delta":
        s = connect(i, 2)
        s.sendall((head + "\r\n").encode())
        s.settimeout(0.5)
        first = True
        while time.time() < end:
            try:
                d = s.recv(1 << 16)
            except (socket.timeout, ssl.SSLError):
                continue
            if first:
                parts = d.split(b" ")
                note(parts[1].decode() if d.startswith(b"HTTP/1.") and len(parts) > 1 else "none")
                first = False
            if d == b"":
                break
        s.close()
        return
    s = connect(i, 5)
    s.sendall((head + "Connection: close\r\n\r\n").encode())
    note(status_of(s))
    s.close()


def worker(i):
    while time.time() < end:
        t0 = time.time()
        try:
            one(i)
        except (OSError, ssl.SSLError):
            note("none")
        # At most 200 a second from one thread: a flood, not a busy loop on a refusal.
        time.sleep(max(0, 0.005 - (time.time() - t0)))


threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(count)]
for t in threads:
    t.start()
for t in threads:
    t.join(timeout=max(0, end - time.time()) + 10)
with lock:
    print("connections %d answers %d" % (stats["connections"], stats["answers"]),
          " ".join("%s=%d" % kv for kv in sorted(statuses.items())))
