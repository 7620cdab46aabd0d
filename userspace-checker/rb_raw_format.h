/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The raw capture on disk, shared by its writers (rbcheck live --save-raw,
 * rbdrain) and its reader (rb_raw.c).  libc only: rbdrain includes it and
 * is built static, for the guest's architecture.
 *
 * A capture is a directory: "meta" (RB_RAW_MAGIC, then page_size (the
 * size of one sub-buffer: a page, or buffer_subbuf_size_kb on 6.6 on),
 * long_size, endian, machine and cpus (the CPUs read) when it starts, and
 * when it ends cpuN_bytes for each (the bytes of its cpuN.raw, or of its
 * records in the stream) and, with a stream, stream_bytes: a reader
 * checks that it has every byte; a capture from before these lines
 * has none of them),
 * "header_page", "format", then either cpuN.raw (records of a u32 length
 * and that many bytes of sub-buffer) or stream.raw (records of u32 cpu,
 * u32 length, the bytes, ended by a record of cpu RB_RAW_STREAM_END), and
 * from rbdrain cpuN.stats-before and cpuN.stats-after.
 */
#ifndef _RB_RAW_FORMAT_H
#define _RB_RAW_FORMAT_H

#include <stdint.h>
#include <string.h>

#define RB_RAW_MAGIC		"rbcheck-raw 1"
#define RB_RAW_STREAM_END	0xffffffffu

/*
 * The used part of a sub-buffer, in the writer's own long size: u64 time
 * stamp, long commit, the data, and the lost-events count the kernel may
 * store after the data.  The commit word's bits 30 and 31 are
 * RB_MISSED_STORED and RB_MISSED_EVENTS.
 */
static inline uint32_t rb_raw_subbuf_used(const void *page, int psize)
{
	unsigned long commit;
	uint32_t used;

	memcpy(&commit, (const char *)page + 8, sizeof(commit));
	used = 8 + sizeof(long) + (commit & ((1UL << 30) - 1));
	if (commit & (1UL << 30))
		used += sizeof(long);
	return used > (uint32_t)psize ? (uint32_t)psize : used;
}

#endif /* _RB_RAW_FORMAT_H */
