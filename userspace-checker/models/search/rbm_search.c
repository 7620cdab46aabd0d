// SPDX-License-Identifier: GPL-2.0
/*
 * The set of explored states of a stateless depth-first search: 64-bit
 * hashes in an open-addressing table that doubles when half full.  A
 * hash of 0 is stored as 1 (0 marks an empty slot).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rbm_search.h"

static uint64_t *table;
static size_t tsize, tcount;

uint64_t rbm_search_mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

static void grow(void)
{
	uint64_t *old = table;
	size_t osize = tsize;

	tsize = tsize ? 2 * tsize : 1 << 20;
	table = calloc(tsize, sizeof(*table));
	if (!table) {
		fprintf(stderr, "model: out of memory at %zu states\n", tcount);
		exit(2);
	}
	for (size_t i = 0; i < osize; i++) {
		size_t j;

		if (!old[i])
			continue;
		for (j = old[i] & (tsize - 1); table[j]; j = (j + 1) & (tsize - 1))
			;
		table[j] = old[i];
	}
	free(old);
}

bool rbm_search_visit(uint64_t h)
{
	size_t i;

	if (!h)
		h = 1;
	if (2 * (tcount + 1) > tsize)
		grow();
	for (i = h & (tsize - 1); table[i]; i = (i + 1) & (tsize - 1))
		if (table[i] == h)
			return true;
	table[i] = h;
	tcount++;
	return false;
}

void rbm_search_forget(void)
{
	if (table)
		memset(table, 0, tsize * sizeof(*table));
	tcount = 0;
}

char rbm_search_pick_char(int pick)
{
	return pick < 10 ? '0' + pick : 'a' + pick - 10;
}

int rbm_search_char_pick(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	return -1;
}

void rbm_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

bool rbm_json_writable(const char *path)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return true;
	f = fopen(path, "w");
	if (!f)
		return false;
	fclose(f);
	return true;
}
