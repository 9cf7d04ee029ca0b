/*
 * session/config.c - the agent's JSON config file (see session/config.h),
 * whose main job is the allowlist; the other keys are defaults of options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "session/config.h"

static int s_cfg_str(const cJSON *v, const char *src, const char *key, char **dst, char *err,
		     size_t errlen)
{
	if (!cJSON_IsString(v) || !v->valuestring[0]) {
		snprintf(err, errlen, "%s: %s: expected a non-empty string", src, key);
		return -EINVAL;
	}
	free(*dst);
	*dst = strdup(v->valuestring);
	return *dst ? 0 : -ENOMEM;
}

int bc_agent_config_parse(const char *text, const char *src, struct bc_safety *s,
			  struct bc_agent_config *cfg, char *err, size_t errlen)
{
	cJSON *root = cJSON_Parse(text), *v;
	int i, rc = 0;

	if (!cJSON_IsObject(root)) {
		snprintf(err, errlen, "%s: %s", src,
			 root ? "expected a JSON object" : "not valid JSON");
		rc = -EINVAL;
		goto out;
	}
	cJSON_ArrayForEach(v, root)
	{
		const char *k = v->string;

		if (!strcmp(k, "allow")) {
			const cJSON *g;

			if (!cJSON_IsArray(v)) {
				snprintf(err, errlen,
					 "%s: allow: expected an array of absolute paths "
					 "or globs",
					 src);
				rc = -EINVAL;
				goto out;
			}
			i = 0;
			cJSON_ArrayForEach(g, v)
			{
				if (!cJSON_IsString(g) || g->valuestring[0] != '/') {
					char *shown = cJSON_PrintUnformatted(g);

					snprintf(
					    err, errlen,
					    "%s: allow[%d]: expected an absolute path or glob, "
					    "got %.60s",
					    src, i, shown ? shown : "?");
					cJSON_free(shown);
					rc = -EINVAL;
					goto out;
				}
				rc = bc_safety_allow(s, g->valuestring);
				if (rc)
					goto out;
				i++;
			}
		} else if (!strcmp(k, "listen")) {
			rc = s_cfg_str(v, src, k, &cfg->listen, err, errlen);
		} else if (!strcmp(k, "scratch_dir")) {
			rc = s_cfg_str(v, src, k, &cfg->scratch_dir, err, errlen);
		} else if (!strcmp(k, "cert")) {
			rc = s_cfg_str(v, src, k, &cfg->cert, err, errlen);
		} else if (!strcmp(k, "authorized_keys")) {
			rc = s_cfg_str(v, src, k, &cfg->authorized_keys, err, errlen);
		} else if (!strcmp(k, "key_announce")) {
			rc = s_cfg_str(v, src, k, &cfg->key_announce, err, errlen);
		} else {
			/* destruction and plain text are command-line decisions, on purpose */
			snprintf(err, errlen,
				 "%s: %s: unknown key (known: allow, listen, scratch_dir, cert, "
				 "authorized_keys, key_announce)",
				 src, k);
			rc = -EINVAL;
		}
		if (rc)
			goto out;
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", src);
	cJSON_Delete(root);
	return rc;
}

int bc_agent_config_load(const char *path, struct bc_safety *s, struct bc_agent_config *cfg,
			 char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc;

	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "cannot read config '%s': %s", path, strerror(-rc));
		return rc;
	}
	/* the config is one small object: read it whole, NUL-terminated */
	n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		snprintf(err, errlen, "%s: empty file", path);
		return -EINVAL;
	}
	rc = bc_agent_config_parse(text, path, s, cfg, err, errlen);
	free(text);
	return rc;
}

void bc_agent_config_free(struct bc_agent_config *cfg)
{
	free(cfg->listen);
	free(cfg->scratch_dir);
	free(cfg->cert);
	free(cfg->authorized_keys);
	free(cfg->key_announce);
	memset(cfg, 0, sizeof(*cfg));
}
