/*
 * test_fileset: a volume's "fileset" (profile/volume/fileset.h): the spec's
 * checks name the JSON path, the tree's counts and vdbench's names, sizes
 * drawn by their shares (the same every time) and vdbench's rounding of an
 * average size, the set's space with each file on a 4 KiB boundary, a
 * host's share of a shared tree and a totalsize subset.
 */
#include <stdio.h>
#include <string.h>

#include "bc_test.h"
#include "profile/volume/fileset.h"

static int s_parse(const char *json, struct bc_fileset_spec *s, char *err, size_t len)
{
	cJSON *o = cJSON_Parse(json);
	int rc;

	err[0] = 0;
	rc = bc_fileset_spec_from_json(o, "volumes[0]", s, err, len);
	cJSON_Delete(o);
	return rc;
}

static void s_refused(const char *json, const char *want)
{
	struct bc_fileset_spec s;
	char err[512];

	CHECK_MSG(s_parse(json, &s, err, sizeof(err)) != 0, "accepted %s", json);
	CHECK_MSG(strstr(err, want) != NULL, "%s: \"%s\" lacks \"%s\"", json, err, want);
}

int main(void)
{
	struct bc_fileset_spec s;
	struct bc_fileset_plan p;
	char err[512], path[256];
	uint64_t nd, nf;
	uint32_t i, n32 = 0;
	cJSON *j;

	/* the checks, each naming its key */
	s_refused("{\"depth\": 2}", "volumes[0].fileset.sizes: required");
	s_refused("{\"sizes\": \"64k\", \"depth\": -1}", "volumes[0].fileset.depth");
	s_refused("{\"sizes\": \"64k\", \"width\": 0}", "volumes[0].fileset.width");
	s_refused("{\"sizes\": \"64k\", \"files\": 1.5}", "volumes[0].fileset.files");
	s_refused("{\"sizes\": \"64k\", \"distribution\": \"top\"}",
		  "volumes[0].fileset.distribution");
	s_refused("{\"sizes\": \"64k\", \"anchor\": \"/x\"}", "unknown key \"anchor\"");
	s_refused("{\"sizes\": [{\"size\": \"4k\", \"pct\": 50}, {\"size\": \"8k\", \"pct\": 40}]}",
		  "sum to 90, not 100");
	s_refused("{\"sizes\": [{\"size\": \"4k\", \"share\": 50}]}",
		  "volumes[0].fileset.sizes[0]");
	s_refused("{\"sizes\": \"1000\"}", "not a multiple of 512");
	s_refused("{\"sizes\": \"4k\", \"depth\": 5, \"width\": 100, \"files\": 100}",
		  "more than 32000000");

	/* vdbench's example: width=5, depth=5, files=5 is 3905 directories and 15625 files */
	CHECK(s_parse("{\"depth\": 5, \"width\": 5, \"files\": 5, \"sizes\": \"8k\"}", &s, err,
		      sizeof(err)) == 0);
	CHECK(bc_fileset_count(&s, &nd, &nf) && nd == 3905 && nf == 15625);
	s.all = true; /* files in every directory */
	CHECK(bc_fileset_count(&s, &nd, &nf) && nf == 3905 * 5);

	/*
	 * names: breadth-first directories, each level in vdbench's order (its
	 * FileAnchor sorts them by level, then by the last name's number, stably
	 * over its depth-first build), the files of the last level in that order
	 */
	CHECK(s_parse("{\"depth\": 2, \"width\": 3, \"files\": 4, \"sizes\": [{\"size\": \"32k\", "
		      "\"pct\": 30}, {\"size\": \"64k\", \"pct\": 70}]}",
		      &s, err, sizeof(err)) == 0);
	CHECK(bc_fileset_dir_path(&s, 0, path, sizeof(path)) == 0 && !strcmp(path, "vdb.1_1.dir"));
	CHECK(bc_fileset_dir_path(&s, 3, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_1.dir/vdb.2_1.dir"));
	CHECK(bc_fileset_dir_path(&s, 11, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_3.dir/vdb.2_3.dir"));
	CHECK(bc_fileset_file_path(&s, 0, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_1.dir/vdb.2_1.dir/vdb_f0001.file"));
	CHECK(bc_fileset_dir_path(&s, 4, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_2.dir/vdb.2_1.dir"));
	CHECK(bc_fileset_dir_path(&s, 6, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_1.dir/vdb.2_2.dir"));
	CHECK(bc_fileset_file_path(&s, 5, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_2.dir/vdb.2_1.dir/vdb_f0002.file"));
	CHECK(bc_fileset_file_path(&s, 13, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_1.dir/vdb.2_2.dir/vdb_f0002.file"));
	CHECK(bc_fileset_file_path(&s, 35, path, sizeof(path)) == 0 &&
	      !strcmp(path, "vdb.1_3.dir/vdb.2_3.dir/vdb_f0004.file"));

	/* sizes by share, the same plan every time, each file 4 KiB-aligned in the space */
	s.files = 1000;
	CHECK(bc_fileset_plan(&s, &p) == 0 && p.nfiles == 9000 && p.ndirs == 12);
	for (i = 0; i < p.nfiles; i++) {
		CHECK(p.size[i] == 32768 || p.size[i] == 65536);
		n32 += p.size[i] == 32768;
		CHECK(p.vstart[i] % BC_FILESET_ALIGN == 0);
		CHECK(i == 0 || p.vstart[i] >= p.vstart[i - 1] + p.size[i - 1]);
	}
	CHECK_MSG(n32 > 9000 * 27 / 100 && n32 < 9000 * 33 / 100, "%u of 9000 files at 30%%", n32);
	CHECK(p.space == p.vstart[p.nfiles - 1] + p.size[p.nfiles - 1]);
	{
		struct bc_fileset_plan q;

		CHECK(bc_fileset_plan(&s, &q) == 0 &&
		      !memcmp(q.size, p.size, 9000 * sizeof(*q.size)));
		bc_fileset_plan_free(&q);
	}
	bc_fileset_plan_free(&p);

	/* (n,0): an average, rounded as vdbench rounds sizes */
	CHECK(s_parse("{\"files\": 2000, \"sizes\": [{\"size\": \"10m\", \"pct\": 0}]}", &s, err,
		      sizeof(err)) == 0);
	CHECK(bc_fileset_plan(&s, &p) == 0);
	{
		double sum = 0;

		for (i = 0; i < p.nfiles; i++) {
			uint64_t b = p.size[i];

			sum += (double)b;
			CHECK_MSG(b % 1048576 == 0 || (b <= 10485760 && b % 102400 == 0),
				  "%llu bytes not rounded", (unsigned long long)b);
			CHECK(b >= 5242880 - 102400 && b <= 15728640 + 1048576);
		}
		CHECK_MSG(sum / p.nfiles > 10485760 * 0.95 && sum / p.nfiles < 10485760 * 1.05,
			  "average %.0f for 10m", sum / p.nfiles);
	}
	bc_fileset_plan_free(&p);

	/* the spec in full and back */
	j = bc_fileset_spec_to_json(&s);
	{
		char *t = cJSON_PrintUnformatted(j);
		struct bc_fileset_spec s2;

		CHECK(s_parse(t, &s2, err, sizeof(err)) == 0 && !memcmp(&s, &s2, sizeof(s)));
		cJSON_free(t);
	}
	cJSON_Delete(j);

	/*
	 * share (vdbench's shared=yes): host k of n uses the tree's files i with
	 * i % n == k, each at the size the whole tree gives it; the n shares make
	 * the tree, no file in two
	 */
	s_refused("{\"sizes\": \"64k\", \"files\": 4, \"share\": {\"count\": 2, \"index\": 2}}",
		  "volumes[0].fileset.share");
	s_refused("{\"sizes\": \"64k\", \"files\": 4, \"share\": {\"count\": 5, \"index\": 0}}",
		  "5 hosts for 4 files");
	CHECK(s_parse("{\"depth\": 1, \"width\": 3, \"files\": 7, \"sizes\": [{\"size\": \"32k\", "
		      "\"pct\": 50}, {\"size\": \"64k\", \"pct\": 50}]}",
		      &s, err, sizeof(err)) == 0);
	CHECK(bc_fileset_plan(&s, &p) == 0 && p.nfiles == 21 && p.ntree == 21);
	{
		struct bc_fileset_plan q;
		uint32_t seen[21] = {0}, k;

		for (k = 0; k < 3; k++) {
			s.share_count = 3;
			s.share_index = k;
			CHECK(bc_fileset_plan(&s, &q) == 0 && q.nfiles == 7 && q.ntree == 21);
			for (i = 0; i < q.nfiles; i++) {
				CHECK(q.tree[i] % 3 == k && q.size[i] == p.size[q.tree[i]]);
				seen[q.tree[i]]++;
			}
			bc_fileset_plan_free(&q);
		}
		for (i = 0; i < 21; i++)
			CHECK_MSG(seen[i] == 1, "file %u in %u shares", i, seen[i]);
	}
	bc_fileset_plan_free(&p);

	/*
	 * totalsize (vdbench's totalsize=): files drawn at random until their
	 * sizes reach it, in tree order, the same every time; beyond what the
	 * files hold is refused (vdbench stops at it)
	 */
	s_refused("{\"sizes\": \"64k\", \"files\": 4, \"totalsize\": \"257k\"}",
		  "volumes[0].fileset.totalsize: 263168 bytes, and the tree's files hold 262144");
	CHECK(s_parse("{\"depth\": 2, \"width\": 4, \"files\": 10, \"sizes\": [{\"size\": \"1m\", "
		      "\"pct\": 20}, {\"size\": \"64k\", \"pct\": 80}], \"totalsize\": \"20m\"}",
		      &s, err, sizeof(err)) == 0);
	CHECK(bc_fileset_plan(&s, &p) == 0 && p.ntree == 160 && p.nfiles < 160);
	{
		struct bc_fileset_plan q;
		uint64_t big = 0;

		CHECK_MSG(p.bytes >= 20u << 20 && p.bytes < (20u << 20) + (1u << 20),
			  "%llu bytes for totalsize 20m", (unsigned long long)p.bytes);
		for (i = 0; i < p.nfiles; i++) {
			CHECK(i == 0 || p.tree[i] > p.tree[i - 1]);
			big += p.size[i] == 1u << 20;
		}
		/* a random pick, not the tree's first files: spread over the whole tree */
		CHECK_MSG(p.tree[p.nfiles - 1] > 120 && p.tree[0] < 40, "files %u..%u", p.tree[0],
			  p.tree[p.nfiles - 1]);
		CHECK(big > 0 && big < p.nfiles);
		CHECK(bc_fileset_plan(&s, &q) == 0 && q.nfiles == p.nfiles &&
		      !memcmp(q.tree, p.tree, p.nfiles * sizeof(*p.tree)));
		bc_fileset_plan_free(&q);
		/* with a share: drawn from the host's own files */
		s.share_count = 2;
		s.share_index = 1;
		s.totalsize = 10u << 20;
		CHECK(bc_fileset_plan(&s, &q) == 0 && q.bytes >= 10u << 20);
		for (i = 0; i < q.nfiles; i++)
			CHECK(q.tree[i] % 2 == 1);
		bc_fileset_plan_free(&q);
	}
	bc_fileset_plan_free(&p);

	/*
	 * workingset (vdbench's workingsetsize=): of the totalsize files, those
	 * drawn at random until their sizes reach it, ascending, the same every
	 * time; every file is still planned (made); more than totalsize refused
	 */
	s_refused("{\"sizes\": \"64k\", \"files\": 4, \"totalsize\": \"128k\", "
		  "\"workingset\": \"192k\"}",
		  "volumes[0].fileset.workingset: 196608 bytes, more than the 131072 the "
		  "totalsize's files hold");
	CHECK(s_parse("{\"depth\": 2, \"width\": 4, \"files\": 10, \"sizes\": [{\"size\": \"1m\", "
		      "\"pct\": 20}, {\"size\": \"64k\", \"pct\": 80}], \"totalsize\": \"20m\", "
		      "\"workingset\": \"5m\"}",
		      &s, err, sizeof(err)) == 0);
	CHECK(bc_fileset_plan(&s, &p) == 0 && p.bytes >= 20u << 20 && p.work);
	{
		struct bc_fileset_plan q;
		uint64_t ws = 0;

		for (i = 0; i < p.nwork; i++) {
			CHECK(p.work[i] < p.nfiles && (i == 0 || p.work[i] > p.work[i - 1]));
			ws += p.size[p.work[i]];
		}
		CHECK_MSG(ws >= 5u << 20 && ws < (5u << 20) + (1u << 20), "%llu bytes for 5m",
			  (unsigned long long)ws);
		CHECK(p.nwork < p.nfiles && p.work[p.nwork - 1] > p.nfiles / 2);
		CHECK(bc_fileset_plan(&s, &q) == 0 && q.nwork == p.nwork &&
		      !memcmp(q.work, p.work, p.nwork * sizeof(*p.work)));
		bc_fileset_plan_free(&q);
	}
	bc_fileset_plan_free(&p);
	TEST_DONE();
}
