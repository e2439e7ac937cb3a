// SPDX-License-Identifier: GPL-2.0
/*
 * The kallsyms table of parsers/tracedat/tracedat_kallsyms.c held to libtraceevent's own
 * tep_parse_kallsyms() and tep_find_function() on the same text (the oracle): the same name,
 * or none, for every address asked, at, below, above and between the symbols. Texts as the
 * kernel writes them (duplicate addresses, modules, the symbols libtraceevent drops, empty
 * lines, short addresses) go through the table; texts with any other line go to libtraceevent
 * whole, and must give what it gives too, up to a line it cannot read.
 */
#include <stdlib.h>

#include <traceevent/event-parse.h>

#include "../../parsers/tracedat/tracedat_reader.h"
#include "unit.h"

/* every address of interest in text: each line's first word, read as hex, and its neighbours */
static size_t probes(const char *text, unsigned long long *a, size_t room)
{
	const char *p = text;
	size_t n = 0;

	while (*p && n + 3 <= room) {
		unsigned long long v = strtoull(p, NULL, 16);
		const char *nl = strchr(p, '\n');

		a[n++] = v;
		a[n++] = v - 1;
		a[n++] = v + 1;
		p = nl ? nl + 1 : "";
	}
	if (n + 2 <= room) {
		a[n++] = 0;
		a[n++] = ~0ull;
	}
	return n;
}

/*
 * text through the table and through libtraceevent: the same name at each address of a;
 * *table: whether the table read it (false: it went to libtraceevent)
 */
static int same_names(const char *text, const unsigned long long *a, size_t n, bool *table)
{
	struct tracedat_ksyms k = { 0 };
	struct tep_handle *tep = tep_alloc();
	int ret = UT_OK;

	UT_ASSERT(tep);
	tep_parse_kallsyms(tep, text);
	tracedat_ksyms_init(&k, strdup(text), false);
	for (size_t i = 0; i < n && ret == UT_OK; i++) {
		const char *got = tracedat_ksyms_name(&k, a[i]), *want = tep_find_function(tep, a[i]);

		if (!got != !want || (got && strcmp(got, want))) {
			fprintf(stderr, "  address %llx: got %s, want %s\n", a[i], got ? got : "none",
				want ? want : "none");
			ret = UT_FAIL;
		}
	}
	*table = k.map != NULL;
	tracedat_ksyms_free(&k);
	tep_free(tep);
	return ret;
}

UT_TEST(test_kallsyms_kernel_lines, "kallsyms: the kernel's lines, names as libtraceevent's")
{
	/* unsorted; several names at one address; modules; what libtraceevent drops ('$', a, A) */
	static const char text[] =
		"ffffffff81200000 T shrink_slab\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 t _text\n"
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81100000 t super_cache_scan\n"
		"ffffffff81100000 T alias_one\n"
		"ffffffff81100000 W alias_two\n"
		"ffffffff81100040 t $x\n"
		"ffffffff81100080 a an_absolute\n"
		"\n"
		"ffffffffc0a00000 t xfs_fs_free_cached_objects\t[xfs]\n"
		"ffffffffc0a00100 t deferred_split_scan\t[m]\n"
		"ffffffffc0a00000 T xfs_alias\t[xfs]\n"
		"1234 T short_address\n"
		"ffffffff81300000 T last";
	unsigned long long a[128];
	size_t n = probes(text, a, 128);
	bool table;

	UT_ASSERT(same_names(text, a, n, &table) == UT_OK);
	UT_ASSERT(table);
	return UT_OK;
}

/* xorshift: a fixed sequence, the same on every run */
static unsigned long long next_rand(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

UT_TEST(test_kallsyms_many, "kallsyms: 20,000 lines, a third at shared addresses")
{
	enum { LINES = 20000, PROBES = 3 * LINES + 2 };
	unsigned long long seed = 88172645463325252ull, *a = malloc(PROBES * sizeof(*a));
	char *text = malloc(LINES * 64), *p = text;
	bool table;
	size_t n;
	int ret;

	UT_ASSERT(a && text);
	for (int i = 0; i < LINES; i++) {
		unsigned long long r = next_rand(&seed);
		/* a third of the lines reuse one of 256 addresses (aliases) */
		unsigned long long addr = r % 3 ? 0xffffffff81000000ull + (r >> 20) % 0x1000000 :
				       0xffffffff82000000ull + (r >> 8) % 256 * 16;
		const char *types = "TtWwDdBbRrAa";

		p += sprintf(p, "%llx %c f%d%s\n", addr, types[(r >> 40) % 12], i,
			     r % 7 ? "" : "\t[mod]");
	}
	n = probes(text, a, PROBES);
	ret = same_names(text, a, n, &table);
	free(text);
	free(a);
	UT_ASSERT(ret == UT_OK);
	UT_ASSERT(table);
	return UT_OK;
}

UT_TEST(test_kallsyms_other_lines, "kallsyms: other lines go to libtraceevent, same names")
{
	static const char *const texts[] = {
		/* a 0x prefix, a second space, a module after a space, a name of two words */
		"0xffffffff81000000 T prefixed\nffffffff81000100 T next\n",
		"ffffffff81000000  T two_spaces\nffffffff81000100 T next\n",
		"ffffffff81000000 T name [mod]\nffffffff81000100 T next\n",
		"ffffffff81000000 T name\t[mod] extra\nffffffff81000100 T next\n",
		/* 17 digits, a line libtraceevent cannot read (it stops there), trailing blanks */
		"1ffffffff81000000 T long\nffffffff81000100 T next\n",
		"ffffffff81000000 T first\nnot a line\nffffffff81000100 T after\n",
		"ffffffff81000000 T first \r\nffffffff81000100 T next\n",
		"ffffffff81000000 T first\t[]\nffffffff81000100 T next\t[\n",
	};
	unsigned long long a[64];

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		size_t n = probes(texts[i], a, 64);
		bool table;

		UT_ASSERT(same_names(texts[i], a, n, &table) == UT_OK);
		UT_ASSERT(!table);
	}
	return UT_OK;
}
