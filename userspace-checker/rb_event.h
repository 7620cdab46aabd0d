/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One rbstress event as the checker sees it, whatever it was read from
 * (a live tracefs instance, a trace.dat, or a unit test).
 */
#ifndef _RB_EVENT_H
#define _RB_EVENT_H

#include <stdbool.h>
#include <stdint.h>

/* The ring buffer's contexts (RB_CTX_* in ring_buffer.c), lowest first. */
enum rb_ctx {
	RB_CTX_NORMAL,
	RB_CTX_SOFTIRQ,
	RB_CTX_IRQ,
	RB_CTX_NMI,
	RB_CTX_MAX
};

/* Must match enum rbs_clock in stress-module/rbstress.h. */
enum rb_clock {
	RB_CLOCK_NONE,		/* the module cannot read it: no clock field */
	RB_CLOCK_LOCAL,
	RB_CLOCK_GLOBAL,
	RB_CLOCK_PERF,
	RB_CLOCK_MONO,
	RB_CLOCK_MONO_RAW,
	RB_CLOCK_BOOT,
	RB_CLOCK_UPTIME,	/* jiffies in clock_t units */
	RB_CLOCK_MAX
};

/* Names as the capture's module gave them (rb_names.c). */
const char *rb_ctx_name(unsigned int ctx);
/* The module's name of @ctx, or @other if the capture names none. */
const char *rb_ctx_name_or(unsigned int ctx, const char *other);
const char *rb_clock_name(unsigned int clock);
/* Whether the capture's module names @clock (an older one names none). */
bool rb_clock_named(unsigned int clock);
/* The enum rb_clock of a trace_clock name, or -1 if the module names no such clock. */
int rb_clock_from_name(const char *name);

/* Where in its CPU's stream an event was found, for the reports. */
struct rb_pos {
	int64_t		subbuf;		/* sub-buffer number, or -1 */
	uint64_t	offset;		/* in the sub-buffer, or in the file */
	/*
	 * Paddings of delta 1 before it in its sub-buffer (since an absolute
	 * stamp), each read as no time: rb_event_discard()'s stand-in for a
	 * delta 0, or a discarded event's real delta 1 (finding (d)).
	 */
	unsigned int	pad1;
};

struct rb_event {
	uint64_t	ts;		/* the ring buffer's time stamp */
	uint64_t	clock;		/* clock read in TP_fast_assign */
	uint64_t	pre_clock;	/* read before the tracepoint call */
	unsigned int	has_pre_clock;	/* older modules' events have none */
	uint64_t	seq;		/* per (CPU, context) */
	uint64_t	open_seq[RB_CTX_MAX];
	uint32_t	idx;		/* per-CPU order of window opening */
	uint32_t	pre_idx;	/* that order before the tracepoint call */
	uint32_t	end_idx;	/* that order when the window closed */
	uint32_t	window_ns;
	int		cpu;		/* the buffer's CPU */
	unsigned int	field_cpu;	/* the CPU the event says it ran on */
	unsigned int	ctx;
	unsigned int	depth;
	unsigned int	open_mask;
	unsigned int	clock_id;
	uint32_t	load_id;	/* which load of the module wrote it (0: unknown) */
	struct rb_pos	pos;
};

#endif /* _RB_EVENT_H */
