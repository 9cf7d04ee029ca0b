/*
 * analysis/point.c - one point of a sweep as the analysis sees it: a host's use
 * of its resources from the agents' and nodes' figures, Little's law, and
 * the class of a point against the one before (analysis/point.h). Pure.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/point.h"

const char *const bc_ana_class_names[] = {"first", "scaling", "diminishing", "plateau",
					  "retrograde"};

void bc_use_init(struct bc_use *u, const char *name, bool client)
{
	memset(u, 0, sizeof(*u));
	snprintf(u->name, sizeof(u->name), "%s", name ? name : "");
	u->client = client;
	u->net_tx_bps = u->net_rx_bps = u->link_bps = u->nic_tx = u->nic_rx = NAN;
	u->cpu_busy = u->hot_core = u->softirq = u->softirq_hot = u->load1 = NAN;
	u->hot_core_id = u->softirq_hot_id = -1;
	u->drops_per_s = u->retrans_per_s = u->squeezed_per_s = NAN;
	u->reactor_busy = u->disk_aqu_max = u->disk_w_await_ms = u->disk_write_bps = NAN;
	u->waf = u->gc_write_bps = u->client_write_bps = u->journal_lat_s = u->cache_hit = NAN;
	u->bond_active = -1;
	u->sat_cores = u->sat_busy = NAN;
	u->agent_cpu = u->agent_cores = u->agent_iou_cpu = NAN;
	u->baseline_busy = u->baseline_load1 = NAN;
	u->others_cpu = u->run_cpu = u->cpu_pressure = NAN;
	u->others_top[0] = 0;
	u->mtu_min = u->mtu_max = NAN;
	u->member_max_util = u->member_min_util = NAN;
}

/* one link into the MTU range and, for a bond member, the member balance */
static void s_use_link(struct bc_use *u, const char *name, bool counted, bool member, double mtu,
		       double tx_util, double rx_util)
{
	double util = fmax(isnan(tx_util) ? -1 : tx_util, isnan(rx_util) ? -1 : rx_util);

	if (counted && mtu > 0) {
		u->mtu_min = isnan(u->mtu_min) ? mtu : fmin(u->mtu_min, mtu);
		u->mtu_max = isnan(u->mtu_max) ? mtu : fmax(u->mtu_max, mtu);
	}
	if (!member || util < 0)
		return;
	u->nmembers++;
	if (isnan(u->member_max_util) || util > u->member_max_util) {
		u->member_max_util = util;
		snprintf(u->member_max, sizeof(u->member_max), "%s", name);
	}
	if (isnan(u->member_min_util) || util < u->member_min_util) {
		u->member_min_util = util;
		snprintf(u->member_min, sizeof(u->member_min), "%s", name);
	}
}

void bc_use_from_hostfig(struct bc_use *u, const char *name, bool client,
			 const struct bc_hostfig *f, const enum bc_series_role *roles)
{
	size_t used = 0;
	int i;

	bc_use_init(u, name, client);
	u->net_tx_bps = f->net_tx_bps;
	u->net_rx_bps = f->net_rx_bps;
	u->link_bps = f->link_bps;
	u->nic_tx = f->net_tx_util;
	u->nic_rx = f->net_rx_util;
	for (i = 0; i < f->nnics; i++)
		if (f->nics[i].counted && used < sizeof(u->nics))
			used += (size_t)snprintf(u->nics + used, sizeof(u->nics) - used, "%s%s",
						 used ? "," : "", f->nics[i].name);
	u->cpu_busy = f->cpu_busy;
	u->hot_core = f->cpu_hot_core;
	u->hot_core_id = f->cpu_hot_core_id;
	u->softirq = f->softirq;
	u->softirq_hot = f->softirq_hot_core;
	u->softirq_hot_id = f->softirq_hot_core_id;
	u->load1 = f->load1;
	u->ncpu = f->ncpu;
	u->drops_per_s = f->net_drops_per_s;
	u->retrans_per_s = f->tcp_retrans_per_s;
	u->squeezed_per_s = f->softnet_squeezed_per_s;
	u->disk_aqu_max = f->disk_aqu_max;
	u->disk_w_await_ms = f->disk_w_await_max_ms;
	u->disk_write_bps = f->disk_write_bps;
	u->sat_cores = f->cpu_sat_cores;
	u->sat_busy = f->cpu_sat_busy;
	if (f->cpu_sat_cores > 0)
		bc_hostfig_cpulist(f->cpu_sat_mask, BC_HF_CPUS, u->sat_list, sizeof(u->sat_list));
	u->agent_cpu = f->agent_cpu;
	u->agent_cores = f->agent_cores;
	u->agent_iou_cpu = f->agent_iou_cpu;
	snprintf(u->kernel, sizeof(u->kernel), "%s", f->kernel);
	for (i = 0; i < f->nnics; i++)
		s_use_link(u, f->nics[i].name, f->nics[i].counted, f->nics[i].member,
			   f->nics[i].mtu, f->nics[i].tx_bps / f->nics[i].speed_bps,
			   f->nics[i].rx_bps / f->nics[i].speed_bps);
	for (i = 0; roles && i < f->ncustom; i++) {
		double *to[BC_ROLE_NR] = {
		    [BC_ROLE_GC_WRITE_BYTES] = &u->gc_write_bps,
		    [BC_ROLE_WAF] = &u->waf,
		    [BC_ROLE_JOURNAL_LATENCY] = &u->journal_lat_s,
		    [BC_ROLE_CACHE_HIT_RATIO] = &u->cache_hit,
		    [BC_ROLE_REACTOR_BUSY] = &u->reactor_busy,
		};

		if (roles[i] > BC_ROLE_NONE && roles[i] < BC_ROLE_NR && to[roles[i]])
			*to[roles[i]] = f->custom[i];
	}
}

void bc_ana_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

uint64_t bc_ana_node_mask(const char *list)
{
	uint64_t m = 0;
	const char *q = list;

	while (*q) {
		char *end;
		long a = strtol(q, &end, 10), b = a, k;

		if (end == q)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (k = a; k <= b && k < 64 && k >= 0; k++)
			m |= 1ull << k;
		if (*end != ',')
			break;
		q = end + 1;
	}
	return m;
}

void bc_ana_mask_list(uint64_t m, char *buf, size_t len)
{
	int k;

	buf[0] = '\0';
	for (k = 0; k < 64; k++)
		if (m & (1ull << k))
			bc_ana_cat(buf, len, "%s%d", buf[0] ? "," : "", k);
}

/* the NUMA nodes of the interfaces in list ("bond0" or "eth0,eth1"), a bond by its links */
static uint64_t s_nic_numa(const struct bc_nodefacts *f, const char *list, bool *known)
{
	char names[256], *save = NULL, *tok;
	uint64_t m = 0;
	int i;

	snprintf(names, sizeof(names), "%s", list);
	for (tok = strtok_r(names, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct bc_fact_bond *b = NULL;

		for (i = 0; i < f->nbonds; i++)
			if (!strcmp(f->bonds[i].bond, tok))
				b = &f->bonds[i];
		if (b && b->members[0] && strcmp(b->members, tok)) {
			m |= s_nic_numa(f, b->members, known);
			continue;
		}
		for (i = 0; i < f->nnics; i++)
			if (!strcmp(f->nics[i].dev, tok) && f->nics[i].numa >= 0 &&
			    f->nics[i].numa < 64) {
				m |= 1ull << f->nics[i].numa;
				*known = true;
			}
	}
	return m;
}

void bc_use_facts(struct bc_use *u, const struct bc_nodefacts *f, const char *nic)
{
	const char *list = nic && *nic ? nic : u->nics;
	const struct bc_fact_bond *b;
	uint64_t numa = 0, pm = 0;
	bool known = false;
	int i, j;

	if (!f || !f->any)
		return;
	if (f->numa_nodes)
		u->numa_nodes = f->numa_nodes;
	numa = s_nic_numa(f, list, &known);
	if (known)
		bc_ana_mask_list(numa, u->nic_numa, sizeof(u->nic_numa));
	for (i = 0; i < f->nprocs; i++) {
		bc_ana_cat(u->proc_name, sizeof(u->proc_name), "%s%s", i ? "," : "",
			   f->procs[i].name);
		bc_ana_cat(u->proc_cpus, sizeof(u->proc_cpus), "%s%s", i ? ";" : "",
			   f->procs[i].cpus);
		pm |= bc_ana_node_mask(f->procs[i].numa_nodes);
	}
	if (pm)
		bc_ana_mask_list(pm, u->proc_numa, sizeof(u->proc_numa));
	for (i = 0; i < f->nsw; i++)
		bc_ana_cat(u->versions, sizeof(u->versions), "%s%s %s", i ? ", " : "",
			   f->sw[i].name, f->sw[i].version);
	/* distinct model + firmware pairs with their counts: "PM9A3 GDC5602Q x8" */
	for (i = 0; i < f->nnvme; i++) {
		int n = 0, first = i;

		for (j = 0; j < f->nnvme; j++)
			if (!strcmp(f->nvme[j].model, f->nvme[i].model) &&
			    !strcmp(f->nvme[j].firmware, f->nvme[i].firmware)) {
				n++;
				first = j < first ? j : first;
			}
		if (first == i)
			bc_ana_cat(u->firmware, sizeof(u->firmware), "%s%s %s x%d",
				   u->firmware[0] ? ", " : "", f->nvme[i].model,
				   f->nvme[i].firmware, n);
	}
	b = bc_nodefacts_bond(f, nic && *nic ? nic : NULL);
	if (!b)
		return;
	snprintf(u->bond_mode, sizeof(u->bond_mode), "%s", b->mode);
	u->bond_links = b->nmembers;
	u->bond_active = b->active;
	if (b->hash[0]) {
		if (u->hash_policy[0] && strcmp(u->hash_policy, b->hash))
			snprintf(u->hash_declared, sizeof(u->hash_declared), "%s", u->hash_policy);
		snprintf(u->hash_policy, sizeof(u->hash_policy), "%s", b->hash);
	}
}

double bc_use_gc_ratio(const struct bc_use *h, char *phrase, size_t len)
{
	char gc[32], cw[32];
	double r = NAN;

	if (!isnan(h->gc_write_bps) && h->client_write_bps > 0) {
		r = h->gc_write_bps / h->client_write_bps;
		if (phrase) {
			bc_ana_rate3(h->gc_write_bps, gc, sizeof(gc));
			bc_ana_rate3(h->client_write_bps, cw, sizeof(cw));
			snprintf(phrase, len,
				 "GC writes %s while clients write %s (x%.2f, write amplification "
				 "~%.2f)",
				 gc, cw, r, 1 + r);
		}
	} else if (!isnan(h->waf)) {
		r = h->waf - 1;
		if (phrase)
			snprintf(phrase, len,
				 "write amplification %.2f: GC moves %.0f%% of what users write",
				 h->waf, 100 * r);
	} else if (phrase) {
		phrase[0] = '\0';
	}
	return r;
}

static double s_jnum(const cJSON *o, const char *key, double scale)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble * scale : NAN;
}

void bc_use_from_json(struct bc_use *u, const char *name, bool client, const cJSON *fig)
{
	const cJSON *nic;
	size_t used = 0;

	bc_use_init(u, name, client);
	u->net_tx_bps = s_jnum(fig, "net_tx_mbps", 1e6);
	u->net_rx_bps = s_jnum(fig, "net_rx_mbps", 1e6);
	u->link_bps = s_jnum(fig, "link_mbps", 1e6);
	u->nic_tx = s_jnum(fig, "net_tx_util_pct", 0.01);
	u->nic_rx = s_jnum(fig, "net_rx_util_pct", 0.01);
	cJSON_ArrayForEach(
	    nic,
	    cJSON_GetObjectItemCaseSensitive(
		fig, "nics")) if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(nic, "counted")) &&
				  used < sizeof(u->nics)) used +=
	    (size_t)snprintf(u->nics + used, sizeof(u->nics) - used, "%s%s", used ? "," : "",
			     nic->string);
	u->cpu_busy = s_jnum(fig, "cpu_busy_pct", 0.01);
	u->hot_core = s_jnum(fig, "cpu_hot_core_pct", 0.01);
	u->hot_core_id =
	    isnan(s_jnum(fig, "cpu_hot_core", 1)) ? -1 : (int)s_jnum(fig, "cpu_hot_core", 1);
	u->softirq = s_jnum(fig, "softirq_pct", 0.01);
	u->softirq_hot = s_jnum(fig, "softirq_hot_core_pct", 0.01);
	u->softirq_hot_id = isnan(s_jnum(fig, "softirq_hot_core", 1))
				? -1
				: (int)s_jnum(fig, "softirq_hot_core", 1);
	u->load1 = s_jnum(fig, "load1", 1);
	u->ncpu = isnan(s_jnum(fig, "ncpu", 1)) ? 0 : (int)s_jnum(fig, "ncpu", 1);
	u->drops_per_s = s_jnum(fig, "net_drops_per_s", 1);
	u->retrans_per_s = s_jnum(fig, "tcp_retrans_per_s", 1);
	u->squeezed_per_s = s_jnum(fig, "softnet_squeezed_per_s", 1);
	u->disk_aqu_max = s_jnum(fig, "disk_aqu_max", 1);
	u->disk_w_await_ms = s_jnum(fig, "disk_w_await_max_ms", 1);
	u->disk_write_bps = s_jnum(fig, "disk_write_mbps", 1e6);
	u->sat_cores = s_jnum(fig, "cpu_sat_cores", 1);
	u->sat_busy = s_jnum(fig, "cpu_sat_busy_pct", 0.01);
	snprintf(u->sat_list, sizeof(u->sat_list), "%s",
		 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fig, "cpu_sat_list")) ?: "");
	u->agent_cpu = s_jnum(fig, "agent_cpu_pct", 0.01);
	u->agent_cores = s_jnum(fig, "agent_cores", 1);
	u->agent_iou_cpu = s_jnum(fig, "agent_iouring_cpu_pct", 0.01);
	u->baseline_busy = s_jnum(fig, "baseline_cpu_busy_pct", 0.01);
	u->baseline_load1 = s_jnum(fig, "baseline_load1", 1);
	snprintf(u->kernel, sizeof(u->kernel), "%s",
		 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fig, "kernel")) ?: "");
	cJSON_ArrayForEach(nic, cJSON_GetObjectItemCaseSensitive(fig, "nics")) s_use_link(
	    u, nic->string, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(nic, "counted")),
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(nic, "member")), s_jnum(nic, "mtu", 1),
	    s_jnum(nic, "tx_util_pct", 0.01), s_jnum(nic, "rx_util_pct", 0.01));
}

static const char *s_jstr(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key)) ?: "";
}

void bc_use_net_path(struct bc_use *u, const cJSON *np)
{
	const cJSON *numa = cJSON_GetObjectItemCaseSensitive(np, "numa"), *e;

	if (!np)
		return;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(np, "routes"))
	{
		struct bc_use_route *r = &u->routes[u->nroutes];
		double numa_node = s_jnum(e, "numa_node", 1);

		if (u->nroutes >= BC_USE_ROUTES)
			break;
		u->nroutes++;
		snprintf(r->node, sizeof(r->node), "%s", s_jstr(e, "node"));
		snprintf(r->addr, sizeof(r->addr), "%s", s_jstr(e, "address"));
		snprintf(r->dev, sizeof(r->dev), "%s", s_jstr(e, "dev"));
		snprintf(r->gateway, sizeof(r->gateway), "%s", s_jstr(e, "gateway"));
		snprintf(r->bond, sizeof(r->bond), "%s", s_jstr(e, "bond"));
		snprintf(r->error, sizeof(r->error), "%s", s_jstr(e, "error"));
		r->local = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "local"));
		r->mtu = s_jnum(e, "mtu", 1);
		r->speed_bps = s_jnum(e, "speed_mbps", 1e6);
		r->numa_node = isnan(numa_node) ? -1 : (int)numa_node;
		/* the bond the host's traffic is counted on names the policy, else the first */
		if (s_jstr(e, "xmit_hash_policy")[0] &&
		    (!u->hash_policy[0] || (u->nics[0] && !strcmp(u->nics, r->bond))))
			snprintf(u->hash_policy, sizeof(u->hash_policy), "%s",
				 s_jstr(e, "xmit_hash_policy"));
	}
	if (!numa)
		return;
	u->numa_nodes = isnan(s_jnum(numa, "nodes", 1)) ? 0 : (int)s_jnum(numa, "nodes", 1);
	snprintf(u->job_cpus, sizeof(u->job_cpus), "%s", s_jstr(numa, "job_cpus"));
	snprintf(u->job_numa, sizeof(u->job_numa), "%s", s_jstr(numa, "job_numa_nodes"));
	u->jobs_pinned = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(numa, "pinned"));
}

/*
 * A slot that thinks Z between a completion and its next submission is out
 * of flight for Z: the closed-loop form of Little's law (the interactive
 * response time law) is N = X (R + Z).
 */
double bc_ana_rho(const struct bc_ana_point *p)
{
	double z = p->think_s > 0 ? p->think_s : 0;

	if (p->queue_note || !(p->n > 0) || !(p->x_iops > 0) || !(p->r_mean_s > 0))
		return NAN;
	return p->x_iops * (p->r_mean_s + z) / p->n;
}

enum bc_ana_class bc_ana_classify(const struct bc_ana_point *prev, const struct bc_ana_point *cur,
				  double *e_out)
{
	double k, dx, e, rr;

	if (e_out)
		*e_out = NAN;
	if (!prev || !(prev->n > 0) || !(prev->x_bps > 0) || !(cur->n > prev->n))
		return BC_ANA_FIRST;
	k = cur->n / prev->n;
	dx = cur->x_bps / prev->x_bps - 1;
	e = dx / (k - 1);
	if (e_out)
		*e_out = e;
	if (dx < -BC_ANA_PLATEAU_DX)
		return BC_ANA_RETROGRADE;
	rr = prev->r_mean_s > 0 ? cur->r_mean_s / prev->r_mean_s : NAN;
	if (fabs(dx) < BC_ANA_PLATEAU_DX && fabs(rr - k) <= BC_ANA_PLATEAU_DR * k)
		return BC_ANA_PLATEAU;
	if (e >= BC_ANA_SCALING_E)
		return BC_ANA_SCALING;
	return BC_ANA_DIMINISHING;
}

bool bc_ana_rising(double now, double before)
{
	if (isnan(now))
		return false;
	if (isnan(before))
		before = 0;
	return now > BC_ANA_RISING * before && now - before > 10;
}

void bc_ana_rate3(double bps, char *buf, size_t len)
{
	static const char *const unit[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
	double v = bps;
	int u = 0;

	if (!isfinite(bps)) {
		snprintf(buf, len, "-");
		return;
	}
	while (fabs(v) >= 999.5 && u < 4) {
		v /= 1e3;
		u++;
	}
	snprintf(buf, len, "%.*f %s", fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2, v, unit[u]);
}
