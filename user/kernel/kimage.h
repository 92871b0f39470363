/* SPDX-License-Identifier: GPL-2.0 */
/* kimage.h: read the core kernel's text: /proc/kcore, a vmlinux ELF, or a vmlinuz payload */
#ifndef CP_KIMAGE_H
#define CP_KIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ksyms.h"

struct kimage_opts {
	const char *vmlinux; /* --vmlinux: an ELF vmlinux or a vmlinuz (bzImage) */
	const char *release; /* for the default paths; NULL: uname -r */
	bool no_kcore;	     /* kallsyms is not this kernel's, or the user asked */
	bool live_only;	     /* only /proc/kcore is of use (the dispatch): no files */
};

struct kimage;

/*
 * Opens the first source that works, in order: /proc/kcore (unless no_kcore), --vmlinux,
 * /usr/lib/debug/boot/vmlinux-RELEASE, /boot/vmlinuz-RELEASE. A file's link addresses are
 * mapped to the running kernel's with the KASLR slide: kallsyms' _text minus the ELF's
 * _text (or its .text section's address). On failure returns NULL and sets *@why (malloc'ed)
 * to every source tried and why it failed.
 */
struct kimage *kimage_open(const struct kimage_opts *o, const struct ksyms *ks, char **why);
/*
 * Opens /proc/kcore now and keeps it open for the process, so that every later kimage_open()
 * reads through it without opening it again: a long-running recorder calls it before it gives
 * up CAP_SYS_RAWIO, and its re-plans still see the live text (kcore's module area covers
 * modules loaded later). 0, or -errno (nothing kept; kimage_open() then tries as usual).
 */
int kimage_hold_kcore(void);
/* Text from memory: @len bytes that run at @addr, taken as live (for tests). Copies @buf. */
struct kimage *kimage_open_buffer(uint64_t addr, const void *buf, size_t len);
void kimage_close(struct kimage *ki);

/* Copies @len bytes of text at runtime address @addr. Returns 0, or -EFAULT if not mapped. */
int kimage_read(struct kimage *ki, uint64_t addr, void *buf, size_t len);
/* "kcore", "vmlinux", "vmlinuz" or "buffer". */
const char *kimage_source(const struct kimage *ki);
const char *kimage_path(const struct kimage *ki);
/* True for /proc/kcore: the bytes are the live ones, alternatives and static calls patched. */
bool kimage_live(const struct kimage *ki);
/* Runtime address minus link address (0 for kcore). */
int64_t kimage_slide(const struct kimage *ki);

#endif
