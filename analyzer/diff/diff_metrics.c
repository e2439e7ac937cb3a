// SPDX-License-Identifier: GPL-2.0
/*
 * Flatten an analysis document into named metrics (scheme in include/diff_metrics.h). The names
 * must not depend on the order jansson keeps members in, on pids that change between boots
 * when a comm says the same, or on cgroup ids that change when a cgroup is made again: cgroups
 * are matched by path, processes by comm, CPUs and nodes by number.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_metrics.h"
#include "rs_grow.h"

struct item {
	struct rs_metric m;
	size_t seq;		/* document order, to keep the sort stable */
};

struct rs_metric_set {
	struct item *v;
	size_t n, alloc;
};

/* Subtrees that hold time series, not figures. */
static const char *const skip_members[] = { "event_times", "series", "timeline", "time_series" };
/*
 * Leaves that identify or time-stamp something: they differ between runs by nature. And
 * trace-cmd's `entries:` statistic (buffered_at_stats), which is not a loss nor a figure.
 */
static const char *const skip_leaves[] = { "id", "pid", "tid", "ts", "fn", "addr", "first_s",
					   "last_s", "start_s", "end_s", "from_s", "to_s",
					   "buffered_at_stats" };
static const char *const skip_suffixes[] = { "_id", "_pid", "_ts", "_addr" };

/* Members that address the items of an array, in the order they are tried. */
static const struct { const char *key; bool string; } array_keys[] = {
	{ "path", true }, { "name", true }, { "comm", true },
	{ "pid", false }, { "cpu", false }, { "nid", false }, { "order", false },
};

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

static bool skip_leaf(const char *key)
{
	size_t len = strlen(key);

	if (in_list(key, skip_leaves, sizeof(skip_leaves) / sizeof(skip_leaves[0])))
		return true;
	for (size_t i = 0; i < sizeof(skip_suffixes) / sizeof(skip_suffixes[0]); i++) {
		size_t sl = strlen(skip_suffixes[i]);

		if (len > sl && !strcmp(key + len - sl, skip_suffixes[i]))
			return true;
	}
	return false;
}

/*
 * Saved JSON keeps reals to RS_METRIC_REAL_DIGITS significant digits (rs_report_json_dump), so
 * every real is compared at that precision: a trace and its saved analysis then give the same
 * numbers, and a trace diffed against its own JSON changes by exactly 0. Integers stay exact.
 */
#define RS_METRIC_REAL_DIGITS 10

static double real_value(const json_t *v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*g", RS_METRIC_REAL_DIGITS, json_real_value(v));
	return strtod(buf, NULL);
}

static int set_add(struct rs_metric_set *set, char *name, double value)
{
	if (RS_GROW(set->v, set->alloc, set->n + 1, 64))
		return -1;
	set->v[set->n].m.name = name;
	set->v[set->n].m.value = value;
	set->v[set->n].seq = set->n;
	set->n++;
	return 0;
}

static char *join(const char *prefix, const char *key)
{
	char *s;

	if (asprintf(&s, "%s%s%s", prefix ? prefix : "", prefix ? "." : "", key) < 0)
		return NULL;
	return s;
}

static int walk_object(struct rs_metric_set *set, const json_t *obj, const char *prefix,
		       const char *item_key);

/* The member that addresses every item of `arr`, or -1 when the array holds no metrics. */
static int array_key(const json_t *arr)
{
	size_t n = json_array_size(arr);

	if (!n)
		return -1;
	for (size_t k = 0; k < sizeof(array_keys) / sizeof(array_keys[0]); k++) {
		size_t i;

		for (i = 0; i < n; i++) {
			const json_t *it = json_array_get(arr, i);
			const json_t *kv = json_is_object(it) ?
				json_object_get(it, array_keys[k].key) : NULL;

			if (!kv || (array_keys[k].string ? !json_is_string(kv) :
				    !json_is_integer(kv)))
				break;
		}
		if (i == n)
			return (int)k;
	}
	return -1;
}

/* Item i's label; `shared` says its comm is shared by another item (then comm/pid). */
static char *item_label(const json_t *arr, size_t i, int k, bool shared)
{
	const json_t *it = json_array_get(arr, i);
	const json_t *kv = json_object_get(it, array_keys[k].key);
	const json_t *pid;
	char *s;

	if (!array_keys[k].string) {
		if (asprintf(&s, "%s=%" JSON_INTEGER_FORMAT, array_keys[k].key,
			     json_integer_value(kv)) < 0)
			return NULL;
		return s;
	}
	pid = json_object_get(it, "pid");
	if (shared && !strcmp(array_keys[k].key, "comm") && json_is_integer(pid)) {
		/* A comm shared by several items is told apart by pid. */
		if (asprintf(&s, "%s/%" JSON_INTEGER_FORMAT, json_string_value(kv),
			     json_integer_value(pid)) < 0)
			return NULL;
		return s;
	}
	return strdup(json_string_value(kv));
}

/* Indexes 0..n-1 sorted by their string, equal strings in index order (qsort_r). */
static int by_string(const void *x, const void *y, void *arg)
{
	const char *const *str = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int r = strcmp(str[a], str[b]);

	return r ? r : (a > b) - (a < b);
}

/*
 * How many times each string occurred up to and including it (rank[i], 1 for the first) and
 * in all (total[i]): by sorting, O(n log n). Duplicate counting by pairs was quadratic: 100,000
 * items took 10 s in `diff`, 200,000 took 42 s.
 */
static int occurrences(const char *const *str, size_t n, unsigned int *rank, unsigned int *total)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx));

	if (!idx)
		return -1;
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), by_string, (void *)str);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && !strcmp(str[idx[j]], str[idx[i]]))
			j++;
		for (size_t r = i; r < j; r++) {
			if (rank)
				rank[idx[r]] = (unsigned int)(r - i + 1);
			if (total)
				total[idx[r]] = (unsigned int)(j - i);
		}
		i = j;
	}
	free(idx);
	return 0;
}

static int walk_array(struct rs_metric_set *set, const json_t *arr, const char *name)
{
	int k = array_key(arr);
	size_t n = json_array_size(arr);
	const char **comms = NULL;
	unsigned int *seen = NULL, *shared = NULL;
	char **labels;
	int ret = 0;

	if (k < 0)
		return 0;
	labels = calloc(n, sizeof(*labels));
	seen = calloc(n, sizeof(*seen));
	shared = calloc(n, sizeof(*shared));
	comms = calloc(n, sizeof(*comms));
	if (!labels || !seen || !shared || !comms) {
		ret = -1;
		goto out_free;
	}
	if (array_keys[k].string) {
		for (size_t i = 0; i < n; i++)
			comms[i] = json_string_value(json_object_get(json_array_get(arr, i),
								     array_keys[k].key));
		if (occurrences(comms, n, NULL, shared) < 0) {
			ret = -1;
			goto out_free;
		}
	}
	for (size_t i = 0; i < n; i++) {
		labels[i] = item_label(arr, i, k, shared[i] > 1);
		if (!labels[i]) {
			ret = -1;
			goto out_free;
		}
	}
	if (occurrences((const char *const *)labels, n, seen, NULL) < 0) {
		ret = -1;
		goto out_free;
	}
	for (size_t i = 0; i < n && ret == 0; i++) {
		char *item;

		if (seen[i] > 1 ? asprintf(&item, "%s[%s#%u]", name, labels[i], seen[i]) < 0 :
				  asprintf(&item, "%s[%s]", name, labels[i]) < 0) {
			ret = -1;
			break;
		}
		ret = walk_object(set, json_array_get(arr, i), item, array_keys[k].key);
		free(item);
	}
out_free:
	for (size_t i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
	free(seen);
	free(shared);
	free(comms);
	return ret;
}

/* Walk the members of `obj`; `item_key` is the member that addressed it (skipped), or NULL. */
static int walk_object(struct rs_metric_set *set, const json_t *obj, const char *prefix,
		       const char *item_key)
{
	const char *key;
	json_t *val;

	json_object_foreach((json_t *)obj, key, val) {
		char *name;
		int ret;

		if (in_list(key, skip_members, sizeof(skip_members) / sizeof(skip_members[0])))
			continue;
		if (item_key && !strcmp(key, item_key))
			continue;
		if (json_is_number(val) && skip_leaf(key))
			continue;
		if (!json_is_number(val) && !json_is_object(val) && !json_is_array(val))
			continue;
		name = join(prefix, key);
		if (!name)
			return -1;
		if (json_is_number(val)) {
			/* the set owns `name` from here */
			if (set_add(set, name, json_is_real(val) ? real_value(val) :
				    (double)json_integer_value(val)) < 0) {
				free(name);
				return -1;
			}
			continue;
		}
		if (json_is_array(val))
			ret = walk_array(set, val, name);
		else
			ret = walk_object(set, val, name, NULL);
		free(name);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * An event the trace's file has a format for (trace.event_formats: trace-cmd wrote the formats
 * of what it traced) and no record of was counted 0 times, a count like any other; the
 * analysis leaves it out of trace.events_by_name, which lists what fired.
 */
static int add_quiet_events(struct rs_metric_set *set, const json_t *trace)
{
	const json_t *by_name = json_object_get(trace, "events_by_name");
	const json_t *fmts = json_object_get(trace, "event_formats");
	const json_t *v;
	size_t i;

	if (!json_is_object(by_name))
		return 0;
	json_array_foreach(fmts, i, v) {
		const char *event = json_string_value(v);
		char *name;

		if (!event || json_object_get(by_name, event))
			continue;
		name = join("trace.events_by_name", event);
		if (!name || set_add(set, name, 0) < 0) {
			free(name);
			return -1;
		}
	}
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct item *)a)->m.name, ((const struct item *)b)->m.name);
}

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = cmp_name(a, b);

	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

int rs_metric_set_from_json(const json_t *root, struct rs_metric_set **out,
			    struct rs_error *err)
{
	struct rs_metric_set *set;
	size_t w = 0;

	*out = NULL;
	if (!json_is_object(root))
		return rs_error_set(err, "analysis is not a JSON object");
	set = calloc(1, sizeof(*set));
	if (!set)
		goto out_nomem;
	if (walk_object(set, root, NULL, NULL) < 0 ||
	    add_quiet_events(set, json_object_get(root, "trace")) < 0)
		goto out_nomem;
	/*
	 * Names are unique by construction except when an object key itself contains "[" or "."
	 * and collides with a built name; keep the first in document order, deterministically.
	 */
	qsort(set->v, set->n, sizeof(*set->v), cmp_item);
	for (size_t i = 0; i < set->n; i++) {
		if (w && !strcmp(set->v[w - 1].m.name, set->v[i].m.name)) {
			free(set->v[i].m.name);
			continue;
		}
		set->v[w++] = set->v[i];
	}
	set->n = w;
	*out = set;
	return 0;
out_nomem:
	rs_metric_set_free(set);
	return rs_error_set(err, "flattening the analysis: %s", strerror(ENOMEM));
}

size_t rs_metric_set_count(const struct rs_metric_set *set)
{
	return set ? set->n : 0;
}

const struct rs_metric *rs_metric_set_at(const struct rs_metric_set *set, size_t i)
{
	return i < set->n ? &set->v[i].m : NULL;
}

size_t rs_metric_set_lower_bound(const struct rs_metric_set *set, const char *prefix, size_t len)
{
	size_t lo = 0, hi = set ? set->n : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(set->v[mid].m.name, prefix, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct rs_metric *rs_metric_set_find(const struct rs_metric_set *set, const char *name)
{
	struct item key = { .m.name = (char *)name };
	const struct item *it;

	if (!set || !set->n)
		return NULL;
	it = bsearch(&key, set->v, set->n, sizeof(*set->v), cmp_name);
	return it ? &it->m : NULL;
}

void rs_metric_set_free(struct rs_metric_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		free(set->v[i].m.name);
	free(set->v);
	free(set);
}
