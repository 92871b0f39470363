#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# scale.sh: time and peak RSS of the commands that read a whole profile, by number of sites
# (docs/benchmarks.md). Usage: bench/scale.sh [BUILD_DIR]   (default build)
#   SIZES="1000 10000 100000 250000"  sites per generated profile (bench/gen_profile.sh)
#   CMDS="report merge diff estimate openmetrics pprof flamegraph"   which commands
#   OLD=path/to/copyprof    an older binary, run too up to OLD_MAX sites (default 20000), its
#                           output (stdout, written files, exit status) compared byte for byte
#   FLAGS="1000 20000"      cpu_flags of a 2-site profile merged with itself (issue 25)
#   MODEL=costmodel.json    estimate's cost model (default the Cooper Lake seed)
# Each size: host 0's profile (N sites) and host 1's (3/4 of them, overlapping). report, export
# -f openmetrics and -f pprof and flamegraph read host 0's; estimate it with the Cooper Lake seed
# model (its uprobe sites run memcpy_orig, ...: --today); merge and diff read both. One markdown row
# per command, size and binary: elapsed, user and system seconds, peak RSS (GNU time) in MB and
# in KB per site of host 0's profile, exit status.
set -u
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$ROOT/bench/lib.sh"
bench_need "$BUILD" copyprof
NEW="$ROOT/$BUILD/copyprof"
SIZES=${SIZES:-1000 10000 100000 250000}
CMDS=${CMDS:-report merge diff estimate openmetrics pprof flamegraph}
OLD=${OLD:-}
OLD_MAX=${OLD_MAX:-20000}
MODEL=${MODEL:-$ROOT/examples/costmodels/cooperlake-8321hc-seed.json}
# The generated sites are uprobes on functions copyprof does not replicate: today named.
TODAY="--today memcpy_orig --today rep_stos_alternative --today memmove_orig --today memset_orig"
[ -x "$NEW" ] || { echo "scale.sh: build $NEW first (make)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scale.sh: needs GNU time (/usr/bin/time; make deps)" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-scale.XXXXXX")
trap 'rm -rf "$W"' EXIT

# run LABEL N BIN OUT ARGS...: one row; stdout in OUT, a file written as $W/out.* kept beside it.
run() {
	local label=$1 n=$2 bin=$3 out=$4 e u s m x
	shift 4
	/usr/bin/time -f '%e %U %S %M %x' -o "$W/time" "$bin" "$@" > "$out" 2> "$W/err"
	echo "exit $?" >> "$out"
	read -r e u s m x < <(tail -n 1 "$W/time")
	printf '| %s | %s | %s | %s | %d | %.2f | %s |%s\n' "$label" "$e" "$u" "$s" $((m / 1024)) \
		"$(echo "$m $n" | awk '{ printf "%.2f", $1 / $2 }')" "$x" \
		"$([ "$x" = 0 ] || printf ' %s' "$(head -c 160 "$W/err" | tr '\n' ' ')")"
}

# The command line of CMD on the profiles of size N; a written file goes to $W/out.EXT.
args_of() {
	case $1 in
	report) echo report -i "$W/h0.json" ;;
	merge) echo merge -o "$W/out.json" "$W/h0.json" "$W/h1.json" ;;
	diff) echo diff "$W/h0.json" "$W/h1.json" ;;
	estimate) echo estimate -i "$W/h0.json" -m "$MODEL" $TODAY ;;
	openmetrics) echo export -i "$W/h0.json" -f openmetrics ;;
	pprof) echo export -i "$W/h0.json" -f pprof -o "$W/out.pb.gz" ;;
	flamegraph) echo flamegraph -i "$W/h0.json" -o "$W/out.svg" ;;
	esac
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| command | sites | binary | elapsed s | user s | sys s | peak RSS MB | KB per site | exit |"
echo "|---|---|---|---|---|---|---|---|---|"
for n in $SIZES; do
	"$ROOT/bench/gen_profile.sh" "$n" 0 > "$W/h0.json"
	"$ROOT/bench/gen_profile.sh" "$n" 1 > "$W/h1.json"
	same=0 differ=""
	for c in $CMDS; do
		bins="new"
		[ -n "$OLD" ] && [ "$n" -le "$OLD_MAX" ] && bins="old new"
		for b in $bins; do
			bin=$NEW
			[ "$b" = old ] && bin=$OLD
			rm -f "$W"/out.*
			# shellcheck disable=SC2046
			run "$c | $n | $b" "$n" "$bin" "$W/$c-$b.txt" $(args_of "$c")
			for f in "$W"/out.*; do [ -e "$f" ] && mv "$f" "$W/$c-$b.file"; done
			sed -i "s|$W/||g" "$W/$c-$b.txt"
		done
		if [ "$bins" = "old new" ]; then
			if cmp -s "$W/$c-old.txt" "$W/$c-new.txt" &&
				{ [ ! -e "$W/$c-old.file" ] || cmp -s "$W/$c-old.file" "$W/$c-new.file"; }; then
				same=$((same + 1))
			else
				differ="$differ $c"
			fi
		fi
		rm -f "$W/$c-"*
	done
	if [ -n "$OLD" ] && [ "$n" -le "$OLD_MAX" ]; then
		verdict="identical ($same commands)"
		[ -n "$differ" ] && verdict="DIFFERENT:$differ"
		echo "|   | $n | old vs new output | $verdict | | | | | |"
	fi
	echo "|   | $n | profile files | $(($(stat -c %s "$W/h0.json") / 1048576)) + $(($(stat -c %s "$W/h1.json") / 1048576)) MiB | | | | | |"
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
		run "merge | $n cpu_flags | $b" 2 "$bin" "$W/flags-$b.txt" \
			merge -o "$W/fmerged-$b.json" "$W/flags.json" "$W/flags.json"
	done
	if [ "$bins" = "old new" ]; then
		same=identical
		cmp -s "$W/fmerged-old.json" "$W/fmerged-new.json" || same="DIFFERENT (merge)"
		echo "|   | $n cpu_flags | old vs new output | $same | | | | | |"
	fi
done
