// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's analysis with both consumers `analyze` and `diff` print: the per-cgroup
 * attribution and the refaults, the adder's memcg taken from the attribution as it streams.
 */
#include "cgroups.h"
#include "refaults.h"

struct run_link {
	struct rs_cgroups *cg;		/* the attribution, once rs_cgroups_analysis_run made it */
};

static uint64_t task_memcg(void *arg, int pid)
{
	struct run_link *l = arg;

	return l->cg ? rs_cgroups_task_memcg(l->cg, pid) : 0;
}

static void made(void *arg, struct rs_cgroups *cg)
{
	((struct run_link *)arg)->cg = cg;
}

int rs_refaults_analysis_run(const char *path, const struct rs_analysis_opts *ao_in,
			     const struct rs_cgroups_opts *co_in,
			     const struct rs_refaults_opts *ro_in, struct rs_analysis **a,
			     struct rs_cgroups **cg, struct rs_refaults **rf,
			     struct rs_source **src, struct rs_error *err)
{
	struct rs_consumer cons[RS_ANALYSIS_MAX_CONSUMERS];
	struct rs_analysis_opts ao = *ao_in;
	struct rs_cgroups_opts co = *co_in;
	struct rs_refaults_opts ro = *ro_in;
	struct run_link link = { NULL };

	*rf = NULL;
	if (ao.nr_consumers + 2 > RS_ANALYSIS_MAX_CONSUMERS)
		return rs_error_set(err, "at most %d consumers", RS_ANALYSIS_MAX_CONSUMERS - 2);
	ro.task_memcg = task_memcg;
	ro.task_memcg_arg = &link;
	*rf = rs_refaults_new(&ro, err);
	if (!*rf)
		return -1;
	for (int i = 0; i < ao.nr_consumers; i++)
		cons[i] = ao.consumers[i];
	rs_refaults_consumer(*rf, &cons[ao.nr_consumers++]);
	ao.consumers = cons;
	co.made = made;
	co.made_arg = &link;
	if (rs_cgroups_analysis_run(path, &ao, &co, a, cg, src, err) < 0) {
		rs_refaults_free(*rf);
		*rf = NULL;
		return -1;
	}
	return 0;
}
