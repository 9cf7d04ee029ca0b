/* test_fmt: escaping for HTML, Markdown and CSV and number formatting (report/parts/fmt.h) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/parts/fmt.h"
#include "bc_test.h"

static char *escaped(void (*fn)(FILE *, const char *), const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, in);
	fclose(f);
	return buf;
}

static void test_escaping(void)
{
	char *s;
	char num[64];

	s = escaped(bc_html_puts, "<a href=\"x\">'&'</a>");
	CHECK(!strcmp(s, "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"));
	free(s);
	s = escaped(bc_csv_puts, "plain");
	CHECK(!strcmp(s, "plain"));
	free(s);
	s = escaped(bc_csv_puts, "a,b");
	CHECK(!strcmp(s, "\"a,b\""));
	free(s);
	s = escaped(bc_csv_puts, "say \"hi\"\r\n");
	CHECK(!strcmp(s, "\"say \"\"hi\"\"\r\n\""));
	free(s);
	s = escaped(bc_md_puts, "a|b\n<c>_d");
	CHECK_MSG(!strcmp(s, "a\\|b &lt;c>_d"), "got %s", s);
	free(s);
	CHECK(!strcmp(bc_fmt_num(3, num, sizeof(num)), "3"));
	CHECK(!strcmp(bc_fmt_num(612.553, num, sizeof(num)), "612.553"));
	CHECK(!strcmp(bc_fmt_num(NAN, num, sizeof(num)), "0"));
	CHECK(!strcmp(bc_fmt_bytes(4096, num, sizeof(num)), "4 KiB"));
	CHECK(!strcmp(bc_fmt_bytes(1536 * 1024.0 * 1024, num, sizeof(num)), "1.50 GiB"));
	CHECK(!strcmp(bc_fmt_bytes(0, num, sizeof(num)), "-"));
}

int main(void)
{
	test_escaping();
	TEST_DONE();
}
