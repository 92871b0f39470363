// SPDX-License-Identifier: GPL-2.0
/* export_openmetrics.c: per-site length histograms as OpenMetrics text, totals of the recording */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export_openmetrics.h"
#include "lib/kube_cgroup.h"
#include "lib/sparse_hist.h"
#include "sites/copy_family.h"
#include "export_origin.h"
#include "lib/log.h"

#define FAMILY_CALLS OM_FAMILY_CALLS
#define FAMILY_SAMPLED "copyprof_sampled_copy_length_bytes"
#define FAMILY_SAMPLES "copyprof_copy_samples"
#define FAMILY_DURATION "copyprof_recording_duration_seconds"
#define FAMILY_SITE_INFO "copyprof_site_info"
#define FAMILY_CGROUP_CALLS "copyprof_site_cgroup_calls"
#define MAX_LABELS OM_MAX_SITE_LABELS

/*
 * The labels of a site's series. An export's (not @o->live) keep on every sample only what
 * tells series apart and what a fleet's queries sum by: the site id, the CPU model and the
 * host; what the site is (symbol, offset, target, mechanism, label, leaf, family) and the
 * kernel are said once, in its copyprof_site_info (@info), which joins on site and host
 * (docs/export.md#labels). The agent's own (@o->live) carry what the site is on every series
 * (estimate --prometheus sums by it, and Prometheus joins no native histogram) and leave the
 * site id, the kernel and the host to copyprof_agent_info (docs/fleet.md#series).
 */
static size_t site_labels(const struct om_opts *o, const struct profile *p,
			  const struct profile_site *s, bool info, struct mw_label *l, char *id,
			  char *off)
{
	bool what = o->live || info;
	struct export_origin g;
	size_t n = 0;

	export_origin_of(p, s->group, &g);
	sprintf(id, "%u", s->id);
	sprintf(off, "0x%" PRIx64, s->offset);
	if (!o->live)
		l[n++] = (struct mw_label){ "site", id };
	if (what) {
		l[n++] = (struct mw_label){ "symbol", s->symbol };
		l[n++] = (struct mw_label){ "offset", off };
		l[n++] = (struct mw_label){ "target", s->target };
		l[n++] = (struct mw_label){ "mechanism", s->mechanism };
		l[n++] = (struct mw_label){ "label", s->label };
		if (s->sample)
			l[n++] = (struct mw_label){ "leaf", s->sample->leaf };
		/* The same vocabulary everywhere: the agent, the exports and the recording rules. */
		l[n++] = (struct mw_label){ "family", copy_family_name(s->family) };
	}
	if (info)
		l[n++] = (struct mw_label){ "kernel", g.kernel };
	/* On every series: a fleet's queries sum by it (Prometheus 2.42 joins no histogram). */
	if (!info)
		l[n++] = (struct mw_label){ "cpu_model", g.cpu_model };
	if (!o->live)
		l[n++] = (struct mw_label){ "host", g.host };
	return n;
}

size_t om_live_site_labels(const struct profile *p, const struct profile_site *s,
			   struct mw_label *l, char *id, char *off)
{
	const struct om_opts o = { .live = true };

	return site_labels(&o, p, s, false, l, id, off);
}

static void put_site(struct metric_writer *w, const struct om_opts *o, const struct profile *p,
		     const struct profile_site *s, bool bytes)
{
	struct mw_label l[MAX_LABELS];
	struct hist_slot buckets[CP_NBUCKETS];
	struct mw_hist h = { .buckets = buckets,
			     .bytes = bytes,
			     .sparse = o->sparse,
			     .coarse = o->live && !o->sparse };
	char id[16], off[24];
	size_t n = site_labels(o, p, s, false, l, id, off);

	sparse_hist_dense(&s->buckets, buckets);
	mw_histogram(w, l, n, &h);
}

static const char *calls_help(const struct om_opts *o, bool sampled)
{
	if (sampled)
		return o->live ? "Samples (agent --sample, mechanism sample) inside copies of each "
				 "length in bytes where the length was recovered: time-weighted, "
				 "not calls; live counters since the agent started."
			       : "Samples (record --sample, import-perf) inside copies of each "
				 "length "
				 "in bytes: time-weighted, not calls; totals over the recording, "
				 "not "
				 "live.";
	return o->live ? "Calls of a copy site by length in bytes, live counters since the agent "
			 "started; le is a copyprof bucket edge minus 1 (powers of two up to 64 "
			 "KiB, and 1536), so every count is exact; longer copies are in +Inf."
		       : "Calls of a copy site by length in bytes, totals over the recording (not "
			 "live); le is a copyprof bucket edge minus 1, so every count is exact.";
}

static void put_histograms(struct metric_writer *w, const struct om_opts *o,
			   const struct profile *p, bool sampled)
{
	bool any = false;
	size_t i;

	for (i = 0; i < p->nr_sites; i++)
		any |= export_site_is_sampled(&p->sites[i]) == sampled;
	if (!any)
		return;
	mw_family(w, sampled ? FAMILY_SAMPLED : FAMILY_CALLS, MW_HISTOGRAM, "bytes",
		  calls_help(o, sampled));
	for (i = 0; i < p->nr_sites; i++)
		if (export_site_is_sampled(&p->sites[i]) == sampled)
			put_site(w, o, p, &p->sites[i], false);
	/*
	 * The byte-weighted twin: each copied byte observed at its copy's length, so a bound's
	 * bucket is the bytes of the calls below it. With the calls' histogram it gives each
	 * range's mean length, which estimate --prometheus needs. No _sum (it would be the sum
	 * of squared lengths, which the kernel does not count), hence no _count either.
	 */
	if (!sampled && o->live) {
		mw_family(w, OM_FAMILY_BYTES, MW_HISTOGRAM, "bytes",
			  "Bytes copied at a copy site by the length of their copy: le=L counts "
			  "the bytes of calls of length <= L; live counters since the agent "
			  "started.");
		for (i = 0; i < p->nr_sites; i++)
			if (!export_site_is_sampled(&p->sites[i]))
				put_site(w, o, p, &p->sites[i], true);
	}
	if (!sampled)
		return;
	/*
	 * A gauge, not a counter: a counter's sample is named <family>_total, which the
	 * Prometheus text format (textfile collectors, promtool) takes for another family.
	 */
	mw_family(w, FAMILY_SAMPLES, MW_GAUGE, NULL,
		  o->live ? "Samples of a sampled copy site, with a known length or not, since the "
			    "agent started: samples, not calls (it only grows)."
			  : "Samples of a sampled copy site, with a known length or not, over the "
			    "whole recording.");
	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];
		struct mw_label l[MAX_LABELS];
		char id[16], off[24];

		if (export_site_is_sampled(s))
			mw_count(w, l, site_labels(o, p, s, false, l, id, off), s->calls);
	}
}

/*
 * What each site is, once (an export's; the agent's series carry it): a gauge of 1 per site,
 * as copyprof_agent_info is, which a query joins to the histograms on site and host.
 */
static void put_site_info(struct metric_writer *w, const struct om_opts *o, const struct profile *p)
{
	size_t i;

	if (o->live || !p->nr_sites)
		return;
	mw_family(w, FAMILY_SITE_INFO, MW_GAUGE, NULL,
		  "Always 1: what a site is (symbol, offset, target, mechanism, label, leaf, "
		  "family) and the kernel it was recorded on; join it on site and host.");
	for (i = 0; i < p->nr_sites; i++) {
		struct mw_label l[MAX_LABELS];
		char id[16], off[24];

		mw_count(w, l, site_labels(o, p, &p->sites[i], true, l, id, off), 1);
	}
}

/* One cgroup's calls at site @s: the site's labels, then the cgroup's and its pod's. */
static void put_cgroup(struct metric_writer *w, const struct om_opts *o, const struct profile *p,
		       const struct profile_site *s, const char *cgroup, uint64_t calls)
{
	struct mw_label l[MAX_LABELS];
	struct kube_cgroup k = { 0 };
	char id[16], off[24];
	size_t n = site_labels(o, p, s, false, l, id, off);

	if (strcmp(cgroup, "other"))
		kube_cgroup_parse(cgroup, &k);
	l[n++] = (struct mw_label){ "cgroup", cgroup };
	l[n++] = (struct mw_label){ "pod_uid", k.pod_uid };
	l[n++] = (struct mw_label){ "qos", k.qos };
	l[n++] = (struct mw_label){ "container_id", k.container_id };
	mw_count(w, l, n, calls);
}

/*
 * Calls by cgroup (docs/fleet.md#containers): a family of its own, not a label on the
 * histograms, so that attribution costs at most CP_CGROUP_SLOTS + 1 series a site, not as many
 * whole histograms. A gauge of a count, as copyprof_copy_samples (it only grows).
 */
static void put_cgroups(struct metric_writer *w, const struct om_opts *o, const struct profile *p)
{
	char gone[32];
	size_t i;
	uint32_t c;
	bool any = false;

	for (i = 0; i < p->nr_sites; i++)
		any |= p->sites[i].cgroups.nr || p->sites[i].cgroups.other;
	if (!any)
		return;
	mw_family(w, FAMILY_CGROUP_CALLS, MW_GAUGE, NULL,
		  o->live ? "Calls of a counted site by the caller's cgroup v2 (path from the "
			    "cgroup2 root): the 8 with most calls, the rest as cgroup other; "
			    "pod_uid, qos and container_id where the path is the kubelet's; "
			    "live counts since the agent started (they only grow)."
			  : "Calls of a counted site by the caller's cgroup v2 (path from the "
			    "cgroup2 root): the 8 with most calls, the rest as cgroup other; "
			    "pod_uid, qos and container_id where the path is the kubelet's.");
	for (i = 0; i < p->nr_sites; i++) {
		const struct profile_site *s = &p->sites[i];

		for (c = 0; c < s->cgroups.nr; c++) {
			snprintf(gone, sizeof(gone), "id:%llu",
				 (unsigned long long)s->cgroups.v[c].id);
			put_cgroup(w, o, p, s, s->cgroups.v[c].path ?: gone, s->cgroups.v[c].calls);
		}
		if (s->cgroups.other)
			put_cgroup(w, o, p, s, "other", s->cgroups.other);
	}
}

/* The recorded time per group, so that totals can be turned into rates. */
static void put_durations(struct metric_writer *w, const struct profile *p)
{
	struct export_origin o;
	char group[16];
	uint32_t g;

	mw_family(w, FAMILY_DURATION, MW_GAUGE, "seconds",
		  "Seconds recorded, summed over a group's recordings (host-seconds).");
	for (g = 0; g < export_nr_groups(p); g++) {
		struct mw_label l[4];

		export_origin_of(p, g, &o);
		snprintf(group, sizeof(group), "%u", g);
		l[0] = (struct mw_label){ "group", p->nr_groups ? group : NULL };
		l[1] = (struct mw_label){ "kernel", o.kernel };
		l[2] = (struct mw_label){ "cpu_model", o.cpu_model };
		l[3] = (struct mw_label){ "host", o.host };
		mw_gauge(w, l, 4, o.duration_s);
	}
}

void export_metrics_put(struct metric_writer *w, const struct profile *p, const struct om_opts *o)
{
	put_histograms(w, o, p, false);
	put_histograms(w, o, p, true);
	put_site_info(w, o, p);
	put_cgroups(w, o, p);
	put_durations(w, p);
}

int export_openmetrics(const struct profile *p, FILE *f, const struct om_opts *o,
		       struct om_stats *st)
{
	struct metric_writer *w;
	char ts[24];
	int64_t start;
	int err;

	memset(st, 0, sizeof(*st));
	if (o->timestamp) {
		if (!export_start_time(p, &start)) {
			p_err("--timestamp: the profile has no start time (meta.start)");
			return -EINVAL;
		}
		snprintf(ts, sizeof(ts), "%" PRId64, start);
	}
	w = mw_text_new(f, o->timestamp ? ts : NULL);
	if (!w)
		return -ENOMEM;
	export_metrics_put(w, p, o);
	st->series = w->st.series;
	st->lines = w->st.lines;
	err = mw_close(w);
	return err == -ENOMEM ? -ENOMEM : err ? -EIO : 0;
}
