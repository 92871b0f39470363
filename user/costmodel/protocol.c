// SPDX-License-Identifier: GPL-2.0
/* protocol.c: the paired measurement's protocol, as this build measures and as files record it */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "lib/jsonr.h"
#include "lib/log.h"
#include "protocol.h"

/* The integer constants, by their JSON names. */
#define PROTOCOL_U64(X)                                                                            \
	X(chunk_calls)                                                                             \
	X(chunk_bytes)                                                                             \
	X(min_chunk_calls)                                                                         \
	X(warmup_calls)                                                                            \
	X(min_quiet)                                                                               \
	X(max_budgets)                                                                             \
	X(batches)                                                                                 \
	X(min_rounds)                                                                              \
	X(bootstrap)                                                                               \
	X(min_group)                                                                               \
	X(cpu_candidates)                                                                          \
	X(cpu_turns)                                                                               \
	X(cpu_passes)
/* ... those recorded from version 2 on (the retry rule's), ... */
#define PROTOCOL_U64_V2(X) X(retry_tries) X(retry_budget)
/* ... and the fractions and points. */
#define PROTOCOL_NUM(X) X(impossible_pct) X(settled_pct) X(place_spread) X(seldom_quiet)

void measure_protocol_current(struct measure_protocol *p)
{
	static const double ladder[] = MIXMEAS_QUIET_LADDER;

	_Static_assert(sizeof(ladder) / sizeof(ladder[0]) == MEASURE_QUIET_STEPS,
		       "MEASURE_QUIET_STEPS is the ladder's length");
	*p = (struct measure_protocol){
		.version = MEASURE_PROTOCOL_VERSION,
		.chunk_calls = PAIRED_CHUNK,
		.chunk_bytes = PAIRED_CHUNK_BYTES,
		.min_chunk_calls = PAIRED_MIN_CHUNK,
		.warmup_calls = PAIRED_WARMUP,
		.min_quiet = PAIRED_MIN_QUIET,
		.max_budgets = PAIRED_MAX_BUDGETS,
		.batches = PAIRED_BATCHES,
		.min_rounds = MIXMEAS_MIN_ROUNDS,
		.bootstrap = PAIRED_BOOTSTRAP,
		.min_group = PAIRED_MIN_GROUP,
		.cpu_candidates = PAIRED_CPU_CANDIDATES,
		.cpu_turns = PAIRED_CPU_TURNS,
		.cpu_passes = PAIRED_CPU_PASSES,
		.retry_tries = MEASURE_RETRY_PAIRED_TRIES,
		.retry_budget = MEASURE_RETRY_PAIRED_BUDGET,
		.impossible_pct = PAIRED_IMPOSSIBLE_PCT,
		.settled_pct = PAIRED_SETTLED_PCT,
		.place_spread = PAIRED_PLACE_SPREAD,
		.seldom_quiet = MIXMEAS_SELDOM_QUIET,
	};
	memcpy(p->quiet_ladder, ladder, sizeof(ladder));
}

bool measure_protocol_same(const struct measure_protocol *a, const struct measure_protocol *b)
{
	size_t i;

	if (a->version != b->version)
		return false;
#define SAME(f)                                                                                    \
	if (a->f != b->f)                                                                          \
		return false;
	PROTOCOL_U64(SAME)
	PROTOCOL_U64_V2(SAME)
	PROTOCOL_NUM(SAME)
#undef SAME
	for (i = 0; i < MEASURE_QUIET_STEPS; i++)
		if (a->quiet_ladder[i] != b->quiet_ladder[i])
			return false;
	return true;
}

const char *measure_protocol_name(const struct measure_protocol *p, char *buf, size_t len)
{
	if (!p->version)
		snprintf(buf, len, "no protocol recorded");
	else
		snprintf(buf, len, "protocol %u", p->version);
	return buf;
}

json_object *measure_protocol_to_json(const struct measure_protocol *p)
{
	json_object *o, *ladder;
	size_t i;

	if (!p->version)
		return NULL;
	o = json_object_new_object();
	ladder = json_object_new_array();
	json_object_object_add(o, "version", json_object_new_int((int)p->version));
#define PUT_U64(f) json_object_object_add(o, #f, json_object_new_uint64(p->f));
#define PUT_NUM(f) json_object_object_add(o, #f, json_object_new_double(p->f));
	PROTOCOL_U64(PUT_U64)
	PROTOCOL_U64_V2(PUT_U64)
	PROTOCOL_NUM(PUT_NUM)
#undef PUT_U64
#undef PUT_NUM
	for (i = 0; i < MEASURE_QUIET_STEPS; i++)
		json_object_array_add(ladder, json_object_new_double(p->quiet_ladder[i]));
	json_object_object_add(o, "quiet_ladder", ladder);
	return o;
}

static int ladder_from_json(json_object *o, struct measure_protocol *p)
{
	json_object *a;
	size_t i;

	if (!json_object_object_get_ex(o, "quiet_ladder", &a) ||
	    !json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != MEASURE_QUIET_STEPS)
		return -EINVAL;
	for (i = 0; i < MEASURE_QUIET_STEPS; i++) {
		json_object *e = json_object_array_get_idx(a, i);

		if (!json_object_is_type(e, json_type_double) &&
		    !json_object_is_type(e, json_type_int))
			return -EINVAL;
		p->quiet_ladder[i] = json_object_get_double(e);
		if (!(p->quiet_ladder[i] > 0) || !isfinite(p->quiet_ladder[i]))
			return -EINVAL;
	}
	return 0;
}

int measure_protocol_from_json(json_object *o, const char *where, struct measure_protocol *p)
{
	uint64_t version = 0;
	int err = 0;

	memset(p, 0, sizeof(*p));
	if (!json_object_is_type(o, json_type_object) || jsonr_u64(o, "version", &version) ||
	    version < 1 || version > 0xffff)
		err = -EINVAL;
	p->version = (unsigned int)version;
#define GET_U64(f)                                                                                 \
	if (!err && jsonr_u64(o, #f, &p->f))                                                       \
		err = -EINVAL;
#define GET_NUM(f)                                                                                 \
	if (!err && (jsonr_num(o, #f, &p->f) || !isfinite(p->f) || p->f < 0))                      \
		err = -EINVAL;
	PROTOCOL_U64(GET_U64)
	if (p->version >= 2) {
		PROTOCOL_U64_V2(GET_U64)
	} else { /* version 1 measured with the same rule, which it did not record */
		p->retry_tries = 2;
		p->retry_budget = 2;
	}
	PROTOCOL_NUM(GET_NUM)
#undef GET_U64
#undef GET_NUM
	if (!err)
		err = ladder_from_json(o, p);
	if (err) {
		p_err("%s: a \"protocol\" is incomplete or out of range (version 1 or later, and "
		      "every constant of its version: docs/costmodel-format.md#protocol)",
		      where);
		memset(p, 0, sizeof(*p));
	}
	return err;
}
