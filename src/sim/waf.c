/*
 * Write amplification.  The closed form for uniform random writes under
 * greedy GC with large blocks is WA = a / (a + W0(-a e^-a)), a = 1 + rho,
 * W0 the principal branch of Lambert W (Xiang & Kurkoski).  It drives the
 * host rate under GC; how much of it applies depends on how scattered the
 * native data is (wpath.rand_mix): a sequential overwrite frees whole
 * blocks and costs nothing.
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
	if (s->p.rho_eff <= 0 || s->m == 0)
		return 1.0;
	const struct wpath *w = &s->wp;
	double valid = w->T_v + w->S_st + w->S_dyn;
	if (valid < 1.0)
		return 1.0;
	/* Spare space: the fitted OP plus whatever the host left unmapped,
	   shared by the data being rewritten (the hot span when known). */
	double spare = s->p.rho_eff * s->U + fmax(0.0, s->U - valid);
	double hot = w->hot_span > 0 ? fmin(w->hot_span, valid) : valid;
	double wa_rand = sim_waf_lw(spare / hot);
	return 1.0 + (wa_rand - 1.0) * w->rand_mix;
}
