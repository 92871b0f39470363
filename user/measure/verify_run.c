// SPDX-License-Identifier: GPL-2.0
/* verify_run.c: a command run with and without a setting, interleaved, its CPU time compared */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "lib/env_copy.h"
#include "lib/log.h"
#include "lib/median.h"
#include "lib/monotime.h"
#include "paired_stats.h"
#include "verify_run.h"

#define VERIFY_SEED 0x7665726966790001ULL /* fixed: the same runs give the same interval */

int verify_change(const double *a, const double *b, size_t n, double *pct, double *lo, double *hi)
{
	double *ratio = malloc((n + 1) * sizeof(*ratio));
	size_t i;
	int err;

	if (!ratio)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ratio[i] = (b[i] > 1e-6 ? b[i] : 1e-6) / (a[i] > 1e-6 ? a[i] : 1e-6);
	err = paired_median_ci(ratio, NULL, 0, n, VERIFY_SEED, pct, lo, hi);
	free(ratio);
	return err;
}

/* The entry that carries a side's setting: GLIBC_TUNABLES, or a stand-in when it is unset. */
static char *side_entry(const char *tunables)
{
	char *e;

	if (!tunables)
		return strdup(VERIFY_UNSET_VAR "=");
	return asprintf(&e, "GLIBC_TUNABLES=%s", tunables) < 0 ? NULL : e;
}

/*
 * One run's environment: this one without GLIBC_TUNABLES, the side's entry, and a pad that
 * gives both sides environments of one size, in entries and in bytes: the environment's size
 * moves where the stack starts, which alone can change a program's time by some percent
 * (Mytkowicz et al., "Producing wrong data without doing anything obviously wrong", 2009).
 * @vars[0..1] hold the two added strings, for the caller to free.
 */
static char **run_env(const struct verify_opts *o, const char *tunables, char **vars)
{
	char *ea = side_entry(o->tunables_a), *eb = side_entry(o->tunables_b);
	size_t n, la, lb, pad;
	char **env = NULL;

	vars[0] = vars[1] = NULL;
	if (!ea || !eb)
		goto out;
	la = strlen(ea);
	lb = strlen(eb);
	vars[0] = side_entry(tunables);
	pad = (la > lb ? la : lb) - (vars[0] ? strlen(vars[0]) : 0);
	if (!vars[0] || asprintf(&vars[1], VERIFY_PAD_VAR "=%*s", (int)pad, "") < 0) {
		vars[1] = NULL;
		goto out;
	}
	memset(vars[1] + strlen(VERIFY_PAD_VAR "="), 'x', pad);
	env = env_copy("GLIBC_TUNABLES", 2, &n);
	if (env) {
		env[n++] = vars[0];
		env[n++] = vars[1];
		env[n] = NULL;
	}
out:
	free(ea);
	free(eb);
	return env;
}

static double tv_s(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

/* Says how run @what of @argv[0] failed, from its wait status. */
static void say_failed(const char *name, const char *what, int status)
{
	if (WIFEXITED(status))
		p_err("%s: '%s' exited with status %d: verify stops (both runs must succeed)", what,
		      name, WEXITSTATUS(status));
	else
		p_err("%s: '%s' was killed by signal %d (SIG%s): verify stops", what, name,
		      WTERMSIG(status), sigabbrev_np(WTERMSIG(status)) ?: "?");
}

/* One run of the command with @tunables: its CPU and wall seconds. 0, or -ECHILD (said). */
static int run_once(const struct verify_opts *o, const char *tunables, const char *what,
		    double *cpu, double *wall)
{
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	char *vars[2], **env = run_env(o, tunables, vars);
	int status = 0, err;
	double t0;
	pid_t pid;

	if (!env) {
		free(vars[0]);
		free(vars[1]);
		return -ENOMEM;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	if (o->keep_output) {
		posix_spawn_file_actions_adddup2(&fa, STDERR_FILENO, STDOUT_FILENO);
	} else {
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	}
	t0 = monotime_s();
	err = posix_spawnp(&pid, o->argv[0], &fa, NULL, o->argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	free(vars[0]);
	free(vars[1]);
	if (err) {
		p_err("%s: cannot run '%s': %s", what, o->argv[0], strerror(err));
		return -ECHILD;
	}
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR) {
			p_err("%s: cannot wait for '%s': %s", what, o->argv[0], strerror(errno));
			return -ECHILD;
		}
	*wall = monotime_s() - t0;
	*cpu = tv_s(&ru.ru_utime) + tv_s(&ru.ru_stime);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		say_failed(o->argv[0], what, status);
		return -ECHILD;
	}
	return 0;
}

/* A counted run A, with the caller's hook around it. */
static int run_a(const struct verify_opts *o, const char *what, double *cpu, double *wall)
{
	int err;

	if (o->around_a)
		o->around_a(o->around_ctx, true);
	err = run_once(o, o->tunables_a, what, cpu, wall);
	if (o->around_a)
		o->around_a(o->around_ctx, false);
	return err;
}

/* Pair @i (0-based): A then B when even, B then A when odd. */
static int run_pair(const struct verify_opts *o, size_t i, struct verify_result *r)
{
	char wa[80], wb[80];
	bool b_first = i % 2;
	int err;

	snprintf(wa, sizeof(wa), "pair %zu, run A (without the threshold)", i + 1);
	snprintf(wb, sizeof(wb), "pair %zu, run B (with the threshold)", i + 1);
	if (b_first)
		err = run_once(o, o->tunables_b, wb, &r->cpu_b[i], &r->wall_b[i])
			      ?: run_a(o, wa, &r->cpu_a[i], &r->wall_a[i]);
	else
		err = run_a(o, wa, &r->cpu_a[i], &r->wall_a[i])
			      ?: run_once(o, o->tunables_b, wb, &r->cpu_b[i], &r->wall_b[i]);
	return err;
}

static double median_of(const double *v, size_t n)
{
	double *t = malloc((n + 1) * sizeof(*t)), m;

	if (!t)
		return NAN; /* no memory: no median, as for no values */
	memcpy(t, v, n * sizeof(*t));
	m = median_select(t, n);
	free(t);
	return m;
}

int verify_run(const struct verify_opts *o, struct verify_result *r)
{
	size_t cap = o->max_pairs > VERIFY_MIN_PAIRS ? o->max_pairs : VERIFY_MIN_PAIRS;
	double start = monotime_s(), c, w;
	int err;

	memset(r, 0, sizeof(*r));
	r->cpu_a = calloc(cap, sizeof(double));
	r->cpu_b = calloc(cap, sizeof(double));
	r->wall_a = calloc(cap, sizeof(double));
	r->wall_b = calloc(cap, sizeof(double));
	if (!r->cpu_a || !r->cpu_b || !r->wall_a || !r->wall_b)
		return -ENOMEM;
	err = run_once(o, o->tunables_a, "warm-up run A (without the threshold)", &c, &w)
		      ?: run_once(o, o->tunables_b, "warm-up run B (with the threshold)", &c, &w);
	while (!err) {
		err = run_pair(o, r->pairs, r);
		if (err)
			break;
		r->pairs++;
		if (o->progress)
			p_info("pair %zu: CPU A %.4f s, B %.4f s (wall %.4f, %.4f)", r->pairs,
			       r->cpu_a[r->pairs - 1], r->cpu_b[r->pairs - 1],
			       r->wall_a[r->pairs - 1], r->wall_b[r->pairs - 1]);
		if (r->pairs < VERIFY_MIN_PAIRS)
			continue;
		err = verify_change(r->cpu_a, r->cpu_b, r->pairs, &r->pct, &r->lo, &r->hi);
		if (err)
			break;
		if (r->hi - r->lo <= o->target_width)
			r->stopped_by = "interval width";
		else if (r->pairs >= cap)
			r->stopped_by = "--pairs";
		else if (monotime_s() - start >= o->max_seconds)
			r->stopped_by = "--max-seconds";
		if (r->stopped_by)
			break;
	}
	r->seconds = monotime_s() - start;
	if (err)
		return err;
	r->cpu_a_median = median_of(r->cpu_a, r->pairs);
	r->cpu_b_median = median_of(r->cpu_b, r->pairs);
	return verify_change(r->wall_a, r->wall_b, r->pairs, &r->wall_pct, &r->wall_lo,
			     &r->wall_hi);
}

void verify_result_free(struct verify_result *r)
{
	free(r->cpu_a);
	free(r->cpu_b);
	free(r->wall_a);
	free(r->wall_b);
	memset(r, 0, sizeof(*r));
}

bool verify_agree(double p_lo, double p_hi, double m_lo, double m_hi)
{
	return p_lo <= m_hi && m_lo <= p_hi;
}
