// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rb_counters.h"

/* The names the kernel prints (ring_buffer_ts_path_names[]). */
const char *const rb_ts_path_names[RB_TS_PATH_MAX] = {
	[RB_TS_FIRST_SUBBUF]	= "first_subbuf",
	[RB_TS_READ_FAILED]	= "read_failed",
	[RB_TS_BEFORE_AFTER]	= "before_stamp!=write_stamp",
	[RB_TS_EXTEND]		= "time_extend",
	[RB_TS_ABSOLUTE]	= "absolute",
	[RB_TS_A_TO_C]		= "A-C",
	[RB_TS_A_TO_C_LOST]	= "A-C,C-F_delta_0",
	[RB_TS_B_TO_C]		= "B-C",
	[RB_TS_A_TO_B_LOST]	= "A-B_delta_0",
	[RB_TS_C_TO_F_LOST]	= "C-F_delta_0",
	[RB_TS_DISCARD_REMOVED]	= "discard_removed",
	[RB_TS_DISCARD_PADDING]	= "discard_padding",
};

unsigned int rb_counters_parse(const char *stats, uint64_t out[RB_TS_PATH_MAX])
{
	static const char prefix[] = "ts path ";
	const char *line = stats;
	unsigned int found = 0;

	memset(out, 0, sizeof(uint64_t) * RB_TS_PATH_MAX);
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);

		if (len > sizeof(prefix) && !strncmp(line, prefix, sizeof(prefix) - 1)) {
			const char *name = line + sizeof(prefix) - 1;
			const char *colon = memchr(name, ':', len - (sizeof(prefix) - 1));

			for (int p = 0; colon && p < RB_TS_PATH_MAX; p++) {
				if ((size_t)(colon - name) == strlen(rb_ts_path_names[p]) &&
				    !strncmp(name, rb_ts_path_names[p], colon - name)) {
					out[p] = strtoull(colon + 1, NULL, 10);
					found |= 1u << p;
					break;
				}
			}
		}
		line = end ? end + 1 : NULL;
	}
	return found;
}

uint64_t rb_counters_sum(const struct rb_path_counters *k, int cpu, unsigned int mask)
{
	uint64_t sum = 0;

	for (int p = 0; p < RB_TS_PATH_MAX; p++)
		if (mask & (1u << p))
			sum += k->v[cpu][p];
	return sum;
}

uint64_t rb_stats_value(const char *stats, const char *key)
{
	size_t len = strlen(key);

	for (const char *line = stats; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (!strncmp(line, key, len) && line[len] == ':' && line[len + 1] == ' ')
			return strtoull(line + len + 2, NULL, 10);
	return 0;
}

bool rb_stats_untouched(const char *stats)
{
	return strstr(stats, "\nread events: ") && strstr(stats, "overrun: ") &&
	       !rb_stats_value(stats, "read events") && !rb_stats_value(stats, "overrun");
}

uint64_t rb_counters_dropped(const char *stats)
{
	return rb_stats_value(stats, "dropped events");
}

void rb_counters_sub(struct rb_path_counters *after, const struct rb_path_counters *before)
{
	for (int cpu = 0; cpu < after->nr_cpus && cpu < before->nr_cpus; cpu++) {
		for (int p = 0; p < RB_TS_PATH_MAX; p++)
			if (after->v[cpu][p] < before->v[cpu][p])
				after->was_reset[cpu] = true;
		if (after->was_reset[cpu])
			continue;
		if (before->untouched[cpu]) {
			after->untouched[cpu] = true;
			continue;
		}
		for (int p = 0; p < RB_TS_PATH_MAX; p++)
			after->v[cpu][p] -= before->v[cpu][p];
		after->dropped[cpu] -= after->dropped[cpu] >= before->dropped[cpu] ?
				       before->dropped[cpu] : after->dropped[cpu];
	}
}
