/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules.  Events are fed per CPU in buffer order; CPUs are independent.
 * The vocabulary is the ring buffer's: an event reserves its space at step
 * C of __rb_reserve_next(); one that is interrupted between A and C lands
 * after its interrupters, one interrupted after C lands before them.
 */
#ifndef _RB_VERIFY_H
#define _RB_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "rb_capture.h"	/* RB_MAX_CPUS: the one CPU limit */
#include "rb_event.h"

enum rb_rule {
	RB_RULE_MONOTONIC,	/* a time stamp never goes backwards */
	RB_RULE_NESTED_DELTA,	/* nested after C: strictly later than the outer */
	RB_RULE_OWN_CLOCK,	/* ts <= own clock read, and not far before it */
	RB_RULE_A_TO_C,		/* interrupted before C: delta 0 allowed, not less */
	RB_RULE_SEQUENCE,	/* no seq gap but where lost events were reported */
	RB_RULE_COUNTERS,	/* agrees with the kernel's path counters */
	RB_RULE_MAX
};

enum rb_verdict {
	RB_PASS,
	RB_FAIL,
	RB_SKIP,
};

#define RB_MAX_EXAMPLES		3
#define RB_EXAMPLE_LEN		512
/* How far back in buffer order to look for the outer event of a nesting. */
#define RB_HISTORY		32

struct rb_settings {
	uint64_t	clock_bound_ns;	/* own-clock: how far before its clock */
	bool		require_nested;	/* no nested event at all is a FAIL */
	/*
	 * An event filter drops the events whose seq has none of these bits
	 * set ("seq & MASK"): such gaps are counted as filtered, and a stamp
	 * after the own clock read is the commit-time stamp the kernel gives
	 * an event it first wrote to its per-CPU filter buffer.  0: no filter.
	 */
	uint64_t	filter_seq_mask;
};

/* Counts per context pair, outer ⊃ inner. */
#define RB_HIST_BUCKETS	256

struct rb_pair_stats {
	uint64_t	count;
	uint64_t	min_delta;
	uint64_t	max_delta;
	uint64_t	sum_delta;
	uint64_t	hist[RB_HIST_BUCKETS];	/* see rb_hist_bucket() */
};

/* The histogram bucket of a delta, and the largest delta a bucket holds. */
unsigned int rb_hist_bucket(uint64_t delta);
uint64_t rb_hist_upper(unsigned int bucket);
/* The median delta of a pair, to the histogram's resolution (<= 25%). */
uint64_t rb_pair_median(const struct rb_pair_stats *p);

struct rb_ctx_stats {
	uint64_t	events;
	uint64_t	nested;		/* nested in an outer event after its C */
	uint64_t	before_c;	/* interrupted before it reserved (A-C) */
	uint64_t	before_c_zero;	/* of those, delta 0: C-F time lost */
	uint64_t	lost;		/* seq gaps explained by lost events */
	unsigned int	max_depth;
};

struct rb_rule_result {
	uint64_t	checked;
	uint64_t	violations;
	bool		skipped;
	uint64_t	skipped_flat;	/* nested-delta: equal stamps, clock did not move */
	char		skip_reason[128];
	int		nr_examples;
	char		examples[RB_MAX_EXAMPLES][RB_EXAMPLE_LEN];
};

struct rb_cpu_state;
struct rb_path_counters;

/*
 * Records of the sub-buffers that show which time stamp path an event took
 * (counted by rb_subbuf.c as it walks them), beside the kernel's counters.
 */
enum rb_record {
	RB_REC_SUBBUF,		/* a sub-buffer with data: its first event */
	RB_REC_EXTEND,		/* time extend: a delta too large for the header */
	/*
	 * A full time stamp: the buffer's absolute mode, or forced when the
	 * event interrupted another's time update (before_stamp !=
	 * write_stamp, or a failed 32-bit read): rb_add_timestamp() writes
	 * both as RINGBUF_TYPE_TIME_STAMP.
	 */
	RB_REC_ABSOLUTE,
	RB_REC_DISCARDED,	/* a discarded event left as padding */
	/*
	 * The last record a padding of delta 1: rb_reset_tail()'s, or a
	 * discarded event of delta 0 or 1 left as padding after the events
	 * behind it were removed.  Which one the sub-buffer cannot say.
	 */
	RB_REC_END_PADDING,
	RB_REC_MAX
};

extern const char *const rb_record_names[RB_REC_MAX];

struct rb_verifier {
	struct rb_settings	set;
	struct rb_cpu_state	*cpus[RB_MAX_CPUS];
	struct rb_rule_result	rules[RB_RULE_MAX];
	struct rb_ctx_stats	cpu_ctx[RB_MAX_CPUS][RB_CTX_MAX];
	struct rb_pair_stats	pairs[RB_CTX_MAX][RB_CTX_MAX];
	uint64_t		events;
	uint64_t		lost_events;	/* as reported by the buffer */
	uint64_t		lost_unknown;	/* reports without a count */
	uint64_t		cpu_lost_reports[RB_MAX_CPUS];
	uint64_t		cpu_checked[RB_MAX_CPUS][RB_RULE_MAX];
	uint64_t		cpu_violations[RB_MAX_CPUS][RB_RULE_MAX];
	const struct rb_path_counters *counters; /* the kernel's, if given */
	unsigned int		max_depth;
	uint64_t		four_deep;
	uint64_t		max_clock_gap;	/* own-clock: largest clock - ts */	/* nmi in irq in softirq in normal */
	unsigned int		clock_id;	/* of the first event */
	int			nr_cpus_seen;
	/*
	 * The clock the buffer records with (enum rb_clock), if the reader
	 * knows it (-1: take the events' word).  Own-clock compares only the
	 * events whose module read that same clock.
	 */
	int			buffer_clock;
	/* What happened to the buffer under the checker (faults). */
	uint64_t		resets;		/* buffer resets (trace_clock switch) */
	uint64_t		reset_wiped;	/* seq gaps right after a reset */
	uint64_t		cpu_resets[RB_MAX_CPUS];
	uint64_t		reloads;	/* module load changes seen, all CPUs */
	uint64_t		filtered;	/* seq gaps the event filter explains */
	uint64_t		cpu_filtered[RB_MAX_CPUS];
	/* events that landed between another's tracepoint call and its C */
	uint64_t		cpu_landed[RB_MAX_CPUS];
	uint64_t		stamped_at_commit; /* filtered events stamped at commit */
	uint64_t		own_clock_other; /* not compared: another clock */
	uint64_t		pre_clock_checked; /* own-clock: in [pre_clock, clock] */
	uint64_t		cpu_lost_events[RB_MAX_CPUS];
	/*
	 * Of the seq gaps after loss reports (cpu_ctx[][].lost), the seqs
	 * the event filter may have dropped: a filtered event in the pages
	 * the writer overwrote is missing too, yet was never an entry the
	 * buffer could report lost.
	 */
	uint64_t		cpu_lost_filterable[RB_MAX_CPUS];
	uint64_t		cpu_lost_unknown[RB_MAX_CPUS];
	uint64_t		records[RB_REC_MAX];	/* in the sub-buffers verified */
	uint64_t		cpu_records[RB_MAX_CPUS][RB_REC_MAX];
	int			subbuf_size;	/* their size in bytes, 0 if not walked */
	/*
	 * The seed's promise, from the kernel's counters (counters rule):
	 * events that neither were interrupted before their reservation
	 * nor landed in such an interruption ("free"), and how many of them
	 * at least left the fast path; CPUs the rule could judge only.
	 */
	uint64_t		free_events;
	uint64_t		free_slow;
};

extern const char *const rb_rule_names[RB_RULE_MAX];

void rb_settings_default(struct rb_settings *set);
struct rb_verifier *rb_verifier_new(const struct rb_settings *set);
void rb_verifier_free(struct rb_verifier *v);

/* Feed one event, in its CPU's buffer order.  Returns -1 on a bad CPU. */
int rb_verify_event(struct rb_verifier *v, const struct rb_event *e);
/*
 * The path records of one sub-buffer, before its events are fed; summed
 * per run (the kernel's counters are the per-CPU view).
 */
void rb_verify_records(struct rb_verifier *v, int cpu, const uint64_t n[RB_REC_MAX]);
/* The buffer reported @missed lost events on @cpu here (-1: unknown count). */
void rb_verify_lost(struct rb_verifier *v, int cpu, long missed);
/*
 * The buffer was reset (every CPU emptied, e.g. by a trace_clock switch) and
 * now records with @clock (enum rb_clock, or -1 if unknown): what comes
 * next is not compared with what came before.
 */
void rb_verify_reset(struct rb_verifier *v, int clock);
/*
 * 6. counters: the kernel's time stamp path counts over the same run (after
 * the events are fed, before rb_verify_finish()).  @k must outlive @v.
 */
void rb_verify_counters(struct rb_verifier *v, const struct rb_path_counters *k);
/* Close the run: decides the rules that depend on the whole run. */
void rb_verify_finish(struct rb_verifier *v);

/* Per-context counts summed over the CPUs. */
void rb_verify_totals(const struct rb_verifier *v, struct rb_ctx_stats tot[RB_CTX_MAX]);

enum rb_verdict rb_rule_verdict(const struct rb_verifier *v, enum rb_rule r);
enum rb_verdict rb_verdict(const struct rb_verifier *v);

#endif /* _RB_VERIFY_H */
