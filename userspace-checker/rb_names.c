// SPDX-License-Identifier: GPL-2.0
/*
 * Context and clock names, from the event's print format (rb_names.h).
 * The numbers are the module's ABI (enum rb_ctx and enum rb_clock, what
 * the checker reasons about); the names are only shown, so they come from
 * the module that wrote the capture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rb_event.h"
#include "rb_names.h"

#define RB_NAME_LEN	24

static char ctx_names[RB_CTX_MAX][RB_NAME_LEN];
static char clock_names[RB_CLOCK_MAX][RB_NAME_LEN];

static char (*table(const char *field, unsigned int *n))[RB_NAME_LEN]
{
	if (!strcmp(field, "ctx")) {
		*n = RB_CTX_MAX;
		return ctx_names;
	}
	if (!strcmp(field, "clock_id")) {
		*n = RB_CLOCK_MAX;
		return clock_names;
	}
	return NULL;
}

void rb_names_set(const char *field, unsigned int value, const char *name)
{
	unsigned int n;
	char (*t)[RB_NAME_LEN] = table(field, &n);

	if (t && value < n)
		snprintf(t[value], RB_NAME_LEN, "%s", name);
}

void rb_names_from_format(struct tep_event *event)
{
	memset(ctx_names, 0, sizeof(ctx_names));
	memset(clock_names, 0, sizeof(clock_names));
	for (struct tep_print_arg *a = event->print_fmt.args; a; a = a->next) {
		struct tep_print_arg *f = a->symbol.field;

		if (a->type != TEP_PRINT_SYMBOL || !f || f->type != TEP_PRINT_FIELD)
			continue;
		for (struct tep_print_flag_sym *s = a->symbol.symbols; s; s = s->next) {
			char *end;
			unsigned long v = strtoul(s->value, &end, 0);

			/* an enum the kernel did not turn into its value: no name */
			if (end != s->value && !*end)
				rb_names_set(f->field.name, v, s->str);
		}
	}
}

static const char *name_of(char (*t)[RB_NAME_LEN], unsigned int n, unsigned int v,
			   const char *prefix)
{
	static char buf[4][RB_NAME_LEN];
	static unsigned int next;
	char *b;

	if (v < n && t[v][0])
		return t[v];
	/* a few at once in one message: rotate */
	b = buf[next++ % 4];
	snprintf(b, RB_NAME_LEN, "%s%u", prefix, v);
	return b;
}

const char *rb_ctx_name(unsigned int ctx)
{
	return name_of(ctx_names, RB_CTX_MAX, ctx, "ctx");
}

const char *rb_ctx_name_or(unsigned int ctx, const char *other)
{
	return ctx < RB_CTX_MAX && ctx_names[ctx][0] ? ctx_names[ctx] : other;
}

bool rb_clock_named(unsigned int clock)
{
	return clock < RB_CLOCK_MAX && clock_names[clock][0];
}

const char *rb_clock_name(unsigned int clock)
{
	return name_of(clock_names, RB_CLOCK_MAX, clock, "clock");
}

int rb_clock_from_name(const char *name)
{
	for (int i = 0; i < RB_CLOCK_MAX; i++)
		if (clock_names[i][0] && !strcmp(name, clock_names[i]))
			return i;
	return -1;
}
