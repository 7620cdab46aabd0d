// SPDX-License-Identifier: GPL-2.0
/*
 * rbcheck dump: the events as the verifier saw them, so a violation can be
 * read in its neighbourhood ("what came just before normal#291462?")
 * without a second tool that decodes the fields another way.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "rb_dump.h"

struct rb_dump {
	FILE		*out;
	int		cpu;
	uint64_t	last_ts[RB_MAX_CPUS];
	bool		seen[RB_MAX_CPUS];
};

struct rb_dump *rb_dump_new(FILE *out, int cpu)
{
	struct rb_dump *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->out = out;
	d->cpu = cpu;
	fprintf(out, "# cpu  sub-buffer+offset  ts (delta to the previous event)  ctx#seq"
		"  depth idx pre end  clock (clock - ts)\n");
	return d;
}

void rb_dump_free(struct rb_dump *d)
{
	free(d);
}

void rb_dump_event(void *arg, const struct rb_event *e)
{
	struct rb_dump *d = arg;
	int64_t delta;

	if (e->cpu < 0 || e->cpu >= RB_MAX_CPUS || (d->cpu >= 0 && e->cpu != d->cpu))
		return;
	delta = d->seen[e->cpu] ? (int64_t)(e->ts - d->last_ts[e->cpu]) : 0;
	fprintf(d->out, "cpu%d %6" PRId64 "+%#05" PRIx64 "  %" PRIu64 " (%+" PRId64 ")  %s#%"
		PRIu64 "  depth=%u idx=%u pre=%u end=%u  clock=%" PRIu64 " (%+" PRId64 ")\n",
		e->cpu, e->pos.subbuf, e->pos.offset, e->ts, delta, rb_ctx_name(e->ctx), e->seq,
		e->depth, e->idx, e->pre_idx, e->end_idx, e->clock,
		(int64_t)(e->clock - e->ts));
	d->seen[e->cpu] = true;
	d->last_ts[e->cpu] = e->ts;
}
