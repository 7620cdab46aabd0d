// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_formats.h"

#ifndef RB_FUZZ_DATA
#define RB_FUZZ_DATA "tests/data"
#endif

static char *slurp(const char *name, size_t *len)
{
	char path[512];
	char *buf;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", RB_FUZZ_DATA, name);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "fuzz: %s: cannot open\n", path);
		exit(2);
	}
	buf = calloc(1, 65536);
	*len = fread(buf, 1, 65535, f);
	fclose(f);
	return buf;
}

struct tep_handle *fuzz_formats(struct rb_format *fmt, int page_size)
{
	size_t hlen, flen;
	char *header = slurp("header_page", &hlen);
	char *format = slurp("rbstress_event.format", &flen);
	struct tep_handle *tep = tep_alloc();
	char err[256];

	tep_set_long_size(tep, 8);
	tep_set_page_size(tep, page_size);
	if (tep_parse_header_page(tep, header, hlen, 8) < 0 ||
	    tep_parse_event(tep, format, flen, "rbstress") != 0 ||
	    rb_format_init(fmt, tep, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz: the formats in %s do not parse\n", RB_FUZZ_DATA);
		exit(2);
	}
	free(header);
	free(format);
	return tep;
}
