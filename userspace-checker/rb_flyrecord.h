/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_FLYRECORD_H
#define _RB_FLYRECORD_H

#include <event-parse.h>

#include "rb_input.h"

/*
 * Read the top-level buffer's per-CPU data of the trace.dat at @path
 * ourselves, one zstd chunk (or page) at a time, into the verifier; @tep
 * has its formats (from libtracecmd).  Returns 1 when done, 0 when the
 * file is not one this reader streams (version 6, another compression,
 * compressed options: use libtracecmd), -1 with in->err saying where the
 * data stops making sense.
 */
int rb_flyrecord_read(const char *path, struct tep_handle *tep, struct rb_input *in);

/*
 * Is the version 7 file at @path shorter than its CPU data says?  Then 1,
 * with which CPU (and sub-buffer, uncompressed) the file ends in, in @err.
 */
int rb_flyrecord_truncated(const char *path, char *err, size_t errlen);

#endif /* _RB_FLYRECORD_H */
