/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_FLYRECORD_H
#define _RB_FLYRECORD_H

#include <event-parse.h>

#include "rb_input.h"
#include "rb_tracedat_check.h"

/*
 * Read the top-level buffer's per-CPU data of the trace.dat at @path
 * ourselves, one zstd chunk (or page) at a time, into the verifier; @lay
 * is what rb_tracedat_check() found in it (where each CPU's data lies),
 * @tep has its formats (from libtracecmd).  Returns 1 when done, 0 when
 * the file is not one this reader streams (version 6, another
 * compression, compressed options: use libtracecmd), -1 with in->err
 * saying where the data stops making sense.
 */
int rb_flyrecord_read(const char *path, const struct rb_tracedat_layout *lay,
		      struct tep_handle *tep, struct rb_input *in);

#endif /* _RB_FLYRECORD_H */
