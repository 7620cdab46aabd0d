// SPDX-License-Identifier: GPL-2.0
/*
 * The checker's rules.  Each rule is one small function over the event
 * just read and the few events before it on the same CPU.
 *
 * How nesting is recognised: the module numbers window openings per CPU
 * (idx).  An event E's window spans (E.pre_idx, E.end_idx]: from before its
 * tracepoint call until its TP_fast_assign finished.  For two events R and E
 * on a CPU, with R earlier in buffer order:
 *
 *  - E.idx inside R's span: E ran while R was being recorded, and since E
 *    comes after R in the buffer, E reserved after R's step C.  This is the
 *    seed's case: E must get a running time stamp, later than R's.
 *  - R.idx inside E's span: R ran while E was being recorded, but landed
 *    first, so E was interrupted before its step C (between A and C, or
 *    before A).  E may then have delta 0 ("C-F lost"), never less.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rb_counters.h"
#include "rb_verify.h"

const char *const rb_rule_names[RB_RULE_MAX] = {
	[RB_RULE_MONOTONIC]	= "monotonic",
	[RB_RULE_NESTED_DELTA]	= "nested-delta",
	[RB_RULE_OWN_CLOCK]	= "own-clock",
	[RB_RULE_A_TO_C]	= "A-C",
	[RB_RULE_SEQUENCE]	= "sequence",
	[RB_RULE_COUNTERS]	= "counters",
};

struct rb_cpu_state {
	struct rb_event	hist[RB_HISTORY];	/* the last events, a ring */
	unsigned int	nr;			/* valid entries in hist */
	unsigned int	head;			/* next slot to write */
	uint64_t	last_seq[RB_CTX_MAX];
	bool		have_seq[RB_CTX_MAX];
	bool		lost_pending[RB_CTX_MAX];
	bool		reset_pending[RB_CTX_MAX];
	/*
	 * The last event when hist was emptied by lost events or a module
	 * reload, for the monotonic rule: time keeps going forward across
	 * those.  While hist holds events, its newest is the last one.
	 */
	struct rb_event	last;
	bool		have_last;
	uint32_t	load_id;
	bool		have_load;
};

void rb_settings_default(struct rb_settings *set)
{
	memset(set, 0, sizeof(*set));
	/*
	 * Between the reservation and the clock read in TP_fast_assign there
	 * is only the rest of the reservation, plus whatever nests there.  But
	 * an emulated vCPU stalls whenever the host is busy (84 ms seen here
	 * under TCG while the host compiled), so the default only catches
	 * stamps stuck far in the past; the largest gap is reported.
	 */
	set->clock_bound_ns = 1000ULL * 1000 * 1000;
}

struct rb_verifier *rb_verifier_new(const struct rb_settings *set)
{
	struct rb_verifier *v = calloc(1, sizeof(*v));
	int c;

	if (!v)
		return NULL;
	v->set = *set;
	for (c = 0; c < RB_CTX_MAX; c++)
		for (int i = 0; i < RB_CTX_MAX; i++)
			v->pairs[c][i].min_delta = UINT64_MAX;
	v->clock_id = RB_CLOCK_MAX;
	v->buffer_clock = -1;
	return v;
}

void rb_verifier_free(struct rb_verifier *v)
{
	if (!v)
		return;
	for (int i = 0; i < RB_MAX_CPUS; i++)
		free(v->cpus[i]);
	free(v);
}

/*
 * Log-scale histogram: four buckets per power of two, so a bucket is at
 * most 25% wide; enough for a median and a plot, in constant memory.
 */
unsigned int rb_hist_bucket(uint64_t d)
{
	unsigned int msb;

	if (d < 8)		/* buckets 0-7: one value each */
		return d;
	msb = 63 - __builtin_clzll(d);	/* 3..63: buckets 8..251 */
	return (msb - 1) * 4 + ((d >> (msb - 2)) & 3);
}

uint64_t rb_hist_upper(unsigned int bucket)
{
	unsigned int msb = bucket / 4 + 1, sub = bucket % 4;

	if (bucket < 8)
		return bucket;
	/* the last value with this msb and these two bits below it */
	return ((uint64_t)(4 + sub + 1) << (msb - 2)) - 1;
}

uint64_t rb_pair_median(const struct rb_pair_stats *p)
{
	uint64_t seen = 0;

	for (unsigned int b = 0; b < RB_HIST_BUCKETS; b++) {
		seen += p->hist[b];
		if (seen * 2 >= p->count && p->count)
			return rb_hist_upper(b) < p->max_delta ? rb_hist_upper(b) : p->max_delta;
	}
	return 0;
}

/* Wrap-safe: is @i in (@lo, @hi]? */
static bool idx_in(uint32_t i, uint32_t lo, uint32_t hi)
{
	return (int32_t)(i - lo) > 0 && (int32_t)(hi - i) >= 0;
}

/*
 * Where the event is; a stamp read after a padding of delta 1 says so: the
 * delta is taken as none, and if it was a discarded event's real 1, the
 * stamp is one unit early (finding (d): docs/findings.md).
 */
static int fmt_pos(char *buf, size_t len, const struct rb_pos *p)
{
	if (p->subbuf < 0)
		return snprintf(buf, len, "file offset 0x%" PRIx64, p->offset);
	if (p->pad1)
		return snprintf(buf, len, "sub-buffer %" PRId64 " +0x%" PRIx64
				", after %u padding%s of delta 1", p->subbuf, p->offset,
				p->pad1, p->pad1 > 1 ? "s" : "");
	return snprintf(buf, len, "sub-buffer %" PRId64 " +0x%" PRIx64, p->subbuf, p->offset);
}

static int fmt_event(char *buf, size_t len, const char *tag,
		     const struct rb_event *e, const struct rb_event *prev)
{
	char pos[96];

	fmt_pos(pos, sizeof(pos), &e->pos);
	return snprintf(buf, len,
			"\n      %-6s %s#%" PRIu64 " ts=%" PRIu64 " (delta %s%" PRId64
			") clock=%" PRIu64 " depth=%u idx=%u pre=%u end=%u at %s",
			tag, rb_ctx_name(e->ctx), e->seq, e->ts,
			prev ? "" : "n/a ", prev ? (int64_t)(e->ts - prev->ts) : 0,
			e->clock, e->depth, e->idx, e->pre_idx, e->end_idx, pos);
}

/*
 * Count a violation of @rule and keep the first few in full: what is
 * wrong in one line, then the events involved.
 */
static void violation(struct rb_verifier *v, enum rb_rule rule, int cpu,
		      const struct rb_event *a, const struct rb_event *a_prev,
		      const struct rb_event *b, const struct rb_event *b_prev,
		      const char *fmt, ...)
{
	struct rb_rule_result *r = &v->rules[rule];
	char *buf;
	size_t len = RB_EXAMPLE_LEN, n = 0;
	va_list ap;

	if (cpu >= 0)
		v->cpu_violations[cpu][rule]++;
	if (r->violations++ >= RB_MAX_EXAMPLES)
		return;
	buf = r->examples[r->nr_examples++];
	if (cpu >= 0)
		n = snprintf(buf, len, "cpu%d: ", cpu);
	va_start(ap, fmt);
	n += vsnprintf(buf + n, n < len ? len - n : 0, fmt, ap);
	va_end(ap);
	if (a && n < len)
		n += fmt_event(buf + n, len - n, b ? "outer" : "event", a, a_prev);
	if (b && n < len)
		fmt_event(buf + n, len - n, "event", b, b_prev);
}

/* One more check of @rule on @cpu. */
static void checked(struct rb_verifier *v, enum rb_rule rule, int cpu)
{
	v->rules[rule].checked++;
	v->cpu_checked[cpu][rule]++;
}

static const struct rb_event *hist_at(const struct rb_cpu_state *s, unsigned int back)
{
	/* back = 0 is the most recent event */
	return &s->hist[(s->head + RB_HISTORY - 1 - back) % RB_HISTORY];
}

/* 1. monotonic: per CPU, in buffer order, time never goes backwards. */
static void rule_monotonic(struct rb_verifier *v, const struct rb_event *prev,
			   const struct rb_event *e)
{
	checked(v, RB_RULE_MONOTONIC, e->cpu);
	if (e->ts < prev->ts)
		violation(v, RB_RULE_MONOTONIC, e->cpu, prev, NULL, e, prev,
			  "time stamp went backwards by %" PRIu64 " ns",
			  prev->ts - e->ts);
}

/*
 * 2. nested-delta: @e reserved while @outer was between its step C and its
 * commit.  The seed's claim: @e gets its own running time stamp, later than
 * @outer's, never @outer's own (delta 0).
 *
 * What can be proven depends on where @e landed:
 *  - inside @outer's window: @outer read its clock before @e reserved, so
 *    @e cannot be stamped before that read.  A delta 0 under a clock that
 *    moved in between fails here.
 *  - between @outer's C and its window: no clock read lies between the two
 *    reservations, and trace_clock_global can stay flat for a while on a
 *    CPU that lags another, so equal stamps are counted, not failed.
 * The counter clock moves on every read, so there equal always fails.
 */
static void rule_nested_delta(struct rb_verifier *v, const struct rb_event *outer,
			      const struct rb_event *e, const struct rb_event *prev)
{
	struct rb_rule_result *r = &v->rules[RB_RULE_NESTED_DELTA];
	struct rb_pair_stats *p = &v->pairs[outer->ctx][e->ctx];
	bool in_window = idx_in(e->idx, outer->idx, outer->end_idx);
	bool counter = outer->clock_id == RB_CLOCK_NONE;
	/*
	 * The window's clock read is comparable with a stamp only when the
	 * buffer records with the module's clock: between a trace_clock
	 * switch and the module's, stamps and reads are of two clocks.
	 */
	bool other_clock = v->buffer_clock >= 0 && outer->clock_id != (unsigned int)v->buffer_clock;
	uint64_t delta = e->ts - outer->ts;

	checked(v, RB_RULE_NESTED_DELTA, e->cpu);
	if (e->ts > outer->ts) {
		p->count++;
		p->sum_delta += delta;
		if (delta < p->min_delta)
			p->min_delta = delta;
		if (delta > p->max_delta)
			p->max_delta = delta;
		p->hist[rb_hist_bucket(delta)]++;
	}

	if (e->ts < outer->ts || (e->ts == outer->ts && counter))
		violation(v, RB_RULE_NESTED_DELTA, e->cpu, outer, NULL, e, prev,
			  "%s#%" PRIu64 " nested in %s#%" PRIu64
			  " after its reservation (C) but its time stamp is %s",
			  rb_ctx_name(e->ctx), e->seq, rb_ctx_name(outer->ctx),
			  outer->seq, e->ts == outer->ts ? "the same (delta 0)" : "earlier");
	else if (in_window && !counter && !other_clock && e->ts < outer->clock)
		violation(v, RB_RULE_NESTED_DELTA, e->cpu, outer, NULL, e, prev,
			  "%s#%" PRIu64 " reserved inside %s#%" PRIu64 "'s window but is "
			  "stamped %" PRIu64 " ns before that window's clock read%s",
			  rb_ctx_name(e->ctx), e->seq, rb_ctx_name(outer->ctx),
			  outer->seq, outer->clock - e->ts,
			  e->ts == outer->ts ? ": the same time stamp (delta 0)" : "");
	else if (e->ts == outer->ts)
		r->skipped_flat++;
}

/*
 * 3. own-clock: the stamp lies in the event's own clock window.  The module
 * reads the buffer's clock just before the tracepoint call (pre_clock) and
 * first thing in TP_fast_assign (clock); the ring buffer takes the stamp
 * between the two.  An event interrupted between A and C may get delta 0,
 * the stamp of the event before it: that is an interrupter's, taken after
 * the pre_clock too.  So a stamp before pre_clock is wrong, whatever the
 * emulator's stalls; events of older modules, without pre_clock, get a
 * bound instead (--clock-bound-us).
 */
static void rule_own_clock(struct rb_verifier *v, const struct rb_event *e,
			   const struct rb_event *prev)
{
	uint64_t gap;

	if (e->clock_id == RB_CLOCK_NONE)
		return;
	if (v->buffer_clock >= 0 && e->clock_id != (unsigned int)v->buffer_clock) {
		/* Read while the buffer already recorded with another clock. */
		v->own_clock_other++;
		return;
	}
	checked(v, RB_RULE_OWN_CLOCK, e->cpu);
	if (e->has_pre_clock) {
		v->pre_clock_checked++;
		if (e->ts < e->pre_clock) {
			violation(v, RB_RULE_OWN_CLOCK, e->cpu, e, prev, NULL, NULL,
				  "time stamp is %" PRIu64 " ns before the clock read just before "
				  "the tracepoint call (pre_clock %" PRIu64 "): stamped before its "
				  "reservation began", e->pre_clock - e->ts, e->pre_clock);
			return;
		}
	}
	if (e->ts > e->clock && v->set.filter_seq_mask) {
		/*
		 * With a filter on the event, the kernel writes an outermost
		 * event to a per-CPU buffer first and stamps it when it copies
		 * it into the ring buffer at commit (trace_buffered_event).
		 */
		v->stamped_at_commit++;
		return;
	}
	if (e->ts > e->clock) {
		violation(v, RB_RULE_OWN_CLOCK, e->cpu, e, prev, NULL, NULL,
			  "time stamp is %" PRIu64 " ns after the clock read in TP_fast_assign",
			  e->ts - e->clock);
		return;
	}
	gap = e->clock - e->ts;
	if (gap > v->max_clock_gap)
		v->max_clock_gap = gap;
	if (!e->has_pre_clock && gap > v->set.clock_bound_ns)
		violation(v, RB_RULE_OWN_CLOCK, e->cpu, e, prev, NULL, NULL,
			  "time stamp is %" PRIu64 " ns before the clock read in TP_fast_assign (bound %" PRIu64 ")",
			  gap, v->set.clock_bound_ns);
}

/*
 * 4. A-C: @e was interrupted before it reserved, by @inner which therefore
 * landed first.  Its stamp may equal the previous event's (delta 0: the time
 * between C and F is lost, as the ring buffer documents) but not be earlier
 * than @inner's.
 */
static void rule_a_to_c(struct rb_verifier *v, const struct rb_event *inner,
			const struct rb_event *e, const struct rb_event *prev)
{
	checked(v, RB_RULE_A_TO_C, e->cpu);
	v->cpu_ctx[e->cpu][e->ctx].before_c++;
	if (e->ts == prev->ts)
		v->cpu_ctx[e->cpu][e->ctx].before_c_zero++;
	if (e->ts < inner->ts)
		violation(v, RB_RULE_A_TO_C, e->cpu, inner, NULL, e, prev,
			  "%s#%" PRIu64 " was interrupted before its reservation by %s#%" PRIu64
			  " but is stamped %" PRIu64 " ns before it",
			  rb_ctx_name(e->ctx), e->seq, rb_ctx_name(inner->ctx),
			  inner->seq, inner->ts - e->ts);
}

/* Would the event filter "seq & mask" have dropped every seq in (last, next)? */
static bool filtered_gap(const struct rb_verifier *v, uint64_t last, uint64_t next)
{
	uint64_t mask = v->set.filter_seq_mask;

	if (!mask || next - last > 64)
		return false;
	for (uint64_t m = last + 1; m < next; m++)
		if (m & mask)
			return false;
	return true;
}

/* How many m in [0, n) the event filter "seq & mask" drops: m & mask == 0. */
static uint64_t filtered_below(uint64_t n, uint64_t mask)
{
	uint64_t count = 0;

	/* m < n: m equals n above bit b, has 0 where n has 1 at b, anything below */
	for (int b = 63; b >= 0; b--) {
		if (!(n >> b & 1))
			continue;
		count += 1ULL << __builtin_popcountll(~mask & ((1ULL << b) - 1));
		if (mask >> b & 1)
			break;	/* no m with n's bit b is dropped */
	}
	return count;
}

/*
 * 5. sequence: per (CPU, context), no gap unless the buffer said it lost
 * events there (or reset, or a filter dropped them).
 */
static void rule_sequence(struct rb_verifier *v, struct rb_cpu_state *s,
			  const struct rb_event *e, const struct rb_event *prev)
{
	unsigned int c = e->ctx;

	if (s->have_seq[c]) {
		checked(v, RB_RULE_SEQUENCE, e->cpu);
		if (e->seq == s->last_seq[c] + 1) {
			/* no gap */
		} else if (e->seq > s->last_seq[c] && s->reset_pending[c]) {
			v->reset_wiped += e->seq - s->last_seq[c] - 1;
		} else if (e->seq > s->last_seq[c] && s->lost_pending[c]) {
			v->cpu_ctx[e->cpu][c].lost += e->seq - s->last_seq[c] - 1;
			if (v->set.filter_seq_mask)
				v->cpu_lost_filterable[e->cpu] +=
					filtered_below(e->seq, v->set.filter_seq_mask) -
					filtered_below(s->last_seq[c] + 1, v->set.filter_seq_mask);
		} else if (e->seq > s->last_seq[c] && filtered_gap(v, s->last_seq[c], e->seq)) {
			v->filtered += e->seq - s->last_seq[c] - 1;
			v->cpu_filtered[e->cpu] += e->seq - s->last_seq[c] - 1;
		} else {
			violation(v, RB_RULE_SEQUENCE, e->cpu, e, prev, NULL, NULL,
				  "%s seq jumped from %" PRIu64 " to %" PRIu64
				  " with no lost events reported here",
				  rb_ctx_name(c), s->last_seq[c], e->seq);
		}
	}
	s->have_seq[c] = true;
	s->last_seq[c] = e->seq;
	s->lost_pending[c] = false;
	s->reset_pending[c] = false;
}

/* Empty hist (no nesting is looked for across it), keeping its newest event. */
static void forget_history(struct rb_cpu_state *s)
{
	if (s->nr) {
		s->last = *hist_at(s, 0);
		s->have_last = true;
	}
	s->nr = 0;
}

static struct rb_cpu_state *cpu_state(struct rb_verifier *v, int cpu)
{
	if (cpu < 0 || cpu >= RB_MAX_CPUS)
		return NULL;
	if (!v->cpus[cpu]) {
		v->cpus[cpu] = calloc(1, sizeof(struct rb_cpu_state));
		if (v->cpus[cpu])
			v->nr_cpus_seen++;
	}
	return v->cpus[cpu];
}

int rb_verify_event(struct rb_verifier *v, const struct rb_event *e)
{
	struct rb_cpu_state *s = cpu_state(v, e->cpu);
	const struct rb_event *prev = NULL;
	bool before_c = false, nested = false;

	if (!s || e->ctx >= RB_CTX_MAX)
		return -1;

	v->events++;
	v->cpu_ctx[e->cpu][e->ctx].events++;
	if (e->depth > v->cpu_ctx[e->cpu][e->ctx].max_depth)
		v->cpu_ctx[e->cpu][e->ctx].max_depth = e->depth;
	if (e->depth > v->max_depth)
		v->max_depth = e->depth;
	if (e->ctx == RB_CTX_NMI && e->open_mask == (1u << RB_CTX_NMI) - 1)
		v->four_deep++;
	if (v->clock_id == RB_CLOCK_MAX)
		v->clock_id = e->clock_id;

	if (s->have_load && e->load_id != s->load_id) {
		/*
		 * The module was unloaded and loaded again: its numbering
		 * (seq, idx) starts afresh; the buffer's time does not.
		 */
		v->reloads++;
		forget_history(s);
		memset(s->have_seq, 0, sizeof(s->have_seq));
	}
	s->load_id = e->load_id;
	s->have_load = true;

	if (s->nr)
		prev = hist_at(s, 0);
	if (prev || s->have_last)
		rule_monotonic(v, prev ? prev : &s->last, e);
	rule_own_clock(v, e, prev);

	for (unsigned int back = 0; back < s->nr; back++) {
		const struct rb_event *r = hist_at(s, back);

		if (r->ctx < e->ctx && idx_in(e->idx, r->pre_idx, r->end_idx) &&
		    e->idx != r->idx) {
			rule_nested_delta(v, r, e, prev);
			nested = true;
		} else if (r->ctx > e->ctx && idx_in(r->idx, e->pre_idx, e->idx) &&
			 r->idx != e->idx) {
			/* Each interrupter may have taken a slow path (counters). */
			v->cpu_landed[e->cpu]++;
			if (before_c)
				continue;
			/* The nearest interrupter is the one that matters. */
			rule_a_to_c(v, r, e, prev);
			before_c = true;
		}
	}
	if (nested)
		v->cpu_ctx[e->cpu][e->ctx].nested++;
	rule_sequence(v, s, e, prev);

	s->hist[s->head] = *e;
	s->head = (s->head + 1) % RB_HISTORY;
	if (s->nr < RB_HISTORY)
		s->nr++;
	return 0;
}

const char *const rb_record_names[RB_REC_MAX] = {
	[RB_REC_SUBBUF]		= "subbufs",
	[RB_REC_EXTEND]		= "time_extends",
	[RB_REC_ABSOLUTE]	= "full_stamps",
	[RB_REC_DISCARDED]	= "discarded_padding",
	[RB_REC_END_PADDING]	= "end_padding",
};

void rb_verify_records(struct rb_verifier *v, int cpu, const uint64_t n[RB_REC_MAX])
{
	for (int r = 0; r < RB_REC_MAX; r++) {
		v->records[r] += n[r];
		if (cpu >= 0 && cpu < RB_MAX_CPUS)
			v->cpu_records[cpu][r] += n[r];
	}
}

void rb_verify_lost(struct rb_verifier *v, int cpu, long missed)
{
	struct rb_cpu_state *s = cpu_state(v, cpu);

	if (!s)
		return;
	v->cpu_lost_reports[cpu]++;
	if (missed > 0) {
		v->lost_events += missed;
		v->cpu_lost_events[cpu] += missed;
	} else {
		v->lost_unknown++;
		v->cpu_lost_unknown[cpu]++;
	}
	for (int c = 0; c < RB_CTX_MAX; c++)
		s->lost_pending[c] = true;
	/* Events before the loss are not the ones nested around what follows. */
	forget_history(s);
}

void rb_verify_reset(struct rb_verifier *v, int clock)
{
	v->resets++;
	v->buffer_clock = clock;
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		struct rb_cpu_state *s = v->cpus[cpu];

		if (!s)
			continue;
		v->cpu_resets[cpu]++;
		s->nr = 0;
		s->have_last = false;
		for (int c = 0; c < RB_CTX_MAX; c++)
			s->reset_pending[c] = true;
	}
}

/*
 * One line of the ledger, if the kernel counts @path: checked, and off
 * when @counted is not in [@least, @least + @slack].
 */
static bool ledger_off(struct rb_verifier *v, const struct rb_path_counters *k, int cpu,
		       enum rb_ts_path path, uint64_t counted, uint64_t least, uint64_t slack)
{
	if (!(k->have & (1u << path)))
		return false;
	checked(v, RB_RULE_COUNTERS, cpu);
	return counted < least || counted > least + slack;
}

/*
 * The exact part of the ledger.  The kernel counts an event's path where
 * it lands (kernel-patches: an attempt that overflows the sub-buffer is
 * counted again where it is retried), so per CPU that lost nothing:
 *
 * - Every event that took the time_extend, before_stamp!=write_stamp,
 *   read_failed or absolute path wrote exactly one time stamp record in
 *   front of it (rb_add_timestamp(): a full stamp, or a time extend when
 *   an interruption between A and C dropped the force), and no other
 *   event wrote one.  A discarded event that was removed took its record
 *   with it (the reserved event starts at the record; rb_try_to_discard()
 *   gives back rb_event_ts_length()): the count is the records plus at
 *   most discard_removed, exact when nothing was removed.
 */
static void ledger_stamps(struct rb_verifier *v, const struct rb_path_counters *k, int cpu)
{
	const unsigned int stamped = (1u << RB_TS_EXTEND) | (1u << RB_TS_BEFORE_AFTER) |
				     (1u << RB_TS_READ_FAILED) | (1u << RB_TS_ABSOLUTE);
	uint64_t counted = rb_counters_sum(k, cpu, stamped);
	uint64_t records = v->cpu_records[cpu][RB_REC_EXTEND] +
			   v->cpu_records[cpu][RB_REC_ABSOLUTE];
	uint64_t removed = k->v[cpu][RB_TS_DISCARD_REMOVED];

	if (ledger_off(v, k, cpu, RB_TS_EXTEND, counted, records, removed))
		violation(v, RB_RULE_COUNTERS, cpu, NULL, NULL, NULL, NULL,
			  "the kernel stamped %" PRIu64 " events with a time extend or a full "
			  "stamp (time_extend %" PRIu64 ", before_stamp!=write_stamp %" PRIu64
			  ", read_failed %" PRIu64 ", absolute %" PRIu64 ") but the sub-buffers "
			  "hold %" PRIu64 " such records (and %" PRIu64 " discarded events were "
			  "removed, with theirs)", counted, k->v[cpu][RB_TS_EXTEND],
			  k->v[cpu][RB_TS_BEFORE_AFTER], k->v[cpu][RB_TS_READ_FAILED],
			  k->v[cpu][RB_TS_ABSOLUTE], records, removed);
}

/*
 * - Every event discarded in place (discard_padding) is a padding with a
 *   delta in the sub-buffers.  Only a last padding of delta 1 may be one
 *   or rb_reset_tail()'s: between the sure ones and all of them.
 */
static void ledger_discards(struct rb_verifier *v, const struct rb_path_counters *k, int cpu)
{
	uint64_t counted = k->v[cpu][RB_TS_DISCARD_PADDING];
	uint64_t sure = v->cpu_records[cpu][RB_REC_DISCARDED];
	uint64_t maybe = v->cpu_records[cpu][RB_REC_END_PADDING];

	if (ledger_off(v, k, cpu, RB_TS_DISCARD_PADDING, counted, sure, maybe))
		violation(v, RB_RULE_COUNTERS, cpu, NULL, NULL, NULL, NULL,
			  "the kernel left %" PRIu64 " discarded events as padding but the "
			  "sub-buffers hold %" PRIu64 " such paddings (and %" PRIu64
			  " at a sub-buffer's end that may be)", counted, sure, maybe);
}

/*
 * The deltas taken at F.  Under the counter clock every read moves, so a
 * delta kept at F (ts read after C, minus a write_stamp read before it) is
 * never 0, and nothing but F's delta 0 gives an event the stamp of the
 * event before it.  So, per CPU that lost nothing: the events seen
 * interrupted before C with the stamp of the event before them took a
 * delta-0 path, no more than the kernel counted; and every delta the
 * kernel kept is a positive one among those seen (or a discarded event's).
 * This is what tells "delta 0 where F's check allowed the delta" from the
 * documented loss.  Under another clock two reads may be equal, and a
 * kept delta may be 0: not judged.
 */
static void ledger_f_deltas(struct rb_verifier *v, const struct rb_path_counters *k, int cpu,
			    uint64_t seen)
{
	uint64_t zero = 0, kept, lost;

	if (v->clock_id != RB_CLOCK_NONE || !(k->have & (RB_TS_F_KEPT | RB_TS_F_ZERO)) ||
	    (v->buffer_clock >= 0 && v->buffer_clock != RB_CLOCK_NONE))
		return;
	for (int c = 0; c < RB_CTX_MAX; c++)
		zero += v->cpu_ctx[cpu][c].before_c_zero;
	kept = rb_counters_sum(k, cpu, RB_TS_F_KEPT);
	lost = rb_counters_sum(k, cpu, RB_TS_F_ZERO);
	checked(v, RB_RULE_COUNTERS, cpu);
	if (zero > lost)
		violation(v, RB_RULE_COUNTERS, cpu, NULL, NULL, NULL, NULL,
			  "%" PRIu64 " events interrupted before C carry the stamp of the event "
			  "before them (delta 0) under the counter clock, but the kernel gave "
			  "delta 0 at F only %" PRIu64 " times (and kept the delta %" PRIu64
			  " times): delta 0 where F's check allowed the delta", zero, lost, kept);
	else if (kept > seen - zero + v->cpu_filtered[cpu])
		violation(v, RB_RULE_COUNTERS, cpu, NULL, NULL, NULL, NULL,
			  "the kernel kept the delta at F %" PRIu64 " times, but only %" PRIu64
			  " events interrupted before C have a delta above 0 under the counter "
			  "clock", kept, seen - zero + v->cpu_filtered[cpu]);
}

/*
 * Every event the kernel sent down an A-C path was interrupted between A
 * and C by an event that landed before it, so the checker saw it as
 * interrupted before its reservation.  The converse does not hold: an
 * interrupt before A looks the same to the checker but is no A-C path.
 * So, per CPU that lost nothing: seen >= counted.
 */
void rb_verify_counters(struct rb_verifier *v, const struct rb_path_counters *k)
{
	v->counters = k;
	if (!k->have)
		return;
	for (int cpu = 0; cpu < RB_MAX_CPUS && cpu < k->nr_cpus; cpu++) {
		uint64_t counted, seen = 0, events = 0, landed, slow, involved;

		if (!v->cpus[cpu] || v->cpu_lost_reports[cpu] || v->cpu_resets[cpu] ||
		    k->was_reset[cpu])
			continue;
		counted = rb_counters_sum(k, cpu, RB_TS_A_TO_C_PATHS);
		for (int c = 0; c < RB_CTX_MAX; c++) {
			seen += v->cpu_ctx[cpu][c].before_c;
			events += v->cpu_ctx[cpu][c].events;
		}
		checked(v, RB_RULE_COUNTERS, cpu);
		/* A discarded event took its path too, but is not seen. */
		if (seen + v->cpu_filtered[cpu] < counted)
			violation(v, RB_RULE_COUNTERS, cpu, NULL, NULL, NULL, NULL,
				  "the kernel took an A-C path %" PRIu64 " times but only %"
				  PRIu64 " events were seen interrupted before their reservation (C)",
				  counted, seen + v->cpu_filtered[cpu]);
		ledger_f_deltas(v, k, cpu, seen);
		/*
		 * Only a reader that walks the sub-buffers counts records, and
		 * only a CPU whose events were all read since the counters
		 * began (untouched at the baseline) has them all.
		 */
		if (v->records[RB_REC_SUBBUF] && k->untouched[cpu]) {
			ledger_stamps(v, k, cpu);
			ledger_discards(v, k, cpu);
		}
		/*
		 * The seed's promise: an event that interrupted nobody's time
		 * update, and was not interrupted in its own, takes the fast
		 * path.  Every nested-event slow path (a full stamp because
		 * before_stamp != write_stamp or a read failed, an A-C path)
		 * comes of an interruption, and the checker sees both sides:
		 * the event seen interrupted before its window opened, and the
		 * events that landed in its span.  An interrupted event takes
		 * at most one path itself and leaves before_stamp and
		 * write_stamp apart for the one event after it, which must take
		 * a full stamp (__rb_reserve_next(): "make the next event after
		 * this one force using an absolute timestamp", or write_stamp
		 * set at D behind an interrupter between C and D); a discarded
		 * event likewise (rb_try_to_discard() moves write_stamp back).
		 * More slow paths than that means free events left the fast path.
		 */
		/*
		 * A reservation the full buffer refused (no-overwrite mode) was
		 * counted at A and poisoned before_stamp for the next attempt:
		 * the nested-event paths say nothing about events then.
		 */
		if (k->dropped[cpu])
			continue;
		landed = v->cpu_landed[cpu];
		slow = counted + k->v[cpu][RB_TS_BEFORE_AFTER] + k->v[cpu][RB_TS_READ_FAILED];
		involved = 2 * (seen + v->cpu_filtered[cpu]) + landed;
		checked(v, RB_RULE_COUNTERS, cpu);
		v->free_events += events > seen + landed ? events - seen - landed : 0;
		if (slow > involved) {
			v->free_slow += slow - involved;
			violation(v, RB_RULE_COUNTERS, cpu, NULL, NULL, NULL, NULL,
				  "the kernel took a nested-event slow path %" PRIu64 " times, the "
				  "interruptions seen allow %" PRIu64 " (an interrupted or discarded "
				  "event: its own and the next event's; one that landed in it: its "
				  "own): at least %" PRIu64 " events that interrupted nobody's "
				  "time update left the fast path", slow, involved, slow - involved);
		}
	}
}

void rb_verify_finish(struct rb_verifier *v)
{
	struct rb_rule_result *r;
	struct rb_ctx_stats tot[RB_CTX_MAX];
	uint64_t nested = 0;

	if (!v->events) {
		/* a capture of other events (verify judges them by rb_generic.c) */
		for (int i = 0; i < RB_RULE_MAX; i++) {
			v->rules[i].skipped = true;
			snprintf(v->rules[i].skip_reason, sizeof(v->rules[i].skip_reason),
				 "no rbstress events: the rule does not apply");
		}
		return;
	}
	rb_verify_totals(v, tot);
	for (int c = 0; c < RB_CTX_MAX; c++)
		nested += tot[c].nested;

	r = &v->rules[RB_RULE_NESTED_DELTA];
	if (!nested && !r->violations) {
		if (v->set.require_nested) {
			violation(v, RB_RULE_NESTED_DELTA, -1, NULL, NULL, NULL, NULL,
				  "no nested event in %" PRIu64 " events: nothing was tested",
				  v->events);
		} else {
			r->skipped = true;
			snprintf(r->skip_reason, sizeof(r->skip_reason),
				 "no event nested in another after its reservation");
		}
	}

	/*
	 * Every missing event must be one the buffer reported lost: per CPU,
	 * the seq gaps after loss reports add up to at most what they said
	 * (less when the last lost events had no successor in their context).
	 * The seqs in those gaps that the event filter may have dropped are
	 * not counted: a discarded event is no entry, and the overrun counts
	 * the entries of the pages overwritten (finding (e) was this).
	 */
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		uint64_t gaps = 0, filterable = v->cpu_lost_filterable[cpu];

		if (!v->cpus[cpu] || !v->cpu_lost_reports[cpu] || v->cpu_lost_unknown[cpu])
			continue;
		for (int c = 0; c < RB_CTX_MAX; c++)
			gaps += v->cpu_ctx[cpu][c].lost;
		checked(v, RB_RULE_SEQUENCE, cpu);
		if (gaps - filterable <= v->cpu_lost_events[cpu])
			continue;
		if (filterable)
			violation(v, RB_RULE_SEQUENCE, cpu, NULL, NULL, NULL, NULL,
				  "%" PRIu64 " events are missing (and %" PRIu64 " the filter may "
				  "have dropped) but the buffer reported only %" PRIu64 " lost",
				  gaps - filterable, filterable, v->cpu_lost_events[cpu]);
		else
			violation(v, RB_RULE_SEQUENCE, cpu, NULL, NULL, NULL, NULL,
				  "%" PRIu64 " events are missing but the buffer reported only %"
				  PRIu64 " lost", gaps, v->cpu_lost_events[cpu]);
	}

	r = &v->rules[RB_RULE_OWN_CLOCK];
	if (!r->checked) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason),
			 "the module cannot read the %s clock",
			 v->clock_id == RB_CLOCK_NONE ? "counter" : "trace");
	}

	r = &v->rules[RB_RULE_A_TO_C];
	if (!r->checked) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason),
			 "no event was interrupted before its reservation");
	}

	r = &v->rules[RB_RULE_COUNTERS];
	if (!r->checked && !r->violations) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason),
			 v->counters && v->counters->have ?
			 "events were lost on every CPU" :
			 "the kernel has no time stamp path counters (the counters patch of kernel-patches/LINE/test/)");
	}
}

void rb_verify_totals(const struct rb_verifier *v, struct rb_ctx_stats tot[RB_CTX_MAX])
{
	memset(tot, 0, sizeof(*tot) * RB_CTX_MAX);
	for (int cpu = 0; cpu < RB_MAX_CPUS; cpu++) {
		if (!v->cpus[cpu])
			continue;
		for (int c = 0; c < RB_CTX_MAX; c++) {
			const struct rb_ctx_stats *s = &v->cpu_ctx[cpu][c];

			tot[c].events += s->events;
			tot[c].nested += s->nested;
			tot[c].before_c += s->before_c;
			tot[c].before_c_zero += s->before_c_zero;
			tot[c].lost += s->lost;
			if (s->max_depth > tot[c].max_depth)
				tot[c].max_depth = s->max_depth;
		}
	}
}

enum rb_verdict rb_rule_verdict(const struct rb_verifier *v, enum rb_rule rule)
{
	const struct rb_rule_result *r = &v->rules[rule];

	if (r->violations)
		return RB_FAIL;
	if (r->skipped)
		return RB_SKIP;
	return RB_PASS;
}

enum rb_verdict rb_verdict(const struct rb_verifier *v)
{
	bool pass = false;

	for (int i = 0; i < RB_RULE_MAX; i++) {
		switch (rb_rule_verdict(v, i)) {
		case RB_FAIL:
			return RB_FAIL;
		case RB_PASS:
			pass = true;
			break;
		case RB_SKIP:
			break;
		}
	}
	return pass ? RB_PASS : RB_SKIP;
}
