// SPDX-License-Identifier: GPL-2.0
/*
 * The event and its window.
 *
 * A writer calls rbs_write().  The ring buffer reserves the event's space
 * (steps A to C of __rb_reserve_next()), then TP_fast_assign runs with the
 * space reserved but not committed.  That is the window this file holds
 * open: rbs_window_open() records which lower-context events are open
 * around us, rbs_window_spin() waits so that higher contexts can land
 * inside, and rbs_window_close() ends it.
 *
 * All state is per CPU.  Nesting on one CPU is stack-shaped (an interrupt
 * runs to completion before the context it interrupted resumes) and each
 * context only writes its own slots, so plain per-CPU accesses are enough;
 * only the order counter is shared by all contexts and is bumped with one
 * interrupt-safe this_cpu_inc_return().
 */
#define pr_fmt(fmt) "rbstress: " fmt

#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/ktime.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>
#include <linux/string.h>

#include "rbstress.h"

#define CREATE_TRACE_POINTS
#include "rbstress_trace.h"

DEFINE_PER_CPU(struct rbs_cpu, rbs_cpu);

/* The context as the ring buffer's trace_recursive_lock() sees it. */
static u8 rbs_current_ctx(void)
{
	if (in_nmi())
		return RBS_CTX_NMI;
	if (in_hardirq())
		return RBS_CTX_IRQ;
	if (in_serving_softirq())
		return RBS_CTX_SOFTIRQ;
	return RBS_CTX_NORMAL;
}

/*
 * Read the clock the harness set for the instance (module parameter
 * "clock").  The buffer's own clock cannot be reached from TP_fast_assign,
 * which is also expanded into the perf probe, so the two are matched by
 * name and the event carries clock_id for the checker to compare.
 */
u64 rbs_clock_read(void)
{
	switch (rbs_settings.clock) {
	case RBS_CLOCK_LOCAL:
		return trace_clock_local();
	case RBS_CLOCK_GLOBAL:
		return trace_clock_global();
	case RBS_CLOCK_PERF:
		return trace_clock();
	case RBS_CLOCK_MONO:
		return ktime_get_mono_fast_ns();
	case RBS_CLOCK_MONO_RAW:
		return ktime_get_raw_fast_ns();
	case RBS_CLOCK_BOOT:
		return ktime_get_boot_fast_ns();
	case RBS_CLOCK_UPTIME:
		return trace_clock_jiffies();
	default:
		return 0;
	}
}

static const struct trace_print_flags rbs_clock_syms[RBS_CLOCK_MAX] = { RBS_CLOCK_SYMBOLS };

const char *rbs_clock_name(unsigned int clock)
{
	return clock < RBS_CLOCK_MAX ? rbs_clock_syms[clock].name : "?";
}

/* The clock called @name (RBS_CLOCK_*), or -EINVAL. */
int rbs_clock_parse(const char *name)
{
	int i;

	for (i = 0; i < RBS_CLOCK_MAX; i++)
		if (!strcmp(name, rbs_clock_syms[i].name))
			return i;
	return -EINVAL;
}

void rbs_window_open(struct rbs_open *o)
{
	struct rbs_cpu *c = this_cpu_ptr(&rbs_cpu);
	unsigned int mask;
	u8 ctx = rbs_current_ctx();

	/* The one access all contexts share: must be a single RMW. */
	o->idx = this_cpu_inc_return(rbs_cpu.idx);
	this_cpu_write(rbs_cpu.idx_at_open[ctx], o->idx);

	o->ctx = ctx;
	o->seq = ++c->seq[ctx];
	mask = READ_ONCE(c->open_mask);
	o->open_mask = mask;
	o->depth = hweight8(mask);
	memcpy(o->open_seq, c->open_seq, sizeof(o->open_seq));
	o->window_ns = rbs_settings.window_ns[ctx];

	c->open_seq[ctx] = o->seq;
	barrier();
	/*
	 * Not atomic, and need not be: whatever interrupts us between the
	 * read and the write restores open_mask before it returns.
	 */
	WRITE_ONCE(c->open_mask, mask | BIT(ctx));

	c->stats.events[ctx]++;
	c->was_nested[ctx] = mask != 0;
	c->spin_ns[ctx] = 0;
	if (mask) {
		c->stats.nested[ctx]++;
		if (o->depth > c->stats.max_depth)
			c->stats.max_depth = o->depth;
		if (ctx == RBS_CTX_NMI && mask == (BIT(RBS_CTX_NMI) - 1))
			c->stats.four_deep++;
	}
}

void rbs_window_spin(u32 window_ns)
{
	u64 start, now;

	if (!window_ns)
		return;
	/*
	 * Not local_clock(): with an unstable sched_clock it is clamped to
	 * the last tick + TICK_NSEC, and a spin with interrupts off (hard-IRQ
	 * writers) holds off that tick, so the clock stops and the spin never
	 * ends.  The fast monotonic clock reads the clocksource itself and is
	 * NMI-safe.
	 */
	start = ktime_get_mono_fast_ns();
	while ((now = ktime_get_mono_fast_ns()) - start < window_ns)
		cpu_relax();
	this_cpu_write(rbs_cpu.spin_ns[rbs_current_ctx()], now - start);
}

u32 rbs_window_close(u8 ctx)
{
	struct rbs_cpu *c = this_cpu_ptr(&rbs_cpu);

	WRITE_ONCE(c->open_mask, READ_ONCE(c->open_mask) & ~BIT(ctx));
	barrier();
	return (u32)this_cpu_read(rbs_cpu.idx);
}

/*
 * Record one event from whatever context we are in.  A call the ring buffer
 * refuses (buffer full in no-overwrite mode, tracing off, recursion) counts
 * in calls but never reaches TP_fast_assign, so it is missing from events.
 */
void rbs_write(void)
{
	struct rbs_cpu *c;
	unsigned long pre_idx;
	u64 seq, t0, t1;
	u8 ctx;

	if (!trace_rbstress_event_enabled())
		return;
	/* The task writer is preemptible: stay on this CPU's counters. */
	preempt_disable();
	c = this_cpu_ptr(&rbs_cpu);
	/* A quiet period: not even a refused call may touch the buffer. */
	if (READ_ONCE(c->quiet)) {
		preempt_enable();
		return;
	}
	ctx = rbs_current_ctx();
	c->stats.calls[ctx]++;
	seq = c->seq[ctx];
	pre_idx = this_cpu_read(rbs_cpu.idx);
	t0 = ktime_get_mono_fast_ns();
	/* Last before the call: the ring buffer stamps this event after it. */
	trace_rbstress_event(pre_idx, rbs_clock_read());
	t1 = ktime_get_mono_fast_ns();

	/* Time it only if it was recorded, and not disturbed before its window. */
	if (c->seq[ctx] == seq + 1 && c->idx_at_open[ctx] == pre_idx + 1) {
		int cls = c->was_nested[ctx] ? RBS_COST_NESTED : RBS_COST_FLAT;
		u64 spin = c->spin_ns[ctx];

		if (t1 - t0 > spin) {
			c->stats.cost_n[ctx][cls]++;
			c->stats.cost_ns[ctx][cls] += t1 - t0 - spin;
		}
	}
	preempt_enable();
}

static const struct trace_print_flags rbs_ctx_syms[RBS_CTX_MAX] = { RBS_CTX_SYMBOLS };

const char *rbs_ctx_name(unsigned int ctx)
{
	return ctx < RBS_CTX_MAX ? rbs_ctx_syms[ctx].name : "?";
}

/* Only while the writers are stopped: the counters are not atomic. */
void rbs_reset_stats(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(&per_cpu_ptr(&rbs_cpu, cpu)->stats, 0, sizeof(struct rbs_stats));
}
