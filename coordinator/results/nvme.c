/*
 * results/nvme.c - the NVMe figures of a volume in run.json
 * (steps[].volumes[i]): its composite temperature each second, from the
 * agent's HOST records ("nvme_temp_c", one value per volume in the agent's
 * order), and its device counters and WAF from the agent's STEP_DONE
 * ("volumes[j].nvme"), see docs/nvme.md. summary.md shows both
 * (report/parts/nvme.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "results/fullsize.h"
#include "results/hostsamples.h"
#include "results/long/minutes.h"
#include "results/nvme.h"
#include "results/stepres.h"

/* li: the volume's index among its agent's volumes (the order PREPARE sent them in) */
static cJSON *s_temp_json(const struct bc_step_result *r, int agent, int li)
{
	cJSON *o = NULL, *arr = NULL;
	double lo = INFINITY, hi = -INFINITY;
	/* a long step's: each minute's mean (results/hostsamples.h) */
	uint32_t k, n, unit = bc_long_step(r->agg.seconds) ? BC_MINUTE_S : 1;

	for (k = 0; bc_hostsamples_has(r->hosts, agent) && k < r->agg.seconds; k += unit) {
		double v = bc_hostsamples_nvme_temp(r->hosts, agent, k, li);

		if (!o && !isnan(v)) {
			/* the seconds before the first reading were null too */
			o = cJSON_CreateObject();
			if (unit > 1)
				cJSON_AddNumberToObject(o, "interval_s", unit);
			arr = cJSON_AddArrayToObject(o, "celsius");
			for (n = 0; n < k; n += unit)
				cJSON_AddItemToArray(arr, cJSON_CreateNull());
		}
		if (!o)
			continue;
		if (!isnan(v)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
		cJSON_AddItemToArray(arr, !isnan(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull());
	}
	if (o) {
		cJSON_AddNumberToObject(o, "min_c", lo);
		cJSON_AddNumberToObject(o, "max_c", hi);
	}
	return o;
}

void bc_result_nvme_volume(const struct bc_step_result *r, int vol, int li, cJSON *e)
{
	const struct bc_profile *p = r->agg.prof;
	const char *agent = p->agents[p->volumes[vol].agent].name;
	const cJSON *done = cJSON_GetObjectItemCaseSensitive(r->agent_totals, agent);
	const cJSON *nv;
	cJSON *t;

	if (li < 0)
		return; /* out of memory: no figure rather than another volume's */
	t = s_temp_json(r, p->volumes[vol].agent, li);
	if (t)
		cJSON_AddItemToObject(e, "nvme_temp", t);
	nv = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(done, "volumes"), li), "nvme");
	if (nv)
		cJSON_AddItemToObject(e, "nvme_counters", cJSON_Duplicate(nv, 1));
}
