/*
 * fuzz_profile: the profile parser and validator on arbitrary text. A
 * profile that parses must survive bc_profile_to_json and parse back (the
 * resolved profile is itself a valid profile), and every step's workload
 * must survive the PREPARE wire form the agent reads strictly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_profile *p = NULL, *q = NULL;
	char err[1024], *text = malloc(size + 1), *again = NULL;
	cJSON *j = NULL;
	int i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	if (bc_profile_parse(text, "fuzz.json", &p, err, sizeof(err)))
		goto out;
	j = bc_profile_to_json(p);
	if (!j)
		abort();
	again = cJSON_PrintUnformatted(j);
	if (!again || bc_profile_parse(again, "resolved.json", &q, err, sizeof(err))) {
		fprintf(stderr, "resolved profile does not parse back: %s\n%s\n", err,
			again ? again : "(null)");
		abort();
	}
	for (i = 0; i < p->nsteps; i++) {
		struct bc_workload wl;
		cJSON *w = bc_workload_to_json(&p->steps[i].wl);

		if (!w || bc_workload_from_json(w, &wl, err, sizeof(err))) {
			fprintf(stderr, "step %d: workload does not survive the wire: %s\n", i,
				err);
			abort();
		}
		cJSON_Delete(w);
	}
out:
	cJSON_free(again);
	cJSON_Delete(j);
	bc_profile_destroy(&q);
	bc_profile_destroy(&p);
	free(text);
	return 0;
}
