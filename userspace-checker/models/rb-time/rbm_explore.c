// SPDX-License-Identifier: GPL-2.0
/*
 * Depth-first exploration of every nesting interleaving.
 *
 * An execution is a sequence of choices: which operation a context runs
 * next, whether it ends its turn, and, before every access to a shared
 * word, whether a higher context interrupts right there.  Executions are
 * re-run from the start with a replayed prefix of choices (stateless
 * search); at each new choice point the whole state is hashed, and a state
 * already explored is not explored again.  A state is the words, the
 * abstract time, and for each context on the stack its operation and what
 * that operation's accesses returned so far, which fixes its C locals: the
 * code under test is deterministic.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rbm_model.h"
#include "rbm_search.h"

struct rbm_model rbm;

#define mix rbm_search_mix

static bool visit(u64 h)	/* true if already there */
{
	if (rbm_search_visit(h))
		return true;
	rbm.states++;
	return false;
}

static u64 state_hash(void)
{
	u64 h = 0;
	int l;

	for (unsigned int w = 0; w < rbm.var->nwords; w++)
		h = mix(h, rbm.words[w]);
	h = mix(h, rbm.cur);
	for (l = 0; l < rbm.depth; l++) {
		const struct rbm_level *v = &rbm.lv[l];

		h = mix(h, (u64)v->ops_left << 8 | v->active << 1 | v->in_op);
		if (!v->active)
			continue;
		h = mix(h, v->inst_ops > 0);
		if (!v->in_op)
			continue;
		h = mix(h, (u64)v->op.kind << 24 | v->op.a << 16 | v->op.b << 8 | v->op.final);
		h = mix(h, (u64)v->naccess << 32 | v->dirty << 2 | v->modified << 1 | v->may_fail);
		h = mix(h, v->seen_hash);
		h = mix(h, (u64)v->written_during << 16 | v->seen << 8 | v->targets);
	}
	return h;
}

void rbm_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rbm.why, sizeof(rbm.why), fmt, ap);
	va_end(ap);
	longjmp(rbm.out, RBM_END_VIOLATION);
}

int rbm_choose(int n)
{
	if (n <= 1)
		return 0;
	if (rbm.pos < rbm.plen)
		return rbm.path[rbm.pos++].pick;
	if (rbm.hashing && visit(state_hash()))
		longjmp(rbm.out, RBM_END_PRUNED);
	if (rbm.pos >= RBM_MAX_PATH)
		rbm_fail("more than %d choices in one execution", RBM_MAX_PATH);
	rbm.path[rbm.pos].pick = 0;
	rbm.path[rbm.pos].n = n;
	rbm.plen = ++rbm.pos;
	return 0;
}

static void run_instance(int level);

static void exec_op(int level, const struct rbm_op *op)
{
	struct rbm_level *v = &rbm.lv[level];
	void *t = rbm.words;
	bool ok = true;
	u64 val = 0;

	v->in_op = true;
	v->op = *op;
	v->naccess = 0;
	v->seen_hash = 0;
	v->modified = false;
	v->dirty = false;
	rbm_op_begin(level);
	switch (op->kind) {
	case OP_READ:
		ok = rbm.var->read(t, &val);
		break;
	case OP_SET:
		rbm.var->set(t, rbm.vals[op->a]);
		break;
	case OP_CMPXCHG:
		ok = rbm.var->cmpxchg(t, rbm.vals[op->a], rbm.vals[op->b]);
		break;
	}
	rbm_op_end(level, ok, val);
	v->in_op = false;
}

/* One turn of a context: operations until it stops or its budget is spent. */
static void run_instance(int level)
{
	struct rbm_level *v = &rbm.lv[level];
	int prev = rbm.top;

	rbm.top = level;
	v->active = true;
	v->inst_ops = 0;
	for (;;) {
		struct rbm_op op;
		int stop, pick;

		if (level == 0 && !v->ops_left) {
			/* the normal context ends with a read that must be right */
			op = (struct rbm_op){ .kind = OP_READ, .final = true };
			exec_op(0, &op);
			break;
		}
		if (!v->ops_left)
			break;
		stop = level > 0 && v->inst_ops > 0;
		pick = rbm_choose(rbm.nmenu + stop);
		if (stop && !pick)
			break;
		op = rbm.menu[pick - stop];
		v->ops_left--;
		v->inst_ops++;
		exec_op(level, &op);
	}
	v->active = false;
	rbm.top = prev;
}

void rbm_point(const void *word)
{
	int level = rbm.top;

	if (++rbm.steps > RBM_MAX_STEPS)
		rbm_fail("livelock: more than %d accesses in one execution", RBM_MAX_STEPS);
	for (;;) {
		int cand[RBM_MAX_DEPTH], n = 0, pick;

		for (int j = level + 1; j < rbm.depth; j++)
			if (rbm.lv[j].ops_left > 0)
				cand[n++] = j;
		if (!n)
			return;
		pick = rbm_choose(n + 1);
		if (!pick)
			return;
		run_instance(cand[pick - 1]);
	}
}

void rbm_done(const void *word, enum rbm_access kind, unsigned long val, bool modified)
{
	struct rbm_level *v = &rbm.lv[rbm.top];

	v->naccess++;
	v->seen_hash = mix(v->seen_hash, (u64)val << 2 | kind);
	if (modified)
		v->modified = v->dirty = true;
	if (rbm.trace)
		rbm_trace_access(rbm.top, word, kind, val, modified);
}

int rbm_run_once(void)
{
	int end;

	memset(rbm.words, 0, sizeof(rbm.words));
	memset(rbm.lv, 0, sizeof(rbm.lv));
	for (int l = 0; l < rbm.depth; l++)
		rbm.lv[l].ops_left = rbm.ops;
	rbm.cur = 0;
	rbm.top = -1;
	rbm.steps = 0;
	rbm.pos = 0;
	rbm.why[0] = '\0';
	end = setjmp(rbm.out);
	if (!end) {
		run_instance(0);
		end = RBM_END_OK;
	}
	rbm.executions++;
	if (end == RBM_END_OK)
		rbm.complete++;
	else if (end == RBM_END_PRUNED)
		rbm.pruned++;
	return end;
}

/* Every execution, depth first; stops at the first counterexample. */
int rbm_explore(void)
{
	/* states of another bound have another future: forget them */
	rbm_search_forget();
	rbm.plen = 0;
	for (;;) {
		if (rbm_run_once() == RBM_END_VIOLATION)
			return 1;
		while (rbm.plen > 0 && rbm.path[rbm.plen - 1].pick + 1 >= rbm.path[rbm.plen - 1].n)
			rbm.plen--;
		if (!rbm.plen)
			return 0;
		rbm.path[rbm.plen - 1].pick++;
	}
}
