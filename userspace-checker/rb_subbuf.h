/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_SUBBUF_H
#define _RB_SUBBUF_H

#include <kbuffer.h>

#include "rb_input.h"

/*
 * Feed the events of one ring buffer sub-buffer (a page of trace_pipe_raw,
 * live or saved) to the verifier, with its lost-events report.  @psize is
 * the sub-buffer size.  Returns 0, or -1 with in->err saying where the data
 * stops making sense.
 */
int rb_subbuf_feed(struct rb_input *in, struct kbuffer *kbuf, void *page, int psize,
		   int cpu, int64_t subbuf);

#endif /* _RB_SUBBUF_H */
