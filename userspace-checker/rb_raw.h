/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading raw captures (written by rb_capture.c; the format on disk is
 * rb_raw_format.h): the sub-buffers a live run read, as the kernel gave them,
 * with the formats needed to decode them elsewhere.  A directory with
 *
 *   meta          "rbcheck-raw 1", page_size, long_size, endian, machine,
 *                 cpus, trace_clock (when known) at the start; cpuN_bytes
 *                 (stream_bytes, trace_clock_switched) when it ends
 *   header_page   events/header_page of the traced kernel
 *   format        events/rbstress/rbstress_event/format
 *   cpuN.raw      CPU N's sub-buffers in read order, each as a record: a
 *                 32-bit length (host order), then the sub-buffer's header
 *                 and committed data (a reader that keeps up reads mostly
 *                 partial sub-buffers: whole pages would be ten times larger)
 *
 * Verifying it offline must give exactly the live verdict.
 */
#ifndef _RB_RAW_H
#define _RB_RAW_H

#include <stddef.h>

#include "rb_input.h"

/* Is @path a raw capture directory (has a meta file)? */
int rb_raw_is_capture(const char *path);
struct rb_raw;

/*
 * Open the raw capture in @dir: meta, the formats (into in->fmt) and the
 * completeness of its files checked.  NULL with @err saying what and where.
 */
struct rb_raw *rb_raw_open(const char *dir, struct rb_input *in, char *err, size_t errlen);
/* The trace clock its meta says it was recorded with; "" if it does not say. */
const char *rb_raw_clock(const struct rb_raw *r);
/* Feed every sub-buffer to the verifier.  Returns 0, or -1 with @err set. */
int rb_raw_read(struct rb_raw *r, struct rb_input *in, char *err, size_t errlen);
void rb_raw_close(struct rb_raw *r);

#endif /* _RB_RAW_H */
