// SPDX-License-Identifier: GPL-2.0
/*
 * The article's requirements on rb_time_t, checked when each operation
 * returns.  The abstract time "cur" is what a true 64-bit local would
 * hold: it takes a set's value when the set returns, and a successful
 * cmpxchg's new value when that returns.
 *
 *  - A read may fail only if it interrupted a write: when it started, a
 *    write (set or cmpxchg) below it had modified the words and not
 *    returned yet, and no set or successful cmpxchg had returned since
 *    that modification ("a read after a write always succeeds").  A
 *    cmpxchg that fails does not make the words good, but it must not
 *    leave them torn either.
 *  - A read that succeeds returns a value the time really had while the
 *    read ran, or, if it interrupted a write, the value that write is
 *    storing.  Never a mix of two values' halves.
 *  - A set always completes (a livelock is caught by the step bound).
 *  - A cmpxchg behaves like a cmpxchg: it succeeds only if the time was
 *    "expect" at some point while it ran (or an interrupted write is
 *    storing "expect"), and it fails only if the time was not "expect" at
 *    some point while it ran, or it interrupted a write, or (unless
 *    --strict-cmpxchg) a write landed while it ran, even one that stored
 *    "expect" again: the ring buffer takes a failed cmpxchg to mean "I was
 *    interrupted", which is true then.  The article's listing does fail
 *    that way; --strict-cmpxchg shows it.
 */
#include <string.h>

#include "rbm_model.h"

int rbm_value_index(u64 v)
{
	for (int i = 0; i < RBM_NVALS; i++)
		if (v == rbm.vals[i])
			return i;
	return RBM_OTHER;
}

/* "V1", or for a value nobody wrote, where its halves came from. */
const char *rbm_value_name(u64 v, char *buf, size_t len)
{
	static const char *const names[RBM_NVALS] = { "0", "V1", "V2" };
	static const struct { const char *name; int shift; u64 mask; } part[] = {
		{ "msb", 60, 0xf }, { "top", 30, (1 << 30) - 1 }, { "bottom", 0, (1 << 30) - 1 },
	};
	int i = rbm_value_index(v);
	size_t n;

	if (i != RBM_OTHER)
		return names[i];
	n = snprintf(buf, len, "%#llx (", (unsigned long long)v);
	for (unsigned int p = 0; p < 3 && n < len; p++) {
		u64 field = (v >> part[p].shift) & part[p].mask;
		const char *from = "?";

		/* a part all values share tells nothing */
		if (((rbm.vals[1] >> part[p].shift) & part[p].mask) ==
		    ((rbm.vals[2] >> part[p].shift) & part[p].mask))
			continue;
		for (int k = 0; k < RBM_NVALS; k++)
			if (((rbm.vals[k] >> part[p].shift) & part[p].mask) == field)
				from = names[k];
		n += snprintf(buf + n, len - n, "%s%s of %s", n > 0 && buf[n - 1] != '(' ? ", " : "",
			      part[p].name, from);
	}
	if (n < len)
		snprintf(buf + n, len - n, ")");
	return buf;
}

static const char *value_set(unsigned int mask, char *buf, size_t len)
{
	static const char *const names[RBM_NVALS] = { "0", "V1", "V2" };
	size_t n = snprintf(buf, len, "{");

	for (int i = 0; i < RBM_NVALS && n < len; i++)
		if (mask & 1u << i)
			n += snprintf(buf + n, len - n, "%s%s", n > 1 ? ", " : "", names[i]);
	if (n < len)
		snprintf(buf + n, len - n, "}");
	return buf;
}

void rbm_op_begin(int level)
{
	struct rbm_level *v = &rbm.lv[level];

	v->may_fail = false;
	for (int l = 0; l < level; l++)
		if (rbm.lv[l].in_op && rbm.lv[l].dirty)
			v->may_fail = true;
	v->seen = 1u << rbm.cur;
	v->targets = 0;
	v->written_during = false;
	for (int l = 0; l < level; l++) {
		const struct rbm_level *low = &rbm.lv[l];

		if (!low->in_op)
			continue;
		if (low->op.kind == OP_SET)
			v->targets |= 1u << low->op.a;
		else if (low->op.kind == OP_CMPXCHG)
			v->targets |= 1u << low->op.b;
	}
	if (rbm.trace)
		rbm_trace_op(level, v->may_fail ? "begins (interrupted a write: may fail)" : "begins");
}

static void set_cur(int idx)
{
	rbm.cur = idx;
	for (int l = 0; l < rbm.depth; l++)
		if (rbm.lv[l].in_op)
			rbm.lv[l].seen |= 1u << idx;
}

void rbm_op_end(int level, bool ok, u64 val)
{
	struct rbm_level *v = &rbm.lv[level];
	unsigned int legal = v->seen | (v->may_fail ? v->targets : 0);
	char op[64], a[128], b[64], what[256];
	int idx = rbm_value_index(val);

	rbm_op_name(&v->op, op, sizeof(op));
	switch (v->op.kind) {
	case OP_READ:
		if (!ok && !v->may_fail)
			rbm_fail("%s in %s failed, but it interrupted no write "
				 "(the last write to the words had returned)",
				 op, rbm_level_names[level]);
		if (ok && !(legal & 1u << idx))
			rbm_fail("%s in %s returned %s; it may return only %s",
				 op, rbm_level_names[level], rbm_value_name(val, a, sizeof(a)),
				 value_set(legal, b, sizeof(b)));
		snprintf(what, sizeof(what), ok ? "returns true, %s" : "returns false%s",
			 ok ? rbm_value_name(val, a, sizeof(a)) : "");
		break;
	case OP_SET:
		set_cur(v->op.a);
		snprintf(what, sizeof(what), "returns");
		break;
	case OP_CMPXCHG:
		if (ok && !(legal & 1u << v->op.a))
			rbm_fail("%s in %s succeeded, but the time was never %s while it ran: it was %s",
				 op, rbm_level_names[level], rbm_value_name(rbm.vals[v->op.a], a, sizeof(a)),
				 value_set(v->seen, b, sizeof(b)));
		if (!ok && !v->may_fail && !(v->seen & ~(1u << v->op.a)) &&
		    (rbm.strict_cmpxchg || !v->written_during))
			rbm_fail("%s in %s failed, but it interrupted no write and the time was %s "
				 "all along%s", op, rbm_level_names[level],
				 rbm_value_name(rbm.vals[v->op.a], a, sizeof(a)),
				 v->written_during ? " (a write of the same value landed while it ran)" : "");
		if (ok)
			set_cur(v->op.b);
		snprintf(what, sizeof(what), "returns %s", ok ? "true" : "false");
		break;
	}
	/* a set or a successful cmpxchg leaves the words whole again */
	if (v->op.kind == OP_SET || (v->op.kind == OP_CMPXCHG && ok))
		for (int l = 0; l < rbm.depth; l++)
			rbm.lv[l].dirty = false;
	if (v->modified)
		for (int l = 0; l < level; l++)
			if (rbm.lv[l].in_op)
				rbm.lv[l].written_during = true;
	if (rbm.trace)
		rbm_trace_op(level, what);
}
