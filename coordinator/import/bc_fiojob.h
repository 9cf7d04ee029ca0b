/*
 * bc_fiojob.h - fio job files (the ini format fio reads) and their mapping
 * onto a bench-coord profile, for `bench-coord import-fio`.
 *
 * Parsing keeps every section and option in file order with its line
 * number; mapping follows fio's semantics - [global] sections set defaults
 * for the jobs after them, `stonewall` / `wait_for_previous` start a new
 * group of concurrent jobs - and records every option it cannot express,
 * and every place where the profile behaves differently from fio, as a note.
 */
#ifndef BC_FIOJOB_H
#define BC_FIOJOB_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

struct bc_fio_opt {
	char *key; /* lowercased, aliases kept as written */
	char *val; /* NULL for a bare flag ("time_based") */
	int line;
};

struct bc_fio_section {
	char *name;
	bool global;
	struct bc_fio_opt *opts;
	int nopts;
	int line;
};

struct bc_fio_jobfile {
	struct bc_fio_section *secs;
	int nsecs;
};

/*
 * Parse fio job-file text; src names it in messages. ${VAR} is replaced from
 * the environment. Returns 0 and a jobfile the caller owns (bc_fio_free),
 * or -EINVAL / -ENOMEM with "<src>:<line>: <what>" in err.
 */
int bc_fio_parse(const char *text, const char *src, struct bc_fio_jobfile **out, char *err,
		 size_t errlen);
void bc_fio_free(struct bc_fio_jobfile **jf);

struct bc_fio_import {
	const char *src;      /* job file name, for the profile's description */
	const char *name;     /* profile name; NULL: from src */
	const char *agent;    /* the one agent every volume belongs to */
	const char *endpoint; /* its endpoint ("local" or tcp://...) */
};

/*
 * The profile (as JSON) that runs jf's jobs. Every option not mapped and
 * every difference from fio's behaviour is appended to notes (strings).
 * Returns NULL with a message in err when no job can be mapped.
 */
cJSON *bc_fio_to_profile(const struct bc_fio_jobfile *jf, const struct bc_fio_import *im,
			 cJSON *notes, char *err, size_t errlen);

#endif
