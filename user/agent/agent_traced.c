// SPDX-License-Identifier: GPL-2.0
/* agent_traced.c: hits per site and window, priced at each mechanism's trap measured on this host */
#include <stdlib.h>
#include "agent_traced.h"
#include "lib/log.h"

double agent_traced_hit_ns(const struct agent_traced *tr, enum probe_mech m)
{
	const struct trap_cost *c = &tr->cost[m];

	return c->measured ? c->hit_ns + c->bpf_ns : 0;
}

void agent_traced_measure(struct agent_traced *tr, const struct agent_sites *t, bool bpf_apart)
{
	char origin[320];
	size_t i;
	int m;

	for (m = 0; m < TRAP_COST_NR_MECHS; m++)
		tr->in_use[m] = false;
	for (i = 0; i < t->nr; i++)
		if (t->v[i].state == AGENT_SITE_ATTACHED)
			tr->in_use[t->v[i].ps.mech] = true;
	for (m = 0; m < TRAP_COST_NR_MECHS; m++) {
		struct trap_cost *c = &tr->cost[m];

		/* Known in this run already: a trap costs the same all boot long. */
		if (!tr->in_use[m] || c->measured)
			continue;
		trap_cost_get((enum probe_mech)m, bpf_apart, c);
		trap_cost_origin(c, origin, sizeof(origin));
		if (c->measured)
			p_info("a %s hit costs the traced thread %.2f us here (trap %.2f us + BPF "
			       "%.2f us%s; %s): charged to --max-overhead with each site's hits",
			       probe_mech_name((enum probe_mech)m), (c->hit_ns + c->bpf_ns) / 1e3,
			       c->hit_ns / 1e3, c->bpf_ns / 1e3,
			       c->bpf_counted ? "" : ", not counted apart", origin);
		else
			p_warn("the cost of a %s hit is not known (%s): its sites' cost to the "
			       "traced "
			       "processes is not charged to --max-overhead",
			       probe_mech_name((enum probe_mech)m), c->why);
	}
}

/* Site @s's calls counted so far, all CPUs; false when the map cannot say. */
static bool site_hits(struct agent_sites *t, const struct agent_site *s, uint64_t *hits)
{
	int n = hist_session_nr_cpus(t->hs), cpu;
	uint64_t *v = calloc((size_t)n, sizeof(*v));
	bool ok = v && !hist_session_site_calls(t->hs, (uint32_t)s->slot, v);

	*hits = 0;
	for (cpu = 0; ok && cpu < n; cpu++)
		*hits += v[cpu];
	free(v);
	return ok;
}

double agent_traced_window(struct agent_traced *tr, struct agent_sites *t, uint64_t runs,
			   bool runs_known)
{
	uint64_t counted = 0, by_mech[TRAP_COST_NR_MECHS] = { 0 };
	double ns = 0;
	size_t i;
	int m, busiest = 0;

	for (i = 0; i < t->nr; i++) {
		struct agent_site *s = &t->v[i];
		uint64_t hits;

		s->window_hits = 0;
		s->window_cost_ns = 0;
		if (s->slot < 0 || !site_hits(t, s, &hits))
			continue;
		s->window_hits = hits - s->hits_mark;
		s->hits_mark = hits;
		s->window_cost_ns = (double)s->window_hits * agent_traced_hit_ns(tr, s->ps.mech);
		s->cost_ns_total += s->window_cost_ns;
		by_mech[s->ps.mech] += s->window_hits;
		counted += s->window_hits;
		ns += s->window_cost_ns;
	}
	for (m = 1; m < TRAP_COST_NR_MECHS; m++)
		if (by_mech[m] > by_mech[busiest])
			busiest = m;
	/* Every run of a program is a hit; those no site counted were filtered out in BPF. */
	if (runs_known && tr->hits_runs && runs - tr->hits_runs > counted) {
		uint64_t other = runs - tr->hits_runs - counted;

		tr->unattributed += other;
		ns += (double)other * agent_traced_hit_ns(tr, (enum probe_mech)busiest);
	}
	tr->hits_runs = runs_known ? runs : 0;
	tr->last_ns = ns;
	tr->total_ns += ns;
	return ns;
}
