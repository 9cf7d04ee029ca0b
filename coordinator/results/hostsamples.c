/*
 * results/hostsamples.c - a step's client host samples as the results read them
 * (results/hostsamples.h). A real agent's sample is ~3 KB of cJSON (cpu, NICs,
 * disks, NVMe temperatures); 100 agents over 3,000 s kept whole would be ~1 GB.
 * What run.json, the verdict, the NVMe and vdbench figures read of them is
 * a few numbers a second and one mean a step, so that is what is kept:
 * a row of doubles per agent and second, the window mean accumulated as
 * the samples come (bc_hostfig_mean, the rule bc_hostfig_mean_json uses),
 * the window's first t0_s and last t1_s, the baseline keys.
 *
 * The rules are those of the samples kept whole and scanned: a second sent
 * twice keeps its last row and counts twice in the mean; the mean takes
 * every sample of a second in [ramp, end) (end: the step's seconds, or
 * for a size-based step the last second of I/O + 1, known at its end);
 * the baselines come from any sample. "pick" answers what a scan from the
 * newest sample back found (vdbench's cpu columns), in O(1) a second.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figures/hostfig.h"
#include "results/fullsize.h"
#include "results/hostsamples.h"
#include "results/long/minutes.h"

const char *const bc_hs_keys[BC_HS_NR] = {"cpu_busy_pct", "cpu_sys_pct", "cpu_hot_core_pct",
					  "softirq_pct",  "net_tx_mbps", "net_rx_mbps",
					  "t0_s",	  "t1_s"};

/* bc_verdict_client_mean's keys of the host before the step (on interval 0) */
static const char *const s_base_keys[] = {"baseline_s", "baseline_cpu_busy_pct",
					  "baseline_agent_cpu_pct", "baseline_load1"};
#define S_NBASE (sizeof(s_base_keys) / sizeof(s_base_keys[0]))
#define S_NONE	UINT32_MAX

/* a window sample waiting for the window's end (size-based steps) */
struct s_wait {
	double second;
	char *text; /* the sample as cJSON_PrintUnformatted wrote it: numbers round-trip */
};

struct s_agent {
	double *rows;	/* [nrows][stride]: BC_HS_NR series, then nvol temperatures */
	uint16_t *cnt;	/* [nrows][stride]: samples summed into each value (unit > 1) */
	uint32_t *pick; /* [nrows]: row of the newest sample of rows <= r, S_NONE */
	uint32_t hi;	/* rows [0, hi) have been picked */
	bool any;	/* a sample came */
	uint64_t n;	/* samples so far: the order the baselines were found in */
	struct bc_hostfig_mean mean;
	bool win_any, t0_ok, t1_ok;
	double t0, t1;
	double base[S_NBASE];
	uint64_t base_at[S_NBASE]; /* 1 + the sample's number; 0 none yet */
	struct s_wait *wait;
	size_t wait_head, wait_n, wait_cap;
};

struct bc_hostsamples {
	const struct bc_profile *p;
	uint32_t ramp_s, seconds;
	/*
	 * seconds per row: 1, or a minute for a long step (results/fullsize.h),
	 * whose rows are the means of their minute's samples: a day of 100
	 * agents is 1,440 rows each instead of 86,400 (~1.7 GB)
	 */
	uint32_t unit, nrows;
	uint32_t io_end; /* a size-based window reaches at least this far */
	bool sized;
	int nagents, norder;
	int *order;    /* [nagents]: by first sample */
	int *nvol;     /* [nagents]: the agent's volumes */
	cJSON *second; /* {"second": k}: what the mean adds after a sample's host object */
	struct s_agent *a;
};

struct bc_hostsamples *bc_hostsamples_new(const struct bc_profile *p, uint32_t ramp_s,
					  uint32_t seconds, bool sized)
{
	struct bc_hostsamples *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		return NULL;
	s->p = p;
	s->ramp_s = ramp_s;
	s->seconds = seconds;
	s->unit = bc_long_step(seconds) ? BC_MINUTE_S : 1;
	s->nrows = (seconds + s->unit - 1) / s->unit;
	s->sized = sized;
	/* a trimmed window still holds the first measured second (stepres.c) */
	s->io_end = ramp_s + 1;
	s->nagents = p->nagents;
	s->order = calloc((size_t)p->nagents + 1, sizeof(*s->order));
	s->nvol = calloc((size_t)p->nagents + 1, sizeof(*s->nvol));
	s->a = calloc((size_t)p->nagents + 1, sizeof(*s->a));
	s->second = cJSON_CreateObject();
	if (!s->order || !s->nvol || !s->a || !cJSON_AddNumberToObject(s->second, "second", 0)) {
		bc_hostsamples_free(s);
		return NULL;
	}
	for (i = 0; i < p->nvolumes; i++)
		if (p->volumes[i].agent >= 0 && p->volumes[i].agent < p->nagents)
			s->nvol[p->volumes[i].agent]++;
	return s;
}

void bc_hostsamples_free(struct bc_hostsamples *s)
{
	int i;
	size_t w;

	if (!s)
		return;
	for (i = 0; s->a && i < s->nagents; i++) {
		struct s_agent *a = &s->a[i];

		free(a->rows);
		free(a->pick);
		free(a->cnt);
		bc_hostfig_mean_free(&a->mean);
		for (w = a->wait_head; w < a->wait_n; w++)
			free(a->wait[w].text);
		free(a->wait);
	}
	free(s->a);
	cJSON_Delete(s->second);
	free(s->order);
	free(s->nvol);
	free(s);
}

static size_t s_stride(const struct bc_hostsamples *s, int agent)
{
	return BC_HS_NR + (size_t)s->nvol[agent];
}

static double s_num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/*
 * A window sample into the mean, in the order the samples came: the host
 * object, then its "second" as the samples kept whole had it, last (the
 * mean adds key by key, so the two parts add as the whole one did).
 */
static int s_count(struct bc_hostsamples *s, struct s_agent *a, const cJSON *host, double second)
{
	const cJSON *t0 = cJSON_GetObjectItemCaseSensitive(host, "t0_s");
	const cJSON *t1 = cJSON_GetObjectItemCaseSensitive(host, "t1_s");
	int rc;

	/* the window's bounds, not the mean of its samples' (host/hoststat.h: t0_s, t1_s) */
	if (!a->win_any) {
		a->win_any = true;
		a->t0_ok = cJSON_IsNumber(t0);
		a->t0 = a->t0_ok ? t0->valuedouble : 0;
	}
	a->t1_ok = cJSON_IsNumber(t1);
	a->t1 = a->t1_ok ? t1->valuedouble : 0;
	rc = bc_hostfig_mean_add(&a->mean, host);
	cJSON_SetNumberValue(s->second->child, second);
	return rc ? rc : bc_hostfig_mean_add(&a->mean, s->second);
}

/* waiting samples of seconds before end into the mean, in order; all of them with drop */
static int s_flush(struct bc_hostsamples *s, struct s_agent *a, double end, bool drop)
{
	int rc = 0;

	while (a->wait_head < a->wait_n && (drop || a->wait[a->wait_head].second < end)) {
		struct s_wait *w = &a->wait[a->wait_head++];

		if (w->second < end) {
			cJSON *host = cJSON_Parse(w->text);

			rc = host ? s_count(s, a, host, w->second) : -ENOMEM;
			cJSON_Delete(host);
		}
		free(w->text);
		w->text = NULL;
	}
	/* the waiting part to the queue's front once it is no longer than what was done:
	 * the queue stays about as long as what waits, each entry moved O(1) times */
	if (a->wait_head && a->wait_head >= a->wait_n - a->wait_head) {
		memmove(a->wait, a->wait + a->wait_head,
			(a->wait_n - a->wait_head) * sizeof(*a->wait));
		a->wait_n -= a->wait_head;
		a->wait_head = 0;
	}
	return rc;
}

static int s_wait(struct s_agent *a, double second, const cJSON *host)
{
	char *text = cJSON_PrintUnformatted(host);

	if (!text)
		return -ENOMEM;
	if (a->wait_n == a->wait_cap) {
		size_t cap = a->wait_cap ? 2 * a->wait_cap : 16;
		struct s_wait *w = realloc(a->wait, cap * sizeof(*w));

		if (!w) {
			free(text);
			return -ENOMEM;
		}
		a->wait = w;
		a->wait_cap = cap;
	}
	a->wait[a->wait_n].second = second;
	a->wait[a->wait_n++].text = text;
	return 0;
}

/* value v into a row's field: the second's sample, or one more of its minute's */
static void s_put(const struct bc_hostsamples *s, struct s_agent *a, size_t at, double v)
{
	if (s->unit == 1) {
		a->rows[at] = v;
		return;
	}
	if (isnan(v) || a->cnt[at] == UINT16_MAX)
		return;
	a->rows[at] = a->cnt[at]++ ? a->rows[at] + v : v;
}

/*
 * the row of second k (an integer below seconds): the sample's, replacing an
 * earlier one's; in a long step, its minute's, the sample added
 */
static int s_row(struct bc_hostsamples *s, int agent, uint32_t sec, const cJSON *host)
{
	struct s_agent *a = &s->a[agent];
	size_t stride = s_stride(s, agent), i;
	const cJSON *temps = cJSON_GetObjectItemCaseSensitive(host, "nvme_temp_c");
	uint32_t j, k = sec / s->unit;
	size_t at;

	if (!a->rows) {
		a->rows = malloc((size_t)s->nrows * stride * sizeof(*a->rows));
		a->pick = malloc((size_t)s->nrows * sizeof(*a->pick));
		a->cnt = s->unit > 1 ? calloc((size_t)s->nrows * stride, sizeof(*a->cnt)) : NULL;
		if (!a->rows || !a->pick || (s->unit > 1 && !a->cnt)) {
			free(a->rows);
			free(a->pick);
			free(a->cnt);
			a->rows = NULL;
			a->pick = NULL;
			a->cnt = NULL;
			return -ENOMEM;
		}
		for (i = 0; i < (size_t)s->nrows * stride; i++)
			a->rows[i] = NAN;
	}
	at = (size_t)k * stride;
	for (i = 0; i < BC_HS_NR; i++)
		s_put(s, a, at + i, s_num(host, bc_hs_keys[i]));
	for (i = 0; i < (size_t)s->nvol[agent]; i++) {
		const cJSON *v = cJSON_GetArrayItem(temps, (int)i);

		s_put(s, a, at + BC_HS_NR + i, cJSON_IsNumber(v) ? v->valuedouble : NAN);
	}
	/* the newest sample: it is the pick of every second from k on */
	if (k >= a->hi) {
		for (j = a->hi; j < k; j++)
			a->pick[j] = a->hi ? a->pick[a->hi - 1] : S_NONE;
		a->hi = k + 1;
	}
	for (j = k; j < a->hi; j++) /* past k only for a second sent again later */
		a->pick[j] = k;
	return 0;
}

int bc_hostsamples_add(struct bc_hostsamples *s, int agent, double second, const cJSON *host)
{
	struct s_agent *a;
	size_t i;
	int rc = 0;

	if (!s || agent < 0 || agent >= s->nagents || !cJSON_IsObject(host))
		return -EINVAL;
	a = &s->a[agent];
	if (!a->any)
		s->order[s->norder++] = agent;
	a->any = true;
	a->n++;
	for (i = 0; i < S_NBASE; i++)
		if (!a->base_at[i] &&
		    cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(host, s_base_keys[i]))) {
			a->base[i] = s_num(host, s_base_keys[i]);
			a->base_at[i] = a->n;
		}
	if (second >= 0 && second < s->seconds && second == (double)(uint32_t)second)
		rc = s_row(s, agent, (uint32_t)second, host);
	/* the measured window only: ramp seconds describe another load */
	if (!rc && second >= s->ramp_s && second < s->seconds) {
		if (s->sized && (a->wait_n > a->wait_head || second >= s->io_end))
			rc = s_wait(a, second, host); /* behind the ones waiting: the same order */
		else
			rc = s_count(s, a, host, second);
	}
	return rc;
}

void bc_hostsamples_io_second(struct bc_hostsamples *s, uint32_t k)
{
	int i;

	if (!s || k + 1 <= s->io_end)
		return;
	s->io_end = k + 1;
	for (i = 0; i < s->nagents; i++)
		(void)s_flush(s, &s->a[i], s->io_end, false);
}

void bc_hostsamples_settle(struct bc_hostsamples *s, uint32_t seconds)
{
	int i;

	for (i = 0; s && i < s->nagents; i++)
		(void)s_flush(s, &s->a[i], seconds, true);
}

int bc_hostsamples_agent(const struct bc_hostsamples *s, const char *name)
{
	int i;

	for (i = 0; s && name && i < s->nagents; i++)
		if (!strcmp(s->p->agents[i].name, name))
			return i;
	return -1;
}

bool bc_hostsamples_has(const struct bc_hostsamples *s, int agent)
{
	return s && agent >= 0 && agent < s->nagents && s->a[agent].any;
}

/* field f of the row standing for second k: the sample's, or its minute's mean */
static double s_get(const struct bc_hostsamples *s, int agent, uint32_t k, size_t f)
{
	const struct s_agent *a;
	size_t at;

	if (!bc_hostsamples_has(s, agent) || !s->a[agent].rows || k >= s->seconds)
		return NAN;
	a = &s->a[agent];
	at = (size_t)(k / s->unit) * s_stride(s, agent) + f;
	if (s->unit == 1)
		return a->rows[at];
	return a->cnt[at] ? a->rows[at] / a->cnt[at] : NAN;
}

double bc_hostsamples_value(const struct bc_hostsamples *s, int agent, uint32_t k,
			    enum bc_hs_series key)
{
	return key >= 0 && key < BC_HS_NR ? s_get(s, agent, k, (size_t)key) : NAN;
}

double bc_hostsamples_nvme_temp(const struct bc_hostsamples *s, int agent, uint32_t k, int li)
{
	return s && agent >= 0 && agent < s->nagents && li >= 0 && li < s->nvol[agent]
		   ? s_get(s, agent, k, BC_HS_NR + (size_t)li)
		   : NAN;
}

int64_t bc_hostsamples_pick(const struct bc_hostsamples *s, int agent, uint32_t k, bool latest)
{
	const struct s_agent *a;
	uint32_t p;

	if (!bc_hostsamples_has(s, agent) || !s->a[agent].hi)
		return -1;
	a = &s->a[agent];
	k /= s->unit;
	p = a->pick[k < a->hi ? k : a->hi - 1];
	if (p == S_NONE || (!latest && p != k))
		return -1;
	return (int64_t)p * s->unit;
}

const int *bc_hostsamples_order(const struct bc_hostsamples *s, int *n)
{
	*n = s ? s->norder : 0;
	return s ? s->order : NULL;
}

cJSON *bc_hostsamples_window_mean(const struct bc_hostsamples *s, int agent)
{
	const struct s_agent *a;
	cJSON *mean;
	uint64_t at = 0;
	size_t i, best;

	if (!bc_hostsamples_has(s, agent))
		return NULL;
	a = &s->a[agent];
	mean = bc_hostfig_mean_finish(&a->mean);
	if (!mean)
		return NULL;
	cJSON_DeleteItemFromObjectCaseSensitive(mean, "t0_s");
	cJSON_DeleteItemFromObjectCaseSensitive(mean, "t1_s");
	if (a->t0_ok && a->t1_ok) {
		cJSON_AddNumberToObject(mean, "t0_s", a->t0);
		cJSON_AddNumberToObject(mean, "t1_s", a->t1);
	}
	/*
	 * The host before the step rides on interval 0, which a ramp leaves out
	 * of the window: each baseline key the mean lacks, in the order a scan
	 * of the samples from the first finds them.
	 */
	for (;;) {
		best = S_NBASE;
		for (i = 0; i < S_NBASE; i++)
			if (a->base_at[i] > at &&
			    (best == S_NBASE || a->base_at[i] < a->base_at[best]))
				best = i;
		if (best == S_NBASE)
			break;
		at = a->base_at[best];
		for (i = best; i < S_NBASE; i++)
			if (a->base_at[i] == at &&
			    !cJSON_GetObjectItemCaseSensitive(mean, s_base_keys[i]))
				cJSON_AddNumberToObject(mean, s_base_keys[i], a->base[i]);
	}
	return mean;
}

static size_t s_json_bytes(const cJSON *j)
{
	size_t n = 0;

	for (; j; j = j->next) {
		n += sizeof(*j) + (j->string ? strlen(j->string) + 1 : 0) +
		     (j->valuestring ? strlen(j->valuestring) + 1 : 0) + s_json_bytes(j->child);
	}
	return n;
}

size_t bc_hostsamples_bytes(const struct bc_hostsamples *s)
{
	size_t n, w;
	int i;

	if (!s)
		return 0;
	n = sizeof(*s) + (size_t)s->nagents * (sizeof(*s->a) + 2 * sizeof(int));
	for (i = 0; i < s->nagents; i++) {
		const struct s_agent *a = &s->a[i];

		if (a->rows)
			n += (size_t)s->nrows *
			     (s_stride(s, i) * (sizeof(*a->rows) + (a->cnt ? sizeof(*a->cnt) : 0)) +
			      sizeof(*a->pick));
		n += s_json_bytes(a->mean.acc) + s_json_bytes(a->mean.cnt);
		n += a->wait_cap * sizeof(*a->wait);
		for (w = a->wait_head; w < a->wait_n; w++)
			n += strlen(a->wait[w].text) + 1;
	}
	return n;
}
