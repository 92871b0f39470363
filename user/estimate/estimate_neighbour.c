// SPDX-License-Identifier: GPL-2.0
/* estimate_neighbour.c: the neighbour correction: every policy on the whole mix, two orders */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_neighbour.h"

void est_neighbour_free(struct est_neighbour *nb)
{
	free(nb->shuffled_ns);
	free(nb->sorted_ns);
	free(nb->order_ns);
	free(nb->residual_ns);
	nb->shuffled_ns = nb->sorted_ns = nb->order_ns = nb->residual_ns = NULL;
	nb->nr_rows = 0;
}

void est_neighbour_skip(struct est_neighbour *nb, const char *why)
{
	memset(nb, 0, sizeof(*nb));
	snprintf(nb->why, sizeof(nb->why), "%s", why);
}
