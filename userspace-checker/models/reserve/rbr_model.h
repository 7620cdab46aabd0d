/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The explorer's state: the tree's buffer (inside the variant), the
 * trace clock, a stack of nested contexts each writing a bounded number
 * of events, and what the oracle needs to know of each event.
 */
#ifndef RBR_MODEL_H
#define RBR_MODEL_H

#include <setjmp.h>
#include <stdio.h>

#include "rbr.h"

#define RBR_MAX_PATH	4096
#define RBR_MAX_STEPS	20000	/* accesses in one execution: more is a livelock */

/*
 * The clock starts at RBR_CLOCK0 and a read that finds it moved finds it
 * RBR_TICK later: never a delta of 1, which rb_event_discard() uses to
 * mark a discarded event's zero delta.
 */
#define RBR_CLOCK0	1000ULL
#define RBR_TICK	10ULL
/*
 * A jump no 27-bit delta holds, so that a time extend is needed; not a
 * multiple of 2^27 (TS_MASK + 1), so that a delta cut to 27 bits is not 0
 * but a wrong stamp the oracle sees.
 */
#define RBR_DELTA_BITS	27
#define RBR_JUMP	(3ULL << (RBR_DELTA_BITS - 1))

/* The payload of every event: its number + 1 (4 bytes). */
#define RBR_PAYLOAD	4

#define RBR_MAX_READS	8

enum rbr_phase { RBR_IDLE, RBR_RESERVING, RBR_COMMITTING, RBR_DISCARDING };

struct rbr_event {
	int level;
	bool discard;		/* discarded instead of committed */
	bool reserved, done;
	u64 pre;		/* the clock before its reservation began */
	u64 post;		/* ... and after it ended */
	u64 api_ts;		/* ring_buffer_event_time_stamp() before its commit */
	/*
	 * The clock reads of its reservation (A's, E's, a retry's): its stamp
	 * is one of them, unless it lost its delta (rbr_oracle.c)
	 */
	u64 reads[RBR_MAX_READS];
	int nreads;
	/*
	 * What F's check reads, after its own step C: whether another event
	 * passed its C since (the write index moved), and the last values it
	 * loaded of before_stamp and write_stamp (info->before, info->after)
	 */
	bool came_after;
	bool have_before, have_write;
	u64 last_before, last_write;
};

struct rbr_level {
	bool active;		/* on the stack */
	int ops_left;		/* events left of its --ops budget */
	int inst_ops;		/* written by the current instance */
	int ev;			/* the event it is in, or -1 */
	enum rbr_phase phase;
	bool after_c;		/* its reservation has passed step C */
	u64 seen;		/* what its accesses found: its C locals */
	bool resumed;		/* an interrupt ran since its last access */
	/*
	 * Its last access, if a load with no choice of its own since: an
	 * interrupt here that leaves the word as the load found it is the
	 * same as one just before the load (see rbr_point()).
	 */
	const void *load_word;
	u64 load_val;
};

struct rbr_model {
	const struct rbr_variant *var;
	int depth;
	int ops[RBR_MAX_DEPTH];	/* events each level may write (its --ops budget) */
	bool discards;		/* events may be discarded */

	u64 clock;
	struct rbr_level lv[RBR_MAX_DEPTH];
	int top;		/* innermost active level */
	struct rbr_event ev[RBR_MAX_EVENTS];
	int nev;
	/*
	 * A reservation began while another context was between its
	 * ring_buffer_lock_reserve() and its return, or in a discard: the
	 * premise of the path oracle is gone (rbr_oracle.c)
	 */
	bool overlapped;
	int steps;

	/* what the kernel said during the current call */
	char log[1024];
	size_t loglen;
	const char *warning;

	/* the choices of this execution, replayed up to plen */
	struct { unsigned char pick, n; } path[RBR_MAX_PATH];
	int plen, pos;
	bool hashing;		/* prune at states already explored */
	bool reducing;		/* skip interrupts that commute with a load */
	bool estimating;	/* random picks: a sample of the tree (--estimate) */
	/*
	 * One of split_n jobs (--jobs): it explores the subtrees below the
	 * first split_depth choices whose picks hash to split_i, and
	 * prunes at explored states only below them (rbr_jobs.c).
	 */
	int split_i, split_n, split_depth;
	double weight;		/* the product of the choices' widths, this sample */
	u64 rng;
	jmp_buf out;		/* ends an execution early */

	/* a counterexample */
	char why[1024];
	FILE *trace;		/* replaying with a step-by-step trace */
	int tstep;

	/* counts */
	unsigned long long executions, complete, pruned, states;
	unsigned long long commuted;	/* of the pruned: the same as an earlier interrupt */
	unsigned long long elsewhere;	/* not counted: another job's subtree */
};

extern struct rbr_model rbr;

/* The kinds of choice points. */
enum rbr_choice {
	RBR_CHOOSE_INTERRUPT = 1,	/* a higher context runs here, or none */
	RBR_CHOOSE_CLOCK,		/* the clock moved, or not */
	RBR_CHOOSE_GO_ON,		/* an interrupt writes another event, or returns */
	RBR_CHOOSE_DISCARD,		/* the next event is committed, or discarded */
};

enum { RBR_END_OK = 0, RBR_END_PRUNED, RBR_END_VIOLATION, RBR_END_UNMODELLED,
       RBR_END_ELSEWHERE };	/* another job's subtree */


/* rbr_explore.c */
const char *rbr_bound(char *buf, size_t len);
int rbr_choose(int n, enum rbr_choice kind);
int rbr_run_once(void);
int rbr_explore(void);
bool rbr_split_mine(void);

/* rbr_jobs.c */
int rbr_explore_jobs(int jobs);
double rbr_estimate(unsigned long probes, double *max_weight);
void rbr_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
u64 rbr_mix(u64 h, u64 x);

/* rbr_oracle.c */
void rbr_check_buffer(void);

/* rbr_trace.c */
extern const char *const rbr_level_names[RBR_MAX_DEPTH];
void rbr_trace_access(int level, const void *word, enum rbr_access kind, u64 val,
		      bool modified);
void rbr_trace_event(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* RBR_MODEL_H */
