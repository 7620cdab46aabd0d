// SPDX-License-Identifier: GPL-2.0
/*
 * One sub-buffer, decoded with kbuffer: the same code for the live reader
 * and for saved raw captures, so both give the same verdict on the same data.
 */
#include <inttypes.h>
#include <stdio.h>

#include "rb_subbuf.h"

int rb_subbuf_feed(struct rb_input *in, struct kbuffer *kbuf, void *page, int psize,
		   int cpu, int64_t subbuf)
{
	struct tep_record rec = { .cpu = cpu };
	struct rb_pos pos = { .subbuf = subbuf };
	unsigned long long ts;
	void *data;
	int missed, size;

	if (kbuffer_load_subbuffer(kbuf, page) < 0) {
		snprintf(in->err, sizeof(in->err),
			 "cpu%d sub-buffer %" PRId64 ": header does not parse", cpu, subbuf);
		return -1;
	}
	/* The commit field says how much data follows the header. */
	size = kbuffer_subbuffer_size(kbuf);
	if (size < 0 || size > psize - kbuffer_start_of_data(kbuf)) {
		snprintf(in->err, sizeof(in->err),
			 "cpu%d sub-buffer %" PRId64 ": header claims %d bytes of data, "
			 "more than the %d-byte sub-buffer holds", cpu, subbuf, size, psize);
		return -1;
	}
	missed = kbuffer_missed_events(kbuf);
	if (missed)
		rb_verify_lost(in->v, cpu, missed);

	for (data = kbuffer_read_event(kbuf, &ts); data;
	     data = kbuffer_next_event(kbuf, &ts)) {
		rec.ts = ts;
		rec.data = data;
		rec.size = kbuffer_event_size(kbuf);
		pos.offset = kbuffer_curr_offset(kbuf);
		if (pos.offset + rec.size > (uint64_t)psize) {
			snprintf(in->err, sizeof(in->err),
				 "cpu%d sub-buffer %" PRId64 " offset 0x%" PRIx64
				 ": event of %d bytes runs past the sub-buffer", cpu, subbuf,
				 pos.offset, rec.size);
			return -1;
		}
		if (rb_input_record(in, &rec, &pos) < 0)
			return -1;
	}
	return 0;
}
