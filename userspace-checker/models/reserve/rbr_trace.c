// SPDX-License-Identifier: GPL-2.0
/*
 * The step-by-step listing of a counterexample: every event, every access
 * to a shared word and every clock read, indented by nesting level, with
 * the reserve path's steps (A-F, in the seed's labels) marked where an
 * access is one, and before_stamp / write_stamp after each access.
 */
#include <stdarg.h>
#include <string.h>

#include "rbr_model.h"

const char *const rbr_level_names[RBR_MAX_DEPTH] = {
	"normal", "softirq", "irq", "nmi",
};

static const char *const access_names[] = {
	[RBR_LOAD]	= "read",
	[RBR_STORE]	= "set",
	[RBR_RMW]	= "add",
	[RBR_CMPXCHG]	= "cmpxchg",
	[RBR_CLOCK]	= "clock",
};

/* The step of __rb_reserve_next() an access is, by what it touches. */
static const char *step(const struct rbr_level *v, const char *word, enum rbr_access kind)
{
	if (v->phase != RBR_RESERVING)
		return "";
	if (!v->after_c) {
		if (kind == RBR_LOAD && !strcmp(word, "tail_page->write"))
			return "A";
		if (kind == RBR_STORE && !strcmp(word, "before_stamp"))
			return "B";
		if (kind == RBR_RMW && !strcmp(word, "tail_page->write"))
			return "C";
		return "";
	}
	if (kind == RBR_STORE && !strcmp(word, "write_stamp"))
		return "D";
	if (kind == RBR_LOAD && !strcmp(word, "write_stamp"))
		return "E";
	if (kind == RBR_LOAD && !strcmp(word, "tail_page->write"))
		return "F";
	return "";
}

static void prefix(int level)
{
	const struct rbr_level *v = &rbr.lv[level];
	char ev[16] = "";

	if (v->ev >= 0)
		snprintf(ev, sizeof(ev), "ev%d", v->ev);
	fprintf(rbr.trace, "  %4d  %*s%-8s %-5s ", ++rbr.tstep, 2 * level, "",
		rbr_level_names[level], ev);
}

void rbr_trace_access(int level, const void *word, enum rbr_access kind, u64 val,
		      bool modified)
{
	const char *name = word == &rbr.clock ? "clock" : rbr.var->word_name(word);
	const char *s = step(&rbr.lv[level], name, kind);
	u64 before, write;
	char acc[96];

	if (kind == RBR_CLOCK)
		snprintf(acc, sizeof(acc), "clock = %llu (%s)", val, modified ? "moved" : "did not move");
	else if (kind == RBR_STORE)
		snprintf(acc, sizeof(acc), "set %s = %lld", name, (long long)val);
	else
		snprintf(acc, sizeof(acc), "%s %s -> %lld%s", access_names[kind], name,
			 (long long)val, kind == RBR_CMPXCHG && !modified ? " (no swap)" : "");
	rbr.var->stamps(&before, &write);
	prefix(level);
	fprintf(rbr.trace, "%-2s %-44s | before_stamp=%llu write_stamp=%llu\n", s, acc,
		before, write);
}

void rbr_trace_event(int level, const char *fmt, ...)
{
	va_list ap;

	prefix(level < 0 ? 0 : level);
	va_start(ap, fmt);
	vfprintf(rbr.trace, fmt, ap);
	va_end(ap);
	fputc('\n', rbr.trace);
}
