/* SPDX-License-Identifier: GPL-2.0 */
#ifndef RB_TRACEDAT_CHECK_H
#define RB_TRACEDAT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rb_capture.h"		/* RB_MAX_CPUS */

/*
 * What the walk of a trace.dat found, for the readers that come after it:
 * the header's fields, the clock the file says it was recorded with, and
 * where the top-level buffer's data of each CPU lies.  One walk, so no
 * second parser of the same bytes can disagree with it.
 */
struct rb_tracedat_layout {
	int		version;	/* 6 or 7 */
	bool		big_endian;
	int		long_size;	/* 4 or 8 */
	uint32_t	psize;		/* the header's page size */
	char		compression[64];	/* version 7: "none", "zstd", ... */
	char		clock[32];	/* "" if the file does not say */
	/*
	 * Every CPU's data of the top-level buffer inside the file: version
	 * 7's BUFFER option, version 6's flyrecord table.  -1 where it is not
	 * known (a latency trace, options sections that are compressed, more
	 * CPUs than RB_MAX_CPUS: libtracecmd reads those).
	 */
	int		ncpus;
	struct {
		int		id;
		uint64_t	offset, size;
	} cpu[RB_MAX_CPUS];
};

/*
 * Walk a trace.dat's layout (versions 6 and 7) before any library reads
 * it: 0 if every offset and size lies inside the file and the header's
 * fields make sense, with @lay filled in; else -1 with what is wrong and
 * where in @err (the caller names the file).  Refuses anything but a
 * regular file.
 */
int rb_tracedat_check(const char *path, struct rb_tracedat_layout *lay, char *err, size_t errlen);

#endif
