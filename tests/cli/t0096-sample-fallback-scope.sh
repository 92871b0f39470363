#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0096-sample-fallback-scope: on a kernel where no site of -p btrfs can be probed (this host:
# no kprobes, no kernel text), record falls back to sampling and keeps only the samples whose
# stack goes through one of the preset's functions; --all keeps every copy sample. Both record
# the same read of a compressed btrfs file, side by side; the plan, the summary and the meta
# say which.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"
# The mount and the loop device go away whatever happens.
btrfs_scratch

"$COPYPROF" record -p btrfs -o scoped.json >scoped.out 2>scoped.err &
s=$!
"$COPYPROF" record -p btrfs --all -o all.json >all.out 2>all.err &
a=$!
await grep -q "Ctrl-C to end" scoped.err
await grep -q "Ctrl-C to end" all.err
grep -q "Ctrl-C to end" scoped.err || fail "record -p btrfs did not start: $(cat scoped.err)"
grep -q "Ctrl-C to end" all.err || fail "record -p btrfs --all did not start: $(cat all.err)"
# cat copies the file to user space (filemap_read, _copy_to_iter: outside the preset) while
# btrfs decompresses it (ZSTD_decompressStream, btrfs_decompress_buf2page: inside).
"$SCRATCH" read "$TMP/bt"
kill -INT "$s" "$a"
wait "$s" || fail "record -p btrfs failed: $(cat scoped.err)"
wait "$a" || fail "record -p btrfs --all failed: $(cat all.err)"
expect_no_leftover_progs
[ "$(jq -r '[.sites[].mechanism // "sample"] | unique | join(",")' scoped.json)" = sample ] ||
	skip "-p btrfs was probed on this kernel, not sampled"

grep -q "nothing to probe: only samples whose stack goes through the plan's functions kept" \
	scoped.err || fail "the plan does not say what the fallback keeps: $(cat scoped.err)"
grep -q "nothing to probe: every copy sample kept (--all)" all.err ||
	fail "the plan does not say --all keeps everything: $(cat all.err)"

# The preset's functions, without module.
funcs=$(awk '$1 == "site" { sub(/^.*:/, "", $2); print $2 }' "$ROOT/presets/btrfs.preset" |
	jq -R . | jq -sc .)
# Samples per kept stack, split by whether a frame of the stack is one of those functions.
by_scope() {
	jq -c --argjson f "$funcs" '[.sites[] | .stacks[] |
		{ n: (capture(" (?<n>[0-9]+)$").n | tonumber),
		  through: (sub(" [0-9]+$"; "") | split(";") | any(.[]; . as $x | any($f[]; . == $x))) }] |
		{ through: ([.[] | select(.through) | .n] | add // 0),
		  outside: ([.[] | select(.through | not) | .n] | add // 0) }' "$1"
}
# Every kept sample has its stack in the profile, so the stacks account for every sample.
for j in scoped.json all.json; do
	expect_eq "$j: stack samples = site samples" \
		"$(jq '[.sites[].stacks[] | capture(" (?<n>[0-9]+)$").n | tonumber] | add // 0' "$j")" \
		"$(jq '[.sites[].calls] | add // 0' "$j")"
done
sc=$(by_scope scoped.json) al=$(by_scope all.json)
echo "# scoped: $sc, left out $(jq .meta.outside_scope_samples scoped.json); --all: $al"
expect_eq "scoped: kept samples outside the preset's functions" "$(jq .outside <<<"$sc")" 0
[ "$(jq .through <<<"$sc")" -gt 0 ] || fail "scoped: only $(jq .through <<<"$sc") samples kept"
[ "$(jq .meta.outside_scope_samples scoped.json)" -gt 0 ] ||
	fail "scoped: no sample left out: $(jq -c .meta scoped.json)"
grep -q "^  $(jq .meta.outside_scope_samples scoped.json) copy samples outside the plan's functions left out (--all keeps them)" \
	scoped.out || fail "the summary does not say how many were left out: $(cat scoped.out)"
jq -e --argjson f "$funcs" '.meta.sample_scope as $s | all($f[]; . as $x | $s | contains($x))' \
	scoped.json >/dev/null || fail "the meta's scope lacks a preset function: $(jq .meta scoped.json)"
# --all, recording the same read, keeps the copies outside the preset too.
[ "$(jq .outside <<<"$al")" -gt 0 ] || fail "--all kept nothing outside the preset: $al"
[ "$(jq .through <<<"$al")" -gt 0 ] || fail "--all lost the preset's samples: $al"
expect_eq "--all: no scope in the meta" \
	"$(jq -c '[.meta.sample_scope, .meta.outside_scope_samples]' all.json)" "[null,null]"
exit 0
