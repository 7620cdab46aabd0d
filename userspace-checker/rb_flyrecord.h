/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_FLYRECORD_H
#define _RB_FLYRECORD_H

#include <event-parse.h>

#include "rb_input.h"
#include "rb_tracedat_check.h"

/*
 * Read the top-level buffer's data of a version 6 or 7 trace.dat, one
 * zstd chunk (or page) at a time, every sub-buffer through
 * rb_subbuf_feed(); with @check_only, only through rb_subbuf_check(), for
 * a caller that then has libtracecmd read it.  @lay is what
 * rb_tracedat_check() found in the file (where each CPU's data lies), @tep
 * has its formats (from libtracecmd).  A sub-buffer whose bytes repeat an
 * earlier one of its CPU is damage: a reader consumes each page once.
 * Returns 1 done, 0 if this file is not ours to read (a latency trace,
 * a compression other than zstd, options libtracecmd must unpack), -1 with
 * in->err saying where the data is damaged.
 */
int rb_flyrecord_read(const char *path, const struct rb_tracedat_layout *lay,
		      struct tep_handle *tep, struct rb_input *in, bool check_only);

#endif /* _RB_FLYRECORD_H */
