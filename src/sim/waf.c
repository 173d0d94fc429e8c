/*
 * Write amplification.  The closed form for uniform random writes under
 * greedy GC with large blocks is WA = a / (a + W0(-a e^-a)), a = 1 + rho,
 * W0 the principal branch of Lambert W (Xiang & Kurkoski): the oracle the
 * GC sampler (sampler.c) is tested against, and the figure `sim show`
 * predicts.  The running model takes its WA from the sampler.
 */
#include <math.h>

#include "sim/model.h"

/* Principal branch of Lambert W for x in [-1/e, 0), by Halley's method. */
static double lambert_w0_neg(double x)
{
	if (x <= -1.0 / M_E)
		return -1.0;
	/* Start from the branch-point series, good near -1/e, or from x. */
	double p = sqrt(2.0 * (M_E * x + 1.0));
	double w = x > -0.25 ? x : -1.0 + p - p * p / 3.0;
	for (int i = 0; i < 50; i++) {
		double ew = exp(w);
		double f = w * ew - x;
		double wp1 = w + 1.0;
		if (wp1 <= 1e-15)
			break;
		double step = f / (ew * wp1 - (w + 2.0) * f / (2.0 * wp1));
		w -= step;
		if (fabs(step) < 1e-15 * (1.0 + fabs(w)))
			break;
	}
	return w;
}

double sim_waf_lw(double rho)
{
	if (rho < 1e-4)
		rho = 1e-4;
	double a = 1.0 + rho;
	return a / (a + lambert_w0_neg(-a * exp(-a)));
}

double sim_waf_agarwal(double rho)
{
	if (rho < 1e-4)
		rho = 1e-4;
	return (1.0 + rho) / (2.0 * rho);
}

double waf_inst(const struct sim *s)
{
	return s->samp ? sampler_wa(s->samp) : 1.0;
}

/* 0 for data laid out in order, 1 for uniform random at full amplification. */
double waf_scatter(const struct sim *s)
{
	if (!s->samp)
		return 0;
	double full = sampler_wa_uniform(s->samp) - 1.0;	/* rho_eff's */
	double x = (sampler_wa(s->samp) - 1.0) / full;
	return x < 0 ? 0 : x > 1 ? 1 : x;
}
