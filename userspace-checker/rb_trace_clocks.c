// SPDX-License-Identifier: GPL-2.0
/* The kernel's trace clocks (rb_trace_clocks.h). */
#include <stdio.h>
#include <string.h>

#include "rb_trace_clocks.h"

static const char *const clocks[] = {
	"local", "global", "counter", "uptime", "perf", "mono", "mono_raw", "boot", "tai",
	"x86-tsc",
};

bool rb_trace_clock_known(const char *name)
{
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (!strcmp(name, clocks[i]))
			return true;
	return false;
}

int rb_trace_clock_selected(const char *text, char *name, size_t len)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close || (size_t)(close - open) > len)
		return 0;
	snprintf(name, len, "%.*s", (int)(close - open - 1), open + 1);
	return 1;
}

const char *rb_trace_clock_list(void)
{
	static char list[128];

	if (!list[0])
		for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i ? ", " : "", clocks[i]);
	return list;
}
