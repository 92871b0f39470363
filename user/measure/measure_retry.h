/* SPDX-License-Identifier: GPL-2.0 */
/* measure_retry.h: the measurement layer's one plausibility rule: judge, measure again, refuse */
#ifndef CP_MEASURE_RETRY_H
#define CP_MEASURE_RETRY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * One rule for every measurement that can come out implausible (docs/design.md#layers): it is
 * measured, judged, and while the judging finds it implausible it is measured again, up to
 * @tries measurements in all; then it is refused with the reason the last judging measured.
 * What "again" means (the failing points only, a new seed, a longer budget) is the caller's
 * @measure; what "implausible" means is its @judge; how many times is the protocol's
 * (costmodel/protocol.h, MEASURE_RETRY_*).
 */
struct measure_retry {
	const char *what; /* what is measured, to head every message: "replay: memcpy" */
	int tries;	  /* measurements in all, the first included (at least 1) */
	/*
	 * Refused at the end: the last reason printed as an error (@judge words it as a refusal
	 * when told it is the last). Else the last measurement is kept, its reason stated by the
	 * caller (--validate keeps the replay nearest the stored state).
	 */
	bool refuse;
	/* Measurement @attempt (0: the first); 0 or -errno, which ends the rule. */
	int (*measure)(void *ctx, int attempt);
	/*
	 * Judges the measurements so far: 0 if they can be taken; -EDOM with the reason in @why
	 * (@len bytes; @last: no measurement follows); or -errno, which ends the rule.
	 */
	int (*judge)(void *ctx, int attempt, bool last, char *why, size_t len);
	void *ctx;
};

/* measure_retry_run()'s answer when the last measurement is kept although still implausible. */
#define MEASURE_RETRY_KEPT 1

/*
 * Runs the rule (says "measuring again" with the reason before each new measurement). Returns
 * 0 (taken); when still implausible after @r->tries, -EDOM (refused, printed) if @r->refuse,
 * else MEASURE_RETRY_KEPT; or the -errno of @r->measure or @r->judge (never mistaken for the
 * rule's own answers: a -EDOM of theirs is returned as it is, before any retry).
 */
int measure_retry_run(const struct measure_retry *r);

#endif
