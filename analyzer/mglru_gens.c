// SPDX-License-Identifier: GPL-2.0
/* The recorder's lru_gen markers as generation series (include/mglru_gens.h). */
#include <stdlib.h>
#include <string.h>

#include "mglru_gens.h"

/* The value of " key=" in text, up to the next blank, into buf; NULL when absent. */
static const char *value(const char *text, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key), n;
	const char *p = text;

	while ((p = strstr(p, key))) {
		if ((p == text || p[-1] == ' ') && p[kl] == '=') {
			p += kl + 1;
			n = strcspn(p, " \n");
			if (n >= len)
				return NULL;
			memcpy(buf, p, n);
			buf[n] = '\0';
			return buf;
		}
		p += kl;
	}
	return NULL;
}

static int parse_gens(const char *s, struct rs_gen *out, int max)
{
	int n = 0;

	while (*s && n < max) {
		struct rs_gen *g = &out[n];
		char *end;

		g->seq = strtoull(s, &end, 10);
		if (end == s || *end != ':')
			return -1;
		g->age_ms = strtoull(end + 1, &end, 10);
		if (*end != ':')
			return -1;
		g->anon = strtoull(end + 1, &end, 10);
		if (*end != ':')
			return -1;
		g->file = strtoull(end + 1, &end, 10);
		n++;
		if (*end != ',')
			return *end ? -1 : n;
		s = end + 1;
	}
	return n;
}

int rs_mglru_gens_feed(struct rs_mglru_gens *g, uint64_t ts, const char *text)
{
	char cg[RS_GENS_CG_LEN], node[16], gens[600];
	struct rs_gen parsed[RS_GENS_MAX];
	struct rs_gens_series *s = NULL;
	uint64_t anon = 0, file = 0;
	int nid, n;

	if (!text || strncmp(text, "lru_gen ", 8))
		return 0;
	if (!value(text, "cg", cg, sizeof(cg)) || !value(text, "node", node, sizeof(node)) ||
	    !value(text, "gens", gens, sizeof(gens)) ||
	    (n = parse_gens(gens, parsed, RS_GENS_MAX)) <= 0) {
		g->dropped++;
		return 1;
	}
	nid = atoi(node);
	for (int i = 0; i < g->nr && !s; i++)
		if (g->s[i].nid == nid && !strcmp(g->s[i].cg, cg))
			s = &g->s[i];
	if (!s) {
		if (g->nr == RS_GENS_MAX_SERIES) {
			g->dropped++;
			return 1;
		}
		s = &g->s[g->nr++];
		memset(s, 0, sizeof(*s));
		memcpy(s->cg, cg, sizeof(cg));
		s->nid = nid;
		s->first_ts = ts;
		s->first_min_seq = parsed[0].seq;
		s->first_max_seq = parsed[n - 1].seq;
	}
	s->snapshots++;
	s->last_ts = ts;
	s->nr_last = n;
	memcpy(s->last, parsed, (size_t)n * sizeof(*parsed));
	for (int i = 0; i < n; i++) {
		anon += parsed[i].anon;
		file += parsed[i].file;
	}
	if (anon > s->max_anon)
		s->max_anon = anon;
	if (file > s->max_file)
		s->max_file = file;
	return 1;
}
