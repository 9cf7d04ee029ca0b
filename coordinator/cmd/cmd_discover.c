/*
 * cmd_discover.c - `bench-coord discover`: one agent reads the discovery log
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

#include "bc_clock.h"
#include "bc_cmd_opts.h"
#include "bc_coord.h"
#include "bc_disc_msg.h"
#include "bc_log.h"
#include "bc_report.h"

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

int bc_cmd_discover(int argc, char **argv)
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
	struct bc_run_opts o = {
	    .connect_timeout_ms = 5000, .prepare_timeout_ms = 60000, .quiet = true};
	const char *agent = NULL, *endpoint = NULL, *traddr = NULL, *trsvcid = "8009";
	const char *hostnqn = NULL;
	struct bc_profile *p = NULL, one = {0};
	struct bc_agent_spec spec = {0};
	struct bc_fleet fleet = {0};
	struct bc_disc_req req;
	char err[2048] = "", logdir[] = "/tmp/bench-coord-discover.XXXXXX";
	cJSON *q, *log = NULL;
	bool json = false, keep_logs = false;
	int c, i, timeout_ms = 60000, status = 1;
	uint32_t ms;

	bc_cmd_longopts(own, BC_CMD_SHARED_SECURITY | BC_CMD_SHARED_SCRATCH, lopts,
			sizeof(lopts) / sizeof(lopts[0]));
	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			agent = optarg;
			break;
		case 'e':
			endpoint = optarg;
			break;
		case 't':
			traddr = optarg;
			break;
		case 's':
			trsvcid = optarg;
			break;
		case 'n':
			hostnqn = optarg;
			break;
		case 'T':
			if (bc_cmd_parse_secs("--timeout", optarg, 3600, &ms))
				return 2;
			timeout_ms = (int)ms;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			s_usage(stdout);
			return 0;
		default:
			i = bc_cmd_fleet_opt(c, optarg, &o);
			if (i > 0)
				break;
			if (!i)
				s_usage(stderr);
			return 2;
		}
	}
	if (!traddr || (endpoint ? optind != argc : optind != argc - 1) || (endpoint && agent)) {
		s_usage(stderr);
		return 2;
	}
	/* the request is checked here, so a bad address never reaches an agent */
	q = cJSON_CreateObject();
	cJSON_AddStringToObject(q, "traddr", traddr);
	cJSON_AddStringToObject(q, "trsvcid", trsvcid);
	if (hostnqn)
		cJSON_AddStringToObject(q, "hostnqn", hostnqn);
	i = bc_disc_req_from_json(q, &req, err, sizeof(err));
	cJSON_Delete(q);
	if (i) {
		bc_error("%s", err);
		return 2;
	}
	if (endpoint) {
		snprintf(spec.name, sizeof(spec.name), "%s",
			 strcmp(endpoint, "local") ? "agent" : "local");
		snprintf(spec.endpoint, sizeof(spec.endpoint), "%s", endpoint);
		spec.local = !strcmp(endpoint, "local");
	} else {
		o.profile_path = argv[optind];
		if (bc_profile_load(o.profile_path, &p, err, sizeof(err))) {
			bc_error("%s", err);
			return 2;
		}
		for (i = 0; i < p->nagents && agent && strcmp(p->agents[i].name, agent); i++)
			;
		if (!agent && p->nagents != 1) {
			bc_error("%s has %d agents: name one with --agent", o.profile_path,
				 p->nagents);
			status = 2;
			goto out;
		}
		if (i == p->nagents) {
			bc_error("%s has no agent '%s'", o.profile_path, agent);
			status = 2;
			goto out;
		}
		spec = p->agents[i];
	}
	/* a fleet of one, with no volumes: HELLO lists no paths */
	one.agents = &spec;
	one.nagents = 1;
	if (!mkdtemp(logdir)) {
		bc_error("cannot create '%s': %s", logdir, strerror(errno));
		goto out;
	}
	zsys_init();
	zsys_set_logstream(NULL);
	i = bc_fleet_open(&fleet, &one, &o, logdir, err, sizeof(err));
	if (!i)
		i = bc_fleet_hello(&fleet, err, sizeof(err));
	if (!i)
		i = s_ask(&fleet, &fleet.conns[0], &req, timeout_ms, &log, err, sizeof(err));
	if (i) {
		bc_error("%s", err);
		/* the agent's own answer says it all; its log helps when it did not answer */
		keep_logs = i != 1;
	} else if (json) {
		char *text;

		cJSON_AddStringToObject(log, "agent", spec.name);
		text = cJSON_Print(log);
		if (text)
			printf("%s\n", text);
		cJSON_free(text);
		status = 0;
	} else {
		s_table(spec.name, log);
		status = 0;
	}
	cJSON_Delete(log);
	bc_fleet_close(&fleet);
	{
		char path[BC_PATH_MAX];

		/* only the agent-<name>.log bc_fleet_open may have made */
		snprintf(path, sizeof(path), "%s/agent-%s.log", logdir, spec.name);
		if (!keep_logs)
			unlink(path);
	}
	if (rmdir(logdir) && errno == ENOTEMPTY)
		bc_warn("the local agent's log is in %s", logdir);
out:
	bc_profile_destroy(&p);
	return status;
}
