/* SPDX-License-Identifier: GPL-2.0 */
/* task_follow.h: a command's descendants counted with it (task_filter.h's fork and exit programs) */
#ifndef CP_TASK_FOLLOW_H
#define CP_TASK_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>

struct bpf_link;
struct bpf_map;
struct bpf_program;

/* The two programs of task_filter.h in a skeleton, and their links once attached. */
struct task_follow {
	struct bpf_program *fork, *exit;
	struct bpf_map *followed;
	struct bpf_link *fork_link, *exit_link;
	bool on;
};

/*
 * Before the skeleton is loaded: with @on the programs are loaded and followed keeps its size;
 * without, neither program is loaded and followed shrinks to one entry (no cost at all).
 */
void task_follow_prepare(struct task_follow *tf, struct bpf_program *fork, struct bpf_program *exit,
			 struct bpf_map *followed, bool on);
/* After load, before the command runs: attaches both when on. 0 or -errno (printed). */
int task_follow_attach(struct task_follow *tf);
/* Says how many processes were not followed (followed was full), if any. */
void task_follow_report(const struct task_follow *tf, uint64_t not_followed);
void task_follow_detach(struct task_follow *tf);

#endif
