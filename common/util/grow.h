/*
 * util/grow.h - room for one more element in an array that doubles as it
 * grows (a list of unknown length built once, outside any I/O path).
 */
#ifndef BC_UTIL_GROW_H
#define BC_UTIL_GROW_H

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

/*
 * *arr holds n elements of elem bytes in room for *cap: when full, double it
 * (first: the room of an empty one). 0, or -ENOMEM with *arr unchanged.
 */
static inline int bc_grow(void *arr, int n, int *cap, size_t elem, int first)
{
	void **a = arr, *p;
	int c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : first;
	p = realloc(*a, (size_t)c * elem);
	if (!p)
		return -ENOMEM;
	*a = p;
	*cap = c;
	return 0;
}

#endif
