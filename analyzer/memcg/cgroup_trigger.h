/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trigger side: closed episodes by the cgroup of their task (cgroup_trigger.c).
 */
#ifndef RS_CGROUP_TRIGGER_H
#define RS_CGROUP_TRIGGER_H

#include "cgroups_state.h"

void cg_flush_pending(struct rs_cgroups *cg, const struct rs_ctx *ctx);
void cg_on_episode(void *arg, const struct rs_episode *ep);

#endif
