/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names of the contexts and of the clocks: the module's, read from the
 * event's print format (its __print_symbolic() of ctx and clock_id) by
 * rb_format_init(), never a copy of them.  A value the format does not
 * name (a capture of an older module lists no clocks) is "ctx<N>" or
 * "clock<N>".
 */
#ifndef _RB_NAMES_H
#define _RB_NAMES_H

#include <event-parse.h>

/* Take the names from @event's print format; earlier ones are forgotten. */
void rb_names_from_format(struct tep_event *event);

/* Set one name, as a format would (unit tests without a format). */
void rb_names_set(const char *field, unsigned int value, const char *name);

#endif /* _RB_NAMES_H */
