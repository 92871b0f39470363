#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scale.sh: time and peak RSS of `estimate` and `merge` by number of sites (docs/benchmarks.md).
# Usage: bench/scale.sh [BUILD_DIR]   (default build)
#   SIZES="10000 100000 1000000"  sites per generated profile (bench/gen_profile.sh)
#   OLD=path/to/copyprof          an older binary, run too up to OLD_MAX sites (default 10000),
#                                 its output compared byte for byte with this build's
#   FLAGS="1000 20000"            cpu_flags of a 2-site profile merged with itself (issue 25)
# Each size: host 0's profile (N sites) and host 1's (3/4 of them, overlapping); `estimate` of
# host 0's with the Cooper Lake seed model, `merge` of both. Prints one markdown table row per
# size and binary: elapsed and user seconds, peak RSS (GNU time), the exit status.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof
NEW="$ROOT/$BUILD/copyprof"
SIZES=${SIZES:-10000 100000 1000000}
OLD=${OLD:-}
OLD_MAX=${OLD_MAX:-10000}
MODEL=${MODEL:-$ROOT/examples/costmodels/cooperlake-8321hc-seed.json}
# The generated sites are uprobes on functions copyprof does not replicate: today named.
TODAY="--today memcpy_orig --today rep_stos_alternative --today memmove_orig --today memset_orig"
[ -x "$NEW" ] || { echo "scale.sh: build $NEW first (make)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scale.sh: needs GNU time (/usr/bin/time; make deps)" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-scale.XXXXXX")
trap 'rm -rf "$W"' EXIT

# run LABEL OUTFILE CMD...: one row: elapsed s, user s, peak RSS MB, exit status.
run() {
	local label=$1 out=$2
	shift 2
	/usr/bin/time -f '%e %U %S %M %x' -o "$W/time" "$@" > "$out" 2> "$W/err"
	read -r e u s m x < <(tail -n 1 "$W/time")
	printf '| %s | %s | %s | %s | %d | %s |%s\n' "$label" "$e" "$u" "$s" $((m / 1024)) "$x" \
		"$([ "$x" = 0 ] || printf ' %s' "$(head -c 160 "$W/err" | tr '\n' ' ')")"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | sites | binary | elapsed s | user s | sys s | peak RSS MB | exit |"
echo "|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
	"$ROOT/bench/gen_profile.sh" "$n" 0 > "$W/h0.json"
	"$ROOT/bench/gen_profile.sh" "$n" 1 > "$W/h1.json"
	bins="new"
	[ -n "$OLD" ] && [ "$n" -le "$OLD_MAX" ] && bins="old new"
	for b in $bins; do
		bin=$NEW
		[ "$b" = old ] && bin=$OLD
		run "estimate | $n | $b" "$W/est-$b.txt" "$bin" estimate -i "$W/h0.json" -m "$MODEL" $TODAY
		run "merge | $n + $((n - n / 4)) | $b" "$W/merge-$b.txt" \
			"$bin" merge -o "$W/merged-$b.json" "$W/h0.json" "$W/h1.json"
		sed -i "s|$W/merged-$b.json|MERGED|" "$W/merge-$b.txt"
	done
	if [ "$bins" = "old new" ]; then
		same=identical
		cmp -s "$W/est-old.txt" "$W/est-new.txt" || same="DIFFERENT (estimate)"
		cmp -s "$W/merged-old.json" "$W/merged-new.json" &&
			cmp -s "$W/merge-old.txt" "$W/merge-new.txt" || same="DIFFERENT (merge)"
		echo "|   | $n | old vs new output | $same | | | | |"
	fi
	echo "|   | $n | profile file | $(($(stat -c %s "$W/h0.json") / 1048576)) MiB | | | | |"
	rm -f "$W"/merged-*.json
done
# merge by number of cpu_flags: one profile with N flags (in reverse order), merged with itself.
for n in ${FLAGS:-1000 20000}; do
	jq --argjson n "$n" '.meta.cpu_flags = [range($n) | "flag\($n - .)"]' \
		"$ROOT/tests/golden/profile-synthetic.json" > "$W/flags.json"
	bins="new"
	[ -n "$OLD" ] && bins="old new"
	for b in $bins; do
		bin=$NEW
		[ "$b" = old ] && bin=$OLD
		run "merge | $n cpu_flags | $b" "$W/flags-$b.txt" \
			"$bin" merge -o "$W/fmerged-$b.json" "$W/flags.json" "$W/flags.json"
	done
	if [ "$bins" = "old new" ]; then
		same=identical
		cmp -s "$W/fmerged-old.json" "$W/fmerged-new.json" || same="DIFFERENT (merge)"
		echo "|   | $n cpu_flags | old vs new output | $same | | | | |"
	fi
done
