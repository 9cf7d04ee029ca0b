/*
 * session/backed.h - the data behind each volume, PREPARE's part (backed.c):
 *  - a file this session created or extended is laid out (engine/layout.h)
 *    before the first step that reads it, once per session: PREPARE then
 *    completes in the control loop, which sends PROGRESS once a second
 *    while a layout thread writes;
 *  - READY says, per volume a step reads, what backs its window
 *    (target/backing.h): the unwritten and hole bytes of a file, what a block
 *    device reports of deallocated blocks when no sequential pass of this
 *    session wrote its window; and the layout's bytes and seconds;
 *  - CHECK (the pre-flight) says the same of existing files and devices,
 *    and which files PREPARE would create or extend and lay out.
 */
#ifndef BC_SESSION_BACKED_H
#define BC_SESSION_BACKED_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "session/agent.h"

/*
 * After the volumes are opened: plan and start the layout of the files this
 * session made that the step reads ("layout": false in a volume of vols
 * leaves it as it is). 0: nothing to lay out; 1: the layout runs, PREPARE
 * completes when bc_backed_poll says so; -errno with err.
 */
int bc_backed_prepare(struct bc_agent *a, const cJSON *vols, char *err, size_t errlen);

/*
 * Each control-loop tick while a layout runs: PROGRESS once a second. 1:
 * still writing; 0: done, the files are laid out; -errno with err.
 */
int bc_backed_poll(struct bc_agent *a, char *err, size_t errlen);

/* READY's volumes[i].backing and "layout" (the volumes laid out, bytes and seconds) */
void bc_backed_ready_json(struct bc_agent *a, cJSON *ready);

/* at STEP_DONE: a sequential write pass that covered a block device's window wrote it */
void bc_backed_step_done(struct bc_agent *a);

/*
 * CHECK: what backs volume path's window [offset, offset + length) (length 0:
 * to the end) for a step that reads, and what PREPARE would do about it
 * (size: the volume's "size", a file is created or extended to it). NULL
 * when there is nothing to say (no read, nothing behind the path).
 */
cJSON *bc_backed_check_json(struct bc_agent *a, const char *path, uint64_t size, uint64_t offset,
			    uint64_t length, bool layout);

/* the session's made files and written windows, forgotten (session end) */
void bc_backed_forget(struct bc_agent *a);

#endif
