/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The explorer's state: one rb_time_t, a stack of nested contexts each
 * running a bounded program of operations on it, and the oracle's view.
 */
#ifndef RBM_MODEL_H
#define RBM_MODEL_H

#include <setjmp.h>
#include <stdio.h>

#include "rbm.h"

/* normal, softirq, irq, NMI, and the ring buffer's fifth nesting level */
#define RBM_MAX_DEPTH	5
#define RBM_MAX_OPS	8
#define RBM_MAX_PATH	4096
#define RBM_MAX_STEPS	20000	/* accesses in one execution: more is a livelock */

/* The values the programs use: index 0 is the initial 0, then V1, V2. */
#define RBM_NVALS	3
#define RBM_OTHER	RBM_NVALS	/* a value nobody wrote */

enum rbm_op_kind { OP_READ, OP_SET, OP_CMPXCHG };

struct rbm_op {
	enum rbm_op_kind kind;
	int a, b;		/* set a; cmpxchg expect a, new b (value indexes) */
	bool final;		/* the closing read of the normal context */
};

/* One nesting level and the operation it is in the middle of. */
struct rbm_level {
	bool active;		/* on the stack */
	int ops_left;		/* of its --ops budget */
	int inst_ops;		/* run by the current instance */
	bool in_op;
	struct rbm_op op;
	int naccess;
	u64 seen_hash;		/* what its accesses returned: its local state */
	bool modified;		/* made a modifying access */
	bool dirty;		/* ... and none since has been made good */
	/* oracle, fixed when the operation starts */
	bool may_fail;		/* it interrupted a write in progress */
	unsigned int seen;	/* values the abstract time took during it */
	unsigned int targets;	/* values of writes in progress below it */
	bool written_during;	/* a write landed while it ran */
};

struct rbm_model {
	const struct rbm_variant *var;
	int depth, ops;
	u64 vals[RBM_NVALS];
	int nmenu;
	struct rbm_op menu[8];

	/* the rb_time_t under test: struct of local_t, viewed as words */
	unsigned long words[RBM_MAX_WORDS];
	int cur;		/* abstract value (index) */
	struct rbm_level lv[RBM_MAX_DEPTH];
	int top;		/* innermost active level */
	int steps;

	/* the choices of this execution, replayed up to plen */
	struct { unsigned char pick, n; } path[RBM_MAX_PATH];
	int plen, pos;
	bool hashing;		/* prune at states already explored */
	bool strict_cmpxchg;	/* a cmpxchg may not fail just because a write landed */
	jmp_buf out;		/* ends an execution early */

	/* a counterexample */
	char why[512];
	FILE *trace;		/* replaying with a step-by-step trace */
	int tstep;

	/* counts */
	unsigned long long executions, complete, pruned, states;
};

extern struct rbm_model rbm;

enum { RBM_END_OK = 0, RBM_END_PRUNED, RBM_END_VIOLATION };

/* rbm_explore.c */
int rbm_choose(int n);
int rbm_run_once(void);
int rbm_explore(void);
void rbm_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* rbm_oracle.c */
void rbm_op_begin(int level);
void rbm_op_end(int level, bool ok, u64 val);
int rbm_value_index(u64 v);
const char *rbm_value_name(u64 v, char *buf, size_t len);

/* rbm_trace.c */
void rbm_trace_access(int level, const void *word, enum rbm_access kind,
		      unsigned long val, bool modified);
void rbm_trace_op(int level, const char *what);
const char *rbm_op_name(const struct rbm_op *op, char *buf, size_t len);
extern const char *const rbm_level_names[RBM_MAX_DEPTH];

#endif /* RBM_MODEL_H */
