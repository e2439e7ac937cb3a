// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat backend's format table and record decoding (tracedat_reader.h): the formats
 * sorted by id and looked up, and a record decoded by the offsets tracedat.c resolved, every
 * read bounds-checked against the record's size (the file may come from any kernel or be
 * corrupt). Used by the stream in one thread and by the decode threads alike.
 */
#include <stdlib.h>
#include <string.h>

#include "rs_cmp.h"
#include "tracedat_reader.h"

static int fmt_cmp(const void *a, const void *b)
{
	const struct fmt *x = a, *y = b;

	return RS_CMP(x->id, y->id);
}

struct fmt *tracedat_fmt_search(const struct tracedat *td, int id)
{
	struct fmt key = { .id = id };

	return bsearch(&key, td->fmts, td->nr_fmts, sizeof(key), fmt_cmp);
}

void tracedat_fmt_sort(struct tracedat *td)
{
	qsort(td->fmts, td->nr_fmts, sizeof(*td->fmts), fmt_cmp);
}

static uint64_t read_num(const uint8_t *p, int size, bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)*(const int8_t *)p : *p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return is_signed ? (uint64_t)(int64_t)(int16_t)v : v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return is_signed ? (uint64_t)(int64_t)(int32_t)v : v;
	}
	default: {
		uint64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
}

/*
 * Copy a string field into buf (NUL-terminated, at most RS_STR_MAX bytes); its length, or -1
 * when it lies out of the record.
 */
static int read_str(const struct slot_reader *rd, const uint8_t *data, int size, char *buf)
{
	const uint8_t *p;
	int len;

	if (rd->dynamic) {
		uint32_t loc;
		int off;

		if (rd->offset + 4 > size)
			return -1;
		memcpy(&loc, data + rd->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (rd->relative)
			off += rd->offset + 4;
		if (off > size || len > size - off)
			return -1;
		p = data + off;
	} else {
		if (rd->offset > size)
			return -1;
		p = data + rd->offset;
		len = rd->to_end ? size - rd->offset : rd->size;
		if (len > size - rd->offset)
			return -1;
	}
	if (len >= RS_STR_MAX)
		len = RS_STR_MAX - 1;
	len = (int)strnlen((const char *)p, len);
	memcpy(buf, p, len);
	/* ftrace:print text ends in the newline the writer sent */
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		len--;
	buf[len] = '\0';
	return len;
}

bool tracedat_decode(const struct fmt *f, const struct tep_record *rec, struct rs_event *ev,
		     char *str, size_t *used)
{
	struct rs_slotvals v;
	const uint8_t *data = rec->data;
	size_t at = 0;

	*used = 0;
	if (!f->nr_str && rec->size >= f->num_end) {
		/*
		 * Numbers only, all inside the record (most events: memcg counters): read without
		 * a test each (10 of the 119 instructions a record took: callgrind, bench.dat).
		 */
		for (int k = 0; k < f->nr_present; k++) {
			const struct slot_reader *rd = &f->rd[f->order[k]];

			v.num[f->order[k]] = read_num(data + rd->offset, rd->size, rd->is_signed);
		}
		goto done;
	}
	for (int k = 0; k < f->nr_present; k++) {
		int i = f->order[k];
		const struct slot_reader *rd = &f->rd[i];

		if (!rd->is_str) {
			if (rd->offset + rd->size > rec->size)
				return false;
			v.num[i] = read_num(data + rd->offset, rd->size, rd->is_signed);
		} else {
			int len = read_str(rd, data, rec->size, str + at);

			if (len < 0)
				return false;
			v.str[i] = str + at;
			at += (size_t)len + 1;
		}
	}
done:
	v.present = f->present;
	rs_normalize(f->ke, &v, ev);
	*used = at;
	return true;
}
