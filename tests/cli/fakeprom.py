# SPDX-License-Identifier: GPL-2.0
# fakeprom.py: a fake Prometheus query API on 127.0.0.1:PORT for estimate --prometheus's tests.
# Every answer follows the scenario named in the file SCENARIO (read at each request), so that
# one server plays a well-behaved Prometheus and each broken one in turn. The site: 1000 calls
# of 100 B and 100 of 3000 B ("Synthetic CPU", kernel 6.12.0-test); "many" has 20,000 sites of
# 10 calls of 5 GB each; "wide" 5 sites of 4e18 calls (2e19, past 2^64, in all); "native"
# answers native histograms instead of classic buckets.
# "fakeprom.py dump SCENARIO" prints the eleven answers (classic calls and bytes; native calls
# and bytes each now, an hour ago, resets and increase; info) separated by lines "--": the
# input of tests/fuzz/fuzz_prom_answer.c.
import http.server
import json
import sys
import urllib.parse

EDGES = [1 << i for i in range(11)] + [1536] + [1 << i for i in range(11, 33)]
SITE = {"cpu_model": "Synthetic CPU", "kernel": "6.12.0-test", "target": "/usr/bin/app",
        "symbol": "app_copy", "offset": "0x0", "mechanism": "uprobe", "family": "memcpy"}
CALLS = [(100, 1000), (3000, 100)]  # (length, calls)


def classic(calls, weight_bytes, site=SITE, sparse=False, keep=None):
    """Cumulative buckets below each edge and +Inf, leading empty ones left out if sparse,
    only the edges in keep (and +Inf) if given."""
    out = []
    for e in EDGES + [None]:
        v = sum((n * L if weight_bytes else n) for L, n in calls if e is None or L < e)
        if sparse and v == 0 and e is not None or keep is not None and e not in keep + [None]:
            continue
        out.append((dict(site, le="+Inf" if e is None else "%d.0" % (e - 1)), "%d" % v))
    return out


def sparse_edges(calls):
    """The edges export --buckets sparse lists (docs/export.md#buckets): the top of every
    range with calls, and the one just below every run of such ranges but the first."""
    filled = [any(lo <= L < e for L, n in calls)
              for lo, e in zip([0] + EDGES, EDGES + [1 << 64])]
    return [e for i, e in enumerate(EDGES) if filled[i] or filled[i + 1] and any(filled[:i])]


def native(calls, weight_bytes, site=SITE):
    """Schema 0: bucket (2^(i-1), 2^i] holds lengths [2^(i-1), 2^i) as the agent serves them."""
    buckets = {}
    for L, n in calls:
        i = L.bit_length()
        buckets[i] = buckets.get(i, 0) + (n * L if weight_bytes else n)
    total = sum(buckets.values())
    # As stored: the site's labels, the CPU model and the target's; the kernel is the info's.
    labels = {k: v for k, v in site.items() if k != "kernel"}
    return [(dict(labels, instance="127.0.0.1:1", job="copyprof"),
             {"count": "%d" % total, "sum": "0",
              "buckets": [[0, "%d" % (1 << (i - 1)), "%d" % (1 << i), "%d" % c]
                          for i, c in sorted(buckets.items())]})]


def vector(samples, histogram=False):
    key = "histogram" if histogram else "value"
    return {"status": "success", "data": {"resultType": "vector", "result": [
        {"metric": m, key: [1700000000.0, v]} for m, v in samples]}}


def info(hosts):
    return [(dict(cpu_model=SITE["cpu_model"], kernel=SITE["kernel"], cpu_flags="erms,fsrm",
                  host=h, instance="127.0.0.1:%d" % (i + 1), job="copyprof"), "1")
            for i, h in enumerate(hosts)]


def answer(scenario, query):
    """(HTTP status, body) for @query under @scenario."""
    # (The classic queries join copyprof_agent_info: their metric decides first.)
    kind = ("bytes" if "copyprof_copy_bytes_by_length_bytes_bucket" in query else
            "calls" if "copyprof_copy_length_bytes_bucket" in query else
            "info" if "copyprof_agent_info" in query else
            "nbytes" if "copyprof_copy_bytes_by_length_bytes" in query else "ncalls")
    # The native histograms' queries: M now, M offset R, resets(M[R]) > 0, increase(M[R]).
    form = ("resets" if "resets(" in query else "increase" if "increase(" in query else
            "then" if " offset " in query else "now")
    if query.startswith("count("):  # the check for site series without their agent's info
        return 200, vector([])
    if scenario == "error-status":
        return 400, {"status": "error", "errorType": "bad_data", "error": "parse error at char 9"}
    if scenario == "not-json":
        return 200, "<html>a proxy's login page</html>"
    if kind == "info":
        return 200, vector(info(["web-1", "web-2"] if scenario == "two-hosts" else ["web-1"]))
    if scenario.startswith("native"):
        if kind in ("calls", "bytes"):
            return 200, vector([])
        s = native(CALLS, kind == "nbytes")
        if scenario == "native-bad-bucket":
            s[0][1]["buckets"][0][2] = "1000"
        # native-gone: the series was there an hour ago, is gone now: increase() counts it;
        # native-since: there now and an hour ago with a third of it: the difference counts.
        if scenario == "native-gone":
            return 200, vector(s if form in ("then", "increase") else [], histogram=True)
        if scenario == "native-since" and form == "then":
            return 200, vector(native([(L, n // 3) for L, n in CALLS], kind == "nbytes"),
                               histogram=True)
        if form in ("then", "resets", "increase"):
            return 200, vector([], histogram=form != "resets")
        return 200, vector(s, histogram=True)
    if kind in ("ncalls", "nbytes"):
        return 200, vector([])
    if scenario == "many":
        out = []
        for i in range(20000):
            site = dict(SITE, symbol="f_%05d" % i)
            out += classic([(5 << 30, 10)], kind == "bytes", site, sparse=True)
        return 200, vector(out)
    if scenario == "wide":  # 5 sites of 4e18 calls of 1 B: 2e19 in all, past 2^64
        out = []
        for i in range(5):
            out += classic([(1, 4 * 10 ** 18)], kind == "bytes", dict(SITE, symbol="w_%d" % i))
        return 200, vector(out)
    site = (dict(SITE, symbol="other") if scenario == "bytes-other-labels" and kind == "bytes" else
            dict(SITE, symbol="app_copy\0evil") if scenario == "nul-label" else SITE)
    # sparse-export: both twins as export --buckets sparse lists them; gap-both: le 127 and
    # 2047 left out of both, the 1000 calls of 100 B and the 100 of 3000 B rising across them.
    keep = (sparse_edges(CALLS) if scenario == "sparse-export" else
            [e for e in EDGES if e not in (128, 2048)] if scenario == "gap-both" else None)
    s = classic(CALLS, kind == "bytes", site, sparse=scenario == "sparse", keep=keep)
    if kind == "calls":
        edit = {"inf": "+Inf", "huge": "1e30", "nan": "NaN", "negative": "-5"}
        if scenario in edit:
            s[20] = (s[20][0], edit[scenario])
        elif scenario == "missing-le":
            s = [x for x in s if x[0]["le"] not in ("1023.0", "2047.0")]
        elif scenario == "gap-hides-calls":  # the bytes say 2048..4095 holds some of them
            s = [x for x in s if x[0]["le"] not in ("2047.0", "4095.0")]
        elif scenario == "decreasing-gap":
            s = [x for x in s if x[0]["le"] != "2047.0"]
            s[12] = (s[12][0], "7")
        elif scenario == "missing-inf":
            s = s[:-1]
        elif scenario == "decreasing":
            s[13] = (s[13][0], "7")
        elif scenario == "foreign-le":
            s.append((dict(SITE, le="100.0"), "5"))
        elif scenario == "twice":
            s.append(s[5])
    body = vector(s)
    if scenario == "value-object" and kind == "calls":
        body["data"]["result"][3]["value"] = {"a": 1}
    if scenario == "trailing" and kind == "calls":
        return 200, json.dumps(body) + " garbage"
    return 200, body


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query).get("query", [""])[0]
        with open(scenario_file) as f:
            scenario = f.read().strip()
        code, body = answer(scenario, query)
        data = (body if isinstance(body, str) else json.dumps(body)).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


if sys.argv[1] == "dump":
    queries = ["copyprof_copy_length_bytes_bucket", "copyprof_copy_bytes_by_length_bytes_bucket"]
    for m in ("copyprof_copy_length_bytes", "copyprof_copy_bytes_by_length_bytes"):
        queries += [m, m + " offset 1h", "resets(%s[1h]) > 0" % m, "increase(%s[1h])" % m]
    queries.append("copyprof_agent_info")
    parts = [answer(sys.argv[2], q)[1] for q in queries]
    print("\n--\n".join(p if isinstance(p, str) else json.dumps(p) for p in parts))
else:
    port, scenario_file = int(sys.argv[1]), sys.argv[2]
    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
