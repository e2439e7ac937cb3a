/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of the refault analysis (refaults.h) in `analyze`: the `refaults` JSON object
 * (docs/json.md) and the text section (docs/analyze.md "Refaults"). Cgroup paths come from
 * the per-cgroup attribution of the same run; cg may be NULL (ids only).
 */
#ifndef RS_REFAULTS_OUTPUT_H
#define RS_REFAULTS_OUTPUT_H

#include <stdio.h>

#include <jansson.h>

struct rs_refaults;
struct rs_cgroups;

/* Add `refaults` to root. 0, or -1 when out of memory. */
int rs_refaults_json_add(json_t *root, struct rs_refaults *rf, const struct rs_cgroups *cg);

void rs_refaults_text(FILE *f, struct rs_refaults *rf, const struct rs_cgroups *cg);

/* One line for a summary: "refaults: N pages (P% of M evicted) ..., thrashing in ..." */
void rs_refaults_summary_line(FILE *f, struct rs_refaults *rf, const struct rs_cgroups *cg);

#endif
