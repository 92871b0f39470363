#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# uprobe_overhead.sh: per-event cost of `copyprof record --uprobe` against bpftrace's
# `@ = hist(arg2)` and against itself with callers (--callers) on the same workload, in
# one interleaved run, and the events each one lost; the BPF time per event of each (bpftrace's
# hist() too). BPF_ONLY=1 measures only that.
# The per-event cost is the slope between a small and a large run, so start-up (bpftrace
# compiles its program) cancels out. Usage: bench/uprobe_overhead.sh [BUILD_DIR] [N_SMALL N_LARGE]
# The BPF time per event is also measured with --cgroups (calls by cgroup), against the default.
# BPF_TOOLS="default cgroups": only those of default, cgroups, callers, bpftrace (all by default).
# BASE=DIR: also the BPF program's time per event of the copyprof in DIR (another build, e.g.
# of main), interleaved with this one's: what a change to the recorder adds per event.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof tests/copyload
N1=${2:-20000} N2=${3:-220000} REPS=${REPS:-3}
WL=$BUILD/tests/copyload
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
command -v bpftrace >/dev/null || { echo "bench: needs bpftrace (make deps)"; exit 1; }

now_ns() { date +%s%N; }
# One timed run (ns) of a tool; a run that fails is no measurement: stop rather than print a
# slope of failures.
time_ns() {
	local t0
	t0=$(now_ns)
	"$@" > "$TMP/out" 2>&1 || { echo "bench: '$*' failed: $(tail -n 3 "$TMP/out")" >&2; exit 1; }
	echo $(( $(now_ns) - t0 ))
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
plain() { "$WL" copy=64:"$1"; }
copyprof() { "$BUILD/copyprof" record --uprobe "$WL:wl_copy" -o "$TMP/p.json" -- "$WL" copy=64:"$1"; }
# The same entry uprobe with its callers (--callers; uprobes count none by default): the
# difference is what counting them costs (read *sp from user memory, a cached bpf_find_vma, a
# hash update).
callers() {
	"$BUILD/copyprof" record --callers --uprobe "$WL:wl_copy" -o "$TMP/m.json" -- "$WL" copy=64:"$1"
}
bpft() { bpftrace -e "uprobe:$WL:wl_copy { @ = hist(arg2); }" -c "$WL copy=64:$1"; }

# BPF_ONLY=1: only the BPF time per event below (the wall-time slopes take minutes).
if [ "${BPF_ONLY:-0}" != 1 ]; then
# Interleaved: each repetition runs every tool at both sizes, so that the load of a shared
# machine falls on all of them alike.
tools=(plain copyprof callers bpft)
declare -A small big slope
for ((i = 0; i < REPS; i++)); do
	for tool in "${tools[@]}"; do
		small[$tool]+=" $(time_ns $tool "$N1")"
		big[$tool]+=" $(time_ns $tool "$N2")"
	done
done
for tool in "${tools[@]}"; do
	a=$(median ${small[$tool]}); b=$(median ${big[$tool]})
	slope[$tool]=$(( (b - a) / (N2 - N1) ))
	printf '%-9s N=%-7d %8.3f s   N=%-7d %8.3f s   %6d ns/call\n' "$tool" "$N1" \
		"$(echo "$a / 1000000000" | bc -l)" "$N2" "$(echo "$b / 1000000000" | bc -l)" "${slope[$tool]}"
done
cp_cost=$(( slope[copyprof] - slope[plain] )) bt_cost=$(( slope[bpft] - slope[plain] ))
cc_cost=$(( slope[callers] - slope[plain] ))

# Lost events: what each tool counted against what the workload made.
copyprof "$N2" > /dev/null 2>&1; cp_n=$(jq '.sites[0].calls' "$TMP/p.json")
bpft "$N2" > "$TMP/bt.txt" 2>&1
bt_n=$(awk '/^\[/ {s += $3} END {print s + 0}' "$TMP/bt.txt")
echo
echo "per-event cost over a plain run: copyprof $cp_cost ns, bpftrace $bt_cost ns," \
	"ratio copyprof/bpftrace $(echo "scale=2; $cp_cost / $bt_cost" | bc -l)"
echo "events counted of $N2 made: copyprof $cp_n (lost $((N2 - cp_n))), bpftrace $bt_n (lost $((N2 - bt_n)))"
echo "callers: copyprof --callers $cc_cost ns, copyprof (none) $cp_cost ns," \
	"ratio $(echo "scale=2; $cc_cost / $cp_cost" | bc -l)"
fi

# The BPF program's own time per event (BPF_ENABLE_STATS, while a recording holds the program):
# precise where the wall times above drown in the uprobe's trap and a shared machine's load.
python3 - "$BUILD/copyprof" "$WL" "$REPS" "${BASE:+$BASE/copyprof}" <<'PY'
import ctypes, json, os, struct, subprocess, sys, time
cp, wl, reps, base = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
libc = ctypes.CDLL(None, use_errno=True)
attr = ctypes.create_string_buffer(struct.pack("I", 0) + b"\0" * 124)  # BPF_STATS_RUN_TIME
fd = libc.syscall(321, 32, attr, 128)  # bpf(BPF_ENABLE_STATS): on while fd is open
if fd < 0:
    sys.exit("bench: BPF_ENABLE_STATS refused (root?)")
def held(pid):  # prog ids the process holds (fdinfo: Debian's bpftool lists no holders)
    ids = set()
    for fd_ in os.listdir("/proc/%d/fdinfo" % pid):
        try:
            for line in open("/proc/%d/fdinfo/%s" % (pid, fd_)):
                if line.startswith("prog_id:"):
                    ids.add(int(line.split()[1]))
        except OSError:
            pass
    return ids
def mine(pid, bpftrace):  # the uprobe programs: copyprof's cp_uprobe*, bpftrace's one
    ids = held(pid)
    return [p for p in json.loads(subprocess.check_output(["bpftool", "prog", "-j"]))
            if p["id"] in ids and p.get("type") == "kprobe" and
            (bpftrace or p.get("name", "").startswith("cp_uprobe"))]
def ns_per_run(tool, binary=cp):
    if tool == "bpftrace":
        cmd = ["bpftrace", "-e", "uprobe:%s:wl_copy { @ = hist(arg2); }" % wl]
    else:
        extra = {"callers": ["--callers"], "cgroups": ["--cgroups"]}.get(tool, [])
        cmd = [binary, "record", *extra, "--uprobe",
               wl + ":wl_copy", "-o", "/dev/null", "-d", "60"]
    rec = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):  # until attached: a run of the workload is counted
            subprocess.run([wl, "copy=64:1"], check=True)
            if any(p.get("run_cnt", 0) for p in mine(rec.pid, tool == "bpftrace")):
                break
            time.sleep(0.1)
        before = mine(rec.pid, tool == "bpftrace")
        subprocess.run([wl, "copy=64:100000"], check=True)
        after = mine(rec.pid, tool == "bpftrace")
        runs = sum(p.get("run_cnt", 0) for p in after) - sum(p.get("run_cnt", 0) for p in before)
        ns = sum(p.get("run_time_ns", 0) for p in after) - sum(p.get("run_time_ns", 0) for p in before)
        return ns / runs if runs else float("nan")
    finally:
        rec.terminate()
        rec.wait()
tools = os.environ.get("BPF_TOOLS", "default cgroups callers bpftrace").split()
res = {t: [] for t in tools + (["base default", "base callers"] if base else [])}
for _ in range(reps):  # interleaved, so that a shared machine's load falls on all alike
    for t in tools:
        res[t].append(ns_per_run(t))
    if base:  # BASE's default may still count callers: each side as it ships, and with --callers
        res["base default"].append(ns_per_run("default", base))
        if "callers" in tools:
            res["base callers"].append(ns_per_run("callers", base))
med = {k: sorted(v)[len(v) // 2] for k, v in res.items() if v}
if "default" in med and "cgroups" in med:
    print("--cgroups (calls by cgroup): %.0f ns, %+.0f ns a call over the default %.0f ns (ratio %.3f)" %
          (med["cgroups"], med["cgroups"] - med["default"], med["default"],
           med["cgroups"] / med["default"]))
print("  each run: " + "; ".join("%s %s" % (t, " ".join("%.0f" % x for x in res[t])) for t in tools))
if base and "default" in med:
    print("against %s: its default %.0f ns, this default %.0f ns (ratio %.3f); runs %s" %
          (base, med["base default"], med["default"], med["default"] / med["base default"],
           " ".join("%.0f" % x for x in res["base default"])))
if not all(t in med for t in ("default", "callers", "bpftrace")):
    sys.exit(0)
print("BPF time per event (BPF_ENABLE_STATS, median of %d, 100,000 events): copyprof %.0f ns"
      " (default: no uprobe callers), --callers %.0f ns, bpftrace hist() %.0f ns;"
      " copyprof/bpftrace %.2f, --callers/bpftrace %.2f" %
      (reps, med["default"], med["callers"], med["bpftrace"], med["default"] / med["bpftrace"],
       med["callers"] / med["bpftrace"]))
if base and med.get("base callers"):
    print("against %s: default %.0f ns (ratio %.3f), --callers %.0f ns (ratio %.3f)"
          % (base, med["base default"], med["default"] / med["base default"],
             med["base callers"], med["callers"] / med["base callers"]))
PY
