// SPDX-License-Identifier: GPL-2.0
/*
 * MGLRU's shape in any trace, whatever a marker says (NOTES section 9, docs/kernels.md): its
 * scan_folios() reports lru_isolate with a batch above SWAP_CLUSTER_MAX (4096, MAX_LRU_BATCH,
 * on 6.x; 64 on 7.2 under global pressure), names only inactive lists and never emits
 * lru_shrink_active. The classic LRU isolates at most SWAP_CLUSTER_MAX (32) pages per call and
 * shrinks active lists. A trace that shows neither (small isolates of inactive lists only) is
 * told by the recorder's mglru= marker; without one only a kernel before 6.7 (its lru_isolate
 * has isolate_mode) is told: its MGLRU emits no lru_isolate, or asks for 4096. 7.2's MGLRU
 * asks for what is left of its scan budget, under 32 in memcg reclaim (2, 5, 11, 23 pages on
 * the 7.2 cgroup-children trace recorded with plain trace-cmd): small isolates alone tell
 * nothing there.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lru_shape.h"

#define SWAP_CLUSTER_MAX 32	/* the classic LRU's largest isolate request */

#define U(x) ((unsigned long long)(x))

void rs_lru_shape_reset(struct rs_lru_shape *s)
{
	memset(s, 0, sizeof(*s));
}

static void see_marker(struct rs_lru_shape *s, const char *text)
{
	const char *p = text;

	while ((p = strstr(p, "mglru="))) {
		if (p == text || p[-1] == ' ') {
			char *end;
			unsigned long v = strtoul(p + 6, &end, 0);

			if (end != p + 6) {
				s->have_marker = true;
				s->marker = v;
			}
			return;
		}
		p += 6;
	}
}

void rs_lru_shape_see(struct rs_lru_shape *s, const struct rs_event *ev)
{
	switch (ev->type) {
	case RS_EV_LRU_ISOLATE:
		s->isolates++;
		s->isolates_empty += !ev->isolate.nr_taken;
		s->isolates_mode += !!(ev->have & RS_HAVE_ISOLATE_MODE);
		if (ev->isolate.nr_requested > SWAP_CLUSTER_MAX) {
			s->isolates_big++;
			if (ev->isolate.nr_requested > s->max_requested)
				s->max_requested = ev->isolate.nr_requested;
		}
		if ((ev->have & RS_HAVE_LRU) && (ev->isolate.lru == RS_LRU_ACTIVE_ANON ||
						 ev->isolate.lru == RS_LRU_ACTIVE_FILE))
			s->isolates_active++;
		break;
	case RS_EV_SHRINK_ACTIVE:
		s->shrink_active++;
		break;
	case RS_EV_SHRINK_INACTIVE:
		s->shrink_inactive++;
		break;
	case RS_EV_KSWAPD_WAKE:
	case RS_EV_RECLAIM_BEGIN:
		s->reclaim_runs++;
		break;
	case RS_EV_META:
		if (ev->meta.kind && !strcmp(ev->meta.kind, "begin") && ev->meta.text)
			see_marker(s, ev->meta.text);
		break;
	default:
		break;
	}
}

bool rs_lru_shape_untraced(const struct rs_lru_shape *s, int verdict)
{
	/* verdict -1 here: no marker, no isolate at all (a plain trace-cmd recording of 6.1) */
	return verdict != 0 && !s->isolates && !s->shrink_inactive && s->reclaim_runs;
}

int rs_lru_shape_verdict(const struct rs_lru_shape *s, char *buf, size_t len)
{
	uint64_t classic = s->isolates_active + s->shrink_active;
	char marker[96] = "";
	int n;

	if (s->have_marker)
		snprintf(marker, sizeof(marker), "; the recorder's marker says mglru=0x%04lx",
			 s->marker);
	if (s->isolates_big && classic) {
		snprintf(buf, len, "both shapes: %llu lru_isolate asked for more than %d pages "
			 "(MGLRU) and %llu lru_shrink_active or active-list isolates (classic LRU): "
			 "MGLRU was switched during the trace%s", U(s->isolates_big),
			 SWAP_CLUSTER_MAX, U(classic), marker);
		return -1;
	}
	if (s->isolates_big) {
		snprintf(buf, len, "%llu of %llu lru_isolate asked for more than %d pages (up to "
			 "%llu; the classic LRU asks for %d at most), none scanned an active list, "
			 "no lru_shrink_active%s", U(s->isolates_big), U(s->isolates),
			 SWAP_CLUSTER_MAX, U(s->max_requested), SWAP_CLUSTER_MAX, marker);
		return 1;
	}
	if (classic) {
		snprintf(buf, len, "%llu lru_shrink_active and %llu active-list lru_isolate (MGLRU "
			 "has no active lists)%s", U(s->shrink_active), U(s->isolates_active),
			 marker);
		return 0;
	}
	if (s->have_marker) {
		n = snprintf(buf, len, "the recorder's marker mglru=0x%04lx (the events do "
				 "not tell: %llu lru_isolate, none above %d pages, no active list "
				 "scanned)", s->marker, U(s->isolates), SWAP_CLUSTER_MAX);
		int v = (s->marker & 1) ? 1 : 0;

		if (rs_lru_shape_untraced(s, v) && n >= 0 && (size_t)n < len)
			snprintf(buf + n, len - n, "; reclaim ran (%llu kswapd wakes and reclaim "
				 "begins) with no lru_isolate or lru_shrink_inactive: this "
				 "kernel's MGLRU does not trace its scanning and eviction (6.7 "
				 "made it emit them)", U(s->reclaim_runs));
		return v;
	}
	/*
	 * Before 6.7 (lru_isolate still has isolate_mode) MGLRU emits no lru_isolate at all, and
	 * when it began to (6.7) it reported its whole batch, 4096: isolates that all asked for
	 * SWAP_CLUSTER_MAX or less are the classic LRU's (a plain trace-cmd recording of 6.1 has
	 * no marker and, under file-only pressure, no active list scanned). Later MGLRU asks for
	 * its scan budget, 2 to 23 pages in 7.2's memcg reclaim: then nothing tells.
	 */
	if (s->isolates && s->isolates_mode == s->isolates) {
		snprintf(buf, len, "%llu lru_isolate, none above %d pages, with isolate_mode (a "
			 "kernel before 6.7): the classic LRU's batches (MGLRU there emits no "
			 "lru_isolate, or asks for 4096); no recorder marker", U(s->isolates),
			 SWAP_CLUSTER_MAX);
		return 0;
	}
	if (s->isolates) {
		snprintf(buf, len, "nothing tells: %llu lru_isolate, none above %d pages, no active "
			 "list scanned, no recorder marker; the classic LRU asks for %d at most, "
			 "and so does a newer MGLRU (no isolate_mode here: 6.7 or later), asking "
			 "for what is left of its scan budget: 2 to 23 pages in 7.2's memcg "
			 "reclaim", U(s->isolates), SWAP_CLUSTER_MAX, SWAP_CLUSTER_MAX);
		return -1;
	}
	n = snprintf(buf, len, "nothing tells: no recorder marker, no lru_isolate, no active "
		     "list scanned");
	if (rs_lru_shape_untraced(s, -1) && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - n, "; reclaim ran (%llu kswapd wakes and reclaim begins) "
			 "with no lru_isolate or lru_shrink_inactive: eviction is not in the trace "
			 "(MGLRU before 6.7 emits neither, or they were not recorded)",
			 U(s->reclaim_runs));
	return -1;
}
