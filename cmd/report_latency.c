// SPDX-License-Identifier: GPL-2.0
/* Latency summaries as JSON, the same in `analyze` and `cgroups` (include/report.h). */
#include <stdio.h>

#include "latency.h"
#include "report.h"

#define JI(v) json_integer((json_int_t)(v))

json_t *rs_latency_json(const struct rs_latency_summary *l)
{
	json_t *o = json_object();
	char k[8];

	/* of no episode there is a total (0) but no minimum, maximum, mean or percentile */
	json_object_set_new(o, "min", l->count ? JI(rs_ns_to_us(l->min)) : json_null());
	json_object_set_new(o, "max", l->count ? JI(rs_ns_to_us(l->max)) : json_null());
	json_object_set_new(o, "total", JI(rs_ns_to_us(l->total)));
	json_object_set_new(o, "mean", l->count ? rs_json_real(l->mean / 1000.0) : json_null());
	for (int i = 0; i < RS_LAT_NR_PCT; i++) {
		snprintf(k, sizeof(k), "p%d", rs_lat_pcts[i]);
		json_object_set_new(o, k, l->count ? JI(rs_ns_to_us(l->pct[i])) : json_null());
	}
	return o;
}

json_t *rs_mmtests_json(const struct rs_latency_summary *l)
{
	json_t *o = json_object();
	char k[24];

	for (int i = 0; i < RS_MMT_NR; i++) {
		if (i + 1 < RS_MMT_NR)
			snprintf(k, sizeof(k), "%u-%u", rs_mmt_lower_ms[i], rs_mmt_lower_ms[i + 1]);
		else
			snprintf(k, sizeof(k), "%u+", rs_mmt_lower_ms[i]);
		json_object_set_new(o, k, JI(l->mmtests[i]));
	}
	return o;
}
