/* test_units - sizes and durations: suffixes, case, overflow and garbage */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "profile/value/units.h"
#include "bc_test.h"

static void size_ok(const char *s, uint64_t want)
{
	uint64_t got = 0;
	int ret = bc_parse_size(s, &got);

	CHECK_MSG(ret == 0 && got == want, "\"%s\": ret %d got %llu want %llu", s, ret,
		  (unsigned long long)got, (unsigned long long)want);
}

static void size_err(const char *s, int want)
{
	uint64_t got = 12345;
	int ret = bc_parse_size(s, &got);

	CHECK_MSG(ret == want && got == 12345, "\"%s\": ret %d want %d", s ? s : "(null)", ret,
		  want);
}

static void dur_ok(const char *s, uint64_t want_ms)
{
	uint64_t got = 0;
	int ret = bc_parse_duration_ms(s, &got);

	CHECK_MSG(ret == 0 && got == want_ms, "\"%s\": ret %d got %llu want %llu", s, ret,
		  (unsigned long long)got, (unsigned long long)want_ms);
}

static void dur_err(const char *s, int want)
{
	uint64_t got = 12345;
	int ret = bc_parse_duration_ms(s, &got);

	CHECK_MSG(ret == want && got == 12345, "\"%s\": ret %d want %d", s ? s : "(null)", ret,
		  want);
}

static void fmt_is(uint64_t bytes, const char *want)
{
	char buf[32];
	uint64_t back = 0;

	bc_fmt_size(bytes, buf, sizeof(buf));
	CHECK_MSG(!strcmp(buf, want), "%llu: got \"%s\" want \"%s\"", (unsigned long long)bytes,
		  buf, want);
	CHECK_MSG(bc_parse_size(buf, &back) == 0 && back == bytes, "\"%s\" does not parse back",
		  buf);
}

static void test_sizes(void)
{
	size_ok("0", 0);
	size_ok("4096", 4096);
	size_ok("1b", 1);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("4kb", 4096);
	size_ok("4KB", 4096);
	size_ok("4KiB", 4096);
	size_ok("4kib", 4096);
	size_ok("1m", 1ull << 20);
	size_ok("1MiB", 1ull << 20);
	size_ok("256m", 256ull << 20);
	size_ok("2g", 2ull << 30);
	size_ok("2GB", 2ull << 30);
	size_ok("1t", 1ull << 40);
	size_ok("1TiB", 1ull << 40);
	size_ok("18446744073709551615", UINT64_MAX);
	size_ok("16777215t", 16777215ull << 40);

	size_err("16777216t", -ERANGE);		   /* exactly 2^64 */
	size_err("18446744073709551616", -ERANGE); /* UINT64_MAX + 1 */
	size_err("99999999999999999999999k", -ERANGE);

	size_err(NULL, -EINVAL);
	size_err("", -EINVAL);
	size_err("k", -EINVAL);
	size_err("-1", -EINVAL);
	size_err("+1", -EINVAL);
	size_err("4x", -EINVAL);
	size_err("4 k", -EINVAL);
	size_err(" 4k", -EINVAL);
	size_err("4k ", -EINVAL);
	size_err("4.5k", -EINVAL);
	size_err("4kk", -EINVAL);
	size_err("4ib", -EINVAL);
	size_err("4p", -EINVAL);
	/* garbage wins over overflow: the suffix is checked first */
	size_err("99999999999999999999999x", -EINVAL);
}

static void test_durations(void)
{
	dur_ok("0", 0);
	dur_ok("30", 30000);
	dur_ok("30s", 30000);
	dur_ok("30S", 30000);
	dur_ok("500ms", 500);
	dur_ok("500MS", 500);
	dur_ok("5m", 300000);
	dur_ok("1h", 3600000);
	dur_ok("0s", 0);

	dur_err("18446744073709551615", -ERANGE); /* seconds: x1000 overflows */
	dur_err("5124095576031h", -ERANGE);
	dur_err("99999999999999999999999ms", -ERANGE);

	dur_err(NULL, -EINVAL);
	dur_err("", -EINVAL);
	dur_err("s", -EINVAL);
	dur_err("-1s", -EINVAL);
	dur_err("1d", -EINVAL);
	dur_err("1.5s", -EINVAL);
	dur_err("10 s", -EINVAL);
	dur_err("10sec", -EINVAL);
}

static void test_fmt(void)
{
	char tiny[3];

	fmt_is(0, "0");
	fmt_is(1, "1");
	fmt_is(1023, "1023");
	fmt_is(1025, "1025");
	fmt_is(1536, "1536");
	fmt_is(4096, "4k");
	fmt_is(1ull << 20, "1m");
	fmt_is(3ull << 30, "3g");
	fmt_is(1ull << 40, "1t");
	fmt_is(1ull << 50, "1024t");
	fmt_is(UINT64_MAX, "18446744073709551615");
	/* bounded: truncates, never overflows */
	CHECK(!strcmp(bc_fmt_size(4096, tiny, sizeof(tiny)), "4k"));
	CHECK(!strcmp(bc_fmt_size(1536, tiny, sizeof(tiny)), "15"));
}

int main(void)
{
	test_sizes();
	test_durations();
	test_fmt();
	TEST_DONE();
}
