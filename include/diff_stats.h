/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics for comparing runs: min/max/mean/standard deviation of one side, and Welch's
 * t-test between two sides with its two-sided p-value (Student's t distribution through the
 * regularized incomplete beta function). Pure functions, no state; see docs/diff.md.
 */
#ifndef RS_DIFF_STATS_H
#define RS_DIFF_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* One side of a comparison: the values of one metric over n runs. */
struct rs_summary {
	size_t n;
	double min, max;
	double avg;		/* arithmetic mean */
	double std;		/* population standard deviation (divides by n): the seeds' */
	double var_sample;	/* sample variance (divides by n - 1), 0 when n < 2: Welch's */
};

/* Summarize v[0..n-1]; n == 0 gives all zeros. Two-pass, so large equal values give std 0. */
void rs_summary_of(const double *v, size_t n, struct rs_summary *out);

/* Welch's unequal-variances t-test of new against base. */
struct rs_welch {
	bool valid;		/* false when a side has fewer than 2 runs: p is "n/a" */
	double t;		/* (avg_new - avg_base) / se; +-INFINITY if se == 0, avgs differ */
	double df;		/* Welch-Satterthwaite degrees of freedom, unrounded; NaN: se 0 */
	double p;		/* two-sided p-value in [0, 1] */
};

/*
 * Fill `out` for base vs new. When both sample variances are 0 the result is exact: p = 1 when
 * the means are equal, else p = 0 (t infinite, df undefined: NaN).
 */
void rs_welch_test(const struct rs_summary *base, const struct rs_summary *new,
		   struct rs_welch *out);

/* Two-sided tail probability P(|T| >= |t|) of Student's t with df > 0 degrees of freedom. */
double rs_student_t_p2(double t, double df);

/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1; else NaN. */
double rs_betai(double a, double b, double x);

/* new / base * 100, the seeds' "[99.9%]": NaN when base == 0 and new != 0, 100 if both 0. */
double rs_pct_of(double new, double base);

/* (new - base) / |base| * 100: NaN when base == 0 and new != 0, 0 when both are 0. */
double rs_change_pct(double new, double base);

#endif
