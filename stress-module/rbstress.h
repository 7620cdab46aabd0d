/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbstress - make ring buffer events nest inside each other, so that the
 * time stamps the ring buffer gives nested events can be checked.
 *
 * Shared declarations of the module's files.  The contexts are the ring
 * buffer's own (RB_CTX_* in kernel/trace/ring_buffer.c), lowest first, so
 * that an event of context c can only be interrupted by contexts > c.
 */
#ifndef _RBSTRESS_H
#define _RBSTRESS_H

#include <linux/types.h>
#include <linux/percpu.h>

enum rbs_ctx {
	RBS_CTX_NORMAL,
	RBS_CTX_SOFTIRQ,
	RBS_CTX_IRQ,
	RBS_CTX_NMI,
	RBS_CTX_MAX
};

/* The trace clocks the module can read; numbered for the event's clock_id. */
enum rbs_clock {
	RBS_CLOCK_NONE,		/* not readable by a module (e.g. "counter") */
	RBS_CLOCK_LOCAL,
	RBS_CLOCK_GLOBAL,
	RBS_CLOCK_PERF,
	RBS_CLOCK_MONO,
	RBS_CLOCK_MONO_RAW,
	RBS_CLOCK_BOOT,
	RBS_CLOCK_MAX
};

/*
 * What an event learns when its window opens: that is, in TP_fast_assign,
 * after the ring buffer reserved its space (step C) and before it commits.
 */
struct rbs_open {
	u64		seq;			/* per (CPU, context) */
	u64		open_seq[RBS_CTX_MAX];	/* seq of each open outer event */
	u32		idx;			/* per-CPU order of window opening */
	u32		window_ns;
	u8		ctx;
	u8		open_mask;		/* contexts whose window is open */
	u8		depth;			/* number of bits in open_mask */
};

/* Per-CPU state.  Each context only writes its own slots. */
struct rbs_cpu {
	unsigned long	idx;			/* bumped by every window opening */
	unsigned int	open_mask;
	u64		seq[RBS_CTX_MAX];
	u64		open_seq[RBS_CTX_MAX];
	/* statistics, read by the summary at unload */
	u64		events[RBS_CTX_MAX];
	u64		nested[RBS_CTX_MAX];
	unsigned int	max_depth;
};

DECLARE_PER_CPU(struct rbs_cpu, rbs_cpu);

/* Settings, validated once at load and read-only afterwards. */
struct rbs_settings {
	unsigned int	window_ns[RBS_CTX_MAX];
	unsigned int	task_gap_us;
	unsigned int	irq_period_us;
	enum rbs_clock	clock;
};

extern struct rbs_settings rbs_settings;

/* rbstress_record.c: the event and its window */
u64 rbs_clock_read(void);
void rbs_window_open(struct rbs_open *o);
void rbs_window_spin(u32 window_ns);
u32 rbs_window_close(u8 ctx);
void rbs_write(void);
void rbs_report(void);

/* rbstress_task.c: per-CPU kthreads writing from normal context */
int rbs_task_start(void);
void rbs_task_stop(void);

/* rbstress_irq.c: per-CPU hrtimers writing from hard IRQ context */
int rbs_irq_start(void);
void rbs_irq_stop(void);

#endif /* _RBSTRESS_H */
