/*
 * counters/http.h - the HTTP transport of the counter sources that speak
 * HTTP (counters/prom.c, counters/promql.c): every transfer of a run goes
 * through one libcurl multi handle that those sources share (a slot of the
 * run's bc_counter_shared), so nothing blocks: a slow or dead node costs its
 * own missing seconds, never the run. Not a source itself: sources that do
 * not use HTTP never touch it, and counters.c does not know it.
 */
#ifndef BC_COUNTERS_HTTP_H
#define BC_COUNTERS_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "counters/ops.h"

struct bc_counter_http; /* the run's multi handle */

/* a growable response body */
struct bc_counter_buf {
	char *data;
	size_t len, cap;
};
/* CURLOPT_WRITEFUNCTION for a bc_counter_buf (CURLOPT_WRITEDATA); caps at 64 MiB */
size_t bc_counter_buf_write(char *ptr, size_t size, size_t n, void *buf);

/* one source's use of the transport: its transfers and where they end */
struct bc_counter_http_client {
	struct bc_counter_http *http;
	struct bc_counter_src *src;
	/* a transfer of src finished: remove it (bc_counter_http_remove) and read it */
	void (*done)(struct bc_counter_src *s, CURL *easy, CURLcode result);
	int inflight; /* its transfers in the multi handle */
};

/*
 * Join the run's transport (made by the first source that joins:
 * curl_global_init then, which bc_counters_new runs before any thread).
 * 0 or -ENOMEM. Each open is paired with a close; the last close frees it.
 */
int bc_counter_http_open(struct bc_counter_http_client *c, struct bc_counter_src *s,
			 void (*done)(struct bc_counter_src *, CURL *, CURLcode));
void bc_counter_http_close(struct bc_counter_http_client *c);

/* a configured easy handle of c for url with the common options; NULL without memory */
CURL *bc_counter_http_easy(struct bc_counter_http_client *c, const char *url,
			   struct bc_counter_buf *b, long timeout_ms);
/* add / finish an easy handle of c in the shared multi handle */
int bc_counter_http_add(struct bc_counter_http_client *c, CURL *easy);
void bc_counter_http_remove(struct bc_counter_http_client *c, CURL *easy);
/* run the transfers of every client and hand the finished ones to their done; never waits */
void bc_counter_http_collect(struct bc_counter_http_client *c);
/* sleep up to timeout_ms on the transport's sockets (curl_multi_poll) */
void bc_counter_http_wait(struct bc_counter_http_client *c, int timeout_ms);
/* what an HTTP source that polls on a timeline schedules itself */
struct bc_counter_http_sched {
	void (*step_begin)(struct bc_counter_src *s, const struct bc_counter_step *st);
	void (*start)(struct bc_counter_src *s, uint64_t now); /* the transfers due at now */
	uint64_t (*next_due)(const struct bc_counter_src *s);
	bool (*step_done)(const struct bc_counter_src *s);
};

/*
 * The control call (bc_counter_ops.ctl) of such a source s whose transfers
 * are c's: its schedule for STEP_BEGIN, NEXT_DUE and STEP_DONE; the
 * transport for TICK (collect, start what is due, collect), BUSY and WAIT.
 */
int bc_counter_http_ctl(struct bc_counter_http_client *c, struct bc_counter_src *s,
			const struct bc_counter_http_sched *sched, int op, void *arg);

/* "HTTP 404", "timeout after 800 ms", ... for a finished transfer; returns buf */
const char *bc_counter_http_error(CURL *easy, CURLcode rc, char *buf, size_t len);

#endif
