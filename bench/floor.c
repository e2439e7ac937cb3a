// SPDX-License-Identifier: GPL-2.0
/*
 * The floor reclaimscope's speed is measured against: a bare libtracecmd iteration over every
 * record of a trace.dat, in time order, looking up each record's event and reading one field
 * of it (the first non-common field, resolved once per event id), as NOTES.md §8 measured.
 * Prints the record count and a checksum of the values read so nothing is optimized away.
 *
 * usage: floor FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include <trace-cmd/trace-cmd.h>

struct floor {
	struct tep_handle *tep;
	struct tep_format_field **field;	/* by event id; NULL: not resolved yet */
	unsigned char *resolved;
	int max_id;
	unsigned long long records, sum;
};

static int one_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *arg)
{
	struct floor *f = arg;
	int id = tep_data_type(f->tep, rec);
	unsigned long long val;

	f->records++;
	if (id < 0 || id > f->max_id)
		return 0;
	if (!f->resolved[id]) {
		struct tep_event *e = tep_find_event(f->tep, id);

		f->resolved[id] = 1;
		if (e && e->format.nr_fields > 0)
			f->field[id] = e->format.fields;
	}
	if (f->field[id] && !tep_read_number_field(f->field[id], rec->data, &val))
		f->sum += val;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *handle;
	struct tep_event **events;
	struct floor f = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: floor FILE\n");
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		fprintf(stderr, "floor: cannot open %s\n", argv[1]);
		return 1;
	}
	f.tep = tracecmd_get_tep(handle);
	events = tep_list_events(f.tep, TEP_EVENT_SORT_ID);
	for (int i = 0; events && events[i]; i++)
		if (events[i]->id > f.max_id)
			f.max_id = events[i]->id;
	f.field = calloc(f.max_id + 1, sizeof(*f.field));
	f.resolved = calloc(f.max_id + 1, 1);
	if (!f.field || !f.resolved)
		return 1;
	tracecmd_iterate_events(handle, NULL, 0, one_record, &f);
	printf("%llu records, checksum %llu\n", f.records, f.sum);
	free(f.field);
	free(f.resolved);
	tracecmd_close(handle);
	return 0;
}
