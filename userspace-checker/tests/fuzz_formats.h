/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets' event formats: those of the x86_64 guest, kept in
 * tests/data (RB_FUZZ_DATA), parsed once into a tep and an rb_format.
 */
#ifndef _FUZZ_FORMATS_H
#define _FUZZ_FORMATS_H

#include <event-parse.h>

#include "rb_format.h"

/* Exits with status 2 if the formats cannot be read. */
struct tep_handle *fuzz_formats(struct rb_format *fmt, int page_size);

#endif /* _FUZZ_FORMATS_H */
