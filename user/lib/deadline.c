// SPDX-License-Identifier: GPL-2.0
/* deadline.c: a call in a thread of its own, waited for on CLOCK_MONOTONIC until its deadline */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>
#include "deadline.h"

/* Shared by the caller and the thread; freed by whichever of them is the last to let go. */
struct call {
	pthread_mutex_t lock;
	pthread_cond_t done_cv;
	void (*fn)(void *arg);
	void *arg;
	bool done, abandoned;
};

static void call_free(struct call *c)
{
	pthread_cond_destroy(&c->done_cv);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void *run(void *p)
{
	struct call *c = p;
	bool abandoned;

	c->fn(c->arg);
	pthread_mutex_lock(&c->lock);
	c->done = true;
	abandoned = c->abandoned;
	pthread_cond_signal(&c->done_cv);
	pthread_mutex_unlock(&c->lock);
	if (abandoned)
		call_free(c);
	return NULL;
}

static struct timespec monotonic_after(double seconds)
{
	struct timespec t;
	long ns;

	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_sec += (time_t)seconds;
	ns = t.tv_nsec + (long)((seconds - (double)(time_t)seconds) * 1e9);
	t.tv_sec += ns / 1000000000L;
	t.tv_nsec = ns % 1000000000L;
	return t;
}

int deadline_run(void (*fn)(void *arg), void *arg, double seconds)
{
	struct call *c = seconds > 0 ? calloc(1, sizeof(*c)) : NULL;
	pthread_condattr_t ca;
	struct timespec until;
	pthread_t th;
	bool done;

	if (!c) {
		fn(arg);
		return 0;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->done_cv, &ca);
	pthread_condattr_destroy(&ca);
	c->fn = fn;
	c->arg = arg;
	if (pthread_create(&th, NULL, run, c)) {
		call_free(c);
		fn(arg);
		return 0;
	}
	pthread_detach(th);
	until = monotonic_after(seconds);
	pthread_mutex_lock(&c->lock);
	while (!c->done && pthread_cond_timedwait(&c->done_cv, &c->lock, &until) != ETIMEDOUT)
		;
	done = c->done;
	c->abandoned = !done;
	pthread_mutex_unlock(&c->lock);
	if (!done)
		return -ETIMEDOUT;
	call_free(c);
	return 0;
}
