/*
 * cmd/run.c - `bench-coord run PROFILE`: validate, open the run directory,
 * start/connect the agents, run every step, and write run.json and
 * summary.md whatever happened. Exit 0 on success, 1 when the run failed,
 * 2 for bad usage or an invalid profile, 3 when it completed but without
 * the agents it lost under on_agent_loss "continue".
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "agg/secfile.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "counters/counters.h"
#include "fleet/fleet.h"
#include "report/report.h"
#include "results/files/outfail.h"
#include "results/files/rundir.h"
#include "results/runjson.h"
#include "results/files/space.h"
#include "run/live.h"
#include "run/metrics.h"
#include "run/rebuild.h"
#include "run/reattach.h"
#include "run/resume.h"
#include "run/steprun.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/log.h"

static void s_usage(FILE *f)
{
	fprintf(f,
		"usage: bench-coord run [options] PROFILE.json\n"
		"       bench-coord run [options] --resume DIR\n"
		"      --resume DIR          take up the run in DIR whose coordinator stopped\n"
		"                            (kill -9, power loss): what it measured stays, the\n"
		"                            profile goes on at its first step or sweep point\n"
		"                            not completed (docs/results.md)\n"
		"  -o, --output DIR          parent of run directories (default: reports)\n"
		"      --scratch-dir DIR     scratch root for local agents (kept after the run;\n"
		"                            default: a fresh /var/tmp/bench-coord.PID, removed)\n"
		"      --keep-scratch        keep the default scratch directory\n"
		"      --connect-timeout S   seconds to wait for every agent's HELLO (default 5)\n"
		"      --prepare-timeout S   seconds to wait for every READY (default 60)\n"
		"  -q, --quiet               no per-second lines\n"
		"      --json                one JSON object per second on stdout (the rest on\n"
		"                            stderr)\n"
		"      --plain               plain lines even on a terminal (no live panel)\n"
		"      --format F            per-second lines and step summary: bench-coord\n"
		"                            (default) or vdbench (its 13 interval columns and\n"
		"                            avg_N-M line; summary.md gets the table too)\n"
		"      --metrics-listen H:P  serve live aggregates for Prometheus on "
		"http://H:P/metrics\n"
		"      --cert FILE           coordinator key pair for profile agents (CURVE;\n"
		"                            default $XDG_CONFIG_HOME/bench-coord/coord.cert)\n"
		"      --known-hosts FILE    agents' server keys: lines \"endpoint-or-name key\"\n"
		"      --insecure            plain text to profile agents (trusted networks only)\n"
		"      --allow-destructive   local agents may overwrite volumes the profile\n"
		"                            marks \"destructive\"\n"
		"      --agg-threads N       aggregation worker threads (0: on the loop thread;\n"
		"                            default: 0 below 64 agents, else 2-4 by cores)\n"
		"      --events-format F     how records are logged: binary (default: each\n"
		"                            record in records.bin, a line naming it in\n"
		"                            events.jsonl), json (every bucket in\n"
		"                            events.jsonl) or compact (base64 in events.jsonl)\n"
		"      --results-delay-ms MS for tests: every write of results during the run\n"
		"                            takes MS ms longer (a slow results phase)\n");
}

static int s_parse(int argc, char **argv, struct bc_run_opts *o)
{
	static const struct option own[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"keep-scratch", no_argument, NULL, 'K'},
	    {"prepare-timeout", required_argument, NULL, 'P'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"json", no_argument, NULL, 'J'},
	    {"metrics-listen", required_argument, NULL, 'M'},
	    {"plain", no_argument, NULL, 'L'},
	    {"help", no_argument, NULL, 'h'},
	    {"allow-destructive", no_argument, NULL, 'D'},
	    {"agg-threads", required_argument, NULL, 'T'},
	    {"events-format", required_argument, NULL, 'E'},
	    {"results-delay-ms", required_argument, NULL, 'W'},
	    {"format", required_argument, NULL, 'F'},
	    {"resume", required_argument, NULL, 'R'},
	    {NULL, 0, NULL, 0},
	};
	struct option lopts[32];
	int c, rc;

	bc_cmd_longopts(own, BC_CMD_SHARED_SECURITY | BC_CMD_SHARED_CONNECT | BC_CMD_SHARED_SCRATCH,
			lopts, sizeof(lopts) / sizeof(lopts[0]));
	while ((c = getopt_long(argc, argv, "o:qh", lopts, NULL)) != -1) {
		switch (c) {
		case 'D':
			o->allow_destructive = true;
			break;
		case 'T': {
			char *end;
			long n = strtol(optarg, &end, 10);

			if (*end || end == optarg || n < 0 || n > 64) {
				bc_error("--agg-threads: expected 0-64, got '%s'", optarg);
				return -EINVAL;
			}
			o->agg_threads = (int)n;
			break;
		}
		case 'E':
			if (!strcmp(optarg, "json")) {
				o->events_format = BC_EVENTS_JSON;
			} else if (!strcmp(optarg, "compact")) {
				o->events_format = BC_EVENTS_COMPACT;
			} else if (!strcmp(optarg, "binary") || !strcmp(optarg, "auto")) {
				/* auto: another name of the default, binary */
				o->events_format = BC_EVENTS_BINARY;
			} else {
				bc_error("--events-format: expected binary, json or compact: '%s'",
					 optarg);
				return -EINVAL;
			}
			break;
		case 'W': {
			char *end;
			unsigned long ms = strtoul(optarg, &end, 10);

			if (*end || end == optarg || ms > 600000) {
				bc_error("--results-delay-ms: expected 0-600000, got '%s'", optarg);
				return -EINVAL;
			}
			o->results_delay_ms = (uint32_t)ms;
			break;
		}
		case 'F':
			if (!strcmp(optarg, "vdbench")) {
				o->format = BC_LIVE_FMT_VDBENCH;
			} else if (!strcmp(optarg, "bench-coord")) {
				o->format = BC_LIVE_FMT_DEFAULT;
			} else {
				bc_error("--format: expected bench-coord or vdbench: '%s'", optarg);
				return -EINVAL;
			}
			break;
		case 'o':
			o->output_dir = optarg;
			break;
		case 'R':
			o->resume_dir = optarg;
			break;
		case 'K':
			o->keep_scratch = true;
			break;
		case 'P':
			if (bc_cmd_parse_secs("--prepare-timeout", optarg, 86400,
					      &o->prepare_timeout_ms))
				return -EINVAL;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'J':
			o->live = BC_LIVE_JSON;
			break;
		case 'M':
			o->metrics_listen = optarg;
			break;
		case 'L':
			o->live = BC_LIVE_LINES;
			break;
		case 'h':
			s_usage(stdout);
			exit(0);
		default:
			rc = bc_cmd_fleet_opt(c, optarg, o);
			if (rc > 0)
				break;
			if (!rc)
				s_usage(stderr);
			return -EINVAL;
		}
	}
	/* resumed: the profile is the one the run directory holds */
	if (optind != argc - (o->resume_dir ? 0 : 1)) {
		s_usage(stderr);
		return -EINVAL;
	}
	if (!o->resume_dir)
		o->profile_path = argv[optind];
	return 0;
}

static cJSON *s_agents_json(const struct bc_fleet *f)
{
	cJSON *arr = cJSON_CreateArray();
	int i;

	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];
		cJSON *a = cJSON_CreateObject();

		cJSON_AddStringToObject(a, "name", c->spec->name);
		cJSON_AddStringToObject(a, "endpoint", c->endpoint);
		cJSON_AddBoolToObject(a, "local", c->spec->local);
		bc_json_add_i64(a, "clock_offset_ns", c->offset_ns);
		bc_json_add_u64(a, "clock_rtt_ns", c->rtt_ns);
		bc_json_add_u64(a, "clock_uncertainty_ns", c->clock_unc_ns);
		if (c->hello)
			cJSON_AddItemToObject(a, "hello", cJSON_Duplicate(c->hello, 1));
		cJSON_AddItemToArray(arr, a);
	}
	return arr;
}

static void s_iso_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * write run.json and (reports) the reports made from it; all reflect what
 * is known so far
 */
/* a node counter sample (counters/counters.h) into the run's log */
static void s_log_scrape(void *arg, cJSON *ev)
{
	bc_rundir_event(arg, "node_scrape", ev);
}

static void s_write_results(struct bc_rundir *rd, const struct bc_profile *p, cJSON *run,
			    bool reports)
{
	/* a failure is named once by results/files/outfail.h, and stops the run */
	bc_secw_flush(rd->secw);
	if (!bc_runjson_write(rd->path, run, NULL) && reports)
		bc_report_write_all_run(rd->path, run); /* summary.md, report.html, ... */
}

/*
 * The closing line's list: the result files this run's last write made
 * (since `since`), so a file that could not be written is not named, nor
 * an older one left from an earlier step
 */
static void s_written(const char *dir, const struct timespec *since, char *out, size_t len)
{
	static const char *const names[] = {"run.json", "summary.md", "report.html",
					    "timeseries.csv", "fio.json"};
	char path[BC_PATH_MAX + 32];
	struct stat st;
	size_t i, n = 0;

	out[0] = 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) || st.st_mtim.tv_sec < since->tv_sec ||
		    (st.st_mtim.tv_sec == since->tv_sec && st.st_mtim.tv_nsec < since->tv_nsec))
			continue;
		snprintf(out + strlen(out), len - strlen(out), "%s%s", n++ ? ", " : "", names[i]);
	}
	if (!n)
		snprintf(out, len, "no result file written");
}

struct s_flush {
	struct bc_rundir *rd;
	const struct bc_profile *p;
	cJSON *run;
	bool last;  /* the profile's last step: its reports come with the run's end */
	bool plain; /* ... and it is one run (no sweep, no experiment): its flush is that end */
	uint32_t delay_ms; /* --results-delay-ms */
};

/*
 * Results so far reach the disk after every step (and sweep point): run.json
 * always, the reports except during the last step, whose final ones follow
 * at once (at 16,000 volumes each set of reports takes tens of seconds).
 */
static bool s_started(const cJSON *steps);

static void s_flush(void *ctx)
{
	struct s_flush *fl = ctx;
	const cJSON *steps = cJSON_GetObjectItemCaseSensitive(fl->run, "steps");

	if (fl->last && fl->plain)
		return; /* the run's end writes everything moments later */
	if (fl->delay_ms)
		usleep(fl->delay_ms * 1000);
	/* no reports while nothing has started: a run that ends so is "not started", reportless */
	s_write_results(fl->rd, fl->p, fl->run, !fl->last && s_started(steps));
}

/* a step started: some agent was sent START (its start_ns is set) */
static bool s_started(const cJSON *steps)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, steps) if (cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
					     s, "start_ns")) > 0) return true;
	return false;
}

/*
 * --resume DIR: the run directory as the replay of its events.jsonl leaves
 * it (run.json, seconds.bin; bc_rebuild_resume), opened to append, and
 * where the profile goes on (*at). *run: run.json so far. 0 or -errno.
 */
static int s_resume_open(struct bc_rundir *rd, const struct bc_run_opts *o,
			 const struct bc_profile *p, cJSON **run, struct bc_resume_at *at,
			 struct bc_resume *res, char *err, size_t errlen)
{
	int rc;

	rc = bc_rebuild_resume(o->resume_dir, res, err, errlen);
	if (rc)
		return rc;
	if (res->ended) {
		snprintf(err, errlen, "%s: the run ended (status %s): there is nothing to resume",
			 o->resume_dir,
			 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res->run, "status"))
			     ?: "?");
		bc_secw_close(res->secw);
		cJSON_Delete(res->run);
		return -EINVAL;
	}
	bc_resume_plan(p, cJSON_GetObjectItemCaseSensitive(res->run, "steps"), at);
	/* a step the log ends in is re-attached to only when it is the one cut short */
	if (!at->interrupted || at->why || !res->open_step ||
	    strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(at->interrupted, "status"))
		       ?: "",
		   "incomplete"))
		bc_resume_free(res);
	rc = bc_rundir_reopen(rd, o->resume_dir, res->secw, res->secw_steps, res->events_end,
			      res->records_end, err, errlen);
	if (rc) {
		if (!rd->secw)
			bc_secw_close(res->secw);
		cJSON_Delete(res->run);
		return rc;
	}
	rd->compact = o->events_format == BC_EVENTS_COMPACT;
	rd->binary = o->events_format == BC_EVENTS_AUTO || o->events_format == BC_EVENTS_BINARY;
	*run = res->run;
	cJSON_DeleteItemFromObject(*run, "rebuilt_from");
	cJSON_DeleteItemFromObject(*run, "events_skipped");
	cJSON_ReplaceItemInObject(*run, "status", cJSON_CreateString("running"));
	return 0;
}

struct s_reload {
	struct bc_rundir *rd;
	const struct bc_run_opts *o;
	const struct bc_profile *p;
	cJSON **run;
	struct bc_resume_at *at;
	struct bc_resume *res;
	char err[1024];
	int rc;
};

/* the log replayed again with the re-attached step in it (beside the fleet: seconds at scale) */
static void s_reload(void *arg)
{
	struct s_reload *x = arg;

	bc_rundir_close(x->rd);
	cJSON_Delete(*x->run);
	*x->run = NULL;
	bc_resume_free(x->res);
	x->rc = s_resume_open(x->rd, x->o, x->p, x->run, x->at, x->res, x->err, sizeof(x->err));
}

/*
 * The step the dead coordinator left running on agents that kept it
 * (orphan_grace): taken up to its end (run/reattach.h), then the log
 * replayed again, so that the run goes on after it. 0, or -errno with err
 */
static int s_resume_reattach(struct bc_fleet *fleet, struct bc_rundir *rd,
			     const struct bc_run_opts *o, const struct bc_profile *p, cJSON **run,
			     struct bc_resume_at *at, struct bc_resume *res, char *name,
			     size_t namelen, char *err, size_t errlen)
{
	struct s_reload x = {rd, o, p, run, at, res, "", 0};
	char why[1024], line[1200];
	int rc;

	if (!res->open_step)
		return 0;
	snprintf(name, namelen, "%s",
		 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res->open_step, "name"))
		     ?: "?");
	/*
	 * run.json as the first replay left it is not read while the step is
	 * taken up, and the log is replayed again after it whatever happens: it
	 * is freed now. Its entry of the interrupted step holds that step's
	 * series, in cJSON about ten times their size in run.json (at 1,024
	 * volumes, 190 s into the step: 90 MB the taken-up step held on top of
	 * what the live one does).
	 */
	cJSON_Delete(*run);
	*run = res->run = NULL;
	at->interrupted = NULL;
	rc = bc_reattach_run(fleet, rd, res, why, sizeof(why));
	if (!rc) {
		snprintf(line, sizeof(line), "the step in flight is run again from its start: %s",
			 why);
		bc_live_fold(bc_live_out(), bc_live_cols(), 4, line);
		name[0] = 0;
	}
	bc_fleet_beside(fleet, s_reload, &x);
	if (x.rc)
		snprintf(err, errlen, "%s", x.err);
	else if (rc < 0)
		snprintf(err, errlen, "%s", why);
	return x.rc ? x.rc : rc < 0 ? rc : 0;
}

/* the run_resume event, and where the run goes on; reattached: the step taken up, or "" */
static void s_resume_note(struct bc_rundir *rd, const struct bc_profile *p, cJSON *run,
			  const struct bc_resume_at *at, const char *reattached)
{
	char when[32], line[BC_PATH_MAX + 400];
	cJSON *ev;

	if (at->interrupted)
		bc_rebuild_mark_interrupted(at->interrupted);
	s_iso_now(when, sizeof(when));
	ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "resumed", when);
	cJSON_AddNumberToObject(ev, "step", at->step);
	if (at->step < p->nsteps)
		cJSON_AddStringToObject(ev, "from_step", p->steps[at->step].name);
	cJSON_AddNumberToObject(ev, "points_done", at->points);
	if (at->interrupted)
		cJSON_AddStringToObject(ev, "interrupted",
					cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
					    at->interrupted, "name")));
	if (at->why)
		cJSON_AddStringToObject(ev, "why", at->why);
	if (reattached[0])
		cJSON_AddStringToObject(ev, "reattached", reattached);
	bc_rebuild_resume_note(run, ev);
	bc_rundir_event(rd, "run_resume", ev);
	if (at->step < p->nsteps)
		snprintf(line, sizeof(line), "resuming %s at step %s%s%.0d%s%s%s", rd->path,
			 p->steps[at->step].name, at->points ? ", after point " : "", at->points,
			 at->interrupted ? " (the interrupted entry is kept, marked)" : "",
			 at->why ? ": " : "", at->why ? at->why : "");
	else
		snprintf(line, sizeof(line),
			 "resuming %s: every step completed, writing the results", rd->path);
	bc_live_fold(bc_live_out(), bc_live_cols(), 4, line);
}

int bc_cmd_run(int argc, char **argv)
{
	struct bc_run_opts o = {.output_dir = "reports",
				.connect_timeout_ms = 5000,
				.prepare_timeout_ms = 60000,
				.agg_threads = -1};
	struct bc_profile *p = NULL;
	struct bc_fleet fleet = {0};
	struct bc_rundir rd = {0};
	cJSON *run = NULL, *steps, *ev;
	struct bc_resume_at at = {0};
	struct bc_resume res = {0};
	char err[1024] = "", when[32], ppath[BC_PATH_MAX + 16], reattached[BC_NAME_MAX] = "";
	int rc, i, status = 1, first_rc = 0;
	bool degraded = false, not_started = false;
	struct timespec final = {0};
	struct bc_counters *counters = NULL;
	struct bc_metrics *metrics = NULL;

	if (s_parse(argc, argv, &o))
		return 2;
	/*
	 * Every second the receive path allocates a second's worth of messages
	 * (~20 MB at 1,000 agents) and frees it moments later; glibc's default
	 * returns such a top of heap to the kernel each time, and the next second
	 * faults it back in page by page on the loop's critical path. Keep it.
	 */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	bc_live_init(o.quiet ? BC_LIVE_QUIET : (enum bc_live_mode)o.live);
	bc_live_set_format((enum bc_live_format)o.format);
	if (o.resume_dir) { /* the profile as the run directory holds it */
		snprintf(ppath, sizeof(ppath), "%s/profile.json", o.resume_dir);
		o.profile_path = ppath;
	}
	rc = bc_profile_load(o.profile_path, &p, err, sizeof(err));
	if (rc) {
		bc_error("%s", err);
		return 2;
	}
	if (o.metrics_listen) {
		metrics = bc_metrics_start(o.metrics_listen, p->name, err, sizeof(err));
		if (!metrics) {
			bc_error("%s", err);
			bc_profile_destroy(&p);
			return 2;
		}
	}
	/* node counter sources are checked before anything starts */
	counters = bc_counters_new(p, err, sizeof(err));
	if (!counters) {
		bc_error("%s", err);
		bc_metrics_stop(&metrics);
		bc_profile_destroy(&p);
		return 2;
	}
	/* every sample into events.jsonl as it is taken: a kill loses none (run/rebuild.h) */
	bc_counters_set_log(counters, s_log_scrape, &rd);
	zsys_init();
	zsys_set_logstream(NULL);
	if (o.resume_dir) {
		rc = s_resume_open(&rd, &o, p, &run, &at, &res, err, sizeof(err));
		if (rc) {
			bc_error("%s", err);
			status = 2;
			goto out;
		}
		steps = cJSON_GetObjectItemCaseSensitive(run, "steps");
		goto connect;
	}
	rc = bc_rundir_create(&rd, o.output_dir, p->name, err, sizeof(err));
	if (rc) {
		bc_error("%s", err);
		goto out;
	}
	/*
	 * records.bin by default: JSON histograms are ~5 KB per volume-second
	 * (and ~0.2 core of the writer at 16,000 volumes), base64 ~1.5 KB
	 */
	rd.compact = o.events_format == BC_EVENTS_COMPACT;
	rd.binary = o.events_format == BC_EVENTS_AUTO || o.events_format == BC_EVENTS_BINARY;
	{
		struct bc_space_plan plan = {.agents = p->nagents,
					     .volumes = p->nvolumes,
					     .json = !rd.binary && !rd.compact,
					     .compact = rd.compact};
		uint32_t secs, entries;

		/* a filesystem too small for the run is said before anything runs */
		bc_run_profile_size(p, &secs, &entries);
		plan.seconds = secs;
		plan.entries = entries;
		bc_space_prerun(rd.path, &plan);
	}
	bc_rundir_write_json(&rd, "profile.json", (run = bc_profile_to_json(p)));
	cJSON_Delete(run);
	run = cJSON_CreateObject();
	s_iso_now(when, sizeof(when));
	cJSON_AddStringToObject(run, "tool", "bench-coord " BC_VERSION);
	cJSON_AddStringToObject(run, "profile", p->name);
	cJSON_AddStringToObject(run, "started", when);
	cJSON_AddStringToObject(run, "status", "running");
	if (o.format == BC_LIVE_FMT_VDBENCH)
		cJSON_AddStringToObject(run, "format", "vdbench");
	steps = cJSON_AddArrayToObject(run, "steps");
	ev = cJSON_CreateObject();
	cJSON_AddStringToObject(ev, "profile", p->name);
	cJSON_AddStringToObject(ev, "source", o.profile_path);
	cJSON_AddStringToObject(ev, "started", when); /* for rebuilds */
	if (o.format == BC_LIVE_FMT_VDBENCH)
		cJSON_AddStringToObject(ev, "format", "vdbench");
	bc_rundir_event(&rd, "run_start", ev);
	{
		char line[sizeof(rd.path) + BC_NAME_MAX + 128];

		snprintf(line, sizeof(line),
			 "bench-coord %s: profile %s, %d agent(s), %d volume(s), %d step(s)",
			 BC_VERSION, p->name, p->nagents, p->nvolumes, p->nsteps);
		bc_live_fold(bc_live_out(), bc_live_cols(), 4, line);
		snprintf(line, sizeof(line), "results: %s", rd.path);
		bc_live_fold(bc_live_out(), bc_live_cols(), 4, line);
	}
connect:
	fflush(bc_live_out());

	rc = bc_fleet_open(&fleet, p, &o, rd.path, err, sizeof(err));
	fleet.counters = counters;
	fleet.metrics = metrics;
	/* resumed: the step in flight, taken over from agents that kept it running */
	if (!rc)
		bc_reattach_plan(&fleet, &res);
	if (!rc)
		rc = bc_fleet_hello(&fleet, err, sizeof(err));
	/* before a step in flight is taken up: its clock drift is measured from here */
	if (!rc)
		rc = bc_fleet_clock_sync(&fleet, err, sizeof(err));
	if (!rc && o.resume_dir)
		rc = s_resume_reattach(&fleet, &rd, &o, p, &run, &at, &res, reattached,
				       sizeof(reattached), err, sizeof(err));
	if (!run) { /* the log could not be replayed again: nothing to write results from */
		bc_error("%s", err);
		bc_fleet_close(&fleet);
		status = 2;
		goto out;
	}
	if (o.resume_dir) {
		s_resume_note(&rd, p, run, &at, reattached);
		steps = cJSON_GetObjectItemCaseSensitive(run, "steps");
	}
	/* resumed: the agents as this coordinator found them */
	if (cJSON_GetObjectItemCaseSensitive(run, "agents"))
		cJSON_ReplaceItemInObject(run, "agents", s_agents_json(&fleet));
	else
		cJSON_AddItemToObject(run, "agents", s_agents_json(&fleet));
	if (rc) {
		bc_error("%s", err);
		cJSON_AddStringToObject(run, "error", err);
		goto done;
	}
	ev = cJSON_CreateObject();
	cJSON_AddItemToObject(ev, "agents", s_agents_json(&fleet));
	bc_rundir_event(&rd, "agents", ev);
	for (i = at.step; i < p->nsteps; i++) {
		struct s_flush fl = {&rd,
				     p,
				     run,
				     i == p->nsteps - 1,
				     !p->steps[i].sweep && !p->steps[i].experiment,
				     o.results_delay_ms};

		rc = bc_run_profile_step(&fleet, &rd, i, i == at.step ? at.points : 0, steps,
					 s_flush, &fl, &degraded, err, sizeof(err));
		/* stopped by the user in a step that runs until stopped: the rest never ran */
		if (rc == -ECANCELED && fleet.user_stopped)
			rc = 0;
		if (rc && !first_rc) {
			first_rc = rc;
			bc_error("step %s: %s", p->steps[i].name, err);
			cJSON_AddStringToObject(run, "error", err);
		}
		/* every step after the one that stopped the run is recorded, as never started */
		if (rc && !fleet.halted[0] && rc == -ECANCELED)
			snprintf(fleet.halted, sizeof(fleet.halted), "%s",
				 strncmp(err, "not started: ", 13) ? err : err + 13);
		else if (rc && !fleet.halted[0])
			snprintf(fleet.halted, sizeof(fleet.halted), "the run stopped at step %s%s",
				 p->steps[i].name,
				 zsys_interrupted ? " (interrupted: SIGINT/SIGTERM)" : "");
	}
	rc = first_rc;
	if (!rc)
		status = degraded ? 3 : 0;
done:
	/* failed before the first START (unreachable agent, PREPARE refused): nothing ran */
	not_started = status && !s_started(steps);
	cJSON_ReplaceItemInObject(run, "status",
				  cJSON_CreateString(status == 3   ? "degraded"
						     : not_started ? "not started"
						     : status
							 ? (zsys_interrupted ? "aborted" : "failed")
							 : "ok"));
	s_iso_now(when, sizeof(when));
	cJSON_AddStringToObject(run, "finished", when);
	bc_fleet_close(&fleet);
	clock_gettime(CLOCK_REALTIME, &final);
	s_write_results(&rd, p, run, !not_started);
	/* the run measured, but its results could not be written: it failed all the same */
	if (bc_outfail_rc() && (status == 0 || status == 3)) {
		char what[160];

		status = 1;
		cJSON_ReplaceItemInObject(run, "status", cJSON_CreateString("failed"));
		cJSON_DeleteItemFromObject(run, "error");
		cJSON_AddStringToObject(run, "error", bc_outfail_text(what, sizeof(what)));
		bc_runjson_write(rd.path, run, NULL); /* as far as there is room */
	}
	ev = cJSON_CreateObject();
	/* what run.json says, for rebuilds */
	cJSON_AddItemToObject(ev, "status", cJSON_Duplicate(cJSON_GetObjectItem(run, "status"), 1));
	cJSON_AddStringToObject(ev, "finished", when);
	bc_rundir_event(&rd, "run_end", ev);
	/* everything on disk (or its failure named) before the closing line says what is there */
	bc_rundir_close(&rd);
	if (bc_outfail_rc() && status != 1)
		status = 1;
	if (not_started && !bc_outfail_rc()) {
		fprintf(bc_live_out(),
			"\nrun NOT STARTED, nothing was measured: %s/ (run.json "
			"and the agents' logs, no reports)\n",
			rd.path);
	} else {
		char line[sizeof(rd.path) + 400], files[160], what[160];

		s_written(rd.path, &final, files, sizeof(files));
		if (bc_outfail_rc())
			snprintf(line, sizeof(line),
				 "run FAILED, %s; what was measured until then is in events.jsonl: "
				 "%s/ (%s); %s, then: bench-coord report --rebuild %s",
				 bc_outfail_text(what, sizeof(what)), rd.path, files,
				 bc_outfail_remedy(), rd.path);
		else
			snprintf(line, sizeof(line), "%s: %s/ (%s)",
				 status == 3 ? "run completed WITHOUT some agents (lost), results"
				 : status    ? "run FAILED, partial results"
					     : "results",
				 rd.path, files);
		fprintf(bc_live_out(), "\n");
		bc_live_fold(bc_live_out(), bc_live_cols(), 4, line);
	}
out:
	bc_resume_free(&res);
	bc_counters_destroy(&counters);
	bc_metrics_stop(&metrics);
	bc_rundir_close(&rd);
	cJSON_Delete(run);
	bc_profile_destroy(&p);
	return status;
}
