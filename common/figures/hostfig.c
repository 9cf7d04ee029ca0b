/*
 * figures/hostfig.c - host counter snapshots and the figures of the interval
 * between two of them. Definitions follow Brendan Gregg's USE Linux
 * checklist (brendangregg.com/USEmethod/use-linux.html): CPU busy is everything but idle,
 * iowait and steal; interface utilization is bytes over link speed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures/hostfig.h"
#include "util/clock.h"

const char *const bc_cpu_mode_names[BC_CPU_MODE_NR] = {
    "user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
};

#define F(key, field, scale)                                                                       \
	{                                                                                          \
		key, offsetof(struct bc_hostfig, field), scale                                     \
	}
const struct bc_hostfig_field bc_hostfig_fields[] = {
    F("net_tx_mbps", net_tx_bps, 1e-6),
    F("net_rx_mbps", net_rx_bps, 1e-6),
    F("link_mbps", link_bps, 1e-6),
    F("net_tx_util_pct", net_tx_util, 100),
    F("net_rx_util_pct", net_rx_util, 100),
    F("net_drops_per_s", net_drops_per_s, 1),
    F("tcp_retrans_per_s", tcp_retrans_per_s, 1),
    F("softnet_squeezed_per_s", softnet_squeezed_per_s, 1),
    F("cpu_busy_pct", cpu_busy, 100),
    F("cpu_sys_pct", cpu_sys, 100),
    F("cpu_hot_core_pct", cpu_hot_core, 100),
    F("cpu_sat_cores", cpu_sat_cores, 1),
    F("cpu_sat_busy_pct", cpu_sat_busy, 100),
    F("softirq_pct", softirq, 100),
    F("softirq_hot_core_pct", softirq_hot_core, 100),
    F("irq_pct", irq, 100),
    F("iowait_pct", iowait, 100),
    F("disk_read_mbps", disk_read_bps, 1e-6),
    F("disk_write_mbps", disk_write_bps, 1e-6),
    F("disk_util_max_pct", disk_util_max, 100),
    F("disk_aqu_max", disk_aqu_max, 1),
    F("disk_w_await_max_ms", disk_w_await_max_ms, 1),
    F("mem_used_pct", mem_used, 100),
    F("load1", load1, 1),
};
#undef F
const int bc_hostfig_nfields = (int)(sizeof(bc_hostfig_fields) / sizeof(bc_hostfig_fields[0]));

int bc_hostfig_field_index(const char *key)
{
	int i;

	for (i = 0; i < bc_hostfig_nfields; i++)
		if (!strcmp(bc_hostfig_fields[i].key, key))
			return i;
	return -1;
}

void bc_hostsnap_init(struct bc_hostsnap *s)
{
	memset(s, 0, sizeof(*s));
	bc_hostsnap_reset(s);
}

void bc_hostsnap_reset(struct bc_hostsnap *s)
{
	int i;

	s->t_ns = 0;
	s->ncpu = 0;
	s->nnics = 0;
	s->ndisks = 0;
	s->mem_total = s->mem_avail = s->load1 = NAN;
	s->softnet_squeezed = s->softnet_dropped = NAN;
	s->tcp_retrans = s->tcp_out = NAN;
	s->proc_cpu_s = s->proc_jobs_cpu_s = s->proc_iou_cpu_s = NAN;
	s->kernel[0] = '\0';
	for (i = 0; i < BC_HF_CUSTOM; i++)
		s->custom[i] = NAN;
}

void bc_hostsnap_free(struct bc_hostsnap *s)
{
	free(s->cpu);
	s->cpu = NULL;
	s->cpu_cap = 0;
	bc_hostsnap_reset(s);
}

int bc_hostsnap_copy(struct bc_hostsnap *dst, const struct bc_hostsnap *src)
{
	double(*keep)[BC_CPU_MODE_NR] = dst->cpu;
	int cap = dst->cpu_cap;

	if (cap < src->ncpu) {
		keep = realloc(dst->cpu, (size_t)src->ncpu * sizeof(*keep));
		if (!keep)
			return -ENOMEM;
		cap = src->ncpu;
	}
	*dst = *src;
	dst->cpu = keep;
	dst->cpu_cap = cap;
	if (src->ncpu)
		memcpy(dst->cpu, src->cpu, (size_t)src->ncpu * sizeof(*keep));
	return 0;
}

int bc_hostsnap_cpu_set(struct bc_hostsnap *s, int cpu, enum bc_cpu_mode mode, double seconds)
{
	int i, m;

	if (cpu < 0 || cpu >= BC_HF_CPUS || (unsigned)mode >= BC_CPU_MODE_NR)
		return -ERANGE;
	if (cpu >= s->cpu_cap) {
		int cap = s->cpu_cap ? s->cpu_cap : 64;
		double(*grown)[BC_CPU_MODE_NR];

		while (cap <= cpu)
			cap *= 2;
		grown = realloc(s->cpu, (size_t)cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		s->cpu = grown;
		s->cpu_cap = cap;
	}
	/* cpus between the last one seen and this one stay unknown (offline) */
	for (i = s->ncpu; i <= cpu; i++)
		for (m = 0; m < BC_CPU_MODE_NR; m++)
			s->cpu[i][m] = NAN;
	if (cpu >= s->ncpu)
		s->ncpu = cpu + 1;
	s->cpu[cpu][mode] = seconds;
	return 0;
}

struct bc_hostsnap_nic *bc_hostsnap_nic(struct bc_hostsnap *s, const char *name)
{
	struct bc_hostsnap_nic *n;
	int i;

	for (i = 0; i < s->nnics; i++)
		if (!strcmp(s->nics[i].name, name))
			return &s->nics[i];
	if (s->nnics == BC_HF_NICS || strlen(name) >= BC_HF_NAME)
		return NULL;
	n = &s->nics[s->nnics++];
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->tx_bytes = n->rx_bytes = n->tx_drop = n->rx_drop = n->speed_bytes = NAN;
	n->mtu = NAN;
	n->master[0] = '\0';
	return n;
}

struct bc_hostsnap_disk *bc_hostsnap_disk(struct bc_hostsnap *s, const char *name)
{
	struct bc_hostsnap_disk *d;
	int i;

	for (i = 0; i < s->ndisks; i++)
		if (!strcmp(s->disks[i].name, name))
			return &s->disks[i];
	if (s->ndisks == BC_HF_DISKS || strlen(name) >= BC_HF_NAME)
		return NULL;
	d = &s->disks[s->ndisks++];
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->rd_bytes = d->wr_bytes = d->reads = d->writes = NAN;
	d->rd_time_s = d->wr_time_s = d->io_time_s = d->io_wtime_s = NAN;
	return d;
}

static bool s_prefix(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(s, *list, strlen(*list)))
			return true;
	return false;
}

bool bc_hostfig_virtual_nic(const char *name)
{
	/* container, bridge, tunnel and shaping devices carry traffic a physical NIC also counts */
	static const char *const virt[] = {
	    "veth", "docker", "br-",   "virbr", "cali", "flannel", "cni",   "vxlan", "tun",
	    "tap",  "ifb",    "dummy", "kube",	"lxc",	"vnet",	   "genev", "wg",    NULL,
	};

	return !strcmp(name, "lo") || s_prefix(name, virt);
}

/* dm, md and loop devices re-carry I/O of whole disks; partitions are not listed */
static bool s_stacked_disk(const char *name)
{
	static const char *const stacked[] = {"dm-", "md", "loop", "ram", "zram",
					      "sr",  "fd", "nbd",  NULL};

	return s_prefix(name, stacked);
}

/* is name in the comma-separated list? */
static bool s_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == n && !strncmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

/*
 * Without a configured interface: every physical-looking one, but when a
 * bond (or team) exists only the bonds, because its slaves carry the same
 * bytes a second time. A wrong guess shows in the byte reconciliation.
 */
static bool s_counted(const struct bc_hostsnap *b, const char *name, const char *nic)
{
	bool bonds = false;
	int i;

	if (nic && *nic)
		return s_in_list(nic, name);
	if (bc_hostfig_virtual_nic(name))
		return false;
	for (i = 0; i < b->nnics; i++)
		if (!strncmp(b->nics[i].name, "bond", 4) || !strncmp(b->nics[i].name, "team", 4))
			bonds = true;
	return !bonds || !strncmp(name, "bond", 4) || !strncmp(name, "team", 4);
}

/*
 * A member link of the counted bond: named in the profile's nic_members,
 * else the host says so (sysfs master), else - node_exporter does not say
 * which links a bond has - every physical link beside a counted bond.
 */
static bool s_member(const struct bc_hostsnap *b, const struct bc_hostsnap_nic *n,
		     const struct bc_hostfig_opts *o)
{
	bool bond = false;
	int i;

	if (o && o->members && *o->members)
		return s_in_list(o->members, n->name);
	if (n->master[0])
		return true;
	if (bc_hostfig_virtual_nic(n->name) || !strncmp(n->name, "bond", 4) ||
	    !strncmp(n->name, "team", 4))
		return false;
	for (i = 0; i < b->nnics; i++)
		if ((!strncmp(b->nics[i].name, "bond", 4) ||
		     !strncmp(b->nics[i].name, "team", 4)) &&
		    s_counted(b, b->nics[i].name, o ? o->nic : NULL))
			bond = true;
	return bond;
}

/* (b - a) / dt, NaN when either is unknown or the counter went backwards */
static double s_rate(double a, double b, double dt)
{
	if (isnan(a) || isnan(b) || b < a)
		return NAN;
	return (b - a) / dt;
}

static double s_nanmax(double m, double v)
{
	return isnan(v) ? m : (isnan(m) || v > m ? v : m);
}

static void s_cpu(const struct bc_hostsnap *a, const struct bc_hostsnap *b, struct bc_hostfig *f)
{
	double tot = 0, idle = 0, soft = 0, irq = 0, iow = 0, sys = 0, sat = 0, sat_busy = 0;
	int c, m, n = a->ncpu < b->ncpu ? a->ncpu : b->ncpu, seen = 0;

	for (c = 0; c < n; c++) {
		double d[BC_CPU_MODE_NR], t = 0, busy;
		bool ok = true;

		for (m = 0; m < BC_CPU_MODE_NR; m++) {
			d[m] = b->cpu[c][m] - a->cpu[c][m];
			/* a mode a kernel lacks (steal on bare metal) is 0 on both sides */
			if (isnan(a->cpu[c][m]) && isnan(b->cpu[c][m]))
				d[m] = 0;
			if (isnan(d[m]) || d[m] < 0)
				ok = false;
			t += d[m];
		}
		if (!ok || t <= 0)
			continue;
		seen++;
		busy = t - d[BC_CPU_IDLE] - d[BC_CPU_IOWAIT] - d[BC_CPU_STEAL];
		tot += t;
		idle += t - busy;
		soft += d[BC_CPU_SOFTIRQ];
		irq += d[BC_CPU_IRQ];
		sys += d[BC_CPU_SYSTEM];
		iow += d[BC_CPU_IOWAIT];
		if (isnan(f->cpu_hot_core) || busy / t > f->cpu_hot_core) {
			f->cpu_hot_core = busy / t;
			f->cpu_hot_core_id = c;
		}
		if (busy / t >= BC_HF_SAT_CORE_U) {
			sat++;
			sat_busy += busy / t;
			f->cpu_sat_mask[c / 64] |= 1ULL << (c % 64);
		}
		if (isnan(f->softirq_hot_core) || d[BC_CPU_SOFTIRQ] / t > f->softirq_hot_core) {
			f->softirq_hot_core = d[BC_CPU_SOFTIRQ] / t;
			f->softirq_hot_core_id = c;
		}
	}
	if (!seen)
		return;
	f->ncpu = seen;
	f->cpu_busy = 1.0 - idle / tot;
	/* kernel time: system plus interrupt service (vdbench's "cpu% sys") */
	f->cpu_sys = (sys + irq + soft) / tot;
	f->cpu_sat_cores = sat;
	f->cpu_sat_busy = sat ? sat_busy / sat : NAN;
	f->softirq = soft / tot;
	f->irq = irq / tot;
	f->iowait = iow / tot;
}

static void s_net(const struct bc_hostsnap *a, const struct bc_hostsnap *b,
		  const struct bc_hostfig_opts *o, struct bc_hostfig *f)
{
	double tx = 0, rx = 0, link = 0, drops = 0;
	bool any = false, link_known = true, drops_known = false;
	int i, j;

	for (i = 0; i < b->nnics; i++) {
		const struct bc_hostsnap_nic *nb = &b->nics[i], *na = NULL;
		struct bc_hostfig_nic *out;

		for (j = 0; j < a->nnics && !na; j++)
			if (!strcmp(a->nics[j].name, nb->name))
				na = &a->nics[j];
		if (!na)
			continue;
		out = &f->nics[f->nnics++];
		snprintf(out->name, sizeof(out->name), "%s", nb->name);
		out->tx_bps = s_rate(na->tx_bytes, nb->tx_bytes, f->dt_s);
		out->rx_bps = s_rate(na->rx_bytes, nb->rx_bytes, f->dt_s);
		out->speed_bps = nb->speed_bytes > 0 ? nb->speed_bytes : NAN;
		out->mtu = nb->mtu > 0 ? nb->mtu : NAN;
		out->counted = s_counted(b, nb->name, o ? o->nic : NULL);
		if (!out->counted) {
			out->member = s_member(b, nb, o);
			continue;
		}
		out->member = false;
		any = true;
		tx += out->tx_bps;
		rx += out->rx_bps;
		if (isnan(out->speed_bps))
			link_known = false;
		else
			link += out->speed_bps;
		if (!isnan(s_rate(na->tx_drop, nb->tx_drop, 1)) &&
		    !isnan(s_rate(na->rx_drop, nb->rx_drop, 1))) {
			drops_known = true;
			drops += s_rate(na->tx_drop, nb->tx_drop, f->dt_s) +
				 s_rate(na->rx_drop, nb->rx_drop, f->dt_s);
		}
	}
	if (!any)
		return;
	f->net_tx_bps = tx;
	f->net_rx_bps = rx;
	if (drops_known)
		f->net_drops_per_s = drops;
	if (link_known && link > 0) {
		f->link_bps = link;
		f->net_tx_util = tx / link;
		f->net_rx_util = rx / link;
	}
}

static void s_disk(const struct bc_hostsnap *a, const struct bc_hostsnap *b, struct bc_hostfig *f)
{
	double rd = 0, wr = 0;
	bool any = false;
	int i, j;

	for (i = 0; i < b->ndisks; i++) {
		const struct bc_hostsnap_disk *db = &b->disks[i], *da = NULL;
		struct bc_hostfig_disk *out;
		double nr, nw;

		for (j = 0; j < a->ndisks && !da; j++)
			if (!strcmp(a->disks[j].name, db->name))
				da = &a->disks[j];
		if (!da)
			continue;
		out = &f->disks[f->ndisks++];
		snprintf(out->name, sizeof(out->name), "%s", db->name);
		out->read_bps = s_rate(da->rd_bytes, db->rd_bytes, f->dt_s);
		out->write_bps = s_rate(da->wr_bytes, db->wr_bytes, f->dt_s);
		out->riops = s_rate(da->reads, db->reads, f->dt_s);
		out->wiops = s_rate(da->writes, db->writes, f->dt_s);
		out->util = s_rate(da->io_time_s, db->io_time_s, f->dt_s);
		out->aqu = s_rate(da->io_wtime_s, db->io_wtime_s, f->dt_s);
		nr = db->reads - da->reads;
		nw = db->writes - da->writes;
		out->r_await_ms = nr > 0 ? s_rate(da->rd_time_s, db->rd_time_s, nr) * 1e3 : NAN;
		out->w_await_ms = nw > 0 ? s_rate(da->wr_time_s, db->wr_time_s, nw) * 1e3 : NAN;
		f->disk_util_max = s_nanmax(f->disk_util_max, out->util);
		f->disk_aqu_max = s_nanmax(f->disk_aqu_max, out->aqu);
		f->disk_w_await_max_ms = s_nanmax(f->disk_w_await_max_ms, out->w_await_ms);
		if (s_stacked_disk(db->name))
			continue;
		if (!isnan(out->read_bps))
			rd += out->read_bps;
		if (!isnan(out->write_bps))
			wr += out->write_bps;
		any = any || !isnan(out->read_bps) || !isnan(out->write_bps);
	}
	if (any) {
		f->disk_read_bps = rd;
		f->disk_write_bps = wr;
	}
}

/*
 * The agent's share of the host: a thread that exited takes its seconds
 * out of the per-thread sums (the process total keeps them), so a share
 * that went backwards counts as 0 rather than unknown.
 */
static void s_agent_cpu(const struct bc_hostsnap *a, const struct bc_hostsnap *b,
			struct bc_hostfig *f)
{
	double cap = f->dt_s * (f->ncpu > 0 ? f->ncpu : 1);
	double p = s_rate(a->proc_cpu_s, b->proc_cpu_s, 1);
	double jobs = b->proc_jobs_cpu_s - a->proc_jobs_cpu_s;
	double iou = b->proc_iou_cpu_s - a->proc_iou_cpu_s;

	if (isnan(p) || !(cap > 0))
		return;
	f->agent_cpu = p / cap;
	f->agent_cores = p / f->dt_s;
	f->agent_jobs_cpu = isnan(jobs) ? NAN : fmax(jobs, 0) / cap;
	f->agent_iou_cpu = isnan(iou) ? NAN : fmax(iou, 0) / cap;
}

void bc_hostfig_cpulist(const uint64_t *mask, int ncpu, char *buf, size_t len)
{
	size_t used = 0;
	int c = 0, lo;

	buf[0] = '\0';
	if (ncpu > BC_HF_CPUS)
		ncpu = BC_HF_CPUS;
	while (c < ncpu && used < len) {
		if (!(mask[c / 64] >> (c % 64) & 1)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < ncpu && (mask[(c + 1) / 64] >> ((c + 1) % 64) & 1))
			c++;
		used +=
		    (size_t)(lo == c ? snprintf(buf + used, len - used, "%s%d", used ? "," : "", lo)
				     : snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "",
						lo, c));
		c++;
	}
}

void bc_hostfig_clear(struct bc_hostfig *f, int ncustom)
{
	int i;

	for (i = 0; i < bc_hostfig_nfields; i++)
		*(double *)((char *)f + bc_hostfig_fields[i].off) = NAN;
	f->dt_s = NAN;
	f->ncpu = 0;
	memset(f->cpu_sat_mask, 0, sizeof(f->cpu_sat_mask));
	f->agent_cpu = f->agent_jobs_cpu = f->agent_iou_cpu = f->agent_cores = NAN;
	f->kernel[0] = '\0';
	f->cpu_hot_core_id = f->softirq_hot_core_id = -1;
	f->nnics = f->ndisks = 0;
	f->ncustom = ncustom < BC_HF_CUSTOM ? ncustom : BC_HF_CUSTOM;
	for (i = 0; i < BC_HF_CUSTOM; i++)
		f->custom[i] = NAN;
}

int bc_hostfig_compute(const struct bc_hostsnap *a, const struct bc_hostsnap *b,
		       const struct bc_hostfig_opts *o, struct bc_hostfig *f)
{
	int i;

	bc_hostfig_clear(f, b->ncustom);
	if (b->t_ns <= a->t_ns)
		return -EINVAL;
	f->dt_s = (double)(b->t_ns - a->t_ns) / (double)BC_NS_PER_S;
	s_cpu(a, b, f);
	s_net(a, b, o, f);
	s_disk(a, b, f);
	f->tcp_retrans_per_s = s_rate(a->tcp_retrans, b->tcp_retrans, f->dt_s);
	f->softnet_squeezed_per_s = s_rate(a->softnet_squeezed, b->softnet_squeezed, f->dt_s);
	if (b->mem_total > 0 && !isnan(b->mem_avail))
		f->mem_used = 1.0 - b->mem_avail / b->mem_total;
	f->load1 = b->load1;
	snprintf(f->kernel, sizeof(f->kernel), "%s", b->kernel);
	s_agent_cpu(a, b, f);
	for (i = 0; i < f->ncustom; i++)
		f->custom[i] = o && o->custom_rate && o->custom_rate[i]
				   ? s_rate(a->custom[i], b->custom[i], f->dt_s)
				   : b->custom[i];
	return 0;
}

cJSON *bc_hostfig_num(double v)
{
	if (!isfinite(v))
		return cJSON_CreateNull();
	return cJSON_CreateNumber(round(v * 1000.0) / 1000.0);
}

static void s_add(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddItemToObject(o, key, bc_hostfig_num(v));
}

cJSON *bc_hostfig_json(const struct bc_hostfig *f, bool detail)
{
	cJSON *o = cJSON_CreateObject(), *nics, *disks;
	int i;

	if (!o)
		return NULL;
	s_add(o, "dt_s", f->dt_s);
	for (i = 0; i < bc_hostfig_nfields; i++)
		s_add(o, bc_hostfig_fields[i].key, bc_hostfig_get(f, i));
	if (f->ncpu)
		cJSON_AddNumberToObject(o, "ncpu", f->ncpu);
	if (f->cpu_hot_core_id >= 0)
		cJSON_AddNumberToObject(o, "cpu_hot_core", f->cpu_hot_core_id);
	if (f->softirq_hot_core_id >= 0)
		cJSON_AddNumberToObject(o, "softirq_hot_core", f->softirq_hot_core_id);
	if (f->cpu_sat_cores > 0) {
		char list[512];

		bc_hostfig_cpulist(f->cpu_sat_mask, BC_HF_CPUS, list, sizeof(list));
		cJSON_AddStringToObject(o, "cpu_sat_list", list);
	}
	if (f->kernel[0])
		cJSON_AddStringToObject(o, "kernel", f->kernel);
	s_add(o, "agent_cpu_pct", 100 * f->agent_cpu);
	s_add(o, "agent_cores", f->agent_cores);
	s_add(o, "agent_jobs_cpu_pct", 100 * f->agent_jobs_cpu);
	s_add(o, "agent_iouring_cpu_pct", 100 * f->agent_iou_cpu);
	if (!detail)
		return o;
	nics = f->nnics ? cJSON_AddObjectToObject(o, "nics") : NULL;
	for (i = 0; i < f->nnics; i++) {
		const struct bc_hostfig_nic *n = &f->nics[i];
		cJSON *x = cJSON_AddObjectToObject(nics, n->name);

		s_add(x, "tx_mbps", n->tx_bps * 1e-6);
		s_add(x, "rx_mbps", n->rx_bps * 1e-6);
		s_add(x, "speed_mbps", n->speed_bps * 1e-6);
		s_add(x, "tx_util_pct", 100 * n->tx_bps / n->speed_bps);
		s_add(x, "rx_util_pct", 100 * n->rx_bps / n->speed_bps);
		s_add(x, "mtu", n->mtu);
		cJSON_AddBoolToObject(x, "counted", n->counted);
		if (n->member)
			cJSON_AddBoolToObject(x, "member", true);
	}
	disks = f->ndisks ? cJSON_AddObjectToObject(o, "disks") : NULL;
	for (i = 0; i < f->ndisks; i++) {
		const struct bc_hostfig_disk *d = &f->disks[i];
		cJSON *x = cJSON_AddObjectToObject(disks, d->name);

		s_add(x, "read_mbps", d->read_bps * 1e-6);
		s_add(x, "write_mbps", d->write_bps * 1e-6);
		s_add(x, "riops", d->riops);
		s_add(x, "wiops", d->wiops);
		s_add(x, "util_pct", 100 * d->util);
		s_add(x, "aqu", d->aqu);
		s_add(x, "r_await_ms", d->r_await_ms);
		s_add(x, "w_await_ms", d->w_await_ms);
	}
	return o;
}

/* add every number of src into the sums of acc (and counts in cnt), recursing into objects */
static void s_accumulate(cJSON *acc, cJSON *cnt, const cJSON *src)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, src)
	{
		cJSON *a = cJSON_GetObjectItemCaseSensitive(acc, v->string);
		cJSON *c = cJSON_GetObjectItemCaseSensitive(cnt, v->string);

		if (cJSON_IsObject(v)) {
			if (!a)
				a = cJSON_AddObjectToObject(acc, v->string);
			if (!c)
				c = cJSON_AddObjectToObject(cnt, v->string);
			s_accumulate(a, c, v);
		} else if (cJSON_IsNumber(v)) {
			if (!a) {
				cJSON_AddNumberToObject(acc, v->string, 0);
				cJSON_AddNumberToObject(cnt, v->string, 0);
				a = cJSON_GetObjectItemCaseSensitive(acc, v->string);
				c = cJSON_GetObjectItemCaseSensitive(cnt, v->string);
			}
			cJSON_SetNumberValue(a, a->valuedouble + v->valuedouble);
			cJSON_SetNumberValue(c, c->valuedouble + 1);
		} else if (cJSON_IsTrue(v) && !a) {
			cJSON_AddBoolToObject(acc, v->string, true); /* "counted" in any sample */
		} else if (cJSON_IsString(v) && !a) {
			cJSON_AddStringToObject(acc, v->string,
						v->valuestring); /* the first one's */
		}
	}
}

static void s_divide(cJSON *acc, const cJSON *cnt)
{
	cJSON *v;

	cJSON_ArrayForEach(v, acc)
	{
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(cnt, v->string);

		if (cJSON_IsObject(v))
			s_divide(v, c);
		else if (cJSON_IsNumber(v) && cJSON_IsNumber(c) && c->valuedouble > 0)
			cJSON_SetNumberValue(v,
					     round(v->valuedouble / c->valuedouble * 1000) / 1000);
	}
}

/* the hot-core keys: the id of the sample where its share was highest */
static const char *const s_hot_keys[2][2] = {{"cpu_hot_core_pct", "cpu_hot_core"},
					     {"softirq_hot_core_pct", "softirq_hot_core"}};

void bc_hostfig_mean_init(struct bc_hostfig_mean *m)
{
	memset(m, 0, sizeof(*m));
}

int bc_hostfig_mean_add(struct bc_hostfig_mean *m, const cJSON *sample)
{
	int i;

	if (!m->acc)
		m->acc = cJSON_CreateObject();
	if (!m->cnt)
		m->cnt = cJSON_CreateObject();
	if (!m->acc || !m->cnt)
		return -ENOMEM;
	if (cJSON_IsObject(sample)) {
		s_accumulate(m->acc, m->cnt, sample);
		m->used++;
	}
	/* the first sample with the highest share wins a tie, as a scan from the start would */
	for (i = 0; i < 2; i++) {
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(sample, s_hot_keys[i][0]);
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(sample, s_hot_keys[i][1]);

		if (cJSON_IsNumber(p) && cJSON_IsNumber(id) &&
		    (!m->hot_ok[i] || p->valuedouble > m->hot_pct[i])) {
			m->hot_ok[i] = true;
			m->hot_pct[i] = p->valuedouble;
			m->hot_id[i] = id->valuedouble;
		}
	}
	return 0;
}

cJSON *bc_hostfig_mean_finish(const struct bc_hostfig_mean *m)
{
	cJSON *out;
	int i;

	if (!m->used)
		return NULL;
	out = cJSON_Duplicate(m->acc, 1);
	if (!out)
		return NULL;
	s_divide(out, m->cnt);
	for (i = 0; i < 2; i++) {
		cJSON_DeleteItemFromObjectCaseSensitive(out, s_hot_keys[i][1]);
		if (m->hot_ok[i])
			cJSON_AddNumberToObject(out, s_hot_keys[i][1], m->hot_id[i]);
	}
	return out;
}

void bc_hostfig_mean_free(struct bc_hostfig_mean *m)
{
	cJSON_Delete(m->acc);
	cJSON_Delete(m->cnt);
	memset(m, 0, sizeof(*m));
}

cJSON *bc_hostfig_mean_json(const cJSON *const *samples, int n)
{
	struct bc_hostfig_mean m;
	cJSON *out = NULL;
	int i, rc = 0;

	if (n <= 0)
		return NULL;
	bc_hostfig_mean_init(&m);
	for (i = 0; i < n && !rc; i++)
		rc = bc_hostfig_mean_add(&m, samples[i]);
	if (!rc)
		out = bc_hostfig_mean_finish(&m);
	bc_hostfig_mean_free(&m);
	return out;
}
