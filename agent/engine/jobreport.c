/*
 * engine/jobreport.c - the job threads' part of READY and STEP_DONE (see
 * engine/jobreport.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "engine/jobreport.h"
#include "engine/kvgen.h"
#include "profile/workload/kv.h"
#include "util/clock.h"

void bc_process_cpu(uint64_t *user_ns, uint64_t *sys_ns)
{
	struct rusage ru;

	*user_ns = *sys_ns = 0;
	if (getrusage(RUSAGE_SELF, &ru))
		return;
	*user_ns =
	    (uint64_t)ru.ru_utime.tv_sec * BC_NS_PER_S + (uint64_t)ru.ru_utime.tv_usec * 1000;
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * BC_NS_PER_S + (uint64_t)ru.ru_stime.tv_usec * 1000;
}

void bc_jobreport_setup(cJSON *r, struct bc_job **jobs, int njobs)
{
	cJSON *arr = cJSON_AddArrayToObject(r, "job_setup");
	struct bc_job_info ji;
	int i;

	for (i = 0; arr && i < njobs; i++) {
		cJSON *o = cJSON_CreateObject();

		bc_job_get_info(jobs[i], &ji);
		cJSON_AddStringToObject(o, "cpus", ji.cpus);
		cJSON_AddStringToObject(o, "ring", ji.ring_setup);
		cJSON_AddNumberToObject(o, "ring_entries", ji.ring_entries);
		cJSON_AddNumberToObject(o, "ios", ji.ios);
		cJSON_AddBoolToObject(o, "fixed_buffers", ji.fixed_buffers);
		cJSON_AddBoolToObject(o, "fixed_files", ji.fixed_files);
		cJSON_AddStringToObject(o, "submit", ji.submit);
		cJSON_AddStringToObject(o, "submit_why", ji.submit_why);
		if (ji.probe_ns) {
			cJSON *pr = cJSON_AddObjectToObject(o, "submit_probe_iops");

			cJSON_AddNumberToObject(
			    pr, "batch", (double)ji.probe_ios[0] * 1e9 / (double)ji.probe_ns);
			cJSON_AddNumberToObject(
			    pr, "pairs", (double)ji.probe_ios[1] * 1e9 / (double)ji.probe_ns);
		}
		cJSON_AddNumberToObject(o, "submit_calls", (double)ji.submit_calls);
		cJSON_AddItemToArray(arr, o);
	}
}

/*
 * the volume's metadata operations by kind ("meta"): ops, errors, latency,
 * entries passed over and whether the kind ran out of entries; the class's
 * histogram is in the volume's "meta" op of the per-second statistics
 */
static void s_meta_json(cJSON *v, struct bc_job **jobs, int njobs, int t)
{
	struct bc_job_meta m;
	cJSON *o = NULL;
	int i, k;

	memset(&m, 0, sizeof(m));
	for (k = 0; k < BC_META_NR; k++)
		bc_opcnt_reset(&m.kind[k]);
	for (i = 0; i < njobs; i++)
		bc_job_meta(jobs[i], t, &m);
	for (k = 1; k < BC_META_NR; k++) {
		const struct bc_opcnt *c = &m.kind[k];
		cJSON *x;

		if (!m.used[k])
			continue;
		if (!o)
			o = cJSON_AddObjectToObject(v, "meta_ops");
		x = cJSON_AddObjectToObject(o, bc_meta_names[k]);
		cJSON_AddNumberToObject(x, "ios", (double)c->ios);
		cJSON_AddNumberToObject(x, "errors", (double)c->errors);
		cJSON_AddNumberToObject(x, "lat_sum_ns", (double)c->lat_sum_ns);
		cJSON_AddNumberToObject(x, "lat_min_ns", c->ios ? (double)c->lat_min_ns : 0);
		cJSON_AddNumberToObject(x, "lat_max_ns", (double)c->lat_max_ns);
		if (c->first_errno)
			cJSON_AddNumberToObject(x, "first_errno", c->first_errno);
		cJSON_AddNumberToObject(x, "passed_over", (double)m.passed[k]);
		cJSON_AddBoolToObject(x, "ran_out", m.done[k]);
	}
}

/* the volume's KV-cache store: its classes over the jobs (engine/kvgen.h) */
static void s_kv_json(cJSON *v, struct bc_job **jobs, int njobs, int t,
		      const struct bc_workload *wl)
{
	const struct bc_kvgen **g = calloc((size_t)(njobs ? njobs : 1), sizeof(*g));
	cJSON *o;
	int i;

	if (!g)
		return;
	for (i = 0; i < njobs; i++)
		g[i] = bc_job_kv(jobs[i], t);
	o = bc_kv_report_json(wl, g, njobs);
	if (o)
		cJSON_AddItemToObject(v, "kv", o);
	free(g);
}

static int s_by_offset(const void *a, const void *b)
{
	const struct bc_job_bad *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

void bc_jobreport_done(cJSON *r, cJSON *vols, struct bc_job **jobs, int njobs,
		       const struct bc_volstat *totals, const struct bc_workload *vwl,
		       uint64_t user0_ns, uint64_t sys0_ns)
{
	struct bc_job_bad *bad =
	    calloc((size_t)(njobs ? njobs : 1) * BC_JOB_VERIFY_REPORT, sizeof(*bad));
	cJSON *cpu, *v, *first;
	uint64_t u, s, ju = 0, js = 0;
	struct bc_job_info ji;
	int i, t = 0, n;

	/* run.json keeps STEP_DONE: the ring each job ran with stays beside its figures */
	bc_jobreport_setup(r, jobs, njobs);
	cpu = cJSON_AddObjectToObject(r, "cpu");
	bc_process_cpu(&u, &s);
	for (i = 0; i < njobs; i++) {
		bc_job_get_info(jobs[i], &ji);
		ju += ji.cpu_user_ns;
		js += ji.cpu_sys_ns;
	}
	cJSON_AddNumberToObject(cpu, "process_user_ns", (double)(u - user0_ns));
	cJSON_AddNumberToObject(cpu, "process_sys_ns", (double)(s - sys0_ns));
	cJSON_AddNumberToObject(cpu, "jobs_user_ns", (double)ju);
	cJSON_AddNumberToObject(cpu, "jobs_sys_ns", (double)js);
	cJSON_ArrayForEach(v, vols)
	{
		struct bc_opcnt sy;

		/* the volume's fsyncs and fdatasyncs ("fsync", "end_fsync"): beside its ops */
		bc_opcnt_reset(&sy);
		for (i = 0; i < njobs; i++)
			bc_job_syncs(jobs[i], t, &sy);
		if (sy.ios || sy.errors) {
			cJSON *o = cJSON_AddObjectToObject(v, "sync");

			cJSON_AddNumberToObject(o, "ios", (double)sy.ios);
			cJSON_AddNumberToObject(o, "errors", (double)sy.errors);
			cJSON_AddNumberToObject(o, "lat_sum_ns", (double)sy.lat_sum_ns);
			cJSON_AddNumberToObject(o, "lat_max_ns", (double)sy.lat_max_ns);
			if (sy.first_errno)
				cJSON_AddNumberToObject(o, "first_errno", sy.first_errno);
		}
		s_meta_json(v, jobs, njobs, t);
		if (bc_workload_kv(&vwl[t]))
			s_kv_json(v, jobs, njobs, t, &vwl[t]);
		if (!vwl[t].verify) {
			t++;
			continue;
		}
		cJSON_AddNumberToObject(v, "verify_errors", (double)totals[t].verify_errors);
		n = 0;
		for (i = 0; bad && i < njobs; i++)
			n += bc_job_verify_bad(jobs[i], t, bad + n, BC_JOB_VERIFY_REPORT);
		if (bad)
			qsort(bad, (size_t)n, sizeof(*bad), s_by_offset);
		first = cJSON_AddArrayToObject(v, "verify_first");
		for (i = 0; i < n && i < BC_JOB_VERIFY_REPORT; i++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddNumberToObject(o, "offset", (double)bad[i].off);
			cJSON_AddStringToObject(o, "reason", bc_verify_why_name(bad[i].why));
			cJSON_AddItemToArray(first, o);
		}
		t++;
	}
	free(bad);
}
