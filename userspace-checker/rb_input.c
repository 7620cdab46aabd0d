// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "rb_input.h"

/* Is @rec ours under the id a reloaded module got?  Then take that id. */
static bool reloaded_as(struct rb_input *in, struct tep_record *rec)
{
	int type = tep_data_type(in->fmt.tep, rec);

	if (!in->resolve_id || type == in->unknown_type)
		return false;
	if (in->resolve_id(in->resolve_arg) != type) {
		in->unknown_type = type;
		return false;
	}
	in->fmt.id = type;
	return true;
}

int rb_input_record(struct rb_input *in, struct tep_record *rec, const struct rb_pos *pos)
{
	struct rb_event e = { 0 };

	in->records++;
	if (in->g)
		rb_generic_event(in->g, rec->cpu, rec->ts, tep_data_flags(in->fmt.tep, rec), pos);
	if (!rb_format_is_ours(&in->fmt, rec) && !reloaded_as(in, rec)) {
		in->other++;
		return 0;
	}
	e.pos = *pos;
	if (rb_format_decode(&in->fmt, rec, &e) < 0 || rb_verify_event(in->v, &e) < 0) {
		if (pos->subbuf >= 0)
			snprintf(in->err, sizeof(in->err),
				 "cpu%d sub-buffer %" PRId64 " offset 0x%" PRIx64
				 ": corrupt %s event (size %d)", rec->cpu, pos->subbuf,
				 pos->offset, RB_EVENT_NAME, rec->size);
		else
			snprintf(in->err, sizeof(in->err),
				 "cpu%d file offset 0x%" PRIx64 ": corrupt %s event (size %d)",
				 rec->cpu, pos->offset, RB_EVENT_NAME, rec->size);
		in->failed = 1;
		return -1;
	}
	if (in->expect_clock >= 0 && e.clock_id != (unsigned int)in->expect_clock) {
		snprintf(in->err, sizeof(in->err),
			 "the instance records with the %s clock but rbstress reads %s "
			 "(load the module with clock=%s)", rb_clock_name(in->expect_clock),
			 rb_clock_name(e.clock_id), rb_clock_name(in->expect_clock));
		in->failed = 1;
		return -1;
	}
	if (in->on_event)
		in->on_event(in->on_event_arg, &e);
	return 0;
}

enum rb_verdict rb_input_verdict(const struct rb_input *in)
{
	/* with no rbstress event, rb_verify_finish() made every rule SKIP */
	enum rb_verdict a = rb_verdict(in->v);
	enum rb_verdict b = in->g ? rb_generic_verdict(in->g) : RB_SKIP;

	if (a == RB_FAIL || b == RB_FAIL)
		return RB_FAIL;
	return a == RB_PASS || b == RB_PASS ? RB_PASS : RB_SKIP;
}
