/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RB_STACKS_H
#define _RB_STACKS_H

#include <stdio.h>

#include "rb_input.h"

/*
 * Print nesting stacks as they are read: each outer event that had events
 * open their windows inside its own, then those events, indented by depth,
 * with their delta to the outer event.  At most @max stacks per CPU.
 */
struct rb_stacks *rb_stacks_new(FILE *out, int max);
void rb_stacks_free(struct rb_stacks *st);
/* For rb_input.on_event. */
void rb_stacks_event(void *st, const struct rb_event *e);

#endif /* _RB_STACKS_H */
