/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the readers (live tracefs, trace.dat) share: each hands its records
 * to rb_input_record(), which decodes rbstress events into the verifier and
 * counts everything else.
 */
#ifndef _RB_INPUT_H
#define _RB_INPUT_H

#include <stdint.h>

#include "rb_counters.h"
#include "rb_format.h"
#include "rb_generic.h"
#include "rb_verify.h"

struct rb_input {
	struct rb_format	fmt;
	struct rb_verifier	*v;
	/*
	 * The rules over every event, if set (verify): a capture without
	 * rbstress events (fmt.id -1) is judged by them alone.
	 */
	struct rb_generic	*g;
	uint64_t		records;	/* all records read */
	uint64_t		other;		/* of other events: skipped */
	uint64_t		subbufs;	/* sub-buffers read (live) */
	struct rb_path_counters	counters;	/* the kernel's, over the run */
	int			expect_clock;	/* enum rb_clock, or -1: any */
	/* Called with each decoded event after it was verified, if set. */
	void			(*on_event)(void *arg, const struct rb_event *e);
	void			*on_event_arg;
	/*
	 * Live only: the event's id now, or -1.  Asked when a record of an
	 * unknown type comes, since a reloaded module may get another id.
	 */
	int			(*resolve_id)(void *arg);
	void			*resolve_arg;
	int			unknown_type;	/* last type asked about */
	uint64_t		subbufs_across_reset; /* read as the buffer reset: not verified */
	/*
	 * verify --mapped: the trace.dat's pages were read through a
	 * memory-mapped ring buffer, which leaves stale bytes after each
	 * sub-buffer's data; otherwise they must be zero (rb_subbuf.h).
	 */
	bool			mapped;
	/*
	 * Per CPU: the paddings of delta 1 in effect after the last
	 * sub-buffer's last event (since an absolute stamp, in it or in the
	 * copies it continues), and that event's stamp.  A reader that copies a partly read
	 * page out stamps the copy with its read_stamp, which took them as no
	 * time: events read after them, in that copy too, say so (rb_pos).
	 */
	struct {
		uint64_t	ts;
		unsigned int	pad1;
	}			tail[RB_MAX_CPUS];
	char			err[256];	/* first input error, if any */
	char			note[320];	/* what the reader could not check, if any */
	int			failed;		/* the input is corrupt: stop */
};

/* Returns 0, or -1 with in->err set (corrupt record: where and what). */
int rb_input_record(struct rb_input *in, struct tep_record *rec, const struct rb_pos *pos);
/* Both sets of rules' verdict: FAIL if either fails, PASS if either passed. */
enum rb_verdict rb_input_verdict(const struct rb_input *in);

#endif /* _RB_INPUT_H */
