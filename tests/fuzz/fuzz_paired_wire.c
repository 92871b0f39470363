// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: what a batch's process of calibrate --mix reads on its standard input
 * (paired_wire_get_batch(); anyone can start copyprof with COPYPROF_REPLAY_BATCH set), and
 * what the measuring process reads back from it (paired_wire_get_rounds()), on any bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include "measure/paired_wire.h"

/*
 * A batch that is read must be safe to run: its draws stay within the mix's longest length,
 * which sizes the memory the batch maps, and within their buckets.
 */
static void draw_some(const struct replay_mix *mx, uint64_t seed)
{
	struct replay_draw d;
	size_t i, k;

	for (i = 0; i < 256; i++) {
		replay_mix_draw(mx, &seed, &d);
		for (k = 0; k < mx->nr && !(d.n >= mx->lo[k] && d.n < mx->hi[k]); k++)
			;
		if (d.n > mx->max_len || k == mx->nr || d.dst_align >= 64 || d.src_align >= 64)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct paired_run run = { 0 };
	struct paired_batch b;
	struct paired_plan pl;
	struct replay_mix mx;
	char why[96];
	FILE *f;
	int err;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	if (!paired_wire_get_batch(f, &b, &pl, &mx, why, sizeof(why)))
		draw_some(&mx, b.seed | 1);
	replay_mix_free(&mx);
	rewind(f);
	run.nr_paths = (size_t)data[0] % PAIRED_MAX_PATHS + 1;
	if (!paired_wire_get_rounds(f, &run, &err, why, sizeof(why)) &&
	    (run.nr_batches != 1 || run.rounds > run.cap))
		abort();
	paired_run_free(&run);
	fclose(f);
	return 0;
}
