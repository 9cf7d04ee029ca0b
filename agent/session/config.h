/*
 * session/config.h - the agent's JSON config file (--config): the "allow"
 * globs of its allowlist (safety/allowlist.h) and the defaults of a few options.
 * Destruction and plain text are not config keys: they stay command-line
 * decisions.
 */
#ifndef BC_SESSION_CONFIG_H
#define BC_SESSION_CONFIG_H

#include <stddef.h>

#include "safety/allowlist.h"

/* optional settings of the agent's config file, NULL when absent; owned */
struct bc_agent_config {
	char *listen;
	char *scratch_dir;
	char *cert;
	char *authorized_keys;
	char *key_announce; /* as --key-announce: an endpoint or "off" */
};

/*
 * Parse the agent's JSON config (text, named src in messages): "allow"
 * globs are added to s, the other keys go to cfg. Unknown keys and wrong
 * types are errors naming the key ("<src>: allow[1]: ..."). Returns 0 or
 * -EINVAL/-ENOMEM with the message in err.
 */
int bc_agent_config_parse(const char *text, const char *src, struct bc_safety *s,
			  struct bc_agent_config *cfg, char *err, size_t errlen);
/* read path and parse it; -errno with a message naming the file */
int bc_agent_config_load(const char *path, struct bc_safety *s, struct bc_agent_config *cfg,
			 char *err, size_t errlen);
void bc_agent_config_free(struct bc_agent_config *cfg);

#endif
