/*
 * session/volume.h - a volume path as the session sees it (volume.c): resolved
 * against the scratch directory, consented destructive by the profile, and
 * the safety gate its target's rules call for. Used by step.c (PREPARE,
 * CHECK) and hostinfo.c (HELLO_OK's path probes).
 */
#ifndef BC_SESSION_VOLUME_H
#define BC_SESSION_VOLUME_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "session/agent.h"

/*
 * Resolve a volume path against the scratch directory into out: absolute
 * paths and names a target claims ("null", "sim:NAME") stay as they are.
 * 0 or -ENAMETOOLONG.
 */
int bc_agent_resolve_path(const struct bc_agent *a, const char *path, char *out, size_t len);

/*
 * Whether a PREPARE volume (vol, resolved to path) may be destroyed as far
 * as the profile goes: its "destructive" key, or the session's list from
 * HELLO. The agent's own --allow-destructive is separate.
 */
bool bc_agent_volume_destructive(const struct bc_agent *a, const cJSON *vol, const char *path);

/*
 * The PREPARE gate for a file set's directory (a volume with "fileset"):
 * allowed (the scratch directory or the allowlist), and not the scratch
 * directory itself. Its files are judged one by one as the target opens
 * them (target/fileset.c). 0 or -errno with the message in err.
 */
int bc_agent_fileset_gate(const struct bc_agent *a, const char *path, char *err, size_t errlen);

/*
 * The PREPARE gate for a resolved path (bc_safety_check) with the rules its
 * target declares (bc_target_safety): none for a name with nothing behind
 * it, the allowlist, and for writes the device checks. 0 or -errno with the
 * message in err.
 */
int bc_agent_volume_gate(const struct bc_agent *a, const char *path, bool writes, bool destructive,
			 char *err, size_t errlen);

/*
 * The targets' opener (bc_target_set_opener): bc_vopen under the agent's
 * safety policy (a struct bc_safety *, NULL: none), so every volume is
 * judged on the descriptor it is opened as.
 */
int bc_agent_volume_open(void *safety, const char *path, int flags, mode_t mode, char *err,
			 size_t errlen);

#endif
