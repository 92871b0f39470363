// SPDX-License-Identifier: GPL-2.0
/* task_follow.c: a command's descendants counted with it, as perf's inherit counts them */
#include <errno.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "lib/log.h"
#include "task_follow.h"
#include "cp_shared.h"

void task_follow_prepare(struct task_follow *tf, struct bpf_program *fork, struct bpf_program *exit,
			 struct bpf_map *followed, bool on)
{
	*tf = (struct task_follow){ .fork = fork, .exit = exit, .followed = followed, .on = on };
	bpf_program__set_autoload(fork, on);
	bpf_program__set_autoload(exit, on);
	if (!on)
		bpf_map__set_max_entries(followed, 1);
}

int task_follow_attach(struct task_follow *tf)
{
	int err;

	if (!tf->on)
		return 0;
	tf->fork_link = bpf_program__attach(tf->fork);
	tf->exit_link = tf->fork_link ? bpf_program__attach(tf->exit) : NULL;
	if (tf->exit_link)
		return 0;
	err = -errno;
	p_err("cannot follow the command's children (tracepoints sched_process_fork and "
	      "sched_process_exit): %s; --no-inherit counts the command's own process only",
	      strerror(-err));
	task_follow_detach(tf);
	return err;
}

void task_follow_report(const struct task_follow *tf, uint64_t not_followed)
{
	if (tf->on && not_followed)
		p_warn("%llu process(es) started by the command were not followed and not counted: "
		       "more than %d of its descendants were alive at once",
		       (unsigned long long)not_followed, CP_MAX_FOLLOWED);
}

void task_follow_detach(struct task_follow *tf)
{
	bpf_link__destroy(tf->fork_link);
	bpf_link__destroy(tf->exit_link);
	tf->fork_link = tf->exit_link = NULL;
}
