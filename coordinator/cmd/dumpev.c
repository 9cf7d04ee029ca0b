/*
 * cmd/dumpev.c - `bench-coord dump-events RUN_DIR`: events.jsonl as one
 * would have it with every record in it: each "stats" line of the binary
 * form (a line naming its frame of records.bin) printed as the line
 * `--events-format json` (or compact) writes, byte for byte, the other
 * lines as they are. --check reads every record and says what is missing.
 * Exit 0, 1 when a line names a record records.bin does not hold whole
 * (what it holds is still printed), 2 for bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "profile/profile.h"
#include "results/files/reclog.h"
#include "results/files/rundir.h"
#include "util/json.h"
#include "util/log.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord dump-events [options] RUN_DIR\n"
		   "  print RUN_DIR/events.jsonl with each record of records.bin in its line,\n"
		   "  as --events-format json writes it\n"
		   "      --compact     records as --events-format compact writes them (base64)\n"
		   "      --check       print nothing; read every record, say what is missing\n");
}

/* the profile indexes of agent's volumes in the profile's order (the body's order); count */
static int s_vols(const struct bc_profile *p, const char *agent, int *vols)
{
	int a, v, n = 0;

	for (a = 0; a < p->nagents && strcmp(p->agents[a].name, agent); a++)
		;
	if (a == p->nagents)
		return -1;
	for (v = 0; v < p->nvolumes; v++)
		if (p->volumes[v].agent == a)
			vols[n++] = v;
	return n;
}

int bc_cmd_dump_events(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"compact", no_argument, NULL, 'C'},
	    {"check", no_argument, NULL, 'c'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	char path[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128], *line = NULL;
	char *out = NULL;
	size_t cap = 0, out_cap = 0;
	struct bc_reclogr r = {.fd = -1};
	struct bc_profile *p = NULL;
	bool compact = false, check = false, have_r = false;
	uint64_t lines = 0, recs = 0, missing = 0, bad = 0;
	int c, rc = 0, *vols = NULL;
	const char *dir;
	FILE *f = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			compact = true;
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
	dir = argv[optind];
	snprintf(path, sizeof(path), "%s/profile.json", dir);
	if (bc_profile_load(path, &p, err, sizeof(err))) {
		bc_error("%s", err);
		rc = 1;
		goto out;
	}
	vols = calloc((size_t)p->nvolumes + 1, sizeof(int));
	if (!vols) {
		rc = 1;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, BC_RECLOG_NAME);
	/* a run in the json or compact form has no records.bin: its lines are printed as they are
	 */
	have_r = !bc_reclogr_open(&r, path, err, sizeof(err));
	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	f = fopen(path, "r");
	if (!f) {
		bc_error("cannot open '%s': %s", path, strerror(errno));
		rc = 1;
		goto out;
	}
	while (getline(&line, &cap, f) > 0) {
		cJSON *ev;
		const cJSON *off;
		struct bc_reclog_rec rec;
		const char *agent, *what;
		long n;
		int nv, grc;

		lines++;
		/* only the binary form's lines carry "rec": the others go through untouched */
		if (!strstr(line, "\"rec\":") || !(ev = bc_json_parse(line, strlen(line)))) {
			if (!check)
				fputs(line, stdout);
			continue;
		}
		off = cJSON_GetObjectItemCaseSensitive(ev, "rec");
		agent = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "agent"));
		what = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "event"));
		if (!cJSON_IsNumber(off) || !agent || !what || strcmp(what, "stats")) {
			if (!check)
				fputs(line, stdout);
			cJSON_Delete(ev);
			continue;
		}
		recs++;
		grc = have_r ? bc_reclogr_get(&r, bc_json_u64_of(off), &rec) : -ENOENT;
		if (!grc && strcmp(rec.agent, agent))
			grc = -EBADMSG;
		if (grc) {
			if (grc == -ENOENT)
				missing++;
			else
				bad++;
			bc_warn("%s:%" PRIu64 ": record at byte %" PRIu64 " of %s: %s", path, lines,
				bc_json_u64_of(off), BC_RECLOG_NAME,
				grc == -ENOENT ? "not in the file (cut short)"
					       : "damaged (CRC, or another agent's)");
			cJSON_Delete(ev);
			continue;
		}
		nv = s_vols(p, agent, vols);
		n = nv < 0 || check
			? 0
			: bc_rundir_stats_text(compact ? BC_EVENTS_COMPACT : BC_EVENTS_JSON, agent,
					       vols, nv, rec.body, rec.len, rec.time_ns, &out,
					       &out_cap);
		if (nv < 0 || n < 0) {
			bad++;
			bc_warn("%s:%" PRIu64 ": agent '%s': %s", path, lines, agent,
				nv < 0 ? "not in profile.json" : "its record does not decode");
		} else if (!check) {
			fwrite(out, 1, (size_t)n, stdout);
		}
		cJSON_Delete(ev);
	}
	if (check)
		printf("%" PRIu64 " lines, %" PRIu64 " records: %" PRIu64 " missing, %" PRIu64
		       " damaged\n",
		       lines, recs, missing, bad);
	if (missing || bad)
		rc = 1;
out:
	if (f)
		fclose(f);
	if (have_r)
		bc_reclogr_close(&r);
	bc_profile_destroy(&p);
	free(vols);
	free(line);
	free(out);
	return rc;
}
