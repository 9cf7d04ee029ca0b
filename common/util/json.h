/*
 * util/json.h - exact 64-bit integers in cJSON. cJSON keeps numbers as
 * doubles, which hold integers exactly only up to 2^53: a CLOCK_REALTIME
 * in ns (~1.8e18) came out as 1.7961511672418547e+18, rounded to 256 ns
 * (and cJSON's "%1.15g" print rounds any integer of more than 15 digits).
 * Such an integer made here is a cJSON number (readable as one, to double
 * precision) that also carries its exact digits; bc_json_print
 * writes those digits, bc_json_parse keeps them from the text, and
 * bc_json_get_u64/_i64 read them back exactly. The one rule for every
 * JSON that leaves or enters a process: run.json, events.jsonl, messages.
 */
#ifndef BC_UTIL_JSON_H
#define BC_UTIL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* a number item with v exactly; caller owns it (NULL without memory) */
cJSON *bc_json_u64(uint64_t v);
cJSON *bc_json_i64(int64_t v);
/* add one to obj under key; returns the item or NULL */
cJSON *bc_json_add_u64(cJSON *obj, const char *key, uint64_t v);
cJSON *bc_json_add_i64(cJSON *obj, const char *key, int64_t v);
/*
 * j's value as an exact integer: its digits when it carries them, else its
 * double (truncated; NaN and negatives read as 0 for _u64, clamped to the
 * type's range). false when j is not a number (then *v = 0).
 */
bool bc_json_get_u64(const cJSON *j, uint64_t *v);
bool bc_json_get_i64(const cJSON *j, int64_t *v);
/* the same, 0 when j is not a number */
uint64_t bc_json_u64_of(const cJSON *j);
int64_t bc_json_i64_of(const cJSON *j);
/*
 * cJSON_Print / cJSON_PrintUnformatted's text with exact integers (and
 * several times faster on numbers); free with cJSON_free (cJSON's default
 * allocator, malloc: no hooks are set in this project)
 */
char *bc_json_print(const cJSON *j, bool formatted);
/*
 * formatted, as if at nesting depth within a document being written piece
 * by piece (cJSON_Print's text with depth more tabs after each line break)
 */
char *bc_json_print_nested(const cJSON *j, int depth);
/* cJSON_ParseWithLength keeping integers of more than 15 digits exact; caller owns it */
cJSON *bc_json_parse(const char *text, size_t len);

/*
 * Whether a string of root (parsed from text) holds a NUL character
 * ("\u0000", which cJSON decodes into a string cut short there): true with
 * the first such string's JSON path ("volumes[1].path"; "" for the root) in
 * path. Names must never be cut silently: callers refuse such a text.
 */
bool bc_json_nul_path(const cJSON *root, const char *text, size_t len, char *path, size_t pathlen);

#endif
