#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0052-probe-honest: probe's reasons are the true ones, and its exit status follows its help:
# a built-in module is not "not loaded", an inlined function is called inlined, a skipped line
# names its symbol once, "no kernel text" is explained, every site skipped is exit 1, and an
# unknown preset lists each preset once.
. "$(dirname "$0")/lib.sh"
cd "$TMP"
mkdir mods

# btrfs built in (its functions are T in the core kernel); memcpy_to_folio is nowhere.
cat >builtin.kallsyms <<'KS'
ffffffff81000000 T _stext
ffffffff81100000 T __memcpy
ffffffff81200000 T ZSTD_decompressStream
ffffffff81201000 T ZSTD_decompressDCtx
ffffffff81202000 T zlib_inflate
ffffffff81203000 T lzo1x_decompress_safe
ffffffff81204000 T zstd_decompress_bio
ffffffff81205000 T zstd_decompress
ffffffff81206000 T zlib_decompress_bio
ffffffff81207000 T lzo_decompress_bio
ffffffff81208000 T btrfs_decompress_buf2page
ffffffff81209000 T btrfs_decompress
ffffffff8120a000 T _etext
KS
expect_exit 1 "$COPYPROF" probe -p btrfs --kallsyms builtin.kallsyms --release 0.0-none \
	--modules mods
expect_err "skipped: btrfs:memcpy_to_folio: not in kallsyms; btrfs is built in, so memcpy_to_folio is inlined into its callers"
expect_err "none of the 10 sites could be read on this kernel"
grep -q "no btrfs.ko" "$TMP/err" && fail "a built-in module's .ko was looked for: $(cat "$TMP/err")"
grep -q "not loaded" "$TMP/err" && fail "a built-in module called not loaded: $(cat "$TMP/err")"
grep -Eq "skipped: ([A-Za-z0-9_]+): \1:" "$TMP/err" && fail "a skipped line repeats its symbol: $(cat "$TMP/err")"
expect_eq "skipped lines" "$(grep -c 'copyprof: skipped: ' "$TMP/err")" 10
expect_out "no kernel text \(no /proc/kcore, no vmlinux found; --vmlinux gives one\)"
expect_out '"from table": looked up by kernel version and CPU flags, not read'
grep -q "text from nowhere" "$TMP/out" && fail "'text from nowhere' is back"

# btrfs as a loadable module that is not loaded here: that is what the reason says.
grep -v btrfs builtin.kallsyms | grep -v '_bio$' | grep -v ' zstd_decompress$' >nomod.kallsyms
expect_exit 1 "$COPYPROF" probe --site btrfs:memcpy_to_folio --kallsyms nomod.kallsyms \
	--release 0.0-none --modules mods
expect_err "no btrfs.ko under mods"

# Unknown preset: each preset listed once.
expect_exit 1 "$COPYPROF" probe -p nosuch
expect_err "no preset 'nosuch'; the presets found are:"
for p in btrfs iov_iter clear_user; do
	expect_eq "lines listing $p" "$(grep -c "^  $p " "$TMP/err")" 1
done
exit 0
