#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# agent_scale.sh: `copyprof agent` at scale, compared within one run (docs/benchmarks.md,
# "copyprof agent at scale"):
#   1. series per site and per agent, counted in real scrapes of sites with a wide mix of
#      lengths (24 lengths from 1 to 4096 B a site: 14 ranges of the bounds, the worst case
#      for the classic histograms' dense form);
#   2. per scrape at 1, 100 and 256 wide-mix uprobe sites (one agent takes at most 256 sites,
#      CP_MAX_SITES), against Debian's prometheus-node-exporter in the same run, each in three
#      formats (Prometheus text 0.0.4, OpenMetrics text, protobuf as Prometheus negotiates it
#      for native histograms): series, bytes (plain and gzip, as Prometheus asks), scrape time
#      and the server's CPU per scrape (scraped once a second with gzip, less its idle rate);
#   3. one site called at a paced RATE calls/s (default 20,000: a uprobe trap costs ~20-35 µs
#      on this VM, so one CPU cannot make 100,000/s; docs/benchmarks.md): the rate from the
#      agent's own counter, the agent's CPU, its BPF run time, and the workload's CPU per call
#      with and without it;
#   4. the same unpaced workload with no probe, under the agent, under `record`, alternated.
# Usage: bench/agent_scale.sh [BUILD_DIR]   (default build; needs root, curl, gcc, bpftool)
#   ROUNDS=3 (A/B rounds), SPIN_S=4 (seconds per unpaced run), WINDOW_S=20 (CPU windows),
#   SCRAPES=21 (timed scrapes per point), RATE=20000 (calls/s), NE=path (node_exporter;
#   default prometheus-node-exporter from PATH, or the comparison is skipped with a message),
#   SITES="1 100 256" (section 2's points), ONLY=2 (section 2 alone: sections 1, 3, 4 skipped),
#   GUEST=6.12 also boots the Debian guest (tests/vm/run.sh) and counts the btrfs preset's
#   plan and series for real (slow under TCG: minutes).
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof $([ -z "${GUEST:-}" ] || echo copyprof-static)
CP="$ROOT/$BUILD/copyprof"
ROUNDS=${ROUNDS:-3} SPIN_S=${SPIN_S:-4} WINDOW_S=${WINDOW_S:-20} SCRAPES=${SCRAPES:-21}
RATE=${RATE:-20000} GUEST=${GUEST:-} SITES=${SITES:-1 100 256} ONLY=${ONLY:-}
NE=${NE:-$(command -v prometheus-node-exporter || true)}
[ -x "$CP" ] || { echo "agent_scale.sh: build $CP first (make)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "agent_scale.sh: uprobes need root" >&2; exit 1; }
for c in curl gcc python3 bpftool; do
	command -v $c > /dev/null || { echo "agent_scale.sh: needs $c" >&2; exit 1; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-agent-scale.XXXXXX")
cleanup() {
	local p
	# Only this script's own children that still run (a pid of one already waited for may
	# have been reused by another program).
	for p in $(jobs -p); do kill -TERM "$p" 2> /dev/null; done
	wait 2> /dev/null
	rm -rf "$W"
}
trap cleanup EXIT
TCK=$(getconf CLK_TCK)

# The workload: 1,000 memcpy-like functions f_0000..f_0999 (noinline: one uprobe site each).
# Each copies with its own rep movsb, never through libc's memcpy: a uprobe on libc's memcpy
# (another test's, another tool's: they count every process) would trap every call of the
# "none" baseline too: the likely reason it ran at probed speed in 2 of 4 runs (the call went
# through memcpy@plt; `record -a --uprobe libc.so.6:__memmove_avx512_unaligned_erms` running
# elsewhere gives 54,345 calls/s against 560 million).
#   spin S     call f_0000(dst, src, 256) as fast as it can for S seconds
#   rate R S   call f_0000 R times a second for S seconds, paced every millisecond
#   all K      call every function K times
#   mix K      call every function K times with each of 24 lengths from 1 to 4096 B
# Each prints: calls, achieved calls/s, its own CPU seconds.
gen_workload() {
	local i
	{
		printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
		printf '#include <time.h>\n#include <sys/resource.h>\n'
		printf 'static unsigned char s[4096], d[4096];\n'
		for i in $(seq 0 999); do
			printf '__attribute__((noinline)) void *f_%04d(void *a, const void *b, size_t n)' "$i"
			printf ' { void *d = a; __asm__ volatile("rep movsb" : "+D"(d), "+S"(b), "+c"(n) :: "memory"); return a; }\n'
		done
		printf 'static void *(*fns[])(void *, const void *, size_t) = {\n'
		for i in $(seq 0 999); do printf 'f_%04d,\n' "$i"; done
		cat <<'C'
};
static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv) {
	unsigned long calls = 0, k, i, n;
	double t0 = now(), t1, cpu;
	struct rusage ru;
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		double end = t0 + atof(argv[2]);
		do {
			for (k = 0; k < 1024; k++)
				f_0000(d, s, 256);
			calls += 1024;
		} while (now() < end);
	} else if (argc == 4 && !strcmp(argv[1], "rate")) {
		unsigned long rate = strtoul(argv[2], 0, 10), ms = atof(argv[3]) * 1000;
		struct timespec tick;
		clock_gettime(CLOCK_MONOTONIC, &tick);
		for (i = 0; i < ms; i++) {
			unsigned long due = rate * (i + 1) / 1000;
			for (; calls < due; calls++)
				f_0000(d, s, 256);
			tick.tv_nsec += 1000000;
			if (tick.tv_nsec >= 1000000000) { tick.tv_sec++; tick.tv_nsec -= 1000000000; }
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &tick, 0);
		}
	} else if (argc == 3 && !strcmp(argv[1], "mix")) {
		static const size_t lens[] = { 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128,
					       192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096 };
		for (k = strtoul(argv[2], 0, 10); k; k--)
			for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
				for (n = 0; n < sizeof(lens) / sizeof(lens[0]); n++, calls++)
					fns[i](d, s, lens[n]);
	} else if (argc == 3 && !strcmp(argv[1], "all")) {
		for (k = strtoul(argv[2], 0, 10); k; k--)
			for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++, calls++)
				fns[i](d, s, 1 + i % 4096);
	} else {
		fprintf(stderr, "usage: sitewl spin S | rate R S | all K | mix K\n");
		return 2;
	}
	t1 = now();
	getrusage(RUSAGE_SELF, &ru);
	cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	      ru.ru_stime.tv_usec / 1e6;
	printf("%lu %.0f %.3f\n", calls, calls / (t1 - t0), cpu);
	return 0;
}
C
	} > "$W/sitewl.c"
	gcc -O2 -o "$W/sitewl" "$W/sitewl.c" || { echo "agent_scale.sh: gcc failed" >&2; exit 1; }
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_url() {
	local i
	for i in $(seq 1 1500); do curl -sf -o /dev/null "$1" && return 0; sleep 0.2; done
	echo "agent_scale.sh: $1 never answered" >&2
	return 1
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# copyprof BPF programs loaded now: "ID NAME HOLDER_PIDS" (holders from /proc/*/fdinfo, as
# tests/cli/lib.sh does: Debian's bpftool does not list them).
cp_programs() {
	local holders
	holders=$(grep -s '^prog_id:' /proc/[0-9]*/fdinfo/* 2> /dev/null |
		awk -F'[/:\t ]+' '{ print $NF, $3 }' | sort -u)
	bpftool prog show 2> /dev/null |
		awk '$2 ~ /^(kprobe|perf_event|tracing|raw_tracepoint)$/ && $3 == "name" &&
			$4 ~ /^cp_(uprobe|kprobe|perf|sample)/ { sub(":", "", $1); print $1, $4 }' |
		while read -r id name; do
			echo "$id $name $(awk -v id="$id" '$1 == id { printf "%s,", $2 }' <<< "$holders")"
		done
}
# Before a "none" run: no copyprof program held by this script's own processes (an agent or a
# record not gone yet) may be loaded; waits up to 10 s for one, else stops. Others' programs are
# said once: they cannot reach sitewl, which calls nothing outside itself.
OTHERS_SAID=
assert_unprobed() {
	local i mine others p
	for i in $(seq 1 50); do
		mine='' others=''
		while read -r id name holders; do
			[ -n "$id" ] || continue
			for p in ${holders//,/ }; do
				if [ "$(awk '{ print $4 }' "/proc/$p/stat" 2> /dev/null)" = $$ ]; then
					mine="$mine $name(id $id, pid $p)"
				else
					others="$others $name(id $id, pid $p)"
				fi
			done
		done < <(cp_programs)
		[ -z "$mine" ] && break
		sleep 0.2
	done
	if [ -n "$mine" ]; then
		echo "agent_scale.sh: copyprof programs of this run still loaded before a baseline:$mine" >&2
		exit 1
	fi
	if [ -n "$others" ] && [ -z "$OTHERS_SAID" ]; then
		echo "(other copyprof programs are loaded on this machine:$others; sitewl calls no" \
			"code of theirs)"
		OTHERS_SAID=1
	fi
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# metric URL NAME: the first sample of NAME (no labels, or the first labelled one).
# (Label values may hold spaces, cpu_model="AMD EPYC": the value is the last field.)
metric() { curl -sf "$1" | awk -v n="$2" '$1 == n || index($0, n "{") == 1 { print $NF; exit }'; }
sum_metric() { curl -sf "$1" | awk -v n="$2" 'index($0, n "{") == 1 { s += $NF } END { print s + 0 }'; }

# start_agent FIRST COUNT PORT [ARGS...]: an agent on f_FIRST..f_(FIRST+COUNT-1), pid in $A.
start_agent() {
	local first=$1 count=$2 port=$3 i args=()
	shift 3
	for ((i = first; i < first + count; i++)); do args+=(--uprobe "$W/sitewl:$(printf 'f_%04d' "$i")"); done
	"$CP" agent "${args[@]}" --listen "127.0.0.1:$port" --max-overhead 0 "$@" \
		> /dev/null 2>> "$W/agent-$port.log" &
	A=$!
}

# Accept headers: Prometheus's text 0.0.4 (node_exporter's and the agent's on request),
# OpenMetrics (Prometheus 2.42's first choice), and what Prometheus 2.42 sends with
# --enable-feature=native-histograms (protobuf first).
declare -A ACCEPT=(
	[text]='text/plain;version=0.0.4'
	[om]='application/openmetrics-text;version=1.0.0'
	[pb]='application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,text/plain;version=0.0.4;q=0.2,*/*;q=0.1'
)
# series KIND URL FMT: the series Prometheus keeps from one scrape. Text: every sample line.
# Protobuf: the agent's copyprof histograms are native (one series each: its +Inf line in the
# text); node_exporter's are classic there too (as many as in its text).
series() {
	local kind=$1 url=$2 fmt=$3
	[ "$fmt" = pb ] && [ "$kind" = ne ] && fmt=text
	if [ "$fmt" = pb ] && [ "$kind" = agent ]; then
		curl -sf -H "Accept: ${ACCEPT[text]}" "$url" | awk '/^#/ { next }
			/^copyprof_(copy_length|copy_bytes_by_length|sampled_copy_length)_bytes_/ {
				if (index($0, "le=\"+Inf\"")) n++; next }
			{ n++ } END { print n + 0 }'
	else
		curl -sf -H "Accept: ${ACCEPT[$fmt]}" "$url" | grep -vc '^#'
	fi
}
# scrape_point PID URL FMT: "BYTES GZIP_BYTES MS CPU_MS": bytes of one scrape plain and
# gzipped, then SCRAPES back-to-back gzip scrapes (as Prometheus asks): the median time, and
# the server's CPU over them per scrape, less its idle rate over the same time.
scrape_point() {
	local pid=$1 url=$2 fmt=$3 i bytes gz c0 c1 t0 t1 idle
	bytes=$(curl -sf -o /dev/null -w '%{size_download}' -H "Accept: ${ACCEPT[$fmt]}" "$url")
	gz=$(curl -sf -o /dev/null -w '%{size_download}' -H "Accept: ${ACCEPT[$fmt]}" -H 'Accept-Encoding: gzip' "$url")
	c0=$(cpu_ticks "$pid") t0=$(date +%s.%N)
	sleep 3
	c1=$(cpu_ticks "$pid") t1=$(date +%s.%N)
	idle=$(awk -v c=$((c1 - c0)) -v t="$TCK" -v a="$t0" -v b="$t1" 'BEGIN { print c / t / (b - a) }')
	c0=$(cpu_ticks "$pid") t0=$(date +%s.%N)
	for i in $(seq 1 "$SCRAPES"); do
		curl -sf -o /dev/null -w '%{time_total}\n' -H "Accept: ${ACCEPT[$fmt]}" -H 'Accept-Encoding: gzip' "$url"
	done > "$W/scr"
	c1=$(cpu_ticks "$pid") t1=$(date +%s.%N)
	awk -v by="$bytes" -v gz="$gz" -v ms="$(median < "$W/scr")" -v c=$((c1 - c0)) -v t="$TCK" \
		-v a="$t0" -v b="$t1" -v idle="$idle" -v n="$SCRAPES" 'BEGIN {
		cpu = c / t - idle * (b - a); if (cpu < 0) cpu = 0
		printf "%d %d %.2f %.2f\n", by, gz, ms * 1000, 1000 * cpu / n }'
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) CPUs," \
	"kernel $(uname -r), $(date -u '+%F %H:%M UTC'), load before $(cut -d' ' -f1-3 /proc/loadavg)"
gen_workload
"$W/sitewl" all 1 > /dev/null

if [ -z "$ONLY" ] || [ "$ONLY" = 1 ]; then
# 1. Series, counted.
echo
echo "## 1. Series in one scrape (one site, the wide mix)"
P=$(free_port)
start_agent 0 1 "$P"
wait_url "127.0.0.1:$P/metrics" || exit 1
"$W/sitewl" mix 1 > /dev/null
curl -sf "127.0.0.1:$P/metrics" > "$W/one.om"
kill -TERM "$A"
wait "$A"
per_site=$(grep -v '^#' "$W/one.om" | grep -c '^copyprof_copy_\|^copyprof_site_\|^copyprof_agent_site_')
fixed=$(grep -v '^#' "$W/one.om" | grep -vc '^copyprof_copy_\|^copyprof_site_\|^copyprof_agent_site_')
echo "per site: $per_site series ($(grep -c '^copyprof_copy_length_bytes_bucket' "$W/one.om") _bucket + _count + _sum of the calls," \
	"$(grep -c '^copyprof_copy_bytes_by_length_bytes_bucket' "$W/one.om") _bucket of the bytes, its state and 2 cost gauges);" \
	"per agent: $fixed (health and recording duration; + 1 per site detached over budget)"
echo "formula: series = $per_site * sites + $fixed"
fi

if [ -z "$ONLY" ] || [ "$ONLY" = 2 ]; then
# 2. Per scrape by number of sites and format, node_exporter alongside.
echo
echo "## 2. Per scrape: sites with the wide mix, three formats, node_exporter in the same run"
echo "(bytes plain and gzipped; time the median of $SCRAPES gzip scrapes; CPU per scrape over them, less the idle rate)"
echo
echo "| target | sites | format | series | bytes | gzip bytes | scrape ms | CPU ms per scrape |"
echo "|---|---|---|---|---|---|---|---|"
declare -A NE_ROW=()
point() { # KIND LABEL SITES PID URL
	local kind=$1 label=$2 sites=$3 pid=$4 url=$5 fmt ser by gz ms cpu
	for fmt in text om pb; do
		ser=$(series "$kind" "$url" "$fmt")
		read -r by gz ms cpu < <(scrape_point "$pid" "$url" "$fmt")
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "$sites" "$fmt" "$ser" "$by" "$gz" "$ms" "$cpu"
		if [ "$kind" = ne ]; then
			NE_ROW[$fmt]="$ser $by $gz $cpu"
		elif [ -n "${NE_ROW[$fmt]:-}" ]; then
			read -r ns nb ng nc <<< "${NE_ROW[$fmt]}"
			awk -v s="$ser" -v b="$by" -v g="$gz" -v c="$cpu" -v ns="$ns" -v nb="$nb" -v ng="$ng" -v nc="$nc" \
				-v f="$fmt" -v n="$sites" 'BEGIN { printf "|  | %s | %s / node_exporter | %.2f | %.2f | %.2f | | %s |\n",
				n, f, s / ns, b / nb, g / ng, (nc > 0 ? sprintf("%.2f", c / nc) : "-") }'
		fi
	done
}

if [ -n "$NE" ] && [ -x "$NE" ]; then
	NP=$(free_port)
	"$NE" --web.listen-address="127.0.0.1:$NP" > "$W/ne.log" 2>&1 &
	NEP=$!
	wait_url "127.0.0.1:$NP/metrics" && point ne "node_exporter $("$NE" --version 2>&1 | awk 'NR == 1 { print $3 }')" - "$NEP" "127.0.0.1:$NP/metrics"
else
	echo "| node_exporter | skipped: not installed (apt-get install prometheus-node-exporter, or NE=PATH) | | | | | | |"
fi

for sites in $SITES; do
	P=$(free_port)
	start_agent 0 "$sites" "$P"
	wait_url "127.0.0.1:$P/metrics" || exit 1
	"$W/sitewl" mix 10 > /dev/null # every site has calls of every length of the mix
	point agent agent "$sites" "$A" "127.0.0.1:$P/metrics"
	kill -TERM "$A"
	wait "$A"
	echo "|  | attached: $(grep -ho '[0-9]* of [0-9]* site(s) attached' "$W"/agent-*.log | tail -n 1) | | | | | | |"
	rm -f "$W"/agent-*.log
done
[ -z "${NEP:-}" ] || { kill -TERM "$NEP"; wait "$NEP"; }
fi
[ "$ONLY" != 1 ] && [ "$ONLY" != 2 ] || exit 0

# 3. One site at a paced RATE calls/s.
echo
echo "## 3. One uprobe site at $RATE calls/s (paced for ${WINDOW_S} s), alternated without and with the agent"
echo
echo "| run | calls/s (workload) | calls/s (agent's counter) | workload CPU s | workload µs per call | agent CPU % of 1 CPU | BPF run time % of 1 CPU | BPF ns per run |"
echo "|---|---|---|---|---|---|---|---|"
P=$(free_port)
for r in $(seq 1 "$ROUNDS"); do
	assert_unprobed
	read -r c rate cpu < <("$W/sitewl" rate "$RATE" "$WINDOW_S")
	printf '| none %d | %s | - | %s | %s | - | - | - |\n' "$r" "$rate" "$cpu" \
		"$(awk -v c="$cpu" -v n="$c" 'BEGIN { printf "%.3f", 1e6 * c / n }')"
	echo "$cpu" >> "$W/none.cpu"
	start_agent 0 1 "$P"
	wait_url "127.0.0.1:$P/metrics" || exit 1
	U="127.0.0.1:$P/metrics"
	n0=$(sum_metric "$U" copyprof_copy_length_bytes_count)
	b0=$(metric "$U" copyprof_agent_bpf_run_time_seconds)
	r0=$(metric "$U" copyprof_agent_bpf_runs)
	a0=$(cpu_ticks "$A")
	read -r c rate cpu < <("$W/sitewl" rate "$RATE" "$WINDOW_S")
	a1=$(cpu_ticks "$A")
	n1=$(sum_metric "$U" copyprof_copy_length_bytes_count)
	b1=$(metric "$U" copyprof_agent_bpf_run_time_seconds)
	r1=$(metric "$U" copyprof_agent_bpf_runs)
	kill -TERM "$A"
	wait "$A"
	echo "$cpu" >> "$W/agent.cpu"
	awk -v c="$c" -v rate="$rate" -v cpu="$cpu" -v n0="$n0" -v n1="$n1" -v w="$WINDOW_S" \
		-v a0="$a0" -v a1="$a1" -v t="$TCK" -v b0="$b0" -v b1="$b1" -v r0="$r0" -v r1="$r1" -v r="$r" 'BEGIN {
		printf "| agent %d | %s | %.0f | %s | %.3f | %.2f | %.2f | %.0f |\n", r, rate,
			(n1 - n0) / w, cpu, 1e6 * cpu / c, 100 * (a1 - a0) / t / w,
			100 * (b1 - b0) / w, (r1 > r0) ? 1e9 * (b1 - b0) / (r1 - r0) : 0 }'
done
awk 'NR == FNR { a += $1; na++; next } { b += $1; nb++ }
	END { printf "\nworkload CPU with the agent / without (paced, same calls): %.2f\n", (b / nb) / (a / na) }' \
	"$W/none.cpu" "$W/agent.cpu"

# 4. Unpaced: no probe, agent, record, alternated.
echo
echo "## 4. Unpaced f_0000 calls for ${SPIN_S} s: none, agent, record alternated ($ROUNDS rounds)"
echo
echo "| round | none calls/s | agent calls/s | record calls/s |"
echo "|---|---|---|---|"
for r in $(seq 1 "$ROUNDS"); do
	assert_unprobed
	read -r _ none _ < <("$W/sitewl" spin "$SPIN_S")
	start_agent 0 1 "$P"
	wait_url "127.0.0.1:$P/metrics" || exit 1
	read -r _ ag _ < <("$W/sitewl" spin "$SPIN_S")
	kill -TERM "$A"
	wait "$A"
	# Run to its end: read from a process substitution, record outlived the read, detached
	# after the next round's baseline had started, and died of SIGPIPE before writing rec.json.
	"$CP" record --uprobe "$W/sitewl:f_0000" -o "$W/rec.json" -- "$W/sitewl" spin "$SPIN_S" \
		> "$W/rec.out" 2> "$W/rec.err" || { echo "agent_scale.sh: record failed: $(tail -n 3 "$W/rec.err")" >&2; exit 1; }
	read -r _ rec _ < "$W/rec.out"
	printf '| %d | %s | %s | %s |\n' "$r" "$none" "$ag" "$rec"
	echo "$none $ag $rec" >> "$W/spin"
done
awk '{ n += $1; a += $2; r += $3 } END {
	printf "\nmeans: none %.0f, agent %.0f, record %.0f calls/s; agent/none %.2e, record/none %.2e, agent/record %.3f\n",
		n / NR, a / NR, r / NR, a / n, r / n, a / r
	printf "cost per call (1/rate - 1/none): agent %.2f µs, record %.2f µs\n", 1e6 * (NR / a - NR / n), 1e6 * (NR / r - NR / n) }' "$W/spin"

# Optional: the btrfs preset in the Debian guest.
if [ -n "$GUEST" ]; then
	echo
	echo "## btrfs preset in the Debian $GUEST guest"
	STATIC="$ROOT/$BUILD/copyprof-static"
	if "$ROOT/tests/vm/run.sh" --kernel "$GUEST" --disk btrfs-zstd --bin "$STATIC" \
		--bin "$ROOT/bench/agent_scale_guest.sh" --out "$W/guest" --timeout 900 -- \
		agent_scale_guest.sh > "$W/guest.log" 2>&1 && [ -s "$W/guest/btrfs.json" ]; then
		gs=$(grep -Eo '^ *[0-9]+ sites:.*' "$W/guest/record.err" | head -n 1)
		"$CP" export -i "$W/guest/btrfs.json" -f openmetrics -o "$W/guest.om" 2> /dev/null
		n=$(echo "$gs" | awk '{ print $1 }')
		echo "record -p btrfs planned: $gs; profile sites: $(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["sites"]))' "$W/guest/btrfs.json")"
		echo "calls-histogram series in export's OpenMetrics of that profile:" \
			"$(grep -c '^copyprof_copy_length_bytes' "$W/guest.om") ($((${per_site:-72} / 2 + 1)) per site)"
		echo "series the agent serves for -p btrfs there: $per_site * $n + $fixed = $((per_site * n + fixed))"
	else
		echo "guest run failed: $(tail -n 3 "$W/guest.log")"
	fi
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
