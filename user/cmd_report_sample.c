// SPDX-License-Identifier: GPL-2.0
/* cmd_report_sample.c: `copyprof report` for sampled profiles: where copy time goes, and whose */
#include <stdlib.h>
#include <string.h>
#include "lib/hist_print.h"
#include "lib/count_sum.h"
#include "sites/len_recovery.h"
#include "cmd_report_sample.h"
#include "lib/counter_map.h"

bool report_sample_is_sampled(const struct profile *p)
{
	size_t i;

	if (p->sample)
		return true;
	for (i = 0; i < p->nr_sites; i++)
		if (p->sites[i].sample)
			return true;
	return false;
}

static int ent_cmp(const void *x, const void *y)
{
	const struct counter_map_ent *a = x, *b = y;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Rows of @t, largest first, as "name  samples  share". */
static void print_split(FILE *f, const char *title, struct counter_map *t, count_sum copy, int top)
{
	struct counter_map_ent *rows = calloc(t->nr ? t->nr : 1, sizeof(*rows));
	size_t i, n = 0;

	if (!rows)
		return;
	for (i = 0; i < t->cap; i++)
		if (t->ents[i].key)
			rows[n++] = t->ents[i];
	qsort(rows, n, sizeof(*rows), ent_cmp);
	fprintf(f, "\n%s:\n", title);
	for (i = 0; i < n && (!top || i < (size_t)top); i++)
		fprintf(f, "  %-44s %10llu  %5.1f%%\n", rows[i].key,
			(unsigned long long)rows[i].value,
			copy ? 100.0 * (double)rows[i].value / (double)copy : 0.0);
	if (i < n)
		fprintf(f, "  ... %zu more\n", n - i);
	free(rows);
}

void report_sample_print(FILE *f, const struct profile *p, int top)
{
	const struct sample_meta *m = p->sample;
	struct counter_map leaves = { 0 }, callers = { 0 };
	struct hist_slot all[CP_NBUCKETS] = { { 0 } };
	count_sum copy = 0; /* exact past 2^64 (lib/count_sum.h) */
	uint64_t q[LEN_NR_QUALITIES] = { 0 };
	char n[COUNT_SUM_LEN];
	size_t i;
	int k;

	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];
		const struct hist_bucket *hb;
		struct counter_map_ent *e;
		char *name;

		if (!s->sample)
			continue;
		copy += s->calls;
		for (k = 0; k < LEN_NR_QUALITIES; k++)
			q[k] += s->sample->quality[k];
		sparse_hist_for_each (&s->buckets, hb) {
			all[hb->b].count += hb->count;
			all[hb->b].bytes += hb->bytes;
		}
		if ((e = counter_map_get(&leaves, s->sample->leaf ?: "?")))
			e->value += s->calls;
		if (asprintf(&name, "%s [%s]", s->symbol ?: "?", s->target ?: "?") < 0)
			continue;
		if ((e = counter_map_get(&callers, name)))
			e->value += s->calls;
		free(name);
	}
	fprintf(f, "sampled profile");
	if (m) {
		uint64_t busy = m->total - m->idle;

		fprintf(f, ": %llu samples", (unsigned long long)m->total);
		if (m->event)
			fprintf(f, " of %s", m->event);
		if (m->hz)
			fprintf(f, " at %u Hz", m->hz);
		fprintf(f,
			", %llu idle\ncopy family: %s samples, %.1f%% of all samples, %.1f%% of "
			"non-idle ones\n",
			(unsigned long long)m->idle, count_sum_digits(copy, n),
			m->total ? 100.0 * (double)copy / (double)m->total : 0.0,
			busy ? 100.0 * (double)copy / (double)busy : 0.0);
		if (m->lost)
			fprintf(f, "lost records: %llu (charged by stack, length unknown)\n",
				(unsigned long long)m->lost);
		if (m->malformed)
			fprintf(f, "malformed input lines skipped: %llu\n",
				(unsigned long long)m->malformed);
	} else {
		fprintf(f, "\ncopy family: %s samples\n", count_sum_digits(copy, n));
	}
	print_split(f, "copy-family samples by leaf", &leaves, copy, top);
	print_split(f, "copy-family samples by caller", &callers, copy, top);
	fprintf(f,
		"\nrecovered lengths: exact %llu (%.1f%%), approximate %llu (%.1f%%), unknown "
		"%llu (%.1f%%)\n",
		(unsigned long long)q[LEN_EXACT],
		copy ? 100.0 * (double)q[LEN_EXACT] / (double)copy : 0.0,
		(unsigned long long)q[LEN_APPROX],
		copy ? 100.0 * (double)q[LEN_APPROX] / (double)copy : 0.0,
		(unsigned long long)q[LEN_UNKNOWN],
		copy ? 100.0 * (double)q[LEN_UNKNOWN] / (double)copy : 0.0);
	if (m && m->lengths_note)
		fprintf(f, "why lengths are unknown: %s\n", m->lengths_note);
	if (q[LEN_EXACT] + q[LEN_APPROX]) {
		fprintf(f, "time-weighted lengths (samples inside copies of each size):\n");
		hist_print_log2(f, all);
	}
	fputc('\n', f);
	counter_map_free(&leaves);
	counter_map_free(&callers);
}
