/*
 * session/control.h - the agent's control loop (control.c): the ROUTER socket,
 * session ownership, heartbeats and the dispatch of each message.
 */
#ifndef BC_SESSION_CONTROL_H
#define BC_SESSION_CONTROL_H

#include "session/agent.h"

/* bind a->opts.listen and serve until a->quit or interrupted: 0, nonzero (logged) on a failed start
 */
int bc_agent_run(struct bc_agent *a);

#endif
