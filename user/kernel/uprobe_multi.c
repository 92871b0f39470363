// SPDX-License-Identifier: GPL-2.0
/* uprobe_multi.c: BPF_LINK_CREATE of a uprobe_multi link by hand (libbpf 1.1 has no wrapper) */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include "uprobe_multi.h"

/*
 * BPF_LINK_CREATE's attribute as the kernel reads it for a uprobe_multi link: the common
 * head (program, target, attach type, flags), then the uprobe_multi member of its union.
 */
struct link_create_uprobe_multi {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t um_flags;
	uint32_t pid;
	uint32_t pad[9]; /* the rest of union bpf_attr's link_create: zero */
};

bool uprobe_multi_supported(void)
{
	static int known = -1;
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = UPROBE_MULTI_ATTACH_TYPE);
	int fd, link;
	uint64_t off = 0;
	struct link_create_uprobe_multi a;

	if (known >= 0)
		return known;
	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "cp_um_probe", "GPL", insns, 2, &o);
	if (fd < 0)
		return (known = 0);
	/*
	 * Kernels before 6.6 load it (the attach type is not checked for kprobes) but have no
	 * such link: a link to a file that cannot be there tells them apart (ENOENT: known).
	 */
	memset(&a, 0, sizeof(a));
	a.prog_fd = (uint32_t)fd;
	a.attach_type = UPROBE_MULTI_ATTACH_TYPE;
	a.path = (uint64_t)(uintptr_t) "/nonexistent/copyprof-uprobe-multi-probe";
	a.offsets = (uint64_t)(uintptr_t)&off;
	a.cnt = 1;
	link = (int)syscall(SYS_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	known = link >= 0 || errno == ENOENT;
	if (link >= 0)
		close(link);
	close(fd);
	return known;
}

int uprobe_multi_attach(int prog_fd, const char *path, uint64_t file_offset, uint64_t cookie)
{
	struct link_create_uprobe_multi a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_fd = (uint32_t)prog_fd;
	a.attach_type = UPROBE_MULTI_ATTACH_TYPE;
	a.path = (uint64_t)(uintptr_t)path;
	a.offsets = (uint64_t)(uintptr_t)&file_offset;
	a.cookies = (uint64_t)(uintptr_t)&cookie;
	a.cnt = 1;
	fd = (int)syscall(SYS_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}
