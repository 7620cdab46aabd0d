// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding of the rbstress event.  The format comes from the kernel (or the
 * trace.dat), never from a copy of our header: a module built with other
 * fields is rejected with the name of the field that does not match.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rb_format.h"
#include "rb_names.h"

struct field_spec {
	const char	*name;
	int		size;		/* expected total size in bytes */
	size_t		off;		/* of the pointer in struct rb_format */
	int		optional;	/* events of older modules lack it */
};

#define FIELD(n, sz) { #n, sz, offsetof(struct rb_format, n), 0 }
#define OPTIONAL_FIELD(n, sz) { #n, sz, offsetof(struct rb_format, n), 1 }

static const struct field_spec fields[] = {
	FIELD(clock, 8), FIELD(seq, 8), FIELD(open_seq, 8 * RB_CTX_MAX),
	FIELD(idx, 4), FIELD(pre_idx, 4), FIELD(end_idx, 4), FIELD(window_ns, 4),
	FIELD(cpu, 2), FIELD(ctx, 1), FIELD(depth, 1), FIELD(open_mask, 1),
	FIELD(clock_id, 1),
	/* a module reload shows as a new load_id */
	OPTIONAL_FIELD(load_id, 4),
	/* the own-clock window's lower end */
	OPTIONAL_FIELD(pre_clock, 8),
};

int rb_format_init(struct rb_format *f, struct tep_handle *tep, char *err, size_t errlen)
{
	struct tep_event *event;

	memset(f, 0, sizeof(*f));
	f->tep = tep;
	event = tep_find_event_by_name(tep, RB_EVENT_SYSTEM, RB_EVENT_NAME);
	if (!event) {
		snprintf(err, errlen, "no %s:%s event format (is the rbstress module loaded?)",
			 RB_EVENT_SYSTEM, RB_EVENT_NAME);
		f->id = -1;	/* no record is ours */
		return RB_FORMAT_ABSENT;
	}
	f->id = event->id;
	rb_names_from_format(event);

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		struct tep_format_field *field = tep_find_field(event, fields[i].name);

		if (!field && fields[i].optional)
			continue;
		if (!field) {
			snprintf(err, errlen, "%s:%s has no field '%s'",
				 RB_EVENT_SYSTEM, RB_EVENT_NAME, fields[i].name);
			return -1;
		}
		if (field->size != fields[i].size) {
			snprintf(err, errlen, "%s:%s field '%s' is %d bytes, expected %d",
				 RB_EVENT_SYSTEM, RB_EVENT_NAME, fields[i].name,
				 field->size, fields[i].size);
			return -1;
		}
		*(struct tep_format_field **)((char *)f + fields[i].off) = field;
		if (field->offset + field->size > f->min_size)
			f->min_size = field->offset + field->size;
	}
	return 0;
}

static unsigned long long num(const struct rb_format *f, struct tep_format_field *field,
			      const char *data, int index)
{
	int size = field->size;

	if (field->flags & TEP_FIELD_IS_ARRAY)
		size = field->size / field->arraylen;
	return tep_read_number(f->tep, data + field->offset + index * size, size);
}

int rb_format_decode(const struct rb_format *f, struct tep_record *rec, struct rb_event *e)
{
	const char *d = rec->data;

	if (rec->size < f->min_size)
		return -1;

	e->ts = rec->ts;
	e->cpu = rec->cpu;
	e->clock = num(f, f->clock, d, 0);
	e->seq = num(f, f->seq, d, 0);
	for (int i = 0; i < RB_CTX_MAX; i++)
		e->open_seq[i] = num(f, f->open_seq, d, i);
	e->idx = num(f, f->idx, d, 0);
	e->pre_idx = num(f, f->pre_idx, d, 0);
	e->end_idx = num(f, f->end_idx, d, 0);
	e->window_ns = num(f, f->window_ns, d, 0);
	e->field_cpu = num(f, f->cpu, d, 0);
	e->ctx = num(f, f->ctx, d, 0);
	e->depth = num(f, f->depth, d, 0);
	e->open_mask = num(f, f->open_mask, d, 0);
	e->clock_id = num(f, f->clock_id, d, 0);
	e->load_id = f->load_id ? num(f, f->load_id, d, 0) : 0;
	e->has_pre_clock = f->pre_clock != NULL;
	e->pre_clock = f->pre_clock ? num(f, f->pre_clock, d, 0) : 0;
	/* Values no module writes: the record is not what it claims to be. */
	if (e->ctx >= RB_CTX_MAX || e->clock_id >= RB_CLOCK_MAX)
		return -1;
	return 0;
}
