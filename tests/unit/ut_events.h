/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit tests that feed synthetic traces share: an event of a type at a time by a task,
 * an analysis with one consumer, and the loader's count of an event by name.
 */
#ifndef UT_EVENTS_H
#define UT_EVENTS_H

#include <stdint.h>

#include "analysis.h"
#include "trace_source.h"

/* A zeroed event of type t at ts by pid/comm (CPU 0, no field present). */
struct rs_event ut_event(enum rs_ev_type t, uint64_t ts, int pid, const char *comm);

/*
 * An analysis of every task (o NULL: default options, pid -1) whose only consumer is c; the
 * caller's options keep their own pid. NULL with err set on failure.
 */
struct rs_analysis *ut_analysis(const struct rs_consumer *c, const struct rs_analysis_opts *o,
				struct rs_error *err);

/* How many events of this name the loader counted in src; 0 when none. */
uint64_t ut_event_count(const struct rs_source *src, const char *name);

#endif
