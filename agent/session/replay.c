/*
 * session/replay.c - a step's records kept for a coordinator that comes back
 * (session/replay.h). The entries' bytes lie in one ring in the order they
 * were put, each whole (never split at the ring's end: an entry that does
 * not fit before the end starts at 0), so the free room is the gap between
 * the newest entry's end and the oldest's start.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session/replay.h"

/*
 * The budget of a second: a record of 4 KiB per volume (a second of 4k
 * random I/O is a few hundred bytes; wide latency histograms of a mixed
 * load stay under 2 KiB) and 16 KiB for the host sample (HOST, ~3-8 KiB)
 */
#define S_VOL_SECOND  4096
#define S_HOST_SECOND 16384
/* the drain, STEP_DONE (its JSON grows with the volumes) and slack */
#define S_END_BYTES(nvol) (65536 + (size_t)(nvol)*8192)

size_t bc_replay_bytes(uint32_t seconds, int nvol)
{
	return (size_t)seconds * ((size_t)nvol * S_VOL_SECOND + S_HOST_SECOND) + S_END_BYTES(nvol);
}

struct bc_replay *bc_replay_new(uint32_t seconds, int nvol, size_t cap)
{
	struct bc_replay *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cap = cap ? cap : bc_replay_bytes(seconds, nvol);
	/* two messages a second, the drain and STEP_DONE */
	r->ent_cap = 2 * seconds + 8;
	r->buf = malloc(r->cap);
	r->ent = calloc(r->ent_cap, sizeof(*r->ent));
	if (!r->buf || !r->ent) {
		bc_replay_free(&r);
		return NULL;
	}
	return r;
}

void bc_replay_free(struct bc_replay **r)
{
	if (!*r)
		return;
	free((*r)->buf);
	free((*r)->ent);
	free(*r);
	*r = NULL;
}

/* where len bytes fit now (0 when nothing is held), or -1 */
static long s_room(const struct bc_replay *r, size_t len)
{
	size_t start;

	if (!r->n)
		return len <= r->cap ? 0 : -1;
	start = r->ent[r->head].off;
	if (r->wr > start) {
		if (r->cap - r->wr >= len)
			return (long)r->wr;
		return start >= len ? 0 : -1;
	}
	/* wrapped: the gap from the newest entry's end to the oldest's start */
	return r->wr < start && start - r->wr >= len ? (long)r->wr : -1;
}

static int s_drop_oldest(struct bc_replay *r)
{
	const struct bc_replay_ent *e = &r->ent[r->head];

	if (!r->n || e->second >= r->keep_from)
		return -ENOSPC;
	if (e->second + 1 > r->dropped_to)
		r->dropped_to = e->second + 1;
	r->head = (r->head + 1) % r->ent_cap;
	r->n--;
	if (!r->n)
		r->wr = 0;
	return 0;
}

int bc_replay_put(struct bc_replay *r, uint32_t type, uint32_t second, const void *body, size_t len)
{
	struct bc_replay_ent *e;
	long at;

	if (len > r->cap)
		return -ENOSPC;
	while (r->n == r->ent_cap || (at = s_room(r, len)) < 0)
		if (s_drop_oldest(r))
			return -ENOSPC;
	e = &r->ent[(r->head + r->n) % r->ent_cap];
	e->second = second;
	e->type = type;
	e->off = (size_t)at;
	e->len = len;
	memcpy(r->buf + at, body, len);
	r->wr = (size_t)at + len;
	r->n++;
	return 0;
}

int bc_replay_has_from(const struct bc_replay *r, uint32_t from)
{
	return r->dropped_to <= from;
}

const struct bc_replay_ent *bc_replay_at(const struct bc_replay *r, uint32_t i,
					 const uint8_t **body)
{
	const struct bc_replay_ent *e = &r->ent[(r->head + i) % r->ent_cap];

	*body = r->buf + e->off;
	return e;
}
