// SPDX-License-Identifier: GPL-2.0
/* hist_session.c: drives the hist.bpf.c skeleton, as libbpf-bootstrap's tools do */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel/cgroup.h"
#include "kernel/cgroup_path.h"
#include "kernel/feature.h"
#include "kernel/uprobe_multi.h"
#include "hist.skel.h"
#include "footprint_collect.h"
#include "hist_session.h"
#include "lib/fnv.h"
#include "lib/log.h"
#include "lib/regs.h"
#include "task_follow.h"

struct hist_session {
	struct hist_bpf *skel;
	struct bpf_link **links;     /* one per site (uprobe, kprobe) */
	struct bpf_link **cpu_links; /* nr_sites x nr_cpus (hardware breakpoints) */
	int *umulti;		     /* one uprobe_multi link fd per site, or -1 */
	bool has_umulti;	     /* cp_uprobe_multi is loaded */
	bool by_cgroup;		     /* cgroup_calls counts (hist_filter.by_cgroup) */
	struct task_follow follow;   /* the command's descendants */
	struct bpf_link **share;     /* one per CPU: the copy-time share sampler, or NULL */
	bool share_loaded;	     /* cp_copy_share is loaded (hist_filter.copy_share) */
	uint32_t nr_sites;
	int nr_cpus;
};

struct hist_session *hist_session_open(const struct hist_filter *filter, uint32_t nr_sites,
				       unsigned int callers)
{
	struct hist_session *hs;
	int err;

	if (!nr_sites || nr_sites > CP_MAX_SITES) {
		p_err("%u sites: copyprof records 1 to %d sites at once", nr_sites, CP_MAX_SITES);
		return NULL;
	}
	hs = calloc(1, sizeof(*hs));
	if (!hs || !(hs->links = calloc(nr_sites, sizeof(*hs->links))))
		goto nomem;
	hs->nr_sites = nr_sites;
	hs->umulti = malloc(nr_sites * sizeof(*hs->umulti));
	if (!hs->umulti)
		goto nomem;
	memset(hs->umulti, 0xff, nr_sites * sizeof(*hs->umulti));
	hs->nr_cpus = libbpf_num_possible_cpus();
	hs->cpu_links = calloc((size_t)nr_sites * hs->nr_cpus, sizeof(*hs->cpu_links));
	if (!hs->cpu_links)
		goto nomem;
	hs->skel = hist_bpf__open();
	if (!hs->skel) {
		p_err("cannot open the BPF program: %s", strerror(errno));
		goto fail;
	}
	hs->skel->rodata->targ_tgid = filter->tgid;
	hs->skel->rodata->targ_nr_sites = nr_sites;
	if (filter->comm) {
		hs->skel->rodata->targ_filter_comm = true;
		strncpy((char *)hs->skel->rodata->targ_comm, filter->comm, CP_COMM_LEN - 1);
	}
	hs->skel->rodata->targ_inherit = filter->inherit && filter->tgid;
	task_follow_prepare(&hs->follow, hs->skel->progs.cp_follow_fork,
			    hs->skel->progs.cp_follow_exit, hs->skel->maps.followed,
			    hs->skel->rodata->targ_inherit);
	bpf_map__set_max_entries(hs->skel->maps.hists, nr_sites * CP_NBUCKETS);
	bpf_map__set_max_entries(hs->skel->maps.aligns, nr_sites * CP_ALIGN_SLOTS);
	bpf_map__set_max_entries(hs->skel->maps.dists, nr_sites * CP_NBUCKETS);
	bpf_map__set_max_entries(hs->skel->maps.exacts, nr_sites * CP_EXACT_PER_SITE);
	bpf_map__set_max_entries(hs->skel->maps.exact_used, nr_sites);
	bpf_map__set_max_entries(hs->skel->maps.footprints, nr_sites);
	bpf_map__set_max_entries(hs->skel->maps.orders, nr_sites);
	/*
	 * Under lockdown=confidentiality libbpf turns bpf_probe_read_user into bpf_probe_read
	 * on kernels whose verifier then refuses it too, so the uprobe callers go with the
	 * kernel ones (tests/vm/t-lockdown).
	 */
	if (callers && !feature_bpf_reads_kernel("entry sites' callers are not counted "
						 "(uprobes' too)"))
		callers = 0;
	/* targ_callers also guards the user reads: off, the verifier sees neither helper. */
	hs->skel->rodata->targ_callers = callers != 0;
	hs->skel->rodata->targ_user_callers = callers & HIST_CALLERS_USER;
	if (!(callers & HIST_CALLERS_KERNEL))
		bpf_map__set_max_entries(hs->skel->maps.callers, 1);
	if (!(callers & HIST_CALLERS_USER)) {
		bpf_map__set_max_entries(hs->skel->maps.ucallers, 1);
		bpf_map__set_max_entries(hs->skel->maps.ucaller_cache, 1);
	}
	hs->has_umulti = uprobe_multi_supported();
	if (hs->has_umulti)
		bpf_program__set_expected_attach_type(hs->skel->progs.cp_uprobe_multi,
						      UPROBE_MULTI_ATTACH_TYPE);
	else
		bpf_program__set_autoload(hs->skel->progs.cp_uprobe_multi, false);
	hs->skel->rodata->targ_nr_cgroups = filter->cgroups ? filter->cgroups->nr : 0;
	hs->skel->rodata->targ_cgroups = filter->by_cgroup;
	hs->by_cgroup = filter->by_cgroup;
	if (!filter->by_cgroup)
		bpf_map__set_max_entries(hs->skel->maps.cgroup_calls, 1);
	else
		bpf_map__set_max_entries(hs->skel->maps.cgroup_calls, nr_sites);
	/* Its BPF reads kernel memory (the task's user registers, its mappings): not under
	 * lockdown=confidentiality, where estimate keeps the modelled share (tests/vm/t-lockdown),
	 * nor on kernels before 5.17, without the helpers it calls. */
	hs->share_loaded = filter->copy_share && feature_lockdown() != LOCKDOWN_CONFIDENTIALITY;
	if (filter->copy_share && !hs->share_loaded)
		p_debug("locked down (confidentiality): the copies' share is not sampled");
	if (hs->share_loaded && !feature_has_vma_helpers()) {
		hs->share_loaded = false;
		p_debug("no bpf_find_vma or bpf_task_pt_regs here (Linux 5.17): the copies' share "
			"is not sampled");
	}
	bpf_program__set_autoload(hs->skel->progs.cp_copy_share, hs->share_loaded);
	err = hist_bpf__load(hs->skel);
	if (err) {
		feature_explain_load_error(err);
		goto fail;
	}
	if (task_follow_attach(&hs->follow) ||
	    (filter->cgroups &&
	     cgroup_set_filter(bpf_map__fd(hs->skel->maps.task_cgroup), filter->cgroups)))
		goto fail;
	return hs;
nomem:
	p_err("out of memory");
fail:
	hist_session_destroy(hs);
	return NULL;
}

int hist_session_config_site(struct hist_session *hs, uint32_t id, int len_reg, int dst_reg,
			     int src_reg, int caller_stack)
{
	struct site_cfg cfg = { .len_reg = (__u8)reg_to_gpr(len_reg),
				.dst_reg = (__u8)reg_to_gpr(dst_reg),
				.src_reg = (__u8)reg_to_gpr(src_reg),
				.caller_stack = (__u8)caller_stack };
	int err;

	err = bpf_map__update_elem(hs->skel->maps.sites, &id, sizeof(id), &cfg, sizeof(cfg), 0);
	if (err)
		p_err("cannot configure site %u: %s", id, strerror(-err));
	return err;
}

int hist_session_attach_uprobe(struct hist_session *hs, uint32_t id, const char *path,
			       uint64_t file_offset, struct stat *attached)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .bpf_cookie = id);
	int fd, file = open(path, O_RDONLY | O_CLOEXEC);
	struct bpf_link *link;
	char by_fd[32];
	const char *at = path;
	struct stat st;

	/* The kernel follows /proc/self/fd/N to the file opened, not to whatever @path is now. */
	if (file >= 0 && !fstat(file, &st)) {
		snprintf(by_fd, sizeof(by_fd), "/proc/self/fd/%d", file);
		if (!access(by_fd, F_OK))
			at = by_fd;
		if (attached)
			*attached = st;
	} else if (attached && stat(path, attached)) {
		memset(attached, 0, sizeof(*attached));
	}
	/* A uprobe_multi link first: it needs CAP_BPF and CAP_PERFMON, no CAP_SYS_ADMIN. */
	if (hs->has_umulti) {
		fd = uprobe_multi_attach(bpf_program__fd(hs->skel->progs.cp_uprobe_multi), at,
					 file_offset, id);
		if (fd >= 0) {
			p_debug("uprobe at %s+0x%llx: a uprobe_multi link", path,
				(unsigned long long)file_offset);
			hs->umulti[id] = fd;
			goto out;
		}
		p_debug("uprobe_multi link to %s at 0x%llx: %s; a perf-event uprobe instead", path,
			(unsigned long long)file_offset, strerror(-fd));
	}
	/* pid -1: every process; the tgid filter runs in BPF so that threads are counted too. */
	link = bpf_program__attach_uprobe_opts(hs->skel->progs.cp_uprobe, -1, at,
					       (size_t)file_offset, &opts);
	if (!link) {
		int err = -errno;

		p_err("cannot attach a uprobe to %s at file offset 0x%llx: %s", path,
		      (unsigned long long)file_offset, strerror(-err));
		if (file >= 0)
			close(file);
		return err;
	}
	hs->links[id] = link;
out:
	if (file >= 0)
		close(file);
	return 0;
}

struct hist_uprobe hist_session_take_uprobe(struct hist_session *hs, uint32_t id)
{
	struct hist_uprobe u = { NULL, -1 };

	if (id >= hs->nr_sites)
		return u;
	u.link = hs->links[id];
	u.multi_fd = hs->umulti[id];
	hs->links[id] = NULL;
	hs->umulti[id] = -1;
	return u;
}

void hist_session_give_uprobe(struct hist_session *hs, uint32_t id, struct hist_uprobe u)
{
	if (id >= hs->nr_sites) {
		hist_uprobe_detach(&u);
		return;
	}
	hist_session_detach(hs, id);
	hs->links[id] = u.link;
	hs->umulti[id] = u.multi_fd;
}

void hist_uprobe_detach(struct hist_uprobe *u)
{
	bpf_link__destroy(u->link);
	u->link = NULL;
	if (u->multi_fd >= 0)
		close(u->multi_fd);
	u->multi_fd = -1;
}

int hist_session_attach_kprobe(struct hist_session *hs, uint32_t id, const char *func,
			       uint64_t offset)
{
	LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = id, .offset = (size_t)offset);
	struct bpf_link *link;

	link = bpf_program__attach_kprobe_opts(hs->skel->progs.cp_kprobe, func, &opts);
	if (!link) {
		int err = -errno;

		p_err("cannot attach a kprobe at %s+0x%llx: %s%s", func, (unsigned long long)offset,
		      strerror(-err),
		      err == -EINVAL || err == -ENOENT ? " (blacklisted, notrace or not an "
							 "instruction boundary: see copyprof probe)"
						       : "");
		return err;
	}
	hs->links[id] = link;
	return 0;
}

int hist_session_open_bp(uint64_t addr, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.bp_type = HW_BREAKPOINT_X,
		.bp_addr = addr,
		.bp_len = sizeof(long),
		.sample_period = 1,
		.exclude_user = 1,
	};

	return (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * x86 refuses kernel breakpoints where kprobes are refused (the blacklist, noinstr code), and
 * everywhere on a kernel built without kprobes.
 */
const char *hist_session_bp_reason(int err)
{
	if (err == -ENOSPC)
		return " (all 4 debug registers of that CPU are in use)";
	if (err != -EINVAL)
		return "";
	if (!feature_has_kprobes())
		return " (this kernel has no kprobes, and x86 then allows no kernel breakpoints)";
	return " (the address is on the kprobe blacklist, e.g. noinstr code)";
}

int hist_session_attach_hwbp(struct hist_session *hs, uint32_t id, uint64_t addr)
{
	LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = id);
	struct bpf_link **links = &hs->cpu_links[(size_t)id * hs->nr_cpus];
	int cpu, fd, err = 0;

	for (cpu = 0; cpu < hs->nr_cpus && !err; cpu++) {
		fd = hist_session_open_bp(addr, cpu);
		if (fd < 0) {
			err = -errno;
			/* A CPU that is offline or not possible has nothing to watch. */
			if (err == -ENODEV) {
				err = 0;
				continue;
			}
			p_err("cannot set a hardware breakpoint at 0x%llx on CPU %d: %s%s",
			      (unsigned long long)addr, cpu, strerror(-err),
			      hist_session_bp_reason(err));
			break;
		}
		links[cpu] =
			bpf_program__attach_perf_event_opts(hs->skel->progs.cp_perf, fd, &opts);
		if (!links[cpu]) {
			err = -errno;
			close(fd);
			p_err("cannot attach to the breakpoint at 0x%llx: %s",
			      (unsigned long long)addr, strerror(-err));
		}
	}
	if (err) {
		/* All CPUs or none: a site watched on some CPUs only would undercount. */
		for (cpu = 0; cpu < hs->nr_cpus; cpu++) {
			bpf_link__destroy(links[cpu]);
			links[cpu] = NULL;
		}
	}
	return err;
}

int hist_session_nr_cpus(const struct hist_session *hs)
{
	return hs->nr_cpus;
}

int hist_session_bp_site(struct hist_session *hs, uint64_t addr, uint32_t id)
{
	int err = bpf_map__update_elem(hs->skel->maps.bp_sites, &addr, sizeof(addr), &id,
				       sizeof(id), 0);

	if (err)
		p_err("cannot name the breakpoint at 0x%llx: %s", (unsigned long long)addr,
		      strerror(-err));
	return err;
}

struct bpf_link *hist_session_attach_bp_fd(struct hist_session *hs, int fd)
{
	LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = CP_COOKIE_BY_IP);

	return bpf_program__attach_perf_event_opts(hs->skel->progs.cp_perf, fd, &opts);
}

/*
 * Reads keys @first .. @first + @n - 1 of per-CPU array @fd into @values (@n rows of @row bytes:
 * every CPU's value of a key), with one BPF_MAP_LOOKUP_BATCH where the kernel has it (5.6+),
 * else one lookup per key: a scrape of many sites costs one syscall per site, not 400.
 * 0 or -errno.
 */
static int read_rows(int fd, uint32_t first, uint32_t n, void *values, size_t row)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	uint32_t *keys = malloc(n * sizeof(*keys)), prev = first - 1, next, count = n, k;
	int err;

	if (!keys)
		return -ENOMEM;
	/* The batch starts after the key it is given: none for key 0. */
	err = bpf_map_lookup_batch(fd, first ? &prev : NULL, &next, keys, values, &count, &opts);
	if ((!err || errno == ENOENT) && count == n && keys[0] == first &&
	    keys[n - 1] == first + n - 1) {
		free(keys);
		return 0;
	}
	free(keys);
	for (k = 0; k < n; k++) {
		next = first + k;
		if (bpf_map_lookup_elem(fd, &next, (char *)values + k * row))
			return -errno;
	}
	return 0;
}

/* Site @id's distance classes, summed over the CPUs, into @site, if it has both pointers. */
static int collect_dist(struct hist_session *hs, uint32_t id, struct profile_site *site)
{
	struct dist_slot *rows;
	struct site_cfg cfg;
	uint64_t c[CP_NR_DIST];
	uint32_t b;
	int err, cpu, k;

	if (bpf_map_lookup_elem(bpf_map__fd(hs->skel->maps.sites), &id, &cfg))
		return -errno;
	if (!cfg.dst_reg || !cfg.src_reg)
		return 0;
	rows = calloc((size_t)CP_NBUCKETS * hs->nr_cpus, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	err = read_rows(bpf_map__fd(hs->skel->maps.dists), id * CP_NBUCKETS, CP_NBUCKETS, rows,
			hs->nr_cpus * sizeof(*rows));
	site->dist.recorded = true;
	for (b = 0; !err && b < CP_NBUCKETS; b++) {
		memset(c, 0, sizeof(c));
		for (cpu = 0; cpu < hs->nr_cpus; cpu++)
			for (k = 0; k < CP_NR_DIST; k++)
				c[k] += rows[(size_t)b * hs->nr_cpus + cpu].c[k];
		err = site_dist_add(&site->dist, b, c);
	}
	free(rows);
	return err;
}

/*
 * The whole exact-length table into @keys and @vals (@max each): one BPF_MAP_LOOKUP_BATCH where
 * the kernel has it, else a walk of the keys. The number of entries, or -errno.
 */
static long dump_exacts(int fd, uint32_t max, struct exact_key *keys, uint64_t *vals)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	struct exact_key in, out, *prev = NULL;
	uint32_t got = 0, n;
	int err;

	for (;;) {
		n = max - got;
		err = bpf_map_lookup_batch(fd, prev, &out, keys + got, vals + got, &n, &opts);
		if (err && errno != ENOENT)
			break;
		got += n;
		if (err || got == max)
			return got;
		in = out;
		prev = &in;
	}
	/* No batches (before 5.6): key by key. */
	for (got = 0; got < max; got++) {
		if (bpf_map_get_next_key(fd, got ? &keys[got - 1] : NULL, &keys[got]))
			break;
		if (bpf_map_lookup_elem(fd, &keys[got], &vals[got]))
			return -errno;
	}
	return got;
}

/* Site @id's exact lengths into @site, from one dump of the table. */
static int collect_exact(struct hist_session *hs, uint32_t id, struct profile_site *site)
{
	uint32_t max = bpf_map__max_entries(hs->skel->maps.exacts);
	struct exact_key *keys = calloc(max, sizeof(*keys));
	uint64_t *vals = calloc(max, sizeof(*vals));
	long n = keys && vals ? dump_exacts(bpf_map__fd(hs->skel->maps.exacts), max, keys, vals)
			      : -ENOMEM;
	int err = n < 0 ? (int)n : 0;
	long i;

	site->exact.recorded = true;
	for (i = 0; !err && i < n; i++)
		if (keys[i].site == id)
			err = site_exact_add(&site->exact, keys[i].len, vals[i]);
	free(keys);
	free(vals);
	return err;
}

/* Site @id's calls by cgroup, summed over the CPUs: the top CP_CGROUP_SLOTS and other. */
static int collect_cgroups(struct hist_session *hs, uint32_t id, struct profile_site *site)
{
	struct cgroup_slots *t;
	int cpu, i, err = 0;

	if (!hs->by_cgroup)
		return 0;
	t = calloc(hs->nr_cpus, sizeof(*t));
	if (!t)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(hs->skel->maps.cgroup_calls), &id, t)) {
		err = -errno;
		goto out;
	}
	site_cgroups_clear(&site->cgroups);
	site->cgroups.recorded = true;
	for (cpu = 0; cpu < hs->nr_cpus && !err; cpu++) {
		site->cgroups.other += t[cpu].other;
		for (i = 0; i < CP_CGROUP_SLOTS && !err; i++)
			if (t[cpu].id[i])
				err = site_cgroups_add(&site->cgroups, t[cpu].id[i], NULL,
						       t[cpu].calls[i]);
	}
	if (!err)
		err = site_cgroups_keep_top(&site->cgroups, CP_CGROUP_SLOTS);
	for (i = 0; !err && i < (int)site->cgroups.nr; i++)
		site->cgroups.v[i].path = cgroup_path_of_id(site->cgroups.v[i].id);
out:
	free(t);
	return err;
}

/* Site @id's sampled runs into @site: each CPU's runs in the order they were taken. */
static int collect_order(struct hist_session *hs, uint32_t id, struct profile_site *site)
{
	struct order_slot *o = calloc(hs->nr_cpus, sizeof(*o));
	int err = o ? 0 : -ENOMEM, cpu;
	uint32_t r;

	if (!err && bpf_map_lookup_elem(bpf_map__fd(hs->skel->maps.orders), &id, o))
		err = -errno;
	site->order.recorded = true;
	for (cpu = 0; !err && cpu < hs->nr_cpus; cpu++)
		for (r = 0; !err && r < CP_ORDER_RUNS; r++)
			if (o[cpu].filled[r] && o[cpu].filled[r] <= CP_ORDER_LEN)
				err = site_order_add(&site->order, (const uint64_t *)o[cpu].len[r],
						     o[cpu].filled[r]);
	free(o);
	return err;
}

int hist_session_collect(struct hist_session *hs, uint32_t id, struct profile_site *site)
{
	struct hist_slot *slots = calloc((size_t)CP_NBUCKETS * hs->nr_cpus, sizeof(*slots));
	struct align_slot *aslots = calloc((size_t)CP_ALIGN_SLOTS * hs->nr_cpus, sizeof(*aslots));
	struct hist_slot sum[CP_NBUCKETS];
	uint64_t dst[CP_ALIGN_SLOTS], src[CP_ALIGN_SLOTS];
	int err, cpu;
	uint32_t b;

	if (!slots || !aslots) {
		err = -ENOMEM;
		goto out;
	}
	err = read_rows(bpf_map__fd(hs->skel->maps.hists), id * CP_NBUCKETS, CP_NBUCKETS, slots,
			hs->nr_cpus * sizeof(*slots));
	if (!err)
		err = read_rows(bpf_map__fd(hs->skel->maps.aligns), id * CP_ALIGN_SLOTS,
				CP_ALIGN_SLOTS, aslots, hs->nr_cpus * sizeof(*aslots));
	if (err) {
		p_err("cannot read the counts of site %u: %s", id, strerror(-err));
		goto out;
	}
	/* Summed over the CPUs into what the site has, then kept sparse (profile.h). */
	sparse_hist_dense(&site->buckets, sum);
	for (b = 0; b < CP_NBUCKETS; b++)
		for (cpu = 0; cpu < hs->nr_cpus; cpu++) {
			sum[b].count += slots[(size_t)b * hs->nr_cpus + cpu].count;
			sum[b].bytes += slots[(size_t)b * hs->nr_cpus + cpu].bytes;
		}
	site_align_dense(&site->align, dst, src);
	for (b = 0; b < CP_ALIGN_SLOTS; b++)
		for (cpu = 0; cpu < hs->nr_cpus; cpu++) {
			dst[b] += aslots[(size_t)b * hs->nr_cpus + cpu].dst;
			src[b] += aslots[(size_t)b * hs->nr_cpus + cpu].src;
		}
	if (sparse_hist_set_dense(&site->buckets, sum) ||
	    site_align_set_dense(&site->align, dst, src)) {
		err = -ENOMEM;
		goto out;
	}
	err = collect_dist(hs, id, site);
	if (err) {
		p_err("cannot read the distances of site %u: %s", id, strerror(-err));
		goto out;
	}
	err = collect_exact(hs, id, site);
	if (err) {
		p_err("cannot read the exact lengths of site %u: %s", id, strerror(-err));
		goto out;
	}
	err = footprint_collect(bpf_map__fd(hs->skel->maps.footprints),
				bpf_map__fd(hs->skel->maps.sites), hs->nr_cpus, id, site);
	if (err) {
		p_err("cannot read the sampled addresses of site %u: %s", id, strerror(-err));
		goto out;
	}
	err = collect_cgroups(hs, id, site);
	if (err) {
		p_err("cannot read the cgroups of site %u: %s", id, strerror(-err));
		goto out;
	}
	err = collect_order(hs, id, site);
	if (err) {
		p_err("cannot read the call order of site %u: %s", id, strerror(-err));
		goto out;
	}
	profile_site_sum(site);
out:
	free(slots);
	free(aslots);
	return err;
}

int hist_session_site_calls(struct hist_session *hs, uint32_t id, uint64_t *per_cpu)
{
	return bpf_map_lookup_elem(bpf_map__fd(hs->skel->maps.site_calls), &id, per_cpu) ? -errno
											 : 0;
}

struct caller_row {
	struct caller_key key;
	struct hist_slot slot;
};

static int cmp_row(const void *a, const void *b)
{
	const struct caller_row *x = a, *y = b;

	if (x->key.site != y->key.site)
		return x->key.site < y->key.site ? -1 : 1;
	return x->key.ret_ip < y->key.ret_ip ? -1 : x->key.ret_ip > y->key.ret_ip;
}

/* Groups @rows (sorted by return address) into one caller each. */
static int add_callers(struct profile_site *site, const struct caller_row *rows, size_t n)
{
	struct profile_caller *c = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!c || c->address != rows[i].key.ret_ip) {
			c = profile_site_add_caller(site);
			if (!c)
				return -ENOMEM;
			c->address = rows[i].key.ret_ip;
		}
		if (rows[i].key.bucket >= CP_NBUCKETS)
			continue;
		if (sparse_hist_add(&c->buckets, rows[i].key.bucket, rows[i].slot.count,
				    rows[i].slot.bytes))
			return -ENOMEM;
		c->calls += rows[i].slot.count;
		c->bytes += rows[i].slot.bytes;
	}
	return 0;
}

/* Every row of the callers map with a site below @nr: one walk of the map for all sites. */
static int read_caller_rows(int fd, uint32_t nr, struct caller_row **out, size_t *nr_rows)
{
	struct caller_row *rows = NULL;
	struct caller_key k, next;
	size_t n = 0, cap = 0;
	bool first = true;

	while (!bpf_map_get_next_key(fd, first ? NULL : &k, &next)) {
		first = false;
		k = next;
		if (k.site >= nr)
			continue;
		if (n == cap) {
			struct caller_row *r =
				realloc(rows, (cap = cap ? 2 * cap : 256) * sizeof(*r));

			if (!r) {
				free(rows);
				return -ENOMEM;
			}
			rows = r;
		}
		rows[n].key = k;
		if (!bpf_map_lookup_elem(fd, &k, &rows[n].slot))
			n++;
	}
	if (n)
		qsort(rows, n, sizeof(*rows), cmp_row);
	*out = rows;
	*nr_rows = n;
	return 0;
}

int hist_session_collect_callers(struct hist_session *hs, struct profile_site *sites, uint32_t nr)
{
	__u64 *misses = calloc(hs->nr_cpus, sizeof(*misses));
	struct caller_row *rows = NULL;
	size_t n = 0, i = 0, j;
	uint32_t id;
	int err, cpu;

	err = misses ? read_caller_rows(bpf_map__fd(hs->skel->maps.callers), nr, &rows, &n)
		     : -ENOMEM;
	/* Sorted by site: each site's rows are one run. */
	while (!err && i < n) {
		for (j = i; j < n && rows[j].key.site == rows[i].key.site; j++)
			;
		err = add_callers(&sites[rows[i].key.site], rows + i, j - i);
		i = j;
	}
	for (id = 0; !err && id < nr; id++)
		if (!bpf_map_lookup_elem(bpf_map__fd(hs->skel->maps.caller_misses), &id, misses))
			for (cpu = 0; cpu < hs->nr_cpus; cpu++)
				sites[id].caller_misses += misses[cpu];
	if (err)
		p_err("cannot read the callers of the sites: %s", strerror(-err));
	free(rows);
	free(misses);
	return err;
}

int hist_session_user_callers(struct hist_session *hs, uint32_t nr,
			      int (*fn)(void *ctx, const struct ucaller_key *k,
					const struct hist_slot *slot),
			      void *ctx)
{
	int fd = bpf_map__fd(hs->skel->maps.ucallers), err = 0;
	struct ucaller_key k, next;
	struct hist_slot slot;
	bool first = true;

	while (!err && !bpf_map_get_next_key(fd, first ? NULL : &k, &next)) {
		first = false;
		k = next;
		if (k.site < nr && k.bucket < CP_NBUCKETS && !bpf_map_lookup_elem(fd, &k, &slot))
			err = fn(ctx, &k, &slot);
	}
	return err;
}

void hist_session_detach(struct hist_session *hs, uint32_t id)
{
	int cpu;

	if (id >= hs->nr_sites)
		return;
	bpf_link__destroy(hs->links[id]);
	hs->links[id] = NULL;
	if (hs->umulti[id] >= 0)
		close(hs->umulti[id]);
	hs->umulti[id] = -1;
	for (cpu = 0; cpu < hs->nr_cpus; cpu++) {
		bpf_link__destroy(hs->cpu_links[(size_t)id * hs->nr_cpus + cpu]);
		hs->cpu_links[(size_t)id * hs->nr_cpus + cpu] = NULL;
	}
}

int hist_session_run_stats(struct hist_session *hs, uint64_t *run_time_ns, uint64_t *run_cnt)
{
	const struct bpf_program *progs[] = { hs->skel->progs.cp_uprobe, hs->skel->progs.cp_kprobe,
					      hs->skel->progs.cp_perf,
					      hs->skel->progs.cp_uprobe_multi };
	size_t i;

	*run_time_ns = *run_cnt = 0;
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		if (bpf_program__fd(progs[i]) < 0)
			continue; /* not loaded: cp_uprobe_multi on kernels before 6.6 */
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(progs[i]), &info, &len))
			return -errno;
		*run_time_ns += info.run_time_ns;
		*run_cnt += info.run_cnt;
	}
	return 0;
}

bool hist_session_share_loaded(const struct hist_session *hs)
{
	return hs->share_loaded;
}

int hist_session_share_range(struct hist_session *hs, uint32_t i, uint64_t ino, uint64_t lo,
			     uint64_t hi)
{
	struct share_range r = { .ino = ino, .lo = lo, .hi = hi };
	int err;

	if (i >= CP_SHARE_RANGES)
		return -E2BIG;
	err = bpf_map__update_elem(hs->skel->maps.share_ranges, &i, sizeof(i), &r, sizeof(r), 0);
	if (err)
		p_err("cannot set the copy-time share's range %u: %s", i, strerror(-err));
	return err;
}

int hist_session_share_start(struct hist_session *hs, unsigned int hz)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE,
					.size = sizeof(attr),
					.config = PERF_COUNT_SW_CPU_CLOCK,
					.sample_freq = hz,
					.freq = 1 };
	int cpu, fd;

	hs->share = calloc((size_t)hs->nr_cpus, sizeof(*hs->share));
	if (!hs->share)
		return -ENOMEM;
	for (cpu = 0; cpu < hs->nr_cpus; cpu++) {
		fd = (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0) {
			p_err("cannot sample CPU %d for the copy-time share: %s", cpu,
			      strerror(errno));
			return -errno;
		}
		hs->share[cpu] = bpf_program__attach_perf_event(hs->skel->progs.cp_copy_share, fd);
		if (!hs->share[cpu]) {
			int err = -errno;

			close(fd);
			p_err("cannot attach the copy-time share sampler on CPU %d: %s", cpu,
			      strerror(-err));
			return err;
		}
	}
	return 0;
}

int hist_session_share_read(struct hist_session *hs, uint64_t counts[CP_NR_SHARE])
{
	uint64_t *v = calloc((size_t)hs->nr_cpus, sizeof(*v));
	uint32_t k;
	int cpu, err = 0;

	if (!v)
		return -ENOMEM;
	for (k = 0; k < CP_NR_SHARE && !err; k++) {
		counts[k] = 0;
		err = bpf_map__lookup_elem(hs->skel->maps.share_counts, &k, sizeof(k), v,
					   sizeof(*v) * (size_t)hs->nr_cpus, 0);
		for (cpu = 0; !err && cpu < hs->nr_cpus; cpu++)
			counts[k] += v[cpu];
	}
	free(v);
	return err;
}

uint64_t hist_session_object_digest(void)
{
	size_t sz = 0, i;
	const unsigned char *b = hist_bpf__elf_bytes(&sz);
	uint64_t h = FNV1A64_INIT;

	for (i = 0; i < sz; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

void hist_session_destroy(struct hist_session *hs)
{
	size_t i;

	if (!hs)
		return;
	task_follow_detach(&hs->follow);
	if (hs->skel && hs->skel->bss)
		task_follow_report(&hs->follow, hs->skel->bss->not_followed);
	for (i = 0; hs->links && i < hs->nr_sites; i++)
		bpf_link__destroy(hs->links[i]);
	for (i = 0; hs->umulti && i < hs->nr_sites; i++)
		if (hs->umulti[i] >= 0)
			close(hs->umulti[i]);
	free(hs->umulti);
	for (i = 0; hs->cpu_links && i < (size_t)hs->nr_sites * hs->nr_cpus; i++)
		bpf_link__destroy(hs->cpu_links[i]);
	for (i = 0; hs->share && i < (size_t)hs->nr_cpus; i++)
		bpf_link__destroy(hs->share[i]);
	free(hs->share);
	hist_bpf__destroy(hs->skel);
	free(hs->links);
	free(hs->cpu_links);
	free(hs);
}
