// SPDX-License-Identifier: GPL-2.0
/* eh_frame_hdr.c: binary search of the .eh_frame_hdr table (datarel sdata4, as GNU ld writes) */
#include <errno.h>
#include <string.h>
#include "eh_frame_hdr.h"

#define DW_EH_PE_omit 0xff
#define DW_EH_PE_datarel_sdata4 0x3b

/* Size of a pointer encoded with @enc, for the absolute and pc-relative 4- and 8-byte forms. */
static size_t enc_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case 0x03: /* udata4 */
	case 0x0b: /* sdata4 */
		return 4;
	case 0x04: /* udata8 */
	case 0x0c: /* sdata8 */
		return 8;
	}
	return 0;
}

static int32_t rd32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The table bytes of the PT_GNU_EH_FRAME segment, and the segment's address. */
static const uint8_t *hdr_bytes(Elf *elf, uint64_t *vaddr, size_t *len)
{
	size_t i, n, file_size;
	const char *raw = elf_rawfile(elf, &file_size);

	if (!raw || elf_getphdrnum(elf, &n))
		return NULL;
	for (i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_GNU_EH_FRAME)
			continue;
		if (ph.p_offset > file_size || ph.p_filesz > file_size - ph.p_offset)
			return NULL;
		*vaddr = ph.p_vaddr;
		*len = ph.p_filesz;
		return (const uint8_t *)raw + ph.p_offset;
	}
	return NULL;
}

int eh_frame_hdr_func_start(Elf *elf, uint64_t vaddr, uint64_t *start, uint64_t *next)
{
	size_t len, ptr_size, count_size, lo, hi, count;
	const uint8_t *h, *table;
	uint64_t base;

	h = hdr_bytes(elf, &base, &len);
	if (!h)
		return -ENOENT;
	if (len < 4 || h[0] != 1)
		return -EINVAL;
	if (h[2] == DW_EH_PE_omit || h[3] == DW_EH_PE_omit)
		return -ENOENT; /* no search table */
	ptr_size = enc_size(h[1]);
	count_size = enc_size(h[2]);
	if (!ptr_size || count_size != 4 || (h[2] & 0x70) || h[3] != DW_EH_PE_datarel_sdata4)
		return -EINVAL;
	if (len < 4 + ptr_size + count_size)
		return -EINVAL;
	count = (uint32_t)rd32(h + 4 + ptr_size);
	table = h + 4 + ptr_size + count_size;
	if (count > (len - (size_t)(table - h)) / 8)
		return -EINVAL;
	/* The greatest entry whose start is <= vaddr: lo ends as the count of such entries. */
	lo = 0;
	hi = count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (base + (int64_t)rd32(table + 8 * mid) <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	*start = base + (int64_t)rd32(table + 8 * (lo - 1));
	*next = lo < count ? base + (int64_t)rd32(table + 8 * lo) : UINT64_MAX;
	return 0;
}
