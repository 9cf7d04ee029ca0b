/*
 * run/metrics.c - `--metrics-listen ADDR`: the coordinator's live aggregates in
 * the Prometheus text exposition format (version 0.0.4), so a Grafana
 * dashboard shows the benchmark beside the storage nodes' own metrics.
 *
 * A small HTTP/1.1 server on a ZeroMQ STREAM socket runs in its own thread;
 * the run loop hands it a finished text snapshot after every closed second
 * (bc_metrics_update), under a mutex - the coordinator's loop, never an I/O
 * path. Each scrape gets the last snapshot and the connection is closed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <czmq.h>

#include "agg/agg.h"
#include "results/results.h"
#include "run/metrics.h"

struct bc_metrics {
	zsock_t *sock; /* ZMQ_STREAM: raw TCP, one routing id per connection */
	pthread_t thread;
	pthread_mutex_t lock;
	char *text; /* the current exposition, owned; under lock */
	volatile int stop;
	char profile[BC_NAME_MAX];
};

/* a growing text buffer; an allocation failure just truncates the snapshot */
struct s_buf {
	char *p;
	size_t len, cap;
};

static void s_put(struct s_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void s_put(struct s_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t cap;
	char *q;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	if (n < 0 || (b->p && b->len + (size_t)n < b->cap)) {
		b->len += n > 0 ? (size_t)n : 0;
		return;
	}
	cap = (b->cap ? b->cap * 2 : 8192) + (size_t)n;
	q = realloc(b->p, cap);
	if (!q)
		return;
	b->p = q;
	b->cap = cap;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* label values: backslash, double quote and newline escaped (exposition format) */
static const char *s_esc(const char *in, char *out, size_t len)
{
	size_t o = 0;

	for (; *in && o + 3 < len; in++) {
		if (*in == '\\' || *in == '"' || *in == '\n')
			out[o++] = '\\';
		out[o++] = *in == '\n' ? 'n' : *in;
	}
	out[o] = 0;
	return out;
}

/* [id][bytes] sends on the connection, [id][] closes it (zmq_socket(3), ZMQ_STREAM) */
static void s_send(zsock_t *s, zframe_t *id, const void *data, size_t len)
{
	zmsg_t *msg = zmsg_new();

	zmsg_addmem(msg, zframe_data(id), zframe_size(id));
	zmsg_addmem(msg, data, len);
	zmsg_send(&msg, s);
	zmsg_destroy(&msg);
}

static void s_answer(struct bc_metrics *m, zframe_t *id, const char *req, size_t len)
{
	bool ok =
	    len >= 13 && !memcmp(req, "GET /metrics", 12) && (req[12] == ' ' || req[12] == '?');
	struct s_buf b = {0};

	pthread_mutex_lock(&m->lock);
	s_put(&b,
	      "HTTP/1.1 %s\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
	      "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
	      ok ? "200 OK" : "404 Not Found",
	      ok ? (m->text ? strlen(m->text) : 0) : strlen("try /metrics\n"),
	      ok ? (m->text ? m->text : "") : "try /metrics\n");
	pthread_mutex_unlock(&m->lock);
	if (b.p)
		s_send(m->sock, id, b.p, b.len);
	s_send(m->sock, id, "", 0);
	free(b.p);
}

static void *s_serve(void *arg)
{
	struct bc_metrics *m = arg;
	zpoller_t *p = zpoller_new(m->sock, NULL);

	while (p && !m->stop) {
		zframe_t *id, *data;

		if (zpoller_wait(p, 200) != m->sock)
			continue;
		id = zframe_recv(m->sock);
		data = id ? zframe_recv(m->sock) : NULL;
		/* an empty frame is a connect or disconnect notice, not a request */
		if (data && zframe_size(data) >= 4 && !memcmp(zframe_data(data), "GET ", 4))
			s_answer(m, id, (const char *)zframe_data(data), zframe_size(data));
		zframe_destroy(&id);
		zframe_destroy(&data);
	}
	zpoller_destroy(&p);
	return NULL;
}

struct bc_metrics *bc_metrics_start(const char *addr, const char *profile, char *err, size_t errlen)
{
	struct bc_metrics *m = calloc(1, sizeof(*m));

	if (!m) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&m->lock, NULL);
	snprintf(m->profile, sizeof(m->profile), "%s", profile);
	m->sock = zsock_new(ZMQ_STREAM);
	if (!m->sock || zsock_bind(m->sock, "tcp://%s", addr) < 0) {
		snprintf(err, errlen, "--metrics-listen: cannot listen on '%s': %s", addr,
			 zmq_strerror(zmq_errno()));
		goto fail;
	}
	if (pthread_create(&m->thread, NULL, s_serve, m)) {
		snprintf(err, errlen, "--metrics-listen: cannot start its thread");
		goto fail;
	}
	return m;
fail:
	zsock_destroy(&m->sock);
	pthread_mutex_destroy(&m->lock);
	free(m);
	return NULL;
}

void bc_metrics_stop(struct bc_metrics **mp)
{
	struct bc_metrics *m = *mp;

	if (!m)
		return;
	m->stop = 1;
	pthread_join(m->thread, NULL);
	zsock_destroy(&m->sock);
	pthread_mutex_destroy(&m->lock);
	free(m->text);
	free(m);
	*mp = NULL;
}

static void s_entity(struct s_buf *b, const char *metric, const char *lvl, const char *name,
		     const char *op, double v)
{
	char e[2 * (BC_NAME_MAX + BC_PATH_MAX)];

	s_put(b, "%s{level=\"%s\",name=\"%s\"%s%s%s} %.6g\n", metric, lvl,
	      s_esc(name, e, sizeof(e)), op ? ",op=\"" : "", op ? op : "", op ? "\"" : "", v);
}

void bc_metrics_update(struct bc_metrics *m, const struct bc_step_result *res, uint32_t k)
{
	static const char *const lvl[BC_LVL_NR] = {"volume", "agent", "node", "total"};
	const struct bc_agg *g = &res->agg;
	struct s_buf b = {0};
	char e1[BC_NAME_MAX * 2], e2[BC_NAME_MAX * 2];
	int l, i, op;

	if (!m)
		return;
	s_put(&b,
	      "# HELP bench_coord_info The profile and step being measured.\n"
	      "# TYPE bench_coord_info gauge\nbench_coord_info{profile=\"%s\",step=\"%s\"} 1\n",
	      s_esc(m->profile, e1, sizeof(e1)), s_esc(res->step->name, e2, sizeof(e2)));
	s_put(&b,
	      "# HELP bench_coord_second Last closed second of the step (ramp included).\n"
	      "# TYPE bench_coord_second gauge\nbench_coord_second %u\n",
	      k);
	s_put(&b,
	      "# HELP bench_coord_ramp Whether that second is in the ramp (1) or measured.\n"
	      "# TYPE bench_coord_ramp gauge\nbench_coord_ramp %d\n",
	      k < g->ramp_s);
	s_put(&b,
	      "# HELP bench_coord_agents_reporting Agents whose record for that second "
	      "arrived.\n# TYPE bench_coord_agents_reporting gauge\n"
	      "bench_coord_agents_reporting %u\n",
	      g->agents_reported[k]);
	s_put(&b, "# HELP bench_coord_iops I/Os completed in the last closed second.\n"
		  "# TYPE bench_coord_iops gauge\n");
	for (l = BC_LVL_NR - 1; l >= 0; l--)
		for (i = 0; i < g->nent[l]; i++)
			for (op = 0; op < BC_OP_NR; op++)
				s_entity(&b, "bench_coord_iops", lvl[l], g->ent[l][i].name,
					 bc_op_names[op],
					 (double)bc_entity_row(&g->ent[l][i], k)->ios[op]);
	s_put(&b, "# HELP bench_coord_bytes_per_second Bytes transferred in the last closed "
		  "second.\n# TYPE bench_coord_bytes_per_second gauge\n");
	for (l = BC_LVL_NR - 1; l >= 0; l--)
		for (i = 0; i < g->nent[l]; i++)
			for (op = 0; op < BC_OP_NR; op++)
				s_entity(&b, "bench_coord_bytes_per_second", lvl[l],
					 g->ent[l][i].name, bc_op_names[op],
					 (double)bc_entity_row(&g->ent[l][i], k)->bytes[op]);
	s_put(&b, "# HELP bench_coord_latency_p99_seconds 99th percentile latency of the last "
		  "closed second, from merged histograms.\n"
		  "# TYPE bench_coord_latency_p99_seconds gauge\n");
	for (l = BC_LVL_NR - 1; l >= 0; l--)
		for (i = 0; i < g->nent[l]; i++)
			s_entity(&b, "bench_coord_latency_p99_seconds", lvl[l], g->ent[l][i].name,
				 NULL, (double)bc_entity_row(&g->ent[l][i], k)->p99_ns / 1e9);
	s_put(&b, "# HELP bench_coord_latency_p50_seconds Median latency of the last closed "
		  "second.\n# TYPE bench_coord_latency_p50_seconds gauge\n");
	for (l = BC_LVL_NR - 1; l >= 0; l--)
		for (i = 0; i < g->nent[l]; i++)
			s_entity(&b, "bench_coord_latency_p50_seconds", lvl[l], g->ent[l][i].name,
				 NULL, (double)bc_entity_row(&g->ent[l][i], k)->p50_ns / 1e9);
	s_put(&b, "# HELP bench_coord_errors I/O errors and short transfers in the last closed "
		  "second.\n# TYPE bench_coord_errors gauge\n");
	for (l = BC_LVL_NR - 1; l >= 0; l--)
		for (i = 0; i < g->nent[l]; i++)
			s_entity(&b, "bench_coord_errors", lvl[l], g->ent[l][i].name, NULL,
				 (double)(bc_entity_row(&g->ent[l][i], k)->errors +
					  bc_entity_row(&g->ent[l][i], k)->short_ios));
	if (!b.p)
		return;
	pthread_mutex_lock(&m->lock);
	free(m->text);
	m->text = b.p;
	pthread_mutex_unlock(&m->lock);
}
