// SPDX-License-Identifier: GPL-2.0
/*
 * Policy "splitlru-plus1": the split LRU VM of 2.6.26-rc8-mm1 (Rik van Riel's patches in -mm,
 * July 2008), whose shrink_zone() did for every evictable list, for global reclaim:
 *
 *	zone->lru[l].nr_scan += scan + 1;	(scan = (size >> priority) x percent / 100)
 *
 * and scanned the list once nr_scan reached swap_cluster_max (32). The "+ 1" ("make sure that
 * the kernel will slowly sift through each list", from 2.6 in 2004) makes every list cross the
 * threshold after 32 calls even when its computed scan is 0: under streaming IO that is anon,
 * and in this kernel a batch for the active anon list falls through to the inactive anon list
 * when inactive anon is not low. Seed 004: Rik's dd test swapped out 59 MB on -mm against 500 kB
 * on 2.6.26; Johannes Weiner's removal of the +1 fixed it.
 *
 * The code is models/splitlru_core.c with plus = 1 (the rest is 2.6.28, so that this policy
 * and "splitlru" differ in the +1 only); that file's opening comment lists what is modelled,
 * approximated and invisible in a trace.
 */
#include "policy.h"

static int splitlru_plus1_init(const struct rs_world *w, void **state, struct rs_error *err)
{
	return rs_splitlru_init(w, 1, state, err);
}

const struct rs_policy_ops rs_policy_splitlru_plus1 = {
	.name = "splitlru-plus1",
	.stands_for = "Linux 2.6.26-rc8-mm1 mm/vmscan.c shrink_zone(): nr_scan += scan + 1",
	.approximates = "as splitlru (2.6.28 code) with the +1 put back; memcg reclaim as 2.6.28",
	.init = splitlru_plus1_init,
	.invoke = rs_splitlru_invoke,
	.free = rs_splitlru_free,
};
