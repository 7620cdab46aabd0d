// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle, in the seed's words, on the sub-buffers as the model's
 * reader decodes it once every context has returned:
 *
 *  - every event was committed: each sub-buffer's commit reached its write,
 *    and the commit page is the tail page;
 *  - each committed event is in the buffer once, as data; no discarded one is;
 *  - time stamps never go backwards in buffer order (so an event that
 *    reserved after another's step C is never stamped before it: its own
 *    C, and so its place, comes later);
 *  - ring_buffer_event_time_stamp() of an event, asked between its
 *    reservation and its commit (histogram triggers do), is the stamp on
 *    the page, but for the documented loss (a delta of 0, and a time
 *    extend of 0 if any: the time of the entry before it);
 *  - each event's time stamp lies between the clock before its
 *    reservation began and the clock after it ended.  The documented loss
 *    (interrupted between A and C and again between C and F: delta 0, the
 *    time of the entry before it) passes this rule by itself: that entry
 *    is an interrupting event's, stamped inside the window;
 *  - and on paths: in an execution where no reservation began inside
 *    another's (or inside a discard), nothing was discarded and the clock
 *    never jumped, no event has a full time stamp: each found
 *    before_stamp == write_stamp at A, as the event before it left them
 *    at its B and D, and took the fast path (a delta from the
 *    write_stamp), or was the first of its sub-buffer (delta 0).  Right
 *    stamps on the wrong path (a time extend on every event) are a
 *    counterexample too;
 *
 * and, while the events are written, the tree's own writer-side audit
 * (check_buffer(), "TIME DOES NOT MATCH") and every other warning of the
 * tree's code: the kernel's complaints are findings too (rbr_explore.c).
 */
#include "rbr_model.h"

/*
 * The documented loss: the event's delta is 0 (and so is the time extend
 * before it, if any): it has the time of the entry before it.
 */
static bool lost(const struct rbr_entry *ent, int k)
{
	const struct rbr_entry *p = k > 0 ? &ent[k - 1] : NULL;

	if (ent[k].delta || !p || p->kind == RBR_ABSOLUTE)
		return false;
	return p->kind != RBR_EXTEND || !p->delta;
}

/*
 * F's check failed, so the seed allows delta 0 (the documented loss): an
 * event came after this one's step C, or what it read after its C of
 * before_stamp and write_stamp differ (an interruption between A and B),
 * or the write_stamp is not before its last clock read; or the delta F
 * would keep (its last clock read - write_stamp) does not fit the event
 * header's 27 bits and the event has no time extend of its own to hold
 * it (it found no reason for one at A): the event cannot grow after its
 * C, so the delta is lost the same way (finding (r)).
 */
static bool may_lose(const struct rbr_event *e, bool own_extend)
{
	u64 ts;

	if (e->came_after)
		return true;
	if (e->have_before && e->have_write && e->last_before != e->last_write)
		return true;
	if (!e->have_write || !e->nreads)
		return false;
	ts = e->reads[e->nreads - 1];
	if (e->last_write >= ts)
		return true;
	return !own_extend && (ts - e->last_write) >> RBR_DELTA_BITS;
}

/* Is @ts one of the clock reads of @e's reservation? */
static bool own_read(const struct rbr_event *e, u64 ts)
{
	for (int r = 0; r < e->nreads; r++)
		if (e->reads[r] == ts)
			return true;
	return false;
}

static const char *reads_text(const struct rbr_event *e)
{
	static char buf[160];
	size_t n = 0;

	buf[0] = '\0';
	for (int r = 0; r < e->nreads && n < sizeof(buf); r++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%llu", r ? ", " : "", e->reads[r]);
	return e->nreads ? buf : "none";
}

/* The path oracle (see the top of this file). */
static void check_paths(const struct rbr_entry *ent, int n)
{
	if (rbr.overlapped || rbr.clock >= RBR_CLOCK0 + RBR_JUMP)
		return;
	for (int i = 0; i < rbr.nev; i++)
		if (rbr.ev[i].discard)
			return;
	for (int k = 0; k + 1 < n; k++) {
		int i = (int)ent[k + 1].id - 1;

		if ((ent[k].kind == RBR_EXTEND || ent[k].kind == RBR_ABSOLUTE) &&
		    ent[k + 1].kind == RBR_DATA && i >= 0 && i < rbr.nev)
			rbr_fail("event %d (%s) has a full time stamp (%s), but no reservation "
				 "began inside another's, nothing was discarded and the clock "
				 "never jumped: it should have found before_stamp == write_stamp "
				 "at A and taken the fast path", i,
				 rbr_level_names[rbr.ev[i].level],
				 ent[k].kind == RBR_EXTEND ? "a time extend" : "an absolute time stamp");
	}
}

void rbr_check_buffer(void)
{
	struct rbr_entry ent[RBR_MAX_ENTRIES];
	bool seen[RBR_MAX_EVENTS] = { false };
	char why[256];
	int n, prev = -1;

	/* the decoder also asks every sub-buffer's commit to be its write (rule 1) */
	n = rbr.var->decode(ent, RBR_MAX_ENTRIES, why, sizeof(why));
	if (n < 0)
		rbr_fail("the buffer does not decode: %s", why);
	if (rbr.trace)
		for (int k = 0; k < n; k++)
			fprintf(rbr.trace, "  page %u at %3u: %-8s %2d delta %-6llu -> time %llu\n",
				ent[k].offset / (unsigned int)RBR_PAGE_DEFAULT,
				ent[k].offset % (unsigned int)RBR_PAGE_DEFAULT,
				(const char *[]){ "event", "padding", "extend", "absolute" }[ent[k].kind],
				(int)ent[k].id - 1, ent[k].delta, ent[k].ts);

	for (int k = 0; k < n; k++) {
		const struct rbr_entry *x = &ent[k];
		const struct rbr_event *e;
		int i = (int)x->id - 1;
		bool own_extend;

		if (x->kind != RBR_DATA)
			continue;
		if (i < 0 || i >= rbr.nev)
			rbr_fail("the entry at %u holds payload %u, which no event wrote", x->offset, x->id);
		e = &rbr.ev[i];
		if (e->discard)
			rbr_fail("event %d was discarded, but the entry at %u reads as its data",
				 i, x->offset);
		if (seen[i])
			rbr_fail("event %d is in the buffer twice (again at %u)", i, x->offset);
		seen[i] = true;
		if (prev >= 0 && x->ts < ent[prev].ts)
			rbr_fail("event %d (%s) has time stamp %llu, before the %llu of event %u before it in the buffer",
				 i, rbr_level_names[e->level], x->ts, ent[prev].ts, ent[prev].id - 1);
		if (x->ts < e->pre || x->ts > e->post)
			rbr_fail("event %d (%s) has time stamp %llu, outside [%llu, %llu], the clock before "
				 "its reservation began and after it ended", i, rbr_level_names[e->level],
				 x->ts, e->pre, e->post);
		if (x->ts != e->api_ts && !lost(ent, k))
			rbr_fail("event %d (%s): ring_buffer_event_time_stamp() said %llu, the page says %llu",
				 i, rbr_level_names[e->level], e->api_ts, x->ts);
		own_extend = k > 0 && ent[k - 1].kind == RBR_EXTEND;
		if (!own_read(e, x->ts) && !(lost(ent, k) && may_lose(e, own_extend)))
			rbr_fail("event %d (%s) has time stamp %llu, none of its own clock reads (%s), "
				 "and %s", i, rbr_level_names[e->level], x->ts, reads_text(e),
				 lost(ent, k) ? "its delta 0 is not allowed: F's check held (no event "
				 "came after its step C, before_stamp == write_stamp, write_stamp "
				 "before its clock read, the delta fits): the delta is ts - after" :
				 "it did not lose its delta (a delta of 0)");
		prev = k;
	}
	check_paths(ent, n);
	for (int i = 0; i < rbr.nev; i++)
		if (!rbr.ev[i].discard && !seen[i])
			rbr_fail("event %d (%s) was committed but is not in the buffer", i,
				 rbr_level_names[rbr.ev[i].level]);
}
