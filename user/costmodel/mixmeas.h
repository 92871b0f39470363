/* SPDX-License-Identifier: GPL-2.0 */
/* mixmeas.h: a paired measurement of one family's mix: every policy timed against today's code */
#ifndef CP_MIXMEAS_H
#define CP_MIXMEAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include "policy_key.h"
#include "protocol.h"

/*
 * `calibrate --mix PROFILE` (or --hist FILE) replays the profile's own lengths through today's
 * code and every candidate policy on this CPU (docs/estimate.md#the-paired-measurement): each
 * round draws a chunk of calls from the mix and times it under every policy in a shuffled
 * order; a policy's change is the median over rounds of its time over today's in the same
 * round, its 95% interval a bootstrap over rounds. The result is stored in the cost model under
 * a digest of the mix, and `estimate` reads it back: it is the answer for that mix on this CPU.
 *
 * Rounds are sorted into two strata by a reference (a fixed chunk timed under today's code at
 * the start of every round): "quiet" when the reference ran within MIXMEAS_QUIET_TOLERANCE of
 * its fastest, "busy" otherwise. On this project's development VM the reference falls into two
 * clusters, 1.0-1.3x and 1.5-2.0x its fastest, the second whenever the other CPU is busy (an
 * integer-only spinner there is enough), and the policies do not slow alike: REP MOVSB slows
 * more than the loops, so a short mix's T=512 measured +11 to +21% quiet and -1% busy in one
 * run. A mixture would answer with whatever share of each state a run happened to see. The
 * answer is the quiet stratum's; the busy one is kept and shown beside it.
 *
 * Contention is not always two clusters. On an Intel Xeon host (2 vCPUs, the load on the SMT
 * siblings the hypervisor's other tenants') the reference spread evenly from 1.0 to 2x, and
 * the change moved with it even inside 25%: REP MOVSB against the loop on btrfs's mix was
 * -24.5% at the fastest 5% of rounds and -27% to -30% over a 25% window in runs where the core
 * was seldom quiet. So the quiet stratum is the tightest window of MIXMEAS_QUIET_LADDER that
 * holds PAIRED_MIN_QUIET rounds (the run goes on for them), and a run whose quiet rounds are
 * fewer than MIXMEAS_SELDOM_QUIET of all says so beside its figures. On a core contended
 * throughout (a parallel build on the other CPU: 12 of 2,382 rounds within 25%), no window of
 * the ladder holds enough rounds, and the answer is the PAIRED_MIN_QUIET rounds of fastest
 * reference, their window wider than 25%: figures, said to be a contended core's, rather than
 * no figures and a verdict of "no difference" drawn from none.
 */

#define MIXMEAS_MAX_ROWS 80

/* One stratum's figures for one policy, in percent of today's time. */
struct mixmeas_figure {
	double delta_pct; /* median over rounds of 100 * (policy / today - 1) */
	double ci_low;	  /* 95% bootstrap interval of that median */
	double ci_high;
};

struct mixmeas_row {
	struct policy_key key;	    /* the policy: what estimate's rows are joined by */
	char name[POLICY_NAME_LEN]; /* its display name, as the JSON stores it ("T=512") */
	struct mixmeas_figure quiet, busy;
	double ns_per_call; /* quiet rounds' median time per call, harness included */
};

struct mixmeas {
	char *family; /* "memcpy" */
	char *digest; /* of the mix (estimate's est_mix_digest()): what estimate matches */
	/* One site's own mix (estimate's site label, within the profile of @digest), or NULL: the
	 * whole profile's. A site's measurement is filed under the whole's digest and the site. */
	char *site;
	char *input;	  /* what was measured, for the reader: "btrfs.json", "--hist Fleet.txt" */
	char *today;	  /* today's implementation, as replayed (an asm-ref name) */
	char *weight;	  /* "calls" (counted, or a table) or "time" (sampled: calls inferred) */
	char *calls_note; /* how the calls were drawn, e.g. the inference of a sampled mix */
	/* The conditions: part of the answer, printed beside it. */
	char *cache;	     /* "warm", "dst-flushed", ...: each call's cache state */
	uint64_t ws_bytes;   /* warm working set per side (random offsets within it) */
	uint64_t cold_bytes; /* a flushed side's region (random lines, far larger than the LLC) */
	char *alignment;     /* "recorded" (the profile's address alignments) or "uniform" */
	char *distance;	     /* "recorded" (the profile's distance classes) or "not recorded" */
	/* Percent of calls drawn at their own lengths (below 64 B, and the input's exact lengths),
	 * the rest uniform within their buckets; NAN: not stored (older files: exact below 64 B) */
	double exact_pct;
	/* The calls' order: the input's recorded runs (docs/estimate.md#call-order), this many of
	 * them, of order_calls calls together, each pass the runs in an order of its own; 0 runs:
	 * every length drawn independently from the buckets (also older files) */
	uint64_t order_runs, order_calls;
	uint64_t chunk_calls;
	uint64_t warmup_calls; /* each timed pass follows an untimed one over another chunk */
	uint64_t batches;      /* the rounds' batches, each in memory mapped afresh */
	/* The distinct places of the replay's code its batches ran at, each batch a process of
	 * its own where it could be (measure/paired_child.h); 0: not recorded (older files). */
	uint64_t code_places;
	/* The constants it was measured with (protocol.h); version 0: not recorded (older files). */
	struct measure_protocol protocol;
	int cpu;
	uint64_t seed;
	double budget_s, time_s;
	uint64_t rounds, quiet_rounds, busy_rounds;
	double quiet_tolerance; /* quiet: the reference within this fraction of its fastest */
	/* The A/A control: today's code timed twice in every round (must be 0 within noise). */
	struct mixmeas_figure control;
	/* The largest gap between two rows that run the same code on every replayed call. */
	double same_code_gap_pct; /* NAN: no two rows do */
	struct mixmeas_row *rows;
	size_t nr_rows;
	double when; /* the sitting's end, seconds since the epoch (0: not recorded) */
	/* Sittings pooled into this one (mixmeas_pool.h): 1 alone; the first one's end. */
	uint64_t sittings;
	double first_when;
};

void mixmeas_free(struct mixmeas *m);
/* The row named @name, or NULL. */
const struct mixmeas_row *mixmeas_row_find(const struct mixmeas *m, const struct policy_key *k);
/* True if the quiet stratum has figures (enough quiet rounds). */
bool mixmeas_has_quiet(const struct mixmeas *m);
/* True if the quiet rounds are fewer than MIXMEAS_SELDOM_QUIET of all: said beside the figures. */
bool mixmeas_seldom_quiet(const struct mixmeas *m);

/* How far apart pooled sittings were: "the first 6 min before the last", or "at times not recorded". */
const char *mixmeas_sittings_apart(const struct mixmeas *m, char *buf, size_t len);

/* Its condition, for people: "warm, 8 KiB a side", "dst-flushed, 512 KiB a side". */
const char *mixmeas_condition(const struct mixmeas *m, char *buf, size_t len);

json_object *mixmeas_to_json(const struct mixmeas *m);
/*
 * Reads one entry of a cost model's "paired" array into @m (strings copied). Returns 0, or
 * -EINVAL after printing what is wrong, naming @where.
 */
int mixmeas_from_json(json_object *o, const char *where, struct mixmeas *m);

#endif
