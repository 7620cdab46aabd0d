/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_SUBBUF_H
#define _RB_SUBBUF_H

#include <stdbool.h>
#include <stdint.h>

#include <kbuffer.h>

#include "rb_input.h"

/* How the traced kernel lays out a sub-buffer header. */
struct rb_subbuf_layout {
	int	psize;		/* sub-buffer size */
	int	long_size;	/* 4 or 8: the commit word */
	bool	big_endian;
	/*
	 * The capture's reader zeroed what follows the data, as
	 * ring_buffer_read_page() does for every page trace-cmd record
	 * reads or splices: a non-zero byte there is damage (or a page size
	 * the data does not have).  A memory-mapped reader leaves stale
	 * bytes there (rbcheck --mapped).
	 */
	bool	zero_tail;
};

/*
 * Feed the events of one ring buffer sub-buffer (a page of trace_pipe_raw,
 * live or saved) to the verifier, with its lost-events report.  The header
 * is checked before kbuffer reads it: kbuffer trusts the commit word.
 * Returns 0, or -1 with in->err saying where the data stops making sense.
 */
int rb_subbuf_feed(struct rb_input *in, struct kbuffer *kbuf, void *page,
		   const struct rb_subbuf_layout *l, int cpu, int64_t subbuf);

/*
 * The same checks of the header and of every record's length, without
 * reading the events: for a sub-buffer another library (libtracecmd)
 * reads next.  Returns 0, or -1 with in->err saying where.
 */
int rb_subbuf_check(struct rb_input *in, const void *page,
		    const struct rb_subbuf_layout *l, int cpu, int64_t subbuf);

#endif /* _RB_SUBBUF_H */
