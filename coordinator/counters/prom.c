/*
 * counters/prom.c - the "prom-text" counter source: a node's text endpoints
 * (nodes[].metrics, node_exporter and vendor exporters) scraped at each
 * second boundary of a step, parsed into a bc_hostsnap, and differenced
 * into per-second figures (bc_hostfig) plus the custom "metric" series of
 * nodes[].series. Metric names are node_exporter's (node_cpu_seconds_total,
 * node_network_*_bytes_total, node_disk_*; the list is s_metric_names below).
 *
 * Time of a sample: the moment the request left (curl's pretransfer time),
 * not when the coordinator got around to reading the answer, so the
 * per-second rates do not inherit the loop's tick jitter. node_exporter
 * reads its counters right after the request arrives; that delay is about
 * constant and cancels out in the differences.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters/facts.h"
#include "counters/http.h"
#include "counters/ops.h"
#include "counters/prom.h"
#include "profile/counters.h"
#include "counters/promtext.h"
#include "util/clock.h"
#include "util/json.h"

#define S_URL_MAX 1024

/* a boundary: not sampled by any coordinator (yet), sampled, or its scrape failed */
enum { S_B_NONE = 0, S_B_OK, S_B_FAILED };

struct s_custom {
	char name[BC_NAME_MAX];
	char metric[BC_PROM_NAME_MAX];
	const cJSON *labels; /* {"name": "value"} that must all match; in the profile's JSON */
	double scale;
	const char *version_label; /* "role": "version": the label holding it; NULL otherwise */
};

struct s_url {
	char url[S_URL_MAX];
	CURL *easy;
	struct bc_counter_buf body;
	bool busy;
	uint64_t sent_ns; /* when the transfer was added */
};

struct s_prom {
	struct bc_counter_http_client http; /* the run's HTTP transport */
	struct s_url *urls;
	int nurls;
	char nic[64];
	char members[128];	 /* "nic_members": the bond's member links */
	struct curl_slist *hdrs; /* Accept: the text format */
	int ncustom;
	struct s_custom custom[BC_HF_CUSTOM];
	bool custom_rate[BC_HF_CUSTOM];

	struct bc_counter_step st;
	bool active;
	uint32_t next_b;	/* next boundary to sample */
	int64_t cur_b;		/* boundary being sampled, -1 none */
	int pending;		/* its transfers still running */
	int ok_urls;		/* of them, answered and parsed */
	uint64_t t_sum;		/* sum of the ok answers' sample times */
	int64_t prev_b, win0_b; /* boundaries held in prev and win0, -1 none */
	struct bc_hostsnap cur, prev, win0;
	struct bc_hostfig *secs; /* [seconds] */
	bool *sec_ok;
	uint8_t *bstate;     /* [seconds + 1]: S_B_*, what became of each boundary */
	uint32_t ok, failed; /* boundary samples */
	char last_error[256];
	struct bc_prom_stats parse; /* of the last page, for the JSON */
	/* the node's facts (counters/facts.h): of the page being read, of the last one read */
	struct bc_nodefacts facts_next, facts;
};

static const char *s_str(const cJSON *o, const char *key)
{
	return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static void s_close(struct bc_counter_src *s);
static void s_done(struct bc_counter_src *s, CURL *easy, CURLcode rc);

static int s_open(struct bc_counter_src *s, const cJSON *node, char *err, size_t errlen)
{
	const cJSON *urls = cJSON_GetObjectItemCaseSensitive(node, "metrics"), *it;
	const char *nodename = s->prof->nodes[s->node].name;
	struct s_prom *p;
	int n = cJSON_GetArraySize(urls);

	if (!cJSON_IsArray(urls) || n == 0)
		return -ENOENT;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->urls = calloc((size_t)n, sizeof(*p->urls))))
		goto nomem;
	s->priv = p;
	if (bc_counter_http_open(&p->http, s, s_done))
		goto nomem;
	p->cur_b = p->prev_b = p->win0_b = -1;
	bc_hostsnap_init(&p->cur);
	bc_hostsnap_init(&p->prev);
	bc_hostsnap_init(&p->win0);
	p->hdrs = curl_slist_append(NULL, "Accept: text/plain;version=0.0.4;q=1,*/*;q=0.1");
	if (!p->hdrs)
		goto nomem;
	snprintf(p->nic, sizeof(p->nic), "%s", s_str(node, "nic") ? s_str(node, "nic") : "");
	snprintf(p->members, sizeof(p->members), "%s",
		 s_str(node, "nic_members") ? s_str(node, "nic_members") : "");
	cJSON_ArrayForEach(it, urls)
	{
		struct s_url *u = &p->urls[p->nurls];

		if (!cJSON_IsString(it) || strlen(it->valuestring) >= S_URL_MAX) {
			snprintf(err, errlen, "nodes[%d] (%s): metrics: expected URLs", s->node,
				 nodename);
			s_close(s);
			return -EINVAL;
		}
		snprintf(u->url, sizeof(u->url), "%s", it->valuestring);
		u->easy = bc_counter_http_easy(&p->http, u->url, &u->body, BC_COUNTER_TIMEOUT_MS);
		if (!u->easy)
			goto nomem;
		/* the text format, not protobuf or OpenMetrics, whatever the exporter prefers */
		curl_easy_setopt(u->easy, CURLOPT_HTTPHEADER, p->hdrs);
		p->nurls++;
	}
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(node, "series"))
	{
		struct s_custom *cs = &p->custom[p->ncustom];
		const cJSON *rate = cJSON_GetObjectItemCaseSensitive(it, "rate");
		const cJSON *scale = cJSON_GetObjectItemCaseSensitive(it, "scale");

		if (!s_str(it, "metric") || p->ncustom == BC_HF_CUSTOM)
			continue; /* a PromQL series, or the checker's limit */
		snprintf(cs->name, sizeof(cs->name), "%s", s_str(it, "name"));
		snprintf(cs->metric, sizeof(cs->metric), "%s", s_str(it, "metric"));
		cs->labels = cJSON_GetObjectItemCaseSensitive(it, "labels");
		cs->scale = cJSON_IsNumber(scale) ? scale->valuedouble : 1.0;
		if (bc_series_role_of(node, cs->name) == BC_ROLE_VERSION)
			cs->version_label = s_str(it, "label") ?: "version";
		/* counters by default when the name says so (Prometheus naming: *_total) */
		p->custom_rate[p->ncustom] =
		    cJSON_IsBool(rate) ? cJSON_IsTrue(rate)
				       : strlen(cs->metric) > 6 &&
					     !strcmp(cs->metric + strlen(cs->metric) - 6, "_total");
		p->ncustom++;
	}
	return 0;
nomem:
	snprintf(err, errlen, "node counters: out of memory");
	if (s->priv)
		s_close(s);
	else if (p)
		free(p);
	return -ENOMEM;
}

static void s_close(struct bc_counter_src *s)
{
	struct s_prom *p = s->priv;
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nurls; i++) {
		if (p->urls[i].busy)
			bc_counter_http_remove(&p->http, p->urls[i].easy);
		curl_easy_cleanup(p->urls[i].easy);
		free(p->urls[i].body.data);
	}
	bc_hostsnap_free(&p->cur);
	bc_hostsnap_free(&p->prev);
	bc_hostsnap_free(&p->win0);
	free(p->secs);
	free(p->sec_ok);
	free(p->bstate);
	curl_slist_free_all(p->hdrs);
	free(p->urls);
	bc_counter_http_close(&p->http);
	free(p);
	s->priv = NULL;
}

static void s_step_begin(struct bc_counter_src *s, const struct bc_counter_step *st)
{
	struct s_prom *p = s->priv;
	int i;

	for (i = 0; i < p->nurls; i++)
		if (p->urls[i].busy) {
			bc_counter_http_remove(&p->http, p->urls[i].easy);
			p->urls[i].busy = false;
		}
	free(p->secs);
	free(p->sec_ok);
	free(p->bstate);
	p->st = *st;
	p->secs = calloc(st->seconds ? st->seconds : 1, sizeof(*p->secs));
	p->sec_ok = calloc(st->seconds ? st->seconds : 1, sizeof(*p->sec_ok));
	p->bstate = calloc((size_t)st->seconds + 1, sizeof(*p->bstate));
	p->active = p->secs && p->sec_ok && p->bstate;
	/* replayed (UINT32_MAX): nothing is due until BC_CCTL_STEP_FROM */
	p->next_b = st->from_b;
	p->cur_b = p->prev_b = p->win0_b = -1;
	p->pending = 0;
	p->ok = p->failed = 0;
	p->last_error[0] = '\0';
	memset(&p->parse, 0, sizeof(p->parse));
	bc_nodefacts_init(&p->facts);
}

static uint64_t s_boundary_ns(const struct s_prom *p, uint64_t b)
{
	return p->st.start_ns + b * BC_NS_PER_S;
}

static uint64_t s_next_due(const struct bc_counter_src *s)
{
	const struct s_prom *p = s->priv;

	if (!p->active || p->next_b > p->st.seconds || p->cur_b >= 0)
		return UINT64_MAX;
	return s_boundary_ns(p, p->next_b);
}

static bool s_step_done(const struct bc_counter_src *s)
{
	const struct s_prom *p = s->priv;

	return !p->active || (p->next_b > p->st.seconds && p->cur_b < 0);
}

static void s_failed(struct bc_counter_src *s, uint32_t b, const char *why);

static void s_start(struct bc_counter_src *s, uint64_t now)
{
	struct s_prom *p = s->priv;
	char why[96];
	int i;

	if (!p->active || p->cur_b >= 0)
		return;
	while (p->next_b <= p->st.seconds && now >= s_boundary_ns(p, p->next_b)) {
		uint32_t b = p->next_b++;

		if (now - s_boundary_ns(p, b) > BC_COUNTER_LATE_MS * BC_NS_PER_MS) {
			snprintf(why, sizeof(why),
				 "boundary %u: scrape could not start within %d ms", b,
				 BC_COUNTER_LATE_MS);
			s_failed(s, b, why);
			continue;
		}
		bc_hostsnap_reset(&p->cur);
		p->cur.ncustom = p->ncustom;
		bc_nodefacts_init(&p->facts_next);
		p->cur_b = b;
		p->pending = p->ok_urls = 0;
		p->t_sum = 0;
		for (i = 0; i < p->nurls; i++) {
			struct s_url *u = &p->urls[i];

			u->body.len = 0;
			u->sent_ns = bc_real_ns();
			if (bc_counter_http_add(&p->http, u->easy))
				continue;
			u->busy = true;
			p->pending++;
		}
		if (!p->pending) {
			p->cur_b = -1;
			s_failed(s, b, NULL);
		}
		return;
	}
}

/* its timeline; the rest of its control call is the transport's (bc_counter_http_ctl) */
static const struct bc_counter_http_sched s_sched = {
    .step_begin = s_step_begin,
    .start = s_start,
    .next_due = s_next_due,
    .step_done = s_step_done,
};

/* ---- /metrics into a snapshot ---- */

enum s_metric {
	M_CPU,
	M_NET_TX,
	M_NET_RX,
	M_NET_TX_DROP,
	M_NET_RX_DROP,
	M_NET_SPEED,
	M_DISK_RD_BYTES,
	M_DISK_WR_BYTES,
	M_DISK_READS,
	M_DISK_WRITES,
	M_DISK_RD_TIME,
	M_DISK_WR_TIME,
	M_DISK_IO_TIME,
	M_DISK_IO_WTIME,
	M_MEM_TOTAL,
	M_MEM_AVAIL,
	M_LOAD1,
	M_SQUEEZED,
	M_SOFTNET_DROP,
	M_TCP_RETRANS,
	M_TCP_OUT,
	M_NET_MTU,
	M_UNAME,
	M_NR
};

static const char *const s_metric_names[M_NR] = {
    "node_cpu_seconds_total",
    "node_network_transmit_bytes_total",
    "node_network_receive_bytes_total",
    "node_network_transmit_drop_total",
    "node_network_receive_drop_total",
    "node_network_speed_bytes",
    "node_disk_read_bytes_total",
    "node_disk_written_bytes_total",
    "node_disk_reads_completed_total",
    "node_disk_writes_completed_total",
    "node_disk_read_time_seconds_total",
    "node_disk_write_time_seconds_total",
    "node_disk_io_time_seconds_total",
    "node_disk_io_time_weighted_seconds_total",
    "node_memory_MemTotal_bytes",
    "node_memory_MemAvailable_bytes",
    "node_load1",
    "node_softnet_times_squeezed_total",
    "node_softnet_dropped_total",
    "node_netstat_Tcp_RetransSegs",
    "node_netstat_Tcp_OutSegs",
    "node_network_mtu_bytes",
    "node_uname_info",
};

static int s_metric(const char *name, size_t len)
{
	int i;

	if (len < 5 || memcmp(name, "node_", 5))
		return -1;
	for (i = 0; i < M_NR; i++)
		if (strlen(s_metric_names[i]) == len && !memcmp(s_metric_names[i], name, len))
			return i;
	return -1;
}

struct s_parse_ctx {
	struct s_prom *p;
	struct bc_hostsnap *snap;
	struct bc_nodefacts *facts;
};

static bool s_want(void *arg, const char *name, size_t len)
{
	const struct s_prom *p = ((struct s_parse_ctx *)arg)->p;
	int i;

	if (s_metric(name, len) >= 0 || bc_nodefacts_wants(name, len))
		return true;
	for (i = 0; i < p->ncustom; i++)
		if (strlen(p->custom[i].metric) == len && !memcmp(p->custom[i].metric, name, len))
			return true;
	return false;
}

static bool s_labels_match(const struct bc_prom_sample *smp, const cJSON *want)
{
	const cJSON *l;

	cJSON_ArrayForEach(l, want)
	{
		const char *v = bc_prom_label(smp, l->string);

		if (!v || !cJSON_IsString(l) || strcmp(v, l->valuestring))
			return false;
	}
	return true;
}

static void s_custom_sample(struct s_prom *p, struct bc_hostsnap *snap, struct bc_nodefacts *facts,
			    const struct bc_prom_sample *smp)
{
	int i;

	bc_nodefacts_sample(facts, smp);
	for (i = 0; i < p->ncustom; i++) {
		const struct s_custom *cs = &p->custom[i];

		if (strcmp(cs->metric, smp->name) || !s_labels_match(smp, cs->labels))
			continue;
		/* an info metric's value is 1; what it says is in its label */
		if (cs->version_label && bc_prom_label(smp, cs->version_label))
			bc_nodefacts_software(facts, cs->name,
					      bc_prom_label(smp, cs->version_label));
		snap->custom[i] =
		    (isnan(snap->custom[i]) ? 0 : snap->custom[i]) + smp->value * cs->scale;
	}
}

static void s_nic_sample(struct s_prom *p, struct bc_hostsnap *snap, int m,
			 const struct bc_prom_sample *smp)
{
	const char *dev = bc_prom_label(smp, "device");
	struct bc_hostsnap_nic *n;

	/* virtual interfaces would fill the table on a container host; lo stays for tests */
	if (!dev || (strcmp(dev, "lo") && strcmp(dev, p->nic) && bc_hostfig_virtual_nic(dev)))
		return;
	n = bc_hostsnap_nic(snap, dev);
	if (!n)
		return;
	if (m == M_NET_TX)
		n->tx_bytes = smp->value;
	else if (m == M_NET_RX)
		n->rx_bytes = smp->value;
	else if (m == M_NET_TX_DROP)
		n->tx_drop = smp->value;
	else if (m == M_NET_RX_DROP)
		n->rx_drop = smp->value;
	else if (m == M_NET_MTU)
		n->mtu = smp->value > 0 ? smp->value : NAN;
	else /* node_exporter reports -1 Mb/s (-125000) when the kernel does not know */
		n->speed_bytes = smp->value > 0 ? smp->value : NAN;
}

static void s_disk_sample(struct bc_hostsnap *snap, int m, const struct bc_prom_sample *smp)
{
	const char *dev = bc_prom_label(smp, "device");
	struct bc_hostsnap_disk *d = dev ? bc_hostsnap_disk(snap, dev) : NULL;
	double *f[] = {
	    [M_DISK_RD_BYTES] = d ? &d->rd_bytes : NULL,
	    [M_DISK_WR_BYTES] = d ? &d->wr_bytes : NULL,
	    [M_DISK_READS] = d ? &d->reads : NULL,
	    [M_DISK_WRITES] = d ? &d->writes : NULL,
	    [M_DISK_RD_TIME] = d ? &d->rd_time_s : NULL,
	    [M_DISK_WR_TIME] = d ? &d->wr_time_s : NULL,
	    [M_DISK_IO_TIME] = d ? &d->io_time_s : NULL,
	    [M_DISK_IO_WTIME] = d ? &d->io_wtime_s : NULL,
	};

	if (d)
		*f[m] = smp->value;
}

static double s_add(double acc, double v)
{
	return (isnan(acc) ? 0 : acc) + v;
}

static int s_on_sample(void *arg, const struct bc_prom_sample *smp)
{
	struct s_parse_ctx *ctx = arg;
	struct bc_hostsnap *snap = ctx->snap;
	int m = s_metric(smp->name, strlen(smp->name));
	const char *cpu, *mode;
	int i;

	if (m < 0) {
		s_custom_sample(ctx->p, snap, ctx->facts, smp);
		return 0;
	}
	switch (m) {
	case M_CPU:
		cpu = bc_prom_label(smp, "cpu");
		mode = bc_prom_label(smp, "mode");
		for (i = 0; cpu && mode && i < BC_CPU_MODE_NR; i++)
			if (!strcmp(mode, bc_cpu_mode_names[i]))
				bc_hostsnap_cpu_set(snap, atoi(cpu), (enum bc_cpu_mode)i,
						    smp->value);
		break;
	case M_NET_TX:
	case M_NET_RX:
	case M_NET_TX_DROP:
	case M_NET_RX_DROP:
	case M_NET_SPEED:
	case M_NET_MTU:
		s_nic_sample(ctx->p, snap, m, smp);
		break;
	case M_UNAME:
		if (bc_prom_label(smp, "release"))
			snprintf(snap->kernel, sizeof(snap->kernel), "%s",
				 bc_prom_label(smp, "release"));
		break;
	case M_MEM_TOTAL:
		snap->mem_total = smp->value;
		break;
	case M_MEM_AVAIL:
		snap->mem_avail = smp->value;
		break;
	case M_LOAD1:
		snap->load1 = smp->value;
		break;
	case M_SQUEEZED:
		snap->softnet_squeezed = s_add(snap->softnet_squeezed, smp->value);
		break;
	case M_SOFTNET_DROP:
		snap->softnet_dropped = s_add(snap->softnet_dropped, smp->value);
		break;
	case M_TCP_RETRANS:
		snap->tcp_retrans = smp->value;
		break;
	case M_TCP_OUT:
		snap->tcp_out = smp->value;
		break;
	default:
		s_disk_sample(snap, m, smp);
	}
	s_custom_sample(ctx->p, snap, ctx->facts, smp);
	return 0;
}

/*
 * ---- what became of a boundary: the one rule for a live scrape and for
 * its "node_scrape" event replayed from the log (BC_CCTL_SAMPLE) ----
 */

static void s_apply_failed(struct s_prom *p, uint32_t b, const char *why)
{
	p->failed++;
	if (why && why != p->last_error)
		snprintf(p->last_error, sizeof(p->last_error), "%s", why);
	if (b <= p->st.seconds)
		p->bstate[b] = S_B_FAILED;
}

/* p->cur holds boundary b's counters */
static void s_apply_ok(struct s_prom *p, uint32_t b)
{
	struct bc_hostsnap tmp;
	struct bc_hostfig_opts o = {p->nic[0] ? p->nic : NULL, p->custom_rate,
				    p->members[0] ? p->members : NULL};

	p->ok++;
	p->bstate[b] = S_B_OK;
	if (p->prev_b == (int64_t)b - 1 && b >= 1 && b - 1 < p->st.seconds &&
	    !bc_hostfig_compute(&p->prev, &p->cur, &o, &p->secs[b - 1]))
		p->sec_ok[b - 1] = true;
	if (p->win0_b < 0 && b >= p->st.ramp_s && !bc_hostsnap_copy(&p->win0, &p->cur))
		p->win0_b = b;
	tmp = p->prev;
	p->prev = p->cur;
	p->cur = tmp;
	p->prev_b = b;
}

static cJSON *s_nums(const double *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i])); /* NaN is written null */
	return a;
}

/* up to n numbers of a (null: NaN) into v; the count read */
static int s_read_nums(const cJSON *a, double *v, int n)
{
	const cJSON *x;
	int i = 0;

	cJSON_ArrayForEach(x, a)
	{
		if (i == n)
			break;
		v[i++] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	}
	return i;
}

/*
 * The counters of a boundary as logged: what this source reads of a page
 * (s_on_sample), every double printed so that it reads back the same
 * (util/json.h); names lead the interface and disk rows. The node's facts
 * are not in it (they are the last page's, and a resumed coordinator reads
 * its own).
 */
static cJSON *s_snap_json(const struct bc_hostsnap *c, uint32_t b)
{
	cJSON *o = cJSON_CreateObject(), *a, *x;
	double v[8];
	int i;

	cJSON_AddNumberToObject(o, "b", b);
	cJSON_AddBoolToObject(o, "ok", true);
	bc_json_add_u64(o, "t_ns", c->t_ns);
	a = cJSON_AddArrayToObject(o, "cpu");
	for (i = 0; i < c->ncpu; i++)
		cJSON_AddItemToArray(a, s_nums(c->cpu[i], BC_CPU_MODE_NR));
	a = cJSON_AddArrayToObject(o, "nics");
	for (i = 0; i < c->nnics; i++) {
		const struct bc_hostsnap_nic *n = &c->nics[i];

		v[0] = n->tx_bytes, v[1] = n->rx_bytes, v[2] = n->tx_drop, v[3] = n->rx_drop;
		v[4] = n->speed_bytes, v[5] = n->mtu;
		x = s_nums(v, 6);
		cJSON_InsertItemInArray(x, 0, cJSON_CreateString(n->name));
		cJSON_AddItemToArray(a, x);
	}
	a = cJSON_AddArrayToObject(o, "disks");
	for (i = 0; i < c->ndisks; i++) {
		const struct bc_hostsnap_disk *d = &c->disks[i];

		v[0] = d->rd_bytes, v[1] = d->wr_bytes, v[2] = d->reads, v[3] = d->writes;
		v[4] = d->rd_time_s, v[5] = d->wr_time_s, v[6] = d->io_time_s, v[7] = d->io_wtime_s;
		x = s_nums(v, 8);
		cJSON_InsertItemInArray(x, 0, cJSON_CreateString(d->name));
		cJSON_AddItemToArray(a, x);
	}
	v[0] = c->mem_total, v[1] = c->mem_avail, v[2] = c->load1, v[3] = c->softnet_squeezed;
	v[4] = c->softnet_dropped, v[5] = c->tcp_retrans, v[6] = c->tcp_out;
	cJSON_AddItemToObject(o, "host", s_nums(v, 7));
	if (c->ncustom)
		cJSON_AddItemToObject(o, "custom", s_nums(c->custom, c->ncustom));
	if (c->kernel[0])
		cJSON_AddStringToObject(o, "kernel", c->kernel);
	return o;
}

/* s_snap_json's object back into c; 0, -EINVAL (not one) or -ENOMEM */
static int s_snap_read(struct bc_hostsnap *c, int ncustom, const cJSON *o)
{
	const cJSON *x;
	double v[9];
	int i = 0, m, rc;

	bc_hostsnap_reset(c);
	c->ncustom = ncustom;
	if (!bc_json_get_u64(cJSON_GetObjectItemCaseSensitive(o, "t_ns"), &c->t_ns))
		return -EINVAL;
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(o, "cpu"))
	{
		s_read_nums(x, v, BC_CPU_MODE_NR);
		for (m = 0; m < BC_CPU_MODE_NR; m++) {
			rc = isnan(v[m]) ? 0 : bc_hostsnap_cpu_set(c, i, (enum bc_cpu_mode)m, v[m]);
			if (rc)
				return rc;
		}
		i++;
	}
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(o, "nics"))
	{
		const char *name = cJSON_GetStringValue(cJSON_GetArrayItem(x, 0));
		struct bc_hostsnap_nic *n = name ? bc_hostsnap_nic(c, name) : NULL;

		if (!n || s_read_nums(x, v, 7) != 7)
			return -EINVAL;
		n->tx_bytes = v[1], n->rx_bytes = v[2], n->tx_drop = v[3], n->rx_drop = v[4];
		n->speed_bytes = v[5], n->mtu = v[6];
	}
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(o, "disks"))
	{
		const char *name = cJSON_GetStringValue(cJSON_GetArrayItem(x, 0));
		struct bc_hostsnap_disk *d = name ? bc_hostsnap_disk(c, name) : NULL;

		if (!d || s_read_nums(x, v, 9) != 9)
			return -EINVAL;
		d->rd_bytes = v[1], d->wr_bytes = v[2], d->reads = v[3], d->writes = v[4];
		d->rd_time_s = v[5], d->wr_time_s = v[6], d->io_time_s = v[7], d->io_wtime_s = v[8];
	}
	if (s_read_nums(cJSON_GetObjectItemCaseSensitive(o, "host"), v, 7) != 7)
		return -EINVAL;
	c->mem_total = v[0], c->mem_avail = v[1], c->load1 = v[2], c->softnet_squeezed = v[3];
	c->softnet_dropped = v[4], c->tcp_retrans = v[5], c->tcp_out = v[6];
	s_read_nums(cJSON_GetObjectItemCaseSensitive(o, "custom"), c->custom, ncustom);
	x = cJSON_GetObjectItemCaseSensitive(o, "kernel");
	if (cJSON_IsString(x))
		snprintf(c->kernel, sizeof(c->kernel), "%s", x->valuestring);
	return 0;
}

/* boundary b's scrape failed (why: the reason, NULL: the last one stands); logged */
static void s_failed(struct bc_counter_src *s, uint32_t b, const char *why)
{
	struct s_prom *p = s->priv;
	cJSON *ev = cJSON_CreateObject();

	s_apply_failed(p, b, why);
	cJSON_AddNumberToObject(ev, "b", b);
	cJSON_AddBoolToObject(ev, "ok", false);
	if (p->last_error[0])
		cJSON_AddStringToObject(ev, "error", p->last_error);
	bc_counter_log_sample(s, ev);
}

static void s_boundary_done(struct bc_counter_src *s)
{
	struct s_prom *p = s->priv;
	int64_t b = p->cur_b;

	p->cur_b = -1;
	if (!p->ok_urls) {
		s_failed(s, (uint32_t)b, NULL);
		return;
	}
	if (p->facts_next.any)
		p->facts = p->facts_next;
	p->cur.t_ns = p->t_sum / (uint64_t)p->ok_urls;
	/* logged as it is taken: the log holds every boundary this coordinator read */
	bc_counter_log_sample(s, s_snap_json(&p->cur, (uint32_t)b));
	s_apply_ok(p, (uint32_t)b);
}

/* BC_CCTL_SAMPLE: a boundary as the log holds it */
static int s_sample(struct bc_counter_src *s, const cJSON *ev)
{
	struct s_prom *p = s->priv;
	const cJSON *bj = cJSON_GetObjectItemCaseSensitive(ev, "b");
	uint32_t b;
	int rc;

	if (!p->active || !cJSON_IsNumber(bj) || bj->valuedouble < 0 ||
	    bj->valuedouble > p->st.seconds)
		return -ERANGE;
	b = (uint32_t)bj->valuedouble;
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ev, "ok"))) {
		s_apply_failed(p, b,
			       cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ev, "error")));
		return 0;
	}
	rc = s_snap_read(&p->cur, p->ncustom, ev);
	if (!rc)
		s_apply_ok(p, b);
	return rc;
}

/*
 * "coordinator_gaps": the seconds no coordinator sampled, [{from_second,
 * to_second}]: boundaries nobody tried (a dead coordinator's last ones and
 * the gap up to its resumed successor's first) make the seconds on both
 * sides missing. Only between samples or before the live part: the
 * boundaries after the last sample of a step that never went on are its end.
 */
static void s_gaps_json(const struct s_prom *p, cJSON *o)
{
	uint32_t lim = 0, b, u;
	cJSON *arr = NULL, *g;

	if (p->st.from_b != UINT32_MAX)
		lim = p->st.from_b < p->st.seconds + 1 ? p->st.from_b : p->st.seconds + 1;
	else
		for (b = 0; b <= p->st.seconds; b++)
			if (p->bstate[b] != S_B_NONE)
				lim = b + 1;
	for (b = 0; b < lim; b++) {
		if (p->bstate[b] != S_B_NONE)
			continue;
		for (u = b; b + 1 < lim && p->bstate[b + 1] == S_B_NONE; b++)
			;
		if (!arr)
			arr = cJSON_AddArrayToObject(o, "coordinator_gaps");
		g = cJSON_CreateObject();
		cJSON_AddNumberToObject(g, "from_second", u ? u - 1 : 0);
		cJSON_AddNumberToObject(g, "to_second", b < p->st.seconds ? b : p->st.seconds - 1);
		cJSON_AddItemToArray(arr, g);
	}
}

static void s_done(struct bc_counter_src *s, CURL *easy, CURLcode rc)
{
	struct s_prom *p = s->priv;
	struct s_parse_ctx ctx = {p, &p->cur, &p->facts_next};
	curl_off_t pre_us = 0;
	long code = 0;
	int i;

	for (i = 0; i < p->nurls && p->urls[i].easy != easy; i++)
		;
	bc_counter_http_remove(&p->http, easy);
	if (i == p->nurls || !p->urls[i].busy)
		return;
	p->urls[i].busy = false;
	p->pending--;
	curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
	if (rc != CURLE_OK || code != 200) {
		char why[128];

		snprintf(p->last_error, sizeof(p->last_error), "boundary %lld: %s: %s",
			 (long long)p->cur_b, p->urls[i].url,
			 bc_counter_http_error(easy, rc, why, sizeof(why)));
	} else if (p->cur_b >= 0) {
		bc_prom_parse(p->urls[i].body.data, p->urls[i].body.len, s_want, s_on_sample, &ctx,
			      &p->parse);
		curl_easy_getinfo(easy, CURLINFO_PRETRANSFER_TIME_T, &pre_us);
		p->t_sum += p->urls[i].sent_ns + (uint64_t)pre_us * 1000;
		p->ok_urls++;
	}
	if (!p->pending && p->cur_b >= 0)
		s_boundary_done(s);
}

/* ---- results ---- */

static int s_window(const struct bc_counter_src *s, struct bc_hostfig *out, const char **names)
{
	const struct s_prom *p = s->priv;
	struct bc_hostfig_opts o = {p->nic[0] ? p->nic : NULL, p->custom_rate,
				    p->members[0] ? p->members : NULL};
	uint32_t k, n = 0;
	double mem = 0, load = 0, cust[BC_HF_CUSTOM] = {0};
	int i, nmem = 0, nload = 0, ncust[BC_HF_CUSTOM] = {0};

	if (!p->active || p->win0_b < 0 || p->prev_b <= p->win0_b ||
	    bc_hostfig_compute(&p->win0, &p->prev, &o, out))
		return -ENODATA;
	/* gauges: the mean of the window's seconds, not the last value */
	for (k = p->st.ramp_s; k < p->st.seconds; k++) {
		if (!p->sec_ok[k])
			continue;
		n++;
		if (!isnan(p->secs[k].mem_used))
			mem += p->secs[k].mem_used, nmem++;
		if (!isnan(p->secs[k].load1))
			load += p->secs[k].load1, nload++;
		for (i = 0; i < p->ncustom; i++)
			if (!p->custom_rate[i] && !isnan(p->secs[k].custom[i]))
				cust[i] += p->secs[k].custom[i], ncust[i]++;
	}
	out->mem_used = nmem ? mem / nmem : out->mem_used;
	out->load1 = nload ? load / nload : out->load1;
	for (i = 0; i < p->ncustom; i++) {
		if (!p->custom_rate[i])
			out->custom[i] = ncust[i] ? cust[i] / ncust[i] : out->custom[i];
		if (names)
			names[i] = p->custom[i].name;
	}
	return 0;
}

static cJSON *s_series(const struct s_prom *p, double (*get)(const struct bc_hostfig *, int, int),
		       int a, int b)
{
	cJSON *arr = cJSON_CreateArray();
	uint32_t k;

	for (k = 0; k < p->st.seconds; k++)
		cJSON_AddItemToArray(arr,
				     bc_hostfig_num(p->sec_ok[k] ? get(&p->secs[k], a, b) : NAN));
	return arr;
}

static double s_get_field(const struct bc_hostfig *f, int field, int unused)
{
	return bc_hostfig_get(f, field);
}

static double s_get_custom(const struct bc_hostfig *f, int i, int unused)
{
	return f->custom[i];
}

/* per-interface and per-disk figures by name: the table index can differ per second */
static double s_get_nic(const struct bc_hostfig *f, int idx, int what)
{
	return what ? f->nics[idx].rx_bps * 1e-6 : f->nics[idx].tx_bps * 1e-6;
}

static cJSON *s_named_series(const struct s_prom *p, const char *name, bool disk, int what)
{
	cJSON *arr = cJSON_CreateArray();
	uint32_t k;
	int i;

	for (k = 0; k < p->st.seconds; k++) {
		const struct bc_hostfig *f = &p->secs[k];
		double v = NAN;

		for (i = 0; p->sec_ok[k] && !disk && i < f->nnics; i++)
			if (!strcmp(f->nics[i].name, name))
				v = s_get_nic(f, i, what);
		for (i = 0; p->sec_ok[k] && disk && i < f->ndisks; i++)
			if (!strcmp(f->disks[i].name, name))
				v = what == 0	? f->disks[i].read_bps * 1e-6
				    : what == 1 ? f->disks[i].write_bps * 1e-6
						: f->disks[i].util * 100;
		cJSON_AddItemToArray(arr, bc_hostfig_num(v));
	}
	return arr;
}

static void s_step_json(struct bc_counter_src *s, cJSON *o)
{
	struct s_prom *p = s->priv;
	struct bc_hostfig *w = malloc(sizeof(*w));
	cJSON *win, *ser, *miss, *ifs, *x, *urls;
	uint32_t k;
	int i;

	if (!w)
		return;
	urls = cJSON_AddArrayToObject(o, "metrics");
	for (i = 0; i < p->nurls; i++)
		cJSON_AddItemToArray(urls, cJSON_CreateString(p->urls[i].url));
	x = cJSON_AddObjectToObject(o, "scrapes");
	cJSON_AddNumberToObject(x, "ok", p->ok);
	cJSON_AddNumberToObject(x, "failed", p->failed);
	if (p->parse.bad)
		cJSON_AddNumberToObject(x, "unreadable_lines", p->parse.bad);
	if (p->last_error[0])
		cJSON_AddStringToObject(x, "last_error", p->last_error);
	/* a step taken up after a coordinator gap: the seconds nobody sampled */
	s_gaps_json(p, o);
	if (!s_window(s, w, NULL)) {
		cJSON_AddItemToObject(o, "link_mbps", bc_hostfig_num(w->link_bps * 1e-6));
		ifs = cJSON_AddArrayToObject(o, "interfaces");
		for (i = 0; i < w->nnics; i++)
			if (w->nics[i].counted)
				cJSON_AddItemToArray(ifs, cJSON_CreateString(w->nics[i].name));
		win = bc_hostfig_json(w, true);
		cJSON_AddNumberToObject(win, "from_second", (double)p->win0_b);
		cJSON_AddNumberToObject(win, "to_second", (double)p->prev_b);
		cJSON_AddItemToObject(o, "window", win);
	}
	ser = cJSON_AddObjectToObject(o, "series");
	for (i = 0; i < bc_hostfig_nfields; i++)
		cJSON_AddItemToObject(ser, bc_hostfig_fields[i].key,
				      s_series(p, s_get_field, i, 0));
	miss = cJSON_AddArrayToObject(o, "missing_seconds");
	for (k = 0; k < p->st.seconds; k++)
		if (!p->sec_ok[k])
			cJSON_AddItemToArray(miss, cJSON_CreateNumber(k));
	/* per interface and disk: those the window saw, series by name */
	if (!s_window(s, w, NULL)) {
		ifs = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(o, "window"), "nics");
		cJSON_ArrayForEach(x, ifs)
		{
			cJSON *sr = cJSON_AddObjectToObject(x, "series");

			cJSON_AddItemToObject(sr, "tx_mbps",
					      s_named_series(p, x->string, false, 0));
			cJSON_AddItemToObject(sr, "rx_mbps",
					      s_named_series(p, x->string, false, 1));
		}
		ifs = cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(o, "window"), "disks");
		cJSON_ArrayForEach(x, ifs)
		{
			cJSON *sr = cJSON_AddObjectToObject(x, "series");

			cJSON_AddItemToObject(sr, "read_mbps",
					      s_named_series(p, x->string, true, 0));
			cJSON_AddItemToObject(sr, "write_mbps",
					      s_named_series(p, x->string, true, 1));
			cJSON_AddItemToObject(sr, "util_pct",
					      s_named_series(p, x->string, true, 2));
		}
	}
	x = bc_nodefacts_json(&p->facts);
	if (x)
		cJSON_AddItemToObject(o, "facts", x);
	x = p->ncustom ? cJSON_AddObjectToObject(o, "custom") : NULL;
	for (i = 0; i < p->ncustom; i++) {
		cJSON *c = cJSON_AddObjectToObject(x, p->custom[i].name);

		cJSON_AddStringToObject(c, "metric", p->custom[i].metric);
		cJSON_AddBoolToObject(c, "rate", p->custom_rate[i]);
		if (!s_window(s, w, NULL))
			cJSON_AddItemToObject(c, "window", bc_hostfig_num(w->custom[i]));
		cJSON_AddItemToObject(c, "series", s_series(p, s_get_custom, i, 0));
	}
	free(w);
}

/*
 * Parse one page into snap as a scrape would, with the node's "nic" and
 * "series" (node may be NULL): the unit test's door to the mapping above.
 */
int bc_counter_prom_parse(const char *text, size_t len, const cJSON *node, struct bc_hostsnap *snap,
			  struct bc_nodefacts *facts, struct bc_prom_stats *st)
{
	struct bc_nodefacts none;
	struct bc_profile prof = {0};
	struct bc_node_spec spec = {.name = "test", .json = (cJSON *)node};
	struct bc_counter_shared shared = {0};
	struct bc_counter_src src = {.prof = &prof, .node = 0, .shared = &shared};
	cJSON *stub = NULL;
	char err[256];
	int rc;

	prof.nodes = &spec;
	prof.nnodes = 1;
	if (!node || !cJSON_GetObjectItemCaseSensitive(node, "metrics")) {
		stub = node ? cJSON_Duplicate(node, 1) : cJSON_CreateObject();
		cJSON_AddItemToObject(
		    stub, "metrics",
		    cJSON_CreateStringArray((const char *[]){"http://127.0.0.1/"}, 1));
		node = stub;
	}
	rc = s_open(&src, node, err, sizeof(err));
	if (!rc) {
		struct s_prom *p = src.priv;
		struct s_parse_ctx ctx = {p, snap, facts ? facts : &none};

		bc_hostsnap_reset(snap);
		snap->ncustom = p->ncustom;
		bc_nodefacts_init(ctx.facts);
		rc = bc_prom_parse(text, len, s_want, s_on_sample, &ctx, st);
		s_close(&src);
	}
	cJSON_Delete(stub);
	return rc;
}

static int s_ctl(struct bc_counter_src *s, int op, void *arg)
{
	struct s_prom *p = s->priv;

	if (op == BC_CCTL_STEP_END) {
		/* the boundaries after the new end are never sampled */
		if (*(const uint32_t *)arg < p->st.seconds)
			p->st.seconds = *(const uint32_t *)arg;
		return 0;
	}
	if (op == BC_CCTL_SAMPLE)
		return s_sample(s, arg);
	if (op == BC_CCTL_STEP_FROM) {
		p->st.from_b = *(const uint32_t *)arg;
		p->next_b = p->st.from_b;
		return 0;
	}
	if (op == BC_CCTL_FACTS) {
		if (!p->facts.any)
			return -ENODATA;
		*(struct bc_nodefacts *)arg = p->facts;
		return 0;
	}
	return bc_counter_http_ctl(&p->http, s, &s_sched, op, arg);
}

const struct bc_counter_ops bc_counter_prom_ops = {
    .version = BC_COUNTER_OPS_VERSION,
    .name = "prom-text",
    .open = s_open,
    .ctl = s_ctl,
    .step_json = s_step_json,
    .window = s_window,
    .close = s_close,
};
