/*
 * nvme/counters.c - SMART / OCP C0 / FDP statistics around a step and the
 * WAF they give (see nvme/counters.h). nsid 0xFFFFFFFF for SMART and
 * OCP, nsid 0 with LSI = endurance group for FDP statistics (the FDP logs are
 * per endurance group: TP4146, Log Specific Identifier in CDW11).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "nvme/counters.h"
#include "nvme/ident.h"

static int s_admin(int fd, struct nvme_passthru_cmd *c)
{
	int ret = ioctl(fd, NVME_IOCTL_ADMIN_CMD, c);

	if (ret < 0)
		return -errno;
	return ret > 0 ? -EIO : 0;
}

static int s_log(int fd, uint8_t lid, uint32_t nsid, uint16_t lsi, uint8_t uuid_idx, void *buf,
		 uint32_t len)
{
	struct nvme_passthru_cmd c;

	memset(buf, 0, len);
	bc_nvme_get_log(&c, lid, 0, nsid, lsi, 0, uuid_idx, buf, len);
	return s_admin(fd, &c);
}

void bc_nvme_counters_read(const char *path, struct bc_nvme_counters *c)
{
	struct bc_nvme_fdp_ident fi;
	struct bc_nvme_ident id;
	struct nvme_passthru_cmd cmd;
	void *buf = NULL;
	int fd, uuid_idx = 0;

	memset(c, 0, sizeof(*c));
	c->sampled = true;
	c->smart_err = c->ocp_err = c->fdp_err = -ENODEV;
	if (posix_memalign(&buf, 4096, BC_NVME_IDENTIFY_BYTES)) {
		c->smart_err = c->ocp_err = c->fdp_err = -ENOMEM;
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		c->smart_err = c->ocp_err = c->fdp_err = -errno;
		goto out;
	}
	c->smart_err =
	    s_log(fd, BC_NVME_LID_SMART, BC_NVME_NSID_ALL, 0, 0, buf, BC_NVME_SMART_BYTES);
	if (!c->smart_err)
		c->smart_err = bc_nvme_parse_smart(buf, BC_NVME_SMART_BYTES, &c->smart);
	c->have_smart = !c->smart_err;

	/* the OCP log sits behind its vendor UUID's index, 0 when not listed */
	memset(buf, 0, BC_NVME_IDENTIFY_BYTES);
	bc_nvme_identify(&cmd, BC_NVME_CNS_UUID_LIST, 0, buf);
	if (!s_admin(fd, &cmd))
		uuid_idx = bc_nvme_uuid_index(buf, BC_NVME_IDENTIFY_BYTES, bc_nvme_ocp_uuid);
	c->ocp_err = s_log(fd, BC_NVME_LID_OCP_C0, BC_NVME_NSID_ALL, 0, (uint8_t)uuid_idx, buf,
			   BC_NVME_OCP_C0_BYTES);
	if (!c->ocp_err)
		c->ocp_err = bc_nvme_parse_ocp_c0(buf, BC_NVME_OCP_C0_BYTES, &c->ocp);
	c->have_ocp = !c->ocp_err;

	memset(&id, 0, sizeof(id));
	c->fdp_err = bc_nvme_ident_ioctl(path, &id);
	if (!c->fdp_err)
		snprintf(c->device, sizeof(c->device), "%s/%u", id.serial, id.endgid);
	if (!c->fdp_err && !id.fdps)
		c->fdp_err = -EOPNOTSUPP;
	if (!c->fdp_err)
		c->fdp_err =
		    s_log(fd, BC_NVME_LID_FDP_STATS, 0, id.endgid, 0, buf, BC_NVME_FDP_STATS_BYTES);
	if (!c->fdp_err)
		c->fdp_err = bc_nvme_parse_fdp_stats(buf, BC_NVME_FDP_STATS_BYTES, &c->fdp);
	c->have_fdp = !c->fdp_err;
	close(fd);
	fi = bc_nvme_ident_fdp(&id, 0); /* used only when fdps, which only Identify sets */
	if (id.fdps && !bc_nvme_fdp_discover(path, &fi, &c->fdpi) && c->fdpi.enabled)
		c->have_events = !bc_nvme_fdp_events_read(path, id.endgid, true, &c->ev[0]) &&
				 !bc_nvme_fdp_events_read(path, id.endgid, false, &c->ev[1]);
out:
	free(buf);
}

static void s_num(cJSON *o, const char *k, bc_u128 v)
{
	cJSON_AddNumberToObject(o, k, bc_u128_to_double(v));
}

/* per-handle RUH status at both ends, and the events the step logged */
static void s_fdp_json(cJSON *o, const struct bc_nvme_counters *a, const struct bc_nvme_counters *b)
{
	cJSON *arr, *x, *y;
	int i, k, e;

	if (a->fdpi.enabled && b->fdpi.enabled && !a->fdpi.err && !b->fdpi.err &&
	    a->fdpi.nruhs == b->fdpi.nruhs) {
		arr = cJSON_AddArrayToObject(o, "ruhs");
		for (i = 0; i < a->fdpi.nruhs; i++) {
			x = cJSON_CreateObject();
			cJSON_AddNumberToObject(x, "pid", a->fdpi.ruhs[i].pid);
			cJSON_AddNumberToObject(x, "ruhid", a->fdpi.ruhs[i].ruhid);
			cJSON_AddNumberToObject(x, "ruamw_start", (double)a->fdpi.ruhs[i].ruamw);
			cJSON_AddNumberToObject(x, "ruamw_end", (double)b->fdpi.ruhs[i].ruamw);
			cJSON_AddItemToArray(arr, x);
		}
	}
	if (!a->events_on || !b->have_events)
		return;
	x = cJSON_AddObjectToObject(o, "fdp_events");
	for (k = 0; k < 2; k++) {
		/* a ring (QEMU: 63 entries): a log that was full may have dropped some */
		y = cJSON_AddObjectToObject(x, k ? "controller" : "host");
		for (e = 0; e < BC_FDP_EV_NR; e++)
			cJSON_AddNumberToObject(y, bc_fdp_event_names[e],
						(double)b->ev[k].count[e] -
						    (double)a->ev[k].count[e]);
		cJSON_AddNumberToObject(y, "entries_start", a->ev[k].n);
		cJSON_AddNumberToObject(y, "entries_end", b->ev[k].n);
	}
}

/*
 * a simulated SSD per reclaim unit handle: the host bytes written through
 * it and the GC copies into its units over the step, its valid bytes at
 * the end (the placement a real FDP drive shows through RUH Status)
 */
static void s_sim_ruhs(cJSON *x, const struct bc_nvme_counters *a, const struct bc_nvme_counters *b)
{
	cJSON *arr, *o;
	unsigned h;

	if (!b->nsim_ruh || a->nsim_ruh != b->nsim_ruh)
		return;
	arr = cJSON_AddArrayToObject(x, "ruhs");
	for (h = 0; arr && h < b->nsim_ruh; h++) {
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "ruh", h);
		s_num(o, "host_write_bytes",
		      b->sim_ruh[h].host_write_bytes - a->sim_ruh[h].host_write_bytes);
		s_num(o, "gc_copy_bytes",
		      b->sim_ruh[h].gc_copy_bytes - a->sim_ruh[h].gc_copy_bytes);
		s_num(o, "valid_bytes", b->sim_ruh[h].valid_bytes);
		cJSON_AddItemToArray(arr, o);
	}
}

/*
 * The device-side FTL policy's view of the step (sim/policy.h): seed 001's
 * GC overhead (GC copies over host writes, in percent), the free units and
 * each pool's share of the work
 */
static void s_sim_ftl(cJSON *x, const struct bc_sim_counters *a, const struct bc_sim_counters *b)
{
	static const char *const pools[BC_SIM_POOLS] = {"cold", "hot"};
	uint64_t host = b->host_write_bytes - a->host_write_bytes;
	cJSON *p, *o;
	unsigned i;

	cJSON_AddStringToObject(x, "ftl", bc_sim_ftl_name((enum bc_sim_ftl_kind)b->ftl));
	if (host)
		cJSON_AddNumberToObject(x, "gc_overhead_pct",
					100.0 * (double)(b->gc_copy_bytes - a->gc_copy_bytes) /
					    (double)host);
	s_num(x, "rus", b->rus);
	s_num(x, "free_rus", b->free_rus);
	s_num(x, "gc_forced", b->gc_forced - a->gc_forced);
	s_num(x, "gc_background", b->gc_background - a->gc_background);
	if (b->ftl != BC_SIM_FTL_HOTCOLD)
		return;
	s_num(x, "gc_pool", b->gc_pool - a->gc_pool);
	s_num(x, "gc_emergency", b->gc_emergency - a->gc_emergency);
	s_num(x, "lent_hot", b->lent_hot - a->lent_hot);
	s_num(x, "lent_cold", b->lent_cold - a->lent_cold);
	s_num(x, "promotions", b->promotions - a->promotions);
	s_num(x, "demotions", b->demotions - a->demotions);
	p = cJSON_AddObjectToObject(x, "pools");
	for (i = 0; p && i < BC_SIM_POOLS; i++) {
		o = cJSON_AddObjectToObject(p, pools[i]);
		s_num(o, "rus", b->pool_rus[i]);
		s_num(o, "free_rus", b->pool_free[i]);
		s_num(o, "host_pages", b->pool_host_pages[i] - a->pool_host_pages[i]);
		s_num(o, "victims", b->pool_victims[i] - a->pool_victims[i]);
		s_num(o, "victim_copy_pages", b->pool_victim_copies[i] - a->pool_victim_copies[i]);
	}
}

/* one WAF as {status, source, value, media_bytes, host_bytes} */
static void s_waf_json(cJSON *x, const struct bc_waf *w, const char *source)
{
	if (!x)
		return;
	cJSON_AddStringToObject(x, "status", bc_waf_status_name(w->status));
	cJSON_AddStringToObject(x, "source", source);
	if (w->status == BC_WAF_AVAILABLE)
		cJSON_AddNumberToObject(x, "value", w->waf);
	s_num(x, "media_bytes", w->media_bytes);
	s_num(x, "host_bytes", w->host_bytes);
}

cJSON *bc_nvme_counters_json(const struct bc_nvme_counters *a, const struct bc_nvme_counters *b)
{
	cJSON *o = cJSON_CreateObject(), *x;
	struct bc_waf ocp, fdp;
	char why[256];

	if (!o)
		return NULL;
	if (b->device[0])
		cJSON_AddStringToObject(o, "device", b->device);
	if (a->have_smart && b->have_smart) {
		x = cJSON_AddObjectToObject(o, "smart");
		s_num(x, "data_units_written",
		      b->smart.data_units_written - a->smart.data_units_written);
		s_num(x, "data_units_read", b->smart.data_units_read - a->smart.data_units_read);
		s_num(x, "host_write_commands", b->smart.host_writes - a->smart.host_writes);
		s_num(x, "media_errors", b->smart.media_errors - a->smart.media_errors);
		cJSON_AddNumberToObject(x, "temp_k_start", a->smart.temp_k);
		cJSON_AddNumberToObject(x, "temp_k_end", b->smart.temp_k);
		cJSON_AddNumberToObject(x, "critical_warning", b->smart.critical_warning);
	} else {
		cJSON_AddStringToObject(o, "smart_error",
					strerror(-(a->smart_err ? a->smart_err : b->smart_err)));
	}
	if (a->have_ocp && b->have_ocp) {
		x = cJSON_AddObjectToObject(o, "ocp_c0");
		s_num(x, "physical_media_bytes_written", b->ocp.pmuw - a->ocp.pmuw);
		s_num(x, "physical_media_bytes_read", b->ocp.pmur - a->ocp.pmur);
	}
	if (a->have_fdp && b->have_fdp) {
		x = cJSON_AddObjectToObject(o, "fdp");
		s_num(x, "hbmw", b->fdp.hbmw - a->fdp.hbmw);
		s_num(x, "mbmw", b->fdp.mbmw - a->fdp.mbmw);
		s_num(x, "mbe", b->fdp.mbe - a->fdp.mbe);
	}
	if (a->have_sim && b->have_sim) {
		/* what a simulated SSD adds to its logs (target/sim.c, docs/sim.md) */
		x = cJSON_AddObjectToObject(o, "sim");
		s_num(x, "host_write_bytes", b->sim.host_write_bytes - a->sim.host_write_bytes);
		s_num(x, "media_write_bytes", b->sim.media_write_bytes - a->sim.media_write_bytes);
		s_num(x, "gc_copy_bytes", b->sim.gc_copy_bytes - a->sim.gc_copy_bytes);
		s_num(x, "erases", b->sim.erases - a->sim.erases);
		s_num(x, "host_read_bytes", b->sim.host_read_bytes - a->sim.host_read_bytes);
		s_num(x, "media_read_bytes", b->sim.media_read_bytes - a->sim.media_read_bytes);
		s_num(x, "host_trim_bytes", b->sim.host_trim_bytes - a->sim.host_trim_bytes);
		s_num(x, "gc_runs", b->sim.gc_runs - a->sim.gc_runs);
		s_sim_ftl(x, &a->sim, &b->sim);
		s_sim_ruhs(x, a, b);
	}
	/*
	 * Seed 000's WAF: OCP C0 physical media units written over SMART data
	 * units written, where the OCP log exists; FDP MBMW / HBMW beside it
	 * ("wafs"), and the only one on an FDP drive without the OCP log
	 */
	ocp = bc_nvme_waf_ocp(a->have_ocp && b->have_ocp && a->have_smart && b->have_smart ? &a->ocp
											   : NULL,
			      &b->ocp, &a->smart, &b->smart);
	fdp = bc_nvme_waf_fdp(a->have_fdp && b->have_fdp ? &a->fdp : NULL, &b->fdp);
	x = cJSON_AddObjectToObject(o, "wafs");
	if (ocp.status != BC_WAF_NO_COUNTERS)
		s_waf_json(cJSON_AddObjectToObject(x, "ocp_c0"), &ocp, "ocp_c0");
	if (fdp.status != BC_WAF_NO_COUNTERS)
		s_waf_json(cJSON_AddObjectToObject(x, "fdp"), &fdp, "fdp");
	x = cJSON_AddObjectToObject(o, "waf");
	if (ocp.status == BC_WAF_NO_COUNTERS && fdp.status == BC_WAF_NO_COUNTERS) {
		snprintf(why, sizeof(why), "%s (FDP statistics: %s; OCP C0: %s)",
			 bc_waf_status_name(BC_WAF_NO_COUNTERS),
			 strerror(-(a->fdp_err ? a->fdp_err : b->fdp_err)),
			 strerror(-(a->ocp_err ? a->ocp_err : b->ocp_err)));
		cJSON_AddStringToObject(x, "status", why);
		cJSON_AddStringToObject(x, "source", "none");
		s_num(x, "media_bytes", 0);
		s_num(x, "host_bytes", 0);
	} else {
		s_waf_json(x, ocp.status != BC_WAF_NO_COUNTERS ? &ocp : &fdp,
			   ocp.status != BC_WAF_NO_COUNTERS ? "ocp_c0" : "fdp");
	}
	s_fdp_json(o, a, b);
	return o;
}
