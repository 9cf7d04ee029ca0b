/*
 * cmd/discover.c - `bench-coord discover`: one agent reads the discovery log
 * of an NVMe/TCP discovery controller (DISCOVER -> DISCOVERY_LOG; the agent
 * connects to it through /dev/nvme-fabrics unless a discovery controller to
 * that address exists, reads Get Log Page 70h and deletes what it connected)
 * and the entries are printed as a table or JSON. The agent is one of a
 * profile's (--agent NAME) or given by --endpoint. Nothing is prepared or
 * written. Exit 0 with the log, 1 when the agent could not read it or could
 * not be reached, 2 for bad usage.
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
#include "util/clock.h"
#include "util/log.h"
#include "util/rjson.h"
#include "wire/disc_msg.h"

static void s_usage(FILE *f)
{
	fprintf(f,
		"usage: bench-coord discover [options] PROFILE.json --agent NAME --traddr ADDR\n"
		"       bench-coord discover [options] --endpoint EP --traddr ADDR\n"
		"  one agent reads the NVMe/TCP discovery log at ADDR and lists its entries\n"
		"      --agent NAME          the profile's agent to ask (default: its only one)\n"
		"      --endpoint EP         an agent's endpoint (tcp://host:7470, or \"local\")\n"
		"      --traddr ADDR         the discovery controller's address (required)\n"
		"      --trsvcid PORT        its port (default 8009)\n"
		"      --hostnqn NQN         host NQN to connect with (default the kernel's)\n"
		"      --timeout S           seconds to wait for the log (default 60)\n"
		"      --json                one JSON document on stdout instead of a table\n"
		"      --cert FILE           coordinator key pair (as for run)\n"
		"      --known-hosts FILE    agents' server keys (as for run)\n"
		"      --insecure            plain text to the agent (as for run)\n"
		"      --scratch-dir DIR     a local agent's scratch root (as for run)\n");
}

static void s_table(const char *agent, const cJSON *log)
{
	const cJSON *e, *entries = bc_rj(log, "entries");

	printf("discovery log at %s:%s read by agent %s through nvme%.0f (%s), genctr %.0f, "
	       "%d entries\n",
	       bc_rj_str("?", log, "traddr"), bc_rj_str("?", log, "trsvcid"), agent,
	       bc_rj_num(log, "controller"),
	       cJSON_IsTrue(bc_rj(log, "connected_by_agent")) ? "connected for the read"
							      : "an existing controller",
	       bc_rj_num(log, "genctr"), cJSON_GetArraySize(entries));
	if (!cJSON_GetArraySize(entries))
		return;
	printf("%-6s %-6s %-40s %-7s %-9s %s\n", "trtype", "adrfam", "traddr", "trsvcid", "subtype",
	       "subnqn");
	cJSON_ArrayForEach(e, entries)
	{
		struct bc_disc_rec r;
		char err[256], b1[16], b2[16], b3[16];

		if (bc_disc_rec_from_json(e, &r, err, sizeof(err))) {
			printf("(%s)\n", err);
			continue;
		}
		printf("%-6s %-6s %-40s %-7s %-9s %s\n",
		       bc_disc_trtype_name(r.trtype, b1, sizeof(b1)),
		       bc_disc_adrfam_name(r.adrfam, b2, sizeof(b2)), r.traddr, r.trsvcid,
		       bc_disc_subtype_name(r.subtype, b3, sizeof(b3)), r.subnqn);
	}
}

/*
 * DISCOVER to c, then its answer: 0 with *log (caller frees), 1 when the
 * agent answered with an error, 2 when it did not answer; the message in
 * err. An agent older than DISCOVER answers bad-message.
 */
static int s_ask(struct bc_fleet *f, struct bc_conn *c, const struct bc_disc_req *r, int timeout_ms,
		 cJSON **log, char *err, size_t errlen)
{
	uint64_t deadline = bc_mono_ns() + (uint64_t)timeout_ms * BC_NS_PER_MS;
	cJSON *body = bc_disc_req_to_json(r);
	int rc;

	if (!body || bc_msg_send_json(c->sock, NULL, BC_MSG_DISCOVER, body)) {
		cJSON_Delete(body);
		snprintf(err, errlen, "agent %s (%s): cannot send DISCOVER", c->spec->name,
			 c->endpoint);
		return 2;
	}
	cJSON_Delete(body);
	for (;;) {
		struct bc_conn *from = NULL;
		struct bc_msg m;
		uint64_t now = bc_mono_ns();
		char rerr[256] = "";

		if (now >= deadline) {
			snprintf(err, errlen,
				 "agent %s (%s): no discovery log from %s:%s within %d s (the "
				 "agent may still be connecting)",
				 c->spec->name, c->endpoint, r->traddr, r->trsvcid,
				 timeout_ms / 1000);
			return 2;
		}
		rc = bc_fleet_recv(f, (int)((deadline - now) / BC_NS_PER_MS) + 1, &from, &m, rerr,
				   sizeof(rerr));
		if (rc == -EINTR) {
			bc_msg_clear(&m);
			snprintf(err, errlen, "interrupted");
			return 2;
		}
		if (!rc && m.type == BC_MSG_DISCOVERY_LOG) {
			*log = m.json;
			m.json = NULL;
			bc_msg_clear(&m);
			return 0;
		}
		if (!rc && m.type == BC_MSG_ERROR) {
			const char *code = bc_rj_str("?", m.json, "code");
			const char *msg = bc_rj_str("?", m.json, "message");

			if (!strcmp(code, "bad-message") && strstr(msg, "DISCOVER"))
				snprintf(err, errlen,
					 "agent %s (%s, bench-agent %s) does not know the "
					 "DISCOVER message (%s): it is older than this "
					 "bench-coord %s; upgrade it",
					 c->spec->name, c->endpoint,
					 bc_rj_str("?", c->hello, "version"), msg, BC_VERSION);
			else
				snprintf(err, errlen, "agent %s (%s): %s", c->spec->name,
					 c->endpoint, msg);
			bc_msg_clear(&m);
			return 1;
		}
		bc_msg_clear(&m); /* HEARTBEAT, or nothing yet */
	}
}

/* what the command line asked for */
struct s_args {
	struct bc_run_opts o;
	const char *agent, *endpoint, *traddr, *trsvcid, *hostnqn;
	int timeout_ms;
	bool json;
};

/* options into *a: 0, 1 when --help was printed, 2 for bad usage (said) */
static int s_parse(int argc, char **argv, struct s_args *a)
{
	static const struct option own[] = {
	    {"agent", required_argument, NULL, 'a'},
	    {"endpoint", required_argument, NULL, 'e'},
	    {"traddr", required_argument, NULL, 't'},
	    {"trsvcid", required_argument, NULL, 's'},
	    {"hostnqn", required_argument, NULL, 'n'},
	    {"timeout", required_argument, NULL, 'T'},
	    {"json", no_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct option lopts[16];
	uint32_t ms;
	int c, rc;

	bc_cmd_longopts(own, BC_CMD_SHARED_SECURITY | BC_CMD_SHARED_SCRATCH, lopts,
			sizeof(lopts) / sizeof(lopts[0]));
	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			a->agent = optarg;
			break;
		case 'e':
			a->endpoint = optarg;
			break;
		case 't':
			a->traddr = optarg;
			break;
		case 's':
			a->trsvcid = optarg;
			break;
		case 'n':
			a->hostnqn = optarg;
			break;
		case 'T':
			if (bc_cmd_parse_secs("--timeout", optarg, 3600, &ms))
				return 2;
			a->timeout_ms = (int)ms;
			break;
		case 'j':
			a->json = true;
			break;
		case 'h':
			s_usage(stdout);
			return 1;
		default:
			rc = bc_cmd_fleet_opt(c, optarg, &a->o);
			if (rc > 0)
				break;
			if (!rc)
				s_usage(stderr);
			return 2;
		}
	}
	if (!a->traddr || (a->endpoint ? optind != argc : optind != argc - 1) ||
	    (a->endpoint && a->agent)) {
		s_usage(stderr);
		return 2;
	}
	a->o.profile_path = a->endpoint ? NULL : argv[optind];
	return 0;
}

/* the request, checked here so a bad address never reaches an agent: 0 or 2 (said) */
static int s_request(const struct s_args *a, struct bc_disc_req *req)
{
	char err[1024] = "";
	cJSON *q = cJSON_CreateObject();
	int rc;

	cJSON_AddStringToObject(q, "traddr", a->traddr);
	cJSON_AddStringToObject(q, "trsvcid", a->trsvcid);
	if (a->hostnqn)
		cJSON_AddStringToObject(q, "hostnqn", a->hostnqn);
	rc = bc_disc_req_from_json(q, req, err, sizeof(err));
	cJSON_Delete(q);
	if (rc) {
		bc_error("%s", err);
		return 2;
	}
	return 0;
}

/*
 * The agent to ask into *spec: --endpoint's, or the profile's (--agent NAME,
 * or its only one); *p keeps the loaded profile (caller destroys). 0 or 2 (said).
 */
static int s_pick_agent(const struct s_args *a, struct bc_profile **p, struct bc_agent_spec *spec)
{
	char err[2048] = "";
	int i;

	if (a->endpoint) {
		snprintf(spec->name, sizeof(spec->name), "%s",
			 strcmp(a->endpoint, "local") ? "agent" : "local");
		snprintf(spec->endpoint, sizeof(spec->endpoint), "%s", a->endpoint);
		spec->local = !strcmp(a->endpoint, "local");
		return 0;
	}
	if (bc_profile_load(a->o.profile_path, p, err, sizeof(err))) {
		bc_error("%s", err);
		return 2;
	}
	for (i = 0; i < (*p)->nagents && a->agent && strcmp((*p)->agents[i].name, a->agent); i++)
		;
	if (!a->agent && (*p)->nagents != 1) {
		bc_error("%s has %d agents: name one with --agent", a->o.profile_path,
			 (*p)->nagents);
		return 2;
	}
	if (i == (*p)->nagents) {
		bc_error("%s has no agent '%s'", a->o.profile_path, a->agent);
		return 2;
	}
	*spec = (*p)->agents[i];
	return 0;
}

/*
 * Reach the agent and have it read the log: 0 with *log (caller deletes),
 * else 1 with the reason said. A local agent's log is kept only when it may
 * explain a failure: not when the agent answered, with the log or an error.
 */
static int s_fetch(const struct s_args *a, struct bc_agent_spec *spec,
		   const struct bc_disc_req *req, cJSON **log)
{
	struct bc_profile one = {0};
	struct bc_fleet fleet = {0};
	char err[2048] = "", logdir[] = "/tmp/bench-coord-discover.XXXXXX", path[BC_PATH_MAX];
	int rc;

	/* a fleet of one, with no volumes: HELLO lists no paths */
	one.agents = spec;
	one.nagents = 1;
	if (!mkdtemp(logdir)) {
		bc_error("cannot create '%s': %s", logdir, strerror(errno));
		return 1;
	}
	zsys_init();
	zsys_set_logstream(NULL);
	rc = bc_fleet_open(&fleet, &one, &a->o, logdir, err, sizeof(err));
	if (!rc)
		rc = bc_fleet_hello(&fleet, err, sizeof(err));
	if (!rc)
		rc = s_ask(&fleet, &fleet.conns[0], req, a->timeout_ms, log, err, sizeof(err));
	if (rc)
		bc_error("%s", err);
	bc_fleet_close(&fleet);
	/* only the agent-<name>.log bc_fleet_open may have made; the agent's own answer says it all
	 */
	snprintf(path, sizeof(path), "%s/agent-%s.log", logdir, spec->name);
	if (rc == 0 || rc == 1)
		unlink(path);
	if (rmdir(logdir) && errno == ENOTEMPTY)
		bc_warn("the local agent's log is in %s", logdir);
	return rc ? 1 : 0;
}

/* the log as one JSON document on stdout, with the agent that read it */
static void s_print_json(const char *agent, cJSON *log)
{
	char *text;

	cJSON_AddStringToObject(log, "agent", agent);
	text = cJSON_Print(log);
	if (text)
		printf("%s\n", text);
	cJSON_free(text);
}

int bc_cmd_discover(int argc, char **argv)
{
	struct s_args a = {
	    .o = {.connect_timeout_ms = 5000, .prepare_timeout_ms = 60000, .quiet = true},
	    .trsvcid = "8009",
	    .timeout_ms = 60000};
	struct bc_profile *p = NULL;
	struct bc_agent_spec spec = {0};
	struct bc_disc_req req;
	cJSON *log = NULL;
	int rc;

	rc = s_parse(argc, argv, &a);
	if (rc)
		return rc == 1 ? 0 : 2;
	if (s_request(&a, &req))
		return 2;
	rc = s_pick_agent(&a, &p, &spec);
	if (!rc)
		rc = s_fetch(&a, &spec, &req, &log);
	if (!rc && a.json)
		s_print_json(spec.name, log);
	else if (!rc)
		s_table(spec.name, log);
	cJSON_Delete(log);
	bc_profile_destroy(&p);
	return rc;
}
