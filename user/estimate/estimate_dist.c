// SPDX-License-Identifier: GPL-2.0
/* estimate_dist.c: a family's pointer distances: recorded or assumed, and stated so */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "estimate_digest.h"
#include "estimate_dist.h"
#include "lib/num_format.h"
#include "profile/profile_dist.h"

void est_dist_fill(const struct est_input *in, enum copy_family f, struct est_family_result *fr)
{
	double *d = malloc(CP_NBUCKETS * CP_NR_DIST * sizeof(*d));
	int b, c;

	memset(fr->dist_calls, 0, sizeof(fr->dist_calls));
	fr->dist_recorded = d && est_family_distances(in, f, d);
	for (b = 0; fr->dist_recorded && b < CP_NBUCKETS; b++)
		for (c = 0; c < CP_NR_DIST; c++)
			fr->dist_calls[c] += d[b * CP_NR_DIST + c];
	free(d);
}

void est_dist_window(const struct est_costs *c, const struct est_policy *today,
		     struct est_family_result *r)
{
	struct est_costs plain = *c;
	double extra = 0, base = 0, calls = 0;
	bool split;
	int b, cls;

	r->dist_modelled = c->dist && (c->at[CP_DIST_AHEAD] || c->at[CP_DIST_BEHIND]);
	r->dist_window_calls = 0;
	r->dist_window_pct = NAN;
	if (!c->dist)
		return;
	plain.dist = NULL; /* every call at the plain curves: distance 0 */
	for (b = 0; b < CP_NBUCKETS; b++) {
		uint64_t lo = hist_bucket_lo((uint32_t)b), hi = hist_bucket_hi((uint32_t)b);
		double mean = r->bucket_calls[b] > 0 ? r->bucket_bytes[b] / r->bucket_calls[b]
						     : (double)lo;

		for (cls = CP_DIST_AHEAD; cls <= CP_DIST_BEHIND; cls++) {
			double n = c->dist[b * CP_NR_DIST + cls], zero;

			if (!(n > 0))
				continue;
			calls += n;
			if (!c->at[cls])
				continue;
			zero = est_cost_bucket(&plain, today, lo, hi, 1, mean, NULL, &split);
			base += n * zero;
			extra += n * (est_cost_bucket(c->at[cls], today, lo, hi, 1, mean, NULL,
						      &split) -
				      zero);
		}
	}
	r->dist_window_calls = calls;
	if (base > 0)
		r->dist_window_pct = 100 * extra / base;
}

static double total(const struct est_family_result *fr)
{
	double n = 0;
	int c;

	for (c = 0; c < CP_NR_DIST; c++)
		n += fr->dist_calls[c];
	return n;
}

/* Whether the replay (the measurement the answer comes from) placed the recorded classes. */
static bool replayed(const struct est_family_result *fr)
{
	return fr->meas && fr->meas->distance && !strcmp(fr->meas->distance, "recorded");
}

json_object *est_dist_to_json(const struct est_family_result *fr)
{
	json_object *o = json_object_new_object();
	int c;

	json_object_object_add(o, "recorded", json_object_new_boolean(fr->dist_recorded));
	if (fr->dist_recorded)
		for (c = 0; c < CP_NR_DIST; c++)
			/* aligned_64 where recorded: older profiles' answers stay as they were */
			if (c != CP_DIST_ALIGNED_64 || fr->dist_calls[c] > 0)
				json_object_object_add(
					o, dist_class_name(c),
					json_object_new_uint64((uint64_t)fr->dist_calls[c]));
	json_object_object_add(
		o, "modelled_at",
		json_object_new_string(fr->dist_modelled ? "recorded classes (calibrate "
							   "--distance curves)"
							 : "0 (calibrate's curves: --align 0,0)"));
	if (fr->dist_recorded) {
		json_object_object_add(o, "window_calls",
				       json_object_new_uint64((uint64_t)fr->dist_window_calls));
		json_object_object_add(
			o, "window_cost_pct",
			isfinite(fr->dist_window_pct)
				? json_object_new_double(round(fr->dist_window_pct * 100) / 100)
				: NULL);
	}
	json_object_object_add(o, "replayed",
			       json_object_new_string(!fr->meas	     ? "no replay"
						      : replayed(fr) ? "recorded classes"
								     : "sides independent"));
	return o;
}

void est_dist_print(FILE *f, const struct est_family_result *fr, const char *indent)
{
	char a[NUM_FORMAT_LEN], b[NUM_FORMAT_LEN], z[NUM_FORMAT_LEN], o[NUM_FORMAT_LEN];
	double t = total(fr);
	char cost[160] = "", aligned[96] = "", m[NUM_FORMAT_LEN];

	if (!fr->dist_recorded) {
		fprintf(f,
			"%spointer distance (dst - src) mod 4096: not recorded; modelled at 0%s\n",
			indent,
			fr->meas ? ", replayed with the two sides placed independently" : "");
		return;
	}
	if (fr->dist_calls[CP_DIST_ALIGNED_64] > 0) /* recorded since the class came: said then */
		snprintf(aligned, sizeof(aligned),
			 ", %s (%.1f%%) a nonzero multiple of 64 apart (mutually line-aligned)",
			 num_format((uint64_t)fr->dist_calls[CP_DIST_ALIGNED_64], m),
			 100 * fr->dist_calls[CP_DIST_ALIGNED_64] / t);
	if (isfinite(fr->dist_window_pct))
		snprintf(cost, sizeof(cost),
			 "; calibrate's distance curves put today's code %+.1f%% slower on the "
			 "calls in the windows than at distance 0",
			 fr->dist_window_pct);
	else if (fr->dist_window_calls > 0)
		snprintf(cost, sizeof(cost),
			 "; what the windows cost them is not modelled (calibrate --distance "
			 "measures it)");
	fprintf(f,
		"%spointer distance (dst - src) mod 4096, recorded: %s calls (%.1f%%) 1..63 B "
		"ahead, %s (%.1f%%) 1..63 B behind (the windows where copies can run slower), %s "
		"at 0, %s other%s%s; %s\n",
		indent, num_format((uint64_t)fr->dist_calls[CP_DIST_AHEAD], a),
		t > 0 ? 100 * fr->dist_calls[CP_DIST_AHEAD] / t : 0,
		num_format((uint64_t)fr->dist_calls[CP_DIST_BEHIND], b),
		t > 0 ? 100 * fr->dist_calls[CP_DIST_BEHIND] / t : 0,
		num_format((uint64_t)fr->dist_calls[CP_DIST_ZERO], z),
		num_format((uint64_t)fr->dist_calls[CP_DIST_OTHER], o), aligned, cost,
		replayed(fr)	    ? "replayed in those shares per length bucket"
		: fr->dist_modelled ? "the modelled figures cost each class at its own curves"
				    : "the modelled figures are at distance 0");
}

const char *est_dist_words(const struct est_family_result *fr, char *buf, size_t len)
{
	double t = total(fr);

	if (!fr->dist_recorded)
		snprintf(buf, len, "pointer distances not recorded (%s)",
			 fr->meas && fr->meas->distance ? "the two sides placed independently"
							: "modelled at distance 0");
	else
		snprintf(buf, len,
			 "pointer distances as recorded (%.1f%% of calls 1..63 B ahead, %.1f%% "
			 "behind)%s",
			 t > 0 ? 100 * fr->dist_calls[CP_DIST_AHEAD] / t : 0,
			 t > 0 ? 100 * fr->dist_calls[CP_DIST_BEHIND] / t : 0,
			 replayed(fr)	     ? ""
			 : fr->dist_modelled ? ", modelled at each class's distance curves"
					     : ", modelled at distance 0");
	return buf;
}
