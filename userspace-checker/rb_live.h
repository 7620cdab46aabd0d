/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_LIVE_H
#define _RB_LIVE_H

#include "rb_input.h"

#include <stdbool.h>

/* Set from a signal handler: end the run as if its duration were over. */
extern volatile int rb_live_stop;

struct rb_live_opts {
	const char	*instance;	/* NULL: the top-level buffer */
	double		duration;	/* seconds to read while writers run */
	double		progress;	/* seconds between progress lines, 0: none */
	const char	*save_dir;	/* keep every sub-buffer read there (a raw capture), or NULL */
	bool		stop_on_fail;	/* end the run at the first violation */
	const char	*keep_failing;	/* write the sub-buffers around it here */
	int		quiet_ms;	/* the last drain ends after this long quiet */
};

/*
 * Read the per-CPU buffers of a tracefs instance in buffer order, while the
 * writers run, for @o->duration seconds; then turn the instance's tracing
 * off and drain what is left, until the writers still in flight are done
 * (rb_capture_drain_quiet()).  Returns 0, or -1 with in->err set.
 */
int rb_live_read(const struct rb_live_opts *o, struct rb_input *in);

#endif /* _RB_LIVE_H */
