/* SPDX-License-Identifier: GPL-2.0 */
/* Output of refaults under replayed policies (refaults_replay.h) in `replay`. */
#ifndef RS_REPLAY_REFAULTS_H
#define RS_REPLAY_REFAULTS_H

#include <stdio.h>

#include <jansson.h>

struct rs_refaults;
struct rs_rf_policy;
struct rs_replay_result;

void rs_replay_refaults_text(FILE *f, const struct rs_refaults *rf, const struct rs_rf_policy *p,
			     const struct rs_replay_result *res, int n);
/* {recorded, policies: {NAME: {...}} | null}; a new reference. */
json_t *rs_replay_refaults_json(const struct rs_refaults *rf, const struct rs_rf_policy *p,
				const struct rs_replay_result *res, int n);

#endif
