#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a Debian kernel under qemu (TCG) with a busybox initramfs and run one command in it.
#
# Why a VM at all: the build machines' own kernel has no kprobes and no /proc/kcore, and
# copyprof must be tested against real distro kernels (see /work/shared/notes/vm-recipe.md).
set -euo pipefail
shopt -s extglob

readonly SELF=${0##*/}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
readonly HERE REPO
readonly CACHE=${COPYPROF_VM_CACHE:-$REPO/.cache/vm}
readonly EXIT_VM=3	# no exit status from the guest: panic, timeout, setup failure in /init
readonly EXIT_HOST=4	# host side cannot even start: missing tool, no kernel package

kernel_series=6.12
qemu_cpu=max,-fsrm	# ERMS without FSRM: 6.12 then runs memcpy_orig for every length
disk=
out_dir=
timeout_s=600
boot_timeout_s=120	# a boot took 7-17 s under TCG here (t-smoke); a hung one never ends
extra_append=
bins=()
extra_modules=()
tmp=
dl_dir=
qemu_pid=
stream_pid=
watch_pid=

usage() {
	cat <<EOF
Usage: $SELF [OPTIONS] -- GUEST_COMMAND...

Boot the newest Debian linux-image-SERIES-amd64-unsigned kernel under qemu (TCG), run
GUEST_COMMAND as root through 'sh -c' in a busybox initramfs, stream the console to
stdout and exit with GUEST_COMMAND's exit status.

Options:
  --kernel SERIES   kernel series, 6.12 (default) or 6.1
  --cpu MODEL       qemu -cpu value (default: $qemu_cpu, i.e. ERMS without FSRM)
  --disk btrfs-zstd attach a fresh 512 MiB btrfs disk, mounted at /mnt with compress-force=zstd
  --bin PATH        copy PATH into the guest's /bin (repeatable; default: build/copyprof-static if it
                    exists; copyprof-static is installed as /bin/copyprof). Static binaries
                    always work; dynamic ones get the host's libraries.
  --module NAME     also load kernel module NAME (and its dependencies) before the command
  --append ARGS     extra kernel command line arguments
  --out DIR         copy the guest's /out back to DIR (default: a new temporary directory)
  --timeout SECONDS kill the VM after this long (default: $timeout_s)
  --boot-timeout SECONDS
                    a boot whose /init has not started the command after this long is
                    hung, and booted again (default: $boot_timeout_s; only when below --timeout)
  -h, --help        show this help

Guest: /proc, /sys, /dev, /sys/kernel/tracing and /sys/kernel/debug are mounted, /tmp is a
tmpfs, /lib/modules/VERSION has modules.* and the decompressed btrfs.ko.

Exit status: GUEST_COMMAND's, or 2 usage error, $EXIT_VM VM failure (panic, timeout, no exit
marker; the last 40 console lines go to stderr), $EXIT_HOST host setup failure. A kernel panic
or a hang (--boot-timeout) before the guest command starts is booted again (3 boots in all;
each retry is said).

Kernels are fetched with apt-get download and cached in $CACHE.

Examples:
  $SELF -- uname -r
  $SELF --kernel 6.1 -- 'grep -c kprobe /proc/kallsyms; exit 7'   # exits with 7
  $SELF --disk btrfs-zstd --out /tmp/res -- 'cp /proc/kallsyms /out/; ls /mnt'
  $SELF --bin build/copyprof-static -- copyprof --help
EOF
}

die_usage() { echo "$SELF: $*" >&2; echo "Try '$SELF --help'." >&2; exit 2; }
die_host() { echo "$SELF: $*" >&2; exit $EXIT_HOST; }
note() { echo "$SELF: $*" >&2; }

parse_args() {
	while (($#)); do
		case $1 in
		--kernel) [[ ${2-} =~ ^[0-9]+\.[0-9]+$ ]] || die_usage "--kernel wants a series like 6.12"
			kernel_series=$2; shift 2 ;;
		--cpu) [[ -n ${2-} ]] || die_usage "--cpu wants a value"; qemu_cpu=$2; shift 2 ;;
		--disk) [[ ${2-} == btrfs-zstd ]] || die_usage "--disk: only btrfs-zstd is known"
			disk=$2; shift 2 ;;
		--bin) [[ -f ${2-} ]] || die_usage "--bin: no such file: ${2-}"; bins+=("$2"); shift 2 ;;
		--module) [[ -n ${2-} ]] || die_usage "--module wants a name"; extra_modules+=("$2"); shift 2 ;;
		--append) [[ -n ${2-} ]] || die_usage "--append wants arguments"; extra_append=$2; shift 2 ;;
		--out) [[ -n ${2-} ]] || die_usage "--out wants a directory"; out_dir=$2; shift 2 ;;
		--timeout) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die_usage "--timeout wants whole seconds"
			timeout_s=$2; shift 2 ;;
		--boot-timeout) [[ ${2-} =~ ^[1-9][0-9]*$ ]] || die_usage "--boot-timeout wants whole seconds"
			boot_timeout_s=$2; shift 2 ;;
		-h|--help) usage; exit 0 ;;
		--) shift; break ;;
		*) die_usage "unknown argument: $1" ;;
		esac
	done
	(($#)) || die_usage "missing GUEST_COMMAND after --"
	# One argument is a shell script; several are an argv, quoted so 'ls "a b"' survives.
	if (($# == 1)); then
		guest_cmd=$1
	else
		guest_cmd=
		local a
		for a in "$@"; do guest_cmd+="'${a//\'/\'\\\'\'}' "; done
	fi
	if ((${#bins[@]} == 0)) && [[ -f $REPO/build/copyprof-static ]]; then
		bins=("$REPO/build/copyprof-static")
	fi
}

# Every tool with the Debian package that provides it (tests/vm/packages.txt lists them).
check_tools() {
	local tool missing=
	local -A need=([qemu-system-x86_64]=qemu-system-x86 [busybox]=busybox-static [cpio]=cpio
		[depmod]=kmod [modprobe]=kmod [xz]=xz-utils [zstd]=zstd [apt-get]=apt
		[dpkg-deb]=dpkg [timeout]=coreutils [flock]=util-linux [tar]=tar)
	[[ -n $disk ]] && need[mkfs.btrfs]=btrfs-progs
	for tool in "${!need[@]}"; do
		# depmod/modprobe/mkfs.btrfs live in /sbin, which a non-root PATH may lack.
		command -v "$tool" >/dev/null || [[ -x /sbin/$tool || -x /usr/sbin/$tool ]] ||
			missing+=" $tool (package ${need[$tool]})"
	done
	[[ -z $missing ]] || die_host "missing tools:$missing; run: apt-get install \$(cat $HERE/packages.txt)"
	ldd "$(command -v busybox)" >/dev/null 2>&1 &&
		die_host "$(command -v busybox) is dynamically linked; install busybox-static"
	return 0
}

# Newest linux-image-SERIES*-amd64-unsigned in the apt lists, newest first. The [0-9] before
# -amd64 drops the -cloud- and -rt- flavours; "6.1[.-]" does not match 6.12.
kernel_candidates() {
	local re="^linux-image-${kernel_series//./\\.}[.-][^ ]*[0-9]-amd64-unsigned\$"
	apt-cache search --names-only "^linux-image-${kernel_series}" 2>/dev/null |
		awk '{print $1}' | grep -E "$re" | sort -rV
}

# Make sure $CACHE/PKG/root holds the unpacked package with modules.dep; sets kroot and kver.
fetch_kernel() {
	local pkgs pkg='' cand ver
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9	# two harness runs must not unpack into the same directory
	pkgs=$(kernel_candidates) || true
	for cand in $pkgs; do
		if [[ -e $CACHE/$cand/.complete ]]; then pkg=$cand; break; fi
		dl_dir=$(mktemp -d "$CACHE/.dl.XXXXXX")
		note "downloading $cand"
		# -o Sandbox::User=root: the _apt user cannot write into our cache directory.
		if (cd "$dl_dir" && apt-get download -q -o APT::Sandbox::User=root "$cand" >&2); then
			rm -rf "${CACHE:?}/$cand"
			mkdir -p "$CACHE/$cand/root"
			dpkg-deb -x "$dl_dir"/*.deb "$CACHE/$cand/root"
			rm -rf "$dl_dir"
			dl_dir=
			ver=$(ls "$CACHE/$cand/root/lib/modules")
			# The package has no modules.dep; postinst would make it. Build it here.
			depmod -b "$CACHE/$cand/root" "$ver"
			touch "$CACHE/$cand/.complete"
			pkg=$cand
			break
		fi
		rm -rf "$dl_dir"
		dl_dir=
		note "cannot download $cand (stale apt lists? try apt-get update); trying older"
	done
	if [[ -z $pkg ]]; then
		# Offline fallback: the newest kernel of this series already in the cache.
		local stamp
		pkg=$(for stamp in "$CACHE"/linux-image-"$kernel_series"[.-]*/.complete; do
			[[ -e $stamp ]] && basename "${stamp%/.complete}"
		done | sort -rV | head -n1) || true
		[[ -n $pkg ]] || die_host "no linux-image-$kernel_series*-amd64-unsigned package found" \
			"or downloadable (run apt-get update)"
		note "warning: using cached $pkg, newer ones were not downloadable"
	fi
	exec 9>&-
	kpkg=$pkg
	kroot=$CACHE/$pkg/root
	kver=$(ls "$kroot/lib/modules")
	vmlinuz=$kroot/boot/vmlinuz-$kver
	note "kernel $pkg"
}

# Relative module paths (kernel/...) in load order for the given names, builtins omitted.
module_plan() {
	modprobe -d "$kroot" -S "$kver" -a --show-depends "$@" |
		awk -v pre="$kroot/lib/modules/$kver/" \
			'$1 == "insmod" && index($2, pre) == 1 { print substr($2, length(pre) + 1) }' |
		awk '!seen[$0]++'
}

# Copy a module into the initramfs decompressed: busybox insmod cannot read .ko.xz/.ko.zst.
ship_module() {
	local rel=$1 src=$kroot/lib/modules/$kver/$1 dst
	dst=$initrd/lib/modules/$kver/${rel%.*}
	[[ $rel == *.ko ]] && dst=$initrd/lib/modules/$kver/$rel
	mkdir -p "${dst%/*}"
	case $src in
	*.ko.xz) xz -dc "$src" >"$dst" ;;
	*.ko.zst) zstd -qdc "$src" >"$dst" ;;
	*.ko.gz) gzip -dc "$src" >"$dst" ;;
	*) cp "$src" "$dst" ;;
	esac
	echo "${dst#"$initrd"}"
}

# Copy a host binary; for a dynamic one also its loader and libraries (best effort).
ship_bin() {
	local lib name=${1##*/}
	# The static build is the guest's copyprof (docs/design.md#linking).
	[[ $name == copyprof-static ]] && name=copyprof
	install -m 755 "$1" "$initrd/bin/$name"
	ldd "$1" >/dev/null 2>&1 || return 0
	note "warning: $1 is dynamically linked; copying the host's libraries"
	for lib in $(ldd "$1" | grep -o '/[^ ]*'); do
		mkdir -p "$initrd${lib%/*}" && cp -L "$lib" "$initrd$lib"
	done
}

build_initramfs() {
	local mods rel plan
	initrd=$tmp/initrd
	mkdir -p "$initrd"/{bin,sbin,etc/copyprof,proc,sys,dev,tmp,mnt,out,root,lib/modules/"$kver"}
	cp "$(command -v busybox)" "$initrd/bin/busybox"
	# /init makes the other applet links with busybox --install: one ln(1) per applet on
	# the host costs 2.5 s.
	ln -s busybox "$initrd/bin/sh"
	# Full metadata so tools in the guest can resolve modules; the paths in modules.dep keep
	# the .xz suffix while the shipped files are plain .ko.
	cp "$kroot/lib/modules/$kver"/modules.* "$initrd/lib/modules/$kver/"
	# virtio_pci is a module on 6.1, builtin on 6.12; virtio_blk carries the output disk.
	mods=(virtio_pci virtio_blk "${extra_modules[@]}")
	[[ -n $disk ]] && mods+=(btrfs)
	plan=$(module_plan "${mods[@]}") || die_usage "unknown kernel module in: ${mods[*]}"
	for rel in $plan; do
		ship_module "$rel" >>"$initrd/etc/copyprof/modules"
	done
	# Later tests read btrfs.ko's relocations, so ship it even when it is not loaded.
	for rel in $(module_plan btrfs | grep /btrfs.ko); do ship_module "$rel" >/dev/null; done
	local b
	for b in "${bins[@]}"; do ship_bin "$b"; done
	printf '%s\n' "$guest_cmd" >"$initrd/etc/copyprof/cmd"
	echo "$disk" >"$initrd/etc/copyprof/disk"
	install -m 755 "$HERE/guest-init.sh" "$initrd/init"
	# Uncompressed newc: nothing to decompress under TCG; -R 0:0 so files are root's.
	(cd "$initrd" && find . | cpio -o -H newc -R 0:0 --quiet) >"$tmp/initrd.cpio"
}

make_disks() {
	rm -f "$tmp/out.img" "$tmp/disk.img"	# fresh ones when a boot is tried again
	# Sparse: the guest writes a tar of /out here; extracting stops at the end-of-archive.
	truncate -s 1G "$tmp/out.img"
	qemu_disks=(-drive "file=$tmp/out.img,format=raw,if=none,id=out"
		-device "virtio-blk-pci,drive=out,serial=copyprof-out")
	if [[ $disk == btrfs-zstd ]]; then
		truncate -s 512M "$tmp/disk.img"
		mkfs.btrfs -f -q "$tmp/disk.img" >/dev/null
		qemu_disks+=(-drive "file=$tmp/disk.img,format=raw,if=none,id=disk"
			-device "virtio-blk-pci,drive=disk,serial=copyprof-disk")
	fi
}

# Echo the console, dropping serial CRs and terminal control sequences.
stream_console() {
	local line
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%$'\r'}
		# SeaBIOS resets the terminal and turns off line wrap (ESC c, CSI ?7l): drop them.
		if [[ $line == *$'\e'* ]]; then
			line=${line//$'\e'\[*([0-9;?])[a-zA-Z]/}
			line=${line//$'\e'c/}
		fi
		printf '%s\n' "$line"
	done
}

# shellcheck disable=SC2317 # invoked by trap
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[[ -z $watch_pid ]] || kill "$watch_pid" 2>/dev/null || true
	if [[ -n $qemu_pid ]] && kill -0 "$qemu_pid" 2>/dev/null; then
		kill -TERM "$qemu_pid" 2>/dev/null || true	# timeout(1) passes it on to qemu
		wait "$qemu_pid" 2>/dev/null || true
	fi
	if [[ -n $stream_pid ]]; then
		wait "$stream_pid" 2>/dev/null || true	# ends with qemu (tail --pid)
	fi
	[[ -n $tmp ]] && rm -rf "$tmp"
	[[ -n $dl_dir ]] && rm -rf "$dl_dir"
	exit "$rc"
}

vm_failure() {
	echo "$SELF: VM failure ($kpkg): $1" >&2
	echo "$SELF: last 40 console lines:" >&2
	tail -n 40 "$tmp/console.log" | tr -d '\r' |
		sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g; s/^/  | /' >&2
	echo "$SELF: VM failure: $1" >&2
	exit $EXIT_VM
}

# A boot that has not reached the guest command after --boot-timeout seconds is hung (Debian's
# 6.1 under TCG, -cpu max,-fsrm: twice in CI, nothing on the console after SeaBIOS for 300 s,
# where its boots take 7-17 s): qemu is ended and the hang noted for run_vm.
watch_boot() {
	local s
	((boot_timeout_s < timeout_s)) || exit 0
	for ((s = 0; s < boot_timeout_s; s++)); do
		sleep 1
		grep -a -q 'COPYPROF_VM_READY' "$tmp/console.log" && exit 0
	done
	: >"$tmp/boot_hung"
	kill -TERM "$qemu_pid" 2>/dev/null || true
}

# One boot; sets qemu_rc and the boot's start time t0.
boot_vm() {
	qemu_rc=0
	rm -f "$tmp/boot_hung"
	: >"$tmp/console.log"
	t0=$EPOCHREALTIME
	# timeout(1) runs qemu in its own process group, so ^C reaches us and cleanup() ends it.
	timeout -k 5 "$timeout_s" qemu-system-x86_64 -accel tcg,thread=multi -cpu "$qemu_cpu" \
		-m 2048 -smp 2 -nographic -no-reboot -nic none \
		-kernel "$vmlinuz" -initrd "$tmp/initrd.cpio" "${qemu_disks[@]}" \
		-append "console=ttyS0 quiet panic=-1 $extra_append" \
		</dev/null >"$tmp/console.log" 2>&1 &
	qemu_pid=$!
	watch_boot </dev/null >/dev/null 2>&1 &
	watch_pid=$!
	# In the background too: bash defers signal traps until a foreground job ends, but the
	# wait builtin returns at once, so ^C and kill reach cleanup() while the guest runs.
	tail -s 0.1 -n +1 -f --pid="$qemu_pid" "$tmp/console.log" | stream_console &
	stream_pid=$!
	wait "$qemu_pid" || qemu_rc=$?
	qemu_pid=
	kill "$watch_pid" 2>/dev/null || true
	wait "$watch_pid" 2>/dev/null || true
	watch_pid=
	wait "$stream_pid" || true
	stream_pid=
}

# A kernel panic before /init reached the guest command is no result of the command: the
# emulated guest has oopsed in an interrupt handler 1.7 s into boot (once, in CI), and a new
# boot is tried (3 in all). A panic once the command runs is a result, and fails.
early_panic() {
	[[ -z $(tr -d '\r' <"$tmp/console.log" | sed -n 's/^.*COPYPROF_VM_EXIT=\([0-9]*\)$/\1/p') ]] &&
		! grep -q 'COPYPROF_VM_READY' "$tmp/console.log" &&
		grep -a -q 'Kernel panic' "$tmp/console.log"
}

run_vm() {
	local t0 qemu_rc rc cmd_s attempt
	for attempt in 1 2 3; do
		boot_vm
		if [[ -e $tmp/boot_hung ]]; then
			((attempt < 3)) || vm_failure "every boot hung: no guest command ${boot_timeout_s}s after qemu started (--boot-timeout)"
			note "boot $attempt/3 hung: no guest command ${boot_timeout_s}s after qemu started; booting again"
			make_disks
			continue
		fi
		early_panic && ((attempt < 3)) || break
		note "boot $attempt/3 panicked before the guest command started: $(grep -a -m1 -o \
			'Kernel panic.*' "$tmp/console.log" | tr -d '\r'); booting again"
		make_disks
	done
	local t1=$EPOCHREALTIME
	((qemu_rc != 124)) || vm_failure "timeout after ${timeout_s}s, qemu killed"
	rc=$(tr -d '\r' <"$tmp/console.log" | sed -n 's/^.*COPYPROF_VM_EXIT=\([0-9]\{1,3\}\)$/\1/p' | tail -n1)
	if [[ -z $rc ]]; then
		local panic
		panic=$(grep -a -m1 -o 'Kernel panic.*' "$tmp/console.log" | tr -d '\r') &&
			vm_failure "$panic"
		grep -q 'COPYPROF_VM_SETUP_FAILED' "$tmp/console.log" && vm_failure "guest /init setup failed"
		vm_failure "guest printed no COPYPROF_VM_EXIT marker (qemu exit $qemu_rc)"
	fi
	if [[ -z $out_dir ]]; then
		out_dir=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-vm-out.XXXXXX")
	fi
	mkdir -p "$out_dir"
	tar -xf "$tmp/out.img" -C "$out_dir" --no-same-owner --strip-components=1 ||
		vm_failure "cannot extract the guest's /out archive"
	# Command time by the guest's clock (READY..DONE uptimes): host-side stamps lag when the
	# machine is loaded. Boot is the rest of the host wall time: firmware, kernel, /init.
	cmd_s=$(tr -d '\r' <"$tmp/console.log" | awk -F'uptime=' '
		/COPYPROF_VM_READY / { r = $2 } /COPYPROF_VM_DONE / { d = $2 }
		END { printf "%.3f", d - r }')
	note "$(printf 'kernel %s: boot %.1fs, command %.1fs, total %.1fs, exit %d, /out in %s' \
		"$kver" "$(bc_sub "$(bc_sub "$t1" "$t0")" "$cmd_s")" "$cmd_s" \
		"$(bc_sub "$t1" "$t0")" "$rc" "$out_dir")"
	exit "$rc"
}

bc_sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }

main() {
	parse_args "$@"
	check_tools
	PATH=$PATH:/sbin:/usr/sbin
	trap cleanup EXIT
	trap 'note interrupted; exit 130' INT
	trap 'note terminated; exit 143' TERM
	fetch_kernel
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/copyprof-vm.XXXXXX")
	build_initramfs
	make_disks
	run_vm
}

main "$@"
