/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reclaim invocations and what each took (replay_calls.c).
 */
#ifndef RS_REPLAY_CALLS_H
#define RS_REPLAY_CALLS_H

#include "replay_input_state.h"

void ri_calls_event(struct rs_replay_input *ri, const struct rs_event *ev, const struct rs_ctx *ctx,
		    struct ri_task *t);
void ri_calls_finish(struct rs_replay_input *ri);
void ri_call_free(struct ri_call *c);
/* The one size of a window's multi-page folios: 0 none yet, UINT32_MAX more than one. */
uint32_t ri_folio_size_merge(uint32_t a, uint32_t b);

#endif
