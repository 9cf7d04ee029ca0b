/*
 * run/drift.c - the agents' clock rates against the coordinator's (see
 * drift.h): measured before START from two offset estimates, corrected by
 * the agent's second length, and watched during the step.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "run/drift.h"
#include "util/clock.h"
#include "util/json.h"

/* two estimates closer than this make a rate too uncertain to use */
#define S_BASELINE_NS BC_NS_PER_S
/* TIME requests during a step: this far apart per agent, unanswered ones given up after */
#define S_EVERY_NS   BC_NS_PER_S
#define S_GIVE_UP_NS (2 * BC_NS_PER_S)
/* request numbers of the step's exchanges: apart from bc_fleet_clock_sync's small ones */
#define S_SEQ0 (1 << 24)

struct s_prev {
	int64_t off;
	uint64_t unc, at;
};

/*
 * wait (heartbeating) until every agent's baseline is S_BASELINE_NS old:
 * before the first step only (from the estimate at connect; later ones
 * measure from the previous step's START, a step's length ago)
 */
static void s_wait_baseline(struct bc_fleet *f, const struct s_prev *prev)
{
	uint64_t newest = 0, now = bc_real_ns();
	int i;

	for (i = 0; i < f->n; i++)
		if (!f->conns[i].lost && prev[i].at > newest)
			newest = prev[i].at;
	while (newest && now < newest + S_BASELINE_NS && !zsys_interrupted) {
		bc_fleet_beat(f);
		usleep(20 * 1000);
		now = bc_real_ns();
	}
}

/* the coordinator's second in c's clock, when the rate since prev is significant */
static void s_rate(struct bc_conn *c, const struct s_prev *p)
{
	double dt, rate, unc;

	c->second_ns = BC_NS_PER_S;
	if (!p->at || c->clock_at_ns <= p->at)
		return;
	dt = (double)(c->clock_at_ns - p->at);
	rate = (double)(c->offset_ns - p->off) / dt;
	unc = (double)(c->clock_unc_ns + p->unc) / dt;
	if (fabs(rate) > 2 * unc && fabs(rate) * 1e6 > BC_DRIFT_APPLY_PPM && fabs(rate) < 0.05)
		c->second_ns = (uint64_t)llround(1e9 * (1 + rate));
}

int bc_drift_sync(struct bc_fleet *f, char *err, size_t errlen)
{
	struct s_prev *prev = calloc((size_t)f->n + 1, sizeof(*prev));
	int i, rc;

	if (!prev)
		return -ENOMEM;
	for (i = 0; i < f->n; i++) {
		const struct bc_conn *c = &f->conns[i];

		prev[i].off = c->rate_at ? c->rate_off : c->offset_ns;
		prev[i].unc = c->rate_at ? c->rate_unc : c->clock_unc_ns;
		prev[i].at = c->rate_at ? c->rate_at : c->clock_at_ns;
	}
	s_wait_baseline(f, prev);
	rc = bc_fleet_clock_sync(f, err, errlen);
	for (i = 0; !rc && i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];

		s_rate(c, &prev[i]);
		c->rate_off = c->offset_ns;
		c->rate_unc = c->clock_unc_ns;
		c->rate_at = c->clock_at_ns;
		f->conns[i].drift_seq = 0;
		f->conns[i].drift_n = 0;
		f->conns[i].drift_sent_ns = 0;
	}
	free(prev);
	return rc;
}

void bc_drift_tick(struct bc_fleet *f)
{
	static int seq = S_SEQ0;
	uint64_t now = bc_real_ns();
	int i;

	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];
		cJSON *b;

		if (c->lost || c->done || now < c->drift_sent_ns + S_EVERY_NS ||
		    (c->drift_seq && now < c->drift_sent_ns + S_GIVE_UP_NS))
			continue;
		b = cJSON_CreateObject();
		c->drift_seq = ++seq;
		if (seq >= INT32_MAX - 1)
			seq = S_SEQ0;
		cJSON_AddNumberToObject(b, "seq", c->drift_seq);
		c->drift_sent_ns = bc_real_ns();
		bc_fleet_send(f, c, BC_MSG_TIME, b);
		cJSON_Delete(b);
	}
}

void bc_drift_on_time(struct bc_conn *c, const cJSON *body)
{
	const cJSON *an = cJSON_GetObjectItemCaseSensitive(body, "agent_ns");
	const cJSON *sq = cJSON_GetObjectItemCaseSensitive(body, "seq");
	struct bc_clock_sample *s;

	if (!c->drift_seq || !cJSON_IsNumber(an) || !cJSON_IsNumber(sq) ||
	    sq->valueint != c->drift_seq)
		return; /* stale, or an answer to the clock exchange before START */
	s = &c->drift_smp[c->drift_n++ % 4];
	s->t_send_ns = c->drift_sent_ns;
	s->t_recv_ns = bc_real_ns();
	s->t_agent_ns = bc_json_u64_of(an);
	c->drift_seq = 0;
}

cJSON *bc_drift_end(struct bc_fleet *f)
{
	cJSON *out = NULL;
	int i;

	for (i = 0; i < f->n; i++) {
		struct bc_conn *c = &f->conns[i];
		struct bc_clock_est est;
		uint64_t at;
		double dt;
		cJSON *a;

		if (c->lost || !c->drift_n ||
		    bc_clock_estimate(c->drift_smp, c->drift_n < 4 ? c->drift_n : 4, &est))
			continue;
		/* the chosen sample's midpoint: where its offset holds best */
		at = est.at_ns;
		if (at <= c->clock_at_ns)
			continue;
		dt = (double)(at - c->clock_at_ns);
		if (!out)
			out = cJSON_CreateObject();
		a = cJSON_AddObjectToObject(out, c->spec->name);
		bc_json_add_i64(a, "offset_ns", est.offset_ns);
		bc_json_add_u64(a, "uncertainty_ns", est.uncertainty_ns);
		cJSON_AddNumberToObject(a, "after_ms", round(dt / 1e3) / 1e3);
		cJSON_AddNumberToObject(
		    a, "drift_ppm", round((double)(est.offset_ns - c->offset_ns) / dt * 1e7) / 10);
		cJSON_AddNumberToObject(
		    a, "drift_uncertainty_ppm",
		    round((double)(est.uncertainty_ns + c->clock_unc_ns) / dt * 1e7) / 10);
		/* the offset now (the next step's rate is measured from this START's) */
		c->offset_ns = est.offset_ns;
		c->clock_unc_ns = est.uncertainty_ns;
		c->rtt_ns = est.rtt_ns;
		c->clock_at_ns = at;
		c->drift_n = 0;
		c->drift_seq = 0;
	}
	return out;
}
