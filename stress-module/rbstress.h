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
#include <linux/tracepoint-defs.h>

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
	RBS_CLOCK_UPTIME,	/* jiffies in clock_t units: coarse on purpose */
	RBS_CLOCK_MAX
};

/*
 * The contexts' and the clocks' names, here and nowhere else, in the
 * enums' order (rbs_ctx_name() and rbs_clock_name() index them).  The
 * event's print format carries both lists (__print_symbolic): trace-cmd
 * shows the names, and rbcheck reads them from the format rather than
 * from a copy of its own.  A clock's name is also its clock= value and
 * the trace_clock it is compared with.
 */
#define RBS_CTX_SYMBOLS					\
	{ RBS_CTX_NORMAL,	"normal" },		\
	{ RBS_CTX_SOFTIRQ,	"softirq" },		\
	{ RBS_CTX_IRQ,		"irq" },		\
	{ RBS_CTX_NMI,		"nmi" }

#define RBS_CLOCK_SYMBOLS				\
	{ RBS_CLOCK_NONE,	"counter" },		\
	{ RBS_CLOCK_LOCAL,	"local" },		\
	{ RBS_CLOCK_GLOBAL,	"global" },		\
	{ RBS_CLOCK_PERF,	"perf" },		\
	{ RBS_CLOCK_MONO,	"mono" },		\
	{ RBS_CLOCK_MONO_RAW,	"mono_raw" },		\
	{ RBS_CLOCK_BOOT,	"boot" },		\
	{ RBS_CLOCK_UPTIME,	"uptime" }

/* Where the NMIs come from. */
enum rbs_nmi_source {
	RBS_NMI_NONE,		/* disabled, or nothing available */
	RBS_NMI_PERF,		/* a cycles counter overflowing, per CPU */
	RBS_NMI_IPI,		/* sent by another CPU through the local APIC */
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

/* Per-CPU counters, lock-free: each context only writes its own slots. */
/*
 * What one recorded event cost, reserve to commit, minus the time spent
 * in its window spin (and so minus whatever nested inside the window).
 * "flat": nothing else's window was open and nothing landed between the
 * call and TP_fast_assign, so the fast path; "nested": it was recorded
 * inside another event's window (the seed's nested case).  Events that
 * were themselves interrupted before their window opened are not timed:
 * their cost includes the interrupting handlers.
 */
enum rbs_cost_class { RBS_COST_FLAT, RBS_COST_NESTED, RBS_COST_MAX };

struct rbs_stats {
	u64		calls[RBS_CTX_MAX];	/* tracepoint called while enabled */
	u64		events[RBS_CTX_MAX];	/* TP_fast_assign ran: recorded */
	u64		nested[RBS_CTX_MAX];	/* ... inside another's window */
	u64		four_deep;		/* NMI in irq in softirq in normal */
	unsigned int	max_depth;
	u64		nmi_sent;		/* by this CPU, to another */
	u64		nmi_received;		/* claimed by our handler here */
	u64		quiet_periods;		/* all writers of this CPU paused */
	/* Each context updates only its own slots: no NMI can tear them. */
	u64		cost_n[RBS_CTX_MAX][RBS_COST_MAX];
	u64		cost_ns[RBS_CTX_MAX][RBS_COST_MAX];
};

/* Per-CPU state. */
struct rbs_cpu {
	unsigned long	idx;			/* bumped by every window opening */
	unsigned int	open_mask;
	u64		seq[RBS_CTX_MAX];
	u64		open_seq[RBS_CTX_MAX];
	/* from the event being recorded in each context, for its timing */
	u64		spin_ns[RBS_CTX_MAX];
	bool		was_nested[RBS_CTX_MAX];
	unsigned long	idx_at_open[RBS_CTX_MAX];
	/*
	 * Set by this CPU's task writer for a quiet period: every context
	 * of this CPU records nothing, so that the next event's delta is
	 * too large for its header and takes the time extend.
	 */
	bool		quiet;
	struct rbs_stats stats;
};

DECLARE_PER_CPU(struct rbs_cpu, rbs_cpu);

/* Settings, validated once at load and read-only afterwards. */
struct rbs_settings {
	unsigned int	window_ns[RBS_CTX_MAX];
	unsigned int	task_gap_us;
	unsigned int	softirq_period_us;	/* 0: no softirq writer */
	unsigned int	irq_period_us;		/* 0: no hard-IRQ writer */
	unsigned int	nmi_period_us;		/* 0: no NMI writer */
	unsigned int	quiet_every_ms;		/* 0: no quiet periods */
	unsigned int	quiet_ms;
	enum rbs_clock	clock;
	enum rbs_nmi_source nmi_source;		/* what is actually used */
	/*
	 * Random and never 0, per load: the checker tells a reloaded module's
	 * fresh seq and idx numbering from a broken one by it.
	 */
	u32		load_id;
};

extern struct rbs_settings rbs_settings;
const char *rbs_ctx_name(unsigned int ctx);
const char *rbs_clock_name(unsigned int clock);
int rbs_clock_parse(const char *name);
extern const char * const rbs_nmi_source_names[];

/* rbstress_record.c: the event and its window */
u64 rbs_clock_read(void);
void rbs_window_open(struct rbs_open *o);
void rbs_window_spin(u32 window_ns);
u32 rbs_window_close(u8 ctx);
void rbs_write(void);
void rbs_reset_stats(void);

/* rbstress_task.c: a kthread per CPU writing from normal context */
int rbs_task_start_cpu(unsigned int cpu);
void rbs_task_stop_cpu(unsigned int cpu);

/* rbstress_timers.c: per-CPU hrtimers: softirq and hard-IRQ writers, NMI sender */
void rbs_timers_start_this_cpu(void);
void rbs_timers_stop_cpu(unsigned int cpu);

/* rbstress_nmi.c: NMI writers */
int rbs_nmi_init(const char *want);
void rbs_nmi_exit(void);
int rbs_nmi_start_cpu(unsigned int cpu);
void rbs_nmi_stop_cpu(unsigned int cpu);
void rbs_nmi_send_from_this_cpu(void);

/* rbstress_debugfs.c: control, settings and counters */
void rbs_debugfs_init(void);
void rbs_debugfs_exit(void);

/* rbstress_main.c: start and stop of all writers */
int rbs_start(void);
void rbs_stop(void);
bool rbs_running(void);

#endif /* _RBSTRESS_H */
