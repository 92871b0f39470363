#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `copyprof probe` on real Debian kernels: live dispatch per kernel and CPU, copy-family call
# sites (core kernel and btrfs.ko), entry probe-ability, cross-checked against the host's own
# decoding of the same kernel's vmlinuz with the guest's kallsyms; the callers of entries no
# kprobe can take, their kprobe marks tried in the kernel (t-probe-guest.sh).
#
# Usage: tests/vm/t-probe.sh [CASE...]   cases: 6.12 (cpu max,-fsrm), 6.12-fsrm (cpu max), 6.1
# Ends with "N passed, N failed[, N skipped]"; exit 0 only if nothing failed.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/check-lib.sh"
REPO=$(cd "$HERE/../.." && pwd)
RUN=$HERE/run.sh
COPYPROF=${COPYPROF:-$REPO/build/copyprof-static}
CACHE=${COPYPROF_VM_CACHE:-$REPO/.cache/vm}
work=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-t-probe.XXXXXX")
trap 'rm -rf "$work"' EXIT

jq_dispatch() { echo ".dispatch[] | select(.routine == \"$1\")"; }

# What the guest runs: one probe per question, all results in /out.
GUEST='
copyprof probe --site ZSTD_decompressStream --site read_zero --site _copy_to_user \
	--entry memcpy_orig --entry read_zero --json >/out/probe.json 2>/out/probe.err
echo $? >/out/probe.rc
copyprof probe --site ZSTD_decompressStream --site read_zero --site _copy_to_user \
	--site btrfs:btrfs_decompress_buf2page --entry memcpy_orig --entry read_zero -v \
	>/out/probe.txt 2>&1
copyprof probe --site btrfs:btrfs_decompress_buf2page --json >/out/btrfs-kcore.json \
	2>/out/btrfs-kcore.err
copyprof probe --no-kcore --site btrfs:btrfs_decompress_buf2page --json \
	>/out/btrfs-ko.json 2>/out/btrfs-ko.err
cp /proc/kallsyms /out/kallsyms
uname -r >/out/release
t-probe-guest.sh
'

# boot NAME KERNEL CPU: runs $GUEST; sets $out; returns 1 (after a skip/fail) if unusable.
boot() {
	local name=$1 kernel=$2 cpu=$3 rc=0
	out=$work/$name
	"$RUN" --kernel "$kernel" --cpu "$cpu" --disk btrfs-zstd --bin "$COPYPROF" \
		--bin "$HERE/t-probe-guest.sh" --out "$out" --timeout 400 \
		-- "$GUEST" >"$work/$name.log" 2>&1 || rc=$?
	if ((rc == 4)); then
		skip "$name: host setup failed: $(tail -n1 "$work/$name.log")"
		return 1
	fi
	if ((rc != 0)) || [[ ! -s $out/probe.json ]]; then
		fail "$name: guest ran copyprof probe (run.sh exit $rc)"
		tail -n 30 "$work/$name.log"
		return 1
	fi
	pass "$name: guest ran copyprof probe"
	echo "--- $name: copyprof probe -v in the guest:"
	sed 's/^/    /' "$out/probe.txt"
	check_jq "$name: probe exit status 0" '. == 0' "$out/probe.rc"
}

# ZSTD_decompressStream's sites: read from kcore, every address = kallsyms + offset, and the
# same offsets when the host decodes the kernel's vmlinuz with the guest's kallsyms.
check_zstd_sites() {
	local name=$1 f=$out/probe.json base ver vmlinuz host=$work/$1.host.json
	check_jq "$name: >= 3 call __memcpy sites in ZSTD_decompressStream, len in rdx" \
		'[.sites[] | select(.function == "ZSTD_decompressStream") | .callsites[] |
		  select(.target == "__memcpy" and .len_reg == "rdx" and .instruction == "call")]
		 | length >= 3' "$f"
	check_jq "$name: ZSTD_decompressStream text from kcore" \
		'.sites[] | select(.function == "ZSTD_decompressStream") | .text_source == "kcore"' "$f"
	base=$(grep -m1 ' ZSTD_decompressStream$' "$out/kallsyms" | cut -d' ' -f1)
	if [[ -n $base ]] && python3 - "$f" "$base" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); base = int(sys.argv[2], 16)
s = [x for x in d["sites"] if x.get("function") == "ZSTD_decompressStream"][0]
assert int(s["address"], 16) == base
assert all(int(c["address"], 16) == base + c["offset"] for c in s["callsites"])
EOF
	then pass "$name: site addresses = kallsyms ZSTD_decompressStream ($base) + offset"
	else fail "$name: site addresses = kallsyms ZSTD_decompressStream + offset"; fi
	echo "--- $name: ZSTD_decompressStream sites (offset target):" \
		$(jq -r '.sites[] | select(.function == "ZSTD_decompressStream") | .callsites[] |
			 select(.target) | "\(.offset_hex) \(.target)"' "$f")
	ver=$(cat "$out/release")
	vmlinuz=$(ls "$CACHE"/*/root/boot/vmlinuz-"$ver" 2>/dev/null | head -n1)
	if [[ -z $vmlinuz ]]; then
		skip "$name: host cross-check: no vmlinuz-$ver in $CACHE"
		return
	fi
	"$COPYPROF" probe --kallsyms "$out/kallsyms" --vmlinux "$vmlinuz" --release "$ver" \
		--site ZSTD_decompressStream --json >"$host" 2>"$work/$name.host.err" || true
	if diff <(jq -c '[.sites[0].callsites[] | select(.target) | [.offset, .address, .target]]' \
			"$host") \
		<(jq -c '[.sites[] | select(.function == "ZSTD_decompressStream") | .callsites[] |
			  select(.target) | [.offset, .address, .target]]' "$f") >/dev/null; then
		pass "$name: host decoding of $(basename "$vmlinuz") finds the same sites as kcore"
	else
		fail "$name: host decoding of $(basename "$vmlinuz") finds the same sites as kcore"
		cat "$work/$name.host.err"
	fi
	check_jq "$name: host side read the vmlinuz payload with a KASLR slide" \
		'.text_source == "vmlinuz" and (.kaslr_slide | type) == "number"' "$host"
}

# btrfs.ko (loaded: --disk btrfs-zstd): from kcore, and from the .ko's relocations.
check_btrfs() {
	local name=$1 k=$out/btrfs-kcore.json m=$out/btrfs-ko.json
	check_jq "$name: btrfs_decompress_buf2page [btrfs] from kcore calls __memcpy (rdx)" \
		'.sites[0].module == "btrfs" and .sites[0].text_source == "kcore" and
		 ([.sites[0].callsites[] | select(.target == "__memcpy" and .len_reg == "rdx")]
		  | length >= 1)' "$k"
	check_jq "$name: with --no-kcore the same function comes from btrfs.ko relocations" \
		'.sites[0].text_source == "ko" and
		 ([.sites[0].callsites[] | select(.target == "__memcpy")] | length >= 1)' "$m"
	if diff <(jq -c '[.sites[0].callsites[] | select(.target) | [.offset, .address, .target]]' "$k") \
		<(jq -c '[.sites[0].callsites[] | select(.target) | [.offset, .address, .target]]' "$m") \
		>/dev/null; then
		pass "$name: kcore and .ko give the same btrfs sites and addresses"
	else
		fail "$name: kcore and .ko give the same btrfs sites and addresses"
	fi
	echo "--- $name: btrfs_decompress_buf2page sites:" \
		$(jq -r '.sites[0].callsites[] | select(.target) | "\(.offset_hex) \(.address) \(.target)"' "$k")
}

check_entries() {
	local name=$1 f=$out/probe.json
	check_jq "$name: memcpy_orig not probe-able (noinstr / kprobe blacklist)" \
		'.entries[] | select(.symbol == "memcpy_orig") | .probeable == "no" and
		 (.noinstr == "yes" or .kprobe_blacklisted == "yes") and (.reason | length > 0)' "$f"
	check_jq "$name: read_zero traceable and probe-able" \
		'.entries[] | select(.symbol == "read_zero") | .traceable == "yes" and
		 .probeable == "yes"' "$f"
}

# check_same_offsets NAME FUNC FILE: the call sites memcpy's callers list in FUNC are the
# `call __memcpy` sites `probe --site FUNC` found (FILE).
check_same_offsets() {
	local name=$1 func=$2 file=$3 a b
	a=$(jq -c --arg f "$func" '[.entries[] | select(.symbol == "memcpy") | .callers[] |
		select(.function == $f) | .sites[] | select(.instruction == "call") | .offset]
		| sort' "$out/callers.json")
	b=$(jq -c --arg f "$func" '[.sites[] | select(.function == $f) | .callsites[] |
		select(.target == "__memcpy" and .instruction == "call") | .offset] | sort' "$file")
	if [[ $a == "$b" && $a != "[]" ]]; then pass "$name: memcpy's callers list $func at $a, as --site does"
	else fail "$name: memcpy's callers list $func at ${a:-?}, --site at ${b:-?}"; fi
}

# The callers of memcpy, memcpy_orig and the copy_user helper (t-probe-guest.sh): found in the
# live text of the kernel and its modules, confirmed by --site, the kprobe marks true in the kernel.
check_callers() {
	local name=$1 j=$out/callers.json cu read_at func off t n_ok n_bad
	cu=$(cat "$out/copy_user_symbol")
	check_jq "$name: probe --entry exit status 0" '. == 0' "$out/callers.rc"
	echo "--- $name: callers in the guest:" $(grep -h '^  callers of\|candidates in' \
		"$out/callers.txt" "$out/callers-txt.err")
	check_jq "$name: memcpy has > 100 direct call sites in kcore, modules searched too" \
		'.entries[] | select(.symbol == "memcpy") | .callers_summary |
		 .sites > 100 and .text_source == "kcore" and .modules_searched and .functions > 50' "$j"
	check_jq "$name: memcpy: sites = the sum over callers; kprobe-able ones counted" \
		'.entries[] | select(.symbol == "memcpy") | .callers_summary.sites ==
		 ([.callers[].sites | length] | add) and .callers_summary.kprobe_functions ==
		 ([.callers[] | select(.kprobe == "yes")] | length) and .callers_summary.kprobe_functions > 10' "$j"
	check_jq "$name: ZSTD_decompressStream is a kprobe-able caller of memcpy" \
		'.entries[] | select(.symbol == "memcpy") | .callers[] |
		 select(.function == "ZSTD_decompressStream") | .kprobe == "yes"' "$j"
	check_same_offsets "$name" ZSTD_decompressStream "$out/probe.json"
	check_jq "$name: btrfs_decompress_buf2page [btrfs] is a caller of memcpy (module text)" \
		'.entries[] | select(.symbol == "memcpy") | .callers[] |
		 select(.function == "btrfs_decompress_buf2page") | .module == "btrfs"' "$j"
	check_same_offsets "$name" btrfs_decompress_buf2page "$out/btrfs-kcore.json"
	# The dispatch decoded "_copy_to_user+OFF: call HELPER" from kcore: the callers agree.
	read_at=$(jq -r '.dispatch[] | select(.routine == "copy_user") | .read_at' "$out/probe.json")
	func=${read_at%+*} off=${read_at#*+}
	check_jq "$name: $cu's callers include $read_at, where the dispatch found the call" \
		"[.entries[] | select(.symbol == \"$cu\") | .callers[] | select(.function == \"$func\")
		 | .sites[].offset_hex] | index(\"$off\") != null" "$j"
	# memcpy_orig is entered by __memcpy's patched jump on 6.12 (-fsrm); 6.1's jumps to
	# memcpy_erms instead, so nothing reaches memcpy_orig directly there.
	if [[ $name == 6.1 ]]; then
		check_jq "$name: memcpy_orig has no direct caller (__memcpy jumps to memcpy_erms)" \
			'.entries[] | select(.symbol == "memcpy_orig") | (.callers | length) == 0 and
			 .callers_summary.sites == 0' "$j"
	else
		check_jq "$name: memcpy_orig's one direct caller is __memcpy's jmp, not kprobe-able" \
			'.entries[] | select(.symbol == "memcpy_orig") | (.callers | length) == 1 and
			 (.callers[0].function | test("^(__)?memcpy$")) and .callers[0].kprobe == "no" and
			 .callers[0].sites[0].instruction == "jmp"' "$j"
	fi
	t=$out/kprobe-trials.txt
	n_ok=$(grep -c '^yes .* ok$' "$t" || true)
	n_bad=$(grep -c '^no .* fail$' "$t" || true)
	if ((n_ok >= 10 && n_bad >= 3)) && ! grep -q '^yes .* fail$\|^no .* ok$' "$t"; then
		pass "$name: $n_ok callers marked kprobe-able took a kprobe, $n_bad marked not were refused"
	else
		fail "$name: kprobe marks: $(grep '^yes .* fail$\|^no .* ok$' "$t" | head -5 | tr '\n' ';')" \
			"($n_ok yes ok, $n_bad no refused)"
	fi
	if [[ $(cat "$out/hint.rc") == 0 ]] && jq -e '(.sites | length) == 1 and
		.sites[0].mechanism == "kprobe"' "$out/hint.json" >/dev/null 2>&1; then
		pass "$name: the printed hint works as is: copyprof $(cat "$out/hint.cmd")"
	else
		fail "$name: the printed hint 'copyprof $(cat "$out/hint.cmd")' (exit $(cat "$out/hint.rc"))"
		head -c 600 "$out/hint.err"
	fi
	if [[ $(cat "$out/rec.rc") == 0 ]] && grep -q '^  callers of memcpy: [0-9]* call sites' \
		"$out/rec.err" && grep -q 'probe one: copyprof record --site ' "$out/rec.err"; then
		pass "$name: record --entry memcpy lists the callers in its plan, then samples"
	else
		fail "$name: record --entry memcpy lists the callers (exit $(cat "$out/rec.rc"))"
		head -c 600 "$out/rec.err"
	fi
	if grep -q . "$out/kprobe_events_after"; then
		fail "$name: kprobe events left behind: $(head -3 "$out/kprobe_events_after")"
	else
		pass "$name: no kprobe event left behind"
	fi
}

case_612() {
	boot 6.12 6.12 max,-fsrm || return 0
	local f=$out/probe.json
	check_jq "6.12 -fsrm: memcpy is memcpy_orig for every length, from kcore" \
		"$(jq_dispatch memcpy) | .source == \"kcore\" and (.rows | length) == 1 and
		 .rows[0].min == 0 and .rows[0].max == null and .rows[0].code == \"memcpy_orig\"" "$f"
	check_jq "6.12 -fsrm: copy_user calls rep_movs_alternative (len rcx)" \
		"$(jq_dispatch copy_user) | .source == \"kcore\" and
		 (.rows[0].code | startswith(\"rep_movs_alternative\"))" "$f"
	check_jq "6.12 -fsrm: memmove uses rep movsb from 32 bytes (ERMS)" \
		"$(jq_dispatch memmove) | .source == \"kcore\" and .rows[1].min == 32 and
		 .rows[1].string_op == \"rep movsb\"" "$f"
	check_zstd_sites 6.12
	check_btrfs 6.12
	check_entries 6.12
	check_callers 6.12
}

case_612_fsrm() {
	boot 6.12-fsrm 6.12 max,+fsrm || return 0
	local f=$out/probe.json
	# qemu 7.2's TCG cannot expose FSRM ("TCG doesn't support requested feature"), and nested
	# KVM fails on these machines (vm-recipe.md): then this case cannot happen here.
	if ! jq -e '.cpu.fsrm' "$f" >/dev/null; then
		skip "6.12 FSRM: the guest CPU has no fsrm (qemu TCG cannot expose it); unit test \
test_dispatch/live_fsrm covers the decoding"
		return 0
	fi
	check_jq "6.12 FSRM: memcpy is an inline rep movsb for every length, from kcore" \
		"$(jq_dispatch memcpy) | .source == \"kcore\" and (.rows | length) == 1 and
		 .rows[0].string_op == \"rep movsb\" and .rows[0].max == null" "$f"
	check_jq "6.12 FSRM: copy_to_user is an inline rep movsb" \
		"$(jq_dispatch copy_user) | .source == \"kcore\" and .rows[0].string_op == \"rep movsb\"" \
		"$f"
	check_zstd_sites 6.12-fsrm
}

case_61() {
	boot 6.1 6.1 max,-fsrm || return 0
	local f=$out/probe.json
	check_jq "6.1: memcpy is memcpy_erms (rep movsb for every length), from kcore" \
		"$(jq_dispatch memcpy) | .source == \"kcore\" and (.rows | length) == 1 and
		 .rows[0].code == \"memcpy_erms\" and .rows[0].string_op == \"rep movsb\"" "$f"
	check_jq "6.1: copy_user is copy_user_enhanced_fast_string" \
		"$(jq_dispatch copy_user) | .source == \"kcore\" and
		 ([.rows[].code] | any(startswith(\"copy_user_enhanced_fast_string\")))" "$f"
	# kernel-facts.md: clear_user_* take the length in rcx; the caller must load it there.
	check_jq "6.1: read_zero calls clear_user_erms with the length just moved into rcx" \
		'[.sites[] | select(.function == "read_zero") | .callsites[] |
		  select(.target == "clear_user_erms" and .len_reg == "rcx" and
			 (.before | test("rcx")))] | length >= 1' "$f"
	check_zstd_sites 6.1
	check_btrfs 6.1
	check_entries 6.1
	check_callers 6.1
}

main() {
	local c missing=
	(($#)) || set -- 6.12 6.12-fsrm 6.1
	for tool in qemu-system-x86_64 busybox cpio mkfs.btrfs jq python3; do
		command -v "$tool" >/dev/null || [[ -x /sbin/$tool || -x /usr/sbin/$tool ]] ||
			missing+=" $tool"
	done
	# One snapshot for the whole run, guest and host: a rebuild meanwhile must not mix binaries.
	if [[ -x $COPYPROF ]]; then
		mkdir -p "$work/bin"
		cp "$COPYPROF" "$work/bin/copyprof"
		COPYPROF=$work/bin/copyprof
	fi
	if [[ ! -x $RUN ]]; then
		skip "VM tests: $RUN is missing"
	elif [[ ! -x $COPYPROF ]]; then
		skip "VM tests: $COPYPROF is not built (make)"
	elif [[ -n $missing ]]; then
		skip "VM tests: missing$missing (apt-get install \$(cat $HERE/packages.txt) jq)"
	else
		for c in "$@"; do
			case $c in
			6.12) case_612 ;;
			6.12-fsrm) case_612_fsrm ;;
			6.1) case_61 ;;
			*) echo "unknown case $c" >&2; exit 2 ;;
			esac
		done
	fi
	checks_done
}

main "$@"
