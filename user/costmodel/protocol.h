/* SPDX-License-Identifier: GPL-2.0 */
/* protocol.h: every constant of the paired measurement that can change an answer, in one home */
#ifndef CP_PROTOCOL_H
#define CP_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

/*
 * The paired measurement's protocol (docs/costmodel-format.md#protocol). Each constant below is
 * one choice of how a mix is measured; a different value can give another answer for the same
 * mix on the same machine. They live here and nowhere else, and struct measure_protocol
 * records them, with MEASURE_PROTOCOL_VERSION, in every stored measurement (mixmeas.h): a
 * reader can tell how a figure was made, and two sittings made under different protocols are
 * never pooled. Change a value here, bump the version.
 *
 * Several values were tuned on this project's development VMs (2 vCPUs, AMD Zen 4, Zen 5 and
 * an Intel Xeon at different times): each says so, and docs/calibrate.md#assumptions-still-constant says how
 * to derive it again.
 */
#define MEASURE_PROTOCOL_VERSION 2 /* 2: the retry rule's constants recorded (1: the same values) */

/* Calls per round, fewer for long copies (PAIRED_CHUNK_BYTES), never fewer than the minimum. */
#define PAIRED_CHUNK 4096
#define PAIRED_CHUNK_BYTES (16UL << 20) /* ... so that a round's pass copies about this much */
#define PAIRED_MIN_CHUNK 256
/* Untimed calls of the previous round before each timed pass. */
#define PAIRED_WARMUP 1024

/* A same-code pair or a dispatch further off than this (points), beyond noise, is impossible. */
#define PAIRED_IMPOSSIBLE_PCT 1.0

/*
 * Quiet rounds wanted: the run goes on for them, and for an A/A control within
 * PAIRED_SETTLED_PCT ...
 */
#define PAIRED_MIN_QUIET 100
#define PAIRED_MAX_BUDGETS 4 /* ... up to this many times its budget */
/*
 * The A/A control's interval a run goes on for (up to PAIRED_MAX_BUDGETS times its budget):
 * both ends within this many points of 0. Quiet runs on this project's machines end well
 * inside it (±0.03 .. ±0.3 points, 80 runs of bench/estimate_repeat.sh); a run on a
 * contended core had -1.77 .. +0.61, and its T=0 (+0.87%, today's code behind one compare,
 * +1.16% in 4 quiet runs) read "no difference" where the others read "keep today's code".
 */
#define PAIRED_SETTLED_PCT 0.5

/*
 * Batches of rounds, each in memory mapped afresh (other pages, other cache sets and colours)
 * and, where it can be, in a process of its own, whose code the kernel placed elsewhere
 * (paired_child.h): the interval is then bootstrapped over batches and rounds within them, so
 * that it covers the state of the memory and of the code's place a run happens to get, not
 * only the noise from round to round. Eight, so that the batches' spread is seen in each run:
 * one process's code place moved fleet memcpy's T=32 by 20 points (docs/estimate.md#batches).
 */
#define PAIRED_BATCHES 8
/* ... and more of the same length while either is wanted (PAIRED_MAX_BUDGETS). */
#define PAIRED_MAX_BATCHES (PAIRED_BATCHES * PAIRED_MAX_BUDGETS)

/*
 * A round is quiet when its reference ran close to the fastest of its own batch, not of the
 * run: the reference is today's code, whose time moves with the place of the code too (the
 * fastest reference of 8 batches, each in a process of its own, differed by up to 8.5% on
 * fleet memcpy), and judged against the run's fastest, the 5% window kept the rounds of one
 * or two places only (178 of 208 quiet rounds from one batch), so that the run's answer was
 * one place's. A batch whose fastest is more than this above the run's was contended
 * throughout (a busy core runs the reference 1.3 to 2 x slower): its rounds are judged against
 * this much above the run's fastest, not against themselves.
 */
#define PAIRED_PLACE_SPREAD 0.15

/*
 * The quiet stratum: the tightest window of this ladder (fractions above the fastest
 * reference) that holds PAIRED_MIN_QUIET rounds (mixmeas.h says why a ladder); the widest is
 * also old cost models' one window.
 */
#define MEASURE_QUIET_STEPS 3
#define MIXMEAS_QUIET_LADDER                                                                       \
	{                                                                                          \
		0.05, 0.10, 0.25                                                                   \
	}
#define MIXMEAS_QUIET_TOLERANCE 0.25
#define MIXMEAS_SELDOM_QUIET 0.10 /* quiet rounds' share below which the run says so */
/* Fewer rounds than this in a stratum: no figures for it. */
#define MIXMEAS_MIN_ROUNDS 30

/* Resamples of the bootstrap: the interval's ends move by well under 0.1 point past this. */
#define PAIRED_BOOTSTRAP 2000
/*
 * Rounds a group needs to be drawn as a group of its own; smaller ones are joined to the
 * groups beside them. A run quiet in one batch only keeps a handful of rounds from each of the
 * others, rounds whose reference pass was fast while the rest of the round was disturbed:
 * drawn as groups as often as the quiet batch, such small groups made up whole resamples (the
 * unit test's case: 60, 3, 4 and 3 rounds put the lower end at -14%), and in one run of five
 * of bench/estimate_repeat.sh the A/A control's interval reached -6.9% and "keep today's code"
 * read "no difference".
 */
#define PAIRED_MIN_GROUP 20

/* Where a batch runs (paired_cpu.h): the quietest of these CPUs by reference passes. */
#define PAIRED_CPU_CANDIDATES 8 /* CPUs tried: the current one and those after it */
#define PAIRED_CPU_TURNS 2	/* turns over the candidates ... */
#define PAIRED_CPU_PASSES 4	/* ... each of this many timed reference passes */

/*
 * The measurement layer's one plausibility rule (measure/measure_retry.h): a measurement that
 * its judging finds implausible is measured again, up to this many measurements in all, then
 * refused with the reason measured. A paired measurement (an A/A control or a dispatch off
 * beyond noise, paired.h): twice in all, the second with a new seed and this many times the
 * budget before it (recorded in every stored measurement).
 */
#define MEASURE_RETRY_PAIRED_TRIES 2
#define MEASURE_RETRY_PAIRED_BUDGET 2
/*
 * A curve's points (calibrate, calib_judge.h: below this machine's measured floor, or
 * CALIB_NEIGHBOUR_FACTOR off both neighbours and not reproduced): the judging and two more,
 * each failing point measured again from scratch with at least this many runs (or --runs), so
 * that it has an interval to be compared with. Curves do not record a protocol yet.
 */
#define MEASURE_RETRY_CURVE_TRIES 3
#define MEASURE_RETRY_CURVE_MIN_RUNS 3
/*
 * A point this many times off both of its neighbours (in the same direction) is suspect: it
 * is measured again, and kept if it reproduces (calib_point_reproduces()). Not a physical
 * rule: sizes are at most 2x apart, so a 3x jump off both neighbours is more often a
 * disturbance than a cost, but a Zen 5 showed a real one (libc_memcpy dst-flushed 256 B).
 */
#define CALIB_NEIGHBOUR_FACTOR 3.0
/*
 * estimate --validate's replay, while today's code runs beyond EST_VALIDATE_STATE_PCT of the
 * stored measurement's time a call (the machine in another state): this many in all, each
 * with a seed of its own; then the nearest is kept, its gap stated (never refused: the gap is
 * the finding). Not stored: --validate writes no measurement.
 */
#define MEASURE_RETRY_VALIDATE_TRIES 3
/*
 * --validate checks the estimate only in the machine's state the estimate was measured in:
 * today's code, on the same mix under the same conditions, runs within this many percent of
 * the stored measurement's time per call, or the replay is taken again (the nearest kept, its
 * gap stated). On the development VM a memset replay found the core quiet in 131 of 6,247
 * rounds, ran today's code at 5.07 ns a call against the estimate's 3.95 (+28%), and read every
 * threshold 12% lower (T=32 +264% against +301%): a contended core compresses every ratio
 * towards 1, and its A/A control (+0.00%) cannot see it. The same code's time per call matched
 * within 0.05-0.4% on the short mixes and 4.8% on btrfs's long copies.
 */
#define EST_VALIDATE_STATE_PCT 10.0

/* The protocol a measurement was made under: the constants above, as recorded. */
struct measure_protocol {
	unsigned int version; /* 0: not recorded (measurements made before the protocol) */
	uint64_t chunk_calls, chunk_bytes, min_chunk_calls, warmup_calls;
	uint64_t min_quiet, max_budgets, batches;
	uint64_t min_rounds, bootstrap, min_group;
	uint64_t cpu_candidates, cpu_turns, cpu_passes;
	uint64_t retry_tries, retry_budget; /* from version 2 (version 1: 2 and 2, the same) */
	double impossible_pct, settled_pct, place_spread, seldom_quiet;
	double quiet_ladder[MEASURE_QUIET_STEPS];
};

/* The protocol this build measures with. */
void measure_protocol_current(struct measure_protocol *p);
/* Equal in every constant (and so in version). */
bool measure_protocol_same(const struct measure_protocol *a, const struct measure_protocol *b);
/* "protocol 1", or "no protocol recorded" for version 0. */
const char *measure_protocol_name(const struct measure_protocol *p, char *buf, size_t len);

/* {"version": 1, "chunk_calls": 4096, ...}; NULL for version 0 (nothing to record). */
json_object *measure_protocol_to_json(const struct measure_protocol *p);
/*
 * Reads @o (a "protocol" object) into @p. Returns 0, or -EINVAL after printing what is wrong,
 * naming @where. A missing or newer version is refused; a missing constant too.
 */
int measure_protocol_from_json(json_object *o, const char *where, struct measure_protocol *p);

#endif
