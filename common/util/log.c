/*
 * util/log.c - stderr diagnostics (see util/log.h). Each line is written with a
 * single fprintf so lines from several processes do not interleave mid-line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/log.h"

static const char *s_prog = "bench";
static enum bc_log_level s_level = BC_LOG_INFO;
static const char *const s_tags[] = {"error: ", "warning: ", "", ""};

void bc_log_init(const char *prog, enum bc_log_level level)
{
	s_prog = prog;
	s_level = level;
}

static void s_vlog(enum bc_log_level lvl, const char *fmt, va_list ap)
{
	char buf[2048];

	if (lvl > s_level)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s: %s%s\n", s_prog, s_tags[lvl], buf);
}

void bc_log(enum bc_log_level lvl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s_vlog(lvl, fmt, ap);
	va_end(ap);
}

int bc_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s_vlog(BC_LOG_ERROR, fmt, ap);
	va_end(ap);
	return -1;
}
