#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0116-make-sanitize: the Makefile's links take CFLAGS and LDFLAGS (make -n shows them in both
# link lines and every compile), and `make SANITIZE=1` builds copyprof with clang and the fuzz
# targets' sanitizers (ASan + UBSan), dynamic only, into its own folder. That build is then
# made for real (in $OUT_DIR/san, kept between runs) and runs diff, report, estimate, merge,
# flamegraph and export of the golden profiles, and report of a hostile one, with UBSan halting
# on the first report and LeakSanitizer on: none may fire.
. "$(dirname "$0")/lib.sh"
need_cmd clang
cd "$TMP"
# Not the make that runs the tests: its MAKEFLAGS (jobserver, OUTPUT=...) stay out.
MK=(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT")

# Dry runs: what make would do, nothing built.
"${MK[@]}" -n OUTPUT="$TMP/b" CFLAGS='-O2 -g -DCP_T0116' LDFLAGS='-Wl,-z,now' \
	"$TMP/b/copyprof" "$TMP/b/copyprof-static" > plain.txt 2>&1 || fail "make -n: $(tail -n 5 plain.txt)"
links=$(grep -E -- "-o $TMP/b/copyprof(-static)?\$" plain.txt)
expect_eq "link lines" "$(echo "$links" | wc -l)" 2
echo "$links" | grep -v -- '-DCP_T0116' && fail "a link line lacks CFLAGS"
echo "$links" | grep -v -- '-Wl,-z,now' && fail "a link line lacks LDFLAGS"
grep -E -- ' -c user/lib/log.c ' plain.txt | grep -q -- '-DCP_T0116' || fail "compiles lack CFLAGS"
echo "ok: both links take CFLAGS and LDFLAGS"

"${MK[@]}" -n SANITIZE=1 OUTPUT="$TMP/s" all > san.txt 2>&1 || fail "make -n SANITIZE=1: $(tail -n 5 san.txt)"
sans=$(sed -n 's/^SANITIZERS *:= *//p' "$ROOT/Makefile")
[ -n "$sans" ] || fail "no SANITIZERS in the Makefile"
compile=$(grep -E -- ' -c user/lib/log.c ' san.txt)
link=$(grep -E -- "-o $TMP/s/copyprof\$" san.txt)
[[ $compile == clang* ]] || fail "SANITIZE=1 does not compile with clang: $compile"
[[ $compile == *"$sans"* ]] || fail "SANITIZE=1 compiles lack '$sans': $compile"
[[ $link == *"$sans"* ]] || fail "SANITIZE=1's link lacks '$sans': $link"
grep -q -- "copyprof-static" san.txt && fail "SANITIZE=1 links copyprof-static (ASan has no static runtime)"
# The fuzz targets use the same list (CI's fuzz step, t0021).
"${MK[@]}" -n OUTPUT="$TMP/f" "$TMP/f/fuzz-obj/user/lib/log.o" > fuzz.txt 2>&1
grep -E -- ' -c user/lib/log.c ' fuzz.txt | grep -qF -- "$sans" || fail "the fuzz objects lack '$sans'"
echo "ok: SANITIZE=1 is clang with '$sans', dynamic only, as the fuzz targets"

# The real build, incremental between runs.
SAN="$OUT_DIR/san"
nice "${MK[@]}" SANITIZE=1 OUTPUT="$SAN" -j2 "$SAN/copyprof" > build.txt 2>&1 ||
	fail "make SANITIZE=1: $(grep -E 'error|Error' build.txt | head -n 5)"
nm "$SAN/copyprof" | grep -q __asan_init || fail "$SAN/copyprof has no ASan"
nm "$SAN/copyprof" | grep -q __ubsan_handle || fail "$SAN/copyprof has no UBSan"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1
G="$ROOT/tests/golden"
M="$ROOT/examples/costmodels/cooperlake-8321hc-seed.json"
I="$ROOT/examples/data/iov-regression"
jq '.sites[0].symbol = "evil\u001b]0;x\u0007" | .sites[1].label = "\u009b"' \
	"$G/profile-synthetic.json" > evil.json
runs=0
san() {
	"$SAN/copyprof" "$@" > san.out 2> san.err
	rc=$?
	grep -E 'runtime error|ERROR: (Address|Leak)Sanitizer' san.err && fail "'copyprof $*' under sanitizers"
	[ "$rc" -eq 0 ] || fail "'copyprof $*' exited $rc: $(tail -n 3 san.err)"
	runs=$((runs + 1))
}
san diff "$G/profile-synthetic.json" "$G/profile-4k-cooperlake.json"
san diff -m "$G/costmodel-synthetic.json" "$I/guest-6.1.json" "$I/guest-6.12.json"
san diff --json "$G/profile-synthetic.json" "$G/profile-synthetic.json"
san report -i "$G/profile-callers.json"
san report -i evil.json
san estimate -i "$G/profile-btrfs-zstd-6.12.json" -m "$M"
san merge -o merged.json "$G/profile-synthetic.json" "$G/profile-4k-cooperlake.json" \
	"$G/profile-synthetic-sampled.json"
san flamegraph -i "$G/profile-synthetic-sampled.json" -o fg.svg
san export --format pprof -i "$G/profile-callers.json" -o p.pb.gz
san export --format openmetrics -i "$G/profile-multiplexed.json"
echo "ok: $runs commands of the sanitized build, no sanitizer report"
exit 0
