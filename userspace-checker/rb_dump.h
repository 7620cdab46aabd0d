/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_DUMP_H
#define _RB_DUMP_H

#include <stdio.h>

#include "rb_input.h"

/*
 * One line per rbstress event, in buffer order: where it is, its stamp and
 * delta to the previous event of its CPU, its context and sequence, its
 * nesting fields and the clock it read.  @cpu < 0: every CPU.
 */
struct rb_dump *rb_dump_new(FILE *out, int cpu);
void rb_dump_free(struct rb_dump *d);
/* For rb_input.on_event. */
void rb_dump_event(void *d, const struct rb_event *e);

#endif /* _RB_DUMP_H */
