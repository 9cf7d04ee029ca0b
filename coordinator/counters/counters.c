/*
 * counters/counters.c - the registry of node counter sources and a run's use of
 * them: builds a source per (node, source kind) configured in the profile,
 * drives them from the coordinator's loop through their ops alone
 * (counters/ops.h: the control call, never a transport) without blocking,
 * and gathers their step JSON and window figures per node. The sources
 * themselves are prom.c and promql.c beside it (http.c their transport).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters/facts.h"
#include "counters/counters.h"
#include "counters/ops.h"
#include "util/clock.h"

/* the sources (prom.c, promql.c); a new source is its file and one line in each list */
extern const struct bc_counter_ops bc_counter_prom_ops;
extern const struct bc_counter_ops bc_counter_promql_ops;

/* in this order: text endpoints first, their exact deltas win (bc_counters_node_hostfig) */
static const struct bc_counter_ops *const s_kinds[] = {
    &bc_counter_prom_ops,
    &bc_counter_promql_ops,
};
#define S_NKINDS (int)(sizeof(s_kinds) / sizeof(s_kinds[0]))

const struct bc_counter_ops *bc_counter_ops_find(const char *name)
{
	int k;

	for (k = 0; k < S_NKINDS; k++)
		if (s_kinds[k]->name && !strcmp(s_kinds[k]->name, name))
			return s_kinds[k];
	return NULL;
}

struct bc_counters {
	const struct bc_profile *prof;
	struct bc_counter_shared shared; /* the sources' transports (counters/http.h) */
	struct bc_counter_log log;	 /* where the sources' samples go */
	struct bc_counter_src *srcs;
	int nsrcs;
};

int bc_counter_ops_check(const struct bc_counter_ops *o, char *err, size_t errlen)
{
	const char *name = o->name ? o->name : "(unnamed)";

	if (o->version != BC_COUNTER_OPS_VERSION) {
		snprintf(err, errlen,
			 "counter source \"%s\": ops version %d refused, this coordinator takes "
			 "version %d",
			 name, o->version, BC_COUNTER_OPS_VERSION);
		return -ENOTSUP;
	}
	if (!o->name || !o->open || !o->ctl || !o->step_json || !o->window || !o->close) {
		snprintf(err, errlen,
			 "counter source \"%s\": ops refused: name, open, ctl, step_json, window "
			 "and close are required",
			 name);
		return -ENOTSUP;
	}
	return 0;
}

static void s_log_sample(struct bc_counter_src *s, cJSON *body);

struct bc_counters *bc_counters_new(const struct bc_profile *p, char *err, size_t errlen)
{
	struct bc_counters *c = calloc(1, sizeof(*c));
	int i, k, rc;

	if (err && errlen)
		err[0] = '\0';
	if (!c)
		goto nomem;
	c->prof = p;
	c->log.sample = s_log_sample;
	c->srcs = calloc((size_t)p->nnodes * S_NKINDS + 1, sizeof(*c->srcs));
	if (!c->srcs)
		goto nomem;
	for (k = 0; k < S_NKINDS; k++)
		if (bc_counter_ops_check(s_kinds[k], err, errlen))
			goto fail;
	for (i = 0; i < p->nnodes; i++) {
		for (k = 0; k < S_NKINDS; k++) {
			struct bc_counter_src *s = &c->srcs[c->nsrcs];

			if (!p->nodes[i].json)
				continue;
			memset(s, 0, sizeof(*s));
			s->ops = s_kinds[k];
			s->prof = p;
			s->node = i;
			s->shared = &c->shared;
			s->log = &c->log;
			rc = s->ops->open(s, p->nodes[i].json, err, errlen);
			if (rc == -ENOENT)
				continue;
			if (rc)
				goto fail;
			c->nsrcs++;
		}
	}
	return c;
nomem:
	if (err && errlen)
		snprintf(err, errlen, "node counters: out of memory");
fail:
	bc_counters_destroy(&c);
	return NULL;
}

void bc_counters_destroy(struct bc_counters **cp)
{
	struct bc_counters *c = cp ? *cp : NULL;
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->close(&c->srcs[i]);
	free(c->srcs);
	free(c);
	*cp = NULL;
}

bool bc_counters_active(const struct bc_counters *c)
{
	return c && c->nsrcs > 0;
}

static void s_step(struct bc_counters *c, uint64_t start_real_ns, uint32_t seconds, uint32_t ramp_s,
		   uint32_t from_b)
{
	struct bc_counter_step st = {start_real_ns, seconds, ramp_s, from_b};
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->ctl(&c->srcs[i], BC_CCTL_STEP_BEGIN, &st);
}

void bc_counters_step_begin(struct bc_counters *c, uint64_t start_real_ns, uint32_t seconds,
			    uint32_t ramp_s)
{
	s_step(c, start_real_ns, seconds, ramp_s, 0);
}

void bc_counters_step_replay(struct bc_counters *c, uint64_t start_real_ns, uint32_t seconds,
			     uint32_t ramp_s)
{
	s_step(c, start_real_ns, seconds, ramp_s, UINT32_MAX);
}

void bc_counters_set_log(struct bc_counters *c, void (*fn)(void *arg, cJSON *ev), void *arg)
{
	if (!c)
		return;
	c->log.fn = fn;
	c->log.arg = arg;
}

/* a source's sample (counters/ops.h), named, into the run's log */
static void s_log_sample(struct bc_counter_src *s, cJSON *body)
{
	if (!body)
		return;
	if (!s->log->fn) {
		cJSON_Delete(body);
		return;
	}
	cJSON_AddStringToObject(body, "node", s->prof->nodes[s->node].name);
	cJSON_AddStringToObject(body, "source", s->ops->name);
	s->log->fn(s->log->arg, body);
}

int bc_counters_sample(struct bc_counters *c, const cJSON *ev)
{
	const char *node = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "node"));
	const char *src = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "source"));
	int i;

	for (i = 0; c && node && src && i < c->nsrcs; i++) {
		struct bc_counter_src *s = &c->srcs[i];

		if (!strcmp(s->ops->name, src) && !strcmp(c->prof->nodes[s->node].name, node))
			return s->ops->ctl(s, BC_CCTL_SAMPLE, (void *)ev);
	}
	return -ENOENT;
}

void bc_counters_step_from(struct bc_counters *c, uint32_t from_b)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->ctl(&c->srcs[i], BC_CCTL_STEP_FROM, &from_b);
}

void bc_counters_step_end(struct bc_counters *c, uint32_t seconds)
{
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->ctl(&c->srcs[i], BC_CCTL_STEP_END, &seconds);
}

void bc_counters_tick(struct bc_counters *c, uint64_t now_real_ns)
{
	int i;

	if (!bc_counters_active(c))
		return;
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->ctl(&c->srcs[i], BC_CCTL_TICK, &now_real_ns);
}

int bc_counters_timeout_ms(const struct bc_counters *c, uint64_t now_real_ns)
{
	uint64_t due = UINT64_MAX;
	bool busy = false;
	int i;

	if (!bc_counters_active(c))
		return -1;
	for (i = 0; i < c->nsrcs; i++) {
		struct bc_counter_src *s = &c->srcs[i];
		uint64_t d = UINT64_MAX;

		s->ops->ctl(s, BC_CCTL_NEXT_DUE, &d);
		due = d < due ? d : due;
		busy = busy || s->ops->ctl(s, BC_CCTL_BUSY, NULL) > 0;
	}
	if (due == UINT64_MAX)
		return busy ? 10 : -1;
	if (due <= now_real_ns)
		return 0;
	due = (due - now_real_ns + BC_NS_PER_MS - 1) / BC_NS_PER_MS;
	/* transfers in flight are read at ticks: keep ticking while they run */
	return busy && due > 10 ? 10 : (int)due;
}

bool bc_counters_step_done(const struct bc_counters *c)
{
	int i;

	if (!bc_counters_active(c))
		return true;
	for (i = 0; i < c->nsrcs; i++)
		if (c->srcs[i].ops->ctl(&c->srcs[i], BC_CCTL_STEP_DONE, NULL) <= 0)
			return false;
	return true;
}

/*
 * sleep up to ms on the sources' sockets, so a response is read as soon as it
 * lands: the first source that can wait does (the HTTP sources share their
 * sockets, counters/http.h); a plain sleep when none can
 */
static void s_wait(struct bc_counters *c, int ms)
{
	struct timespec ts = {0, (long)ms * 1000000L};
	int i;

	for (i = 0; i < c->nsrcs; i++)
		if (!c->srcs[i].ops->ctl(&c->srcs[i], BC_CCTL_WAIT, &ms))
			return;
	nanosleep(&ts, NULL);
}

int bc_counters_step_finish(struct bc_counters *c, int timeout_ms)
{
	uint64_t end = bc_mono_ns() + (uint64_t)timeout_ms * BC_NS_PER_MS;

	while (!bc_counters_step_done(c)) {
		int t;

		if (bc_mono_ns() >= end)
			return -ETIMEDOUT;
		bc_counters_tick(c, bc_real_ns());
		t = bc_counters_timeout_ms(c, bc_real_ns());
		if (t < 0 || t > 10)
			t = 10;
		s_wait(c, t);
	}
	return 0;
}

cJSON *bc_counters_node_json(struct bc_counters *c, int node)
{
	cJSON *o = NULL, *kinds = NULL;
	int i;

	if (!c)
		return NULL;
	for (i = 0; i < c->nsrcs; i++) {
		struct bc_counter_src *s = &c->srcs[i];

		if (s->node != node)
			continue;
		if (!o) {
			o = cJSON_CreateObject();
			kinds = cJSON_AddArrayToObject(o, "sources");
		}
		cJSON_AddItemToArray(kinds, cJSON_CreateString(s->ops->name));
		s->ops->step_json(s, o);
	}
	return o;
}

cJSON *bc_counters_step_json(struct bc_counters *c)
{
	cJSON *o = cJSON_CreateObject();
	int i;

	for (i = 0; c && o && i < c->prof->nnodes; i++) {
		cJSON *n = bc_counters_node_json(c, i);

		if (n)
			cJSON_AddItemToObject(o, c->prof->nodes[i].name, n);
	}
	return o;
}

/* fill what a lacks from b: fixed figures it has not, and b's custom series after a's */
static void s_merge(struct bc_hostfig *a, const char **an, const struct bc_hostfig *b,
		    const char *const *bn)
{
	int i;

	for (i = 0; i < bc_hostfig_nfields; i++) {
		double *d = (double *)((char *)a + bc_hostfig_fields[i].off);

		if (isnan(*d))
			*d = *(const double *)((const char *)b + bc_hostfig_fields[i].off);
	}
	for (i = 0; i < b->ncustom && a->ncustom < BC_HF_CUSTOM; i++) {
		if (an)
			an[a->ncustom] = bn[i];
		a->custom[a->ncustom++] = b->custom[i];
	}
}

int bc_counters_node_hostfig(const struct bc_counters *c, int node, struct bc_hostfig *out,
			     const char **names)
{
	const char *tmp_names[BC_HF_CUSTOM] = {0}, *other_names[BC_HF_CUSTOM] = {0};
	struct bc_hostfig *other;
	bool have = false;
	int i, k;

	if (!c)
		return -ENODATA;
	other = malloc(sizeof(*other));
	if (!other)
		return -ENOMEM;
	/*
	 * Text endpoints first (exact deltas); PromQL (rate() over a window)
	 * fills what they lack and adds its custom series, e.g. a vendor's GC
	 * figures that only the Prometheus server sees.
	 */
	for (k = 0; k < S_NKINDS; k++)
		for (i = 0; i < c->nsrcs; i++) {
			const struct bc_counter_src *s = &c->srcs[i];

			if (s->node != node || s->ops != s_kinds[k])
				continue;
			if (!have && !s->ops->window(s, out, names ? names : tmp_names))
				have = true;
			else if (have && !s->ops->window(s, other, other_names))
				s_merge(out, names, other, other_names);
		}
	free(other);
	return have ? 0 : -ENODATA;
}

int bc_counters_node_facts(const struct bc_counters *c, int node, struct bc_nodefacts *out)
{
	int i;

	bc_nodefacts_init(out);
	for (i = 0; c && i < c->nsrcs; i++) {
		struct bc_counter_src *s = &c->srcs[i];

		/* the first source that has them: facts are a page's, not a sum */
		if (s->node == node && !s->ops->ctl(s, BC_CCTL_FACTS, out))
			return 0;
	}
	return -ENODATA;
}
