/*
 * engine/sqeflags.h - what a workload puts on each SQE beside the target's
 * own encoding, as fio's io_uring engine does (engines/io_uring.c): an I/O
 * priority on every read and write (prio, prioclass), a share of them with
 * another (cmdprio_percentage, cmdprio_class, cmdprio), RWF_NOWAIT on reads
 * and writes (nowait), IOSQE_ASYNC on every Nth SQE (force_async). The
 * values are worked out once per job and volume (bc_sqe_extra_init); per
 * I/O it is a compare with a 32-bit draw and a counter, no syscall.
 */
#ifndef BC_ENGINE_SQEFLAGS_H
#define BC_ENGINE_SQEFLAGS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/uio.h>

#include <liburing.h>

#include "profile/workload/workload.h"

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

/* Linux's ioprio encoding (include/uapi/linux/ioprio.h): class << 13 | level */
#define BC_IOPRIO_CLASS_SHIFT 13
#define BC_IOPRIO_CLASS_BE    2

struct bc_sqe_extra {
	uint16_t prio;	     /* every read and write; 0: none (the thread's own) */
	uint16_t prio_hi;    /* cmdprio: instead of prio when a draw is below prio_below */
	uint32_t prio_below; /* cmdprio_pct of 2^32; 0: never */
	bool all;	     /* cmdprio_pct 100: every one */
	int rw_flags;	     /* RWF_NOWAIT */
	uint32_t async_every, async_n;
};

/*
 * The workload's SQE extras into x; false when it asks for none (the job
 * then never calls bc_sqe_extra_apply). fio's prio without prioclass is
 * class best-effort; cmdprio_class is rt, be or idle (Linux classes 1-3).
 */
static inline bool bc_sqe_extra_init(struct bc_sqe_extra *x, const struct bc_workload *wl)
{
	uint32_t cls = wl->ioprio_class;

	*x = (struct bc_sqe_extra){0};
	if (!cls && wl->ioprio)
		cls = BC_IOPRIO_CLASS_BE;
	if (cls)
		x->prio = (uint16_t)(cls << BC_IOPRIO_CLASS_SHIFT | wl->ioprio);
	if (wl->cmdprio_pct) {
		x->prio_hi =
		    (uint16_t)((wl->cmdprio_class + 1) << BC_IOPRIO_CLASS_SHIFT | wl->cmdprio);
		x->all = wl->cmdprio_pct >= 100;
		x->prio_below = (uint32_t)(((uint64_t)wl->cmdprio_pct << 32) / 100);
	}
	x->rw_flags = wl->nowait ? RWF_NOWAIT : 0;
	x->async_every = wl->force_async;
	return x->prio || x->prio_below || x->all || x->rw_flags || x->async_every;
}

/* onto an SQE the target prepared: rw says whether it is a read or write, draw a 32-bit draw */
static inline void bc_sqe_extra_apply(struct bc_sqe_extra *x, struct io_uring_sqe *sqe, bool rw,
				      uint32_t draw)
{
	if (rw) {
		sqe->ioprio = x->all || draw < x->prio_below ? x->prio_hi : x->prio;
		sqe->rw_flags |= x->rw_flags;
	}
	if (x->async_every && ++x->async_n == x->async_every) {
		x->async_n = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
}

#endif
