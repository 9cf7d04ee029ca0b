/*
 * cmd_report.c - `bench-coord report RUN_DIR...`: regenerate every report
 * (summary.md, report.html, timeseries.csv, fio.json) of a run directory
 * from its run.json, profile.json and events.jsonl. When run.json is
 * missing or was left incomplete by a coordinator that died (status
 * "running"), or with --rebuild, run.json is first rebuilt from
 * events.jsonl (rebuild.c). Exit 0 when every directory was reported, 1
 * otherwise, 2 for bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bc_log.h"
#include "bc_cmd.h"
#include "bc_rebuild.h"
#include "bc_report.h"
#include "bc_rjson.h"
#include "bc_rundata.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord report [--rebuild] [--format F] RUN_DIR...\n"
		   "  regenerate summary.md, report.html, timeseries.csv and fio.json from\n"
		   "  RUN_DIR/run.json (with profile.json and events.jsonl)\n"
		   "      --rebuild   rebuild run.json from events.jsonl first\n"
		   "      --format F  vdbench: summary.md carries vdbench's interval table per\n"
		   "                  step (a run made with --format vdbench always does);\n"
		   "                  bench-coord (default): as the run was made\n");
}

/* the status run.json records, or NULL when it is missing or unreadable */
static char *s_run_status(const char *dir)
{
	char err[BC_PATH_MAX + 64], *st;
	cJSON *run = bc_rj_read_file(dir, "run.json", err, sizeof(err));

	if (!run)
		return NULL;
	st = strdup(bc_rj_str("?", run, "status"));
	cJSON_Delete(run);
	return st;
}

static int s_report_one(const char *dir, bool rebuild, bool vdbench)
{
	char err[BC_PATH_MAX + 128];
	char *status = s_run_status(dir);
	bool incomplete = status && !strcmp(status, "running");
	struct stat sb;
	int rc;

	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		free(status);
		return bc_error("'%s' is not a run directory", dir);
	}
	/* the hook for runs whose coordinator died: run.json from the event log */
	if (rebuild || !status || incomplete) {
		rc = bc_rebuild_from_events(dir, err, sizeof(err));
		if (rc && (rebuild || !status)) {
			bc_error("%s", err);
			free(status);
			return -1;
		}
		if (rc)
			bc_warn("%s/run.json is incomplete (status \"running\": the run did not "
				"finish) and rebuilding it failed (%s); reporting what it holds",
				dir, err);
	}
	free(status);
	if (vdbench ? bc_report_write_all_vdbench(dir) : bc_report_write_all(dir))
		return -1;
	printf("%s: summary.md report.html timeseries.csv fio.json\n", dir);
	return 0;
}

int bc_cmd_report(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"rebuild", no_argument, NULL, 'R'},
	    {"format", required_argument, NULL, 'F'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	bool rebuild = false, vdbench = false;
	int c, i, bad = 0;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'R':
			rebuild = true;
			break;
		case 'F':
			if (strcmp(optarg, "vdbench") && strcmp(optarg, "bench-coord")) {
				bc_error("--format: expected bench-coord or vdbench: '%s'", optarg);
				return 2;
			}
			vdbench = !strcmp(optarg, "vdbench");
			break;
		case 'h':
			s_usage(stdout);
			return 0;
		default:
			s_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		s_usage(stderr);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		char dir[BC_PATH_MAX];
		size_t n;

		/* "runs/x/" and "runs/x" are the same directory in messages too */
		snprintf(dir, sizeof(dir), "%s", argv[i]);
		for (n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
			dir[n - 1] = '\0';
		bad += s_report_one(dir, rebuild, vdbench) != 0;
	}
	return bad ? 1 : 0;
}
