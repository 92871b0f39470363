#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# t0091-hardening-output: -o never replaces a special file (character device, FIFO, symlink to
# stdout), keeps a replaced file's mode, owner and symlink, says when hard links part, takes a
# name of NAME_MAX bytes, and refuses an unwritable place BEFORE a recording starts.
. "$(dirname "$0")/lib.sh"
need_cmd jq
cd "$TMP"
G="$ROOT/tests/golden/profile-synthetic.json"
size=$("$COPYPROF" merge -o - "$G" 2>/dev/null | jq -c . | wc -c)
[ "$size" -gt 100 ] || fail "merge -o - wrote no profile"

# A character device is written in place: /dev/full fails with ENOSPC, /dev/null stays a device.
expect_exit 1 "$COPYPROF" merge -o /dev/full "$G"
expect_err "cannot write /dev/full: No space left on device"
[ -c /dev/full ] || fail "/dev/full is no longer a character device"
expect_exit 0 "$COPYPROF" merge -o /dev/null "$G"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# A FIFO is written in place, and the reader gets the whole profile.
mkfifo fifo
cat fifo > from-fifo &
reader=$!
expect_exit 0 "$COPYPROF" merge -o fifo "$G"
wait "$reader"
[ -p fifo ] || fail "the FIFO was replaced"
jq -e '.sites | length == 2' from-fifo >/dev/null || fail "the FIFO's reader got no profile"

# A symlink to /proc/self/fd/1 writes to stdout and stays a symlink.
ln -s /proc/self/fd/1 to-stdout
"$COPYPROF" merge -o to-stdout "$G" > via-link 2>/dev/null || fail "merge -o to-stdout failed"
[ -L to-stdout ] || fail "the symlink was replaced"
jq -e '.sites | length == 2' via-link >/dev/null || fail "nothing came through the symlink"

# A symlink to a regular file: the target is replaced, the link stays.
echo old > target
ln -s target link
expect_exit 0 "$COPYPROF" merge -o link "$G"
[ -L link ] || fail "the symlink to a regular file was replaced"
jq -e '.sites | length == 2' target >/dev/null || fail "the symlink's target was not written"

# A regular file keeps its mode and owner; a hard link is announced.
echo old > kept
chmod 640 kept
chown nobody:nogroup kept 2>/dev/null || true
owner=$(stat -c %U:%G kept)
ln kept other-name
expect_exit 0 "$COPYPROF" merge -o kept "$G"
expect_eq "mode kept" "$(stat -c %a kept)" 640
expect_eq "owner kept" "$(stat -c %U:%G kept)" "$owner"
expect_err "warning: kept had 2 hard links: it was replaced by a new file, and its other 1 name keeps the old contents"
expect_eq "the other name" "$(cat other-name)" old

# A name of NAME_MAX (255) bytes: the temp file gets a short name of its own.
long=$(printf 'a%.0s' $(seq 250)).json
expect_exit 0 "$COPYPROF" merge -o "$long" "$G"
jq -e '.sites | length == 2' "$long" >/dev/null || fail "the 255-byte name was not written"
ls | grep -q '\.tmp\.' && fail "a temporary file was left: $(ls)"

# Refused: a folder, a dangling symlink, a missing folder.
expect_exit 1 "$COPYPROF" merge -o . "$G"
expect_err "cannot write \.: it is a folder: give a file name"
ln -s nowhere dangling
expect_exit 1 "$COPYPROF" merge -o dangling "$G"
expect_err "it is a symbolic link to a file that does not exist"
[ ! -e nowhere ] || fail "the dangling symlink's target was created"
expect_exit 1 "$COPYPROF" merge -o /missing/dir/x.json "$G"
expect_err "cannot write /missing/dir/x.json: its folder does not exist \(checked before starting"

# A recording checks its output before it starts: no 3 s run whose data would be lost.
if [ "$(id -u)" -eq 0 ]; then
	start=$SECONDS
	expect_exit 1 "$COPYPROF" record --uprobe "$WL:wl_copy" -d 3 -o /missing/dir/x.json
	expect_err "cannot write /missing/dir/x.json: its folder does not exist"
	grep -q "recording\|site 0" "$TMP/out" && fail "record started before refusing: $(cat "$TMP/out")"
	expect_exit 1 "$COPYPROF" import-perf -i /nonexistent.data -o /missing/dir/x.json
	expect_err "cannot write /missing/dir/x.json: its folder does not exist"
	# An unwritable folder for a user who is not root.
	if command -v setpriv >/dev/null; then
		chmod 755 "$TMP" && mkdir ro && chmod 755 ro
		expect_exit 1 setpriv --reuid=nobody --regid=nogroup --clear-groups \
			"$COPYPROF" calibrate --quick -o "$TMP/ro/model.json"
		expect_err "cannot write .*ro/model.json: Permission denied"
	fi
fi
echo "ok"
