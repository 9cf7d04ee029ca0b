/*
 * util/log.h - one-line diagnostics on stderr, prefixed with the program name.
 * Messages are lowercase and quote their subject: error("cannot open '%s'").
 * bc_error() returns -1 so `return bc_error(...)` reads like git's error().
 */
#ifndef BC_UTIL_LOG_H
#define BC_UTIL_LOG_H

#include <stdbool.h>

enum bc_log_level { BC_LOG_ERROR = 0, BC_LOG_WARN, BC_LOG_INFO, BC_LOG_DEBUG };

void bc_log_init(const char *prog, enum bc_log_level level);
void bc_log(enum bc_log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define bc_warn(...)  bc_log(BC_LOG_WARN, __VA_ARGS__)
#define bc_info(...)  bc_log(BC_LOG_INFO, __VA_ARGS__)
#define bc_debug(...) bc_log(BC_LOG_DEBUG, __VA_ARGS__)

#endif
