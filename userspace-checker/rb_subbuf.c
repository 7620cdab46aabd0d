// SPDX-License-Identifier: GPL-2.0
/*
 * One sub-buffer, decoded with kbuffer: the same code for the live reader
 * and for saved raw captures, so both give the same verdict on the same data.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "rb_subbuf.h"

/* kbuffer's reading of the commit word (libtraceevent kbuffer-parse.c). */
#define RB_MISSED_EVENTS	(1ULL << 31)
#define RB_MISSED_STORED	(1ULL << 30)
#define RB_COMMIT_MASK		((1ULL << 27) - 1)

static uint64_t read_word(const unsigned char *p, int size, bool big)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
	return v;
}

/*
 * u64 time stamp, then a long commit word: the data length in its low bits,
 * and flags saying events were lost before this sub-buffer and whether
 * their count is stored after the data.  All of it must fit the sub-buffer.
 */
static int check_header(struct rb_input *in, const void *page,
			const struct rb_subbuf_layout *l, int cpu, int64_t subbuf)
{
	uint64_t commit = read_word((const unsigned char *)page + 8, l->long_size, l->big_endian);
	uint64_t room = l->psize - 8 - l->long_size;
	uint64_t size = commit & RB_COMMIT_MASK;
	uint64_t need = size + ((commit & RB_MISSED_STORED) ? l->long_size : 0);

	if (need <= room)
		return 0;
	snprintf(in->err, sizeof(in->err),
		 "cpu%d sub-buffer %" PRId64 ": header claims %" PRIu64 " bytes of data%s, "
		 "more than the %d-byte sub-buffer holds", cpu, subbuf, size,
		 (commit & RB_MISSED_STORED) ? " and a lost-events count" : "", l->psize);
	return -1;
}

int rb_subbuf_feed(struct rb_input *in, struct kbuffer *kbuf, void *page,
		   const struct rb_subbuf_layout *l, int cpu, int64_t subbuf)
{
	int psize = l->psize;
	struct tep_record rec = { .cpu = cpu };
	struct rb_pos pos = { .subbuf = subbuf };
	unsigned long long ts;
	void *data;
	int missed;

	if (check_header(in, page, l, cpu, subbuf) < 0)
		return -1;
	if (kbuffer_load_subbuffer(kbuf, page) < 0) {
		snprintf(in->err, sizeof(in->err),
			 "cpu%d sub-buffer %" PRId64 ": header does not parse", cpu, subbuf);
		return -1;
	}
	missed = kbuffer_missed_events(kbuf);
	if (missed)
		rb_verify_lost(in->v, cpu, missed);

	for (data = kbuffer_read_event(kbuf, &ts); data;
	     data = kbuffer_next_event(kbuf, &ts)) {
		uint64_t offset = kbuffer_curr_offset(kbuf);

		/* An event header giving length 0 would have kbuffer loop here forever. */
		if (pos.offset && offset <= pos.offset) {
			snprintf(in->err, sizeof(in->err),
				 "cpu%d sub-buffer %" PRId64 " offset 0x%" PRIx64
				 ": event header does not advance (length 0)", cpu, subbuf, offset);
			return -1;
		}
		rec.ts = ts;
		rec.data = data;
		rec.size = kbuffer_event_size(kbuf);
		pos.offset = offset;
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
