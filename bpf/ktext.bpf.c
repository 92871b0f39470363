// SPDX-License-Identifier: GPL-2.0
/* ktext.bpf.c: read live kernel text for user space, where /proc/kcore is not available */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define KTEXT_CHUNK 512

/* The output of one run: a chunk of text and bpf_probe_read_kernel's result. */
__u8 text_buf[KTEXT_CHUNK];
long text_err;

/*
 * Run through BPF_PROG_TEST_RUN with ctx = { address }; never attached. The bytes are the
 * running ones: alternatives and static calls already patched, as the CPU executes them.
 */
SEC("raw_tp")
int cp_read_text(__u64 *ctx)
{
	text_err = bpf_probe_read_kernel(text_buf, sizeof(text_buf), (void *)ctx[0]);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
