#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0021-fuzz-parsers: every parser of outside files under libFuzzer with ASan and UBSan: the
# regression inputs of tests/fuzz/regress/TARGET/ replayed, then a bounded run from seeds (the
# golden files, examples/data, presets/, examples/fleet/*.yml, ld.so --list-tunables, HTTP
# requests to the agent, trap cost caches, kubelet cgroup paths; pairs of profiles for diff). Any crash, leak or UBSan report fails;
# the number of executions per target is printed. FUZZ_SECONDS (default 10) bounds each run;
# the run's length never decides the result (a slow machine runs fewer inputs, nothing else).
. "$(dirname "$0")/lib.sh"
need_cmd jq
SECONDS_EACH=${FUZZ_SECONDS:-10}
G="$ROOT/tests/golden"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1
# fuzz_diff costs what it compares with this model, as diff -m does.
export COPYPROF_FUZZ_COSTMODEL="$G/costmodel-synthetic.json"

# seed TARGET: the seed corpus of TARGET in $TMP/corpus/TARGET.
seed() {
	local d="$TMP/corpus/$1"
	mkdir -p "$d"
	case $1 in
	profile) cp "$G"/profile-*.json "$d/" ;;
	costmodel) cp "$G"/costmodel-*.json "$ROOT"/examples/costmodels/*.json "$d/" ;;
	hist)
		cp "$ROOT"/examples/data/fleetbench-2023/*.txt "$d/"
		printf 'size,count\n16,1000\n4096,10\n# a comment\n1048576;2\n' > "$d/table.csv"
		;;
	folded)
		jq -r '.[].stacks[]?' "$G/perf-script-fixture.sites.json" > "$d/fixture.folded"
		jq -r '.sites[].stacks[]?' "$G/profile-synthetic-sampled.json" > "$d/sampled.folded"
		;;
	perf_script) cp "$G"/perf-script-fixture.txt "$G"/perf-script-iregs-fixture.txt "$d/" ;;
	preset) cp "$ROOT"/presets/*.preset "$d/" ;;
	diff)
		# BEFORE, a NUL, AFTER: every pair of the golden and the example profiles.
		local a b i=0
		for a in "$G"/profile-*.json "$ROOT"/examples/data/iov-regression/*.json; do
			for b in "$G"/profile-*.json "$ROOT"/examples/data/iov-regression/*.json; do
				i=$((i + 1))
				{ cat "$a"; printf '\0'; cat "$b"; } > "$d/pair-$i"
			done
		done
		;;
	glibc_tunables)
		# The real loader's lists (defaults, and with tunables set), when it is at hand.
		ldso=/lib64/ld-linux-x86-64.so.2
		if [ -x "$ldso" ]; then
			"$ldso" --list-tunables > "$d/defaults.txt" 2>/dev/null
			GLIBC_TUNABLES=glibc.cpu.x86_rep_movsb_threshold=513:glibc.cpu.hwcaps=-AVX512F \
				"$ldso" --list-tunables > "$d/tuned.txt" 2>/dev/null
		fi
		printf 'glibc.cpu.x86_rep_movsb_threshold: 0x2000 (min: 0x100, max: 0xffffffffffffffff)\nglibc.cpu.x86_rep_stosb_threshold: 2048 (min: 1, max: 18446744073709551615)\nglibc.cpu.hwcaps:\n' > "$d/small.txt"
		;;
	webconfig)
		cp "$ROOT"/examples/fleet/*.yml "$d/"
		printf 'tls_server_config:\n  cert_file: cert.pem\n  key_file: key.pem\n  client_ca_file: ca.pem\n' > "$d/client-ca.yml"
		printf 'basic_auth_users:\n  v: &h $2y$10$X0BTjGzM2vR1Tm1v5oQ2wO9r0l2m1Q4vY2mH3z0f5wWjz5q3dQ1aK\n  w: *h\n  u: plaintext\n' > "$d/users.yml"
		printf 'basic_auth_users: {}\n---\ntls_server_config: {}\n' > "$d/two-documents.yml"
		;;
	prom_answer)
		for s in ok sparse sparse-export gap-both missing-le native two-hosts; do
			python3 "$ROOT/tests/cli/fakeprom.py" dump "$s" > "$d/$s.txt"
		done
		;;
	agent_request)
		printf 'GET\n/metrics\napplication/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,*/*;q=0.1\ngzip\n' > "$d/prometheus"
		printf 'GET\n/debug/pprof/profile\n*/*\nidentity\n30' > "$d/pprof-delta"
		;;
	paired_wire)
		# A batch calibrate --mix handed its process, and the rounds of none that came back.
		cp "$ROOT"/tests/fuzz/regress/paired_wire/* "$d/"
		;;
	trap_cache)
		# Caches under the target's fixed key: one of each mechanism, and near misses.
		local head='"format":"copyprof-trap-cost","version":1,"boot_id":"fuzz-boot","kernel":"fuzz-kernel","cpu":"fuzz-cpu","mitigations":"0000000000000000","method":"fuzz-method"'
		printf '{%s,"mechanisms":[{"mech":"uprobe","hit_ns":15271.5,"bpf_ns":68.2,"bpf_counted":true,"measured":1796645795},{"mech":"kprobe","hit_ns":120,"bpf_ns":0,"bpf_counted":false,"measured":1796645795},{"mech":"hwbp","hit_ns":900.25,"bpf_ns":0,"bpf_counted":false,"measured":1}]}\n' "$head" > "$d/three.json"
		printf '{%s,"mechanisms":[]}\n' "$head" > "$d/empty.json"
		printf '{%s,"mechanisms":[{"mech":"uprobe","hit_ns":-1,"bpf_ns":0,"bpf_counted":false,"measured":0}]}\n' "$head" > "$d/negative.json"
		printf '{"format":"copyprof-trap-cost","version":1,"boot_id":"another","mechanisms":[]}\n' > "$d/stale.json"
		;;
	kube_cgroup)
		# Both kubelet layouts, kind's nesting, and this machine's own cgroup.
		local u=0b2f8c4e-1111-4a2b-9c3d-0123456789ab
		printf '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod%s.slice/cri-containerd-4d5c0a3f.scope' "${u//-/_}" > "$d/systemd"
		printf '/kubepods/besteffort/pod%s/4d5c0a3f' "$u" > "$d/cgroupfs"
		printf '/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-pod%s.slice/crio-4d5c.scope' "${u//-/_}" > "$d/kind"
		awk -F: '$1 == 0 { printf "%s", $3 }' /proc/self/cgroup > "$d/self"
		;;
	agent_http)
		printf 'GET /metrics HTTP/1.1\r\nHost: a\r\nAuthorization: Basic dTpw\r\nAccept-Encoding: gzip\r\n\r\n' > "$d/auth-gzip"
		printf 'GET /debug/pprof/profile?seconds=5 HTTP/1.1\r\nAuthorization: Basic dTpw\r\n\r\nHEAD /metrics HTTP/1.1\r\n\r\n' > "$d/pipelined"
		printf 'POST /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello' > "$d/post"
		;;
	esac
}

shopt -s nullglob
total=0
for t in profile costmodel hist folded perf_script preset webconfig diff glibc_tunables \
	agent_request agent_http prom_answer paired_wire trap_cache kube_cgroup; do
	FUZZ="$OUT_DIR/tests/fuzz_$t"
	[ -x "$FUZZ" ] || fail "$FUZZ was not built (make test builds it with clang)"
	# Every input that once failed, replayed as is.
	regress=("$ROOT/tests/fuzz/regress/$t"/*)
	if [ ${#regress[@]} -gt 0 ]; then
		"$FUZZ" -close_fd_mask=1 -error_exitcode=99 "${regress[@]}" > "$TMP/$t.regress.log" 2>&1 ||
			fail "fuzz_$t: a regression input fails again: $(grep -E 'ERROR|runtime error|SUMMARY|Running' "$TMP/$t.regress.log" | tail -n 8)"
		n=$(grep -c '^Executed ' "$TMP/$t.regress.log")
		expect_eq "fuzz_$t regression inputs replayed" "$n" "${#regress[@]}"
	fi
	seed "$t"
	rc=0
	"$FUZZ" -seed=1 -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -error_exitcode=99 \
		-timeout_exitcode=98 -close_fd_mask=1 -artifact_prefix="$TMP/$t-" "$TMP/corpus/$t" \
		> "$TMP/$t.log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		grep -vE '^#[0-9]|warning:|^INFO' "$TMP/$t.log" | tail -n 40 >&2
		art=$(ls "$TMP/$t-"* 2>/dev/null | head -n 1)
		[ -n "$art" ] && { echo "input that fails (base64; keep it in tests/fuzz/regress/$t/):" >&2; base64 "$art" >&2; }
		fail "fuzz_$t found a failure (exit $rc)"
	fi
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$TMP/$t.log")
	[ -n "$runs" ] && [ "$runs" -gt 0 ] || fail "fuzz_$t did not report its runs: $(tail -n 5 "$TMP/$t.log")"
	echo "fuzz_$t: $runs executions in ${SECONDS_EACH} s, ${#regress[@]} regression input(s), no failure"
	total=$((total + runs))
done
echo "all parsers: $total executions"
exit 0
