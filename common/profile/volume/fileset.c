/*
 * profile/volume/fileset.c - a volume's "fileset" key (see
 * profile/volume/fileset.h, docs/profiles.md): {"depth": 2, "width": 4,
 * "files": 10, "distribution": "bottom" | "all", "sizes": "128KiB" |
 * [{"size": "32KiB", "pct": 40}, {"size": "1MiB", "pct": 60}]}, and the
 * tree it describes. The plan is a pure function of the spec, so an agent
 * that meets a tree it built in an earlier step (or session) finds every
 * file where it put it and with the size it gave it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/value/keys.h"
#include "profile/value/units.h"
#include "profile/volume/fileset.h"

static const char *const s_keys[] = {
    "depth", "width", "files", "distribution", "sizes", "share", "totalsize", "workingset", NULL};
static const char *const s_size_keys[] = {"size", "pct", NULL};
static const char *const s_share_keys[] = {"count", "index", NULL};

bool bc_fileset_count(const struct bc_fileset_spec *s, uint64_t *ndirs, uint64_t *nfiles)
{
	uint64_t level = 1, dirs = 0;
	uint32_t l;

	for (l = 1; l <= s->depth; l++) {
		level *= s->width;
		dirs += level;
		if (dirs > BC_FILESET_FILES_MAX)
			return false;
	}
	*ndirs = dirs;
	/* bottom: the last level's directories (the path itself at depth 0) */
	*nfiles = (uint64_t)s->files * (s->depth == 0 ? 1 : s->all ? dirs : level);
	return *nfiles <= BC_FILESET_FILES_MAX;
}

static int s_sizes(const cJSON *v, const char *base, struct bc_fileset_spec *s, char *err,
		   size_t errlen)
{
	char path[160];
	const cJSON *e;
	uint32_t sum = 0, i = 0;

	if (!cJSON_IsArray(v)) {
		s->nsizes = 1;
		s->pct[0] = 100;
		if (bc_keys_size(v, &s->size[0]) || !s->size[0]) {
			snprintf(err, errlen,
				 "%s.fileset.sizes: expected a size (\"128KiB\") or a list of "
				 "{\"size\", \"pct\"}",
				 base);
			return -EINVAL;
		}
	} else {
		if (!cJSON_GetArraySize(v) || cJSON_GetArraySize(v) > BC_FILESET_SIZES_MAX) {
			snprintf(err, errlen, "%s.fileset.sizes: expected 1..%d entries", base,
				 BC_FILESET_SIZES_MAX);
			return -EINVAL;
		}
		cJSON_ArrayForEach(e, v)
		{
			snprintf(path, sizeof(path), "%s.fileset.sizes[%u]", base, i);
			if (!cJSON_IsObject(e) ||
			    bc_keys_known(e, path, s_size_keys, err, errlen) ||
			    bc_keys_size(cJSON_GetObjectItemCaseSensitive(e, "size"),
					 &s->size[i]) ||
			    !s->size[i] ||
			    bc_keys_uint(cJSON_GetObjectItemCaseSensitive(e, "pct"), 0, 100,
					 &s->pct[i])) {
				if (!err[0] || cJSON_IsObject(e))
					snprintf(err, errlen,
						 "%s: expected {\"size\": \"32KiB\", \"pct\": "
						 "0..100}",
						 path);
				return -EINVAL;
			}
			sum += s->pct[i++];
		}
		s->nsizes = i;
		/* vdbench's sizes=(n,0): an average */
		if (!(i == 1 && sum == 0) && sum != 100) {
			snprintf(err, errlen,
				 "%s.fileset.sizes: the pcts sum to %u, not 100 (one entry with "
				 "\"pct\": 0 is an average size)",
				 base, sum);
			return -EINVAL;
		}
	}
	for (i = 0; i < s->nsizes; i++)
		if (s->size[i] % 512 || s->size[i] > (1ull << 50)) {
			snprintf(
			    err, errlen,
			    "%s.fileset.sizes: %llu bytes is not a multiple of 512 up to 1 PiB "
			    "(the unit of direct I/O)",
			    base, (unsigned long long)s->size[i]);
			return -EINVAL;
		}
	return 0;
}

int bc_fileset_spec_from_json(const cJSON *o, const char *base, struct bc_fileset_spec *s,
			      char *err, size_t errlen)
{
	char path[160];
	const cJSON *v;
	uint64_t nd, nf;

	memset(s, 0, sizeof(*s));
	err[0] = 0;
	snprintf(path, sizeof(path), "%s.fileset", base);
	if (!cJSON_IsObject(o)) {
		snprintf(err, errlen, "%s: expected an object", path);
		return -EINVAL;
	}
	if (bc_keys_known(o, path, s_keys, err, errlen))
		return -EINVAL;
	s->enabled = true;
	s->width = 1;
	s->files = 1;
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "depth")) &&
	    bc_keys_uint(v, 0, 32, &s->depth)) {
		snprintf(err, errlen, "%s.depth: expected an integer 0..32", path);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "width")) &&
	    bc_keys_uint(v, 1, BC_FILESET_FILES_MAX, &s->width)) {
		snprintf(err, errlen, "%s.width: expected an integer >= 1", path);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "files")) &&
	    bc_keys_uint(v, 1, BC_FILESET_FILES_MAX, &s->files)) {
		snprintf(err, errlen, "%s.files: expected an integer >= 1", path);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "distribution"))) {
		if (!cJSON_IsString(v) ||
		    (strcmp(v->valuestring, "bottom") && strcmp(v->valuestring, "all"))) {
			snprintf(err, errlen, "%s.distribution: expected \"bottom\" or \"all\"",
				 path);
			return -EINVAL;
		}
		s->all = !strcmp(v->valuestring, "all");
	}
	v = cJSON_GetObjectItemCaseSensitive(o, "sizes");
	if (!v) {
		snprintf(err, errlen, "%s.sizes: required (\"128KiB\", or [{\"size\", \"pct\"}])",
			 path);
		return -EINVAL;
	}
	if (s_sizes(v, base, s, err, errlen))
		return -EINVAL;
	if (!bc_fileset_count(s, &nd, &nf)) {
		snprintf(err, errlen,
			 "%s: depth %u, width %u and files %u make more than %u files or "
			 "directories",
			 path, s->depth, s->width, s->files, BC_FILESET_FILES_MAX);
		return -EINVAL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "share"))) {
		char sp[176];

		snprintf(sp, sizeof(sp), "%s.share", path);
		if (!cJSON_IsObject(v) || bc_keys_known(v, sp, s_share_keys, err, errlen) ||
		    bc_keys_uint(cJSON_GetObjectItemCaseSensitive(v, "count"), 1, 1 << 20,
				 &s->share_count) ||
		    bc_keys_uint(cJSON_GetObjectItemCaseSensitive(v, "index"), 0,
				 s->share_count - 1, &s->share_index)) {
			if (!err[0] || cJSON_IsObject(v))
				snprintf(err, errlen,
					 "%s: expected {\"count\": hosts sharing the tree, "
					 "\"index\": 0..count-1}",
					 sp);
			return -EINVAL;
		}
		if (s->share_count > nf) {
			snprintf(err, errlen, "%s: %u hosts for %llu files: one has none", sp,
				 s->share_count, (unsigned long long)nf);
			return -EINVAL;
		}
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "totalsize"))) {
		uint64_t have = 0, f;

		if (bc_keys_size(v, &s->totalsize) || !s->totalsize) {
			snprintf(err, errlen, "%s.totalsize: expected a size (\"50g\")", path);
			return -EINVAL;
		}
		for (f = 0; f < nf; f++)
			if (bc_fileset_mine(s, (uint32_t)f))
				have += bc_fileset_file_size(s, (uint32_t)f);
		if (s->totalsize > have) {
			snprintf(err, errlen,
				 "%s.totalsize: %llu bytes, and the %s files hold %llu (vdbench "
				 "stops at that too)",
				 path, (unsigned long long)s->totalsize,
				 s->share_count ? "volume's share of the" : "tree's",
				 (unsigned long long)have);
			return -EINVAL;
		}
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(o, "workingset"))) {
		uint64_t have = s->totalsize, f;

		if (bc_keys_size(v, &s->workingset) || !s->workingset) {
			snprintf(err, errlen, "%s.workingset: expected a size (\"32g\")", path);
			return -EINVAL;
		}
		for (f = 0; !have && f < nf; f++)
			if (bc_fileset_mine(s, (uint32_t)f))
				have += bc_fileset_file_size(s, (uint32_t)f);
		if (s->workingset > have) {
			snprintf(err, errlen,
				 "%s.workingset: %llu bytes, more than the %llu the %s files hold",
				 path, (unsigned long long)s->workingset, (unsigned long long)have,
				 s->totalsize ? "totalsize's" : "volume's");
			return -EINVAL;
		}
	}
	return 0;
}

cJSON *bc_fileset_spec_to_json(const struct bc_fileset_spec *s)
{
	cJSON *o, *arr;
	uint32_t i;

	if (!s->enabled)
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "depth", s->depth);
	cJSON_AddNumberToObject(o, "width", s->width);
	cJSON_AddNumberToObject(o, "files", s->files);
	cJSON_AddStringToObject(o, "distribution", s->all ? "all" : "bottom");
	arr = cJSON_AddArrayToObject(o, "sizes");
	for (i = 0; i < s->nsizes; i++) {
		cJSON *e = cJSON_CreateObject();

		cJSON_AddNumberToObject(e, "size", (double)s->size[i]);
		cJSON_AddNumberToObject(e, "pct", s->pct[i]);
		cJSON_AddItemToArray(arr, e);
	}
	if (s->share_count) {
		cJSON *e = cJSON_AddObjectToObject(o, "share");

		cJSON_AddNumberToObject(e, "count", s->share_count);
		cJSON_AddNumberToObject(e, "index", s->share_index);
	}
	if (s->totalsize)
		cJSON_AddNumberToObject(o, "totalsize", (double)s->totalsize);
	if (s->workingset)
		cJSON_AddNumberToObject(o, "workingset", (double)s->workingset);
	return o;
}

/* a fixed hash of the file's index: the same tree every time (splitmix64's finaliser) */
static uint64_t s_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * vdbench's rounding of a size drawn around an average (its FSD "sizes"
 * rules): above 10m a multiple of 1m, above 1m of 100k, above 100k of 10k,
 * else of 1k; never below 1k
 */
static uint64_t s_vdb_round(uint64_t b)
{
	uint64_t unit = b > 10 * 1048576ull ? 1048576ull
			: b > 1048576ull    ? 102400ull
			: b > 102400ull	    ? 10240ull
					    : 1024ull;

	b = (b + unit / 2) / unit * unit;
	return b ? b : 1024;
}

uint64_t bc_fileset_file_size(const struct bc_fileset_spec *s, uint32_t f)
{
	uint64_t h = s_mix((uint64_t)f ^ 0x6673657473697a65ull);
	uint32_t u, i, acc = 0;

	if (s->nsizes == 1 && s->pct[0] == 0)
		/* (n,0): uniform over [n/2, 3n/2), average n, then vdbench's rounding */
		return s_vdb_round(
		    s->size[0] / 2 +
		    (uint64_t)((double)(h >> 11) / 9007199254740992.0 * (double)s->size[0]));
	/* each file draws its size by the shares, as vdbench draws it per file */
	u = (uint32_t)((h >> 32) % 100);
	for (i = 0; i + 1 < s->nsizes; i++) {
		acc += s->pct[i];
		if (u < acc)
			break;
	}
	return s->size[i];
}

bool bc_fileset_mine(const struct bc_fileset_spec *s, uint32_t f)
{
	return !s->share_count || f % s->share_count == s->share_index;
}

/*
 * totalsize: the volume's files drawn at random, no file twice (a partial
 * Fisher-Yates shuffle with a fixed seed: the same subset every run, as
 * vdbench's Random(0) gives it the same), until their sizes reach it;
 * pick[] marks them. -ERANGE when they all fall short.
 */
static int s_subset(uint64_t want, uint64_t seed, const uint32_t *mine, const uint64_t *size,
		    uint32_t n, bool *pick)
{
	uint32_t *perm = malloc((size_t)n * sizeof(*perm)), i, j;
	uint64_t got = 0;

	if (!perm)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = 0; i < n && got < want; i++) {
		uint64_t h = s_mix((uint64_t)i ^ seed);
		uint32_t t;

		j = i + (uint32_t)((double)(h >> 11) / 9007199254740992.0 * (double)(n - i));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		pick[perm[i]] = true;
		got += size[mine ? mine[perm[i]] : perm[i]];
	}
	free(perm);
	return got < want ? -ERANGE : 0;
}

int bc_fileset_plan(const struct bc_fileset_spec *s, struct bc_fileset_plan *p)
{
	uint64_t nd, nf, at = 0, *size = NULL;
	uint32_t f, n = 0, *mine = NULL;
	bool *pick = NULL;
	int rc = -ENOMEM;

	memset(p, 0, sizeof(*p));
	if (!bc_fileset_count(s, &nd, &nf) || !nf)
		return -EINVAL;
	p->ndirs = (uint32_t)nd;
	p->ntree = (uint32_t)nf;
	/* each tree file's size, drawn whoever uses it (vdbench draws before it shares) */
	size = malloc(nf * sizeof(*size));
	mine = malloc(nf * sizeof(*mine));
	pick = calloc(nf, sizeof(*pick));
	if (!size || !mine || !pick)
		goto out;
	for (f = 0; f < p->ntree; f++) {
		size[f] = bc_fileset_file_size(s, f);
		if (bc_fileset_mine(s, f))
			mine[n++] = f;
	}
	if (s->totalsize &&
	    (rc = s_subset(s->totalsize, 0x746f74616c73697aull, mine, size, n, pick)))
		goto out;
	rc = -ENOMEM;
	p->size = malloc(n * sizeof(*p->size));
	p->vstart = malloc(n * sizeof(*p->vstart));
	p->tree = malloc(n * sizeof(*p->tree));
	if (!p->size || !p->vstart || !p->tree)
		goto out;
	for (f = 0; f < n; f++) {
		uint32_t i = p->nfiles;

		if (s->totalsize && !pick[f])
			continue;
		p->tree[i] = mine[f];
		p->size[i] = size[mine[f]];
		p->vstart[i] = at;
		p->bytes += p->size[i];
		at += (p->size[i] + BC_FILESET_ALIGN - 1) / BC_FILESET_ALIGN * BC_FILESET_ALIGN;
		p->nfiles++;
	}
	p->space = at;
	/* the working set: drawn from the files just listed, their indexes in order */
	if (s->workingset) {
		bool *w = calloc(p->nfiles, sizeof(*w));

		p->work = malloc(p->nfiles * sizeof(*p->work));
		rc = !w || !p->work ? -ENOMEM
				    : s_subset(s->workingset, 0x776f726b696e6773ull, NULL, p->size,
					       p->nfiles, w);
		for (f = 0; !rc && f < p->nfiles; f++)
			if (w[f])
				p->work[p->nwork++] = f;
		free(w);
		if (rc)
			goto out;
	}
	rc = 0;
out:
	free(size);
	free(mine);
	free(pick);
	if (rc)
		bc_fileset_plan_free(p);
	return rc;
}

void bc_fileset_plan_free(struct bc_fileset_plan *p)
{
	free(p->size);
	free(p->vstart);
	free(p->tree);
	free(p->work);
	memset(p, 0, sizeof(*p));
}

/*
 * Directory k of a level (1..depth), in vdbench's order: vdbench makes the
 * tree depth-first, then sorts its directories by level and, within one,
 * by each one's number among its siblings, keeping the depth-first order
 * of equals (a stable sort). So within a level the last name's number
 * counts first, then the names from the top down: with width 2,
 * vdb.1_1/vdb.2_1, vdb.1_2/vdb.2_1, vdb.1_1/vdb.2_2, vdb.1_2/vdb.2_2. Its
 * files are vdbench's file list in that order too (what fileselect walks
 * or draws from). k's base-width digits, most significant first, are the
 * last name's number, then the first's, the second's, ...
 */
static int s_dir(const struct bc_fileset_spec *s, uint32_t level, uint64_t k, char *out, size_t len)
{
	uint32_t digit[33], j;
	size_t n = 0;
	int w;

	for (j = level; j >= 1; j--) {
		digit[j] = (uint32_t)(k % s->width);
		k /= s->width;
	}
	out[0] = 0;
	for (j = 1; j <= level; j++) {
		w = snprintf(out + n, len - n, "%svdb.%u_%u.dir", j > 1 ? "/" : "", j,
			     (j == level ? digit[1] : digit[j + 1]) + 1);
		if (w < 0 || (size_t)w >= len - n)
			return -ENAMETOOLONG;
		n += (size_t)w;
	}
	return 0;
}

/* directory d's level and index within it */
static void s_dir_pos(const struct bc_fileset_spec *s, uint64_t d, uint32_t *level, uint64_t *k)
{
	uint64_t n = s->width;

	*level = 1;
	while (d >= n) {
		d -= n;
		n *= s->width;
		(*level)++;
	}
	*k = d;
}

int bc_fileset_dir_path(const struct bc_fileset_spec *s, uint32_t d, char *out, size_t len)
{
	uint32_t level;
	uint64_t k;

	s_dir_pos(s, d, &level, &k);
	return s_dir(s, level, k, out, len);
}

int bc_fileset_file_path(const struct bc_fileset_spec *s, uint32_t f, char *out, size_t len)
{
	uint64_t dir = f / s->files, k = dir;
	uint32_t level = s->depth;
	size_t used;
	int w, rc;

	if (s->depth == 0) {
		w = snprintf(out, len, "vdb_f%04u.file", f % s->files + 1);
		return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
	}
	/* bottom: the files of leaf k; all: of directory k in breadth-first order */
	if (s->all)
		s_dir_pos(s, dir, &level, &k);
	rc = s_dir(s, level, k, out, len);
	if (rc)
		return rc;
	used = strlen(out);
	w = snprintf(out + used, len - used, "/vdb_f%04u.file", f % s->files + 1);
	return w < 0 || (size_t)w >= len - used ? -ENAMETOOLONG : 0;
}
