#include "analysis/latency.h"

#include <math.h>
#include <string.h>

const double lat_qos_percentiles[LAT_QOS_NPS] = {
	50, 90, 99, 99.9, 99.99, 99.999, 99.9999,
};

void lat_summarize(const struct lat_hist *h, const double *ps, size_t np,
		   struct lat_summary *out)
{
	memset(out, 0, sizeof *out);
	np = np > LAT_MAX_PS ? LAT_MAX_PS : np;
	out->count = h->count;
	out->mean_ns = h->count ? hist_mean(h) : NAN;
	out->min_ns = h->count ? h->min : 0;
	out->max_ns = h->count ? h->max : 0;
	out->np = np;
	memcpy(out->ps, ps, np * sizeof *ps);
	hist_percentiles(h, ps, np, out->v_ns);
}

void lat_lateness(const struct lat_hist *h, struct lateness_summary *out)
{
	memset(out, 0, sizeof *out);
	out->ios = h->count;
	out->late = h->count - h->buckets[0];	/* bucket 0: exactly 0 ns */
	out->late_mean_ns = out->late ? (double)h->sum / (double)out->late : NAN;
	out->p99_ns = h->count ? hist_percentile(h, 99) : 0;
	out->max_ns = h->count ? h->max : 0;
}

void lat_qos_table(const struct lat_hist *const *h, size_t n,
		   struct lat_summary *rows)
{
	for (size_t i = 0; i < n; i++)
		lat_summarize(h[i], lat_qos_percentiles, LAT_QOS_NPS, &rows[i]);
}

size_t lat_nines_curve(const struct lat_hist *h, double max_nines,
		       double step, struct nines_pt *out, size_t max)
{
	if (h->count == 0 || max == 0 || !(step > 0))
		return 0;
	size_t k = 0;
	double count = (double)h->count;
	/* p = 100 (1 - 10^-nines); the histogram can say nothing about a
	   tail holding less than one sample */
	for (size_t i = 0; k + 1 < max; i++) {
		double nines = (double)i * step;	/* no drift from a sum */
		if (nines > max_nines + 1e-9)
			break;
		double tail = pow(10, -nines);
		if (tail * count < 1)
			break;
		double p = 100 * (1 - tail);
		if (p <= 0) {	/* the minimum: rank 1, whose share 100/n a
				   percentile in millionths may round past */
			out[k++] = (struct nines_pt){ nines, 100 / count, h->min };
			continue;
		}
		out[k++] = (struct nines_pt){ nines, p, hist_percentile(h, p) };
	}
	out[k++] = (struct nines_pt){ log10(count), 100, h->max };
	return k;
}

void spec_judge(struct spec_check *c)
{
	if (!(c->spec > 0) || isnan(c->measured)) {
		c->pass = false;
		c->margin = NAN;
		return;
	}
	double tol = c->tolerance > 0 ? c->tolerance : 0;
	if (c->higher_is_better) {
		c->pass = c->measured >= c->spec * (1 - tol);
		c->margin = c->measured / c->spec - 1;
	} else {
		c->pass = c->measured <= c->spec * (1 + tol);
		c->margin = 1 - c->measured / c->spec;
	}
}
