/*
 * session/replay.h - the records of a running step kept for a coordinator
 * that comes back (replay.c): every message of a second (STATS, HOST) and
 * the step's end (the drain record, STEP_DONE) as it was sent, in order, in
 * one byte ring allocated at PREPARE. An old second is dropped to make room
 * only when it lies before `keep_from` (the coordinator heard it long ago);
 * a record that would need a newer one dropped does not fit (-ENOSPC): the
 * agent says so and stops (control.c). No allocation after bc_replay_new.
 */
#ifndef BC_SESSION_REPLAY_H
#define BC_SESSION_REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct bc_replay_ent {
	uint32_t second; /* interval k; BC_STATS_DRAIN for the drain and STEP_DONE */
	uint32_t type;	 /* enum bc_msg_type */
	size_t off, len; /* in buf */
};

struct bc_replay {
	uint8_t *buf;
	size_t cap;
	struct bc_replay_ent *ent; /* ring of nent entries from head */
	uint32_t ent_cap, head, n;
	size_t wr;	     /* where the next entry's bytes go */
	uint32_t keep_from;  /* entries of seconds before it may be dropped */
	uint32_t dropped_to; /* 1 + the newest second dropped, 0: none */
};

/*
 * a ring for `seconds` seconds of nvol volumes (its budget: a generous
 * record per volume-second plus the host sample), bytes; NULL on ENOMEM.
 * cap: its bytes instead of that budget, 0: the budget (a test's small
 * ring, bench-agent --orphan-ring-kib)
 */
struct bc_replay *bc_replay_new(uint32_t seconds, int nvol, size_t cap);
/* the bytes bc_replay_new would allocate */
size_t bc_replay_bytes(uint32_t seconds, int nvol);
void bc_replay_free(struct bc_replay **r);
/* append one message; -ENOSPC when only dropping a second at or after keep_from makes room */
int bc_replay_put(struct bc_replay *r, uint32_t type, uint32_t second, const void *body,
		  size_t len);
/*
 * whether every entry of seconds >= from is still held (none dropped):
 * a coordinator that holds the seconds before it can be given the rest
 */
int bc_replay_has_from(const struct bc_replay *r, uint32_t from);
/* the i-th entry held, oldest first (i < r->n), its bytes in *body */
const struct bc_replay_ent *bc_replay_at(const struct bc_replay *r, uint32_t i,
					 const uint8_t **body);

#endif
