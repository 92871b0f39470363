// SPDX-License-Identifier: GPL-2.0
/* record_sample.c: sample every CPU, attribute copy-family samples, recover lengths, write */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include "kernel/cgroup.h"
#include "kernel/feature.h"
#include "kernel/ksyms.h"
#include "kernel/ktext.h"
#include "lib/hist_print.h"
#include "lib/log.h"
#include "record_run.h"
#include "record_dispatch.h"
#include "record_sample.h"
#include "lib/counter_map.h"
#include "profile/sample_agg.h"
#include "sites/len_rules.h"
#include "sample_session.h"
#include "sample_ustacks.h"

#define STACKMAP_IDS 16384 /* ids stay below the stack map's size */

/* One kernel stack, symbolised once per stack id. */
struct sym_stack {
	size_t nr;
	uint64_t ips[SAMPLE_STACK_DEPTH];
	struct sample_frame frames[SAMPLE_STACK_DEPTH];
};

struct sample_recorder {
	const struct record_sample_args *a;
	struct sample_opts o; /* the session's filters, event and ranges */
	struct sample_session *ss;
	struct cgroup_set cg; /* --cgroup, opened: their tasks and below */
	struct ksyms *ks;
	struct ktext *kt;     /* NULL: no kernel text, so no length rules */
	struct len_rules *lr; /* the rules worked out from kt; NULL without it */
	struct sample_agg *agg;
	struct sym_stack *stacks[STACKMAP_IDS];
	struct sample_ustacks *ustacks; /* --user-stacks: the user frames; NULL without */
	struct counter_map records;	/* "kstack:ustack:tgid" -> ring-buffer records seen */
	struct sample_frame both[2 * SAMPLE_STACK_DEPTH]; /* scratch: kernel, then user frames */
	uint64_t by_rule[LR_NR], not_copy, outside;
	int err;
	/* record -i: this interval's copy samples and recovered lengths */
	struct hist_slot iv[CP_NBUCKETS];
	uint64_t iv_quality[LEN_NR_QUALITIES];
};

static void symbolise(const struct ksyms *ks, uint64_t ip, struct sample_frame *f)
{
	uint64_t off, size;
	const struct ksym *s = ksyms_at(ks, ip, &off, &size);

	*f = (struct sample_frame){ .module = "vmlinux" };
	if (!s)
		return;
	f->sym = s->name;
	f->off = off;
	f->module = s->module ?: "vmlinux";
}

static struct sym_stack *stack_of(struct sample_recorder *r, int32_t id)
{
	struct sym_stack *st;
	int n;
	size_t i;

	if (id < 0 || id >= STACKMAP_IDS)
		return NULL;
	if (r->stacks[id])
		return r->stacks[id];
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	n = sample_session_stack(r->ss, id, false, st->ips, SAMPLE_STACK_DEPTH);
	if (n <= 0) {
		free(st);
		return NULL;
	}
	st->nr = (size_t)n;
	for (i = 0; i < st->nr; i++)
		symbolise(r->ks, st->ips[i], &st->frames[i]);
	r->stacks[id] = st;
	return st;
}

/* With a scope (-p PRESET sampled instead), a stack must go through one of its functions. */
static bool in_scope(const struct record_sample_args *a, const struct sample_frame *frames,
		     size_t nr)
{
	size_t i, k;

	if (!a->nr_keep)
		return true;
	for (i = 0; i < nr && !frames[i].user; i++)
		for (k = 0; frames[i].sym && k < a->nr_keep; k++)
			if (!strcmp(frames[i].sym, a->keep[k]))
				return true;
	return false;
}

static int add_sample(struct sample_recorder *r, const struct sample_frame *frames, size_t nr,
		      const uint64_t *ips, const uint8_t *insn, const uint64_t *gprs,
		      const struct sample_task *task, uint64_t weight)
{
	struct sample_attr at;
	int width = 0, q, rule;
	uint64_t len = 0;
	bool movs = false;

	if (insn && !flow_is_rep_string(insn, SAMPLE_INSN_BYTES, ips[0], &width, &movs))
		width = 0;
	if (!sample_attribute(frames, nr, width, movs, &at)) {
		r->not_copy += weight;
		return 0;
	}
	if (!in_scope(r->a, frames, nr)) {
		r->outside += weight;
		return 0;
	}
	q = len_rules_recover(r->lr, at.conv, ips[0], nr > 1 ? ips[1] : 0, gprs, LEN_RULES_ALL_REGS,
			      &len, &rule, NULL);
	r->by_rule[rule] += weight;
	r->iv_quality[q] += weight;
	if (q != LEN_UNKNOWN) {
		r->iv[cp_bucket_of(len)].count += weight;
		r->iv[cp_bucket_of(len)].bytes += len * weight;
	}
	return sample_agg_add(r->agg, &at, frames, nr, task, q, len, weight);
}

/*
 * @nr kernel frames, then (--user-stacks) user stack @uid of @tgid: the frames of the whole
 * stack, leaf first, in r->both; returns how many.
 */
static size_t with_user(struct sample_recorder *r, const struct sample_frame *kframes, size_t nr,
			uint32_t tgid, int32_t uid)
{
	const struct sample_frame *u = NULL;
	size_t nu = 0;

	if (r->ustacks)
		u = sample_ustacks_get(r->ustacks, r->ss, tgid, uid, &nu);
	memcpy(r->both, kframes, nr * sizeof(*kframes));
	if (u)
		memcpy(r->both + nr, u, nu * sizeof(*u));
	return nr + (u ? nu : 0);
}

/* The ring-buffer records seen per (kernel stack, user stack, process). */
static struct counter_map_ent *records_of(struct sample_recorder *r, int32_t kstack, int32_t ustack,
					  uint32_t tgid)
{
	char key[48];

	snprintf(key, sizeof(key), "%d:%d:%u", kstack, ustack < 0 ? -1 : ustack, tgid);
	return counter_map_get(&r->records, key);
}

static int on_sample(void *ctx, const struct sample_rec *rec)
{
	struct sample_recorder *r = ctx;
	struct sym_stack *st = stack_of(r, rec->stackid);
	uint64_t gprs[SAMPLE_NR_GPRS], ip = rec->ip;
	char comm[CP_COMM_LEN + 1] = "";
	struct sample_task task = { rec->tgid, comm };
	struct counter_map_ent *seen;
	struct sample_frame leaf;
	size_t nr;
	int err, i;

	memcpy(comm, rec->comm, CP_COMM_LEN);
	if (rec->new_task && r->ustacks)
		sample_ustacks_watch(r->ustacks, rec->tgid);
	for (i = 0; i < SAMPLE_NR_GPRS; i++)
		gprs[i] = rec->gprs[i];
	if (st && st->ips[0] == ip) {
		if ((seen = records_of(r, rec->stackid, rec->ustackid, rec->tgid)))
			seen->value++;
		nr = with_user(r, st->frames, st->nr, rec->tgid, rec->ustackid);
		err = add_sample(r, r->both, nr, st->ips, rec->insn, gprs, &task, 1);
	} else {
		/* No stack: the leaf alone, charged to an unknown caller (no user frames either). */
		symbolise(r->ks, ip, &leaf);
		err = add_sample(r, &leaf, 1, &ip, rec->insn, gprs, &task, 1);
	}
	if (err)
		r->err = err;
	return err;
}

/*
 * Samples the kernel counted per (stack, user stack, process) but whose record was lost:
 * charged to their stack and process, length unknown.
 */
static void on_stack_count(void *ctx, const struct sample_stack_key *k,
			   const struct sample_stack_val *v)
{
	struct sample_recorder *r = ctx;
	struct sym_stack *st = stack_of(r, k->kstack);
	struct counter_map_ent *seen = records_of(r, k->kstack, k->ustack, k->tgid);
	char comm[CP_COMM_LEN + 1] = "";
	struct sample_task task = { k->tgid, comm };
	uint8_t insn[SAMPLE_INSN_BYTES];
	size_t nr;

	if (!st || !seen || v->count <= seen->value)
		return;
	memcpy(comm, v->comm, CP_COMM_LEN);
	if (!r->kt || ktext_read(r->kt, st->ips[0], insn, sizeof(insn)))
		memset(insn, 0, sizeof(insn));
	nr = with_user(r, st->frames, st->nr, k->tgid, k->ustack);
	add_sample(r, r->both, nr, st->ips, insn, NULL, &task, v->count - seen->value);
	seen->value = v->count;
}

static int range_cmp(const void *a, const void *b)
{
	const struct sample_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->kind - (int)y->kind; /* LEAF before SKIP at one address */
}

/* Address ranges of the copy-family routines (and of the excluded ones) from kallsyms. */
static struct sample_range *build_ranges(const struct ksyms *ks, size_t *nr_out)
{
	struct sample_range *r = calloc(SAMPLE_MAX_RANGES, sizeof(*r));
	size_t i, n = 0, out = 0;

	if (!r)
		return NULL;
	for (i = 0; i < ks->nr && n < SAMPLE_MAX_RANGES; i++) {
		const struct ksym *s = &ks->syms[i];
		uint64_t size;
		__u32 kind;

		if (s->type != 't' && s->type != 'T' && s->type != 'W')
			continue;
		if (copy_family_lookup(s->name))
			kind = SAMPLE_RANGE_LEAF;
		else if (copy_family_excluded(s->name))
			kind = SAMPLE_RANGE_SKIP;
		else
			continue;
		size = ksyms_size(ks, s);
		if (size && size < (1 << 20))
			r[n++] = (struct sample_range){ .start = s->addr,
							.end = s->addr + size,
							.kind = kind };
	}
	qsort(r, n, sizeof(*r), range_cmp);
	/* Aliases share a start: keep the first (a leaf wins); never let ranges overlap. */
	for (i = 0; i < n; i++) {
		if (out && r[i].start < r[out - 1].end)
			continue;
		r[out++] = r[i];
	}
	*nr_out = out;
	return r;
}

/* Every --leaf must name a kernel function; all missing ones are listed. */
static int check_leaves(const struct ksyms *ks)
{
	const char *const *names;
	size_t i, n = copy_family_extra_leaves(&names);
	int bad = 0;

	for (i = 0; i < n; i++) {
		if (ksyms_find(ks, names[i], "*"))
			continue;
		p_err("--leaf %s: no such kernel symbol in /proc/kallsyms", names[i]);
		bad++;
	}
	return bad ? -ENOENT : 0;
}

static int sample_prepare(void *rec, struct profile *p)
{
	struct sample_recorder *r = rec;

	if (feature_check_perf_event() || feature_check_bpf())
		return -EPERM;
	if (cgroup_set_open(r->a->cgroups, (uint32_t)r->a->nr_cgroups, &r->cg))
		return -EINVAL;
	r->o.cgroups = &r->cg;
	r->ks = ksyms_load(NULL);
	if (!r->ks)
		return -ENOENT;
	if (r->ks->restricted) {
		p_err("/proc/kallsyms shows no addresses (kernel.kptr_restrict): run as root");
		return -EPERM;
	}
	if (check_leaves(r->ks))
		return -ENOENT;
	r->o.ranges = build_ranges(r->ks, &r->o.nr_ranges);
	if (!r->o.ranges)
		return -ENOMEM;
	r->agg = sample_agg_new();
	if (!r->agg)
		return -ENOMEM;
	if (r->a->user_stacks && !(r->ustacks = sample_ustacks_new()))
		return -ENOMEM;
	r->kt = ktext_open(r->ks, true);
	if (!r->kt)
		p_warn("cannot read kernel text: sampled lengths will all be unknown (-v says "
		       "why)");
	else
		p_debug("kernel text from %s", ktext_source(r->kt));
	if (r->kt && !(r->lr = len_rules_new(ktext_provider(r->kt))))
		return -ENOMEM;
	return 0;
}

static int sample_open(void *rec, uint32_t tgid)
{
	struct sample_recorder *r = rec;

	r->o.tgid = tgid;
	r->o.inherit = r->a->run.command && !r->a->run.no_inherit;
	r->ss = sample_session_open(&r->o, on_sample, r);
	return r->ss ? 0 : -EIO;
}

static void sample_announce(void *rec, char *buf, size_t size)
{
	struct sample_recorder *r = rec;

	snprintf(buf, size, "sampling %s at %u Hz on every CPU", sample_session_event(r->ss),
		 r->a->hz);
}

/* Drains the ring buffer for up to 100 ms; a failure to poll, or to keep a sample, ends it. */
static int sample_wait(void *rec)
{
	struct sample_recorder *r = rec;
	int n = sample_session_poll(r->ss, r->a->poll_ms ? r->a->poll_ms : 100);

	if (n < 0 && errno != EINTR)
		return n;
	return r->err;
}

/* "stacks through f1, f2 (and their callees)", for the meta; NULL without a scope. */
static char *scope_text(const struct record_sample_args *a)
{
	size_t i, len = 64;
	char *s;

	if (!a->nr_keep)
		return NULL;
	for (i = 0; i < a->nr_keep; i++)
		len += strlen(a->keep[i]) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	strcpy(s, "stacks through ");
	for (i = 0; i < a->nr_keep; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, a->keep[i]);
	}
	strcat(s, " (copies they make or their callees make)");
	return s;
}

/* record -i: the copy samples of this interval and the lengths recovered for them. */
static int sample_interval(void *rec, const struct profile *final, FILE *f)
{
	struct sample_recorder *r = rec;
	uint64_t all =
		r->iv_quality[LEN_EXACT] + r->iv_quality[LEN_APPROX] + r->iv_quality[LEN_UNKNOWN];

	fprintf(f,
		"copy samples %llu: length exact %llu, approximate %llu, unknown %llu "
		"(histogram: samples, not calls)\n",
		(unsigned long long)all, (unsigned long long)r->iv_quality[LEN_EXACT],
		(unsigned long long)r->iv_quality[LEN_APPROX],
		(unsigned long long)r->iv_quality[LEN_UNKNOWN]);
	hist_print_log2(f, r->iv);
	memset(r->iv, 0, sizeof(r->iv));
	memset(r->iv_quality, 0, sizeof(r->iv_quality));
	return 0;
}

static int sample_finish(void *rec, struct profile *p)
{
	struct sample_recorder *r = rec;
	uint64_t cnt[SAMPLE_CNT_NR];
	struct sample_meta *m = calloc(1, sizeof(*m));

	sample_session_stop(r->ss);
	if (!m || sample_session_counters(r->ss, cnt))
		return -EIO;
	sample_session_stack_counts(r->ss, on_stack_count, r);
	p->sample = m;
	m->event = strdup(sample_session_event(r->ss));
	m->hz = r->a->hz;
	m->total = cnt[SAMPLE_CNT_TOTAL];
	m->idle = cnt[SAMPLE_CNT_IDLE];
	m->lost = cnt[SAMPLE_CNT_LOST];
	m->fallback = r->a->fallback ? strdup(r->a->fallback) : NULL;
	m->scope = scope_text(r->a);
	m->outside = r->outside;
	if (cnt[SAMPLE_CNT_LOST])
		p_warn("%llu copy samples did not fit the ring buffer: charged by stack, length "
		       "unknown",
		       (unsigned long long)cnt[SAMPLE_CNT_LOST]);
	if (r->err || sample_agg_to_profile(r->agg, p))
		return -ENOMEM;
	sample_session_destroy(r->ss);
	r->ss = NULL;
	record_dispatch_fill(p);
	return 0;
}

int record_sample_snapshot(void *rec, struct profile *p)
{
	struct sample_recorder *r = rec;
	struct sample_meta *m = p->sample;
	uint64_t cnt[SAMPLE_CNT_NR];

	if (!r->ss || sample_session_counters(r->ss, cnt))
		return -EIO;
	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return -ENOMEM;
		p->sample = m;
		m->event = strdup(sample_session_event(r->ss));
		m->fallback = r->a->fallback ? strdup(r->a->fallback) : NULL;
		m->scope = scope_text(r->a);
	}
	m->hz = r->a->hz;
	m->total = cnt[SAMPLE_CNT_TOTAL];
	m->idle = cnt[SAMPLE_CNT_IDLE];
	m->lost = cnt[SAMPLE_CNT_LOST];
	m->outside = r->outside;
	if (r->err)
		return r->err;
	return sample_agg_to_profile(r->agg, p);
}

uint64_t record_sample_copies(const void *rec)
{
	const struct sample_recorder *r = rec;

	return r->agg ? sample_agg_samples(r->agg) : 0;
}

static void sample_print(void *rec, const struct profile *p, FILE *f)
{
	const struct sample_recorder *r = rec;
	const struct sample_meta *m = p->sample;
	uint64_t copy = sample_agg_samples(r->agg), busy = m->total - m->idle;
	size_t i, shown = 0;

	fprintf(f,
		"samples: %llu (%s at %u Hz, %.2f s), %llu idle; copy family %llu: %.1f%% of all, "
		"%.1f%% of non-idle\n",
		(unsigned long long)m->total, m->event, m->hz, p->meta.duration_s,
		(unsigned long long)m->idle, (unsigned long long)copy,
		m->total ? 100.0 * copy / m->total : 0.0, busy ? 100.0 * copy / busy : 0.0);
	for (i = 0; i < p->nr_sites && shown < 10; i++) {
		const struct profile_site *s = &p->sites[i];

		if (!s->sample)
			continue; /* a mixed recording's counted sites print themselves */
		shown++;
		fprintf(f,
			"  %-22s %s+0x%llx [%s]: %llu samples (%.1f%%), length exact %llu, "
			"approximate %llu, unknown %llu\n",
			s->sample->leaf, s->symbol, (unsigned long long)s->offset, s->target,
			(unsigned long long)s->calls, copy ? 100.0 * s->calls / copy : 0.0,
			(unsigned long long)s->sample->quality[LEN_EXACT],
			(unsigned long long)s->sample->quality[LEN_APPROX],
			(unsigned long long)s->sample->quality[LEN_UNKNOWN]);
	}
	if (i < p->nr_sites)
		fprintf(f, "  ... more sites (copyprof report)\n");
	if (r->a->nr_keep)
		fprintf(f,
			"  %llu copy samples outside the plan's functions left out (--all keeps "
			"them)\n",
			(unsigned long long)r->outside);
	if (r->a->fallback)
		fprintf(f, "  NOTE: %s\n", r->a->fallback);
	for (i = 1; i < LR_NR; i++)
		if (r->by_rule[i])
			p_debug("length rule %s: %llu samples", len_recovery_rule_name((int)i),
				(unsigned long long)r->by_rule[i]);
}

static void sample_close(void *rec)
{
	struct sample_recorder *r = rec;
	size_t i;

	sample_session_destroy(r->ss);
	r->ss = NULL;
	cgroup_set_close(&r->cg);
	ktext_close(r->kt);
	sample_agg_free(r->agg);
	for (i = 0; i < STACKMAP_IDS; i++)
		free(r->stacks[i]);
	sample_ustacks_free(r->ustacks);
	r->ustacks = NULL;
	counter_map_free(&r->records);
	len_rules_free(r->lr);
	ksyms_free(r->ks);
	free((void *)r->o.ranges);
}

const struct recorder_ops record_sample_ops = {
	.prepare = sample_prepare,
	.open = sample_open,
	.announce = sample_announce,
	.wait = sample_wait,
	.finish = sample_finish,
	.print = sample_print,
	.close = sample_close,
	.interval = sample_interval,
};

void *record_sample_new(const struct record_sample_args *a)
{
	struct sample_recorder *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->a = a;
	r->o = (struct sample_opts){
		.comm = a->run.comm, .hz = a->hz, .event = a->event, .user_stacks = a->user_stacks
	};
	return r;
}

int record_sample_run(const struct record_sample_args *a)
{
	struct sample_recorder *r = record_sample_new(a);
	int status;

	if (!r)
		return EXIT_RUNTIME;
	status = record_run(&a->run, &record_sample_ops, r);
	free(r);
	return status;
}
