# SPDX-License-Identifier: GPL-2.0
# lib.sh: helpers sourced by the CLI tests: checks, skips and a scratch folder.
#
# Every check prints "ok N - WHAT" or "not ok N - WHAT: why", as git's test suite does, and the
# script goes on past a failure: at its end the failed checks are listed again and it exits 1
# (0 if all passed; 77, after "skipped: why", if it skipped). expect_* and check are checks;
# fail records a failed one; fatal records one and ends the script (a setup step that the
# checks after it cannot do without). Checks are counted in a file, so that one made in a
# subshell or a pipeline counts too.
set -u
: "${COPYPROF:?run through tests/run.sh}"
WL="$OUT_DIR/tests/copyload"
TMP=$(mktemp -d /tmp/copyprof-test.XXXXXX)
CHECKS=$TMP/.checks # one line per check: "ok N - WHAT" or "not ok N - WHAT: why"
: >"$CHECKS"
# Results go to the script's own stdout (fd 7), never into a $(...) or a redirected stream.
exec 7>&1
# Servers a test starts in the background (agents, prometheus): add each one's pid to pids;
# every one still running is stopped (SIGTERM, then waited for) at exit.
pids=()
stop_servers() {
	local p
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	pids=()
}
# What else to undo at exit (a scratch filesystem, a cgroup ...): add a command to exit_hooks;
# they run before the servers are stopped and the folder is removed.
exit_hooks=()
finish() {
	local rc=$? h n bad
	n=$(grep -c . "$CHECKS" 2>/dev/null) bad=$(grep -c '^not ok' "$CHECKS" 2>/dev/null)
	if [ "${bad:-0}" -gt 0 ]; then
		echo "# $bad of $n checks failed:" >&7
		grep '^not ok' "$CHECKS" | cut -c 1-300 >&7
		rc=1
	elif [ "$rc" -eq 0 ]; then
		echo "# $n checks passed" >&7
	fi
	for h in "${exit_hooks[@]}"; do eval "$h"; done
	stop_servers
	rm -rf "$TMP"
	exit "$rc"
}
trap finish EXIT
# A test's own "trap CMD EXIT" becomes an exit hook: replacing finish would hide its failures.
trap() {
	if [ "$#" -eq 2 ] && [ "$2" = EXIT ]; then
		exit_hooks+=("$1")
	else
		builtin trap "$@"
	fi
}

# need_glibc_memcpy PROGRAM: LIBC, the libc.so.6 PROGRAM runs, and impl, LIBC:NAME of the
# memcpy implementation glibc's IFUNC picks on this CPU, as record names it; skips without
# libc6-dbg (glibc's code then has no name).
need_glibc_memcpy() {
	LIBC=$(ldd "$1" | awk '$1 == "libc.so.6" { print $3 }')
	[ -r "$LIBC" ] || fatal "cannot tell which libc.so.6 $1 uses: $(ldd "$1")"
	"$COPYPROF" record --uprobe "$LIBC:memcpy" -d 0.1 -o "$TMP/ifunc.json" > /dev/null \
		2> "$TMP/ifunc.err"
	impl=$(sed -n 's/.*Probe that: copyprof record --uprobe \([^ ]*\) (docs.*/\1/p' "$TMP/ifunc.err")
	[ -n "$impl" ] && return
	grep -q "has no name without" "$TMP/ifunc.err" ||
		fail "the IFUNC message names no implementation: $(cat "$TMP/ifunc.err")"
	skip "libc6-dbg is not installed (scripts/deps.sh installs it): glibc's code has no name"
}

# glibc_knob_offset: knob, the offset of __x86_rep_movsb_threshold in $LIBC (need_glibc_memcpy
# first), read from its libc6-dbg debug file by build id; fatal when the file lacks it.
glibc_knob_offset() {
	local id
	id=$(readelf -n "$LIBC" 2> /dev/null | awk '/Build ID/ { print $3 }')
	knob=$(readelf -sW "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" 2> /dev/null |
		awk '$8 == "__x86_rep_movsb_threshold" { print "0x" $2 }')
	[ -n "$knob" ] || fatal "libc6-dbg names $impl but not __x86_rep_movsb_threshold"
}

# Numbers and prints one check's result: STATUS ("ok" or "not ok") and what it checked.
_check_result() {
	local n
	n=$(($(grep -c . "$CHECKS") + 1))
	printf '%s %d - %s\n' "$1" "$n" "${2//$'\n'/ | }" >>"$CHECKS"
	printf '%s %d - %s\n' "$1" "$n" "$2" >&7
}
# A command as a check prints it: the binary under test as "copyprof", the rest as given.
_shown() { local s="$*"; echo "${s//"$COPYPROF"/copyprof}" | cut -c 1-200; }
pass() { _check_result ok "$*"; }
fail() { _check_result "not ok" "$*"; return 1; }
fatal() { _check_result "not ok" "$* (the checks after this one were not run)"; exit 1; }
skip() { echo "skipped: $*"; exit 77; }
# check WHAT CMD...: passes if CMD succeeds.
check() {
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
need_root() { [ "$(id -u)" -eq 0 ] || skip "needs root for BPF (CI runs as root)"; }
need_cmd() { command -v "$1" >/dev/null || skip "needs $1 (make deps installs it)"; }
# need_glibc_root: Debian 13's glibc in a root (scripts/glibc-root.sh, cached between runs): the
# root in R, its libc in LIBC, the libc's build id in LIBC_ID and its debug file in LIBC_DBG; a
# folder of this test's inside the root, removed at exit, in work (its path as the root sees it).
# Skips when the root cannot be fetched; fatal when it lacks the libc or its debug file.
need_glibc_root() {
	R=$("$ROOT/scripts/glibc-root.sh" 2> "$TMP/glibc-root.err") ||
		skip "Debian 13's glibc could not be fetched: $(cat "$TMP/glibc-root.err")"
	R=$(realpath "$R")
	LIBC=$R/usr/lib/x86_64-linux-gnu/libc.so.6
	[ -r "$LIBC" ] || fatal "$R holds no usr/lib/x86_64-linux-gnu/libc.so.6"
	LIBC_ID=$(readelf -n "$LIBC" 2> /dev/null | awk '/Build ID/ { print $3 }')
	LIBC_DBG=$R/usr/lib/debug/.build-id/${LIBC_ID:0:2}/${LIBC_ID:2}.debug
	[ -r "$LIBC_DBG" ] || fatal "the root has no debug file for its libc (build id $LIBC_ID)"
	work=/tmp/cp-$(basename "$0" .sh)-$$
	mkdir -p "$R$work"
	exit_hooks+=("rm -rf '$R$work'")
}

# expect_exit CODE CMD...: run CMD, keep its stderr in $TMP/err and stdout in $TMP/out.
expect_exit() {
	local want=$1 rc; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass "'$(_shown "$@")' exits $want"
	else
		fail "'$(_shown "$@")' exited $rc, expected $want; stderr: $(cat "$TMP/err")"
	fi
}
# expect_err PATTERN: the last command's stderr matches the extended regex PATTERN.
expect_err() {
	if grep -Eq -- "$1" "$TMP/err"; then pass "stderr matches /$1/"; else
		fail "stderr lacks /$1/: $(cat "$TMP/err")"; fi
}
expect_out() {
	if grep -Eq -- "$1" "$TMP/out"; then pass "stdout matches /$1/"; else
		fail "stdout lacks /$1/: $(head -c 2000 "$TMP/out")"; fi
}
# expect_eq NAME GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1: $3"; else fail "$1: got '$2', expected '$3'"; fi
}
# commas N: N as report and merge print it, with thousands separators ("9,605,744").
commas() { echo "$1" | sed -E ':a;s/([0-9])([0-9]{3})($|,)/\1,\2\3/;ta'; }
# No BPF program of ours may stay loaded after a run. Only this test's own programs count: those
# loaded since the test began (an id not there at its start: ids are never reused) and held by a
# process descended from the test's shell, or held by none (a test's child that left it pinned,
# or one its last holder is about to free). Everything else is another job's: an agent an SRE runs
# on the host, even one started from the same login session, or another test beside this one.
# "ID NAME PIDS": each copyprof program and the processes holding it open (a prog or link fd,
# from /proc/*/fdinfo: Debian's bpftool does not list holders).
cp_progs() {
	local holders
	holders=$(grep -s '^prog_id:' /proc/[0-9]*/fdinfo/* 2>/dev/null |
		awk -F'[/:\t ]+' '{ print $NF, $3 }' | sort -u)
	bpftool prog show -j 2>/dev/null |
		jq -r '.[] | select(.name // "" | test("^cp_(uprobe|kprobe|perf|sample|read_text)")) |
			"\(.id) \(.name)"' |
		while read -r id name; do
			echo "$id $name $(awk -v id="$id" '$1 == id { printf "%s,", $2 }' <<<"$holders")"
		done
}
if command -v bpftool >/dev/null && command -v jq >/dev/null; then
	CP_PROGS_BEFORE=" $(cp_progs | awk '{ printf "%s ", $1 }')"
fi
# descends_from_test PID: PID is this test's shell or one of its descendants (its parent chain,
# from /proc/PID/stat, reaches $$).
descends_from_test() {
	local p=$1
	while [ -n "$p" ] && [ "$p" -gt 1 ]; do
		[ "$p" = "$$" ] && return 0
		# The parent is the field after the state, which follows the last ')' (a name may hold
		# one).
		p=$(sed -E 's/.*\) [A-Za-z] ([0-9]+) .*/\1/' "/proc/$p/stat" 2>/dev/null) || return 1
	done
	return 1
}
expect_no_leftover_progs() {
	command -v bpftool >/dev/null && command -v jq >/dev/null || return 0
	local left try
	# A program held by none may be one whose last holder has just closed it, its free deferred:
	# it is left over only if it is still there a moment later.
	for try in 1 2 3; do
		left=$(leftover_progs)
		if [ -z "$left" ]; then
			pass "no copyprof BPF program of this test is left loaded"
			return 0
		fi
		[[ $left == *"held by pid"* ]] && break
		sleep 1
	done
	fail "a copyprof BPF program of this test is still loaded:$left"
}
leftover_progs() {
	local id name pids pid left=""
	while read -r id name pids; do
		[ -n "$id" ] || continue
		[[ $CP_PROGS_BEFORE == *" $id "* ]] && continue
		if [ -z "$pids" ]; then
			left="$left $name(id $id, held by none)"
			continue
		fi
		for pid in ${pids//,/ }; do
			descends_from_test "$pid" && left="$left $name(id $id, held by pid $pid)"
		done
	done < <(cp_progs)
	echo "$left"
}

# want_buckets FILE: the "lo count bytes" a profile's buckets must hold for the "size count" lines
# of FILE, sorted, from an independent statement of the rule (docs/profile-format.md#buckets):
# exact below 64, else the size rounded down to 4 significant bits.
want_buckets() {
	awk '{ s = $1; lo = s;
	       if (s >= 64) { m = 0; while (2 ^ (m + 1) <= s) m++; q = 2 ^ (m - 3); lo = int(s / q) * q }
	       n[lo] += $2; b[lo] += s * $2 }
	     END { for (k in n) printf "%d %d %d\n", k, n[k], b[k] }' "$1" | sort -n
}

# A free TCP port on 127.0.0.1 (bound and released by the kernel's own choice).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# await CMD...: retries CMD until it succeeds, for up to 3 minutes: a slow machine only waits
# longer, and a test never fails for being slow; the status is CMD's last.
await() {
	local i
	for i in $(seq 1 900); do "$@" >/dev/null 2>&1 && return 0; sleep 0.2; done
	return 1
}
# wait_for WHAT CMD...: await CMD, and a setup step that failed (fatal) if it never succeeds.
wait_for() {
	local what=$1
	shift
	await "$@" || fatal "gave up waiting for $what"
}

# btrfs_scratch: a loop-device btrfs (compress-force=zstd) at $TMP/bt holding a 200 MB
# compressible file, from scripts/btrfs-scratch.sh ($SCRATCH; "$SCRATCH" read "$TMP/bt" reads
# it back cold); taken down at exit whatever happens. Skips where this kernel or host can't.
btrfs_scratch() {
	need_root
	need_cmd mkfs.btrfs
	need_cmd losetup
	grep -qw btrfs /proc/filesystems || skip "this kernel has no btrfs"
	SCRATCH="$ROOT/scripts/btrfs-scratch.sh"
	[ -x "$SCRATCH" ] || skip "scripts/btrfs-scratch.sh is missing"
	exit_hooks+=('"$SCRATCH" down "$TMP/bt" 2>/dev/null')
	"$SCRATCH" up "$TMP/bt" 1024 || fatal "cannot set up the btrfs scratch filesystem"
	"$SCRATCH" fill "$TMP/bt" 200 || fatal "cannot write the compressible file"
}
