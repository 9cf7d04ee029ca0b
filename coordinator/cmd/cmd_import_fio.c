/*
 * cmd_import_fio.c - `bench-coord import-fio JOBFILE`: a fio job file as a
 * bench-coord profile (fiojob.c does the mapping). The profile goes to
 * stdout or -o FILE; every option that could not be mapped, and every place
 * the profile behaves differently from fio, is listed on stderr. The profile
 * is validated before it is written. Exit 0 on success, 1 when the job file
 * cannot be read or mapped, 2 for bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_fiojob.h"
#include "bc_log.h"
#include "bc_profile.h"
#include "bc_report.h"

static void s_usage(FILE *f)
{
	fprintf(f, "usage: bench-coord import-fio [options] JOBFILE\n"
		   "  translate a fio job file into a bench-coord profile\n"
		   "  -o, --output FILE   write the profile to FILE (default: stdout)\n"
		   "      --agent NAME    the agent every volume belongs to (default: local)\n"
		   "      --endpoint EP   that agent's endpoint (default: local, started by\n"
		   "                      bench-coord itself)\n"
		   "      --name NAME     the profile's name (default: from JOBFILE)\n");
}

/* the whole file as a string; caller frees */
static char *s_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *grown;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			/* a job file is a page of text: anything this big is the wrong file */
			grown = cap <= (64u << 20) ? realloc(buf, cap) : NULL;
			if (!grown) {
				free(buf);
				fclose(f);
				errno = cap > (64u << 20) ? EFBIG : ENOMEM;
				return NULL;
			}
			buf = grown;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	buf[len] = '\0';
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static int s_write(const char *path, const char *text)
{
	FILE *f = path ? fopen(path, "w") : stdout;

	if (!f)
		return bc_error("cannot create '%s': %s", path, strerror(errno));
	fputs(text, f);
	fputc('\n', f);
	if (path ? fclose(f) : fflush(f))
		return bc_error("cannot write '%s': %s", path ? path : "<stdout>", strerror(errno));
	return 0;
}

int bc_cmd_import_fio(int argc, char **argv)
{
	static const struct option lopts[] = {
	    {"output", required_argument, NULL, 'o'},	{"agent", required_argument, NULL, 'a'},
	    {"endpoint", required_argument, NULL, 'e'}, {"name", required_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},		{NULL, 0, NULL, 0},
	};
	struct bc_fio_import im = {.agent = "local", .endpoint = "local"};
	struct bc_fio_jobfile *jf = NULL;
	struct bc_profile *p = NULL;
	const char *out = NULL;
	cJSON *notes = cJSON_CreateArray(), *prof = NULL;
	const cJSON *n;
	char err[1024], *text = NULL, *json = NULL;
	int c, status = 1;

	while ((c = getopt_long(argc, argv, "o:h", lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'a':
			im.agent = optarg;
			break;
		case 'e':
			im.endpoint = optarg;
			break;
		case 'n':
			im.name = optarg;
			break;
		case 'h':
			s_usage(stdout);
			cJSON_Delete(notes);
			return 0;
		default:
			s_usage(stderr);
			cJSON_Delete(notes);
			return 2;
		}
	}
	if (optind != argc - 1) {
		s_usage(stderr);
		cJSON_Delete(notes);
		return 2;
	}
	im.src = argv[optind];
	text = s_slurp(im.src);
	if (!text) {
		bc_error("cannot read '%s': %s", im.src, strerror(errno));
		goto out;
	}
	if (bc_fio_parse(text, im.src, &jf, err, sizeof(err))) {
		bc_error("%s", err);
		goto out;
	}
	prof = bc_fio_to_profile(jf, &im, notes, err, sizeof(err));
	cJSON_ArrayForEach(n, notes) bc_warn("%s: %s", im.src, n->valuestring);
	if (!prof) {
		bc_error("%s", err);
		goto out;
	}
	json = cJSON_Print(prof);
	/* what we write must be a profile bench-coord accepts */
	if (!json ||
	    bc_profile_parse(json, out ? out : "<imported profile>", &p, err, sizeof(err))) {
		bc_error("the imported profile is not valid: %s", json ? err : "out of memory");
		goto out;
	}
	if (!s_write(out, json))
		status = 0;
out:
	bc_profile_destroy(&p);
	cJSON_free(json);
	cJSON_Delete(prof);
	cJSON_Delete(notes);
	bc_fio_free(&jf);
	free(text);
	return status;
}
