#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0041-sample-btrfs-zstd: reading back a file from a compress-force=zstd btrfs under
# record --sample charges memcpy samples to the zstd/btrfs decompression callers
# (ZSTD_decompressStream's zdss_flush, btrfs_decompress_buf2page ...), with their stacks.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
cd "$TMP"
# The mount and the loop device go away whatever happens.
btrfs_scratch

# Decompression runs in btrfs' end-io workers, so the recording is system-wide; it starts
# before the read and stops right after it, whatever the machine's speed.
"$COPYPROF" record --sample=4999 -o bt.json > out.txt 2> err.txt &
rec=$!
await grep -q "Ctrl-C to end" err.txt
grep -q "Ctrl-C to end" err.txt || fail "record --sample did not start: $(cat err.txt)"
"$SCRATCH" read "$TMP/bt"
kill -INT "$rec"
wait "$rec" || fail "record --sample failed: $(cat err.txt)"
expect_no_leftover_progs

is_decomp='(.symbol | test("^(ZSTD_|zstd_|HUF_|btrfs_)"))'
memcpy=$(jq '[.sites[] | select(.leaf == "memcpy") | .calls] | add // 0' bt.json)
decomp=$(jq "[.sites[] | select(.leaf == \"memcpy\" and $is_decomp) | .calls] | add // 0" bt.json)
[ "$decomp" -ge 10 ] || fail "only $decomp memcpy samples from zstd/btrfs callers: $(jq -c \
	'[.sites[] | select(.leaf == "memcpy") | [.symbol, .calls]]' bt.json)"
[ $((decomp * 100)) -ge $((memcpy * 25)) ] ||
	fail "zstd/btrfs callers have $decomp of $memcpy memcpy samples (want >= 25%)"
# The decompression stacks go through the btrfs compressed-read completion.
jq -e "[.sites[] | select(.leaf == \"memcpy\" and $is_decomp) | .stacks[]] |
	any(test(\"zstd_decompress_bio|btrfs_decompress\"))" bt.json > /dev/null ||
	fail "no memcpy stack through zstd_decompress_bio/btrfs_decompress"
# Flushes and page copies move at most a page each (kernel-facts.md §5).
jq -e "[.sites[] | select(.leaf == \"memcpy\" and $is_decomp) | .buckets[].hi] | all(. <= 4608)" \
	bt.json > /dev/null || fail "a zstd/btrfs memcpy longer than a page"
expect_exit 0 "$COPYPROF" report -i bt.json
expect_out "ZSTD_decompressStream|btrfs_decompress_buf2page|zstd_decompress_bio"
exit 0
