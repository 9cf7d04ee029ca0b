/*
 * profile/value/units.c - sizes and durations as written in profiles. Parsing is
 * strict on purpose: "4 k", "-1", "1.5m" and "" are errors rather than
 * guesses, because a mistyped block size silently measures something else.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <strings.h>

#include "profile/value/units.h"

struct s_unit {
	const char *suffix;
	uint64_t mult;
};

/* binary multipliers, as fio and vdbench read "4k" */
static const struct s_unit s_size_units[] = {
    {"", 1},
    {"b", 1},
    {"k", 1ull << 10},
    {"kb", 1ull << 10},
    {"kib", 1ull << 10},
    {"m", 1ull << 20},
    {"mb", 1ull << 20},
    {"mib", 1ull << 20},
    {"g", 1ull << 30},
    {"gb", 1ull << 30},
    {"gib", 1ull << 30},
    {"t", 1ull << 40},
    {"tb", 1ull << 40},
    {"tib", 1ull << 40},
};

/* a bare number is seconds, like fio's runtime= */
static const struct s_unit s_duration_units[] = {
    {"", 1000}, {"ms", 1}, {"s", 1000}, {"m", 60 * 1000}, {"h", 3600 * 1000},
};

/*
 * Decimal digits followed by one of the suffixes (case-insensitive).
 * An unknown suffix is -EINVAL even when the digits overflow: garbage
 * first, then range.
 */
static int s_parse(const char *s, const struct s_unit *units, size_t nunits, uint64_t *out)
{
	const char *p = s;
	uint64_t v = 0, mult = 0;
	bool overflow = false;
	size_t i;

	if (!s || *p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
	}
	for (i = 0; i < nunits; i++) {
		if (!strcasecmp(p, units[i].suffix)) {
			mult = units[i].mult;
			break;
		}
	}
	if (!mult)
		return -EINVAL;
	if (overflow || v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int bc_parse_size(const char *s, uint64_t *bytes)
{
	return s_parse(s, s_size_units, sizeof(s_size_units) / sizeof(s_size_units[0]), bytes);
}

int bc_parse_duration_ms(const char *s, uint64_t *ms)
{
	return s_parse(s, s_duration_units, sizeof(s_duration_units) / sizeof(s_duration_units[0]),
		       ms);
}

const char *bc_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char sfx[] = "tgmk";
	unsigned i;

	if (!len)
		return buf;
	for (i = 0; bytes && i < 4; i++) {
		unsigned shift = 10 * (4 - i);

		if (!(bytes & ((1ull << shift) - 1))) {
			snprintf(buf, len, "%llu%c", (unsigned long long)(bytes >> shift), sfx[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}
