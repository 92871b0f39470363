#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kprobe_attach.sh: in a Debian 6.12 guest (qemu TCG, ERMS without FSRM), the time copyprof
# takes to discover and attach the btrfs preset's copy call sites against bpftrace attaching
# the same kprobe:FUNC+OFF list, and the per-hit cost of each (N one-byte reads of /dev/zero,
# one kprobe hit on read_zero each).
# TCG makes every number slow in absolute terms; compare the two tools by their ratio.
# Usage: bench/kprobe_attach.sh [BUILD_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/${1:-build}
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof
OUT=$(mktemp -d /tmp/copyprof-bench-kprobe.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$OUT"' EXIT
command -v bpftrace >/dev/null || { echo "bench: needs bpftrace (make deps)"; exit 1; }

"$ROOT/tests/vm/run.sh" --kernel 6.12 --disk btrfs-zstd --bin "$BUILD/copyprof" \
	--bin "$(command -v bpftrace)" --bin "$ROOT/bench/kprobe_attach_guest.sh" --out "$OUT" \
	--timeout 900 -- kprobe_attach_guest.sh > "$OUT/console.log" 2>&1

dur() { awk -v k="$1" '$1 == k { print $3 - $2 }' "$2"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
sites=$(wc -l < "$OUT/sites.txt")
cp_attach=$(dur copyprof_attach "$OUT/attach.txt")
bt_attach=$(dur bpftrace_attach "$OUT/attach.txt")
none=$(dur none "$OUT/reads.txt" | median)
cp_read=$(dur copyprof "$OUT/reads.txt" | median)
bt_read=$(dur bpftrace "$OUT/reads.txt" | median)
hits=$(jq '.sites[0].calls' "$OUT/hits.json")
echo "sites: $sites kprobes at copy call sites (btrfs preset, planned by copyprof)"
printf 'discover+attach+detach: copyprof %.2f s, bpftrace (same list, given) %.2f s, ratio %.2f\n' \
	"$cp_attach" "$bt_attach" "$(echo "$cp_attach / $bt_attach" | bc -l)"
printf '%d one-byte reads of /dev/zero (median of 3): none %.2f s, copyprof %.2f s, bpftrace %.2f s\n' \
	"$hits" "$none" "$cp_read" "$bt_read"
printf 'hits per run: %d; per-hit cost: copyprof %.1f us, bpftrace %.1f us (TCG), ratio %.2f\n' \
	"$hits" "$(echo "($cp_read - $none) * 1000000 / $hits" | bc -l)" \
	"$(echo "($bt_read - $none) * 1000000 / $hits" | bc -l)" \
	"$(echo "($cp_read - $none) / ($bt_read - $none)" | bc -l)"
