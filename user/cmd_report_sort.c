// SPDX-License-Identifier: GPL-2.0
/* cmd_report_sort.c: `copyprof report --sort comm,pid,site,caller`: copies grouped by who and where */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd_report_sort.h"
#include "lib/count_sum.h"
#include "lib/counter_map.h"
#include "lib/jsonw.h"
#include "lib/log.h"
#include "lib/num_format.h"

static const char *const key_names[] = { "comm", "pid", "site", "caller" };

int report_sort_parse(const char *text, struct report_sort *s, char *why, size_t len)
{
	char *copy = strdup(text), *tok, *save = NULL;
	size_t k;

	s->nr_keys = 0;
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < REPORT_MAX_KEYS && strcmp(tok, key_names[k]); k++)
			;
		if (k == REPORT_MAX_KEYS || s->nr_keys == REPORT_MAX_KEYS) {
			if (k == REPORT_MAX_KEYS)
				snprintf(why, len,
					 "'%s' is not a key: give comm, pid, site or caller, "
					 "comma-separated",
					 tok);
			else
				snprintf(why, len, "at most %d keys", REPORT_MAX_KEYS);
			free(copy);
			return -EINVAL;
		}
		s->keys[s->nr_keys++] = (enum report_key)k;
	}
	free(copy);
	if (!s->nr_keys) {
		snprintf(why, len, "give comm, pid, site or caller");
		return -EINVAL;
	}
	return 0;
}

/* A row's value of each key, joined by tabs (the table's columns): a counter_map key. */
struct row_key {
	char buf[1024];
	size_t n;
};

/* Appends one column's value. */
static void put(struct row_key *r, const char *v)
{
	if (r->n < sizeof(r->buf))
		r->n += (size_t)snprintf(r->buf + r->n, sizeof(r->buf) - r->n, "%s%s",
					 r->n ? "\t" : "", v);
}

/*
 * Keys of stack @st (NULL: samples no stack accounts for, or a counted site's calls) of site
 * @s: "zeroer", "4711:zeroer" (pid:comm, as perf report --sort pid), "inline_rep_stosb <-
 * read_zero+0x77 [vmlinux]", "read_zero [vmlinux]".
 */
static void key_of(struct row_key *r, const struct report_sort *so, const struct profile_site *s,
		   const struct sample_stack *st)
{
	bool task = st && st->has_task;
	const char *leaf = s->sample ? s->sample->leaf : NULL;
	char v[600];
	size_t i;

	r->n = 0;
	r->buf[0] = '\0';
	for (i = 0; i < so->nr_keys; i++) {
		switch (so->keys[i]) {
		case REPORT_KEY_COMM:
			put(r, task ? st->comm : "[unknown]");
			break;
		case REPORT_KEY_PID:
			if (task)
				snprintf(v, sizeof(v), "%u:%s", st->pid, st->comm);
			put(r, task ? v : "-:[unknown]");
			break;
		case REPORT_KEY_SITE:
			snprintf(v, sizeof(v), "%s%s%s+0x%llx [%s]", leaf ?: "", leaf ? " <- " : "",
				 s->symbol ?: "?", (unsigned long long)s->offset, s->target ?: "?");
			put(r, v);
			break;
		case REPORT_KEY_CALLER:
			snprintf(v, sizeof(v), "%s [%s]", s->symbol ?: "?", s->target ?: "?");
			put(r, v);
			break;
		}
	}
}

static bool wants_task(const struct report_sort *so)
{
	size_t i;

	for (i = 0; i < so->nr_keys; i++)
		if (so->keys[i] == REPORT_KEY_COMM || so->keys[i] == REPORT_KEY_PID)
			return true;
	return false;
}

static int add(struct counter_map *t, const struct row_key *r, uint64_t n)
{
	struct counter_map_ent *e = counter_map_get(t, r->buf);

	if (!e)
		return -ENOMEM;
	/* A row is one count: past 2^64 - 1 it is refused, never wrapped (count_sum.h). */
	if (__builtin_add_overflow(e->value, n, &e->value)) {
		p_err("report --sort: the row %s sums past 2^64 - 1 calls; report without --sort "
		      "prints every site and the exact total",
		      r->buf);
		return -EOVERFLOW;
	}
	return 0;
}

/* Sampled sites: each stack's samples to its row; what no stack holds, to an unknown task. */
static int group_sampled(const struct profile *p, const struct report_sort *so,
			 struct counter_map *t, count_sum *total)
{
	struct row_key r;
	size_t i, j;
	int err = 0;

	for (i = 0; !err && i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];
		uint64_t in_stacks = 0;

		if (!s->sample)
			continue;
		*total += s->calls;
		for (j = 0; !err && j < s->sample->nr_stacks; j++) {
			const struct sample_stack *st = &s->sample->stacks[j];

			in_stacks += st->count;
			key_of(&r, so, s, st);
			err = add(t, &r, st->count);
		}
		if (!err && s->calls > in_stacks) {
			key_of(&r, so, s, NULL);
			err = add(t, &r, s->calls - in_stacks);
		}
	}
	return err;
}

/* Counted sites, by site or caller: calls (an entry site's callers each one row). */
static int group_counted(const struct profile *p, const struct report_sort *so,
			 struct counter_map *t, count_sum *total)
{
	struct row_key r;
	size_t i, j;
	int err = 0;

	for (i = 0; !err && i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];
		struct profile_site as_caller = { 0 };
		struct hist_slot rest[CP_NBUCKETS];

		if (s->sample)
			continue;
		*total += s->calls;
		if (so->keys[0] != REPORT_KEY_CALLER || !s->nr_callers) {
			key_of(&r, so, s, NULL);
			err = add(t, &r, s->calls);
			continue;
		}
		for (j = 0; !err && j < s->nr_callers; j++) {
			as_caller.symbol = s->callers[j].symbol;
			as_caller.target = s->callers[j].target;
			key_of(&r, so, &as_caller, NULL);
			err = add(t, &r, s->callers[j].calls);
		}
		/* Calls no caller took (a full caller table), as the flame graph draws them. */
		as_caller.symbol = "(no caller)";
		as_caller.target = s->target;
		key_of(&r, so, &as_caller, NULL);
		if (!err && profile_site_no_caller(s, rest))
			err = add(t, &r, profile_site_no_caller(s, rest));
	}
	return err;
}

static int row_cmp(const void *x, const void *y)
{
	const struct counter_map_ent *a = x, *b = y;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return strcmp(a->key, b->key);
}

static struct counter_map_ent *sorted(const struct counter_map *t)
{
	struct counter_map_ent *rows = calloc(t->nr ?: 1, sizeof(*rows));
	size_t i, n = 0;

	for (i = 0; rows && i < t->cap; i++)
		if (t->ents[i].key)
			rows[n++] = t->ents[i];
	if (rows && n)
		qsort(rows, n, sizeof(*rows), row_cmp);
	return rows;
}

static void print_table(FILE *f, const struct report_sort *so, const struct counter_map *t,
			count_sum total, const char *unit, int top)
{
	struct counter_map_ent *rows = sorted(t);
	char n1[COUNT_SUM_LEN], n2[NUM_FORMAT_LEN];
	size_t i, k;

	if (!rows)
		return;
	fprintf(f, "copy-family %s by ", unit);
	for (k = 0; k < so->nr_keys; k++)
		fprintf(f, "%s%s", k ? ", " : "", key_names[so->keys[k]]);
	fprintf(f, " (%s %s):\n  %14s  %7s ", count_sum_format(total, n1), unit, unit, "share");
	for (k = 0; k < so->nr_keys; k++)
		fprintf(f, " %s", key_names[so->keys[k]]);
	fputc('\n', f);
	for (i = 0; i < t->nr && (!top || i < (size_t)top); i++) {
		fprintf(f, "  %14s  %5.1f%% ", num_format(rows[i].value, n2),
			total ? 100.0 * (double)rows[i].value / (double)total : 0.0);
		/* The columns: the key's tabs as two spaces. */
		for (k = 0; rows[i].key[k]; k++)
			fputs(rows[i].key[k] == '\t' ? "  " : (char[2]){ rows[i].key[k], 0 }, f);
		fputc('\n', f);
	}
	if (i < t->nr)
		fprintf(f, "  ... %zu more\n", t->nr - i);
	free(rows);
}

static json_object *json_table(const struct report_sort *so, const struct counter_map *t,
			       count_sum total, const char *unit)
{
	struct counter_map_ent *rows = sorted(t);
	json_object *arr = json_object_new_array();
	size_t i, k;

	for (i = 0; rows && i < t->nr; i++) {
		json_object *o = json_object_new_object();
		char *save = NULL, *copy = strdup(rows[i].key), *v;

		for (k = 0, v = copy ? strtok_r(copy, "\t", &save) : NULL; v && k < so->nr_keys;
		     k++, v = strtok_r(NULL, "\t", &save)) {
			char *colon = strchr(v, ':');

			/* pid:comm: the pid a number (null when unknown), the comm beside it. */
			if (so->keys[k] == REPORT_KEY_PID && colon) {
				*colon = '\0';
				json_object_object_add(
					o, "pid",
					*v == '-' ? NULL
						  : json_object_new_uint64(strtoull(v, NULL, 10)));
				jsonw_put_str(o, "comm", colon + 1);
				continue;
			}
			jsonw_put_str(o, key_names[so->keys[k]], v);
		}
		free(copy);
		json_object_object_add(o, unit, json_object_new_uint64(rows[i].value));
		json_object_object_add(
			o, "share",
			json_object_new_double(total ? (double)rows[i].value / (double)total : 0));
		json_object_array_add(arr, o);
	}
	free(rows);
	return arr;
}

int report_sort_print(FILE *f, const struct profile *p, const struct report_sort *so, int top,
		      bool json)
{
	struct counter_map sampled = { 0 }, counted = { 0 };
	count_sum n_sampled = 0, n_counted = 0;
	bool task = wants_task(so);
	size_t i, nr_counted = 0;
	int err;

	for (i = 0; i < p->nr_sites; i++)
		nr_counted += !p->sites[i].sample;
	if (task && nr_counted == p->nr_sites) {
		p_err("--sort %s needs a sampled profile (record --sample): counted sites keep "
		      "calls "
		      "per site, not per process",
		      key_names[so->keys[0]]);
		return -EINVAL;
	}
	err = group_sampled(p, so, &sampled, &n_sampled);
	if (!err && !task)
		err = group_counted(p, so, &counted, &n_counted);
	if (err) {
		if (err != -EOVERFLOW) /* said by add() */
			p_err("report --sort: %s", strerror(-err));
	} else if (json) {
		json_object *root = json_object_new_object(), *keys = json_object_new_array();

		json_object_object_add(root, "format",
				       json_object_new_string("copyprof-report-sort"));
		json_object_object_add(root, "version", json_object_new_int(1));
		for (i = 0; i < so->nr_keys; i++)
			json_object_array_add(keys, json_object_new_string(key_names[so->keys[i]]));
		json_object_object_add(root, "sort", keys);
		json_object_object_add(root, "samples", count_sum_json(n_sampled));
		json_object_object_add(root, "sampled",
				       json_table(so, &sampled, n_sampled, "samples"));
		json_object_object_add(root, "calls", count_sum_json(n_counted));
		json_object_object_add(root, "counted",
				       json_table(so, &counted, n_counted, "calls"));
		jsonw_print(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
		json_object_put(root);
	} else {
		if (sampled.nr)
			print_table(f, so, &sampled, n_sampled, "samples", top);
		if (sampled.nr && counted.nr)
			fputc('\n', f);
		if (counted.nr)
			print_table(f, so, &counted, n_counted, "calls", top);
		if (task && nr_counted)
			fprintf(f,
				"(%zu counted site(s) left out: they keep calls per site, not per "
				"process)\n",
				nr_counted);
	}
	counter_map_free(&sampled);
	counter_map_free(&counted);
	return err;
}
