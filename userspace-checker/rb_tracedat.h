/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_TRACEDAT_H
#define _RB_TRACEDAT_H

#include <stdbool.h>

#include "rb_input.h"
#include "rb_tracedat_check.h"

struct tracecmd_input;

/*
 * Open a trace.dat written by trace-cmd.  Returns the handle, with @lay
 * what the check of its layout found (lay->clock: the trace clock the
 * file says it was recorded with, "" if it does not say), or NULL with
 * @err saying why (missing, unreadable, not a trace.dat, damaged, no
 * rbstress format).
 */
struct tracecmd_input *rb_tracedat_open(const char *path, struct rb_input *in,
					struct rb_tracedat_layout *lay, char *err, size_t errlen);

/*
 * Read every CPU of it, in buffer order: streamed by rb_flyrecord.c from
 * @lay when @stream and the file allows, else through libtracecmd.
 * Returns 0, or -1 with in->err set.
 */
int rb_tracedat_read(struct tracecmd_input *handle, const char *path,
		     const struct rb_tracedat_layout *lay, bool stream, struct rb_input *in);

void rb_tracedat_close(struct tracecmd_input *handle);

#endif /* _RB_TRACEDAT_H */
