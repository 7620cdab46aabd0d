/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw captures: the sub-buffers a live run read, as the kernel gave them,
 * with the formats needed to decode them elsewhere.  A directory with
 *
 *   meta          "rbcheck-raw 1", page_size, long_size, endian
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

struct rb_raw_writer;

/* Start a capture in @dir (created if needed) from the local tracefs. */
struct rb_raw_writer *rb_raw_create(const char *dir, int psize, char *err, size_t errlen);
/* Append one sub-buffer of @cpu.  Returns -1 with errno on failure. */
int rb_raw_save_subbuf(struct rb_raw_writer *w, int cpu, const void *page, int psize);
/* Returns -1 with errno if a write could not be completed. */
int rb_raw_close(struct rb_raw_writer *w);

/* Is @path a raw capture directory (has a meta file)? */
int rb_raw_is_capture(const char *path);
/* Verify a raw capture.  Returns 0, or -1 with @err saying what and where. */
int rb_raw_verify(const char *dir, struct rb_input *in, char *err, size_t errlen);

#endif /* _RB_RAW_H */
