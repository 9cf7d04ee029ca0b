/*
 * cmd/validate.c - `bench-coord validate PROFILE...`: parse and validate
 * profiles without contacting any agent; print the resolved profile with
 * --resolved. Exit 0 when all are valid, 2 otherwise.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "profile/profile.h"
#include "util/log.h"

int bc_cmd_validate(int argc, char **argv)
{
	bool resolved = false;
	int i, bad = 0, n = 0;

	for (i = 1; i < argc; i++) {
		struct bc_profile *p = NULL;
		char err[1024];

		if (!strcmp(argv[i], "--resolved")) {
			resolved = true;
			continue;
		}
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf(
			    "usage: bench-coord validate [--resolved] PROFILE.json...\n"
			    "  check profiles without running them\n"
			    "      --resolved   print each profile with every default applied\n");
			return 0;
		}
		n++;
		if (bc_profile_load(argv[i], &p, err, sizeof(err))) {
			bc_error("%s", err);
			bad++;
			continue;
		}
		if (resolved) {
			cJSON *j = bc_profile_to_json(p);
			char *t = cJSON_Print(j);

			printf("%s\n", t);
			cJSON_free(t);
			cJSON_Delete(j);
		} else {
			printf("%s: ok (%d agents, %d volumes, %d steps)\n", argv[i], p->nagents,
			       p->nvolumes, p->nsteps);
		}
		bc_profile_destroy(&p);
	}
	if (!n) {
		fprintf(stderr, "usage: bench-coord validate [--resolved] PROFILE.json...\n");
		return 2;
	}
	return bad ? 2 : 0;
}
