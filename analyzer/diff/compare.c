// SPDX-License-Identifier: GPL-2.0
/*
 * Base-vs-new comparison of analysis documents (include/compare.h). A metric is compared when
 * both sides have it in at least one run; its statistics are over the runs that have it (the
 * run count says how many), so a cgroup that exists in two of three runs is still compared.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "diff_metrics.h"

struct cmp_side {
	struct rs_run_info *runs;
	struct rs_metric_set **sets;
	size_t nr_runs;
	char **kernels;			/* distinct, input order */
	size_t nr_kernels;
	char **events;			/* distinct, unsorted until finish */
	size_t nr_events;
	const char **events_only;	/* into `events`, sorted */
	size_t nr_events_only;
	/* events every run's file has a format for (trace-cmd wrote the ones it traced) */
	char **traced;
	size_t nr_traced;
	bool traced_unknown;		/* a run's trace says nothing of formats (text) */
	const char **events_quiet;	/* of events_only, those the other side traced */
	size_t nr_events_quiet;
	size_t mglru_runs;		/* runs whose trace.mglru is true */
	size_t mglru_unknown;		/* runs whose trace.mglru is null: nothing told */
	size_t kswapds_min, kswapds_max;	/* kswapd threads seen, over the runs */
};

struct rs_compare {
	struct cmp_side side[RS_NR_SIDES];
	double alpha;
	bool finished;
	struct rs_metric_diff *metrics;
	size_t nr_metrics;
	struct rs_left_out *left_out;
	size_t nr_left_out;
	bool mglru_differs;		/* one side ran MGLRU, the other not (all runs) */
	const char **not_comparable;	/* classic-LRU-only metrics, then */
	size_t nr_not_comparable;
};

static const char *const side_name[RS_NR_SIDES] = { "base", "new" };

struct rs_compare *rs_compare_new(void)
{
	struct rs_compare *c = calloc(1, sizeof(*c));

	if (c)
		c->alpha = RS_COMPARE_ALPHA_DEFAULT;
	return c;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void rs_compare_free(struct rs_compare *c)
{
	if (!c)
		return;
	for (int s = 0; s < RS_NR_SIDES; s++) {
		struct cmp_side *sd = &c->side[s];

		for (size_t i = 0; i < sd->nr_runs; i++) {
			free(sd->runs[i].path);
			free(sd->runs[i].input);
			free(sd->runs[i].kernel);
			rs_metric_set_free(sd->sets[i]);
		}
		free(sd->runs);
		free(sd->sets);
		free_strv(sd->kernels, sd->nr_kernels);
		free_strv(sd->events, sd->nr_events);
		free(sd->events_only);
		free_strv(sd->traced, sd->nr_traced);
		free(sd->events_quiet);
	}
	free(c->metrics);
	free(c->left_out);
	free(c->not_comparable);
	free(c);
}

static bool in_strv(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

/* Append a copy of `s` to v unless it is there; returns 0 or -1 (ENOMEM). */
static int strv_add_unique(char ***v, size_t *n, const char *s)
{
	char **nv, *dup;

	if (in_strv(*v, *n, s))
		return 0;
	dup = strdup(s);
	nv = dup ? realloc(*v, (*n + 1) * sizeof(**v)) : NULL;
	if (!nv) {
		free(dup);
		return -1;
	}
	nv[(*n)++] = dup;
	*v = nv;
	return 0;
}

static bool in_json_strings(const json_t *arr, const char *s)
{
	size_t i;
	const json_t *v;

	json_array_foreach(arr, i, v)
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return true;
	return false;
}

/* The side's traced events: those in every run's trace.event_formats so far. */
static int note_formats(struct cmp_side *sd, const json_t *trace)
{
	const json_t *fmts = json_object_get(trace, "event_formats");
	size_t i, w = 0;
	const json_t *v;

	if (!json_is_array(fmts))
		sd->traced_unknown = true;
	if (sd->traced_unknown)
		return 0;
	if (!sd->nr_runs) {
		json_array_foreach(fmts, i, v)
			if (json_is_string(v) &&
			    strv_add_unique(&sd->traced, &sd->nr_traced, json_string_value(v)) < 0)
				return -1;
		return 0;
	}
	for (i = 0; i < sd->nr_traced; i++) {
		if (in_json_strings(fmts, sd->traced[i]))
			sd->traced[w++] = sd->traced[i];
		else
			free(sd->traced[i]);
	}
	sd->nr_traced = w;
	return 0;
}

static int note_trace(struct cmp_side *sd, const json_t *trace, const char **kernel)
{
	const json_t *by_name = json_object_get(trace, "events_by_name");
	const char *name;
	json_t *val;

	if (json_is_true(json_object_get(trace, "mglru")))
		sd->mglru_runs++;
	else if (!json_is_boolean(json_object_get(trace, "mglru")))
		sd->mglru_unknown++;
	*kernel = json_string_value(json_object_get(trace, "kernel"));
	if (!*kernel || !**kernel)
		*kernel = "unknown";
	if (strv_add_unique(&sd->kernels, &sd->nr_kernels, *kernel) < 0 ||
	    note_formats(sd, trace) < 0)
		return -1;
	json_object_foreach((json_t *)by_name, name, val)
		if (json_is_number(val) && json_number_value(val) > 0 &&
		    strv_add_unique(&sd->events, &sd->nr_events, name) < 0)
			return -1;
	return 0;
}

int rs_compare_add_run(struct rs_compare *c, enum rs_side side, const json_t *analysis,
		       const char *path, const char *input, struct rs_error *err)
{
	struct cmp_side *sd = &c->side[side];
	struct rs_metric_set *set = NULL;
	struct rs_run_info *runs;
	struct rs_metric_set **sets;
	const char *kernel;

	if (c->finished)
		return rs_error_set(err, "comparison already finished");
	if (rs_metric_set_from_json(analysis, &set, err) < 0)
		return -1;
	runs = realloc(sd->runs, (sd->nr_runs + 1) * sizeof(*runs));
	if (runs)
		sd->runs = runs;
	sets = runs ? realloc(sd->sets, (sd->nr_runs + 1) * sizeof(*sets)) : NULL;
	if (sets)
		sd->sets = sets;
	if (!runs || !sets || note_trace(sd, json_object_get(analysis, "trace"), &kernel) < 0)
		goto out_nomem;
	runs = &sd->runs[sd->nr_runs];
	runs->path = strdup(path ? path : "");
	runs->input = strdup(input ? input : "analysis");
	runs->kernel = strdup(kernel);
	{
		size_t k = json_array_size(json_object_get(json_object_get(analysis, "kswapd"),
							   "instances"));

		if (!sd->nr_runs || k < sd->kswapds_min)
			sd->kswapds_min = k;
		if (!sd->nr_runs || k > sd->kswapds_max)
			sd->kswapds_max = k;
	}
	{
		const json_t *m = json_object_get(json_object_get(analysis, "trace"), "mglru");

		runs->mglru = json_is_boolean(m) ? json_is_true(m) : -1;
	}
	sd->sets[sd->nr_runs++] = set;
	if (!runs->path || !runs->input || !runs->kernel)
		return rs_error_set(err, "%s", strerror(ENOMEM));	/* freed with c */
	return 0;
out_nomem:
	rs_metric_set_free(set);
	return rs_error_set(err, "%s", strerror(ENOMEM));
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int find_events_only(struct rs_compare *c)
{
	for (int s = 0; s < RS_NR_SIDES; s++) {
		struct cmp_side *sd = &c->side[s], *other = &c->side[!s];

		sd->events_only = calloc(sd->nr_events + 1, sizeof(*sd->events_only));
		sd->events_quiet = calloc(sd->nr_events + 1, sizeof(*sd->events_quiet));
		if (!sd->events_only || !sd->events_quiet)
			return -1;
		for (size_t i = 0; i < sd->nr_events; i++)
			if (!in_strv(other->events, other->nr_events, sd->events[i]))
				sd->events_only[sd->nr_events_only++] = sd->events[i];
		qsort(sd->events_only, sd->nr_events_only, sizeof(*sd->events_only), cmp_strp);
		/* traced on the other side, where none fired: not an event it lacks */
		for (size_t i = 0; !other->traced_unknown && i < sd->nr_events_only; i++)
			if (in_strv(other->traced, other->nr_traced, sd->events_only[i]))
				sd->events_quiet[sd->nr_events_quiet++] = sd->events_only[i];
	}
	return 0;
}

/* Every metric name of every run, sorted and unique; the names belong to the sets. */
static const char **all_names(const struct rs_compare *c, size_t *nr)
{
	size_t total = 0, n = 0, w = 0;
	const char **names;

	for (int s = 0; s < RS_NR_SIDES; s++)
		for (size_t r = 0; r < c->side[s].nr_runs; r++)
			total += rs_metric_set_count(c->side[s].sets[r]);
	names = malloc((total + 1) * sizeof(*names));
	if (!names)
		return NULL;
	for (int s = 0; s < RS_NR_SIDES; s++)
		for (size_t r = 0; r < c->side[s].nr_runs; r++) {
			const struct rs_metric_set *set = c->side[s].sets[r];

			for (size_t i = 0; i < rs_metric_set_count(set); i++)
				names[n++] = rs_metric_set_at(set, i)->name;
		}
	qsort(names, n, sizeof(*names), cmp_strp);
	for (size_t i = 0; i < n; i++)
		if (!w || strcmp(names[w - 1], names[i]))
			names[w++] = names[i];
	*nr = w;
	return names;
}

static size_t side_values(const struct cmp_side *sd, const char *name, double *out)
{
	size_t n = 0;

	for (size_t r = 0; r < sd->nr_runs; r++) {
		const struct rs_metric *m = rs_metric_set_find(sd->sets[r], name);

		if (m)
			out[n++] = m->value;
	}
	return n;
}

static void diff_metric(struct rs_metric_diff *d, const char *name, const double *base,
			size_t nb, const double *new, size_t nn, double alpha)
{
	struct rs_summary *b = &d->side[RS_SIDE_BASE], *w = &d->side[RS_SIDE_NEW];

	d->name = name;
	rs_summary_of(base, nb, b);
	rs_summary_of(new, nn, w);
	d->pct_min = rs_pct_of(w->min, b->min);
	d->pct_max = rs_pct_of(w->max, b->max);
	d->pct_avg = rs_pct_of(w->avg, b->avg);
	d->change_pct = rs_change_pct(w->avg, b->avg);
	rs_welch_test(b, w, &d->welch);
	d->significant = d->welch.valid && d->welch.p < alpha;
}

/*
 * A figure only the classic LRU produces: its active lists (lru_shrink_active, active-list
 * isolates, deactivations). MGLRU has none, so against an MGLRU run such a figure is not a
 * change to 0 but nothing to compare. LRU sizes stay: memory.stat counts MGLRU's two youngest
 * generations as active.
 */
static bool classic_only(const char *name)
{
	static const char *const lists[] = { "active_anon", "active_file" };
	static const char *const words[] = { "shrink_active", "scanned_active", "deactivated",
					     "kept_active" };

	if (strstr(name, "lru_size"))
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(name, words[i]))
			return true;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		for (const char *p = name; (p = strstr(p, lists[i])); p++)
			if (p - name < 2 || strncmp(p - 2, "in", 2))
				return true;
	return false;
}

int rs_compare_finish(struct rs_compare *c, double alpha, struct rs_error *err)
{
	size_t nr_names = 0, max_runs;
	const char **names = NULL;
	double *vb = NULL, *vn = NULL;
	int ret = -1;

	if (c->finished)
		return rs_error_set(err, "comparison already finished");
	if (!(alpha > 0.0 && alpha < 1.0))
		return rs_error_set(err, "alpha %g is not between 0 and 1", alpha);
	if (!c->side[RS_SIDE_BASE].nr_runs || !c->side[RS_SIDE_NEW].nr_runs)
		return rs_error_set(err, "a comparison needs at least one run on each side");
	c->alpha = alpha;
	c->finished = true;
	if (find_events_only(c) < 0)
		goto out_nomem;
	names = all_names(c, &nr_names);
	max_runs = c->side[RS_SIDE_BASE].nr_runs > c->side[RS_SIDE_NEW].nr_runs ?
		   c->side[RS_SIDE_BASE].nr_runs : c->side[RS_SIDE_NEW].nr_runs;
	vb = malloc(max_runs * sizeof(*vb));
	vn = malloc(max_runs * sizeof(*vn));
	c->metrics = calloc(nr_names + 1, sizeof(*c->metrics));
	c->left_out = calloc(nr_names + 1, sizeof(*c->left_out));
	c->not_comparable = calloc(nr_names + 1, sizeof(*c->not_comparable));
	if (!names || !vb || !vn || !c->metrics || !c->left_out || !c->not_comparable)
		goto out_nomem;
	for (int s = 0; s < RS_NR_SIDES; s++)
		if (c->side[s].mglru_runs && c->side[!s].mglru_runs < c->side[!s].nr_runs)
			c->mglru_differs = true;
	for (size_t i = 0; i < nr_names; i++) {
		size_t nb = side_values(&c->side[RS_SIDE_BASE], names[i], vb);
		size_t nn = side_values(&c->side[RS_SIDE_NEW], names[i], vn);

		if (c->mglru_differs && classic_only(names[i])) {
			c->not_comparable[c->nr_not_comparable++] = names[i];
		} else if (nb && nn) {
			diff_metric(&c->metrics[c->nr_metrics++], names[i], vb, nb, vn, nn, alpha);
		} else {
			struct rs_left_out *lo = &c->left_out[c->nr_left_out++];

			lo->name = names[i];
			lo->only_in = nb ? RS_SIDE_BASE : RS_SIDE_NEW;
		}
	}
	ret = 0;
	goto out;
out_nomem:
	rs_error_set(err, "comparing: %s", strerror(ENOMEM));
out:
	free(names);
	free(vb);
	free(vn);
	return ret;
}

double rs_compare_alpha(const struct rs_compare *c)
{
	return c->alpha;
}

size_t rs_compare_nr_runs(const struct rs_compare *c, enum rs_side side)
{
	return c->side[side].nr_runs;
}

const struct rs_run_info *rs_compare_run(const struct rs_compare *c, enum rs_side side,
					 size_t i)
{
	return i < c->side[side].nr_runs ? &c->side[side].runs[i] : NULL;
}

size_t rs_compare_nr_metrics(const struct rs_compare *c)
{
	return c->nr_metrics;
}

const struct rs_metric_diff *rs_compare_metric(const struct rs_compare *c, size_t i)
{
	return i < c->nr_metrics ? &c->metrics[i] : NULL;
}

const struct rs_metric_diff *rs_compare_find(const struct rs_compare *c, const char *name)
{
	size_t lo = 0, hi = c->nr_metrics;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(c->metrics[mid].name, name);

		if (!r)
			return &c->metrics[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool rs_metric_diff_changed(const struct rs_metric_diff *d, double pct)
{
	return isnan(d->change_pct) || fabs(d->change_pct) >= pct;
}

size_t rs_compare_nr_left_out(const struct rs_compare *c)
{
	return c->nr_left_out;
}

const struct rs_left_out *rs_compare_left_out(const struct rs_compare *c, size_t i)
{
	return i < c->nr_left_out ? &c->left_out[i] : NULL;
}

bool rs_compare_side_has_under(const struct rs_compare *c, enum rs_side side, const char *name,
			       size_t len)
{
	const struct cmp_side *sd = &c->side[side];

	for (size_t r = 0; r < sd->nr_runs; r++) {
		const struct rs_metric_set *set = sd->sets[r];

		/* names under it sort right after it: "a.b" < "a.b." and "a.b[" < "a.b\x7f" */
		for (size_t i = rs_metric_set_lower_bound(set, name, len);
		     i < rs_metric_set_count(set); i++) {
			const char *m = rs_metric_set_at(set, i)->name;

			if (strncmp(m, name, len))
				break;
			if (m[len] == '.' || m[len] == '[')
				return true;
		}
	}
	return false;
}

/*
 * The kswapd figures (awake time, wakes, sleeps, pages) sum over a run's kswapd threads, one per
 * node: a run of two nodes against one of one compares two kswapds with one. Differ when the
 * sides' ranges of kswapds seen per run do (a node whose kswapd never woke counts as none).
 */
bool rs_compare_kswapds_differ(const struct rs_compare *c)
{
	const struct cmp_side *b = &c->side[RS_SIDE_BASE], *n = &c->side[RS_SIDE_NEW];

	return b->nr_runs && n->nr_runs &&
	       (b->kswapds_min != n->kswapds_min || b->kswapds_max != n->kswapds_max);
}

void rs_compare_kswapds(const struct rs_compare *c, enum rs_side side, size_t *min, size_t *max)
{
	*min = c->side[side].kswapds_min;
	*max = c->side[side].kswapds_max;
}

bool rs_compare_mglru_differs(const struct rs_compare *c)
{
	return c->mglru_differs;
}

size_t rs_compare_mglru_runs(const struct rs_compare *c, enum rs_side side)
{
	return c->side[side].mglru_runs;
}

size_t rs_compare_mglru_unknown(const struct rs_compare *c, enum rs_side side)
{
	return c->side[side].mglru_unknown;
}

size_t rs_compare_nr_not_comparable(const struct rs_compare *c)
{
	return c->nr_not_comparable;
}

const char *rs_compare_not_comparable(const struct rs_compare *c, size_t i)
{
	return i < c->nr_not_comparable ? c->not_comparable[i] : NULL;
}

size_t rs_compare_nr_kernels(const struct rs_compare *c, enum rs_side side)
{
	return c->side[side].nr_kernels;
}

const char *rs_compare_kernel(const struct rs_compare *c, enum rs_side side, size_t i)
{
	return i < c->side[side].nr_kernels ? c->side[side].kernels[i] : NULL;
}

bool rs_compare_kernels_differ(const struct rs_compare *c)
{
	for (int s = 0; s < RS_NR_SIDES; s++)
		for (size_t i = 0; i < c->side[s].nr_kernels; i++)
			if (!in_strv(c->side[!s].kernels, c->side[!s].nr_kernels,
				     c->side[s].kernels[i]))
				return true;
	return false;
}

size_t rs_compare_nr_events_only(const struct rs_compare *c, enum rs_side side)
{
	return c->side[side].nr_events_only;
}

const char *rs_compare_event_only(const struct rs_compare *c, enum rs_side side, size_t i)
{
	return i < c->side[side].nr_events_only ? c->side[side].events_only[i] : NULL;
}

bool rs_compare_event_only_quiet(const struct rs_compare *c, enum rs_side side, size_t i)
{
	const struct cmp_side *sd = &c->side[side];

	for (size_t q = 0; i < sd->nr_events_only && q < sd->nr_events_quiet; q++)
		if (sd->events_quiet[q] == sd->events_only[i])
			return true;
	return false;
}

/* ---- JSON ---- */

/* NaN and infinities are not JSON: they become null. */
static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON string of a file name or label, which need not be UTF-8: other bytes become '?'. */
static json_t *str_json(const char *s)
{
	json_t *j = json_string(s);
	char *copy;

	if (j || !s)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/* An array of the strings v[0..n) (str_json()); NULL when out of memory. */
static json_t *strings_json(const char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		if (json_array_append_new(a, str_json(v[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *summary_json(const struct rs_summary *s)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:I}", "min", real_or_null(s->min),
			 "max", real_or_null(s->max), "avg", real_or_null(s->avg),
			 "std", real_or_null(s->std), "n", (json_int_t)s->n);
}

static json_t *metric_json(const struct rs_metric_diff *d)
{
	return json_pack("{s:o,s:o,s:{s:o,s:o,s:o},s:o,s:o,s:o,s:o,s:b}",
			 "base", summary_json(&d->side[RS_SIDE_BASE]),
			 "new", summary_json(&d->side[RS_SIDE_NEW]),
			 "pct_of_base", "min", real_or_null(d->pct_min),
			 "max", real_or_null(d->pct_max), "avg", real_or_null(d->pct_avg),
			 "change_pct", real_or_null(d->change_pct),
			 "t", d->welch.valid ? real_or_null(d->welch.t) : json_null(),
			 "df", d->welch.valid ? real_or_null(d->welch.df) : json_null(),
			 "p", d->welch.valid ? real_or_null(d->welch.p) : json_null(),
			 "significant", d->significant);
}

static json_t *side_json(const struct rs_compare *c, enum rs_side s, const char *label)
{
	const struct cmp_side *sd = &c->side[s];
	json_t *o = json_object(), *runs = json_array();
	int bad = !runs;

	for (size_t i = 0; !bad && i < sd->nr_runs; i++)
		bad = json_array_append_new(runs, json_pack("{s:o,s:s,s:o,s:o}",
				"path", str_json(sd->runs[i].path), "input", sd->runs[i].input,
				"kernel", str_json(sd->runs[i].kernel), "mglru",
				sd->runs[i].mglru < 0 ? json_null() :
				json_boolean(sd->runs[i].mglru)));
	/* The _new setters take the references whether they succeed or not (and o may be NULL). */
	bad |= json_object_set_new(o, "label", str_json(label));
	bad |= json_object_set_new(o, "runs", runs);
	bad |= json_object_set_new(o, "kernels",
				   strings_json((const char *const *)sd->kernels, sd->nr_kernels));
	bad |= json_object_set_new(o, "events_only_here",
				   strings_json(sd->events_only, sd->nr_events_only));
	bad |= json_object_set_new(o, "events_only_here_traced_there",
				   strings_json(sd->events_quiet, sd->nr_events_quiet));
	bad |= json_object_set_new(o, "mglru_runs", json_integer((json_int_t)sd->mglru_runs));
	bad |= json_object_set_new(o, "mglru_unknown_runs",
				   json_integer((json_int_t)sd->mglru_unknown));
	bad |= json_object_set_new(o, "kswapds_min", json_integer((json_int_t)sd->kswapds_min));
	bad |= json_object_set_new(o, "kswapds_max", json_integer((json_int_t)sd->kswapds_max));
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *rs_compare_json(const struct rs_compare *c, const char *const labels[RS_NR_SIDES],
			double only_changed)
{
	json_t *root = json_object(), *metrics = json_object(), *left = json_array();
	size_t shown = 0;
	int bad = !metrics || !left;

	for (size_t i = 0; !bad && i < c->nr_metrics; i++) {
		const struct rs_metric_diff *d = &c->metrics[i];

		if (only_changed >= 0 && !rs_metric_diff_changed(d, only_changed))
			continue;
		bad = json_object_set_new(metrics, d->name, metric_json(d));
		shown++;
	}
	for (size_t i = 0; !bad && i < c->nr_left_out; i++)
		bad = json_array_append_new(left, json_pack("{s:s,s:s}", "metric",
				c->left_out[i].name, "only_in", side_name[c->left_out[i].only_in]));
	/* The _new setters take the references whether they succeed or not (root may be NULL). */
	bad |= json_object_set_new(root, "mglru_differs", json_boolean(c->mglru_differs));
	bad |= json_object_set_new(root, "kswapds_differ",
				   json_boolean(rs_compare_kswapds_differ(c)));
	bad |= json_object_set_new(root, "not_comparable",
				   strings_json(c->not_comparable, c->nr_not_comparable));
	bad |= json_object_set_new(root, "metrics", metrics);
	bad |= json_object_set_new(root, "left_out", left);
	for (int s = 0; s < RS_NR_SIDES; s++)
		bad |= json_object_set_new(root, side_name[s], side_json(c, s, labels[s]));
	bad |= json_object_set_new(root, "alpha", json_real(c->alpha));
	bad |= json_object_set_new(root, "kernels_differ",
				   json_boolean(rs_compare_kernels_differ(c)));
	bad |= json_object_set_new(root, "only_changed_pct",
				   only_changed >= 0 ? json_real(only_changed) : json_null());
	bad |= json_object_set_new(root, "metrics_compared",
				   json_integer((json_int_t)c->nr_metrics));
	bad |= json_object_set_new(root, "metrics_shown", json_integer((json_int_t)shown));
	if (bad) {
		json_decref(root);
		return NULL;
	}
	return root;
}
