/*
 * target/opener.c - how targets open a volume's file or device
 * (target/opener.h): the installed opener, or open(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "target/opener.h"

static bc_target_open_fn s_opener;
static void *s_opener_ctx;

void bc_target_set_opener(bc_target_open_fn fn, void *ctx)
{
	s_opener = fn;
	s_opener_ctx = ctx;
}

int bc_target_open_path(const char *path, int flags, mode_t mode, char *err, size_t errlen)
{
	int fd;

	if (s_opener)
		return s_opener(s_opener_ctx, path, flags, mode, err, errlen);
	fd = open(path, flags | O_CLOEXEC, mode);
	if (fd >= 0)
		return fd;
	fd = -errno;
	snprintf(err, errlen, "%s: %s", path, strerror(-fd));
	return fd;
}
