/*
 * target/devcounters.c - the device counters of a step's targets (see
 * target/devcounters.h): an NVMe namespace's logs read from its path, or the
 * logs a target answers itself in the same layout (BC_TCTL_GET_LOG).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvme/ident.h"
#include "target/devcounters.h"

/* one log page from a target that answers Get Log Page itself */
static int s_target_log(const struct bc_target *t, uint8_t lid, void *buf, uint32_t len)
{
	struct bc_target_log l = {.lid = lid, .buf = buf, .len = len};

	/* control is not const in the ops table; the log ops only read the device */
	return t->ops->control((struct bc_target *)t, BC_TCTL_GET_LOG, &l);
}

/*
 * A target that simulates a device (target/sim.c) answers Get Log Page
 * itself in the NVMe layout: the same parsers read its pages, so its WAF is
 * computed exactly as a real drive's. false when t answers no logs (a real
 * device: read its path).
 */
static bool s_read_target(const struct bc_target *t, struct bc_nvme_counters *c)
{
	uint8_t buf[BC_NVME_SMART_BYTES];

	if (!t->ops || !t->ops->control)
		return false;
	memset(c, 0, sizeof(*c));
	c->smart_err = s_target_log(t, BC_NVME_LID_SMART, buf, BC_NVME_SMART_BYTES);
	if (c->smart_err == -ENOTSUP)
		return false;
	c->sampled = true;
	snprintf(c->device, sizeof(c->device), "%s", t->path);
	if (!c->smart_err)
		c->smart_err = bc_nvme_parse_smart(buf, BC_NVME_SMART_BYTES, &c->smart);
	c->have_smart = !c->smart_err;
	c->ocp_err = s_target_log(t, BC_NVME_LID_OCP_C0, buf, BC_NVME_OCP_C0_BYTES);
	if (!c->ocp_err)
		c->ocp_err = bc_nvme_parse_ocp_c0(buf, BC_NVME_OCP_C0_BYTES, &c->ocp);
	c->have_ocp = !c->ocp_err;
	c->fdp_err = s_target_log(t, BC_NVME_LID_FDP_STATS, buf, BC_NVME_FDP_STATS_BYTES);
	if (!c->fdp_err)
		c->fdp_err = bc_nvme_parse_fdp_stats(buf, BC_NVME_FDP_STATS_BYTES, &c->fdp);
	c->have_fdp = !c->fdp_err;
	c->have_sim = !t->ops->control((struct bc_target *)t, BC_TCTL_SIM_COUNTERS, &c->sim);
	if (c->have_sim) {
		struct bc_target_ruhs r = {.out = c->sim_ruh, .max = BC_FDP_PIDS_MAX};

		if (!t->ops->control((struct bc_target *)t, BC_TCTL_SIM_RUHS, &r))
			c->nsim_ruh = r.n;
	}
	return true;
}

struct bc_nvme_counters *bc_devcounters_sample_all(const struct bc_target *t, int n)
{
	struct bc_nvme_counters *c = NULL, one;
	unsigned x, y;
	bool generic, answers;
	int i;

	for (i = 0; i < n; i++) {
		char ns[BC_PATH_MAX];
		unsigned part;

		answers = s_read_target(&t[i], &one);
		/* a partition's counters are its namespace's (the log pages are the drive's) */
		bc_nvme_partition_ns(t[i].path, ns, sizeof(ns), &part);
		if (!answers && !bc_nvme_name_parse(ns, &x, &y, &generic))
			continue;
		if (!c)
			c = calloc((size_t)n, sizeof(*c));
		if (!c)
			return NULL;
		if (answers) {
			c[i] = one;
			continue;
		}
		bc_nvme_counters_read(ns, &c[i]);
		/* the step's FDP events: every type on every handle, then the logs again */
		if (c[i].have_events && !bc_nvme_fdp_events_set(ns, c[i].fdpi.nruhs, true)) {
			bc_nvme_counters_read(ns, &c[i]);
			c[i].events_on = true;
		}
	}
	return c;
}

/*
 * The simulated FTL's counter log over the step (every "log_every" of host
 * writes: totals since the device was made, as FEMU prints them) into
 * sim.log; the ring's oldest samples are gone when a step wrote more than
 * BC_SIM_LOG_MAX of them (sim.log_lost says how many). Step end only.
 */
static void s_sim_log(const struct bc_target *t, uint64_t from, cJSON *sim)
{
	struct bc_target_sim_log l = {.from = from, .max = BC_SIM_LOG_MAX};
	cJSON *arr, *o;
	unsigned i;

	if (!sim || !(l.out = calloc(BC_SIM_LOG_MAX, sizeof(*l.out))))
		return;
	if (!t->ops->control((struct bc_target *)t, BC_TCTL_SIM_LOG, &l) && l.n) {
		cJSON_AddNumberToObject(sim, "log_lost", (double)(l.first - from));
		arr = cJSON_AddArrayToObject(sim, "log");
		for (i = 0; arr && i < l.n; i++) {
			o = cJSON_CreateObject();
			cJSON_AddNumberToObject(o, "host_pages", (double)l.out[i].host_pages);
			cJSON_AddNumberToObject(o, "nand_pages", (double)l.out[i].nand_pages);
			cJSON_AddNumberToObject(o, "gc_pages", (double)l.out[i].gc_pages);
			cJSON_AddNumberToObject(o, "free_rus", l.out[i].free_rus);
			cJSON_AddNumberToObject(o, "hot_free_rus", l.out[i].pool_free[BC_SIM_HOT]);
			cJSON_AddNumberToObject(o, "cold_free_rus",
						l.out[i].pool_free[BC_SIM_COLD]);
			cJSON_AddItemToArray(arr, o);
		}
	}
	free(l.out);
}

void bc_devcounters_end_json(const struct bc_target *t, const struct bc_nvme_counters *start,
			     cJSON *v)
{
	struct bc_nvme_counters end;
	char ns[BC_PATH_MAX];
	unsigned part;
	cJSON *o;

	if (!start || !start->sampled)
		return;
	bc_nvme_partition_ns(t->path, ns, sizeof(ns), &part);
	if (!s_read_target(t, &end))
		bc_nvme_counters_read(ns, &end);
	if (start->events_on)
		bc_nvme_fdp_events_set(ns, start->fdpi.nruhs, false);
	o = bc_nvme_counters_json(start, &end);
	if (start->have_sim && end.have_sim)
		s_sim_log(t, start->sim.log_samples, cJSON_GetObjectItemCaseSensitive(o, "sim"));
	cJSON_AddItemToObject(v, "nvme", o);
}
