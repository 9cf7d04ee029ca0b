/*
 * run/preflight.c - every volume of a profile checked by its agent as PREPARE
 * would check it (CHECK/CHECKED, docs/protocol.md): allowlist, existence,
 * size and window, in use or mounted, disk signature, destructive consent,
 * with PREPARE's own messages, and nothing opened for writing. Each step's
 * workload counts (a read step passes where a write step is refused), and
 * so does each value of a swept rw or bs; identical requests go once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/fleet.h"
#include "profile/sweep.h"
#include "run/preflight.h"
#include "run/stepexec.h"
#include "util/clock.h"
#include "util/log.h"

/* a sweep's points may differ in rw or bs, which the checks depend on */
#define S_MAX_BODIES 64

struct s_req {
	cJSON *body; /* owned */
	char *key;   /* the body without step and name, for dedup; owned */
	const char *step;
};

static int s_add(struct s_req *r, int *n, cJSON *body, const char *step)
{
	cJSON *k = cJSON_Duplicate(body, 1);
	char *key;
	int i;

	cJSON_DeleteItemFromObject(k, "step");
	cJSON_DeleteItemFromObject(k, "name");
	key = cJSON_PrintUnformatted(k);
	cJSON_Delete(k);
	if (!key) {
		cJSON_Delete(body);
		return -ENOMEM;
	}
	for (i = 0; i < *n; i++)
		if (!strcmp(r[i].key, key))
			break;
	if (i < *n || *n == S_MAX_BODIES) {
		cJSON_free(key);
		cJSON_Delete(body);
		return 0;
	}
	r[*n] = (struct s_req){body, key, step};
	(*n)++;
	return 0;
}

/* the distinct CHECK bodies of agent c: every step, every rw/bs of a sweep */
static int s_requests(const struct bc_fleet *f, const struct bc_conn *c, struct s_req *r, int *n)
{
	const struct bc_profile *p = f->prof;
	int i, rc = 0;

	for (i = 0; !rc && i < p->nsteps; i++) {
		struct bc_step st = p->steps[i];
		struct bc_sweep_state sw;
		struct bc_sweep_point pt;
		int k;

		/* an experiment preconditions (writes) whatever its step's workload is */
		if (st.experiment && !bc_workload_writes(&st.wl))
			st.wl.rw = BC_RW_WRITE;
		rc = s_add(r, n, bc_prepare_body(f, c, i, &st), p->steps[i].name);
		if (rc || !st.sweep || bc_sweep_init(&sw, p, &p->steps[i]))
			continue;
		for (k = 0; !rc && !bc_sweep_point(&sw, k, &pt); k++) {
			st.wl = pt.wl;
			rc = s_add(r, n, bc_prepare_body(f, c, i, &st), p->steps[i].name);
		}
		bc_sweep_free(&sw);
	}
	return rc;
}

/* one volume's verdict into the agent's list: the first refusal wins, steps listed */
static void s_merge(cJSON *list, const struct bc_conn *c, const cJSON *e, const char *step)
{
	int vi = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "volume"));
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(e, "ok");
	const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "message"));
	const char *note = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "note"));
	cJSON *o;

	if (vi < 0 || vi >= c->nvols)
		return;
	o = cJSON_GetArrayItem(list, vi);
	if (!o)
		return;
	if (!cJSON_GetObjectItemCaseSensitive(o, "resolved"))
		cJSON_AddStringToObject(
		    o, "resolved",
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "resolved")) ?: "");
	if (note && !cJSON_GetObjectItemCaseSensitive(o, "note"))
		cJSON_AddStringToObject(o, "note", note);
	/* what backs its window, as a step that reads it would find it (the first such) */
	if (cJSON_GetObjectItemCaseSensitive(e, "backing") &&
	    !cJSON_GetObjectItemCaseSensitive(o, "backing"))
		cJSON_AddItemToObject(
		    o, "backing",
		    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(e, "backing"), 1));
	if (cJSON_IsTrue(ok))
		return;
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ok"))) {
		cJSON_ReplaceItemInObject(o, "ok", cJSON_CreateFalse());
		cJSON_AddStringToObject(o, "message", msg ? msg : "refused without a message");
		cJSON_AddArrayToObject(o, "steps");
	}
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(o, "steps"),
			     cJSON_CreateString(step));
}

int bc_preflight(struct bc_fleet *f, cJSON **checks, int *refused, char *err, size_t errlen)
{
	struct s_req(*req)[S_MAX_BODIES] = calloc((size_t)f->n, sizeof(*req));
	int *nreq = calloc((size_t)f->n, sizeof(*nreq)), *next = calloc((size_t)f->n, sizeof(int));
	uint64_t deadline;
	int i, j, pending = 0, rc = 0;

	*refused = 0;
	if (!req || !nreq || !next) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];

		checks[i] = cJSON_CreateArray();
		for (j = 0; j < c->nvols; j++) {
			cJSON *o = cJSON_CreateObject();

			cJSON_AddStringToObject(o, "path", f->prof->volumes[c->vols[j]].path);
			cJSON_AddBoolToObject(o, "ok", true);
			cJSON_AddItemToArray(checks[i], o);
		}
		rc = s_requests(f, c, req[i], &nreq[i]);
		if (rc)
			goto out;
		/* one request in flight per agent: the replies then say which request they answer
		 */
		if (nreq[i]) {
			bc_fleet_send(f, &f->conns[i], BC_MSG_CHECK, req[i][0].body);
			pending++;
		}
	}
	deadline = bc_mono_ns() + (uint64_t)f->opts->prepare_timeout_ms * BC_NS_PER_MS;
	while (pending) {
		struct bc_conn *c = NULL;
		struct bc_msg m;
		char rerr[256] = "";
		uint64_t now = bc_mono_ns();
		const cJSON *e;
		int k;

		if (now >= deadline || zsys_interrupted) {
			for (i = 0; i < f->n && next[i] >= nreq[i]; i++)
				;
			snprintf(err, errlen, "agent %s (%s): no CHECKED within %.1f s",
				 f->conns[i].spec->name, f->conns[i].endpoint,
				 f->opts->prepare_timeout_ms / 1000.0);
			rc = -ETIMEDOUT;
			goto out;
		}
		rc = bc_fleet_recv(f, (int)((deadline - now) / BC_NS_PER_MS) + 1, &c, &m, rerr,
				   sizeof(rerr));
		if (rc == -EAGAIN || rc == -ETIMEDOUT || (!rc && m.type == BC_MSG_HEARTBEAT)) {
			bc_msg_clear(&m);
			rc = 0;
			continue;
		}
		if (rc || !c || m.type != BC_MSG_CHECKED) {
			const char *msg = cJSON_GetStringValue(
			    cJSON_GetObjectItemCaseSensitive(m.json, "message"));

			snprintf(err, errlen, "agent %s (%s): %s%s", c ? c->spec->name : "?",
				 c ? c->endpoint : "?",
				 msg ? msg : (rerr[0] ? rerr : "unexpected reply to CHECK"),
				 msg && strstr(msg, "unknown message type 'CHECK'")
				     ? " (the agent is older than this coordinator: no pre-flight)"
				     : "");
			bc_msg_clear(&m);
			rc = rc ? rc : -EPROTO;
			goto out;
		}
		i = c->index;
		k = next[i]++;
		cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(m.json, "volumes"))
		    s_merge(checks[i], c, e, req[i][k].step);
		bc_msg_clear(&m);
		if (next[i] < nreq[i])
			bc_fleet_send(f, c, BC_MSG_CHECK, req[i][next[i]].body);
		else
			pending--;
	}
	for (i = 0; i < f->n; i++) {
		const cJSON *o;

		cJSON_ArrayForEach(o, checks[i]) *refused +=
		    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ok"));
	}
out:
	for (i = 0; req && nreq && i < f->n; i++)
		for (j = 0; j < nreq[i]; j++) {
			cJSON_Delete(req[i][j].body);
			cJSON_free(req[i][j].key);
		}
	free(req);
	free(nreq);
	free(next);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc;
}
