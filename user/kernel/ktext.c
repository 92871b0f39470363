// SPDX-License-Identifier: GPL-2.0
/* ktext.c: kernel text through a BPF reader or kimage, and a cache of decoded functions */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kimage.h"
#include "ktext.h"
#include "ktext.skel.h"
#include "lib/log.h"

#define KTEXT_CHUNK sizeof(((struct ktext_bpf__bss *)0)->text_buf)
#define FN_MAX_BYTES (64 * 1024) /* longer "functions" are symbol gaps, not code */
#define CACHE_SLOTS 4096

struct fn_slot {
	uint64_t start;	      /* 0: empty */
	struct flow_fn *flow; /* NULL: could not be read or decoded */
};

struct ktext {
	const struct ksyms *ks;
	struct ktext_bpf *skel;
	struct kimage *ki;
	struct fn_slot *slots;
	size_t nr_slots, used;
	struct flow_source provider;
};

static int bpf_read(struct ktext *kt, uint64_t addr, void *buf, size_t len)
{
	uint64_t ctx[1];
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = ctx, .ctx_size_in = sizeof(ctx));
	int fd = bpf_program__fd(kt->skel->progs.cp_read_text), err;
	size_t done = 0, n;

	while (done < len) {
		ctx[0] = addr + done;
		err = bpf_prog_test_run_opts(fd, &opts);
		if (err)
			return -errno;
		if (kt->skel->bss->text_err)
			return (int)kt->skel->bss->text_err;
		n = len - done < KTEXT_CHUNK ? len - done : KTEXT_CHUNK;
		memcpy((char *)buf + done, (const void *)kt->skel->bss->text_buf, n);
		done += n;
	}
	return 0;
}

static int open_bpf(struct ktext *kt)
{
	uint8_t probe[16];
	int err;

	kt->skel = ktext_bpf__open_and_load();
	if (!kt->skel)
		return -errno;
	/* The reader works if it can read the start of the kernel's own text. */
	err = bpf_read(kt, ksyms_addr(kt->ks, "_text") ?: ksyms_addr(kt->ks, "_stext"), probe,
		       sizeof(probe));
	if (err) {
		ktext_bpf__destroy(kt->skel);
		kt->skel = NULL;
	}
	return err;
}

static const struct flow_fn *provider_fn_at(void *ctx, uint64_t addr)
{
	return ktext_fn_at(ctx, addr);
}

struct ktext *ktext_open(const struct ksyms *ks, bool use_bpf)
{
	struct kimage_opts ko = { 0 };
	struct ktext *kt = calloc(1, sizeof(*kt));
	char *why = NULL;
	int err = -ENOTSUP;

	if (!kt)
		return NULL;
	kt->ks = ks;
	kt->nr_slots = CACHE_SLOTS;
	kt->slots = calloc(kt->nr_slots, sizeof(*kt->slots));
	kt->provider.fn_at = provider_fn_at;
	kt->provider.ctx = kt;
	if (!kt->slots)
		goto fail;
	if (use_bpf && !(err = open_bpf(kt)))
		return kt;
	p_debug("kernel text through BPF: %s", strerror(-err));
	kt->ki = kimage_open(&ko, ks, &why);
	if (kt->ki)
		return kt;
	p_debug("kernel text: %s", why ?: "no source");
	free(why);
fail:
	ktext_close(kt);
	return NULL;
}

void ktext_close(struct ktext *kt)
{
	size_t i;

	if (!kt)
		return;
	for (i = 0; kt->slots && i < kt->nr_slots; i++) {
		if (kt->slots[i].flow)
			flow_free(kt->slots[i].flow);
		free(kt->slots[i].flow);
	}
	free(kt->slots);
	ktext_bpf__destroy(kt->skel);
	kimage_close(kt->ki);
	free(kt);
}

const char *ktext_source(const struct ktext *kt)
{
	return kt->skel ? "bpf" : kimage_source(kt->ki);
}

int ktext_read(struct ktext *kt, uint64_t addr, void *buf, size_t len)
{
	if (kt->skel)
		return bpf_read(kt, addr, buf, len);
	return kimage_read(kt->ki, addr, buf, len);
}

static struct fn_slot *slot_for(struct ktext *kt, uint64_t start)
{
	size_t i = (size_t)((start >> 4) * 0x9e3779b97f4a7c15ULL) % kt->nr_slots;

	while (kt->slots[i].start && kt->slots[i].start != start)
		i = (i + 1) % kt->nr_slots;
	return &kt->slots[i];
}

static int grow(struct ktext *kt)
{
	struct fn_slot *old = kt->slots;
	size_t n = kt->nr_slots, i;

	kt->slots = calloc(n * 2, sizeof(*kt->slots));
	if (!kt->slots) {
		kt->slots = old;
		return -ENOMEM;
	}
	kt->nr_slots = n * 2;
	for (i = 0; i < n; i++)
		if (old[i].start)
			*slot_for(kt, old[i].start) = old[i];
	free(old);
	return 0;
}

static struct flow_fn *decode(struct ktext *kt, uint64_t start, uint64_t size)
{
	struct flow_fn *f = calloc(1, sizeof(*f));
	uint8_t *code;

	if (size > FN_MAX_BYTES)
		size = FN_MAX_BYTES;
	code = malloc(size);
	if (!f || !code || ktext_read(kt, start, code, size) || flow_decode(code, size, start, f) ||
	    !f->nr) {
		if (f)
			flow_free(f);
		free(f);
		f = NULL;
	}
	free(code);
	return f;
}

const struct flow_fn *ktext_fn_at(struct ktext *kt, uint64_t addr)
{
	uint64_t off, size, start;
	const struct ksym *sym = ksyms_at(kt->ks, addr, &off, &size);
	struct fn_slot *slot;

	if (!sym || !size)
		return NULL;
	start = addr - off;
	slot = slot_for(kt, start);
	if (slot->start)
		return slot->flow;
	if (kt->used * 2 >= kt->nr_slots) {
		if (grow(kt))
			return NULL;
		slot = slot_for(kt, start);
	}
	slot->start = start;
	slot->flow = decode(kt, start, size);
	kt->used++;
	return slot->flow;
}

const struct flow_source *ktext_provider(struct ktext *kt)
{
	return &kt->provider;
}
