#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0095-import-perf-iregs: lengths of imported perf profiles. dd bs=3000 from /dev/zero is
# recorded by record --sample and by perf record --intr-regs; import-perf recovers the lengths
# from perf's registers by the same rules: the clear_user path's copies are exactly 3000 bytes in
# both, and every inline rep site both saw gets the same length quality. A recording without
# registers, or with too few, gets the message naming the --intr-regs list; --script text with
# iregs imports as perf.data does.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
need_cmd perf
cd "$TMP"
DD=(dd if=/dev/zero of=/dev/null bs=3000 count=300000)
REGS=ax,bx,cx,dx,si,di,bp,sp,r8,r9,r10,r11,r12,r13,r14,r15

perf record -q -e cpu-clock -F 4000 --intr-regs=$REGS -g -o regs.data -- "${DD[@]}" \
	> /dev/null 2> perf.err || fail "perf record --intr-regs failed: $(cat perf.err)"
perf evlist -v -i regs.data 2>/dev/null | grep -q REGS_INTR ||
	skip "perf record --intr-regs recorded no registers here"
expect_exit 0 "$COPYPROF" record --sample=4000 -e cpu-clock -o rec.json -- "${DD[@]}"
expect_exit 0 "$COPYPROF" import-perf -i regs.data -o imp.json
expect_err "lengths exact [0-9]+"
grep -q "intr-regs" "$TMP/err" && fail "a message about --intr-regs with registers: $(cat "$TMP/err")"
jq -e '.meta | has("sample_lengths_note") | not' imp.json > /dev/null ||
	fail "a lengths note with registers: $(jq .meta.sample_lengths_note imp.json)"

# The clear_user path (inline rep stos, or a clear_user routine) of dd's reads: its busiest site.
clear='select(.leaf | test("^inline_rep_stos|^rep_stos_alternative$|clear_user"))'
for f in rec.json imp.json; do
	jq -e "[.sites[] | $clear | select(.symbol == \"read_zero\" or .symbol == \"iov_iter_zero\")]
		| sort_by(-.calls) | .[0] | .calls >= 5 and .length_quality.exact == .calls and
		.bytes == 3000 * .calls" "$f" > /dev/null ||
		fail "$f: the clear_user path's top site is not all exact 3000-byte lengths:" \
			"$(jq -c "[.sites[] | $clear | {symbol, calls, bytes, length_quality}]" "$f")"
done

# Inline rep sites are one instruction each, so one rule each: the same quality in both.
quals() { jq -r '.sites[] | select(.leaf | startswith("inline_rep_")) |
	"\(.leaf) \(.symbol)+\(.offset) \(.length_quality | to_entries |
		map(select(.value > 0) | .key) | sort | join(","))"' "$1" | sort; }
quals rec.json > rec.q
quals imp.json > imp.q
join -j1 <(sed 's/ /|/' rec.q | sort) <(sed 's/ /|/' imp.q | sort) > both.q
[ -s both.q ] || fail "no inline rep site in both profiles: $(cat rec.q imp.q)"
while read -r site r i; do
	expect_eq "length quality of $site, import-perf vs record --sample" "$i" "$r"
done < both.q

# --script text with iregs (call chains, and without them the padded one-line form) as perf.data
# (no cpu field: perf record -- CMD does not record it).
perf script -i regs.data -F comm,pid,tid,time,event,ip,sym,symoff,dso,iregs > s.txt 2>/dev/null
expect_exit 0 "$COPYPROF" import-perf --script s.txt -o script.json
expect_eq "--script vs -i length qualities" "$(jq -c '[.sites[].length_quality]' script.json)" \
	"$(jq -c '[.sites[].length_quality]' imp.json)"
perf script -G -i regs.data -F comm,pid,tid,time,event,ip,sym,symoff,dso,iregs \
	> flat.txt 2>/dev/null
expect_exit 0 "$COPYPROF" import-perf --script flat.txt -o flat.json
expect_eq "one-line form: samples" "$(jq .meta.total_samples flat.json)" \
	"$(jq .meta.total_samples imp.json)"
# (Without a stack there is no return address: compare the inline reps, whose rules need none.)
reps='[.sites[] | select(.leaf | startswith("inline_rep_")) | .length_quality.exact] | add'
expect_eq "one-line form: exact lengths of inline reps" "$(jq "$reps" flat.json)" \
	"$(jq "$reps" imp.json)"

# Without registers: every length unknown, and the message says how to get them, once.
perf record -q -e cpu-clock -g -o plain.data -- "${DD[@]}" > /dev/null 2> perf.err ||
	fail "perf record failed: $(cat perf.err)"
expect_exit 0 "$COPYPROF" import-perf -i plain.data -o plain.json
expect_err "no interrupt registers; record with perf record -g --intr-regs=$REGS "
expect_eq "messages about --intr-regs" "$(grep -c -- "--intr-regs" "$TMP/err")" 1
copy=$(jq '[.sites[].calls] | add' plain.json)
expect_eq "unknown lengths without registers" "$(jq '[.sites[].length_quality.unknown] | add' \
	plain.json)" "$copy"
jq -e '.meta.sample_lengths_note | test("--intr-regs=ax,bx,cx")' plain.json > /dev/null ||
	fail "no lengths note in the meta: $(jq -c .meta plain.json)"
expect_exit 0 "$COPYPROF" report -i plain.json
expect_out "why lengths are unknown: lengths unknown: the perf data has no interrupt registers"

# Too few registers: the rules that read others give unknown, never a guess, and say which.
perf record -q -e cpu-clock --intr-regs=cx,si -g -o few.data -- "${DD[@]}" > /dev/null \
	2> perf.err || fail "perf record --intr-regs=cx,si failed: $(cat perf.err)"
expect_exit 0 "$COPYPROF" import-perf -i few.data -o few.json
# Which registers are named depends on where the samples fell (a rep stos reads di, a loop
# ax and dx): any of them but never one the data has.
expect_err "copy sample\(s\) have no length: their rule reads [a-z0-9,]+, which the data lacks"
named=$(sed -n 's/.*their rule reads \([a-z0-9,]*\), which the data lacks.*/\1/p' "$TMP/err")
case ",$named," in
*,cx,* | *,si,*) fail "a register perf recorded is named as missing: $named" ;;
esac
jq -e "[.sites[] | $clear | select(.symbol == \"read_zero\" or .symbol == \"iov_iter_zero\")] |
	length > 0 and all(.length_quality.unknown == .calls and .bytes == 0)" few.json \
	> /dev/null || fail "lengths without the registers their rule reads: $(jq -c \
	"[.sites[] | $clear | {symbol, calls, bytes, length_quality}]" few.json)"
exit 0
