// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: folded stacks (folded_read) on any bytes, into a frame tree */
#include <stdio.h>
#include "folded.h"
#include "fuzz_file.h"
#include "tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct folded_stats st = { 0 };
	struct fg_tree *t = fg_tree_new("all");
	FILE *f = fopen(fuzz_file(data, size), "r");

	if (!t || !f)
		abort();
	folded_read(f, "fuzz input", t, &st);
	fclose(f);
	fg_tree_free(t);
	return 0;
}
