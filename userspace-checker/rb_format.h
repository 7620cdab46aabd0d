/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rbstress event's format: field offsets resolved once from the tep
 * handle (the kernel's format file, or the one saved in a trace.dat), then
 * used to decode each record without a lookup per field.
 */
#ifndef _RB_FORMAT_H
#define _RB_FORMAT_H

#include <event-parse.h>

#include "rb_event.h"

#define RB_EVENT_SYSTEM	"rbstress"
#define RB_EVENT_NAME	"rbstress_event"

struct rb_format {
	struct tep_handle	*tep;
	int			id;
	int			min_size;	/* end of the last field */
	struct tep_format_field	*clock, *seq, *open_seq, *idx, *pre_idx,
				*end_idx, *window_ns, *cpu, *ctx, *depth,
				*open_mask, *clock_id;
	struct tep_format_field	*load_id;	/* optional: older modules lack it */
	struct tep_format_field	*pre_clock;	/* optional too */
};

/*
 * Returns 0, or -1 with @err (of @errlen) saying which field is missing or
 * has an unexpected size, or RB_FORMAT_ABSENT (< 0 too) if the capture has
 * no rbstress event at all: a reader that judges every event may go on.
 */
#define RB_FORMAT_ABSENT	(-2)
int rb_format_init(struct rb_format *f, struct tep_handle *tep, char *err, size_t errlen);

/* Is this record an rbstress event? */
static inline int rb_format_is_ours(const struct rb_format *f, struct tep_record *rec)
{
	return tep_data_type(f->tep, rec) == f->id;
}

/* Decode @rec (known to be ours) into @e.  Returns -1 if it is too short or holds impossible values. */
int rb_format_decode(const struct rb_format *f, struct tep_record *rec, struct rb_event *e);

#endif /* _RB_FORMAT_H */
