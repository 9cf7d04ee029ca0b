/*
 * rundir.c - the run directory reports/<UTC timestamp>-<profile>/ and its
 * append-only events.jsonl. Every record is written and flushed as it
 * arrives, so whatever happens later the measurements are on disk.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bc_clock.h"
#include "bc_coord.h"

int bc_rundir_create(struct bc_rundir *r, const char *parent, const char *name, char *err,
		     size_t errlen)
{
	char stamp[32], ev[BC_PATH_MAX + 16];
	time_t now = time(NULL);
	struct tm tm;
	int n, i;

	memset(r, 0, sizeof(*r));
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (mkdir(parent, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create '%s': %s", parent, strerror(errno));
		return -errno;
	}
	/* two runs in the same second get -2, -3 ... rather than sharing a directory */
	for (i = 1; i < 100; i++) {
		if (i == 1)
			n = snprintf(r->path, sizeof(r->path), "%s/%s-%s", parent, stamp, name);
		else
			n = snprintf(r->path, sizeof(r->path), "%s/%s-%s-%d", parent, stamp, name,
				     i);
		if (n < 0 || (size_t)n >= sizeof(r->path))
			return -ENAMETOOLONG;
		if (!mkdir(r->path, 0755))
			break;
		if (errno != EEXIST) {
			snprintf(err, errlen, "cannot create '%s': %s", r->path, strerror(errno));
			return -errno;
		}
	}
	snprintf(ev, sizeof(ev), "%s/events.jsonl", r->path);
	r->events = fopen(ev, "a");
	if (!r->events) {
		snprintf(err, errlen, "cannot create '%s': %s", ev, strerror(errno));
		return -errno;
	}
	return 0;
}

void bc_rundir_event(struct bc_rundir *r, const char *event, cJSON *body)
{
	cJSON *o = body ? body : cJSON_CreateObject();
	char *text;

	if (!r->events || !o) {
		cJSON_Delete(o);
		return;
	}
	/* "event" and "time_ns" go first so the log reads well with grep/jq */
	cJSON_AddItemToObject(o, "event", cJSON_CreateString(event));
	cJSON_AddItemToObject(o, "time_ns", cJSON_CreateNumber((double)bc_real_ns()));
	text = cJSON_PrintUnformatted(o);
	if (text) {
		fputs(text, r->events);
		fputc('\n', r->events);
		fflush(r->events);
	}
	cJSON_free(text);
	cJSON_Delete(o);
}

/* a number as cJSON 1.7 prints it (print_number), so both writers agree byte for byte */
static char *s_num(char *p, double d)
{
	char b[32];
	double test = 0;
	int n, vi = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;

	if (isnan(d) || isinf(d)) {
		n = snprintf(b, sizeof(b), "null");
	} else if (d == (double)vi) {
		n = snprintf(b, sizeof(b), "%d", vi);
	} else {
		n = snprintf(b, sizeof(b), "%1.15g", d);
		if (sscanf(b, "%lg", &test) != 1 ||
		    fabs(test - d) > fmax(fabs(test), fabs(d)) * DBL_EPSILON)
			n = snprintf(b, sizeof(b), "%1.17g", d);
	}
	memcpy(p, b, (size_t)n);
	return p + n;
}

/*
 * An unsigned counter: below 1e15 cJSON prints the exact integer ("%d" or
 * "%1.15g" without exponent), which is all a record holds in practice.
 */
static const char s_pairs[201] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static char *s_u64(char *p, uint64_t v)
{
	char *q;
	int n = 1;
	uint64_t t;

	if (v >= 1000000000000000ull)
		return s_num(p, (double)v);
	/* digits first, then two at a time from the end: the histograms are most of the file */
	for (t = v; t >= 10; t /= 10)
		n++;
	q = p + n;
	while (v >= 100) {
		const char *d = s_pairs + 2 * (v % 100);

		q -= 2;
		q[0] = d[0];
		q[1] = d[1];
		v /= 100;
	}
	if (v >= 10) {
		q[-2] = s_pairs[2 * v];
		q[-1] = s_pairs[2 * v + 1];
	} else {
		q[-1] = (char)('0' + v);
	}
	return p + n;
}

static char *s_lit(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* a JSON string as cJSON escapes it; at most 6 bytes per input byte */
static char *s_str(char *p, const char *s)
{
	*p++ = '"';
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\') {
			*p++ = '\\';
			*p++ = (char)ch;
		} else if (ch < 32) {
			static const char esc[] = {['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n',
						   ['\r'] = 'r', ['\t'] = 't'};

			*p++ = '\\';
			if (ch < sizeof(esc) && esc[ch]) {
				*p++ = esc[ch];
			} else {
				sprintf(p, "u%04x", ch);
				p += 5;
			}
		} else {
			*p++ = (char)ch;
		}
	}
	*p++ = '"';
	return p;
}

static bool s_sorted(const uint16_t *idx, uint32_t n)
{
	uint32_t i;

	for (i = 1; i < n; i++)
		if (idx[i - 1] >= idx[i])
			return false;
	return true;
}

/* one op's histogram as [[index, count], ...] in index order */
static char *s_hist(char *p, const struct bc_hist *h, const uint16_t *idx, uint32_t n)
{
	bool sorted = s_sorted(idx, n), first = true;
	uint32_t i;
	unsigned b;

	*p++ = '[';
	for (i = 0; sorted && i < n; i++) {
		if (!first)
			*p++ = ',';
		first = false;
		*p++ = '[';
		p = s_u64(p, idx[i]);
		*p++ = ',';
		p = s_u64(p, h->buckets[idx[i]]);
		*p++ = ']';
	}
	/* a volume listed twice in one record: its touch list is not in order */
	for (b = 0; !sorted && h->count && b < BC_HIST_BUCKETS; b++) {
		if (!h->buckets[b])
			continue;
		if (!first)
			*p++ = ',';
		first = false;
		*p++ = '[';
		p = s_u64(p, b);
		*p++ = ',';
		p = s_u64(p, h->buckets[b]);
		*p++ = ']';
	}
	*p++ = ']';
	return p;
}

/* worst case of a number, a name, fixed keys: bounds for the line buffer */
#define S_NUM_MAX 32
#define S_OP_MAX  (160 + 8 * S_NUM_MAX)

void bc_rundir_stats(struct bc_rundir *r, const struct bc_agg *g, const struct bc_conn *c,
		     const struct bc_stats_hdr *h)
{
	size_t need = 256 + 6 * strlen(c->spec->name);
	char *p;
	int i, o;

	if (!r->events)
		return;
	for (i = 0; i < c->nvols; i++) {
		need += 32 + S_NUM_MAX;
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_stats_touch *t = &g->touch[i];

			/* an unsorted list falls back to a scan of every bucket */
			need += S_OP_MAX + (size_t)(s_sorted(t->idx[o], t->n[o]) ? t->n[o]
										 : BC_HIST_BUCKETS) *
						   (2 * S_NUM_MAX + 4);
		}
	}
	if (need > r->line_cap) {
		free(r->line);
		r->line = malloc(need);
		r->line_cap = r->line ? need : 0;
		if (!r->line)
			return;
	}
	p = r->line;
	p = s_lit(p, "{\"agent\":");
	p = s_str(p, c->spec->name);
	p = s_lit(p, ",\"second\":");
	p = h->second == BC_STATS_DRAIN ? s_lit(p, "-1") : s_u64(p, h->second);
	if (h->second == BC_STATS_DRAIN)
		p = s_lit(p, ",\"drain\":true");
	p = s_lit(p, ",\"flags\":");
	p = s_u64(p, h->flags);
	p = s_lit(p, ",\"volumes\":[");
	for (i = 0; i < c->nvols; i++) {
		if (i)
			*p++ = ',';
		p = s_lit(p, "{\"volume\":");
		p = s_u64(p, (uint64_t)c->vols[i]);
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *s = &g->scratch[i].op[o];

			if (!s->ios && !s->errors && !s->short_ios)
				continue;
			*p++ = ',';
			p = s_str(p, bc_op_names[o]);
			p = s_lit(p, ":{\"ios\":");
			p = s_u64(p, s->ios);
			p = s_lit(p, ",\"bytes\":");
			p = s_u64(p, s->bytes);
			p = s_lit(p, ",\"errors\":");
			p = s_u64(p, s->errors);
			p = s_lit(p, ",\"short\":");
			p = s_u64(p, s->short_ios);
			p = s_lit(p, ",\"lat_sum_ns\":");
			p = s_u64(p, s->lat_sum_ns);
			p = s_lit(p, ",\"lat_min_ns\":");
			p = s_u64(p, s->ios ? s->lat_min_ns : 0);
			p = s_lit(p, ",\"lat_max_ns\":");
			p = s_u64(p, s->lat_max_ns);
			if (s->first_errno) {
				p = s_lit(p, ",\"first_errno\":");
				p = s_num(p, s->first_errno);
			}
			p = s_lit(p, ",\"hist\":");
			p = s_hist(p, &s->hist, g->touch[i].idx[o], g->touch[i].n[o]);
			*p++ = '}';
		}
		*p++ = '}';
	}
	p = s_lit(p, "],\"step\":");
	p = s_u64(p, h->step);
	p = s_lit(p, ",\"event\":\"stats\",\"time_ns\":");
	p = s_num(p, (double)bc_real_ns());
	p = s_lit(p, "}\n");
	fwrite(r->line, 1, (size_t)(p - r->line), r->events);
	fflush(r->events);
}

int bc_rundir_write_json(struct bc_rundir *r, const char *file, const cJSON *j)
{
	char path[BC_PATH_MAX + 64], tmp[BC_PATH_MAX + 80];
	char *text = cJSON_Print(j);
	FILE *f = NULL;
	int rc = 0;

	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", r->path, file);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* write then rename: a reader never sees half a file */
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0) {
		rc = -errno;
		goto out;
	}
	if (fclose(f)) {
		f = NULL;
		rc = -errno;
		goto out;
	}
	f = NULL;
	if (rename(tmp, path))
		rc = -errno;
out:
	if (f)
		fclose(f);
	cJSON_free(text);
	return rc;
}

void bc_rundir_close(struct bc_rundir *r)
{
	if (r->events)
		fclose(r->events);
	r->events = NULL;
	free(r->line);
	r->line = NULL;
	r->line_cap = 0;
}
