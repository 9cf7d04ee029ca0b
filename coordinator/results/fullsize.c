/*
 * results/fullsize.c - the listing limit of results/fullsize.h and its overrides
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "results/fullsize.h"
#include "results/long/minutes.h"
#include "util/log.h"

static int s_env(const char *name, int dflt)
{
	static bool warned[4];
	int w = !strcmp(name, "BC_FULL_AGENTS")		   ? 1
		: !strcmp(name, "BC_LONG_STEP_S")	   ? 2
		: !strcmp(name, "BC_SERIES_VOLUME_POINTS") ? 3
							   : 0;
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return dflt;
	if (!strcmp(v, "all"))
		return INT_MAX;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < 0 || n > INT_MAX) {
		if (!warned[w])
			bc_warn("%s=%s: not a count or \"all\"; the default %d is used", name, v,
				dflt);
		warned[w] = true;
		return dflt;
	}
	return (int)n;
}

int bc_full_limit(int lvl)
{
	if (lvl == BC_LVL_VOLUME)
		return s_env("BC_FULL_VOLUMES", BC_FULL_VOLUMES);
	if (lvl == BC_LVL_AGENT)
		return s_env("BC_FULL_AGENTS", BC_FULL_AGENTS);
	return INT_MAX;
}

bool bc_full_listed(int lvl, int n)
{
	return n <= bc_full_limit(lvl);
}

bool bc_long_step(uint32_t seconds)
{
	return seconds > (uint32_t)s_env("BC_LONG_STEP_S", BC_LONG_STEP_S);
}

bool bc_series_in_runjson(int lvl, int n, uint32_t seconds)
{
	/* a long step's points are its minutes (results/long/minutes.h) */
	uint64_t points =
	    bc_long_step(seconds) ? (seconds + BC_MINUTE_S - 1) / BC_MINUTE_S : seconds;

	if (lvl != BC_LVL_VOLUME)
		return true;
	return (uint64_t)(n > 0 ? n : 0) * points <=
	       (uint64_t)s_env("BC_SERIES_VOLUME_POINTS", BC_SERIES_VOLUME_POINTS);
}
