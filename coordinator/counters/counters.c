/*
 * counters.c - the node counter sources of a run behind one libcurl multi
 * handle: builds a source per (node, source kind) configured in the profile,
 * drives them from the coordinator's loop without blocking and gathers
 * their step JSON per node. The sources themselves are counter_*.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bc_clock.h"
#include "bc_counter.h"

/* a response larger than this is not a metrics page (node_exporter: ~0.1-2 MB) */
#define S_BODY_MAX (64u << 20)

static const struct bc_counter_ops *const s_kinds[] = {
    &bc_counter_prom_ops,
    &bc_counter_promql_ops,
};
#define S_NKINDS (int)(sizeof(s_kinds) / sizeof(s_kinds[0]))

struct bc_counters {
	const struct bc_profile *prof;
	CURLM *multi;
	struct bc_counter_src *srcs;
	int nsrcs;
};

size_t bc_counter_buf_write(char *ptr, size_t size, size_t n, void *arg)
{
	struct bc_counter_buf *b = arg;
	size_t add = size * n;

	if (b->len + add + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *grown;

		while (cap < b->len + add + 1)
			cap *= 2;
		if (cap > S_BODY_MAX)
			return 0; /* curl fails the transfer with CURLE_WRITE_ERROR */
		grown = realloc(b->data, cap);
		if (!grown)
			return 0;
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->len, ptr, add);
	b->len += add;
	b->data[b->len] = '\0';
	return add;
}

CURL *bc_counter_easy(const char *url, struct bc_counter_src *s, struct bc_counter_buf *b,
		      long timeout_ms)
{
	CURL *e = curl_easy_init();

	if (!e)
		return NULL;
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, s);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, bc_counter_buf_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, b);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, timeout_ms);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
	/* no SIGALRM for DNS timeouts: the coordinator has its own signal handling */
	curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
	/* gzip when the server offers it: a 1 MB page every second per node adds up */
	curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
	curl_easy_setopt(e, CURLOPT_USERAGENT, "bench-coord/" BC_VERSION);
	return e;
}

int bc_counter_add(struct bc_counter_src *s, CURL *easy)
{
	CURLMcode rc = curl_multi_add_handle(s->multi, easy);

	if (rc != CURLM_OK)
		return rc == CURLM_OUT_OF_MEMORY ? -ENOMEM : -EINVAL;
	s->inflight++;
	return 0;
}

void bc_counter_remove(struct bc_counter_src *s, CURL *easy)
{
	if (curl_multi_remove_handle(s->multi, easy) == CURLM_OK && s->inflight > 0)
		s->inflight--;
}

const char *bc_counter_xfer_error(CURL *easy, CURLcode rc, char *buf, size_t len)
{
	long code = 0;

	if (rc == CURLE_OK) {
		curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &code);
		snprintf(buf, len, "HTTP %ld", code);
	} else {
		snprintf(buf, len, "%s", curl_easy_strerror(rc));
	}
	return buf;
}

struct bc_counters *bc_counters_new(const struct bc_profile *p, char *err, size_t errlen)
{
	struct bc_counters *c = calloc(1, sizeof(*c));
	int i, k, rc;

	if (err && errlen)
		err[0] = '\0';
	if (!c)
		goto nomem;
	c->prof = p;
	/* 7.88 documents curl_global_init as not thread-safe: it runs here, before any thread */
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		goto nomem;
	c->multi = curl_multi_init();
	c->srcs = calloc((size_t)p->nnodes * S_NKINDS + 1, sizeof(*c->srcs));
	if (!c->multi || !c->srcs)
		goto nomem;
	for (i = 0; i < p->nnodes; i++) {
		for (k = 0; k < S_NKINDS; k++) {
			struct bc_counter_src *s = &c->srcs[c->nsrcs];

			if (!p->nodes[i].json)
				continue;
			memset(s, 0, sizeof(*s));
			s->ops = s_kinds[k];
			s->prof = p;
			s->node = i;
			s->multi = c->multi;
			rc = s->ops->open(s, p->nodes[i].json, err, errlen);
			if (rc == -ENOENT)
				continue;
			if (rc)
				goto fail;
			c->nsrcs++;
		}
	}
	return c;
nomem:
	if (err && errlen)
		snprintf(err, errlen, "node counters: out of memory");
fail:
	bc_counters_destroy(&c);
	return NULL;
}

void bc_counters_destroy(struct bc_counters **cp)
{
	struct bc_counters *c = cp ? *cp : NULL;
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->close(&c->srcs[i]);
	if (c->multi)
		curl_multi_cleanup(c->multi);
	free(c->srcs);
	free(c);
	*cp = NULL;
}

bool bc_counters_active(const struct bc_counters *c)
{
	return c && c->nsrcs > 0;
}

void bc_counters_step_begin(struct bc_counters *c, uint64_t start_real_ns, uint32_t seconds,
			    uint32_t ramp_s)
{
	struct bc_counter_step st = {start_real_ns, seconds, ramp_s};
	int i;

	if (!c)
		return;
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->step_begin(&c->srcs[i], &st);
}

static void s_collect(struct bc_counters *c)
{
	struct CURLMsg *m;
	int running = 0, left = 0;

	curl_multi_perform(c->multi, &running);
	while ((m = curl_multi_info_read(c->multi, &left))) {
		struct bc_counter_src *s = NULL;

		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&s);
		if (s)
			s->ops->poll(s, m->easy_handle, m->data.result);
	}
}

void bc_counters_tick(struct bc_counters *c, uint64_t now_real_ns)
{
	int i;

	if (!bc_counters_active(c))
		return;
	s_collect(c); /* finish what completed first: a source starts its next scrape only then */
	for (i = 0; i < c->nsrcs; i++)
		c->srcs[i].ops->start_scrape(&c->srcs[i], now_real_ns);
	s_collect(c);
}

int bc_counters_timeout_ms(const struct bc_counters *c, uint64_t now_real_ns)
{
	uint64_t due = UINT64_MAX;
	bool busy = false;
	int i;

	if (!bc_counters_active(c))
		return -1;
	for (i = 0; i < c->nsrcs; i++) {
		uint64_t d = c->srcs[i].ops->next_due(&c->srcs[i]);

		due = d < due ? d : due;
		busy = busy || c->srcs[i].inflight;
	}
	if (due == UINT64_MAX)
		return busy ? 10 : -1;
	if (due <= now_real_ns)
		return 0;
	due = (due - now_real_ns + BC_NS_PER_MS - 1) / BC_NS_PER_MS;
	/* transfers in flight are read at ticks: keep ticking while they run */
	return busy && due > 10 ? 10 : (int)due;
}

bool bc_counters_step_done(const struct bc_counters *c)
{
	int i;

	if (!bc_counters_active(c))
		return true;
	for (i = 0; i < c->nsrcs; i++)
		if (!c->srcs[i].ops->step_done(&c->srcs[i]))
			return false;
	return true;
}

int bc_counters_step_finish(struct bc_counters *c, int timeout_ms)
{
	uint64_t end = bc_mono_ns() + (uint64_t)timeout_ms * BC_NS_PER_MS;

	while (!bc_counters_step_done(c)) {
		int t;

		if (bc_mono_ns() >= end)
			return -ETIMEDOUT;
		bc_counters_tick(c, bc_real_ns());
		t = bc_counters_timeout_ms(c, bc_real_ns());
		if (t < 0 || t > 10)
			t = 10;
		/* sleep on curl's sockets, so a response is read as soon as it lands */
		curl_multi_poll(c->multi, NULL, 0, t, NULL);
	}
	return 0;
}

cJSON *bc_counters_node_json(struct bc_counters *c, int node)
{
	cJSON *o = NULL, *kinds = NULL;
	int i;

	if (!c)
		return NULL;
	for (i = 0; i < c->nsrcs; i++) {
		struct bc_counter_src *s = &c->srcs[i];

		if (s->node != node)
			continue;
		if (!o) {
			o = cJSON_CreateObject();
			kinds = cJSON_AddArrayToObject(o, "sources");
		}
		cJSON_AddItemToArray(kinds, cJSON_CreateString(s->ops->name));
		s->ops->step_json(s, o);
	}
	return o;
}

cJSON *bc_counters_step_json(struct bc_counters *c)
{
	cJSON *o = cJSON_CreateObject();
	int i;

	for (i = 0; c && o && i < c->prof->nnodes; i++) {
		cJSON *n = bc_counters_node_json(c, i);

		if (n)
			cJSON_AddItemToObject(o, c->prof->nodes[i].name, n);
	}
	return o;
}

/* fill what a lacks from b: fixed figures it has not, and b's custom series after a's */
static void s_merge(struct bc_hostfig *a, const char **an, const struct bc_hostfig *b,
		    const char *const *bn)
{
	int i;

	for (i = 0; i < bc_hostfig_nfields; i++) {
		double *d = (double *)((char *)a + bc_hostfig_fields[i].off);

		if (isnan(*d))
			*d = *(const double *)((const char *)b + bc_hostfig_fields[i].off);
	}
	for (i = 0; i < b->ncustom && a->ncustom < BC_HF_CUSTOM; i++) {
		if (an)
			an[a->ncustom] = bn[i];
		a->custom[a->ncustom++] = b->custom[i];
	}
}

int bc_counters_node_hostfig(const struct bc_counters *c, int node, struct bc_hostfig *out,
			     const char **names)
{
	const char *tmp_names[BC_HF_CUSTOM] = {0}, *other_names[BC_HF_CUSTOM] = {0};
	struct bc_hostfig *other;
	bool have = false;
	int i, k;

	if (!c)
		return -ENODATA;
	other = malloc(sizeof(*other));
	if (!other)
		return -ENOMEM;
	/*
	 * Text endpoints first (exact deltas); PromQL (rate() over a window)
	 * fills what they lack and adds its custom series, e.g. a vendor's GC
	 * figures that only the Prometheus server sees.
	 */
	for (k = 0; k < S_NKINDS; k++)
		for (i = 0; i < c->nsrcs; i++) {
			const struct bc_counter_src *s = &c->srcs[i];

			if (s->node != node || s->ops != s_kinds[k])
				continue;
			if (!have && !s->ops->window(s, out, names ? names : tmp_names))
				have = true;
			else if (have && !s->ops->window(s, other, other_names))
				s_merge(out, names, other, other_names);
		}
	free(other);
	return have ? 0 : -ENODATA;
}
