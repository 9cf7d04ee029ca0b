/*
 * cmd/report.c - `bench-coord report RUN_DIR...`: regenerate every report
 * (summary.md, report.html, volumes.html, volumes.csv, timeseries.csv,
 * fio.json) of a run directory
 * from its run.json, profile.json and events.jsonl. When run.json is
 * missing or was left incomplete by a coordinator that died (status
 * "running"), or with --rebuild, run.json is first rebuilt from
 * events.jsonl (rebuild.c). With --window A-B, the run's figures over
 * seconds [A, B) of every step, into a new directory (or summary.md on
 * stdout), replayed from events.jsonl by the same rebuild. Exit 0 when
 * every directory was reported, 1 otherwise, 2 for bad usage.
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "profile/value/units.h"
#include "report/parts/rundata.h"
#include "report/report.h"
#include "run/rebuild.h"
#include "util/log.h"
#include "util/rjson.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord report [--rebuild] [--format F] RUN_DIR...\n"
		   "       bench-coord report --window A-B [--out DIR|-] [--format F] RUN_DIR\n"
		   "  regenerate summary.md, report.html, volumes.html, volumes.csv,\n"
		   "  timeseries.csv and fio.json from RUN_DIR/run.json (with profile.json\n"
		   "  and events.jsonl)\n"
		   "      --rebuild     rebuild run.json from events.jsonl first\n"
		   "      --format F    vdbench: summary.md carries vdbench's interval table per\n"
		   "                    step (a run made with --format vdbench always does);\n"
		   "                    bench-coord (default): as the run was made\n"
		   "      --window A-B  every step's figures over its seconds A to B (second 0 is\n"
		   "                    the step's first, ramp included; B excluded; \"30-\": to\n"
		   "                    the end; durations as in profiles: \"1m-2m\"), replayed\n"
		   "                    from events.jsonl; the run's own files are not touched\n"
		   "      --out DIR     where the window's run.json and reports go (default\n"
		   "                    RUN_DIR/window-A-B); \"-\": summary.md on stdout\n");
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
	printf("%s: summary.md report.html volumes.html volumes.csv timeseries.csv fio.json\n",
	       dir);
	return 0;
}

/* one side of --window: whole seconds ("30", "30s", "2m"); 0 or -EINVAL */
static int s_window_end(const char *s, uint32_t *sec)
{
	uint64_t ms;

	if (bc_parse_duration_ms(s, &ms) || ms % 1000 || ms / 1000 >= UINT32_MAX)
		return -EINVAL;
	*sec = (uint32_t)(ms / 1000);
	return 0;
}

/* "A-B" or "A-" (to the end of each step) into [from, to); 0 or -EINVAL */
static int s_window_parse(const char *arg, uint32_t *from, uint32_t *to)
{
	char a[64];
	const char *dash = strchr(arg, '-');

	if (!dash || (size_t)(dash - arg) >= sizeof(a) || dash == arg)
		return -EINVAL;
	memcpy(a, arg, (size_t)(dash - arg));
	a[dash - arg] = '\0';
	if (s_window_end(a, from))
		return -EINVAL;
	if (!dash[1])
		*to = UINT32_MAX;
	else if (s_window_end(dash + 1, to))
		return -EINVAL;
	return *to > *from ? 0 : -EINVAL;
}

static int s_rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

/* out/NAME: a copy of dir/NAME (small files: profile.json); 0 or -errno */
static int s_copy(const char *dir, const char *out, const char *name)
{
	char src[BC_PATH_MAX + 64], dst[BC_PATH_MAX + 64], buf[65536];
	FILE *in, *o;
	size_t n;
	int rc = 0;

	snprintf(src, sizeof(src), "%s/%s", dir, name);
	snprintf(dst, sizeof(dst), "%s/%s", out, name);
	in = fopen(src, "r");
	if (!in)
		return -errno;
	o = fopen(dst, "w");
	if (!o) {
		rc = -errno;
		goto out;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, o) != n)
			rc = -EIO;
	if (ferror(in))
		rc = -EIO;
	if (fclose(o) && !rc)
		rc = -errno;
out:
	fclose(in);
	return rc;
}

/*
 * --window: OUT gets profile.json (a copy), events.jsonl (a symbolic link
 * to the run's: the devices and heatmaps are read from it, and it may be
 * gigabytes), then run.json and seconds.bin of the window and every
 * report. OUT "-": the same in a temporary directory, summary.md copied
 * to stdout, the directory removed.
 */
static int s_report_window(const char *dir, const char *out_arg, uint32_t from, uint32_t to,
			   bool vdbench)
{
	char out[BC_PATH_MAX], rdir[PATH_MAX], rout[PATH_MAX], ev[PATH_MAX + 32];
	char link[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128];
	bool to_stdout = out_arg && !strcmp(out_arg, "-");
	struct stat sb;
	int rc = -1;

	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode) || !realpath(dir, rdir))
		return bc_error("'%s' is not a run directory", dir);
	if (to_stdout) {
		const char *tmp = getenv("TMPDIR");

		snprintf(out, sizeof(out), "%s/bench-coord-window.XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(out))
			return bc_error("cannot make a directory '%s': %s", out, strerror(errno));
	} else {
		if (out_arg)
			snprintf(out, sizeof(out), "%s", out_arg);
		else if (to == UINT32_MAX)
			snprintf(out, sizeof(out), "%s/window-%u-end", dir, from);
		else
			snprintf(out, sizeof(out), "%s/window-%u-%u", dir, from, to);
		if (mkdir(out, 0755) && errno != EEXIST)
			return bc_error("cannot make the directory '%s': %s", out, strerror(errno));
	}
	if (!realpath(out, rout) || !strcmp(rout, rdir)) {
		bc_error("--out '%s': must be a directory other than the run's", out);
		goto out;
	}
	rc = s_copy(dir, out, "profile.json");
	if (rc) {
		bc_error("cannot copy '%s/profile.json' into '%s': %s", dir, out, strerror(-rc));
		goto out;
	}
	snprintf(ev, sizeof(ev), "%s/events.jsonl", rdir);
	snprintf(link, sizeof(link), "%s/events.jsonl", out);
	unlink(link);
	if (symlink(ev, link)) {
		rc = bc_error("cannot link '%s' to '%s': %s", link, ev, strerror(errno));
		goto out;
	}
	rc = bc_rebuild_window(dir, out, from, to, err, sizeof(err));
	if (rc) {
		bc_error("%s", err);
		goto out;
	}
	rc = vdbench ? bc_report_write_all_vdbench(out) : bc_report_write_all(out);
	if (rc)
		goto out;
	if (to_stdout) {
		char md[BC_PATH_MAX + 32], buf[65536];
		FILE *f;
		size_t n;

		snprintf(md, sizeof(md), "%s/summary.md", out);
		f = fopen(md, "r");
		if (!f) {
			rc = bc_error("cannot open '%s': %s", md, strerror(errno));
			goto out;
		}
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, stdout);
		fclose(f);
	} else {
		char end[16] = "end";

		if (to != UINT32_MAX)
			snprintf(end, sizeof(end), "%u", to);
		printf("%s: window %u-%s of %s: run.json summary.md report.html timeseries.csv "
		       "fio.json\n",
		       out, from, end, dir);
	}
out:
	if (to_stdout)
		nftw(out, s_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return rc ? -1 : 0;
}

int bc_cmd_report(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"rebuild", no_argument, NULL, 'R'},      {"format", required_argument, NULL, 'F'},
	    {"window", required_argument, NULL, 'W'}, {"out", required_argument, NULL, 'O'},
	    {"help", no_argument, NULL, 'h'},	      {NULL, 0, NULL, 0},
	};
	bool rebuild = false, vdbench = false, window = false;
	const char *out = NULL;
	uint32_t from = 0, to = 0;
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
		case 'W':
			if (s_window_parse(optarg, &from, &to)) {
				bc_error("--window: expected A-B or A- in whole seconds, B after A "
					 "(\"30-90\", \"1m-2m\", \"30-\"): '%s'",
					 optarg);
				return 2;
			}
			window = true;
			break;
		case 'O':
			out = optarg;
			break;
		default:
			return bc_cmd_help(c, s_usage);
		}
	}
	if (optind >= argc)
		return bc_cmd_bad_usage(s_usage);
	if ((out && !window) || (window && (rebuild || argc - optind != 1))) {
		bc_error(
		    "--out goes with --window, and --window with one RUN_DIR and no --rebuild");
		return 2;
	}
	for (i = optind; i < argc; i++) {
		char dir[BC_PATH_MAX];
		size_t n;

		/* "runs/x/" and "runs/x" are the same directory in messages too */
		snprintf(dir, sizeof(dir), "%s", argv[i]);
		for (n = strlen(dir); n > 1 && dir[n - 1] == '/'; n--)
			dir[n - 1] = '\0';
		if (window)
			bad += s_report_window(dir, out, from, to, vdbench) != 0;
		else
			bad += s_report_one(dir, rebuild, vdbench) != 0;
	}
	return bad ? 1 : 0;
}
