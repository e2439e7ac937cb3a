// SPDX-License-Identifier: GPL-2.0
/*
 * What the replay input reports besides the world (replay_report.h): warnings (each once),
 * where each input came from (first and last event), swap evidence; and the array growth
 * helper the replay input's files share.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_report.h"
#include "rs_grow.h"

void ri_warn(struct rs_replay_input *ri, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < ri->nwarn; i++)
		if (!strcmp(ri->warn[i], buf))
			return;
	if (ri->nwarn < RI_MAX_WARN) {
		ri->warn[ri->nwarn] = strdup(buf);
		if (ri->warn[ri->nwarn])
			ri->nwarn++;
	}
}

void ri_source_note(struct rs_ri_source *s, const struct rs_event *ev)
{
	if (!s->events++) {
		s->first_ts = ev->ts;
		s->first_offset = ev->offset;
	}
	s->last_ts = ev->ts;
	s->last_offset = ev->offset;
}

int ri_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	return rs_grow(p, cap, need, elem, 64, 0);
}

void ri_swap_evidence(struct rs_replay_input *ri, int lru, uint64_t pages_)
{
	if (lru == RS_LRU_INACTIVE_ANON || lru == RS_LRU_ACTIVE_ANON)
		ri->rep.swap_anon_scanned += pages_;
}
