/* SPDX-License-Identifier: GPL-2.0 */
/* ktext.h: the running kernel's text, function by function, decoded for the length rules */
#ifndef CP_KTEXT_H
#define CP_KTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "insn_flow.h"
#include "ksyms.h"

struct ktext;

/*
 * Opens a text source for the kernel described by @ks: with @use_bpf, a BPF program that
 * reads the live text (root; the bytes the CPU runs, alternatives patched); otherwise, or if
 * that fails, /proc/kcore or a vmlinux (kimage.h). Returns NULL (after a debug message) if
 * there is none.
 */
struct ktext *ktext_open(const struct ksyms *ks, bool use_bpf);
void ktext_close(struct ktext *kt);
/* "bpf", "kcore", "vmlinux" or "vmlinuz". */
const char *ktext_source(const struct ktext *kt);
/* Copies @len bytes at @addr. Returns 0 or -errno. */
int ktext_read(struct ktext *kt, uint64_t addr, void *buf, size_t len);
/* The decoded function containing @addr (cached), or NULL. */
const struct flow_fn *ktext_fn_at(struct ktext *kt, uint64_t addr);
/* The same, as the len_recovery text provider. */
const struct flow_source *ktext_provider(struct ktext *kt);

#endif
