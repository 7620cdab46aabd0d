/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules every capture can be held to, whatever its events: per CPU, in
 * buffer order, time never goes back (across sub-buffers and losses too),
 * and under the counter clock, which every read moves, no two events share
 * a stamp but an event interrupted before its reservation, which takes its
 * interrupter's (a lower context right after a higher one).  A sub-buffer's
 * own time stamp (the writer's time when it moved to it, or the reader's
 * when it copied a partly read one out) is not before the last event of
 * the sub-buffers before it: its first event's delta counts from it.  The context of each event comes from its common_flags (NMI,
 * hard IRQ, softirq bits), and every time a higher context's event comes
 * right after a lower one's, the pair is counted with how often its delta
 * was 0: the signature of the nested zero delta before 2020.
 *
 * rbstress captures get these and the full rules of rb_verify.c.
 */
#ifndef _RB_GENERIC_H
#define _RB_GENERIC_H

#include <stdbool.h>
#include <stdint.h>

#include "rb_event.h"
#include "rb_verify.h"

/* common_flags bits (enum trace_flag_type in kernel/trace/trace.h) */
#define RB_TRACE_FLAG_HARDIRQ	0x08
#define RB_TRACE_FLAG_SOFTIRQ	0x10
#define RB_TRACE_FLAG_NMI	0x40

enum rb_gen_rule {
	RB_GEN_ORDER,		/* time never goes back */
	RB_GEN_DISTINCT,	/* counter clock: no two stamps equal */
	RB_GEN_SUBBUF,		/* a sub-buffer's stamp not before the events before it */
	RB_GEN_MAX
};

struct rb_gen_pair {
	uint64_t	count;		/* a higher context right after a lower one */
	uint64_t	zero;		/* of those, with delta 0 */
};

struct rb_generic {
	char			clock[32];	/* the capture's trace clock, "" if not known */
	bool			counter_clock;	/* it is 'counter' */
	uint64_t		events;
	uint64_t		ctx_events[RB_CTX_MAX];
	struct {
		bool		have;
		uint64_t	ts;
		unsigned int	ctx;
		struct rb_pos	pos;
	}			last[RB_MAX_CPUS];
	struct rb_gen_pair	pairs[RB_CTX_MAX][RB_CTX_MAX];	/* [inner][outer] */
	/* counter clock: equal stamps of an event right after its interrupter (A-C) */
	uint64_t		shared_with_interrupter;
	struct rb_rule_result	rules[RB_GEN_MAX];	/* as rb_verify.c's rules */
};

extern const char *const rb_gen_rule_names[RB_GEN_MAX];

/* @clock: the capture's trace clock, NULL or "" if not known */
void rb_generic_init(struct rb_generic *g, const char *clock);
/* The context a record's common_flags say it was written in, and its name. */
unsigned int rb_generic_ctx(int common_flags);
const char *rb_generic_ctx_name(unsigned int ctx);
/* One event of any format, in its CPU's buffer order. */
void rb_generic_event(struct rb_generic *g, int cpu, uint64_t ts, int common_flags,
		      const struct rb_pos *pos);
/*
 * One sub-buffer with data, before its events: @stamp is its header's time
 * stamp, the base of its first event's delta.
 */
void rb_generic_subbuf(struct rb_generic *g, int cpu, uint64_t stamp, const struct rb_pos *pos);
/* Marks what could not be judged; call once, after the last event. */
void rb_generic_finish(struct rb_generic *g);
enum rb_verdict rb_generic_rule_verdict(const struct rb_generic *g, enum rb_gen_rule rule);
enum rb_verdict rb_generic_verdict(const struct rb_generic *g);

#endif /* _RB_GENERIC_H */
