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

/* type_len values of the event header (include/linux/ring_buffer.h). */
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31

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

/*
 * Every event header, padding and time stamps included, must end inside
 * the sub-buffer before kbuffer sees it: kbuffer skips padding and time
 * stamps on its own, adding lengths in 32 bits, and a length near 2^32
 * takes it backwards, round and round, inside kbuffer_load_subbuffer()
 * (a fuzzer found it: tests/fuzz-crashes/padding-length-wraps).  The
 * kernel's own padding at a page's end ends exactly at the page's end.
 */
static int check_events(struct rb_input *in, const void *page,
			const struct rb_subbuf_layout *l, int cpu, int64_t subbuf)
{
	const unsigned char *p = page;
	uint64_t start = 8 + l->long_size;
	uint64_t end = start + (read_word(p + 8, l->long_size, l->big_endian) & RB_COMMIT_MASK);
	uint64_t off = start, len;

	while (off + 4 <= end) {
		uint32_t h = read_word(p + off, 4, l->big_endian);
		unsigned int type_len = l->big_endian ? h >> 27 : h & 0x1f;
		uint32_t delta = l->big_endian ? h & ((1u << 27) - 1) : h >> 5;

		switch (type_len) {
		case RB_TYPE_PADDING:
			if (!delta)
				return 0;	/* the rest of the page is empty */
			/* a padding's length is in its next word, as a big event's */
			__attribute__((fallthrough));
		case 0:
			len = off + 8 <= (uint64_t)l->psize ?
			      4 + read_word(p + off + 4, 4, l->big_endian) : 8;
			break;
		case RB_TYPE_TIME_STAMP:
		case RB_TYPE_TIME_EXTEND:
			len = 8;
			break;
		default:
			len = 4 + 4 * type_len;
		}
		if (off + len > (uint64_t)l->psize) {
			snprintf(in->err, sizeof(in->err),
				 "cpu%d sub-buffer %" PRId64 " offset 0x%" PRIx64
				 ": event of %" PRIu64 " bytes runs past the sub-buffer", cpu, subbuf,
				 off, len);
			return -1;
		}
		off += len;
	}
	return 0;
}

/*
 * rb_event_discard() gives a discarded event of delta 0 the delta 1, so
 * that it is not taken for the padding at the end of the page; the
 * writer's time did not move, and its check_buffer() does not count it.
 * kbuffer adds every padding's delta: find those 1s, to take them back.
 * An absolute time stamp ends their effect: it is marked too, with the
 * low bit of its offset set (offsets are 4-byte aligned).  Returns how
 * many marks, their page offsets in @offs (at most @max).
 */
int rb_subbuf_zero_discards(const void *page, const struct rb_subbuf_layout *l,
			    uint64_t *offs, int max)
{
	const unsigned char *p = page;
	uint64_t start = 8 + l->long_size;
	uint64_t end = start + (read_word(p + 8, l->long_size, l->big_endian) & RB_COMMIT_MASK);
	uint64_t off = start;
	int n = 0;

	if (end > (uint64_t)l->psize)
		return 0;	/* check_header() says why */
	while (off + 4 <= end) {
		uint32_t h = read_word(p + off, 4, l->big_endian);
		unsigned int type_len = l->big_endian ? h >> 27 : h & 0x1f;
		uint32_t delta = l->big_endian ? h & ((1u << 27) - 1) : h >> 5;
		uint64_t len;

		switch (type_len) {
		case RB_TYPE_PADDING:
			if (!delta)
				return n;	/* the rest of the page is empty */
			if (off + 8 > end)
				return n;
			if (delta == 1 && n < max)
				offs[n++] = off;
			len = 4 + read_word(p + off + 4, 4, l->big_endian);
			break;
		case RB_TYPE_TIME_STAMP:
			if (n < max)
				offs[n++] = off | 1;
			len = 8;
			break;
		case RB_TYPE_TIME_EXTEND:
			len = 8;
			break;
		case 0:
			if (off + 8 > end)
				return n;
			len = 4 + read_word(p + off + 4, 4, l->big_endian);
			break;
		default:
			len = 4 + 4 * type_len;
		}
		if (len < 4)
			return n;
		off += len;
	}
	return n;
}

int rb_subbuf_feed(struct rb_input *in, struct kbuffer *kbuf, void *page,
		   const struct rb_subbuf_layout *l, int cpu, int64_t subbuf)
{
	int psize = l->psize;
	struct tep_record rec = { .cpu = cpu };
	struct rb_pos pos = { .subbuf = subbuf };
	/* A page holds at most psize / 8 events. */
	uint64_t zero[512];
	int nzero, done = 0, fix = 0;
	unsigned long long ts;
	void *data;
	int missed;

	if (check_header(in, page, l, cpu, subbuf) < 0 || check_events(in, page, l, cpu, subbuf) < 0)
		return -1;
	if (kbuffer_load_subbuffer(kbuf, page) < 0) {
		snprintf(in->err, sizeof(in->err),
			 "cpu%d sub-buffer %" PRId64 ": header does not parse", cpu, subbuf);
		return -1;
	}
	nzero = rb_subbuf_zero_discards(page, l, zero, sizeof(zero) / sizeof(zero[0]));
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
		/* kbuffer's offset of an event may be that of its time stamp */
		for (; done < nzero && (zero[done] & ~1ULL) <= offset; done++)
			fix = (zero[done] & 1) ? 0 : fix + 1;
		rec.ts = ts - fix;
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
