/*
 * session/orphan.h - a step that outlives its coordinator (orphan.c). PREPARE's
 * "orphan_grace_ms" (the profile's "orphan_grace") lets the step's load run on
 * through that much coordinator silence instead of the dead-man switch's 5 s;
 * every message of the step is kept meanwhile (session/replay.h), so that a
 * resumed coordinator (bench-coord run --resume) HELLOs with "resume", takes
 * the session over, and sends REATTACH {step, from}: the agent sends again
 * every record of second `from` on, then goes on as before. Past the grace,
 * or when the ring is full, the agent stops all I/O as the dead-man switch does.
 */
#ifndef BC_SESSION_ORPHAN_H
#define BC_SESSION_ORPHAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "session/agent.h"

/* the longest "orphan_grace_ms" an agent accepts (1 h), and the ring's largest size */
#define BC_ORPHAN_GRACE_MAX_MS (3600u * 1000u)
#define BC_ORPHAN_RING_MAX     ((size_t)1 << 30)

/*
 * PREPARE, once the volumes are open: the step's grace from body and its
 * ring. 0, or -errno with the reason in err (a grace out of range, a ring
 * larger than BC_ORPHAN_RING_MAX or that cannot be allocated)
 */
int bc_orphan_prepare(struct bc_agent *a, const cJSON *body, char *err, size_t errlen);
/* START: the step the ring's records belong to */
void bc_orphan_start(struct bc_agent *a);
/*
 * one message of the running step, kept and sent (unless a resumed
 * coordinator has yet to ask for it); `second`: its interval, BC_STATS_DRAIN
 * for the drain and STEP_DONE. 0, the send's -errno, or -ENOSPC when the
 * ring is full (a->orphan.overflow set: the session ends at the next tick)
 */
int bc_orphan_send(struct bc_agent *a, enum bc_msg_type t, uint32_t second, const void *body,
		   size_t len);
/* STEP_DONE was sent: the step's records are held until the coordinator speaks again */
void bc_orphan_step_done(struct bc_agent *a);
/* a message from the session's coordinator: it hears what is sent from here on */
void bc_orphan_heard(struct bc_agent *a);
/* each tick: what the coordinator has surely received may leave the ring */
void bc_orphan_tick(struct bc_agent *a);
/* the coordinator silence the session survives now, ms */
uint32_t bc_orphan_limit_ms(const struct bc_agent *a);
/* the oldest second the ring holds (0 when empty) */
uint32_t bc_orphan_oldest(const struct bc_agent *a);
/* the step's records wait for a coordinator (running, or ended and held) */
bool bc_orphan_holds(const struct bc_agent *a);
/*
 * HELLO from another peer while a session is owned: true when it resumes
 * this session's step (same step and start, same coordinator key, the owner
 * silent): the caller makes it the owner; *why says otherwise
 */
bool bc_orphan_may_take(const struct bc_agent *a, const cJSON *hello, const char *key,
			const char **why);
/* HELLO_OK's "reattach" of a session just taken over (the records held) */
cJSON *bc_orphan_hello_json(const struct bc_agent *a);
/* REATTACH {step, from}: send the records of seconds >= from again, then go on */
void bc_orphan_reattach(struct bc_agent *a, const cJSON *body);
/* drop the ring (the next PREPARE, ABORT, the end of the session) */
void bc_orphan_free(struct bc_agent *a);
/* the step is stopped for its silent coordinator (why: the grace ran out, the buffer filled) */
void bc_orphan_note_end(struct bc_agent *a, const char *why);
/*
 * HELLO_OK's "orphan_end" for a HELLO whose "resume" names the step this
 * agent stopped so: {step, stopped_at, kept_from, silent_ms, reason}; NULL
 * for any other HELLO
 */
cJSON *bc_orphan_end_json(const struct bc_agent *a, const cJSON *hello);

#endif
