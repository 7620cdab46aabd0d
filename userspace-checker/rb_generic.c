// SPDX-License-Identifier: GPL-2.0
/*
 * Rules over every event of a capture, of any format (rb_generic.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rb_generic.h"

const char *const rb_gen_rule_names[RB_GEN_MAX] = {
	[RB_GEN_ORDER]		= "order",
	[RB_GEN_DISTINCT]	= "distinct",
	[RB_GEN_SUBBUF]		= "subbuf-stamp",
};

void rb_generic_init(struct rb_generic *g, const char *clock)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->clock, sizeof(g->clock), "%s", clock ? clock : "");
	g->counter_clock = !strcmp(g->clock, "counter");
}

/*
 * The contexts common_flags tell apart are the ring buffer's, which the
 * module names; a capture without its format is named by what the kernel
 * prints for those flags in its latency format (irqs-off/need-resched
 * column: '.', 's', 'h', 'z'), not by a copy of the module's names.
 */
const char *rb_generic_ctx_name(unsigned int ctx)
{
	static const char *const flags[RB_CTX_MAX] = {
		[RB_CTX_NORMAL] = "task (.)", [RB_CTX_SOFTIRQ] = "softirq (s)",
		[RB_CTX_IRQ] = "hardirq (h)", [RB_CTX_NMI] = "NMI (z)",
	};

	return ctx < RB_CTX_MAX ? rb_ctx_name_or(ctx, flags[ctx]) : "?";
}

unsigned int rb_generic_ctx(int flags)
{
	if (flags & RB_TRACE_FLAG_NMI)
		return RB_CTX_NMI;
	if (flags & RB_TRACE_FLAG_HARDIRQ)
		return RB_CTX_IRQ;
	if (flags & RB_TRACE_FLAG_SOFTIRQ)
		return RB_CTX_SOFTIRQ;
	return RB_CTX_NORMAL;
}

static void where(char *buf, size_t len, int cpu, const struct rb_pos *pos)
{
	if (pos->subbuf >= 0)
		snprintf(buf, len, "cpu%d sub-buffer %" PRId64 "+0x%" PRIx64, cpu, pos->subbuf,
			 pos->offset);
	else
		snprintf(buf, len, "cpu%d file offset 0x%" PRIx64, cpu, pos->offset);
}

static void __attribute__((format(printf, 3, 4)))
violation(struct rb_generic *g, enum rb_gen_rule rule, const char *fmt, ...)
{
	struct rb_rule_result *r = &g->rules[rule];
	va_list ap;

	r->violations++;
	if (r->nr_examples == RB_MAX_EXAMPLES)
		return;
	va_start(ap, fmt);
	vsnprintf(r->examples[r->nr_examples++], sizeof(r->examples[0]), fmt, ap);
	va_end(ap);
}

void rb_generic_event(struct rb_generic *g, int cpu, uint64_t ts, int flags,
		      const struct rb_pos *pos)
{
	unsigned int ctx = rb_generic_ctx(flags);
	char here[96], there[96];	/* formatted only for a violation */

	if (cpu < 0 || cpu >= RB_MAX_CPUS)
		return;
	g->events++;
	g->ctx_events[ctx]++;
	if (g->last[cpu].have) {
		uint64_t prev = g->last[cpu].ts;

		if (ts <= prev) {
			where(here, sizeof(here), cpu, pos);
			where(there, sizeof(there), cpu, &g->last[cpu].pos);
		}
		g->rules[RB_GEN_ORDER].checked++;
		if (ts < prev)
			violation(g, RB_GEN_ORDER, "%s: %s event at %" PRIu64 " is %" PRIu64
				  " ns before the %s event before it (%s)", here, rb_generic_ctx_name(ctx),
				  ts, prev - ts, rb_generic_ctx_name(g->last[cpu].ctx), there);
		/*
		 * Every counter read is new: an equal stamp is the seed's one
		 * documented loss, an event interrupted before its reservation
		 * (A-C) and stamped with its interrupter's time (so a lower
		 * context right after a higher one), or it is wrong: a higher
		 * context right after a lower one is the pre-2020 nested zero
		 * delta.
		 */
		if (g->counter_clock) {
			g->rules[RB_GEN_DISTINCT].checked++;
			if (ts == prev && ctx < g->last[cpu].ctx)
				g->shared_with_interrupter++;
			else if (ts == prev)
				violation(g, RB_GEN_DISTINCT, "%s: %s event has the stamp %" PRIu64
					  " of the %s event before it (%s), under the counter clock",
					  here, rb_generic_ctx_name(ctx), ts,
					  rb_generic_ctx_name(g->last[cpu].ctx), there);
		}
		/* a higher context right after a lower one: it may have nested */
		if (ctx > g->last[cpu].ctx) {
			struct rb_gen_pair *p = &g->pairs[ctx][g->last[cpu].ctx];

			p->count++;
			if (ts == prev)
				p->zero++;
		}
	}
	g->last[cpu].have = true;
	g->last[cpu].ts = ts;
	g->last[cpu].ctx = ctx;
	g->last[cpu].pos = *pos;
}

void rb_generic_subbuf(struct rb_generic *g, int cpu, uint64_t stamp, const struct rb_pos *pos)
{
	char here[96], there[96];	/* formatted only for a violation */

	if (cpu < 0 || cpu >= RB_MAX_CPUS || !g->last[cpu].have)
		return;
	g->rules[RB_GEN_SUBBUF].checked++;
	if (stamp >= g->last[cpu].ts)
		return;
	where(here, sizeof(here), cpu, pos);
	where(there, sizeof(there), cpu, &g->last[cpu].pos);
	violation(g, RB_GEN_SUBBUF, "%s: the sub-buffer's time stamp %" PRIu64 " is %" PRIu64
		  " ns before the last event before it (%s event at %" PRIu64 ", %s)", here, stamp,
		  g->last[cpu].ts - stamp, rb_generic_ctx_name(g->last[cpu].ctx), g->last[cpu].ts,
		  there);
}

void rb_generic_finish(struct rb_generic *g)
{
	struct rb_rule_result *r = &g->rules[RB_GEN_DISTINCT];

	if (!g->counter_clock) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason),
			 "the capture's clock is not 'counter': equal stamps may be honest");
	} else if (!r->checked) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason), "no CPU had two events");
	}
	r = &g->rules[RB_GEN_ORDER];
	if (!r->checked) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason), "no CPU had two events");
	}
	r = &g->rules[RB_GEN_SUBBUF];
	if (!r->checked) {
		r->skipped = true;
		snprintf(r->skip_reason, sizeof(r->skip_reason),
			 "no sub-buffer with data came after one with events on its CPU "
			 "(or the reader, libtracecmd, hands out events, not sub-buffers)");
	}
}

enum rb_verdict rb_generic_rule_verdict(const struct rb_generic *g, enum rb_gen_rule rule)
{
	const struct rb_rule_result *r = &g->rules[rule];

	if (r->violations)
		return RB_FAIL;
	return r->skipped ? RB_SKIP : RB_PASS;
}

enum rb_verdict rb_generic_verdict(const struct rb_generic *g)
{
	bool pass = false;

	for (int i = 0; i < RB_GEN_MAX; i++) {
		enum rb_verdict v = rb_generic_rule_verdict(g, i);

		if (v == RB_FAIL)
			return RB_FAIL;
		pass |= v == RB_PASS;
	}
	return pass ? RB_PASS : RB_SKIP;
}
