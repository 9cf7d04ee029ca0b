/*
 * target/target.h - opening a volume for a step through the target that takes
 * its path (the plug-ins: target/ops.h, registered in target.c's table),
 * and the questions the rest of the agent asks of a path before or without
 * opening it: which target claims it, what it is, which safety rules apply.
 */
#ifndef BC_TARGET_TARGET_H
#define BC_TARGET_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "profile/profile.h"
#include "target/devinfo.h"
#include "target/ops.h"

/*
 * Open a volume: probe it, pick the target by the path's kind or the name
 * it claims, let it check the spec, open it, apply the window
 * (offset/length from the spec, clipped to the size; an empty window or a
 * window smaller than bs is an error). On failure returns -errno and a
 * message that names the path. A missing or smaller regular file is
 * created/extended to spec->size_bytes (fallocate, else ftruncate). The
 * window is aligned to max(lbs, 512). spec may be NULL (whole volume, no
 * create). t is closed (fd -1) on failure. bc_target_close is idempotent.
 * Writes to devices are not refused here: the PREPARE gate (bc_safety_check,
 * with bc_target_safety's rules) decides them.
 */
int bc_target_open(struct bc_target *t, const char *path, const struct bc_volume_spec *spec,
		   const struct bc_workload *wl, char *err, size_t errlen);
void bc_target_close(struct bc_target *t);
/*
 * bc_target_open's checks without its effects (the pre-flight, CHECK): the
 * same probe, refusals and window, with the same messages, but nothing is
 * created, extended or opened for writing (files are opened read-only,
 * NVMe passthrough and simulated SSDs not at all). Returns 0 or -errno.
 */
int bc_target_check(const char *path, const struct bc_volume_spec *spec,
		    const struct bc_workload *wl, char *err, size_t errlen);

/* the target that claims path by name ("null", "sim:NAME"), NULL for a real path */
const struct bc_target_ops *bc_target_pseudo(const char *path);

/* the registered target called name ("file", "nvme", "null", "sim"), NULL if none */
const struct bc_target_ops *bc_target_ops_find(const char *name);

/*
 * Registration's check of one ops table (fio's check_engine_ops): its
 * version is BC_TARGET_OPS_VERSION and it has open, close, prep and
 * control, and probe when it claims names. 0, or -ENOTSUP with a message
 * naming the target.
 */
int bc_target_ops_check(const struct bc_target_ops *ops, char *err, size_t errlen);

/*
 * What path is without opening it for I/O: a claimed name through its
 * target's probe, a real path through bc_devinfo_probe. *kind (may be NULL)
 * gets the kind's name as READY and HELLO_OK report it. 0 or -errno.
 */
int bc_target_probe(const char *path, struct bc_devinfo *di, const char **kind);

/* an open target's kind as READY reports it: "file", "block", ..., or its target's name */
const char *bc_target_kind(const struct bc_target *t);

/*
 * The safety rules (BC_TSAFE_*) path must pass: a claimed name's target
 * says; a real path gets every rule a real-path target declares, because
 * the gate runs before the probe that would open a device.
 */
unsigned bc_target_safety(const char *path);

#endif
