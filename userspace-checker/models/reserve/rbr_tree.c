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

/*
 * The CPU's pages: a ring of RBR_PAGES sub-buffers, the first the head,
 * tail and commit page, and the reader page apart, as after
 * ring_buffer_alloc().  There is a page for every event the model can
 * write (each on its own page, at worst), so the writer never reaches the
 * head page again.
 */
#define RBR_PAGES	(RBR_MAX_EVENTS + 2)

static struct buffer_page pages[RBR_PAGES], reader_page;
static struct ring_buffer_per_cpu cpu_buffer;
static struct ring_buffer_per_cpu *buffers[1] = { &cpu_buffer };
static struct trace_buffer buffer;

static int page_index(const struct buffer_page *bpage)
{
	return bpage - pages;
}

static void reset(void)
{
	for (int i = 0; i < RBR_PAGES; i++) {
		struct buffer_page *bpage = &pages[i];

		if (!bpage->page) {
			/* rb_try_to_discard() finds the page by masking an address */
			bpage->page = aligned_alloc(RBR_PAGE_DEFAULT, RBR_PAGE_DEFAULT);
			if (!bpage->page)
				abort();
			memset(bpage->page, 0, RBR_PAGE_DEFAULT);
		} else if (bpage->write.a || bpage->page->commit.a || bpage->page->time_stamp) {
			/* used by the last execution */
			memset(bpage->page, 0, RBR_PAGE_DEFAULT);
		}
		bpage->write.a = 0;
		bpage->entries.a = 0;
		bpage->read = 0;
		bpage->real_end = 0;
		bpage->list.next = &pages[(i + 1) % RBR_PAGES].list;
		bpage->list.prev = &pages[(i + RBR_PAGES - 1) % RBR_PAGES].list;
	}
	/* the head page: the list pointer to it carries RB_PAGE_HEAD */
	pages[RBR_PAGES - 1].list.next = (void *)((unsigned long)&pages[0].list | RB_PAGE_HEAD);
	reader_page.list.next = reader_page.list.prev = &reader_page.list;
	memset(&cpu_buffer, 0, sizeof(cpu_buffer));
	memset(&buffer, 0, sizeof(buffer));
	checking.counter = 0;
	ts_dump.counter = 0;
	cpu_buffer.buffer = &buffer;
	cpu_buffer.head_page = cpu_buffer.tail_page = cpu_buffer.commit_page = &pages[0];
	cpu_buffer.reader_page = &reader_page;
	cpu_buffer.nr_pages = RBR_PAGES;
	/* it moves only if a page can fill (else it is read as the kernel reads any word) */
	rbr_tail_page_word = PAGE_SIZE < RBR_PAGE_DEFAULT ? &cpu_buffer.tail_page : NULL;
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
 * The model's reader, with the kernel's delta rules: each page from the
 * first to the tail page, its time stamp, then each entry's delta; a time
 * extend adds its value, an absolute stamp replaces the time
 * (rb_fix_abs_ts()), padding (a discarded event, or the end of a page
 * that an event did not fit in) adds its delta like an event but for the
 * delta 1 that rb_event_discard() and rb_reset_tail() put in place of a
 * 0 (the audit's rule: the model's clock moves in steps of more than 1,
 * so a real delta is never 1).  Entries are numbered by their place in
 * the buffer: page * 4096 + offset.
 */
static int decode(struct rbr_entry *out, int max, char *why, size_t len)
{
	int last = page_index(cpu_buffer.tail_page), n = 0;

	if (cpu_buffer.commit_page != cpu_buffer.tail_page) {
		snprintf(why, len, "the commit page (%d) is not the tail page (%d)",
			 page_index(cpu_buffer.commit_page), last);
		return -1;
	}
	for (int p = 0; p <= last; p++) {
		struct buffer_data_page *data_page = pages[p].page;
		unsigned long commit = data_page->commit.a;
		unsigned long write = pages[p].write.a & RB_WRITE_MASK;
		unsigned long e = 0;
		u64 ts = data_page->time_stamp;

		if (commit != write) {
			snprintf(why, len, "page %d's commit (%lu) is not its write (%lu): an event "
				 "was not committed", p, commit, write);
			return -1;
		}
		while (e < commit) {
			struct ring_buffer_event *event = (void *)(data_page->data + e);
			struct rbr_entry *x = &out[n];
			unsigned int length;

			if (n == max) {
				snprintf(why, len, "more than %d entries", max);
				return -1;
			}
			x->offset = p * RBR_PAGE_DEFAULT + e;
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
				snprintf(why, len, "page %d: entry at %lu of length %u runs past the commit %lu",
					 p, e, length, commit);
				return -1;
			}
			e += length;
			n++;
		}
	}
	return n;
}

static void stamps(u64 *before, u64 *write)
{
	*before = cpu_buffer.before_stamp.time.a;
	*write = cpu_buffer.write_stamp.time.a;
}

static u64 hash(u64 h, u64 (*mix)(u64, u64))
{
	const local_t *words[] = {
		&cpu_buffer.entries_bytes, &cpu_buffer.entries, &cpu_buffer.committing,
		&cpu_buffer.commits,
	};
	int last = page_index(cpu_buffer.tail_page);

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		h = mix(h, words[i]->a);
	h = mix(h, cpu_buffer.before_stamp.time.a);
	h = mix(h, cpu_buffer.write_stamp.time.a);
	h = mix(h, (u64)last << 32 | page_index(cpu_buffer.commit_page));
	h = mix(h, (u64)checking.counter << 32 | (u32)ts_dump.counter);
	h = mix(h, (u64)cpu_buffer.record_disabled.counter << 32 |
		   (u32)buffer.record_disabled.counter);
	for (unsigned int i = 0; i < MAX_NEST; i++)
		h = mix(h, cpu_buffer.event_stamp[i]);
	/* the tail page and every page before it; one past it (a switch under way) */
	for (int p = 0; p <= last + 1 && p < RBR_PAGES; p++) {
		const struct buffer_page *bpage = &pages[p];
		unsigned long end = bpage->write.a & RB_WRITE_MASK;
		const u64 *d = (const u64 *)bpage->page->data;

		h = mix(h, bpage->write.a);
		h = mix(h, bpage->entries.a);
		h = mix(h, bpage->page->commit.a);
		h = mix(h, bpage->page->time_stamp);
		h = mix(h, bpage->real_end);
		if (end > PAGE_SIZE - BUF_PAGE_HDR_SIZE)
			end = PAGE_SIZE - BUF_PAGE_HDR_SIZE;
		for (unsigned long i = 0; i < (end + 7) / 8; i++)
			h = mix(h, d[i]);
	}
	return h;
}

/*
 * The name of a shared word for traces: the current tail page's words
 * by that name (the trace marks steps A and C on "tail_page->write").
 */
static const char *word_name(const void *word)
{
	static const struct { const void *word; const char *name; } names[] = {
		{ &cpu_buffer.entries_bytes,	"entries_bytes" },
		{ &cpu_buffer.entries,		"entries" },
		{ &cpu_buffer.committing,	"committing" },
		{ &cpu_buffer.commits,		"commits" },
		{ &cpu_buffer.before_stamp,	"before_stamp" },
		{ &cpu_buffer.write_stamp,	"write_stamp" },
		{ &cpu_buffer.tail_page,	"cpu_buffer->tail_page" },
		{ &cpu_buffer.pages_touched,	"pages_touched" },
	};
	static char name[64];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].word == word)
			return names[i].name;
	for (int p = 0; p < RBR_PAGES; p++) {
		const char *what = word == &pages[p].write ? "write" :
				   word == &pages[p].entries ? "entries" :
				   word == &pages[p].page->commit ? "commit" : NULL;

		if (!what)
			continue;
		if (&pages[p] == cpu_buffer.tail_page)
			snprintf(name, sizeof(name), "%s->%s",
				 what[0] == 'c' ? "page" : "tail_page", what);
		else
			snprintf(name, sizeof(name), "page %d->%s", p, what);
		return name;
	}
	return "?";
}

/*
 * Statistics for readers: the reserve, commit and discard paths only add
 * to them.  A page's entries too, but for a page switch, which reads
 * them (rb_tail_page_update()'s cmpxchg): with pages that never fill,
 * there is none.
 */
static bool counter_only(const void *word)
{
	if (word == &cpu_buffer.entries || word == &cpu_buffer.entries_bytes ||
	    word == &cpu_buffer.pages_touched)
		return true;
	return PAGE_SIZE == RBR_PAGE_DEFAULT && word == &pages[0].entries;
}

static bool is_write_index(const void *word)
{
	for (int p = 0; p < RBR_PAGES; p++)
		if (word == &pages[p].write)
			return true;
	return false;
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
	.stamps		= stamps,
	.hash		= hash,
	.word_name	= word_name,
	.counter_only	= counter_only,
	.is_write_index	= is_write_index,
};
