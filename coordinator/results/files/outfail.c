/*
 * outfail.c - the run directory's write failures (see outfail.h): the first
 * one named once, the rest counted.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "results/files/outfail.h"
#include "util/log.h"

static pthread_mutex_t s_mu = PTHREAD_MUTEX_INITIALIZER;
static int s_rc;
static unsigned long s_count;
static char s_path[4096], s_dir[4096];

const char *bc_errno_name(int rc)
{
	static __thread char buf[24];
	const char *n = strerrorname_np(rc < 0 ? -rc : rc);

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "errno %d", rc < 0 ? -rc : rc);
	return buf;
}

void bc_outfail_dir(const char *dir)
{
	pthread_mutex_lock(&s_mu);
	snprintf(s_dir, sizeof(s_dir), "%s", dir);
	pthread_mutex_unlock(&s_mu);
}

void bc_outfail_note(const char *path, int rc)
{
	bool first;

	if (!rc)
		return;
	pthread_mutex_lock(&s_mu);
	first = !s_rc;
	if (first) {
		s_rc = rc < 0 ? rc : -rc;
		snprintf(s_path, sizeof(s_path), "%s", path);
	}
	s_count++;
	pthread_mutex_unlock(&s_mu);
	if (!first)
		return;
	if (!s_dir[0]) { /* not a run (bench-coord report): the file and the reason */
		bc_error("cannot write '%s': %s (%s)", path, strerror(-s_rc), bc_errno_name(s_rc));
		return;
	}
	bc_error("cannot write '%s': %s (%s); the run stops here. What was measured until now "
		 "is kept: %s, then rebuild the results with: bench-coord report --rebuild %s",
		 path, strerror(-s_rc), bc_errno_name(s_rc), bc_outfail_remedy(), s_dir);
}

const char *bc_outfail_remedy(void)
{
	switch (-bc_outfail_rc()) {
	case 0:
		return "";
	case ENOSPC:
	case EDQUOT:
		return "make room";
	case EROFS: /* an error remounted it read-only (errors=remount-ro), or it was mounted so */
		return "make the filesystem writable again (or copy the run directory elsewhere)";
	case EIO:
		return "check the device under the run directory (its kernel log), or copy the run "
		       "directory elsewhere";
	default:
		return "remove the cause named above";
	}
}

int bc_outfail_rc(void)
{
	int rc;

	pthread_mutex_lock(&s_mu);
	rc = s_rc;
	pthread_mutex_unlock(&s_mu);
	return rc;
}

unsigned long bc_outfail_count(void)
{
	unsigned long n;

	pthread_mutex_lock(&s_mu);
	n = s_count;
	pthread_mutex_unlock(&s_mu);
	return n;
}

const char *bc_outfail_text(char *buf, size_t len)
{
	const char *base;

	pthread_mutex_lock(&s_mu);
	base = strrchr(s_path, '/');
	if (s_rc)
		snprintf(buf, len, "cannot write %s (%s)", base ? base + 1 : s_path,
			 bc_errno_name(s_rc));
	else if (len)
		buf[0] = 0;
	pthread_mutex_unlock(&s_mu);
	return buf;
}
