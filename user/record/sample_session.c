// SPDX-License-Identifier: GPL-2.0
/* sample_session.c: drives the sample.bpf.c skeleton: perf events per CPU, ring buffer, maps */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel/cgroup.h"
#include "kernel/feature.h"
#include "lib/log.h"
#include "sample.skel.h"
#include "sample_session.h"
#include "task_follow.h"

struct sample_session {
	struct sample_bpf *skel;
	struct ring_buffer *rb;
	struct bpf_link **links;
	int *fds;
	int nr_cpus;
	const char *event;
	sample_handler fn;
	void *ctx;
	int handled;
	struct task_follow follow; /* the command's descendants */
};

static const struct {
	const char *name;
	__u32 type;
	__u64 config;
} events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
};
#define EV_CPU_CLOCK 3

int sample_event_parse(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (!strcmp(name, events[i].name))
			return (int)i;
	return -1;
}

static int open_event(int ev, uint32_t hz, int cpu)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = events[ev].type,
		.config = events[ev].config,
		.sample_freq = hz,
		.freq = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Picks the event on CPU 0: the one asked for, or cpu-clock when the PMU has no such event. */
static int choose_event(const struct sample_opts *o)
{
	int ev = o->event ? sample_event_parse(o->event) : 0, fd;

	fd = open_event(ev, o->hz, 0);
	if (fd >= 0) {
		close(fd);
		return ev;
	}
	if (fd == -EACCES || fd == -EPERM || ev == EV_CPU_CLOCK ||
	    !(fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV || fd == -EINVAL))
		return fd;
	p_info("no hardware '%s' event here (%s): sampling cpu-clock instead", events[ev].name,
	       strerror(-fd));
	fd = open_event(EV_CPU_CLOCK, o->hz, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return EV_CPU_CLOCK;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct sample_session *ss = ctx;

	if (size < sizeof(struct sample_rec))
		return 0;
	ss->handled++;
	return ss->fn(ss->ctx, data);
}

static int load(struct sample_session *ss, const struct sample_opts *o)
{
	struct sample_bpf *skel = ss->skel;
	size_t i;
	int err;

	skel->rodata->targ_tgid = o->tgid;
	skel->rodata->targ_inherit = o->inherit && o->tgid;
	task_follow_prepare(&ss->follow, skel->progs.cp_follow_fork, skel->progs.cp_follow_exit,
			    skel->maps.followed, skel->rodata->targ_inherit);
	skel->rodata->targ_nr_cgroups = o->cgroups ? o->cgroups->nr : 0;
	skel->rodata->targ_nr_ranges = (__u32)o->nr_ranges;
	skel->rodata->targ_user_funcs = o->user_funcs || o->funcs_only;
	if (o->funcs_only)
		skel->rodata->targ_inline_reps = false;
	skel->rodata->targ_read_text = feature_bpf_reads_kernel("inline rep movs/stos are not "
								"sampled and lengths stay unknown");
	if (o->comm) {
		skel->rodata->targ_filter_comm = true;
		strncpy((char *)skel->rodata->targ_comm, o->comm, CP_COMM_LEN - 1);
	}
	bpf_map__set_max_entries(skel->maps.ranges, o->nr_ranges ? (__u32)o->nr_ranges : 1);
	skel->rodata->targ_user_stacks = o->user_stacks;
	if (!o->user_stacks) { /* 16 MB of user stacks nobody takes */
		bpf_map__set_max_entries(skel->maps.ustackmap, 1);
		bpf_map__set_max_entries(skel->maps.seen_tgids, 1);
	}
	err = sample_bpf__load(skel);
	if (err) {
		feature_explain_load_error(err);
		return err;
	}
	err = task_follow_attach(&ss->follow);
	if (!err && o->cgroups)
		err = cgroup_set_filter(bpf_map__fd(skel->maps.task_cgroup), o->cgroups);
	if (err)
		return err;
	for (i = 0; i < o->nr_ranges; i++) {
		__u32 k = (__u32)i;

		err = bpf_map__update_elem(skel->maps.ranges, &k, sizeof(k), &o->ranges[i],
					   sizeof(o->ranges[i]), 0);
		if (err) {
			p_err("cannot store the copy-family address ranges: %s", strerror(-err));
			return err;
		}
	}
	return 0;
}

static int attach(struct sample_session *ss, int ev, uint32_t hz)
{
	int cpu, attached = 0, err = 0;

	for (cpu = 0; cpu < ss->nr_cpus; cpu++) {
		int fd = open_event(ev, hz, cpu);

		if (fd == -ENODEV) /* offline or absent CPU */
			continue;
		if (fd < 0) {
			feature_explain_perf_event(fd, events[ev].name, hz);
			return fd;
		}
		ss->fds[cpu] = fd;
		ss->links[cpu] = bpf_program__attach_perf_event(ss->skel->progs.cp_sample, fd);
		if (!ss->links[cpu]) {
			err = -errno;
			p_err("cannot attach the sampler to CPU %d: %s", cpu, strerror(-err));
			return err;
		}
		attached++;
	}
	if (!attached) {
		p_err("no online CPU to sample");
		return -ENODEV;
	}
	return 0;
}

struct sample_session *sample_session_open(const struct sample_opts *o, sample_handler fn,
					   void *ctx)
{
	struct sample_session *ss = calloc(1, sizeof(*ss));
	int ev, cpu;

	if (!ss)
		goto nomem;
	ss->fn = fn;
	ss->ctx = ctx;
	ss->nr_cpus = libbpf_num_possible_cpus();
	ss->links = calloc((size_t)ss->nr_cpus, sizeof(*ss->links));
	ss->fds = malloc((size_t)ss->nr_cpus * sizeof(*ss->fds));
	if (!ss->links || !ss->fds)
		goto nomem;
	for (cpu = 0; cpu < ss->nr_cpus; cpu++)
		ss->fds[cpu] = -1;
	ev = choose_event(o);
	if (ev < 0) {
		feature_explain_perf_event(ev, o->event ?: "cycles", o->hz);
		goto fail;
	}
	ss->event = events[ev].name;
	ss->skel = sample_bpf__open();
	if (!ss->skel) {
		p_err("cannot open the BPF program: %s", strerror(errno));
		goto fail;
	}
	if (load(ss, o))
		goto fail;
	ss->rb = ring_buffer__new(bpf_map__fd(ss->skel->maps.samples), on_record, ss, NULL);
	if (!ss->rb) {
		p_err("cannot set up the ring buffer: %s", strerror(errno));
		goto fail;
	}
	if (attach(ss, ev, o->hz))
		goto fail;
	return ss;
nomem:
	p_err("out of memory");
fail:
	sample_session_destroy(ss);
	return NULL;
}

const char *sample_session_event(const struct sample_session *ss)
{
	return ss->event;
}

int sample_session_poll(struct sample_session *ss, int timeout_ms)
{
	int err;

	ss->handled = 0;
	/* Records come without wakeups (sample.bpf.c): wait, then take whatever is there. */
	err = ring_buffer__poll(ss->rb, timeout_ms);
	if (err >= 0 || err == -EINTR)
		err = ring_buffer__consume(ss->rb);
	if (err == -EINTR)
		return ss->handled;
	return err < 0 ? err : ss->handled;
}

static void detach(struct sample_session *ss)
{
	int cpu;

	for (cpu = 0; ss->links && cpu < ss->nr_cpus; cpu++) {
		bpf_link__destroy(ss->links[cpu]);
		ss->links[cpu] = NULL;
		if (ss->fds[cpu] >= 0)
			close(ss->fds[cpu]);
		ss->fds[cpu] = -1;
	}
}

void sample_session_stop(struct sample_session *ss)
{
	detach(ss);
	/* Records submitted before the detach are still in the buffer. */
	while (ring_buffer__consume(ss->rb) > 0)
		;
}

int sample_session_counters(struct sample_session *ss, uint64_t out[SAMPLE_CNT_NR])
{
	uint64_t *vals = calloc((size_t)ss->nr_cpus, sizeof(*vals));
	int err = 0, cpu;
	__u32 k;

	if (!vals)
		return -ENOMEM;
	for (k = 0; k < SAMPLE_CNT_NR && !err; k++) {
		out[k] = 0;
		err = bpf_map_lookup_elem(bpf_map__fd(ss->skel->maps.counters), &k, vals);
		for (cpu = 0; cpu < ss->nr_cpus && !err; cpu++)
			out[k] += vals[cpu];
	}
	free(vals);
	if (err)
		p_err("cannot read the sample counters: %s", strerror(errno));
	return err ? -errno : 0;
}

int sample_session_func_set(struct sample_session *ss, uint32_t i, const struct sample_func *f)
{
	if (i >= SAMPLE_MAX_FUNCS)
		return -E2BIG;
	if (bpf_map_update_elem(bpf_map__fd(ss->skel->maps.funcs), &i, f, 0))
		return -errno;
	return 0;
}

int sample_session_func_count(struct sample_session *ss, uint32_t i, uint64_t *out)
{
	uint64_t *vals = calloc((size_t)ss->nr_cpus, sizeof(*vals));
	int cpu, err = 0;

	if (!vals)
		return -ENOMEM;
	*out = 0;
	if (bpf_map_lookup_elem(bpf_map__fd(ss->skel->maps.func_counts), &i, vals))
		err = -errno;
	for (cpu = 0; cpu < ss->nr_cpus && !err; cpu++)
		*out += vals[cpu];
	free(vals);
	return err;
}

int sample_session_stack(struct sample_session *ss, int32_t stackid, bool user, uint64_t *ips,
			 size_t max)
{
	uint64_t buf[SAMPLE_STACK_DEPTH] = { 0 };
	struct bpf_map *m = user ? ss->skel->maps.ustackmap : ss->skel->maps.stackmap;
	size_t n;

	if (stackid < 0)
		return -ENOENT;
	if (bpf_map_lookup_elem(bpf_map__fd(m), &stackid, buf))
		return -errno;
	for (n = 0; n < SAMPLE_STACK_DEPTH && n < max && buf[n]; n++)
		ips[n] = buf[n];
	return (int)n;
}

int sample_session_stack_counts(struct sample_session *ss,
				void (*fn)(void *ctx, const struct sample_stack_key *k,
					   const struct sample_stack_val *v),
				void *ctx)
{
	int fd = bpf_map__fd(ss->skel->maps.stack_counts);
	struct sample_stack_key key, next, *prev = NULL;
	struct sample_stack_val val;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		if (!bpf_map_lookup_elem(fd, &next, &val))
			fn(ctx, &next, &val);
		key = next;
		prev = &key;
	}
	return 0;
}

void sample_session_destroy(struct sample_session *ss)
{
	if (!ss)
		return;
	detach(ss);
	task_follow_detach(&ss->follow);
	if (ss->skel && ss->skel->bss)
		task_follow_report(&ss->follow, ss->skel->bss->not_followed);
	ring_buffer__free(ss->rb);
	sample_bpf__destroy(ss->skel);
	free(ss->links);
	free(ss->fds);
	free(ss);
}
