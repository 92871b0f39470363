#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh: install every build and test dependency on Debian 12 with apt-get (run as root).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
	# build: BPF compiler, skeletons, libraries linked statically into copyprof
	make gcc clang clang-format llvm bpftool pkg-config libbpf-dev libelf-dev zlib1g-dev libzstd-dev
	libjson-c-dev libcapstone-dev liblzma-dev libdw-dev libbz2-dev
	# the agent (HTTP server, TLS through gnutls, web.config.yml) and estimate --prometheus;
	# linked dynamically only (docs/design.md#linking)
	libmicrohttpd-dev libcurl4-gnutls-dev libyaml-dev libcrypt-dev
	# tests and benchmarks
	libcmocka-dev jq bc util-linux bpftrace linux-perf hyperfine libxml2-utils time strace
	# glibc's implementation symbols (__memmove_avx512_unaligned_erms ...) for uprobes, and a
	# debuginfod server and client for the debug-file tests (docs/user-targets.md)
	libc6-dbg debuginfod
	# agent tests: a TLS certificate, a bcrypt hash, free ports, the DaemonSet's YAML;
	# node_exporter for bench/agent_scale.sh's comparison
	openssl python3 python3-yaml prometheus-node-exporter
	# flame graph tests: a real browser (headless) and its WebDriver
	chromium chromium-driver curl
	# export: pprof's protobuf in C; its tests read the output with protoc, Go's pprof, promtool
	libprotobuf-c-dev protobuf-c-compiler protobuf-compiler golang-go prometheus
)
# The VM harness lists its own (qemu, busybox, btrfs-progs ...).
[ -f tests/vm/packages.txt ] && mapfile -t -O ${#packages[@]} packages < <(grep -v '^#' tests/vm/packages.txt | grep .)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
# sort and join must collate alike.
export LC_ALL=C
# promtool comes in Debian's prometheus package, whose server would start on :9090 and stay.
had_prometheus=$(dpkg-query -W -f='${Status}' prometheus prometheus-node-exporter 2>/dev/null |
	grep -c 'ok installed' || true)
# What dpkg holds before and after: the report says what changed, not what was asked for.
dpkg_state() { dpkg-query -W -f='${Status} ${Package}:${Architecture} ${Version}\n' 2>/dev/null |
	awk '$3 == "installed" { print $4, $5 }' | sort; }
before=$(mktemp) after=$(mktemp)
trap 'rm -f "$before" "$after"' EXIT
dpkg_state >"$before"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${packages[@]}"
dpkg_state >"$after"
if [ "$had_prometheus" -lt 2 ] && command -v systemctl >/dev/null &&
   { $SUDO systemctl is-enabled --quiet prometheus 2>/dev/null ||
     $SUDO systemctl is-enabled --quiet prometheus-node-exporter 2>/dev/null; }; then
	$SUDO systemctl disable --now prometheus prometheus-node-exporter 2>/dev/null || true
	echo "deps.sh: installed prometheus for promtool (and node_exporter for a bench) only: their servers are stopped and disabled"
fi
# Packages new in dpkg, and those whose version changed (upgraded as dependencies).
new=$(join -v 2 "$before" "$after" | awk '{ print $1 }')
changed=$(join "$before" "$after" | awk '$2 != $3 { print $1 " " $2 " -> " $3 }')
n_new=$(grep -c . <<<"$new" || true) n_changed=$(grep -c . <<<"$changed" || true)
if [ "$n_new" -eq 0 ] && [ "$n_changed" -eq 0 ]; then
	echo "deps.sh: nothing changed: all ${#packages[@]} packages were already installed"
else
	echo "deps.sh: $n_new package(s) newly installed, $n_changed upgraded (${#packages[@]} asked" \
		"for, with what they depend on):"
	[ -z "$new" ] || sed 's/^/  new: /' <<<"$new"
	[ -z "$changed" ] || sed 's/^/  upgraded: /' <<<"$changed"
fi
# Debian 13's glibc (2.41) unpacked into a root of its own for t0126, outside dpkg: the system's
# packages and apt sources are untouched (scripts/glibc-root.sh; a later run reuses it).
if root=$($SUDO ./scripts/glibc-root.sh 2>&1); then
	echo "deps.sh: Debian 13's glibc for the tests is in $root"
else
	echo "deps.sh: Debian 13's glibc could not be fetched (t0126 will skip): $root"
fi
