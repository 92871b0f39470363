# SPDX-License-Identifier: GPL-2.0
# slowloris.py: holds SOCKETS connections to HOST:PORT for SECONDS, each sending a little every
# half second and never finishing: "http" a request's header lines, "tls" a ClientHello one byte
# at a time. A connection the server closes is opened again at the next half second. Bounded:
# SOCKETS connections at once, SECONDS long; loopback only. Prints "opened N closed-by-server M".
import socket
import sys
import time

host, port, count, seconds, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
if not host.startswith("127."):
    sys.exit("slowloris.py: loopback addresses only")
# The start of a TLS 1.2 ClientHello record, then padding: it never completes.
HELLO = bytes([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]) + bytes(500)
socks = {}
opened = closed = 0


def connect(i):
    global opened
    s = socket.socket()
    s.setblocking(False)
    s.connect_ex((host, port))
    socks[i] = [s, 0]
    opened += 1


def piece(k):
    if mode == "tls":
        return HELLO[k:k + 1]
    return b"GET /metrics HTTP/1.1\r\nHost: x\r\n" if k == 0 else b"X-Slow-%d: x\r\n" % k


for i in range(count):
    connect(i)
end = time.time() + seconds
while time.time() < end:
    time.sleep(0.5)
    for i in range(count):
        if i not in socks:
            connect(i)
            continue
        s, k = socks[i]
        try:
            s.send(piece(k))
            socks[i][1] = k + 1
            try:
                if s.recv(1, socket.MSG_PEEK) == b"":
                    raise ConnectionResetError
            except BlockingIOError:
                pass
        except OSError:
            s.close()
            closed += 1
            del socks[i]
print("opened", opened, "closed-by-server", closed)
