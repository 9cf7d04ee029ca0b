/*
 * profile/repeat.c - "repeat": N at the top level (every step) or in a
 * step (that step; the step's wins) expands, once the profile is checked,
 * into ordinary steps "<name>#1" .. "<name>#N", so the step loop runs them
 * like any other. Repetitions run in rounds: round k runs, in profile
 * order, every step with at least k repetitions, so a slow drift of the
 * system under test (a filling cache, a warming drive) spreads over all
 * steps instead of biasing the last. The reports group the repetitions back
 * by bc_step_repeat_of() and give every figure a mean and a 95% interval
 * (coordinator/report/parts/repeat.c, common/figures/ci.h).
 *
 * An "experiment" step runs once: its measure_iterations are its
 * repetitions (report/parts/fdp.c gives the WAF interval over them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/repeat.h"
#include "profile/volume_wl.h"

/* more is a typo, or a run of days: a person types a handful */
#define S_REPEAT_MAX 100

static int s_repeat(struct bc_check *c, const cJSON *obj, const char *base, uint32_t *out)
{
	char path[BC_CHECK_PATH_LEN];
	const cJSON *v;
	double d;
	int ret = bc_check_item(c, obj, base, "repeat", false, path, &v);

	if (ret || !v)
		return ret;
	ret = bc_check_int(c, path, v, 1, S_REPEAT_MAX, &d);
	if (!ret)
		*out = (uint32_t)d;
	return ret;
}

int bc_profile_expand_repeats(struct bc_check *c, const cJSON *root, struct bc_profile *p)
{
	char base[BC_CHECK_PATH_LEN];
	uint32_t all = 1, *nrep = NULL, rounds = 1, r;
	struct bc_step *steps = NULL;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "steps"), *item;
	int i = 0, n = 0, ret;

	ret = s_repeat(c, root, "", &all);
	if (ret)
		return ret;
	nrep = calloc((size_t)p->nsteps, sizeof(*nrep));
	if (!nrep)
		return -ENOMEM;
	cJSON_ArrayForEach(item, arr)
	{
		if (i >= p->nsteps)
			break;
		snprintf(base, sizeof(base), "steps[%d]", i);
		nrep[i] = 0;
		ret = s_repeat(c, item, base, &nrep[i]);
		if (ret)
			goto out;
		if (nrep[i] && p->steps[i].experiment) {
			ret = bc_check_fail(c, base,
					    "repeat: an experiment repeats by its "
					    "measure_iterations, not by repeat");
			goto out;
		}
		if (!nrep[i])
			nrep[i] = p->steps[i].experiment ? 1 : all;
		/* "#100" and a sweep's "@..." must still fit the run.json name */
		if (nrep[i] > 1 && strlen(p->steps[i].name) + 4 >= BC_NAME_MAX) {
			ret = bc_check_fail(c, base,
					    "name: at most %d characters with repeat, got \"%s\"",
					    BC_NAME_MAX - 5, p->steps[i].name);
			goto out;
		}
		n += (int)nrep[i];
		if (nrep[i] > rounds)
			rounds = nrep[i];
		i++;
	}
	if (n == p->nsteps) /* nothing repeats: the steps stay as they are */
		goto out;
	steps = calloc((size_t)n, sizeof(*steps));
	if (!steps) {
		ret = -ENOMEM;
		goto out;
	}
	n = 0;
	for (r = 1; r <= rounds; r++)
		for (i = 0; i < p->nsteps; i++) {
			struct bc_step *st = &steps[n];

			if (nrep[i] < r)
				continue;
			*st = p->steps[i];
			st->rep = r;
			st->nrep = nrep[i];
			if (nrep[i] > 1)
				snprintf(st->name, sizeof(st->name), "%s#%u", p->steps[i].name, r);
			/* every repetition owns its copies, so destroy frees each once */
			st->sweep =
			    p->steps[i].sweep ? cJSON_Duplicate(p->steps[i].sweep, true) : NULL;
			st->experiment = p->steps[i].experiment
					     ? cJSON_Duplicate(p->steps[i].experiment, true)
					     : NULL;
			st->volume_workloads =
			    p->steps[i].volume_workloads
				? cJSON_Duplicate(p->steps[i].volume_workloads, true)
				: NULL;
			st->volume_wl = NULL;
			if (p->steps[i].volume_wl) {
				size_t len =
				    (size_t)p->steps[i].nvolume_wl * sizeof(*st->volume_wl);

				st->volume_wl = malloc(len ? len : 1);
				if (st->volume_wl)
					memcpy(st->volume_wl, p->steps[i].volume_wl, len);
			}
			n++;
			if ((p->steps[i].sweep && !st->sweep) ||
			    (p->steps[i].experiment && !st->experiment) ||
			    (p->steps[i].volume_workloads && !st->volume_workloads) ||
			    (p->steps[i].volume_wl && !st->volume_wl)) {
				ret = -ENOMEM;
				goto out;
			}
		}
	for (i = 0; i < p->nsteps; i++) {
		cJSON_Delete(p->steps[i].sweep);
		cJSON_Delete(p->steps[i].experiment);
		cJSON_Delete(p->steps[i].volume_workloads);
		free(p->steps[i].volume_wl);
	}
	free(p->steps);
	p->steps = steps;
	p->nsteps = n;
	steps = NULL;
out:
	if (steps) {
		for (i = 0; i < n; i++) {
			cJSON_Delete(steps[i].sweep);
			cJSON_Delete(steps[i].experiment);
			cJSON_Delete(steps[i].volume_workloads);
			free(steps[i].volume_wl);
		}
		free(steps);
	}
	free(nrep);
	return ret;
}

bool bc_step_repeat_of(const char *name, char *base, size_t len, uint32_t *rep)
{
	const char *h = strchr(name, '#'), *q;
	unsigned long v;
	char *end;

	if (!h || h[1] < '1' || h[1] > '9')
		return false;
	v = strtoul(h + 1, &end, 10);
	q = end;
	if (*q && *q != '@')
		return false;
	if (rep)
		*rep = (uint32_t)v;
	if (base)
		snprintf(base, len, "%.*s%s", (int)(h - name), name, q);
	return true;
}
