/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RB_TRACEDAT_CHECK_H
#define RB_TRACEDAT_CHECK_H

#include <stddef.h>

/*
 * Walk a trace.dat's layout (versions 6 and 7) before any library reads
 * it: 0 if every offset and size lies inside the file and the header's
 * fields make sense, else -1 with what is wrong and where in @err (the
 * caller names the file).  Refuses anything but a regular file.  @clock
 * (if not NULL) gets the trace clock the file says it was recorded with,
 * "" if it does not say.
 */
int rb_tracedat_check(const char *path, char *clock, size_t clocklen, char *err, size_t errlen);

#endif
