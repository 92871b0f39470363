// SPDX-License-Identifier: GPL-2.0
/* hwbp_mux.c: rotate a few hardware breakpoint events over many sites, one pinned as reference */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <bpf/libbpf.h>
#include "hwbp_mux.h"
#include "lib/log.h"
#include "lib/monotime.h"

struct mux_site {
	struct hwbp_mux_site s;
	int slot;	    /* the debug register holding it, or -1 */
	bool bad;	    /* the kernel refused to move a breakpoint there: out of the rotation */
	double on_since;    /* monotonic seconds, while on a register */
	double running_s;   /* time on a register, summed */
	uint64_t *ref_on;   /* per CPU: the reference's calls when it was armed there */
	uint64_t ref_seen;  /* the reference's calls while it was armed, summed */
	uint64_t ref_moves; /* the reference's calls during the moves that armed or disarmed it */
	uint64_t ref_moves_credited; /* of those, the share counted in ref_seen (half) */
};

struct hwbp_mux {
	struct hist_session *hs;
	struct mux_site *v;
	size_t n;
	/*
	 * Rotated sites: v[base..n-1] over registers base..slots-1. base is 1 when v[0] is the
	 * reference, pinned on register 0; 0 without one (a single register).
	 */
	size_t base;
	uint64_t ref_calls;   /* the reference's calls at the end */
	uint64_t *ref_buf;    /* nr_cpus: the last read of the reference's per-CPU calls */
	uint64_t *ref_off;    /* nr_cpus: the reference's calls just before a CPU's move */
	uint64_t *ref_arm;    /* nr_cpus: and just after it */
	uint64_t *ref_on_all; /* n x nr_cpus, for mux_site.ref_on */
	bool ref_failed;      /* its count could not be read: time scaling for all */
	int slots, nr_cpus;
	int *cpu_fds;			   /* slots x nr_cpus, -1 where none */
	struct bpf_link **links;	   /* slots x nr_cpus */
	uint64_t addr[HWBP_MUX_MAX_SLOTS]; /* where each slot's events are */
	size_t pos;			   /* the first rotated site of the window, from base */
	double start, end, last;
	uint64_t rotations;
	uint64_t moves;	       /* per-CPU PERF_EVENT_IOC_MODIFY_ATTRIBUTES calls that succeeded */
	uint64_t moves_local;  /* of those, made on the event's own CPU */
	double move_s;	       /* the time they took, summed */
	cpu_set_t *home, *one; /* the recorder's CPUs, to go back to; one CPU, to move from */
	size_t set_size;
	bool pinned; /* moved off its home CPUs for a move */
	bool stopped;
};

static int *fd_at(struct hwbp_mux *m, int slot, int cpu)
{
	return &m->cpu_fds[slot * m->nr_cpus + cpu];
}

/* Closes slot @slot's events on every CPU. */
static void close_slot(struct hwbp_mux *m, int slot)
{
	int cpu;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		bpf_link__destroy(m->links[slot * m->nr_cpus + cpu]);
		m->links[slot * m->nr_cpus + cpu] = NULL;
		if (*fd_at(m, slot, cpu) >= 0)
			close(*fd_at(m, slot, cpu));
		*fd_at(m, slot, cpu) = -1;
	}
}

/* Opens slot @slot at @addr on every CPU: 0, -ENOSPC (no register left), or another -errno. */
static int open_slot(struct hwbp_mux *m, struct hist_session *hs, int slot, uint64_t addr)
{
	int cpu, fd, err;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		fd = hist_session_open_bp(addr, cpu);
		if (fd < 0 && errno == ENODEV)
			continue; /* offline or absent CPU */
		if (fd < 0) {
			err = -errno;
			close_slot(m, slot);
			if (err != -ENOSPC)
				p_err("cannot set a hardware breakpoint at 0x%llx on CPU %d: %s%s",
				      (unsigned long long)addr, cpu, strerror(-err),
				      hist_session_bp_reason(err));
			return err;
		}
		*fd_at(m, slot, cpu) = fd;
		m->links[slot * m->nr_cpus + cpu] = hist_session_attach_bp_fd(hs, fd);
		if (!m->links[slot * m->nr_cpus + cpu]) {
			err = -errno;
			p_err("cannot attach to the breakpoint at 0x%llx: %s",
			      (unsigned long long)addr, strerror(-err));
			close_slot(m, slot);
			return err;
		}
	}
	m->addr[slot] = addr;
	return 0;
}

struct hwbp_mux *hwbp_mux_open(struct hist_session *hs, const struct hwbp_mux_site *v, size_t n)
{
	struct hwbp_mux *m = calloc(1, sizeof(*m));
	size_t i;
	int slot, err = 0;

	if (!m)
		goto nomem;
	m->nr_cpus = hist_session_nr_cpus(hs);
	m->v = calloc(n, sizeof(*m->v));
	m->cpu_fds = malloc(sizeof(int) * HWBP_MUX_MAX_SLOTS * (size_t)m->nr_cpus);
	m->links = calloc((size_t)HWBP_MUX_MAX_SLOTS * m->nr_cpus, sizeof(*m->links));
	m->ref_buf = calloc((size_t)m->nr_cpus * 3, sizeof(*m->ref_buf));
	m->ref_on_all = calloc(n * (size_t)m->nr_cpus, sizeof(*m->ref_on_all));
	if (!m->v || !m->cpu_fds || !m->links || !m->ref_buf || !m->ref_on_all)
		goto nomem;
	m->set_size = CPU_ALLOC_SIZE(m->nr_cpus);
	m->home = CPU_ALLOC(m->nr_cpus);
	m->one = CPU_ALLOC(m->nr_cpus);
	if (!m->home || !m->one)
		goto nomem;
	if (sched_getaffinity(0, m->set_size, m->home)) {
		CPU_FREE(m->home);
		m->home = NULL; /* moves are made from wherever record runs */
	}
	m->ref_off = m->ref_buf + m->nr_cpus;
	m->ref_arm = m->ref_off + m->nr_cpus;
	for (i = 0; i < (size_t)HWBP_MUX_MAX_SLOTS * m->nr_cpus; i++)
		m->cpu_fds[i] = -1;
	m->n = n;
	for (i = 0; i < n; i++) {
		m->v[i] = (struct mux_site){ .s = v[i],
					     .slot = -1,
					     .ref_on = m->ref_on_all + i * (size_t)m->nr_cpus };
		if (hist_session_bp_site(hs, v[i].addr, v[i].id))
			goto fail;
	}
	/* As many registers as every CPU has free (a debugger may hold some). */
	for (slot = 0; slot < HWBP_MUX_MAX_SLOTS && (size_t)slot < n; slot++) {
		err = open_slot(m, hs, slot, v[slot].addr);
		if (err)
			break;
	}
	m->slots = slot;
	if (!m->slots) {
		if (err == -ENOSPC)
			p_err("no debug register is free on some CPU (a debugger or another "
			      "tracer holds them all)");
		goto fail;
	}
	m->hs = hs;
	m->base = m->slots >= 2 && n > (size_t)m->slots;
	m->start = m->last = monotime_s();
	for (slot = 0; slot < m->slots; slot++) {
		m->v[slot].slot = slot;
		m->v[slot].on_since = m->start;
	}
	return m;
nomem:
	p_err("out of memory");
fail:
	hwbp_mux_free(m);
	return NULL;
}

int hwbp_mux_slots(const struct hwbp_mux *m)
{
	return m->slots;
}

/*
 * Reads the reference's per-CPU calls into ref_buf. false without a reference or when they
 * cannot be read (then every site is scaled by time, said once).
 */
static bool ref_read(struct hwbp_mux *m)
{
	int err;

	if (!m->base || m->ref_failed)
		return false;
	err = hist_session_site_calls(m->hs, m->v[0].s.id, m->ref_buf);
	if (err) {
		p_warn("cannot read the reference site's calls: %s; multiplexed counts are scaled "
		       "by time",
		       strerror(-err));
		m->ref_failed = true;
	}
	return !err;
}

/*
 * Runs the recorder on @cpu alone, so that a move of that CPU's event needs no IPI and the
 * traced code cannot run there during it. false when the recorder may not run there.
 */
static bool pin_to(struct hwbp_mux *m, int cpu)
{
	if (!m->home || !CPU_ISSET_S((size_t)cpu, m->set_size, m->home))
		return false;
	CPU_ZERO_S(m->set_size, m->one);
	CPU_SET_S((size_t)cpu, m->set_size, m->one);
	if (sched_setaffinity(0, m->set_size, m->one))
		return false;
	m->pinned = true;
	return true;
}

/* Back on the CPUs the recorder had. */
static void unpin(struct hwbp_mux *m)
{
	if (m->pinned)
		sched_setaffinity(0, m->set_size, m->home);
	m->pinned = false;
}

/*
 * Moves @slot's events to @addr on every CPU; on a refusal puts back those already moved.
 * Each CPU's event is moved from that CPU (pin_to): the kernel then disables, moves and
 * enables it there with interrupts off, and the traced code cannot call the site on that CPU
 * in the meantime. Around the move the reference's calls on that CPU are read into ref_off
 * (before) and ref_arm (after); calls in between (the recorder preempted there, or a CPU it may
 * not run on, where the move goes through an IPI: the outgoing site counted the first part,
 * neither the middle, the incoming site the last) are split evenly by the caller.
 */
static int move_slot(struct hwbp_mux *m, int slot, uint64_t addr)
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
	int cpu, back, err, rc;
	bool ref = ref_read(m), local;
	double t;

	for (cpu = 0; cpu < m->nr_cpus; cpu++) {
		if (*fd_at(m, slot, cpu) < 0)
			continue;
		local = pin_to(m, cpu);
		if (local && ref)
			ref = ref_read(m); /* the workload ran while the recorder moved here */
		m->ref_off[cpu] = m->ref_buf[cpu];
		t = monotime_s();
		rc = ioctl(*fd_at(m, slot, cpu), PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr);
		if (!rc) {
			m->move_s += monotime_s() - t;
			m->moves++;
			m->moves_local += local;
			if (ref && ref_read(m))
				m->ref_arm[cpu] = m->ref_buf[cpu];
			else
				m->ref_arm[cpu] = m->ref_off[cpu];
			continue;
		}
		err = -errno;
		attr.bp_addr = m->addr[slot];
		for (back = 0; back < cpu; back++)
			if (*fd_at(m, slot, back) >= 0)
				ioctl(*fd_at(m, slot, back), PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
				      &attr);
		return err;
	}
	m->addr[slot] = addr;
	return 0;
}

/* Whether rotated site @i is in the window that starts at @pos (both counted from base). */
static bool in_window(const struct hwbp_mux *m, size_t pos, size_t i)
{
	size_t rn = m->n - m->base, d;

	if (i < m->base)
		return true; /* the reference never leaves its register */
	d = (i - m->base + rn - pos) % rn;
	return d < (size_t)m->slots - m->base;
}

/* The next rotated position from @i (counted from base) that the kernel has not refused. */
static size_t next_good(const struct hwbp_mux *m, size_t i)
{
	size_t k, rn = m->n - m->base;

	for (k = 0; k < rn; k++, i = (i + 1) % rn)
		if (!m->v[m->base + i].bad)
			break;
	return i;
}

void hwbp_mux_tick(struct hwbp_mux *m)
{
	double t0, t1, t;
	size_t i, pos;
	int slot, cpu;

	if (m->stopped || m->n <= (size_t)m->slots)
		return;
	t0 = monotime_s();
	if ((t0 - m->last) * 1000 < HWBP_MUX_PERIOD_MS)
		return;
	/*
	 * The next window: the sites after the current one, in the order given (sites of one
	 * function are next to each other, so they mostly share windows). A site in both
	 * windows keeps its register; the others change places.
	 */
	pos = (m->pos + (size_t)m->slots - m->base) % (m->n - m->base);
	for (i = 0; i < m->n; i++) {
		struct mux_site *s = &m->v[i];
		size_t j;

		if (s->slot < 0 || in_window(m, pos, i))
			continue;
		slot = s->slot;
		for (j = 0; j < m->n; j++) {
			struct mux_site *e = &m->v[j];

			if (e->slot >= 0 || e->bad || !in_window(m, pos, j))
				continue;
			if (move_slot(m, slot, e->s.addr)) {
				p_warn("cannot move a breakpoint to 0x%llx: %s; that site records "
				       "nothing",
				       (unsigned long long)e->s.addr, strerror(errno));
				e->bad = true;
				continue;
			}
			t = monotime_s();
			/*
			 * The reference's calls between the two moves that bound a site's turn,
			 * each move's calls split evenly between the outgoing and incoming sites.
			 */
			for (cpu = 0; cpu < m->nr_cpus; cpu++) {
				uint64_t moving, mid;

				if (*fd_at(m, slot, cpu) < 0)
					continue;
				moving = m->ref_arm[cpu] - m->ref_off[cpu];
				mid = m->ref_off[cpu] + moving / 2;
				s->ref_seen += mid - s->ref_on[cpu];
				s->ref_moves += moving;
				s->ref_moves_credited += moving / 2;
				e->ref_on[cpu] = mid;
				e->ref_moves += moving;
				e->ref_moves_credited += moving - moving / 2;
			}
			s->running_s += t - s->on_since;
			s->slot = -1;
			e->slot = slot;
			e->on_since = t;
			break;
		}
	}
	unpin(m);
	t1 = monotime_s();
	m->pos = next_good(m, pos);
	m->last = t1;
	m->rotations++;
}

/* Disables slots [@from, @to) on every CPU. */
static void disable_slots(struct hwbp_mux *m, int from, int to)
{
	int slot, cpu;

	for (slot = from; slot < to; slot++)
		for (cpu = 0; cpu < m->nr_cpus; cpu++)
			if (*fd_at(m, slot, cpu) >= 0)
				ioctl(*fd_at(m, slot, cpu), PERF_EVENT_IOC_DISABLE, 0);
}

void hwbp_mux_stop(struct hwbp_mux *m)
{
	bool ref;
	size_t i;
	int cpu;

	if (!m || m->stopped)
		return;
	/*
	 * The rotated sites stop first, and the reference's calls are read while it still
	 * counts: a call the workload makes in between is then neither counted by a rotated
	 * site nor missing from the reference's share of it.
	 */
	disable_slots(m, (int)m->base, m->slots);
	m->end = monotime_s();
	ref = ref_read(m);
	for (i = 0; i < m->n; i++) {
		if (m->v[i].slot < 0)
			continue;
		m->v[i].running_s += m->end - m->v[i].on_since;
		for (cpu = 0; cpu < m->nr_cpus && ref && i >= m->base; cpu++)
			if (*fd_at(m, m->v[i].slot, cpu) >= 0)
				m->v[i].ref_seen += m->ref_buf[cpu] - m->v[i].ref_on[cpu];
	}
	disable_slots(m, 0, (int)m->base);
	if (ref_read(m))
		for (cpu = 0; cpu < m->nr_cpus; cpu++)
			m->ref_calls += m->ref_buf[cpu];
	m->stopped = true;
}

void hwbp_mux_times(const struct hwbp_mux *m, size_t i, uint64_t *enabled, uint64_t *running)
{
	double end = m->stopped ? m->end : monotime_s();

	*enabled = (uint64_t)((end - m->start) * 1e9);
	*running = (uint64_t)(m->v[i].running_s * 1e9);
	if (*running > *enabled)
		*running = *enabled;
}

void hwbp_mux_scaling(const struct hwbp_mux *m, size_t i, struct site_mux *out)
{
	*out = (struct site_mux){ .scaling = MUX_SCALING_TIME, .ref_site = -1 };
	hwbp_mux_times(m, i, &out->enabled_ns, &out->running_ns);
	if (!m->base || m->ref_failed)
		return;
	out->ref_site = (int32_t)m->v[0].s.id;
	out->ref_calls = m->ref_calls;
	out->ref_calls_running = i ? m->v[i].ref_seen : m->ref_calls;
	out->ref_calls_moves = i ? m->v[i].ref_moves : 0;
	out->ref_calls_moves_credited = i ? m->v[i].ref_moves_credited : 0;
	if (!i)
		out->scaling = MUX_SCALING_NONE;
	else if (m->v[i].ref_seen >= HWBP_MUX_REF_MIN_CALLS && m->v[i].ref_seen <= m->ref_calls)
		out->scaling = MUX_SCALING_REFERENCE;
}

uint64_t hwbp_mux_rotations(const struct hwbp_mux *m)
{
	return m->rotations;
}

double hwbp_mux_move_us(const struct hwbp_mux *m, uint64_t *moves, uint64_t *local)
{
	*moves = m->moves;
	*local = m->moves_local;
	return m->moves ? m->move_s * 1e6 / (double)m->moves : 0;
}

void hwbp_mux_free(struct hwbp_mux *m)
{
	int slot;

	if (!m)
		return;
	for (slot = 0; m->cpu_fds && slot < HWBP_MUX_MAX_SLOTS; slot++)
		close_slot(m, slot);
	free(m->cpu_fds);
	free(m->links);
	free(m->ref_buf);
	free(m->ref_on_all);
	if (m->home)
		CPU_FREE(m->home);
	if (m->one)
		CPU_FREE(m->one);
	free(m->v);
	free(m);
}
