/*
 * counters_probe - drive bc_counters (coordinator/counters/counters.h) for one
 * "step" of a few seconds against real endpoints and print the step's node
 * JSON, exactly as the run loop would: the e2e tests point it at a real
 * node_exporter and Prometheus on loopback, and it is a quick way to check
 * a storage node's exporter before a PoV.
 *
 *   counters_probe [--node NAME] [--metrics URL]... [--nic IF]
 *                  [--prometheus URL [--instance I] [--rate-window 5s] [--lag 2s]]
 *                  [--series JSON]... [--node NAME2 ...] [--seconds 4] [--ramp 0]
 * Prints {"nodes": {...}, "use": {name: USE figures}} on stdout; exit 0 when
 * the step's counters were collected (data or not), 1 on a usage or config error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analysis.h"
#include "counters/counters.h"
#include "util/clock.h"

static cJSON *s_node(cJSON *nodes, const char *name)
{
	cJSON *n = cJSON_CreateObject();

	cJSON_AddStringToObject(n, "name", name);
	cJSON_AddItemToArray(nodes, n);
	return n;
}

static void s_sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	cJSON *prof = cJSON_Parse("{\"name\": \"probe\", \"agents\": [{\"name\": \"a\", "
				  "\"endpoint\": \"local\"}], \"volumes\": [{\"agent\": \"a\", "
				  "\"path\": \"null\"}], \"steps\": [{\"name\": \"s\"}]}");
	cJSON *nodes = cJSON_AddArrayToObject(prof, "nodes"), *cur = NULL, *out, *use;
	struct bc_profile *p = NULL;
	struct bc_counters *c = NULL;
	uint32_t seconds = 4, ramp = 0;
	uint64_t start;
	char err[512], *text;
	int i, rc = 1;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			goto usage;
		i++;
		if (!strcmp(a, "--node")) {
			cur = s_node(nodes, v);
			continue;
		}
		if (!strcmp(a, "--seconds")) {
			seconds = (uint32_t)atoi(v);
			continue;
		}
		if (!strcmp(a, "--ramp")) {
			ramp = (uint32_t)atoi(v);
			continue;
		}
		if (!cur)
			cur = s_node(nodes, "node");
		if (!strcmp(a, "--metrics")) {
			cJSON *m = cJSON_GetObjectItem(cur, "metrics");

			if (!m)
				m = cJSON_AddArrayToObject(cur, "metrics");
			cJSON_AddItemToArray(m, cJSON_CreateString(v));
		} else if (!strcmp(a, "--nic")) {
			cJSON_AddStringToObject(cur, "nic", v);
		} else if (!strcmp(a, "--prometheus")) {
			cJSON *pr = cJSON_AddObjectToObject(cur, "prometheus");

			cJSON_AddStringToObject(pr, "url", v);
		} else if (!strcmp(a, "--instance") || !strcmp(a, "--rate-window") ||
			   !strcmp(a, "--lag")) {
			cJSON *pr = cJSON_GetObjectItem(cur, "prometheus");

			if (!pr)
				goto usage;
			cJSON_AddStringToObject(pr,
						!strcmp(a, "--instance")      ? "instance"
						: !strcmp(a, "--rate-window") ? "rate_window"
									      : "lag",
						v);
		} else if (!strcmp(a, "--series")) {
			cJSON *s = cJSON_GetObjectItem(cur, "series"), *one = cJSON_Parse(v);

			if (!one)
				goto usage;
			if (!s)
				s = cJSON_AddArrayToObject(cur, "series");
			cJSON_AddItemToArray(s, one);
		} else {
			goto usage;
		}
	}
	/* the profile parser checks the node keys, as for a real run */
	text = cJSON_PrintUnformatted(prof);
	rc = bc_profile_parse(text, "probe", &p, err, sizeof(err));
	free(text);
	if (rc) {
		fprintf(stderr, "counters_probe: %s\n", err);
		goto out;
	}
	rc = 1;
	c = bc_counters_new(p, err, sizeof(err));
	if (!c) {
		fprintf(stderr, "counters_probe: %s\n", err);
		goto out;
	}
	/* a whole second from now, as stepexec.c starts a step a little in the future */
	start = (bc_real_ns() / BC_NS_PER_S + 1) * BC_NS_PER_S;
	bc_counters_step_begin(c, start, seconds, ramp);
	while (!bc_counters_step_done(c) &&
	       bc_real_ns() < start + (uint64_t)(seconds + 20) * BC_NS_PER_S) {
		int t;

		bc_counters_tick(c, bc_real_ns());
		t = bc_counters_timeout_ms(c, bc_real_ns());
		s_sleep_ms(t < 0 || t > 50 ? 50 : t);
	}
	out = cJSON_CreateObject();
	cJSON_AddItemToObject(out, "nodes", bc_counters_step_json(c));
	use = cJSON_AddObjectToObject(out, "use");
	for (i = 0; i < p->nnodes; i++) {
		struct bc_hostfig *f = malloc(sizeof(*f));
		const char *names[BC_HF_CUSTOM] = {0};
		enum bc_series_role roles[BC_HF_CUSTOM] = {0};
		struct bc_use u;
		cJSON *o;
		int k;

		if (!f || bc_counters_node_hostfig(c, i, f, names)) {
			free(f);
			continue;
		}
		for (k = 0; k < f->ncustom && k < BC_HF_CUSTOM; k++)
			roles[k] = bc_series_role_of(p->nodes[i].json, names[k]);
		bc_use_from_hostfig(&u, p->nodes[i].name, false, f, roles);
		o = cJSON_AddObjectToObject(use, u.name);
		cJSON_AddItemToObject(o, "cpu_busy", bc_hostfig_num(u.cpu_busy));
		cJSON_AddItemToObject(o, "hot_core", bc_hostfig_num(u.hot_core));
		cJSON_AddItemToObject(o, "net_tx_bps", bc_hostfig_num(u.net_tx_bps));
		cJSON_AddStringToObject(o, "nics", u.nics);
		free(f);
	}
	text = cJSON_Print(out);
	printf("%s\n", text);
	free(text);
	cJSON_Delete(out);
	rc = 0;
out:
	bc_counters_destroy(&c);
	bc_profile_destroy(&p);
	cJSON_Delete(prof);
	return rc;
usage:
	fprintf(stderr, "usage: counters_probe [--node NAME] [--metrics URL]... [--nic IF] "
			"[--prometheus URL [--instance I] [--rate-window 5s] [--lag 2s]] "
			"[--series JSON]... [--seconds N] [--ramp N]\n");
	goto out;
}
