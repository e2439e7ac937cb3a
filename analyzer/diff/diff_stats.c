// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics behind `reclaimscope diff`.
 *
 * std is the population standard deviation (sum of squared deviations / n). That is what the
 * comparison tables this command reproduces print: seed 003 gives min 475.48, max 585.19 and
 * avg 525.54 over 3 runs, so the third run is 515.95, and only the population formula gives its
 * "std: 45.30" (the sample formula gives 55.48). MMTests' Stddev divides by n - 1 instead; the
 * t-test below uses that sample variance, as Welch's test is defined with it.
 *
 * The p-value comes from Student's t distribution: P(|T| >= |t|) = I_x(df/2, 1/2) with
 * x = df / (df + t^2), and the regularized incomplete beta I_x(a, b) is evaluated with its
 * continued fraction (modified Lentz), on the side of x where it converges fast.
 */
#include <math.h>

#include "diff_stats.h"

void rs_summary_of(const double *v, size_t n, struct rs_summary *out)
{
	double sum = 0.0, ss = 0.0;

	*out = (struct rs_summary){ .n = n };
	if (!n)
		return;
	out->min = out->max = v[0];
	for (size_t i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->avg = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - out->avg) * (v[i] - out->avg);
	out->std = sqrt(ss / (double)n);
	out->var_sample = n > 1 ? ss / (double)(n - 1) : 0.0;
}

#define BETACF_MAX_ITER 10000
#define BETACF_EPS	1e-16
#define BETACF_TINY	1e-300

/* One term aa of the continued fraction: update Lentz's c and d, return the factor for h. */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1.0 + aa * *d;
	if (fabs(*d) < BETACF_TINY)
		*d = BETACF_TINY;
	*c = 1.0 + aa / *c;
	if (fabs(*c) < BETACF_TINY)
		*c = BETACF_TINY;
	*d = 1.0 / *d;
	return *d * *c;
}

/* Continued fraction of I_x(a, b) (without its prefactor), by the modified Lentz method. */
static double betacf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1.0, qam = a - 1.0;
	double c = 1.0, d = 1.0 - qab * x / qap, h;

	if (fabs(d) < BETACF_TINY)
		d = BETACF_TINY;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= BETACF_MAX_ITER; m++) {
		int m2 = 2 * m;
		double aa, del;

		/* even step: d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)) */
		aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		h *= lentz_step(aa, &c, &d);
		/* odd step: d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		del = lentz_step(aa, &c, &d);
		h *= del;
		if (fabs(del - 1.0) < BETACF_EPS)
			break;
	}
	return h;
}

double rs_betai(double a, double b, double x)
{
	double front;

	if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0))
		return NAN;
	if (x == 0.0)
		return 0.0;
	if (x == 1.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	/* The fraction converges quickly for x < (a + 1) / (a + b + 2); use symmetry otherwise. */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * betacf(a, b, x) / a;
	return 1.0 - front * betacf(b, a, 1.0 - x) / b;
}

double rs_student_t_p2(double t, double df)
{
	double p;

	if (isnan(t) || !(df > 0.0))
		return NAN;
	if (isinf(t))
		return 0.0;
	p = rs_betai(df / 2.0, 0.5, df / (df + t * t));
	return p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
}

void rs_welch_test(const struct rs_summary *base, const struct rs_summary *new,
		   struct rs_welch *out)
{
	double vb, vn, se2;

	*out = (struct rs_welch){ .valid = false, .t = NAN, .df = NAN, .p = NAN };
	if (base->n < 2 || new->n < 2)
		return;
	out->valid = true;
	vb = base->var_sample / (double)base->n;
	vn = new->var_sample / (double)new->n;
	se2 = vb + vn;
	if (se2 == 0.0) {
		/* Every run gave the same value on each side: no noise, the answer is exact. */
		if (new->avg == base->avg) {
			out->t = 0.0;
			out->p = 1.0;
		} else {
			out->t = new->avg > base->avg ? INFINITY : -INFINITY;
			out->p = 0.0;
		}
		return;
	}
	out->t = (new->avg - base->avg) / sqrt(se2);
	out->df = se2 * se2 / (vb * vb / (double)(base->n - 1) + vn * vn / (double)(new->n - 1));
	out->p = rs_student_t_p2(out->t, out->df);
}

double rs_pct_of(double new, double base)
{
	if (base == 0.0)
		return new == 0.0 ? 100.0 : NAN;
	return new / base * 100.0;
}

double rs_change_pct(double new, double base)
{
	if (base == 0.0)
		return new == 0.0 ? 0.0 : NAN;
	return (new - base) / fabs(base) * 100.0;
}
