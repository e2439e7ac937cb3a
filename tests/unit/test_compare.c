// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of `diff`: statistics against hand-computed values, metric naming, matching,
 * left-out metrics and the JSON form. Expected p-values were computed with python3's mpmath
 * (mp.dps = 30) in two independent ways that agree to 30 digits: the regularized incomplete
 * beta, betainc(df/2, 1/2, 0, df/(df+t^2), regularized=True), and numerical integration of the
 * Student-t density, 2 * quad(gamma((df+1)/2) / (sqrt(df*pi) * gamma(df/2))
 * * (1 + x^2/df)^(-(df+1)/2), [|t|, inf]).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "compare.h"
#include "diff_metrics.h"
#include "diff_stats.h"
#include "unit.h"

#define UT_ASSERT_NEAR(a, b, tol) do { \
	double _a = (a), _b = (b); \
	if (!(fabs(_a - _b) <= (tol))) { \
		fprintf(stderr, "  %s:%d: %s == %.17g, expected %.17g (+-%g)\n", __FILE__, \
			__LINE__, #a, _a, _b, (double)(tol)); \
		return UT_FAIL; \
	} \
} while (0)

struct numstr {
	char s[64];
};

/* printf("%.*f") of v, for checking what the text output shows. */
static struct numstr fmt(double v, int prec)
{
	struct numstr n;

	snprintf(n.s, sizeof(n.s), "%.*f", prec, v);
	return n;
}

UT_TEST(test_summary, "diff: summary min/max/avg/std")
{
	const double v[] = { 3, 1, 4, 2 };
	struct rs_summary s;

	/* mean 10/4; squared deviations 0.25+2.25+2.25+0.25 = 5: population 5/4, sample 5/3 */
	rs_summary_of(v, 4, &s);
	UT_ASSERT_EQ(s.n, 4);
	UT_ASSERT_NEAR(s.min, 1.0, 0);
	UT_ASSERT_NEAR(s.max, 4.0, 0);
	UT_ASSERT_NEAR(s.avg, 2.5, 0);
	UT_ASSERT_NEAR(s.std, sqrt(1.25), 1e-15);
	UT_ASSERT_NEAR(s.var_sample, 5.0 / 3.0, 1e-15);
	rs_summary_of(v, 1, &s);
	UT_ASSERT_NEAR(s.std, 0, 0);
	UT_ASSERT_NEAR(s.var_sample, 0, 0);
	rs_summary_of(v, 0, &s);
	UT_ASSERT_EQ(s.n, 0);
	return UT_OK;
}

/*
 * Seed 003 (kbuild, 3 runs): "8k-0-limit/base: min: 475.48 max: 585.19 avg: 525.54 std: 45.30"
 * and "8k-0-limit/reclaim: min: 616.25 [129.6%] max: 625.90 [107.0%] avg: 620.68 [118.1%]
 * std: 3.98". With 3 runs the middle one is 3 * avg - min - max: 515.95 and 619.89. The std
 * printed is the population one (the sample one would be 55.48 and 4.87).
 */
UT_TEST(test_seed_003, "diff: seed 003 figures reproduced")
{
	const double base[] = { 475.48, 515.95, 585.19 }, rec[] = { 616.25, 619.89, 625.90 };
	struct rs_summary b, n;

	rs_summary_of(base, 3, &b);
	rs_summary_of(rec, 3, &n);
	UT_ASSERT_STR(fmt(b.avg, 2).s, "525.54");
	UT_ASSERT_STR(fmt(b.std, 2).s, "45.30");
	UT_ASSERT_STR(fmt(n.avg, 2).s, "620.68");
	UT_ASSERT_STR(fmt(n.std, 2).s, "3.98");
	UT_ASSERT_STR(fmt(rs_pct_of(n.min, b.min), 1).s, "129.6");
	UT_ASSERT_STR(fmt(rs_pct_of(n.max, b.max), 1).s, "107.0");
	UT_ASSERT_STR(fmt(rs_pct_of(n.avg, b.avg), 1).s, "118.1");
	return UT_OK;
}

UT_TEST(test_betai_closed_forms, "diff: incomplete beta closed forms")
{
	/* I_x(1, 1) = x; I_x(a, 1) = x^a; I_1/2(a, a) = 1/2 */
	UT_ASSERT_NEAR(rs_betai(1, 1, 0.3), 0.3, 1e-14);
	UT_ASSERT_NEAR(rs_betai(3.5, 1, 0.7), pow(0.7, 3.5), 1e-14);
	UT_ASSERT_NEAR(rs_betai(7.25, 7.25, 0.5), 0.5, 1e-14);
	UT_ASSERT_NEAR(rs_betai(2, 3, 0), 0, 0);
	UT_ASSERT_NEAR(rs_betai(2, 3, 1), 1, 0);
	UT_ASSERT(isnan(rs_betai(2, 3, 1.5)));
	UT_ASSERT(isnan(rs_betai(0, 3, 0.5)));
	/* mpmath betainc(2.5, 0.5, 0, 0.3) and betainc(30, 0.5, 0, 0.97), regularized */
	UT_ASSERT_NEAR(rs_betai(2.5, 0.5, 0.3), 0.0189271240719456516534522087067, 1e-14);
	UT_ASSERT_NEAR(rs_betai(30, 0.5, 0.97), 0.178217544970241346156566954965, 1e-13);
	return UT_OK;
}

UT_TEST(test_student_t, "diff: Student t two-sided p")
{
	/* df = 1 is Cauchy: p = 1 - 2/pi atan|t|; df = 2: p = 1 - |t| / sqrt(2 + t^2) */
	UT_ASSERT_NEAR(rs_student_t_p2(1.0, 1), 0.5, 1e-14);
	UT_ASSERT_NEAR(rs_student_t_p2(3.0, 1), 1 - 2 / M_PI * atan(3.0), 1e-14);
	UT_ASSERT_NEAR(rs_student_t_p2(-2.5, 2), 1 - 2.5 / sqrt(2 + 6.25), 1e-14);
	UT_ASSERT_NEAR(rs_student_t_p2(0, 5), 1.0, 1e-15);
	/* mpmath, see the top of this file */
	UT_ASSERT_NEAR(rs_student_t_p2(2.0, 10), 0.0733880347707403656178625694116, 1e-13);
	UT_ASSERT_NEAR(rs_student_t_p2(0.5, 3.3), 0.648535076399558390061012775705, 1e-13);
	UT_ASSERT_NEAR(rs_student_t_p2(-3.7, 7.25), 0.0071915135937578955326166698294, 1e-14);
	UT_ASSERT_NEAR(rs_student_t_p2(10, 2.5), 0.00444149576730742477308296346945, 1e-14);
	UT_ASSERT_NEAR(rs_student_t_p2(INFINITY, 3), 0, 0);
	return UT_OK;
}

/*
 * Runs 1,2,3,4 against 2,4,6,8. Sample variances 5/3 and 20/3, so se^2 = 5/12 + 20/12 = 25/12,
 * t = 2.5 / sqrt(25/12) = sqrt(3), df = (25/12)^2 / ((5/12)^2/3 + (5/3)^2/3) = 1875/425, and
 * p (mpmath) = 0.151580504845303937974125074796.
 */
UT_TEST(test_welch, "diff: Welch t-test")
{
	const double a[] = { 1, 2, 3, 4 }, b[] = { 2, 4, 6, 8 }, c[] = { 5, 5, 5 };
	const double d[] = { 7, 7 };
	struct rs_summary sa, sb, sc, sd;
	struct rs_welch w;

	rs_summary_of(a, 4, &sa);
	rs_summary_of(b, 4, &sb);
	rs_welch_test(&sa, &sb, &w);
	UT_ASSERT(w.valid);
	UT_ASSERT_NEAR(w.t, sqrt(3.0), 1e-14);
	UT_ASSERT_NEAR(w.df, 1875.0 / 425.0, 1e-13);
	UT_ASSERT_NEAR(w.p, 0.151580504845303937974125074796, 1e-13);
	/* reversed: t changes sign, p does not */
	rs_welch_test(&sb, &sa, &w);
	UT_ASSERT_NEAR(w.t, -sqrt(3.0), 1e-14);
	UT_ASSERT_NEAR(w.p, 0.151580504845303937974125074796, 1e-13);
	/* no noise on either side: exact answers */
	rs_summary_of(c, 3, &sc);
	rs_summary_of(d, 2, &sd);
	rs_welch_test(&sc, &sc, &w);
	UT_ASSERT(w.valid);
	UT_ASSERT_NEAR(w.p, 1.0, 0);
	rs_welch_test(&sc, &sd, &w);
	UT_ASSERT_NEAR(w.p, 0.0, 0);
	UT_ASSERT(isinf(w.t) && w.t > 0);
	/* one side without noise: df = n - 1 of the other side; here t = (5 - 2.5)/sqrt(5/12) */
	rs_welch_test(&sa, &sc, &w);
	UT_ASSERT_NEAR(w.df, 3.0, 1e-12);
	UT_ASSERT_NEAR(w.t, 2.5 / sqrt(5.0 / 12.0), 1e-13);
	UT_ASSERT_NEAR(w.p, rs_betai(1.5, 0.5, 3.0 / (3.0 + 15.0)), 1e-15);
	/* a single run on a side: not testable */
	rs_summary_of(a, 1, &sa);
	rs_welch_test(&sa, &sb, &w);
	UT_ASSERT(!w.valid);
	UT_ASSERT(isnan(w.p));
	return UT_OK;
}

UT_TEST(test_percentages, "diff: percentages")
{
	UT_ASSERT_STR(fmt(rs_pct_of(1001.11, 1001.74), 1).s, "99.9");	/* seed 000 */
	UT_ASSERT_STR(fmt(rs_pct_of(391.70, 403.31), 1).s, "97.1");	/* seed 000 */
	UT_ASSERT_NEAR(rs_pct_of(0, 0), 100, 0);
	UT_ASSERT(isnan(rs_pct_of(3, 0)));
	UT_ASSERT_NEAR(rs_change_pct(150, 100), 50, 1e-12);
	UT_ASSERT_NEAR(rs_change_pct(50, 100), -50, 1e-12);
	UT_ASSERT_NEAR(rs_change_pct(-50, -100), 50, 1e-12);	/* towards zero is up */
	UT_ASSERT_NEAR(rs_change_pct(0, 0), 0, 0);
	UT_ASSERT(isnan(rs_change_pct(1, 0)));
	return UT_OK;
}

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	if (!j)
		fprintf(stderr, "  bad test JSON: %s\n", e.text);
	return j;
}

static const char *const names_doc =
	"{\"trace\": {\"kernel\": \"6.18\", \"events\": 10, \"first_s\": 1.5, \"last_s\": 2.5,"
	"  \"path\": \"x.dat\", \"event_times\": {\"a\": {\"first_s\": 1}},"
	"  \"missed_by_cpu\": [{\"cpu\": 0, \"missed\": 3}, {\"cpu\": 1, \"missed\": 4}]},"
	" \"lru\": {\"inactive_file\": {\"scanned\": 100, \"ratio\": 0.5, \"flag\": true}},"
	" \"episodes\": {\"direct\": {\"latency_us\": {\"p99\": 250.5, \"p50\": null}}},"
	" \"cgroups\": [{\"path\": \"/rs_a\", \"id\": 77, \"memcg_id\": 77,"
	"                \"victim\": {\"pgscan_direct\": 12}},"
	"               {\"path\": \"/rs.b/c\", \"victim\": {\"pgscan_direct\": 13}}],"
	" \"procs\": [{\"comm\": \"kswapd0\", \"pid\": 50, \"scanned\": 1},"
	"             {\"comm\": \"dd\", \"pid\": 7, \"scanned\": 2},"
	"             {\"comm\": \"dd\", \"pid\": 9, \"scanned\": 3}],"
	" \"dups\": [{\"name\": \"x\", \"v\": 1}, {\"name\": \"x\", \"v\": 2}],"
	" \"series\": {\"interval_s\": 1, \"scanned\": [1, 2, 3]},"
	" \"buckets\": [{\"t\": 0, \"scanned\": 5}],"
	" \"oom\": [{\"comm\": \"eater\", \"pid\": 3, \"ts\": 5, \"by_pid\": 3, \"fn\": 1,"
	"           \"shrink_addr\": 2, \"pages\": 9}],"
	" \"numbers\": [1, 2, 3], \"start_ts\": 99, \"tid\": 4}";

UT_TEST(test_flatten_names, "diff: metric names")
{
	static const struct { const char *name; double v; } want[] = {
		{ "cgroups[/rs.b/c].victim.pgscan_direct", 13 },
		{ "cgroups[/rs_a].victim.pgscan_direct", 12 },
		{ "dups[x#2].v", 2 },
		{ "dups[x].v", 1 },
		{ "episodes.direct.latency_us.p99", 250.5 },
		{ "lru.inactive_file.ratio", 0.5 },
		{ "lru.inactive_file.scanned", 100 },
		{ "oom[eater].pages", 9 },
		{ "procs[dd/7].scanned", 2 },
		{ "procs[dd/9].scanned", 3 },
		{ "procs[kswapd0].scanned", 1 },
		{ "trace.events", 10 },
		{ "trace.missed_by_cpu[cpu=0].missed", 3 },
		{ "trace.missed_by_cpu[cpu=1].missed", 4 },
	};
	struct rs_error err = { "" };
	struct rs_metric_set *set = NULL;
	json_t *doc = parse(names_doc);
	int ret = UT_FAIL;

	UT_ASSERT(doc);
	if (rs_metric_set_from_json(doc, &set, &err) < 0) {
		fprintf(stderr, "  %s\n", err.msg);
		goto out;
	}
	if (rs_metric_set_count(set) != sizeof(want) / sizeof(want[0])) {
		for (size_t i = 0; i < rs_metric_set_count(set); i++)
			fprintf(stderr, "  got %s\n", rs_metric_set_at(set, i)->name);
		fprintf(stderr, "  %zu metrics, expected %zu\n", rs_metric_set_count(set),
			sizeof(want) / sizeof(want[0]));
		goto out;
	}
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct rs_metric *m = rs_metric_set_at(set, i);

		if (strcmp(m->name, want[i].name) || m->value != want[i].v) {
			fprintf(stderr, "  metric %zu: %s = %g, expected %s = %g\n", i, m->name,
				m->value, want[i].name, want[i].v);
			goto out;
		}
		if (rs_metric_set_find(set, want[i].name) != m) {
			fprintf(stderr, "  find(%s) failed\n", want[i].name);
			goto out;
		}
	}
	if (rs_metric_set_find(set, "trace.first_s") || rs_metric_set_find(set, "nope"))
		goto out;
	ret = UT_OK;
out:
	rs_metric_set_free(set);
	json_decref(doc);
	return ret;
}

UT_TEST(test_flatten_rejects, "diff: flatten rejects non-objects")
{
	struct rs_error err = { "" };
	struct rs_metric_set *set = NULL;
	json_t *arr = json_array();

	UT_ASSERT(rs_metric_set_from_json(arr, &set, &err) < 0);
	UT_ASSERT(set == NULL);
	UT_ASSERT(strstr(err.msg, "not a JSON object"));
	json_decref(arr);
	return UT_OK;
}

/* Build a comparison from JSON texts; NULL ends each side. */
static struct rs_compare *compare_of(const char *const *base, const char *const *new)
{
	const char *const *sides[RS_NR_SIDES] = { base, new };
	struct rs_error err = { "" };
	struct rs_compare *c = rs_compare_new();

	for (int s = 0; c && s < RS_NR_SIDES; s++)
		for (const char *const *t = sides[s]; *t; t++) {
			json_t *j = parse(*t);
			int r = j ? rs_compare_add_run(c, s, j, "mem", "analysis", &err) : -1;

			json_decref(j);
			if (r < 0) {
				fprintf(stderr, "  add: %s\n", err.msg);
				rs_compare_free(c);
				return NULL;
			}
		}
	if (c && rs_compare_finish(c, RS_COMPARE_ALPHA_DEFAULT, &err) < 0) {
		fprintf(stderr, "  finish: %s\n", err.msg);
		rs_compare_free(c);
		return NULL;
	}
	return c;
}

/* A test of the comparison c of the runs base and new (compare_of()), freed after it. */
#define COMPARE_TEST(fn, desc, base, new) \
	UT_TEST_WITH(fn, desc, struct rs_compare *, c, compare_of(base, new), rs_compare_free)

UT_TEST(test_self_diff, "diff: self-diff changes nothing")
{
	const char *const one[] = { names_doc, NULL };
	const char *const two[] = { names_doc, names_doc, NULL };
	struct rs_compare *c;

	for (int k = 0; k < 2; k++) {
		c = compare_of(k ? two : one, k ? two : one);
		UT_ASSERT(c);
		UT_ASSERT_EQ(rs_compare_nr_metrics(c), 14);
		UT_ASSERT_EQ(rs_compare_nr_left_out(c), 0);
		UT_ASSERT(!rs_compare_kernels_differ(c));
		for (size_t i = 0; i < rs_compare_nr_metrics(c); i++) {
			const struct rs_metric_diff *d = rs_compare_metric(c, i);

			UT_ASSERT(d->change_pct == 0.0);
			UT_ASSERT(d->pct_avg == 100.0);
			UT_ASSERT(!d->significant);
			UT_ASSERT(d->welch.valid == (k == 1));
			if (k)
				UT_ASSERT(d->welch.p == 1.0);
			UT_ASSERT(!rs_metric_diff_changed(d, 0.001));
			UT_ASSERT(rs_metric_diff_changed(d, 0));
		}
		rs_compare_free(c);
	}
	return UT_OK;
}

static const struct rs_metric_diff *find_diff(const struct rs_compare *c, const char *name)
{
	for (size_t i = 0; i < rs_compare_nr_metrics(c); i++)
		if (!strcmp(rs_compare_metric(c, i)->name, name))
			return rs_compare_metric(c, i);
	return NULL;
}

/* Reals count to the 10 significant digits saved JSON keeps; integers exactly. */
static const char *const precision_full[] = { "{\"trace\": {}, \"r\": 878.78408631234, "
	"\"big\": 12345678901234, \"t\": {\"from_s\": 1.5}}", NULL };
static const char *const precision_saved[] = { "{\"trace\": {}, \"r\": 878.7840863, "
	"\"big\": 12345678901235, \"t\": {\"from_s\": 2.5}}", NULL };

COMPARE_TEST(test_flatten_precision, "diff: reals at saved-JSON precision", precision_full,
	     precision_saved)
{
	const struct rs_metric_diff *d;

	UT_ASSERT_EQ(rs_compare_nr_metrics(c), 2);	/* from_s is a time stamp */
	d = find_diff(c, "r");
	UT_ASSERT(d && d->change_pct == 0.0);
	UT_ASSERT_NEAR(d->side[RS_SIDE_BASE].avg, 878.7840863, 0);
	d = find_diff(c, "big");
	UT_ASSERT(d && d->change_pct != 0.0);
	UT_ASSERT_NEAR(d->side[RS_SIDE_BASE].avg, 12345678901234.0, 0);
	return UT_OK;
}

/* 4 runs against 4, a cgroup only in new, a metric missing from one base run. */
static const char *const multi_base[] = {
	"{\"trace\": {\"kernel\": \"6.1\", \"events_by_name\": {\"a\": 1, \"m\": 2}}, "
	" \"x\": 1, \"z\": 0, \"only_base\": 5}",
	"{\"trace\": {\"kernel\": \"6.1\", \"events_by_name\": {\"a\": 1}}, "
	" \"x\": 2, \"z\": 0}",
	"{\"trace\": {\"kernel\": \"6.1\"}, \"x\": 3, \"z\": 0}",
	"{\"trace\": {\"kernel\": \"6.1\"}, \"x\": 4}",
	NULL };
static const char *const multi_new[] = {
	"{\"trace\": {\"kernel\": \"6.18\", \"events_by_name\": {\"a\": 3, \"n\": 1, "
	" \"zero\": 0}}, \"x\": 2, \"z\": 1, \"cgroups\": [{\"path\": \"/b\", \"v\": 1}]}",
	"{\"trace\": {\"kernel\": \"6.18\"}, \"x\": 4, \"z\": 1}",
	"{\"trace\": {\"kernel\": \"6.18\"}, \"x\": 6, \"z\": 1}",
	"{\"trace\": {\"kernel\": \"6.18\"}, \"x\": 8, \"z\": 1}",
	NULL };

COMPARE_TEST(test_multi_run, "diff: multi-run, left out, kernels, events", multi_base, multi_new)
{
	const struct rs_metric_diff *d;
	const struct rs_left_out *lo;

	UT_ASSERT_EQ(rs_compare_nr_runs(c, RS_SIDE_BASE), 4);
	d = find_diff(c, "x");
	UT_ASSERT(d);
	UT_ASSERT_NEAR(d->side[RS_SIDE_BASE].avg, 2.5, 0);
	UT_ASSERT_NEAR(d->side[RS_SIDE_NEW].avg, 5, 0);
	UT_ASSERT_NEAR(d->side[RS_SIDE_NEW].std, sqrt(5.0), 1e-14);	/* 20/4 */
	UT_ASSERT_NEAR(d->pct_min, 200, 1e-12);
	UT_ASSERT_NEAR(d->pct_max, 200, 1e-12);
	UT_ASSERT_NEAR(d->change_pct, 100, 1e-12);
	UT_ASSERT_NEAR(d->welch.p, 0.151580504845303937974125074796, 1e-13);
	UT_ASSERT(!d->significant);
	/* z: 0,0,0 (missing in run 4) against 1,1,1,1: exact change, change from 0 */
	d = find_diff(c, "z");
	UT_ASSERT(d);
	UT_ASSERT_EQ(d->side[RS_SIDE_BASE].n, 3);
	UT_ASSERT(isnan(d->change_pct) && isnan(d->pct_avg));
	UT_ASSERT(d->significant);
	UT_ASSERT(rs_metric_diff_changed(d, 1e9));
	/* left out, in name order */
	UT_ASSERT_EQ(rs_compare_nr_left_out(c), 5);
	lo = rs_compare_left_out(c, 0);
	UT_ASSERT_STR(lo->name, "cgroups[/b].v");
	UT_ASSERT_EQ(lo->only_in, RS_SIDE_NEW);
	lo = rs_compare_left_out(c, 1);
	UT_ASSERT_STR(lo->name, "only_base");
	UT_ASSERT_EQ(lo->only_in, RS_SIDE_BASE);
	UT_ASSERT_STR(rs_compare_left_out(c, 2)->name, "trace.events_by_name.m");
	UT_ASSERT_STR(rs_compare_left_out(c, 3)->name, "trace.events_by_name.n");
	/* whole subtrees one side lacks */
	UT_ASSERT(rs_compare_side_has_under(c, RS_SIDE_NEW, "cgroups", 7));
	UT_ASSERT(!rs_compare_side_has_under(c, RS_SIDE_BASE, "cgroups", 7));
	UT_ASSERT(rs_compare_side_has_under(c, RS_SIDE_NEW, "cgroups[/b].v", 11));
	UT_ASSERT(!rs_compare_side_has_under(c, RS_SIDE_NEW, "x", 1));	/* a leaf */
	UT_ASSERT(rs_compare_side_has_under(c, RS_SIDE_BASE, "trace.events_by_name", 20));
	/* events_by_name.zero is 0 in new and absent in base: a metric only in new, no event */
	UT_ASSERT_STR(rs_compare_left_out(c, 4)->name, "trace.events_by_name.zero");
	UT_ASSERT(rs_compare_kernels_differ(c));
	UT_ASSERT_EQ(rs_compare_nr_kernels(c, RS_SIDE_NEW), 1);
	UT_ASSERT_STR(rs_compare_kernel(c, RS_SIDE_NEW, 0), "6.18");
	UT_ASSERT_EQ(rs_compare_nr_events_only(c, RS_SIDE_BASE), 1);
	UT_ASSERT_STR(rs_compare_event_only(c, RS_SIDE_BASE, 0), "m");
	UT_ASSERT_EQ(rs_compare_nr_events_only(c, RS_SIDE_NEW), 1);
	UT_ASSERT_STR(rs_compare_event_only(c, RS_SIDE_NEW, 0), "n");
	return UT_OK;
}

static const char *const json_base[] = { "{\"trace\": {\"kernel\": \"k\"}, \"a\": 100, "
	"\"b\": 0, \"c\": 7}", NULL };
static const char *const json_new[] = { "{\"trace\": {\"kernel\": \"k\"}, \"a\": 90, "
	"\"b\": 2, \"c\": 7}", NULL };

COMPARE_TEST(test_compare_json, "diff: JSON form and --only-changed", json_base, json_new)
{
	const char *const labels[] = { "old", "new" };
	json_t *j, *m;

	j = rs_compare_json(c, labels, -1);
	UT_ASSERT(j);
	m = json_object_get(json_object_get(j, "metrics"), "a");
	UT_ASSERT_NEAR(json_number_value(json_object_get(m, "change_pct")), -10, 1e-12);
	UT_ASSERT_NEAR(json_number_value(json_object_get(json_object_get(m, "base"), "avg")), 100,
		       0);
	UT_ASSERT_EQ(json_integer_value(json_object_get(json_object_get(m, "new"), "n")), 1);
	UT_ASSERT(json_is_false(json_object_get(m, "significant")));
	UT_ASSERT(json_is_null(json_object_get(m, "p")));
	m = json_object_get(json_object_get(j, "metrics"), "b");
	UT_ASSERT(json_is_null(json_object_get(m, "change_pct")));
	UT_ASSERT(json_is_null(json_object_get(json_object_get(m, "pct_of_base"), "avg")));
	UT_ASSERT_STR(json_string_value(json_object_get(json_object_get(j, "base"), "label")),
		      "old");
	UT_ASSERT_EQ(json_integer_value(json_object_get(j, "metrics_shown")), 3);
	json_decref(j);
	/* --only-changed 5: a (-10%) and b (from 0) stay, c (0%) goes */
	j = rs_compare_json(c, labels, 5);
	UT_ASSERT(j);
	UT_ASSERT_EQ(json_object_size(json_object_get(j, "metrics")), 2);
	UT_ASSERT(!json_object_get(json_object_get(j, "metrics"), "c"));
	UT_ASSERT_EQ(json_integer_value(json_object_get(j, "metrics_compared")), 3);
	json_decref(j);
	return UT_OK;
}

/*
 * kswapd threads, one a node: a 1-node run against two 2-node runs (kswapd.instances of 1 and 2
 * entries) differ, and the JSON says how many each side had; a node whose kswapd never woke has
 * no instance (0). The same counts on both sides do not differ.
 */
static const char *const kswapd_one[] = { "{\"trace\": {\"kernel\": \"k\"}, \"kswapd\": "
	"{\"instances\": [{\"nid\": 0}], \"wakes\": 10}}", NULL };
static const char *const kswapd_two[] = { "{\"trace\": {\"kernel\": \"k\"}, \"kswapd\": "
	"{\"instances\": [{\"nid\": 0}, {\"nid\": 1}], \"wakes\": 30}}",
	"{\"trace\": {\"kernel\": \"k\"}, \"kswapd\": {\"instances\": [], \"wakes\": 0}}", NULL };

COMPARE_TEST(test_compare_kswapds, "diff: kswapd threads (nodes) differ", kswapd_one, kswapd_two)
{
	const char *const labels[] = { "one", "two" };
	struct rs_compare *same;
	size_t lo, hi;
	json_t *j;

	UT_ASSERT(rs_compare_kswapds_differ(c));
	rs_compare_kswapds(c, RS_SIDE_BASE, &lo, &hi);
	UT_ASSERT_EQ(lo, 1);
	UT_ASSERT_EQ(hi, 1);
	rs_compare_kswapds(c, RS_SIDE_NEW, &lo, &hi);
	UT_ASSERT_EQ(lo, 0);
	UT_ASSERT_EQ(hi, 2);
	j = rs_compare_json(c, labels, -1);
	UT_ASSERT(j);
	UT_ASSERT(json_is_true(json_object_get(j, "kswapds_differ")));
	UT_ASSERT_EQ(json_integer_value(json_object_get(json_object_get(j, "new"), "kswapds_max")),
		     2);
	json_decref(j);
	same = compare_of(kswapd_one, kswapd_one);
	UT_ASSERT(same);
	UT_ASSERT(!rs_compare_kswapds_differ(same));
	rs_compare_free(same);
	return UT_OK;
}

UT_TEST(test_compare_errors, "diff: comparison errors")
{
	struct rs_error err = { "" };
	struct rs_compare *c = rs_compare_new();
	json_t *j = json_pack("{s:{},s:i}", "trace", "x", 1);

	UT_ASSERT(c && j);
	UT_ASSERT(rs_compare_finish(c, 0.05, &err) < 0);	/* no runs */
	UT_ASSERT(rs_compare_add_run(c, RS_SIDE_BASE, j, "a", "analysis", &err) == 0);
	UT_ASSERT(rs_compare_add_run(c, RS_SIDE_NEW, j, "b", "analysis", &err) == 0);
	UT_ASSERT(rs_compare_finish(c, 1.5, &err) < 0);
	UT_ASSERT(rs_compare_finish(c, 0.01, &err) == 0);
	UT_ASSERT_NEAR(rs_compare_alpha(c), 0.01, 0);
	UT_ASSERT_STR(rs_compare_run(c, RS_SIDE_BASE, 0)->kernel, "unknown");
	json_decref(j);
	rs_compare_free(c);
	return UT_OK;
}

/*
 * An event one side recorded and the other traced (its format is in every run's file) but saw
 * none of fired only on the first: it is told apart from one the other side did not trace, and
 * its count is compared as 0 there, not left out.
 */
UT_TEST(test_events_quiet, "diff: an event traced on both sides that fired on one")
{
	const char *const base[] = {
		"{\"trace\": {\"events_by_name\": {\"a\": 4, \"w\": 2, \"u\": 1}, "
		"\"event_formats\": [\"a\", \"u\", \"w\"]}}",
		"{\"trace\": {\"events_by_name\": {\"a\": 6, \"w\": 4}, "
		"\"event_formats\": [\"a\", \"w\"]}}",
		NULL };
	const char *const new[] = {
		"{\"trace\": {\"events_by_name\": {\"a\": 1}, \"event_formats\": [\"a\", \"w\", "
		"\"u\"]}}",
		"{\"trace\": {\"events_by_name\": {\"a\": 2}, \"event_formats\": [\"w\", \"a\"]}}",
		NULL };
	const char *const text[] = { "{\"trace\": {\"events_by_name\": {\"a\": 1}}}", NULL };
	struct rs_compare *c = compare_of(base, new);
	const struct rs_metric_diff *d;

	UT_ASSERT(c);
	/* w: traced by both new runs; u: by one of them only, so not said to be traced there */
	UT_ASSERT_EQ(rs_compare_nr_events_only(c, RS_SIDE_BASE), 2);
	UT_ASSERT_STR(rs_compare_event_only(c, RS_SIDE_BASE, 0), "u");
	UT_ASSERT(!rs_compare_event_only_quiet(c, RS_SIDE_BASE, 0));
	UT_ASSERT_STR(rs_compare_event_only(c, RS_SIDE_BASE, 1), "w");
	UT_ASSERT(rs_compare_event_only_quiet(c, RS_SIDE_BASE, 1));
	d = find_diff(c, "trace.events_by_name.w");
	UT_ASSERT(d);
	UT_ASSERT_EQ(d->side[RS_SIDE_NEW].n, 2);
	UT_ASSERT_NEAR(d->side[RS_SIDE_BASE].avg, 3, 0);
	UT_ASSERT_NEAR(d->side[RS_SIDE_NEW].avg, 0, 0);
	/* u: 0 in the one new run that traced it; base's second run did not trace it */
	d = find_diff(c, "trace.events_by_name.u");
	UT_ASSERT(d);
	UT_ASSERT_EQ(d->side[RS_SIDE_BASE].n, 1);
	UT_ASSERT_EQ(d->side[RS_SIDE_NEW].n, 1);
	rs_compare_free(c);
	/* a text trace lists no formats: nothing is said to be traced */
	c = compare_of(base, text);
	UT_ASSERT(c);
	UT_ASSERT_EQ(rs_compare_nr_events_only(c, RS_SIDE_BASE), 2);
	UT_ASSERT(!rs_compare_event_only_quiet(c, RS_SIDE_BASE, 1));
	UT_ASSERT(!find_diff(c, "trace.events_by_name.w"));
	rs_compare_free(c);
	return UT_OK;
}
