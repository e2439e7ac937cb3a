// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's analysis with both consumers `analyze` and `diff` print: the per-cgroup
 * attribution and the refaults.
 */
#include "cgroups.h"
#include "refaults.h"

int rs_refaults_analysis_run(const char *path, const struct rs_analysis_opts *ao_in,
			     const struct rs_cgroups_opts *co,
			     const struct rs_refaults_opts *ro, struct rs_analysis **a,
			     struct rs_cgroups **cg, struct rs_refaults **rf,
			     struct rs_source **src, struct rs_error *err)
{
	struct rs_consumer cons[RS_ANALYSIS_MAX_CONSUMERS];
	struct rs_analysis_opts ao = *ao_in;

	*rf = NULL;
	if (ao.nr_consumers + 2 > RS_ANALYSIS_MAX_CONSUMERS)
		return rs_error_set(err, "at most %d consumers", RS_ANALYSIS_MAX_CONSUMERS - 2);
	*rf = rs_refaults_new(ro, err);
	if (!*rf)
		return -1;
	for (int i = 0; i < ao.nr_consumers; i++)
		cons[i] = ao.consumers[i];
	rs_refaults_consumer(*rf, &cons[ao.nr_consumers++]);
	ao.consumers = cons;
	if (rs_cgroups_analysis_run(path, &ao, co, a, cg, src, err) < 0) {
		rs_refaults_free(*rf);
		*rf = NULL;
		return -1;
	}
	return 0;
}
