/*
 * counters/promql.c - the "promql" counter source: a Prometheus server
 * (nodes[].prometheus) asked once per step, shortly after its end, for the
 * step's window at 1 s resolution with /api/v1/query_range
 * (prometheus.io/docs/prometheus/latest/querying/api). The built-in figures
 * use expressions in the style of node_exporter's node-mixin recording rules
 * on the node's `instance` (s_builtin below); custom series are the
 * profile's own PromQL with "$instance" replaced.
 *
 * The value at t = start + k + 1 is taken for second k: rate() over the
 * rate window ending at the second's end. With a window longer than 1 s the
 * series is smoothed, and it lags by up to the scrape interval; text
 * endpoints (counters/prom.c) are exact, this is the fallback and the way to
 * vendor metrics that only a Prometheus server sees.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters/http.h"
#include "counters/ops.h"
#include "profile/value/units.h"
#include "util/clock.h"

#define S_QUERY_TIMEOUT_MS 5000
#define S_EXPR_MAX	   2048
#define S_DEV_EXCLUDE                                                                              \
	"lo|veth.*|docker.*|br-.*|virbr.*|cali.*|flannel.*|cni.*|vxlan.*|tun.*|tap.*|ifb.*|"       \
	"dummy.*|kube.*|lxc.*|vnet.*|genev.*|wg.*"
#define S_DISK_EXCLUDE "dm-.*|md.*|loop.*|ram.*|zram.*|sr.*|nbd.*"

/*
 * Built-in figures: field key, expression with %1$s = instance selector
 * ('instance="x"'), %2$s = interface selector, %3$s = rate window. Values
 * are in the struct's units: bytes/s and fractions.
 */
static const struct {
	const char *key;
	const char *expr;
} s_builtin[] = {
    {"net_tx_mbps", "sum(rate(node_network_transmit_bytes_total{%1$s,%2$s}[%3$s]))"},
    {"net_rx_mbps", "sum(rate(node_network_receive_bytes_total{%1$s,%2$s}[%3$s]))"},
    {"link_mbps", "sum(node_network_speed_bytes{%1$s,%2$s} > 0)"},
    {"cpu_busy_pct", "1 - sum(rate(node_cpu_seconds_total{%1$s,mode=~\"idle|iowait|steal\"}"
		     "[%3$s])) / sum(rate(node_cpu_seconds_total{%1$s}[%3$s]))"},
    {"cpu_hot_core_pct",
     "max(sum by (cpu)(rate(node_cpu_seconds_total{%1$s,mode!~\"idle|iowait|steal\"}[%3$s]))"
     " / sum by (cpu)(rate(node_cpu_seconds_total{%1$s}[%3$s])))"},
    {"softirq_pct", "sum(rate(node_cpu_seconds_total{%1$s,mode=\"softirq\"}[%3$s])) / "
		    "sum(rate(node_cpu_seconds_total{%1$s}[%3$s]))"},
    {"softirq_hot_core_pct",
     "max(sum by (cpu)(rate(node_cpu_seconds_total{%1$s,mode=\"softirq\"}[%3$s]))"
     " / sum by (cpu)(rate(node_cpu_seconds_total{%1$s}[%3$s])))"},
    {"disk_read_mbps",
     "sum(rate(node_disk_read_bytes_total{%1$s,device!~\"" S_DISK_EXCLUDE "\"}[%3$s]))"},
    {"disk_write_mbps",
     "sum(rate(node_disk_written_bytes_total{%1$s,device!~\"" S_DISK_EXCLUDE "\"}[%3$s]))"},
    {"disk_util_max_pct", "max(rate(node_disk_io_time_seconds_total{%1$s}[%3$s]))"},
    {"disk_aqu_max", "max(rate(node_disk_io_time_weighted_seconds_total{%1$s}[%3$s]))"},
    {"mem_used_pct", "1 - sum(node_memory_MemAvailable_bytes{%1$s}) / "
		     "sum(node_memory_MemTotal_bytes{%1$s})"},
    {"load1", "sum(node_load1{%1$s})"},
    {"tcp_retrans_per_s", "sum(rate(node_netstat_Tcp_RetransSegs{%1$s}[%3$s]))"},
    {"softnet_squeezed_per_s", "sum(rate(node_softnet_times_squeezed_total{%1$s}[%3$s]))"},
};
#define S_NBUILTIN (int)(sizeof(s_builtin) / sizeof(s_builtin[0]))

struct s_query {
	char name[BC_NAME_MAX]; /* a field key or a custom series' name */
	int field;		/* index into bc_hostfig_fields, -1 for custom */
	char *expr;
	CURL *easy;
	struct bc_counter_buf body;
	bool busy, done, ok;
	char error[256];
	double *vals; /* [seconds], NaN when absent */
};

struct s_promql {
	struct bc_counter_http_client http; /* the run's HTTP transport */
	char url[1024];			    /* the server, without /api/... */
	char instance[256];
	char window[32]; /* rate window, "5s" */
	uint64_t lag_ns; /* after the step's end, so the last scrape is stored */
	int nq, ncustom;
	struct s_query *q; /* S_NBUILTIN built-in, then the custom series */
	struct bc_counter_step st;
	bool active, started;
};

static const char *s_str(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* a PromQL string literal's content: backslash and quote escaped */
static void s_quote(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 3 < len; in++) {
		if (*in == '\\' || *in == '"')
			out[n++] = '\\';
		out[n++] = *in;
	}
	out[n] = '\0';
}

/* the instance node_exporter's target has by default: host:port of its first URL */
static void s_default_instance(const cJSON *node, char *out, size_t len)
{
	const char *u = cJSON_GetStringValue(
	    cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(node, "metrics"), 0));
	const char *h, *e;

	out[0] = '\0';
	if (!u || !(h = strstr(u, "://")))
		return;
	h += 3;
	e = strchr(h, '/');
	snprintf(out, len, "%.*s", (int)(e ? e - h : (ptrdiff_t)strlen(h)), h);
}

/* expr with every "$instance" replaced by the instance value */
static char *s_subst(const char *expr, const char *instance)
{
	size_t cap = strlen(expr) + 1, n = 0, il = strlen(instance);
	const char *p;
	char *out;

	for (p = expr; (p = strstr(p, "$instance")); p += 9)
		cap += il;
	out = malloc(cap);
	if (!out)
		return NULL;
	for (p = expr; *p;) {
		if (!strncmp(p, "$instance", 9)) {
			memcpy(out + n, instance, il);
			n += il;
			p += 9;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = '\0';
	return out;
}

static void s_close(struct bc_counter_src *s)
{
	struct s_promql *p = s->priv;
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nq; i++) {
		if (p->q[i].busy)
			bc_counter_http_remove(&p->http, p->q[i].easy);
		if (p->q[i].easy)
			curl_easy_cleanup(p->q[i].easy);
		free(p->q[i].expr);
		free(p->q[i].body.data);
		free(p->q[i].vals);
	}
	free(p->q);
	bc_counter_http_close(&p->http);
	free(p);
	s->priv = NULL;
}

static void s_done(struct bc_counter_src *s, CURL *easy, CURLcode rc);

static int s_open(struct bc_counter_src *s, const cJSON *node, char *err, size_t errlen)
{
	const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(node, "prometheus"), *it;
	const char *nic = s_str(node, "nic"), *v;
	char inst[300], sel[600], dev[300], expr[S_EXPR_MAX];
	struct s_promql *p;
	uint64_t ms;
	int i, n = 0;

	if (!cJSON_IsObject(cfg) || !s_str(cfg, "url"))
		return -ENOENT;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(node, "series")) n +=
	    s_str(it, "promql") != NULL;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->q = calloc((size_t)(S_NBUILTIN + n), sizeof(*p->q)))) {
		free(p);
		snprintf(err, errlen, "node counters: out of memory");
		return -ENOMEM;
	}
	s->priv = p;
	if (bc_counter_http_open(&p->http, s, s_done))
		goto nomem;
	snprintf(p->url, sizeof(p->url), "%s", s_str(cfg, "url"));
	if (p->url[0] && p->url[strlen(p->url) - 1] == '/')
		p->url[strlen(p->url) - 1] = '\0';
	if (s_str(cfg, "instance"))
		snprintf(p->instance, sizeof(p->instance), "%s", s_str(cfg, "instance"));
	else
		s_default_instance(node, p->instance, sizeof(p->instance));
	if (!p->instance[0]) {
		snprintf(err, errlen,
			 "nodes[%d] (%s): prometheus: no \"instance\" and no metrics URL "
			 "to take it from",
			 s->node, s->prof->nodes[s->node].name);
		s_close(s);
		return -EINVAL;
	}
	v = s_str(cfg, "rate_window");
	snprintf(p->window, sizeof(p->window), "%s", v ? v : "5s");
	ms = 2000;
	if ((v = s_str(cfg, "lag")))
		bc_parse_duration_ms(v, &ms);
	p->lag_ns = ms * BC_NS_PER_MS;

	s_quote(p->instance, inst, sizeof(inst));
	snprintf(sel, sizeof(sel), "instance=\"%s\"", inst);
	if (nic && *nic) {
		s_quote(nic, inst, sizeof(inst));
		snprintf(dev, sizeof(dev), "device=\"%s\"", inst);
	} else {
		snprintf(dev, sizeof(dev), "device!~\"%s\"", S_DEV_EXCLUDE);
	}
	for (i = 0; i < S_NBUILTIN; i++) {
		struct s_query *q = &p->q[p->nq++];

		snprintf(q->name, sizeof(q->name), "%s", s_builtin[i].key);
		q->field = bc_hostfig_field_index(s_builtin[i].key);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(expr, sizeof(expr), s_builtin[i].expr, sel, dev, p->window);
#pragma GCC diagnostic pop
		q->expr = strdup(expr);
		if (!q->expr)
			goto nomem;
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(node, "series"))
	{
		struct s_query *q;

		if (!s_str(it, "promql") || p->ncustom == BC_HF_CUSTOM)
			continue;
		q = &p->q[p->nq++];
		snprintf(q->name, sizeof(q->name), "%s", s_str(it, "name"));
		q->field = -1;
		p->ncustom++;
		q->expr = s_subst(s_str(it, "promql"), p->instance);
		if (!q->expr)
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "node counters: out of memory");
	s_close(s);
	return -ENOMEM;
}

static void s_step_begin(struct bc_counter_src *s, const struct bc_counter_step *st)
{
	struct s_promql *p = s->priv;
	uint32_t k;
	int i;

	p->st = *st;
	p->started = false;
	p->active = st->seconds > 0;
	for (i = 0; i < p->nq; i++) {
		struct s_query *q = &p->q[i];

		if (q->busy) {
			bc_counter_http_remove(&p->http, q->easy);
			q->busy = false;
		}
		q->done = q->ok = false;
		q->error[0] = '\0';
		free(q->vals);
		q->vals = malloc((st->seconds ? st->seconds : 1) * sizeof(*q->vals));
		if (!q->vals)
			p->active = false;
		for (k = 0; q->vals && k < st->seconds; k++)
			q->vals[k] = NAN;
	}
}

static uint64_t s_due(const struct s_promql *p)
{
	return p->st.start_ns + (uint64_t)p->st.seconds * BC_NS_PER_S + p->lag_ns;
}

static uint64_t s_next_due(const struct bc_counter_src *s)
{
	const struct s_promql *p = s->priv;

	return p->active && !p->started ? s_due(p) : UINT64_MAX;
}

static bool s_step_done(const struct bc_counter_src *s)
{
	const struct s_promql *p = s->priv;

	return !p->active || (p->started && !p->http.inflight);
}

static void s_start(struct bc_counter_src *s, uint64_t now)
{
	struct s_promql *p = s->priv;
	/* t = start + k + 1 for k = 0..seconds-1: each second's end */
	double t0 = (double)p->st.start_ns / 1e9 + 1, t1 = t0 + p->st.seconds - 1;
	char url[S_EXPR_MAX * 3 + 1200];
	int i;

	if (!p->active || p->started || now < s_due(p))
		return;
	p->started = true;
	for (i = 0; i < p->nq; i++) {
		struct s_query *q = &p->q[i];
		char *esc = curl_easy_escape(NULL, q->expr, 0);

		if (!esc) {
			snprintf(q->error, sizeof(q->error), "out of memory");
			continue;
		}
		snprintf(url, sizeof(url),
			 "%s/api/v1/query_range?query=%s&start=%.3f&end=%.3f&step=1", p->url, esc,
			 t0, t1);
		curl_free(esc);
		if (!q->easy)
			q->easy = bc_counter_http_easy(&p->http, url, &q->body, S_QUERY_TIMEOUT_MS);
		else
			curl_easy_setopt(q->easy, CURLOPT_URL, url);
		q->body.len = 0;
		if (!q->easy || bc_counter_http_add(&p->http, q->easy)) {
			snprintf(q->error, sizeof(q->error), "cannot start the query");
			continue;
		}
		q->busy = true;
	}
}

/* its timeline; the rest of its control call is the transport's (bc_counter_http_ctl) */
static const struct bc_counter_http_sched s_sched = {
    .step_begin = s_step_begin,
    .start = s_start,
    .next_due = s_next_due,
    .step_done = s_step_done,
};

/* {"status":"success","data":{"resultType":"matrix","result":[{"values":[[t,"v"],...]}]}} */
static void s_parse(struct s_promql *p, struct s_query *q)
{
	cJSON *j = cJSON_ParseWithLength(q->body.data ? q->body.data : "", q->body.len);
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(j, "data"), *r, *pt;
	const char *status = s_str(j, "status");
	double t0 = (double)p->st.start_ns / 1e9 + 1;

	if (!status || strcmp(status, "success")) {
		snprintf(q->error, sizeof(q->error), "%s: %s", status ? status : "not JSON",
			 s_str(j, "error") ? s_str(j, "error") : "no data");
		goto out;
	}
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(data, "result"))
	{
		cJSON_ArrayForEach(pt, cJSON_GetObjectItemCaseSensitive(r, "values"))
		{
			double t = cJSON_GetNumberValue(cJSON_GetArrayItem(pt, 0));
			const char *v = cJSON_GetStringValue(cJSON_GetArrayItem(pt, 1));
			long k = lround(t - t0);
			double x;

			if (!v || k < 0 || k >= (long)p->st.seconds)
				continue;
			x = strtod(v, NULL);
			/* several series (e.g. two instances match): their sum, like sum() */
			q->vals[k] = isnan(q->vals[k]) ? x : q->vals[k] + x;
		}
	}
	q->ok = true;
out:
	cJSON_Delete(j);
}

static void s_done(struct bc_counter_src *s, CURL *easy, CURLcode rc)
{
	struct s_promql *p = s->priv;
	long code = 0;
	int i;

	for (i = 0; i < p->nq && p->q[i].easy != easy; i++)
		;
	bc_counter_http_remove(&p->http, easy);
	if (i == p->nq || !p->q[i].busy)
		return;
	p->q[i].busy = false;
	p->q[i].done = true;
	curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
	/* 400/422/503 carry the error in the envelope; parse them too */
	if (rc != CURLE_OK)
		bc_counter_http_error(easy, rc, p->q[i].error, sizeof(p->q[i].error));
	else
		s_parse(p, &p->q[i]);
}

/* a built-in value into the struct's unit (the table's expressions give SI units) */
static void s_set(struct bc_hostfig *f, int field, double v)
{
	*(double *)((char *)f + bc_hostfig_fields[field].off) = v;
}

static int s_window(const struct bc_counter_src *s, struct bc_hostfig *out, const char **names)
{
	const struct s_promql *p = s->priv;
	int i, c = 0, any = 0;

	if (!p->active || !p->started || p->http.inflight)
		return -ENODATA;
	bc_hostfig_clear(out, p->ncustom);
	for (i = 0; i < p->nq; i++) {
		const struct s_query *q = &p->q[i];
		double sum = 0;
		uint32_t k, n = 0;

		for (k = p->st.ramp_s; q->ok && k < p->st.seconds; k++)
			if (!isnan(q->vals[k]))
				sum += q->vals[k], n++;
		if (q->field >= 0 && n) {
			s_set(out, q->field, sum / n);
			any++;
		} else if (q->field < 0) {
			out->custom[c] = n ? sum / n : NAN;
			if (names)
				names[c] = q->name;
			c++;
			any += n > 0;
		}
	}
	if (out->link_bps > 0) {
		out->net_tx_util = out->net_tx_bps / out->link_bps;
		out->net_rx_util = out->net_rx_bps / out->link_bps;
	}
	return any ? 0 : -ENODATA;
}

static void s_step_json(struct bc_counter_src *s, cJSON *node_obj)
{
	struct s_promql *p = s->priv;
	struct bc_hostfig *w = malloc(sizeof(*w));
	cJSON *o = cJSON_AddObjectToObject(node_obj, "promql"), *ser, *cust = NULL, *errs = NULL;
	uint32_t k;
	int i;

	cJSON_AddStringToObject(o, "url", p->url);
	cJSON_AddStringToObject(o, "instance", p->instance);
	cJSON_AddStringToObject(o, "rate_window", p->window);
	if (w && !s_window(s, w, NULL)) {
		cJSON *win = bc_hostfig_json(w, false);

		cJSON_AddNumberToObject(win, "from_second", p->st.ramp_s);
		cJSON_AddNumberToObject(win, "to_second", p->st.seconds);
		cJSON_AddItemToObject(o, "window", win);
	}
	ser = cJSON_AddObjectToObject(o, "series");
	for (i = 0; i < p->nq; i++) {
		const struct s_query *q = &p->q[i];
		double scale = q->field >= 0 ? bc_hostfig_fields[q->field].scale : 1;
		cJSON *arr = cJSON_CreateArray(), *c;

		for (k = 0; k < p->st.seconds; k++)
			cJSON_AddItemToArray(arr, bc_hostfig_num(q->ok ? q->vals[k] * scale : NAN));
		if (q->field >= 0) {
			cJSON_AddItemToObject(ser, q->name, arr);
		} else {
			if (!cust)
				cust = cJSON_AddObjectToObject(o, "custom");
			c = cJSON_AddObjectToObject(cust, q->name);
			cJSON_AddStringToObject(c, "promql", q->expr);
			if (w && !s_window(s, w, NULL))
				cJSON_AddItemToObject(c, "window",
						      bc_hostfig_num(w->custom[i - S_NBUILTIN]));
			cJSON_AddItemToObject(c, "series", arr);
		}
		if (q->error[0]) {
			if (!errs)
				errs = cJSON_AddObjectToObject(o, "errors");
			cJSON_AddStringToObject(errs, q->name, q->error);
		}
	}
	free(w);
}

static int s_ctl(struct bc_counter_src *s, int op, void *arg)
{
	struct s_promql *p = s->priv;

	/* a query not asked yet asks for the seconds the step had */
	if (op == BC_CCTL_STEP_END) {
		if (!p->started && *(const uint32_t *)arg < p->st.seconds)
			p->st.seconds = *(const uint32_t *)arg;
		return 0;
	}
	return bc_counter_http_ctl(&p->http, s, &s_sched, op, arg);
}

const struct bc_counter_ops bc_counter_promql_ops = {
    .version = BC_COUNTER_OPS_VERSION,
    .name = "promql",
    .open = s_open,
    .ctl = s_ctl,
    .step_json = s_step_json,
    .window = s_window,
    .close = s_close,
};
