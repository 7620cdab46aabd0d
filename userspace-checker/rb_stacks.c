// SPDX-License-Identifier: GPL-2.0
/*
 * The nesting stacks of a capture, for people: which events landed inside
 * which, and how far apart the ring buffer stamped them.  An event's own
 * open stack (open_mask, open_seq) names the events whose windows were open
 * when its window opened; the outermost of them heads the stack.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rb_stacks.h"

struct rb_stacks_cpu {
	struct rb_event	last[RB_CTX_MAX];	/* latest event of each context */
	uint64_t	head_seq;		/* outer event of the stack printed last */
	int		head_ctx;
	int		printed;
};

struct rb_stacks {
	FILE			*out;
	int			max;
	struct rb_stacks_cpu	cpu[RB_MAX_CPUS];
};

struct rb_stacks *rb_stacks_new(FILE *out, int max)
{
	struct rb_stacks *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->out = out;
	st->max = max;
	for (int i = 0; i < RB_MAX_CPUS; i++)
		st->cpu[i].head_ctx = -1;
	return st;
}

void rb_stacks_free(struct rb_stacks *st)
{
	free(st);
}

static void print_event(FILE *f, int indent, const struct rb_event *e, const struct rb_event *outer)
{
	fprintf(f, "%*s%s#%-8" PRIu64 " ts %" PRIu64 ".%09" PRIu64, indent, "",
		rb_ctx_name(e->ctx), e->seq, e->ts / 1000000000, e->ts % 1000000000);
	if (outer)
		fprintf(f, "  +%" PRId64 " ns after %s#%" PRIu64, (int64_t)(e->ts - outer->ts),
			rb_ctx_name(outer->ctx), outer->seq);
	else
		fprintf(f, "  window %u us", e->window_ns / 1000);
	fputc('\n', f);
}

void rb_stacks_event(void *arg, const struct rb_event *e)
{
	struct rb_stacks *st = arg;
	struct rb_stacks_cpu *c;
	const struct rb_event *outer, *parent;
	int low = -1, high = -1;

	if (e->cpu < 0 || e->cpu >= RB_MAX_CPUS || e->ctx >= RB_CTX_MAX)
		return;
	c = &st->cpu[e->cpu];
	c->last[e->ctx] = *e;
	if (!e->open_mask)
		return;
	for (int i = 0; i < RB_CTX_MAX; i++) {
		if (!(e->open_mask & (1u << i)))
			continue;
		if (low < 0)
			low = i;
		high = i;
	}
	outer = &c->last[low];
	parent = &c->last[high];
	/* The outer event must be the one this event says it opened inside. */
	if (outer->seq != e->open_seq[low])
		return;
	if (c->head_ctx != low || c->head_seq != outer->seq) {
		if (c->printed >= st->max)
			return;
		c->printed++;
		c->head_ctx = low;
		c->head_seq = outer->seq;
		fprintf(st->out, "cpu%d ", e->cpu);
		print_event(st->out, 0, outer, NULL);
	}
	print_event(st->out, 2 + 2 * e->depth, e,
		    parent->seq == e->open_seq[high] ? parent : outer);
}
