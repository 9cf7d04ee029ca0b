/*
 * counters/http.c - the HTTP transport the HTTP counter sources share (see
 * counters/http.h): the run's one libcurl multi handle, kept in a slot of
 * the run's bc_counter_shared and counted by the sources that joined it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters/http.h"

/* a response larger than this is not a metrics page (node_exporter: ~0.1-2 MB) */
#define S_BODY_MAX (64u << 20)

struct bc_counter_http {
	CURLM *multi;
	int refs; /* clients that joined */
};

/* the slot key: this file's own address space */
static const char s_key;

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

/* the slot holding the run's transport, or a free one (key NULL), or NULL when full */
static int s_slot(struct bc_counter_shared *sh)
{
	int i, free_i = -1;

	for (i = 0; i < BC_COUNTER_SHARED_MAX; i++) {
		if (sh->key[i] == &s_key)
			return i;
		if (!sh->key[i] && free_i < 0)
			free_i = i;
	}
	return free_i;
}

int bc_counter_http_open(struct bc_counter_http_client *c, struct bc_counter_src *s,
			 void (*done)(struct bc_counter_src *, CURL *, CURLcode))
{
	struct bc_counter_http *h;
	int i = s->shared ? s_slot(s->shared) : -1;

	memset(c, 0, sizeof(*c));
	if (i < 0)
		return -ENOMEM;
	h = s->shared->ptr[i];
	if (!h) {
		/* 7.88 documents curl_global_init as not thread-safe: the run's start has no
		 * threads yet */
		if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
			return -ENOMEM;
		h = calloc(1, sizeof(*h));
		if (!h)
			return -ENOMEM;
		h->multi = curl_multi_init();
		if (!h->multi) {
			free(h);
			return -ENOMEM;
		}
		s->shared->key[i] = &s_key;
		s->shared->ptr[i] = h;
	}
	h->refs++;
	c->http = h;
	c->src = s;
	c->done = done;
	return 0;
}

void bc_counter_http_close(struct bc_counter_http_client *c)
{
	struct bc_counter_shared *sh = c->src ? c->src->shared : NULL;
	struct bc_counter_http *h = c->http;
	int i;

	if (!h)
		return;
	c->http = NULL;
	if (--h->refs > 0)
		return;
	curl_multi_cleanup(h->multi);
	free(h);
	for (i = 0; sh && i < BC_COUNTER_SHARED_MAX; i++)
		if (sh->key[i] == &s_key) {
			sh->key[i] = NULL;
			sh->ptr[i] = NULL;
		}
}

CURL *bc_counter_http_easy(struct bc_counter_http_client *c, const char *url,
			   struct bc_counter_buf *b, long timeout_ms)
{
	CURL *e = curl_easy_init();

	if (!e)
		return NULL;
	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_PRIVATE, c);
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

int bc_counter_http_add(struct bc_counter_http_client *c, CURL *easy)
{
	CURLMcode rc = curl_multi_add_handle(c->http->multi, easy);

	if (rc != CURLM_OK)
		return rc == CURLM_OUT_OF_MEMORY ? -ENOMEM : -EINVAL;
	c->inflight++;
	return 0;
}

void bc_counter_http_remove(struct bc_counter_http_client *c, CURL *easy)
{
	if (c->http && curl_multi_remove_handle(c->http->multi, easy) == CURLM_OK &&
	    c->inflight > 0)
		c->inflight--;
}

void bc_counter_http_collect(struct bc_counter_http_client *c)
{
	struct CURLMsg *m;
	int running = 0, left = 0;

	curl_multi_perform(c->http->multi, &running);
	while ((m = curl_multi_info_read(c->http->multi, &left))) {
		struct bc_counter_http_client *owner = NULL;

		if (m->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, (char **)&owner);
		if (owner)
			owner->done(owner->src, m->easy_handle, m->data.result);
	}
}

void bc_counter_http_wait(struct bc_counter_http_client *c, int timeout_ms)
{
	curl_multi_poll(c->http->multi, NULL, 0, timeout_ms, NULL);
}

int bc_counter_http_ctl(struct bc_counter_http_client *c, struct bc_counter_src *s,
			const struct bc_counter_http_sched *sched, int op, void *arg)
{
	switch (op) {
	case BC_CCTL_STEP_BEGIN:
		sched->step_begin(s, arg);
		return 0;
	case BC_CCTL_TICK:
		/* finish what completed first: a boundary's transfer starts only then */
		bc_counter_http_collect(c);
		sched->start(s, *(const uint64_t *)arg);
		bc_counter_http_collect(c);
		return 0;
	case BC_CCTL_NEXT_DUE:
		*(uint64_t *)arg = sched->next_due(s);
		return 0;
	case BC_CCTL_BUSY:
		return c->inflight > 0;
	case BC_CCTL_STEP_DONE:
		return sched->step_done(s);
	case BC_CCTL_WAIT:
		bc_counter_http_wait(c, *(const int *)arg);
		return 0;
	default:
		return -ENOTSUP;
	}
}

const char *bc_counter_http_error(CURL *easy, CURLcode rc, char *buf, size_t len)
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
