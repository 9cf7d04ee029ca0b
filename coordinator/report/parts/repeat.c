/*
 * report/parts/repeat.c - how sure a figure is: a step's repetitions ("repeat",
 * common/profile/repeat.c) grouped back under their step's name, each
 * figure's mean with its 95% Student-t interval over the repetitions, and,
 * for one long step, the interval of its per-second series that accounts
 * for autocorrelation (batch means, common/figures/ci.h). `compare` judges runs
 * by the same intervals (bc_rep_ci), so the tables and the verdicts agree.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "figures/ci.h"
#include "report/parts/repeat.h"
#include "report/parts/rundata.h"
#include "report/parts/table.h"
#include "util/rjson.h"

/* per-second series of a run.json entity, by figure ("iops" -> "iops") */
static const struct {
	const char *fig, *series;
	double scale; /* to the figure's unit */
} s_series[] = {
    {"iops", "iops", 1},	 {"mbps", "mbps", 1},	      {"mean", "lat_mean_us", 1e-3},
    {"p50", "lat_p50_us", 1e-3}, {"p99", "lat_p99_us", 1e-3},
};

const struct bc_rep_fig bc_rep_figs[BC_REP_NFIGS] = {
    {"iops", "IOPS", 0},  {"mbps", "MB/s", 1},	{"mean", "mean ms", 3},
    {"p50", "p50 ms", 3}, {"p99", "p99 ms", 3}, {"p99.9", "p99.9 ms", 3},
};

/* the entity of an op: "total" is all ops, else the total's per-op object */
static const cJSON *s_ent(const cJSON *st, const char *op)
{
	return strcmp(op, "total") ? bc_rj(st, "total", op) : bc_rj(st, "total");
}

/* a figure of the measured window: iops, mbps, or a lat_us key in ms */
static bool s_window_fig(const cJSON *ent, const char *fig, double *v)
{
	const cJSON *it = !strcmp(fig, "iops") || !strcmp(fig, "mbps") ? bc_rj(ent, fig)
								       : bc_rj(ent, "lat_us", fig);

	if (!cJSON_IsNumber(it) || bc_rj_num(ent, "ios") <= 0)
		return false;
	*v = strcmp(fig, "iops") && strcmp(fig, "mbps") ? it->valuedouble / 1e3 : it->valuedouble;
	return true;
}

bool bc_rep_member(const cJSON *st, const char *name)
{
	char base[BC_NAME_MAX + 32];

	return bc_step_repeat_of(bc_rj_str("", st, "name"), base, sizeof(base), NULL) &&
	       !strcmp(base, name);
}

int bc_rep_count(const cJSON *run, const char *name, int *nok)
{
	const cJSON *st;
	int n = 0;

	*nok = 0;
	cJSON_ArrayForEach(st, bc_rj(run, "steps"))
	{
		if (!bc_rep_member(st, name))
			continue;
		n++;
		*nok += !strcmp(bc_rj_str("", st, "status"), "ok");
	}
	return n;
}

/* the measured seconds of a step's series, in the figure's unit; count in *n */
static double *s_series_values(const cJSON *st, const char *fig, int *n)
{
	const cJSON *arr = NULL, *it;
	double scale = 1, *v;
	int from = (int)bc_rj_num(st, "measured_from_second"), cnt, i = 0;
	size_t k;

	*n = 0;
	for (k = 0; k < sizeof(s_series) / sizeof(s_series[0]); k++)
		if (!strcmp(s_series[k].fig, fig)) {
			arr = bc_rj(st, "total", "series", s_series[k].series);
			scale = s_series[k].scale;
		}
	cnt = (int)bc_rj_num(st, "measured_seconds");
	if (!arr || cnt <= 0)
		return NULL;
	v = calloc((size_t)cnt, sizeof(*v));
	cJSON_ArrayForEach(it, arr)
	{
		if (v && i >= from && i < from + cnt && cJSON_IsNumber(it))
			v[(*n)++] = it->valuedouble * scale;
		i++;
	}
	return v;
}

int bc_rep_series_ci(const cJSON *st, const char *fig, struct bc_ci *ci)
{
	int n, ret;
	double *v = s_series_values(st, fig, &n);

	if (!v || !n) {
		free(v);
		return -ENODATA;
	}
	ret = bc_ci_series(v, n, 0.95, ci);
	free(v);
	return ret;
}

int bc_rep_ci(const cJSON *run, const char *name, const char *op, const char *fig, struct bc_ci *ci,
	      bool *reps)
{
	double *v = NULL, x;
	const cJSON *st;
	int n = 0, nok, ret = -ENODATA;

	*reps = bc_rep_count(run, name, &nok) > 0;
	if (*reps) {
		v = calloc((size_t)nok + 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		cJSON_ArrayForEach(st, bc_rj(run, "steps"))
		{
			if (bc_rep_member(st, name) && !strcmp(bc_rj_str("", st, "status"), "ok") &&
			    s_window_fig(s_ent(st, op), fig, &x))
				v[n++] = x;
		}
		if (n)
			ret = bc_ci_mean(v, n, 0.95, ci);
		free(v);
		return ret;
	}
	cJSON_ArrayForEach(st, bc_rj(run, "steps"))
	{
		if (strcmp(bc_rj_str("", st, "name"), name) ||
		    strcmp(bc_rj_str("", st, "status"), "ok"))
			continue;
		/* one step: its per-second series where it has one, else the bare figure */
		if (!strcmp(op, "total") && !bc_rep_series_ci(st, fig, ci))
			return 0;
		if (!s_window_fig(s_ent(st, op), fig, &x))
			return -ENODATA;
		return bc_ci_mean(&x, 1, 0.95, ci);
	}
	return -ENOENT;
}

/* "12,345 ± 321" in the figure's decimals; the mean alone without an interval */
static void s_ci_cell(struct bc_table *t, const struct bc_ci *ci, int decimals)
{
	if (isnan(ci->half))
		bc_table_cell(t, BC_CELL_TEXT, "%.*f", decimals, ci->mean);
	else
		bc_table_cell(t, BC_CELL_TEXT, "%.*f ± %.*f", decimals, ci->mean, decimals,
			      ci->half);
}

struct bc_table *bc_table_repeats(const struct bc_report *r)
{
	static const char *const cols[] = {"step",	"op",	    "=repetitions", "=IOPS",
					   "=MB/s",	"=mean ms", "=p50 ms",	    "=p99 ms",
					   "=p99.9 ms", NULL};
	static const char *const ops[] = {"total", "read", "write"};
	char base[BC_NAME_MAX + 32];
	struct bc_table *t = NULL;
	cJSON *seen = cJSON_CreateArray();
	const cJSON *st, *s;
	struct bc_ci ci;
	bool has[3], reps;
	int i, o;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		bool dup = false;
		int n, nok;

		if (!bc_step_repeat_of(bc_rj_str("", st, "name"), base, sizeof(base), NULL))
			continue;
		cJSON_ArrayForEach(s, seen) dup |= !strcmp(s->valuestring, base);
		if (dup || !seen)
			continue;
		cJSON_AddItemToArray(seen, cJSON_CreateString(base));
		n = bc_rep_count(r->run, base, &nok);
		for (o = 0; o < 3; o++) {
			has[o] = false;
			for (i = 0; i < BC_REP_NFIGS; i++)
				has[o] |= !bc_rep_ci(r->run, base, ops[o], bc_rep_figs[i].key, &ci,
						     &reps);
		}
		/* read and write apart only where the step mixes them */
		for (o = 0; o < 3; o++) {
			if (!has[o] || (o && !(has[1] && has[2])) ||
			    (!t && !(t = bc_table_new("Repetitions: mean ± 95% interval", cols))))
				continue;
			bc_table_text(t, base);
			bc_table_text(t, ops[o]);
			bc_table_cell(t, BC_CELL_TEXT, "%d of %d ok", nok, n);
			for (i = 0; i < BC_REP_NFIGS; i++)
				if (bc_rep_ci(r->run, base, ops[o], bc_rep_figs[i].key, &ci, &reps))
					bc_table_text(t, "-");
				else
					s_ci_cell(t, &ci, bc_rep_figs[i].decimals);
		}
	}
	cJSON_Delete(seen);
	if (t)
		snprintf(t->note, sizeof(t->note),
			 "Mean ± half-width of the 95%% Student-t interval over the repetitions "
			 "that finished (n - 1 degrees of freedom).");
	return t;
}

struct bc_table *bc_table_series_ci(const struct bc_report *r)
{
	static const char *const cols[] = {"step",  "=seconds", "=batch s", "=n_eff",
					   "=IOPS", "=MB/s",	"=mean ms", "=p99 ms (per second)",
					   NULL};
	static const char *const figs[] = {"iops", "mbps", "mean", "p99"};
	static const int dec[] = {0, 1, 3, 3};
	struct bc_table *t = NULL;
	const cJSON *st;
	size_t i;

	cJSON_ArrayForEach(st, bc_rj(r->run, "steps"))
	{
		struct bc_ci ci;

		if (strcmp(bc_rj_str("", st, "status"), "ok") ||
		    bc_rep_series_ci(st, "iops", &ci) || isnan(ci.half))
			continue;
		if (!t && !(t = bc_table_new("Within each step: mean ± 95% interval of its "
					     "seconds",
					     cols)))
			return NULL;
		bc_table_text(t, bc_rj_str("?", st, "name"));
		bc_table_cell(t, BC_CELL_TEXT, "%d", ci.n);
		bc_table_cell(t, BC_CELL_TEXT, "%u", ci.batch);
		bc_table_cell(t, BC_CELL_TEXT, "%.0f", ci.n_eff);
		for (i = 0; i < sizeof(figs) / sizeof(figs[0]); i++)
			if (bc_rep_series_ci(st, figs[i], &ci))
				bc_table_text(t, "-");
			else
				s_ci_cell(t, &ci, dec[i]);
	}
	if (t)
		snprintf(
		    t->note, sizeof(t->note),
		    "Batch means of ceil(sqrt(n))-second batches (seconds are autocorrelated); "
		    "n_eff: independent seconds that would give the same interval.");
	return t;
}
