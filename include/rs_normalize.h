/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that knows the kernel's tracepoints: for each event we understand, the field
 * names it has had across kernel eras ("slots", each with its aliases), and how a set of slot
 * values becomes a struct rs_event. Both loaders (trace.dat through libtraceevent, and text)
 * resolve slots by name and hand the values here, so both understand the same field sets.
 */
#ifndef RS_NORMALIZE_H
#define RS_NORMALIZE_H

#include <stdbool.h>
#include <stdint.h>

#include "rs_event.h"

#define RS_MAX_SLOTS 20

enum rs_slot_kind { RS_SLOT_NUM, RS_SLOT_STR };

struct rs_slot {
	const char *names;	/* "name|alias|alias": binary field names first, then the names
				   the print format uses (what text traces show) */
	enum rs_slot_kind kind;
	bool required;		/* without it the event is skipped with a warning */
};

struct rs_kevent {
	const char *system;
	const char *name;
	enum rs_ev_type type;
	int subkind;		/* reclaim kind, cgroup op */
	const struct rs_slot *slots;
	int nr_slots;
};

/* Values of one record, by slot index. */
struct rs_slotvals {
	uint32_t present;	/* bit i: slot i was found in this event's format */
	uint64_t num[RS_MAX_SLOTS];
	const char *str[RS_MAX_SLOTS];
};

/* The table of events we understand, and a lookup by system (may be NULL) and name. */
int rs_kevent_count(void);
const struct rs_kevent *rs_kevent_get(int i);
int rs_kevent_find(const char *system, const char *name);

/* Does `name` match one of the slot's "a|b|c" names? */
bool rs_slot_name_matches(const struct rs_slot *slot, const char *name);

/*
 * Name of the first required slot missing from `present`, or NULL when the event is usable.
 * Loaders call this once per event format and skip (with one warning) events that fail.
 */
const char *rs_kevent_missing(const struct rs_kevent *ke, uint32_t present);

/* Fill ev (type, have, union) from slot values; ts/cpu/pid/comm/offset are the caller's. */
void rs_normalize(const struct rs_kevent *ke, const struct rs_slotvals *v, struct rs_event *ev);

/*
 * Range checks on a normalized event, for every field that reaches arithmetic: an order
 * outside 0..RS_ORDER_MAX, a priority outside 0..12 or a node id outside -1..RS_NID_MAX is made
 * unknown (its RS_HAVE_* bit cleared); a page count above RS_COUNT_MAX (a negative number in a
 * text trace reads as one) makes the event unusable. Returns RS_NORM_OK, RS_NORM_FIXED (one
 * field was mended: call again for the next) or RS_NORM_DROP; *why names the field (a constant
 * string) when not OK.
 */
#define RS_ORDER_MAX	31
#define RS_NID_MAX	1023		/* MAX_NUMNODES at its largest (NODES_SHIFT 10) */
#define RS_COUNT_MAX	(UINT64_C(1) << 40)	/* pages in one event: 4 PiB of 4 KiB pages */
enum { RS_NORM_OK, RS_NORM_FIXED, RS_NORM_DROP };
int rs_normalize_check(struct rs_event *ev, const char **why);
/* Would rs_normalize_check() change or drop ev? (cheap: no copy on the common path) */
bool rs_normalize_suspect(const struct rs_event *ev);

#endif
