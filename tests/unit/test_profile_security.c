/* test_profile_security: the profile's security keys: agents[].server_key (Z85, 40 characters, not
 * for local agents) and "destructive" at the top level or per volume, with errors naming the JSON
 * path, and both surviving the resolved profile */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile.h"
#include "bc_test.h"

#define KEY "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"

/* parse a profile built from agents, a top-level extra and volumes; err gets the message */
static struct bc_profile *s_parse(const char *agents, const char *top, const char *volumes,
				  char *err, size_t errlen)
{
	char text[2048];
	struct bc_profile *p = NULL;

	snprintf(text, sizeof(text),
		 "{\"name\": \"p\", %s \"agents\": %s, \"volumes\": %s, "
		 "\"steps\": [{\"name\": \"s\", \"rw\": \"randwrite\"}]}",
		 top, agents, volumes);
	err[0] = 0;
	bc_profile_parse(text, "p.json", &p, err, errlen);
	return p;
}

int main(void)
{
	const char *remote = "[{\"name\": \"a\", \"endpoint\": \"tcp://198.18.0.11:7470\", "
			     "\"server_key\": \"" KEY "\"}]";
	const char *two = "[{\"agent\": \"a\", \"path\": \"/dev/loop0\"}, "
			  "{\"agent\": \"a\", \"path\": \"v.dat\", \"destructive\": false}]";
	struct bc_profile *p, *q;
	char err[1024], *text;
	cJSON *j;

	p = s_parse(remote, "", two, err, sizeof(err));
	CHECK_MSG(p != NULL, "%s", err);
	if (!p)
		return 1;
	CHECK(!strcmp(p->agents[0].server_key, KEY));
	CHECK(!p->volumes[0].destructive && !p->volumes[1].destructive);
	bc_profile_destroy(&p);

	/* top level: every volume without its own key */
	p = s_parse(remote, "\"destructive\": true,", two, err, sizeof(err));
	CHECK_MSG(p && p->volumes[0].destructive && !p->volumes[1].destructive, "%s", err);
	/* the resolved profile keeps both */
	j = p ? bc_profile_to_json(p) : NULL;
	text = j ? cJSON_PrintUnformatted(j) : NULL;
	CHECK(text && bc_profile_parse(text, "resolved", &q, err, sizeof(err)) == 0);
	if (text && q) {
		CHECK(!strcmp(q->agents[0].server_key, KEY));
		CHECK(q->volumes[0].destructive && !q->volumes[1].destructive);
		bc_profile_destroy(&q);
	}
	cJSON_free(text);
	cJSON_Delete(j);
	bc_profile_destroy(&p);

	p = s_parse("[{\"name\": \"a\", \"endpoint\": \"tcp://h:1\", \"server_key\": \"short\"}]",
		    "", two, err, sizeof(err));
	CHECK(!p);
	CHECK_MSG(strstr(err, "p.json: agents[0].server_key: expected a 40-character Z85") &&
		      strstr(err, "\"short\""),
		  "%s", err);
	p = s_parse("[{\"name\": \"a\", \"endpoint\": \"tcp://h:1\", \"server_key\": 7}]", "", two,
		    err, sizeof(err));
	CHECK(!p && strstr(err, "agents[0].server_key"));
	p = s_parse("[{\"name\": \"a\", \"endpoint\": \"local\", \"server_key\": \"" KEY "\"}]", "",
		    two, err, sizeof(err));
	CHECK(!p);
	CHECK_MSG(strstr(err, "p.json: agents[0].server_key: not used by a \"local\" agent"), "%s",
		  err);
	p = s_parse(remote, "", "[{\"agent\": \"a\", \"path\": \"v\", \"destructive\": \"yes\"}]",
		    err, sizeof(err));
	CHECK(!p);
	CHECK_MSG(
	    strstr(err, "p.json: volumes[0].destructive: expected true or false, got \"yes\""),
	    "%s", err);
	p = s_parse(remote, "\"destructive\": 1,", two, err, sizeof(err));
	CHECK(!p);
	CHECK_MSG(strstr(err, "p.json: destructive: expected true or false, got 1"), "%s", err);
	TEST_DONE();
}
