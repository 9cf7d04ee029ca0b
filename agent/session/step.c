/*
 * session/step.c - one step's life on the agent: PREPARE opens the volumes and
 * builds the job threads, START arms them at an absolute time, then every
 * sealed interval is merged across jobs and sent as one STATS record,
 * followed by the drain record and STEP_DONE with the step's totals.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/affinity.h"
#include "engine/jobreport.h"
#include "engine/kvgen.h"
#include "host/netpath.h"
#include "nvme/format.h"
#include "nvme/ident.h"
#include "nvme/tcp.h"
#include "nvme/temp.h"
#include "profile/format.h"
#include "profile/value/units.h"
#include "profile/workload/kv.h"
#include "safety/allowlist.h"
#include "safety/safety.h"
#include "session/backed.h"
#include "session/orphan.h"
#include "session/step.h"
#include "session/volume.h"
#include "target/devcounters.h"
#include "target/target.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/log.h"
#include "wire/proto.h"

struct bc_agent_faults bc_agent_faults;

static int s_json_u64(const cJSON *o, const char *key, uint64_t *v)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!it) {
		*v = 0;
		return 0;
	}
	if (!cJSON_IsNumber(it) || it->valuedouble < 0)
		return -EINVAL;
	*v = bc_json_u64_of(it);
	return 0;
}

static int s_mkdirs(const char *dir)
{
	char buf[BC_PATH_MAX];
	char *p;

	snprintf(buf, sizeof(buf), "%s", dir);
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * How long a step's I/O may take to drain at teardown before the NVMe/TCP
 * controllers this agent connected are deleted under it. A target that
 * stopped answering keeps the I/O in the kernel until the controller
 * reconnects - up to ctrl_loss_tmo, 600 s by default - and the job threads
 * cannot be joined before; deleting the controller fails what is queued at
 * once and what is on the wire at nvme_core's io_timeout (30 s) at the
 * latest. A target that answers completes a step's I/O in milliseconds,
 * under QEMU TCG in tens of them: 2 s is only ever reached by a stall.
 */
#define S_TEARDOWN_DRAIN_MS 2000

/* every job thread has drained and ended: true, or false after timeout_ms */
static bool s_jobs_drained(const struct bc_step_run *s, unsigned timeout_ms)
{
	struct timespec nap = {0, 10 * 1000 * 1000};
	unsigned waited = 0;
	int i;

	for (;;) {
		for (i = 0; i < s->njobs && (!s->jobs[i] || bc_job_finished(s->jobs[i])); i++)
			;
		if (i == s->njobs)
			return true;
		if (waited >= timeout_ms)
			return false;
		nanosleep(&nap, NULL);
		waited += 10;
	}
}

/* this agent connected a controller under one of the step's volumes */
static bool s_owns_tcp(const struct bc_step_run *s)
{
	int i;

	for (i = 0; s->tcp && i < s->ntargets; i++)
		if (s->tcp[i].instance >= 0 && s->tcp[i].owned)
			return true;
	return false;
}

void bc_step_teardown(struct bc_agent *a)
{
	struct bc_step_run *s = &a->step;
	int i;

	for (i = 0; i < s->njobs; i++)
		if (s->jobs[i])
			bc_job_cancel(s->jobs[i]);
	if (s_owns_tcp(s) && !s_jobs_drained(s, S_TEARDOWN_DRAIN_MS)) {
		bc_warn("step %u: I/O did not drain within %d ms of the stop: disconnecting the "
			"NVMe/TCP controllers this agent connected, which fails it",
			s->step, S_TEARDOWN_DRAIN_MS);
		bc_nvme_tcp_detach_all("", s->tcp, s->ntargets);
	}
	for (i = 0; i < s->njobs; i++)
		bc_job_destroy(&s->jobs[i]);
	for (i = 0; i < s->ntargets; i++)
		bc_target_close(&s->targets[i]);
	/*
	 * NVMe/TCP controllers this agent connected go once nothing holds
	 * their namespaces (unless a stall took them above already): every
	 * end of a step comes here (STEP_DONE, ABORT, a failed PREPARE, BYE,
	 * coordinator silence, SIGINT/SIGTERM).
	 */
	if (s->tcp)
		bc_nvme_tcp_detach_all("", s->tcp, s->ntargets);
	free(s->tcp);
	bc_temp_sampler_stop(&s->temp);
	free(s->jobs);
	free(s->targets);
	free(s->collected);
	free(s->vwl);
	free(s->rtargets);
	free(s->rvwl);
	free(s->rvol);
	s->rtargets = NULL;
	s->rvwl = NULL;
	s->rvol = NULL;
	s->nruns = 0;
	free(s->acc);
	free(s->totals);
	free(s->ds_start);
	free(s->rdev);
	free(s->nvme0);
	bc_hoststat_destroy(&s->host);
	cJSON_Delete(s->net_path);
	cJSON_Delete(s->formats);
	/* a layout still writing is cancelled (ABORT, BYE, silence): its file is left as is */
	bc_layout_stop(&s->layout);
	for (i = 0; s->lvols && i < s->nlvols; i++)
		bc_layout_vol_free(&s->lvols[i]);
	free(s->lvols);
	free(s->layout_off);
	cJSON_Delete(s->node_addresses);
	free(s->under);
	free(s->under0);
	bc_proctop_destroy(&s->top);
	cJSON_Delete(s->top_before);
	memset(s, 0, sizeof(*s));
}

static void s_send_prepare_error(struct bc_agent *a, int vol, const char *path, const char *msg)
{
	cJSON *b = cJSON_CreateObject();

	cJSON_AddStringToObject(b, "code", "prepare");
	cJSON_AddStringToObject(b, "message", msg);
	if (vol >= 0) {
		cJSON_AddNumberToObject(b, "volume", vol);
		cJSON_AddStringToObject(b, "path", path);
	}
	bc_msg_send_json(a->sock, a->owner, BC_MSG_ERROR, b);
	cJSON_Delete(b);
	bc_warn("prepare failed: %s", msg);
}

/*
 * Volume i's "nvme_tcp": connect (or reuse the controller that is there),
 * find the namespace, and put its device into path. What was connected is
 * recorded in *att at once, so a failure further on still detaches it.
 */
static int s_attach_nvme_tcp(struct bc_nvme_tcp_att *att, int i, const cJSON *v, const char *label,
			     char *path, size_t len, char *err, size_t errlen)
{
	struct bc_nvme_tcp_vol tv;
	char base[32], why[768];
	int rc;

	snprintf(base, sizeof(base), "volumes[%d]", i);
	rc = bc_nvme_tcp_vol_from_json(cJSON_GetObjectItemCaseSensitive(v, "nvme_tcp"), base, &tv,
				       err, errlen);
	if (rc)
		return rc;
	/* the live system: "" (tests drive bc_nvme_tcp_attach on fixture roots) */
	rc = bc_nvme_tcp_attach("", &tv, BC_NVME_TCP_SCAN_MS, att, why, sizeof(why));
	if (rc) {
		snprintf(err, errlen, "volumes[%d] (%s): %s", i, label, why);
		return rc;
	}
	snprintf(path, len, "%s", att->dev);
	bc_info("volumes[%d] (%s): %s on %s controller nvme%d (%s:%s%s)", i, label, path,
		att->owned ? "newly connected" : "existing", att->instance, att->traddr,
		att->trsvcid, att->discovered ? ", discovered" : "");
	return 0;
}

/* where one volume of a PREPARE or CHECK goes: the step's slots, or a check's locals */
struct s_vol_out {
	struct bc_target *target;    /* opened (PREPARE), or NULL (CHECK: nothing opened) */
	struct bc_workload *vwl;     /* the volume's workload */
	struct bc_nvme_tcp_att *tcp; /* attachment (PREPARE), or NULL (CHECK: not attached) */
	char path[BC_PATH_MAX];	     /* resolved */
};

/*
 * A volume's "workloads" (several at once, profile/volume_wl.h): each valid, one
 * O_DIRECT setting for the one open file, and when any of them writes the
 * volume is gated and opened as written to (the first workload stands for
 * them all there).
 */
static int s_runs_gate(const cJSON *v, struct bc_workload *first, char *err, size_t errlen)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(v, "workloads"), *r;
	struct bc_workload w;
	bool writes = false;
	int rc, n = 0;

	if (!runs)
		return 0;
	if (!cJSON_IsArray(runs)) {
		snprintf(err, errlen, "\"workloads\": expected an array");
		return -EINVAL;
	}
	cJSON_ArrayForEach(r, runs)
	{
		rc = bc_workload_from_json(r, &w, err, errlen);
		if (rc)
			return rc;
		if (n++ == 0)
			*first = w;
		if (w.direct != first->direct) {
			snprintf(err, errlen,
				 "\"workloads\": one volume is opened once: every "
				 "workload on it needs the same \"direct\"");
			return -EINVAL;
		}
		writes |= bc_workload_writes(&w);
	}
	/* the gate and the open mode ask whether the volume is written: it is */
	if (writes && !bc_workload_writes(first)) {
		first->rw = BC_RW_WRITE;
		first->nstreams = 0;
	}
	return 0;
}

/*
 * A workload's window_offset/_length narrow its copy of the volume's I/O
 * window: bytes, or percents of the window as fio takes them of the file
 * (filesetup.c: the offset rounded up to the smallest block size, the
 * length its share of the whole window, cut to what the offset leaves and
 * rounded down to the smallest block size)
 */
static int s_run_window(struct bc_target *t, const struct bc_workload *w, char *err, size_t errlen)
{
	uint64_t win = t->win_end - t->win_start, off, len;
	uint32_t align = w->bs ? w->bs : BC_SECTOR, i;

	if (bc_pos_zero(&w->window_offset) && bc_pos_zero(&w->window_length))
		return 0;
	for (i = 0; i < w->nbssplit; i++)
		if (w->bssplit[i].bs < align)
			align = w->bssplit[i].bs;
	off = bc_pos_bytes(&w->window_offset, win, 1);
	if (w->window_offset.pct && off % align)
		off += align - off % align;
	len = bc_pos_bytes(&w->window_length, win, 1);
	if (w->window_length.pct) {
		if (off < win && len > win - off)
			len = win - off;
		len -= len % align;
	}
	if (off >= win || off % BC_SECTOR || len % BC_SECTOR || (w->window_length.pct && !len)) {
		snprintf(err, errlen,
			 "%s: window_offset %llu (length %llu) is outside the I/O window of %llu "
			 "bytes, or not a multiple of 512",
			 t->path, (unsigned long long)off, (unsigned long long)len,
			 (unsigned long long)win);
		return -EINVAL;
	}
	t->win_start += off;
	if (len && t->win_start + len < t->win_end)
		t->win_end = t->win_start + len;
	return 0;
}

/* several workloads on a volume (or none): one target per (volume, workload) for the jobs */
static int s_build_runs(struct bc_step_run *s, const cJSON *vols, char *err, size_t errlen)
{
	const cJSON *v, *runs, *r;
	int i, n = 0, rc;
	bool any = false;

	i = 0;
	cJSON_ArrayForEach(v, vols)
	{
		runs = cJSON_GetObjectItemCaseSensitive(v, "workloads");
		any |= runs != NULL || !bc_pos_zero(&s->vwl[i].window_offset) ||
		       !bc_pos_zero(&s->vwl[i].window_length);
		n += runs ? cJSON_GetArraySize(runs) : 1;
		i++;
	}
	if (!any)
		return 0;
	s->rtargets = calloc(n ? (size_t)n : 1, sizeof(*s->rtargets));
	s->rvwl = calloc(n ? (size_t)n : 1, sizeof(*s->rvwl));
	s->rvol = calloc(n ? (size_t)n : 1, sizeof(*s->rvol));
	if (!s->rtargets || !s->rvwl || !s->rvol)
		return -ENOMEM;
	i = 0;
	cJSON_ArrayForEach(v, vols)
	{
		runs = cJSON_GetObjectItemCaseSensitive(v, "workloads");
		if (!runs) {
			s->rtargets[s->nruns] = s->targets[i];
			s->rvwl[s->nruns] = s->vwl[i];
			s->rvol[s->nruns] = i++;
			rc = s_run_window(&s->rtargets[s->nruns], &s->rvwl[s->nruns], err, errlen);
			if (rc)
				return rc;
			s->nruns++;
			continue;
		}
		cJSON_ArrayForEach(r, runs)
		{
			rc = bc_workload_from_json(r, &s->rvwl[s->nruns], err, errlen);
			if (rc)
				return rc;
			s->rtargets[s->nruns] = s->targets[i];
			s->rvol[s->nruns] = i;
			rc = s_run_window(&s->rtargets[s->nruns], &s->rvwl[s->nruns], err, errlen);
			if (rc)
				return rc;
			s->nruns++;
		}
		i++;
	}
	return 0;
}

/*
 * Volume i of a PREPARE or CHECK body, one rule for both: parsed, resolved,
 * past the safety gate (allowlist; for writes to a block device unused,
 * blank or consented) and opened -- or, for CHECK (o->target NULL), probed
 * as the open would be (bc_target_check) without opening anything for
 * writing, creating anything or attaching NVMe/TCP. Whatever CHECK refuses,
 * PREPARE refuses with the same message.
 */
static int s_volume(struct bc_agent *a, const struct bc_workload *wl, int i, const cJSON *v,
		    struct s_vol_out *o, char *err, size_t errlen)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(v, "path");
	struct bc_volume_spec spec = {.node = -1};
	char named[BC_PATH_MAX], base[32];
	char *path = o->path;
	int rc;

	snprintf(base, sizeof(base), "volumes[%d]", i);
	if (!cJSON_IsString(p) || s_json_u64(v, "size", &spec.size_bytes) ||
	    s_json_u64(v, "offset", &spec.offset_bytes) ||
	    s_json_u64(v, "length", &spec.length_bytes)) {
		snprintf(err, errlen, "volumes[%d]: malformed volume", i);
		return -EINVAL;
	}
	for (const unsigned char *c = (const unsigned char *)p->valuestring; *c; c++)
		if (*c < 0x20 || *c == 0x7f) {
			snprintf(err, errlen,
				 "volumes[%d].path holds a control character (U+%04X); refused", i,
				 *c);
			return -EINVAL;
		}
	rc = bc_agent_resolve_path(a, p->valuestring, path, sizeof(o->path));
	if (rc) {
		snprintf(err, errlen, "volumes[%d]: path too long", i);
		return rc;
	}
	snprintf(named, sizeof(named), "%s", path);
	/* an NVMe/TCP namespace: attached now, its device is the path from here on */
	if (cJSON_GetObjectItemCaseSensitive(v, "nvme_tcp")) {
		if (!o->tcp)
			return 1; /* CHECK: the namespace exists only once PREPARE attaches it */
		rc = s_attach_nvme_tcp(o->tcp, i, v, p->valuestring, path, sizeof(o->path), err,
				       errlen);
		if (rc)
			return rc;
	}
	/* NVMe passthrough placement, checked by the coordinator already */
	if (cJSON_GetObjectItemCaseSensitive(v, "fdp")) {
		rc = bc_fdp_spec_from_json(cJSON_GetObjectItemCaseSensitive(v, "fdp"), base,
					   &spec.fdp, err, errlen);
		if (rc)
			return rc;
	}
	/* a simulated SSD's geometry, checked by the coordinator already (docs/sim.md) */
	if (cJSON_GetObjectItemCaseSensitive(v, "sim")) {
		rc = bc_sim_spec_from_json(cJSON_GetObjectItemCaseSensitive(v, "sim"), base,
					   &spec.sim, err, errlen);
		if (rc)
			return rc;
	}
	/* a tree of files under the path, checked by the coordinator already */
	if (cJSON_GetObjectItemCaseSensitive(v, "fileset")) {
		rc = bc_fileset_spec_from_json(cJSON_GetObjectItemCaseSensitive(v, "fileset"), base,
					       &spec.fileset, err, errlen);
		if (rc)
			return rc;
	}
	/* the volume's own workload (the step's with its overrides), when it has one */
	*o->vwl = *wl;
	if (cJSON_GetObjectItemCaseSensitive(v, "workload")) {
		rc = bc_workload_from_json(cJSON_GetObjectItemCaseSensitive(v, "workload"), o->vwl,
					   err, errlen);
		if (rc)
			return rc;
	}
	rc = s_runs_gate(v, o->vwl, err, errlen);
	if (rc)
		return rc;
	if (o->target && path[0] == '/' &&
	    !strncmp(path, a->opts.scratch_dir, strlen(a->opts.scratch_dir))) {
		struct stat st;

		/* deleted since it was pinned (a clean-up): made again below, and pinned anew */
		if (a->opts.safety && a->opts.safety->scratch_pinned &&
		    lstat(a->opts.safety->scratch_canon, &st) && errno == ENOENT)
			a->opts.safety->scratch_pinned = false;
		rc = s_mkdirs(a->opts.scratch_dir);
		if (rc) {
			snprintf(err, errlen, "cannot create scratch directory '%s': %s",
				 a->opts.scratch_dir, strerror(-rc));
			return rc;
		}
		/* made now: pinned from here on (safety/allowlist.h) */
		if (a->opts.safety) {
			rc = bc_safety_pin_scratch(a->opts.safety, err, errlen);
			if (rc)
				return rc;
		}
	}
	snprintf(spec.path, sizeof(spec.path), "%s", path);
	/* the profile's consent names the volume as HELLO did: by its label */
	rc = spec.fileset.enabled
		 ? bc_agent_fileset_gate(a, path, err, errlen)
		 : bc_agent_volume_gate(a, path, bc_workload_writes(o->vwl),
					bc_agent_volume_destructive(a, v, named), err, errlen);
	if (rc)
		return rc;
	/* a scratch path not made yet: its directory is made at PREPARE */
	if (!o->target && path[0] == '/' &&
	    !strncmp(path, a->opts.scratch_dir, strlen(a->opts.scratch_dir)) &&
	    access(a->opts.scratch_dir, F_OK))
		return 0;
	return o->target ? bc_target_open(o->target, path, &spec, o->vwl, err, errlen)
			 : bc_target_check(path, &spec, o->vwl, err, errlen);
}

/*
 * The step's "format" (profile/format.h) before any volume opens: each
 * volume's namespace once, with the volume's own consent and both paths
 * (the volume's and its namespace's) on the allowlist (nvme/format.h).
 */
static int s_format_volumes(struct bc_agent *a, const cJSON *fmt, const cJSON *vols, char *err,
			    size_t errlen, int *bad)
{
	struct bc_step_run *s = &a->step;
	struct bc_format_spec spec;
	const cJSON *v;
	int i = 0, rc;

	rc = bc_format_spec_from_json(fmt, &spec, err, errlen);
	if (rc)
		return rc;
	s->formats = cJSON_CreateArray();
	cJSON_ArrayForEach(v, vols)
	{
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(v, "path");
		char path[BC_PATH_MAX], ns[BC_PATH_MAX];
		struct bc_nvme_format_res res;
		const cJSON *done;
		unsigned part;
		bool again = false;

		*bad = i++;
		if (!cJSON_IsString(p) || cJSON_GetObjectItemCaseSensitive(v, "nvme_tcp") ||
		    bc_agent_resolve_path(a, p->valuestring, path, sizeof(path))) {
			snprintf(err, errlen,
				 "a format needs a local NVMe namespace or partition path");
			return -EINVAL;
		}
		bc_nvme_partition_ns(path, ns, sizeof(ns), &part);
		cJSON_ArrayForEach(done, s->formats) again |= !strcmp(
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(done, "namespace")) ?: "",
		    ns);
		if (again)
			continue;
		rc = bc_safety_check(a->opts.safety, path, false, false, err, errlen);
		if (!rc)
			rc = bc_safety_check(a->opts.safety, ns, false, false, err, errlen);
		if (!rc)
			rc = bc_nvme_format_volume(path, &spec,
						   bc_agent_volume_destructive(a, v, path) &&
						       a->opts.safety &&
						       a->opts.safety->allow_destructive,
						   &res, err, errlen);
		if (rc)
			return rc;
		cJSON_AddItemToArray(s->formats, bc_nvme_format_json(&res));
	}
	*bad = -1;
	return 0;
}

static int s_open_volumes(struct bc_agent *a, const cJSON *vols, char *err, size_t errlen, int *bad)
{
	struct bc_step_run *s = &a->step;
	const cJSON *v;
	int i = 0, rc;

	s->ntargets = cJSON_GetArraySize(vols);
	s->targets = calloc((size_t)s->ntargets, sizeof(*s->targets));
	s->vwl = calloc((size_t)s->ntargets, sizeof(*s->vwl));
	s->tcp = calloc((size_t)s->ntargets, sizeof(*s->tcp));
	if (!s->targets || !s->vwl || !s->tcp)
		return -ENOMEM;
	for (i = 0; i < s->ntargets; i++) {
		s->targets[i].fd = -1;
		s->tcp[i].instance = -1;
	}
	i = 0;
	cJSON_ArrayForEach(v, vols)
	{
		struct s_vol_out o = {&s->targets[i], &s->vwl[i], &s->tcp[i], ""};

		*bad = i;
		rc = s_volume(a, &s->wl, i, v, &o, err, errlen);
		if (rc && s->tcp[i].instance >= 0) {
			char why[768];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "volumes[%d] (%s, attached at %s:%s as %s): %s", i,
				 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "path")),
				 s->tcp[i].traddr, s->tcp[i].trsvcid, o.path, why);
		}
		if (rc)
			return rc;
		i++;
	}
	*bad = -1;
	return 0;
}

static cJSON *s_ready_json(const struct bc_step_run *s)
{
	cJSON *r = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(r, "volumes");
	int i;

	cJSON_AddNumberToObject(r, "step", s->step);
	cJSON_AddNumberToObject(r, "jobs", s->njobs);
	for (i = 0; i < s->ntargets; i++) {
		const struct bc_target *t = &s->targets[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "path", t->path);
		cJSON_AddStringToObject(o, "kind", bc_target_kind(t));
		cJSON_AddNumberToObject(o, "size", (double)t->info.size_bytes);
		cJSON_AddNumberToObject(o, "lbs", t->info.lbs);
		cJSON_AddNumberToObject(o, "pbs", t->info.pbs);
		/* NVMe identity for the report's device table (docs/nvme.md) */
		if (t->info.kind == BC_KIND_BLOCK || t->info.kind == BC_KIND_NVME_CHAR) {
			struct bc_nvme_ident id;

			if (!bc_nvme_ident(t->path, &id))
				cJSON_AddItemToObject(o, "nvme", bc_nvme_ident_json(&id));
		}
		if (s->tcp && s->tcp[i].instance >= 0)
			cJSON_AddItemToObject(o, "nvme_tcp", bc_nvme_tcp_att_json(&s->tcp[i]));
		cJSON_AddNumberToObject(o, "win_start", (double)t->win_start);
		cJSON_AddNumberToObject(o, "win_end", (double)t->win_end);
		cJSON_AddItemToArray(arr, o);
	}
	if (s->formats)
		cJSON_AddItemToObject(r, "formats", cJSON_Duplicate(s->formats, true));
	bc_jobreport_setup(r, s->jobs, s->njobs);
	return r;
}

/*
 * The network path to the nodes the coordinator named, and where the job
 * threads run: their pinned CPUs, or the process's own when unpinned
 * (the scheduler may put them anywhere in it).
 */
static cJSON *s_net_path(const struct bc_step_run *s, const cJSON *addresses)
{
	cpu_set_t cpus, one, any;
	struct bc_job_info ji;
	bool pinned = false;
	int i;

	CPU_ZERO(&cpus);
	CPU_ZERO(&any);
	if (sched_getaffinity(0, sizeof(any), &any))
		CPU_ZERO(&any);
	for (i = 0; i < s->njobs; i++) {
		char list[sizeof(ji.cpus)];

		bc_job_get_info(s->jobs[i], &ji);
		/* "0-7 (numa node 0)": the list is the first word */
		snprintf(list, sizeof(list), "%s", ji.cpus);
		list[strcspn(list, " ")] = '\0';
		CPU_ZERO(&one);
		if (strcmp(list, "any") && !bc_cpus_parse(list, &one) && CPU_COUNT(&one)) {
			CPU_OR(&cpus, &cpus, &one);
			pinned = true;
		} else {
			CPU_OR(&cpus, &cpus, &any);
		}
	}
	return bc_netpath_json("", addresses, &cpus, pinned);
}

/* host counters for the step: CPU, NICs, and the block devices it drives */
static struct bc_hoststat *s_hoststat_new(const struct bc_step_run *s)
{
	const char **devs = calloc((size_t)s->ntargets + 1, sizeof(*devs));
	struct bc_hoststat *h;
	int i, n = 0;

	if (!devs)
		return NULL;
	for (i = 0; i < s->ntargets; i++)
		if (s->rdev[i])
			devs[n++] = s->targets[i].path;
	h = bc_hoststat_new(devs, n);
	free(devs);
	return h;
}

/* each NVMe volume's composite temperature, sampled once a second; NULL when none is NVMe */
static struct bc_temp_sampler *s_temp_new(const struct bc_step_run *s)
{
	struct bc_nvme_temp *t = calloc((size_t)s->ntargets, sizeof(*t));
	int i, n = 0;

	for (i = 0; t && i < s->ntargets; i++)
		n += !bc_nvme_temp_open("", s->targets[i].path, &t[i]);
	if (!n) {
		free(t);
		return NULL;
	}
	return bc_temp_sampler_start(t, s->ntargets);
}

/*
 * "nvme_temp_c": one value per volume, in PREPARE's order, null where the
 * volume is not NVMe or the device reports no temperature: the sampler
 * thread's latest read (at most a second old), so a device that stopped
 * answering never holds up this (control) thread.
 */
static void s_temp_json(const struct bc_step_run *s, cJSON *h)
{
	cJSON *arr;
	double c;
	int i;

	if (!s->temp)
		return;
	arr = cJSON_AddArrayToObject(h, "nvme_temp_c");
	for (i = 0; arr && i < s->ntargets; i++)
		cJSON_AddItemToArray(arr, !bc_temp_sampler_get(s->temp, i, &c)
					      ? cJSON_CreateNumber(round(c * 100) / 100)
					      : cJSON_CreateNull());
}

/* the other processes' CPU is read at most this often during a step (a /proc scan each) */
#define S_TOP_EVERY_NS (900 * BC_NS_PER_MS)

/* interval k's host counters, beside its STATS record (best effort: never fails a step) */
static void s_send_host(struct bc_agent *a, uint32_t k)
{
	struct bc_step_run *s = &a->step;
	cJSON *b, *h;
	char *text;

	if (!s->host || k == BC_STATS_DRAIN)
		return;
	/*
	 * a process that lives a few seconds (a compiler's) is seen by a read a
	 * second, and no more often: a size-based pass that ended early seals
	 * its remaining seconds all at once
	 */
	if (bc_mono_ns() - s->top.prev.t_ns >= S_TOP_EVERY_NS)
		bc_proctop_sample(&s->top);
	h = bc_hoststat_take(s->host, k, bc_mono_ns());
	if (!h)
		return;
	s_temp_json(s, h);
	b = cJSON_CreateObject();
	cJSON_AddNumberToObject(b, "step", s->step);
	cJSON_AddNumberToObject(b, "second", k);
	cJSON_AddItemToObject(b, "host", h);
	text = bc_json_print(b, false);
	if (text)
		(void)bc_orphan_send(a, BC_MSG_HOST, k, text, strlen(text));
	cJSON_free(text);
	cJSON_Delete(b);
}

/* the device under each file or block volume, where the kernel counts what reached storage */
static int s_under(struct bc_step_run *s)
{
	int i;

	s->under = calloc((size_t)s->ntargets + 1, sizeof(*s->under));
	s->under0 = calloc((size_t)s->ntargets + 1, sizeof(*s->under0));
	if (!s->under || !s->under0)
		return -ENOMEM;
	for (i = 0; i < s->ntargets; i++) {
		const struct bc_target *t = &s->targets[i];

		if (t->info.kind != BC_KIND_FILE && t->info.kind != BC_KIND_BLOCK)
			continue;
		if (bc_blkdev_under("", t->path, &s->under[i]))
			snprintf(s->under[i].why, sizeof(s->under[i].why), "cannot stat '%s'",
				 t->path);
	}
	return 0;
}

/*
 * The prepared step in the log: its depth is each volume's own (an sd's
 * threads=, a volume_workloads entry), so a range when they differ
 */
static void s_log_prepared(const struct bc_step_run *s)
{
	const struct bc_workload *w = s->rvwl ? s->rvwl : s->vwl;
	int i, n = s->rtargets ? s->nruns : s->ntargets;
	uint32_t lo = s->wl.iodepth, hi = s->wl.iodepth;
	char qd[48];

	for (i = 0; w && i < n; i++) {
		lo = !i || w[i].iodepth < lo ? w[i].iodepth : lo;
		hi = !i || w[i].iodepth > hi ? w[i].iodepth : hi;
	}
	if (lo == hi)
		snprintf(qd, sizeof(qd), "%u", lo);
	else
		snprintf(qd, sizeof(qd), "%u-%u (per volume)", lo, hi);
	if (s->wl.meta)
		bc_info("step %u prepared: %d volume(s), %d job(s), metadata %s", s->step,
			s->ntargets, s->njobs, bc_meta_names[s->wl.meta]);
	else
		bc_info("step %u prepared: %d volume(s), %d job(s), %s bs=%u qd=%s", s->step,
			s->ntargets, s->njobs, bc_rw_names[s->wl.rw], s->wl.bs, qd);
}

/*
 * PREPARE's second half, once the files it reads are laid out: the job
 * threads, the counters read around the step, READY. 0, or -errno with the
 * PREPARE error sent and the step torn down.
 */
static int s_prepare_rest(struct bc_agent *a)
{
	struct bc_step_run *s = &a->step;
	char err[1024] = "";
	int rc, i;
	cJSON *ready;

	s->njobs = (int)s->wl.numjobs;
	s->jobs = calloc((size_t)s->njobs, sizeof(*s->jobs));
	s->collected = calloc((size_t)s->njobs, sizeof(*s->collected));
	s->acc = malloc((size_t)s->ntargets * sizeof(*s->acc));
	s->totals = malloc((size_t)s->ntargets * sizeof(*s->totals));
	s->ds_start = calloc((size_t)s->ntargets, sizeof(*s->ds_start));
	s->rdev = calloc((size_t)s->ntargets, sizeof(*s->rdev));
	if (!s->jobs || !s->collected || !s->acc || !s->totals || !s->ds_start || !s->rdev ||
	    s_under(s)) {
		snprintf(err, sizeof(err), "out of memory");
		rc = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < s->ntargets; i++) {
		memset(&s->acc[i], 0, sizeof(s->acc[i]));
		memset(&s->totals[i], 0, sizeof(s->totals[i]));
		bc_volstat_reset(&s->acc[i]);
		bc_volstat_reset(&s->totals[i]);
	}
	for (i = 0; i < s->njobs; i++) {
		struct bc_job_cfg cfg = {
		    .wl = &s->wl,
		    .vwl = s->rvwl ? s->rvwl : s->vwl,
		    .targets = s->rtargets ? s->rtargets : s->targets,
		    .ntargets = s->rtargets ? s->nruns : s->ntargets,
		    .run_vol = s->rvol,
		    .job_index = (unsigned)i,
		    .numjobs = s->wl.numjobs,
		    .seed = bc_real_ns() ^ ((uint64_t)i << 32),
		};

		s->jobs[i] = bc_job_new(&cfg, err, sizeof(err));
		if (!s->jobs[i]) {
			rc = -ENOMEM;
			goto fail;
		}
	}
	for (i = 0; i < s->ntargets; i++) {
		struct stat st;

		if (s->targets[i].info.kind == BC_KIND_BLOCK && !stat(s->targets[i].path, &st))
			s->rdev[i] = st.st_rdev;
	}
	s->host = s_hoststat_new(s);
	s->temp = s_temp_new(s);
	/* NVMe SMART/OCP/FDP logs before the step, for its WAF (docs/nvme.md) */
	s->nvme0 = bc_devcounters_sample_all(s->targets, s->ntargets);
	s->net_path = s_net_path(s, s->node_addresses);
	s->prepared = true;
	ready = s_ready_json(s);
	bc_backed_ready_json(a, ready);
	bc_msg_send_json(a->sock, a->owner, BC_MSG_READY, ready);
	cJSON_Delete(ready);
	/* who else uses this host's CPU from here to START */
	bc_proctop_begin(&s->top, "", getpid());
	s_log_prepared(s);
	return 0;
fail:
	s_send_prepare_error(a, -1, NULL, err);
	bc_step_teardown(a);
	return rc;
}

int bc_step_prepare(struct bc_agent *a, const cJSON *body)
{
	struct bc_step_run *s = &a->step;
	const cJSON *step = cJSON_GetObjectItemCaseSensitive(body, "step");
	const cJSON *wl = cJSON_GetObjectItemCaseSensitive(body, "workload");
	const cJSON *vols = cJSON_GetObjectItemCaseSensitive(body, "volumes");
	char err[1024] = "";
	int bad = -1, rc, i;

	bc_step_teardown(a);
	bc_orphan_free(a); /* a coordinator that prepares a step has what the last one sent */
	if (!cJSON_IsNumber(step) || !cJSON_IsArray(vols) || !cJSON_GetArraySize(vols)) {
		s_send_prepare_error(a, -1, NULL, "PREPARE: missing step or volumes");
		return -EINVAL;
	}
	s->step = (uint32_t)step->valueint;
	rc = bc_workload_from_json(wl, &s->wl, err, sizeof(err));
	if (rc)
		goto fail;
	rc = 0;
	if (cJSON_GetObjectItemCaseSensitive(body, "format"))
		rc = s_format_volumes(a, cJSON_GetObjectItemCaseSensitive(body, "format"), vols,
				      err, sizeof(err), &bad);
	if (!rc)
		rc = s_open_volumes(a, vols, err, sizeof(err), &bad);
	if (!rc)
		rc = s_build_runs(s, vols, err, sizeof(err));
	/* the step's records kept through a coordinator's silence (orphan_grace) */
	if (!rc)
		rc = bc_orphan_prepare(a, body, err, sizeof(err));
	if (rc)
		goto fail;
	/* a step that writes a volume otherwise overwrites the KV store kept on it */
	for (i = 0; i < s->ntargets; i++) {
		const struct bc_workload *w = s->vwl ? &s->vwl[i] : &s->wl;

		if (bc_workload_writes(w) && !bc_workload_kv(w))
			bc_kvgen_forget(s->targets[i].path);
	}
	s->node_addresses =
	    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(body, "node_addresses"), true);
	/* files this session made are written out before a step reads them */
	rc = bc_backed_prepare(a, vols, err, sizeof(err));
	if (rc < 0)
		goto fail;
	if (rc > 0)
		return 0; /* the layout runs; bc_step_layout_poll completes PREPARE */
	return s_prepare_rest(a);
fail:
	s_send_prepare_error(a, bad,
			     bad >= 0 ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
					    cJSON_GetArrayItem(vols, bad), "path"))
				      : NULL,
			     err);
	bc_step_teardown(a);
	return rc;
}

void bc_step_layout_poll(struct bc_agent *a)
{
	char err[1024] = "";
	int rc;

	if (!a->step.layout)
		return;
	rc = bc_backed_poll(a, err, sizeof(err));
	if (rc > 0)
		return;
	if (rc < 0) {
		s_send_prepare_error(a, -1, NULL, err);
		bc_step_teardown(a);
		return;
	}
	s_prepare_rest(a);
}

int bc_step_check(struct bc_agent *a, const cJSON *body)
{
	const cJSON *wl = cJSON_GetObjectItemCaseSensitive(body, "workload");
	const cJSON *vols = cJSON_GetObjectItemCaseSensitive(body, "volumes");
	const cJSON *step = cJSON_GetObjectItemCaseSensitive(body, "step");
	cJSON *r = cJSON_CreateObject(), *out;
	struct bc_workload w;
	char err[1024] = "";
	const cJSON *v;
	int i = 0, rc;

	if (!cJSON_IsArray(vols) || bc_workload_from_json(wl, &w, err, sizeof(err))) {
		cJSON_Delete(r);
		bc_msg_send_error(a->sock, a->owner, "check", "CHECK: %s",
				  err[0] ? err : "missing volumes");
		return -EINVAL;
	}
	if (cJSON_IsNumber(step))
		cJSON_AddNumberToObject(r, "step", step->valuedouble);
	out = cJSON_AddArrayToObject(r, "volumes");
	cJSON_ArrayForEach(v, vols)
	{
		struct bc_workload vwl;
		struct s_vol_out o = {NULL, &vwl, NULL, ""};
		cJSON *e = cJSON_CreateObject();

		err[0] = 0;
		rc = s_volume(a, &w, i, v, &o, err, sizeof(err));
		cJSON_AddNumberToObject(e, "volume", i);
		cJSON_AddStringToObject(
		    e, "path",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "path")) ?: "");
		cJSON_AddStringToObject(e, "resolved", o.path);
		cJSON_AddBoolToObject(e, "ok", rc <= 0 ? !rc : true);
		if (rc < 0)
			cJSON_AddStringToObject(e, "message", err);
		else if (rc > 0)
			cJSON_AddStringToObject(
			    e, "note", "NVMe/TCP namespace: attached and checked at PREPARE");
		/* what backs the window a read step would read, and what PREPARE would lay out */
		if (!rc && o.path[0] == '/' && bc_workload_reads(&vwl)) {
			uint64_t size = 0, off = 0, len = 0;
			cJSON *b;

			s_json_u64(v, "size", &size);
			s_json_u64(v, "offset", &off);
			s_json_u64(v, "length", &len);
			b = bc_backed_check_json(
			    a, o.path, size, off, len,
			    !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(v, "layout")));
			if (b)
				cJSON_AddItemToObject(e, "backing", b);
		}
		cJSON_AddItemToArray(out, e);
		i++;
	}
	bc_msg_send_json(a->sock, a->owner, BC_MSG_CHECKED, r);
	cJSON_Delete(r);
	return 0;
}

/* processes named in "contention": the few that use most CPU */
#define S_TOP_N 8

/*
 * This process's bytes through the block layer (/proc/self/io read_bytes,
 * write_bytes: what it caused to be fetched from or sent to storage, page
 * cache hits not counted), or 0 where the kernel has no task I/O accounting
 */
static void s_proc_io(uint64_t *rd, uint64_t *wr)
{
	FILE *f = fopen("/proc/self/io", "re");
	unsigned long long v;
	char line[128];

	*rd = *wr = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "read_bytes: %llu", &v) == 1)
			*rd = v;
		else if (sscanf(line, "write_bytes: %llu", &v) == 1)
			*wr = v;
	}
	if (f)
		fclose(f);
}

int bc_step_start(struct bc_agent *a, const cJSON *body)
{
	struct bc_step_run *s = &a->step;
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(body, "start_ns");
	const cJSON *secs = cJSON_GetObjectItemCaseSensitive(body, "seconds");
	uint64_t real_now, mono_now, start_real;
	int i, rc;

	if (!s->prepared || s->running) {
		bc_msg_send_error(a->sock, a->owner, "state", "START without a prepared step");
		return -EINVAL;
	}
	if (!cJSON_IsNumber(st) || !cJSON_IsNumber(secs) || secs->valuedouble < 1) {
		bc_msg_send_error(a->sock, a->owner, "bad-message", "START: bad start_ns/seconds");
		return -EINVAL;
	}
	start_real = bc_json_u64_of(st);
	real_now = bc_real_ns();
	mono_now = bc_mono_ns();
	/* the start is an absolute time; map it onto the monotonic clock once */
	s->start_mono_ns = start_real > real_now ? mono_now + (start_real - real_now) : mono_now;
	if (start_real < real_now)
		bc_warn("START arrived %.3f ms after its start time",
			(double)(real_now - start_real) / 1e6);
	s->seconds = (uint32_t)secs->valuedouble;
	/*
	 * the coordinator's second as this host's clock counts it, when the two
	 * run at measurably different rates (docs/protocol.md): each interval
	 * is then one second of the coordinator's timeline
	 */
	s->second_ns = BC_NS_PER_S;
	if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(body, "second_ns"))) {
		double sn = cJSON_GetObjectItemCaseSensitive(body, "second_ns")->valuedouble;

		if (sn >= 0.9 * BC_NS_PER_S && sn <= 1.1 * BC_NS_PER_S)
			s->second_ns = (uint64_t)sn;
	}
	s->next_k = 0;
	bc_process_cpu(&s->cpu_user0_ns, &s->cpu_sys0_ns);
	s->start_real_ns = start_real;
	/* host counters are read at the interval boundaries, from the start on */
	bc_hoststat_set_second(s->host, s->second_ns);
	bc_hoststat_schedule(s->host, s->start_mono_ns, s->seconds);
	for (i = 0; i < s->ntargets; i++) {
		if (s->rdev[i] && bc_diskstats_read(s->rdev[i], &s->ds_start[i]))
			s->rdev[i] = 0;
		if (s->under[i].found && bc_diskstats_read(s->under[i].dev, &s->under0[i]))
			s->under[i].found = false;
	}
	s_proc_io(&s->pio_read0, &s->pio_write0);
	/* the other processes between READY and START; the step's own interval starts here */
	if (!bc_proctop_sample(&s->top))
		s->top_before = bc_proctop_json(&s->top, S_TOP_N);
	bc_proctop_begin(&s->top, "", getpid());
	for (i = 0; i < s->njobs; i++) {
		bc_job_set_second(s->jobs[i], s->second_ns);
		rc = bc_job_start(s->jobs[i], s->start_mono_ns, s->seconds);
		if (rc) {
			bc_msg_send_error(a->sock, a->owner, "start", "cannot start job %d: %s", i,
					  strerror(-rc));
			bc_step_teardown(a);
			return rc;
		}
	}
	s->running = true;
	bc_orphan_start(a);
	return 0;
}

int bc_step_stop(struct bc_agent *a, const cJSON *body)
{
	struct bc_step_run *s = &a->step;
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(body, "step");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(body, "second");
	uint32_t k;
	int i;

	if (!cJSON_IsNumber(st) || !cJSON_IsNumber(at) || at->valuedouble < 1) {
		bc_msg_send_error(a->sock, a->owner, "bad-message", "STOP: bad step/second");
		return -EINVAL;
	}
	/* the step ended on its own before the STOP came: nothing to stop */
	if (!s->running || (uint32_t)st->valuedouble != s->step)
		return 0;
	k = at->valuedouble < s->seconds ? (uint32_t)at->valuedouble : s->seconds;
	/* intervals already sent stay sent: the coordinator's second leaves a margin for that */
	if (k < s->next_k) {
		bc_warn("STOP at second %u came after second %u was sent: stopping there", k,
			s->next_k);
		k = s->next_k;
	}
	for (i = 0; i < s->njobs; i++)
		bc_job_stop_at(s->jobs[i], k);
	bc_info("step %u stopped by the coordinator at second %u of %u", s->step, k, s->seconds);
	s->seconds = k;
	return 0;
}

/* when the jobs really started, relative to the planned start (start-skew evidence) */
static void s_start_json(const struct bc_step_run *s, cJSON *r)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	int i;

	for (i = 0; i < s->njobs; i++) {
		struct bc_job_info ji;
		int64_t late;

		bc_job_get_info(s->jobs[i], &ji);
		if (!ji.first_submit_ns)
			continue;
		late = (int64_t)(ji.first_submit_ns - s->start_mono_ns);
		lo = late < lo ? late : lo;
		hi = late > hi ? late : hi;
	}
	bc_json_add_u64(r, "planned_start_ns", s->start_real_ns);
	if (hi >= lo) {
		cJSON_AddNumberToObject(r, "start_late_min_ns", (double)lo);
		cJSON_AddNumberToObject(r, "start_late_max_ns", (double)hi);
	}
}

/* the kernel's view of a block device over the step, for the byte cross-check */
/* this kernel instance's boot id: the same for every agent on the host */
static bool s_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	bool ok = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok && buf[0];
}

static void s_diskstats_json(const struct bc_step_run *s, int i, cJSON *v)
{
	struct bc_diskstat end;
	char kern[64];
	cJSON *d;

	if (!s->rdev[i] || bc_diskstats_read(s->rdev[i], &end))
		return;
	d = cJSON_AddObjectToObject(v, "diskstats");
	cJSON_AddStringToObject(d, "device", end.name);
	/* which kernel counted: agents on one host share its devices (checks.c) */
	if (s_boot_id(kern, sizeof(kern)))
		cJSON_AddStringToObject(d, "kernel", kern);
	cJSON_AddNumberToObject(d, "read_ios", (double)(end.rd_ios - s->ds_start[i].rd_ios));
	cJSON_AddNumberToObject(d, "read_bytes", (double)(end.rd_bytes - s->ds_start[i].rd_bytes));
	cJSON_AddNumberToObject(d, "write_ios", (double)(end.wr_ios - s->ds_start[i].wr_ios));
	cJSON_AddNumberToObject(d, "write_bytes", (double)(end.wr_bytes - s->ds_start[i].wr_bytes));
	cJSON_AddNumberToObject(d, "discard_bytes",
				(double)(end.discard_bytes - s->ds_start[i].discard_bytes));
}

/*
 * The device under the volume (host/blkdev.h) over the step: what reached
 * storage, for the coordinator's check that the device moved the bytes the
 * step reports (checks.c); or why nothing can be counted
 */
static void s_device_json(const struct bc_step_run *s, int i, cJSON *v)
{
	const struct bc_blkdev *u = &s->under[i];
	struct bc_diskstat end;
	char kern[64];
	cJSON *d;

	if (s->targets[i].info.kind == BC_KIND_NVME_CHAR) {
		/* a real device the block layer never sees: said, not passed */
		d = cJSON_AddObjectToObject(v, "device");
		cJSON_AddBoolToObject(d, "direct", true);
		cJSON_AddBoolToObject(d, "measurable", false);
		cJSON_AddStringToObject(
		    d, "why",
		    "NVMe passthrough: its commands bypass the block layer, which "
		    "/proc/diskstats counts (the namespace's SMART data units count "
		    "them: docs/nvme.md)");
		return;
	}
	if (s->targets[i].info.kind != BC_KIND_FILE && s->targets[i].info.kind != BC_KIND_BLOCK)
		return;
	d = cJSON_AddObjectToObject(v, "device");
	cJSON_AddBoolToObject(d, "direct", s->vwl[i].direct);
	if (!u->found || bc_diskstats_read(u->dev, &end)) {
		cJSON_AddBoolToObject(d, "measurable", false);
		cJSON_AddStringToObject(d, "why", u->why[0] ? u->why : "no diskstats for it");
		return;
	}
	cJSON_AddBoolToObject(d, "measurable", true);
	cJSON_AddStringToObject(d, "device", end.name);
	cJSON_AddStringToObject(d, "how", u->how);
	if (u->loop_cached)
		cJSON_AddBoolToObject(d, "loop_cached", true);
	/* which kernel counted: agents on one host share its devices (checks.c) */
	if (s_boot_id(kern, sizeof(kern)))
		cJSON_AddStringToObject(d, "kernel", kern);
	cJSON_AddNumberToObject(d, "read_bytes", (double)(end.rd_bytes - s->under0[i].rd_bytes));
	cJSON_AddNumberToObject(d, "write_bytes", (double)(end.wr_bytes - s->under0[i].wr_bytes));
	cJSON_AddNumberToObject(d, "read_ios", (double)(end.rd_ios - s->under0[i].rd_ios));
	cJSON_AddNumberToObject(d, "write_ios", (double)(end.wr_ios - s->under0[i].wr_ios));
}

/* other processes' CPU before and during the step (host/proctop.h) */
static void s_contention_json(struct bc_step_run *s, cJSON *r)
{
	cJSON *c = cJSON_AddObjectToObject(r, "contention"), *during;
	char kern[64];

	/* agents of one host see one another: the coordinator sums them per kernel */
	if (s_boot_id(kern, sizeof(kern)))
		cJSON_AddStringToObject(c, "kernel", kern);
	if (s->top_before) {
		cJSON_AddItemToObject(c, "before", s->top_before);
		s->top_before = NULL;
	}
	bc_proctop_sample(&s->top);
	during = bc_proctop_json(&s->top, S_TOP_N);
	if (during)
		cJSON_AddItemToObject(c, "during", during);
}

static cJSON *s_totals_json(struct bc_step_run *s)
{
	cJSON *r = cJSON_CreateObject(), *arr;
	uint64_t prd, pwr;
	int i, o;

	cJSON_AddNumberToObject(r, "step", s->step);
	cJSON_AddNumberToObject(r, "seconds", s->seconds);
	s_start_json(s, r);
	arr = cJSON_AddArrayToObject(r, "volumes");
	for (i = 0; i < s->ntargets; i++) {
		cJSON *v = cJSON_CreateObject();

		s_diskstats_json(s, i, v);
		s_device_json(s, i, v);
		if (s->nvme0)
			bc_devcounters_end_json(&s->targets[i], &s->nvme0[i], v);
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *t = &s->totals[i].op[o];
			cJSON *op = cJSON_AddObjectToObject(v, bc_op_names[o]);

			bc_json_add_u64(op, "ios", t->ios);
			bc_json_add_u64(op, "bytes", t->bytes);
			bc_json_add_u64(op, "errors", t->errors);
			bc_json_add_u64(op, "short", t->short_ios);
		}
		cJSON_AddItemToArray(arr, v);
	}
	bc_jobreport_done(r, arr, s->jobs, s->njobs, s->totals, s->vwl, s->cpu_user0_ns,
			  s->cpu_sys0_ns);
	if (s->net_path)
		cJSON_AddItemToObject(r, "net_path", cJSON_Duplicate(s->net_path, true));
	s_contention_json(s, r);
	s_proc_io(&prd, &pwr);
	if (prd || pwr || s->pio_read0 || s->pio_write0) {
		cJSON *p = cJSON_AddObjectToObject(r, "proc_io");

		cJSON_AddNumberToObject(p, "read_bytes", (double)(prd - s->pio_read0));
		cJSON_AddNumberToObject(p, "write_bytes", (double)(pwr - s->pio_write0));
	}
	return r;
}

static int s_send_interval(struct bc_agent *a, uint32_t k)
{
	struct bc_step_run *s = &a->step;
	struct bc_stats_hdr h = {
	    .step = s->step, .second = k, .flags = s->flags, .nvol = (uint32_t)s->ntargets};
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc, i;

	if (bc_agent_faults.stats_out)
		bc_agent_faults.stats_out(s->acc, s->ntargets);
	rc = bc_stats_encode(&h, s->acc, &buf, &len);
	/* kept for a coordinator that comes back, then sent (session/orphan.h) */
	if (!rc)
		rc = bc_orphan_send(a, BC_MSG_STATS, k, buf, len);
	free(buf);
	s_send_host(a, k);
	for (i = 0; i < s->ntargets; i++) {
		bc_volstat_merge(&s->totals[i], &s->acc[i]);
		bc_volstat_reset(&s->acc[i]);
	}
	s->flags = 0;
	return rc;
}

/*
 * Read the host counters at an interval boundary that has come (host/hoststat.h).
 * The control loop ticks every 10 ms while a step runs; a boundary nearer
 * than S_HOST_NAP_NS is slept to, so the read lands on it rather than up to
 * a tick later (a 1% error on a 1 s interval). The nap is at most that long,
 * once a second.
 */
#define S_HOST_NAP_NS (11 * BC_NS_PER_MS)

static void s_host_boundary(struct bc_step_run *s)
{
	uint64_t now = bc_mono_ns(), wait, at;
	struct timespec ts;

	if (!s->host)
		return;
	wait = bc_hoststat_poll(s->host, now);
	if (!wait || wait > S_HOST_NAP_NS)
		return;
	at = bc_clock_kernel(CLOCK_MONOTONIC, now + wait);
	ts.tv_sec = (time_t)(at / BC_NS_PER_S);
	ts.tv_nsec = (long)(at % BC_NS_PER_S);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	bc_hoststat_poll(s->host, bc_mono_ns());
}

void bc_step_poll(struct bc_agent *a)
{
	struct bc_step_run *s = &a->step;
	cJSON *done;
	char *text;
	uint32_t k;
	bool merged;
	int i, all;

	if (s->running)
		s_host_boundary(s);
	while (s->running) {
		k = s->next_k < s->seconds ? s->next_k : BC_STATS_DRAIN;
		all = 1;
		for (i = 0; i < s->njobs; i++) {
			if (s->collected[i])
				continue;
			merged = false;
			s->collected[i] = bc_job_collect(s->jobs[i], k, s->acc, &merged) == 1;
			if (merged)
				s->flags |= BC_STATS_F_LATE;
			all &= s->collected[i];
		}
		if (!all)
			return;
		if (s_send_interval(a, k) && !a->orphan.overflow)
			bc_warn("cannot send STATS for interval %u", k);
		if (a->orphan.overflow)
			return; /* the session ends (control.c) */
		memset(s->collected, 0, (size_t)s->njobs * sizeof(*s->collected));
		s->next_k++;
		if (k != BC_STATS_DRAIN)
			continue;
		done = s_totals_json(s);
		text = bc_json_print(done, false);
		if (text)
			(void)bc_orphan_send(a, BC_MSG_STEP_DONE, BC_STATS_DRAIN, text,
					     strlen(text));
		cJSON_free(text);
		cJSON_Delete(done);
		bc_orphan_step_done(a);
		bc_backed_step_done(a);
		bc_info("step %u done", s->step);
		bc_step_teardown(a);
	}
}
