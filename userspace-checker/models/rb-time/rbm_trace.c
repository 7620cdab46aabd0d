// SPDX-License-Identifier: GPL-2.0
/*
 * The step-by-step listing of a counterexample: every operation and every
 * access to the shared words, indented by nesting level, with the words
 * after the access.  Words other than cnt are shown as counter-bits:value.
 */
#include <string.h>

#include "rbm_model.h"

const char *const rbm_level_names[RBM_MAX_DEPTH] = {
	"normal", "softirq", "irq", "nmi", "transition",
};

static const char *const access_names[] = {
	[RBM_LOAD]	 = "read",
	[RBM_STORE]	 = "set",
	[RBM_INC_RETURN] = "inc_return",
	[RBM_CMPXCHG]	 = "cmpxchg",
};

const char *rbm_op_name(const struct rbm_op *op, char *buf, size_t len)
{
	static const char *const v[RBM_NVALS] = { "0", "V1", "V2" };

	switch (op->kind) {
	case OP_READ:
		snprintf(buf, len, op->final ? "final read()" : "read()");
		break;
	case OP_SET:
		snprintf(buf, len, "set(%s)", v[op->a]);
		break;
	case OP_CMPXCHG:
		snprintf(buf, len, "cmpxchg(%s->%s)", v[op->a], v[op->b]);
		break;
	}
	return buf;
}

/* cnt as a number, the other words as counter-bits:value */
static const char *word_value(int w, unsigned long x, char *buf, size_t len)
{
	if (!strcmp(rbm.var->word_names[w], "cnt"))
		snprintf(buf, len, "%lu", x);
	else
		snprintf(buf, len, "%lu:%lx", (x >> 30) & 3, x & ((1UL << 30) - 1));
	return buf;
}

static void words(FILE *f)
{
	char v[32];

	for (unsigned int w = 0; w < rbm.var->nwords; w++)
		fprintf(f, " %s=%s", rbm.var->word_names[w],
			word_value(w, rbm.words[w], v, sizeof(v)));
}

static void prefix(int level)
{
	char op[64];

	fprintf(rbm.trace, "  %4d  %*s%-10s %-18s ", ++rbm.tstep, 2 * level, "",
		rbm_level_names[level], rbm_op_name(&rbm.lv[level].op, op, sizeof(op)));
}

void rbm_trace_access(int level, const void *word, enum rbm_access kind,
		      unsigned long val, bool modified)
{
	int w = (const unsigned long *)word - rbm.words;
	char acc[64], v[32];

	word_value(w, val, v, sizeof(v));
	if (kind == RBM_STORE)
		snprintf(acc, sizeof(acc), "set(%s, %s)", rbm.var->word_names[w], v);
	else
		snprintf(acc, sizeof(acc), "%s(%s) = %s", access_names[kind],
			 rbm.var->word_names[w], v);
	prefix(level);
	fprintf(rbm.trace, "%-26s%s", acc, kind == RBM_CMPXCHG && !modified ? "(no swap)" : "");
	fprintf(rbm.trace, " |");
	words(rbm.trace);
	fputc('\n', rbm.trace);
}

void rbm_trace_op(int level, const char *what)
{
	prefix(level);
	fprintf(rbm.trace, "%s\n", what);
}
