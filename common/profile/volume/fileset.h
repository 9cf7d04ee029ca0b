/*
 * profile/volume/fileset.h - a volume's "fileset" key: a directory tree of
 * files the agent builds under the volume's path (vdbench's FSD: anchor,
 * depth, width, files, sizes, distribution), parsed the same way by the
 * coordinator (profile check) and the agent (PREPARE), and the tree's plan:
 * which directories and files, in vdbench's order and with vdbench's names
 * (vdb.1_1.dir/vdb.2_3.dir/vdb_f0007.file), and each file's size. The agent's
 * fileset target (agent/target/fileset.c) builds and opens it; the I/O engine
 * addresses its files as one space, file after file (docs/profiles.md,
 * "File sets").
 */
#ifndef BC_PROFILE_VOLUME_FILESET_H
#define BC_PROFILE_VOLUME_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define BC_FILESET_SIZES_MAX 32
/* a tree beyond this many files is a mistyped width or depth (vdbench: 32 million) */
#define BC_FILESET_FILES_MAX (32u * 1000 * 1000)
/* the space of a file set: each file starts on this boundary (O_DIRECT, verify blocks) */
#define BC_FILESET_ALIGN 4096u

struct bc_fileset_spec {
	bool enabled;
	uint32_t depth; /* directory levels below the path: 0 puts the files in it */
	uint32_t width; /* directories made in each directory */
	uint32_t files; /* files in each directory of the last level (or every one: all) */
	bool all; /* "distribution": "all": files in every directory, not the last level only */
	/*
	 * "sizes": each file's size by share: nsizes pairs (bytes, pct), pcts
	 * summing to 100; a single pair with pct 0 is vdbench's (n,0): sizes
	 * drawn around an average of n (profile/volume/fileset.c says how)
	 */
	uint32_t nsizes;
	uint64_t size[BC_FILESET_SIZES_MAX];
	uint32_t pct[BC_FILESET_SIZES_MAX];
	/*
	 * "share": {"count": n, "index": k}: this volume uses the tree's files
	 * i with i % n == k, the others being other hosts' (vdbench's
	 * shared=yes: each of n slaves every nth file); count 0: every file
	 */
	uint32_t share_count, share_index;
	/*
	 * "totalsize": only a subset of the volume's files, drawn at random
	 * (fixed seed, no file twice) until their sizes reach this many bytes,
	 * kept in tree order (vdbench's totalsize=); 0: all of them
	 */
	uint64_t totalsize;
	/*
	 * "workingset": of those files, the ones the data workloads use: drawn
	 * at random the same way (another fixed seed) until their sizes reach
	 * this many bytes, kept in tree order (vdbench's workingsetsize=); the
	 * others are made and laid out but not read or written. 0: all of them
	 */
	uint64_t workingset;
};

/* the tree a spec describes (bc_fileset_plan); arrays owned, freed by bc_fileset_plan_free */
struct bc_fileset_plan {
	uint32_t ndirs;	  /* directories below the path, in creation order (parents first) */
	uint32_t nfiles;  /* the volume's files (share, totalsize), in vdbench's order */
	uint32_t ntree;	  /* the tree's files, the volume's and the rest */
	uint32_t *tree;	  /* [nfiles] each file's number in the tree (its path) */
	uint64_t *size;	  /* [nfiles] bytes */
	uint64_t *vstart; /* [nfiles] where each file starts in the set's space (aligned) */
	uint64_t space;	  /* the space's end: vstart + size of the last file, aligned */
	uint64_t bytes;	  /* the files' sizes summed */
	uint32_t nwork;	  /* "workingset": how many of the files the workloads use */
	uint32_t *work;	  /* [nwork] their indexes among the nfiles, ascending; NULL: all */
};

/*
 * Parse the "fileset" object o into s, check every key (unknown ones
 * refused) and the tree's size. 0 or -EINVAL with a message naming
 * "<base>.fileset.<key>" in err.
 */
int bc_fileset_spec_from_json(const cJSON *o, const char *base, struct bc_fileset_spec *s,
			      char *err, size_t errlen);

/* s in full (every default applied); NULL when !s->enabled; caller owns the result */
cJSON *bc_fileset_spec_to_json(const struct bc_fileset_spec *s);

/* how many directories and files s makes; false when beyond BC_FILESET_FILES_MAX */
bool bc_fileset_count(const struct bc_fileset_spec *s, uint64_t *ndirs, uint64_t *nfiles);

/*
 * the volume's files of s: each one's number in the tree, size and place in
 * the set's space; 0, -ENOMEM, or -ERANGE when "totalsize" is more than the
 * volume's files hold (vdbench stops at that too)
 */
int bc_fileset_plan(const struct bc_fileset_spec *s, struct bc_fileset_plan *p);
/* file f of the tree: its size (a pure function of s and f), and whether the volume uses it */
uint64_t bc_fileset_file_size(const struct bc_fileset_spec *s, uint32_t f);
bool bc_fileset_mine(const struct bc_fileset_spec *s, uint32_t f);
void bc_fileset_plan_free(struct bc_fileset_plan *p);

/*
 * The relative path of directory d (0..ndirs-1) or file f (0..nfiles-1)
 * of the tree of s, as vdbench names them: "vdb.1_2.dir/vdb.2_1.dir" and
 * ".../vdb_f0003.file". 0, or -ENAMETOOLONG.
 */
int bc_fileset_dir_path(const struct bc_fileset_spec *s, uint32_t d, char *out, size_t len);
int bc_fileset_file_path(const struct bc_fileset_spec *s, uint32_t f, char *out, size_t len);

#endif
