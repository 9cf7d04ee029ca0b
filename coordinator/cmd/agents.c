/*
 * cmd/agents.c - `bench-coord agents PROFILE`: reach every agent of a
 * profile (starting the "local" ones) with HELLO and the clock exchange, and
 * show what it says about itself - version, host, CPUs, kernel, the profile's
 * paths on it - and the measured clock offset and round trip; then the
 * pre-flight: each agent checks every volume as PREPARE would (preflight.c).
 * Read-only: nothing is prepared, created or written on the agents. Exit 0
 * when every agent answered and no volume would be refused, 1 otherwise, 2
 * for bad usage or an invalid profile.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "fleet/fleet.h"
#include "run/preflight.h"
#include "results/fidelity.h"
#include "util/log.h"
#include "util/rjson.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord agents [options] PROFILE.json\n"
		   "  contact every agent of the profile and show version, host, devices and\n"
		   "  clock offset, and have each agent check every volume as PREPARE would\n"
		   "  (allowlist, existence, size, in use, signature, destructive consent);\n"
		   "  nothing is prepared or written; exit 1 if a volume would be refused\n"
		   "      --connect-timeout S   seconds to wait for every HELLO (default 5)\n"
		   "      --json                one JSON document on stdout instead of tables\n"
		   "      --cert FILE           coordinator key pair (as for run)\n"
		   "      --known-hosts FILE    agents' server keys (as for run)\n"
		   "      --insecure            plain text to profile agents (as for run)\n");
}

static void s_checks_table(const struct bc_fleet *f, cJSON *const *checks)
{
	const cJSON *o, *st;
	int i;

	printf("\n%-16s %-24s %s\n", "agent", "volume", "pre-flight (as PREPARE would check)");
	for (i = 0; i < f->n; i++)
		cJSON_ArrayForEach(o, checks[i])
		{
			const char *msg = bc_rj_str(NULL, o, "message");

			char vol[BC_NAME_MAX + BC_PATH_MAX + 2], text[1024];
			int warn;

			printf("%-16s %-24s ", f->conns[i].spec->name, bc_rj_str("?", o, "path"));
			snprintf(vol, sizeof(vol), "%s:%s", f->conns[i].spec->name,
				 bc_rj_str("?", o, "path"));
			warn = bc_rj(o, "backing")
				   ? bc_fidelity_backing_text(vol, bc_rj(o, "backing"), text,
							      sizeof(text))
				   : (text[0] = 0, 0);
			if (!msg) {
				/* accepted: what backs its window on a line of its own */
				printf("ok%s%s\n", bc_rj_str(NULL, o, "note") ? ": " : "",
				       bc_rj_str("", o, "note"));
				if (text[0])
					printf("%-41s %s%s\n", "", warn ? "WARNING: " : "", text);
				continue;
			}
			printf("REFUSED (step");
			cJSON_ArrayForEach(st, bc_rj(o, "steps")) printf(" %s", st->valuestring);
			printf("): %s\n", msg);
		}
}

/*
 * What each agent refused since it started (HELLO_OK's security.dropped),
 * and the peers it refused most: a flood or a misconfigured coordinator
 * shows here before it shows as a failed run
 */
static void s_security(const struct bc_fleet *f)
{
	static const char *const keys[] = {
	    "rejected_keys", "handshake_failures",     "handshake_timeouts",
	    "malformed",     "wrong_version",	       "oversized",
	    "refused",	     "unauthenticated_closed", "announce_closed"};
	static const char *const heads[] = {"keys",   "handshk", "timeout", "malform", "version",
					    "oversz", "refused", "closed",  "announce"};
	const cJSON *p;
	size_t k;
	int i;

	printf("\n%-16s", "agent dropped:");
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		printf(" %9s", heads[k]);
	printf("   (rejected keys, failed handshakes, handshake timeouts, malformed, other "
	       "versions, oversized, refused, unauthenticated connections closed on the control "
	       "port and on the key-announce port)\n");
	for (i = 0; i < f->n; i++) {
		const cJSON *d = bc_rj(f->conns[i].hello, "security", "dropped");

		printf("%-16s", f->conns[i].spec->name);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (cJSON_IsNumber(bc_rj(d, keys[k])))
				printf(" %9.0f", bc_rj_num(d, keys[k]));
			else
				printf(" %9s", "-");
		printf("\n");
		cJSON_ArrayForEach(p, bc_rj(f->conns[i].hello, "security", "peers"))
		    printf("%-16s   from %s: %.0f closed on the control port, %.0f on the announce "
			   "port, %.0f failed handshakes, %.0f dropped messages\n",
			   "", bc_rj_str("?", p, "address"), bc_rj_num(p, "unauthenticated_closed"),
			   bc_rj_num(p, "announce_closed"), bc_rj_num(p, "handshake_failures"),
			   bc_rj_num(p, "dropped_messages"));
	}
}

static void s_tables(const struct bc_fleet *f)
{
	const cJSON *p;
	int i;

	printf("%-16s %-28s %-16s %-11s %5s %4s %-30s %11s %9s\n", "agent", "endpoint", "host",
	       "bench-agent", "proto", "cpus", "kernel", "offset_us", "rtt_us");
	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];
		const cJSON *h = c->hello;

		printf("%-16s %-28s %-16.16s %-11.11s %5.0f %4.0f %-30.30s ", c->spec->name,
		       c->endpoint, bc_rj_str("-", h, "hostname"), bc_rj_str("-", h, "version"),
		       bc_rj_num(h, "protocol"), bc_rj_num(h, "cpus"), bc_rj_str("-", h, "kernel"));
		if (c->rtt_ns)
			printf("%11.1f %9.1f\n", (double)c->offset_ns / 1e3,
			       (double)c->rtt_ns / 1e3);
		else
			printf("%11s %9s\n", "-", "-");
	}
	s_security(f);
	printf("\n%-16s %-24s %-44s %-8s %14s %5s %5s\n", "agent", "volume", "resolved", "kind",
	       "size", "lbs", "pbs");
	for (i = 0; i < f->n; i++)
		cJSON_ArrayForEach(p, bc_rj(f->conns[i].hello, "paths"))
		    printf("%-16s %-24s %-44s %-8s %14.0f %5.0f %5.0f\n", f->conns[i].spec->name,
			   bc_rj_str("?", p, "path"), bc_rj_str("-", p, "resolved"),
			   bc_rj_str("-", p, "kind"), bc_rj_num(p, "size"), bc_rj_num(p, "lbs"),
			   bc_rj_num(p, "pbs"));
}

static void s_json(const struct bc_fleet *f, cJSON **checks)
{
	cJSON *arr = cJSON_CreateArray();
	char *text;
	int i;

	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];
		cJSON *a = cJSON_CreateObject();

		cJSON_AddStringToObject(a, "name", c->spec->name);
		cJSON_AddStringToObject(a, "endpoint", c->endpoint);
		cJSON_AddBoolToObject(a, "answered", c->hello != NULL);
		if (c->rtt_ns) {
			cJSON_AddNumberToObject(a, "clock_offset_ns", (double)c->offset_ns);
			cJSON_AddNumberToObject(a, "clock_rtt_ns", (double)c->rtt_ns);
		}
		if (c->hello)
			cJSON_AddItemToObject(a, "hello", cJSON_Duplicate(c->hello, 1));
		if (checks && checks[i]) {
			cJSON_AddItemToObject(a, "volumes", checks[i]);
			checks[i] = NULL;
		}
		cJSON_AddItemToArray(arr, a);
	}
	text = cJSON_Print(arr);
	if (text)
		printf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(arr);
}

/* one error line per volume that would be refused: agent, endpoint, path, the reason */
static void s_refusals(const struct bc_fleet *f, cJSON *const *checks, int refused)
{
	const cJSON *o;
	int i;

	for (i = 0; i < f->n; i++)
		cJSON_ArrayForEach(o, checks[i]) if (bc_rj_str(NULL, o, "message"))
		    bc_error("agent %s (%s): volume %s would be refused at PREPARE: %s",
			     f->conns[i].spec->name, f->conns[i].endpoint,
			     bc_rj_str("?", o, "path"), bc_rj_str("", o, "message"));
	bc_error("pre-flight: %d volume(s) would be refused; nothing was run", refused);
}

int bc_cmd_agents(int argc, char **argv)
{
	static const struct option own[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct option lopts[16];
	struct bc_run_opts o = {
	    .connect_timeout_ms = 5000, .prepare_timeout_ms = 60000, .quiet = true};
	struct bc_profile *p = NULL;
	struct bc_fleet fleet = {0};
	cJSON **checks = NULL;
	char err[1024] = "", logdir[] = "/tmp/bench-coord-agents.XXXXXX";
	bool json = false, keep_logs = false;
	int c, rc, status = 1, refused = 0;

	bc_cmd_longopts(own, BC_CMD_SHARED_SECURITY | BC_CMD_SHARED_CONNECT, lopts,
			sizeof(lopts) / sizeof(lopts[0]));
	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			s_usage(stdout);
			return 0;
		default:
			rc = bc_cmd_fleet_opt(c, optarg, &o);
			if (rc > 0)
				break;
			if (!rc)
				s_usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		s_usage(stderr);
		return 2;
	}
	o.profile_path = argv[optind];
	if (bc_profile_load(o.profile_path, &p, err, sizeof(err))) {
		bc_error("%s", err);
		return 2;
	}
	/* local agents log here; kept only when something went wrong */
	if (!mkdtemp(logdir)) {
		bc_error("cannot create '%s': %s", logdir, strerror(errno));
		goto out;
	}
	zsys_init();
	zsys_set_logstream(NULL);
	rc = bc_fleet_open(&fleet, p, &o, logdir, err, sizeof(err));
	if (!rc)
		rc = bc_fleet_hello(&fleet, err, sizeof(err));
	if (!rc)
		rc = bc_fleet_clock_sync(&fleet, err, sizeof(err));
	if (!rc && !(checks = calloc((size_t)fleet.n, sizeof(*checks)))) {
		snprintf(err, sizeof(err), "out of memory");
		rc = -ENOMEM;
	}
	if (!rc)
		rc = bc_preflight(&fleet, checks, &refused, err, sizeof(err));
	if (json)
		s_json(&fleet, checks);
	else if (fleet.conns)
		s_tables(&fleet);
	if (!json && !rc)
		s_checks_table(&fleet, checks);
	if (rc) {
		bc_error("%s", err);
		keep_logs = true;
	} else if (refused) {
		s_refusals(&fleet, checks, refused);
	} else {
		status = 0;
	}
	for (c = 0; checks && c < fleet.n; c++)
		cJSON_Delete(checks[c]);
	free(checks);
	bc_fleet_close(&fleet);
out:
	for (c = 0; !keep_logs && c < p->nagents; c++) {
		char path[BC_PATH_MAX];

		/* only the agent-<name>.log files bc_fleet_open may have made */
		snprintf(path, sizeof(path), "%s/agent-%s.log", logdir, p->agents[c].name);
		unlink(path);
	}
	/* kept only when a local agent left a log that may explain a failure */
	if (rmdir(logdir) && errno == ENOTEMPTY)
		bc_warn("local agents' logs are in %s", logdir);
	bc_profile_destroy(&p);
	return status;
}
