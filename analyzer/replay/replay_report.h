/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Warnings, input sources and swap evidence of the replay input (replay_report.c).
 */
#ifndef RS_REPLAY_REPORT_H
#define RS_REPLAY_REPORT_H

#include "replay_input_state.h"

void ri_warn(struct rs_replay_input *ri, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ri_source_note(struct rs_ri_source *s, const struct rs_event *ev);
void ri_swap_evidence(struct rs_replay_input *ri, int lru, uint64_t pages);
/* Grow *p (cap elements of elem bytes) to hold need; 0, or -1 out of memory. */
int ri_grow(void **p, size_t *cap, size_t need, size_t elem);

#endif
