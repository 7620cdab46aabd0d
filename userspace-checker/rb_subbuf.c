// SPDX-License-Identifier: GPL-2.0
/*
 * One sub-buffer, decoded with kbuffer: the same code for the live reader
 * and for saved raw captures, so both give the same verdict on the same data.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rb_generic.h"
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

static int bad_commit(struct rb_input *in, int cpu, int64_t subbuf, uint64_t commit,
		      const char *why)
{
	snprintf(in->err, sizeof(in->err), "cpu%d sub-buffer %" PRId64 ": commit word %#" PRIx64
		 " is no kernel's: %s", cpu, subbuf, commit, why);
	return -1;
}

/*
 * ring_buffer_read_page() zeroes the page past the data (and the
 * lost-events count it stores there), so that nothing stale reaches user
 * space.  A non-zero byte after it is a cut or moved commit word, a
 * header page size larger than the data's, or bytes written over.
 */
static int check_tail(struct rb_input *in, const void *page, const struct rb_subbuf_layout *l,
		      int cpu, int64_t subbuf, uint64_t from)
{
	const unsigned char *p = page;

	for (uint64_t o = from; o < (uint64_t)l->psize; o++) {
		if (!p[o])
			continue;
		snprintf(in->err, sizeof(in->err),
			 "cpu%d sub-buffer %" PRId64 " offset 0x%" PRIx64 ": non-zero byte after "
			 "the data (it ends at 0x%" PRIx64 "), where the kernel's reader leaves "
			 "zeros: damaged, not %d-byte sub-buffers, or mapped (--mapped)",
			 cpu, subbuf, o, from, l->psize);
		return -1;
	}
	return 0;
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

	/*
	 * The kernel's commit is a write index (at most RB_WRITE_MASK, 20
	 * bits) of 4-byte aligned records, with the two flags above: any
	 * other bit, or a length past the sub-buffer or not a multiple of 4,
	 * is damage, not a sub-buffer.  RB_MISSED_EVENTS is (1 << 31), an
	 * int: added to a 64-bit local_t it sets the upper half too.
	 */
	if (l->long_size == 8 && (commit >> 32) == 0xffffffffULL && (commit & RB_MISSED_EVENTS))
		commit &= 0xffffffffULL;
	if (commit & ~(RB_COMMIT_MASK | RB_MISSED_EVENTS | RB_MISSED_STORED))
		return bad_commit(in, cpu, subbuf, commit,
				  "bits set that are neither the length nor the lost-events flags");
	if (need <= room) {
		if (size & 3)
			return bad_commit(in, cpu, subbuf, commit,
					  "a length that is not a multiple of 4");
		return l->zero_tail ? check_tail(in, page, l, cpu, subbuf, 8 + l->long_size + need) : 0;
	}
	snprintf(in->err, sizeof(in->err),
		 "cpu%d sub-buffer %" PRId64 ": header claims %" PRIu64 " bytes of data%s, "
		 "more than the %d-byte sub-buffer holds", cpu, subbuf, size,
		 (commit & RB_MISSED_STORED) ? " and a lost-events count" : "", l->psize);
	return -1;
}

/* At most one mark per 8 bytes of a sub-buffer of up to 4 KiB. */
#define RB_MAX_MARKS		512

/* What one walk over a sub-buffer's records finds besides the events. */
struct rb_walk {
	/*
	 * The offsets of the discarded events whose delta 1 stands for 0,
	 * and of absolute time stamps (offset | 1), which end their effect.
	 */
	uint64_t	marks[RB_MAX_MARKS];
	int		nmarks;
	uint64_t	n[RB_REC_MAX];
};

/*
 * One walk over the records of a sub-buffer, before kbuffer sees it:
 *
 * - Every event header, padding and time stamps included, must end inside
 *   the sub-buffer: kbuffer skips padding and time stamps on its own,
 *   adding lengths in 32 bits, and a length near 2^32 takes it backwards,
 *   round and round, inside kbuffer_load_subbuffer() (a fuzzer found it:
 *   tests/fuzz-crashes/padding-length-wraps).  The kernel's own padding at
 *   a page's end ends exactly at the page's end.
 * - rb_event_discard() gives a discarded event of delta 0 the delta 1, so
 *   that it is not taken for the padding at the end of the page; the
 *   writer's time did not move, and its check_buffer() does not count it.
 *   kbuffer adds every padding's delta: those 1s are marked, to be taken
 *   back, and so is every absolute time stamp, which ends their effect.
 * - The records that show which time stamp path an event took are
 *   counted: time extends (a delta too large), full time stamps (the
 *   absolute mode, or forced when before_stamp and write_stamp differed),
 *   and discarded events left as padding (any padding with a delta but
 *   the last record of delta 1: rb_reset_tail()'s padding ends the data,
 *   and keeps its length where a partial read copies it into a page of
 *   its own, so it need not reach the page's end).
 */
static int walk_records(struct rb_input *in, const void *page, const struct rb_subbuf_layout *l,
			int cpu, int64_t subbuf, struct rb_walk *w)
{
	const unsigned char *p = page;
	uint64_t start = 8 + l->long_size;
	uint64_t end = start + (read_word(p + 8, l->long_size, l->big_endian) & RB_COMMIT_MASK);
	uint64_t off = start, len;

	w->nmarks = 0;
	memset(w->n, 0, sizeof(w->n));
	w->n[RB_REC_SUBBUF] = end > start;
	while (off + 4 <= end) {
		uint32_t h = read_word(p + off, 4, l->big_endian);
		unsigned int type_len = l->big_endian ? h >> 27 : h & 0x1f;
		uint32_t delta = l->big_endian ? h & ((1u << 27) - 1) : h >> 5;
		uint64_t mark = UINT64_MAX;

		switch (type_len) {
		case RB_TYPE_PADDING:
			if (!delta)
				return 0;	/* the rest of the page is empty */
			if (delta == 1)
				mark = off;
			/* a padding's length is in its next word, as a big event's */
			__attribute__((fallthrough));
		case 0:
			len = off + 8 <= (uint64_t)l->psize ?
			      4 + read_word(p + off + 4, 4, l->big_endian) : 8;
			/*
			 * The length word counts itself: a record of fewer
			 * than 8 bytes, or not 4-byte aligned, is no kernel's.
			 */
			if (len < 8 || len & 3) {
				snprintf(in->err, sizeof(in->err),
					 "cpu%d sub-buffer %" PRId64 " offset 0x%" PRIx64
					 ": record length %" PRIu64 " is no kernel's", cpu, subbuf,
					 off, len);
				return -1;
			}
			break;
		case RB_TYPE_TIME_STAMP:
			mark = off | 1;
			w->n[RB_REC_ABSOLUTE]++;
			len = 8;
			break;
		case RB_TYPE_TIME_EXTEND:
			w->n[RB_REC_EXTEND]++;
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
		/*
		 * The commit is the write index after whole records (the end
		 * padding included): a record across it is a cut commit.
		 */
		if (off + len > end) {
			snprintf(in->err, sizeof(in->err),
				 "cpu%d sub-buffer %" PRId64 " offset 0x%" PRIx64
				 ": record of %" PRIu64 " bytes runs past the data (it ends at 0x%"
				 PRIx64 ")", cpu, subbuf, off, len, end);
			return -1;
		}
		/*
		 * rb_reset_tail() pads the end with delta 1 (0 when too
		 * short, which ends the walk above): a padding before
		 * other records, or with a delta of more than 1, is a
		 * discarded event.
		 */
		if (type_len == RB_TYPE_PADDING)
			w->n[off + len < end || delta > 1 ?
			     RB_REC_DISCARDED : RB_REC_END_PADDING]++;
		if (mark != UINT64_MAX && w->nmarks < RB_MAX_MARKS)
			w->marks[w->nmarks++] = mark;
		off += len;
	}
	return 0;
}

/*
 * Take the marks up to @limit: each padding of delta 1 adds one to @fix
 * (this sub-buffer's) and each absolute stamp ends both its and @carry's
 * (the copied page's) effect.
 */
static void take_marks(const struct rb_walk *w, int *done, uint64_t limit, int *fix, int *carry)
{
	for (; *done < w->nmarks && (w->marks[*done] & ~1ULL) <= limit; (*done)++) {
		bool absolute = w->marks[*done] & 1;

		*fix = absolute ? 0 : *fix + 1;
		*carry = absolute ? 0 : *carry;
	}
}

int rb_subbuf_check(struct rb_input *in, const void *page,
		    const struct rb_subbuf_layout *l, int cpu, int64_t subbuf)
{
	struct rb_walk w;

	return check_header(in, page, l, cpu, subbuf) < 0 ||
	       walk_records(in, page, l, cpu, subbuf, &w) < 0 ? -1 : 0;
}

int rb_subbuf_feed(struct rb_input *in, struct kbuffer *kbuf, void *page,
		   const struct rb_subbuf_layout *l, int cpu, int64_t subbuf)
{
	int psize = l->psize;
	struct tep_record rec = { .cpu = cpu };
	struct rb_pos pos = { .subbuf = subbuf };
	struct rb_walk w;
	int done = 0, fix = 0, carry = 0, events = 0;
	uint64_t stamp = read_word(page, 8, l->big_endian);
	unsigned long long ts;
	void *data;
	int missed;

	if (check_header(in, page, l, cpu, subbuf) < 0 ||
	    walk_records(in, page, l, cpu, subbuf, &w) < 0)
		return -1;
	if (kbuffer_load_subbuffer(kbuf, page) < 0) {
		snprintf(in->err, sizeof(in->err),
			 "cpu%d sub-buffer %" PRId64 ": header does not parse", cpu, subbuf);
		return -1;
	}
	if (in->g && w.n[RB_REC_SUBBUF])
		rb_generic_subbuf(in->g, cpu, stamp, &pos);
	/* a copy of a partly read page, its stamp the read_stamp after them */
	if (cpu >= 0 && cpu < RB_MAX_CPUS && in->tail[cpu].pad1 && stamp == in->tail[cpu].ts)
		carry = in->tail[cpu].pad1;
	rb_verify_records(in->v, cpu, w.n);
	in->v->subbuf_size = psize;
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
		take_marks(&w, &done, offset, &fix, &carry);
		rec.ts = ts - fix;
		pos.pad1 = fix + carry;
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
		events++;
	}
	/*
	 * The paddings in effect after the last event (those before it and
	 * after it, since an absolute stamp): the read_stamp a reader gives
	 * a copy of the rest of this page has taken them all as no time.
	 */
	if (events && cpu >= 0 && cpu < RB_MAX_CPUS) {
		take_marks(&w, &done, UINT64_MAX, &fix, &carry);
		in->tail[cpu].ts = rec.ts;
		in->tail[cpu].pad1 = fix + carry;
	}
	return 0;
}
