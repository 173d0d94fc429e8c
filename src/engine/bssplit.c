#include "engine/bssplit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"

static int parse_group(const char *s, size_t len, struct bs_split *g,
		       struct sb_err *e)
{
	char buf[512];
	double given = 0;
	uint32_t blank = 0;
	if (len == 0 || len >= sizeof buf)
		return sb_errf(e, "bssplit: an empty or overlong group");
	memcpy(buf, s, len);
	buf[len] = 0;
	memset(g, 0, sizeof *g);
	for (char *save = NULL, *tok = strtok_r(buf, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		if (g->n == BS_SPLIT_MAX)
			return sb_errf(e, "bssplit: at most %d sizes per direction",
				       BS_SPLIT_MAX);
		char *slash = strchr(tok, '/');
		if (slash)
			*slash = 0;
		uint64_t bs;
		struct sb_err se;
		if (parse_size(tok, &bs, &se) || bs == 0 || bs > UINT32_MAX)
			return sb_errf(e, "bssplit: '%s' is not a block size", tok);
		g->bs[g->n] = (uint32_t)bs;
		g->pct[g->n] = -1;
		if (slash && slash[1]) {
			char *end;
			double p = strtod(slash + 1, &end);
			if (*end || !(p >= 0 && p <= 100))
				return sb_errf(e, "bssplit: '%s' is not a percentage",
					       slash + 1);
			g->pct[g->n] = p;
			given += p;
		} else {
			blank++;
		}
		g->n++;
	}
	if (!g->n)
		return sb_errf(e, "bssplit: no sizes");
	if (given > 100 + 1e-9)
		return sb_errf(e, "bssplit: the shares add up to %g %%, above 100", given);
	for (uint32_t i = 0; i < g->n; i++)
		if (g->pct[i] < 0)
			g->pct[i] = (100 - given) / blank;
	if (!blank && fabs(given - 100) > 1e-9)
		return sb_errf(e, "bssplit: the shares add up to %g %%, not 100", given);
	return 0;
}

int bs_split_parse(const char *text, struct bs_split out[3], struct sb_err *e)
{
	const char *groups[3];
	size_t lens[3];
	int n = 0;
	const char *p = text;
	for (;;) {
		const char *comma = strchr(p, ',');
		if (n == 3)
			return sb_errf(e, "bssplit: at most three groups (read, write, trim)");
		groups[n] = p;
		lens[n] = comma ? (size_t)(comma - p) : strlen(p);
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	for (int i = 0; i < n; i++)
		if (parse_group(groups[i], lens[i], &out[i], e))
			return -1;
	if (n == 1)
		out[1] = out[2] = out[0];
	else if (n == 2)
		out[2] = out[1];
	return 0;
}

static int fmt_size(char *buf, size_t len, uint32_t bs)
{
	if (bs % (1u << 20) == 0)
		return snprintf(buf, len, "%um", bs >> 20);
	if (bs % 1024 == 0)
		return snprintf(buf, len, "%uk", bs >> 10);
	return snprintf(buf, len, "%u", bs);
}

const char *bs_split_format(const struct bs_split s[3], char *buf, size_t len)
{
	size_t k = 0;
	/* one group when all directions share it, as it was most likely given */
	int groups = !memcmp(&s[0], &s[1], sizeof s[0]) &&
		     !memcmp(&s[1], &s[2], sizeof s[0]) ? 1 : 3;
	buf[0] = 0;
	for (int d = 0; d < groups; d++) {
		for (uint32_t i = 0; i < s[d].n && k < len; i++) {
			k += (size_t)snprintf(buf + k, len - k, "%s", i ? ":" : d ? "," : "");
			if (k < len)
				k += (size_t)fmt_size(buf + k, len - k, s[d].bs[i]);
			if (k < len)
				k += (size_t)snprintf(buf + k, len - k, "/%g", s[d].pct[i]);
		}
	}
	return buf;
}
