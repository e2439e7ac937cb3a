// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the kernel enums whose raw values the memcg tracepoints carry (`item`): read from
 * BTF when the kernel has it, else from the order of /proc/vmstat, which prints the same items
 * in enum order. They are stored in the trace as markers and used to build the in-kernel
 * filter of count_memcg_events, which would otherwise fire on every page fault.
 *
 * BTF names are lower-cased: for the items reclaim analysis uses they are then the names
 * /proc/vmstat prints (PGSCAN_KSWAPD -> pgscan_kswapd), whichever source a trace came from.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "btf_enum.h"
#include "record_private.h"
#include "rs_grow.h"

#define BTF_VMLINUX	"/sys/kernel/btf/vmlinux"
#define ITEMS_LINE_MAX	900	/* room under REC_MARKER_MAX for the tag and @START */

static void items_free(struct rec_items *it)
{
	for (size_t i = 0; i < it->nr && it->names; i++)
		free(it->names[i]);
	free(it->names);
	it->names = NULL;
	it->nr = 0;
	it->source = NULL;
}

static int from_btf(struct rec_items *it, const char *btf, const char *sentinel)
{
	struct rs_btf_enum e;
	struct rs_error err;

	if (rs_btf_enum_read(btf, it->enum_name, &e, &err))
		return -1;
	for (size_t i = 0; i < e.nr; i++)
		for (char *c = e.names[i]; c && *c; c++)
			*c = (char)tolower((unsigned char)*c);
	/* The count sentinel (NR_VM_EVENT_ITEMS) is not an item. */
	if (e.nr && e.names[e.nr - 1] && !strcasecmp(e.names[e.nr - 1], sentinel)) {
		free(e.names[e.nr - 1]);
		e.names[--e.nr] = NULL;
	}
	it->first = e.first;
	it->nr = e.nr;
	it->names = e.names;	/* ownership moves to `it` */
	it->source = "btf";
	return 0;
}

/* Items of /proc/vmstat from line `from` up to, not including, `to` or a name starting `stop`. */
static int from_vmstat(struct rec_items *it, const char *from, const char *to, const char *stop)
{
	char line[256], name[128];
	size_t cap = 0;
	int in = 0;
	FILE *f;

	f = fopen("/proc/vmstat", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s", name) != 1)
			continue;
		if (!in && strcmp(name, from))
			continue;
		if (in && ((to && !strcmp(name, to)) ||
			   (stop && !strncmp(name, stop, strlen(stop)))))
			break;
		in = 1;
		if (RS_GROW(it->names, cap, it->nr + 1, 128))
			goto fail;
		it->names[it->nr] = strdup(name);
		if (!it->names[it->nr])
			goto fail;
		it->nr++;
	}
	fclose(f);
	if (!it->nr)
		return -1;
	it->first = 0;
	it->source = "vmstat";
	return 0;
fail:
	fclose(f);
	items_free(it);
	return -1;
}

int rec_items_load(struct rec *r, struct rs_error *err)
{
	/* Override for tests of the /proc/vmstat fallback; documented in docs/record.md. */
	const char *btf = getenv("RECLAIMSCOPE_BTF");

	if (!btf || !*btf)
		btf = BTF_VMLINUX;
	r->vm_events.enum_name = "vm_event_item";
	r->vm_events.tag = "vm_event_items";
	r->node_stats.enum_name = "node_stat_item";
	r->node_stats.tag = "node_stat_items";
	r->memcg_stats.enum_name = "memcg_stat_item";
	r->memcg_stats.tag = "memcg_stat_items";
	/* Events follow the vmstat counters; "nr_unstable" after them is a legacy alias. */
	if (from_btf(&r->vm_events, btf, "NR_VM_EVENT_ITEMS") &&
	    from_vmstat(&r->vm_events, "pgpgin", NULL, "nr_"))
		return rs_error_set(err, "cannot learn the vm_event_item names from %s or "
				    "/proc/vmstat", btf);
	if (from_btf(&r->node_stats, btf, "NR_VM_NODE_STAT_ITEMS"))
		from_vmstat(&r->node_stats, "nr_inactive_anon", "nr_dirty_threshold", NULL);
	/* memcg_stat_item has no /proc/vmstat counterpart: BTF or nothing. */
	from_btf(&r->memcg_stats, btf, "MEMCG_NR_STAT");
	return 0;
}

void rec_items_free(struct rec *r)
{
	items_free(&r->vm_events);
	items_free(&r->node_stats);
	items_free(&r->memcg_stats);
}

/* Write one enum as markers of at most ITEMS_LINE_MAX bytes, a new one after each gap. */
static void write_items(struct rec *r, const struct rec_items *it)
{
	char line[REC_MARKER_MAX];
	size_t len = 0;

	for (size_t i = 0; i <= it->nr; i++) {
		const char *name = i < it->nr ? it->names[i] : NULL;

		if (len && (!name || len + 1 + strlen(name) > ITEMS_LINE_MAX)) {
			rec_mark(r, "%s", line);
			len = 0;
		}
		if (!name || strlen(name) > 200)
			continue;
		if (!len)
			len = (size_t)snprintf(line, sizeof(line), "%s source=%s @%lld", it->tag,
					       it->source, (long long)(it->first + (int64_t)i));
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %s", name);
	}
}

int rec_items_write_markers(struct rec *r)
{
	const struct rec_items *all[] = { &r->vm_events, &r->node_stats, &r->memcg_stats };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i]->nr)
			write_items(r, all[i]);
	return 0;
}

/*
 * The vm_event_items memcg reclaim accounts: scans, steals, activations, refill, lazy free
 * and swap traffic. Faults (pgfault, pgmajfault) and charge counts (pgpgin, pgpgout) are left
 * out: they fire per page touched and would dwarf the reclaim events.
 */
static int reclaim_item(const char *name)
{
	static const char *const exact[] = {
		"pgactivate", "pgdeactivate", "pglazyfree", "pglazyfreed", "pgrefill",
		"pswpin", "pswpout", "swpin_zero", "swpout_zero", "zswpin", "zswpout", "zswpwb",
	};

	if (!strncmp(name, "pgsteal_", 8))
		return 1;
	if (!strncmp(name, "pgscan_", 7))
		return strncmp(name, "pgscan_skip_", 12) && strncmp(name, "pgscan_zone_", 12);
	for (size_t i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (!strcmp(name, exact[i]))
			return 1;
	return 0;
}

char *rec_items_memcg_filter(struct rec *r, struct rs_error *err)
{
	const struct rec_items *it = &r->vm_events;
	size_t cap = 64, len = 0;
	char *f = malloc(cap);

	if (!f) {
		rs_error_set(err, "out of memory");
		return NULL;
	}
	f[0] = '\0';
	/* Runs of consecutive items become one range test to keep the filter short. */
	for (size_t i = 0; i < it->nr; i++) {
		long long lo = it->first + (long long)i, hi;
		char term[96];
		int n;

		if (!it->names[i] || !reclaim_item(it->names[i]))
			continue;
		while (i + 1 < it->nr && it->names[i + 1] && reclaim_item(it->names[i + 1]))
			i++;
		hi = it->first + (long long)i;
		if (lo == hi)
			n = snprintf(term, sizeof(term), "%sitem==%lld", len ? "||" : "", lo);
		else
			n = snprintf(term, sizeof(term), "%s(item>=%lld&&item<=%lld)",
				     len ? "||" : "", lo, hi);
		if (len + (size_t)n + 1 > cap) {
			char *nf;

			cap = (len + (size_t)n + 1) * 2;
			nf = realloc(f, cap);
			if (!nf) {
				free(f);
				rs_error_set(err, "out of memory");
				return NULL;
			}
			f = nf;
		}
		memcpy(f + len, term, (size_t)n + 1);
		len += (size_t)n;
	}
	if (!len) {
		free(f);
		rs_error_set(err, "no reclaim items among this kernel's vm_event_item names; "
			     "use --all-memcg-items to record count_memcg_events unfiltered");
		return NULL;
	}
	return f;
}
