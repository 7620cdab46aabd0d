/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rbstress trace event.  Everything the checker needs to rebuild the
 * nesting at each event is in its fields:
 *
 *   pre_clock the same clock, read just before the tracepoint call, that is
 *             before the ring buffer began to reserve this event
 *   clock     the buffer's trace clock, read first thing in TP_fast_assign,
 *             that is after the ring buffer took this event's time stamp:
 *             the stamp must lie in [pre_clock, clock]
 *   idx       per-CPU order in which events opened their window
 *   pre_idx   the same counter read *before* the tracepoint was called: an
 *             event whose idx lies in (pre_idx, idx) of another ran while
 *             that one was between the call and its window, i.e. possibly
 *             between A and C of the ring buffer's reservation
 *   end_idx   the counter when the window closed: events with an idx in
 *             (idx, end_idx) nested inside this event after it reserved
 *   open_mask contexts whose window was open when this one opened, with
 *   open_seq  the seq of each of those events
 *   load_id   which load of the module wrote it: seq and idx restart at a
 *             reload
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rbstress

#if !defined(_RBSTRESS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RBSTRESS_TRACE_H

#include <linux/tracepoint.h>
#include "rbstress.h"

/*
 * Export the enum values, so that the print format names them and
 * trace-cmd report shows ctx=irq rather than ctx=0x2.
 */
TRACE_DEFINE_ENUM(RBS_CTX_NORMAL);
TRACE_DEFINE_ENUM(RBS_CTX_SOFTIRQ);
TRACE_DEFINE_ENUM(RBS_CTX_IRQ);
TRACE_DEFINE_ENUM(RBS_CTX_NMI);
TRACE_DEFINE_ENUM(RBS_CLOCK_NONE);
TRACE_DEFINE_ENUM(RBS_CLOCK_LOCAL);
TRACE_DEFINE_ENUM(RBS_CLOCK_GLOBAL);
TRACE_DEFINE_ENUM(RBS_CLOCK_PERF);
TRACE_DEFINE_ENUM(RBS_CLOCK_MONO);
TRACE_DEFINE_ENUM(RBS_CLOCK_MONO_RAW);
TRACE_DEFINE_ENUM(RBS_CLOCK_BOOT);
TRACE_DEFINE_ENUM(RBS_CLOCK_UPTIME);

#define show_rbs_ctx(ctx)	__print_symbolic(ctx, RBS_CTX_SYMBOLS)
#define show_rbs_clock(clock)	__print_symbolic(clock, RBS_CLOCK_SYMBOLS)

TRACE_EVENT(rbstress_event,

	TP_PROTO(unsigned long pre_idx, u64 pre_clock),

	TP_ARGS(pre_idx, pre_clock),

	TP_STRUCT__entry(
		__field(u64,	clock)
		__field(u64,	pre_clock)
		__field(u64,	seq)
		__array(u64,	open_seq, RBS_CTX_MAX)
		__field(u32,	idx)
		__field(u32,	pre_idx)
		__field(u32,	end_idx)
		__field(u32,	window_ns)
		__field(u32,	load_id)
		__field(u16,	cpu)
		__field(u8,	ctx)
		__field(u8,	depth)
		__field(u8,	open_mask)
		__field(u8,	clock_id)
	),

	TP_fast_assign(
		struct rbs_open o;

		/* First, so it is as close as possible to the reservation. */
		__entry->clock		= rbs_clock_read();
		__entry->pre_clock	= pre_clock;
		rbs_window_open(&o);
		__entry->seq		= o.seq;
		memcpy(__entry->open_seq, o.open_seq, sizeof(o.open_seq));
		__entry->idx		= o.idx;
		__entry->pre_idx	= pre_idx;
		__entry->window_ns	= o.window_ns;
		__entry->cpu		= smp_processor_id();
		__entry->ctx		= o.ctx;
		__entry->depth		= o.depth;
		__entry->open_mask	= o.open_mask;
		__entry->clock_id	= rbs_settings.clock;
		__entry->load_id	= rbs_settings.load_id;
		/* Hold the window open so that higher contexts land inside. */
		rbs_window_spin(o.window_ns);
		__entry->end_idx	= rbs_window_close(o.ctx);
	),

	TP_printk("ctx=%s seq=%llu depth=%u open=0x%x idx=%u pre=%u end=%u clock=%llu clock_id=%s",
		  show_rbs_ctx(__entry->ctx), __entry->seq, __entry->depth,
		  __entry->open_mask, __entry->idx, __entry->pre_idx,
		  __entry->end_idx, __entry->clock, show_rbs_clock(__entry->clock_id))
);

#endif /* _RBSTRESS_TRACE_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE rbstress_trace
#include <trace/define_trace.h>
