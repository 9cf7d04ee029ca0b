/*
 * cmd/dump.c - `bench-coord dump-seconds RUN_DIR|FILE`: seconds.bin as text
 * a spreadsheet, pandas, awk or jq read: one CSV row (or JSON line) per
 * second per entity with its exact counters and percentiles in ns, or with
 * --hist one per non-empty histogram bucket. Exit 0, 1 when the file is
 * unreadable or truncated (what it holds is still printed), 2 for bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agg/agg.h"
#include "agg/secfile.h"
#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "report/parts/fmt.h"
#include "util/log.h"

static const char *const s_levels[BC_LVL_NR] = {"volume", "agent", "node", "total"};

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord dump-seconds [options] RUN_DIR|FILE\n"
		   "  print RUN_DIR/seconds.bin (or FILE): one CSV row per second per entity\n"
		   "      --step N      only step N (run.json's \"seconds_bin_step\")\n"
		   "      --level L     only level L: volume, agent, node or total\n"
		   "      --hist        histogram buckets instead of rows (nodes and total)\n"
		   "      --json        JSON lines instead of CSV\n"
		   "      --check       verify every frame's CRC first\n");
}

/* a name as a JSON string */
static void s_jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static const char *const s_fields[] = {
    "reports",	   "late",	 "read_ios", "write_ios", "trim_ios",	"read_bytes",
    "write_bytes", "trim_bytes", "errors",   "short_ios", "lat_sum_ns", "p50_ns",
    "p90_ns",	   "p99_ns",	 "p99.9_ns", "p99.99_ns", "max_ns",	"meta_ios"};
#define S_NFIELDS (sizeof(s_fields) / sizeof(s_fields[0]))

static void s_row(const struct bc_secr_step *s, uint32_t k, int lvl, int i,
		  const struct bc_secrow *r, bool json)
{
	uint64_t v[S_NFIELDS] = {
	    r->reports,	 r->late,     r->ios[0],  r->ios[1],	r->ios[2],     r->bytes[0],
	    r->bytes[1], r->bytes[2], r->errors,  r->short_ios, r->lat_sum_ns, r->p50_ns,
	    r->p90_ns,	 r->p99_ns,   r->p999_ns, r->p9999_ns,	r->max_ns,     r->ios[BC_OP_META]};
	size_t f;

	if (json) {
		printf("{\"step\":%u,\"step_name\":", s->ord);
		s_jstr(s->name);
		printf(",\"second\":%u,\"phase\":\"%s\",\"level\":\"%s\",\"index\":%d,"
		       "\"entity\":",
		       k, k < s->ramp_s ? "ramp" : "run", s_levels[lvl], i);
		s_jstr(s->names[lvl][i]);
		for (f = 0; f < S_NFIELDS; f++)
			printf(",\"%s\":%" PRIu64, s_fields[f], v[f]);
		fputs("}\n", stdout);
		return;
	}
	printf("%u,", s->ord);
	bc_csv_puts(stdout, s->name);
	printf(",%u,%s,%s,%d,", k, k < s->ramp_s ? "ramp" : "run", s_levels[lvl], i);
	bc_csv_puts(stdout, s->names[lvl][i]);
	for (f = 0; f < S_NFIELDS; f++)
		printf(",%" PRIu64, v[f]);
	fputs("\r\n", stdout);
}

static void s_hist(const struct bc_secr_step *s, uint32_t k, int lvl, int i,
		   const struct bc_hist *h, bool json)
{
	unsigned b;
	int o;

	for (o = 0; o < BC_OP_NR; o++)
		for (b = 0; b < BC_HIST_BUCKETS; b++) {
			if (!h[o].buckets[b])
				continue;
			if (json) {
				printf("{\"step\":%u,\"second\":%u,\"level\":\"%s\",\"index\":%d,"
				       "\"entity\":",
				       s->ord, k, s_levels[lvl], i);
				s_jstr(s->names[lvl][i]);
				printf(",\"op\":\"%s\",\"bucket\":%u,\"mid_ns\":%" PRIu64
				       ",\"count\":%" PRIu64 "}\n",
				       bc_op_names[o], b, bc_hist_bucket_mid(b), h[o].buckets[b]);
				continue;
			}
			printf("%u,%u,%s,%d,", s->ord, k, s_levels[lvl], i);
			bc_csv_puts(stdout, s->names[lvl][i]);
			printf(",%s,%u,%" PRIu64 ",%" PRIu64 "\r\n", bc_op_names[o], b,
			       bc_hist_bucket_mid(b), h[o].buckets[b]);
		}
}

/* every second of step s at the levels asked for; -errno on a bad frame */
static int s_dump_step(const struct bc_secr *r, const struct bc_secr_step *s, int only_lvl,
		       bool hist, bool json)
{
	struct bc_hist *h = hist ? malloc(BC_OP_NR * sizeof(*h)) : NULL;
	uint32_t k;
	int lvl, i, rc = 0;

	if (hist && !h)
		return -ENOMEM;
	for (k = 0; k < s->seconds && !rc; k++) {
		for (lvl = 0; lvl < BC_LVL_NR && !rc; lvl++) {
			if (only_lvl >= 0 && lvl != only_lvl)
				continue;
			for (i = 0; i < s->nent[lvl] && !rc; i++) {
				struct bc_secrow row;

				if (hist) {
					rc = bc_secr_hist(r, s->ord, k, lvl, i, h);
					if (!rc)
						s_hist(s, k, lvl, i, h, json);
				} else {
					rc = bc_secr_row(r, s->ord, k, lvl, i, &row);
					if (!rc)
						s_row(s, k, lvl, i, &row, json);
				}
				if (rc == -ENOENT) /* a second never closed, or no histograms */
					rc = 0;
			}
		}
	}
	free(h);
	return rc;
}

int bc_cmd_dump_seconds(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"step", required_argument, NULL, 's'},
	    {"level", required_argument, NULL, 'l'},
	    {"hist", no_argument, NULL, 'H'},
	    {"json", no_argument, NULL, 'j'},
	    {"check", no_argument, NULL, 'c'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	char path[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128], *end;
	bool hist = false, json = false, check = false;
	long step = -1;
	int c, lvl = -1, rc;
	struct bc_secr r;
	struct stat sb;
	size_t f;
	uint32_t i;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 's':
			step = strtol(optarg, &end, 10);
			if (*end || step < 0) {
				fprintf(stderr,
					"bench-coord dump-seconds: --step '%s': not a step "
					"number\n",
					optarg);
				return 2;
			}
			break;
		case 'l':
			for (lvl = 0; lvl < BC_LVL_NR && strcmp(optarg, s_levels[lvl]); lvl++)
				;
			if (lvl == BC_LVL_NR) {
				fprintf(stderr,
					"bench-coord dump-seconds: --level '%s': volume, agent, "
					"node or total\n",
					optarg);
				return 2;
			}
			break;
		case 'H':
			hist = true;
			break;
		case 'j':
			json = true;
			break;
		case 'c':
			check = true;
			break;
		default:
			return bc_cmd_help(c, s_usage);
		}
	}
	if (optind != argc - 1)
		return bc_cmd_bad_usage(s_usage);
	if (!stat(argv[optind], &sb) && S_ISDIR(sb.st_mode))
		snprintf(path, sizeof(path), "%s/%s", argv[optind], BC_SECF_NAME);
	else
		snprintf(path, sizeof(path), "%s", argv[optind]);
	if (bc_secr_open(&r, path, check, err, sizeof(err))) {
		bc_error("%s", err);
		return 1;
	}
	if (r.truncated)
		bc_warn("%s: truncated: frames after byte %" PRIu64 " of %" PRIu64
			" are cut short or damaged; printing what precedes them",
			path, r.valid_bytes, r.size);
	else if (!r.indexed)
		bc_info("%s: no index (the run was still writing it, or stopped): read frame by "
			"frame",
			path);
	if (!json && hist)
		fputs("step,second,level,index,entity,op,bucket,mid_ns,count\r\n", stdout);
	else if (!json) {
		fputs("step,step_name,second,phase,level,index,entity", stdout);
		for (f = 0; f < S_NFIELDS; f++)
			printf(",%s", s_fields[f]);
		fputs("\r\n", stdout);
	}
	rc = 0;
	for (i = 0; i < r.nsteps && !rc; i++)
		if (r.steps[i] && (step < 0 || (long)i == step))
			rc = s_dump_step(&r, r.steps[i], lvl, hist, json);
	if (step >= 0 && !bc_secr_step(&r, (uint32_t)step)) {
		bc_error("%s: no step %ld (it holds %u)", path, step, r.nsteps);
		rc = -ENOENT;
	}
	if (rc && rc != -ENOENT)
		bc_error("%s: %s", path, strerror(-rc));
	if (fflush(stdout))
		rc = -EIO;
	c = rc || r.truncated ? 1 : 0;
	bc_secr_close(&r);
	return c;
}
