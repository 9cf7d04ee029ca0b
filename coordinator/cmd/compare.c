/*
 * cmd/compare.c - `bench-coord compare RUN_A RUN_B...`: the same steps of
 * several runs side by side - IOPS, MB/s, mean and p99 latency of the
 * total - each run against the first: "higher", "lower" or "not
 * distinguishable" from the 95% interval of the difference (Welch), where
 * each run's interval is over its repetitions of the step ("repeat"), or
 * of the step's per-second series (batch means) when it ran once
 * (report/parts/repeat.c, common/figures/ci.h). Repetitions "<step>#k" are matched as
 * their step. With --threshold (the former rule) a step is "consistent"
 * when every run is within PCT% of the first on IOPS, MB/s and p99. The
 * table goes to stdout and, with --md FILE, to a Markdown file. Exit 0 when
 * no step differs, 1 when any does (or cannot be compared), 2 on bad usage
 * or an unreadable run. The devices are compared too: identity differences
 * (LBA data size, format in use, model, firmware) per device, and each
 * step's drive temperature and device WAF per run.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/opts.h"
#include "figures/ci.h"
#include "report/parts/fmt.h"
#include "report/parts/repeat.h"
#include "report/parts/rundata.h"
#include "report/parts/versus.h"
#include "report/report.h"
#include "report/writers.h"
#include "results/fdp.h"
#include "util/log.h"
#include "util/rjson.h"

#define S_MAX_RUNS 32

struct s_run {
	char dir[BC_PATH_MAX];
	char label[BC_PATH_MAX];
	cJSON *run;
	cJSON *devices;		/* bc_report's devices (events.jsonl's READY), NULL when unknown */
	char step[BC_NAME_MAX]; /* RUN@STEP: that step alone, "" for every step */
};

/* the figures compared, in column order */
static const struct {
	const char *head;
	const char *key; /* "iops", "mbps" or a lat_us percentile */
	bool lat;
	int decimals;
} s_figs[] = {
    {"IOPS", "iops", false, 0},
    {"MB/s", "mbps", false, 1},
    {"p99 ms", "p99", true, 3},
};
#define S_NFIGS (sizeof(s_figs) / sizeof(s_figs[0]))

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord compare [options] RUN_A RUN_B...\n"
		   "  compare the steps of several runs (matched by name) with the first:\n"
		   "  RUN@STEP takes one step of a run (two steps of one run: RUN@A RUN@B,\n"
		   "  e.g. before and after a \"format\" step), with its devices as opened\n"
		   "  higher, lower or not distinguishable from 95%% intervals over each step's\n"
		   "  repetitions (\"repeat\"), or over its seconds when it ran once\n"
		   "  -t, --threshold PCT      instead: consistent when IOPS, MB/s and p99 are\n"
		   "                           within PCT%% of the first run\n"
		   "      --lat-threshold PCT  with --threshold, a separate one for p99\n"
		   "      --md FILE            also write the comparison as Markdown to FILE\n"
		   "      --html FILE          and as one self-contained page: the runs' sweeps\n"
		   "                           overlaid, each step's figures with their intervals\n"
		   "  device identity differences (LBA data size, format in use, model,\n"
		   "  firmware), each step's drive temperature and the device's own WAF (with a\n"
		   "  simulated SSD's FTL and GC overhead) are shown beside the figures\n");
}

static const cJSON *s_step(const cJSON *run, const char *name)
{
	const cJSON *st;

	cJSON_ArrayForEach(
	    st, bc_rj(run, "steps")) if (!strcmp(bc_rj_str("", st, "name"), name)) return st;
	return NULL;
}

static double s_fig(const cJSON *st, size_t i)
{
	const cJSON *t = bc_rj(st, "total");

	return s_figs[i].lat ? bc_rj_num(t, "lat_us", s_figs[i].key) / 1e3
			     : bc_rj_num(t, s_figs[i].key);
}

/* percent difference from the first run; NAN when the first is 0 and this is not */
static double s_delta(double v, double v0)
{
	if (v0 == 0)
		return v == 0 ? 0 : NAN;
	return 100.0 * (v - v0) / v0;
}

struct s_cmp {
	struct s_run *runs;
	int n;
	double thr, lat_thr;
	bool fixed; /* --threshold: the fixed-threshold rule instead of intervals */
	FILE *md;
	int consistent, inconsistent, incomparable;
};

/*
 * ---- the devices under the runs: identity and temperature ----
 * Two runs of one profile are only comparable as far as their devices
 * are: a namespace reformatted between them (512e -> 4Kn), another model,
 * a firmware update, or a drive running 20 C hotter, is said beside the
 * figures rather than left for the reader to find.
 */

/* the identity fields compared, key paths under a device of bc_report's "devices" */
static const struct {
	const char *what;
	const char *k1, *k2; /* device[k1] or device[k1][k2] */
} s_idf[] = {
    {"LBA data size", "nvme", "lba_bytes"},
    {"LBA format kind", "nvme", "lba_kind"},
    {"format in use", "nvme", "format_index"},
    {"metadata size", "nvme", "metadata_bytes"},
    {"model", "nvme", "model"},
    {"firmware", "nvme", "firmware"},
    {"serial", "nvme", "serial"},
    {"logical block", "lbs", NULL},
    {"physical block", "pbs", NULL},
    {"capacity", "size", NULL},
};
#define S_NIDF (sizeof(s_idf) / sizeof(s_idf[0]))

/* a field's value as text ("" when the device does not say) */
static void s_id_value(const cJSON *dev, size_t f, char *buf, size_t len)
{
	const cJSON *v =
	    s_idf[f].k2 ? bc_rj(dev, s_idf[f].k1, s_idf[f].k2) : bc_rj(dev, s_idf[f].k1);
	const cJSON *fm;

	buf[0] = '\0';
	if (cJSON_IsString(v))
		snprintf(buf, len, "%s", v->valuestring);
	else if (cJSON_IsNumber(v))
		snprintf(buf, len, "%.0f", v->valuedouble);
	if (!cJSON_IsNumber(v) || strcmp(s_idf[f].k2 ? s_idf[f].k2 : "", "format_index"))
		return;
	/* the format's own data size beside its index, as nvme id-ns -H shows it */
	cJSON_ArrayForEach(fm, bc_rj(dev, "nvme", "formats")) if (bc_rj_num(fm, "index") ==
								  v->valuedouble)
	    snprintf(buf, len, "#%.0f (%.0f B data, %.0f B metadata)", v->valuedouble,
		     bc_rj_num(fm, "lba_bytes"), bc_rj_num(fm, "metadata_bytes"));
}

/* run r's device of agent at path, or its idx-th one of that agent */
static const cJSON *s_dev(const struct s_run *r, const char *agent, const char *path, int idx)
{
	const cJSON *list = bc_rj(r->devices, agent), *d;

	cJSON_ArrayForEach(d, list) if (!strcmp(bc_rj_str("", d, "path"), path)) return d;
	return cJSON_GetArrayItem(list, idx);
}

/* "A 512, B 4096" for every field that differs across runs; one line per device */
static int s_compare_devices(struct s_cmp *c)
{
	const cJSON *agent, *d;
	int ndiff = 0, ndev = 0;

	cJSON_ArrayForEach(agent, c->runs[0].devices)
	{
		int idx = 0;

		cJSON_ArrayForEach(d, agent)
		{
			const char *path = bc_rj_str("?", d, "path");
			char line[2048] = "";
			size_t f, used = 0;
			int r;

			ndev++;
			for (f = 0; f < S_NIDF; f++) {
				char v0[160], v[160];
				bool differ = false;

				s_id_value(d, f, v0, sizeof(v0));
				for (r = 1; r < c->n; r++) {
					s_id_value(s_dev(&c->runs[r], agent->string, path, idx), f,
						   v, sizeof(v));
					differ |= strcmp(v, v0) != 0;
				}
				if (!differ)
					continue;
				used += (size_t)snprintf(
				    line + used, sizeof(line) > used ? sizeof(line) - used : 0,
				    "%s%s:", used ? "; " : "", s_idf[f].what);
				for (r = 0; r < c->n; r++) {
					s_id_value(s_dev(&c->runs[r], agent->string, path, idx), f,
						   v, sizeof(v));
					used += (size_t)snprintf(
					    line + used,
					    sizeof(line) > used ? sizeof(line) - used : 0,
					    "%s %c %s", r ? "," : "", 'A' + r,
					    v[0] ? v : "unknown");
				}
			}
			idx++;
			if (!used)
				continue;
			if (!ndiff++) {
				printf("\ndevice identity differs (A is the first run):\n");
				if (c->md)
					fprintf(c->md,
						"\n## Devices\n\nDevice identity differs between "
						"the runs (A is the first):\n\n| agent | device | "
						"what differs |\n|---|---|---|\n");
			}
			printf("  %s %s: %s\n", agent->string, path, line);
			if (c->md) {
				fprintf(c->md, "| ");
				bc_md_puts(c->md, agent->string);
				fprintf(c->md, " | ");
				bc_md_puts(c->md, path);
				fprintf(c->md, " | ");
				bc_md_puts(c->md, line);
				fprintf(c->md, " |\n");
			}
		}
	}
	if (!ndiff && ndev) {
		printf("\ndevice identity: the same in every run (%d device(s))\n", ndev);
		if (c->md)
			fprintf(c->md,
				"\n## Devices\n\nDevice identity: the same in every run (%d "
				"device(s)).\n",
				ndev);
	}
	return ndiff;
}

/* min/max/mean of a volume's per-second composite temperature over its step */
static bool s_temp(const cJSON *vol, double *lo, double *hi, double *mean)
{
	const cJSON *t;
	double sum = 0;
	int n = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	cJSON_ArrayForEach(t, bc_rj(vol, "nvme_temp", "celsius"))
	{
		if (!cJSON_IsNumber(t))
			continue;
		*lo = fmin(*lo, t->valuedouble);
		*hi = fmax(*hi, t->valuedouble);
		sum += t->valuedouble;
		n++;
	}
	*mean = n ? sum / n : NAN;
	return n > 0;
}

static const cJSON *s_step_vol(const cJSON *st, const char *agent, const char *path)
{
	const cJSON *v;

	cJSON_ArrayForEach(
	    v, bc_rj(st, "volumes")) if (!strcmp(bc_rj_str("", v, "agent"), agent) &&
					 !strcmp(bc_rj_str("", v, "path"), path)) return v;
	return NULL;
}

/* the drive temperature of every volume that has one, per run, under a step's table */
/* a per-volume table row's first cells: "| agent:path | run" */
static void s_md_vol_run(FILE *md, const char *agent, const char *path, const char *label)
{
	fprintf(md, "| ");
	bc_md_puts(md, agent);
	fprintf(md, ":");
	bc_md_puts(md, path);
	fprintf(md, " | ");
	bc_md_puts(md, label);
}

static void s_step_temps(struct s_cmp *c, const char *name)
{
	const cJSON *st0 = s_step(c->runs[0].run, name), *v0;
	bool head = false;

	cJSON_ArrayForEach(v0, bc_rj(st0, "volumes"))
	{
		const char *agent = bc_rj_str("?", v0, "agent"), *path = bc_rj_str("?", v0, "path");
		double lo, hi, mean, mean0 = NAN;
		int r;

		if (!bc_rj(v0, "nvme_temp"))
			continue;
		if (!head) {
			head = true;
			printf("  drive temperature, C (min/max/mean over the step):\n");
			if (c->md)
				fprintf(c->md, "\nDrive temperature, C (min / max / mean over the "
					       "step):\n\n| volume | run | min | max | mean | mean "
					       "diff |\n|---|---|---:|---:|---:|---:|\n");
		}
		printf("    %s:%s", agent, path);
		for (r = 0; r < c->n; r++) {
			const cJSON *v = s_step_vol(s_step(c->runs[r].run, name), agent, path);
			char diff[32] = "";

			if (!v || !s_temp(v, &lo, &hi, &mean)) {
				printf("  %c -", 'A' + r);
				continue;
			}
			if (!r)
				mean0 = mean;
			else if (!isnan(mean0))
				snprintf(diff, sizeof(diff), "%+.1f", mean - mean0);
			printf("  %c %.1f/%.1f/%.1f%s%s%s", 'A' + r, lo, hi, mean,
			       diff[0] ? " (" : "", diff, diff[0] ? ")" : "");
			if (c->md) {
				s_md_vol_run(c->md, agent, path, c->runs[r].label);
				fprintf(c->md, " | %.1f | %.1f | %.1f | %s |\n", lo, hi, mean,
					diff);
			}
		}
		printf("\n");
	}
}

/*
 * the device's own WAF of every volume that has one, per run, under a
 * step's table: what an FTL or placement comparison (seed 001: baseline
 * against hot/cold) is about, with a simulated SSD's FTL and GC overhead
 */
static void s_step_wafs(struct s_cmp *c, const char *name)
{
	const cJSON *st0 = s_step(c->runs[0].run, name), *v0;
	bool head = false;

	cJSON_ArrayForEach(v0, bc_rj(st0, "volumes"))
	{
		const char *agent = bc_rj_str("?", v0, "agent"), *path = bc_rj_str("?", v0, "path");
		double w0 = NAN;
		int r;

		if (!cJSON_IsNumber(bc_rj(v0, "nvme_counters", "waf", "value")))
			continue;
		if (!head) {
			head = true;
			printf("  device WAF (media / host writes over the step, the drive's "
			       "counters):\n");
			if (c->md)
				fprintf(c->md,
					"\nDevice WAF (media / host writes over the step, the "
					"drive's counters):\n\n| volume | run | WAF | vs first | "
					"FTL | GC overhead |\n|---|---|---:|---:|---|---:|\n");
		}
		printf("    %s:%s", agent, path);
		for (r = 0; r < c->n; r++) {
			const cJSON *v = s_step_vol(s_step(c->runs[r].run, name), agent, path);
			const cJSON *w = bc_rj(v, "nvme_counters", "waf", "value");
			const cJSON *sim = bc_rj(v, "nvme_counters", "sim");
			char diff[32] = "", ftl[96] = "";

			if (!cJSON_IsNumber(w)) {
				printf("  %c -", 'A' + r);
				continue;
			}
			if (!r)
				w0 = w->valuedouble;
			else if (w0 > 0)
				snprintf(diff, sizeof(diff), "%+.1f%%",
					 s_delta(w->valuedouble, w0));
			if (bc_rj(sim, "ftl"))
				snprintf(ftl, sizeof(ftl), "%s, GC overhead %.1f%%",
					 bc_rj_str("?", sim, "ftl"),
					 bc_rj_num(sim, "gc_overhead_pct"));
			printf("  %c %.3f%s%s%s%s%s", 'A' + r, w->valuedouble, ftl[0] ? " (" : "",
			       ftl, ftl[0] ? ")" : "", diff[0] ? " " : "", diff);
			if (c->md) {
				s_md_vol_run(c->md, agent, path, c->runs[r].label);
				fprintf(c->md, " | %.3f | %s | %s | ", w->valuedouble, diff,
					bc_rj_str("-", sim, "ftl"));
				if (bc_rj(sim, "gc_overhead_pct"))
					fprintf(c->md, "%.1f%% |\n",
						bc_rj_num(sim, "gc_overhead_pct"));
				else
					fprintf(c->md, "- |\n");
			}
		}
		printf("\n");
	}
}

/* one step (or repeated step) across every run by the interval rule (report/parts/versus.h) */
static void s_compare_step_ci(struct s_cmp *c, const char *name)
{
	const cJSON *runs[S_MAX_RUNS];
	const char *labels[S_MAX_RUNS];
	struct bc_vs_step *vs = calloc(1, sizeof(*vs));
	int r, i;

	if (!vs)
		return;
	for (r = 0; r < c->n; r++) {
		runs[r] = c->runs[r].run;
		labels[r] = c->runs[r].label;
	}
	bc_vs_step(runs, labels, c->n, name, vs);
	printf("\nstep %s\n  %-32s %-8s %12s %-30s %-26s %s\n", name, "run", "figure", "mean",
	       "95% interval", "vs first [95% interval]", "verdict");
	if (c->md) {
		fprintf(c->md, "\n## Step ");
		bc_md_puts(c->md, name);
		fprintf(c->md, "\n\n| run | figure | mean | 95%% interval | difference from the "
			       "first [95%% interval] | verdict |\n|---|---|---:|---|---|---|\n");
	}
	for (r = 0; r < c->n; r++) {
		for (i = 0; i < BC_VS_FIGS; i++) {
			const struct bc_vs_cell *x = &vs->cell[r][i];
			const char *word = r ? bc_cmp_word(x->cmp) : "(reference)";
			int dec = bc_vs_figs[i].decimals;
			char iv[96];

			if (!x->have) {
				printf("  %-32.32s %-8s %12s\n", labels[r], bc_vs_figs[i].head,
				       "absent");
				if (c->md) {
					fprintf(c->md, "| ");
					bc_md_puts(c->md, labels[r]);
					fprintf(c->md, " | %s | absent | | | |\n",
						bc_vs_figs[i].head);
				}
				continue;
			}
			if (r && !vs->cell[0][i].have)
				word = "-";
			bc_vs_ci_text(x, dec, iv, sizeof(iv));
			printf("  %-32.32s %-8s %12.*f %-30s %-26s %s\n", labels[r],
			       bc_vs_figs[i].head, dec, x->ci.mean, iv, x->diff, word);
			if (c->md) {
				fprintf(c->md, "| ");
				bc_md_puts(c->md, labels[r]);
				fprintf(c->md, " | %s | %.*f | %s | %s | %s |\n",
					bc_vs_figs[i].head, dec, x->ci.mean, iv, x->diff, word);
			}
		}
	}
	if (vs->differ)
		c->inconsistent++;
	else if (!vs->comparable)
		c->incomparable++;
	else
		c->consistent++;
	s_step_temps(c, name);
	s_step_wafs(c, name);
	printf("  verdict: %s\n", vs->verdict);
	if (c->md) {
		fprintf(c->md, "\nVerdict: **");
		bc_md_puts(c->md, vs->verdict);
		fprintf(c->md, "**\n");
	}
	free(vs);
}

/* one step across every run: table rows and the verdict */
static void s_compare_step(struct s_cmp *c, const char *name)
{
	const cJSON *st0 = s_step(c->runs[0].run, name);
	char verdict[1024] = "", worst[256] = "";
	double max_abs = 0, worst_over = 0;
	bool comparable = true, ok = true;
	int r;
	size_t i;

	printf("\nstep %s\n  %-40s", name, "run");
	for (i = 0; i < S_NFIGS; i++)
		printf(" %11s %8s", s_figs[i].head, "diff");
	printf("\n");
	if (c->md) {
		fprintf(c->md, "\n## Step ");
		bc_md_puts(c->md, name);
		fprintf(c->md, "\n\n| run | status |");
		for (i = 0; i < S_NFIGS; i++)
			fprintf(c->md, " %s | diff |", s_figs[i].head);
		fprintf(c->md, "\n|---|---|");
		for (i = 0; i < S_NFIGS; i++)
			fprintf(c->md, "---:|---:|");
		fprintf(c->md, "\n");
	}
	for (r = 0; r < c->n; r++) {
		const cJSON *st = s_step(c->runs[r].run, name);
		const char *status = st ? bc_rj_str("?", st, "status") : "absent";

		printf("  %-40.40s", c->runs[r].label);
		if (c->md) {
			fprintf(c->md, "| ");
			bc_md_puts(c->md, c->runs[r].label);
			fprintf(c->md, " | %s |", status);
		}
		if (!st || strcmp(status, "ok") || !st0) {
			comparable = false;
			if (!verdict[0])
				snprintf(verdict, sizeof(verdict),
					 "not comparable: step is %s in %s", status,
					 c->runs[r].label);
			printf(" %s\n", status);
			if (c->md)
				fprintf(c->md, "\n");
			continue;
		}
		for (i = 0; i < S_NFIGS; i++) {
			double v = s_fig(st, i), d = s_delta(v, s_fig(st0, i));
			double lim = s_figs[i].lat ? c->lat_thr : c->thr;
			char ds[32];

			if (r == 0)
				snprintf(ds, sizeof(ds), "-");
			else if (isnan(d))
				snprintf(ds, sizeof(ds), "n/a");
			else
				snprintf(ds, sizeof(ds), "%+.1f%%", d);
			printf(" %11.*f %8s", s_figs[i].decimals, v, ds);
			if (c->md)
				fprintf(c->md, " %.*f | %s |", s_figs[i].decimals, v, ds);
			if (!r)
				continue;
			/* the verdict names the largest miss, relative to its threshold */
			if (isnan(d) || fabs(d) > lim) {
				double over = isnan(d) ? INFINITY : fabs(d) / fmax(lim, 1e-9);

				ok = false;
				if (over > worst_over) {
					worst_over = over;
					snprintf(worst, sizeof(worst), "%s %s %s (threshold %g%%)",
						 c->runs[r].label, s_figs[i].head, ds, lim);
				}
			}
			if (!isnan(d))
				max_abs = fmax(max_abs, fabs(d));
		}
		printf("\n");
		if (c->md)
			fprintf(c->md, "\n");
	}
	if (!comparable) {
		c->incomparable++;
	} else if (ok) {
		c->consistent++;
		snprintf(verdict, sizeof(verdict),
			 "consistent (largest difference %.1f%%; thresholds %g%%, p99 %g%%)",
			 max_abs, c->thr, c->lat_thr);
	} else {
		c->inconsistent++;
		snprintf(verdict, sizeof(verdict), "INCONSISTENT: %s", worst);
	}
	{
		const cJSON *runs[S_MAX_RUNS];
		const char *labels[S_MAX_RUNS];

		for (r = 0; r < c->n && r < S_MAX_RUNS; r++) {
			runs[r] = c->runs[r].run;
			labels[r] = c->runs[r].label;
		}
		bc_vs_contended(runs, labels, r, name, verdict, sizeof(verdict));
	}
	s_step_temps(c, name);
	s_step_wafs(c, name);
	printf("  verdict: %s\n", verdict);
	if (c->md) {
		fprintf(c->md, "\nVerdict: **");
		bc_md_puts(c->md, verdict);
		fprintf(c->md, "**\n");
	}
}

/* run.json's experiment object of step name (on its last entry), NULL when none */
static const cJSON *s_experiment(const cJSON *run, const char *name)
{
	const cJSON *st, *x;

	cJSON_ArrayForEach(st, bc_rj(run, "steps"))
	{
		x = bc_rj(st, "experiment");
		if (x && !strcmp(bc_rj_str("", x, "step"), name))
			return x;
	}
	return NULL;
}

/* one run's modes against the first run's (report/parts/fdp.c comparison rows) */
static void s_experiment_rows(struct s_cmp *c, int r, const cJSON *x, const cJSON *x0)
{
	cJSON *cmp = bc_fdp_compare(x, x0);
	const cJSON *m;
	char b1[32], b2[32];

	cJSON_ArrayForEach(m, cmp)
	{
		const cJSON *w = bc_rj(m, "waf"), *d = bc_rj(m, "waf_delta"),
			    *dp = bc_rj(m, "waf_delta_pct"), *p = bc_rj(m, "write_p99_ms");
		double wv = cJSON_IsNumber(w) ? w->valuedouble : NAN;
		double pv = cJSON_IsNumber(p) ? p->valuedouble : NAN;

		snprintf(b1, sizeof(b1), "-");
		snprintf(b2, sizeof(b2), "-");
		if (r && cJSON_IsNumber(d))
			snprintf(b1, sizeof(b1), "%+.4f", d->valuedouble);
		if (r && cJSON_IsNumber(dp))
			snprintf(b2, sizeof(b2), "%+.1f%%", dp->valuedouble);
		printf("  %-40.40s %-12s %9.4f %9s %9s %12.3f\n", c->runs[r].label,
		       bc_rj_str("?", m, "mode"), wv, b1, b2, pv);
		if (c->md) {
			fprintf(c->md, "| ");
			bc_md_puts(c->md, c->runs[r].label);
			fprintf(c->md, " | %s | %.4f | %s | %s | %.3f |\n",
				bc_rj_str("?", m, "mode"), wv, b1, b2, pv);
		}
	}
	cJSON_Delete(cmp);
}

/*
 * FDP experiments (report/parts/fdp.c): WAF and write p99 per mode of every run
 * beside the first's. Shown, not judged: the verdict stays the steps'.
 */
static void s_compare_experiments(struct s_cmp *c)
{
	const cJSON *st, *x0, *x;
	const char *name;
	int r;

	cJSON_ArrayForEach(st, bc_rj(c->runs[0].run, "steps"))
	{
		x0 = bc_rj(st, "experiment");
		if (!x0)
			continue;
		name = bc_rj_str("?", x0, "step");
		printf("\nexperiment %s: WAF per mode (difference from the first run)\n", name);
		printf("  %-40s %-12s %9s %9s %9s %12s\n", "run", "mode", "WAF", "diff", "diff %",
		       "write p99 ms");
		if (c->md) {
			fprintf(c->md, "\n## Experiment ");
			bc_md_puts(c->md, name);
			fprintf(c->md,
				": WAF per mode\n\n| run | mode | WAF | diff | diff %% | write "
				"p99 ms |\n|---|---|---:|---:|---:|---:|\n");
		}
		for (r = 0; r < c->n; r++) {
			x = s_experiment(c->runs[r].run, name);
			if (x)
				s_experiment_rows(c, r, x, x0);
			else
				printf("  %-40.40s (no experiment %s)\n", c->runs[r].label, name);
		}
	}
}

static int s_parse_pct(const char *opt, const char *v, double *out)
{
	char *end;
	double d = strtod(v, &end);

	if (*end || !(d >= 0) || d > 1000)
		return bc_error("%s: expected a percentage in [0, 1000], got '%s'", opt, v);
	*out = d;
	return 0;
}

/*
 * RUN@STEP: the run's steps cut to that one; its index among them (as the
 * "ready" records of events.jsonl count steps), -1 when absent.
 */
static int s_select(struct s_run *r)
{
	cJSON *steps = cJSON_GetObjectItemCaseSensitive(r->run, "steps"), *st, *keep;
	int k = 0;

	cJSON_ArrayForEach(st, steps)
	{
		if (!strcmp(bc_rj_str("", st, "name"), r->step))
			break;
		k++;
	}
	if (!st)
		return -1;
	keep = cJSON_DetachItemViaPointer(steps, st);
	while (cJSON_GetArraySize(steps))
		cJSON_DeleteItemFromArray(steps, 0);
	cJSON_AddItemToArray(steps, keep);
	return k;
}

static int s_load(struct s_run *r, const char *arg)
{
	struct bc_report rep;
	char err[BC_PATH_MAX + 64], tmp[BC_PATH_MAX];
	size_t n = strlen(arg);
	int k;

	/* a run directory, or its run.json; RUN@STEP one step of it */
	snprintf(r->dir, sizeof(r->dir), "%s", arg);
	if (strrchr(r->dir, '@') &&
	    (!strrchr(r->dir, '/') || strrchr(r->dir, '@') > strrchr(r->dir, '/'))) {
		snprintf(r->step, sizeof(r->step), "%s", strrchr(r->dir, '@') + 1);
		*strrchr(r->dir, '@') = '\0';
		n = strlen(r->dir);
	}
	if (n >= 9 && !strcmp(arg + n - 9, "/run.json"))
		r->dir[n - 9] = '\0';
	while (strlen(r->dir) > 1 && r->dir[strlen(r->dir) - 1] == '/')
		r->dir[strlen(r->dir) - 1] = '\0';
	snprintf(tmp, sizeof(tmp), "%s", r->dir);
	snprintf(r->label, sizeof(r->label), "%s", basename(tmp));
	r->run = bc_rj_read_file(r->dir, "run.json", err, sizeof(err));
	if (!r->run)
		return bc_error("%s", err);
	k = r->step[0] ? s_select(r) : -1;
	if (r->step[0] && k < 0)
		return bc_error("%s: no step \"%s\" in run.json", r->dir, r->step);
	/* the devices as each agent opened them: the report writers' own reading */
	if (!bc_rundata_load(&rep, r->dir, NULL, err, sizeof(err))) {
		if (k >= 0)
			bc_report_devices_of_step(&rep, k);
		r->devices = rep.devices;
		rep.devices = NULL;
		bc_rundata_free(&rep);
	}
	if (r->step[0])
		snprintf(r->label + strlen(r->label), sizeof(r->label) - strlen(r->label), "@%s",
			 r->step);
	return 0;
}

/*
 * Steps taken by RUN@STEP are one step under one name, the selected names
 * joined ("512e / 4kn"), so they are compared with each other.
 */
static void s_name_selected(struct s_run *runs, int n)
{
	char name[256] = "";
	int i, j;

	for (i = 0; i < n; i++) {
		bool seen = false;

		for (j = 0; j < i; j++)
			seen |= !strcmp(runs[j].step, runs[i].step);
		if (runs[i].step[0] && !seen)
			snprintf(name + strlen(name), sizeof(name) - strlen(name), "%s%s",
				 name[0] ? " / " : "", runs[i].step);
	}
	for (i = 0; name[0] && i < n; i++) {
		cJSON *st =
		    cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(runs[i].run, "steps"), 0);

		if (runs[i].step[0] && st)
			cJSON_ReplaceItemInObjectCaseSensitive(st, "name",
							       cJSON_CreateString(name));
	}
}

/* compare.html (report/compare.c): the runs as loaded, selected steps renamed */
static int s_html(struct s_run *runs, int n, const cJSON *names, const char *path)
{
	struct bc_report *reps = calloc((size_t)n, sizeof(*reps));
	const char **labels = calloc((size_t)n, sizeof(*labels));
	const char **nm = calloc((size_t)cJSON_GetArraySize(names) + 1, sizeof(*nm));
	const cJSON *x;
	int i, k = 0, rc = -ENOMEM;
	FILE *f = NULL;

	if (!reps || !labels || !nm)
		goto out;
	for (i = 0; i < n; i++) {
		snprintf(reps[i].dir, sizeof(reps[i].dir), "%s", runs[i].dir);
		reps[i].run = runs[i].run;
		reps[i].run_borrowed = true;
		labels[i] = runs[i].label;
	}
	cJSON_ArrayForEach(x, names) nm[k++] = x->valuestring;
	f = fopen(path, "w");
	if (!f) {
		rc = -errno;
		bc_error("cannot create '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = bc_report_compare_html(f, reps, labels, n, nm, k);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc)
		bc_error("cannot write '%s': %s", path, strerror(-rc));
out:
	if (rc == -ENOMEM)
		bc_error("out of memory");
	free(reps);
	free(labels);
	free(nm);
	return rc;
}

int bc_cmd_compare(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"threshold", required_argument, NULL, 't'},
	    {"lat-threshold", required_argument, NULL, 'L'},
	    {"md", required_argument, NULL, 'm'},
	    {"html", required_argument, NULL, 'H'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static struct s_run runs[S_MAX_RUNS];
	struct s_cmp c = {.runs = runs, .thr = 5, .lat_thr = -1};
	const char *md_path = NULL, *html_path = NULL;
	const cJSON *st;
	cJSON *names = NULL;
	int opt, i, rc = 2;

	while ((opt = getopt_long(argc, argv, "t:h", lopts, NULL)) != -1) {
		switch (opt) {
		case 't':
			if (s_parse_pct("--threshold", optarg, &c.thr))
				return 2;
			c.fixed = true;
			break;
		case 'L':
			if (s_parse_pct("--lat-threshold", optarg, &c.lat_thr))
				return 2;
			break;
		case 'm':
			md_path = optarg;
			break;
		case 'H':
			html_path = optarg;
			break;
		default:
			return bc_cmd_help(opt, s_usage);
		}
	}
	if (argc - optind < 2 || argc - optind > S_MAX_RUNS)
		return bc_cmd_bad_usage(s_usage);
	if (c.lat_thr >= 0 && !c.fixed) {
		bc_error("--lat-threshold: only with --threshold");
		return 2;
	}
	if (c.lat_thr < 0)
		c.lat_thr = c.thr;
	for (i = optind; i < argc; i++)
		if (s_load(&runs[c.n++], argv[i]))
			goto out;
	s_name_selected(runs, c.n);
	if (md_path) {
		c.md = fopen(md_path, "w");
		if (!c.md) {
			bc_error("cannot create '%s': %s", md_path, strerror(errno));
			goto out;
		}
		if (c.fixed)
			fprintf(c.md,
				"# bench-coord compare\n\nDifferences from the first run; "
				"consistent when within %g%% (p99: %g%%).\n\n",
				c.thr, c.lat_thr);
		else
			fprintf(c.md,
				"# bench-coord compare\n\nEach run against the first: "
				"higher, lower or not distinguishable from the 95%% interval "
				"of the difference (over repetitions, else over seconds).\n\n");
		fprintf(c.md, "| | run | profile | started | status |\n|---|---|---|---|---|\n");
		for (i = 0; i < c.n; i++) {
			fprintf(c.md, "| %c | ", 'A' + i);
			bc_md_puts(c.md, runs[i].label);
			fprintf(c.md, " | ");
			bc_md_puts(c.md, bc_rj_str("?", runs[i].run, "profile"));
			fprintf(c.md, " | %s | %s |\n", bc_rj_str("?", runs[i].run, "started"),
				bc_rj_str("?", runs[i].run, "status"));
		}
	}
	s_compare_devices(&c);
	/* steps of the first run in order, then those only later runs have */
	names = cJSON_CreateArray();
	for (i = 0; i < c.n; i++)
		cJSON_ArrayForEach(st, bc_rj(runs[i].run, "steps"))
		{
			const char *nm = bc_rj_str("?", st, "name");
			char base[BC_NAME_MAX + 32];
			const cJSON *x;
			bool seen = false;

			/* by intervals, a step's repetitions are one step */
			if (!c.fixed && bc_step_repeat_of(nm, base, sizeof(base), NULL))
				nm = base;

			cJSON_ArrayForEach(x, names) seen |= !strcmp(x->valuestring, nm);
			if (!seen)
				cJSON_AddItemToArray(names, cJSON_CreateString(nm));
		}
	cJSON_ArrayForEach(st, names)
	{
		if (c.fixed)
			s_compare_step(&c, st->valuestring);
		else
			s_compare_step_ci(&c, st->valuestring);
	}
	s_compare_experiments(&c);
	if (html_path && s_html(runs, c.n, names, html_path))
		goto out;
	printf("\n%d step(s): %d %s, %d %s, %d not comparable\n", cJSON_GetArraySize(names),
	       c.consistent, c.fixed ? "consistent" : "not distinguishable", c.inconsistent,
	       c.fixed ? "inconsistent" : "different", c.incomparable);
	if (c.md) {
		fprintf(c.md, "\n%d step(s): %d %s, %d %s, %d not comparable.\n",
			cJSON_GetArraySize(names), c.consistent,
			c.fixed ? "consistent" : "not distinguishable", c.inconsistent,
			c.fixed ? "inconsistent" : "different", c.incomparable);
		if (fclose(c.md)) {
			bc_error("cannot write '%s': %s", md_path, strerror(errno));
			c.md = NULL;
			goto out;
		}
		c.md = NULL;
	}
	rc = c.inconsistent || c.incomparable || !cJSON_GetArraySize(names) ? 1 : 0;
out:
	if (c.md)
		fclose(c.md);
	cJSON_Delete(names);
	for (i = 0; i < c.n; i++) {
		cJSON_Delete(runs[i].run);
		cJSON_Delete(runs[i].devices);
	}
	return rc;
}
