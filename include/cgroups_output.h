/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of the per-cgroup attribution (include/cgroups.h): the JSON members `cgroups`,
 * `cgroup_matrix` and `cgroup_attribution` (docs/json.md, section "cgroups") and the text
 * section (docs/cgroups.md). `reclaimscope cgroups` prints only these; `analyze` adds them to
 * its own report.
 */
#ifndef RS_CGROUPS_OUTPUT_H
#define RS_CGROUPS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

struct rs_cgroups;
struct rs_source;

/* Set `cgroups`, `cgroup_matrix` and `cgroup_attribution` in root; -1 when out of memory. */
int rs_cgroups_json_add(json_t *root, const struct rs_cgroups *cg);

struct rs_cgroups_text_opts {
	int top;		/* rows of the per-cgroup tables (0: 20; JSON has every row) */
	bool range;		/* --from/--to: the source counted no events (report header) */
	bool mglru;		/* trace.mglru: the tables speak MGLRU (no active lists) */
};

/* The text section; its tables fit 100 columns, its prose lines may not. */
void rs_cgroups_text(FILE *f, const struct rs_cgroups *cg, const struct rs_cgroups_text_opts *o);

/* `reclaimscope cgroups`: the trace header (src may be NULL) and the section, every line
   wrapped to 100 columns. */
void rs_cgroups_text_report(FILE *f, const struct rs_source *src, const struct rs_cgroups *cg,
			    const struct rs_cgroups_text_opts *o);

#endif
