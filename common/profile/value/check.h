/*
 * profile/value/check.h - the value validators every profile reader shares (the
 * profile parser, the strict wire-form workload reader, the key table, the
 * sweep, experiment, expect and counter checks): the bottom of
 * common/profile, knowing JSON and units but no workload. Each check writes
 * one "<src>: <json path>: <what>" message and returns -EINVAL.
 */
#ifndef BC_PROFILE_VALUE_CHECK_H
#define BC_PROFILE_VALUE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define BC_CHECK_PATH_LEN 160 /* "volumes[17].offset" and friends, with room for odd keys */
#define BC_CHECK_SHOW_LEN 48  /* a quoted value longer than this is cut with "..." */

/* bc_check_name's bound: names are [A-Za-z0-9._-]{1,63} */
#define BC_NAME_MAX 64

struct bc_check {
	const char *src; /* file name for messages; NULL for a bare workload */
	char *err;	 /* may be NULL */
	size_t errlen;
	bool strict;  /* wire form: integers only and every workload key present */
	bool partial; /* a volume's overrides: check values, not the rules between keys */
};

/* Writes "<src>: <path>: <what>" (either prefix may be empty); returns -EINVAL. */
int bc_check_fail(struct bc_check *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* v as JSON cut to BC_CHECK_SHOW_LEN - 1 bytes; returns buf */
const char *bc_check_show(const cJSON *v, char buf[BC_CHECK_SHOW_LEN]);

/* "base.key", or "key" when base is empty */
void bc_check_path(char path[BC_CHECK_PATH_LEN], const char *base, const char *key);

/* every key of obj is in keys (NULL-terminated) and none is repeated */
int bc_check_keys(struct bc_check *c, const cJSON *obj, const char *base, const char *const *keys);

/* the same, a key also known when known(key) says so (keys or known may be NULL) */
int bc_check_keys_with(struct bc_check *c, const cJSON *obj, const char *base,
		       const char *const *keys, bool (*known)(const char *key));

int bc_check_object(struct bc_check *c, const char *path, const cJSON *v);

/* true or false into *out */
int bc_check_bool(struct bc_check *c, const char *path, const cJSON *v, bool *out);

/* an integer in lo..hi into *out: "expected an integer in lo..hi" */
int bc_check_int(struct bc_check *c, const char *path, const cJSON *v, double lo, double hi,
		 double *out);

/* a count in min..max into *out: "expected integer >= min", then "must be in min..max" */
/* a path without control characters (bytes below 0x20, and DEL) */
int bc_check_no_ctl(struct bc_check *c, const char *path, const char *s);
int bc_check_uint(struct bc_check *c, const char *path, const cJSON *v, uint64_t min, uint64_t max,
		  uint64_t *out);

/* obj[key] into *v and its path; absent is *v = NULL, an error when required */
int bc_check_item(struct bc_check *c, const cJSON *obj, const char *base, const char *key,
		  bool required, char path[BC_CHECK_PATH_LEN], const cJSON **v);

/* obj[key] as an array: returns its length (0 when absent and optional) or -EINVAL */
int bc_check_array(struct bc_check *c, const cJSON *obj, const char *key, bool required,
		   const cJSON **arr);

/*
 * How an entry of a list opens: item is an object (named base) holding only
 * keys of the NULL-terminated keys, among them its required key, *v.
 * 0, or -EINVAL with the message.
 */
int bc_check_entry(struct bc_check *c, const cJSON *item, const char *base, const char *const *keys,
		   const char *key, char path[BC_CHECK_PATH_LEN], const cJSON **v);

/*
 * obj[key], an array of objects, into a new zeroed table of its n elements
 * of size bytes (*table, as posix_memalign's; left NULL when the key is
 * absent and optional): one(c, item, base, arg) parses each, base
 * "key[i]" with i the element's index, which is *count (one finds its slot
 * there); *count counts the element once it parses, so the table's owner
 * frees what parsed when one fails. Returns 0 or the first error (-EINVAL
 * with its message, -ENOMEM).
 */
int bc_check_list(struct bc_check *c, const cJSON *obj, const char *key, bool required, size_t size,
		  void **table, int *count,
		  int (*one)(struct bc_check *c, const cJSON *item, const char *base, void *arg),
		  void *arg);

/* [A-Za-z0-9._-]{1,63} copied into dst */
int bc_check_name(struct bc_check *c, const char *path, const cJSON *v, char dst[BC_NAME_MAX]);

/* a non-empty string shorter than max bytes (not copied) */
int bc_check_str(struct bc_check *c, const char *path, const cJSON *v, size_t max);

/* "4k" or integer bytes (integers only when strict), at most 2^53 */
int bc_check_size(struct bc_check *c, const char *path, const cJSON *v, uint64_t *out);

/* "10s" or integer seconds (integers only when strict), whole seconds >= min_s */
int bc_check_duration(struct bc_check *c, const char *path, const cJSON *v, uint32_t min_s,
		      uint32_t *out);

#endif
