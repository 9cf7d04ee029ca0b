/*
 * hostsamples.c - an agent's host samples by second. stepexec.c keeps them
 * as they come, {agent: [sample with "second"]}; every per-second series
 * (run.json's host series, NVMe temperatures) reads them through this index,
 * built in one pass, so a step's results cost O(1) per sample and second
 * instead of a scan of the whole step for each of its seconds.
 */
#include <stdlib.h>

#include "bc_hostsamples.h"

const cJSON **bc_host_by_second(const cJSON *samples, uint32_t seconds)
{
	const cJSON **by = calloc((size_t)seconds + 1, sizeof(*by));
	const cJSON *smp;

	if (!by)
		return NULL;
	cJSON_ArrayForEach(smp, samples)
	{
		double k = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(smp, "second"));

		/* a second sent twice keeps its last sample, as a scan from the start would */
		if (k >= 0 && k < seconds && k == (double)(uint32_t)k)
			by[(uint32_t)k] = smp;
	}
	return by;
}
