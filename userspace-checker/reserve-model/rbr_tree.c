// SPDX-License-Identifier: GPL-2.0
/*
 * One copy of the tree's reserve path (RBR_CODE: extracted by
 * extract-reserve.py, with or without a seeded fault) on a buffer of one
 * CPU and one sub-buffer, exported as the variant RBR_SYM.  Built once
 * per variant: the tree's functions are static, so the copies do not
 * meet.
 */
#include <stdlib.h>

/* The tree's exported functions: one set of names per variant. */
#define RBR_PASTE2(a, b)		a##_##b
#define RBR_PASTE(a, b)			RBR_PASTE2(a, b)
#define ring_buffer_lock_reserve	RBR_PASTE(RBR_SYM, lock_reserve)
#define ring_buffer_event_data		RBR_PASTE(RBR_SYM, event_data)
#define ring_buffer_unlock_commit	RBR_PASTE(RBR_SYM, unlock_commit)
#define ring_buffer_discard_commit	RBR_PASTE(RBR_SYM, discard_commit)
#define ring_buffer_event_time_stamp	RBR_PASTE(RBR_SYM, event_time_stamp)

#include RBR_CODE

_Static_assert(MAX_NEST <= 8, "rbr_shim.h's event_stamp[] is too short");

static struct buffer_data_page *data_page;
static struct buffer_page tail_page;
static struct ring_buffer_per_cpu cpu_buffer;
static struct ring_buffer_per_cpu *buffers[1] = { &cpu_buffer };
static struct trace_buffer buffer;

static void reset(void)
{
	if (!data_page) {
		/* rb_try_to_discard() finds the page by masking an address */
		data_page = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
		if (!data_page)
			abort();
	}
	memset(data_page, 0, PAGE_SIZE);
	memset(&tail_page, 0, sizeof(tail_page));
	memset(&cpu_buffer, 0, sizeof(cpu_buffer));
	memset(&buffer, 0, sizeof(buffer));
	checking.counter = 0;
	ts_dump.counter = 0;
	tail_page.page = data_page;
	cpu_buffer.buffer = &buffer;
	cpu_buffer.head_page = cpu_buffer.tail_page = &tail_page;
	cpu_buffer.commit_page = cpu_buffer.reader_page = &tail_page;
	cpu_buffer.nr_pages = 1;
	buffer.buffers = buffers;
	buffer.clock = rbr_clock;
	buffer.max_data_size = PAGE_SIZE - BUF_PAGE_HDR_SIZE - 2 * sizeof(u32);
}

static void *reserve(unsigned long length)
{
	return ring_buffer_lock_reserve(&buffer, length);
}

static void *event_data(void *event)
{
	return ring_buffer_event_data(event);
}

static u64 event_time_stamp(void *event)
{
	return ring_buffer_event_time_stamp(&buffer, event);
}

static void commit(void *event)
{
#ifdef RBR_UNLOCK_COMMIT_TAKES_EVENT
	ring_buffer_unlock_commit(&buffer, event);
#else
	ring_buffer_unlock_commit(&buffer);
#endif
}

static void discard(void *event)
{
	ring_buffer_discard_commit(&buffer, event);
}

/*
 * The model's reader, with the kernel's delta rules: the page's time
 * stamp, then each entry's delta; a time extend adds its value, an
 * absolute stamp replaces the time (rb_fix_abs_ts()), padding (a
 * discarded event) adds its delta like an event but for the delta 1 that
 * rb_event_discard() puts in place of a 0 (the audit's rule: the model's
 * clock moves in steps of more than 1, so a real delta is never 1).
 */
static int decode(struct rbr_entry *out, int max, char *why, size_t len)
{
	unsigned long commit = data_page->commit.a;
	unsigned long e = 0;
	u64 ts = data_page->time_stamp;
	int n = 0;

	while (e < commit) {
		struct ring_buffer_event *event = (void *)(data_page->data + e);
		struct rbr_entry *x = &out[n];
		unsigned int length;

		if (n == max) {
			snprintf(why, len, "more than %d entries", max);
			return -1;
		}
		x->offset = e;
		x->id = 0;
		switch (event->type_len) {
		case RINGBUF_TYPE_TIME_EXTEND:
			x->kind = RBR_EXTEND;
			x->delta = rb_event_time_stamp(event);
			ts += x->delta;
			break;
		case RINGBUF_TYPE_TIME_STAMP:
			x->kind = RBR_ABSOLUTE;
			x->delta = rb_event_time_stamp(event);
			ts = rb_fix_abs_ts(x->delta, ts);
			break;
		case RINGBUF_TYPE_PADDING:
			x->kind = RBR_PADDING;
			x->delta = event->time_delta;
			if (event->time_delta != 1)
				ts += event->time_delta;
			break;
		default:
			x->kind = RBR_DATA;
			x->delta = event->time_delta;
			ts += event->time_delta;
			x->id = *(u32 *)rb_event_data(event);
			break;
		}
		x->ts = ts;
		length = rb_event_length(event);
		if (!length || e + length > commit) {
			snprintf(why, len, "entry at %lu of length %u runs past the commit %lu",
				 e, length, commit);
			return -1;
		}
		e += length;
		n++;
	}
	return n;
}

static void indexes(unsigned long *write, unsigned long *commit)
{
	*write = tail_page.write.a & RB_WRITE_MASK;
	*commit = data_page->commit.a;
}

static void stamps(u64 *before, u64 *write)
{
	*before = cpu_buffer.before_stamp.time.a;
	*write = cpu_buffer.write_stamp.time.a;
}

static u64 hash(u64 h, u64 (*mix)(u64, u64))
{
	const local_t *words[] = {
		&tail_page.write, &tail_page.entries, &data_page->commit,
		&cpu_buffer.entries_bytes, &cpu_buffer.entries, &cpu_buffer.committing,
		&cpu_buffer.commits,
	};
	unsigned long end = tail_page.write.a & RB_WRITE_MASK;
	const u64 *p = (const u64 *)data_page->data;

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		h = mix(h, words[i]->a);
	h = mix(h, cpu_buffer.before_stamp.time.a);
	h = mix(h, cpu_buffer.write_stamp.time.a);
	h = mix(h, data_page->time_stamp);
	h = mix(h, (u64)checking.counter << 32 | (u32)ts_dump.counter);
	h = mix(h, (u64)cpu_buffer.record_disabled.counter << 32 |
		   (u32)buffer.record_disabled.counter);
	for (unsigned int i = 0; i < MAX_NEST; i++)
		h = mix(h, cpu_buffer.event_stamp[i]);
	if (end > PAGE_SIZE - BUF_PAGE_HDR_SIZE)
		end = PAGE_SIZE - BUF_PAGE_HDR_SIZE;
	for (unsigned long i = 0; i < (end + 7) / 8; i++)
		h = mix(h, p[i]);
	return h;
}

static const char *word_name(const void *word)
{
	static const struct { const void *word; const char *name; } names[] = {
		{ &tail_page.write,		"tail_page->write" },
		{ &tail_page.entries,		"tail_page->entries" },
		{ &cpu_buffer.entries_bytes,	"entries_bytes" },
		{ &cpu_buffer.entries,		"entries" },
		{ &cpu_buffer.committing,	"committing" },
		{ &cpu_buffer.commits,		"commits" },
		{ &cpu_buffer.before_stamp,	"before_stamp" },
		{ &cpu_buffer.write_stamp,	"write_stamp" },
	};

	if (data_page && word == &data_page->commit)
		return "page->commit";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].word == word)
			return names[i].name;
	return "?";
}

/* Statistics for readers: the reserve, commit and discard paths only add to them. */
static bool counter_only(const void *word)
{
	return word == &cpu_buffer.entries || word == &cpu_buffer.entries_bytes ||
	       word == &tail_page.entries;
}

static bool is_write_index(const void *word)
{
	return word == &tail_page.write;
}

const struct rbr_variant RBR_SYM = {
	.name		= RBR_NAME,
	.what		= RBR_WHAT,
	.reset		= reset,
	.reserve	= reserve,
	.event_data	= event_data,
	.event_time_stamp = event_time_stamp,
	.commit		= commit,
	.discard	= discard,
	.decode		= decode,
	.indexes	= indexes,
	.stamps		= stamps,
	.hash		= hash,
	.word_name	= word_name,
	.counter_only	= counter_only,
	.is_write_index	= is_write_index,
};
