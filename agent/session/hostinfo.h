/*
 * session/hostinfo.h - what the agent tells a coordinator in HELLO_OK (hostinfo.c).
 */
#ifndef BC_SESSION_HOSTINFO_H
#define BC_SESSION_HOSTINFO_H

#include <cjson/cJSON.h>

#include "session/agent.h"

/* host facts and path probes for HELLO_OK; caller owns the result */
cJSON *bc_hostinfo_json(const struct bc_agent *a, const cJSON *paths);

#endif
