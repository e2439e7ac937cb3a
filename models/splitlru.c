// SPDX-License-Identifier: GPL-2.0
/*
 * Policy "splitlru": Linux 2.6.28 mm/vmscan.c shrink_zone() and get_scan_ratio(), the split
 * LRU as merged, with Johannes Weiner's "mm: don't accumulate scan pressure on unrelated lists"
 * (posted 2008-07-29 in the thread of seed 004, merged with split LRU, e0f79b8f1f33): a list's
 * nr_scan grows only by (size >> priority) x percent / 100, so a list whose computed scan is 0
 * at every call is never scanned.
 *
 * The code is models/splitlru_core.c with plus = 0; its opening comment lists what is modelled,
 * what is approximated (one zone per node, memcgs' shares of the global LRU by size, rotation
 * statistics fed from the recorded kernel's observed activations) and what a trace cannot show.
 */
#include "policy.h"

static int splitlru_init(const struct rs_world *w, void **state, struct rs_error *err)
{
	return rs_splitlru_init(w, 0, state, err);
}

const struct rs_policy_ops rs_policy_splitlru = {
	.name = "splitlru",
	.stands_for = "Linux 2.6.28 mm/vmscan.c shrink_zone()/get_scan_ratio(), nr_scan "
		      "without the +1",
	.approximates = "one zone per node; the global LRU split over memcgs by size; rotations "
			"from the recorded kernel's observed activations",
	.init = splitlru_init,
	.invoke = rs_splitlru_invoke,
	.free = rs_splitlru_free,
};
