/*
 * report/parts/versus.c - a step of several runs against the first
 * (report/parts/versus.h)
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/point.h"
#include "report/parts/repeat.h"
#include "report/parts/versus.h"

const struct bc_vs_fig bc_vs_figs[BC_VS_FIGS] = {
    {"IOPS", "iops", 0, false},
    {"MB/s", "mbps", 1, false},
    {"mean ms", "mean", 3, true},
    {"p99 ms", "p99", 3, true},
};

void bc_vs_ci_text(const struct bc_vs_cell *c, int dec, char *buf, size_t len)
{
	if (!c->have)
		snprintf(buf, len, "-");
	else if (isnan(c->ci.half))
		snprintf(buf, len, "(no interval, n=%d)", c->ci.n);
	else
		snprintf(buf, len, "[%.*f, %.*f] (%d %s)", dec, c->ci.lo, dec, c->ci.hi, c->ci.n,
			 c->reps ? "reps" : "s");
}

void bc_vs_step(const cJSON *const *runs, const char *const *labels, int n, const char *name,
		struct bc_vs_step *out)
{
	char diffs[384] = "";
	int r, i;

	memset(out, 0, sizeof(*out));
	snprintf(out->name, sizeof(out->name), "%s", name);
	out->nruns = n < BC_VS_RUNS ? n : BC_VS_RUNS;
	out->comparable = true;
	for (r = 0; r < out->nruns; r++) {
		for (i = 0; i < BC_VS_FIGS; i++) {
			struct bc_vs_cell *c = &out->cell[r][i];
			const struct bc_vs_cell *c0 = &out->cell[0][i];

			c->have =
			    !bc_rep_ci(runs[r], name, "total", bc_vs_figs[i].key, &c->ci, &c->reps);
			snprintf(c->diff, sizeof(c->diff), "%s", r ? "-" : "(reference)");
			if (!c->have) {
				out->comparable = false;
				if (!out->verdict[0])
					snprintf(out->verdict, sizeof(out->verdict),
						 "not comparable: no finished step in %s",
						 labels[r]);
				continue;
			}
			if (!r || !c0->have)
				continue;
			c->cmp = bc_ci_compare(&c->ci, &c0->ci, &c->d);
			if (c->cmp == BC_CMP_NONE)
				out->comparable = false;
			else if (c0->ci.mean != 0 && !isnan(c->d.half))
				snprintf(c->diff, sizeof(c->diff), "%+.1f%% [%+.1f%%, %+.1f%%]",
					 100 * c->d.mean / c0->ci.mean, 100 * c->d.lo / c0->ci.mean,
					 100 * c->d.hi / c0->ci.mean);
			else
				snprintf(c->diff, sizeof(c->diff), "%+.*f", bc_vs_figs[i].decimals,
					 c->d.mean);
			if (c->cmp == BC_CMP_HIGHER || c->cmp == BC_CMP_LOWER) {
				out->differ = true;
				bc_ana_cat(diffs, sizeof(diffs), "%s%s %s %s", diffs[0] ? "; " : "",
					   labels[r], bc_vs_figs[i].head, bc_cmp_word(c->cmp));
			}
		}
	}
	if (out->differ)
		snprintf(out->verdict, sizeof(out->verdict), "DIFFERENT: %s", diffs);
	else if (!out->comparable && !out->verdict[0])
		snprintf(
		    out->verdict, sizeof(out->verdict),
		    "not comparable: no interval (repeat the step, or run it for at least 8 s)");
	else if (out->comparable)
		snprintf(out->verdict, sizeof(out->verdict), "not distinguishable");
	bc_vs_contended(runs, labels, n, name, out->verdict, sizeof(out->verdict));
}

void bc_vs_contended(const cJSON *const *runs, const char *const *labels, int n, const char *name,
		     char *verdict, size_t len)
{
	char who[256] = "";
	size_t k = strlen(name);
	const cJSON *st;
	int r;

	for (r = 0; r < n; r++)
		cJSON_ArrayForEach(st, cJSON_GetObjectItemCaseSensitive(runs[r], "steps"))
		{
			const char *sn =
			    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(st, "name"));

			if (!sn || strncmp(sn, name, k) || (sn[k] && sn[k] != '#') ||
			    !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "contended")))
				continue;
			bc_ana_cat(who, sizeof(who), "%s%s", who[0] ? ", " : "", labels[r]);
			break;
		}
	if (who[0])
		bc_ana_cat(verdict, len,
			   "; a CONTENDED run was compared (%s): other processes held its client "
			   "host's CPU, so its figures are the host's, not the storage's",
			   who);
}
