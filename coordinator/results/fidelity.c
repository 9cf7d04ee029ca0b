/*
 * fidelity.c - did a step's figures measure the storage (see results/fidelity.h):
 * the devices' own counters against the step's bytes, the client hosts'
 * CPU and who held it, what backs every read window, the layout's time.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agg/agg.h"
#include "analysis/point.h"
#include "results/fidelity.h"
#include "util/rjson.h"
#include "results/stepres.h"
#include "results/hostsamples.h"

/* under this many bytes a direction is too small to judge (a few I/Os of a short step) */
#define S_MIN_BYTES (1 << 20)

/* a number, NaN when absent */
static double s_num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static void s_cat(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void s_cat(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static void s_warn(struct bc_fidelity *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void s_warn(struct bc_fidelity *f, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	cJSON_AddItemToArray(f->warnings, cJSON_CreateString(text));
}

/*
 * Profile agent a's local-th volume of the step (PREPARE order): its profile
 * index, or -1. The map is made once per step (16,000 volumes looked up one
 * by one through the profile would be 256 million steps).
 */
struct s_vmap {
	int *start; /* [nagents + 1]: agent a's volumes are vol[start[a] .. start[a + 1]) */
	int *vol;
};

static int s_vmap_init(const struct bc_profile *p, struct s_vmap *m)
{
	int *fill = calloc((size_t)p->nagents + 1, sizeof(int)), a, i;

	m->start = calloc((size_t)p->nagents + 2, sizeof(int));
	m->vol = calloc((size_t)p->nvolumes + 1, sizeof(int));
	if (!fill || !m->start || !m->vol) {
		free(fill);
		return -ENOMEM;
	}
	for (i = 0; i < p->nvolumes; i++)
		m->start[p->volumes[i].agent + 1]++;
	for (a = 0; a < p->nagents; a++)
		m->start[a + 1] += m->start[a];
	for (i = 0; i < p->nvolumes; i++) {
		a = p->volumes[i].agent;
		m->vol[m->start[a] + fill[a]++] = i;
	}
	free(fill);
	return 0;
}

static int s_volume_of(const struct s_vmap *m, int a, int local)
{
	return local >= 0 && m->start[a] + local < m->start[a + 1] ? m->vol[m->start[a] + local]
								   : -1;
}

/* one device under the volumes (one kernel's), the sums of every volume on it */
struct s_dev {
	char key[192], device[64], how[384], vols[512];
	double ar, aw, kr, kw; /* what the agents say they moved; what the kernel counted */
	double pr, pw;	       /* the agents' processes' own block-layer bytes (/proc/<pid>/io) */
	double air, aiw, kir, kiw; /* the agents' I/Os; the requests the device completed */
	bool proc;		   /* every agent on it has all its volumes here and said pr, pw */
	int nvols;
	bool buffered, direct, loop_cached;
};

static struct s_dev *s_dev_get(struct s_dev *d, int *n, const char *key)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(d[i].key, key))
			return &d[i];
	memset(&d[*n], 0, sizeof(d[*n]));
	snprintf(d[*n].key, sizeof(d[*n].key), "%s", key);
	return &d[(*n)++];
}

static bool s_backing_warned(const struct bc_fidelity *f, const char *vols)
{
	const cJSON *b;

	cJSON_ArrayForEach(
	    b, f->backing) if (cJSON_IsTrue(bc_rj(b, "warned")) &&
			       strstr(vols, bc_rj_str("\x01", b, "volume"))) return true;
	return false;
}

/* why the device moved less: the likeliest cause the agents' facts point to */
static const char *s_cause(const struct bc_fidelity *f, const struct s_dev *x, bool reads)
{
	if (x->buffered && reads)
		return "buffered reads: the page cache served them";
	if (x->buffered)
		return "buffered writes: the page cache still held them at the step's end";
	if (reads && s_backing_warned(f, x->vols))
		return "reads of unwritten extents, holes or deallocated blocks, named in the "
		       "warnings: answered without device I/O";
	if (x->loop_cached)
		return "a loop device whose backing file is read and written through the page "
		       "cache (direct I/O off)";
	return reads ? "reads answered without device I/O (unwritten extents, holes, "
		       "deallocated blocks, or a cache between the volume and the device)"
		     : "writes the device did not see";
}

/* the device key of a STEP_DONE volume's "device" into key; false when not measurable */
static bool s_dev_key(const cJSON *d, const char *agent, char *key, size_t len)
{
	if (!cJSON_IsTrue(bc_rj(d, "measurable")))
		return false;
	/* one kernel's device: agents of one host share it */
	snprintf(key, len, "%s/%s", bc_rj_str(agent, d, "kernel"), bc_rj_str("?", d, "device"));
	return true;
}

/*
 * Agent a's measurable volumes all on one device: its process's own
 * block-layer bytes (STEP_DONE "proc_io") are that device's share of its
 * I/O, whatever else the device served (other processes, other agents)
 */
static bool s_one_device(const cJSON *vols, const char *agent)
{
	char key[192], first[192] = "";
	const cJSON *v;

	cJSON_ArrayForEach(v, vols)
	{
		if (!s_dev_key(bc_rj(v, "device"), agent, key, sizeof(key)))
			continue;
		if (first[0] && strcmp(first, key))
			return false;
		snprintf(first, sizeof(first), "%s", key);
	}
	return first[0] != 0;
}

/* what the device under the volumes did, the sentence every report prints */
static void s_device_text(const struct s_dev *x, double mr, double mw, char *buf, size_t len)
{
	snprintf(buf, len, "Device %s (%s; %s I/O) moved ", x->device, x->how,
		 x->buffered && x->direct ? "mixed"
		 : x->buffered		  ? "buffered"
					  : "direct");
	if (!isnan(mr))
		s_cat(buf, len, "%.1f%% of the bytes read", 100 * mr);
	if (!isnan(mr) && !isnan(mw))
		s_cat(buf, len, " and ");
	if (!isnan(mw))
		s_cat(buf, len, "%.1f%% of the bytes written", 100 * mw);
	if (isnan(mr) && isnan(mw))
		s_cat(buf, len, "nothing, and the step moved nothing");
	if (x->buffered && !isnan(mr))
		s_cat(buf, len, "; the page cache served %.1f%% of the reads", 100 * (1 - mr));
	if (x->buffered && !isnan(mw))
		s_cat(buf, len, "; %.1f%% of the writes were in the page cache at the end",
		      100 * (1 - mw));
	s_cat(buf, len, " (at least %.0f%% needed)", 100 * BC_FID_MOVED);
}

static void s_devices(struct bc_step_result *r, const struct s_vmap *m, struct bc_fidelity *f)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_profile *p = g->prof;
	struct s_dev *dev = calloc((size_t)p->nvolumes + 1, sizeof(*dev));
	int a, i, n = 0;

	for (a = 0; dev && a < p->nagents; a++) {
		const cJSON *t = bc_rj(r->agent_totals, p->agents[a].name);
		const cJSON *vols = bc_rj(t, "volumes"), *v, *pio = bc_rj(t, "proc_io");
		bool one = pio && s_one_device(vols, p->agents[a].name), counted = false;
		int local = 0;

		cJSON_ArrayForEach(v, vols)
		{
			int vi = s_volume_of(m, a, local++);
			const cJSON *d = cJSON_GetObjectItemCaseSensitive(v, "device");
			const struct bc_entity *e;
			struct s_dev *x;
			char key[192];
			int k;

			if (vi < 0 || !d)
				continue;
			e = &g->ent[BC_LVL_VOLUME][vi];
			if (!s_dev_key(d, p->agents[a].name, key, sizeof(key))) {
				cJSON *o = cJSON_CreateObject();

				cJSON_AddStringToObject(o, "volume", e->name);
				cJSON_AddBoolToObject(o, "measurable", false);
				cJSON_AddStringToObject(o, "why", bc_rj_str("?", d, "why"));
				cJSON_AddItemToArray(f->devices, o);
				s_warn(f,
				       "volume %s: whether the device moved the bytes cannot be "
				       "checked: %s",
				       e->name, bc_rj_str("?", d, "why"));
				continue;
			}
			x = s_dev_get(dev, &n, key);
			if (!x->nvols) {
				snprintf(x->device, sizeof(x->device), "%s",
					 bc_rj_str("?", d, "device"));
				snprintf(x->how, sizeof(x->how), "%s", bc_rj_str("", d, "how"));
				x->proc = true;
			}
			x->ar += (double)e->all.op[BC_OP_READ].bytes;
			x->aw += (double)e->all.op[BC_OP_WRITE].bytes;
			x->kr = fmax(x->kr, bc_rj_num(d, "read_bytes"));
			x->kw = fmax(x->kw, bc_rj_num(d, "write_bytes"));
			/* each process once: its bytes are all of its volumes' on this device */
			x->proc &= one;
			if (one && !counted) {
				x->pr += bc_rj_num(pio, "read_bytes");
				x->pw += bc_rj_num(pio, "write_bytes");
				counted = true;
			}
			if (cJSON_IsFalse(bc_rj(d, "direct")))
				x->buffered = true;
			else
				x->direct = true;
			x->loop_cached |= cJSON_IsTrue(bc_rj(d, "loop_cached"));
			k = x->nvols;
			if (k < 16)
				s_cat(x->vols, sizeof(x->vols), "%s%s", k ? ", " : "", e->name);
			else if (k == 16)
				s_cat(x->vols, sizeof(x->vols), ", ...");
			x->nvols++;
		}
	}
	for (i = 0; i < n; i++) {
		const struct s_dev *x = &dev[i];
		/*
		 * the device's count holds other processes' I/O too; the agents'
		 * own (where known) does not: the smaller of the two is what the
		 * device did for the step (a loop device's holes show only below it)
		 */
		double kr = x->proc ? fmin(x->kr, x->pr) : x->kr;
		double kw = x->proc ? fmin(x->kw, x->pw) : x->kw;
		double mr = x->ar > 0 ? fmin(1, kr / x->ar) : NAN;
		double mw = x->aw > 0 ? fmin(1, kw / x->aw) : NAN;
		bool fr = x->ar >= S_MIN_BYTES && mr < BC_FID_MOVED;
		bool fw = x->aw >= S_MIN_BYTES && mw < BC_FID_MOVED;
		cJSON *o = cJSON_CreateObject();
		char line[1024];

		cJSON_AddStringToObject(o, "device", x->device);
		cJSON_AddStringToObject(o, "how", x->how);
		cJSON_AddStringToObject(o, "volumes", x->vols);
		cJSON_AddNumberToObject(o, "nvolumes", x->nvols);
		cJSON_AddBoolToObject(o, "measurable", true);
		cJSON_AddStringToObject(o, "io",
					x->buffered && x->direct ? "mixed"
					: x->buffered		 ? "buffered"
								 : "direct");
		cJSON_AddNumberToObject(o, "agents_read_bytes", x->ar);
		cJSON_AddNumberToObject(o, "agents_write_bytes", x->aw);
		cJSON_AddNumberToObject(o, "device_read_bytes", x->kr);
		cJSON_AddNumberToObject(o, "device_write_bytes", x->kw);
		if (x->proc) {
			cJSON_AddNumberToObject(o, "agents_process_read_bytes", x->pr);
			cJSON_AddNumberToObject(o, "agents_process_write_bytes", x->pw);
		}
		if (!isnan(mr))
			cJSON_AddNumberToObject(o, "moved_read_pct", round(1000 * mr) / 10);
		if (!isnan(mw))
			cJSON_AddNumberToObject(o, "moved_write_pct", round(1000 * mw) / 10);
		/* what never reached the device: the page cache's share, when buffered */
		if (x->buffered && !isnan(mr))
			cJSON_AddNumberToObject(o, "page_cache_read_pct",
						round(1000 * (1 - mr)) / 10);
		if (x->buffered && !isnan(mw))
			cJSON_AddNumberToObject(o, "page_cache_write_pct",
						round(1000 * (1 - mw)) / 10);
		cJSON_AddBoolToObject(o, "pass", !fr && !fw);
		s_device_text(x, mr, mw, line, sizeof(line));
		cJSON_AddStringToObject(o, "text", line);
		cJSON_AddItemToArray(f->devices, o);
		if (!fr && !fw)
			continue;
		line[0] = 0;
		if (fr)
			s_cat(line, sizeof(line), "%s moved %.0f%% of the %.1f MiB read (%s)",
			      x->device, 100 * mr, x->ar / (1 << 20), s_cause(f, x, true));
		if (fw)
			s_cat(line, sizeof(line), "%s%s moved %.0f%% of the %.1f MiB written (%s)",
			      fr ? "; " : "", x->device, 100 * mw, x->aw / (1 << 20),
			      s_cause(f, x, false));
		cJSON_AddStringToObject(o, "why", line);
		if (!f->suspect)
			snprintf(f->suspect_why, sizeof(f->suspect_why),
				 "the figures did not measure the storage: ");
		else
			s_cat(f->suspect_why, sizeof(f->suspect_why), "; ");
		s_cat(f->suspect_why, sizeof(f->suspect_why), "%s", line);
		f->suspect = true;
	}
	free(dev);
}

/* the names of the top processes, the run's other agents' share taken from "bench-agent" */
static void s_top_text(const cJSON *top, double run_cores, char *buf, size_t len)
{
	const cJSON *t;
	int n = 0;

	buf[0] = 0;
	cJSON_ArrayForEach(t, top)
	{
		const char *comm = bc_rj_str("?", t, "comm");
		double cores = bc_rj_num(t, "cores");
		int procs = (int)bc_rj_num(t, "processes");

		if (!strcmp(comm, "bench-agent") && run_cores > 0) {
			double mine = fmin(cores, run_cores);

			cores -= mine;
			run_cores -= mine;
		}
		if (cores < 0.02 || n == 3)
			continue;
		s_cat(buf, len, "%s%s", n++ ? ", " : "", comm);
		if (procs > 1)
			s_cat(buf, len, " (%d processes)", procs);
		else
			s_cat(buf, len, " (pid %.0f)", bc_rj_num(t, "pid"));
		s_cat(buf, len, " %.2f cores", cores);
	}
}

static void s_hosts(struct bc_step_result *r, struct bc_fidelity *f)
{
	const struct bc_profile *p = r->agg.prof;
	bool *seen = calloc((size_t)p->nagents + 1, sizeof(bool));
	const cJSON **cs = calloc((size_t)p->nagents + 1, sizeof(*cs));
	int a, b;

	/* each agent's STEP_DONE "contention", looked up once (a thousand agents: a million) */
	for (a = 0; cs && a < p->nagents; a++)
		cs[a] = bc_rj(r->agent_totals, p->agents[a].name, "contention");
	for (a = 0; seen && cs && a < p->nagents; a++) {
		const cJSON *c = cs[a];
		const cJSON *during = bc_rj(c, "during"), *before = bc_rj(c, "before");
		const char *kern = bc_rj_str(NULL, c, "kernel");
		double busy = NAN, run_cpu = 0, others, pressure, running, ncpu, first_cpu = NAN;
		char agents[256] = "", top[400], why[1024];
		cJSON *h, *mean;
		bool hot, cont;
		int nag = 0;

		if (seen[a] || !during)
			continue;
		/* the run's agents on this host (one kernel), their CPU and the host's */
		for (b = a; b < p->nagents; b++) {
			const char *kb = bc_rj_str(NULL, cs[b], "kernel");
			double ac;

			if (b != a && (!kern || !kb || strcmp(kern, kb)))
				continue;
			seen[b] = true;
			mean = bc_hostsamples_window_mean(
			    r->hosts, bc_hostsamples_agent(r->hosts, p->agents[b].name));
			busy = fmax(isnan(busy) ? -1 : busy, s_num(mean, "cpu_busy_pct") / 100);
			ac = s_num(mean, "agent_cpu_pct") / 100;
			if (b == a)
				first_cpu = ac;
			if (!isnan(ac))
				run_cpu += ac;
			cJSON_Delete(mean);
			s_cat(agents, sizeof(agents), "%s%s", nag++ ? ", " : "", p->agents[b].name);
		}
		if (busy < 0)
			busy = NAN;
		/*
		 * the host's busy time less the run's agents (/proc/stat: exact, a
		 * compiler's short-lived processes included); without host samples,
		 * the processes the first agent saw, less the run's other agents
		 */
		if (!isnan(busy) && !isnan(first_cpu)) {
			others = fmax(0, busy - run_cpu);
		} else {
			others = s_num(during, "others_cpu_pct") / 100;
			if (!isnan(first_cpu))
				others = fmax(0, others - (run_cpu - first_cpu));
		}
		pressure = s_num(during, "cpu_pressure_pct") / 100;
		running = s_num(during, "procs_running_mean");
		ncpu = s_num(during, "ncpu");
		hot = busy >= BC_ANA_CPU_U || pressure >= BC_ANA_CPU_PRESSURE ||
		      (running > ncpu && ncpu > 0);
		cont = hot && others >= BC_FID_OTHERS;
		s_top_text(bc_rj(during, "top"),
			   isnan(first_cpu) ? 0 : (run_cpu - first_cpu) * (isnan(ncpu) ? 1 : ncpu),
			   top, sizeof(top));
		h = cJSON_CreateObject();
		cJSON_AddStringToObject(h, "agents", agents);
		if (kern)
			cJSON_AddStringToObject(h, "kernel", kern);
		if (!isnan(busy))
			cJSON_AddNumberToObject(h, "cpu_busy_pct", round(1000 * busy) / 10);
		if (!isnan(run_cpu))
			cJSON_AddNumberToObject(h, "run_agents_cpu_pct",
						round(1000 * run_cpu) / 10);
		if (!isnan(others))
			cJSON_AddNumberToObject(h, "others_cpu_pct", round(1000 * others) / 10);
		if (!isnan(pressure))
			cJSON_AddNumberToObject(h, "cpu_pressure_pct", round(1000 * pressure) / 10);
		if (!isnan(running))
			cJSON_AddNumberToObject(h, "procs_running_mean", running);
		if (!isnan(ncpu))
			cJSON_AddNumberToObject(h, "ncpu", ncpu);
		cJSON_AddStringToObject(h, "top", top);
		cJSON_AddItemToObject(h, "top_processes", cJSON_Duplicate(bc_rj(during, "top"), 1));
		if (before)
			cJSON_AddItemToObject(h, "before", cJSON_Duplicate(before, 1));
		cJSON_AddBoolToObject(h, "busy", hot);
		cJSON_AddBoolToObject(h, "contended", cont);
		snprintf(
		    why, sizeof(why),
		    "Client host of %s: CPU %.0f%% busy, the run's agents %.0f%%, other processes "
		    "%.0f%%",
		    agents, 100 * busy, 100 * run_cpu, 100 * others);
		if (!isnan(pressure))
			s_cat(why, sizeof(why), ", tasks waited for a CPU %.0f%% of the time",
			      100 * pressure);
		if (top[0])
			s_cat(why, sizeof(why), "; top processes: %s", top);
		cJSON_AddStringToObject(h, "text", why);
		cJSON_AddItemToArray(f->hosts, h);
		if (!cont)
			continue;
		snprintf(why, sizeof(why), "client host of agent(s) %s: ", agents);
		if (!isnan(busy))
			s_cat(why, sizeof(why), "CPU %.0f%% busy", 100 * busy);
		if (!isnan(pressure))
			s_cat(why, sizeof(why), ", tasks waited for a CPU %.0f%% of the time",
			      100 * pressure);
		if (!isnan(running) && !isnan(ncpu))
			s_cat(why, sizeof(why), ", %.1f runnable on %.0f cores", running, ncpu);
		s_cat(why, sizeof(why), "; processes outside the run held %.0f%% of it%s%s",
		      100 * others, top[0] ? ": " : "", top);
		if (s_num(before, "others_cpu_pct") / 100 >= BC_FID_OTHERS)
			s_cat(why, sizeof(why), " (%.0f%% before the step too)",
			      s_num(before, "others_cpu_pct"));
		if (f->contended)
			s_cat(f->contended_why, sizeof(f->contended_why), "; ");
		s_cat(f->contended_why, sizeof(f->contended_why), "%s", why);
		f->contended = true;
	}
	free(seen);
	free(cs);
}

int bc_fidelity_backing_text(const char *vol, const cJSON *b, char *buf, size_t len)
{
	const char *kind = bc_rj_str("?", b, "kind"), *prep = bc_rj_str(NULL, b, "prepare");
	double pct = s_num(b, "unbacked_pct");

	buf[0] = 0;
	if (prep && !bc_rj(b, "checked")) {
		snprintf(
		    buf, len, "volume %s: PREPARE will %s it%s", vol, prep,
		    cJSON_IsTrue(bc_rj(b, "layout_off"))
			? "; \"layout\": false leaves it unwritten, so reads of it measure the "
			  "filesystem, not the device"
			: " and write it out before the first step that reads it");
		return cJSON_IsTrue(bc_rj(b, "layout_off"));
	}
	if (!strcmp(kind, "file") && cJSON_IsNull(bc_rj(b, "checked"))) {
		snprintf(buf, len, "volume %s: what backs its read window cannot be checked: %s",
			 vol, bc_rj_str("?", b, "detail"));
		return 1;
	}
	if (!strcmp(kind, "file") && pct / 100 >= BC_FID_UNBACKED) {
		const char *why =
		    cJSON_IsTrue(bc_rj(b, "layout_off"))
			? "\"layout\": false in the profile keeps the agent from "
			  "writing it out"
		    : prep ? "PREPARE lays out only the part it adds; write the rest (a "
			     "sequential write step) or remove the file"
		    : !cJSON_IsTrue(bc_rj(b, "made_this_run"))
			? "the file existed before this run: write it (a sequential "
			  "write step) or remove it so the agent creates and lays it out"
			: "written out once in this run; trims since, or an "
			  "interrupted layout, left it so";

		snprintf(buf, len,
			 "volume %s: %.1f%% of its read window (%.1f MiB) is not backed by written "
			 "data (%s: %.1f MiB unwritten extents, %.1f MiB holes): the filesystem "
			 "answers those reads with zeroes and no device I/O; %s",
			 vol, pct, s_num(b, "window_bytes") / (1 << 20),
			 bc_rj_str("?", b, "checked"), s_num(b, "unwritten_bytes") / (1 << 20),
			 s_num(b, "hole_bytes") / (1 << 20), why);
		return 1;
	}
	if (!strcmp(kind, "block") && !cJSON_IsTrue(bc_rj(b, "written_this_run")) &&
	    cJSON_IsTrue(bc_rj(b, "dealloc"))) {
		if (!isnan(pct))
			snprintf(
			    buf, len,
			    "volume %s: its read window was not written in this run nor by a "
			    "precondition, and %.1f%% of it is not backed by written data (%s): "
			    "those reads return zeroes without device I/O",
			    vol, pct, bc_rj_str("?", b, "detail"));
		else
			snprintf(
			    buf, len,
			    "volume %s: its read window was not written in this run nor by a "
			    "precondition, and the device reports deallocated blocks (%s): a "
			    "block never written or trimmed may be answered without media access "
			    "(a read of zeroes is not proof either way)",
			    vol, bc_rj_str("?", b, "detail"));
		return 1;
	}
	if (prep)
		snprintf(buf, len, "volume %s: PREPARE will extend it and write out the new part",
			 vol);
	return 0;
}

/* a READY volume's "backing": a named warning when its read window is not all data */
static void s_backing_one(struct bc_fidelity *f, const char *vol, const cJSON *b)
{
	cJSON *o = cJSON_Duplicate(b, 1);
	char text[1024];
	int warned = bc_fidelity_backing_text(vol, b, text, sizeof(text));

	cJSON_AddStringToObject(o, "volume", vol);
	if (warned)
		cJSON_AddItemToArray(f->warnings, cJSON_CreateString(text));
	cJSON_AddBoolToObject(o, "warned", warned);
	cJSON_AddItemToArray(f->backing, o);
}

static void s_ready(struct bc_step_result *r, const struct s_vmap *m, struct bc_fidelity *f)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_profile *p = g->prof;
	int a;

	for (a = 0; a < p->nagents; a++) {
		const cJSON *rd = cJSON_GetObjectItemCaseSensitive(r->ready, p->agents[a].name), *v;
		double secs = 0;
		int local = 0;

		cJSON_ArrayForEach(v, bc_rj(rd, "volumes"))
		{
			int vi = s_volume_of(m, a, local++);

			if (vi >= 0 && bc_rj(v, "backing"))
				s_backing_one(f, g->ent[BC_LVL_VOLUME][vi].name,
					      bc_rj(v, "backing"));
		}
		cJSON_ArrayForEach(v, bc_rj(rd, "layout"))
		{
			int vi = s_volume_of(m, a, (int)bc_rj_num(v, "volume"));
			cJSON *o = cJSON_Duplicate(v, 1);
			double s = bc_rj_num(v, "seconds");

			char text[512];

			cJSON_AddStringToObject(o, "agent", p->agents[a].name);
			if (vi >= 0)
				cJSON_AddStringToObject(o, "name", g->ent[BC_LVL_VOLUME][vi].name);
			if (s > 0)
				cJSON_AddNumberToObject(
				    o, "mb_per_s", round(bc_rj_num(v, "bytes") / s / 1e5) / 10);
			snprintf(text, sizeof(text),
				 "Layout before the step (not in its figures): %s %.1f MiB in %.2f "
				 "s (%.0f "
				 "MB/s, %s, %.0f KiB blocks, %.0f in flight)",
				 vi >= 0 ? g->ent[BC_LVL_VOLUME][vi].name
					 : bc_rj_str("?", v, "path"),
				 bc_rj_num(v, "bytes") / (1 << 20), s,
				 s > 0 ? bc_rj_num(v, "bytes") / s / 1e6 : 0,
				 cJSON_IsTrue(bc_rj(v, "direct")) ? "direct" : "buffered",
				 bc_rj_num(v, "block_bytes") / 1024, bc_rj_num(v, "iodepth"));
			cJSON_AddStringToObject(o, "text", text);
			cJSON_AddItemToArray(f->layout, o);
			secs += s;
		}
		f->layout_s = fmax(f->layout_s, secs);
	}
	/* the profile kept files from being laid out: said whether or not they were read */
	for (a = 0; a < p->nvolumes; a++)
		if (!p->volumes[a].layout && !p->volumes[a].sim.enabled &&
		    strcmp(p->volumes[a].path, "null"))
			s_warn(
			    f,
			    "volume %s: \"layout\": false in the profile: a file the agent creates "
			    "or extends is read as it is, unwritten",
			    g->ent[BC_LVL_VOLUME][a].name);
}

/*
 * The same bytes in other requests: the block layer merges adjacent I/Os
 * submitted together (io_uring plugs a batch of 3 or more) and splits an
 * I/O above the device's max_sectors_kb, so the device may see requests of
 * another size than the workload's bs. Beyond BC_FID_RESHAPED either way,
 * a named warning gives both sizes; the requests per I/O go into the
 * accounting entry whenever the agents did enough I/Os to tell.
 */
static void s_reshaped(struct bc_fidelity *f, cJSON *o, const struct s_dev *x, const char *dir,
		       double ios, double bytes, double reqs)
{
	char key[48];
	double per;

	if (ios < BC_FID_RESHAPED_MIN || reqs <= 0)
		return;
	per = reqs / ios;
	snprintf(key, sizeof(key), "%s_requests_per_io", dir);
	cJSON_AddNumberToObject(o, key, round(per * 1000) / 1000);
	if (fabs(per - 1) <= BC_FID_RESHAPED)
		return;
	s_warn(f,
	       "device %s (%s): the block layer %s the step's %ss: %.0f I/Os of %.1f KiB on "
	       "average reached the device as %.0f requests of %.1f KiB (%.2f requests per "
	       "I/O): the device saw %s requests than the workload's block size",
	       x->device, x->vols, per < 1 ? "merged" : "split", dir, ios, bytes / ios / 1024, reqs,
	       bytes / reqs / 1024, per, per < 1 ? "larger" : "smaller");
}

/*
 * The accounting cross-check: a block-device volume's own device (the loop
 * device, the partition: STEP_DONE "diskstats") counted what the agents say
 * they asked of it, within BC_FID_MATCH, summed over the volumes and agents
 * of one kernel on it (checks.c words it)
 */
static void s_accounting(struct bc_step_result *r, const struct s_vmap *m, struct bc_fidelity *f)
{
	const struct bc_agg *g = &r->agg;
	const struct bc_profile *p = g->prof;
	struct s_dev *dev = calloc((size_t)p->nvolumes + 1, sizeof(*dev));
	int a, i, n = 0;

	for (a = 0; dev && a < p->nagents; a++) {
		const cJSON *v;
		int local = 0;

		cJSON_ArrayForEach(v, bc_rj(r->agent_totals, p->agents[a].name, "volumes"))
		{
			int vi = s_volume_of(m, a, local++);
			const cJSON *d = bc_rj(v, "diskstats");
			struct s_dev *x;
			char key[192];

			if (vi < 0 || !bc_rj(d, "device"))
				continue;
			snprintf(key, sizeof(key), "%s/%s",
				 bc_rj_str(p->agents[a].name, d, "kernel"),
				 bc_rj_str("?", d, "device"));
			x = s_dev_get(dev, &n, key);
			snprintf(x->device, sizeof(x->device), "%s", bc_rj_str("?", d, "device"));
			x->ar += (double)g->ent[BC_LVL_VOLUME][vi].all.op[BC_OP_READ].bytes;
			x->aw += (double)g->ent[BC_LVL_VOLUME][vi].all.op[BC_OP_WRITE].bytes;
			x->kr = fmax(x->kr, bc_rj_num(d, "read_bytes"));
			x->kw = fmax(x->kw, bc_rj_num(d, "write_bytes"));
			x->air += (double)g->ent[BC_LVL_VOLUME][vi].all.op[BC_OP_READ].ios;
			x->aiw += (double)g->ent[BC_LVL_VOLUME][vi].all.op[BC_OP_WRITE].ios;
			x->kir = fmax(x->kir, bc_rj_num(d, "read_ios"));
			x->kiw = fmax(x->kiw, bc_rj_num(d, "write_ios"));
			s_cat(x->vols, sizeof(x->vols), "%s%s", x->nvols++ ? ", " : "",
			      g->ent[BC_LVL_VOLUME][vi].name);
		}
	}
	for (i = 0; i < n; i++) {
		const struct s_dev *x = &dev[i];
		double er = x->kr > 0 ? fabs(x->ar - x->kr) / x->kr : (x->ar > 0 ? 1 : 0);
		double ew = x->kw > 0 ? fabs(x->aw - x->kw) / x->kw : (x->aw > 0 ? 1 : 0);
		bool ok = er <= BC_FID_MATCH && ew <= BC_FID_MATCH;
		bool over =
		    x->ar > x->kr * (1 + BC_FID_MATCH) || x->aw > x->kw * (1 + BC_FID_MATCH);
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "device", x->device);
		cJSON_AddStringToObject(o, "volumes", x->vols);
		cJSON_AddNumberToObject(o, "nvolumes", x->nvols);
		cJSON_AddNumberToObject(o, "agents_read_bytes", x->ar);
		cJSON_AddNumberToObject(o, "agents_write_bytes", x->aw);
		cJSON_AddNumberToObject(o, "kernel_read_bytes", x->kr);
		cJSON_AddNumberToObject(o, "kernel_write_bytes", x->kw);
		cJSON_AddNumberToObject(o, "read_apart_pct", 100 * er);
		cJSON_AddNumberToObject(o, "write_apart_pct", 100 * ew);
		cJSON_AddStringToObject(o, "outcome",
					ok     ? "match"
					: over ? "agents count more than the device did"
					       : "device shared with I/O outside this run");
		if (ok || over)
			cJSON_AddBoolToObject(o, "pass", ok);
		else
			cJSON_AddNullToObject(o, "pass");
		/* the bytes are the step's alone: its requests can be compared with its I/Os */
		if (ok) {
			s_reshaped(f, o, x, "read", x->air, x->ar, x->kir);
			s_reshaped(f, o, x, "write", x->aiw, x->aw, x->kiw);
		}
		cJSON_AddItemToArray(f->accounting, o);
	}
	free(dev);
}

struct bc_fidelity *bc_result_fidelity(struct bc_step_result *r)
{
	static struct bc_fidelity empty;
	struct s_vmap m = {NULL, NULL};
	struct bc_fidelity *f;

	if (r->fid)
		return r->fid;
	f = calloc(1, sizeof(*f));
	if (!f)
		return &empty;
	f->devices = cJSON_CreateArray();
	f->accounting = cJSON_CreateArray();
	f->hosts = cJSON_CreateArray();
	f->warnings = cJSON_CreateArray();
	f->backing = cJSON_CreateArray();
	f->layout = cJSON_CreateArray();
	r->fid = f;
	r->fid_free = bc_fidelity_free;
	/* a step that never started has nothing measured to doubt */
	if (!r->start_ns || !r->step)
		return f;
	if (s_vmap_init(r->agg.prof, &m))
		goto out;
	s_ready(r, &m, f);
	s_accounting(r, &m, f);
	s_devices(r, &m, f);
	s_hosts(r, f);
out:
	free(m.start);
	free(m.vol);
	return f;
}

const char *bc_fidelity_status(struct bc_step_result *r)
{
	const char *st = bc_result_ok_status(r);

	/* the figures are the page cache's, the filesystem's, not the devices' */
	return !strcmp(st, "ok") && bc_result_fidelity(r)->suspect ? "suspect" : st;
}

void bc_fidelity_free(struct bc_fidelity *f)
{
	if (!f)
		return;
	cJSON_Delete(f->devices);
	cJSON_Delete(f->accounting);
	cJSON_Delete(f->hosts);
	cJSON_Delete(f->warnings);
	cJSON_Delete(f->backing);
	cJSON_Delete(f->layout);
	free(f);
}

void bc_fidelity_verdict(const struct bc_fidelity *f, cJSON *ana)
{
	const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ana, "verdict"));
	char text[4096] = "";
	cJSON *ev;

	if (!ana || !v || (!f->suspect && !f->contended))
		return;
	if (f->suspect)
		s_cat(text, sizeof(text), "%s. ", f->suspect_why);
	if (f->contended)
		s_cat(text, sizeof(text),
		      "Contended run: the figures are the client host's, not the storage's: %s. ",
		      f->contended_why);
	s_cat(text, sizeof(text), "Otherwise: %s", v);
	cJSON_ReplaceItemInObject(ana, "verdict", cJSON_CreateString(text));
	cJSON_AddBoolToObject(ana, "suspect", f->suspect);
	cJSON_AddBoolToObject(ana, "contended", f->contended);
	ev = cJSON_GetObjectItemCaseSensitive(ana, "evidence");
	if (cJSON_IsArray(ev)) {
		if (f->contended)
			cJSON_InsertItemInArray(ev, 0, cJSON_CreateString(f->contended_why));
		if (f->suspect)
			cJSON_InsertItemInArray(ev, 0, cJSON_CreateString(f->suspect_why));
	}
}

void bc_fidelity_json(const struct bc_fidelity *f, cJSON *st)
{
	cJSON *c;

	if (f->suspect)
		cJSON_AddStringToObject(st, "suspect_reason", f->suspect_why);
	cJSON_AddBoolToObject(st, "contended", f->contended);
	c = cJSON_AddObjectToObject(st, "contention");
	if (f->contended)
		cJSON_AddStringToObject(c, "why", f->contended_why);
	cJSON_AddItemToObject(c, "hosts", cJSON_Duplicate(f->hosts, 1));
	cJSON_AddItemToObject(st, "device_check", cJSON_Duplicate(f->devices, 1));
	cJSON_AddItemToObject(st, "backing", cJSON_Duplicate(f->backing, 1));
	cJSON_AddItemToObject(st, "layout", cJSON_Duplicate(f->layout, 1));
	cJSON_AddNumberToObject(st, "layout_seconds", round(f->layout_s * 1000) / 1000);
	cJSON_AddItemToObject(st, "warnings", cJSON_Duplicate(f->warnings, 1));
}
