/*
 * results/files/rundir.c - the run directory reports/<UTC timestamp>-<profile>/ and its
 * append-only events.jsonl. Every record is written and flushed as it
 * arrives, so whatever happens later the measurements are on disk: by a
 * writer thread, in the order the events were handed over, off the
 * coordinator's loop, flushing whenever it has caught up. By default each
 * STATS body goes into records.bin as received (compressed, reclog.c) with
 * a short line naming it here; --events-format json renders it as JSON
 * (at 1,000 agents that is 100 MB a second), compact in base64
 * (docs/protocol.md, docs/results.md).
 */
#include <errno.h>
#include <float.h>
#include <pthread.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "agg/agg.h"
#include "agg/secfile.h"
#include "fleet/fleet.h"
#include "results/files/outfail.h"
#include "results/files/reclog.h"
#include "results/files/rundir.h"
#include "util/base64.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/log.h"

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
static const char s_pairs[201] = "0001020304050607080910111213141516171819"
				 "2021222324252627282930313233343536373839"
				 "4041424344454647484950515253545556575859"
				 "6061626364656667686970717273747576777879"
				 "8081828384858687888990919293949596979899";

static char *s_u64(char *p, uint64_t v)
{
	char *q;
	int n = 1;
	uint64_t t;

	/* bucket indexes and counts: most numbers of the file are below 10,000 */
	if (v < 100) {
		if (v < 10) {
			*p = (char)('0' + v);
			return p + 1;
		}
		p[0] = s_pairs[2 * v];
		p[1] = s_pairs[2 * v + 1];
		return p + 2;
	}
	if (v < 10000) {
		if (v < 1000) {
			*p++ = (char)('0' + v / 100);
		} else {
			p[0] = s_pairs[2 * (v / 100)];
			p[1] = s_pairs[2 * (v / 100) + 1];
			p += 2;
		}
		p[0] = s_pairs[2 * (v % 100)];
		p[1] = s_pairs[2 * (v % 100) + 1];
		return p + 2;
	}
	if (v >= 1000000000000000ull)
		return s_num(p, (double)v);
	/* digits first, then two at a time from the end */
	for (t = v / 10000, n = 5; t >= 10; t /= 10)
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
			static const char esc[] = {
			    ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't'};

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

/* what s_render needs at most for a record of these volumes */
static size_t s_render_size(const char *name, int nvols, const struct bc_stats_touch *touch)
{
	size_t need = 256 + 6 * strlen(name);
	int i, o;

	for (i = 0; i < nvols; i++) {
		need += 32 + S_NUM_MAX;
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_stats_touch *t = &touch[i];

			/* an unsorted list falls back to a scan of every bucket */
			need += S_OP_MAX +
				(size_t)(s_sorted(t->idx[o], t->n[o]) ? t->n[o] : BC_HIST_BUCKETS) *
				    (2 * S_NUM_MAX + 4);
		}
	}
	return need;
}

/* a record's first fields, as both event forms begin: agent, second, drain, flags */
static char *s_head(char *p, const char *name, const struct bc_stats_hdr *h)
{
	p = s_lit(p, "{\"agent\":");
	p = s_str(p, name);
	p = s_lit(p, ",\"second\":");
	p = h->second == BC_STATS_DRAIN ? s_lit(p, "-1") : s_u64(p, h->second);
	if (h->second == BC_STATS_DRAIN)
		p = s_lit(p, ",\"drain\":true");
	p = s_lit(p, ",\"flags\":");
	p = s_u64(p, h->flags);
	return p;
}

/*
 * The "stats" event of a decoded record (volumes in the agent's order,
 * vols[i] their profile indexes) into p, which holds s_render_size bytes;
 * returns the end. Shape: bc_agg_record_json + "step", "event", "time_ns".
 */
static char *s_render(char *p, const char *name, const int *vols, int nvols,
		      const struct bc_volstat *scratch, const struct bc_stats_touch *touch,
		      const struct bc_stats_hdr *h, uint64_t time_ns)
{
	int i, o;

	p = s_head(p, name, h);
	p = s_lit(p, ",\"volumes\":[");
	for (i = 0; i < nvols; i++) {
		if (i)
			*p++ = ',';
		p = s_lit(p, "{\"volume\":");
		p = s_u64(p, (uint64_t)vols[i]);
		for (o = 0; o < BC_OP_NR; o++) {
			const struct bc_opstat *s = &scratch[i].op[o];

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
			p = s_hist(p, &s->hist, touch[i].idx[o], touch[i].n[o]);
			*p++ = '}';
		}
		*p++ = '}';
	}
	p = s_lit(p, "],\"step\":");
	p = s_u64(p, h->step);
	p = s_lit(p, ",\"event\":\"stats\",\"time_ns\":");
	p = s_u64(p, time_ns);
	return s_lit(p, "}\n");
}

static int s_line_room(char **line, size_t *cap, size_t need)
{
	if (need <= *cap)
		return 0;
	free(*line);
	*line = malloc(need);
	*cap = *line ? need : 0;
	return *line ? 0 : -ENOMEM;
}

/*
 * The writer thread: events.jsonl is written in the order events were
 * handed over, STATS records rendered here from their raw body (decoded
 * again into the writer's own scratch). It flushes whenever it has caught
 * up, so the file trails the coordinator by milliseconds.
 */
struct s_item {
	struct s_item *next;
	size_t len; /* of text, or of the STATS body */
	bool stats;
	uint8_t fmt;		 /* stats: enum bc_events_format, how it is written */
	struct bc_stats_hdr hdr; /* stats: the body's header */
	uint64_t time_ns;
	int nvols;
	int *vols; /* stats: profile indexes of the agent's volumes */
	char name[BC_NAME_MAX];
	char data[]; /* the line, or the body then vols */
};

/* queued bytes beyond which the coordinator waits for the writer */
#define S_QUEUE_MAX (256u << 20)

struct bc_rundir_writer {
	bool threaded; /* false: events are written by the caller (no thread) */
	pthread_t th;
	clockid_t cpu_clock;
	pthread_mutex_t mu;
	pthread_cond_t more, room;
	struct s_item *head, *tail;
	size_t bytes;
	bool stop;
	FILE *f;
	/*
	 * events.jsonl's end after its last complete write: a write that fails
	 * (disk full) is cut back to it, so the file stays whole lines, and
	 * nothing more is written (outfail.h)
	 */
	off_t good;
	bool failed;
	char path[BC_PATH_MAX + 16];
	struct bc_reclogw *rec; /* records.bin (BC_EVENTS_BINARY), the directory's */
	struct bc_volstat *scratch;
	struct bc_stats_touch *touch;
	int cap;
	char *line;
	size_t line_cap;
};

/* the "stats" event's fields before the record itself */
static char *s_stats_head(char *p, const struct s_item *it)
{
	const struct bc_stats_hdr *h = &it->hdr;

	p = s_head(p, it->name, h);
	p = s_lit(p, ",\"step\":");
	return s_u64(p, h->step);
}

/* the compact "stats" event: the header's fields and the body in base64; its length */
static long s_text_compact(struct bc_rundir_writer *w, const struct s_item *it)
{
	char *p;

	if (s_line_room(&w->line, &w->line_cap,
			256 + 6 * strlen(it->name) + BC_BASE64_LEN(it->len)))
		return -ENOMEM;
	p = s_stats_head(w->line, it);
	p = s_lit(p, ",\"body_b64\":\"");
	p = bc_base64_encode(p, (const uint8_t *)it->data, it->len);
	p = s_lit(p, "\",\"event\":\"stats\",\"time_ns\":");
	p = s_u64(p, it->time_ns);
	p = s_lit(p, "}\n");
	return (long)(p - w->line);
}

/* the binary form's "stats" event: the header's fields and where records.bin has the body */
static long s_text_index(struct bc_rundir_writer *w, const struct s_item *it, uint64_t off)
{
	char *p;

	if (s_line_room(&w->line, &w->line_cap, 256 + 6 * strlen(it->name)))
		return -ENOMEM;
	p = s_stats_head(w->line, it);
	p = s_lit(p, ",\"rec\":");
	p = s_u64(p, off);
	p = s_lit(p, ",\"event\":\"stats\",\"time_ns\":");
	p = s_u64(p, it->time_ns);
	p = s_lit(p, "}\n");
	return (long)(p - w->line);
}

/* the "stats" event of it as --events-format json or compact writes it, in w->line; its length */
static long s_stats_text(struct bc_rundir_writer *w, struct s_item *it)
{
	struct bc_stats_hdr h;
	char *end = NULL;
	int i, o;

	if (it->fmt == BC_EVENTS_COMPACT)
		return s_text_compact(w, it);
	if (it->nvols > w->cap) {
		free(w->scratch);
		free(w->touch);
		w->scratch = calloc((size_t)it->nvols, sizeof(*w->scratch));
		w->touch = calloc((size_t)it->nvols, sizeof(*w->touch));
		w->cap = w->scratch && w->touch ? it->nvols : 0;
		for (i = 0; i < w->cap; i++)
			bc_volstat_reset(&w->scratch[i]);
		if (!w->cap)
			return -ENOMEM;
	}
	/* the coordinator decoded it already: this cannot fail differently */
	if (bc_stats_decode_touch((const uint8_t *)it->data, it->len, &h, w->scratch, w->touch,
				  (uint32_t)it->nvols) ||
	    s_line_room(&w->line, &w->line_cap, s_render_size(it->name, it->nvols, w->touch)))
		goto out;
	end =
	    s_render(w->line, it->name, it->vols, it->nvols, w->scratch, w->touch, &h, it->time_ns);
out:
	for (i = 0; i < it->nvols && i < w->cap; i++) {
		for (o = 0; o < BC_OP_NR; o++) {
			uint32_t j;

			for (j = 0; j < w->touch[i].n[o]; j++)
				w->scratch[i].op[o].hist.buckets[w->touch[i].idx[o][j]] = 0;
			w->touch[i].n[o] = 0;
			w->scratch[i].op[o].hist.count = 0;
			bc_opstat_reset(&w->scratch[i].op[o]);
		}
		w->scratch[i].verify_errors = 0;
	}
	return end ? (long)(end - w->line) : -EBADMSG;
}

/* a write of events.jsonl failed with rc: named (once), the file cut back to whole lines */
static void s_fail(struct bc_rundir_writer *w, int rc)
{
	if (w->failed)
		return;
	w->failed = true;
	bc_outfail_note(w->path, rc ? rc : -EIO);
	/* what stdio still holds goes nowhere; the file ends with the last whole write */
	__fpurge(w->f);
	clearerr(w->f);
	if (ftruncate(fileno(w->f), w->good) == 0)
		fseeko(w->f, w->good, SEEK_SET);
}

static void s_put(struct bc_rundir_writer *w, const char *p, size_t n)
{
	if (w->failed || !n)
		return;
	errno = 0;
	if (fwrite(p, 1, n, w->f) != n)
		s_fail(w, -errno);
}

/* caught up: on disk (page cache) now, records.bin first; the new whole end */
static void s_catch_up(struct bc_rundir_writer *w)
{
	int rc;

	if (w->failed)
		return;
	rc = bc_reclogw_flush(w->rec);
	if (rc) {
		s_fail(w, rc);
		return;
	}
	errno = 0;
	if (fflush(w->f)) {
		s_fail(w, -errno);
		return;
	}
	w->good = ftello(w->f);
}

static void s_write_stats(struct bc_rundir_writer *w, struct s_item *it)
{
	long n;

	if (w->failed)
		return;
	if (it->fmt == BC_EVENTS_BINARY) {
		uint64_t off;
		int rc = w->rec ? bc_reclogw_put(w->rec, it->name, it->time_ns,
						 (const uint8_t *)it->data, it->len, &off)
				: -EBADF;

		/* the body, then the line naming it: no line names a frame not written */
		if (!rc) {
			n = s_text_index(w, it, off);
			if (n > 0)
				s_put(w, w->line, (size_t)n);
			return;
		}
		if (rc != -ENOMEM && rc != -EBADF) {
			/* records.bin cannot be written (disk full, I/O error): the run stops */
			s_fail(w, rc);
			return;
		}
		/* no memory to compress, or no records.bin: the record goes into events.jsonl */
		it->fmt = BC_EVENTS_COMPACT;
	}
	n = s_stats_text(w, it);
	if (n > 0)
		s_put(w, w->line, (size_t)n);
}

long bc_rundir_stats_text(enum bc_events_format fmt, const char *agent, const int *vols, int nvols,
			  const uint8_t *body, size_t len, uint64_t time_ns, char **line,
			  size_t *cap)
{
	struct bc_rundir_writer w = {0};
	struct s_item *it = malloc(sizeof(*it) + len);
	long n = -ENOMEM;

	if (!it)
		return -ENOMEM;
	memset(it, 0, sizeof(*it));
	it->stats = true;
	it->fmt = (uint8_t)(fmt == BC_EVENTS_COMPACT ? BC_EVENTS_COMPACT : BC_EVENTS_JSON);
	it->len = len;
	it->time_ns = time_ns;
	it->nvols = nvols;
	it->vols = (int *)(uintptr_t)vols;
	snprintf(it->name, sizeof(it->name), "%s", agent);
	memcpy(it->data, body, len);
	/* the header first: the compact form prints its fields without decoding the rest */
	if (bc_stats_decode_hdr(body, len, &it->hdr)) {
		n = -EBADMSG;
		goto out;
	}
	n = s_stats_text(&w, it);
	if (n > 0 && s_line_room(line, cap, (size_t)n + 1))
		n = -ENOMEM;
	if (n > 0) {
		memcpy(*line, w.line, (size_t)n);
		(*line)[n] = 0;
	}
out:
	free(w.scratch);
	free(w.touch);
	free(w.line);
	free(it);
	return n;
}

static void *s_writer(void *arg)
{
	struct bc_rundir_writer *w = arg;

	/*
	 * Behind the coordinator's loop for the CPU: a second's records come in
	 * a burst, and the loop must aggregate them first (the lag); the file
	 * catches up in the gaps. Linux applies a TID's nice value to that thread.
	 */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);

	pthread_mutex_lock(&w->mu);
	for (;;) {
		struct s_item *it = w->head;

		if (!it) {
			if (w->stop)
				break;
			pthread_mutex_unlock(&w->mu);
			s_catch_up(w);
			pthread_mutex_lock(&w->mu);
			if (!w->head && !w->stop)
				pthread_cond_wait(&w->more, &w->mu);
			continue;
		}
		w->head = it->next;
		if (!w->head)
			w->tail = NULL;
		pthread_mutex_unlock(&w->mu);
		if (it->stats)
			s_write_stats(w, it);
		else
			s_put(w, it->data, it->len);
		pthread_mutex_lock(&w->mu);
		w->bytes -= it->len;
		pthread_cond_signal(&w->room);
		free(it);
	}
	pthread_mutex_unlock(&w->mu);
	s_catch_up(w);
	return NULL;
}

static void s_enqueue(struct bc_rundir_writer *w, struct s_item *it)
{
	pthread_mutex_lock(&w->mu);
	while (w->bytes > S_QUEUE_MAX)
		pthread_cond_wait(&w->room, &w->mu);
	it->next = NULL;
	if (w->tail)
		w->tail->next = it;
	else
		w->head = it;
	w->tail = it;
	w->bytes += it->len;
	pthread_cond_signal(&w->more);
	pthread_mutex_unlock(&w->mu);
}

static void s_writer_stop(struct bc_rundir *r)
{
	struct bc_rundir_writer *w = r->writer;

	if (!w)
		return;
	if (w->threaded) {
		pthread_mutex_lock(&w->mu);
		w->stop = true;
		pthread_cond_signal(&w->more);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->th, NULL);
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->more);
		pthread_cond_destroy(&w->room);
	}
	free(w->scratch);
	free(w->touch);
	free(w->line);
	free(w);
	r->writer = NULL;
}

static void s_writer_start(struct bc_rundir *r)
{
	struct bc_rundir_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return;
	w->f = r->events;
	snprintf(w->path, sizeof(w->path), "%s/events.jsonl", r->path);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->more, NULL);
	pthread_cond_init(&w->room, NULL);
	if (pthread_create(&w->th, NULL, s_writer, w)) {
		/* without a thread every event is written where it happens */
		pthread_mutex_destroy(&w->mu);
		pthread_cond_destroy(&w->more);
		pthread_cond_destroy(&w->room);
		free(w);
		return;
	}
	w->threaded = true;
	if (pthread_getcpuclockid(w->th, &w->cpu_clock))
		w->cpu_clock = (clockid_t)-1;
	r->writer = w;
}

uint64_t bc_rundir_writer_cpu_ns(const struct bc_rundir *r)
{
	struct timespec ts;

	if (!r->writer || !r->writer->threaded || clock_gettime(r->writer->cpu_clock, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void bc_rundir_stats(struct bc_rundir *r, const struct bc_agg *g, const struct bc_conn *c,
		     const struct bc_stats_hdr *h, const uint8_t *body, size_t len)
{
	struct s_item *it;

	if (!r->events)
		return;
	if (!r->writer) {
		/* no thread (events opened by the caller, or pthread_create failed) */
		r->writer = calloc(1, sizeof(*r->writer));
		if (!r->writer)
			return;
		r->writer->f = r->events;
		snprintf(r->writer->path, sizeof(r->writer->path), "%s/events.jsonl", r->path);
	}
	if (r->binary && !r->reclog) {
		char path[BC_PATH_MAX + 32], err[BC_PATH_MAX + 128];

		snprintf(path, sizeof(path), "%s/%s", r->path, BC_RECLOG_NAME);
		int rc = bc_reclogw_open_at(&r->reclog, path, BC_RECLOG_LEVEL, r->records_end, err,
					    sizeof(err));

		if (rc && rc != -ENOMEM) {
			bc_outfail_note(path, rc); /* disk full, read-only, ...: the run stops */
		} else if (rc) {
			bc_warn("%s: the records go into events.jsonl whole (compact)", err);
			r->binary = false;
			r->compact = true;
		}
		/* before the first item that needs it is queued: the queue's lock orders the two */
		r->writer->rec = r->reclog;
	}
	it = malloc(sizeof(*it) + len + (size_t)c->nvols * sizeof(int) + sizeof(int));
	if (!it)
		return;
	it->stats = true;
	it->fmt = (uint8_t)(r->binary	 ? BC_EVENTS_BINARY
			    : r->compact ? BC_EVENTS_COMPACT
					 : BC_EVENTS_JSON);
	it->hdr = *h;
	it->len = len;
	it->time_ns = bc_real_ns();
	it->nvols = c->nvols;
	snprintf(it->name, sizeof(it->name), "%s", c->spec->name);
	memcpy(it->data, body, len);
	/* ints after the body, aligned */
	it->vols =
	    (int *)(void *)(it->data + ((len + sizeof(int) - 1) / sizeof(int)) * sizeof(int));
	memcpy(it->vols, c->vols, (size_t)c->nvols * sizeof(int));
	if (r->writer->threaded) {
		s_enqueue(r->writer, it);
		return;
	}
	s_write_stats(r->writer, it);
	s_catch_up(r->writer);
	free(it);
}

/*
 * events.jsonl opened to append (end >= 0: cut there first, a resumed run
 * drops the line the kill cut short, so the log stays whole lines); 0, or
 * -1 with errno and a message
 */
static int s_events_open(struct bc_rundir *r, int64_t end, char *err, size_t errlen)
{
	char ev[BC_PATH_MAX + 16];

	bc_outfail_dir(r->path);
	snprintf(ev, sizeof(ev), "%s/events.jsonl", r->path);
	if (end >= 0 && truncate(ev, (off_t)end)) {
		snprintf(err, errlen, "cannot cut '%s' to its last whole line: %s", ev,
			 strerror(errno));
		return -1;
	}
	r->events = fopen(ev, "a");
	if (!r->events) {
		snprintf(err, errlen, "cannot %s '%s': %s (%s)", end >= 0 ? "open" : "create", ev,
			 strerror(errno), bc_errno_name(errno));
		return -1;
	}
	/* records are 10-100 KB at scale: fewer, larger writes */
	setvbuf(r->events, NULL, _IOFBF, 1 << 20);
	return 0;
}

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
	if (s_events_open(r, -1, err, errlen))
		return -errno;
	snprintf(ev, sizeof(ev), "%s/%s", r->path, BC_SECF_NAME);
	if (bc_secw_open(&r->secw, ev, err, errlen))
		return -EIO;
	s_writer_start(r);
	return 0;
}

int bc_rundir_reopen(struct bc_rundir *r, const char *dir, struct bc_secw *secw,
		     uint32_t secw_steps, uint64_t events_end, uint64_t records_end, char *err,
		     size_t errlen)
{
	int n;

	memset(r, 0, sizeof(*r));
	n = snprintf(r->path, sizeof(r->path), "%s", dir);
	if (n < 0 || (size_t)n >= sizeof(r->path))
		return -ENAMETOOLONG;
	if (s_events_open(r, (int64_t)events_end, err, errlen))
		return -errno;
	r->secw = secw;
	r->secw_steps = secw_steps;
	r->records_end = records_end;
	s_writer_start(r);
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
	bc_json_add_u64(o, "time_ns", bc_real_ns());
	text = bc_json_print(o, false);
	if (text && r->writer && !r->writer->threaded) {
		s_put(r->writer, text, strlen(text));
		s_put(r->writer, "\n", 1);
		s_catch_up(r->writer);
	} else if (text && r->writer) {
		size_t n = strlen(text);
		struct s_item *it = malloc(sizeof(*it) + n + 1);

		if (it) {
			it->stats = false;
			it->len = n + 1;
			memcpy(it->data, text, n);
			it->data[n] = '\n';
			s_enqueue(r->writer, it);
		}
	} else if (text) {
		errno = 0;
		if (fputs(text, r->events) < 0 || fputc('\n', r->events) < 0 || fflush(r->events)) {
			char path[BC_PATH_MAX + 16];

			snprintf(path, sizeof(path), "%s/events.jsonl", r->path);
			bc_outfail_note(path, errno ? -errno : -EIO);
		}
	}
	cJSON_free(text);
	cJSON_Delete(o);
}

int bc_rundir_write_json(struct bc_rundir *r, const char *file, const cJSON *j)
{
	char path[BC_PATH_MAX + 64], tmp[BC_PATH_MAX + 80];
	char *text = bc_json_print(j, true);
	FILE *f = NULL;
	int rc = 0;

	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", r->path, file);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* write then rename: a reader never sees half a file */
	errno = 0;
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fputc('\n', f) < 0 || fflush(f)) {
		rc = errno ? -errno : -EIO;
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
	if (rc) {
		unlink(tmp); /* no half file left behind */
		bc_outfail_note(path, rc);
	}
	cJSON_free(text);
	return rc;
}

void bc_rundir_close(struct bc_rundir *r)
{
	char path[BC_PATH_MAX + 32];
	int rc = bc_secw_close(r->secw);

	snprintf(path, sizeof(path), "%s/%s", r->path, BC_SECF_NAME);
	if (r->secw)
		bc_outfail_note(path, rc);
	r->secw = NULL;
	s_writer_stop(r);
	rc = bc_reclogw_close(r->reclog);
	snprintf(path, sizeof(path), "%s/%s", r->path, BC_RECLOG_NAME);
	bc_outfail_note(path, rc);
	r->reclog = NULL;
	errno = 0;
	if (r->events && fclose(r->events)) {
		snprintf(path, sizeof(path), "%s/events.jsonl", r->path);
		bc_outfail_note(path, errno ? -errno : -EIO);
	}
	r->events = NULL;
	free(r->line);
	r->line = NULL;
	r->line_cap = 0;
}
